// split_1bit: LSD radix sort one bit per pass, each pass a "split" (Blelloch 1990, "Prefix Sums
// and Their Applications", sec. 1.4.1; GPU Gems 3 ch. 39.3.3): flag the keys whose current bit is
// 0, exclusive-scan the flags with the in-house scan (chosen by name, default
// decoupled_lookback), and scatter: a key with a 0 bit goes to f = scanned[i], one with a 1 bit to
// i - f + total_false. total_false = scanned[n-1] + flags[n-1] is read by the scatter kernel on the
// device, so the 32 passes are enqueued without a host round trip. Each split keeps the order of
// equal bits, so the sort is stable.
// The first GPU sort of the study: every step is a global-memory pass (per bit: keys read twice
// and written once, flags written and read twice, the scan read and written), so it moves about
// 7 words per key per bit, 32 times.
// Limits: n <= INT_MAX (the flags and their scan are int, one per key); any 4-byte-aligned
// pointers (scalar loads and stores).
// Measured (H200, git show 4ff90fa:results/nvidia-h200.json), G keys/s, uniform keys: at
// 2^24 by block 64: 1.4, 128: 2.5, 256: 3.1, 512: 3.0, 1024: 2.8; at 2^28 3.41 keys, 2.86 pairs
// (block 256, the best at every size measured), 0.08x CUB.
// int32 and float32 keys: every bit and digit is read from the key after sort.hpp's KeyOrder
// transform; the keys move unchanged.
#include "common/block.cuh"
#include "common/cuda_check.hpp"
#include "sort/passes.hpp"
#include "sort/sort.hpp"

#include <climits>
#include <stdexcept>

namespace gps::sort {
namespace {

constexpr int kPasses = 32;

template <int BLOCK, KeyType KT>
__global__ void __launch_bounds__(BLOCK)
    flag_zero_bits(const unsigned* __restrict__ keys, int* __restrict__ flags, std::size_t n,
                   int bit) {
  constexpr KeyOrder order = key_order(KT);
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(BLOCK) + threadIdx.x;
  if (i < n)
    flags[i] = static_cast<int>(((order(keys[i]) >> bit) & 1u) ^ 1u);
}

template <int BLOCK, bool PAIRS, KeyType KT>
__global__ void __launch_bounds__(BLOCK)
    split_scatter(const unsigned* __restrict__ keys_in, unsigned* __restrict__ keys_out,
                  const unsigned* __restrict__ vals_in, unsigned* __restrict__ vals_out,
                  const int* __restrict__ flags, const int* __restrict__ scanned, std::size_t n,
                  int bit) {
  constexpr KeyOrder order = key_order(KT);
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(BLOCK) + threadIdx.x;
  if (i >= n)
    return;
  // keys with a 0 bit in the whole array: the last exclusive sum plus the last flag
  const std::size_t total_false =
      static_cast<unsigned>(scanned[n - 1]) + static_cast<unsigned>(flags[n - 1]);
  const unsigned key = keys_in[i];
  const std::size_t f = static_cast<unsigned>(scanned[i]); // 0-bit keys before i
  const std::size_t dst = ((order(key) >> bit) & 1u) ? i - f + total_false : f;
  keys_out[dst] = key;
  if constexpr (PAIRS)
    vals_out[dst] = vals_in[i];
}

} // namespace

void sort_split_1bit_with_scan(void* temp, std::size_t& temp_bytes, std::string_view scan_name,
                               const unsigned* keys_in, unsigned* keys_out, const unsigned* vals_in,
                               unsigned* vals_out, std::size_t n, KeyType key_type, int block,
                               cudaStream_t stream) {
  const scan::Variant& scan = detail::gpu_scan(scan_name);
  if (n > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("split_1bit: n must be at most INT_MAX (the scan is over int)");
  if (n == 0) {
    no_temp_needed(temp, temp_bytes);
    return;
  }
  dispatch_block_size(block, [&](auto b) {
    dispatch_key_type(key_type, [&](auto kt) {
      constexpr int BLOCK = decltype(b)::value;
      constexpr KeyType KT = decltype(kt)::value;
      const auto grid = static_cast<unsigned>((n + BLOCK - 1) / BLOCK);
      // per bit: flag the 0 bits, scan the flags (destinations of the 0-bit keys), scatter
      detail::scan_based_sort(
          temp, temp_bytes, scan, kPasses, n, keys_in, keys_out, vals_in, vals_out, n, block,
          stream,
          [&](const detail::PassBuffers& p, int bit, int* flags) {
            flag_zero_bits<BLOCK, KT><<<grid, BLOCK, 0, stream>>>(p.keys_src, flags, n, bit);
            CUDA_CHECK_LAUNCH();
          },
          [&](const detail::PassBuffers& p, int bit, const int* flags, const int* scanned,
              auto pairs) {
            split_scatter<BLOCK, decltype(pairs)::value, KT><<<grid, BLOCK, 0, stream>>>(
                p.keys_src, p.keys_dst, p.vals_src, p.vals_dst, flags, scanned, n, bit);
            CUDA_CHECK_LAUNCH();
          });
    });
  });
}

void sort_split_1bit(void* temp, std::size_t& temp_bytes, const unsigned* keys_in,
                     unsigned* keys_out, const unsigned* vals_in, unsigned* vals_out, std::size_t n,
                     KeyType key_type, int block, cudaStream_t stream) {
  sort_split_1bit_with_scan(temp, temp_bytes, kDefaultScan, keys_in, keys_out, vals_in, vals_out, n,
                            key_type, block, stream);
}

} // namespace gps::sort
