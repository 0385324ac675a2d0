// single_pass: stream compaction in one fused kernel, as CUB's DeviceSelect does it (Merrill &
// Garland 2016, "Single-pass Parallel Prefix Scan with Decoupled Look-back", applied to the
// selection counts). Each block takes the next tile index from an atomic counter, loads its tile
// with 16-byte loads, counts the kept elements, learns how many elements all earlier tiles keep
// through the decoupled look-back of kernels/common/lookback.cuh, and writes its kept elements as
// one contiguous, coalesced run. Global traffic is the minimum: the input read once, the kept
// elements written once.
// Change from scan_based_decoupled_lookback: map, scan and scatter fused; the flags and offsets
// never reach global memory, and the scan is over per-tile counts instead of per-element flags.
//
// Tile layout (as scan/single_pass.cuh): warp w owns kWarpItems contiguous elements; each of its
// kVecs int4 loads covers 128 contiguous elements, lane l taking elements 4l..4l+3, so a lane's
// kept elements precede those of lane l+1 within a 128-element chunk and ballots give the ranks.
#include "common/block.cuh"
#include "common/cuda_check.hpp"
#include "common/lookback.cuh"
#include "common/warp.cuh"
#include "compact/compact.hpp"

#include <cstdint>
#include <stdexcept>

namespace gps::compact {
namespace {

// Up to 32 items per thread (eight int4), fewer from 512 threads on, so that a tile is at most
// 8192 elements and its staging buffer fits 32 KiB of static shared memory. Large tiles mean few
// look-backs (the lesson of the scan study).
template <int BLOCK> struct SinglePassPolicy {
  static constexpr int kVecs = 2048 / BLOCK < 8 ? 2048 / BLOCK : 8;
  static constexpr int kWarps = BLOCK / kWarpSize;
  static constexpr int kWarpItems = kWarpSize * 4 * kVecs;
  static constexpr int kTile = BLOCK * 4 * kVecs;
};

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    single_pass_compact(const int* __restrict__ in, int* __restrict__ out,
                        unsigned* __restrict__ count, std::size_t n, TileStatus status,
                        unsigned* tile_counter) {
  using Policy = SinglePassPolicy<BLOCK>;
  constexpr int kVecs = Policy::kVecs;
  __shared__ unsigned s_tile;
  __shared__ unsigned s_warp_count[Policy::kWarps];
  __shared__ unsigned s_tile_prefix;
  __shared__ int s_stage[Policy::kTile];
  const int lane = lane_id(), warp = warp_id();

  // tile index in launch order: a tile's predecessors have all started, so look-back cannot hang
  if (threadIdx.x == 0) s_tile = atomicAdd(tile_counter, 1u);
  __syncthreads();
  const long long tile = s_tile;
  const std::size_t warp_base =
      static_cast<std::size_t>(tile) * Policy::kTile + warp * Policy::kWarpItems;
  const bool full_tile = static_cast<std::size_t>(tile + 1) * Policy::kTile <= n;

  // load: kVecs int4 per thread, all issued before any is used; past the end reads as 0 (dropped)
  int4 v[kVecs];
  if (full_tile) {
#pragma unroll
    for (int j = 0; j < kVecs; ++j)
      v[j] = __ldcs(reinterpret_cast<const int4*>(in + warp_base + j * 128 + lane * 4));
  } else {
#pragma unroll
    for (int j = 0; j < kVecs; ++j) {
      const std::size_t i = warp_base + j * 128 + lane * 4;
      v[j].x = i + 0 < n ? in[i + 0] : 0;
      v[j].y = i + 1 < n ? in[i + 1] : 0;
      v[j].z = i + 2 < n ? in[i + 2] : 0;
      v[j].w = i + 3 < n ? in[i + 3] : 0;
    }
  }

  // warp-local ranks: one ballot per component and chunk; a lane's first kept element of chunk j
  // goes after every kept element of the earlier chunks and of the lower lanes of chunk j
  const unsigned lower_lanes = (1u << lane) - 1u;
  unsigned rank[kVecs];
  unsigned warp_count = 0;
#pragma unroll
  for (int j = 0; j < kVecs; ++j) {
    const unsigned mx = __ballot_sync(kFullMask, v[j].x != 0);
    const unsigned my = __ballot_sync(kFullMask, v[j].y != 0);
    const unsigned mz = __ballot_sync(kFullMask, v[j].z != 0);
    const unsigned mw = __ballot_sync(kFullMask, v[j].w != 0);
    rank[j] = warp_count + __popc(mx & lower_lanes) + __popc(my & lower_lanes) +
              __popc(mz & lower_lanes) + __popc(mw & lower_lanes);
    warp_count += __popc(mx) + __popc(my) + __popc(mz) + __popc(mw);
  }
  if (lane == 0) s_warp_count[warp] = warp_count;
  __syncthreads();

  // tile-local offsets: every warp scans the warp counts itself, so that only warp 0 is held up
  // by the look-back while the others stage their elements
  const unsigned own = lane < Policy::kWarps ? s_warp_count[lane] : 0u;
  const unsigned inclusive = warp_inclusive_scan(own);
  const unsigned tile_count = __shfl_sync(kFullMask, inclusive, kWarpSize - 1);
  const unsigned warp_offset = __shfl_sync(kFullMask, inclusive - own, warp);

  // look-back (warp 0): publish the tile's count at once, then sum the counts of earlier tiles
  if (warp == 0) {
    unsigned prefix = 0;
    if (tile == 0) {
      if (lane == 0) status.publish(0, kTilePrefix, tile_count);
    } else {
      if (lane == 0) status.publish(tile, kTileAggregate, tile_count);
      prefix = status.warp_lookback(tile);
      if (lane == 0) status.publish(tile, kTilePrefix, prefix + tile_count);
    }
    if (lane == 0) {
      s_tile_prefix = prefix;
      // the last tile's inclusive prefix is the number of kept elements
      if (tile == static_cast<long long>(gridDim.x) - 1) *count = prefix + tile_count;
    }
  }

  // stage: kept elements at their tile-local positions in shared memory
#pragma unroll
  for (int j = 0; j < kVecs; ++j) {
    unsigned p = warp_offset + rank[j];
    if (v[j].x != 0) s_stage[p++] = v[j].x;
    if (v[j].y != 0) s_stage[p++] = v[j].y;
    if (v[j].z != 0) s_stage[p++] = v[j].z;
    if (v[j].w != 0) s_stage[p] = v[j].w;
  }
  __syncthreads();

  // store: the tile's kept elements as one contiguous run. The run starts anywhere, so the
  // thread-to-word mapping is shifted back by the run's offset in its 128-byte line: each warp
  // store then covers one whole aligned line (a part line only at the run's two ends)
  int* tile_out = out + s_tile_prefix;
  const unsigned lead =
      static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(tile_out) / sizeof(int)) %
      kWarpSize;
  for (unsigned i = threadIdx.x; i < lead + tile_count; i += BLOCK)
    if (i >= lead) __stcs(tile_out + (i - lead), s_stage[i - lead]); // evict-first: not re-read
}

} // namespace

std::size_t single_pass_tile(int block) {
  std::size_t tile = 0;
  dispatch_block_size(block, [&](auto b) { tile = SinglePassPolicy<decltype(b)::value>::kTile; });
  return tile;
}

// Temp storage: the tile counter and status words of common/lookback.cuh.
void compact_single_pass(const int* in, int* out, unsigned* count, std::size_t n, int block,
                         Workspace& ws, cudaStream_t stream) {
  if (n == 0) {
    CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(unsigned), stream));
    return;
  }
  if (reinterpret_cast<std::uintptr_t>(in) % 16)
    throw std::invalid_argument("single-pass compaction needs a 16-byte aligned input");
  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    const std::size_t tiles =
        (n + SinglePassPolicy<BLOCK>::kTile - 1) / SinglePassPolicy<BLOCK>::kTile;
    unsigned* tile_counter = nullptr;
    const TileStatus status = clear_tile_status(tiles, ws, stream, &tile_counter);
    single_pass_compact<BLOCK><<<static_cast<unsigned>(tiles), BLOCK, 0, stream>>>(
        in, out, count, n, status, tile_counter);
    CUDA_CHECK_LAUNCH();
  });
}

} // namespace gps::compact
