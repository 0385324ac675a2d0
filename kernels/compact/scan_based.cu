// scan_based: the textbook three-kernel compaction (GPU Gems 3, ch. 39.3.1; Blelloch 1990):
//   1. map:     flags[i] = in[i] != 0
//   2. scan:    offsets = exclusive_scan(flags), with any variant of the scan table
//   3. scatter: out[offsets[i]] = in[i] where flags[i]; the last element's thread writes the count
// The scan variant is chosen by name, so the table rows below differ only in the scan they call
// and the study shows how much the scan choice matters. Global traffic is at least 8n (map) + 8n
// (the scan, if it is single-pass) + 8n + 4k (scatter reads input and offsets, writes the kept
// elements): 24n + 4k bytes against the 4n + 4k minimum that single_pass approaches.
#include "common/cuda_check.hpp"
#include "compact/compact.hpp"
#include "scan/scan.hpp"

#include <stdexcept>
#include <string>

namespace gps::compact {
namespace {

__global__ void map_nonzero(const int* __restrict__ in, int* __restrict__ flags, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) flags[i] = in[i] != 0;
}

__global__ void scatter_nonzero(const int* __restrict__ in, const int* __restrict__ offsets,
                                int* __restrict__ out, unsigned* __restrict__ count,
                                std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const int value = in[i];
  const unsigned offset = static_cast<unsigned>(offsets[i]);
  if (value != 0) out[offset] = value;
  // the exclusive scan lacks the last element: the total is its offset plus its own flag
  if (i == n - 1) *count = offset + (value != 0);
}

} // namespace

void compact_scan_based(const char* scan_variant, const int* in, int* out, unsigned* count,
                        std::size_t n, int block, Workspace& ws, cudaStream_t stream) {
  const scan::Variant* scan = scan::find_variant(scan_variant);
  if (!scan || scan->target != scan::Target::Gpu)
    throw std::invalid_argument(std::string("compact scan_based: no GPU scan named ") +
                                scan_variant);
  if (n == 0) {
    CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(unsigned), stream));
    return;
  }
  // flags and offsets live in our workspace; the scan reserves from the nested one, so its
  // reserve() can never move our buffers
  Carver sizing;
  sizing.take<int>(n);
  sizing.take<int>(n);
  Carver carve(ws.reserve(sizing.bytes()));
  int* flags = carve.take<int>(n);
  int* offsets = carve.take<int>(n);

  const unsigned grid = static_cast<unsigned>((n + block - 1) / block);
  map_nonzero<<<grid, block, 0, stream>>>(in, flags, n);
  CUDA_CHECK_LAUNCH();
  scan->run(flags, offsets, n, block, ws.nested(), stream);
  scatter_nonzero<<<grid, block, 0, stream>>>(in, offsets, out, count, n);
  CUDA_CHECK_LAUNCH();
}

void compact_scan_based_work_efficient(const int* in, int* out, unsigned* count, std::size_t n,
                                       int block, Workspace& ws, cudaStream_t stream) {
  compact_scan_based("work_efficient", in, out, count, n, block, ws, stream);
}

void compact_scan_based_shared_mem(const int* in, int* out, unsigned* count, std::size_t n,
                                   int block, Workspace& ws, cudaStream_t stream) {
  compact_scan_based("shared_mem", in, out, count, n, block, ws, stream);
}

void compact_scan_based_decoupled_lookback(const int* in, int* out, unsigned* count, std::size_t n,
                                           int block, Workspace& ws, cudaStream_t stream) {
  compact_scan_based("decoupled_lookback", in, out, count, n, block, ws, stream);
}

} // namespace gps::compact
