// scan_based: the textbook three-kernel compaction (GPU Gems 3, ch. 39.3.1; Blelloch 1990):
//   1. map:     flags[i] = in[i] != 0
//   2. scan:    offsets = exclusive_scan(flags), with any variant of the scan table
//   3. scatter: out[offsets[i]] = in[i] where flags[i]; the last element's thread writes the count
// The scan variant is chosen by name, so the table rows below differ only in the scan they call
// and the study shows how much the scan choice matters. Global traffic is at least 8n (map) + 8n
// (the scan, if it is single-pass) + 8n + 4k (scatter reads input and offsets, writes the kept
// elements): 24n + 4k bytes against the 4n + 4k minimum that single_pass approaches.
// Change from cpu_with_scan: the same three steps, each a GPU kernel (the scan a whole variant).
// Measured (H200, git show 4ff90fa:results/nvidia-h200.json, keep 0.5, 2^28, block 256): with
// work_efficient 40 GB/s (0.009x copy), with shared_mem 459 (0.109x), with decoupled_lookback 692
// (0.164x); the scan choice matters, but single_pass, fusing the three, is 3.9x the best of them.
#include "common/arguments.hpp"
#include "common/cuda_check.hpp"
#include "common/temp_storage.hpp"
#include "compact/compact.hpp"
#include "scan/scan.hpp"

#include <stdexcept>
#include <string>

namespace gps::compact {
namespace {

__global__ void map_nonzero(const int* __restrict__ in, int* __restrict__ flags, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n)
    flags[i] = in[i] != 0;
}

__global__ void scatter_nonzero(const int* __restrict__ in, const int* __restrict__ offsets,
                                int* __restrict__ out, unsigned* __restrict__ count,
                                std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n)
    return;
  const int value = in[i];
  // the scan wraps in int: read as unsigned, an offset is exact for n < 2^32
  const unsigned offset = static_cast<unsigned>(offsets[i]);
  if (value != 0)
    out[offset] = value;
  // the exclusive scan lacks the last element: the total is its offset plus its own flag
  if (i == n - 1)
    *count = offset + (value != 0);
}

// map -> exclusive scan (the GPU scan variant named `scan_name`, at the same block) -> scatter.
// Temporary storage: flags and offsets (n ints each), then the scan's own storage (its size query).
void compact_scan_based(const char* scan_name, const char* who, void* temp, std::size_t& temp_bytes,
                        const int* in, int* out, unsigned* count, std::size_t n, int block,
                        cudaStream_t stream) {
  const scan::Variant* scan = scan::find_variant(scan_name);
  if (!scan || scan->target != scan::Target::Gpu)
    throw std::invalid_argument(std::string(who) + ": no GPU scan named " + scan_name);
  check_max_elements(n, kMaxElements, who, "the kept count is 32-bit");
  std::size_t scan_bytes = 0;
  scan->run(nullptr, scan_bytes, nullptr, nullptr, n, block, stream);
  TempLayout layout(temp);
  int* flags = layout.take<int>(n);
  int* offsets = layout.take<int>(n);
  void* scan_temp = layout.take_bytes(scan_bytes);
  if (layout.sized(temp_bytes))
    return;
  if (n == 0) {
    CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(unsigned), stream));
    return;
  }
  const unsigned grid = grid_blocks(n, block, who);
  map_nonzero<<<grid, block, 0, stream>>>(in, flags, n);
  CUDA_CHECK_LAUNCH();
  scan->run(scan_temp, scan_bytes, flags, offsets, n, block, stream);
  scatter_nonzero<<<grid, block, 0, stream>>>(in, offsets, out, count, n);
  CUDA_CHECK_LAUNCH();
}

} // namespace

void compact_scan_based_work_efficient(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                                       unsigned* count, std::size_t n, int block,
                                       cudaStream_t stream) {
  compact_scan_based("work_efficient", "compact/scan_based_work_efficient", temp, temp_bytes, in,
                     out, count, n, block, stream);
}

void compact_scan_based_shared_mem(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                                   unsigned* count, std::size_t n, int block, cudaStream_t stream) {
  compact_scan_based("shared_mem", "compact/scan_based_shared_mem", temp, temp_bytes, in, out,
                     count, n, block, stream);
}

void compact_scan_based_decoupled_lookback(void* temp, std::size_t& temp_bytes, const int* in,
                                           int* out, unsigned* count, std::size_t n, int block,
                                           cudaStream_t stream) {
  compact_scan_based("decoupled_lookback", "compact/scan_based_decoupled_lookback", temp,
                     temp_bytes, in, out, count, n, block, stream);
}

} // namespace gps::compact
