#include "device_sort_check.hpp"

#include "common/cuda_check.hpp"
#include "common/device_buffer.hpp"
#include "data.hpp"

namespace gps {
namespace {

template <bool PAIRS>
__global__ void sort_check_kernel(const unsigned* keys, const unsigned* vals,
                                  const unsigned* keys_in, std::size_t n, sort::KeyOrder order,
                                  bool fingerprint, unsigned long long* first,
                                  unsigned long long* sums) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::uint64_t a = 0, b = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    const unsigned key = keys[i];
    bool bad;
    if (PAIRS) {
      const unsigned v = vals[i];
      bad = v >= n || key != keys_in[v];
      if (!bad && i > 0) {
        const unsigned prev = order(keys[i - 1]), cur = order(key);
        bad = !(prev < cur || (prev == cur && vals[i - 1] < v));
      }
    } else {
      bad = i > 0 && order(keys[i - 1]) > order(key);
      if (fingerprint) {
        a += random_word(key, 1);
        b += random_word(key, 2);
      }
    }
    if (bad) {
      atomicMin(first, static_cast<unsigned long long>(i));
      break; // this thread's first failure is its lowest; the fingerprint no longer matters
    }
  }
  if (fingerprint) {
    atomicAdd(&sums[0], static_cast<unsigned long long>(a));
    atomicAdd(&sums[1], static_cast<unsigned long long>(b));
  }
}

} // namespace

DeviceSortCheck check_sort_on_device(const unsigned* keys, const unsigned* vals,
                                     const unsigned* keys_in, std::size_t n, sort::KeyOrder order,
                                     bool fingerprint) {
  DeviceSortCheck result{n, 0, 0};
  if (n == 0)
    return result;
  // [0]: the first failing index (n: none); [1], [2]: the fingerprint sums
  DeviceBuffer<unsigned long long> words(3);
  const unsigned long long init[3] = {n, 0, 0};
  CUDA_CHECK(cudaMemcpy(words.data(), init, sizeof init, cudaMemcpyHostToDevice));
  if (vals)
    sort_check_kernel<true>
        <<<1024, 256>>>(keys, vals, keys_in, n, order, false, words.data(), words.data() + 1);
  else
    sort_check_kernel<false><<<1024, 256>>>(keys, nullptr, nullptr, n, order, fingerprint,
                                            words.data(), words.data() + 1);
  CUDA_CHECK_LAUNCH();
  unsigned long long out[3] = {};
  CUDA_CHECK(cudaMemcpy(out, words.data(), sizeof out, cudaMemcpyDeviceToHost));
  result.first_bad = static_cast<std::size_t>(out[0]);
  result.fingerprint_a = out[1];
  result.fingerprint_b = out[2];
  return result;
}

} // namespace gps
