// The vendor anchors: Thrust and CUB. CUB's temporary storage comes from the shared Workspace;
// Thrust's temporary allocations go through a caching allocator, so after the warm-up call
// neither allocates inside a timed region.
//
// thrust::reduce returns the sum to the host, so it synchronises the stream inside the timed call
// (a fixed cost of a few microseconds that shows at small n); the value then goes back to the
// device result by a one-thread kernel, in stream order. CUB writes the device result directly.
#include "common/cuda_check.hpp"
#include "common/thrust_allocator.cuh"
#include "reduce/reduce.hpp"

#include <cub/device/device_reduce.cuh>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>

#include <climits>
#include <stdexcept>

namespace gps::reduce {
namespace {
__global__ void store_result(int* result, int value) { *result = value; }
} // namespace

void reduce_thrust(const int* in, int* result, std::size_t n, int, Workspace&,
                   cudaStream_t stream) {
  if (n == 0) {
    CUDA_CHECK(cudaMemsetAsync(result, 0, sizeof(int), stream));
    return;
  }
  const int sum = thrust::reduce(thrust::cuda::par(thrust_temp_allocator()).on(stream), in, in + n);
  CUDA_CHECK_LAUNCH();
  store_result<<<1, 1, 0, stream>>>(result, sum);
  CUDA_CHECK_LAUNCH();
}

void reduce_cub(const int* in, int* result, std::size_t n, int, Workspace& ws,
                cudaStream_t stream) {
  if (n == 0) {
    CUDA_CHECK(cudaMemsetAsync(result, 0, sizeof(int), stream));
    return;
  }
  if (n > static_cast<std::size_t>(INT_MAX)) throw std::invalid_argument("cub reduce: n > INT_MAX");
  std::size_t bytes = 0;
  CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, in, result, static_cast<int>(n), stream));
  void* temp = ws.reserve(bytes);
  CUDA_CHECK(cub::DeviceReduce::Sum(temp, bytes, in, result, static_cast<int>(n), stream));
}

} // namespace gps::reduce
