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
#include "common/block.cuh"
#include "common/cuda_check.hpp"
#include "sort/passes.hpp"
#include "sort/sort.hpp"

#include <climits>
#include <stdexcept>

namespace gps::sort {
namespace {

constexpr int kPasses = 32;

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    flag_zero_bits(const unsigned* __restrict__ keys, int* __restrict__ flags, std::size_t n,
                   int bit) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(BLOCK) + threadIdx.x;
  if (i < n) flags[i] = static_cast<int>(((keys[i] >> bit) & 1u) ^ 1u);
}

template <int BLOCK, bool PAIRS>
__global__ void __launch_bounds__(BLOCK)
    split_scatter(const unsigned* __restrict__ keys_in, unsigned* __restrict__ keys_out,
                  const unsigned* __restrict__ vals_in, unsigned* __restrict__ vals_out,
                  const int* __restrict__ flags, const int* __restrict__ scanned, std::size_t n,
                  int bit) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(BLOCK) + threadIdx.x;
  if (i >= n) return;
  // keys with a 0 bit in the whole array: the last exclusive sum plus the last flag
  const std::size_t total_false =
      static_cast<unsigned>(scanned[n - 1]) + static_cast<unsigned>(flags[n - 1]);
  const unsigned key = keys_in[i];
  const std::size_t f = static_cast<unsigned>(scanned[i]); // 0-bit keys before i
  const std::size_t dst = ((key >> bit) & 1u) ? i - f + total_false : f;
  keys_out[dst] = key;
  if constexpr (PAIRS) vals_out[dst] = vals_in[i];
}

} // namespace

void sort_split_1bit_with_scan(std::string_view scan_name, const unsigned* keys_in,
                               unsigned* keys_out, const unsigned* vals_in, unsigned* vals_out,
                               std::size_t n, int block, Workspace& ws, cudaStream_t stream) {
  const scan::Variant& scan = detail::gpu_scan(scan_name);
  if (n == 0) return;
  if (n > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("split_1bit: n > INT_MAX (the scan is over int)");
  const bool pairs = vals_in != nullptr;
  // workspace: temporary keys (and values) for the ping-pong, the flags and their scan
  Carver sizing;
  sizing.take<unsigned>(n);
  sizing.take<unsigned>(pairs ? n : 0);
  sizing.take<int>(n);
  sizing.take<int>(n);
  Carver carve(ws.reserve(sizing.bytes()));
  unsigned* keys_tmp = carve.take<unsigned>(n);
  unsigned* vals_tmp = carve.take<unsigned>(pairs ? n : 0);
  int* flags = carve.take<int>(n);
  int* scanned = carve.take<int>(n);
  Workspace& scan_ws = ws.nested(); // the scan's own buffers must not alias ours

  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    const auto grid = static_cast<unsigned>((n + BLOCK - 1) / BLOCK);
    for (int bit = 0; bit < kPasses; ++bit) {
      const auto p = detail::pass_buffers(bit, kPasses, keys_in, keys_out, keys_tmp, vals_in,
                                          vals_out, vals_tmp);
      // map: 1 where the bit is 0
      flag_zero_bits<BLOCK><<<grid, BLOCK, 0, stream>>>(p.keys_src, flags, n, bit);
      CUDA_CHECK_LAUNCH();
      // scan: destinations of the 0-bit keys
      scan.run(flags, scanned, n, block, scan_ws, stream);
      // scatter
      if (pairs)
        split_scatter<BLOCK, true><<<grid, BLOCK, 0, stream>>>(p.keys_src, p.keys_dst, p.vals_src,
                                                               p.vals_dst, flags, scanned, n, bit);
      else
        split_scatter<BLOCK, false><<<grid, BLOCK, 0, stream>>>(p.keys_src, p.keys_dst, nullptr,
                                                                nullptr, flags, scanned, n, bit);
      CUDA_CHECK_LAUNCH();
    }
  });
}

void sort_split_1bit(const unsigned* keys_in, unsigned* keys_out, const unsigned* vals_in,
                     unsigned* vals_out, std::size_t n, int block, Workspace& ws,
                     cudaStream_t stream) {
  sort_split_1bit_with_scan(kDefaultScan, keys_in, keys_out, vals_in, vals_out, n, block, ws,
                            stream);
}

} // namespace gps::sort
