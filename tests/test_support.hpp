// Shared pieces of the GoogleTest suites: GPU skip with a reason, the size cap for quick runs
// (compute-sanitizer), the edge sizes, poisoning and whole-array comparison.
#pragma once

#include "common/cuda_check.hpp"
#include "common/device_buffer.hpp"
#include "data.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace gps::testing {

// Skips the current test, with the reason, when no CUDA GPU is usable.
#define GPS_SKIP_WITHOUT_GPU()                                                                     \
  do {                                                                                             \
    std::string gps_reason_;                                                                       \
    if (!::gps::gpu_available(&gps_reason_)) GTEST_SKIP() << gps_reason_;                          \
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
  std::set<std::size_t> s = {0, 1, 2, 3, 31, 32, 33, 1000, 4093, 65536, (1u << 20) + 7,
                             (1u << 24) - 3};
  for (std::size_t b : {block, tile})
    if (b > 0) s.insert({b - 1, b, b + 1});
  return {s.begin(), s.end()};
}

constexpr unsigned char kPoisonByte = 0xAB;

template <typename T> DeviceBuffer<T> poisoned_device(std::size_t n) {
  DeviceBuffer<T> d(n);
  if (n) CUDA_CHECK(cudaMemset(d.data(), kPoisonByte, n * sizeof(T)));
  return d;
}
template <typename T> DeviceBuffer<T> device_copy(const std::vector<T>& h) {
  DeviceBuffer<T> d(h.size());
  if (!h.empty())
    CUDA_CHECK(cudaMemcpy(d.data(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <typename T> std::vector<T> host_copy(const T* d, std::size_t n) {
  std::vector<T> h(n);
  if (n) CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

// Compares every element; on failure reports how many differ and the first few.
template <typename T>
::testing::AssertionResult same_elements(const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure()
           << "size " << got.size() << " != expected " << want.size();
  std::size_t bad = 0;
  std::string first;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] == want[i]) continue;
    if (++bad <= 5)
      first += " [" + std::to_string(i) + "] got " + std::to_string(got[i]) + " want " +
               std::to_string(want[i]) + ";";
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << bad << " of " << got.size() << " elements differ:" << first;
}

// Test-name-safe text: letters, digits and '_'.
// The checks every variant table gets: unique names, each found by its own name through `find`,
// a description on every row, and nullptr for an unknown name.
template <typename Variant>
void expect_names_unique_and_findable(const std::vector<Variant>& table,
                                      const Variant* (*find)(std::string_view)) {
  std::set<std::string> names;
  for (const auto& v : table) {
    EXPECT_TRUE(names.insert(v.name).second) << v.name;
    EXPECT_EQ(find(v.name), &v);
    EXPECT_NE(std::string(v.description), "");
  }
  EXPECT_EQ(find("no_such_variant"), nullptr);
}

inline std::string param_name(std::string s) {
  std::replace_if(s.begin(), s.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return s;
}

} // namespace gps::testing
