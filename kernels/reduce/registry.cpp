// The one list of reduction variants. Adding a variant = one new file, its declaration and its
// row here, and its line in CMakeLists.txt.
#include "reduce/reduce.hpp"

#include <type_traits>

namespace gps::reduce {

// The variants, one per file (kernels/reduce/<name>.cu; cpu.cpp and library.cu hold two each).
using VariantFunction = std::remove_pointer_t<ReduceFn>;
VariantFunction reduce_cpu, reduce_cpu_parallel, reduce_interleaved, reduce_convergent,
    reduce_first_add_on_load, reduce_warp_shuffle, reduce_atomic_accumulate,
    reduce_vectorized_grid_stride, reduce_thrust, reduce_cub;

const std::vector<Variant>& variants() {
  static const std::vector<Variant> table = {
      {"cpu",
       reduce_cpu,
       Target::Cpu,
       Role::Reference,
       {},
       0,
       no_tile,
       "sequential loop: the reference"},
      {"cpu_parallel",
       reduce_cpu_parallel,
       Target::Cpu,
       Role::Baseline,
       {},
       0,
       no_tile,
       "one chunk per hardware thread, then a sum of the chunk sums"},
      {"interleaved", reduce_interleaved, Target::Gpu, Role::Study, any_block(), 256,
       one_per_thread,
       "shared-memory tree, interleaved addressing, t % (2*stride) == 0 active (divergent)"},
      {"convergent", reduce_convergent, Target::Gpu, Role::Study, any_block(), 256, one_per_thread,
       "shared-memory tree, sequential addressing, t < stride active (convergent)"},
      {"first_add_on_load", reduce_first_add_on_load, Target::Gpu, Role::Study, any_block(), 256,
       two_per_thread, "each thread adds two elements while loading: half the blocks"},
      {"warp_shuffle", reduce_warp_shuffle, Target::Gpu, Role::Study, any_block(), 256,
       two_per_thread,
       "warp reductions with shuffles, one barrier per block instead of one per level"},
      {"atomic_accumulate", reduce_atomic_accumulate, Target::Gpu, Role::Study, any_block(), 256,
       two_per_thread, "one launch: block sums added to the result with one atomicAdd per block"},
      {"vectorized_grid_stride", reduce_vectorized_grid_stride, Target::Gpu, Role::Study,
       any_block(), 256, vectorized_grid_stride_tile,
       "one launch: GPU-filling grid, int4 loads unrolled x4 in a grid-stride loop, atomicAdd"},
      {"thrust",
       reduce_thrust,
       Target::Gpu,
       Role::Vendor,
       {},
       0,
       no_tile,
       "thrust::reduce (vendor anchor; returns to the host: syncs inside the call)"},
      {"cub",
       reduce_cub,
       Target::Gpu,
       Role::Vendor,
       {},
       0,
       no_tile,
       "cub::DeviceReduce::Sum (vendor anchor)"},
  };
  return table;
}

const Variant* find_variant(std::string_view name) {
  return find_by_name(variants(), name);
}

} // namespace gps::reduce
