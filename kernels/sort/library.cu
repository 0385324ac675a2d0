// The vendor anchors: Thrust and CUB, under the two-phase temporary-storage contract. CUB's
// temporary storage (including its second key/value buffer, since the non-DoubleBuffer overloads
// leave the input untouched) is carved out of the caller's, and so are Thrust's temporary
// allocations (common/thrust_temp.cuh): neither allocates, and two calls on two streams share
// nothing.
// Measured (H200, git show 4ff90fa:results/nvidia-h200.json), G keys/s at 2^20 / 2^24 /
// 2^28, uniform keys: thrust keys 12.0 / 36.8 / 45.1, pairs 10.2 / 24.5 / 28.1; cub keys
// 13.5 / 36.0 / 42.3, pairs 12.1 / 30.2 / 36.0. Thrust beat CUB's SortKeys for keys from 2^24 up
// and lost for pairs while the CUB row passed an int count (see sort_cub: the count's type picks
// CUB's tuning); the CUB row now passes the faster count type for each call.
#include "common/cuda_check.hpp"
#include "common/temp_storage.hpp"
#include "common/thrust_temp.cuh"
#include "sort/sort.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <climits>
#include <cstddef>

namespace gps::sort {

// Thrust sorts in place: the inputs are first copied into the outputs, inside the call, so the
// copy (one more read and write of every key and value) is part of the timed work. For 32-bit
// keys with the default comparison Thrust dispatches to CUB's radix sort. The query makes only
// Thrust's size query (no copy).
namespace {

// Calls f(T{}) with the C++ type of the key type: Thrust and CUB sort int and float keys natively,
// with the same order as KeyOrder (sort.hpp).
template <typename F> void with_key_type(KeyType t, F&& f) {
  if (t == KeyType::Uint32)
    f(unsigned{});
  else if (t == KeyType::Int32)
    f(int{});
  else
    f(float{});
}
template <typename T> const T* as(const unsigned* p) {
  return reinterpret_cast<const T*>(p);
}
template <typename T> T* as(unsigned* p) {
  return reinterpret_cast<T*>(p);
}

} // namespace

void sort_thrust(void* temp, std::size_t& temp_bytes, const unsigned* keys_in, unsigned* keys_out,
                 const unsigned* vals_in, unsigned* vals_out, std::size_t n, KeyType key_type, int,
                 cudaStream_t stream) {
  if (n == 0) {
    no_temp_needed(temp, temp_bytes);
    return;
  }
  if (temp) {
    CUDA_CHECK(
        cudaMemcpyAsync(keys_out, keys_in, n * sizeof(unsigned), cudaMemcpyDeviceToDevice, stream));
    if (vals_in)
      CUDA_CHECK(cudaMemcpyAsync(vals_out, vals_in, n * sizeof(unsigned), cudaMemcpyDeviceToDevice,
                                 stream));
  }
  thrust_with_temp(temp, temp_bytes, [&](ThrustTempAllocator& allocator) {
    const auto policy = thrust::cuda::par_nosync(allocator).on(stream);
    with_key_type(key_type, [&](auto key) {
      using T = decltype(key);
      T* keys = as<T>(keys_out);
      if (!vals_in)
        thrust::sort(policy, keys, keys + n);
      else
        thrust::stable_sort_by_key(policy, keys, keys + n, vals_out);
    });
  });
  if (temp)
    CUDA_CHECK_LAUNCH();
}

void sort_cub(void* temp, std::size_t& temp_bytes, const unsigned* keys_in, unsigned* keys_out,
              const unsigned* vals_in, unsigned* vals_out, std::size_t n, KeyType key_type, int,
              cudaStream_t stream) {
  if (n == 0) {
    no_temp_needed(temp, temp_bytes);
    return;
  }
  // The count's type picks CUB 3.x's tuning. Measured on the H200 (.device experiment of
  // 2026-11-22, median of 12 runs, 2^28 random bits, us, int count / std::size_t count):
  //   keys   uint32 6318 / 5430   int32 5332 / 5440   float32 5777 / 5840
  //   pairs  uint32 7417 / 8495   int32 7483 / 8585   float32 7700 / 8795
  // (2^24 the same way round; the H100 the same way round too: keys uint32 6425 / 5559, int32
  // 5446 / 5552, float32 5851 / 5922; pairs uint32 8988 / 9326). uint32 keys alone run 1.16x faster
  // with a 64-bit count, which is what Thrust passes and why thrust::sort beat this row while it
  // always passed an int; every other call is faster with an int. The anchor is CUB at its best: a
  // 64-bit count for uint32 keys alone (and wherever n > INT_MAX), an int otherwise.
  const bool wide =
      (!vals_in && key_type == KeyType::Uint32) || n > static_cast<std::size_t>(INT_MAX);
  constexpr int kBeginBit = 0, kEndBit = 32;
  with_key_type(key_type, [&](auto key) {
    using T = decltype(key);
    TempLayout layout(temp);
    std::size_t cub_bytes = 0;
    const auto call = [&](void* cub_temp, auto items) {
      if (!vals_in)
        CUDA_CHECK(cub::DeviceRadixSort::SortKeys(cub_temp, cub_bytes, as<T>(keys_in),
                                                  as<T>(keys_out), items, kBeginBit, kEndBit,
                                                  stream));
      else
        CUDA_CHECK(cub::DeviceRadixSort::SortPairs(cub_temp, cub_bytes, as<T>(keys_in),
                                                   as<T>(keys_out), vals_in, vals_out, items,
                                                   kBeginBit, kEndBit, stream));
    };
    const auto run = [&](void* cub_temp) {
      if (wide)
        call(cub_temp, n);
      else
        call(cub_temp, static_cast<int>(n));
    };
    run(nullptr); // the size query
    void* cub_temp = layout.take_bytes(cub_bytes);
    if (layout.sized(temp_bytes))
      return;
    run(cub_temp);
  });
}

} // namespace gps::sort
