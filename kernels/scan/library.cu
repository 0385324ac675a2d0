// The vendor anchors: Thrust and CUB, under the temp-storage contract: CUB is asked for its size
// and gets it from the caller's storage; Thrust's temporary allocations come out of the caller's
// storage too (common/thrust_temp.cuh), so neither allocates, and two calls on two streams never
// share a buffer.
// Measured (H200, git show 4ff90fa:results/nvidia-h200.json, 2^28): cub 3066 GB/s (0.728x copy),
// thrust 3069 (Thrust runs CUB's scan).
#include "common/arguments.hpp"
#include "common/cuda_check.hpp"
#include "common/temp_storage.hpp"
#include "common/thrust_temp.cuh"
#include "scan/scan.hpp"

#include <cub/device/device_scan.cuh>
#include <thrust/execution_policy.h>
#include <thrust/scan.h>

#include <climits>

namespace gps::scan {

void exclusive_scan_thrust(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                           std::size_t n, int, cudaStream_t stream) {
  thrust_with_temp(temp, temp_bytes, [&](ThrustTempAllocator& allocator) {
    if (n == 0)
      return;
    thrust::exclusive_scan(thrust::cuda::par_nosync(allocator).on(stream), in, in + n, out);
  });
  if (temp && n > 0)
    CUDA_CHECK_LAUNCH();
}

void exclusive_scan_cub(void* temp, std::size_t& temp_bytes, const int* in, int* out, std::size_t n,
                        int, cudaStream_t stream) {
  check_max_elements(n, INT_MAX, "scan/cub", "CUB's int item count");
  std::size_t cub_bytes = 0;
  if (n > 0)
    CUDA_CHECK(
        cub::DeviceScan::ExclusiveSum(nullptr, cub_bytes, in, out, static_cast<int>(n), stream));
  TempLayout layout(temp);
  void* cub_temp = layout.take_bytes(cub_bytes);
  if (layout.sized(temp_bytes) || n == 0)
    return;
  CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(cub_temp, cub_bytes, in, out, static_cast<int>(n), stream));
}

} // namespace gps::scan
