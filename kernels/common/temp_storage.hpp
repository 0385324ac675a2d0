// CUB's two-phase temporary-storage contract, shared by every variant of every algorithm.
//
// Every variant takes `(void* temp, std::size_t& temp_bytes, ...)` first:
//   - called with temp == nullptr it only sets temp_bytes to the bytes it needs for these
//     arguments (n, block, ...) and returns: nothing is enqueued, nothing is read or written;
//   - called with storage (at least temp_bytes bytes, 256-byte aligned, device memory for GPU
//     variants and host memory for CPU variants) it runs. It never allocates.
// The caller allocates exactly what the query reported, once, outside any timed region. A variant
// that calls another asks the callee for its size and carves that many bytes out of its own.
// Nothing is shared between calls behind the caller's back, so any two variants can run at the
// same time on different streams with their own storage.
//
// TempLayout carves typed sub-buffers out of one allocation with the same code in both phases:
//
//   TempLayout layout(temp);
//   int* sums = layout.take<int>(blocks);
//   if (layout.sized(temp_bytes)) return;    // the query: temp_bytes set, nothing to do
//   ... enqueue the work, using sums ...
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace gps {

class TempLayout {
public:
  static constexpr std::size_t kAlign = 256;

  explicit TempLayout(void* base) : base_(static_cast<unsigned char*>(base)) {}

  // `count` elements of T, 256-byte aligned; nullptr in the query phase.
  template <typename T> T* take(std::size_t count) {
    return static_cast<T*>(take_bytes(count * sizeof(T)));
  }
  void* take_bytes(std::size_t bytes) {
    offset_ = (offset_ + kAlign - 1) / kAlign * kAlign;
    void* p = base_ ? static_cast<void*>(base_ + offset_) : nullptr;
    offset_ += bytes;
    return p;
  }

  // The bytes the buffers taken so far need (at least 1, so that a real allocation is never empty).
  std::size_t bytes() const noexcept { return offset_ > 0 ? offset_ : 1; }

  // Query phase (no base): sets temp_bytes and returns true. Run phase: checks that the storage
  // given is large enough (throws std::invalid_argument otherwise) and returns false.
  bool sized(std::size_t& temp_bytes) const {
    if (!base_) {
      temp_bytes = bytes();
      return true;
    }
    if (temp_bytes < offset_)
      throw std::invalid_argument("temporary storage too small: " + std::to_string(temp_bytes) +
                                  " bytes given, " + std::to_string(offset_) + " needed");
    return false;
  }

private:
  unsigned char* base_;
  std::size_t offset_ = 0;
};

// For variants that need no temporary storage: true (and temp_bytes = 1) in the query phase.
inline bool no_temp_needed(void* temp, std::size_t& temp_bytes) {
  if (temp)
    return false;
  temp_bytes = 1;
  return true;
}

} // namespace gps
