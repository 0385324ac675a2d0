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
// Built from the common layers: the warp-striped tile and its loads (common/tile_io.cuh: warp w
// owns kWarpItems contiguous elements; each of its VECS int4 loads covers 128 contiguous elements,
// lane l taking elements 4l..4l+3, so a lane's kept elements precede those of lane l+1 within a
// 128-element chunk and a packed warp scan gives the ranks), the warp-totals scan
// (common/block.cuh) and the look-back (common/lookback.cuh: LookbackPrefix); the steps of one tile
// are in compact/tile_steps.cuh (shared with prefetch_lookback).
#include "common/arguments.hpp"
#include "common/block.cuh"
#include "common/cuda_check.hpp"
#include "common/lookback.cuh"
#include "common/occupancy.hpp"
#include "common/temp_storage.hpp"
#include "common/tile_io.cuh"
#include "common/warp.cuh"
#include "compact/compact.hpp"
#include "compact/tile_steps.cuh"

#include <cstdint>

namespace gps::compact {
namespace {

// int4 vectors per thread: 16 (64 items) up to 256 threads, then fewer, so that a tile is at most
// 16384 elements and its staging buffer at most 64 KiB of shared memory (two blocks per SM).
// What was measured on an H200 at 2^28, keep 0.5 (x copy bandwidth, best block; CUB 0.64 in the
// same runs, differences under 0.02 are noise between runs):
//   32 items per thread, tiles up to 8192 (the first version)                          0.62
//   this layout, tiles up to 16384 (best at 512 threads x 32 items)                    0.64-0.65
//   scan's layout, tiles of 32768 (one block per SM)                                   0.64
//   each warp stores its own run with aligned 16-byte stores (no second barrier)       0.63
//   persistent blocks that load the next tile during the look-back and the store       0.49
//   a 100 or 400 ns back-off in the look-back's polling                                no change
// At keep 1.0 this kernel reaches 0.67-0.69 and CUB 0.72; at keep 0, 0.62-0.64 against CUB's 0.55.
// In the H200 run of 4ff90fa (git show 4ff90fa:results/nvidia-h200.json): 2727 GB/s at 2^28 (0.647x
// copy, 1.01x CUB), 1.27x CUB at 2^20; against the kept fraction at 2^28: keep 0 0.637x (1.15x
// CUB), keep 1.0 0.681x (0.94x CUB). (2026-11-22) the ranks by packed warp scans and the run
// written as 16-byte vectors, both found for prefetch_lookback (predicted: keep 0.50 at 2^28, block
// 512, 586 -> 490-530 us; at 2^20 keep 1.0 11.1 -> 10-10.5 us). Measured (one H200, A-B-A builds, 5
// repetitions each): 2^28 596 -> 579 us at block 512, 598 -> 560 at 128, 748 -> 581 at 1024;
// 2^24 46.4 -> 44.5 us (512); 2^20 at block 512: keep 0 8.32 -> 7.58, keep 0.50 9.50 -> 8.35, keep
// 0.75 10.1 -> 8.67, keep 1.0 10.9 -> 9.34 us (CUB 8.9-9.5). Kept: less than predicted at 2^28,
// where the look-back a block waits on sets its pace; at 2^20 the fastest compaction here at every
// kept fraction (1.02-1.18x CUB).
constexpr int compact_vecs(int block) {
  return 4096 / block < 16 ? 4096 / block : 16;
}

template <int BLOCK> using CompactTile = WarpStripedTile<BLOCK, compact_vecs(BLOCK)>;

// (2026-11-24) Each tile's status word in a 32-byte sector of its own (common/lookback.cuh's
// kTileStatusStride, measured there): keep 0.50 at 2^28 -12.5..-13.1% on the H100 and
// -15.3..-17.1% on the H200; the H200 partial run of 40e61dffd4f5
// (results/partial/nvidia-h200-status-stride.json): 474.5 us at 2^28 (block 128), 0.801x copy,
// 1.265x CUB (the headline run of 82d4281d9b00: 0.678x, 1.070x). A status-word layout, not a
// polling back-off (above: no change), was what the look-back had been waiting on. The headline
// runs of e81b104b31dc (that commit's headline files, in the history; 5 repetitions), 2^28
// block 128: H100 592.5 us = 0.903x copy [0.902-0.904], 1.186x CUB; H200 469.0 us = 0.806x
// [0.802-0.809], 1.260x CUB. Below 512 tiles (2^21 and less at block 128) the words are packed one
// a tile again (twentieth session: stride 4 had cost up to 10% there; lookback.cuh). Those of
// 4d7b3277ad59 (that commit's headline files, in the history): H100 592.7 us = 0.906x copy
// [0.904-0.906], 1.177x CUB; H200 475.4 us = 0.800x [0.794-0.802], 1.260x CUB. Those of
// a4783e314b19 (the same kernel; results/partial/nvidia-{h100,h200}-headline.json): H100 592.4 us
// = 0.904x copy [0.902-0.907], 1.182x CUB; H200 469.9 us = 0.804x [0.803-0.807], 1.258x CUB.

// ---- the steps of one tile
// -------------------------------------------------------------------------

// The tile at index `tile` into registers (zeros past n: they are not kept).
template <int BLOCK, int VECS>
__device__ __forceinline__ void load_tile(const int* in, std::size_t n, unsigned tile,
                                          int4 (&v)[VECS]) {
  using Tile = WarpStripedTile<BLOCK, VECS>;
  const std::size_t base = static_cast<std::size_t>(tile) * Tile::kTile;
  Tile::load(in, base, n, base + Tile::kTile <= n, v);
}

// ---- one tile per block
// ----------------------------------------------------------------------------

template <int BLOCK, int VECS, typename Status>
__global__ void __launch_bounds__(BLOCK)
    single_pass_compact(const int* __restrict__ in, int* __restrict__ out,
                        unsigned* __restrict__ count, std::size_t n, unsigned tiles, Status status,
                        unsigned* tile_counter) {
  __shared__ CompactShared<BLOCK> shared;
  extern __shared__ int4 s_dynamic[]; // the staging buffer: one tile
  int* const stage = reinterpret_cast<int*>(s_dynamic);

  const unsigned tile = next_tile_index(tile_counter, shared.tile);
  int4 v[VECS];
  load_tile<BLOCK, VECS>(in, n, tile, v);
  unsigned rank[VECS];
  rank_tile<BLOCK, VECS>(v, rank, shared.warp_count);
  __syncthreads();
  // warp 0 looks back while the other warps stage
  const unsigned tile_count = stage_tile<BLOCK, VECS>(v, rank, shared.warp_count, stage);
  if (warp_id() == 0)
    lookback_tile(LookbackPrefix<Status, 1>{status, tile}, tile, tile_count, tiles, count,
                  shared.tile_prefix);
  __syncthreads();
  store_run<BLOCK>(out + shared.tile_prefix, stage, tile_count);
}

// ---- host side
// ---------------------------------------------------------------------------------------

} // namespace

// Temporary storage: the tile counter and status words of common/lookback.cuh.
void compact_single_pass(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                         unsigned* count, std::size_t n, int block, cudaStream_t stream) {
  check_max_elements(n, kMaxElements, "compact/single_pass", "the kept count is 32-bit");
  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    constexpr int VECS = compact_vecs(BLOCK);
    constexpr std::size_t kTile = CompactTile<BLOCK>::kTile;
    constexpr int kStageBytes = static_cast<int>((kTile + kStagePad) * sizeof(int));
    TileStatusStorage status_words;
    if (single_pass_compact_begin(temp, temp_bytes, n, kTile, count, stream, status_words))
      return;
    const std::size_t tiles = status_words.tiles;
    // int4 loads of the input; the output is written through its 16-byte-aligned view (store_run):
    // any 4-byte alignment
    check_aligned(in, kVectorAlign, "compact/single_pass", "input");
    with_tile_status_stride(status_words, [&](auto stride) {
      constexpr int kStride = decltype(stride)::value;
      using Status = BasicTileStatus<kStride>;
      opt_in_shared<single_pass_compact<BLOCK, VECS, Status>>(kStageBytes); // above 48 KiB
      unsigned* tile_counter = nullptr;
      const Status status = clear_tile_status<kStride>(status_words, stream, &tile_counter);
      single_pass_compact<BLOCK, VECS, Status>
          <<<static_cast<unsigned>(tiles), BLOCK, kStageBytes, stream>>>(
              in, out, count, n, static_cast<unsigned>(tiles), status, tile_counter);
      CUDA_CHECK_LAUNCH();
    });
  });
}

std::size_t single_pass_tile(int block) {
  std::size_t tile = 0;
  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    tile = CompactTile<BLOCK>::kTile;
  });
  return tile;
}

} // namespace gps::compact
