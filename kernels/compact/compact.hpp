// Stream compaction of int32: keep the nonzero elements, in their input order, and report how
// many were kept. Every variant has the same host signature and appears once in the table
// returned by compact::variants(); the benchmarks register from that table and the tests iterate
// over it.
#pragma once

#include "common/variant_table.hpp"
#include "common/workspace.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <string_view>
#include <vector>

namespace gps::compact {

// Writes the nonzero elements of in[0, n) to out[0, kept) in order and the kept count to *count.
// `out` must hold n elements; out[kept, n) is left untouched. GPU variants take device pointers
// (`count` included: no host synchronisation inside the call) and enqueue their work on `stream`;
// CPU variants take host pointers and ignore `ws` and `stream`. `block` is the threads per block
// for variants that take one and is ignored by the others. `in` and `out` must not overlap.
using CompactFn = void (*)(const int* in, int* out, unsigned* count, std::size_t n, int block,
                           Workspace& ws, cudaStream_t stream);

using gps::kBlockSizes;
using gps::Target;
using Variant = BlockVariant<CompactFn>;

const std::vector<Variant>& variants();
const Variant* find_variant(std::string_view name); // nullptr when unknown

// The variants (kernels/compact/<file>: cpu.cpp, scan_based.cu, single_pass.cu, library.cu).
void compact_cpu_no_scan(const int*, int*, unsigned*, std::size_t, int, Workspace&, cudaStream_t);
void compact_cpu_with_scan(const int*, int*, unsigned*, std::size_t, int, Workspace&, cudaStream_t);
// map -> exclusive scan (the scan variant named `scan_variant` in the scan table) -> scatter
void compact_scan_based(const char* scan_variant, const int* in, int* out, unsigned* count,
                        std::size_t n, int block, Workspace& ws, cudaStream_t stream);
void compact_scan_based_work_efficient(const int*, int*, unsigned*, std::size_t, int, Workspace&,
                                       cudaStream_t);
void compact_scan_based_shared_mem(const int*, int*, unsigned*, std::size_t, int, Workspace&,
                                   cudaStream_t);
void compact_scan_based_decoupled_lookback(const int*, int*, unsigned*, std::size_t, int,
                                           Workspace&, cudaStream_t);
void compact_single_pass(const int*, int*, unsigned*, std::size_t, int, Workspace&, cudaStream_t);
void compact_thrust_copy_if(const int*, int*, unsigned*, std::size_t, int, Workspace&,
                            cudaStream_t);
void compact_thrust_remove_copy(const int*, int*, unsigned*, std::size_t, int, Workspace&,
                                cudaStream_t);
void compact_cub(const int*, int*, unsigned*, std::size_t, int, Workspace&, cudaStream_t);

// Tile size of the single-pass kernel, shared with the table.
std::size_t single_pass_tile(int block);

} // namespace gps::compact
