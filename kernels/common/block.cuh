// Block-level primitives built from warp scans and one shared-memory exchange of warp totals
// (CUB's BLOCK_SCAN_WARP_SCANS). The caller owns the shared TempStorage and must put a
// __syncthreads() between two uses of the same storage.
#pragma once

#include "common/warp.cuh"

namespace gps {

template <int BLOCK> struct BlockScan {
  static_assert(BLOCK % kWarpSize == 0 && BLOCK <= 1024, "block must be whole warps, <= 1024");
  static constexpr int kWarps = BLOCK / kWarpSize;
  struct TempStorage {
    int warp_totals[kWarps];
  };

  // Exclusive prefix sum of one value per thread; `block_total` receives the sum of all values.
  static __device__ __forceinline__ int exclusive_sum(int value, int& block_total,
                                                      TempStorage& storage) {
    const int inclusive = warp_inclusive_scan(value);
    if (lane_id() == kWarpSize - 1) storage.warp_totals[warp_id()] = inclusive;
    __syncthreads();
    if (warp_id() == 0) {
      int total = lane_id() < kWarps ? storage.warp_totals[lane_id()] : 0;
      total = warp_inclusive_scan(total);
      if (lane_id() < kWarps) storage.warp_totals[lane_id()] = total;
    }
    __syncthreads();
    block_total = storage.warp_totals[kWarps - 1];
    const int warp_prefix = warp_id() == 0 ? 0 : storage.warp_totals[warp_id() - 1];
    return warp_prefix + inclusive - value;
  }
};

template <int BLOCK> struct BlockReduce {
  static constexpr int kWarps = BLOCK / kWarpSize;
  struct TempStorage {
    int warp_sums[kWarps];
  };
  // Sum of one value per thread; the result is valid in thread 0 only.
  static __device__ __forceinline__ int sum(int value, TempStorage& storage) {
    value = warp_reduce_sum(value);
    if (lane_id() == 0) storage.warp_sums[warp_id()] = value;
    __syncthreads();
    int total = 0;
    if (warp_id() == 0) {
      total = lane_id() < kWarps ? storage.warp_sums[lane_id()] : 0;
      total = warp_reduce_sum(total);
    }
    return total;
  }
};

// Calls `f(std::integral_constant<int, BLOCK>{})` for a runtime block size in {32, ..., 1024}, so
// a variant is written once as a template on its block size:
//   dispatch_block_size(block, [&](auto b) { constexpr int BLOCK = decltype(b)::value; ... });
template <typename F> void dispatch_block_size(int block, F&& f);

} // namespace gps

#include <stdexcept>
#include <string>
#include <type_traits>

template <typename F> void gps::dispatch_block_size(int block, F&& f) {
  switch (block) {
  case 32: f(std::integral_constant<int, 32>{}); break;
  case 64: f(std::integral_constant<int, 64>{}); break;
  case 128: f(std::integral_constant<int, 128>{}); break;
  case 256: f(std::integral_constant<int, 256>{}); break;
  case 512: f(std::integral_constant<int, 512>{}); break;
  case 1024: f(std::integral_constant<int, 1024>{}); break;
  default: throw std::invalid_argument("unsupported block size " + std::to_string(block));
  }
}
