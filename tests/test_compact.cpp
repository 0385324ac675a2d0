// Every compaction variant x edge sizes x block sizes x kept fractions against the sequential CPU
// reference, on random inputs, with poisoned outputs and count: the count, the kept elements and
// the untouched rest of the output (still poison) are all checked. Each GPU variant runs twice on
// the same workspace (the second run catches state a previous call left behind, e.g. an uncleared
// tile status). All four kept fractions run up to 65536 elements (which covers every block and
// tile edge); the two large sizes run at keep 0.5 only, to keep the suite short.
#include "compact/compact.hpp"
#include "test_support.hpp"

#include <cstdio>
#include <map>
#include <utility>

namespace gps::testing {
namespace {

constexpr double kKeepFractions[] = {0.0, 0.5, 0.75, 1.0};
constexpr std::size_t kAllFractionsUpTo = 65536;

struct CompactCase {
  const compact::Variant* variant;
  int block;
  std::size_t n;
  double keep;
};

void add_sizes(std::vector<CompactCase>& cases, const compact::Variant& v, int block,
               const std::vector<std::size_t>& sizes) {
  for (std::size_t n : sizes)
    for (double keep : kKeepFractions)
      if (n <= kAllFractionsUpTo || keep == 0.5) cases.push_back({&v, block, n, keep});
}

std::vector<CompactCase> all_cases() {
  std::vector<CompactCase> cases;
  for (const auto& v : compact::variants()) {
    if (v.takes_block) {
      for (int block : compact::kBlockSizes)
        add_sizes(cases, v, block, edge_sizes(block, v.tile_elems(block)));
    } else {
      add_sizes(cases, v, 0, edge_sizes(0, 0));
    }
  }
  return cases;
}

const int kPoisonInt = static_cast<int>(0xABABABABu);
const unsigned kPoisonCount = 0xABABABABu;

// The input and the whole expected output array: the kept elements, then poison (never written).
struct Reference {
  std::vector<int> input, expected;
  unsigned count = 0;
};
const Reference& reference(std::size_t n, double keep) {
  static std::map<std::pair<std::size_t, double>, Reference> cache;
  auto it = cache.find({n, keep});
  if (it == cache.end()) {
    Reference r{random_sparse_ints(n, keep, 2000 + n), std::vector<int>(n, kPoisonInt), 0};
    Workspace unused;
    compact::compact_cpu_no_scan(r.input.data(), r.expected.data(), &r.count, n, 0, unused,
                                 nullptr);
    it = cache.emplace(std::make_pair(n, keep), std::move(r)).first;
  }
  return it->second;
}

class CompactTest : public ::testing::TestWithParam<CompactCase> {};

TEST_P(CompactTest, MatchesCpuReference) {
  const CompactCase& c = GetParam();
  GPS_SKIP_ABOVE_MAX_N(c.n);
  const Reference& ref = reference(c.n, c.keep);
  Workspace ws;
  if (c.variant->target == compact::Target::Cpu) {
    std::vector<int> out(c.n, kPoisonInt);
    unsigned count = kPoisonCount;
    c.variant->run(ref.input.data(), out.data(), &count, c.n, c.block, ws, nullptr);
    EXPECT_EQ(count, ref.count);
    EXPECT_TRUE(same_elements(out, ref.expected));
    return;
  }
  GPS_SKIP_WITHOUT_GPU();
  auto d_in = device_copy(ref.input);
  for (int run = 0; run < 2; ++run) {
    auto d_out = poisoned_device<int>(c.n);
    auto d_count = poisoned_device<unsigned>(1);
    c.variant->run(d_in.data(), d_out.data(), d_count.data(), c.n, c.block, ws, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_EQ(host_copy(d_count.data(), 1)[0], ref.count) << "run " << run;
    EXPECT_TRUE(same_elements(host_copy(d_out.data(), c.n), ref.expected)) << "run " << run;
  }
  EXPECT_TRUE(same_elements(host_copy(d_in.data(), c.n), ref.input)) << "input was modified";
}

std::string keep_name(double keep) {
  char name[16];
  std::snprintf(name, sizeof name, "keep%03d", static_cast<int>(keep * 100 + 0.5));
  return name;
}

INSTANTIATE_TEST_SUITE_P(AllVariants, CompactTest, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<CompactCase>& info) {
                           const CompactCase& c = info.param;
                           return param_name(std::string(c.variant->name) + "_block" +
                                             std::to_string(c.block) + "_n" + std::to_string(c.n) +
                                             "_" + keep_name(c.keep));
                         });

TEST(CompactTable, NamesAreUniqueAndFindable) {
  expect_names_unique_and_findable(compact::variants(), compact::find_variant);
}

TEST(CompactCpu, KeepsNonzeroInOrder) {
  const std::vector<int> in = {0, 5, 0, 0, -3, 7, 0, 0x7fffffff, 0};
  const std::vector<int> want = {5, -3, 7, 0x7fffffff};
  for (const char* name : {"cpu_no_scan", "cpu_with_scan"}) {
    std::vector<int> out(in.size(), kPoisonInt);
    unsigned count = kPoisonCount;
    Workspace ws;
    compact::find_variant(name)->run(in.data(), out.data(), &count, in.size(), 0, ws, nullptr);
    ASSERT_EQ(count, want.size()) << name;
    EXPECT_TRUE(same_elements(std::vector<int>(out.begin(), out.begin() + count), want)) << name;
  }
}

TEST(CompactData, KeptFractionAndNonzeroValues) {
  const std::size_t n = 1 << 16;
  for (double keep : kKeepFractions) {
    const auto v = random_sparse_ints(n, keep, 7);
    std::size_t nonzero = 0;
    for (int x : v) nonzero += x != 0;
    EXPECT_NEAR(static_cast<double>(nonzero) / n, keep, 0.01) << "keep " << keep;
  }
}

} // namespace
} // namespace gps::testing
