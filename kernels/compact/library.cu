// The vendor anchors: Thrust and CUB, under the temp-storage contract: CUB is asked for its size
// and gets it from the caller's storage; Thrust's temporary allocations come out of the caller's
// storage too (common/thrust_temp.cuh), so neither allocates, and two calls on two streams never
// share a buffer.
//
// Thrust returns the end of the output as an iterator, which it can only do after reading the
// selected count back to the host: thrust_copy_if and thrust_remove_copy synchronise the stream
// inside the timed call (a fixed cost of a few microseconds that shows at small n). The count is
// then written back to the device by a one-thread kernel, in stream order.
// Measured (H200, git show 4ff90fa:results/nvidia-h200.json, keep 0.5): cub 2710 GB/s at 2^28
// (0.643x copy); thrust_copy_if and thrust_remove_copy 0.97x CUB at 2^28 but 0.45x at 2^20, the
// sync.
#include "common/arguments.hpp"
#include "common/cuda_check.hpp"
#include "common/temp_storage.hpp"
#include "common/thrust_temp.cuh"
#include "compact/compact.hpp"

#include <cub/device/device_select.cuh>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/remove.h>

#include <climits>

namespace gps::compact {
namespace {

struct NonZero {
  __host__ __device__ bool operator()(int x) const { return x != 0; }
};

__global__ void store_count(unsigned* count, unsigned value) {
  *count = value;
}

// Runs `select(allocator)`, one Thrust call returning the end of the kept elements, under the
// contract, then writes the count to the device.
template <typename Select>
void thrust_select(void* temp, std::size_t& temp_bytes, const char* who, int* out, unsigned* count,
                   std::size_t n, cudaStream_t stream, Select&& select) {
  check_max_elements(n, kMaxElements, who, "the kept count is 32-bit");
  int* end = out;
  thrust_with_temp(temp, temp_bytes, [&](ThrustTempAllocator& allocator) {
    if (n > 0)
      end = select(allocator);
  });
  if (!temp)
    return;
  if (n == 0) {
    CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(unsigned), stream));
    return;
  }
  CUDA_CHECK_LAUNCH();
  store_count<<<1, 1, 0, stream>>>(count, static_cast<unsigned>(end - out));
  CUDA_CHECK_LAUNCH();
}

} // namespace

void compact_thrust_copy_if(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                            unsigned* count, std::size_t n, int, cudaStream_t stream) {
  thrust_select(temp, temp_bytes, "compact/thrust_copy_if", out, count, n, stream,
                [&](ThrustTempAllocator& allocator) {
                  return thrust::copy_if(thrust::cuda::par(allocator).on(stream), in, in + n, out,
                                         NonZero{});
                });
}

void compact_thrust_remove_copy(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                                unsigned* count, std::size_t n, int, cudaStream_t stream) {
  thrust_select(temp, temp_bytes, "compact/thrust_remove_copy", out, count, n, stream,
                [&](ThrustTempAllocator& allocator) {
                  return thrust::remove_copy(thrust::cuda::par(allocator).on(stream), in, in + n,
                                             out, 0);
                });
}

void compact_cub(void* temp, std::size_t& temp_bytes, const int* in, int* out, unsigned* count,
                 std::size_t n, int, cudaStream_t stream) {
  check_max_elements(n, INT_MAX, "compact/cub", "CUB's int item count");
  std::size_t cub_bytes = 0;
  if (n > 0)
    CUDA_CHECK(cub::DeviceSelect::If(nullptr, cub_bytes, in, out, count, static_cast<int>(n),
                                     NonZero{}, stream));
  TempLayout layout(temp);
  void* cub_temp = layout.take_bytes(cub_bytes);
  if (layout.sized(temp_bytes))
    return;
  if (n == 0) {
    CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(unsigned), stream));
    return;
  }
  CUDA_CHECK(cub::DeviceSelect::If(cub_temp, cub_bytes, in, out, count, static_cast<int>(n),
                                   NonZero{}, stream));
}

} // namespace gps::compact
