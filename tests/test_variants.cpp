// Every variant of every algorithm x its block sizes x edge sizes x the algorithm's axis points,
// generated from the same Problem descriptions as the benchmarks (bench/problem.hpp): random
// inputs, outputs poisoned before each run, every element checked against the CPU reference, the
// input checked unchanged, and each variant run twice on the same temporary storage (the second
// run catches state a previous call left behind, e.g. an uncleared tile status).
// Case names: <Cpu|Gpu>/VariantTest.MatchesReference/<algorithm>_<variant>[_<axes>]_block<b>_n<n>.
#include "buffers.hpp"
#include "problem.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <memory>

namespace gps::testing {
namespace {

struct VariantCase {
  const Problem* problem;
  AxisPoint point;
  const VariantInfo* variant;
  int block;
  std::size_t n;
};

// Above 2^21 elements only the default block runs: the block sweep is about tile edges, which the
// small sizes cover, and the large sizes dominate the test time.
constexpr std::size_t kAllBlocksUpTo = std::size_t{1} << 21;

std::vector<VariantCase> cases(Target target) {
  std::vector<VariantCase> out;
  for (const Problem* problem : all_problems())
    for (const AxisPoint& point : problem->points())
      for (const VariantInfo& v : problem->variants()) {
        if (v.target != target)
          continue;
        const std::vector<int> blocks = v.blocks.empty() ? std::vector<int>{0} : v.blocks;
        for (int block : blocks)
          for (std::size_t n : edge_sizes(static_cast<std::size_t>(block), v.tile_elems(block))) {
            if (!problem->tested(point, n))
              continue;
            if (n > kAllBlocksUpTo && block != 0 && block != v.default_block)
              continue;
            out.push_back({problem, point, &v, block, n});
          }
      }
  // (algorithm, point, n)-major, so that consecutive cases share one instance (instance_for)
  std::stable_sort(out.begin(), out.end(), [](const VariantCase& a, const VariantCase& b) {
    if (a.problem != b.problem)
      return false; // problems stay in suite order
    if (a.point.id != b.point.id)
      return a.point.id < b.point.id;
    return a.n < b.n;
  });
  return out;
}

std::string case_name(const ::testing::TestParamInfo<VariantCase>& info) {
  const VariantCase& c = info.param;
  std::string name = std::string(c.problem->algorithm()) + "_" + c.variant->name;
  for (const auto& value : c.point.values)
    if (!value.segment.empty())
      name += "_" + value.segment;
  return param_name(name + "_block" + std::to_string(c.block) + "_n" + std::to_string(c.n));
}

// One instance at a time, reused by consecutive cases of the same (algorithm, point, n): the host
// reference of a large size is computed once, not once per variant.
Instance& instance_for(const VariantCase& c) {
  static const Problem* problem = nullptr;
  static int point = -1;
  static std::size_t n = 0;
  static std::unique_ptr<Instance> instance;
  if (!instance || problem != c.problem || point != c.point.id || n != c.n) {
    instance.reset();
    instance = c.problem->instance(c.point, c.n, Purpose::Test);
    problem = c.problem, point = c.point.id, n = c.n;
  }
  return *instance;
}

class VariantTest : public ::testing::TestWithParam<VariantCase> {};

TEST_P(VariantTest, MatchesReference) {
  const VariantCase& c = GetParam();
  GPS_SKIP_ABOVE_MAX_N(c.n);
  const bool gpu = c.variant->target == Target::Gpu;
  if (gpu)
    GPS_SKIP_WITHOUT_GPU();
  Instance& inst = instance_for(c);
  inst.prepare(c.variant->target);
  const std::size_t bytes = inst.temp_bytes(*c.variant, c.block);
  DeviceBuffer<unsigned char> d_temp;
  std::vector<unsigned char> h_temp;
  if (gpu)
    d_temp.allocate(bytes);
  else
    h_temp.resize(bytes);
  void* temp = gpu ? static_cast<void*>(d_temp.data()) : static_cast<void*>(h_temp.data());
  for (int run = 0; run < 2; ++run) {
    inst.poison(c.variant->target);
    inst.run(*c.variant, temp, bytes, c.block, nullptr);
    if (gpu)
      CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_EQ(inst.check(c.variant->target), "") << "run " << run;
  }
}

INSTANTIATE_TEST_SUITE_P(Cpu, VariantTest, ::testing::ValuesIn(cases(Target::Cpu)), case_name);
INSTANTIATE_TEST_SUITE_P(Gpu, VariantTest, ::testing::ValuesIn(cases(Target::Gpu)), case_name);

} // namespace
} // namespace gps::testing
