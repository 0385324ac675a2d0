// Look-back and persistent-grid kernels can hang rather than fail: a tile that waits for a
// predecessor which never publishes, a persistent block that waits for a stage which never lands,
// status words not cleared between calls. Each such variant, at every block size, runs thousands of
// times back to back on one stream and one temporary storage, at a size of many tiles (more than a
// persistent grid holds) that no tile size divides; the last result is checked. CTest gives the
// group a timeout (tests/CMakeLists.txt), so a hang fails the run instead of stalling it.
#include "buffers.hpp"
#include "problem.hpp"
#include "test_support.hpp"

#include <string>

namespace gps::testing {
namespace {

struct LookbackVariant {
  const char* algorithm;
  const char* variant;
};
constexpr LookbackVariant kLookbackVariants[] = {
    {"scan", "chained"},        {"scan", "decoupled_lookback"},   {"scan", "prefetch_lookback"},
    {"compact", "single_pass"}, {"compact", "prefetch_lookback"}, {"sort", "onesweep"},
    {"utf8", "single_pass"},
};
constexpr int kCalls = 2000;

class BackToBack : public ::testing::TestWithParam<LookbackVariant> {};

TEST_P(BackToBack, ThousandsOfCallsFinishAndMatch) {
  GPS_SKIP_WITHOUT_GPU();
  const std::size_t n = (std::size_t{1} << 22) + 7;
  GPS_SKIP_ABOVE_MAX_N(n);
  const LookbackVariant lv = GetParam();
  const Problem* p = find_problem(lv.algorithm);
  ASSERT_NE(p, nullptr) << lv.algorithm;
  const VariantInfo* v = nullptr;
  for (const VariantInfo& info : p->variants())
    if (info.name == lv.variant)
      v = &info;
  ASSERT_NE(v, nullptr) << lv.algorithm << "/" << lv.variant << " is not in the table";
  ASSERT_FALSE(v->blocks.empty());
  const AxisPoint point = p->points()[0];
  for (int block : v->blocks) {
    auto inst = p->instance(point, n, Purpose::Test);
    inst->prepare(Target::Gpu);
    const std::size_t bytes = inst->temp_bytes(*v, block);
    DeviceBuffer<unsigned char> temp;
    temp.allocate(bytes);
    CudaStream stream;
    inst->poison(Target::Gpu);
    for (int call = 0; call < kCalls; ++call)
      inst->run(*v, temp.data(), bytes, block, stream.get());
    CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    EXPECT_EQ(inst->check(Target::Gpu), "")
        << "block " << block << ", after " << kCalls << " calls";
  }
}

INSTANTIATE_TEST_SUITE_P(Lookback, BackToBack, ::testing::ValuesIn(kLookbackVariants),
                         [](const ::testing::TestParamInfo<LookbackVariant>& info) {
                           return param_name(std::string(info.param.algorithm) + "_" +
                                             info.param.variant);
                         });

} // namespace
} // namespace gps::testing
