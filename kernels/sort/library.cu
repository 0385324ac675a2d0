// The vendor anchors: Thrust and CUB, under the two-phase temporary-storage contract. CUB's
// temporary storage (including its second key/value buffer, since the non-DoubleBuffer overloads
// leave the input untouched) is carved out of the caller's, and so are Thrust's temporary
// allocations (common/thrust_temp.cuh): neither allocates, and two calls on two streams share
// nothing.
// Measured (H200, results/nvidia-h200.json, commit 4ff90fa7816c), G keys/s at 2^20 / 2^24 /
// 2^28, uniform keys: thrust keys 12.0 / 36.8 / 45.1, pairs 10.2 / 24.5 / 28.1; cub keys
// 13.5 / 36.0 / 42.3, pairs 12.1 / 30.2 / 36.0. Thrust beat CUB's SortKeys for keys from 2^24 up
// and lost for pairs while the CUB row passed an int count (see sort_cub: the count's type picks
// CUB's tuning); the CUB row now passes a std::size_t count.
#include "common/cuda_check.hpp"
#include "common/temp_storage.hpp"
#include "common/thrust_temp.cuh"
#include "sort/sort.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

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
  // A 64-bit count, as Thrust passes: CUB 3.x picks its radix-sort tuning by key type and count
  // type, and on the H200 SortKeys of 2^28 uint32 keys took 6318 us with an int count against
  // 5425 us with a std::size_t one (1.16x; 2^24: 463 vs 423 us), the in/out and DoubleBuffer forms
  // alike (.device experiment of 2026-11-22, 20 runs each). That, not Thrust itself, is why
  // thrust::sort beat this row while it passed an int. The anchor is CUB at its best.
  const std::size_t items = n;
  constexpr int kBeginBit = 0, kEndBit = 32;
  with_key_type(key_type, [&](auto key) {
    using T = decltype(key);
    TempLayout layout(temp);
    std::size_t cub_bytes = 0;
    const auto run = [&](void* cub_temp) {
      if (!vals_in)
        CUDA_CHECK(cub::DeviceRadixSort::SortKeys(cub_temp, cub_bytes, as<T>(keys_in),
                                                  as<T>(keys_out), items, kBeginBit, kEndBit,
                                                  stream));
      else
        CUDA_CHECK(cub::DeviceRadixSort::SortPairs(cub_temp, cub_bytes, as<T>(keys_in),
                                                   as<T>(keys_out), vals_in, vals_out, items,
                                                   kBeginBit, kEndBit, stream));
    };
    run(nullptr); // the size query
    void* cub_temp = layout.take_bytes(cub_bytes);
    if (layout.sized(temp_bytes))
      return;
    run(cub_temp);
  });
}

} // namespace gps::sort
