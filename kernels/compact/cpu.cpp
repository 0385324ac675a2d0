// CPU compactions: the sequential reference every other variant is checked against, and the same
// map -> exclusive scan -> scatter algorithm the GPU variants run, on one core, to show what the
// scan formulation costs where it is not needed (Blelloch 1990, "Prefix sums and their
// applications", section 1.3 on packing).
// Measured (the H200 machine's host, git show 4ff90fa:results/nvidia-h200.json, keep 0.5): about 2
// GB/s (cpu_no_scan) and 1 GB/s (cpu_with_scan) at 2^20 and 2^24; the benchmarks stop them at 2^26.
#include "common/arguments.hpp"
#include "common/temp_storage.hpp"
#include "compact/compact.hpp"
#include "scan/scan.hpp"

namespace gps::compact {

void compact_cpu_no_scan(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                         unsigned* count, std::size_t n, int, cudaStream_t) {
  check_max_elements(n, kMaxElements, "compact/cpu_no_scan", "the kept count is 32-bit");
  if (no_temp_needed(temp, temp_bytes))
    return;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (in[i] != 0)
      out[kept++] = in[i];
  *count = static_cast<unsigned>(kept);
}

// Temporary storage (host): the flags and the offsets, n ints each, and the scan's (none).
void compact_cpu_with_scan(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                           unsigned* count, std::size_t n, int block, cudaStream_t stream) {
  check_max_elements(n, kMaxElements, "compact/cpu_with_scan", "the kept count is 32-bit");
  std::size_t scan_bytes = 0;
  scan::exclusive_scan_cpu(nullptr, scan_bytes, nullptr, nullptr, n, block, stream);
  TempLayout layout(temp);
  int* flags = layout.take<int>(n);
  int* offsets = layout.take<int>(n);
  void* scan_temp = layout.take_bytes(scan_bytes);
  if (layout.sized(temp_bytes))
    return;
  if (n == 0) {
    *count = 0;
    return;
  }
  // map: 1 where the element is kept
  for (std::size_t i = 0; i < n; ++i)
    flags[i] = in[i] != 0;
  // scan: each kept element's output position (wrapping int: read back as unsigned)
  scan::exclusive_scan_cpu(scan_temp, scan_bytes, flags, offsets, n, block, stream);
  // scatter
  for (std::size_t i = 0; i < n; ++i)
    if (flags[i])
      out[static_cast<unsigned>(offsets[i])] = in[i];
  *count = static_cast<unsigned>(offsets[n - 1]) + static_cast<unsigned>(flags[n - 1]);
}

} // namespace gps::compact
