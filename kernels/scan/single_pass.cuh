// The single-pass scan kernel behind `chained` and `decoupled_lookback` (they differ only in how
// a tile learns its prefix). One launch: each block takes the next tile index from an atomic
// counter (so tiles start in order and a waited-on tile is always already running), loads its
// tile with 16-byte loads, reduces it, obtains the sum of all earlier tiles through the tile
// status array, and writes the scanned tile.
//
// Tile layout: warp w of the block owns kWarpItems contiguous elements; its VECS int4 loads each
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

template <int BLOCK, int VECS> struct SinglePassPolicy {
  static constexpr int kWarps = BLOCK / kWarpSize;
  static constexpr int kWarpItems = kWarpSize * 4 * VECS;
  static constexpr int kTile = BLOCK * 4 * VECS;
};

template <int BLOCK, int VECS, PrefixStrategy STRATEGY>
__global__ void __launch_bounds__(BLOCK)
    single_pass_scan(const int* __restrict__ in, int* __restrict__ out, std::size_t n,
                     TileStatus status, unsigned* tile_counter) {
  using Policy = SinglePassPolicy<BLOCK, VECS>;
  __shared__ unsigned s_tile;
  __shared__ int s_warp_prefix[Policy::kWarps];
  __shared__ int s_tile_prefix;
  const int lane = lane_id(), warp = warp_id();

  if (threadIdx.x == 0) s_tile = atomicAdd(tile_counter, 1u);
  __syncthreads();
  const long long tile = s_tile;
  const std::size_t warp_base =
      static_cast<std::size_t>(tile) * Policy::kTile + warp * Policy::kWarpItems;
  const bool full_tile = static_cast<std::size_t>(tile + 1) * Policy::kTile <= n;

  // load: VECS int4 per thread, all issued before any is used
  int4 v[VECS];
  if (full_tile) {
#pragma unroll
    for (int j = 0; j < VECS; ++j)
      v[j] = __ldg(reinterpret_cast<const int4*>(in + warp_base + j * 128 + lane * 4));
  } else {
#pragma unroll
    for (int j = 0; j < VECS; ++j) {
      const std::size_t i = warp_base + j * 128 + lane * 4;
      v[j].x = i + 0 < n ? in[i + 0] : 0;
      v[j].y = i + 1 < n ? in[i + 1] : 0;
      v[j].z = i + 2 < n ? in[i + 2] : 0;
      v[j].w = i + 3 < n ? in[i + 3] : 0;
    }
  }

  // warp-level scan: each 128-element chunk is a thread scan of 4 + a warp scan, chained in order
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
  if (lane == 0) s_warp_prefix[warp] = warp_running;
  __syncthreads();

  // block level + tile prefix: warp 0 scans the warp totals and talks to the other tiles
  if (warp == 0) {
    const int warp_total = lane < Policy::kWarps ? s_warp_prefix[lane] : 0;
    const int inclusive = warp_inclusive_scan(warp_total);
    const unsigned aggregate = __shfl_sync(kFullMask, inclusive, kWarpSize - 1);
    if (lane < Policy::kWarps) s_warp_prefix[lane] = inclusive - warp_total;
    unsigned prefix = 0;
    if (tile == 0) {
      if (lane == 0) status.publish(0, kTilePrefix, aggregate);
    } else if constexpr (STRATEGY == PrefixStrategy::DecoupledLookback) {
      // publish the aggregate at once so successors need not wait for our look-back
      if (lane == 0) status.publish(tile, kTileAggregate, aggregate);
      prefix = status.warp_lookback(tile);
      if (lane == 0) status.publish(tile, kTilePrefix, prefix + aggregate);
    } else {
      if (lane == 0) {
        prefix = status.wait_for_prefix(tile - 1);
        status.publish(tile, kTilePrefix, prefix + aggregate);
      }
    }
    if (lane == 0) s_tile_prefix = static_cast<int>(prefix);
  }
  __syncthreads();

  // store: add the tile and warp offsets
  const int offset = s_tile_prefix + s_warp_prefix[warp];
  if (full_tile) {
#pragma unroll
    for (int j = 0; j < VECS; ++j) {
      const int4 r = make_int4(v[j].x + offset, v[j].y + offset, v[j].z + offset, v[j].w + offset);
      *reinterpret_cast<int4*>(out + warp_base + j * 128 + lane * 4) = r;
    }
  } else {
#pragma unroll
    for (int j = 0; j < VECS; ++j) {
      const std::size_t i = warp_base + j * 128 + lane * 4;
      if (i + 0 < n) out[i + 0] = v[j].x + offset;
      if (i + 1 < n) out[i + 1] = v[j].y + offset;
      if (i + 2 < n) out[i + 2] = v[j].z + offset;
      if (i + 3 < n) out[i + 3] = v[j].w + offset;
    }
  }
}

// Temp storage: the tile counter and one status word per tile, cleared by a single memset.
template <int BLOCK, int VECS, PrefixStrategy STRATEGY>
void single_pass_scan_launch(const int* in, int* out, std::size_t n, Workspace& ws,
                             cudaStream_t stream) {
  if (n == 0) return;
  if (reinterpret_cast<std::uintptr_t>(in) % 16 || reinterpret_cast<std::uintptr_t>(out) % 16)
    throw std::invalid_argument("single-pass scan needs 16-byte aligned input and output");
  using Policy = SinglePassPolicy<BLOCK, VECS>;
  const std::size_t tiles = (n + Policy::kTile - 1) / Policy::kTile;
  if (tiles > 0xffffffffu) throw std::invalid_argument("single-pass scan: too many tiles");
  const std::size_t bytes = sizeof(unsigned long long) * (tiles + 1);
  auto* words = static_cast<unsigned long long*>(ws.reserve(bytes));
  CUDA_CHECK(cudaMemsetAsync(words, 0, bytes, stream));
  // word 0 holds the tile counter, words 1.. the tile status
  single_pass_scan<BLOCK, VECS, STRATEGY><<<static_cast<unsigned>(tiles), BLOCK, 0, stream>>>(
      in, out, n, TileStatus{words + 1}, reinterpret_cast<unsigned*>(words));
  CUDA_CHECK_LAUNCH();
}

} // namespace gps::scan
