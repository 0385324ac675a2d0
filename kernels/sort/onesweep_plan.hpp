// onesweep's launch arithmetic (onesweep.cu), as host code that the tests check on the CPU
// (tests/test_extras.cpp, OnesweepPlanCpu.*): the histogram kernel's grid, which must keep every
// 16-bit counter below overflow whatever n, and which passes give the early launch signal.
#pragma once

#include <cstddef>

namespace gps::sort::onesweep_plan {

// The histogram kernel: threads per block and keys per thread and tile.
inline constexpr std::size_t kHistBlock = 512;
inline constexpr std::size_t kHistItems = 16;
inline constexpr std::size_t kHistTile = kHistBlock * kHistItems;
// Each lane of a block counts into its own column of 16-bit counters, which gathers the keys of
// that lane in every warp of the block: a block may take at most this many tiles.
inline constexpr std::size_t kHistColumnKeys = 65535;
inline constexpr std::size_t kHistMaxTilesPerBlock =
    kHistColumnKeys / (kHistBlock / 32 * kHistItems);
static_assert(kHistMaxTilesPerBlock * (kHistBlock / 32) * kHistItems <= kHistColumnKeys,
              "a lane column's 16-bit counters overflow");

// Tiles of the histogram kernel for n keys.
constexpr std::size_t histogram_tiles(std::size_t n) {
  return (n + kHistTile - 1) / kHistTile;
}

// The histogram kernel's grid (blocks stride over the tiles by the grid): whole waves of the
// `resident` blocks the GPU holds at once, enough of them that no block takes more than
// kHistMaxTilesPerBlock tiles, and no more blocks than tiles. 0 for n == 0 (nothing to launch).
constexpr std::size_t histogram_grid(std::size_t n, std::size_t resident) {
  const std::size_t tiles = histogram_tiles(n);
  const std::size_t per_wave = resident * kHistMaxTilesPerBlock;
  const std::size_t waves = (tiles + per_wave - 1) / per_wave;
  const std::size_t grid = resident * waves;
  return grid < tiles ? grid : tiles;
}

// The most tiles one block of that grid takes.
constexpr std::size_t histogram_tiles_per_block(std::size_t n, std::size_t resident) {
  const std::size_t grid = histogram_grid(n, resident);
  return grid == 0 ? 0 : (histogram_tiles(n) + grid - 1) / grid;
}

// Whether a pass of `tiles` tiles lets the next kernel launch as soon as all its blocks run
// (programmatic dependent launch, common/dependent_launch.cuh), rather than as they exit. Measured
// on 132-SM GPUs (onesweep.tuning.md): the early signal saves 6.5% at 2^24 keys (1821 tiles)
// but costs 0.6% at 2^30 and 10% at 2^20 (114 tiles, every pass's blocks resident at once).
inline constexpr std::size_t kEarlyTriggerMinTiles = 256;
inline constexpr std::size_t kEarlyTriggerMaxTiles = 16384;
constexpr bool early_trigger(std::size_t tiles) {
  return tiles >= kEarlyTriggerMinTiles && tiles <= kEarlyTriggerMaxTiles;
}

} // namespace gps::sort::onesweep_plan
