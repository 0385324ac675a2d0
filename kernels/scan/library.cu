// The vendor anchors: Thrust and CUB. CUB's temporary storage comes from the shared Workspace;
// Thrust's temporary allocations go through a caching allocator, so after the warm-up call
// neither allocates inside a timed region.
#include "common/cuda_check.hpp"
#include "common/thrust_allocator.cuh"
#include "scan/scan.hpp"

#include <cub/device/device_scan.cuh>
#include <thrust/execution_policy.h>
#include <thrust/scan.h>

#include <climits>
#include <stdexcept>

namespace gps::scan {

void exclusive_scan_thrust(const int* in, int* out, std::size_t n, int, Workspace&,
                           cudaStream_t stream) {
  if (n == 0) return;
  thrust::exclusive_scan(thrust::cuda::par_nosync(thrust_temp_allocator()).on(stream), in, in + n,
                         out);
  CUDA_CHECK_LAUNCH();
}

void exclusive_scan_cub(const int* in, int* out, std::size_t n, int, Workspace& ws,
                        cudaStream_t stream) {
  if (n == 0) return;
  if (n > static_cast<std::size_t>(INT_MAX)) throw std::invalid_argument("cub scan: n > INT_MAX");
  std::size_t bytes = 0;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, static_cast<int>(n), stream));
  void* temp = ws.reserve(bytes);
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, static_cast<int>(n), stream));
}

} // namespace gps::scan
