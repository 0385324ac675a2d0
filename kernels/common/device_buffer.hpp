// Move-only RAII owners for device memory, events and streams (in the spirit of moderngpu's
// mem_t). Destructors never throw: a failing cudaFree is ignored there.
#pragma once

#include "common/cuda_check.hpp"

#include <cstddef>
#include <utility>

namespace gps {

template <typename T> class DeviceBuffer {
public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) { allocate(count); }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      ptr_ = std::exchange(other.ptr_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }

  // Frees what is held and allocates `count` elements (uninitialised).
  void allocate(std::size_t count) {
    release();
    if (count == 0)
      return;
    void* p = nullptr;
    CUDA_CHECK(cudaMalloc(&p, count * sizeof(T)));
    ptr_ = static_cast<T*>(p);
    count_ = count;
  }
  void release() noexcept {
    if (ptr_)
      cudaFree(ptr_);
    ptr_ = nullptr;
    count_ = 0;
  }

  T* data() noexcept { return ptr_; }
  const T* data() const noexcept { return ptr_; }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }

private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

class CudaEvent {
public:
  CudaEvent() { CUDA_CHECK(cudaEventCreate(&event_)); }
  ~CudaEvent() {
    if (event_)
      cudaEventDestroy(event_);
  }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  CudaEvent(CudaEvent&& o) noexcept : event_(std::exchange(o.event_, nullptr)) {}
  CudaEvent& operator=(CudaEvent&& o) noexcept {
    std::swap(event_, o.event_);
    return *this;
  }
  cudaEvent_t get() const noexcept { return event_; }

private:
  cudaEvent_t event_ = nullptr;
};

class CudaStream {
public:
  CudaStream() { CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~CudaStream() {
    if (stream_)
      cudaStreamDestroy(stream_);
  }
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  cudaStream_t get() const noexcept { return stream_; }

private:
  cudaStream_t stream_ = nullptr;
};

} // namespace gps
