// Temporary device storage shared by every variant: grow-only, so that after the first (warm-up)
// call no variant allocates again. Benchmarks run each variant once before timing it, which is
// when the workspace reaches its final size: no allocation ever lands in a timed region.
#pragma once

#include "common/device_buffer.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace gps {

class Workspace {
public:
  // Returns at least `bytes` of device memory, 256-byte aligned. Growing synchronises the device
  // (cudaFree/cudaMalloc), so it must not happen inside a timed region.
  void* reserve(std::size_t bytes) {
    if (bytes > buffer_.size()) {
      buffer_.release();
      buffer_.allocate(bytes);
    }
    return buffer_.data();
  }
  std::size_t capacity() const noexcept { return buffer_.size(); }
  void release() noexcept {
    buffer_.release();
    if (nested_) nested_->release();
  }

  // A second, independent workspace for a variant that calls another variant (compaction calls a
  // scan by name): the caller keeps its own buffers here while the callee reserves from nested().
  Workspace& nested() {
    if (!nested_) nested_ = std::make_unique<Workspace>();
    return *nested_;
  }

private:
  DeviceBuffer<unsigned char> buffer_;
  std::unique_ptr<Workspace> nested_;
};

// Carves typed sub-buffers out of one allocation. Used in two passes: first with a null base to
// count the bytes a variant needs, then over the reserved workspace to hand out the pointers.
class Carver {
public:
  explicit Carver(void* base = nullptr) : base_(static_cast<unsigned char*>(base)) {}
  template <typename T> T* take(std::size_t count) {
    offset_ = (offset_ + kAlign - 1) / kAlign * kAlign;
    T* p = base_ ? reinterpret_cast<T*>(base_ + offset_) : nullptr;
    offset_ += count * sizeof(T);
    return p;
  }
  std::size_t bytes() const noexcept { return offset_ + kAlign; }

private:
  static constexpr std::size_t kAlign = 256;
  unsigned char* base_;
  std::size_t offset_ = 0;
};

} // namespace gps
