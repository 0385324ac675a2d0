// The prefetching single-pass machinery (scan/prefetch_lookback, compact/prefetch_lookback): a
// persistent block owns a ring of STAGES tile buffers in shared memory, which one thread fills
// with Hopper's bulk copies (common/bulk_copy.cuh) of the tiles it claims from the atomic tile
// counter, so that bytes stay in flight, without holding registers, while the block looks back
// for its current tile. Tiles are in the warp-striped layout of common/tile_io.cuh, in shared
// memory as in global memory.
//
// The protocol (CUB's decoupled look-back, common/lookback.cuh, with the aggregate moved one tile
// earlier): before it looks back for its k-th tile, a block publishes the aggregate of its (k+1)-th
// tile (publish_next_aggregate). A tile's predecessors have then published by the time it looks
// back, however far behind their blocks are; without this the look-backs of all blocks chain into
// one (a block's queued tiles wait behind its current look-back, and the tiles they precede wait
// on them), which measured 0.43-0.46x of copy instead of 0.84x (scan, H200, 2^28).
//
// Progress: a block works through its claimed tiles in claim order and claims grow, so the lowest
// tile whose look-back waits only waits on lower tiles, whose blocks are not waiting on a
// look-back (theirs would be lower still) and so reach the point where they publish.
#pragma once

#include "common/block.cuh"
#include "common/bulk_copy.cuh"
#include "common/cuda_check.hpp"
#include "common/lookback.cuh"
#include "common/occupancy.hpp"
#include "common/per_device.hpp"
#include "common/tile_io.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace gps {

// The k-th tile of a block: its stage in the ring and the parity of the stage's barrier phase
// that brings it.
template <int STAGES> struct RingTurn {
  int stage;
  unsigned parity;
  __device__ __forceinline__ explicit RingTurn(unsigned k)
      : stage(static_cast<int>(k % STAGES)), parity((k / STAGES) & 1u) {}
};

// The ring's bookkeeping, in static shared memory; the stages themselves are the kernel's dynamic
// shared memory (STAGES * Tile::kTile ints), passed to each call.
template <typename TileT, int STAGES> struct TileRing {
  using Tile = TileT;
  static constexpr int kStages = STAGES;
  static constexpr int kStageBytes = static_cast<int>(STAGES * Tile::kTile * sizeof(int));
  static_assert(Tile::kTile * sizeof(int) <= kBulkMaxPhaseBytes, "a tile is one barrier phase");
  using Turn = RingTurn<STAGES>;

  SharedBarrier full[STAGES]; // phase k of stage s completes when its k-th tile has landed
  unsigned tile[STAGES];      // the tile index each stage holds (>= tiles: none, the block stops)

  // Thread 0 (the other threads wait at a barrier after): the barriers, then one claimed tile per
  // stage.
  __device__ __forceinline__ void start(int* stages, const int* in, std::size_t n, unsigned tiles,
                                        unsigned* tile_counter) {
    for (int s = 0; s < STAGES; ++s)
      full[s].init(1);
    for (int s = 0; s < STAGES; ++s)
      fill(stages, s, atomicAdd(tile_counter, 1u), in, n, tiles);
  }

  // Thread 0, once every thread is done with stage `s`: the stage will hold tile `tile`. A full
  // tile is bulk-copied; a partial or past-the-end tile has nothing to copy (the partial one is
  // read from global memory when its turn comes).
  __device__ __forceinline__ void fill(int* stages, int s, unsigned tile_index, const int* in,
                                       std::size_t n, unsigned tiles) {
    fence_proxy_async_shared(); // the block's accesses to the stage come before the copy
    tile[s] = tile_index;
    const std::size_t base = static_cast<std::size_t>(tile_index) * Tile::kTile;
    if (tile_index < tiles && base + Tile::kTile <= n) {
      constexpr unsigned kBytes = Tile::kTile * sizeof(int);
      full[s].arrive_expect_tx(kBytes);
      bulk_load_evict_first(stages + s * Tile::kTile, in + base, kBytes, full[s]);
    } else {
      full[s].arrive(); // publishes tile[s] with the phase
    }
  }

  // Every thread: waits for the turn's tile and returns its index (>= tiles: none).
  __device__ __forceinline__ unsigned wait(Turn turn) {
    full[turn.stage].wait(turn.parity);
    return tile[turn.stage];
  }

  static __device__ __forceinline__ std::size_t base(unsigned tile_index) {
    return static_cast<std::size_t>(tile_index) * Tile::kTile;
  }
  static __device__ __forceinline__ bool is_full(unsigned tile_index, std::size_t n) {
    return base(tile_index) + Tile::kTile <= n;
  }

  // This thread's vectors of the landed tile in stage `s`: from shared memory for a full tile,
  // bounds-checked from global memory (zeros past n) for the partial one.
  static __device__ __forceinline__ void read(const int* stages, int s, unsigned tile_index,
                                              const int* in, std::size_t n,
                                              int4 (&v)[Tile::kVecs]) {
    if (is_full(tile_index, n)) {
      const int4* stage = reinterpret_cast<const int4*>(stages + s * Tile::kTile);
#pragma unroll
      for (int j = 0; j < Tile::kVecs; ++j)
        v[j] = stage[Tile::vector_slot(j)];
    } else {
      Tile::load_partial(in, base(tile_index), n, v);
    }
  }
};

// A tile whose aggregate publish_next_aggregate published: its index (>= tiles: none; the same in
// every thread) and its aggregate (in warp 0 only).
struct PublishedTile {
  unsigned tile;
  int aggregate;
};

// Every thread of the block: waits for the turn's tile (the block's next one), reads it into v and
// publishes its aggregate, the sum of per_vector(v) over its vectors (tile 0: as its inclusive
// prefix). Holds one barrier, which callers may count on (all threads are past their earlier
// accesses to shared memory, this stage's reads included). Past the end, v is left unset.
template <int BLOCK, typename Ring, typename Status, typename PerVector>
__device__ __forceinline__ PublishedTile publish_next_aggregate(
    Ring& ring, typename Ring::Turn turn, const int* stages, const int* in, std::size_t n,
    unsigned tiles, Status status, typename BlockReduce<BLOCK>::TempStorage& tmp,
    PerVector per_vector, int4 (&v)[Ring::Tile::kVecs]) {
  const unsigned tile = ring.wait(turn);
  if (tile >= tiles) { // the same in every thread
    __syncthreads();
    return {tile, 0};
  }
  int sum = 0;
  if (Ring::Tile::holds()) {
    Ring::read(stages, turn.stage, tile, in, n, v);
#pragma unroll
    for (int j = 0; j < Ring::Tile::kVecs; ++j)
      sum += per_vector(v[j]);
  }
  const int aggregate = BlockReduce<BLOCK>::sum(sum, tmp);
  if (threadIdx.x == 0)
    status.publish(tile, tile == 0 ? kTilePrefix : kTileAggregate,
                   static_cast<unsigned>(aggregate));
  return {tile, aggregate};
}
// The same, the tile's values not kept.
template <int BLOCK, typename Ring, typename Status, typename PerVector>
__device__ __forceinline__ PublishedTile
publish_next_aggregate(Ring& ring, typename Ring::Turn turn, const int* stages, const int* in,
                       std::size_t n, unsigned tiles, Status status,
                       typename BlockReduce<BLOCK>::TempStorage& tmp, PerVector per_vector) {
  int4 v[Ring::Tile::kVecs];
  return publish_next_aggregate<BLOCK>(ring, turn, stages, in, n, tiles, status, tmp, per_vector,
                                       v);
}

// Every thread, at the kernel's start: thread 0 starts the ring, then the block publishes the
// aggregate of its first tile.
template <int BLOCK, typename Ring, typename Status, typename PerVector>
__device__ __forceinline__ void start_ring(Ring& ring, int* stages, const int* in, std::size_t n,
                                           unsigned tiles, unsigned* tile_counter, Status status,
                                           typename BlockReduce<BLOCK>::TempStorage& tmp,
                                           PerVector per_vector) {
  if (threadIdx.x == 0)
    ring.start(stages, in, n, tiles, tile_counter);
  __syncthreads();
  publish_next_aggregate<BLOCK>(ring, typename Ring::Turn(0), stages, in, n, tiles, status, tmp,
                                per_vector);
  __syncthreads(); // warp 0 has read the reduction's storage
}

// Every thread, at the start of the block's k-th turn: thread 0 claims the tile that will refill
// this turn's stage (into `next`; the atomic's latency hides behind the turn), and every thread
// waits for the turn's tile, whose aggregate is published already. Returns its index; >= tiles:
// the block is done (claims only grow, so every later stage is past the end too, with no copy
// pending).
template <typename Ring>
__device__ __forceinline__ unsigned begin_turn(Ring& ring, typename Ring::Turn turn,
                                               unsigned* tile_counter, unsigned& next) {
  next = 0;
  if (threadIdx.x == 0)
    next = atomicAdd(tile_counter, 1u);
  return ring.wait(turn);
}

// Every thread: the block's turns, until its claims pass the end. Each turn begins as begin_turn
// says, reads the turn's tile from its stage (or, the partial tile, from global memory) into v, and
// calls body(k, turn, tile, next, v): k counts the block's turns, `next` is the claim that refills
// the turn's stage (thread 0; 0 elsewhere).
template <typename Ring, typename Body>
__device__ __forceinline__ void for_each_turn(Ring& ring, const int* stages, const int* in,
                                              std::size_t n, unsigned tiles, unsigned* tile_counter,
                                              Body&& body) {
  for (unsigned k = 0;; ++k) {
    const typename Ring::Turn turn(k);
    unsigned next;
    const unsigned tile = begin_turn(ring, turn, tile_counter, next);
    if (tile >= tiles)
      return;
    int4 v[Ring::Tile::kVecs];
    Ring::read(stages, turn.stage, tile, in, n, v);
    body(k, turn, tile, next, v);
  }
}

// Host side: the persistent grid, as many blocks of `kernel` as fit on the device at once with
// `stage_bytes` of dynamic shared memory (opted in above 48 KiB), per device; throws on a device
// without the bulk copy engine. `who` names the variant in errors. GPS_PERSISTENT_BLOCKS=N (a test
// setting, read once per kernel and device) caps the grid at N blocks, so that small inputs, as
// compute-sanitizer runs them, still give each block several turns.
template <typename Kernel>
unsigned resident_blocks(PerDevice<unsigned>& cache, Kernel kernel, int block, int stage_bytes,
                         const char* who) {
  return cache.get([&](int device) {
    // checked once per device here, not on every call (the call is timed)
    if (!supports_bulk_copy())
      throw std::runtime_error(std::string(who) + " needs the bulk copy engine (sm_90 or newer)");
    unsigned blocks = resident_block_count(kernel, block, stage_bytes, device, who);
    if (const char* cap = std::getenv("GPS_PERSISTENT_BLOCKS")) {
      const unsigned long value = std::strtoul(cap, nullptr, 10);
      if (value == 0)
        throw std::invalid_argument(std::string("GPS_PERSISTENT_BLOCKS must be a positive "
                                                "number of blocks, not '") +
                                    cap + "'");
      blocks = static_cast<unsigned>(std::min<unsigned long>(blocks, value));
    }
    return blocks;
  });
}

} // namespace gps
