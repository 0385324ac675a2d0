// Reduction (sum) of int32 with wrapping addition. Every variant has the same host signature and
// appears once in the table returned by reduce::variants(); the benchmarks register from that
// table and the tests iterate over it. The GPU variants retrace the classic reduce0..reduce7
// study (Harris, "Optimizing Parallel Reduction in CUDA", and cuda-samples' reduction), each
// file naming the single change it makes over the previous one.
//
// The library contract, for every variant:
//   - temporary storage: CUB's two-phase contract (common/temp_storage.hpp). Called with
//     temp == nullptr a variant only sets temp_bytes (for these n and block) and returns; called
//     with storage it runs and never allocates. CPU variants take host storage.
//   - concurrency: no state is shared between calls (the per-device grid size of
//     vectorized_grid_stride is a fact about the device, cached per device), so any variants may
//     run at the same time on different streams, each with its own temporary storage.
//   - pointers: any 4-byte-aligned `in` and `result` (vectorized_grid_stride adds the elements
//     before the first 16-byte boundary on their own, so its int4 loads are always aligned).
//   - sizes: every n up to the limit given per variant below; a larger n is refused with
//     std::invalid_argument.
#pragma once

#include "common/variant_table.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <string_view>
#include <vector>

namespace gps::reduce {

// Writes the wrapping sum of in[0, n) (0 for n = 0) to *result. GPU variants take device pointers
// (`result` included: no host synchronisation inside the call unless the description says so)
// and enqueue their work on `stream`; CPU variants take host pointers and ignore `stream`.
// `block` is the threads per block for variants that take one (one of Variant::blocks).
using ReduceFn = void (*)(void* temp, std::size_t& temp_bytes, const int* in, int* result,
                          std::size_t n, int block, cudaStream_t stream);

using gps::kBlockSizes;
using gps::Role;
using gps::Target;
using Variant = gps::Variant<ReduceFn>;

const std::vector<Variant>& variants();
const Variant* find_variant(std::string_view name); // nullptr when unknown

// The variants, one per file (kernels/reduce/<name>.cu or cpu.cpp / library.cu). Limits on n:
//   cpu, cpu_parallel                  none
//   interleaved, convergent            n <= (2^31 - 1) x block: one block per tile of block
//                                      elements, at most 2^31 - 1 blocks (2^37 elements at block
//                                      64, more than any GPU holds)
//   first_add_on_load, warp_shuffle    n <= (2^31 - 1) x 2 x block (tiles of 2 x block)
//   vectorized_grid_stride             none: a fixed grid walks any n with 64-bit indices
//   thrust                             none (returns to the host: syncs `stream` inside the call)
//   cub                                n <= INT_MAX (CUB's 32-bit offsets, its fastest)
// (declared in registry.cpp next to their rows: adding a variant touches no header)

// Elements one block of vectorized_grid_stride covers per unrolled loop iteration.
std::size_t vectorized_grid_stride_tile(int block);

} // namespace gps::reduce
