// vectorized_grid_stride: one launch that reads at memory speed (Harris, kernel 7 "multiple
// elements per thread", with the refinements of Luitjens, "Faster Parallel Reductions on Kepler",
// NVIDIA blog 2014: vector loads, a grid sized to the GPU, atomics for the block sums). A fixed
// grid of SMs x resident blocks per SM (from the occupancy calculator, kept per device and block
// size) walks the input in a grid-stride loop of 16-byte int4 loads, kUnroll independent loads in
// flight per thread per iteration. Any 4-byte-aligned input is taken: the 0 to 3 elements before
// the first 16-byte boundary (the head) and the at most 3 after the last whole int4 (the tail)
// are added outside the loop, one element per thread, so the int4 loads are always aligned. Each
// block reduces its sum with BlockReduce and adds it to the result with one atomicAdd (integer
// addition wraps and is associative: the result is exact and deterministic).
// Change from warp_shuffle: a fixed, GPU-filling grid and a grid-stride loop of int4 loads instead
// of one tile per block and one pass per level; one launch (plus a 4-byte memset) in all.
// Measured (H200, git show 4ff90fa:results/nvidia-h200.json), GB/s at 2^28 by block:
// 64: 4424, 128: 4445, 256: 4430, 512: 4456, 1024: 4470 (1.05x copy, 1.02x CUB, 0.93 of the
// theoretical peak: a reduction only reads); at 2^24 3182 at block 256, 1.18x CUB. The block size
// hardly matters once the grid fills the GPU.
// Tried and dropped (2026-11-23, H200, branch wip/reduce-vgs, builds O-U8-CS-EV-EV8 twice in one
// call, 5 repetitions, medians in us): the full runs of 9de01b3c94e1 and their headline files (in
// the history) put this kernel behind CUB on the H200 (243.8 against 242.3 at 2^28, 967.2 against
// 948.4 at 2^30, ranges apart; ahead on the H100, 1.016x and 1.013x). O = this loop behind build
// switches (its PTX reordered, not byte-identical); U8 = 8 loads in flight (predicted +-1%); CS =
// __ldcs streaming loads (0..+1%); EV = each block one contiguous segment instead of the grid
// stride, as CUB's even share (+1..+3%); EV8 = both. Measured, block 1024: 2^28 O 238.7 / 238.6, U8
// 238.8 / 238.8, CS 238.6 / 238.5, EV 239.5 / 239.6, EV8 246.0 / 245.6; 2^30 O 944.2 / 944.0, U8
// 944.4 / 945.5, CS 944.4 / 946.1, EV 941.1 / 941.1 (-0.3%), EV8 956.8 / 957.0; CUB 241.7-242.1
// and 945.1-945.9 in every run. None gains more than 0.3%, so none is kept. But O itself ran at
// 1.014x CUB at 2^28 and 1.00x at 2^30 in this call, where the headline call had 0.994x and
// 0.981x with CUB within 0.2% of its time here: this kernel's time moves about 2% from call to
// call on the H200 while CUB's does not. Why was not measured.
#include "common/block.cuh"
#include "common/cuda_check.hpp"
#include "common/temp_storage.hpp"
#include "reduce/reduce.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <stdexcept>

namespace gps::reduce {
namespace {

constexpr int kUnroll = 4; // int4 loads in flight per thread per loop iteration

// Sums in[0, n) where in + head is 16-byte aligned (head < 4, head <= n).
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    reduce_grid_stride(const int* __restrict__ in, int* __restrict__ result, std::size_t n,
                       unsigned head) {
  __shared__ typename BlockReduce<BLOCK>::TempStorage storage;
  const int* aligned = in + head;
  const int4* in4 = reinterpret_cast<const int4*>(aligned);
  const std::size_t n4 = (n - head) / 4; // whole int4 vectors after the head
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * BLOCK;
  const std::size_t thread = blockIdx.x * static_cast<std::size_t>(BLOCK) + threadIdx.x;
  int sum = 0;
  // main loop: kUnroll independent loads issued before any is used, no bounds test inside
  std::size_t i = thread;
  for (; i + (kUnroll - 1) * stride < n4; i += kUnroll * stride) {
    int4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      v[u] = __ldg(in4 + i + u * stride);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      sum += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  // remainder: fewer than kUnroll vectors left for this thread
  for (; i < n4; i += stride) {
    const int4 v = __ldg(in4 + i);
    sum += (v.x + v.y) + (v.z + v.w);
  }
  // head and tail: the elements before the first and after the last whole vector, one each for
  // the first threads
  if (thread < head)
    sum += in[thread];
  if (thread < n - head - 4 * n4)
    sum += aligned[4 * n4 + thread];
  // block sum, then one atomic per block
  sum = BlockReduce<BLOCK>::sum(sum, storage);
  if (threadIdx.x == 0)
    atomicAdd(result, sum);
}

// SMs x resident blocks per SM for this block size on the current device: enough blocks to fill
// the GPU, no more. A fact about the device, so it is cached per device (queried on first use;
// two threads racing on the first query store the same value).
template <int BLOCK> std::size_t full_grid() {
  constexpr int kMaxDevices = 64;
  static std::atomic<std::size_t> grids[kMaxDevices]; // 0: not queried yet
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  const bool cached = device < kMaxDevices;
  if (cached)
    if (const std::size_t grid = grids[device].load(std::memory_order_relaxed))
      return grid;
  int sms = 0, per_sm = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce_grid_stride<BLOCK>, BLOCK, 0));
  const auto grid = static_cast<std::size_t>(std::max(1, sms * per_sm));
  if (cached)
    grids[device].store(grid, std::memory_order_relaxed);
  return grid;
}

} // namespace

std::size_t vectorized_grid_stride_tile(int block) {
  return static_cast<std::size_t>(block) * 4 * kUnroll;
}

void reduce_vectorized_grid_stride(void* temp, std::size_t& temp_bytes, const int* in, int* result,
                                   std::size_t n, int block, cudaStream_t stream) {
  dispatch_block_size(block, [](auto) {}); // an unsupported block is refused in the query too
  if (no_temp_needed(temp, temp_bytes))
    return;
  const auto address = reinterpret_cast<std::uintptr_t>(in);
  if (address % alignof(int) || reinterpret_cast<std::uintptr_t>(result) % alignof(int))
    throw std::invalid_argument(
        "vectorized_grid_stride reduction: the input and the result must be 4-byte aligned");
  // elements before the first 16-byte boundary, added apart from the int4 loads
  const auto head = static_cast<unsigned>(std::min<std::size_t>((16 - address % 16) % 16 / 4, n));
  // the blocks add into the result: it starts at 0 (and stays 0 for n = 0)
  CUDA_CHECK(cudaMemsetAsync(result, 0, sizeof(int), stream));
  if (n == 0)
    return;
  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    // small inputs need fewer blocks than the full grid: one int4 per thread at most
    const std::size_t vectors = std::max<std::size_t>(n / 4, 1);
    const std::size_t grid = std::min(full_grid<BLOCK>(), (vectors + BLOCK - 1) / BLOCK);
    reduce_grid_stride<BLOCK>
        <<<static_cast<unsigned>(grid), BLOCK, 0, stream>>>(in, result, n, head);
    CUDA_CHECK_LAUNCH();
  });
}

} // namespace gps::reduce
