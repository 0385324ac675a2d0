// The vendor anchors: Thrust and CUB. CUB's temporary storage comes from the shared Workspace;
// Thrust's temporary allocations go through a caching allocator, so after the warm-up call
// neither allocates inside a timed region.
//
// Thrust returns the end of the output as an iterator, which it can only do after reading the
// selected count back to the host: thrust_copy_if and thrust_remove_copy synchronise the stream
// inside the timed call (a fixed cost of a few microseconds that shows at small n). The count is
// then written back to the device by a one-thread kernel, in stream order.
#include "common/cuda_check.hpp"
#include "common/thrust_allocator.cuh"
#include "compact/compact.hpp"

#include <cub/device/device_select.cuh>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/remove.h>

#include <climits>
#include <stdexcept>

namespace gps::compact {
namespace {

struct NonZero {
  __host__ __device__ bool operator()(int x) const { return x != 0; }
};

__global__ void store_count(unsigned* count, unsigned value) { *count = value; }

void write_count(unsigned* count, std::ptrdiff_t kept, cudaStream_t stream) {
  store_count<<<1, 1, 0, stream>>>(count, static_cast<unsigned>(kept));
  CUDA_CHECK_LAUNCH();
}

} // namespace

void compact_thrust_copy_if(const int* in, int* out, unsigned* count, std::size_t n, int,
                            Workspace&, cudaStream_t stream) {
  if (n == 0) {
    CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(unsigned), stream));
    return;
  }
  int* end = thrust::copy_if(thrust::cuda::par(thrust_temp_allocator()).on(stream), in, in + n, out,
                             NonZero{});
  CUDA_CHECK_LAUNCH();
  write_count(count, end - out, stream);
}

void compact_thrust_remove_copy(const int* in, int* out, unsigned* count, std::size_t n, int,
                                Workspace&, cudaStream_t stream) {
  if (n == 0) {
    CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(unsigned), stream));
    return;
  }
  int* end = thrust::remove_copy(thrust::cuda::par(thrust_temp_allocator()).on(stream), in, in + n,
                                 out, 0);
  CUDA_CHECK_LAUNCH();
  write_count(count, end - out, stream);
}

void compact_cub(const int* in, int* out, unsigned* count, std::size_t n, int, Workspace& ws,
                 cudaStream_t stream) {
  if (n == 0) {
    CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(unsigned), stream));
    return;
  }
  if (n > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("cub compaction: n > INT_MAX");
  std::size_t bytes = 0;
  CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, in, out, count, static_cast<int>(n), NonZero{},
                                   stream));
  void* temp = ws.reserve(bytes);
  CUDA_CHECK(
      cub::DeviceSelect::If(temp, bytes, in, out, count, static_cast<int>(n), NonZero{}, stream));
}

} // namespace gps::compact
