// The single-pass scan machinery behind `chained`, `decoupled_lookback` and
// `decoupled_lookback_pipelined`. Each tile is reduced, learns the sum of all earlier tiles through
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

#include <cuda_pipeline.h>

#include <cstdint>
#include <stdexcept>

namespace gps::scan {

enum class PrefixStrategy { Chained, DecoupledLookback };

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
  if (full_tile) {
#pragma unroll
    for (int j = 0; j < VECS; ++j)
      v[j] = __ldg(reinterpret_cast<const int4*>(in + tile_base) + vector_slot<BLOCK, VECS>(j));
  } else {
    load_partial<BLOCK, VECS>(in, tile_base, n, v);
  }
  const int warp_total = warp_scan_vectors(v);
  tile_prefix<BLOCK, STRATEGY, 1>(warp_total, tile, status, shared);
  store_tile<BLOCK, VECS, false>(out, tile_base, n, full_tile, v,
                                 shared.tile_prefix + shared.warp_prefix[warp_id()]);
}

// ---- persistent, prefetching (decoupled_lookback_pipelined) ---------------------------------------

// A grid sized to fill the GPU; each block loops over tiles from the atomic counter. While it
// reduces, looks back and stores tile t, the loads of its next tile are already in flight as
// asynchronous copies (cp.async) into a second shared-memory buffer, so the look-back latency no
// longer leaves the memory system idle. Each thread copies exactly the 16-byte slots it will read
// itself, so no barrier is needed between a copy and its use, only cp.async's own wait.
// Forward progress: a prefetched tile is always later than its block's current tile, so the
// earliest unfinished tile is always some block's current tile, whose predecessors are done.
template <int BLOCK, int VECS, int DEPTH>
__global__ void __launch_bounds__(BLOCK)
    pipelined_scan(const int* __restrict__ in, int* __restrict__ out, std::size_t n,
                   std::size_t num_tiles, TileStatus status, unsigned* tile_counter) {
  using Policy = SinglePassPolicy<BLOCK, VECS>;
  extern __shared__ int4 buffers[]; // [2][BLOCK * VECS]
  __shared__ TileShared<BLOCK> shared;
  __shared__ unsigned s_tile[2];

  auto issue_copies = [&](unsigned tile, int buffer) {
    const std::size_t tile_base = static_cast<std::size_t>(tile) * Policy::kTile;
    int4* dst = buffers + buffer * (BLOCK * VECS);
#pragma unroll
    for (int j = 0; j < VECS; ++j) {
      const int slot = vector_slot<BLOCK, VECS>(j);
      const std::size_t i = tile_base + 4 * static_cast<std::size_t>(slot);
      // a partial last vector is zero-filled; one wholly past n copies nothing from `in`
      const std::size_t valid = i >= n ? 0 : (n - i >= 4 ? 4 : n - i);
      __pipeline_memcpy_async(dst + slot, valid ? in + i : in, 16, 16 - 4 * valid);
    }
  };

  if (threadIdx.x == 0) s_tile[0] = atomicAdd(tile_counter, 1u);
  __syncthreads();
  unsigned tile = s_tile[0];
  if (tile < num_tiles) issue_copies(tile, 0);
  __pipeline_commit();
  int buffer = 0;
  while (tile < num_tiles) {
    // prefetch: claim the next tile and start its copies before working on this one
    if (threadIdx.x == 0) s_tile[buffer ^ 1] = atomicAdd(tile_counter, 1u);
    __syncthreads();
    const unsigned next = s_tile[buffer ^ 1];
    if (next < num_tiles) issue_copies(next, buffer ^ 1);
    __pipeline_commit();
    __pipeline_wait_prior(1); // this thread's copies of the current tile have landed

    const int4* src = buffers + buffer * (BLOCK * VECS);
    int4 v[VECS];
#pragma unroll
    for (int j = 0; j < VECS; ++j) v[j] = src[vector_slot<BLOCK, VECS>(j)];
    const std::size_t tile_base = static_cast<std::size_t>(tile) * Policy::kTile;
    const int warp_total = warp_scan_vectors(v);
    tile_prefix<BLOCK, PrefixStrategy::DecoupledLookback, DEPTH>(warp_total, tile, status, shared);
    store_tile<BLOCK, VECS, true>(out, tile_base, n, tile_base + Policy::kTile <= n, v,
                                  shared.tile_prefix + shared.warp_prefix[warp_id()]);
    tile = next;
    buffer ^= 1;
  }
  __pipeline_wait_prior(0);
}

// ---- host side ---------------------------------------------------------------------------------------

// Temp storage: the tile counter and one status word per tile, cleared by a single memset.
inline TileStatus clear_tile_status(std::size_t tiles, Workspace& ws, cudaStream_t stream,
                                    unsigned** counter) {
  if (tiles > 0xffffffffu) throw std::invalid_argument("single-pass scan: too many tiles");
  const std::size_t bytes = sizeof(unsigned long long) * (tiles + 1);
  auto* words = static_cast<unsigned long long*>(ws.reserve(bytes));
  CUDA_CHECK(cudaMemsetAsync(words, 0, bytes, stream));
  *counter = reinterpret_cast<unsigned*>(words); // word 0 holds the tile counter
  return TileStatus{words + 1};
}

inline void check_vector_alignment(const void* in, const void* out) {
  if (reinterpret_cast<std::uintptr_t>(in) % 16 || reinterpret_cast<std::uintptr_t>(out) % 16)
    throw std::invalid_argument("single-pass scan needs 16-byte aligned input and output");
}

template <int BLOCK, int VECS, PrefixStrategy STRATEGY>
void single_pass_scan_launch(const int* in, int* out, std::size_t n, Workspace& ws,
                             cudaStream_t stream) {
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

template <int BLOCK, int VECS, int DEPTH>
void pipelined_scan_launch(const int* in, int* out, std::size_t n, Workspace& ws,
                           cudaStream_t stream) {
  if (n == 0) return;
  check_vector_alignment(in, out);
  constexpr int kSmem = 2 * BLOCK * VECS * static_cast<int>(sizeof(int4));
  // once per instantiation: allow the dynamic shared memory, size the persistent grid
  static const unsigned resident_blocks = [] {
    auto kernel = pipelined_scan<BLOCK, VECS, DEPTH>;
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
    int device = 0, sms = 0, per_sm = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, BLOCK, kSmem));
    return static_cast<unsigned>(sms * (per_sm > 0 ? per_sm : 1));
  }();
  const std::size_t tiles = (n + SinglePassPolicy<BLOCK, VECS>::kTile - 1) /
                            SinglePassPolicy<BLOCK, VECS>::kTile;
  unsigned* counter = nullptr;
  const TileStatus status = clear_tile_status(tiles, ws, stream, &counter);
  const unsigned grid = static_cast<unsigned>(tiles < resident_blocks ? tiles : resident_blocks);
  pipelined_scan<BLOCK, VECS, DEPTH>
      <<<grid, BLOCK, kSmem, stream>>>(in, out, n, tiles, status, counter);
  CUDA_CHECK_LAUNCH();
}

} // namespace gps::scan
