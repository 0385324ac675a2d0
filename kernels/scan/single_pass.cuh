// The single-pass scan behind `chained` and `decoupled_lookback` (private to kernels/scan/): each
// tile is loaded into registers, scanned, learns the sum of all earlier tiles through a prefix
// callback over the tile status (common/lookback.cuh: ChainedPrefix or LookbackPrefix, the only
// difference between the two variants), and is written scanned: 2n global traffic in one launch
// (plus a memset of the status words). Built from the common layers: warp-striped tile I/O
// (common/tile_io.cuh), BlockScan with a prefix callback (common/block.cuh), the look-back
// (common/lookback.cuh).
#pragma once

#include "common/arguments.hpp"
#include "common/block.cuh"
#include "common/cuda_check.hpp"
#include "common/lookback.cuh"
#include "common/temp_storage.hpp"
#include "common/tile_io.cuh"

#include <cstddef>

namespace gps::scan {

// int4 vectors per thread: 16 (64 items) up to 512 threads, 8 for 1024-thread blocks (whose 64
// registers per thread cannot hold 64 items). Large tiles mean few tiles, and so few look-backs:
// on an H200 at 2^28, 16 items per thread reached 0.55x of copy bandwidth, 32 items 0.69x and 64
// items with evict-first loads and stores 0.77x (`git show d5529b9:analysis/README.md`, "Scan").
constexpr int single_pass_vecs(int block) {
  return block >= 1024 ? 8 : 16;
}

template <int BLOCK> using SinglePassTile = WarpStripedTile<BLOCK, single_pass_vecs(BLOCK)>;

inline std::size_t single_pass_tile_elems(int block) {
  return static_cast<std::size_t>(block) * 4 * single_pass_vecs(block);
}

// ---- the steps of one tile
// -----------------------------------------------------------------------

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

// ---- one tile per block
// ----------------------------------------------------------------------------

// Each block takes the next tile index in launch order (so a waited-on tile is always already
// running), loads its tile into registers, and runs the steps. Loads and stores are evict-first
// (__ldcs/__stcs): the data streams through once, and keeping it out of the way leaves L2 to the
// tile status words that the look-back polls.
template <int BLOCK, typename PrefixOp>
__global__ void __launch_bounds__(BLOCK)
    single_pass_scan(const int* __restrict__ in, int* __restrict__ out, std::size_t n,
                     decltype(PrefixOp::status) status, unsigned* tile_counter) {
  using Tile = SinglePassTile<BLOCK>;
  __shared__ typename BlockScan<BLOCK>::TempStorage scan_storage;
  __shared__ unsigned s_tile;
  const long long tile = next_tile_index(tile_counter, s_tile);
  const std::size_t tile_base = static_cast<std::size_t>(tile) * Tile::kTile;
  const bool full_tile = tile_base + Tile::kTile <= n;

  int4 v[Tile::kVecs];
  Tile::load(in, tile_base, n, full_tile, v);
  const int warp_total = warp_scan_vectors(v);
  PrefixOp prefix_op{status, tile};
  const int offset = BlockScan<BLOCK>::warp_exclusive_sum(warp_total, scan_storage, prefix_op);
  Tile::template store<true>(out, tile_base, n, full_tile, v, AddToVector{offset});
}

// ---- host side
// ---------------------------------------------------------------------------------------

// Temporary storage: the tile counter and the status words (common/lookback.cuh: one a tile, one a
// 32-byte sector from kTileStatusSectorTiles tiles on). PrefixOp<Status>: the prefix callback.
template <int BLOCK, template <typename> class PrefixOp>
void single_pass_scan_launch(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                             std::size_t n, cudaStream_t stream, const char* who) {
  constexpr std::size_t kTile = SinglePassTile<BLOCK>::kTile;
  const std::size_t tiles = (n + kTile - 1) / kTile;
  TempLayout layout(temp);
  const TileStatusStorage status_words = take_tile_status_by_count(layout, tiles);
  if (layout.sized(temp_bytes) || n == 0)
    return;
  check_aligned(in, kVectorAlign, who, "input");
  check_aligned(out, kVectorAlign, who, "output");
  with_tile_status_stride(status_words, [&](auto stride) {
    using Status = BasicTileStatus<decltype(stride)::value>;
    unsigned* counter = nullptr;
    const Status status =
        clear_tile_status<decltype(stride)::value>(status_words, stream, &counter);
    single_pass_scan<BLOCK, PrefixOp<Status>>
        <<<static_cast<unsigned>(tiles), BLOCK, 0, stream>>>(in, out, n, status, counter);
    CUDA_CHECK_LAUNCH();
  });
}

} // namespace gps::scan
