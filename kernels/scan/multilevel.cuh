// The host-side driver shared by the multi-level block-scan variants (shared_mem, kogge_stone,
// coarsened, warp_shuffle; GPU Gems 3 ch. 39.2.4 "Arrays of Arbitrary Size"):
//   1. each block scans one tile and writes the tile's total to a block-sums array;
//   2. the block sums are scanned the same way, recursively, until one tile holds them all;
//   3. every tile adds its scanned block sum back, from the top level down.
// A variant supplies only step 1, as `launch_tiles(in, out, tile_sums, n, tiles, stream)`, with
// in == out allowed (each block reads its whole tile before it writes).
#pragma once

#include "common/arguments.hpp"
#include "common/cuda_check.hpp"
#include "common/temp_storage.hpp"

#include <cstddef>
#include <stdexcept>

namespace gps::scan {

namespace detail {
__global__ void add_tile_offsets(int* data, const int* scanned_tile_sums, std::size_t n,
                                 std::size_t tile);

// Element counts per level: level 0 is the data, level k+1 the tile sums of level k.
struct LevelPlan {
  static constexpr int kMaxLevels = 64; // tiles of >= 2 elements: at most log2(n) levels
  std::size_t n[kMaxLevels];
  int levels = 0;

  LevelPlan(std::size_t count, std::size_t tile) {
    if (tile < 2)
      throw std::invalid_argument("multi-level scan: tile below 2 elements");
    n[levels++] = count;
    while (n[levels - 1] > tile) {
      n[levels] = (n[levels - 1] + tile - 1) / tile;
      ++levels;
    }
  }
};
} // namespace detail

// Temporary storage: the tile sums of every level, n / tile + n / tile^2 + ... ints. Refuses (as
// `who`) an n whose first level needs more than 2^31 - 1 tiles.
template <typename LaunchTiles>
void scan_multilevel(void* temp, std::size_t& temp_bytes, const int* in, int* out, std::size_t n,
                     std::size_t tile, cudaStream_t stream, const char* who,
                     const LaunchTiles& launch_tiles) {
  const detail::LevelPlan plan(n, tile);
  TempLayout layout(temp);
  int* sums[detail::LevelPlan::kMaxLevels];
  for (int l = 0; l < plan.levels; ++l)
    sums[l] = layout.take<int>((plan.n[l] + tile - 1) / tile);
  if (layout.sized(temp_bytes) || n == 0)
    return;
  grid_blocks(n, tile, who); // the largest grid; the others are smaller
  // up: scan each level's tiles; level l+1's data is level l's tile sums
  for (int l = 0; l < plan.levels; ++l) {
    const int* src = l == 0 ? in : sums[l - 1];
    int* dst = l == 0 ? out : sums[l - 1];
    launch_tiles(src, dst, sums[l], plan.n[l], (plan.n[l] + tile - 1) / tile, stream);
  }
  // down: add each tile's scanned offset, top level first
  for (int l = plan.levels - 1; l-- > 0;) {
    int* data = l == 0 ? out : sums[l - 1];
    const std::size_t tiles = (plan.n[l] + tile - 1) / tile;
    detail::add_tile_offsets<<<static_cast<unsigned>(tiles - 1), 256, 0, stream>>>(data, sums[l],
                                                                                   plan.n[l], tile);
    CUDA_CHECK_LAUNCH();
  }
}

} // namespace gps::scan
