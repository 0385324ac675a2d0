// naive: Hillis-Steele scan in global memory (GPU Gems 3, ch. 39.2.1). A shift kernel turns the
// exclusive scan into an inclusive one over in[i-1]; then log2(n) levels, one launch each, where
// every element adds the element `offset` to its left, reading one buffer and writing the other
// (double buffering: no element is overwritten while a neighbour still needs it).
// Work O(n log n), n log n reads and writes of global memory: the baseline everything beats.
// Change: the first GPU variant (from cpu: one thread per element, one launch per level).
// Measured (H200, git show 4ff90fa:results/nvidia-h200.json, 2^28): 86 GB/s (0.020x copy) at block
// 256, the best block; 29 GB/s at block 64.
#include "common/arguments.hpp"
#include "common/cuda_check.hpp"
#include "common/temp_storage.hpp"
#include "scan/scan.hpp"

#include <utility>

namespace gps::scan {
namespace {

__global__ void shift_right(const int* in, int* out, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n)
    out[i] = i == 0 ? 0 : in[i - 1];
}

__global__ void hillis_steele_level(const int* src, int* dst, std::size_t n, std::size_t offset) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n)
    dst[i] = i >= offset ? src[i] + src[i - offset] : src[i];
}

} // namespace

// Temporary storage: the second buffer of the ping-pong, n ints.
void exclusive_scan_naive(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                          std::size_t n, int block, cudaStream_t stream) {
  TempLayout layout(temp);
  int* scratch = layout.take<int>(n);
  if (layout.sized(temp_bytes) || n == 0)
    return;
  const unsigned grid = grid_blocks(n, block, "scan/naive");
  // ping-pong between out and scratch; pick the start so the last level lands in out
  int levels = 0;
  for (std::size_t offset = 1; offset < n; offset *= 2)
    ++levels;
  int* src = levels % 2 == 0 ? out : scratch;
  int* dst = levels % 2 == 0 ? scratch : out;
  shift_right<<<grid, block, 0, stream>>>(in, src, n);
  CUDA_CHECK_LAUNCH();
  for (std::size_t offset = 1; offset < n; offset *= 2) {
    hillis_steele_level<<<grid, block, 0, stream>>>(src, dst, n, offset);
    CUDA_CHECK_LAUNCH();
    std::swap(src, dst);
  }
}

} // namespace gps::scan
