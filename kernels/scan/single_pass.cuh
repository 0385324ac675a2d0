// The single-pass scan machinery behind `chained` and `decoupled_lookback`. Each tile is reduced, learns the sum of all earlier tiles through
// the tile status array (common/lookback.cuh), and is written scanned: 2n global traffic in one
// launch (plus a memset of the status words).
//
// Tile layout: warp w of the block owns kWarpItems contiguous elements; its VECS int4 vectors each
// cover 128 contiguous elements (lane l takes elements 4l..4l+3), so every load and store
// instruction is fully coalesced and no shared-memory transpose is needed.
#pragma once

#include "common/block.cuh"
#include "common/cuda_check.hpp"
#include "common/lookback.cuh"
#include "common/workspace.hpp"

#include <cstdint>
#include <stdexcept>

namespace gps::scan {

enum class PrefixStrategy { Chained, DecoupledLookback };

// int4 vectors per thread: 16 (64 items) up to 512 threads, 8 for 1024-thread blocks (whose 64
// registers per thread cannot hold 64 items). Large tiles mean few tiles, and so few look-backs:
// on an H200 at 2^28, 16 items per thread reached 0.55x of copy bandwidth, 32 items 0.69x and 64
// items with evict-first loads and stores 0.77x (docs in README.md, "The scan study").
constexpr int single_pass_vecs(int block) { return block >= 1024 ? 8 : 16; }

template <int BLOCK, int VECS> struct SinglePassPolicy {
  static constexpr int kWarps = BLOCK / kWarpSize;
  static constexpr int kWarpItems = kWarpSize * 4 * VECS;
  static constexpr int kTile = BLOCK * 4 * VECS;
};

// Shared memory the tile-level steps need between barriers.
template <int BLOCK> struct TileShared {
  int warp_prefix[BLOCK / kWarpSize];
  int tile_prefix;
};

// ---- pieces shared by the kernels ----------------------------------------------------------------

// Index of this thread's j-th int4 within the tile, in int4 units.
template <int BLOCK, int VECS> __device__ __forceinline__ int vector_slot(int j) {
  return (warp_id() * VECS + j) * kWarpSize + lane_id();
}

// Bounds-checked scalar load of a partial tile's vectors (zeros past n).
template <int BLOCK, int VECS>
__device__ __forceinline__ void load_partial(const int* in, std::size_t tile_base, std::size_t n,
                                             int4 (&v)[VECS]) {
#pragma unroll
  for (int j = 0; j < VECS; ++j) {
    const std::size_t i = tile_base + 4 * static_cast<std::size_t>(vector_slot<BLOCK, VECS>(j));
    v[j].x = i + 0 < n ? in[i + 0] : 0;
    v[j].y = i + 1 < n ? in[i + 1] : 0;
    v[j].z = i + 2 < n ? in[i + 2] : 0;
    v[j].w = i + 3 < n ? in[i + 3] : 0;
  }
}

// Loads this thread's VECS vectors of the tile at tile_base: evict-first 16-byte loads for a full
// tile (the data streams through once; L2 is left to the tile status words the look-back polls),
// bounds-checked scalar loads with zeros past n otherwise. All loads are issued before any is used.
template <int BLOCK, int VECS>
__device__ __forceinline__ void load_tile(const int* in, std::size_t tile_base, std::size_t n,
                                          bool full_tile, int4 (&v)[VECS]) {
  if (full_tile) {
#pragma unroll
    for (int j = 0; j < VECS; ++j)
      v[j] = __ldcs(reinterpret_cast<const int4*>(in + tile_base) + vector_slot<BLOCK, VECS>(j));
  } else {
    load_partial<BLOCK, VECS>(in, tile_base, n, v);
  }
}

// Turns the warp's VECS vectors into their exclusive scan within the warp (a thread scan of 4 plus
// a warp scan per 128-element chunk, chained in order). Returns the warp's total in every lane.
template <int VECS> __device__ __forceinline__ int warp_scan_vectors(int4 (&v)[VECS]) {
  int warp_running = 0;
#pragma unroll
  for (int j = 0; j < VECS; ++j) {
    const int thread_sum = v[j].x + v[j].y + v[j].z + v[j].w;
    const int inclusive = warp_inclusive_scan(thread_sum);
    const int x0 = warp_running + inclusive - thread_sum;
    const int x1 = x0 + v[j].x, x2 = x1 + v[j].y, x3 = x2 + v[j].z;
    v[j] = make_int4(x0, x1, x2, x3);
    warp_running += __shfl_sync(kFullMask, inclusive, kWarpSize - 1);
  }
  return warp_running;
}

// Block level and tile prefix. Call with every thread after warp_scan_vectors; on return
// (after a barrier) the exclusive offset of this thread's warp within the whole array is
// shared.tile_prefix + shared.warp_prefix[warp].
template <int BLOCK, PrefixStrategy STRATEGY, int DEPTH>
__device__ __forceinline__ void tile_prefix(int warp_total, long long tile, TileStatus status,
                                            TileShared<BLOCK>& shared) {
  constexpr int kWarps = BLOCK / kWarpSize;
  const int lane = lane_id();
  if (lane == 0) shared.warp_prefix[warp_id()] = warp_total;
  __syncthreads();
  if (warp_id() == 0) {
    const int total = lane < kWarps ? shared.warp_prefix[lane] : 0;
    const int inclusive = warp_inclusive_scan(total);
    const unsigned aggregate = __shfl_sync(kFullMask, inclusive, kWarpSize - 1);
    if (lane < kWarps) shared.warp_prefix[lane] = inclusive - total;
    unsigned prefix = 0;
    if (tile == 0) {
      if (lane == 0) status.publish(0, kTilePrefix, aggregate);
    } else if constexpr (STRATEGY == PrefixStrategy::DecoupledLookback) {
      // look-back: publish the aggregate at once so successors need not wait for our prefix
      if (lane == 0) status.publish(tile, kTileAggregate, aggregate);
      prefix = status.template warp_lookback<DEPTH>(tile);
      if (lane == 0) status.publish(tile, kTilePrefix, prefix + aggregate);
    } else {
      // chained: wait for the predecessor's inclusive prefix
      if (lane == 0) {
        prefix = status.wait_for_prefix(tile - 1);
        status.publish(tile, kTilePrefix, prefix + aggregate);
      }
    }
    if (lane == 0) shared.tile_prefix = static_cast<int>(prefix);
  }
  __syncthreads();
}

template <int BLOCK, int VECS, bool STREAMING>
__device__ __forceinline__ void store_tile(int* out, std::size_t tile_base, std::size_t n,
                                           bool full_tile, const int4 (&v)[VECS], int offset) {
#pragma unroll
  for (int j = 0; j < VECS; ++j) {
    const std::size_t i = tile_base + 4 * static_cast<std::size_t>(vector_slot<BLOCK, VECS>(j));
    const int4 r = make_int4(v[j].x + offset, v[j].y + offset, v[j].z + offset, v[j].w + offset);
    if (full_tile) {
      if constexpr (STREAMING)
        __stcs(reinterpret_cast<int4*>(out + i), r); // evict-first: the output is not re-read
      else
        *reinterpret_cast<int4*>(out + i) = r;
    } else {
      if (i + 0 < n) out[i + 0] = r.x;
      if (i + 1 < n) out[i + 1] = r.y;
      if (i + 2 < n) out[i + 2] = r.z;
      if (i + 3 < n) out[i + 3] = r.w;
    }
  }
}

// ---- one tile per block (chained, decoupled_lookback) ---------------------------------------------

// Each block takes the next tile index from an atomic counter (so tiles start in order and a
// waited-on tile is always already running), loads its tile into registers, and runs the steps.
// Loads and stores are evict-first (__ldcs/__stcs): the data streams through once, and keeping it
// out of the way leaves L2 to the tile status words that the look-back polls.
template <int BLOCK, int VECS, PrefixStrategy STRATEGY>
__global__ void __launch_bounds__(BLOCK)
    single_pass_scan(const int* __restrict__ in, int* __restrict__ out, std::size_t n,
                     TileStatus status, unsigned* tile_counter) {
  using Policy = SinglePassPolicy<BLOCK, VECS>;
  __shared__ TileShared<BLOCK> shared;
  __shared__ unsigned s_tile;
  if (threadIdx.x == 0) s_tile = atomicAdd(tile_counter, 1u);
  __syncthreads();
  const long long tile = s_tile;
  const std::size_t tile_base = static_cast<std::size_t>(tile) * Policy::kTile;
  const bool full_tile = tile_base + Policy::kTile <= n;

  int4 v[VECS];
  load_tile<BLOCK, VECS>(in, tile_base, n, full_tile, v);
  const int warp_total = warp_scan_vectors(v);
  tile_prefix<BLOCK, STRATEGY, 1>(warp_total, tile, status, shared);
  store_tile<BLOCK, VECS, true>(out, tile_base, n, full_tile, v,
                                 shared.tile_prefix + shared.warp_prefix[warp_id()]);
}

// ---- host side ---------------------------------------------------------------------------------------

inline void check_vector_alignment(const void* in, const void* out) {
  if (reinterpret_cast<std::uintptr_t>(in) % 16 || reinterpret_cast<std::uintptr_t>(out) % 16)
    throw std::invalid_argument("single-pass scan needs 16-byte aligned input and output");
}

template <int BLOCK, PrefixStrategy STRATEGY>
void single_pass_scan_launch(const int* in, int* out, std::size_t n, Workspace& ws,
                             cudaStream_t stream) {
  constexpr int VECS = single_pass_vecs(BLOCK);
  if (n == 0) return;
  check_vector_alignment(in, out);
  const std::size_t tiles = (n + SinglePassPolicy<BLOCK, VECS>::kTile - 1) /
                            SinglePassPolicy<BLOCK, VECS>::kTile;
  unsigned* counter = nullptr;
  const TileStatus status = clear_tile_status(tiles, ws, stream, &counter);
  single_pass_scan<BLOCK, VECS, STRATEGY>
      <<<static_cast<unsigned>(tiles), BLOCK, 0, stream>>>(in, out, n, status, counter);
  CUDA_CHECK_LAUNCH();
}

inline std::size_t single_pass_tile_elems(int block) {
  return static_cast<std::size_t>(block) * 4 * single_pass_vecs(block);
}

} // namespace gps::scan
