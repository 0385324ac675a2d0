// Every scan variant x edge sizes x block sizes against the sequential CPU reference, on random
// inputs, with poisoned outputs; each GPU variant runs twice on the same workspace (the second run
// catches state a previous call left behind, e.g. an uncleared tile status).
#include "scan/scan.hpp"
#include "test_support.hpp"

#include <map>

namespace gps::testing {
namespace {

struct ScanCase {
  const scan::Variant* variant;
  int block;
  std::size_t n;
};

std::vector<ScanCase> all_cases() {
  std::vector<ScanCase> cases;
  for (const auto& v : scan::variants()) {
    if (v.takes_block) {
      for (int block : scan::kBlockSizes)
        for (std::size_t n : edge_sizes(block, v.tile_elems(block))) cases.push_back({&v, block, n});
    } else {
      for (std::size_t n : edge_sizes(0, 0)) cases.push_back({&v, 0, n});
    }
  }
  return cases;
}

struct Reference {
  std::vector<int> input, expected;
};
const Reference& reference(std::size_t n) {
  static std::map<std::size_t, Reference> cache;
  auto it = cache.find(n);
  if (it == cache.end()) {
    Reference r{random_ints(n, 1000 + n), std::vector<int>(n)};
    Workspace unused;
    scan::exclusive_scan_cpu(r.input.data(), r.expected.data(), n, 0, unused, nullptr);
    it = cache.emplace(n, std::move(r)).first;
  }
  return it->second;
}

class ScanTest : public ::testing::TestWithParam<ScanCase> {};

TEST_P(ScanTest, MatchesCpuReference) {
  const ScanCase& c = GetParam();
  GPS_SKIP_ABOVE_MAX_N(c.n);
  const Reference& ref = reference(c.n);
  Workspace ws;
  if (c.variant->target == scan::Target::Cpu) {
    std::vector<int> out(c.n, static_cast<int>(0xABABABABu));
    c.variant->run(ref.input.data(), out.data(), c.n, c.block, ws, nullptr);
    EXPECT_TRUE(same_elements(out, ref.expected));
    return;
  }
  GPS_SKIP_WITHOUT_GPU();
  auto d_in = device_copy(ref.input);
  for (int run = 0; run < 2; ++run) {
    auto d_out = poisoned_device<int>(c.n);
    c.variant->run(d_in.data(), d_out.data(), c.n, c.block, ws, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_TRUE(same_elements(host_copy(d_out.data(), c.n), ref.expected)) << "run " << run;
  }
  EXPECT_TRUE(same_elements(host_copy(d_in.data(), c.n), ref.input)) << "input was modified";
}

INSTANTIATE_TEST_SUITE_P(AllVariants, ScanTest, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<ScanCase>& info) {
                           const ScanCase& c = info.param;
                           return param_name(std::string(c.variant->name) + "_block" +
                                             std::to_string(c.block) + "_n" + std::to_string(c.n));
                         });

TEST(ScanTable, NamesAreUniqueAndFindable) {
  expect_names_unique_and_findable(scan::variants(), scan::find_variant);
}

TEST(ScanCpu, WrapsOnOverflow) {
  const std::vector<int> in = {0x7fffffff, 1, 1};
  std::vector<int> out(3);
  Workspace ws;
  scan::exclusive_scan_cpu(in.data(), out.data(), 3, 0, ws, nullptr);
  EXPECT_EQ(out[2], static_cast<int>(0x80000000u));
}

} // namespace
} // namespace gps::testing
