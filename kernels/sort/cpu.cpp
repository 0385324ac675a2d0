// CPU sorts. cpu_std_sort is the comparison-sort baseline (single-threaded std::sort, and
// std::stable_sort by key for pairs; it is also how the tests compute the expected output).
// cpu_radix is a multi-threaded LSD radix sort with 8-bit digits (Knuth, TAOCP vol. 3, 5.2.5):
// per pass, every thread counts the digits of its contiguous chunk, one tiny sequential scan over
// the counts in digit-major, chunk-minor order gives each (digit, chunk) its output offset, and
// every thread scatters its chunk in order, so each pass is stable. The CPU form of the GPU sorts'
// tile histograms and digit-major scan.
#include "common/cpu_parallel.hpp"
#include "sort/sort.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace gps::sort {
namespace {

// Grow-only scratch per calling thread: after the warm-up call no CPU sort allocates in a timed
// region (std::stable_sort's own buffer excepted).
template <typename T> T* scratch(std::vector<T>& v, std::size_t n) {
  if (v.size() < n) v.resize(n);
  return v.data();
}

struct KeyValue {
  unsigned key, value;
};

constexpr int kRadixBits = 8;
constexpr int kDigits = 1 << kRadixBits;
constexpr int kPasses = 32 / kRadixBits;

} // namespace

void sort_cpu_std(const unsigned* keys_in, unsigned* keys_out, const unsigned* vals_in,
                  unsigned* vals_out, std::size_t n, int, Workspace&, cudaStream_t) {
  if (n == 0) return;
  if (!vals_in) {
    std::copy(keys_in, keys_in + n, keys_out);
    std::sort(keys_out, keys_out + n); // equal keys are indistinguishable: stable by definition
    return;
  }
  static thread_local std::vector<KeyValue> pairs;
  KeyValue* p = scratch(pairs, n);
  for (std::size_t i = 0; i < n; ++i) p[i] = {keys_in[i], vals_in[i]};
  std::stable_sort(p, p + n, [](const KeyValue& a, const KeyValue& b) { return a.key < b.key; });
  for (std::size_t i = 0; i < n; ++i) {
    keys_out[i] = p[i].key;
    vals_out[i] = p[i].value;
  }
}

void sort_cpu_radix(const unsigned* keys_in, unsigned* keys_out, const unsigned* vals_in,
                    unsigned* vals_out, std::size_t n, int, Workspace&, cudaStream_t) {
  if (n == 0) return;
  static thread_local std::vector<unsigned> tmp_keys, tmp_vals;
  unsigned* const tk = scratch(tmp_keys, n);
  unsigned* const tv = vals_in ? scratch(tmp_vals, n) : nullptr;
  const unsigned chunks = n < (1u << 16) ? 1u : cpu_threads();
  // small inputs run on the calling thread: a thread start per phase would dominate
  const auto for_chunks = [n, chunks](auto&& fn) {
    if (chunks == 1)
      fn(0u, std::size_t{0}, n);
    else
      parallel_chunks(n, chunks, fn);
  };
  // (the worker threads see other thread_local instances: pass them pointers, never the names)
  static thread_local std::vector<std::array<std::size_t, kDigits>> offset_buffer;
  std::array<std::size_t, kDigits>* const offsets = scratch(offset_buffer, chunks);

  const unsigned* src_k = keys_in;
  const unsigned* src_v = vals_in;
  for (int pass = 0; pass < kPasses; ++pass) {
    // ping-pong so that the last pass lands in the output
    unsigned* dst_k = (kPasses - 1 - pass) % 2 == 0 ? keys_out : tk;
    unsigned* dst_v = (kPasses - 1 - pass) % 2 == 0 ? vals_out : tv;
    const int shift = pass * kRadixBits;
    // count: each thread its chunk
    for_chunks([&](unsigned c, std::size_t b, std::size_t e) {
      auto& h = offsets[c];
      h.fill(0);
      for (std::size_t i = b; i < e; ++i) ++h[(src_k[i] >> shift) & (kDigits - 1)];
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
        const std::size_t j = o[(src_k[i] >> shift) & (kDigits - 1)]++;
        dst_k[j] = src_k[i];
        if (src_v) dst_v[j] = src_v[i];
      }
    });
    src_k = dst_k;
    src_v = dst_v;
  }
}

} // namespace gps::sort
