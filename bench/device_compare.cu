// Validation on the GPU: comparing a 2^30-element output on the host would cost seconds per row
// (the copy back and the scan), so results are compared with a device-resident copy of the
// expected output and only the first mismatch travels back.
#include "buffers.hpp"
#include "data.hpp"

#include <algorithm>

namespace gps {
namespace {

__global__ void first_difference_kernel(const unsigned* a, const unsigned* b, std::size_t n,
                                        unsigned long long* first) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride)
    if (a[i] != b[i]) {
      atomicMin(first, static_cast<unsigned long long>(i));
      return;
    }
}

__global__ void random_words_kernel(unsigned* d, std::size_t n, std::uint64_t seed) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride)
    d[i] = static_cast<unsigned>(random_word(seed, i));
}

} // namespace

void random_words_device(void* d, std::size_t n, std::uint64_t seed) {
  if (n) {
    random_words_kernel<<<1024, 256>>>(static_cast<unsigned*>(d), n, seed);
    CUDA_CHECK_LAUNCH();
  }
  CUDA_CHECK(cudaDeviceSynchronize());
}

void poison_device(void* d, std::size_t bytes) {
  if (bytes)
    CUDA_CHECK(cudaMemset(d, kPoisonByte, bytes));
  CUDA_CHECK(cudaDeviceSynchronize());
}

std::string wrong_count(unsigned long long got, unsigned long long want) {
  if (got == want)
    return "";
  return "wrong count: got " + std::to_string(got) + ", expected " + std::to_string(want);
}

std::string first_mismatch_device(const void* got, const void* want, std::size_t n) {
  if (n == 0)
    return "";
  DeviceBuffer<unsigned long long> first(1);
  const unsigned long long none = n;
  CUDA_CHECK(cudaMemcpy(first.data(), &none, sizeof none, cudaMemcpyHostToDevice));
  const auto* a = static_cast<const unsigned*>(got);
  const auto* b = static_cast<const unsigned*>(want);
  first_difference_kernel<<<1024, 256>>>(a, b, n, first.data());
  CUDA_CHECK_LAUNCH();
  unsigned long long index = 0;
  CUDA_CHECK(cudaMemcpy(&index, first.data(), sizeof index, cudaMemcpyDeviceToHost));
  if (index >= n)
    return "";
  unsigned g = 0, w = 0;
  CUDA_CHECK(cudaMemcpy(&g, a + index, sizeof g, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&w, b + index, sizeof w, cudaMemcpyDeviceToHost));
  return "wrong result at index " + std::to_string(index) + " of " + std::to_string(n) + ": got " +
         std::to_string(static_cast<int>(g)) + ", expected " + std::to_string(static_cast<int>(w));
}

} // namespace gps
