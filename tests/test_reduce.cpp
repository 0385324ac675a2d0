// Every reduction variant x edge sizes x block sizes against the sequential CPU reference, on
// random full-range inputs (so the sums wrap), with a poisoned result; each GPU variant runs twice
// on the same workspace and must leave its input unchanged.
#include "reduce/reduce.hpp"
#include "test_support.hpp"

#include <map>

namespace gps::testing {
namespace {

struct ReduceCase {
  const reduce::Variant* variant;
  int block;
  std::size_t n;
};

std::vector<ReduceCase> all_cases() {
  std::vector<ReduceCase> cases;
  for (const auto& v : reduce::variants()) {
    if (v.takes_block) {
      for (int block : reduce::kBlockSizes)
        for (std::size_t n : edge_sizes(block, v.tile_elems(block)))
          cases.push_back({&v, block, n});
    } else {
      for (std::size_t n : edge_sizes(0, 0)) cases.push_back({&v, 0, n});
    }
  }
  return cases;
}

const int kPoisonInt = static_cast<int>(0xABABABABu);

struct Reference {
  std::vector<int> input;
  int expected = 0;
};
const Reference& reference(std::size_t n) {
  static std::map<std::size_t, Reference> cache;
  auto it = cache.find(n);
  if (it == cache.end()) {
    Reference r{random_ints(n, 3000 + n), 0};
    Workspace unused;
    reduce::reduce_cpu(r.input.data(), &r.expected, n, 0, unused, nullptr);
    it = cache.emplace(n, std::move(r)).first;
  }
  return it->second;
}

class ReduceTest : public ::testing::TestWithParam<ReduceCase> {};

TEST_P(ReduceTest, MatchesCpuReference) {
  const ReduceCase& c = GetParam();
  GPS_SKIP_ABOVE_MAX_N(c.n);
  const Reference& ref = reference(c.n);
  Workspace ws;
  if (c.variant->target == reduce::Target::Cpu) {
    int result = kPoisonInt;
    c.variant->run(ref.input.data(), &result, c.n, c.block, ws, nullptr);
    EXPECT_EQ(result, ref.expected);
    return;
  }
  GPS_SKIP_WITHOUT_GPU();
  auto d_in = device_copy(ref.input);
  for (int run = 0; run < 2; ++run) {
    auto d_result = poisoned_device<int>(1);
    c.variant->run(d_in.data(), d_result.data(), c.n, c.block, ws, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_EQ(host_copy(d_result.data(), 1)[0], ref.expected) << "run " << run;
  }
  EXPECT_TRUE(same_elements(host_copy(d_in.data(), c.n), ref.input)) << "input was modified";
}

INSTANTIATE_TEST_SUITE_P(AllVariants, ReduceTest, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<ReduceCase>& info) {
                           const ReduceCase& c = info.param;
                           return param_name(std::string(c.variant->name) + "_block" +
                                             std::to_string(c.block) + "_n" + std::to_string(c.n));
                         });

TEST(ReduceTable, NamesAreUniqueAndFindable) {
  expect_names_unique_and_findable(reduce::variants(), reduce::find_variant);
}

TEST(ReduceCpu, WrapsOnOverflow) {
  const std::vector<int> in = {0x7fffffff, 1, 1};
  Workspace ws;
  for (const char* name : {"cpu", "cpu_parallel"}) {
    int result = 0;
    reduce::find_variant(name)->run(in.data(), &result, in.size(), 0, ws, nullptr);
    EXPECT_EQ(result, static_cast<int>(0x80000001u)) << name;
  }
}

TEST(ReduceCpu, ParallelMatchesSequentialOnLargeInput) {
  const std::size_t n = (1u << 20) + 7; // above the single-thread cut-off
  const auto in = random_ints(n, 11);
  Workspace ws;
  int sequential = 0, parallel = 1;
  reduce::reduce_cpu(in.data(), &sequential, n, 0, ws, nullptr);
  reduce::reduce_cpu_parallel(in.data(), &parallel, n, 0, ws, nullptr);
  EXPECT_EQ(parallel, sequential);
}

} // namespace
} // namespace gps::testing
