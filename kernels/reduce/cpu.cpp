// CPU reductions: the sequential reference every other variant is checked against, and the
// multi-threaded CPU baseline (per-chunk sums, then the sum of the chunk sums). Host temporary
// storage under the two-phase contract: cpu needs none, cpu_parallel keeps its chunk sums there.
// Measured (H200 host, git show 4ff90fa:results/nvidia-h200.json), GB/s at 2^20 / 2^24 /
// 2^28: cpu 36 / 29 / 12, cpu_parallel 14 / 98 / 107 (the thread starts dominate below 2^24).
#include "common/cpu_parallel.hpp"
#include "common/temp_storage.hpp"
#include "reduce/reduce.hpp"

#include <algorithm>
#include <cstdint>

namespace gps::reduce {

namespace {
// Unsigned arithmetic gives the wrapping addition the GPU variants perform.
std::uint32_t sum_range(const int* in, std::size_t begin, std::size_t end) {
  std::uint32_t sum = 0;
  for (std::size_t i = begin; i < end; ++i)
    sum += static_cast<std::uint32_t>(in[i]);
  return sum;
}
} // namespace

void reduce_cpu(void* temp, std::size_t& temp_bytes, const int* in, int* result, std::size_t n, int,
                cudaStream_t) {
  if (no_temp_needed(temp, temp_bytes))
    return;
  *result = static_cast<int>(sum_range(in, 0, n));
}

void reduce_cpu_parallel(void* temp, std::size_t& temp_bytes, const int* in, int* result,
                         std::size_t n, int, cudaStream_t) {
  const unsigned chunks = n < (1u << 16) ? 1u : cpu_threads();
  TempLayout layout(temp);
  std::uint32_t* chunk_sums = layout.take<std::uint32_t>(chunks > 1 ? chunks : 0);
  if (layout.sized(temp_bytes))
    return;
  if (chunks == 1) {
    *result = static_cast<int>(sum_range(in, 0, n));
    return;
  }
  std::fill(chunk_sums, chunk_sums + chunks, 0u);
  parallel_chunks(n, chunks, [&](unsigned c, std::size_t b, std::size_t e) {
    chunk_sums[c] = sum_range(in, b, e);
  });
  std::uint32_t total = 0;
  for (unsigned c = 0; c < chunks; ++c)
    total += chunk_sums[c];
  *result = static_cast<int>(total);
}

} // namespace gps::reduce
