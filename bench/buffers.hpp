// Host <-> device helpers shared by the benchmarks and the tests: upload, download, poison, and
// the comparison of a result with its expected value (every element; the first mismatch reported).
#pragma once

#include "common/cpu_parallel.hpp"
#include "common/cuda_check.hpp"
#include "common/device_buffer.hpp"
#include "host_vector.hpp"
#include "setup_trace.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gps {

inline constexpr unsigned char kPoisonByte = 0xAB;

// Uploads and waits: a pageable cudaMemcpy may return before its DMA lands, and the benchmarks run
// on a non-blocking stream that the legacy stream does not order against.
template <typename T, typename A> DeviceBuffer<T> to_device(const std::vector<T, A>& host) {
  const SetupTrace trace("to_device", host.size() * sizeof(T));
  DeviceBuffer<T> d(host.size());
  if (!host.empty())
    CUDA_CHECK(cudaMemcpy(d.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaDeviceSynchronize());
  return d;
}
template <typename T> HostVector<T> to_host(const T* d, std::size_t n) {
  const SetupTrace trace("to_host", n * sizeof(T));
  HostVector<T> h(n);
  if (n)
    CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

// Fills device memory with kPoisonByte and waits, so that work on any stream sees the fill.
void poison_device(void* d, std::size_t bytes);
template <typename T, typename A> void poison_host(std::vector<T, A>& h) {
  auto* bytes = reinterpret_cast<unsigned char*>(h.data());
  parallel_chunks(h.size() * sizeof(T), threads_for(h.size()),
                  [&](unsigned, std::size_t b, std::size_t e) {
                    std::fill(bytes + b, bytes + e, kPoisonByte);
                  });
}

// Fills d[0, n) with random_word(seed, i)'s low 32 bits on the GPU and waits (data.hpp's
// random_ints without the host: the copy rows' source needs no host copy).
void random_words_device(void* d, std::size_t n, std::uint64_t seed);

// "" when got[0, n) == want[0, n); otherwise the first mismatching index and both values.
// Compared by every host thread at once from 2^20 elements up (first_index_where).
template <typename T> std::string first_mismatch(const T* got, const T* want, std::size_t n) {
  const std::size_t i = first_index_where(n, [&](std::size_t k) { return !(got[k] == want[k]); });
  if (i >= n)
    return "";
  return "wrong result at index " + std::to_string(i) + " of " + std::to_string(n) + ": got " +
         std::to_string(got[i]) + ", expected " + std::to_string(want[i]);
}

// The same with both arrays in device memory (bench/device_compare.cu): 4-byte elements compared
// on the GPU, only the first mismatch copied back. Cheap enough for every row at 2^30.
std::string first_mismatch_device(const void* got, const void* want, std::size_t n);

std::string wrong_count(unsigned long long got, unsigned long long want);

} // namespace gps
