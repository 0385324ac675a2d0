#include "common/thrust_allocator.cuh"

#include <new>

namespace gps {

char* ThrustCachingAllocator::allocate(std::ptrdiff_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::size_t want = static_cast<std::size_t>(bytes);
  auto it = free_.lower_bound(want);
  char* p = nullptr;
  std::size_t size = want;
  if (it != free_.end()) {
    p = it->second;
    size = it->first;
    free_.erase(it);
  } else {
    void* raw = nullptr;
    if (cudaMalloc(&raw, want) != cudaSuccess) {
      cudaGetLastError();
      throw std::bad_alloc();
    }
    p = static_cast<char*>(raw);
  }
  in_use_[p] = size;
  return p;
}

void ThrustCachingAllocator::deallocate(char* p, std::size_t) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = in_use_.find(p);
  if (it == in_use_.end()) return;
  free_.emplace(it->second, p);
  in_use_.erase(it);
}

void ThrustCachingAllocator::release_all() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [size, p] : free_) cudaFree(p);
  free_.clear();
}

ThrustTempAllocator thrust_temp_allocator() {
  static ThrustCachingAllocator cache;
  return ThrustTempAllocator{&cache};
}

} // namespace gps
