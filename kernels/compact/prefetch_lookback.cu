// prefetch_lookback: single_pass's fused compaction on the prefetching single-pass machinery of
// common/tile_ring.cuh (as scan/prefetch_lookback): persistent blocks, a ring of two shared-memory
// stages filled by Hopper's bulk copies of the claimed tiles, and each tile's kept count published
// one tile before its look-back. Warp 0 holds no part of the tile: it claims tiles, refills the
// stages and looks back, while warps 1.. read the tile from its stage, rank it (one packed warp
// scan per four vectors), count the next tile, stage the kept elements contiguously in a third
// buffer and write them out as 16-byte vectors (compact/tile_steps.cuh).
// Change from single_pass: the ring and the early count; a look-back warp without data, ranks by
// packed warp scans instead of ballots and population counts, 16-byte stores of the run.
// Measured (H200, int32, 2^28, keep 0.5, 5 repetitions, same runs; copy 509-510 us, CUB 605-608
// us, single_pass 599-603 us at its best block 512):
//   1. three 64 KiB stages, the kept elements staged in place in the tile's own stage, so the
//      stage is refilled only after the tile is written out: 608 us at best (block 1024), 473 us
//      at keep 0 (CUB 466). Dropped: one tile in flight per block, and it had landed.
//   2. two stages plus a staging buffer, the stage refilled as soon as it is read (predicted: as
//      scan's ring, 450-500 us): 560 us at block 1024 (16384-element tiles; 1.09x CUB, 0.68x
//      copy by the 6n-byte traffic model), 571-576 us at 512 (18432), 2186 us at 2^30 (CUB
//      2378); keep 0: 435 us (CUB 466). Kept: the fastest compaction here, short of the issue's
//      0.85x copy.
//   3. at block 512: three 48 or 56 KiB stages plus the staging buffer 634-660 us; the kept
//      elements written from registers, no staging, two 96 or 112 KiB stages 632-782 us, three
//      64 KiB stages 658 us; 1024 threads, three 48 KiB stages 640 us. Dropped.
// What bounds it: at keep 0 nothing is written and it still takes 435 us for the 4n bytes read
// (0.59x of copy's rate): a block turns one tile per iteration of ranking, counting the next tile,
// look-back and write, and only one tile is on its way meanwhile; scan's ring, with the same two
// stages and larger tiles, moves 8n bytes in 554 us.
// H100 (281aece, blocking-kernel timing, 5 repetitions; results/partial/nvidia-h100-prefetch.json):
// 593.4-596.8 us at 2^28, block 1024 (0.901x copy, 1.18x CUB's 703.0-706.2), 0.909x at 2^30: on
// the slower memory the issue's 0.85x is met, in about the H200's time, so the bound is the
// per-tile pace, not the memory.
// Tried (2026-11-22): a look-back window of 2 or 4 predecessors per lane
// (PublishedAggregatePrefix<2|4>). The nearest inclusive prefix is about one grid (132 tiles)
// behind, about 4 round trips of 32; predicted, if those round trips set the pace, keep 0.50 at
// 2^28 on the H200 from 560 to 470-500 us. Measured (one H200, builds 1/4/2/1 in one call, 5
// repetitions each, block 1024): DEPTH 1 551.6 [551.1-553.1] and 551.0 [550.6-553.0] us, DEPTH 2
// 565.0 [564.1-565.7], DEPTH 4 587.4 [587.1-588.6]; keep 0 445.5 / 455.3 / 473.0; block 512 the
// same order. Dropped: the round trips do not set the pace, and wider windows cost (as for scan).
// Profile (H200, ncu --clock-control none, one launch at 2^28, block 1024, 2026-11-22): keep 0.50
// 549.6 us, DRAM 2.89 TB/s (60% of peak); keep 0 447.5 us, 2.41 TB/s (50%), while scan's ring
// moves 3.86 TB/s (80%). Occupancy 32 warps (one block per SM). Compaction issues 242 M warp
// instructions at keep 0 against scan's 89 M for the same n: 0.53 issued per scheduler and cycle
// against 0.16, top stalls barrier (3.9 cycles per instruction), MIO throttle (2.6), not selected
// (2.3), short scoreboard (1.7). Much of the issue is the block's 32 warps polling the stage's
// mbarrier and warp 0 polling the look-back while one 64 KiB tile is on its way: every compaction
// here, CUB's included, reads at keep 0 at 0.55-0.64 of copy's rate (suite run of the same day:
// single_pass 399 us at block 128, CUB 458 us, copy 510 us). Expected lever: more bytes in flight
// per SM (three or four smaller stages, or a load warp that keeps them full), not fewer
// instructions.
//   4. (2026-11-22) the stage refilled before the wait for the next tile (an extra barrier after
//      ranking), instead of after it, so that the wait for tile k+1 (publish_next_aggregate) has
//      tile k+2 on its way too. Predicted on the H200 at 2^28, block 1024: keep 0.50 556 ->
//      450-490 us, keep 0 447 -> 320-380 us. Measured (one H200, A/B/A/B builds, 10 runs each):
//      slower everywhere: keep 0.50 551.4 [549.1-553.3] -> 609.4 [606.2-611.0] us at block 1024,
//      565.3 -> 631.7 at 512; keep 0 446.0 -> 477.7 and 424.3 -> 459.9; 2^24 +2-3%. Dropped: a
//      second tile in flight is not what the kernel lacks (the barrier, and thread 0 waiting on
//      its claim of the next tile before the block can go on, cost more than it gives), so the
//      "expected lever" above is refuted in this form.
// 5. (2026-11-22, second session) where a turn goes: thread 0 and thread 32 stamped clock64() at
//    each step of every turn (a traced copy of the kernel, H200, 2^28, block 1024, keep 0.50,
//    8871 cycles a turn): waiting for tiles 200-390 cycles (the ring keeps them landed), ranking
//    2016, counting the next tile with the block reduction 964, staging 1248-1581, look-back
//    1619 (1.1 windows of 32, no polls: one L2 round trip of about 1500 cycles) while warps 1..
//    waited 1834 at the barrier, writing the run 1811. So not bytes in flight (steps 3 and 4) but
//    the work of the turn and the exposed look-back set the pace.
// 6. look-ahead: warp 0 looks back for the next tile while warps 1.. write the current one (named
//    barrier, warp 0 arriving without waiting). Predicted 551 -> 440-470 us. Measured: keep 0.50
//    549 -> 562 us (block 1024), 566 -> 572 (512); keep 0 446 -> 404. Dropped: looked back a turn
//    earlier, the walk needs 1.5 windows and polls 0.9 times, 3673 cycles, on warp 0's path.
// 7. three switches, every combination, one build each (keep 0.50, 2^28; baseline 547 us at
//    block 1024, 562 at 512): the run written as 16-byte vectors (two aligned staged vectors and a
//    shift per output vector; predicted -8..15%): 528 and 513 us, kept; each tile read from its
//    stage once, carried in registers (predicted -5..8%): 557 / 567, with the vector stores 532 /
//    512, dropped; look-ahead with either: slower (575-623), dropped.
// 8. ranks by one packed warp scan per four vectors (each lane's kept count per vector in a byte)
//    instead of 32 ballots and 32 population counts per thread (predicted -10..20% if population
//    counts issue at a quarter rate): with the vector stores 532 -> 504 us (1024), 520 -> 494
//    (512), kept. A look-back warp without data (tile 1/16 or 1/32 smaller; predicted -10..15%,
//    the exposed look-back): 523 / 497 alone, 478 / 463 with the packed ranks, kept; keep 0: 372 /
//    346 us.
// 9. warp 0 also counting the next tile from its stage, so that warps 1.. need no block
//    reduction (predicted 463 -> 400-430 us): wrong counts in the tests and keep 0 at 503 us.
//    Dropped: one warp reading a 67 KiB tile is slower than the reduction it saves. 10 vectors
//    per thread at block 512 (19200-element tiles, 225 KiB of shared memory; predicted -1..3%):
//    455-457 -> 440-447 us, kept. Warp 0 looking back at the start of the turn, while warps 1..
//    rank (predicted -1..5%): 441 -> 470 us, dropped.
// Final (abdd898, 5 repetitions; results/partial/nvidia-{h200,h100}-prefetch.json), keep 0.50,
// block 512: H200 443.5 us at 2^28 (442.2-445.6; copy 504.0-504.3: 0.853x copy, 1.33x CUB) and
// 0.866x at 2^30 (1.35x CUB); H100 570.7 us (0.938x copy, 1.24x CUB), 0.946x at 2^30. Now the
// time follows the bandwidth (1.29x apart), where step 2 took about 560-594 us on both.
// (2026-11-24) Each tile's status word in a 32-byte sector of its own (common/lookback.cuh's
// kTileStatusStride, measured there): 2^28 -1.2..-3.6% on the H100, -1.4..-1.7% on the H200 (H200
// partial run of 40e61dffd4f5, results/partial/nvidia-h200-status-stride.json: 440.0 us at block
// 512, 0.864x copy, 1.365x CUB). The headline runs of e81b104b31dc (that commit's headline files,
// in the history), 2^28 block 512: H100 562.8 us = 0.951x copy, 1.249x CUB; H200 435.5 us =
// 0.868x, 1.357x CUB. Below 512 tiles (2^23 and less at block 512) the words are packed one a
// tile again (twentieth session: stride 1 was 2-5% faster there; lookback.cuh). Those of
// 4d7b3277ad59 (that commit's headline files, in the history; median [min-max] of 5 repetitions):
// H100 575.6 us = 0.933x copy [0.931-0.933], 1.212x CUB; H200 439.7 us = 0.864x [0.858-0.866],
// 1.363x CUB. Those of a4783e314b19 (the same kernel; results/partial/nvidia-{h100,h200}-headline
// .json): H100 562.6 us = 0.952x copy [0.950-0.953], 1.245x CUB; H200 436.3 us = 0.867x
// [0.865-0.867], 1.355x CUB.
#include "common/arguments.hpp"
#include "common/block.cuh"
#include "common/cuda_check.hpp"
#include "common/lookback.cuh"
#include "common/per_device.hpp"
#include "common/temp_storage.hpp"
#include "common/tile_io.cuh"
#include "common/tile_ring.cuh"
#include "compact/compact.hpp"
#include "compact/tile_steps.cuh"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gps::compact {
namespace {

// int4 vectors per thread of the warps that hold the tile (all but warp 0): 19200-element tiles at
// 512 threads (75 KiB; two stages and the staging buffer in 225 KiB of shared memory, one block per
// SM), 16128 at 256, 15872 at 1024; 16 below.
constexpr int kStages = 2;
constexpr int prefetch_vecs(int block) {
  return block == 256 ? 18 : block == 512 ? 10 : block == 1024 ? 4 : 16;
}
// Warp 0 holds none of the tile (from two warps on): it looks back while the others stage.
template <int BLOCK> constexpr int kFirstWarp = BLOCK >= 64 ? 1 : 0;
template <int BLOCK>
using PrefetchTile = WarpStripedTile<BLOCK, prefetch_vecs(BLOCK), kFirstWarp<BLOCK>>;
template <int BLOCK> using PrefetchRing = TileRing<PrefetchTile<BLOCK>, kStages>;

template <int BLOCK> struct PrefetchShared {
  PrefetchRing<BLOCK> ring;
  WarpCounts<BLOCK> warp_count;
  unsigned tile_prefix; // kept elements of all earlier tiles
  typename BlockReduce<BLOCK>::TempStorage reduce;
};

// Warp 0: the look-back for a tile whose count is published already; the prefix into shared
// memory.
template <typename Status>
__device__ __forceinline__ void look_back(PublishedTile t, unsigned tiles, unsigned* count,
                                          Status status, unsigned& tile_prefix) {
  lookback_tile(PublishedAggregatePrefix<Status, 1>{status, t.tile}, t.tile,
                static_cast<unsigned>(t.aggregate), tiles, count, tile_prefix);
}

// Warps 1.. hold the tile: they rank it, count the next one, stage it and write it out. Warp 0
// holds none of it: it claims tiles, refills the stages and looks back for the current tile while
// the others stage. (A block of one warp does all of it itself.)
template <int BLOCK, typename Status>
__global__ void __launch_bounds__(BLOCK)
    prefetch_compact(const int* __restrict__ in, int* __restrict__ out,
                     unsigned* __restrict__ count, std::size_t n, unsigned tiles, Status status,
                     unsigned* tile_counter) {
  using Ring = PrefetchRing<BLOCK>;
  using Turn = typename Ring::Turn;
  constexpr int VECS = Ring::Tile::kVecs;
  __shared__ PrefetchShared<BLOCK> shared;
  extern __shared__ int4 s_dynamic[]; // the ring's stages, then the staging buffer
  int* const stages = reinterpret_cast<int*>(s_dynamic);
  int* const staging = stages + kStages * Ring::Tile::kTile;

  if (threadIdx.x == 0) {
    shared.ring.start(stages, in, n, tiles, tile_counter);
    shared.warp_count[0] = 0; // warp 0's part of the tile: none (rewritten by a lone warp)
  }
  __syncthreads();
  int4 v[VECS];
  PublishedTile cur = publish_next_aggregate<BLOCK>(shared.ring, Turn(0), stages, in, n, tiles,
                                                    status, shared.reduce, CountOfVector{}, v);
  __syncthreads(); // warp 0 has read the reduction's storage
  for (unsigned k = 0;; ++k) {
    const Turn turn(k);
    unsigned next = 0;
    if (threadIdx.x == 0)
      next = atomicAdd(tile_counter, 1u);
    cur.tile = shared.ring.wait(turn);
    if (cur.tile >= tiles)
      return;
    unsigned rank[VECS];
    if (Ring::Tile::holds()) {
      Ring::read(stages, turn.stage, cur.tile, in, n, v);
      rank_tile<BLOCK, VECS>(v, rank, shared.warp_count);
    }
    // the next tile's count; its barrier makes the warp counts visible, frees the stage, and ends
    // the previous tile's reads of the staging buffer
    const PublishedTile ahead = publish_next_aggregate<BLOCK>(
        shared.ring, Turn(k + 1), stages, in, n, tiles, status, shared.reduce, CountOfVector{});
    if (threadIdx.x == 0)
      shared.ring.fill(stages, turn.stage, next, in, n, tiles);
    // the tile's count: warp 0 computed it a turn ago, as the next tile's
    unsigned tile_count = static_cast<unsigned>(cur.aggregate);
    if (Ring::Tile::holds())
      tile_count = stage_tile<BLOCK, VECS>(v, rank, shared.warp_count, staging);
    if (warp_id() == 0)
      look_back(PublishedTile{cur.tile, static_cast<int>(tile_count)}, tiles, count, status,
                shared.tile_prefix);
    __syncthreads();
    store_run<BLOCK>(out + shared.tile_prefix, staging, tile_count);
    cur = ahead;
  }
}

} // namespace

// Temporary storage: the tile counter and status words of common/lookback.cuh.
void compact_prefetch_lookback(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                               unsigned* count, std::size_t n, int block, cudaStream_t stream) {
  constexpr const char* kWho = "compact/prefetch_lookback";
  check_max_elements(n, kMaxElements, kWho, "the kept count is 32-bit");
  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    using Ring = PrefetchRing<BLOCK>;
    constexpr std::size_t kTile = Ring::Tile::kTile;
    TileStatusStorage status_words;
    if (single_pass_compact_begin(temp, temp_bytes, n, kTile, count, stream, status_words))
      return;
    const std::size_t tiles = status_words.tiles;
    // bulk copies of the input; the output is written through its 16-byte-aligned view
    // (store_run): any 4-byte alignment
    check_aligned(in, kBulkAlign, kWho, "input");
    constexpr int kSharedBytes =
        Ring::kStageBytes + static_cast<int>((kTile + kStagePad) * sizeof(int));
    with_tile_status_stride(status_words, [&](auto stride) {
      constexpr int kStride = decltype(stride)::value;
      const auto kernel = prefetch_compact<BLOCK, BasicTileStatus<kStride>>;
      static PerDevice<unsigned> resident;
      const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(
          resident_blocks(resident, kernel, BLOCK, kSharedBytes, kWho), tiles));
      unsigned* tile_counter = nullptr;
      const auto status = clear_tile_status<kStride>(status_words, stream, &tile_counter);
      kernel<<<grid, BLOCK, kSharedBytes, stream>>>(in, out, count, n, static_cast<unsigned>(tiles),
                                                    status, tile_counter);
      CUDA_CHECK_LAUNCH();
    });
  });
}

std::size_t prefetch_tile(int block) {
  std::size_t tile = 0;
  dispatch_block_size(block, [&](auto b) { tile = PrefetchTile<decltype(b)::value>::kTile; });
  return tile;
}

} // namespace gps::compact
