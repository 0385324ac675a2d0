// Tests of the UTF-8 study (kernels/utf8, bench/utf8_text), in four files of one binary:
//   - test_utf8_rules.cpp: the CPU references against golden results computed by CPython's codec
//     (kernels/utf8/golden/golden.inc, written by make_golden.py), and the GPU variants' byte
//     rules on the CPU (scan_based's per-byte rules, single_pass's 16-byte chunk step and its
//     tile arithmetic) against the reference;
//   - this file: every variant of every operation x text mix x edge sizes (0, 1, 2, 3, 31, 32,
//     33, block-1/block/block+1, tile-1/tile/tile+1, 4093, 65536, 2^20 + 7) against the
//     reference, byte for byte, outputs poisoned before each run and checked untouched past the
//     count, each GPU variant run twice on the same temporary storage; the adversarial corpus
//     (tile boundaries at every offset) and every input and output alignment; a seeded fuzz loop
//     (random bytes, mutated text, random code points); validate's first-error offset; two
//     variants at once on two streams;
//   - test_utf8_text.cpp: the text generators (exact sizes, each mix's shape, pinned output);
//   - test_utf8_contract.cpp: the tables and the contract's argument checks (no GPU needed).
// Their shared helpers, the references and the runner of any row: utf8_test_support.hpp.
// GPU cases skip with the reason on machines without a GPU. Case names:
// <Cpu|Gpu>/Utf8Variant.<Test>/<operation>_<variant>[_block<b>].
#include "utf8_test_support.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gps::utf8 {
namespace {

using namespace test_support;

// ---- the parameter space: operation x variant x block
// ----------------------------------------------

enum class Op { Decode, Validate, Encode };
const char* op_name(Op op) {
  return op == Op::Decode ? "decode" : op == Op::Validate ? "validate" : "encode";
}

struct VariantCase {
  Op op;
  int index; // row in the operation's table
  int block; // 0 for variants that take none
  std::string name;
  Target target;
  std::size_t tile; // the tile edge: the variant's own, or 4096 for the CPU rows
};

template <typename Row>
void add_cases(std::vector<VariantCase>& out, Op op, const std::vector<Row>& table, Target target) {
  for (std::size_t i = 0; i < table.size(); ++i) {
    const Row& row = table[i];
    if (row.target != target)
      continue;
    const std::vector<int> blocks = row.blocks.empty() ? std::vector<int>{0} : row.blocks;
    for (int block : blocks) {
      std::string name = std::string(op_name(op)) + "_" + row.name;
      if (block)
        name += "_block" + std::to_string(block);
      const std::size_t tile = row.tile_elems(block) > 1 ? row.tile_elems(block) : 4096;
      out.push_back({op, static_cast<int>(i), block, name, target, tile});
    }
  }
}

std::vector<VariantCase> variant_cases(Target target) {
  std::vector<VariantCase> out;
  add_cases(out, Op::Decode, decode_variants(), target);
  add_cases(out, Op::Validate, validate_variants(), target);
  add_cases(out, Op::Encode, encode_variants(), target);
  return out;
}

// The edge sizes: 0, 1, 2, 3, 31, 32, 33, block-1/block/block+1, tile-1/tile/tile+1, 4093,
// 65536, 2^20 + 7 (capped by GPS_TEST_MAX_N).
std::vector<std::size_t> edge_sizes(std::size_t block, std::size_t tile) {
  std::set<std::size_t> s = {0, 1, 2, 3, 31, 32, 33, 4093, 65536, (std::size_t{1} << 20) + 7};
  for (std::size_t b : {block, tile})
    if (b > 0)
      s.insert({b - 1, b, b + 1});
  std::vector<std::size_t> out;
  for (std::size_t n : s)
    if (n <= max_test_n())
      out.push_back(n);
  return out;
}

// Inputs and expected outputs, made once per (mix, n).
const Bytes& text_input(TextMix mix, std::size_t n) {
  static std::map<std::pair<int, std::size_t>, Bytes> cache;
  auto key = std::make_pair(static_cast<int>(mix), n);
  auto it = cache.find(key);
  if (it == cache.end())
    it = cache.emplace(key, text_bytes(n, mix, 1000 + n)).first;
  return it->second;
}
const CodePoints& code_point_input(TextMix mix, std::size_t n) {
  static std::map<std::pair<int, std::size_t>, CodePoints> cache;
  auto key = std::make_pair(static_cast<int>(mix), n);
  auto it = cache.find(key);
  if (it == cache.end())
    it = cache.emplace(key, text_points(n, mix, 2000 + n)).first;
  return it->second;
}

// Checks one operation's row on one input against the reference.
void check_decode(const VariantCase& c, const Bytes& in, Placement at = {}) {
  const CodePoints want = reference_decode(in);
  const auto runs = run_rows<DecodeOp>(decode_variants()[c.index], c.block, in, at);
  for (std::size_t r = 0; r < runs.size(); ++r)
    EXPECT_TRUE(same(runs[r], want)) << "run " << r;
}
void check_validate(const VariantCase& c, const Bytes& in, Placement at = {}) {
  const long long want = reference_first_error(in);
  const auto runs = run_validate(validate_variants()[c.index], c.block, in, at);
  long long poison = 0;
  std::memset(&poison, kPoison, sizeof poison);
  for (std::size_t r = 0; r < runs.size(); ++r)
    EXPECT_EQ(runs[r], want) << "run " << r
                             << (runs[r] == poison ? ": never written (still the poison)" : "");
}
void check_encode(const VariantCase& c, const CodePoints& in, Placement at = {}) {
  const Bytes want = reference_encode(in);
  const auto runs = run_rows<EncodeOp>(encode_variants()[c.index], c.block, in, at);
  for (std::size_t r = 0; r < runs.size(); ++r)
    EXPECT_TRUE(same(runs[r], want)) << "run " << r;
}
void check_bytes(const VariantCase& c, const Bytes& in, Placement at = {}) {
  if (c.op == Op::Decode)
    check_decode(c, in, at);
  if (c.op == Op::Validate)
    check_validate(c, in, at);
}

class Utf8Variant : public ::testing::TestWithParam<VariantCase> {
protected:
  void SetUp() override {
    if (GetParam().target == Target::Gpu)
      GPS_SKIP_WITHOUT_GPU();
  }
};

// Every mix x every edge size.
TEST_P(Utf8Variant, MatchesReferenceOnEveryMixAndEdgeSize) {
  const VariantCase& c = GetParam();
  for (std::size_t n : edge_sizes(static_cast<std::size_t>(c.block), c.tile))
    for (TextMix mix : kTextMixes) {
      SCOPED_TRACE(std::string(text_mix_name(mix)) + " n = " + std::to_string(n));
      if (c.op == Op::Encode)
        check_encode(c, code_point_input(mix, n));
      else
        check_bytes(c, text_input(mix, n));
      if (HasFailure())
        return;
    }
}

// single_pass encode switches to its larger tiles at kEncodeLargeN code points (utf8.hpp): the
// sizes on both sides of the switch and around the larger tile's edges, mixed text with and
// without errors.
TEST_P(Utf8Variant, EncodeMatchesReferenceAroundTheLargeTiles) {
  const VariantCase& c = GetParam();
  if (c.op != Op::Encode || std::string_view(encode_variants()[c.index].name) != "single_pass")
    GTEST_SKIP() << "single_pass encode only";
  const std::size_t tile = single_pass_encode_large_tile(c.block);
  const std::size_t below = kEncodeLargeN > 0 ? kEncodeLargeN - 1 : 0; // 0: a sanitizer build
  for (std::size_t n : {below, kEncodeLargeN, kEncodeLargeN + 1, kEncodeLargeN + tile - 1,
                        kEncodeLargeN + tile + 1}) {
    if (n > max_test_n())
      continue;
    for (TextMix mix : {TextMix::Mixed, TextMix::MixedErrors}) {
      SCOPED_TRACE(std::string(text_mix_name(mix)) + " n = " + std::to_string(n));
      check_encode(c, code_point_input(mix, n));
      if (HasFailure())
        return;
    }
  }
}

// The adversarial corpus, with its tile boundaries at this variant's tile.
TEST_P(Utf8Variant, MatchesReferenceOnAdversarialInputs) {
  const VariantCase& c = GetParam();
  if (c.op == Op::Encode) {
    const CodePoints all = utf32_all_code_points();
    check_encode(c, all);
    CodePoints edges = {0xD7FF,   0xD800,     0xDFFF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF,
                        0x110000, 0xFFFFFFFF, 0x7F,   0x80,   0x7FF,  0x800};
    for (std::size_t reps = 0; edges.size() < 3 * c.tile + 5; ++reps)
      edges.push_back(edges[reps % 13] + static_cast<std::uint32_t>(reps % 2));
    check_encode(c, edges);
    return;
  }
  for (const Utf8Case& adversarial : utf8_adversarial_corpus(c.tile, 7)) {
    if (adversarial.bytes.size() > max_test_n())
      continue;
    SCOPED_TRACE(adversarial.name);
    check_bytes(c, adversarial.bytes);
    if (HasFailure())
      return;
  }
}

// Every input alignment (0..15 bytes; 0..3 words for code points) and output alignment.
TEST_P(Utf8Variant, MatchesReferenceAtEveryAlignment) {
  const VariantCase& c = GetParam();
  const std::size_t n = std::min(2 * c.tile + 37, max_test_n());
  if (c.op == Op::Encode) {
    const CodePoints& in = code_point_input(TextMix::MixedErrors, n);
    for (std::size_t in_words = 0; in_words < 4; ++in_words)
      for (std::size_t out_bytes = 0; out_bytes < 16; ++out_bytes) {
        SCOPED_TRACE("in +" + std::to_string(4 * in_words) + " out +" + std::to_string(out_bytes));
        check_encode(c, in, {4 * in_words, out_bytes});
        if (HasFailure())
          return;
      }
    return;
  }
  const Bytes& in = text_input(TextMix::MixedErrors, n);
  for (std::size_t in_bytes = 0; in_bytes < 16; ++in_bytes)
    for (std::size_t out_words = 0; out_words < 4; ++out_words) {
      if (c.op == Op::Validate && out_words > 0)
        continue;
      SCOPED_TRACE("in +" + std::to_string(in_bytes) + " out +" + std::to_string(4 * out_words));
      check_bytes(c, in, {in_bytes, 4 * out_words});
      if (HasFailure())
        return;
    }
}

// A seeded fuzz loop: random bytes and mutated text of random lengths (up to 3 tiles), random
// code points with invalid ones.
TEST_P(Utf8Variant, MatchesReferenceOnFuzzedInputs) {
  const VariantCase& c = GetParam();
  const int iterations = c.target == Target::Gpu ? 60 : 150;
  for (int it = 0; it < iterations; ++it) {
    const std::uint64_t seed = 0xF0220000ull + static_cast<std::uint64_t>(it);
    const std::uint64_t w = utf8_random(seed, 0);
    const std::size_t n =
        std::min<std::size_t>(it % 4 == 0 ? w % (3 * c.tile + 1) : w % 2000, max_test_n());
    SCOPED_TRACE("iteration " + std::to_string(it) + " n = " + std::to_string(n));
    if (c.op == Op::Encode) {
      CodePoints in(n);
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t r = utf8_random(seed, i + 1);
        const unsigned kind = static_cast<unsigned>(r >> 60);
        in[i] = kind < 6    ? static_cast<std::uint32_t>(r % 0x80)
                : kind < 9  ? static_cast<std::uint32_t>(r % 0x800)
                : kind < 12 ? static_cast<std::uint32_t>(r % 0x10000)
                : kind < 14 ? static_cast<std::uint32_t>(r % 0x110000)
                            : static_cast<std::uint32_t>(r >> 8);
      }
      check_encode(c, in);
    } else if (it % 2 == 0) {
      check_bytes(c, utf8_random_bytes(n, seed));
    } else {
      const TextMix mix = kTextMixes[it % 6];
      check_bytes(c, utf8_mutate(text_bytes(n, mix, seed), 1 + w % 12, seed));
    }
    if (HasFailure())
      return;
  }
}

std::string case_name(const ::testing::TestParamInfo<VariantCase>& info) {
  return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(Cpu, Utf8Variant, ::testing::ValuesIn(variant_cases(Target::Cpu)),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Gpu, Utf8Variant, ::testing::ValuesIn(variant_cases(Target::Gpu)),
                         case_name);

// Two variants at once on two streams, each with its own temporary storage.
TEST(Utf8Concurrency, TwoDecodersOnTwoStreams) {
  GPS_SKIP_WITHOUT_GPU();
  const Bytes in = text_bytes((std::size_t{1} << 22) + 5, TextMix::MixedErrors, 99);
  const CodePoints want = reference_decode(in);
  const DecodeVariant* rows[2] = {find_decode("single_pass"), find_decode("scan_based")};
  const std::size_t n = in.size();
  DeviceMemory d_in(n);
  upload(d_in.get(), in.data(), n);
  Stream streams[2];
  std::vector<std::unique_ptr<DeviceMemory>> temps, outs, counts;
  for (int k = 0; k < 2; ++k) {
    std::size_t bytes = 0;
    rows[k]->run(nullptr, bytes, nullptr, n, nullptr, nullptr, 256, nullptr);
    temps.push_back(std::make_unique<DeviceMemory>(bytes));
    outs.push_back(std::make_unique<DeviceMemory>(4 * n));
    counts.push_back(std::make_unique<DeviceMemory>(8));
    rows[k]->run(temps[k]->get(), bytes, d_in.get(), n,
                 reinterpret_cast<std::uint32_t*>(outs[k]->get()),
                 reinterpret_cast<unsigned long long*>(counts[k]->get()), 256, streams[k].get());
  }
  for (int k = 0; k < 2; ++k) {
    CUDA_CHECK(cudaStreamSynchronize(streams[k].get()));
    unsigned long long count = 0;
    CUDA_CHECK(cudaMemcpy(&count, counts[k]->get(), 8, cudaMemcpyDefault));
    ASSERT_EQ(count, want.size()) << rows[k]->name;
    CodePoints got(count);
    CUDA_CHECK(cudaMemcpy(got.data(), outs[k]->get(), 4 * count, cudaMemcpyDefault));
    EXPECT_TRUE(same(got, want)) << rows[k]->name;
  }
}

} // namespace
} // namespace gps::utf8
