// work_efficient: Blelloch's up-sweep / down-sweep scan (GPU Gems 3, ch. 39.2.2) in global
// memory, in place, on a buffer padded with zeros to the next power of two. One launch per level,
// every launch covers all n threads and a thread works only when its index is a multiple of the
// level's stride (the `%` test): O(n) additions but O(n log n) threads launched, mostly idle.
// Change from naive: O(n) work instead of O(n log n), no double buffer.
// Measured (H200, git show 4ff90fa:results/nvidia-h200.json, 2^28): 65 GB/s (0.015x copy) at block
// 512, the best block, slower than naive: work efficiency alone does not pay when every level
// launches n threads.
#include "common/cuda_check.hpp"
#include "scan/blelloch_global.cuh"
#include "scan/scan.hpp"

namespace gps::scan {
namespace {

__global__ void upsweep_modulo(int* data, std::size_t padded, std::size_t stride) {
  const std::size_t k = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (k < padded && k % (2 * stride) == 0)
    data[k + 2 * stride - 1] += data[k + stride - 1];
}

__global__ void downsweep_modulo(int* data, std::size_t padded, std::size_t stride) {
  const std::size_t k = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (k < padded && k % (2 * stride) == 0) {
    const int left = data[k + stride - 1];
    data[k + stride - 1] = data[k + 2 * stride - 1];
    data[k + 2 * stride - 1] += left;
  }
}

struct ModuloLevels {
  void up(int* data, std::size_t padded, std::size_t stride, int block, cudaStream_t s) const {
    const unsigned grid = static_cast<unsigned>((padded + block - 1) / block);
    upsweep_modulo<<<grid, block, 0, s>>>(data, padded, stride);
    CUDA_CHECK_LAUNCH();
  }
  void down(int* data, std::size_t padded, std::size_t stride, int block, cudaStream_t s) const {
    const unsigned grid = static_cast<unsigned>((padded + block - 1) / block);
    downsweep_modulo<<<grid, block, 0, s>>>(data, padded, stride);
    CUDA_CHECK_LAUNCH();
  }
};

} // namespace

void exclusive_scan_work_efficient(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                                   std::size_t n, int block, cudaStream_t stream) {
  blelloch_global_scan(temp, temp_bytes, in, out, n, block, stream, "scan/work_efficient",
                       ModuloLevels{});
}

} // namespace gps::scan
