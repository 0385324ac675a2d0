// Shared memory by its 32-bit address in the block's shared window: what the PTX instructions
// that take shared addresses want (bulk copies, barriers), and a plain store by such an address,
// for a kernel that computes it itself (utf8/single_pass's accumulate mode: base + 4 * slot, two
// operations, where the pointer form kept the warp's offset apart, three).
#pragma once

#include <cstdint>

namespace gps {

__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// A 32-bit store to shared memory at `address` (shared_address of the word).
__device__ __forceinline__ void st_shared(std::uint32_t address, std::uint32_t value) {
  asm volatile("st.shared.u32 [%0], %1;" ::"r"(address), "r"(value) : "memory");
}

} // namespace gps
