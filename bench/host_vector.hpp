// HostVector<T>: the host arrays of the benchmarks' and tests' instances (inputs, expected
// outputs, CPU outputs). A std::vector whose large allocations (>= 16 MiB) are 2 MiB-aligned,
// advised for transparent huge pages, and zeroed by every host thread at once; and whose elements
// are not value-initialised a second time (trivial types only: the memory is already zero).
// Why: a plain std::vector<int>(2^30) is zeroed by one thread, page by 4 KiB page. On the H200
// machine, making the 4 GiB input took 2.0-2.3 s of page faults and zeroing (GPS_TRACE_SETUP=1) and
// a scan instance at 2^30 took 6.9 s to set up; those seconds, per instance and size, were most of
// the suite's wall time at 2^28-2^30.
#pragma once

#include "common/cpu_parallel.hpp"

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace gps {

namespace host_memory {
inline constexpr std::size_t kLarge = std::size_t{16} << 20;
inline constexpr std::size_t kHugePage = std::size_t{2} << 20;

// Zeroed memory of `bytes` bytes; nullptr when there is none.
inline void* allocate_zeroed(std::size_t bytes) {
  if (bytes < kLarge)
    return std::calloc(bytes, 1);
  const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* p = std::aligned_alloc(kHugePage, rounded);
  if (p == nullptr)
    return nullptr;
#if defined(MADV_HUGEPAGE)
  madvise(p, rounded, MADV_HUGEPAGE); // advice only: without huge pages it is merely slower
#endif
  auto* bytes_p = static_cast<unsigned char*>(p);
  const std::size_t pages = rounded / kHugePage;
  parallel_chunks(pages, cpu_threads(), [&](unsigned, std::size_t b, std::size_t e) {
    std::memset(bytes_p + b * kHugePage, 0, (e - b) * kHugePage);
  });
  return p;
}
} // namespace host_memory

template <typename T> struct HostAllocator {
  using value_type = T;
  HostAllocator() = default;
  template <typename U> HostAllocator(const HostAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T))
      throw std::bad_alloc();
    void* p = host_memory::allocate_zeroed(n * sizeof(T));
    if (p == nullptr && n > 0)
      throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t) noexcept { std::free(p); }

  // vector(n) and resize(n) of a trivial type leave the allocator's zeros in place; but a resize
  // that grows back within the capacity (after a shrink) leaves the old values, not zeros: assign
  // where zeros matter
  template <typename U, typename... Args> void construct(U* p, Args&&... args) {
    if constexpr (sizeof...(Args) == 0 && std::is_trivially_default_constructible_v<U>)
      ::new (static_cast<void*>(p)) U;
    else
      ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }

  template <typename U> bool operator==(const HostAllocator<U>&) const noexcept { return true; }
  template <typename U> bool operator!=(const HostAllocator<U>&) const noexcept { return false; }
};

template <typename T> using HostVector = std::vector<T, HostAllocator<T>>;

} // namespace gps
