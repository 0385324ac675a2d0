// The library contract: any variant runs at the same time as any other on its own stream with its
// own temporary storage. Per algorithm, every GPU variant is launched on its own stream before any
// is waited for (twice, on the same storage), then every result is checked, at the problem's first
// axis point and at its last (sort: uint32 keys, then float32 pairs). This caught Thrust's shared
// caching allocator handing one block to two streams.
#include "buffers.hpp"
#include "problem.hpp"
#include "test_support.hpp"

#include <memory>

namespace gps::testing {
namespace {

class Concurrent : public ::testing::TestWithParam<const Problem*> {};

void run_every_gpu_variant_at_once(const Problem& p, const AxisPoint& point, std::size_t n) {
  struct Lane {
    const VariantInfo* v;
    int block;
    std::unique_ptr<Instance> inst;
    DeviceBuffer<unsigned char> temp;
    std::size_t bytes;
    std::unique_ptr<CudaStream> stream;
  };
  std::vector<Lane> lanes;
  for (const VariantInfo& v : p.variants()) {
    if (v.target != Target::Gpu)
      continue;
    Lane lane{&v, v.blocks.empty() ? 0 : v.default_block, p.instance(point, n, Purpose::Test), {},
              0,  std::make_unique<CudaStream>()};
    lane.inst->prepare(Target::Gpu);
    lane.bytes = lane.inst->temp_bytes(v, lane.block);
    lane.temp.allocate(lane.bytes);
    lanes.push_back(std::move(lane));
  }
  ASSERT_GE(lanes.size(), 2u) << p.algorithm() << " has fewer than two GPU variants";
  for (int run = 0; run < 2; ++run) {
    for (Lane& lane : lanes)
      lane.inst->poison(Target::Gpu);
    for (Lane& lane : lanes)
      lane.inst->run(*lane.v, lane.temp.data(), lane.bytes, lane.block, lane.stream->get());
    CUDA_CHECK(cudaDeviceSynchronize());
    for (Lane& lane : lanes)
      EXPECT_EQ(lane.inst->check(Target::Gpu), "")
          << lane.v->name << ", point " << point.id << ", run " << run;
  }
}

TEST_P(Concurrent, EveryGpuVariantAtOnce) {
  GPS_SKIP_WITHOUT_GPU();
  const std::size_t n = (std::size_t{1} << 22) + 7;
  GPS_SKIP_ABOVE_MAX_N(n);
  const Problem& p = *GetParam();
  const std::vector<AxisPoint> all = p.points();
  std::vector<AxisPoint> points{all.front()};
  if (all.size() > 1)
    points.push_back(all.back());
  for (const AxisPoint& point : points)
    run_every_gpu_variant_at_once(p, point, n);
}

INSTANTIATE_TEST_SUITE_P(AllAlgorithms, Concurrent, ::testing::ValuesIn(all_problems()),
                         [](const ::testing::TestParamInfo<const Problem*>& info) {
                           return std::string(info.param->algorithm());
                         });

} // namespace
} // namespace gps::testing
