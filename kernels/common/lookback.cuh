// Single-pass look-back: how a tile learns the sum of the values of every earlier tile of the same
// launch (Merrill & Garland 2016, "Single-pass Parallel Prefix Scan with Decoupled Look-back";
// CUB's ScanTileState and TilePrefixCallbackOp in single_pass_scan_operators.cuh). A tile
// publishes, per slot, a (flag, value) pair in one status word: its own aggregate first, its
// inclusive prefix once known; a successor walks back over the words, summing aggregates until it
// meets an inclusive prefix. Tiles are numbered in launch order (next_tile_index) or by block index
// (block_tile_index), so every tile waited on is running or done and a walk always ends.
//
// Users: scan (chained, decoupled_lookback, prefetch_lookback) and compaction (single_pass,
// prefetch_lookback: common/tile_ring.cuh), one value per tile;
// the one-sweep radix sort (Adinets & Merrill 2022, "Onesweep"), one value per digit and tile.
//
// One module in three layers:
//   1. word encodings, how a (flag, value) pair fits one word: WideStatusWord (64 bits, any 32-bit
//      value) and NarrowStatusWord (32 bits, values below 2^31 - 1, half the status traffic);
//   2. StatusWords<Encoding, SLOTS>: SLOTS words per tile, tile-major, each read and written whole
//      with relaxed atomics (a reader always sees a matching pair), and the two walks: a warp-wide
//      window (one value per tile: 32 tiles per L2 round trip; its first window may be loaded
//      ahead of the walk, first_window) and a serial walk by one thread (many values per tile: one
//      thread per slot);
//   3. front ends: TileStatus (one 64-bit word per tile, one tile a 32-byte sector; scan and
//      compaction pack them below kTileStatusSectorTiles tiles: with_tile_status_stride) with the
//      tile-prefix protocols (exclusive_prefix, and exclusive_prefix_from a window loaded earlier:
//      UTF-8 decode and encode), the prefix callbacks BlockScan takes (LookbackPrefix,
//      ChainedPrefix), DigitTileStatus<DIGITS> (one 32-bit word per digit), and the host side
//      (carve the words out of the caller's temporary storage, clear them before the launch).
//
// One tile a sector (kTileStatusStride, nineteenth session; 2026-11-24). TileStatus keeps tile t's
// word at words[4t]: the sector holding the newest tiles' words takes every walk's loads and
// every tile's two publishes, and with 4 tiles a sector those tiles slowed each other's walks.
// Found on UTF-8 decode (32-bit words, 8 tiles a sector, were 3-6% slower there, one tile a sector
// up to 5% faster: utf8/single_pass.tuning.md), then measured on every user (A/B builds in one
// call per GPU, A-C-C-A, 5 repetitions; C/A of the medians, us, best blocks in brackets):
//                                   H100                          H200
//   scan decoupled_lookback 2^28    842.7 -> 746.0 (b128, -11.5%) 661.5 -> 571.7 (b128, -13.6%),
//                                   b256 -11.9%, b512 -10.1%      b256 -15.5%, b512 -9.5%
//                           2^24    -2.3..-8.5%                   -0.6..-11.2%
//   scan prefetch_lookback  2^28    -0.5..-5.6%                   -1.8..-4.9%
//   compact single_pass     2^28    675.0 -> 590.7 (b128, -12.5%) 554.7 -> 469.8 (b128, -15.3%),
//      (keep 0.50)                  b512 -13.1%; 2^24 -4.8%       b512 -17.1%; 2^24 -4.5..-7.8%
//   compact prefetch_lookback 2^28  -1.2..-3.6%                   -1.4..-1.7%
//   CUB and copy (controls)         +0.3%, -0.1%; the same        +0.1%, -0.2%; the same
// Predicted before the run (H200): decoupled_lookback -2..-8%, prefetch_lookback -0..-3%,
// compaction single_pass -1..-5%: the sign held, the size was twice the prediction. Every
// variant's GPU tests passed at stride 4 and memcheck, racecheck and synccheck were clean over
// scan (chained, decoupled_lookback, prefetch_lookback), compaction (single_pass,
// prefetch_lookback) and test_checks (H200). Not profiled: the L2 mechanism is inferred from the
// three layouts' order (8 tiles a sector slower, 4 the old speed, 1 faster). Costs 32 bytes of
// temporary storage a tile instead of 8.
// Below about 500 tiles the stride costs (twentieth session; found in the full runs of
// e81b104b31dc against those of 82d4281d9b00, 2^21 and 2^22 3-9% slower, then A/B builds in one
// call per GPU, A-B-B-A, 5 repetitions; B/A of the medians, B = stride 1, A = main's 4):
//                          tiles at 2^20..2^24   2^20   2^21   2^22   2^23   2^24
//   scan decoupled b128    128 .. 2048    H100   .917   .976   1.048  1.096  1.111
//                                         H200   .941   .969   1.025  1.078  1.104
//   compact single b128    128 .. 2048    H100   .900   .961   1.030  1.044  1.067
//                                         H200   .906   .960   1.026  1.030  1.079
//   scan prefetch b512     43 .. 683      H100   .991   .984   .954   .975   1.024
//                                         H200   .980   .973   .950   .975   1.020
//   compact prefetch b512  55 .. 874      H100   .982   .970   .958   .966   1.015
//                                         H200   .972   .954   .949   .949   1.004
// (at 2^18, 32..11 tiles, all four within 2%, ranges overlapping but compact single_pass on the
// H100, 1.019 with ranges apart: there stride 1 is 1.9% slower; CUB and copy within 1-2.6%).
// Ranges apart where stride 1 is faster: decoupled_lookback at 2^20 (8.4 [8.3-8.5] against 9.2
// [9.2-9.2] us on the H100), compact single_pass at 2^20 and 2^21, scan prefetch_lookback at 2^22
// (and 2^20, 2^21 on the H200), compact prefetch_lookback at 2^21..2^23 (and 2^18, 2^20 on the
// H200), on both GPUs unless said; the other rows below 512 tiles overlap. Stride 4 is faster with
// ranges apart from 1024 tiles for the b128 kernels; at 512 their ranges overlap, and the
// prefetching kernels' rows at 683 and 874 tiles are apart only for compact on the H100. So scan
// (chained, decoupled_lookback, prefetch_lookback) and compaction (single_pass, prefetch_lookback)
// now take their stride by tile count: 1 below kTileStatusSectorTiles = 512 tiles, 4 from there
// (with_tile_status_stride: each kernel built for both, the host picks; 8 bytes of temporary
// storage a tile below 512 tiles). Their stride-4 kernels are those measured before; UTF-8 keeps
// its own choice (decode 4 at every size, where 4 was faster at 2^20 too; encode 1 for its small
// tiles).
#pragma once

#include "common/cuda_check.hpp"
#include "common/dependent_launch.cuh"
#include "common/temp_storage.hpp"
#include "common/warp.cuh"

#include <cuda/atomic>

#include <cstddef>
#include <stdexcept>
#include <type_traits>

namespace gps {

enum TileFlag : unsigned { kTileInvalid = 0, kTileAggregate = 1, kTilePrefix = 2 };

// ---- 1. word encodings -----------------------------------------------------------------------

// 64 bits: the flag in the high half, any 32-bit value in the low half.
struct WideStatusWord {
  using Word = unsigned long long;
  static __host__ __device__ __forceinline__ constexpr Word make(TileFlag flag, unsigned value) {
    return (static_cast<Word>(flag) << 32) | value;
  }
  static __device__ __forceinline__ bool published(Word w) {
    return static_cast<unsigned>(w >> 32) != kTileInvalid;
  }
  static __device__ __forceinline__ bool inclusive(Word w) {
    return static_cast<unsigned>(w >> 32) == kTilePrefix;
  }
  static __device__ __forceinline__ unsigned value(Word w) { return static_cast<unsigned>(w); }
};

// 32 bits: 0 is "nothing published yet", value + 1 an aggregate, kPrefixBit | (value + 1) an
// inclusive prefix (the + 1 tells a published zero from "not yet"). Values must stay below
// kPrefixBit - 1 = 2^31 - 1; the caller checks n. Why a second encoding: where a tile publishes
// many values (onesweep: 256 digits) the status is written twice and read per tile and slot, so its
// size is pure overhead traffic; 32-bit words halve it (1 KB per tile at 256 digits), and at 2^28
// keys a pass's whole array fits in L2.
struct NarrowStatusWord {
  using Word = unsigned;
  static constexpr unsigned kPrefixBit = 1u << 31;
  static __host__ __device__ __forceinline__ constexpr Word make(TileFlag flag, unsigned value) {
    return flag == kTileInvalid ? 0u : (flag == kTilePrefix ? kPrefixBit : 0u) | (value + 1);
  }
  static __device__ __forceinline__ bool published(Word w) { return w != 0; }
  static __device__ __forceinline__ bool inclusive(Word w) { return (w & kPrefixBit) != 0; }
  static __device__ __forceinline__ unsigned value(Word w) { return (w & ~kPrefixBit) - 1; }
};

// ---- 2. status words and the two walks -------------------------------------------------------

template <typename Encoding, int SLOTS = 1> struct StatusWords {
  using Word = typename Encoding::Word;
  Word* words; // tiles * SLOTS words, tile-major, zeroed (nothing published) before the launch

  __device__ __forceinline__ void publish(long long tile, int slot, TileFlag flag,
                                          unsigned value) const {
    cuda::atomic_ref<Word, cuda::thread_scope_device> word(words[tile * SLOTS + slot]);
    word.store(Encoding::make(flag, value), cuda::memory_order_relaxed);
  }
  __device__ __forceinline__ Word load(long long tile, int slot) const {
    cuda::atomic_ref<Word, cuda::thread_scope_device> word(words[tile * SLOTS + slot]);
    return word.load(cuda::memory_order_relaxed);
  }

  // Chained (StreamScan) wait by one thread: spin until `tile` has its inclusive prefix.
  __device__ __forceinline__ unsigned wait_for_prefix(long long tile, int slot) const {
    Word w;
    while (!Encoding::inclusive(w = load(tile, slot)))
      __nanosleep(32);
    return Encoding::value(w);
  }

  // Walk 1, warp window: run by one whole warp for tile `tile` > 0. The warp inspects a window of
  // 32 * DEPTH predecessors at once (lane l takes distances l*DEPTH .. l*DEPTH+DEPTH-1, so one L2
  // round trip covers DEPTH times more tiles), waits until every tile nearer than the nearest
  // inclusive prefix has published something, and sums the values down to and including that
  // prefix; with no prefix in the window it slides the window back. Returns the exclusive prefix
  // of `tile` (wrapping sum of every earlier tile's value) in all lanes.
  template <int DEPTH = 1>
  __device__ __forceinline__ unsigned warp_lookback(long long tile, int slot) const {
    Word w[DEPTH];
    return walk<DEPTH, false>(tile, slot, w);
  }
  // The first window of warp_lookback (this lane's words), loaded ahead of the walk: a caller may
  // issue it early (before its own aggregate is known) and hand it to warp_lookback_from, which
  // reads again only the words that had nothing published yet.
  template <int DEPTH = 1>
  __device__ __forceinline__ void first_window(long long tile, int slot, Word (&w)[DEPTH]) const {
    load_window(tile - 1, slot, w);
  }
  // BACKOFF_NS: a pause before each re-read of words with nothing published yet (0: none).
  template <int DEPTH = 1, int BACKOFF_NS = 0>
  __device__ __forceinline__ unsigned warp_lookback_from(long long tile, int slot,
                                                         Word (&w)[DEPTH]) const {
    return walk<DEPTH, true, BACKOFF_NS>(tile, slot, w);
  }

private:
  // Walk 1's loop; PRELOADED: w holds the first window already (first_window).
  template <int DEPTH, bool PRELOADED, int BACKOFF_NS = 0>
  __device__ __forceinline__ unsigned walk(long long tile, int slot, Word (&w)[DEPTH]) const {
    const int lane = lane_id();
    unsigned exclusive = 0;
    long long nearest = tile - 1; // nearest predecessor not yet accounted for
    bool preloaded = PRELOADED;
    while (true) {
      if (!preloaded)
        load_window(nearest, slot, w);
      preloaded = false;
      int first_prefix, stop_lane;
      while (true) {
        first_prefix = DEPTH; // my nearest word holding an inclusive prefix
#pragma unroll
        for (int j = DEPTH - 1; j >= 0; --j)
          if (Encoding::inclusive(w[j]))
            first_prefix = j;
        const unsigned prefix_lanes = __ballot_sync(kFullMask, first_prefix < DEPTH);
        stop_lane = prefix_lanes ? __ffs(prefix_lanes) - 1 : kWarpSize;
        // only tiles nearer than the nearest prefix matter; wait for those to publish
        bool waiting = false;
        if constexpr (BACKOFF_NS > 0) {
          bool unpublished = false;
#pragma unroll
          for (int j = 0; j < DEPTH; ++j) {
            const bool matters = lane < stop_lane || (lane == stop_lane && j < first_prefix);
            unpublished |= matters && !Encoding::published(w[j]);
          }
          if (__any_sync(kFullMask, unpublished))
            __nanosleep(BACKOFF_NS);
        }
#pragma unroll
        for (int j = 0; j < DEPTH; ++j) {
          const bool matters = lane < stop_lane || (lane == stop_lane && j < first_prefix);
          if (matters && !Encoding::published(w[j])) {
            waiting = true;
            w[j] = load_or_prefix(nearest - (lane * DEPTH + j), slot);
          }
        }
        if (!__any_sync(kFullMask, waiting))
          break;
      }
      unsigned sum = 0;
#pragma unroll
      for (int j = 0; j < DEPTH; ++j)
        if (lane < stop_lane || (lane == stop_lane && j <= first_prefix))
          sum += Encoding::value(w[j]);
      exclusive += warp_reduce_sum(sum);
      if (stop_lane < kWarpSize)
        return exclusive;
      nearest -= kWarpSize * DEPTH;
    }
  }

public:
  // Walk 2, serial: run by one thread for one slot. The sum of the slot's values over every tile
  // before `tile`, spinning on a predecessor that has published nothing yet. DEPTH predecessors
  // are loaded at once (one L2 round trip for DEPTH tiles), then summed nearest first down to the
  // first inclusive prefix.
  template <int DEPTH = 1>
  __device__ __forceinline__ unsigned serial_lookback(long long tile, int slot) const {
    unsigned sum = 0;
    for (long long nearest = tile - 1;; nearest -= DEPTH) {
      Word w[DEPTH];
#pragma unroll
      for (int j = 0; j < DEPTH; ++j)
        w[j] = load_or_prefix(nearest - j, slot);
#pragma unroll
      for (int j = 0; j < DEPTH; ++j) {
        while (!Encoding::published(w[j]))
          w[j] = load(nearest - j, slot);
        sum += Encoding::value(w[j]);
        if (Encoding::inclusive(w[j]))
          return sum;
      }
    }
  }

private:
  // This lane's words of the window that starts at predecessor `nearest`: distances
  // lane * DEPTH .. lane * DEPTH + DEPTH - 1 from it.
  template <int DEPTH>
  __device__ __forceinline__ void load_window(long long nearest, int slot, Word (&w)[DEPTH]) const {
    const int lane = lane_id();
#pragma unroll
    for (int j = 0; j < DEPTH; ++j)
      w[j] = load_or_prefix(nearest - (lane * DEPTH + j), slot);
  }
  // Tiles before the first one read as an inclusive prefix of 0.
  __device__ __forceinline__ Word load_or_prefix(long long tile, int slot) const {
    return tile >= 0 ? load(tile, slot) : Encoding::make(kTilePrefix, 0);
  }
};

// ---- 3. front ends ---------------------------------------------------------------------------

// The next tile index in launch order, one atomic per block; `slot` is a __shared__ word. Every
// thread of the block calls it (it holds a barrier). Tiles then start in index order, so a tile
// that looks back only ever waits on tiles that are running or done.
__device__ __forceinline__ unsigned next_tile_index(unsigned* counter, unsigned& slot) {
  if (threadIdx.x == 0)
    slot = atomicAdd(counter, 1u);
  __syncthreads();
  return slot;
}

// The block's index as its tile: the hardware dispatches a grid's blocks in index order, so here
// too a tile only waits on tiles that are running or done (what CUB's AgentScan relies on:
// tile_idx = start_tile + blockIdx.x). No atomic round trip and no barrier at the tile's start,
// but the order is the dispatch order, not the order the blocks reach their first instruction:
// utf8/single_pass's decode gained 1.7% from it, onesweep's pairs lost 3.5% (their tuning logs:
// single_pass.tuning.md, onesweep.tuning.md).
__device__ __forceinline__ unsigned block_tile_index() {
  return blockIdx.x;
}

// One value per tile in one 64-bit word (TileStatus: scan, compaction, UTF-8); tile t's word at
// words[t * STRIDE] (STRIDE > 1: fewer tiles share an L2 sector).
template <int STRIDE = 1> struct BasicTileStatus {
  using Words = StatusWords<WideStatusWord, STRIDE>;
  unsigned long long* words; // tile t's at t * STRIDE, zeroed before the launch

  __device__ __forceinline__ void publish(long long tile, TileFlag flag, unsigned value) const {
    Words{words}.publish(tile, 0, flag, value);
  }
  __device__ __forceinline__ unsigned long long load(long long tile) const {
    return Words{words}.load(tile, 0);
  }
  __device__ __forceinline__ unsigned wait_for_prefix(long long tile) const {
    return Words{words}.wait_for_prefix(tile, 0);
  }
  template <int DEPTH = 1> __device__ __forceinline__ unsigned warp_lookback(long long tile) const {
    return Words{words}.template warp_lookback<DEPTH>(tile, 0);
  }
  // The look-back's first window, loaded early by the walking warp (StatusWords::first_window);
  // exclusive_prefix_from then walks from it.
  using Window = typename Words::Word;
  __device__ __forceinline__ Window first_window(long long tile) const {
    Window w[1];
    Words{words}.template first_window<1>(tile, 0, w);
    return w[0];
  }

  // The decoupled look-back protocol, run by one whole warp for its tile: publish the tile's
  // aggregate at once (successors need not wait for our prefix), look back, publish the inclusive
  // prefix. Returns the exclusive prefix (0 for tile 0) in every lane.
  template <int DEPTH = 1>
  __device__ __forceinline__ unsigned exclusive_prefix(long long tile, unsigned aggregate) const {
    return protocol(tile, aggregate, [&] { return warp_lookback<DEPTH>(tile); });
  }
  // The same, walking from a first window this warp loaded earlier (first_window): the walk's
  // first L2 round trip then overlaps whatever the warp waited on before (decode and encode: the
  // other warps' counts).
  template <int BACKOFF_NS = 0>
  __device__ __forceinline__ unsigned exclusive_prefix_from(long long tile, unsigned aggregate,
                                                            Window window) const {
    return protocol(tile, aggregate, [&] {
      Window w[1] = {window};
      return Words{words}.template warp_lookback_from<1, BACKOFF_NS>(tile, 0, w);
    });
  }

  // The rest of the decoupled look-back for a tile whose aggregate was published earlier (a
  // prefetching kernel publishes the next tile's aggregate before looking back for the current
  // one; tile 0 publishes its aggregate as its inclusive prefix): run by one whole warp, it looks
  // back and publishes the inclusive prefix. Returns the exclusive prefix in every lane.
  template <int DEPTH = 1>
  __device__ __forceinline__ unsigned prefix_after_aggregate(long long tile,
                                                             unsigned aggregate) const {
    if (tile == 0)
      return 0;
    const unsigned prefix = warp_lookback<DEPTH>(tile);
    if (lane_id() == 0)
      publish(tile, kTilePrefix, prefix + aggregate);
    return prefix;
  }

  // The chained (StreamScan) protocol, run by one whole warp for its tile: lane 0 waits for the
  // predecessor's inclusive prefix and publishes ours. Returns the exclusive prefix in lane 0 (0 in
  // the other lanes).
  __device__ __forceinline__ unsigned chained_prefix(long long tile, unsigned aggregate) const {
    const bool leader = lane_id() == 0;
    if (tile == 0) {
      if (leader)
        publish(0, kTilePrefix, aggregate);
      return 0;
    }
    unsigned prefix = 0;
    if (leader) {
      prefix = wait_for_prefix(tile - 1);
      publish(tile, kTilePrefix, prefix + aggregate);
    }
    return prefix;
  }

private:
  // The decoupled look-back protocol around a walk (exclusive_prefix, exclusive_prefix_from).
  template <typename Walk>
  __device__ __forceinline__ unsigned protocol(long long tile, unsigned aggregate,
                                               Walk&& walk) const {
    const bool leader = lane_id() == 0;
    if (tile == 0) {
      if (leader)
        publish(0, kTilePrefix, aggregate);
      return 0;
    }
    if (leader)
      publish(tile, kTileAggregate, aggregate);
    const unsigned prefix = walk();
    if (leader)
      publish(tile, kTilePrefix, prefix + aggregate);
    return prefix;
  }
};
// Every user's tile status keeps one tile a 32-byte sector (4 words a tile): tiles that shared a
// sector slowed each other's walks (the scan's decoupled_lookback at 2^28 10..15% faster with the
// stride, the compaction's single_pass 12..17%, utf8 decode up to 5%; the tuning logs of
// scan/decoupled_lookback.cu and utf8/single_pass.cu).
constexpr int kTileStatusStride = 4;
using TileStatus = BasicTileStatus<kTileStatusStride>;
// Below this many tiles the sectors' sharing costs less than the wider windows (twentieth session:
// the A/B runs above), so the kernels that take their stride by tile count (scan and compaction:
// take_tile_status_by_count, with_tile_status_stride) pack their words one a tile; UTF-8 keeps its
// own choice.
constexpr std::size_t kTileStatusSectorTiles = 512;
constexpr int tile_status_stride(std::size_t tiles) {
  return tiles >= kTileStatusSectorTiles ? kTileStatusStride : 1;
}

// Prefix callbacks (CUB's TilePrefixCallbackOp) for BlockScan's *_sum(..., prefix_op): called by
// one whole warp with the tile's aggregate, they run the protocol and return the tile's exclusive
// prefix, which BlockScan reads in lane 0.
template <typename Status = TileStatus, int DEPTH = 1> struct LookbackPrefix {
  Status status;
  long long tile;
  __device__ __forceinline__ unsigned operator()(unsigned aggregate) const {
    return status.template exclusive_prefix<DEPTH>(tile, aggregate); // in every lane
  }
};
template <typename Status = TileStatus, int DEPTH = 1> struct PublishedAggregatePrefix {
  Status status;
  long long tile;
  __device__ __forceinline__ unsigned operator()(unsigned aggregate) const {
    return status.template prefix_after_aggregate<DEPTH>(tile, aggregate); // in every lane
  }
};
template <typename Status = TileStatus> struct ChainedPrefix {
  Status status;
  long long tile;
  __device__ __forceinline__ unsigned operator()(unsigned aggregate) const {
    return status.chained_prefix(tile, aggregate); // in lane 0
  }
};

// DIGITS values per tile, one 32-bit word each (NarrowStatusWord), tile-major so that a block's
// DIGITS threads publish one contiguous run; each digit walked serially by the thread that owns it
// (the one-sweep radix sort). Values must stay below 2^31 - 1: the caller checks n.
template <int DIGITS> struct DigitTileStatus {
  using Words = StatusWords<NarrowStatusWord, DIGITS>;
  static constexpr unsigned kPrefixBit = NarrowStatusWord::kPrefixBit;
  unsigned* words; // tiles * DIGITS words, zeroed (nothing published) before the launch

  // `inclusive`: value is the digit's count over this tile and every earlier one; otherwise this
  // tile's own count.
  __device__ __forceinline__ void publish(long long tile, int digit, bool inclusive,
                                          unsigned value) const {
    Words{words}.publish(tile, digit, inclusive ? kTilePrefix : kTileAggregate, value);
  }
  __device__ __forceinline__ unsigned load(long long tile, int digit) const {
    return Words{words}.load(tile, digit);
  }
  // Serial look-back by one thread: the sum of `digit`'s counts over every tile before `tile`,
  // DEPTH tiles per L2 round trip.
  template <int DEPTH = 1>
  __device__ __forceinline__ unsigned exclusive_prefix(long long tile, int digit) const {
    return Words{words}.template serial_lookback<DEPTH>(tile, digit);
  }
};

// ---- host side -------------------------------------------------------------------------------

// TileStatus in two steps of the temp-storage contract (common/temp_storage.hpp): carve a tile
// counter and one status word per tile out of the caller's layout (query and run phase alike),
// then, in the run phase, clear them with a single memset on `stream` (part of the algorithm's
// work: every call starts fresh).
struct TileStatusStorage {
  unsigned long long* words; // word 0: the tile counter; then `stride` words per tile
  std::size_t tiles;
  int stride = kTileStatusStride;

  std::size_t word_count() const { return tiles * static_cast<std::size_t>(stride) + 1; }
  // The status of a kernel built for STRIDE (at most the storage's).
  template <int STRIDE = kTileStatusStride> BasicTileStatus<STRIDE> status() const {
    if (STRIDE > stride)
      throw std::logic_error("tile status: a kernel's stride above its storage's");
    return BasicTileStatus<STRIDE>{words + 1};
  }
};
// `stride`: words per tile (kTileStatusStride, or 1 for UTF-8 encode's small tiles; the kernels
// that take it by tile count use take_tile_status_by_count).
inline TileStatusStorage take_tile_status(TempLayout& layout, std::size_t tiles,
                                          int stride = kTileStatusStride) {
  if (tiles > 0x7fffffffu)
    throw std::invalid_argument("single-pass kernel: more than 2^31 - 1 tiles");
  TileStatusStorage storage{nullptr, tiles, stride};
  storage.words = layout.take<unsigned long long>(storage.word_count());
  return storage;
}
// The storage of the kernels that take their stride by tile count (scan and compaction): the
// stride is decided here, once, and with_tile_status_stride below reads it back.
inline TileStatusStorage take_tile_status_by_count(TempLayout& layout, std::size_t tiles) {
  return take_tile_status(layout, tiles, tile_status_stride(tiles));
}
// Calls f(std::integral_constant<int, storage.stride>{}) (1 or kTileStatusStride): one kernel per
// stride, the one the storage was taken for.
template <typename F> void with_tile_status_stride(const TileStatusStorage& storage, F&& f) {
  if (storage.stride == kTileStatusStride)
    f(std::integral_constant<int, kTileStatusStride>{});
  else if (storage.stride == 1)
    f(std::integral_constant<int, 1>{});
  else
    throw std::logic_error("tile status: a stride with no kernel built for it");
}
template <int STRIDE = kTileStatusStride>
BasicTileStatus<STRIDE> clear_tile_status(const TileStatusStorage& storage, cudaStream_t stream,
                                          unsigned** tile_counter) {
  CUDA_CHECK(
      cudaMemsetAsync(storage.words, 0, sizeof(unsigned long long) * storage.word_count(), stream));
  *tile_counter = reinterpret_cast<unsigned*>(storage.words);
  return storage.template status<STRIDE>();
}
// The same for kernels whose tile is their block's index (block_tile_index: no counter taken).
template <int STRIDE = kTileStatusStride>
BasicTileStatus<STRIDE> clear_tile_status(const TileStatusStorage& storage, cudaStream_t stream) {
  unsigned* unused = nullptr;
  return clear_tile_status<STRIDE>(storage, stream, &unused);
}

// Zeroes words[0, count) and, at its start, lets the kernel after it on the stream launch
// (dependent_launch.cuh). A template so that each translation unit may hold its own copy.
template <typename Word> __global__ void clear_words_early(Word* words, std::size_t count) {
  allow_dependent_launch();
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    words[i] = 0;
}

// clear_tile_status for a kernel whose tile is its block's index, by a kernel instead of a memset,
// so that the single-pass kernel launched after it with launch_dependent starts while the words
// are cleared: its blocks load and classify their tiles, and only wait_for_prerequisite_grid()
// before their first access to the status words (or to anything else the clear writes).
inline TileStatus clear_tile_status_early(const TileStatusStorage& storage, cudaStream_t stream) {
  constexpr unsigned kBlock = 256;
  const std::size_t words = storage.word_count();
  const auto grid = static_cast<unsigned>((words + kBlock - 1) / kBlock);
  clear_words_early<<<grid, kBlock, 0, stream>>>(storage.words, words);
  CUDA_CHECK_LAUNCH();
  return storage.status();
}

} // namespace gps
