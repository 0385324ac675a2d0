// Shared pieces of the GoogleTest suites: GPU skip with a reason, the size cap for quick runs
// (compute-sanitizer), the edge sizes and test-name-safe text.
#pragma once

#include "common/cuda_check.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

namespace gps::testing {

// Skips the current test, with the reason, when no CUDA GPU is usable.
#define GPS_SKIP_WITHOUT_GPU()                                                                     \
  do {                                                                                             \
    std::string gps_reason_;                                                                       \
    if (!::gps::gpu_available(&gps_reason_))                                                       \
      GTEST_SKIP() << "no GPU: " << gps_reason_;                                                   \
  } while (0)

// GPS_TEST_MAX_N caps the sizes run (the sanitizer runs use it); unset means no cap.
inline std::size_t max_test_n() {
  const char* v = std::getenv("GPS_TEST_MAX_N");
  return v ? static_cast<std::size_t>(std::strtoull(v, nullptr, 10)) : ~std::size_t{0};
}
#define GPS_SKIP_ABOVE_MAX_N(n)                                                                    \
  do {                                                                                             \
    if ((n) > ::gps::testing::max_test_n())                                                        \
      GTEST_SKIP() << "n = " << (n) << " is above GPS_TEST_MAX_N";                                 \
  } while (0)

// 0, 1, 2, 3, 31, 32, 33, block-1/block/block+1, tile-1/tile/tile+1, 1000, 4093 (prime), 65536,
// 2^20 + 7 and 2^24 - 3; block or tile 0 leaves those out.
inline std::vector<std::size_t> edge_sizes(std::size_t block, std::size_t tile) {
  std::set<std::size_t> s = {
      0, 1, 2, 3, 31, 32, 33, 1000, 4093, 65536, (1u << 20) + 7, (1u << 24) - 3};
  for (std::size_t b : {block, tile})
    if (b > 0)
      s.insert({b - 1, b, b + 1});
  return {s.begin(), s.end()};
}

// Test-name-safe text: letters, digits and '_'.
inline std::string param_name(std::string s) {
  std::replace_if(
      s.begin(), s.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return s;
}

} // namespace gps::testing
