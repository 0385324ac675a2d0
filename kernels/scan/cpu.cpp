// CPU scans: the sequential reference every other variant is checked against, and the strongest
// CPU baseline, a three-phase parallel scan (Blelloch 1990, "Prefix sums and their applications":
// per-chunk sums, a scan of the chunk sums, per-chunk scans seeded with those offsets).
// cpu_parallel runs as one chunk (the sequential loop) below 2^16 elements.
// Measured (the H200 machine's host, git show 4ff90fa:results/nvidia-h200.json, 2^28): cpu 11 GB/s,
// cpu_parallel 54 GB/s.
#include "common/cpu_parallel.hpp"
#include "common/temp_storage.hpp"
#include "scan/scan.hpp"

#include <cstdint>

namespace gps::scan {

// Unsigned arithmetic gives the wrapping addition the GPU variants perform.
void exclusive_scan_cpu(void* temp, std::size_t& temp_bytes, const int* in, int* out, std::size_t n,
                        int, cudaStream_t) {
  if (no_temp_needed(temp, temp_bytes))
    return;
  std::uint32_t running = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t value = static_cast<std::uint32_t>(in[i]);
    out[i] = static_cast<int>(running);
    running += value;
  }
}

// Temporary storage (host): one running sum per chunk, i.e. per CPU thread.
void exclusive_scan_cpu_parallel(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                                 std::size_t n, int, cudaStream_t stream) {
  const unsigned chunks = n < (1u << 16) ? 1u : cpu_threads();
  TempLayout layout(temp);
  std::uint32_t* chunk_sums = layout.take<std::uint32_t>(chunks == 1 ? 0 : chunks);
  if (layout.sized(temp_bytes))
    return;
  if (chunks == 1)
    return exclusive_scan_cpu(temp, temp_bytes, in, out, n, 0, stream);
  // phase 1: each thread sums its chunk
  parallel_chunks(n, chunks, [&](unsigned c, std::size_t b, std::size_t e) {
    std::uint32_t s = 0;
    for (std::size_t i = b; i < e; ++i)
      s += static_cast<std::uint32_t>(in[i]);
    chunk_sums[c] = s;
  });
  // phase 2: exclusive scan of the chunk sums (tiny, sequential)
  std::uint32_t running = 0;
  for (unsigned c = 0; c < chunks; ++c) {
    const std::uint32_t v = chunk_sums[c];
    chunk_sums[c] = running;
    running += v;
  }
  // phase 3: each thread scans its chunk from its offset
  parallel_chunks(n, chunks, [&](unsigned c, std::size_t b, std::size_t e) {
    std::uint32_t r = chunk_sums[c];
    for (std::size_t i = b; i < e; ++i) {
      const std::uint32_t v = static_cast<std::uint32_t>(in[i]);
      out[i] = static_cast<int>(r);
      r += v;
    }
  });
}

} // namespace gps::scan
