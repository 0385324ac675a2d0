// The vendor anchors: Thrust and CUB. CUB's temporary storage (including its second key/value
// buffer, since the non-DoubleBuffer overloads leave the input untouched) comes from the shared
// Workspace; Thrust's temporary allocations go through the caching allocator, so after the warm-up
// call neither allocates inside a timed region.
#include "common/cuda_check.hpp"
#include "common/thrust_allocator.cuh"
#include "sort/sort.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <climits>
#include <stdexcept>

namespace gps::sort {

// Thrust sorts in place: the inputs are first copied into the outputs, inside the call, so the
// copy (one more read and write of every key and value) is part of the timed work. For 32-bit
// keys with the default comparison Thrust dispatches to CUB's radix sort.
void sort_thrust(const unsigned* keys_in, unsigned* keys_out, const unsigned* vals_in,
                 unsigned* vals_out, std::size_t n, int, Workspace&, cudaStream_t stream) {
  if (n == 0) return;
  CUDA_CHECK(
      cudaMemcpyAsync(keys_out, keys_in, n * sizeof(unsigned), cudaMemcpyDeviceToDevice, stream));
  const auto policy = thrust::cuda::par_nosync(thrust_temp_allocator()).on(stream);
  if (!vals_in) {
    thrust::sort(policy, keys_out, keys_out + n);
  } else {
    CUDA_CHECK(
        cudaMemcpyAsync(vals_out, vals_in, n * sizeof(unsigned), cudaMemcpyDeviceToDevice, stream));
    thrust::stable_sort_by_key(policy, keys_out, keys_out + n, vals_out);
  }
  CUDA_CHECK_LAUNCH();
}

void sort_cub(const unsigned* keys_in, unsigned* keys_out, const unsigned* vals_in,
              unsigned* vals_out, std::size_t n, int, Workspace& ws, cudaStream_t stream) {
  if (n == 0) return;
  if (n > static_cast<std::size_t>(INT_MAX)) throw std::invalid_argument("cub sort: n > INT_MAX");
  // int items: CUB picks 32-bit offsets, its fastest configuration
  const int items = static_cast<int>(n);
  constexpr int kBeginBit = 0, kEndBit = 32;
  std::size_t bytes = 0;
  if (!vals_in) {
    CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, keys_in, keys_out, items, kBeginBit,
                                              kEndBit, stream));
    void* temp = ws.reserve(bytes);
    CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp, bytes, keys_in, keys_out, items, kBeginBit,
                                              kEndBit, stream));
  } else {
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys_in, keys_out, vals_in, vals_out,
                                               items, kBeginBit, kEndBit, stream));
    void* temp = ws.reserve(bytes);
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, vals_in, vals_out,
                                               items, kBeginBit, kEndBit, stream));
  }
}

} // namespace gps::sort
