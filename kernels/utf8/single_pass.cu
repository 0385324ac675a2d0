// single_pass: each operation in one kernel (plus the clear of its status words: for decode a
// kernel that lets decode start at once), the minimum global traffic: the input read once, the
// output written once.
//
// decode: each block's tile is its index (the hardware dispatches blocks in index order, so a tile
// only ever waits on tiles that are running or done: lookback.cuh's block_tile_index), asks L2 for
// the tile a quarter of a wave of resident blocks ahead (bulk_copy.cuh), loads its own
// tile with evict-first 16-byte loads, classifies each thread's 16-byte chunks (chunk.hpp: SWAR
// over the four words, the role of a byte decided by the 3 bytes before it), counts the units per
// chunk, learns how many code points all earlier tiles write through the decoupled look-back
// (common/lookback.cuh, TileStatus; warp 0 loads the first window, 32 predecessors' words, before
// the barrier that waits for the counts), then decodes and writes: each warp stages one step's
// code points (at most 512) in shared memory and writes them as one contiguous run with evict-first
// stores. A step is staged in one of three modes chosen per warp (no multi-byte unit: fixed ASCII
// slots; lanes of 6 units or more: one pass over the 16 positions accumulating each unit's code
// point; else a loop over the units), and the first step is staged while warp 0 looks back.
//
// validate: the same loads and classification; the first ill-formed unit of the block, then one
// atomicMin; tiles that start after an error already found skip their loads.
//
// encode: tiles of code points, the byte count of each code point, look-back for the output
// offset, bytes staged per warp (each code point's bytes ORed into the stage by one or two shared
// atomics) and stored as aligned 32-bit words (byte stores only at the two ends of a run). From
// 2^22 code points on, tiles of 8 vector steps a thread whose code points are read again (from L2)
// to stage them; below, 4 steps held in registers.
//
// Change from scan_based: classify, scan and scatter fused into one kernel; no per-byte flags or
// offsets in global memory, and the scan runs over per-tile counts.
//
// Where the idea comes from: CUB's DeviceSelect (Merrill & Garland 2016, "Single-pass Parallel
// Prefix Scan with Decoupled Look-back") for the structure; the SWAR byte classification follows
// the idea of Keiser & Lemire 2021, "Validating UTF-8 in less than one instruction per byte"
// (classify bytes in parallel, find what each lead byte's continuation bytes must be), adapted to
// 32-bit GPU registers and to the maximal-subpart units of the replacement decoder.
//
// Tile layout (decode): warp w owns 2048 contiguous bytes of the tile; its j-th 16-byte vector
// step covers 512 bytes, lane l taking bytes 16l..16l+15, so a lane's neighbours' words come from
// shuffles (from a 4-byte load at the warp's two ends). A code point belongs to the tile (and
// lane) where its unit starts; a lane reads up to 3 bytes past its chunk (the next lane's first
// word). Alignment: any input pointer. The tiles are laid on the 16-byte grid of the input's
// address (tile 0 starts up to 15 bytes before the input), so every full vector load is aligned;
// the positions outside the input read as 0 and their bits are cleared.
//
// Measured (GB/s of bytes read + written against the copy row of the same run; the design
// targets >= 0.8x copy at 2^28 bytes of mixed text), 5 repetitions:
//   decode of mixed text at 2^28, block 384: H100 462.5 us = 0.710x copy, H200 415.2 us = 0.559x
//   (block 256 in the same runs: 0.682x and 0.532x); results/partial/nvidia-{h100,h200}-utf8-b384
//   .json (commit da137f4e6402). The other mixes, validate and encode at block 256:
//   results/partial/nvidia-{h100,h200}-utf8.json (aa2239d9ff9a) and -utf8-encode.json.
//   With the L2 prefetch (commit 9014885c384a, results/partial/nvidia-{h100,h200}-l2-ahead.json):
//   block 384 at 2^28 H100 420.4 us = 0.781x copy [0.781-0.784], H200 393.0 us = 0.594x; at 2^30
//   0.796x and 0.604x. The headline runs of 14405ea946d7 (with the early clear below, before the
//   early first window; the headline files of that commit, in the history): block 384 at 2^28 H100
//   419.1 us = 0.784x copy [0.781-0.785], H200 391.8 us = 0.595x [0.594-0.596]; at 2^30 0.796x
//   and 0.605x. This kernel (commit 0e2ba2f9072d, results/partial/nvidia-{h100,h200}-utf8-window
//   .json): block 384 at 2^28 H100 412.0 us = 0.799x copy [0.796-0.802], H200 389.4 us = 0.595x
//   [0.595-0.596]; at 2^30 0.815x [0.813-0.815] and 0.605x. The headline runs of 82d4281d9b00
//   (before the status-word stride; that commit's headline files, in the history): block 384 at
//   2^28 H100 413.2 us = 0.795x copy [0.791-0.797], H200 390.6 us = 0.598x [0.597-0.599]; at 2^30
//   0.809x [0.808-0.810] and 0.608x [0.607-0.608]. Those of e81b104b31dc (this kernel; that
//   commit's headline files, in the history): block 384 at 2^28 H100 413.1 us = 0.795x
//   [0.793-0.796], block 256 410.3 us = 0.800x [0.799-0.801]; H200 387.7 us = 0.598x
//   [0.597-0.598] (block 384; 256: 0.587x); at 2^30 H100 0.809x [0.808-0.811] (block 384) and
//   0.811x [0.807-0.812] (256), H200 0.607x [0.607-0.608]. Those of 4d7b3277ad59 (this kernel;
//   that commit's headline files, in the history): at 2^28 H100 block 256 410.9 us = 0.802x
//   [0.800-0.803], block 384 413.2 us = 0.797x [0.793-0.803]; H200 block 384 388.5 us = 0.600x
//   [0.600-0.601] (256: 0.589x); at 2^30 H100 0.814x [0.813-0.816] (256) and 0.811x (384), H200
//   0.611x [0.610-0.611] (384). Those of a4783e314b19 (this kernel; results/partial/nvidia-
//   {h100,h200}-headline.json): at 2^28 H100 block 256 410.6 us = 0.800x [0.798-0.802], block
//   384 414.2 us = 0.793x [0.789-0.798]; H200 block 384 387.9 us = 0.598x [0.597-0.598] (256:
//   0.586x); at 2^30 H100 0.810x [0.808-0.812] (256) and 0.807x (384), H200 0.607x [0.607-0.608]
//   (384).
// What bounds decode: integer work and the look-back chain, not memory (the same times on both
// GPUs although the H200 has 1.4x the bandwidth). With every tile's offset known in advance
// (no chain) the same kernel decodes mixed text at about 0.87x copy on the H100 and 0.64x on the
// H200: the chain costs 18-22%, and the H200 needs the decode work cut too (NOTES.md). Part of
// the chain was the tiles' wait on DRAM before their counts: the L2 prefetch took 6-9% off.
//
// Tuning, in order; every step's prediction, A/B runs (same call, 5 repetitions), profiles and
// branches are in single_pass.tuning.md. Mixed text at 2^28 unless said:
//   kept     split mode, info encoding, lean ASCII slots, step 0 staged during the look-back
//            (first session; mixed 1.32x on the H200)
//   kept     the word before a chunk from the previous lane's classes (validate 1.08x)
//   dropped  16-byte output stores (+12%), a loop per 4-byte word (cjk +5%), launch bounds for
//            40 or 48 warps (+2..7%), 2 vectors a thread (mixed -7%, but ascii +10% and the
//            other mixes +3..4%), other split margins, a staging loop not unrolled (+3%)
//   dropped  a well-formed fast path of the classification (mixed -2.8%, mixed_errors +47%)
//   dropped  a gather mode that evens the lanes' trips (+3..22%)
//   kept     table decode of units, prmt by PTX, builds without the well-formedness test, the
//            classification's sums as IMAD (third session; H100 -9.5%, validate -12%)
//   dropped  the same IMAD offload in the decode loops (+25%: constants loaded by LDC)
//   kept     the store step as 16 unrolled rounds from two pointers (-5.5%)
//   kept     accumulate mode (one pass over a chunk's 16 positions; -15.7%), the store step's
//            address held in registers (-2.4%)
//   dropped  two steps' counts in one warp scan (-0.8%, within the noise), steps 0 and 1 both
//            staged during the look-back (+1..2%)
//   kept     the pair table for the second-byte rule (-4.8%; validate -17%), stores at units'
//            ends and the tile from blockIdx.x (together -2.5%; 2^24 -9%)
//   dropped  a broadcast pair-table row (+1..2%), the barrier after the counts for warp 0 only
//            (+1.1%), accumulate mode from 5 units (the same), a look-back tile per warp (+14%),
//            warp 0 staging during its walk (+12%), 8 vector steps a warp (+14%), larger tiles
//            with reloaded chunks (+13.5%; ascii -6%)
//   kept     accumulate mode for the warps at the input's edges (npot inputs ~2.5 us faster)
//   kept     encode: bytes staged by shared atomicOr, 8-step tiles from 2^22 code points
//            (-15..-26%); dropped: byte stores for the small tiles (the same)
//   dropped  a walker warp that only looks back (+3.4%), 3 vector steps a warp for 40 warps an
//            SM (+5.3%), per-step values recomputed at staging (+0.7%), speculative offsets from
//            lead counts (+14%; mixed_errors 2.1x)
//   kept     384-thread blocks built for 3 an SM (-3.5% H100, -4.0% H200; block 256 stays faster
//            at 2^24 and below), the tile's loads before the table fill (-1.4% H100, -1.9% H200)
//   dropped  a lagged persistent kernel (mixed 2^28 b256 -0.7% H100, -0.2% H200, 3.5-5% behind
//            block 384; ascii -4.5% / -14%), look-back depth 2 (within the noise)
//   kept     decode: the tile a quarter of a wave of resident blocks ahead prefetched into L2 by
//            thread 0 (mixed 2^28 b384 -9.3% H100, -6.1% H200; ascii -11..-15%); dropped for
//            validate (mixed_errors 1.8x, ascii +15%) and encode (mixed -3.3%, emoji +4.4%)
//   kept     decode: the status words cleared by a kernel that lets decode launch at once
//            (programmatic dependent launch; warp 0 waits for it before the look-back): 0.5-1.7
//            us at every size on the H100 (2^24 -4.5%, 2^28 b384 -0.3%, within the noise there)
//   dropped  speculative aggregates (non-continuation bytes) published right after the loads
//            (mixed 2^28 -2%, but latin +2..3.5% and 2^24 +2.5%), both block barriers as
//            mbarriers so that no warp waits for another's work (mixed +2.4%, emoji +5%)
//   kept     decode and encode: warp 0 loads its look-back's first window before the barrier
//            after the counts and walks from it after (decode mixed 2^28 b384 -1.4% H100, -0.8%
//            H200, latin and emoji -2%; encode ascii -2.5%, the other mixes within the noise)
//   dropped  a first window of 64 tiles (+0.7%), the aggregate published by the last warp to
//            count (+0.5%), a fresh window loaded while warp 0 stages step 0 (+1.6%)
//   dropped  the next window loaded while the walk waits on a predecessor (mixed 2^28 b384 the
//            same, latin, cjk and emoji +1..2%); a block timeline (tuning log) puts 3.8% of the
//            2^28 span in the tail and the blocks' turnover, and a third of a block in the walk
//   dropped  a resident grid with tiles dealt out by a fixed stride (mixed 2^28 +28..52%; not
//            profiled, likely the blocks falling into step with the slowest through the walk)
//   dropped  forward help: each tile publishing its successors' inclusive prefixes after its
//            walk (mixed 2^28 +2.1%, emoji +5%)
//   dropped  decode: a __nanosleep before the walk re-reads unpublished words (the same or +0.5%)
//   kept     encode: that back-off at 256 ns (every mix at 2^24..2^29 code points, block 256:
//            H100 -1.8..-4.4%, H200 -1.1..-5.0%, ranges apart; 2^20 -0.3..-4.1%, within the
//            noise); 64 ns gave about half, 1024 ns lost 2..8% at 2^20 and gained less above
//   dropped  decode and encode: 32-bit status words (8 tiles an L2 sector instead of 4; H100:
//            decode +3.0..5.7%, encode +3.6..9.7%)
//   kept     decode and encode's large tiles: one status word a 32-byte sector (stride 4; decode
//            b256 2^28 -1.0..-2.4% H100, ascii -5.1% H200, b384 2^28 +0.3% H100 (the same), -0.4%
//            H200; encode 2^24..2^28 -0.2..-7.1%); stride 16 (a line each) no better; encode's
//            small tiles keep stride 1 (stride 4: +4.8..5.4% at 2^20 on the H200)
//   kept     encode's small tiles in status storage of 1 word a tile, not 4 (2^19 and 2^20 code
//            points -8..-14% H100, -7..-11% H200; larger sizes the same)
//   dropped  the pair table's lead entries in banks 16..31 (two IMADs a non-ASCII word: mixed
//            2^28 +1.7..2.7% H100, validate +9.4%): the classification's operations still bound it
//   dropped  the high-bit mask instead of the ASCII mask (one LOP3 a word fewer in PTX: mixed
//            2^28 +0.7%, validate +2.3% on the H100)
#include "common/block.cuh"
#include "common/bulk_copy.cuh"
#include "common/cuda_check.hpp"
#include "common/dependent_launch.cuh"
#include "common/lookback.cuh"
#include "common/occupancy.hpp"
#include "common/shared_memory.cuh"
#include "common/temp_storage.hpp"
#include "common/warp.cuh"
#include "utf8/checks.hpp"
#include "utf8/chunk.hpp"
#include "utf8/empty_input.hpp"
#include "utf8/rules.hpp"
#include "utf8/tiles.hpp"
#include "utf8/utf8.hpp"

#include <cuda/atomic>

#include <cstdint>
#include <type_traits>
#include <utility>

namespace gps::utf8 {
namespace {

constexpr int kVecs = 4; // 16-byte vectors per thread and tile
// encode's walk pauses this long before it reads again a predecessor with nothing published
// (encode 2^24..2^29 code points, every mix: -1.1..-5.0% on both GPUs against none; 64 ns gave
// about half of that, 1024 ns lost at 2^20; single_pass.tuning.md, nineteenth session). Not
// decode's walk: there a back-off gained nothing.
constexpr int kEncodeBackoffNs = 256;
// Each tile's look-back status word in a 32-byte L2 sector of its own (a stride of 4 8-byte
// words), for decode and for encode's large tiles. The newest tiles' sectors take every walk's
// loads and every tile's two publishes; fewer tiles a sector made the walks cheaper (not profiled).
// Measured (single_pass.tuning.md, nineteenth session): decode at block 256 and at 2^24 up to 2.8%
// faster on the H100 and ASCII 5% on the H200, block 384 at 2^28 the same (H100) or 0.4% faster
// (H200); encode's large tiles 0.2..7% faster; 32-bit words (8 tiles a sector) 3..10% slower.
// Encode's small tiles keep stride 1 (with 4, 5% slower at 2^20 code points on the H200).
using DecodeStatus = TileStatus; // lookback.cuh's kTileStatusStride (4)
template <int STEPS>
constexpr int kEncodeStatusStride = STEPS == kEncodeStepsLarge ? kTileStatusStride : 1;
template <int STEPS> using EncodeStatus = BasicTileStatus<kEncodeStatusStride<STEPS>>;
// decode's accumulate mode (one pass over a chunk's 16 positions) costs about as much as 6 trips
// of the loop over units: taken in warps whose most units per lane reach this (measured on the
// H200: 5 and 6 the same for mixed text, 7 0.9% slower there but CJK 1.8% faster).
constexpr unsigned kAccumulateUnits = 6;

// ---- decode and validate: tiles of bytes -------------------------------------------------------

template <int BLOCK> struct ByteTile {
  static_assert(BLOCK % kWarpSize == 0, "block must be whole warps");
  static constexpr int kWarps = BLOCK / kWarpSize;
  static constexpr int kStepBytes = kWarpSize * 16;     // one vector step of a warp: 512
  static constexpr int kWarpBytes = kVecs * kStepBytes; // 2048
  static constexpr int kTileBytes = BLOCK * kVecs * 16; // 4 KiB (64 threads) .. 64 KiB (1024)
  // per warp: the stage of a step's units (at most 512, one padding word after every 32:
  // stage_slot), a scratch word per lane (accumulate mode's positions before a lane's first unit
  // store there), and a
  // copy of each lane's chunk and the word after it (5 words per lane: odd, so the lanes' copies
  // fall in distinct banks)
  static constexpr int kStageUnits = kStepBytes + kStepBytes / 32;
  static constexpr int kChunkCopy = kStageUnits + kWarpSize;
  static constexpr int kStageWords = kChunkCopy + 5 * kWarpSize + 16; // a multiple of 32
  static constexpr int kStageBytes = kWarps * kStageWords * 4;
};

// The input on the 16-byte grid of its address: virtual position p is byte p - begin of the input
// (begin = the input's offset in its 16-byte line); positions outside [begin, end) read as 0.
struct ByteGrid {
  std::uintptr_t base; // address of virtual position 0 (16-byte aligned)
  long long begin;
  long long end;

  __device__ __forceinline__ const unsigned char* at(long long p) const {
    return reinterpret_cast<const unsigned char*>(base + static_cast<std::uintptr_t>(p));
  }
  __device__ __forceinline__ unsigned byte(long long p) const {
    return p >= begin && p < end ? *at(p) : 0u;
  }
  // The 4 bytes at p (a multiple of 4).
  __device__ __forceinline__ unsigned word(long long p) const {
    if (p >= begin && p + 4 <= end)
      return *reinterpret_cast<const unsigned*>(at(p));
    return byte(p) | byte(p + 1) << 8 | byte(p + 2) << 16 | byte(p + 3) << 24;
  }
  // The 16 bytes at p (a multiple of 16); `inside`: known to lie in the input.
  __device__ __forceinline__ uint4 vector(long long p, bool inside) const {
    if (inside || (p >= begin && p + 16 <= end))
      return __ldcs(reinterpret_cast<const uint4*>(at(p))); // evict-first: read once
    return make_uint4(word(p), word(p + 4), word(p + 8), word(p + 12));
  }
  // classify_chunk's bits of the positions p..p+15 that lie in the input.
  __device__ __forceinline__ unsigned inside_mask(long long p) const {
    const long long lo = begin - p < 0 ? 0 : begin - p > 16 ? 16 : begin - p;
    const long long hi = end - p < 0 ? 0 : end - p > 16 ? 16 : end - p;
    const unsigned below_hi = (1u << hi) - 1u, below_lo = (1u << lo) - 1u; // hi, lo <= 16
    const unsigned m = below_hi & ~below_lo;
    return m | m << 16;
  }
  // Prefetches into L2 the tile of `bytes` at virtual position p (a multiple of 16 past begin),
  // as far as the input's last whole 16 bytes.
  __device__ __forceinline__ void prefetch(long long p, unsigned bytes) const {
    const long long left = (end - p) & ~15ll;
    if (left > 0)
      prefetch_l2(at(p), left < bytes ? static_cast<unsigned>(left) : bytes);
  }
};

ByteGrid byte_grid(const unsigned char* in, std::size_t n) {
  const auto address = reinterpret_cast<std::uintptr_t>(in);
  const auto begin = static_cast<long long>(address % 16);
  return {address - static_cast<std::uintptr_t>(begin), begin, begin + static_cast<long long>(n)};
}

// Tiles launched for this input (g.begin is its skew; tiles.hpp); the last one holds the input's
// last byte and writes the count.
std::size_t byte_tiles(const ByteGrid& g, std::size_t tile) {
  return tiles::tile_count(static_cast<std::size_t>(g.begin),
                           static_cast<std::size_t>(g.end - g.begin), tile);
}

// One warp's chunks of a tile, loaded and classified (phase 1 of decode and validate).
template <int BLOCK> struct WarpChunks {
  using Tile = ByteTile<BLOCK>;
  uint4 v[kVecs];       // this lane's chunk of each vector step
  unsigned next[kVecs]; // the 4 bytes after each chunk
  unsigned info[kVecs]; // classify_chunk's result, bits outside the input cleared
  long long base;       // virtual position of the warp's first byte
  bool inside;          // the warp's bytes all lie in the input

  __device__ __forceinline__ long long chunk_at(int j) const {
    return base + j * Tile::kStepBytes + lane_id() * 16;
  }

  // Loads the warp's 2048 bytes (all loads issued before any is used) and classifies them; the
  // words before and after each chunk come from the neighbouring lanes, and at the warp's ends
  // from a 4-byte load.
  __device__ __forceinline__ void load_and_classify(const ByteGrid& grid, long long warp_base,
                                                    const unsigned char* pairs) {
    load(grid, warp_base);
    classify(grid, pairs);
  }
  // The two halves: the loads (issued before anything uses them), then the classification.
  __device__ __forceinline__ void load(const ByteGrid& grid, long long warp_base) {
    base = warp_base;
    inside = base >= grid.begin && base + Tile::kWarpBytes <= grid.end;
#pragma unroll
    for (int j = 0; j < kVecs; ++j)
      v[j] = grid.vector(chunk_at(j), inside);
  }
  __device__ __forceinline__ void classify(const ByteGrid& grid, const unsigned char* pairs) {
    const int lane = lane_id();
    const unsigned before = lane == 0 ? grid.word(base - 4) : 0u;
    const unsigned after = lane == kWarpSize - 1 ? grid.word(base + Tile::kWarpBytes) : 0u;
    unsigned carry = 0; // lane 31's last-word classes of the step before
#pragma unroll
    for (int j = 0; j < kVecs; ++j) {
      const unsigned down = __shfl_down_sync(kFullMask, v[j].x, 1);
      const unsigned wrap_next =
          j == kVecs - 1 ? after : __shfl_sync(kFullMask, v[j == kVecs - 1 ? j : j + 1].x, 0);
      next[j] = lane == kWarpSize - 1 ? wrap_next : down;
      // the word before each chunk: classified here in step 0; in later steps its classes come
      // from the lane before (or lane 31 of the step before), which classified it as its last
      // word (one classify_word of five saved per chunk)
      const bool ascii_chunk = ((v[j].x | v[j].y | v[j].z | v[j].w) & chunk::kHigh) == 0;
      chunk::ChunkMasks m;
      unsigned last = chunk::kAsciiWordClasses;
      if (!ascii_chunk) {
        m = chunk::own_masks(v[j].x, v[j].y, v[j].z, v[j].w, next[j], pairs);
        last = chunk::last_word_classes(m);
      }
      const unsigned from_before = __shfl_up_sync(kFullMask, last, 1);
      const unsigned prev_classes = lane == 0 ? carry : from_before;
      carry = __shfl_sync(kFullMask, last, kWarpSize - 1);
      if (j == 0) {
        const unsigned up = __shfl_up_sync(kFullMask, v[0].w, 1);
        const unsigned prev = lane == 0 ? before : up;
        if (!ascii_chunk)
          chunk::add_word(m, 0, prev, v[0].x, pairs);
      } else if (!ascii_chunk) {
        chunk::add_prev_classes(m, prev_classes);
      }
      info[j] = ascii_chunk ? chunk::kAllAscii : chunk::chunk_info(m);
      if (!inside)
        info[j] &= grid.inside_mask(chunk_at(j));
    }
  }
};

// The block's copy of chunk.hpp's pair table (its used entries: one 8-byte store per run of 8
// equal entries); the caller's barrier orders it before the loads.
__constant__ std::uint32_t kPairRun16Bits[8] = {
    chunk::pair_run16_word(0), chunk::pair_run16_word(1), chunk::pair_run16_word(2),
    chunk::pair_run16_word(3), chunk::pair_run16_word(4), chunk::pair_run16_word(5),
    chunk::pair_run16_word(6), chunk::pair_run16_word(7)};
template <int BLOCK> __device__ __forceinline__ void fill_pair_table(unsigned char* pairs) {
  for (unsigned c = threadIdx.x; c < 256; c += BLOCK) {
    const unsigned v = (kPairRun16Bits[c >> 5] >> (c & 31u) & 1u) * 0x01010101u;
    *reinterpret_cast<uint4*>(pairs + (c >> 2) * 256 + (c & 3u) * 16) = make_uint4(v, v, v, v);
  }
}

template <int BLOCK> struct DecodeShared {
  unsigned tile_prefix; // code points of all earlier tiles
  unsigned warp_units[BLOCK / kWarpSize];
  unsigned warp_offset[BLOCK / kWarpSize];
};

// Staging index of unit i of a warp's step, from the warp's first word: one padding word after
// every 32 units, so that lanes writing 16 (or 8) units apart hit different banks and lanes
// reading 32 consecutive units from a multiple of 32 still do (one LEA.HI; the XOR swizzle used
// before took a shift and a logic operation on the ALU pipe, which bounds decode). Without it,
// decode of ASCII took 1.97x the time and mixed text 1.19x (single_pass.tuning.md, twenty-third
// session): lanes 16 units apart wrote 16 to a bank.
__device__ __forceinline__ int stage_slot(int i) {
  return i + (i >> 5);
}

// Warp 0, after the barrier that follows the warps' counts: the warps' offsets within the tile,
// the tile's offset by look-back (from the first window warp 0 loaded before that barrier), and
// (last tile) the total.
template <int BLOCK, int BACKOFF_NS = 0, typename Status>
__device__ __forceinline__ void
tile_offsets(DecodeShared<BLOCK>& shared, unsigned tile, unsigned tile_total, Status status,
             unsigned long long* count, typename Status::Window window) {
  constexpr int kWarps = BLOCK / kWarpSize;
  const int lane = lane_id();
  const unsigned own = lane < kWarps ? shared.warp_units[lane] : 0u;
  const unsigned inclusive = warp_inclusive_scan(own);
  const unsigned aggregate = __shfl_sync(kFullMask, inclusive, kWarpSize - 1);
  if (lane < kWarps)
    shared.warp_offset[lane] = inclusive - own;
  const unsigned prefix =
      status.template exclusive_prefix_from<BACKOFF_NS>(tile, aggregate, window); // look-back
  if (lane == 0) {
    shared.tile_prefix = prefix;
    if (tile == tile_total - 1) // the last tile: it holds the input's last element
      *count = static_cast<unsigned long long>(prefix) + aggregate;
  }
}

// decode's blocks an SM: 384 threads are built for 3 (56 registers: 36 warps an SM, 12.5% more
// than the 32 that 64 registers allow; single_pass.tuning.md's twelfth session has the runs); the
// other sizes as the compiler chooses (0: no minimum; 60-64 registers at 256..1024 threads)
template <int BLOCK> constexpr int kDecodeMinBlocks = BLOCK == 384 ? 3 : 0;

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK, kDecodeMinBlocks<BLOCK>)
    decode_kernel(ByteGrid grid, std::uint32_t* __restrict__ out,
                  unsigned long long* __restrict__ count, unsigned tile_total, DecodeStatus status,
                  unsigned ahead) {
  using Tile = ByteTile<BLOCK>;
  __shared__ DecodeShared<BLOCK> shared;
  __shared__ uint2 s_entry[256]; // chunk::decode_entry of every first byte
  __shared__ alignas(16) unsigned char s_pairs[chunk::kPairTableBytes]; // chunk.hpp's pair table
  extern __shared__ std::uint32_t s_stage[];                            // kStageWords per warp
  // the tile is the block's index (lookback.cuh's block_tile_index); the atomic counter
  // (next_tile_index) used before opened every tile with its round trip (sixth session: decode
  // of mixed text at 2^28 1.7% faster without it, at 2^24 9%)
  const unsigned tile = block_tile_index();
  const int lane = lane_id(), warp = warp_id();
  // the tile `ahead` tiles on, fetched into L2 for its block (bulk_copy.cuh's l2_ahead_tiles)
  if (threadIdx.x == 0 && ahead != 0 && tile + ahead < tile_total)
    grid.prefetch(static_cast<long long>(tile + ahead) * Tile::kTileBytes, Tile::kTileBytes);

  // the tile's loads are issued first, so that they are in flight while the tables are filled
  WarpChunks<BLOCK> chunks;
  chunks.load(grid, static_cast<long long>(tile) * Tile::kTileBytes +
                        static_cast<long long>(warp) * Tile::kWarpBytes);
  for (unsigned b = threadIdx.x; b < 256; b += BLOCK) {
    const chunk::DecodeEntry e = chunk::decode_entry(b);
    s_entry[b] = make_uint2(e.sel, e.mask);
  }
  fill_pair_table<BLOCK>(s_pairs);
  __syncthreads(); // both tables

  // classify; units per chunk; their ranks within each vector step of the warp
  chunks.classify(grid, s_pairs);
  unsigned rank[kVecs], run[kVecs], warp_units = 0;
#pragma unroll
  for (int j = 0; j < kVecs; ++j) {
    const unsigned units = __popc(chunk::unit_starts(chunks.info[j]));
    const unsigned inclusive = warp_inclusive_scan(units);
    rank[j] = inclusive - units;
    run[j] = __shfl_sync(kFullMask, inclusive, kWarpSize - 1);
    warp_units += run[j];
  }
  if (lane == 0)
    shared.warp_units[warp] = warp_units;
  // warp 0 issues its look-back's first window before the barrier, so that its L2 round trip
  // overlaps the wait for the other warps' counts
  typename DecodeStatus::Window window = 0;
  if (warp == 0) {
    wait_for_prerequisite_grid(); // the status words' clear (clear_tile_status_early)
    window = status.first_window(tile);
  }
  __syncthreads();

  // decode: each step's units staged in shared memory, then written as one contiguous run; the
  // first step is staged while warp 0 looks back (the tile's offset is needed only to store)
  std::uint32_t* const stage = s_stage + warp * Tile::kStageWords; // this warp's words
  const int scratch = Tile::kStageUnits + lane;
  std::uint32_t* const copy = stage + Tile::kChunkCopy + 5 * lane;
  const std::uint32_t stage_addr = shared_address(stage);
  const auto stage_step = [&](int j) {
    const uint4 v = chunks.v[j];
    const int first = static_cast<int>(rank[j]);
    const unsigned info = chunks.info[j];
    const auto put = [&](int i, std::uint32_t cp) { stage[stage_slot(first + i)] = cp; };
    // the unit at chunk position k: its 4 bytes by two loads and a funnel shift (picking the two
    // words from registers by k took about 12 selects; the funnel shift's wrap mode takes the
    // shift mod 32), then its first byte's entry and decode_with_entry
    const auto unit = [&](unsigned k, bool well_formed) {
      const std::uint32_t w = __funnelshift_r(copy[k >> 2], copy[(k >> 2) + 1], 8 * k);
      const uint2 e = s_entry[w & 0xFFu];
      return chunk::decode_with_entry(w, {e.x, e.y}, well_formed);
    };
    // Three modes, chosen per warp and step (a loop's trip count is the warp's most):
    // - no multi-byte unit in the warp: for_each_unit (16 fixed slots per ASCII chunk);
    // - warps inside the input where some lane holds kAccumulateUnits units or more: accumulate
    //   mode, one pass over the 16 positions, each adding its payload bits to its unit's code
    //   point and storing it into the unit's slot (no loop, no branch per unit); a warp at the
    //   input's start or end takes it too, in the EDGE build (tested per unit);
    // - otherwise the loop over all units.
    // Each comes in two builds: with a well-formedness test per unit, and (warps with no
    // ill-formed unit in this step, all of them in mixed text) without.
    const unsigned most_units = __reduce_max_sync(kFullMask, __popc(chunk::unit_starts(info)));
    const unsigned most_multi = __reduce_max_sync(kFullMask, __popc(info & 0xFFFFu));
    const bool clean = __all_sync(kFullMask, chunk::ill_formed_starts(info) == 0);
    if (most_multi == 0) {
      chunk::for_each_unit(v.x, v.y, v.z, v.w, chunks.next[j], info, put);
    } else {
      copy[0] = v.x; // read back by this lane only
      copy[1] = v.y;
      copy[2] = v.z;
      copy[3] = v.w;
      copy[4] = chunks.next[j];
      // accumulate mode's stores by their 32-bit shared address: slot n of the stage at
      // stage_addr + 4 * stage_slot(n), two operations (through the pointer, the warp's offset
      // stayed apart: three); positions before the lane's first unit into its scratch word
      const auto address = [&](int n, bool before_first) {
        return stage_addr + 4u * static_cast<unsigned>(before_first ? scratch : stage_slot(n));
      };
      const auto store = [](std::uint32_t a, std::uint32_t cp) { st_shared(a, cp); };
      if (chunks.inside && most_units >= kAccumulateUnits) {
        // inside the input only positions 0..2 may precede the lane's first unit
        const auto where = [&](int n, int k) { return address(n, k < 3 && n < first); };
        if (clean)
          chunk::for_each_position_accumulate<true>(v.x, v.y, v.z, v.w, info, first, where, store,
                                                    unit);
        else
          chunk::for_each_position_accumulate(v.x, v.y, v.z, v.w, info, first, where, store, unit);
      } else if (most_units >= kAccumulateUnits) {
        // a warp at the input's start or end (at most two a launch, one of them the last tile's,
        // whose time the kernel's end waits for: the loop mode cost it ~3 us): the EDGE build,
        // any position may precede the lane's first unit
        const auto where = [&](int n, int) { return address(n, n < first); };
        chunk::for_each_position_accumulate<false, true>(v.x, v.y, v.z, v.w, info, first, where,
                                                         store, unit);
      } else if (clean) {
        chunk::for_each_unit_in_order<true>(info, unit, put);
      } else {
        chunk::for_each_unit_in_order(info, unit, put);
      }
    }
  };
  // lane l stores units l, l + 32, ... of the step's run: unit l + 32m sits at stage_slot = l +
  // 33m, so both addresses step by constants from one pointer each (the loop over i it replaces
  // took about 10 operations a unit, 6 of them on the ALU pipe, for the index, the slot and the
  // 64-bit address); fully unrolled, each of the 16 rounds is a compare, a load and a store, and
  // every 4th round first tests whether the warp's run has ended
  const auto store_step = [&](int j, unsigned at) {
    std::uint32_t* dst = out + at + lane;
    // held in registers: the compiler rebuilt it (a constant load and two address operations)
    // under each round's predicate
    asm("" : "+l"(dst));
    const std::uint32_t* const src = stage + lane;
    const int left = static_cast<int>(run[j]) - lane;
#pragma unroll
    for (int m = 0; m < Tile::kStepBytes / kWarpSize; ++m) {
      if (m % 4 == 0 && kWarpSize * m >= static_cast<int>(run[j]))
        break; // the warp's run ends (a warp-uniform test every 4 rounds)
      if (kWarpSize * m < left)
        __stcs(dst + kWarpSize * m, src[(kWarpSize + 1) * m]); // evict-first: not re-read
    }
  };

  if (warp == 0) {
    tile_offsets<BLOCK>(shared, tile, tile_total, status, count, window);
  }
  const unsigned warp_offset =
      __reduce_add_sync(kFullMask, lane < warp ? shared.warp_units[lane] : 0u);
  stage_step(0);
  __syncthreads(); // the tile's offset and step 0's stage
  unsigned at = shared.tile_prefix + warp_offset;
  store_step(0, at);
#pragma unroll
  for (int j = 1; j < kVecs; ++j) {
    at += run[j - 1];
    __syncwarp(); // the stage is rewritten by this step
    stage_step(j);
    __syncwarp();
    store_step(j, at);
  }
}

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    validate_kernel(ByteGrid grid, unsigned* __restrict__ first_error) {
  using Tile = ByteTile<BLOCK>;
  __shared__ unsigned s_first; // the block's first error (byte offset), kNoError for none
  __shared__ int s_skip;
  __shared__ alignas(16) unsigned char s_pairs[chunk::kPairTableBytes]; // chunk.hpp's pair table
  const long long tile_base = static_cast<long long>(blockIdx.x) * Tile::kTileBytes;
  if (threadIdx.x == 0) {
    s_first = tiles::kNoError;
    // an error before this tile's first byte is already known: nothing here can be first (kNoError
    // is above every offset, so an unset word never skips)
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> known(*first_error);
    s_skip = known.load(cuda::memory_order_relaxed) <
             tiles::first_offset(static_cast<long long>(blockIdx.x), Tile::kTileBytes, grid.begin);
  }
  fill_pair_table<BLOCK>(s_pairs);
  __syncthreads(); // s_skip and the pair table
  if (s_skip)
    return; // the whole block: s_skip is shared

  WarpChunks<BLOCK> chunks;
  chunks.load_and_classify(grid, tile_base + static_cast<long long>(warp_id()) * Tile::kWarpBytes,
                           s_pairs);
  unsigned first = tiles::kNoError;
#pragma unroll
  for (int j = kVecs - 1; j >= 0; --j) {
    const unsigned ill_formed = chunk::ill_formed_starts(chunks.info[j]);
    if (ill_formed != 0)
      first =
          static_cast<unsigned>(chunks.chunk_at(j) - grid.begin) + chunk::lowest_bit(ill_formed);
  }
  first = warp_all_reduce(first, [](unsigned a, unsigned b) { return min(a, b); });
  if (lane_id() == 0 && first != tiles::kNoError)
    atomicMin(&s_first, first);
  __syncthreads();
  if (threadIdx.x == 0 && s_first != tiles::kNoError)
    atomicMin(first_error, s_first);
}

// The result, written unconditionally (-1 when no tile found an error).
__global__ void finish_validate(const unsigned* first_error, long long* result) {
  *result = *first_error == tiles::kNoError ? -1ll : static_cast<long long>(*first_error);
}
static_assert(kMaxGpuBytes - 2 < tiles::kNoError, "an offset would read as \"no error\"");

// ---- encode: tiles of code points ---------------------------------------------------------------

template <int BLOCK, int STEPS> struct CodePointTile { // STEPS: vectors of code points a thread
  static constexpr int kWarps = BLOCK / kWarpSize;
  static constexpr int kStepItems = kWarpSize * 4; // one vector step of a warp: 128
  static constexpr int kWarpItems = STEPS * kStepItems;
  static constexpr int kTile = BLOCK * STEPS * 4;
  // per warp: a step's bytes (at most 512) after up to 3 lead bytes (136 words), then each step's
  // ranks and packed lengths (STEPS x 32 words each), written by pass 1 for pass 2
  static constexpr int kRunWords = 136;
  static constexpr int kStageWords = kRunWords + 2 * STEPS * kWarpSize;
  static constexpr int kStageBytes = kWarps * kStageWords * 4;
};

// The code points on the 16-byte grid of their address, as ByteGrid (in elements).
struct CodePointGrid {
  std::uintptr_t base;
  long long begin;
  long long end;

  __device__ __forceinline__ bool in_range(long long q) const { return q >= begin && q < end; }
  __device__ __forceinline__ const std::uint32_t* at(long long q) const {
    return reinterpret_cast<const std::uint32_t*>(base + static_cast<std::uintptr_t>(q) * 4);
  }
  // LAST: the code points' last read (evict-first); otherwise they are read again (kept in L2)
  template <bool LAST = true>
  __device__ __forceinline__ uint4 vector(long long q, bool inside) const {
    if (inside || (q >= begin && q + 4 <= end))
      return LAST ? __ldcs(reinterpret_cast<const uint4*>(at(q)))
                  : __ldcg(reinterpret_cast<const uint4*>(at(q)));
    return make_uint4(in_range(q) ? *at(q) : 0u, in_range(q + 1) ? *at(q + 1) : 0u,
                      in_range(q + 2) ? *at(q + 2) : 0u, in_range(q + 3) ? *at(q + 3) : 0u);
  }
};

CodePointGrid code_point_grid(const std::uint32_t* in, std::size_t n) {
  const auto address = reinterpret_cast<std::uintptr_t>(in);
  const auto begin = static_cast<long long>(address % 16 / 4);
  return {address - static_cast<std::uintptr_t>(begin) * 4, begin,
          begin + static_cast<long long>(n)};
}

// A step's bytes, staged from byte `lead` on (the run's offset in its 32-bit word), stored as
// whole aligned words, with byte stores for the partial words at the two ends (those words are
// shared with the neighbouring runs). Clears the stage words it reads (the staging ORs into them).
__device__ __forceinline__ void store_byte_run(unsigned char* word_base, std::uint32_t* stage,
                                               unsigned lead, unsigned bytes) {
  const unsigned end = lead + bytes;
  const unsigned words = (end + 3) / 4;
  const auto* stage_bytes = reinterpret_cast<const unsigned char*>(stage);
  for (unsigned t = lane_id(); t < words; t += kWarpSize) {
    const unsigned lo = 4 * t, hi = 4 * t + 4;
    if (lo >= lead && hi <= end) {
      __stcs(reinterpret_cast<unsigned*>(word_base) + t, stage[t]);
    } else {
      for (unsigned b = lo; b < hi; ++b)
        if (b >= lead && b < end)
          word_base[b] = stage_bytes[b];
    }
    stage[t] = 0;
  }
}

// The sum of the four 8-bit lengths packed in a word (one multiply-add).
__device__ __forceinline__ unsigned packed_length_sum(unsigned packed) {
  return packed * 0x01010101u >> 24;
}

// `bytes` (the low `len` bytes of the word) ORed into the stage from byte p on: one or two words.
__device__ __forceinline__ void stage_bytes_at(std::uint32_t* stage, unsigned p,
                                               std::uint32_t bytes, unsigned len) {
  const unsigned shift = 8 * (p & 3u);
  atomicOr(&stage[p >> 2], bytes << shift);
  if (shift + 8 * len > 32)
    atomicOr(&stage[(p >> 2) + 1], bytes >> (32 - shift));
}

template <int BLOCK, int STEPS>
__global__ void __launch_bounds__(BLOCK)
    encode_kernel(CodePointGrid grid, unsigned char* __restrict__ out,
                  unsigned long long* __restrict__ count, unsigned tile_total,
                  EncodeStatus<STEPS> status) {
  using Tile = CodePointTile<BLOCK, STEPS>;
  __shared__ DecodeShared<BLOCK> shared; // same bookkeeping: here the units are bytes
  extern __shared__ std::uint32_t s_stage[];
  const unsigned tile = block_tile_index();
  const int lane = lane_id(), warp = warp_id();
  const long long base =
      static_cast<long long>(tile) * Tile::kTile + static_cast<long long>(warp) * Tile::kWarpItems;
  const bool inside = base >= grid.begin && base + Tile::kWarpItems <= grid.end;

  std::uint32_t* const stage = s_stage + warp * Tile::kStageWords;
  std::uint32_t* const ranks = stage + Tile::kRunWords + lane; // step j at 32 j
  std::uint32_t* const lengths = ranks + STEPS * kWarpSize;    // step j at 32 j
  // the warp's stage starts cleared (the staging ORs into it; store_byte_run clears it again)
  for (int i = lane; i < Tile::kRunWords; i += kWarpSize)
    stage[i] = 0;
  // pass 1: load; byte lengths (0 outside the input, 8 bits each); ranks within each vector step
  // of the warp. Tiles of up to 4 steps hold their code points in registers (fully unrolled);
  // larger ones read them again in pass 2 (an L2 hit: the first read keeps them in L2, the second
  // evicts them first)
  constexpr bool kReload = STEPS > 4;
  uint4 held[kReload ? 1 : STEPS];
  unsigned warp_bytes = 0;
#pragma unroll 4
  for (int j = 0; j < STEPS; ++j) {
    const long long q = base + j * Tile::kStepItems + lane * 4;
    const uint4 v = grid.vector<!kReload>(q, inside);
    if constexpr (!kReload)
      held[j] = v;
    const std::uint32_t cp[4] = {v.x, v.y, v.z, v.w};
    unsigned packed = 0;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const unsigned len = inside || grid.in_range(q + k) ? encoded_length(cp[k]) : 0u;
      packed |= len << (8 * k);
    }
    lengths[kWarpSize * j] = packed;
    const unsigned total = packed_length_sum(packed);
    const unsigned inclusive = warp_inclusive_scan(total);
    ranks[kWarpSize * j] = inclusive - total;
    warp_bytes += __shfl_sync(kFullMask, inclusive, kWarpSize - 1);
  }
  if (lane == 0)
    shared.warp_units[warp] = warp_bytes;
  // warp 0's first look-back window, loaded before the barrier (as decode's)
  typename EncodeStatus<STEPS>::Window window = 0;
  if (warp == 0)
    window = status.first_window(tile);
  __syncthreads();
  if (warp == 0)
    tile_offsets<BLOCK, kEncodeBackoffNs>(shared, tile, tile_total, status, count, window);
  __syncthreads();

  // encode: each step's bytes ORed into the (cleared) stage from the run's offset in its word,
  // stored as aligned words
  unsigned at = shared.tile_prefix + shared.warp_offset[warp];
  // step j's code points: held since pass 1, or read again (loaded during step j - 1)
  uint4 v;
  if constexpr (kReload)
    v = grid.vector(base + lane * 4, inside);
  else
    v = held[0];
#pragma unroll(STEPS <= 4 ? STEPS : 1) // 8 unrolled steps missed the instruction cache
                                       // (single_pass.tuning.md)
  for (int j = 0; j < STEPS; ++j) {
    const auto dst = reinterpret_cast<std::uintptr_t>(out) + at;
    const unsigned lead = static_cast<unsigned>(dst % 4);
    const std::uint32_t cp[4] = {v.x, v.y, v.z, v.w};
    if (j + 1 < STEPS) {
      if constexpr (kReload)
        v = grid.vector(base + (j + 1) * Tile::kStepItems + lane * 4, inside);
      else
        v = held[j + 1 < STEPS ? j + 1 : 0];
    }
    const unsigned rank = ranks[kWarpSize * j], packed = lengths[kWarpSize * j];
    const unsigned run = __shfl_sync(kFullMask, rank + packed_length_sum(packed), kWarpSize - 1);
    unsigned p = lead + rank;
    if (packed == 0x01010101u) { // four ASCII code points: one word of bytes
      stage_bytes_at(stage, p, cp[0] | cp[1] << 8 | cp[2] << 16 | cp[3] << 24, 4);
    } else {
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const unsigned len = packed >> (8 * k) & 0xFFu;
        if (len != 0) // 0: outside the input
          stage_bytes_at(stage, p, encoded_word(cp[k], len), len);
        p += len;
      }
    }
    __syncwarp();
    store_byte_run(reinterpret_cast<unsigned char*>(dst - lead), stage, lead, run);
    at += run;
    __syncwarp();
  }
}

// ---- host side ----------------------------------------------------------------------------------

} // namespace

// the single-pass kernels take dispatch_block_size's sizes and 384 (single_pass_blocks)
template <typename F> void dispatch_single_pass_block(int block, F&& f) {
  if (block == 384)
    f(std::integral_constant<int, 384>{});
  else
    dispatch_block_size(block, std::forward<F>(f));
}

std::size_t single_pass_decode_tile(int block) {
  std::size_t tile = 0;
  dispatch_single_pass_block(block,
                             [&](auto b) { tile = ByteTile<decltype(b)::value>::kTileBytes; });
  return tile;
}

std::size_t single_pass_encode_tile(int block) {
  std::size_t tile = 0;
  dispatch_single_pass_block(
      block, [&](auto b) { tile = CodePointTile<decltype(b)::value, kEncodeStepsSmall>::kTile; });
  return tile;
}

std::size_t single_pass_encode_large_tile(int block) {
  std::size_t tile = 0;
  dispatch_single_pass_block(
      block, [&](auto b) { tile = CodePointTile<decltype(b)::value, kEncodeStepsLarge>::kTile; });
  return tile;
}

// Temporary storage: one status word per tile (32 bytes each: one a sector) and one more
// (lookback.cuh's tile counter, unused here: the tiles follow the blocks' indices).
void decode_single_pass(void* temp, std::size_t& temp_bytes, const unsigned char* in, std::size_t n,
                        std::uint32_t* out, unsigned long long* count, int block,
                        cudaStream_t stream) {
  constexpr const char* kWho = "utf8/decode/single_pass";
  checks::gpu_bytes(n, kWho);
  dispatch_single_pass_block(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    using Tile = ByteTile<BLOCK>;
    TempLayout layout(temp);
    const TileStatusStorage storage =
        take_tile_status(layout, tiles::max_tile_count(tiles::kMaxByteSkew, n, Tile::kTileBytes));
    if (layout.sized(temp_bytes))
      return;
    checks::gpu_decode_args(kWho, in, n, out, count);
    if (zero_count_if_empty(n, count, stream))
      return;
    const ByteGrid grid = byte_grid(in, n);
    const std::size_t launched = byte_tiles(grid, Tile::kTileBytes);
    // set whatever the size (occupancy.hpp): decode at 512 threads (47 KiB dynamic, 2 KiB static)
    // needs it although its dynamic part is under 48 KiB
    opt_in_shared<decode_kernel<BLOCK>>(Tile::kStageBytes);
    const unsigned ahead = l2_ahead_tiles_of<decode_kernel<BLOCK>>(BLOCK, Tile::kStageBytes, kWho);
    // the words cleared by a kernel that lets decode start at once: decode's blocks load and
    // classify their tiles while it runs, and wait for it only to look back
    const DecodeStatus status = clear_tile_status_early({storage.words, launched}, stream);
    launch_dependent(decode_kernel<BLOCK>, static_cast<unsigned>(launched), BLOCK,
                     Tile::kStageBytes, stream, grid, out, count, static_cast<unsigned>(launched),
                     status, ahead);
  });
}

// Temporary storage: one 32-bit word (the first error so far).
void validate_single_pass(void* temp, std::size_t& temp_bytes, const unsigned char* in,
                          std::size_t n, long long* first_error, int block, cudaStream_t stream) {
  constexpr const char* kWho = "utf8/validate/single_pass";
  checks::gpu_bytes(n, kWho);
  dispatch_single_pass_block(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    using Tile = ByteTile<BLOCK>;
    TempLayout layout(temp);
    unsigned* first = layout.take<unsigned>(1);
    if (layout.sized(temp_bytes))
      return;
    checks::validate_args(kWho, in, n, first_error);
    if (n == 0) {
      CUDA_CHECK(cudaMemsetAsync(first_error, 0xFF, sizeof *first_error, stream)); // -1
      return;
    }
    const ByteGrid grid = byte_grid(in, n);
    const std::size_t launched = byte_tiles(grid, Tile::kTileBytes);
    CUDA_CHECK(cudaMemsetAsync(first, 0xFF, sizeof *first, stream)); // kNoError
    validate_kernel<BLOCK><<<static_cast<unsigned>(launched), BLOCK, 0, stream>>>(grid, first);
    CUDA_CHECK_LAUNCH();
    finish_validate<<<1, 1, 0, stream>>>(first, first_error);
    CUDA_CHECK_LAUNCH();
  });
}

// Temporary storage: one status word per tile (32 bytes each, one a sector, from kEncodeLargeN code
// points on; 8 below) and one more (lookback.cuh's tile counter, unused here: the tiles follow the
// blocks' indices).
void encode_single_pass(void* temp, std::size_t& temp_bytes, const std::uint32_t* in, std::size_t n,
                        unsigned char* out, unsigned long long* count, int block,
                        cudaStream_t stream) {
  constexpr const char* kWho = "utf8/encode/single_pass";
  checks::gpu_code_points(n, kWho);
  // a large input takes the tiles of 8 vectors a thread (a look-back per 8192 code points at
  // 256 threads), a small one the tiles of 4 (more tiles to spread over the SMs)
  const bool large = n + 1 > kEncodeLargeN; // (n >= kEncodeLargeN, also when that is 0)
  dispatch_single_pass_block(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    const auto run = [&](auto steps) {
      constexpr int STEPS = decltype(steps)::value;
      using Tile = CodePointTile<BLOCK, STEPS>;
      constexpr int kStride = kEncodeStatusStride<STEPS>;
      TempLayout layout(temp);
      const TileStatusStorage storage = take_tile_status(
          layout, tiles::max_tile_count(tiles::kMaxCodePointSkew, n, Tile::kTile), kStride);
      if (layout.sized(temp_bytes))
        return;
      checks::gpu_encode_args(kWho, in, n, out, count);
      if (zero_count_if_empty(n, count, stream))
        return;
      const CodePointGrid grid = code_point_grid(in, n);
      const std::size_t launched =
          tiles::tile_count(static_cast<std::size_t>(grid.begin), n, Tile::kTile);
      const EncodeStatus<STEPS> status =
          clear_tile_status<kStride>({storage.words, launched, kStride}, stream);
      opt_in_shared<encode_kernel<BLOCK, STEPS>>(Tile::kStageBytes);
      encode_kernel<BLOCK, STEPS>
          <<<static_cast<unsigned>(launched), BLOCK, Tile::kStageBytes, stream>>>(
              grid, out, count, static_cast<unsigned>(launched), status);
      CUDA_CHECK_LAUNCH();
    };
    if (large)
      run(std::integral_constant<int, kEncodeStepsLarge>{});
    else
      run(std::integral_constant<int, kEncodeStepsSmall>{});
  });
}

} // namespace gps::utf8
