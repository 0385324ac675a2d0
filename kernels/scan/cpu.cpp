// CPU scans: the sequential reference every other variant is checked against, and the strongest
// CPU baseline, a three-phase parallel scan (Blelloch 1990, "Prefix sums and their applications":
// per-chunk sums, a scan of the chunk sums, per-chunk scans seeded with those offsets).
#include "common/cpu_parallel.hpp"
#include "scan/scan.hpp"

#include <cstdint>
#include <vector>

namespace gps::scan {

// Unsigned arithmetic gives the wrapping addition the GPU variants perform.
void exclusive_scan_cpu(const int* in, int* out, std::size_t n, int, Workspace&, cudaStream_t) {
  std::uint32_t running = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t value = static_cast<std::uint32_t>(in[i]);
    out[i] = static_cast<int>(running);
    running += value;
  }
}

void exclusive_scan_cpu_parallel(const int* in, int* out, std::size_t n, int, Workspace& ws,
                                 cudaStream_t stream) {
  const unsigned chunks = n < (1u << 16) ? 1u : cpu_threads();
  if (chunks == 1) return exclusive_scan_cpu(in, out, n, 0, ws, stream);
  std::vector<std::uint32_t> chunk_sums(chunks, 0);
  // phase 1: each thread sums its chunk
  parallel_chunks(n, chunks, [&](unsigned c, std::size_t b, std::size_t e) {
    std::uint32_t s = 0;
    for (std::size_t i = b; i < e; ++i) s += static_cast<std::uint32_t>(in[i]);
    chunk_sums[c] = s;
  });
  // phase 2: exclusive scan of the chunk sums (tiny, sequential)
  std::uint32_t running = 0;
  for (auto& s : chunk_sums) {
    const std::uint32_t v = s;
    s = running;
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
