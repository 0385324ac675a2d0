// CPU sorts. cpu_std_sort is the comparison-sort reference (single-threaded std::stable_sort, of
// the keys or by key for pairs; it is also how the tests compute the expected output).
// cpu_radix is a multi-threaded LSD radix sort with 8-bit digits (Knuth, TAOCP vol. 3, 5.2.5):
// per pass, every thread counts the digits of its contiguous chunk, one tiny sequential scan over
// the counts in digit-major, chunk-minor order gives each (digit, chunk) its output offset, and
// every thread scatters its chunk in order, so each pass is stable. The CPU form of the GPU sorts'
// tile histograms and digit-major scan. Their scratch (the key-value records, the ping-pong
// buffers, the per-chunk offsets) is host temporary storage under the two-phase contract; only
// std::stable_sort allocates a buffer of its own. Both order the keys through KeyOrder (sort.hpp):
// std::stable_sort compares transformed keys, cpu_radix takes the digits of the transformed keys.
// Measured (H200 host, git show 4ff90fa:results/nvidia-h200.json), G keys/s at 2^20 / 2^24 /
// 2^28, uniform keys: cpu_std_sort 0.02 / 0.01 / - (benchmarked up to 2^24), cpu_radix keys
// 0.20 / 0.54 / 0.54, pairs 0.23 / 0.35 / 0.40.
#include "common/cpu_parallel.hpp"
#include "common/temp_storage.hpp"
#include "sort/sort.hpp"

#include <algorithm>
#include <array>

namespace gps::sort {
namespace {

struct KeyValue {
  unsigned key, value;
};

constexpr int kRadixBits = 8;
constexpr int kDigits = 1 << kRadixBits;
constexpr int kPasses = 32 / kRadixBits;

using DigitOffsets = std::array<std::size_t, kDigits>;

} // namespace

void sort_cpu_std(void* temp, std::size_t& temp_bytes, const unsigned* keys_in, unsigned* keys_out,
                  const unsigned* vals_in, unsigned* vals_out, std::size_t n, KeyType key_type, int,
                  cudaStream_t) {
  const KeyOrder order = key_order(key_type);
  const auto less = [order](unsigned a, unsigned b) { return order(a) < order(b); };
  TempLayout layout(temp);
  KeyValue* p = layout.take<KeyValue>(vals_in ? n : 0);
  if (layout.sized(temp_bytes))
    return;
  if (n == 0)
    return;
  if (!vals_in) {
    std::copy(keys_in, keys_in + n, keys_out);
    // stable: keys that order as equal can differ in their bits (float -0.0 and +0.0)
    std::stable_sort(keys_out, keys_out + n, less);
    return;
  }
  for (std::size_t i = 0; i < n; ++i)
    p[i] = {keys_in[i], vals_in[i]};
  std::stable_sort(p, p + n,
                   [less](const KeyValue& a, const KeyValue& b) { return less(a.key, b.key); });
  for (std::size_t i = 0; i < n; ++i) {
    keys_out[i] = p[i].key;
    vals_out[i] = p[i].value;
  }
}

void sort_cpu_radix(void* temp, std::size_t& temp_bytes, const unsigned* keys_in,
                    unsigned* keys_out, const unsigned* vals_in, unsigned* vals_out, std::size_t n,
                    KeyType key_type, int, cudaStream_t) {
  const KeyOrder order = key_order(key_type);
  const unsigned chunks = n < (1u << 16) ? 1u : cpu_threads();
  TempLayout layout(temp);
  unsigned* const tk = layout.take<unsigned>(n);
  unsigned* const tv = vals_in ? layout.take<unsigned>(n) : nullptr;
  DigitOffsets* const offsets = layout.take<DigitOffsets>(chunks);
  if (layout.sized(temp_bytes))
    return;
  if (n == 0)
    return;
  // small inputs run on the calling thread: a thread start per phase would dominate
  const auto for_chunks = [n, chunks](auto&& fn) {
    if (chunks == 1)
      fn(0u, std::size_t{0}, n);
    else
      parallel_chunks(n, chunks, fn);
  };

  const unsigned* src_k = keys_in;
  const unsigned* src_v = vals_in;
  for (int pass = 0; pass < kPasses; ++pass) {
    // ping-pong so that the last pass lands in the output
    unsigned* dst_k = (kPasses - 1 - pass) % 2 == 0 ? keys_out : tk;
    unsigned* dst_v = !vals_in ? nullptr : (kPasses - 1 - pass) % 2 == 0 ? vals_out : tv;
    const int shift = pass * kRadixBits;
    // count: each thread its chunk
    for_chunks([&](unsigned c, std::size_t b, std::size_t e) {
      auto& h = offsets[c];
      h.fill(0);
      for (std::size_t i = b; i < e; ++i)
        ++h[(order(src_k[i]) >> shift) & (kDigits - 1)];
    });
    // offsets: digit-major, chunk-minor, so that chunk c's keys of digit d follow chunk c-1's
    std::size_t running = 0;
    for (int d = 0; d < kDigits; ++d)
      for (unsigned c = 0; c < chunks; ++c) {
        const std::size_t count = offsets[c][d];
        offsets[c][d] = running;
        running += count;
      }
    // scatter: each thread its chunk, in order (stable)
    for_chunks([&](unsigned c, std::size_t b, std::size_t e) {
      auto& o = offsets[c];
      for (std::size_t i = b; i < e; ++i) {
        const std::size_t j = o[(order(src_k[i]) >> shift) & (kDigits - 1)]++;
        dst_k[j] = src_k[i];
        if (src_v)
          dst_v[j] = src_v[i];
      }
    });
    src_k = dst_k;
    src_v = dst_v;
  }
}

} // namespace gps::sort
