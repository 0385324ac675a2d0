// Reduction (sum) of int32 with wrapping addition. Every variant has the same host signature and
// appears once in the table returned by reduce::variants(); the benchmarks register from that
// table and the tests iterate over it. The GPU variants retrace the classic reduce0..reduce7
// study (Harris, "Optimizing Parallel Reduction in CUDA", and cuda-samples' reduction), each
// file naming the single change it makes over the previous one.
#pragma once

#include "common/variant_table.hpp"
#include "common/workspace.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <string_view>
#include <vector>

namespace gps::reduce {

// Writes the wrapping sum of in[0, n) (0 for n = 0) to *result. GPU variants take device pointers
// (`result` included: no host synchronisation inside the call unless the description says so)
// and enqueue their work on `stream`; CPU variants take host pointers and ignore `ws` and
// `stream`. `block` is the threads per block for variants that take one.
using ReduceFn = void (*)(const int* in, int* result, std::size_t n, int block, Workspace& ws,
                          cudaStream_t stream);

using gps::kBlockSizes;
using gps::Target;
using Variant = BlockVariant<ReduceFn>;

const std::vector<Variant>& variants();
const Variant* find_variant(std::string_view name); // nullptr when unknown

// The variants, one per file (kernels/reduce/<name>.cu or cpu.cpp / library.cu).
void reduce_cpu(const int*, int*, std::size_t, int, Workspace&, cudaStream_t);
void reduce_cpu_parallel(const int*, int*, std::size_t, int, Workspace&, cudaStream_t);
void reduce_interleaved(const int*, int*, std::size_t, int, Workspace&, cudaStream_t);
void reduce_convergent(const int*, int*, std::size_t, int, Workspace&, cudaStream_t);
void reduce_first_add_on_load(const int*, int*, std::size_t, int, Workspace&, cudaStream_t);
void reduce_warp_shuffle(const int*, int*, std::size_t, int, Workspace&, cudaStream_t);
void reduce_vectorized_grid_stride(const int*, int*, std::size_t, int, Workspace&, cudaStream_t);
void reduce_thrust(const int*, int*, std::size_t, int, Workspace&, cudaStream_t);
void reduce_cub(const int*, int*, std::size_t, int, Workspace&, cudaStream_t);

// Elements one block of vectorized_grid_stride covers per unrolled loop iteration.
std::size_t vectorized_grid_stride_tile(int block);

} // namespace gps::reduce
