// Warp-level primitives: the bottom layer every block-level piece is built from.
#pragma once

#include <cuda_runtime.h>

namespace gps {

constexpr int kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;

__device__ __forceinline__ int lane_id() {
  return threadIdx.x & (kWarpSize - 1);
}
__device__ __forceinline__ int warp_id() {
  return threadIdx.x / kWarpSize;
}

// Bit i set for every lane i below this one (PTX %lanemask_lt): popc(mask & lane_mask_lt()) is a
// lane's rank among the lanes of `mask`.
__device__ __forceinline__ unsigned lane_mask_lt() {
  unsigned mask;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}

// The lanes of a full warp whose label agrees with this lane's in the low BITS bits: what
// __match_any_sync returns, built from one ballot per bit (the warp-level multisplit of Adinets &
// Merrill 2022, CUB's MatchAny), which is cheaper than match.any for a few bits. All 32 lanes must
// call it.
template <int BITS> __device__ __forceinline__ unsigned match_any_bits(unsigned label) {
  unsigned peers = kFullMask;
#pragma unroll
  for (int b = 0; b < BITS; ++b) {
    const bool set = (label >> b) & 1u;
    const unsigned same = __ballot_sync(kFullMask, set);
    peers &= set ? same : ~same;
  }
  return peers;
}

// Inclusive scan across the 32 lanes of a full warp (Kogge-Stone over __shfl_up_sync).
template <typename T> __device__ __forceinline__ T warp_inclusive_scan(T value) {
  const int lane = lane_id();
#pragma unroll
  for (int offset = 1; offset < kWarpSize; offset *= 2) {
    const T other = __shfl_up_sync(kFullMask, value, offset);
    if (lane >= offset)
      value += other;
  }
  return value;
}

// `op` over the 32 lanes of a full warp (a butterfly over __shfl_xor_sync); every lane gets the
// result. `op` must be associative and commutative.
template <typename T, typename Op> __device__ __forceinline__ T warp_all_reduce(T value, Op op) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2)
    value = op(value, __shfl_xor_sync(kFullMask, value, offset));
  return value;
}

// Sum across the 32 lanes of a full warp; every lane gets the result.
template <typename T> __device__ __forceinline__ T warp_reduce_sum(T value) {
  return warp_all_reduce(value, [](T a, T b) { return a + b; });
}

} // namespace gps
