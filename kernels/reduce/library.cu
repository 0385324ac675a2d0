// The vendor anchors: Thrust and CUB, under the two-phase temporary-storage contract: CUB's
// temporary storage is carved out of the caller's, and so are Thrust's temporary allocations
// (common/thrust_temp.cuh), so neither allocates and two calls on two streams share nothing.
//
// thrust::reduce returns the sum to the host, so it synchronises the stream inside the timed call
// (a fixed cost of a few microseconds that shows at small n); the value then goes back to the
// device result by a one-thread kernel, in stream order. CUB writes the device result directly.
// Measured (H200, git show 4ff90fa:results/nvidia-h200.json), GB/s at 2^20 / 2^24 / 2^28:
// thrust 170 / 1638 / 4103, cub 470 / 2706 / 4398 (1.04x copy at 2^28).
#include "common/cuda_check.hpp"
#include "common/temp_storage.hpp"
#include "common/thrust_temp.cuh"
#include "reduce/reduce.hpp"

#include <cub/device/device_reduce.cuh>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>

#include <climits>
#include <stdexcept>

namespace gps::reduce {
namespace {
__global__ void store_result(int* result, int value) {
  *result = value;
}
} // namespace

void reduce_thrust(void* temp, std::size_t& temp_bytes, const int* in, int* result, std::size_t n,
                   int, cudaStream_t stream) {
  if (n == 0) {
    if (no_temp_needed(temp, temp_bytes))
      return;
    CUDA_CHECK(cudaMemsetAsync(result, 0, sizeof(int), stream));
    return;
  }
  int sum = 0;
  thrust_with_temp(temp, temp_bytes, [&](ThrustTempAllocator& allocator) {
    sum = thrust::reduce(thrust::cuda::par(allocator).on(stream), in, in + n);
  });
  if (!temp)
    return; // the query
  CUDA_CHECK_LAUNCH();
  store_result<<<1, 1, 0, stream>>>(result, sum);
  CUDA_CHECK_LAUNCH();
}

void reduce_cub(void* temp, std::size_t& temp_bytes, const int* in, int* result, std::size_t n, int,
                cudaStream_t stream) {
  if (n > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("cub reduce: n must be at most INT_MAX (32-bit offsets)");
  if (n == 0) {
    if (no_temp_needed(temp, temp_bytes))
      return;
    CUDA_CHECK(cudaMemsetAsync(result, 0, sizeof(int), stream));
    return;
  }
  TempLayout layout(temp);
  std::size_t cub_bytes = 0;
  CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, cub_bytes, in, result, static_cast<int>(n), stream));
  void* cub_temp = layout.take_bytes(cub_bytes);
  if (layout.sized(temp_bytes))
    return;
  CUDA_CHECK(cub::DeviceReduce::Sum(cub_temp, cub_bytes, in, result, static_cast<int>(n), stream));
}

} // namespace gps::reduce
