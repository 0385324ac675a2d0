// A caching allocator for Thrust's temporary storage (after Thrust's
// examples/cuda/custom_temporary_allocation.cu): blocks are kept after their first use, so a
// Thrust call allocates only during the warm-up run, never inside a timed region.
#pragma once

#include "common/cuda_check.hpp"

#include <cstddef>
#include <map>
#include <mutex>

namespace gps {

class ThrustCachingAllocator {
public:
  using value_type = char;
  char* allocate(std::ptrdiff_t bytes);
  void deallocate(char* p, std::size_t);
  void release_all(); // frees every cached block (synchronises the device)
  ~ThrustCachingAllocator() { release_all(); }

private:
  std::mutex mutex_;
  std::multimap<std::size_t, char*> free_;
  std::map<char*, std::size_t> in_use_;
};

// Thrust copies the allocator it is given; this returns a handle to the process-wide cache.
struct ThrustTempAllocator {
  using value_type = char;
  ThrustCachingAllocator* cache;
  char* allocate(std::ptrdiff_t bytes) { return cache->allocate(bytes); }
  void deallocate(char* p, std::size_t bytes) { cache->deallocate(p, bytes); }
};

ThrustTempAllocator thrust_temp_allocator();

} // namespace gps
