// Block-level primitives built from warp scans and one shared-memory exchange of warp totals
// (CUB's BLOCK_SCAN_WARP_SCANS and BLOCK_REDUCE_WARP_REDUCTIONS). The caller owns the shared
// TempStorage and must put a __syncthreads() between two uses of the same storage.
#pragma once

#include "common/warp.cuh"

namespace gps {

// The warp-totals step every block scan here shares: once each warp's total is in shared memory
// (`totals[w]` for warp w), one whole warp scans them, lane l taking warp l's total.
template <typename T> struct WarpTotals {
  T own;       // the total of warp lane_id() (0 past the last warp)
  T inclusive; // the totals of warps 0 .. lane_id()
  __device__ __forceinline__ T exclusive() const { return inclusive - own; }
  // The sum of all warps' totals, in every lane.
  __device__ __forceinline__ T aggregate() const {
    return __shfl_sync(kFullMask, inclusive, kWarpSize - 1);
  }
};
template <int WARPS, typename T>
__device__ __forceinline__ WarpTotals<T> scan_warp_totals(const T* totals) {
  static_assert(WARPS <= kWarpSize, "one warp scans at most 32 warp totals");
  const T own = lane_id() < WARPS ? totals[lane_id()] : T(0);
  return {own, warp_inclusive_scan(own)};
}

template <int BLOCK> struct BlockScan {
  static_assert(BLOCK % kWarpSize == 0 && BLOCK <= 1024, "block must be whole warps, <= 1024");
  static constexpr int kWarps = BLOCK / kWarpSize;
  struct TempStorage {
    int warp_totals[kWarps];
    int block_prefix; // the prefix callback's result (the *_sum(..., prefix_op) forms)
  };

  // Exclusive prefix sum of one value per thread; `block_total` receives the sum of all values.
  static __device__ __forceinline__ int exclusive_sum(int value, int& block_total,
                                                      TempStorage& storage) {
    const int inclusive = warp_inclusive_scan(value);
    if (lane_id() == kWarpSize - 1)
      storage.warp_totals[warp_id()] = inclusive;
    __syncthreads();
    if (warp_id() == 0) {
      const WarpTotals<int> totals = scan_warp_totals<kWarps>(storage.warp_totals);
      if (lane_id() < kWarps)
        storage.warp_totals[lane_id()] = totals.inclusive;
    }
    __syncthreads();
    block_total = storage.warp_totals[kWarps - 1];
    const int warp_prefix = warp_id() == 0 ? 0 : storage.warp_totals[warp_id() - 1];
    return warp_prefix + inclusive - value;
  }

  // Exclusive prefix sum of one value per warp, seeded by a prefix callback (CUB's
  // BlockScan::ExclusiveSum(..., prefix_op), for tiles whose warps have scanned their own items):
  // every lane of warp w passes warp w's total. Warp 0 calls prefix_op(block aggregate) with all
  // its lanes; its lane-0 result is the block's prefix (a look-back: common/lookback.cuh). Returns,
  // in every thread, the block prefix plus the totals of the warps before this one.
  template <typename PrefixOp>
  static __device__ __forceinline__ int warp_exclusive_sum(int warp_total, TempStorage& storage,
                                                           PrefixOp& prefix_op) {
    const int lane = lane_id();
    if (lane == 0)
      storage.warp_totals[warp_id()] = warp_total;
    __syncthreads();
    if (warp_id() == 0) {
      const WarpTotals<int> totals = scan_warp_totals<kWarps>(storage.warp_totals);
      const unsigned aggregate = totals.aggregate();
      if (lane < kWarps)
        storage.warp_totals[lane] = totals.exclusive();
      const unsigned prefix = prefix_op(aggregate);
      if (lane == 0)
        storage.block_prefix = static_cast<int>(prefix);
    }
    __syncthreads();
    return storage.block_prefix + storage.warp_totals[warp_id()];
  }

  // The same for one value per thread: the block prefix plus the values of all earlier threads.
  template <typename PrefixOp>
  static __device__ __forceinline__ int exclusive_sum(int value, TempStorage& storage,
                                                      PrefixOp& prefix_op) {
    const int inclusive = warp_inclusive_scan(value);
    const int warp_total = __shfl_sync(kFullMask, inclusive, kWarpSize - 1);
    return warp_exclusive_sum(warp_total, storage, prefix_op) + inclusive - value;
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
    if (lane_id() == 0)
      storage.warp_sums[warp_id()] = value;
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
  case 32:
    f(std::integral_constant<int, 32>{});
    break;
  case 64:
    f(std::integral_constant<int, 64>{});
    break;
  case 128:
    f(std::integral_constant<int, 128>{});
    break;
  case 256:
    f(std::integral_constant<int, 256>{});
    break;
  case 512:
    f(std::integral_constant<int, 512>{});
    break;
  case 1024:
    f(std::integral_constant<int, 1024>{});
    break;
  default:
    throw std::invalid_argument("unsupported block size " + std::to_string(block));
  }
}
