// CPU compactions: the sequential reference every other variant is checked against, and the same
// map -> exclusive scan -> scatter algorithm the GPU variants run, on one core, to show what the
// scan formulation costs where it is not needed (Blelloch 1990, "Prefix sums and their
// applications", section 1.3 on packing).
#include "compact/compact.hpp"
#include "scan/scan.hpp"

#include <vector>

namespace gps::compact {

void compact_cpu_no_scan(const int* in, int* out, unsigned* count, std::size_t n, int, Workspace&,
                         cudaStream_t) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (in[i] != 0) out[kept++] = in[i];
  *count = static_cast<unsigned>(kept);
}

namespace {
// Grow-only scratch for the flags and offsets, kept between calls (like the GPU Workspace) so that
// no allocation or first-touch page fault lands in a timed call after the warm-up.
std::vector<int>& scratch(std::size_t n) {
  thread_local std::vector<int> buffer;
  if (buffer.size() < 2 * n) buffer.resize(2 * n);
  return buffer;
}
} // namespace

void compact_cpu_with_scan(const int* in, int* out, unsigned* count, std::size_t n, int block,
                           Workspace& ws, cudaStream_t stream) {
  if (n == 0) {
    *count = 0;
    return;
  }
  std::vector<int>& buffer = scratch(n);
  int* flags = buffer.data();
  int* offsets = buffer.data() + n;
  // map: 1 where the element is kept
  for (std::size_t i = 0; i < n; ++i) flags[i] = in[i] != 0;
  // scan: each kept element's output position
  scan::exclusive_scan_cpu(flags, offsets, n, block, ws, stream);
  // scatter
  for (std::size_t i = 0; i < n; ++i)
    if (flags[i]) out[offsets[i]] = in[i];
  *count = static_cast<unsigned>(offsets[n - 1]) + static_cast<unsigned>(flags[n - 1]);
}

} // namespace gps::compact
