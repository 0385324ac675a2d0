// Warp-level primitives: the bottom layer every block-level piece is built from.
#pragma once

#include <cuda_runtime.h>

namespace gps {

constexpr int kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;

__device__ __forceinline__ int lane_id() { return threadIdx.x & (kWarpSize - 1); }
__device__ __forceinline__ int warp_id() { return threadIdx.x / kWarpSize; }

// Inclusive scan across the 32 lanes of a full warp (Kogge-Stone over __shfl_up_sync).
template <typename T> __device__ __forceinline__ T warp_inclusive_scan(T value) {
  const int lane = lane_id();
#pragma unroll
  for (int offset = 1; offset < kWarpSize; offset *= 2) {
    const T other = __shfl_up_sync(kFullMask, value, offset);
    if (lane >= offset) value += other;
  }
  return value;
}

// Sum across the 32 lanes of a full warp; every lane gets the result.
template <typename T> __device__ __forceinline__ T warp_reduce_sum(T value) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2)
    value += __shfl_xor_sync(kFullMask, value, offset);
  return value;
}

} // namespace gps
