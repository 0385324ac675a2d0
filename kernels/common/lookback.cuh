// Tile status for single-pass (chained / decoupled look-back) algorithms, Merrill & Garland 2016,
// "Single-pass Parallel Prefix Scan with Decoupled Look-back". One 64-bit word per tile holds a
// flag and a 32-bit value, so a reader always sees a matching pair. Reused by scan, stream
// compaction (output offsets) and radix sort (per-digit offsets).
#pragma once

#include "common/warp.cuh"

#include <cuda/atomic>

#include <cstdint>

namespace gps {

enum TileFlag : unsigned { kTileInvalid = 0, kTileAggregate = 1, kTilePrefix = 2 };

struct TileStatus {
  unsigned long long* words; // one per tile, zeroed (kTileInvalid) before the launch

  __device__ __forceinline__ void publish(long long tile, TileFlag flag, unsigned value) const {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(words[tile]);
    word.store((static_cast<unsigned long long>(flag) << 32) | value, cuda::memory_order_relaxed);
  }
  __device__ __forceinline__ unsigned long long load(long long tile) const {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(words[tile]);
    return word.load(cuda::memory_order_relaxed);
  }
  static __device__ __forceinline__ unsigned flag_of(unsigned long long w) {
    return static_cast<unsigned>(w >> 32);
  }
  static __device__ __forceinline__ unsigned value_of(unsigned long long w) {
    return static_cast<unsigned>(w);
  }

  // Chained (StreamScan) wait: spin until the immediate predecessor has its inclusive prefix.
  __device__ __forceinline__ unsigned wait_for_prefix(long long tile) const {
    unsigned long long w;
    while (flag_of(w = load(tile)) != kTilePrefix) __nanosleep(32);
    return value_of(w);
  }

  // Decoupled look-back, run by one whole warp for tile `tile` > 0: lane i inspects predecessor
  // tile - 1 - i; aggregates are summed until the nearest predecessor with an inclusive prefix.
  // Returns the exclusive prefix of `tile` (wrapping sum of every earlier tile) in all lanes.
  __device__ __forceinline__ unsigned warp_lookback(long long tile) const {
    const int lane = lane_id();
    unsigned exclusive = 0;
    long long window_end = tile - 1; // nearest predecessor not yet accounted for
    while (true) {
      const long long pred = window_end - lane;
      unsigned long long w =
          pred >= 0 ? load(pred) : (static_cast<unsigned long long>(kTilePrefix) << 32);
      // wait until every predecessor in the window has published something
      while (__any_sync(kFullMask, flag_of(w) == kTileInvalid)) {
        if (flag_of(w) == kTileInvalid) {
          __nanosleep(20);
          w = load(pred);
        }
      }
      const unsigned prefix_lanes = __ballot_sync(kFullMask, flag_of(w) == kTilePrefix);
      // the nearest lane holding an inclusive prefix ends the look-back; lanes beyond it are
      // already counted in that prefix
      const int stop = prefix_lanes ? __ffs(prefix_lanes) - 1 : kWarpSize;
      exclusive += warp_reduce_sum(lane <= stop ? value_of(w) : 0u);
      if (prefix_lanes) return exclusive;
      window_end -= kWarpSize;
    }
  }
};

} // namespace gps

namespace gps {

// Per-digit tile status for the one-sweep radix sort (Adinets & Merrill 2022, "Onesweep: A Faster
// Least Significant Digit Radix Sort for GPUs"): DIGITS independent look-backs per tile, one per
// digit, each walked serially by the thread that owns the digit. One 32-bit word per (tile, digit),
// tile-major, so a block's DIGITS threads publish one contiguous run:
//   0                         nothing published yet (the array is zeroed before each launch)
//   value + 1                 the tile's own count of the digit (aggregate)
//   kPrefixBit | (value + 1)  the inclusive prefix: this tile's count plus every earlier tile's
// The +1 tells a published zero count from "not yet". Why not TileStatus's 64-bit words: the status
// is written twice and read per tile and digit, so its size is pure overhead traffic; 32-bit words
// halve it (1 KB per tile at 256 digits), and at 2^28 keys a pass's whole array fits in L2.
// Values must stay below 2^31 - 1: the caller checks n.
template <int DIGITS> struct DigitTileStatus {
  static constexpr unsigned kPrefixBit = 1u << 31;
  unsigned* words; // tiles * DIGITS words, zeroed (nothing published) before the launch

  __device__ __forceinline__ void publish(long long tile, int digit, bool inclusive,
                                          unsigned value) const {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> word(words[tile * DIGITS + digit]);
    word.store((inclusive ? kPrefixBit : 0u) | (value + 1), cuda::memory_order_relaxed);
  }
  __device__ __forceinline__ unsigned load(long long tile, int digit) const {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> word(words[tile * DIGITS + digit]);
    return word.load(cuda::memory_order_relaxed);
  }

  // Serial look-back by one thread: the sum of `digit`'s counts over every tile before `tile`.
  // Spins on a predecessor that has published nothing yet; tiles are numbered in launch order
  // (atomic counter), so every predecessor is running or done and the spin ends.
  __device__ __forceinline__ unsigned exclusive_prefix(long long tile, int digit) const {
    unsigned sum = 0;
    for (long long pred = tile - 1; pred >= 0; --pred) {
      unsigned w;
      while ((w = load(pred, digit)) == 0) {
      }
      sum += (w & ~kPrefixBit) - 1;
      if (w & kPrefixBit) break;
    }
    return sum;
  }
};

} // namespace gps
