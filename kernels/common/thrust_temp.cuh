// Thrust's temporary storage under the two-phase contract (common/temp_storage.hpp): a Thrust
// call's temporary allocations come out of the caller's storage, never from a shared cache.
//
// Why not a caching allocator: Thrust hands a block back as soon as the call returns, which with
// par_nosync is before the kernels using it have run; a cache shared by two streams then gives the
// same block to a second call while the first still uses it (seen: scan/thrust gave millions of
// wrong elements and sort/thrust an illegal address when two ran concurrently on an H200).
//
// Query phase: the Thrust call runs with a sizing allocator whose first allocate() records the
// size and throws before Thrust has enqueued anything (Thrust sizes its CUB temporary storage,
// allocates once, then launches). Run phase: a bump allocator over the caller's storage; running
// out of it throws std::runtime_error instead of allocating.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace gps {

class ThrustTempAllocator {
public:
  using value_type = char;

  struct SizeQuery {}; // thrown by the sizing allocator

  ThrustTempAllocator(void* base, std::size_t bytes)
      : base_(static_cast<char*>(base)), capacity_(bytes) {}

  char* allocate(std::ptrdiff_t count) {
    const std::size_t want = round_up(static_cast<std::size_t>(count));
    if (!base_) {
      requested_ = want;
      throw SizeQuery{};
    }
    if (used_ + want > capacity_)
      throw std::runtime_error(
          "thrust asked for more temporary storage than its size query said (" +
          std::to_string(used_ + want) + " > " + std::to_string(capacity_) + " bytes)");
    char* p = base_ + used_;
    used_ += want;
    return p;
  }
  void deallocate(char*, std::size_t) noexcept {}

  std::size_t requested() const { return requested_; }

private:
  static std::size_t round_up(std::size_t b) { return (b + 255) / 256 * 256; }
  char* base_;
  std::size_t capacity_;
  std::size_t used_ = 0;
  std::size_t requested_ = 0;
};

// Runs `call(allocator)` (which makes one Thrust call with thrust::cuda::par(_nosync)(allocator))
// under the contract: with temp == nullptr only sets temp_bytes.
template <typename Call> void thrust_with_temp(void* temp, std::size_t& temp_bytes, Call&& call) {
  if (!temp) {
    ThrustTempAllocator sizing(nullptr, 0);
    try {
      call(sizing);
    } catch (const ThrustTempAllocator::SizeQuery&) {
    }
    temp_bytes = sizing.requested() > 0 ? sizing.requested() : 1;
    return;
  }
  ThrustTempAllocator allocator(temp, temp_bytes);
  call(allocator);
}

} // namespace gps
