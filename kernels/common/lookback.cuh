// Tile status for single-pass (chained / decoupled look-back) algorithms, Merrill & Garland 2016,
// "Single-pass Parallel Prefix Scan with Decoupled Look-back". One 64-bit word per tile holds a
// flag and a 32-bit value, so a reader always sees a matching pair. Reused by scan, stream
// compaction (output offsets) and radix sort (per-digit offsets).
#pragma once

#include "common/cuda_check.hpp"
#include "common/warp.cuh"
#include "common/workspace.hpp"

#include <cuda/atomic>

#include <cstdint>
#include <stdexcept>

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

  // Decoupled look-back, run by one whole warp for tile `tile` > 0. The warp inspects a window of
  // 32 * DEPTH predecessors at once (lane l takes distances l*DEPTH .. l*DEPTH+DEPTH-1, so one L2
  // round trip covers DEPTH times more tiles), waits until every tile nearer than the nearest
  // inclusive prefix has published something, and sums the aggregates down to and including that
  // prefix; with no prefix in the window it slides the window back. Returns the exclusive prefix
  // of `tile` (wrapping sum of every earlier tile's value) in all lanes.
  template <int DEPTH = 1> __device__ __forceinline__ unsigned warp_lookback(long long tile) const {
    const int lane = lane_id();
    unsigned exclusive = 0;
    long long nearest = tile - 1; // nearest predecessor not yet accounted for
    while (true) {
      unsigned long long w[DEPTH];
#pragma unroll
      for (int j = 0; j < DEPTH; ++j) w[j] = load_or_prefix(nearest - (lane * DEPTH + j));
      int first_prefix, stop_lane;
      while (true) {
        first_prefix = DEPTH; // my nearest word holding an inclusive prefix
#pragma unroll
        for (int j = DEPTH - 1; j >= 0; --j)
          if (flag_of(w[j]) == kTilePrefix) first_prefix = j;
        const unsigned prefix_lanes = __ballot_sync(kFullMask, first_prefix < DEPTH);
        stop_lane = prefix_lanes ? __ffs(prefix_lanes) - 1 : kWarpSize;
        // only tiles nearer than the nearest prefix matter; wait for those to publish
        bool waiting = false;
#pragma unroll
        for (int j = 0; j < DEPTH; ++j) {
          const bool matters = lane < stop_lane || (lane == stop_lane && j < first_prefix);
          if (matters && flag_of(w[j]) == kTileInvalid) {
            waiting = true;
            w[j] = load_or_prefix(nearest - (lane * DEPTH + j));
          }
        }
        if (!__any_sync(kFullMask, waiting)) break;
      }
      unsigned sum = 0;
#pragma unroll
      for (int j = 0; j < DEPTH; ++j)
        if (lane < stop_lane || (lane == stop_lane && j <= first_prefix)) sum += value_of(w[j]);
      exclusive += warp_reduce_sum(sum);
      if (stop_lane < kWarpSize) return exclusive;
      nearest -= kWarpSize * DEPTH;
    }
  }

private:
  // Tiles before the first one read as an inclusive prefix of 0.
  __device__ __forceinline__ unsigned long long load_or_prefix(long long t) const {
    return t >= 0 ? load(t) : static_cast<unsigned long long>(kTilePrefix) << 32;
  }
};

// Host side: carves a tile counter and one status word per tile out of the workspace and clears
// them with a single memset on `stream` (part of the algorithm's work: every call starts fresh).
inline TileStatus clear_tile_status(std::size_t tiles, Workspace& ws, cudaStream_t stream,
                                    unsigned** tile_counter) {
  if (tiles > 0x7fffffffu) throw std::invalid_argument("single-pass kernel: too many tiles");
  const std::size_t bytes = sizeof(unsigned long long) * (tiles + 1);
  auto* words = static_cast<unsigned long long*>(ws.reserve(bytes));
  CUDA_CHECK(cudaMemsetAsync(words, 0, bytes, stream));
  *tile_counter = reinterpret_cast<unsigned*>(words); // word 0 holds the tile counter
  return TileStatus{words + 1};
}

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
