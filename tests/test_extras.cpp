// Checks that belong to one algorithm only: wrapping arithmetic, the data generators, and the
// sort variants that take another scan.
#include "buffers.hpp"
#include "compact/compact.hpp"
#include "data.hpp"
#include "problem.hpp"
#include "reduce/reduce.hpp"
#include "scan/scan.hpp"
#include "sort/sort.hpp"
#include "test_support.hpp"
#include "utf8/utf8.hpp"

#include <numeric>

namespace gps::testing {
namespace {

TEST(ScanCpu, WrapsOnOverflow) {
  const std::vector<int> in = {0x7fffffff, 1, 1};
  for (const char* name : {"cpu", "cpu_parallel"}) {
    std::vector<int> out(3);
    run_on_host(*scan::find_variant(name), in.data(), out.data(), in.size());
    EXPECT_EQ(out[2], static_cast<int>(0x80000000u)) << name;
  }
}

TEST(ReduceCpu, WrapsOnOverflow) {
  const std::vector<int> in = {0x7fffffff, 1, 1};
  for (const char* name : {"cpu", "cpu_parallel"}) {
    int result = 0;
    run_on_host(*reduce::find_variant(name), in.data(), &result, in.size());
    EXPECT_EQ(result, static_cast<int>(0x80000001u)) << name;
  }
}

TEST(ReduceCpu, ParallelMatchesSequentialOnLargeInput) {
  const std::size_t n = (1u << 20) + 7; // above the single-thread cut-off
  const auto in = random_ints(n, 11);
  int sequential = 0, parallel = 1;
  run_on_host(*reduce::find_variant("cpu"), in.data(), &sequential, n);
  run_on_host(*reduce::find_variant("cpu_parallel"), in.data(), &parallel, n);
  EXPECT_EQ(parallel, sequential);
}

TEST(CompactCpu, KeepsNonzeroInOrder) {
  const std::vector<int> in = {0, 5, 0, 0, -3, 7, 0, 0x7fffffff, 0};
  const std::vector<int> want = {5, -3, 7, 0x7fffffff};
  for (const auto& v : compact::variants()) {
    if (v.target != Target::Cpu)
      continue;
    std::vector<int> out(in.size(), -1);
    unsigned count = 0xABABABABu;
    run_on_host(v, in.data(), out.data(), &count, in.size());
    ASSERT_EQ(count, want.size()) << v.name;
    EXPECT_EQ(first_mismatch(out.data(), want.data(), count), "") << v.name;
  }
}

TEST(CompactData, KeptFractionAndNonzeroValues) {
  const std::size_t n = 1 << 16;
  for (double keep : {0.0, 0.5, 0.75, 1.0}) {
    const auto v = random_sparse_ints(n, keep, 7);
    std::size_t nonzero = 0;
    for (int x : v)
      nonzero += x != 0;
    EXPECT_NEAR(static_cast<double>(nonzero) / n, keep, 0.01) << "keep " << keep;
  }
}

TEST(SortScanChoice, UnknownOrCpuScanIsRejected) {
  for (const char* name : {"no_such_scan", "cpu"}) {
    std::size_t bytes = 0;
    EXPECT_THROW(sort::sort_split_1bit_with_scan(nullptr, bytes, name, nullptr, nullptr, nullptr,
                                                 nullptr, 0, 256, nullptr),
                 std::invalid_argument)
        << name;
    EXPECT_THROW(sort::sort_block_local_4bit_with_scan(nullptr, bytes, name, nullptr, nullptr,
                                                       nullptr, nullptr, 0, 256, nullptr),
                 std::invalid_argument)
        << name;
  }
}

// The multi-pass sorts with another in-house scan than the default: stable order shown by values.
TEST(SortScanChoice, OtherScansSortToo) {
  GPS_SKIP_WITHOUT_GPU();
  const std::size_t n = 10007;
  const auto keys = random_keys(n, 5, KeyDistribution::LowEntropy);
  std::vector<unsigned> vals(n);
  std::iota(vals.begin(), vals.end(), 0u);
  std::vector<unsigned> order = vals;
  std::stable_sort(order.begin(), order.end(),
                   [&](unsigned a, unsigned b) { return keys[a] < keys[b]; });
  auto d_keys = to_device(keys);
  auto d_vals = to_device(vals);
  DeviceBuffer<unsigned> out_keys(n), out_vals(n);
  using SortWithScan = void (*)(void*, std::size_t&, std::string_view, const unsigned*, unsigned*,
                                const unsigned*, unsigned*, std::size_t, int, cudaStream_t);
  for (SortWithScan sort :
       {&sort::sort_split_1bit_with_scan, &sort::sort_block_local_4bit_with_scan})
    for (const char* scan : {"kogge_stone", "coarsened", "cub"}) {
      std::size_t bytes = 0;
      sort(nullptr, bytes, scan, d_keys.data(), out_keys.data(), d_vals.data(), out_vals.data(), n,
           128, nullptr);
      DeviceBuffer<unsigned char> temp(bytes);
      poison_device(out_vals.data(), out_vals.bytes());
      sort(temp.data(), bytes, scan, d_keys.data(), out_keys.data(), d_vals.data(), out_vals.data(),
           n, 128, nullptr);
      CUDA_CHECK(cudaDeviceSynchronize());
      const auto got = to_host(out_vals.data(), n);
      EXPECT_EQ(first_mismatch(got.data(), order.data(), n), "") << scan;
    }
}

// bench/problems/utf8_problem.cpp serves the three UTF-8 tables with one row list.
TEST(Utf8Tables, SameRowsForEveryOperation) {
  const auto& decode = utf8::decode_variants();
  ASSERT_EQ(utf8::validate_variants().size(), decode.size());
  ASSERT_EQ(utf8::encode_variants().size(), decode.size());
  for (std::size_t i = 0; i < decode.size(); ++i) {
    for (const auto* other : {&utf8::validate_variants()[i].name, &utf8::encode_variants()[i].name})
      EXPECT_EQ(std::string(*other), decode[i].name);
    EXPECT_EQ(utf8::validate_variants()[i].target, decode[i].target);
    EXPECT_EQ(utf8::encode_variants()[i].blocks, decode[i].blocks);
  }
}

} // namespace
} // namespace gps::testing
