// prefetch_lookback: the single-pass scan of decoupled_lookback on persistent blocks whose tiles
// are prefetched into shared memory by Hopper's bulk copy engine, so that bytes stay in flight
// while a tile waits for its look-back (common/tile_ring.cuh, shared with compact/).
//
// Why: decoupled_lookback holds its tile in registers (103 per thread, two 256-thread blocks per
// SM) and issues no load while its look-back warp polls, so for part of every block's life its SM
// has nothing in flight; a same-tiled kernel without the look-back reaches 0.97-0.98 of copy on an
// H200 and the scan 0.76. Here each block owns a ring of two tile buffers in shared memory; one
// thread claims tile indices from the atomic counter (each claim issued a tile ahead, so its
// latency is hidden) and starts one bulk copy per tile. A tile is read from its stage into
// registers, the stage refilled at once, the tile scanned as in decoupled_lookback (warp-striped
// vectors, a warp scan per vector, BlockScan with the look-back callback, evict-first 16-byte
// stores), and the aggregate of the block's next tile is published before this tile looks back.
// The last, partial tile is read from global memory with bounds checks.
//
// Change from decoupled_lookback: persistent blocks, a ring of bulk-copied shared-memory stages,
// aggregates published a tile ahead.
// Measured (H200, int32, 5 repetitions, same runs; copy 506-510 us at 2^28, CUB 686-703 us,
// decoupled_lookback 665-683 us at its best block):
//   1. three 64 KiB stages, each tile's aggregate published just before its own look-back
//      (predicted 0.85-0.90x copy): 1112-1186 us at 2^28, 0.43-0.46x. Dropped: a block's queued
//      tiles wait behind its current look-back and the tiles they precede wait on them, so the
//      look-backs of all blocks chain into one.
//   2. the next tile's aggregate published before the current tile's look-back (predicted: the
//      chain is gone, 0.85x or more): 604-611 us, 0.84x copy, 1.14x CUB. Kept.
//   3. at 256 threads: a look-back window of 64 or 128 predecessors 621 and 649 us; four 48 KiB
//      stages 622 us, six 32 KiB stages 810 us; two 96 KiB stages 557-563 us (0.90x), two 112 KiB
//      stages 557 us. Larger tiles and two stages kept: the look-back is paid per tile, and one
//      tile in flight suffices when it is large.
//   4. 96 KiB tiles over the blocks: 512 threads x 48 items 551-560 us, 384 x 64 552 us, 1024 x
//      24 551 us, 256 x 96 557-563 us. Default 512; 128 threads keep 64 items (32 KiB tiles,
//      three blocks per SM), the best of this variant below 2^22.
// Final (H200): 554 us at 2^28 (0.921x copy, 1.27x CUB) and 2184 us at 2^30 (0.922x, 1.27x);
// 150 us at 2^26 (0.88x). Below 2^22 decoupled_lookback stays faster (fewer, smaller tiles).
// H100 (281aece, blocking-kernel timing, 5 repetitions; results/partial/nvidia-h100-prefetch.json):
// 730.6-746.9 us at 2^28 against copy 712.9-713.9 and CUB 872.8-879.6 (0.977x copy, 1.20x CUB);
// 0.978x at 2^30. The same kernel is closer to copy on the slower memory.
// 5. (2026-11-22) the stage refilled before the wait for the next tile (an extra barrier after the
//    warp scans), so that tile k+2 is on its way while the block waits for k+1. Predicted on the
//    H200 at 2^28: 554 -> 525-540 us. Measured (one H200, A/B/A/B builds, 10 runs each): 552.1
//    [550.6-568.4] -> 557.1 [555.2-570.3] us at block 256, 543.8 -> 546.9 at 512: the same within
//    the noise (compaction's version was 7-12% slower). Dropped.
// Again at abdd898 (the ring's aggregate step shared with compaction's look-back warp; 5
// repetitions, results/partial/nvidia-{h200,h100}-prefetch.json), block 512: H200 547.1 us at 2^28
// (0.922x copy, 1.25x CUB), 0.930x at 2^30; H100 730.8 us (0.977x, 1.20x CUB), 0.978x at 2^30.
// (2026-11-24) Each tile's status word in a 32-byte sector of its own (common/lookback.cuh's
// kTileStatusStride, measured there): 2^28 -0.5..-5.6% on the H100, -1.8..-4.9% on the H200 (H200
// partial run of 40e61dffd4f5, results/partial/nvidia-h200-status-stride.json: 536.7 us at block
// 512, 0.944x copy, 1.29x CUB). The headline runs of e81b104b31dc (that commit's headline files,
// in the history), 2^28 block 512: H100 725.8 us = 0.983x copy, 1.208x CUB; H200 533.4 us =
// 0.945x, 1.274x CUB. Below 512 tiles (2^23 and less at block 512) the words are packed one a
// tile again (twentieth session: stride 1 was 1-5% faster there; lookback.cuh). Those of
// 4d7b3277ad59 (that commit's headline files, in the history): H100 732.6 us = 0.977x copy
// [0.953-0.978], 1.191x CUB; H200 537.0 us = 0.944x [0.914-0.945], 1.293x CUB. Those of
// a4783e314b19 (the same kernel; results/partial/nvidia-{h100,h200}-headline.json; median
// [min-max] of 5 repetitions): H100 725.1 us = 0.985x copy [0.966-0.985], 1.207x CUB; H200 534.5
// us = 0.943x [0.915-0.946], 1.272x CUB.
#include "common/arguments.hpp"
#include "common/block.cuh"
#include "common/cuda_check.hpp"
#include "common/lookback.cuh"
#include "common/per_device.hpp"
#include "common/temp_storage.hpp"
#include "common/tile_io.cuh"
#include "common/tile_ring.cuh"
#include "scan/scan.hpp"
#include "scan/single_pass.cuh"

#include <algorithm>
#include <stdexcept>

namespace gps::scan {
namespace {

// int4 vectors per thread: tiles of 24576 elements (96 KiB; two stages in 192 KiB of shared
// memory, one block per SM) from 256 threads up; 64 items per thread below (128 threads: 32 KiB
// tiles, three blocks per SM), which suits small inputs.
constexpr int kStages = 2;
constexpr int prefetch_vecs(int block) {
  return block >= 256 ? 6144 / block : 16;
}
template <int BLOCK> using PrefetchTile = WarpStripedTile<BLOCK, prefetch_vecs(BLOCK)>;
template <int BLOCK> using PrefetchRing = TileRing<PrefetchTile<BLOCK>, kStages>;

struct SumOfVector {
  __device__ __forceinline__ int operator()(int4 v) const { return v.x + v.y + v.z + v.w; }
};

template <int BLOCK> struct PrefetchShared {
  PrefetchRing<BLOCK> ring;
  typename BlockScan<BLOCK>::TempStorage scan;
  typename BlockReduce<BLOCK>::TempStorage reduce;
};

template <int BLOCK, typename Status>
__global__ void __launch_bounds__(BLOCK)
    prefetch_scan(const int* __restrict__ in, int* __restrict__ out, std::size_t n, unsigned tiles,
                  Status status, unsigned* tile_counter) {
  using Ring = PrefetchRing<BLOCK>;
  using Turn = typename Ring::Turn;
  __shared__ PrefetchShared<BLOCK> shared;
  extern __shared__ int4 s_dynamic[]; // the ring's stages
  int* const stages = reinterpret_cast<int*>(s_dynamic);

  start_ring<BLOCK>(shared.ring, stages, in, n, tiles, tile_counter, status, shared.reduce,
                    SumOfVector{});
  for_each_turn(
      shared.ring, stages, in, n, tiles, tile_counter,
      [&](unsigned k, Turn turn, unsigned tile, unsigned next, int4(&v)[Ring::Tile::kVecs]) {
        const int warp_total = warp_scan_vectors(v);
        // the next tile's aggregate; its barrier also tells thread 0 that this stage is consumed
        publish_next_aggregate<BLOCK>(shared.ring, Turn(k + 1), stages, in, n, tiles, status,
                                      shared.reduce, SumOfVector{});
        if (threadIdx.x == 0)
          shared.ring.fill(stages, turn.stage, next, in, n, tiles);
        PublishedAggregatePrefix<Status, 1> prefix_op{status, tile};
        const int offset = BlockScan<BLOCK>::warp_exclusive_sum(warp_total, shared.scan, prefix_op);
        Ring::Tile::template store<true>(out, Ring::base(tile), n, Ring::is_full(tile, n), v,
                                         AddToVector{offset});
      });
}

} // namespace

std::size_t prefetch_tile(int block) {
  std::size_t elems = 0;
  dispatch_block_size(block, [&](auto b) { elems = PrefetchTile<decltype(b)::value>::kTile; });
  return elems;
}

// Temporary storage: the tile counter and one status word per tile (common/lookback.cuh).
void exclusive_scan_prefetch_lookback(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                                      std::size_t n, int block, cudaStream_t stream) {
  constexpr const char* kWho = "scan/prefetch_lookback";
  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    using Ring = PrefetchRing<BLOCK>;
    constexpr std::size_t kTile = Ring::Tile::kTile;
    const std::size_t tiles = (n + kTile - 1) / kTile;
    TempLayout layout(temp);
    const TileStatusStorage status_words = take_tile_status_by_count(layout, tiles);
    if (layout.sized(temp_bytes) || n == 0)
      return;
    check_aligned(in, kBulkAlign, kWho, "input");
    check_aligned(out, kVectorAlign, kWho, "output");
    with_tile_status_stride(status_words, [&](auto stride) {
      constexpr int kStride = decltype(stride)::value;
      const auto kernel = prefetch_scan<BLOCK, BasicTileStatus<kStride>>;
      static PerDevice<unsigned> resident;
      const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(
          resident_blocks(resident, kernel, BLOCK, Ring::kStageBytes, kWho), tiles));
      unsigned* counter = nullptr;
      const auto status = clear_tile_status<kStride>(status_words, stream, &counter);
      kernel<<<grid, BLOCK, Ring::kStageBytes, stream>>>(in, out, n, static_cast<unsigned>(tiles),
                                                         status, counter);
      CUDA_CHECK_LAUNCH();
    });
  });
}

} // namespace gps::scan
