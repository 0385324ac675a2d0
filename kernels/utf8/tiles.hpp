// The tile arithmetic of the single-pass kernels (single_pass.cu), as host and device code so that
// the tests check it on the CPU (tests/test_utf8.cpp, Utf8Chunk.TileCounts*, Utf8Chunk.Validate*).
//
// An input of n elements (bytes for decode and validate, code points for encode) is laid on the
// 16-byte grid of its address: `skew` is the input's offset in its 16-byte line, in elements (0..15
// for bytes, 0..3 for code points), and its elements occupy the virtual positions [skew, skew + n).
// Tile t covers the virtual positions [t * tile, (t + 1) * tile). The host launches tile_count
// blocks; the block that takes the last tile index writes decode's and encode's count, so that tile
// must exist and hold the input's last element (checked by the tests for every skew, the edge sizes
// and every block's tile).
#pragma once

#include "utf8/rules.hpp" // GPS_UTF8_HD

#include <cstddef>

namespace gps::utf8::tiles {

// Largest skew: 15 bytes, 3 code points (16-byte lines).
inline constexpr std::size_t kMaxByteSkew = 15;
inline constexpr std::size_t kMaxCodePointSkew = 3;

// Tiles that cover the virtual positions [0, skew + n): every one holds at least one element of
// the input and the last one holds its last element (n > 0; n == 0 launches nothing).
GPS_UTF8_HD constexpr std::size_t tile_count(std::size_t skew, std::size_t n, std::size_t tile) {
  return (skew + n + tile - 1) / tile;
}

// What the query phase reserves before it knows the address: the count at the worst skew.
GPS_UTF8_HD constexpr std::size_t max_tile_count(std::size_t max_skew, std::size_t n,
                                                 std::size_t tile) {
  return tile_count(max_skew, n, tile);
}

// The input offset of the first element of tile t (0 for the tile that holds the input's start):
// no element of tile t lies before it, so validate's tile t may skip its work once an error before
// this offset is known.
GPS_UTF8_HD constexpr long long first_offset(long long t, long long tile, long long skew) {
  return t * tile > skew ? t * tile - skew : 0;
}

// validate_single_pass keeps the first error as a 32-bit offset, ~0u for "none": every offset of an
// input the GPU variants take (n < 2^32) is below it.
inline constexpr unsigned kNoError = ~0u;

} // namespace gps::utf8::tiles
