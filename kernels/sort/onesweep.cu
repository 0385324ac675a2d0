// onesweep: LSD radix sort with 8-bit digits in one kernel per pass (Adinets & Merrill 2022,
// "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs"; CUB's DeviceRadixSort on
// sm_70+). Up front, one kernel counts all four digit positions of every key (shared-memory atomics
// per block, then global atomics) and a tiny kernel scans each of the four 256-bin histograms: the
// global start of every digit in every pass. Then, per pass, one kernel in which each block:
//   1. takes the next tile index from an atomic counter (launch order, so the look-back below
//      only ever waits on running or finished tiles) and loads BLOCK x ITEMS keys, warp-striped;
//   2. ranks its keys by digit, stably: each warp walks its items in input order, finds the lanes
//      holding the same digit with a ballot-based match (warp-level multisplit) and bumps a
//      per-warp digit counter in shared memory; a block-wide scan over (digit, warp) turns the
//      counters into tile-local offsets;
//   3. publishes its 256 digit counts at once, then looks back per digit across the earlier tiles
//      (thread d walks digit d's status words serially until it meets an inclusive prefix; the
//      status is DigitTileStatus, 32-bit words) and publishes its inclusive prefix;
//   4. exchanges the keys (then the values) through shared memory into digit-sorted order and
//      writes them out with thread t taking sorted positions t, t + BLOCK, ...: the output index
//      is the digit's global start + its look-back prefix + the position within the digit, so
//      each digit's keys leave as one contiguous run.
// Change from block_local_4bit: 8-bit digits (4 passes instead of 8), no per-pass counting kernel
// or scan over a digit table (one histogram pass for all digits, and the per-tile offsets come
// from the decoupled look-back inside the sorting kernel), and the local sort is a single
// match-based ranking instead of four block-wide splits. Each pass reads and writes every key
// (and value) exactly once.
#include "common/block.cuh"
#include "common/cuda_check.hpp"
#include "common/lookback.cuh"
#include "sort/passes.hpp"
#include "sort/sort.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gps::sort {
namespace {

constexpr int kRadixBits = 8;
constexpr int kRadix = 1 << kRadixBits;
constexpr int kPasses = 32 / kRadixBits;
constexpr int kHistBlock = 256; // histogram kernel: threads per block and keys per thread
constexpr int kHistItems = 16;

// Tuning per block size: keys per thread, and the blocks per SM the registers are budgeted for
// (65536 registers / (BLOCK x MIN_BLOCKS) per thread). Both compile without spills for sm_90
// (checked with -Xptxas -v); 16 keys x 512 threads needs 96 registers, 64 spills.
template <int BLOCK> struct OnesweepPolicy;
template <> struct OnesweepPolicy<256> {
  static constexpr int kItems = 16;    // tile of 4096 keys
  static constexpr int kMinBlocks = 3; // <= 85 registers: 24 warps per SM
};
template <> struct OnesweepPolicy<512> {
  static constexpr int kItems = 12;    // tile of 6144 keys
  static constexpr int kMinBlocks = 2; // <= 64 registers: 32 warps per SM
};

// ---- up front: the four digit histograms, then their exclusive scans --------------------------

__global__ void __launch_bounds__(kHistBlock)
    onesweep_histogram(const unsigned* __restrict__ keys, std::size_t n,
                       unsigned* __restrict__ bins) {
  constexpr int kTile = kHistBlock * kHistItems;
  __shared__ unsigned s_bins[kPasses][kRadix];
  for (int i = threadIdx.x; i < kPasses * kRadix; i += kHistBlock) (&s_bins[0][0])[i] = 0;
  __syncthreads();
  for (std::size_t base = blockIdx.x * static_cast<std::size_t>(kTile); base < n;
       base += static_cast<std::size_t>(gridDim.x) * kTile) {
    unsigned k[kHistItems];
#pragma unroll
    for (int j = 0; j < kHistItems; ++j) { // all loads first, then the atomics
      const std::size_t i = base + j * kHistBlock + threadIdx.x;
      k[j] = i < n ? keys[i] : 0u;
    }
#pragma unroll
    for (int j = 0; j < kHistItems; ++j) {
      if (base + j * kHistBlock + threadIdx.x < n) {
#pragma unroll
        for (int p = 0; p < kPasses; ++p)
          atomicAdd(&s_bins[p][(k[j] >> (p * kRadixBits)) & (kRadix - 1)], 1u);
      }
    }
  }
  __syncthreads();
  for (int d = threadIdx.x; d < kRadix; d += kHistBlock)
#pragma unroll
    for (int p = 0; p < kPasses; ++p)
      if (const unsigned c = s_bins[p][d]) atomicAdd(&bins[p * kRadix + d], c);
}

// One block per pass: bins[pass][d] becomes the number of keys with a smaller digit.
__global__ void __launch_bounds__(kRadix) onesweep_scan_bins(unsigned* bins) {
  using Scan = BlockScan<kRadix>;
  __shared__ typename Scan::TempStorage s_scan;
  unsigned* b = bins + blockIdx.x * kRadix;
  int total = 0;
  const int count = static_cast<int>(b[threadIdx.x]);
  b[threadIdx.x] = static_cast<unsigned>(Scan::exclusive_sum(count, total, s_scan));
}

// ---- one pass ----------------------------------------------------------------------------------

template <int BLOCK, int ITEMS> struct OnesweepSmem {
  static constexpr int kWarps = BLOCK / kWarpSize;
  static constexpr int kTile = BLOCK * ITEMS;
  static_assert(kTile >= kWarps * kRadix, "the exchange buffer holds the ranking counters");
  static_assert(BLOCK >= kRadix, "one thread per digit for the scan and the look-back");
  union {
    unsigned exchange[kTile];        // keys, then values, in tile-sorted order
    unsigned counts[kWarps][kRadix]; // ranking: per-warp digit counters, then tile offsets
  };
  unsigned global_base[kRadix]; // output index of tile-sorted position 0, per digit (wrapping)
  typename BlockScan<BLOCK>::TempStorage scan;
  unsigned tile;
};

template <int BLOCK, int ITEMS, bool PAIRS>
__global__ void __launch_bounds__(BLOCK, OnesweepPolicy<BLOCK>::kMinBlocks)
    onesweep_pass(const unsigned* __restrict__ keys_in, unsigned* __restrict__ keys_out,
                  const unsigned* __restrict__ vals_in, unsigned* __restrict__ vals_out, unsigned n,
                  int shift, const unsigned* __restrict__ digit_starts,
                  DigitTileStatus<kRadix> status, unsigned* __restrict__ tile_counter) {
  using Smem = OnesweepSmem<BLOCK, ITEMS>;
  constexpr int kWarps = Smem::kWarps;
  constexpr int kTile = Smem::kTile;
  constexpr int kWarpItems = kWarpSize * ITEMS;
  __shared__ Smem s;
  const int lane = lane_id(), warp = warp_id();
  const auto digit_of = [shift](unsigned key) { return (key >> shift) & (kRadix - 1); };

  // tile index in launch order; clear the ranking counters
  if (threadIdx.x == 0) s.tile = atomicAdd(tile_counter, 1u);
  for (int i = threadIdx.x; i < kWarps * kRadix; i += BLOCK) (&s.counts[0][0])[i] = 0;
  __syncthreads();
  const unsigned tile = s.tile;
  const unsigned tile_base = tile * kTile; // < n + kTile < 2^32 (n < 2^31 is checked)
  const unsigned valid = min(n - tile_base, static_cast<unsigned>(kTile));
  const bool full = valid == kTile;

  // load, warp-striped: warp w owns tile positions [w * kWarpItems, (w + 1) * kWarpItems) and its
  // item j in lane l is position w * kWarpItems + j * 32 + l, so every load is one coalesced
  // 128-byte line and (warp, item, lane) order is input order, which the stable ranking relies
  // on. Missing keys of the last tile are ~0u: digit 255 in every pass and last in input order, so
  // they rank behind every real key, at sorted positions >= valid, and are never written.
  const unsigned first = warp * kWarpItems + lane; // tile position of item 0
  unsigned keys[ITEMS];
  if (full) {
    // one base pointer, so that the ITEMS loads use immediate offsets
    const unsigned* src = keys_in + (tile_base + first);
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) keys[j] = src[j * kWarpSize];
  } else {
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
      const unsigned pos = first + j * kWarpSize;
      keys[j] = pos < valid ? keys_in[tile_base + pos] : ~0u;
    }
  }

  // rank within the warp: item by item, the lanes sharing a digit (peers) take consecutive ranks
  // after the warp's earlier keys of that digit; the lowest peer bumps the counter
  unsigned ranks[ITEMS];
  {
    unsigned* counters = s.counts[warp];
    const unsigned below = lane_mask_lt();
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
      const unsigned digit = digit_of(keys[j]);
      const unsigned peers = match_any_bits<kRadixBits>(digit);
      const unsigned earlier = counters[digit];
      const unsigned rank_in_peers = __popc(peers & below);
      __syncwarp();
      if (rank_in_peers == 0) counters[digit] = earlier + __popc(peers);
      __syncwarp();
      ranks[j] = earlier + rank_in_peers;
    }
  }
  __syncthreads();

  // tile totals per digit (thread d owns digit d): turn the warp counters into an exclusive scan
  // over warps, and publish the count at once so that later tiles can look back past this one
  unsigned digit_count = 0; // this tile's keys of digit d, missing keys included
  unsigned real_count = 0;  // without the missing keys (all of digit 255, in the last tile)
  if (threadIdx.x < kRadix) {
    const int d = threadIdx.x;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      const unsigned c = s.counts[w][d];
      s.counts[w][d] = digit_count;
      digit_count += c;
    }
    real_count = digit_count - (d == kRadix - 1 ? kTile - valid : 0u);
    status.publish(tile, d, tile == 0, real_count);
  }
  // tile-local start of each digit (sorted order is digit-major, then warp, then rank)
  int unused = 0;
  const auto digit_start = static_cast<unsigned>(
      BlockScan<BLOCK>::exclusive_sum(static_cast<int>(digit_count), unused, s.scan));
  if (threadIdx.x < kRadix) {
#pragma unroll
    for (int w = 0; w < kWarps; ++w) s.counts[w][threadIdx.x] += digit_start;
  }
  __syncthreads();
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) ranks[j] += s.counts[warp][digit_of(keys[j])];
  __syncthreads(); // the counters are read: their memory becomes the exchange buffer

  // exchange: keys to their tile-sorted positions (a permutation of 0..kTile-1)
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) s.exchange[ranks[j]] = keys[j];

  // look-back per digit: keys of digit d in all earlier tiles
  if (threadIdx.x < kRadix) {
    const int d = threadIdx.x;
    unsigned earlier = 0;
    if (tile > 0) {
      earlier = status.exclusive_prefix(tile, d);
      status.publish(tile, d, true, earlier + real_count);
    }
    // output index of sorted position p of digit d = start of d + earlier + (p - digit_start)
    s.global_base[d] = digit_starts[d] + earlier - digit_start;
  }
  __syncthreads();

  // scatter keys: thread t writes sorted positions t, t + BLOCK, ...; within a digit consecutive
  // positions go to consecutive addresses
  // the digits of the positions this thread writes, 8 bits each, for the values
  unsigned digits[(ITEMS + 3) / 4] = {};
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const unsigned pos = j * BLOCK + threadIdx.x;
    const unsigned key = s.exchange[pos];
    const unsigned d = digit_of(key);
    if constexpr (PAIRS) digits[j / 4] |= d << (8 * (j % 4));
    if (full || pos < valid) keys_out[s.global_base[d] + pos] = key;
  }

  if constexpr (PAIRS) {
    // values: same load pattern, same ranks, same destinations
    unsigned vals[ITEMS];
    if (full) {
      const unsigned* src = vals_in + (tile_base + first);
#pragma unroll
      for (int j = 0; j < ITEMS; ++j) vals[j] = src[j * kWarpSize];
    } else {
#pragma unroll
      for (int j = 0; j < ITEMS; ++j) {
        const unsigned pos = first + j * kWarpSize;
        vals[j] = pos < valid ? vals_in[tile_base + pos] : 0u;
      }
    }
    __syncthreads(); // every key is read out of the exchange buffer
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) s.exchange[ranks[j]] = vals[j];
    __syncthreads();
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
      const unsigned pos = j * BLOCK + threadIdx.x;
      const unsigned d = (digits[j / 4] >> (8 * (j % 4))) & (kRadix - 1);
      if (full || pos < valid) vals_out[s.global_base[d] + pos] = s.exchange[pos];
    }
  }
}

int sm_count() {
  int device = 0, sms = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
}

template <int BLOCK, bool PAIRS>
void onesweep_launch(const unsigned* keys_in, unsigned* keys_out, const unsigned* vals_in,
                     unsigned* vals_out, std::size_t n, Workspace& ws, cudaStream_t stream) {
  constexpr int ITEMS = OnesweepPolicy<BLOCK>::kItems;
  constexpr std::size_t kTile = static_cast<std::size_t>(BLOCK) * ITEMS;
  const std::size_t tiles = (n + kTile - 1) / kTile;
  // workspace: pass counters + histograms (one memset), the status of one pass (cleared before
  // each pass and reused, so it stays small enough for L2), temporary keys (and values)
  constexpr std::size_t kHeader = kPasses + kPasses * kRadix;
  Carver sizing;
  sizing.take<unsigned>(kHeader);
  sizing.take<unsigned>(tiles * kRadix);
  sizing.take<unsigned>(n);
  sizing.take<unsigned>(PAIRS ? n : 0);
  Carver carve(ws.reserve(sizing.bytes()));
  unsigned* header = carve.take<unsigned>(kHeader);
  unsigned* counters = header;       // one tile counter per pass
  unsigned* bins = header + kPasses; // [pass][digit]
  unsigned* status = carve.take<unsigned>(tiles * kRadix);
  unsigned* keys_tmp = carve.take<unsigned>(n);
  unsigned* vals_tmp = carve.take<unsigned>(PAIRS ? n : 0);

  // histograms of all four digits, then their exclusive scans
  CUDA_CHECK(cudaMemsetAsync(header, 0, kHeader * sizeof(unsigned), stream));
  const std::size_t hist_tiles = (n + kHistBlock * kHistItems - 1) / (kHistBlock * kHistItems);
  const auto hist_grid = static_cast<unsigned>(
      std::min<std::size_t>(hist_tiles, 4 * static_cast<std::size_t>(sm_count())));
  onesweep_histogram<<<hist_grid, kHistBlock, 0, stream>>>(keys_in, n, bins);
  CUDA_CHECK_LAUNCH();
  onesweep_scan_bins<<<kPasses, kRadix, 0, stream>>>(bins);
  CUDA_CHECK_LAUNCH();

  for (int pass = 0; pass < kPasses; ++pass) {
    const auto p = detail::pass_buffers(pass, kPasses, keys_in, keys_out, keys_tmp, vals_in,
                                        vals_out, vals_tmp);
    CUDA_CHECK(cudaMemsetAsync(status, 0, tiles * kRadix * sizeof(unsigned), stream));
    onesweep_pass<BLOCK, ITEMS, PAIRS><<<static_cast<unsigned>(tiles), BLOCK, 0, stream>>>(
        p.keys_src, p.keys_dst, p.vals_src, p.vals_dst, static_cast<unsigned>(n), pass * kRadixBits,
        bins + pass * kRadix, DigitTileStatus<kRadix>{status}, counters + pass);
    CUDA_CHECK_LAUNCH();
  }
}

template <int BLOCK>
void onesweep_dispatch(const unsigned* keys_in, unsigned* keys_out, const unsigned* vals_in,
                       unsigned* vals_out, std::size_t n, Workspace& ws, cudaStream_t stream) {
  if (vals_in)
    onesweep_launch<BLOCK, true>(keys_in, keys_out, vals_in, vals_out, n, ws, stream);
  else
    onesweep_launch<BLOCK, false>(keys_in, keys_out, nullptr, nullptr, n, ws, stream);
}

} // namespace

std::size_t onesweep_tile(int block) {
  switch (block) {
  case 256: return 256 * OnesweepPolicy<256>::kItems;
  case 512: return 512 * OnesweepPolicy<512>::kItems;
  default: return 0;
  }
}

void sort_onesweep(const unsigned* keys_in, unsigned* keys_out, const unsigned* vals_in,
                   unsigned* vals_out, std::size_t n, int block, Workspace& ws,
                   cudaStream_t stream) {
  if (n == 0) return;
  // status words hold counts + 1 below bit 31, and tile positions are 32-bit
  if (n >= (std::size_t{1} << 31) - 1)
    throw std::invalid_argument("onesweep: n must be below 2^31 - 1");
  switch (block) {
  case 256: onesweep_dispatch<256>(keys_in, keys_out, vals_in, vals_out, n, ws, stream); break;
  case 512: onesweep_dispatch<512>(keys_in, keys_out, vals_in, vals_out, n, ws, stream); break;
  default:
    throw std::invalid_argument("onesweep: unsupported block size " + std::to_string(block) +
                                " (256 or 512)");
  }
}

} // namespace gps::sort
