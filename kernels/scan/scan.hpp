// Exclusive scan (prefix sum) of int32 with wrapping addition: out[i] = in[0] + ... + in[i-1].
// Every variant has the same host signature and appears once in the table returned by
// scan::variants() (kernels/scan/registry.cpp); the benchmarks and the tests are generated from
// that table. Adding a variant: one new file kernels/scan/<name>.cu defining
// `void exclusive_scan_<name>(ScanFn's parameters)`, its declaration and row in registry.cpp, its
// line in kernels/scan/CMakeLists.txt (and its limits in the list below).
//
// The library contract, for every variant:
//   - temporary storage: CUB's two-phase contract (common/temp_storage.hpp). Called with
//     temp == nullptr a variant only sets temp_bytes (for these n and block) and returns; called
//     with at least that much storage it runs and never allocates. CPU variants take host storage.
//   - concurrency: no state is shared between calls, so any variants may run at the same time on
//     different streams, each with its own temporary storage.
//   - pointers: `in` and `out` must not overlap. Any 4-byte-aligned `in` and `out`, except where
//     the list below says 16 (int4 loads and stores; refused otherwise with
//     std::invalid_argument naming the requirement).
//   - sizes: every n up to the limit listed below; a larger n is refused with
//     std::invalid_argument naming the limit. "grid" means at most 2^31 - 1 blocks of the
//     variant's tile (2^36 elements and more: beyond any GPU's memory).
//
//   variant                   temporary storage           in, out    n
//   cpu                       none                        4, 4       any
//   cpu_parallel              4 bytes per CPU thread      4, 4       any
//   naive                     n ints                      4, 4       grid (tile = block)
//   work_efficient            2^ceil(log2 n) ints (none   4, 4       grid (tile = block, over the
//   work_efficient_compact      when n is a power of 2)              padded 2^ceil(log2 n))
//   shared_mem                tile sums of each level     4, 4       grid (tile = 2 x block)
//   kogge_stone, warp_shuffle tile sums of each level     4, 4       grid (tile = block)
//   coarsened                 tile sums of each level     4, 4       grid (tile = 8 x block)
//   chained,                  8 bytes per tile of         16, 16     2^31 - 1 tiles (2^42 and
//   decoupled_lookback          single_pass_tile(block)              more elements)
//                               (32 from 512 tiles on)
//   thrust                    what Thrust asks for        4, 4       any
//   cub                       what CUB asks for           4, 4       INT_MAX (CUB's int count)
#pragma once

#include "common/variant_table.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <string_view>
#include <vector>

namespace gps::scan {

// GPU variants take device pointers and enqueue their work on `stream` (asynchronously); CPU
// variants take host pointers and ignore `stream`. `block` is the threads per block for variants
// that take one (one of Variant::blocks) and is ignored by the others.
using ScanFn = void (*)(void* temp, std::size_t& temp_bytes, const int* in, int* out, std::size_t n,
                        int block, cudaStream_t stream);

using gps::kBlockSizes;
using gps::Role;
using gps::Target;
using Variant = gps::Variant<ScanFn>;

const std::vector<Variant>& variants();
const Variant* find_variant(std::string_view name); // nullptr when unknown

// The reference every variant is checked against (the "cpu" row), for callers that need it by
// name: compact/cpu_with_scan, the benchmarks' and tests' expected outputs.
void exclusive_scan_cpu(void* temp, std::size_t& temp_bytes, const int* in, int* out, std::size_t n,
                        int block, cudaStream_t stream);

} // namespace gps::scan
