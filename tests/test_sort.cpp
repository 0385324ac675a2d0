// Every sort variant x block size x edge sizes x key distribution, keys only and key-value pairs,
// against std::stable_sort. The values are random (distinct with overwhelming probability), so a
// wrong order among equal keys shows as a value mismatch: stability is checked, not assumed.
// Outputs are poisoned before each run; each GPU variant runs twice on the same workspace (the
// second run catches state a previous call left behind, e.g. an uncleared counter or tile status),
// and the inputs must be unchanged afterwards.
#include "sort/sort.hpp"
#include "test_support.hpp"

#include <map>
#include <numeric>
#include <stdexcept>
#include <tuple>

namespace gps::testing {
namespace {

// Sizes above this run only with each variant's default block size: the block sweep is about the
// tile edges, which the small sizes cover, and the large sizes dominate the test time.
constexpr std::size_t kSweepMaxN = 65536;

struct SortCase {
  const sort::Variant* variant;
  int block;
  std::size_t n;
  KeyDistribution dist;
  bool pairs;
};

std::vector<SortCase> all_cases() {
  std::vector<SortCase> cases;
  for (const auto& v : sort::variants()) {
    const std::vector<int> blocks = v.blocks.empty() ? std::vector<int>{0} : v.blocks;
    for (int block : blocks)
      for (std::size_t n : edge_sizes(static_cast<std::size_t>(block), v.tile_elems(block))) {
        if (n > kSweepMaxN && block != v.default_block) continue;
        for (KeyDistribution dist : kKeyDistributions)
          for (bool pairs : {false, true}) cases.push_back({&v, block, n, dist, pairs});
      }
  }
  return cases;
}

struct Reference {
  std::vector<unsigned> keys, vals, sorted_keys, sorted_vals;
};

// std::stable_sort of (key, value) by key, cached per (n, distribution).
const Reference& reference(std::size_t n, KeyDistribution dist) {
  static std::map<std::pair<std::size_t, KeyDistribution>, Reference> cache;
  auto it = cache.find({n, dist});
  if (it != cache.end()) return it->second;
  Reference r;
  r.keys = random_keys(n, 2000 + n, dist);
  r.vals = random_keys(n, 3000 + n, KeyDistribution::Uniform);
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return r.keys[a] < r.keys[b]; });
  r.sorted_keys.resize(n);
  r.sorted_vals.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    r.sorted_keys[i] = r.keys[order[i]];
    r.sorted_vals[i] = r.vals[order[i]];
  }
  return cache.emplace(std::make_pair(n, dist), std::move(r)).first->second;
}

class SortTest : public ::testing::TestWithParam<SortCase> {};

TEST_P(SortTest, MatchesStableSort) {
  const SortCase& c = GetParam();
  GPS_SKIP_ABOVE_MAX_N(c.n);
  if (c.variant->target == sort::Target::Gpu) GPS_SKIP_WITHOUT_GPU();
  const Reference& ref = reference(c.n, c.dist);
  Workspace ws;
  if (c.variant->target == sort::Target::Cpu) {
    const std::vector<unsigned> keys_in = ref.keys, vals_in = ref.vals;
    for (int run = 0; run < 2; ++run) {
      std::vector<unsigned> keys(c.n, 0xABABABABu), vals(c.n, 0xABABABABu);
      c.variant->run(keys_in.data(), keys.data(), c.pairs ? vals_in.data() : nullptr,
                     c.pairs ? vals.data() : nullptr, c.n, c.block, ws, nullptr);
      EXPECT_TRUE(same_elements(keys, ref.sorted_keys)) << "keys, run " << run;
      if (c.pairs) EXPECT_TRUE(same_elements(vals, ref.sorted_vals)) << "values, run " << run;
    }
    EXPECT_TRUE(same_elements(keys_in, ref.keys)) << "input keys were modified";
    EXPECT_TRUE(same_elements(vals_in, ref.vals)) << "input values were modified";
    return;
  }
  auto d_keys = device_copy(ref.keys);
  DeviceBuffer<unsigned> d_vals = c.pairs ? device_copy(ref.vals) : DeviceBuffer<unsigned>();
  for (int run = 0; run < 2; ++run) {
    auto out_keys = poisoned_device<unsigned>(c.n);
    auto out_vals = poisoned_device<unsigned>(c.pairs ? c.n : 0);
    c.variant->run(d_keys.data(), out_keys.data(), c.pairs ? d_vals.data() : nullptr,
                   c.pairs ? out_vals.data() : nullptr, c.n, c.block, ws, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_TRUE(same_elements(host_copy(out_keys.data(), c.n), ref.sorted_keys))
        << "keys, run " << run;
    if (c.pairs)
      EXPECT_TRUE(same_elements(host_copy(out_vals.data(), c.n), ref.sorted_vals))
          << "values, run " << run;
  }
  EXPECT_TRUE(same_elements(host_copy(d_keys.data(), c.n), ref.keys)) << "input keys modified";
  if (c.pairs)
    EXPECT_TRUE(same_elements(host_copy(d_vals.data(), c.n), ref.vals)) << "input values modified";
}

INSTANTIATE_TEST_SUITE_P(AllVariants, SortTest, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<SortCase>& info) {
                           const SortCase& c = info.param;
                           return param_name(
                               std::string(c.variant->name) + "_block" + std::to_string(c.block) +
                               "_" + key_distribution_name(c.dist) +
                               (c.pairs ? "_pairs" : "_keys") + "_n" + std::to_string(c.n));
                         });

TEST(SortTable, NamesAreUniqueAndFindable) {
  expect_names_unique_and_findable(sort::variants(), sort::find_variant);
  for (const auto& v : sort::variants()) {
    EXPECT_GT(v.passes, 0) << v.name;
    if (!v.blocks.empty()) {
      EXPECT_NE(std::find(v.blocks.begin(), v.blocks.end(), v.default_block), v.blocks.end())
          << v.name << ": the default block must be one it supports";
      for (int b : v.blocks) EXPECT_GT(v.tile_elems(b), 0u) << v.name << " block " << b;
    }
  }
}

TEST(SortScanChoice, UnknownOrCpuScanIsRejected) {
  Workspace ws;
  for (const char* name : {"no_such_scan", "cpu"}) {
    EXPECT_THROW(sort::sort_split_1bit_with_scan(name, nullptr, nullptr, nullptr, nullptr, 0, 256,
                                                 ws, nullptr),
                 std::invalid_argument)
        << name;
    EXPECT_THROW(sort::sort_block_local_4bit_with_scan(name, nullptr, nullptr, nullptr, nullptr, 0,
                                                       256, ws, nullptr),
                 std::invalid_argument)
        << name;
  }
}

// The multi-pass variants with another in-house scan than the default.
TEST(SortScanChoice, OtherScansSortToo) {
  GPS_SKIP_WITHOUT_GPU();
  const std::size_t n = 10007;
  GPS_SKIP_ABOVE_MAX_N(n);
  const Reference& ref = reference(n, KeyDistribution::LowEntropy);
  auto d_keys = device_copy(ref.keys);
  auto d_vals = device_copy(ref.vals);
  Workspace ws;
  for (const char* scan : {"kogge_stone", "coarsened", "cub"}) {
    auto out_keys = poisoned_device<unsigned>(n);
    auto out_vals = poisoned_device<unsigned>(n);
    sort::sort_split_1bit_with_scan(scan, d_keys.data(), out_keys.data(), d_vals.data(),
                                    out_vals.data(), n, 128, ws, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_TRUE(same_elements(host_copy(out_vals.data(), n), ref.sorted_vals)) << scan;
    out_vals = poisoned_device<unsigned>(n);
    sort::sort_block_local_4bit_with_scan(scan, d_keys.data(), out_keys.data(), d_vals.data(),
                                          out_vals.data(), n, 128, ws, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_TRUE(same_elements(host_copy(out_vals.data(), n), ref.sorted_vals)) << scan;
  }
}

} // namespace
} // namespace gps::testing
