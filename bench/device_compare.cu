// Validation on the GPU: comparing a 2^30-element output on the host would cost seconds per row
// (the copy back and the scan), so rows compare against a device-resident copy of the CPU
// reference and only the first mismatch travels back.
#include "harness.hpp"

namespace gps::bench {
namespace {

__global__ void first_difference_kernel(const unsigned *a, const unsigned *b, std::size_t n,
                                        unsigned long long *first) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride)
    if (a[i] != b[i]) {
      atomicMin(first, static_cast<unsigned long long>(i));
      return;
    }
}

} // namespace

std::string first_mismatch_device(const int *got, const int *expected, std::size_t n) {
  if (n == 0)
    return "";
  DeviceBuffer<unsigned long long> first(1);
  const unsigned long long none = n;
  CUDA_CHECK(cudaMemcpy(first.data(), &none, sizeof none, cudaMemcpyHostToDevice));
  first_difference_kernel<<<1024, 256>>>(reinterpret_cast<const unsigned *>(got),
                                         reinterpret_cast<const unsigned *>(expected), n,
                                         first.data());
  CUDA_CHECK_LAUNCH();
  unsigned long long index = 0;
  CUDA_CHECK(cudaMemcpy(&index, first.data(), sizeof index, cudaMemcpyDeviceToHost));
  if (index >= n)
    return "";
  int g = 0, w = 0;
  CUDA_CHECK(cudaMemcpy(&g, got + index, sizeof g, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&w, expected + index, sizeof w, cudaMemcpyDeviceToHost));
  return "wrong result at index " + std::to_string(index) + " of " + std::to_string(n) + ": got " +
         std::to_string(g) + ", expected " + std::to_string(w);
}

} // namespace gps::bench
