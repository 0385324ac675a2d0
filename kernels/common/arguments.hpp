// Argument checks of the library contract (the <algorithm>.hpp headers list each variant's
// limits): a variant refuses what it cannot do with std::invalid_argument naming the requirement,
// instead of failing later with a CUDA error or a wrong result. Host code only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gps {

// Largest grid.x a launch may use.
inline constexpr std::size_t kMaxGridBlocks = 0x7fffffff;

// Refuses n > max: "<who>: n = <n> exceeds its limit of <max> elements (<why>)".
inline void check_max_elements(std::size_t n, std::size_t max, const char* who, const char* why) {
  if (n > max)
    throw std::invalid_argument(std::string(who) + ": n = " + std::to_string(n) +
                                " exceeds its limit of " + std::to_string(max) + " elements (" +
                                why + ")");
}

// Refuses a pointer that is not `align`-byte aligned: "<who> needs a <align>-byte aligned <what>".
inline void check_aligned(const void* p, std::size_t align, const char* who, const char* what) {
  if (reinterpret_cast<std::uintptr_t>(p) % align != 0)
    throw std::invalid_argument(std::string(who) + " needs a " + std::to_string(align) +
                                "-byte aligned " + what);
}

// Blocks of `per_block` items that cover `items` (at least one), refused above kMaxGridBlocks.
inline unsigned grid_blocks(std::size_t items, std::size_t per_block, const char* who) {
  const std::size_t blocks = items == 0 ? 1 : (items + per_block - 1) / per_block;
  if (blocks > kMaxGridBlocks)
    throw std::invalid_argument(std::string(who) + ": " + std::to_string(items) +
                                " elements need " + std::to_string(blocks) +
                                " blocks, more than the grid limit of 2^31 - 1");
  return static_cast<unsigned>(blocks);
}

} // namespace gps
