// CPU reductions: the sequential reference every other variant is checked against, and the
// multi-threaded CPU baseline (per-chunk sums, then the sum of the chunk sums).
#include "common/cpu_parallel.hpp"
#include "reduce/reduce.hpp"

#include <cstdint>
#include <vector>

namespace gps::reduce {

namespace {
// Unsigned arithmetic gives the wrapping addition the GPU variants perform.
std::uint32_t sum_range(const int* in, std::size_t begin, std::size_t end) {
  std::uint32_t sum = 0;
  for (std::size_t i = begin; i < end; ++i) sum += static_cast<std::uint32_t>(in[i]);
  return sum;
}
} // namespace

void reduce_cpu(const int* in, int* result, std::size_t n, int, Workspace&, cudaStream_t) {
  *result = static_cast<int>(sum_range(in, 0, n));
}

void reduce_cpu_parallel(const int* in, int* result, std::size_t n, int, Workspace&, cudaStream_t) {
  const unsigned chunks = n < (1u << 16) ? 1u : cpu_threads();
  if (chunks == 1) {
    *result = static_cast<int>(sum_range(in, 0, n));
    return;
  }
  std::vector<std::uint32_t> chunk_sums(chunks, 0);
  parallel_chunks(n, chunks, [&](unsigned c, std::size_t b, std::size_t e) {
    chunk_sums[c] = sum_range(in, b, e);
  });
  std::uint32_t total = 0;
  for (std::uint32_t s : chunk_sums) total += s;
  *result = static_cast<int>(total);
}

} // namespace gps::reduce
