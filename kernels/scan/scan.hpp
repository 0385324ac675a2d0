// Exclusive scan (prefix sum) of int32 with wrapping addition: out[i] = in[0] + ... + in[i-1].
// Every variant has the same host signature and appears once in the table returned by
// scan::variants(); the benchmarks register from that table and the tests iterate over it.
#pragma once

#include "common/variant_table.hpp"
#include "common/workspace.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <string_view>
#include <vector>

namespace gps::scan {

// GPU variants take device pointers and enqueue their work on `stream` (asynchronously); CPU
// variants take host pointers and ignore `ws` and `stream`. `block` is the threads per block for
// variants that take one and is ignored by the others. `in` and `out` must not overlap.
using ScanFn = void (*)(const int* in, int* out, std::size_t n, int block, Workspace& ws,
                        cudaStream_t stream);

using gps::kBlockSizes;
using gps::Target;
using Variant = BlockVariant<ScanFn>;

const std::vector<Variant>& variants();
const Variant* find_variant(std::string_view name); // nullptr when unknown

// The variants, one per file (kernels/scan/<name>.cu or cpu.cpp / library.cu).
void exclusive_scan_cpu(const int*, int*, std::size_t, int, Workspace&, cudaStream_t);
void exclusive_scan_cpu_parallel(const int*, int*, std::size_t, int, Workspace&, cudaStream_t);
void exclusive_scan_naive(const int*, int*, std::size_t, int, Workspace&, cudaStream_t);
void exclusive_scan_work_efficient(const int*, int*, std::size_t, int, Workspace&, cudaStream_t);
void exclusive_scan_work_efficient_compact(const int*, int*, std::size_t, int, Workspace&,
                                           cudaStream_t);
void exclusive_scan_shared_mem(const int*, int*, std::size_t, int, Workspace&, cudaStream_t);
void exclusive_scan_kogge_stone(const int*, int*, std::size_t, int, Workspace&, cudaStream_t);
void exclusive_scan_coarsened(const int*, int*, std::size_t, int, Workspace&, cudaStream_t);
void exclusive_scan_warp_shuffle(const int*, int*, std::size_t, int, Workspace&, cudaStream_t);
void exclusive_scan_chained(const int*, int*, std::size_t, int, Workspace&, cudaStream_t);
void exclusive_scan_decoupled_lookback(const int*, int*, std::size_t, int, Workspace&,
                                       cudaStream_t);
void exclusive_scan_thrust(const int*, int*, std::size_t, int, Workspace&, cudaStream_t);
void exclusive_scan_cub(const int*, int*, std::size_t, int, Workspace&, cudaStream_t);

// Tile sizes of the multi-pass and single-pass variants, shared with the table.
std::size_t coarsened_tile(int block);
std::size_t single_pass_tile(int block); // chained and decoupled_lookback


} // namespace gps::scan
