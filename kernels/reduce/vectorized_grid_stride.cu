// vectorized_grid_stride: one launch that reads at memory speed (Harris, kernel 7 "multiple
// elements per thread", with the refinements of Luitjens, "Faster Parallel Reductions on Kepler",
// NVIDIA blog 2014: vector loads, a grid sized to the GPU, atomics for the block sums). A fixed
// grid of SMs x resident blocks per SM (from the occupancy calculator, queried once per block
// size) walks the input in a grid-stride loop of 16-byte int4 loads, kUnroll independent loads in
// flight per thread per iteration; the at most 3 elements past the last whole int4 are added
// outside the loop. Each block reduces its sum with BlockReduce and adds it to the result with one
// atomicAdd (integer addition wraps and is associative: the result is exact and deterministic).
// Change from warp_shuffle: a fixed, GPU-filling grid and a grid-stride loop of int4 loads instead
// of one tile per block and one pass per level; one launch (plus a 4-byte memset) in all.
#include "common/block.cuh"
#include "common/cuda_check.hpp"
#include "reduce/reduce.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace gps::reduce {
namespace {

constexpr int kUnroll = 4; // int4 loads in flight per thread per loop iteration

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    reduce_grid_stride(const int* __restrict__ in, int* __restrict__ result, std::size_t n) {
  __shared__ typename BlockReduce<BLOCK>::TempStorage storage;
  const int4* in4 = reinterpret_cast<const int4*>(in);
  const std::size_t n4 = n / 4; // whole int4 vectors
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * BLOCK;
  const std::size_t thread = blockIdx.x * static_cast<std::size_t>(BLOCK) + threadIdx.x;
  int sum = 0;
  // main loop: kUnroll independent loads issued before any is used, no bounds test inside
  std::size_t i = thread;
  for (; i + (kUnroll - 1) * stride < n4; i += kUnroll * stride) {
    int4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = __ldg(in4 + i + u * stride);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) sum += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  // remainder: fewer than kUnroll vectors left for this thread
  for (; i < n4; i += stride) {
    const int4 v = __ldg(in4 + i);
    sum += (v.x + v.y) + (v.z + v.w);
  }
  // tail: the n % 4 elements after the last whole vector, one each for the first threads
  if (thread < n - 4 * n4) sum += in[4 * n4 + thread];
  // block sum, then one atomic per block
  sum = BlockReduce<BLOCK>::sum(sum, storage);
  if (threadIdx.x == 0) atomicAdd(result, sum);
}

// SMs x resident blocks per SM for this block size: enough blocks to fill the GPU, no more.
// Queried once per block size (and device: the study uses one) and cached.
template <int BLOCK> std::size_t full_grid() {
  static const std::size_t grid = [] {
    int device = 0, sms = 0, per_sm = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce_grid_stride<BLOCK>,
                                                             BLOCK, 0));
    return static_cast<std::size_t>(std::max(1, sms * per_sm));
  }();
  return grid;
}

} // namespace

std::size_t vectorized_grid_stride_tile(int block) {
  return static_cast<std::size_t>(block) * 4 * kUnroll;
}

void reduce_vectorized_grid_stride(const int* in, int* result, std::size_t n, int block, Workspace&,
                                   cudaStream_t stream) {
  if (reinterpret_cast<std::uintptr_t>(in) % 16)
    throw std::invalid_argument("vectorized_grid_stride reduction needs a 16-byte aligned input");
  // the blocks add into the result: it starts at 0 (and stays 0 for n = 0)
  CUDA_CHECK(cudaMemsetAsync(result, 0, sizeof(int), stream));
  if (n == 0) return;
  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    // small inputs need fewer blocks than the full grid: one int4 per thread at most
    const std::size_t vectors = std::max<std::size_t>(n / 4, 1);
    const std::size_t grid = std::min(full_grid<BLOCK>(), (vectors + BLOCK - 1) / BLOCK);
    reduce_grid_stride<BLOCK><<<static_cast<unsigned>(grid), BLOCK, 0, stream>>>(in, result, n);
    CUDA_CHECK_LAUNCH();
  });
}

} // namespace gps::reduce
