// What every algorithm's table and every variant's temp-storage contract promise, checked for all
// algorithms at once: unique names, one CPU reference, defaults among the supported blocks, the
// query phase being repeatable, and too little storage being refused with an exception.
#include "buffers.hpp"
#include "problem.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace gps::testing {
namespace {

TEST(Tables, NamesRolesAndBlocks) {
  std::set<std::string> algorithms;
  for (const Problem* p : all_problems()) {
    EXPECT_TRUE(algorithms.insert(p->algorithm()).second) << p->algorithm();
    EXPECT_EQ(find_problem(p->algorithm()), p);
    std::set<std::string> names = {"copy"}; // the roofline's name is taken
    int references = 0;
    for (const VariantInfo& v : p->variants()) {
      EXPECT_TRUE(names.insert(v.name).second) << p->algorithm() << "/" << v.name;
      EXPECT_FALSE(v.description.empty()) << v.name;
      if (v.role == Role::Reference) {
        ++references;
        EXPECT_EQ(v.target, Target::Cpu) << v.name << ": the reference runs on the CPU";
      }
      if (!v.blocks.empty()) {
        EXPECT_NE(std::find(v.blocks.begin(), v.blocks.end(), v.default_block), v.blocks.end())
            << v.name << ": the default block must be one it supports";
        for (int b : v.blocks)
          EXPECT_GT(v.tile_elems(b), 0u) << v.name << " block " << b;
      } else {
        EXPECT_EQ(v.default_block, 0) << v.name;
      }
    }
    EXPECT_EQ(references, 1) << p->algorithm() << ": exactly one reference variant";
  }
  EXPECT_EQ(find_problem("no_such_algorithm"), nullptr);
}

// Every row the benchmarks register has a unique name.
TEST(Tables, BenchmarkNamesAreUnique) {
  std::set<std::string> names;
  for (const Problem* p : all_problems())
    for (const SizeCase& size : size_cases())
      for (const AxisPoint& point : p->points())
        for (const RowPlan& row : benchmark_rows(*p, point, size))
          EXPECT_TRUE(
              names.insert(benchmark_name(*p, *row.variant, point, size, row.block)).second);
  EXPECT_GT(names.size(), 1000u);
}

// Where the sort suite sweeps block sizes (BenchLimits' BlockSweep): onesweep at every keys point
// at pot sizes; its pairs, and the multi-pass sorts but for uniform uint32 keys at pot sizes, at
// their default block.
TEST(Tables, SortBlockSweeps) {
  const Problem* sort = find_problem("sort");
  ASSERT_NE(sort, nullptr);
  std::map<std::string, int> rows; // a row's name without its block -> rows (one per block swept)
  for (const SizeCase& size : size_cases())
    for (const AxisPoint& point : sort->points())
      for (const RowPlan& row : benchmark_rows(*sort, point, size))
        ++rows[benchmark_name(*sort, *row.variant, point, size, 0)];
  const auto count = [&](const std::string& key) {
    const auto it = rows.find(key);
    return it == rows.end() ? 0 : it->second;
  };
  EXPECT_EQ(count("sort/onesweep/keys/low_entropy/pot/log2n:24"), 2);
  EXPECT_EQ(count("sort/onesweep/keys/all_equal/pot/log2n:28"), 2);
  EXPECT_EQ(count("sort/onesweep/keys/uniform/pot/log2n:28"), 2);
  EXPECT_EQ(count("sort/onesweep/pairs/low_entropy/pot/log2n:24"), 1);
  EXPECT_EQ(count("sort/split_1bit/keys/uniform/pot/log2n:24"), 5); // any block, up to 2^26
  EXPECT_EQ(count("sort/split_1bit/keys/uniform/pot/log2n:28"), 1);
  EXPECT_EQ(count("sort/split_1bit/keys/low_entropy/pot/log2n:24"), 1);
  EXPECT_EQ(count("sort/block_local_4bit/keys/all_equal/pot/log2n:24"), 1);
  EXPECT_EQ(count("sort/block_local_4bit/keys/uniform/npot/log2n:24"), 1);
}

// The query phase reports the same size twice, and a GPU variant given less storage than it asked
// for refuses to run instead of writing past it.
TEST(Contract, QueryIsRepeatableAndShortStorageIsRefused) {
  GPS_SKIP_WITHOUT_GPU();
  const std::size_t n = 100003;
  GPS_SKIP_ABOVE_MAX_N(n);
  for (const Problem* p : all_problems()) {
    const AxisPoint point = p->points().front();
    auto inst = p->instance(point, n, Purpose::Test);
    inst->prepare(Target::Gpu);
    for (const VariantInfo& v : p->variants()) {
      if (v.target != Target::Gpu)
        continue;
      const int block = v.blocks.empty() ? 0 : v.default_block;
      const std::size_t bytes = inst->temp_bytes(v, block);
      EXPECT_EQ(inst->temp_bytes(v, block), bytes) << p->algorithm() << "/" << v.name;
      if (bytes < 2)
        continue;
      DeviceBuffer<unsigned char> temp(bytes);
      EXPECT_ANY_THROW(inst->run(v, temp.data(), bytes / 2, block, nullptr))
          << p->algorithm() << "/" << v.name << " ran with half the storage it asked for";
      CUDA_CHECK(cudaDeviceSynchronize());
    }
  }
}

} // namespace
} // namespace gps::testing
