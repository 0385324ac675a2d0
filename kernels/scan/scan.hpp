// Exclusive scan (prefix sum) of int32 with wrapping addition: out[i] = in[0] + ... + in[i-1].
// Every variant has the same host signature and appears once in the table returned by
// scan::variants(); the benchmarks register from that table and the tests iterate over it.
#pragma once

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

enum class Target { Cpu, Gpu };

struct Variant {
  const char* name;
  ScanFn run;
  Target target;
  bool takes_block;                    // registered for every block size in kBlockSizes
  std::size_t (*tile_elems)(int block); // elements one block handles (edge sizes for the tests)
  const char* description;
};

inline constexpr int kBlockSizes[] = {64, 128, 256, 512, 1024};

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
