// Checks that belong to one algorithm only: wrapping arithmetic, the data generators, the sort
// variants that take another scan, and the sort key types on special values.
#include "buffers.hpp"
#include "compact/compact.hpp"
#include "data.hpp"
#include "device_sort_check.hpp"
#include "problem.hpp"
#include "reduce/reduce.hpp"
#include "scan/scan.hpp"
#include "sort/onesweep_plan.hpp"
#include "sort/sort.hpp"
#include "test_support.hpp"
#include "utf8/utf8.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
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

// The look-back kernels' status words (common/lookback.cuh): one 8-byte word a tile below 512
// tiles, one 32-byte sector a tile from 512 on, as each size query shows (no GPU needed: the query
// phase makes no CUDA call).
template <typename Variant, typename Query>
void expect_status_stride(const Variant* v, const Query& query, int block) {
  ASSERT_NE(v, nullptr);
  const std::size_t tile = v->tile_elems(block);
  ASSERT_GT(tile, 0u) << v->name;
  const auto bytes = [&](std::size_t tiles) {
    std::size_t b = 0;
    query(*v, b, tiles * tile, block);
    return b;
  };
  // the counter and 511 words (one 256-byte aligned buffer), then the counter and 512 x 4 words
  EXPECT_EQ(bytes(511), std::size_t{512 * 8}) << v->name << " block " << block;
  EXPECT_GE(bytes(512), std::size_t{(512 * 4 + 1) * 8}) << v->name << " block " << block;
  EXPECT_LT(bytes(512), std::size_t{(512 * 4 + 1) * 8 + 256}) << v->name << " block " << block;
}
TEST(LookbackStorageCpu, StatusStrideFollowsTheTileCount) {
  const auto scan_query = [](const scan::Variant& v, std::size_t& b, std::size_t n, int block) {
    v.run(nullptr, b, nullptr, nullptr, n, block, nullptr);
  };
  const auto compact_query = [](const compact::Variant& v, std::size_t& b, std::size_t n,
                                int block) {
    v.run(nullptr, b, nullptr, nullptr, nullptr, n, block, nullptr);
  };
  for (int block : {128, 512})
    for (const char* name : {"chained", "decoupled_lookback", "prefetch_lookback"})
      expect_status_stride(scan::find_variant(name), scan_query, block);
  for (int block : {128, 512})
    for (const char* name : {"single_pass", "prefetch_lookback"})
      expect_status_stride(compact::find_variant(name), compact_query, block);
}

TEST(SortScanChoice, UnknownOrCpuScanIsRejected) {
  for (const char* name : {"no_such_scan", "cpu"}) {
    std::size_t bytes = 0;
    EXPECT_THROW(sort::sort_split_1bit_with_scan(nullptr, bytes, name, nullptr, nullptr, nullptr,
                                                 nullptr, 0, sort::KeyType::Uint32, 256, nullptr),
                 std::invalid_argument)
        << name;
    EXPECT_THROW(sort::sort_block_local_4bit_with_scan(nullptr, bytes, name, nullptr, nullptr,
                                                       nullptr, nullptr, 0, sort::KeyType::Uint32,
                                                       256, nullptr),
                 std::invalid_argument)
        << name;
  }
}

template <typename T> unsigned bits_of(T x) {
  unsigned u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

// onesweep's histogram grid keeps every lane column's 16-bit counters below overflow at every n
// up to onesweep's limit (no GPU test reaches the sizes where the cap binds: about 2^29.6 keys with
// 396 resident blocks), in whole waves of resident blocks, never more blocks than tiles.
TEST(OnesweepPlanCpu, HistogramGridNeverOverflowsAColumn) {
  namespace plan = sort::onesweep_plan;
  constexpr std::size_t kTile = plan::kHistTile, kCap = plan::kHistMaxTilesPerBlock;
  const std::size_t limit = (std::size_t{1} << 31) - 2; // onesweep's largest n
  for (const std::size_t resident : {1u, 7u, 132u, 264u, 396u, 528u}) {
    std::vector<std::size_t> sizes = {1, kTile - 1, kTile, kTile + 1, limit};
    for (const std::size_t waves : {1u, 2u, 3u})
      for (const std::size_t tiles : {resident * kCap * waves, resident * kCap * waves + 1})
        for (const std::size_t n : {tiles * kTile - 1, tiles * kTile, tiles * kTile + 1})
          if (n <= limit)
            sizes.push_back(n);
    for (const std::size_t n : sizes) {
      const std::size_t grid = plan::histogram_grid(n, resident);
      const std::size_t tiles = plan::histogram_tiles(n);
      SCOPED_TRACE("resident " + std::to_string(resident) + ", n " + std::to_string(n));
      ASSERT_GE(grid, 1u);
      EXPECT_LE(grid, tiles);
      EXPECT_TRUE(grid == tiles || grid % resident == 0) << "not whole waves: " << grid;
      EXPECT_LE(plan::histogram_tiles_per_block(n, resident), kCap);
      // the keys one lane column counts: its lane in every warp, every item, every tile
      EXPECT_LE(plan::histogram_tiles_per_block(n, resident) * (plan::kHistBlock / 32) *
                    plan::kHistItems,
                plan::kHistColumnKeys);
    }
  }
  EXPECT_EQ(plan::histogram_grid(0, 396), 0u);
}

// The early launch signal: passes of 256..16384 tiles, so at 384 x 24 keys a tile 2^24 and 2^26
// keys take it and 2^20 and 2^28 do not (the sizes measured, kernels/sort/onesweep.tuning.md).
TEST(OnesweepPlanCpu, EarlyTriggerRange) {
  namespace plan = sort::onesweep_plan;
  EXPECT_FALSE(plan::early_trigger(255));
  EXPECT_TRUE(plan::early_trigger(256));
  EXPECT_TRUE(plan::early_trigger(16384));
  EXPECT_FALSE(plan::early_trigger(16385));
  const std::size_t tile = sort::onesweep_tile(384);
  ASSERT_EQ(tile, 384u * 24u);
  const auto tiles = [&](int log2n) { return ((std::size_t{1} << log2n) + tile - 1) / tile; };
  EXPECT_FALSE(plan::early_trigger(tiles(20)));
  EXPECT_TRUE(plan::early_trigger(tiles(24)));
  EXPECT_TRUE(plan::early_trigger(tiles(26)));
  EXPECT_FALSE(plan::early_trigger(tiles(28)));
}

TEST(SortKeyTypesCpu, KeyOrderIsTheNumericOrder) {
  const sort::KeyOrder i32 = sort::key_order(sort::KeyType::Int32);
  const std::vector<int> ints = {INT_MIN, -1000000, -1, 0, 1, 7, INT_MAX};
  for (std::size_t i = 1; i < ints.size(); ++i)
    EXPECT_LT(i32(bits_of(ints[i - 1])), i32(bits_of(ints[i]))) << ints[i];
  const sort::KeyOrder f32 = sort::key_order(sort::KeyType::Float32);
  const float inf = INFINITY;
  const std::vector<float> floats = {-inf, -1e30f, -1.0f, -1e-45f, 0.0f, 1e-45f, 1.0f, 1e30f, inf};
  for (std::size_t i = 1; i < floats.size(); ++i)
    EXPECT_LT(f32(bits_of(floats[i - 1])), f32(bits_of(floats[i]))) << floats[i];
  EXPECT_EQ(f32(bits_of(-0.0f)), f32(bits_of(0.0f))); // CUB: the zeros are equivalent
  EXPECT_LT(f32(0xffc00000u), f32(bits_of(-inf)));    // negative NaN first
  EXPECT_GT(f32(0x7fc00000u), f32(bits_of(inf)));     // positive NaN last
  for (sort::KeyType t : sort::kKeyTypes) {
    const sort::KeyOrder o = sort::key_order(t);
    EXPECT_EQ(o(o.largest()), ~0u) << sort::key_type_name(t);
  }
}

// Every sort variant of `target` on float32 pairs of special values (both zeros interleaved,
// infinities, NaNs of both signs, denormals, ordinary values) with their index as the value: the
// stable order of KeyOrder, keys moved unchanged.
void sort_special_floats(Target target) {
  const float inf = INFINITY;
  const std::vector<unsigned> specials = {
      bits_of(-0.0f), bits_of(0.0f),  bits_of(inf),  bits_of(-inf), 0x7fc00000u,
      0xffc00000u,    0x7f800001u,    0x00000001u,   0x80000001u,   bits_of(1.0f),
      bits_of(-1.0f), bits_of(-0.0f), bits_of(0.0f), bits_of(3.5f), bits_of(-2.25f)};
  const std::size_t n = 4099;
  std::vector<unsigned> keys(n), vals(n);
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned r = random_word(static_cast<unsigned>(i), 11);
    keys[i] = r % 3 == 0 ? r : specials[r % specials.size()];
  }
  std::iota(vals.begin(), vals.end(), 0u);
  const sort::KeyOrder order = sort::key_order(sort::KeyType::Float32);
  std::vector<unsigned> expected = vals;
  std::stable_sort(expected.begin(), expected.end(),
                   [&](unsigned a, unsigned b) { return order(keys[a]) < order(keys[b]); });
  for (const sort::Variant& v : sort::variants()) {
    if (v.target != target)
      continue;
    const int block = v.blocks.empty() ? 0 : v.default_block;
    std::vector<unsigned> got_keys(n), got_vals(n);
    std::size_t bytes = 0;
    if (target == Target::Cpu) {
      v.run(nullptr, bytes, keys.data(), got_keys.data(), vals.data(), got_vals.data(), n,
            sort::KeyType::Float32, block, nullptr);
      std::vector<unsigned char> temp(bytes);
      v.run(temp.data(), bytes, keys.data(), got_keys.data(), vals.data(), got_vals.data(), n,
            sort::KeyType::Float32, block, nullptr);
    } else {
      auto d_keys = to_device(keys);
      auto d_vals = to_device(vals);
      DeviceBuffer<unsigned> out_keys(n), out_vals(n);
      v.run(nullptr, bytes, d_keys.data(), out_keys.data(), d_vals.data(), out_vals.data(), n,
            sort::KeyType::Float32, block, nullptr);
      DeviceBuffer<unsigned char> temp(bytes);
      poison_device(out_vals.data(), out_vals.bytes());
      v.run(temp.data(), bytes, d_keys.data(), out_keys.data(), d_vals.data(), out_vals.data(), n,
            sort::KeyType::Float32, block, nullptr);
      CUDA_CHECK(cudaDeviceSynchronize());
      const auto k = to_host(out_keys.data(), n), w = to_host(out_vals.data(), n);
      got_keys.assign(k.begin(), k.end());
      got_vals.assign(w.begin(), w.end());
    }
    std::size_t bad = n;
    for (std::size_t i = 0; i < n && bad == n; ++i)
      if (got_vals[i] != expected[i] || got_keys[i] != keys[expected[i]])
        bad = i;
    EXPECT_EQ(bad, n) << v.name << ": first wrong position " << bad;
  }
}
TEST(SortKeyTypesCpu, SpecialFloatsEveryVariant) {
  sort_special_floats(Target::Cpu);
}
TEST(SortKeyTypes, SpecialFloatsEveryGpuVariant) {
  GPS_SKIP_WITHOUT_GPU();
  sort_special_floats(Target::Gpu);
}

// onesweep's pairs keep their two middle passes packed in the output arrays' bytes when both are
// 8-byte aligned (onesweep.cu's PairSpan; a spare pair when n is odd) and move them as arrays
// otherwise: every combination of aligned and misaligned outputs, sizes around both blocks' tiles,
// odd and even (2^20 + 6: an odd n / 2, so segment 1 starts off a 16-byte boundary), against the
// stable order.
TEST(SortPairsOutputs, AlignedOrNotEveryOnesweepBlock) {
  GPS_SKIP_WITHOUT_GPU();
  const sort::Variant* v = sort::find_variant("onesweep");
  ASSERT_NE(v, nullptr);
  const std::size_t t256 = sort::onesweep_tile(256), t384 = sort::onesweep_tile(384);
  for (const std::size_t n :
       {std::size_t{1}, std::size_t{2}, std::size_t{3}, t256 - 1, t256, t256 + 1, t384 - 1, t384,
        t384 + 1, std::size_t{100003}, (std::size_t{1} << 20) + 6}) {
    if (n > max_test_n())
      continue; // the sanitizer runs' cap
    std::vector<unsigned> keys(n), vals(n);
    for (std::size_t i = 0; i < n; ++i)
      keys[i] = random_word(static_cast<unsigned>(n), i) % 5000u; // repeats: stability counts
    std::iota(vals.begin(), vals.end(), 0u);
    std::vector<unsigned> expected = vals;
    std::stable_sort(expected.begin(), expected.end(),
                     [&](unsigned a, unsigned b) { return keys[a] < keys[b]; });
    const auto d_keys = to_device(keys);
    const auto d_vals = to_device(vals);
    DeviceBuffer<unsigned> out_keys(n + 1), out_vals(n + 1);
    for (const int block : v->blocks)
      for (int shift = 0; shift < 4; ++shift) { // bit 0: keys' output 4 bytes on, bit 1: values'
        unsigned* ko = out_keys.data() + (shift & 1);
        unsigned* vo = out_vals.data() + (shift >> 1);
        std::size_t bytes = 0;
        v->run(nullptr, bytes, d_keys.data(), ko, d_vals.data(), vo, n, sort::KeyType::Uint32,
               block, nullptr);
        DeviceBuffer<unsigned char> temp(bytes);
        poison_device(out_keys.data(), out_keys.bytes());
        poison_device(out_vals.data(), out_vals.bytes());
        v->run(temp.data(), bytes, d_keys.data(), ko, d_vals.data(), vo, n, sort::KeyType::Uint32,
               block, nullptr);
        CUDA_CHECK(cudaDeviceSynchronize());
        const auto k = to_host(ko, n), w = to_host(vo, n);
        std::size_t bad = n;
        for (std::size_t i = 0; i < n && bad == n; ++i)
          if (w[i] != expected[i] || k[i] != keys[expected[i]])
            bad = i;
        EXPECT_EQ(bad, n) << "n " << n << " block " << block << " shift " << shift
                          << ": first wrong position " << bad;
      }
  }
}

// onesweep copies a pass whose keys all share one digit (onesweep.cu's copy_tile, block 256):
// keys whose bytes 1 and 3 are constant (two such passes, between two that sort), keys below 4096
// (the two high passes), int32 and negative float32 keys with a constant high byte (the last pass,
// whose digit the key order transforms), and float32 keys of both signs (two digits in the last
// pass: no copy), at sizes around both blocks' tiles, every block, twice on the same temporary
// storage, against the stable order of the keys.
TEST(SortOneDigitPasses, KeysEveryOnesweepBlock) {
  GPS_SKIP_WITHOUT_GPU();
  const sort::Variant* v = sort::find_variant("onesweep");
  ASSERT_NE(v, nullptr);
  struct Shape {
    sort::KeyType type;
    unsigned mask, bits; // key = random & mask | bits
  };
  const Shape shapes[] = {{sort::KeyType::Uint32, 0x00FF00FFu, 0xA5003C00u},
                          {sort::KeyType::Uint32, 0x00000FFFu, 0u},
                          {sort::KeyType::Int32, 0x00FFFFFFu, 0xFF000000u},
                          {sort::KeyType::Float32, 0x80FFFFFFu, 0x3F000000u},  // two digits
                          {sort::KeyType::Float32, 0x00FFFFFFu, 0xBF000000u}}; // negative: one
  const std::size_t t256 = sort::onesweep_tile(256), t384 = sort::onesweep_tile(384);
  for (const Shape& shape : shapes)
    for (const std::size_t n : {std::size_t{1}, std::size_t{2}, t256 - 1, t256, t256 + 1, t384 + 1,
                                std::size_t{100003}, (std::size_t{1} << 20) + 6}) {
      if (n > max_test_n())
        continue; // the sanitizer runs' cap
      std::vector<unsigned> keys(n);
      for (std::size_t i = 0; i < n; ++i)
        keys[i] = (random_word(static_cast<unsigned>(n) + shape.mask, i) & shape.mask) | shape.bits;
      const sort::KeyOrder order = sort::key_order(shape.type);
      std::vector<unsigned> expected = keys;
      std::stable_sort(expected.begin(), expected.end(),
                       [&](unsigned a, unsigned b) { return order(a) < order(b); });
      const auto d_keys = to_device(keys);
      DeviceBuffer<unsigned> out(n);
      for (const int block : v->blocks) {
        std::size_t bytes = 0;
        v->run(nullptr, bytes, d_keys.data(), out.data(), nullptr, nullptr, n, shape.type, block,
               nullptr);
        DeviceBuffer<unsigned char> temp(bytes);
        for (int round = 0; round < 2; ++round) {
          poison_device(out.data(), out.bytes());
          v->run(temp.data(), bytes, d_keys.data(), out.data(), nullptr, nullptr, n, shape.type,
                 block, nullptr);
          CUDA_CHECK(cudaDeviceSynchronize());
          EXPECT_EQ(first_mismatch(to_host(out.data(), n).data(), expected.data(), n), "")
              << "mask " << std::hex << shape.mask << std::dec << " n " << n << " block " << block
              << " round " << round;
        }
      }
    }
}

// The benchmarks' device-side sort check (bench/device_sort_check.cu) on outputs made by hand: a
// right output passes with the host's fingerprint, and each kind of wrong output is found at its
// first index.
TEST(SortDeviceCheck, FindsTheFirstWrongIndex) {
  GPS_SKIP_WITHOUT_GPU();
  const std::size_t n = 100003;
  const sort::KeyOrder order = sort::key_order(sort::KeyType::Float32);
  std::vector<unsigned> keys(n);
  for (std::size_t i = 0; i < n; ++i)
    keys[i] = static_cast<unsigned>(random_word(7, i)) | (i % 7 == 0 ? 0x80000000u : 0u);
  keys[5] = 0x80000000u; // -0.0 and +0.0 order as equal
  keys[6] = 0;
  std::vector<unsigned> idx(n);
  std::iota(idx.begin(), idx.end(), 0u);
  std::stable_sort(idx.begin(), idx.end(),
                   [&](unsigned a, unsigned b) { return order(keys[a]) < order(keys[b]); });
  std::vector<unsigned> sorted(n);
  std::uint64_t fa = 0, fb = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sorted[i] = keys[idx[i]];
    fa += random_word(keys[i], 1);
    fb += random_word(keys[i], 2);
  }
  const auto d_in = to_device(keys);
  auto check = [&](std::vector<unsigned> out_keys, const std::vector<unsigned>* out_vals) {
    const auto d_keys = to_device(out_keys);
    if (!out_vals)
      return check_sort_on_device(d_keys.data(), nullptr, nullptr, n, order, true);
    const auto d_vals = to_device(*out_vals);
    return check_sort_on_device(d_keys.data(), d_vals.data(), d_in.data(), n, order, false);
  };
  DeviceSortCheck c = check(sorted, nullptr);
  EXPECT_EQ(c.first_bad, n);
  EXPECT_EQ(c.fingerprint_a, fa);
  EXPECT_EQ(c.fingerprint_b, fb);
  std::vector<unsigned> wrong = sorted;
  std::swap(wrong[1000], wrong[1001]);
  ASSERT_NE(order(wrong[1000]), order(wrong[1001])); // random keys: distinct there
  EXPECT_EQ(check(wrong, nullptr).first_bad, 1001u); // the larger key now comes first
  wrong = sorted;
  wrong[n / 2] = wrong[n / 2 - 1]; // still sorted, no longer a permutation
  c = check(wrong, nullptr);
  EXPECT_EQ(c.first_bad, n);
  EXPECT_TRUE(c.fingerprint_a != fa || c.fingerprint_b != fb);

  EXPECT_EQ(check(sorted, &idx).first_bad, n);
  std::vector<unsigned> vals = idx;
  std::swap(vals[n - 2], vals[n - 1]); // keys no longer match the input at their values
  EXPECT_EQ(check(sorted, &vals).first_bad, sorted[n - 2] == sorted[n - 1] ? n - 1 : n - 2);
  vals = idx;
  vals[77] = static_cast<unsigned>(n); // out of range
  EXPECT_EQ(check(sorted, &vals).first_bad, 77u);
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
  using SortWithScan =
      void (*)(void*, std::size_t&, std::string_view, const unsigned*, unsigned*, const unsigned*,
               unsigned*, std::size_t, sort::KeyType, int, cudaStream_t);
  for (SortWithScan sort :
       {&sort::sort_split_1bit_with_scan, &sort::sort_block_local_4bit_with_scan})
    for (const char* scan : {"kogge_stone", "coarsened", "cub"}) {
      std::size_t bytes = 0;
      sort(nullptr, bytes, scan, d_keys.data(), out_keys.data(), d_vals.data(), out_vals.data(), n,
           sort::KeyType::Uint32, 128, nullptr);
      DeviceBuffer<unsigned char> temp(bytes);
      poison_device(out_vals.data(), out_vals.bytes());
      sort(temp.data(), bytes, scan, d_keys.data(), out_keys.data(), d_vals.data(), out_vals.data(),
           n, sort::KeyType::Uint32, 128, nullptr);
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
