// The one list of scan variants. Adding a variant = one new file, its declaration and its row here,
// and its line in CMakeLists.txt.
#include "scan/scan.hpp"

#include <type_traits>

namespace gps::scan {

// The variants, one per file (kernels/scan/<name>.cu; cpu.cpp and library.cu hold two each), and
// the tile sizes their rows report.
using VariantFunction = std::remove_pointer_t<ScanFn>;
VariantFunction exclusive_scan_cpu_parallel, exclusive_scan_naive, exclusive_scan_work_efficient,
    exclusive_scan_work_efficient_compact, exclusive_scan_shared_mem, exclusive_scan_kogge_stone,
    exclusive_scan_coarsened, exclusive_scan_warp_shuffle, exclusive_scan_chained,
    exclusive_scan_decoupled_lookback, exclusive_scan_prefetch_lookback, exclusive_scan_thrust,
    exclusive_scan_cub;
std::size_t coarsened_tile(int block);
std::size_t single_pass_tile(int block); // chained and decoupled_lookback
std::size_t prefetch_tile(int block);

const std::vector<Variant>& variants() {
  static const std::vector<Variant> table = {
      {"cpu",
       exclusive_scan_cpu,
       Target::Cpu,
       Role::Reference,
       {},
       0,
       no_tile,
       "sequential loop: the reference"},
      {"cpu_parallel",
       exclusive_scan_cpu_parallel,
       Target::Cpu,
       Role::Baseline,
       {},
       0,
       no_tile,
       "three-phase multi-threaded CPU scan (chunk sums, scan of sums, chunk scans)"},
      {"naive", exclusive_scan_naive, Target::Gpu, Role::Study, any_block(), 256, one_per_thread,
       "Hillis-Steele in global memory, double-buffered, one launch per level"},
      {"work_efficient", exclusive_scan_work_efficient, Target::Gpu, Role::Study, any_block(), 512,
       one_per_thread,
       "Blelloch up-sweep/down-sweep in global memory, padded to 2^k, one launch per level"},
      {"work_efficient_compact", exclusive_scan_work_efficient_compact, Target::Gpu, Role::Study,
       any_block(), 256, one_per_thread,
       "Blelloch with only the active threads launched, stride indexing"},
      {"shared_mem", exclusive_scan_shared_mem, Target::Gpu, Role::Study, any_block(), 256,
       two_per_thread,
       "block Blelloch scan in shared memory, conflict-free padding, recursive block sums"},
      {"kogge_stone", exclusive_scan_kogge_stone, Target::Gpu, Role::Study, any_block(), 256,
       one_per_thread,
       "Kogge-Stone block scan in shared memory (double barrier per step), multi-level"},
      {"coarsened", exclusive_scan_coarsened, Target::Gpu, Role::Study, any_block(), 256,
       coarsened_tile,
       "thread coarsening: sequential section scans + block scan of section sums, multi-level"},
      {"warp_shuffle", exclusive_scan_warp_shuffle, Target::Gpu, Role::Study, any_block(), 256,
       one_per_thread, "block scan from __shfl_up_sync warp scans, multi-level"},
      {"chained", exclusive_scan_chained, Target::Gpu, Role::Study, any_block(), 512,
       single_pass_tile,
       "single pass: each tile waits for its predecessor's inclusive prefix (same tiles as "
       "decoupled_lookback)"},
      {"decoupled_lookback", exclusive_scan_decoupled_lookback, Target::Gpu, Role::Study,
       any_block(), 256, single_pass_tile,
       "single pass, decoupled look-back over 32 predecessors, 16-byte streaming loads/stores, 64 "
       "items/thread"},
      {"prefetch_lookback", exclusive_scan_prefetch_lookback, Target::Gpu, Role::Study, any_block(),
       256, prefetch_tile,
       "decoupled look-back with persistent blocks and tiles prefetched into shared memory by "
       "bulk copies (sm_90+)"},
      {"thrust",
       exclusive_scan_thrust,
       Target::Gpu,
       Role::Vendor,
       {},
       0,
       no_tile,
       "thrust::exclusive_scan (vendor anchor)"},
      {"cub",
       exclusive_scan_cub,
       Target::Gpu,
       Role::Vendor,
       {},
       0,
       no_tile,
       "cub::DeviceScan::ExclusiveSum (vendor anchor)"},
  };
  return table;
}

const Variant* find_variant(std::string_view name) {
  return find_by_name(variants(), name);
}

} // namespace gps::scan
