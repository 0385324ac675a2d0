// The host-side driver shared by the multi-level block-scan variants (shared_mem, kogge_stone,
// coarsened, warp_shuffle; GPU Gems 3 ch. 39.2.4 "Arrays of Arbitrary Size"):
//   1. each block scans one tile and writes the tile's total to a block-sums array;
//   2. the block sums are scanned the same way, recursively, until one tile holds them all;
//   3. every tile adds its scanned block sum back, from the top level down.
// A variant supplies only step 1, as `launch_tiles(in, out, tile_sums, n, tiles, stream)`, with
// in == out allowed (each block reads its whole tile before it writes).
#pragma once

#include "common/cuda_check.hpp"
#include "common/workspace.hpp"

#include <cstddef>
#include <vector>

namespace gps::scan {

namespace detail {
__global__ void add_tile_offsets(int* data, const int* scanned_tile_sums, std::size_t n,
                                 std::size_t tile);
} // namespace detail

template <typename LaunchTiles>
void scan_multilevel(const int* in, int* out, std::size_t n, std::size_t tile, Workspace& ws,
                     cudaStream_t stream, const LaunchTiles& launch_tiles) {
  if (n == 0) return;
  // plan: element counts per level (level 0 is the data, level k+1 the tile sums of level k)
  std::vector<std::size_t> level_n{n};
  while (level_n.back() > tile) level_n.push_back((level_n.back() + tile - 1) / tile);
  Carver sizing;
  for (std::size_t l = 0; l < level_n.size(); ++l) sizing.take<int>((level_n[l] + tile - 1) / tile);
  Carver carve(ws.reserve(sizing.bytes()));
  std::vector<int*> sums(level_n.size());
  for (std::size_t l = 0; l < level_n.size(); ++l)
    sums[l] = carve.take<int>((level_n[l] + tile - 1) / tile);
  // up: scan each level's tiles; level l+1's data is level l's tile sums
  for (std::size_t l = 0; l < level_n.size(); ++l) {
    const int* src = l == 0 ? in : sums[l - 1];
    int* dst = l == 0 ? out : sums[l - 1];
    launch_tiles(src, dst, sums[l], level_n[l], (level_n[l] + tile - 1) / tile, stream);
  }
  // down: add each tile's scanned offset, top level first
  for (std::size_t l = level_n.size() - 1; l-- > 0;) {
    int* data = l == 0 ? out : sums[l - 1];
    const std::size_t tiles = (level_n[l] + tile - 1) / tile;
    detail::add_tile_offsets<<<static_cast<unsigned>(tiles - 1), 256, 0, stream>>>(
        data, sums[l], level_n[l], tile);
    CUDA_CHECK_LAUNCH();
  }
}

} // namespace gps::scan
