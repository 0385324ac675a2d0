// The steps of one compaction tile in the warp-striped layout (common/tile_io.cuh), shared by the
// single-pass kernels of kernels/compact/ (single_pass, prefetch_lookback): warp-local ranks from
// packed warp scans, the tile's kept elements staged contiguously in shared memory, the look-back
// for the kept elements of all earlier tiles, and the staged run written as 16-byte vectors.
#pragma once

#include "common/block.cuh"
#include "common/cuda_check.hpp"
#include "common/lookback.cuh"
#include "common/temp_storage.hpp"
#include "common/tile_io.cuh"
#include "common/warp.cuh"

#include <cstddef>
#include <cstdint>

namespace gps::compact {

// One count per warp of the block, in shared memory.
template <int BLOCK> using WarpCounts = unsigned[BLOCK / kWarpSize];

// Shared memory of one block besides the staging buffer.
template <int BLOCK> struct CompactShared {
  WarpCounts<BLOCK> warp_count;
  unsigned tile;        // the tile index handed out by the counter
  unsigned tile_prefix; // kept elements of all earlier tiles
};

// Kept (nonzero) elements of one vector.
struct CountOfVector {
  __device__ __forceinline__ int operator()(int4 v) const {
    return (v.x != 0) + (v.y != 0) + (v.z != 0) + (v.w != 0);
  }
};

// Warp-local ranks: a lane's first kept element of vector j goes after every kept element of the
// warp's earlier vectors and of the lower lanes of vector j. Each lane's kept count per vector
// (0..4) is packed four vectors to a word, a byte each, and one warp scan per word gives the lower
// lanes' counts for all four at once (a byte sums at most 4 x 32 = 128, so no byte carries into
// the next). Writes the warp's count to `warp_counts`. (Ballots and population counts, 32 of each
// per thread at four vectors, measured 5% slower in whole compactions: prefetch_lookback's header.)
template <int BLOCK, int VECS>
__device__ __forceinline__ void rank_tile(const int4 (&v)[VECS], unsigned (&rank)[VECS],
                                          WarpCounts<BLOCK>& warp_counts) {
  unsigned warp_count = 0;
#pragma unroll
  for (int g = 0; g < VECS; g += 4) {
    unsigned packed = 0;
#pragma unroll
    for (int j = g; j < g + 4 && j < VECS; ++j)
      packed |= static_cast<unsigned>(CountOfVector{}(v[j])) << (8 * (j - g));
    const unsigned inclusive = warp_inclusive_scan(packed);
    const unsigned exclusive = inclusive - packed;
    const unsigned total = __shfl_sync(kFullMask, inclusive, kWarpSize - 1);
#pragma unroll
    for (int j = g; j < g + 4 && j < VECS; ++j) {
      rank[j] = warp_count + ((exclusive >> (8 * (j - g))) & 0xFFu);
      warp_count += (total >> (8 * (j - g))) & 0xFFu;
    }
  }
  if (lane_id() == 0)
    warp_counts[warp_id()] = warp_count;
}

// After a barrier that follows rank_tile: every warp scans the warp counts itself (no second
// barrier), learns its offset within the tile, and writes its kept elements to their tile-local
// positions in `stage`. Returns the tile's count in every thread.
template <int BLOCK, int VECS>
__device__ __forceinline__ unsigned stage_tile(const int4 (&v)[VECS], const unsigned (&rank)[VECS],
                                               const WarpCounts<BLOCK>& warp_counts, int* stage) {
  const WarpTotals<unsigned> counts = scan_warp_totals<BLOCK / kWarpSize>(warp_counts);
  const unsigned tile_count = counts.aggregate();
  const unsigned warp_offset = __shfl_sync(kFullMask, counts.exclusive(), warp_id());
#pragma unroll
  for (int j = 0; j < VECS; ++j) {
    unsigned p = warp_offset + rank[j];
    if (v[j].x != 0)
      stage[p++] = v[j].x;
    if (v[j].y != 0)
      stage[p++] = v[j].y;
    if (v[j].z != 0)
      stage[p++] = v[j].z;
    if (v[j].w != 0)
      stage[p] = v[j].w;
  }
  return tile_count;
}

// The look-back, by one whole warp, through `prefix_op` (common/lookback.cuh: LookbackPrefix
// publishes the tile's count first, PublishedAggregatePrefix when it was published earlier): sums
// the counts of the earlier tiles into `tile_prefix` (shared memory), and (last tile) writes the
// kept count.
template <typename PrefixOp>
__device__ __forceinline__ void lookback_tile(PrefixOp prefix_op, long long tile,
                                              unsigned tile_count, unsigned tiles, unsigned* count,
                                              unsigned& tile_prefix) {
  const unsigned prefix = prefix_op(tile_count);
  if (lane_id() == 0) {
    tile_prefix = prefix;
    if (tile == static_cast<long long>(tiles) - 1)
      *count = prefix + tile_count;
  }
}

// The tile's kept elements, staged in shared memory, as one contiguous run at `dst`, written as
// 16-byte vectors by the block's BLOCK threads: vector i of the
// 16-byte-aligned view of `dst` takes the staged elements 4i - mis .. 4i - mis + 3 (mis: dst's
// misalignment in elements, the same in every thread), picked from the staged vectors i - 1 and
// i (two conflict-free 16-byte loads); each warp store covers four whole 128-byte lines. The first
// and last vectors are written element by element where they are partial. Reads up to kStagePad
// elements past the run: the staging buffer must have them. (One 4-byte store per element
// measured 3-9% slower: prefetch_lookback's header.)
inline constexpr int kStagePad = 8;
template <int BLOCK>
__device__ __forceinline__ void store_run(int* dst, const int* stage, unsigned tile_count) {
  const unsigned mis =
      static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(dst) / sizeof(int)) % 4;
  int4* const base = reinterpret_cast<int4*>(dst - mis);
  const int4* const staged = reinterpret_cast<const int4*>(stage);
  const unsigned vectors = (mis + tile_count + 3) / 4;
  for (unsigned i = threadIdx.x; i < vectors; i += BLOCK) {
    const int4 hi = staged[i];
    const int4 lo = i > 0 ? staged[i - 1] : hi;
    int4 w;
    switch (mis) {
    case 0:
      w = hi;
      break;
    case 1:
      w = make_int4(lo.w, hi.x, hi.y, hi.z);
      break;
    case 2:
      w = make_int4(lo.z, lo.w, hi.x, hi.y);
      break;
    default:
      w = make_int4(lo.y, lo.z, lo.w, hi.x);
      break;
    }
    const int first = static_cast<int>(4 * i) - static_cast<int>(mis); // run index of w.x
    if (first >= 0 && first + 4 <= static_cast<int>(tile_count)) {
      __stcs(base + i, w); // evict-first: not re-read
    } else {
      int* const out = reinterpret_cast<int*>(base + i);
      const int c[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
      for (int j = 0; j < 4; ++j)
        if (first + j >= 0 && first + j < static_cast<int>(tile_count))
          __stcs(out + j, c[j]);
    }
  }
}

// ---- host side

// The first steps of a single-pass compaction's host function, in the temp-storage contract
// (common/temp_storage.hpp): carves the tile counter and one status word per tile of `tile_elems`
// elements out of `temp` into `status_words`. Returns true when the call is done: the size query,
// or n == 0 (the kept count set to 0 on `stream`).
inline bool single_pass_compact_begin(void* temp, std::size_t& temp_bytes, std::size_t n,
                                      std::size_t tile_elems, unsigned* count, cudaStream_t stream,
                                      TileStatusStorage& status_words) {
  TempLayout layout(temp);
  const std::size_t tiles = (n + tile_elems - 1) / tile_elems;
  status_words = take_tile_status_by_count(layout, tiles);
  if (layout.sized(temp_bytes))
    return true;
  if (n == 0) {
    CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(unsigned), stream));
    return true;
  }
  return false;
}

} // namespace gps::compact
