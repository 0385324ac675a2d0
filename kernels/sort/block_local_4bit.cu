// block_local_4bit: LSD radix sort with 4-bit digits (8 passes) whose scatter is staged through a
// block-local sort (Satish, Harris & Garland 2009, "Designing Efficient Sorting Algorithms for
// Manycore GPUs"). Per pass:
//   1. counts: every block counts the 16 digits of its tile (4 keys per thread) and writes them to
//      a digit-major table counts[digit][tile];
//   2. scan: the in-house exclusive scan (by name, default decoupled_lookback) over that table
//      gives offsets[digit][tile], where the tile's keys of that digit go in the output;
//   3. local sort + scatter: every block reloads its tile into shared memory, sorts it by the
//      digit with four stable 1-bit splits (a BlockScan of per-thread zero counts each), and
//      writes sorted position s to offsets[digit][tile] + s - (start of the digit in the tile):
//      consecutive threads write consecutive addresses within each digit's run.
// Change from split_1bit: 4 bits per pass instead of 1, so 8 passes instead of 32, and a scan over
// 16 counts per tile instead of one flag per key; the split happens in shared memory, and the
// locally sorted tile turns the scatter into runs of one digit. Satish et al. store the locally
// sorted tile between kernels 1 and 3; here kernel 3 redoes the local sort from the input instead
// (Merrill & Grimshaw's upsweep/downsweep order), which reads the keys twice instead of a read, a
// write and a read.
// Limits: n < 2^32: the digit offsets are 32-bit (the int scan's wrapping sums, read back as
// unsigned; the digit table then has at most 2^28 entries, well within the int scan). Any
// 4-byte-aligned pointers: the global loads and stores are scalar (the 16-byte accesses are to
// shared memory only).
// Measured (H200, git show 4ff90fa:results/nvidia-h200.json), G keys/s, uniform keys: at
// 2^24 by block 64: 11.9, 128: 13.6, 256: 13.6, 512: 13.0, 1024: 12.3; at 2^28 15.1 keys, 11.9
// pairs (block 256), 0.36x CUB, 4.4x split_1bit.
// int32 and float32 keys: every bit and digit is read from the key after sort.hpp's KeyOrder
// transform; the keys move unchanged.
#include "common/block.cuh"
#include "common/cuda_check.hpp"
#include "sort/passes.hpp"
#include "sort/sort.hpp"

#include <stdexcept>

namespace gps::sort {
namespace {

constexpr int kBits = 4;
constexpr int kDigits = 1 << kBits;
constexpr int kPasses = 32 / kBits;
constexpr int kItems = 4; // keys per thread: one 16-byte shared-memory access per split round

template <int BLOCK, KeyType KT>
__global__ void __launch_bounds__(BLOCK)
    tile_digit_counts(const unsigned* __restrict__ keys, int* __restrict__ counts, std::size_t n,
                      std::size_t tiles, int shift) {
  constexpr KeyOrder order = key_order(KT);
  constexpr int kTile = BLOCK * kItems;
  __shared__ unsigned s_count[kDigits];
  if (threadIdx.x < kDigits)
    s_count[threadIdx.x] = 0;
  __syncthreads();
  const std::size_t base = blockIdx.x * static_cast<std::size_t>(kTile);
  const unsigned below = lane_mask_lt();
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const std::size_t i = base + j * BLOCK + threadIdx.x;
    // kDigits marks "no key" (past the end); warp-aggregated: one shared atomic per digit present
    const unsigned digit = i < n ? (order(keys[i]) >> shift) & (kDigits - 1) : kDigits;
    const unsigned peers = match_any_bits<kBits + 1>(digit);
    if (digit < kDigits && (peers & below) == 0)
      atomicAdd(&s_count[digit], __popc(peers));
  }
  __syncthreads();
  if (threadIdx.x < kDigits)
    counts[threadIdx.x * tiles + blockIdx.x] = static_cast<int>(s_count[threadIdx.x]);
}

template <int BLOCK, bool PAIRS, KeyType KT>
__global__ void __launch_bounds__(BLOCK)
    local_sort_scatter(const unsigned* __restrict__ keys_in, unsigned* __restrict__ keys_out,
                       const unsigned* __restrict__ vals_in, unsigned* __restrict__ vals_out,
                       const int* __restrict__ counts, const int* __restrict__ offsets,
                       std::size_t n, std::size_t tiles, int shift) {
  constexpr KeyOrder order = key_order(KT);
  constexpr int kTile = BLOCK * kItems;
  using Scan = BlockScan<BLOCK>;
  __shared__ __align__(16) unsigned s_keys[kTile];
  __shared__ __align__(16) unsigned s_vals[PAIRS ? kTile : kItems];
  __shared__ typename Scan::TempStorage s_scan;
  __shared__ unsigned s_start[kDigits]; // first tile-sorted position of each digit
  __shared__ unsigned s_dest[kDigits];  // output index of that position

  const std::size_t tile = blockIdx.x;
  const std::size_t base = tile * kTile;
  const auto valid = static_cast<unsigned>(n - base < kTile ? n - base : kTile);

  // load, striped (coalesced). Missing keys order last (digit 15 in every pass, last in tile
  // order), so the stable local sort keeps them behind every real key, at positions >= valid.
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const unsigned i = j * BLOCK + threadIdx.x;
    s_keys[i] = i < valid ? keys_in[base + i] : order.largest();
    if constexpr (PAIRS)
      s_vals[i] = i < valid ? vals_in[base + i] : 0u;
  }
  if (threadIdx.x < kDigits) {
    const std::size_t at = threadIdx.x * tiles + tile;
    s_start[threadIdx.x] = static_cast<unsigned>(counts[at]);
    s_dest[threadIdx.x] = static_cast<unsigned>(offsets[at]);
  }
  __syncthreads();
  // digit starts within the sorted tile: exclusive sum of the 16 counts (read after the barriers
  // of the split rounds below)
  if (threadIdx.x == 0) {
    unsigned running = 0;
    for (int d = 0; d < kDigits; ++d) {
      const unsigned c = s_start[d];
      s_start[d] = running;
      running += c;
    }
  }

  // local sort: four stable 1-bit splits over the blocked arrangement (thread t holds tile
  // positions 4t..4t+3)
  for (int round = 0; round < kBits; ++round) {
    const int bit = shift + round;
    const uint4 k4 = reinterpret_cast<const uint4*>(s_keys)[threadIdx.x];
    const unsigned k[kItems] = {k4.x, k4.y, k4.z, k4.w};
    unsigned v[kItems] = {};
    if constexpr (PAIRS) {
      const uint4 v4 = reinterpret_cast<const uint4*>(s_vals)[threadIdx.x];
      v[0] = v4.x, v[1] = v4.y, v[2] = v4.z, v[3] = v4.w;
    }
    int zeros = 0;
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      zeros += ((order(k[j]) >> bit) & 1u) ^ 1u;
    int total_zeros = 0;
    int zeros_before = Scan::exclusive_sum(zeros, total_zeros, s_scan);
    // a 0-bit key goes after the 0-bit keys before it; a 1-bit key after every 0-bit key and the
    // 1-bit keys before it (its position minus the 0-bit keys before it)
    unsigned pos[kItems];
    const int first = threadIdx.x * kItems;
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      pos[j] =
          ((order(k[j]) >> bit) & 1u) ? total_zeros + (first + j - zeros_before) : zeros_before++;
    __syncthreads(); // every thread has read its keys
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      s_keys[pos[j]] = k[j];
      if constexpr (PAIRS)
        s_vals[pos[j]] = v[j];
    }
    __syncthreads();
  }

  // scatter: sorted position s goes to the digit's output run
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const unsigned s = j * BLOCK + threadIdx.x;
    if (s < valid) {
      const unsigned key = s_keys[s];
      const unsigned digit = (order(key) >> shift) & (kDigits - 1);
      const std::size_t dst = static_cast<std::size_t>(s_dest[digit]) + (s - s_start[digit]);
      keys_out[dst] = key;
      if constexpr (PAIRS)
        vals_out[dst] = s_vals[s];
    }
  }
}

} // namespace

std::size_t block_local_4bit_tile(int block) {
  return static_cast<std::size_t>(block) * kItems;
}

void sort_block_local_4bit_with_scan(void* temp, std::size_t& temp_bytes,
                                     std::string_view scan_name, const unsigned* keys_in,
                                     unsigned* keys_out, const unsigned* vals_in,
                                     unsigned* vals_out, std::size_t n, KeyType key_type, int block,
                                     cudaStream_t stream) {
  const scan::Variant& scan = detail::gpu_scan(scan_name);
  if (n == 0) {
    no_temp_needed(temp, temp_bytes);
    return;
  }
  // the scatter adds 32-bit offsets read back from the int scan as unsigned: exact below 2^32
  if (n > 0xffffffffu)
    throw std::invalid_argument("block_local_4bit: n must be below 2^32 (32-bit digit offsets)");
  dispatch_block_size(block, [&](auto b) {
    dispatch_key_type(key_type, [&](auto kt) {
      constexpr int BLOCK = decltype(b)::value;
      constexpr KeyType KT = decltype(kt)::value;
      const std::size_t tiles =
          (n + block_local_4bit_tile(BLOCK) - 1) / block_local_4bit_tile(BLOCK);
      const std::size_t table = kDigits * tiles; // counts[digit][tile], < 2^28 entries
      const auto grid = static_cast<unsigned>(tiles);
      // per pass: count the digits of every tile, scan the digit table, local sort and scatter
      detail::scan_based_sort(
          temp, temp_bytes, scan, kPasses, table, keys_in, keys_out, vals_in, vals_out, n, block,
          stream,
          [&](const detail::PassBuffers& p, int pass, int* counts) {
            tile_digit_counts<BLOCK, KT>
                <<<grid, BLOCK, 0, stream>>>(p.keys_src, counts, n, tiles, pass * kBits);
            CUDA_CHECK_LAUNCH();
          },
          [&](const detail::PassBuffers& p, int pass, const int* counts, const int* offsets,
              auto pairs) {
            local_sort_scatter<BLOCK, decltype(pairs)::value, KT>
                <<<grid, BLOCK, 0, stream>>>(p.keys_src, p.keys_dst, p.vals_src, p.vals_dst, counts,
                                             offsets, n, tiles, pass * kBits);
            CUDA_CHECK_LAUNCH();
          });
    });
  });
}

void sort_block_local_4bit(void* temp, std::size_t& temp_bytes, const unsigned* keys_in,
                           unsigned* keys_out, const unsigned* vals_in, unsigned* vals_out,
                           std::size_t n, KeyType key_type, int block, cudaStream_t stream) {
  sort_block_local_4bit_with_scan(temp, temp_bytes, kDefaultScan, keys_in, keys_out, vals_in,
                                  vals_out, n, key_type, block, stream);
}

} // namespace gps::sort
