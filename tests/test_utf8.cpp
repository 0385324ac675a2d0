// Tests of the UTF-8 study (kernels/utf8, bench/utf8_text):
//   1. the CPU references against golden results computed by CPython's codec
//      (kernels/utf8/golden/golden.inc, written by make_golden.py): every byte value alone, every
//      truncated sequence, overlongs, surrogates, values above U+10FFFF, stray continuation bytes,
//      Markus Kuhn's decoder test sequences, exhaustive byte pairs and lead triples and quads,
//      random bytes, and encode of every code point;
//   2. the GPU variants' byte rules on the CPU, without a GPU: the per-byte rules of scan_based
//      (rules.hpp) and the 16-byte chunk step of single_pass (chunk.hpp, emulated at every input
//      alignment) against the reference, and single_pass's tile arithmetic (tiles.hpp: the last
//      tile holds the input's end at every skew; validate's skip never hides the first error);
//   3. every variant of every operation x text mix x edge sizes (0, 1, 2, 3, 31, 32, 33,
//      block-1/block/block+1, tile-1/tile/tile+1, 4093, 65536, 2^20 + 7) against the reference,
//      byte for byte, outputs poisoned before each run and checked untouched past the count, each
//      GPU variant run twice on the same temporary storage; the adversarial corpus (tile
//      boundaries at every offset) and every input and output alignment; a seeded fuzz loop
//      (random bytes, mutated text, random code points); validate's first-error offset;
//   4. the tables and the contract's argument checks (no GPU needed).
// GPU cases skip with the reason on machines without a GPU. Case names:
// <Cpu|Gpu>/Utf8Variant.<Test>/<operation>_<variant>[_block<b>].
#include "common/cuda_check.hpp"
#include "utf8/chunk.hpp"
#include "utf8/golden/golden.inc"
#include "utf8/rules.hpp"
#include "utf8/tiles.hpp"
#include "utf8/utf8.hpp"
#include "utf8_text.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gps::utf8 {
namespace {

using Bytes = std::vector<unsigned char>;
using CodePoints = std::vector<std::uint32_t>;

// the generators' text as plain vectors (they return HostVector, the benchmarks' host arrays)
Bytes text_bytes(std::size_t n, TextMix mix, std::uint64_t seed) {
  const auto v = utf8_text(n, mix, seed);
  return Bytes(v.begin(), v.end());
}
CodePoints text_points(std::size_t n, TextMix mix, std::uint64_t seed) {
  const auto v = utf32_text(n, mix, seed);
  return CodePoints(v.begin(), v.end());
}

// ---- helpers
// -------------------------------------------------------------------------------------

using gps::testing::max_test_n; // GPS_TEST_MAX_N (test_support.hpp)

std::uint64_t fnv1a(const unsigned char* p, std::size_t n) {
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (std::size_t i = 0; i < n; ++i)
    h = (h ^ p[i]) * 0x100000001B3ull;
  return h;
}
std::uint64_t fnv1a(const CodePoints& cps) {
  Bytes packed(4 * cps.size());
  for (std::size_t i = 0; i < cps.size(); ++i)
    for (int b = 0; b < 4; ++b)
      packed[4 * i + b] = static_cast<unsigned char>(cps[i] >> (8 * b));
  return fnv1a(packed.data(), packed.size());
}

std::string hex(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%X", v);
  return buf;
}

// Compares every element; on failure: how many differ, the first few, and the lengths.
template <typename T>
::testing::AssertionResult same(const std::vector<T>& got, const std::vector<T>& want) {
  std::size_t bad = 0;
  std::string first;
  const std::size_t common = std::min(got.size(), want.size());
  for (std::size_t i = 0; i < common; ++i) {
    if (got[i] == want[i])
      continue;
    if (++bad <= 4)
      first += " [" + std::to_string(i) + "] " + hex(got[i]) + " != " + hex(want[i]);
  }
  if (bad == 0 && got.size() == want.size())
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "length " << got.size() << " (want " << want.size() << "), " << bad << " of the first "
         << common << " differ:" << first;
}

// The references.
CodePoints reference_decode(const Bytes& in) {
  CodePoints out(in.size());
  unsigned long long count = 0;
  std::size_t bytes = 0;
  decode_cpu(nullptr, bytes, in.data(), in.size(), out.data(), &count, 0, nullptr);
  Bytes temp(bytes);
  decode_cpu(temp.data(), bytes, in.data(), in.size(), out.data(), &count, 0, nullptr);
  out.resize(count);
  return out;
}
long long reference_first_error(const Bytes& in) {
  long long first = -2;
  std::size_t bytes = 0;
  validate_cpu(nullptr, bytes, in.data(), in.size(), &first, 0, nullptr);
  Bytes temp(bytes);
  validate_cpu(temp.data(), bytes, in.data(), in.size(), &first, 0, nullptr);
  return first;
}
Bytes reference_encode(const CodePoints& in) {
  Bytes out(4 * in.size());
  unsigned long long count = 0;
  std::size_t bytes = 0;
  encode_cpu(nullptr, bytes, in.data(), in.size(), out.data(), &count, 0, nullptr);
  Bytes temp(bytes);
  encode_cpu(temp.data(), bytes, in.data(), in.size(), out.data(), &count, 0, nullptr);
  out.resize(count);
  return out;
}

// ---- running any row, on the host or the device
// --------------------------------------------------

constexpr unsigned char kPoison = 0xAB;
constexpr std::size_t kSlack = 64; // bytes past every output that must stay poisoned

class DeviceMemory {
public:
  explicit DeviceMemory(std::size_t bytes) {
    CUDA_CHECK(cudaMalloc(&p_, std::max<std::size_t>(bytes, 1)));
  }
  ~DeviceMemory() { cudaFree(p_); }
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  unsigned char* get() const { return static_cast<unsigned char*>(p_); }

private:
  void* p_ = nullptr;
};

class Stream {
public:
  Stream() { CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(s_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }

private:
  cudaStream_t s_ = nullptr;
};

// Host -> device copies and fills of the GPU cases, each waited for before it returns. They run on
// the legacy default stream, and the rows run on a non-blocking Stream, which the legacy stream
// does not order against; a pageable cudaMemcpy may also return before its DMA lands. Without the
// wait a row can read its input before it arrives, and a poison fill can land after the row has
// written its results: the first H100 run reported results "never written", mostly in the first
// run after a large upload (bench/buffers.hpp waits for the same reason).
void upload(void* d, const void* h, std::size_t bytes) {
  if (bytes)
    CUDA_CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaDeviceSynchronize());
}
void fill(void* d, int value, std::size_t bytes) {
  CUDA_CHECK(cudaMemset(d, value, bytes));
  CUDA_CHECK(cudaDeviceSynchronize());
}

// Where the buffers start, in bytes past a 256-byte aligned allocation.
struct Placement {
  std::size_t in = 0;
  std::size_t out = 0;
};

// One operation as the runner sees it: input element and output element types, capacity, and how
// to call its row. Result: the output up to the count (decode, encode) or the first error.
struct DecodeOp {
  using Row = DecodeVariant;
  using In = unsigned char;
  using Out = std::uint32_t;
  static std::size_t capacity(std::size_t n) { return n; }
  static void call(const Row& row, void* temp, std::size_t& temp_bytes, const In* in, std::size_t n,
                   Out* out, unsigned long long* count, int block, cudaStream_t stream) {
    row.run(temp, temp_bytes, in, n, out, count, block, stream);
  }
};
struct EncodeOp {
  using Row = EncodeVariant;
  using In = std::uint32_t;
  using Out = unsigned char;
  static std::size_t capacity(std::size_t n) { return 4 * n; }
  static void call(const Row& row, void* temp, std::size_t& temp_bytes, const In* in, std::size_t n,
                   Out* out, unsigned long long* count, int block, cudaStream_t stream) {
    row.run(temp, temp_bytes, in, n, out, count, block, stream);
  }
};

// Runs `row` on `in` (GPU rows twice on the same temporary storage); returns each run's output.
// Outputs and the count are poisoned before each run; the bytes past the count are checked
// untouched.
template <typename Op>
std::vector<std::vector<typename Op::Out>> run_rows(const typename Op::Row& row, int block,
                                                    const std::vector<typename Op::In>& in,
                                                    Placement at = {}) {
  using In = typename Op::In;
  using Out = typename Op::Out;
  const std::size_t n = in.size();
  const std::size_t out_bytes = Op::capacity(n) * sizeof(Out);
  std::size_t temp_bytes = 0;
  Op::call(row, nullptr, temp_bytes, nullptr, n, nullptr, nullptr, block, nullptr);
  std::vector<std::vector<Out>> results;
  if (row.target == Target::Cpu) {
    std::vector<unsigned char> temp(temp_bytes), in_buf(at.in + n * sizeof(In) + 1),
        out_buf(at.out + out_bytes + kSlack, kPoison);
    std::memcpy(in_buf.data() + at.in, in.data(), n * sizeof(In));
    unsigned long long count = ~0ull;
    Op::call(row, temp.data(), temp_bytes, reinterpret_cast<const In*>(in_buf.data() + at.in), n,
             reinterpret_cast<Out*>(out_buf.data() + at.out), &count, block, nullptr);
    EXPECT_LE(count, Op::capacity(n));
    count = std::min<unsigned long long>(count, Op::capacity(n));
    std::vector<Out> out(count);
    std::memcpy(out.data(), out_buf.data() + at.out, count * sizeof(Out));
    const auto tail =
        std::count_if(out_buf.begin() + static_cast<std::ptrdiff_t>(at.out + count * sizeof(Out)),
                      out_buf.end(), [](unsigned char b) { return b != kPoison; });
    EXPECT_EQ(tail, 0) << "bytes written past the count";
    results.push_back(std::move(out));
    return results;
  }
  const Stream stream;
  DeviceMemory temp(temp_bytes), d_in(at.in + n * sizeof(In) + 1),
      d_out(at.out + out_bytes + kSlack), d_count(sizeof(unsigned long long));
  upload(d_in.get() + at.in, in.data(), n * sizeof(In));
  for (int run = 0; run < 2; ++run) {
    fill(d_out.get(), kPoison, at.out + out_bytes + kSlack);
    fill(d_count.get(), 0xFF, sizeof(unsigned long long));
    Op::call(row, temp.get(), temp_bytes, reinterpret_cast<const In*>(d_in.get() + at.in), n,
             reinterpret_cast<Out*>(d_out.get() + at.out),
             reinterpret_cast<unsigned long long*>(d_count.get()), block, stream.get());
    CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    unsigned long long count = 0;
    CUDA_CHECK(cudaMemcpy(&count, d_count.get(), sizeof count, cudaMemcpyDefault));
    EXPECT_LE(count, Op::capacity(n))
        << "run " << run << (count == ~0ull ? ": count never written (still the poison)" : "");
    count = std::min<unsigned long long>(count, Op::capacity(n));
    std::vector<unsigned char> out_buf(at.out + out_bytes + kSlack);
    CUDA_CHECK(cudaMemcpy(out_buf.data(), d_out.get(), out_buf.size(), cudaMemcpyDefault));
    std::vector<Out> out(count);
    std::memcpy(out.data(), out_buf.data() + at.out, count * sizeof(Out));
    const auto outside =
        std::count_if(out_buf.begin(), out_buf.begin() + static_cast<std::ptrdiff_t>(at.out),
                      [](unsigned char b) { return b != kPoison; }) +
        std::count_if(out_buf.begin() + static_cast<std::ptrdiff_t>(at.out + count * sizeof(Out)),
                      out_buf.end(), [](unsigned char b) { return b != kPoison; });
    EXPECT_EQ(outside, 0) << "run " << run << ": bytes written outside [out, out + count)";
    results.push_back(std::move(out));
  }
  return results;
}

// Validate: each run's first error.
std::vector<long long> run_validate(const ValidateVariant& row, int block, const Bytes& in,
                                    Placement at = {}) {
  const std::size_t n = in.size();
  std::size_t temp_bytes = 0;
  row.run(nullptr, temp_bytes, nullptr, n, nullptr, block, nullptr);
  std::vector<long long> results;
  if (row.target == Target::Cpu) {
    Bytes temp(temp_bytes), in_buf(at.in + n + 1);
    std::copy(in.begin(), in.end(), in_buf.begin() + static_cast<std::ptrdiff_t>(at.in));
    long long first = -2;
    row.run(temp.data(), temp_bytes, in_buf.data() + at.in, n, &first, block, nullptr);
    results.push_back(first);
    return results;
  }
  const Stream stream;
  DeviceMemory temp(temp_bytes), d_in(at.in + n + 1), d_first(sizeof(long long));
  upload(d_in.get() + at.in, in.data(), n);
  for (int run = 0; run < 2; ++run) {
    fill(d_first.get(), kPoison, sizeof(long long));
    row.run(temp.get(), temp_bytes, d_in.get() + at.in, n,
            reinterpret_cast<long long*>(d_first.get()), block, stream.get());
    CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    long long first = 0;
    CUDA_CHECK(cudaMemcpy(&first, d_first.get(), sizeof first, cudaMemcpyDefault));
    results.push_back(first);
  }
  return results;
}

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

// ---- 1. the references against CPython
// ------------------------------------------------------------

TEST(Utf8Golden, ReferenceDecodesAsCPython) {
  for (const golden::DecodeCase& g : golden::kDecodeCases) {
    SCOPED_TRACE(g.name);
    const Bytes in(golden::kDecodeBytes + g.byte_offset,
                   golden::kDecodeBytes + g.byte_offset + g.bytes);
    const CodePoints want(golden::kDecodeCodePoints + g.cp_offset,
                          golden::kDecodeCodePoints + g.cp_offset + g.code_points);
    EXPECT_TRUE(same(reference_decode(in), want));
    EXPECT_EQ(reference_first_error(in), g.first_error);
  }
}

Bytes hashed_input(const std::string& name) {
  if (name == "all_pairs")
    return utf8_all_pairs();
  if (name == "all_lead_triples")
    return utf8_all_lead_triples();
  if (name == "all_lead_quads")
    return utf8_all_lead_quads();
  const std::string random = "random_bytes_";
  if (name.compare(0, random.size(), random) == 0)
    return utf8_random_bytes(std::size_t{1} << 18, std::stoull(name.substr(random.size())));
  throw std::invalid_argument("no generator for golden input " + name);
}

TEST(Utf8Golden, ReferenceDecodesGeneratedInputsAsCPython) {
  for (const golden::HashCase& g : golden::kDecodeHashCases) {
    SCOPED_TRACE(g.name);
    const Bytes in = hashed_input(g.name);
    ASSERT_EQ(in.size(), g.input) << "the generator differs from make_golden.py's";
    const CodePoints got = reference_decode(in);
    EXPECT_EQ(got.size(), g.output);
    EXPECT_EQ(fnv1a(got), g.fnv1a);
    EXPECT_EQ(reference_first_error(in), g.first_error);
  }
}

TEST(Utf8Golden, ReferenceEncodesAsCPython) {
  for (const golden::EncodeCase& g : golden::kEncodeCases) {
    SCOPED_TRACE(g.name);
    const CodePoints in(golden::kEncodeCodePoints + g.cp_offset,
                        golden::kEncodeCodePoints + g.cp_offset + g.code_points);
    const Bytes want(golden::kEncodeBytes + g.byte_offset,
                     golden::kEncodeBytes + g.byte_offset + g.bytes);
    EXPECT_TRUE(same(reference_encode(in), want));
  }
  const golden::HashCase& all = golden::kEncodeHashCases[0];
  const CodePoints in = utf32_all_code_points();
  ASSERT_EQ(in.size(), all.input);
  const Bytes got = reference_encode(in);
  EXPECT_EQ(got.size(), all.output);
  EXPECT_EQ(fnv1a(got.data(), got.size()), all.fnv1a);
}

// ---- 2. the GPU variants' rules, on the CPU
// -------------------------------------------------------

// Every input the CPU-side rule checks run on: the golden explicit cases, the exhaustive pairs,
// the adversarial corpus at a small tile, every mix, random bytes and mutated text.
std::vector<Bytes> rule_inputs() {
  std::vector<Bytes> inputs;
  for (const golden::DecodeCase& g : golden::kDecodeCases)
    inputs.emplace_back(golden::kDecodeBytes + g.byte_offset,
                        golden::kDecodeBytes + g.byte_offset + g.bytes);
  inputs.push_back(utf8_all_pairs());
  for (Utf8Case& c : utf8_adversarial_corpus(256, 3))
    inputs.push_back(std::move(c.bytes));
  for (TextMix mix : kTextMixes)
    inputs.push_back(text_bytes(70001, mix, 5));
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    inputs.push_back(utf8_random_bytes(1 + seed * 97, seed));
    inputs.push_back(utf8_mutate(text_bytes(3000, TextMix::Mixed, seed), 20, seed));
  }
  return inputs;
}

unsigned byte_or_zero(const Bytes& in, long long i) {
  return i >= 0 && static_cast<std::size_t>(i) < in.size() ? in[static_cast<std::size_t>(i)] : 0u;
}

// scan_based's rules (rules.hpp), byte by byte: a unit starts where starts_unit says, decodes to
// what decode_unit says, and the first ill-formed start is the first error.
TEST(Utf8Rules, PerByteRulesMatchReference) {
  for (const Bytes& in : rule_inputs()) {
    CodePoints got;
    long long first = -1;
    for (long long i = 0; i < static_cast<long long>(in.size()); ++i) {
      if (!starts_unit(byte_or_zero(in, i - 3), byte_or_zero(in, i - 2), byte_or_zero(in, i - 1),
                       in[static_cast<std::size_t>(i)]))
        continue;
      const Unit u = decode_unit(in[static_cast<std::size_t>(i)], byte_or_zero(in, i + 1),
                                 byte_or_zero(in, i + 2), byte_or_zero(in, i + 3));
      got.push_back(u.code_point);
      if (!u.well_formed && first < 0)
        first = i;
    }
    ASSERT_TRUE(same(got, reference_decode(in))) << "input of " << in.size() << " bytes";
    ASSERT_EQ(first, reference_first_error(in)) << "input of " << in.size() << " bytes";
  }
}

// The little-endian word of input bytes p..p+3 of `in` laid `skew` bytes into the 16-byte grid
// (0 outside the input), as the kernels load it.
std::uint32_t input_word(const Bytes& in, long long p, long long skew = 0) {
  std::uint32_t w = 0;
  for (int b = 0; b < 4; ++b)
    w |= byte_or_zero(in, p + b - skew) << (8 * b);
  return w;
}

// classify_chunk's bits of the chunk at virtual position p that lie in the input [skew, end), as
// the kernels keep them (ByteGrid::inside_mask).
std::uint32_t inside_info_bits(long long p, long long skew, long long end) {
  std::uint32_t inside = 0;
  for (int k = 0; k < 16; ++k)
    if (p + k >= skew && p + k < end)
      inside |= 1u << k;
  return inside | inside << 16;
}

// The code point of the unit at chunk position k, as the kernels' loops decode it.
std::uint32_t chunk_unit(std::uint32_t w0, std::uint32_t w1, std::uint32_t w2, std::uint32_t w3,
                         std::uint32_t next, unsigned k, bool well_formed) {
  return chunk::decode_chunk_unit(chunk::chunk_window(w0, w1, w2, w3, next, k), well_formed);
}

// single_pass's chunk step (chunk.hpp), emulated as the kernels run it: the input laid on the
// 16-byte grid of its address (skew 0..15), each 16-byte chunk classified from its words and the
// words before and after it (0 outside the input), its units written in order.
TEST(Utf8Chunk, ChunkStepMatchesReferenceAtEverySkew) {
  auto word = [](const Bytes& in, long long skew, long long p) { return input_word(in, p, skew); };
  for (const Bytes& in : rule_inputs()) {
    const CodePoints want = reference_decode(in);
    const long long want_first = reference_first_error(in);
    for (long long skew = 0; skew < 16; ++skew) {
      CodePoints got, in_order, clean_loop;

      std::uint32_t carry = 0; // the last chunk's last_word_classes
      long long first = -1;
      const long long end = skew + static_cast<long long>(in.size());
      for (long long p = 0; p < end; p += 16) {
        const std::uint32_t w0 = word(in, skew, p), w1 = word(in, skew, p + 4),
                            w2 = word(in, skew, p + 8), w3 = word(in, skew, p + 12);
        std::uint32_t info =
            chunk::classify_chunk(word(in, skew, p - 4), w0, w1, w2, w3, word(in, skew, p + 16),
                                  chunk::host_pair_table());
        // as the kernels classify the chunks after a warp's first: the word before from the chunk
        // before's last_word_classes
        const bool ascii_chunk = ((w0 | w1 | w2 | w3) & chunk::kHigh) == 0;
        const chunk::ChunkMasks own =
            chunk::own_masks(w0, w1, w2, w3, word(in, skew, p + 16), chunk::host_pair_table());
        if (p > 0) {
          chunk::ChunkMasks chained = own;
          chunk::add_prev_classes(chained, carry);
          ASSERT_EQ(ascii_chunk ? chunk::kAllAscii : chunk::chunk_info(chained), info)
              << "classes from the chunk before, input of " << in.size() << " bytes, skew " << skew
              << ", chunk at " << p;
        }
        carry = ascii_chunk ? chunk::kAsciiWordClasses : chunk::last_word_classes(own);
        info &= inside_info_bits(p, skew, end);
        const std::uint32_t ill_formed = chunk::ill_formed_starts(info);
        if (ill_formed && first < 0)
          first = p - skew + chunk::lowest_bit(ill_formed);
        const std::size_t at = got.size();
        got.resize(at + static_cast<std::size_t>(chunk::bit_count(chunk::unit_starts(info))));
        chunk::for_each_unit(w0, w1, w2, w3, word(in, skew, p + 16), info,
                             [&](int i, std::uint32_t cp) { got.at(at + i) = cp; });
        // decode's loop mode: the loop over every start in order, and its build without the test
        // per unit where the chunk has no ill-formed unit
        in_order.resize(got.size(), ~0u);
        const std::uint32_t next = word(in, skew, p + 16);
        const auto unit = [&](unsigned k, bool well_formed) {
          return chunk_unit(w0, w1, w2, w3, next, k, well_formed);
        };
        chunk::for_each_unit_in_order(info, unit,
                                      [&](int i, std::uint32_t cp) { in_order.at(at + i) = cp; });
        clean_loop.resize(got.size(), ~0u);
        if (chunk::ill_formed_starts(info) == 0)
          chunk::for_each_unit_in_order<true>(
              info, unit, [&](int i, std::uint32_t cp) { clean_loop.at(at + i) = cp; });
      }
      ASSERT_TRUE(same(got, want)) << "input of " << in.size() << " bytes, skew " << skew;
      ASSERT_TRUE(same(in_order, want))
          << "loop over every start in order, input of " << in.size() << " bytes, skew " << skew;
      ASSERT_EQ(first, want_first) << "input of " << in.size() << " bytes, skew " << skew;
      if (first < 0) {
        clean_loop.resize(got.size(), ~0u);
        ASSERT_TRUE(same(clean_loop, want))
            << "loop without the test per unit, input of " << in.size() << " bytes, skew " << skew;
      }
    }
  }
}

// chunk.hpp's pair table: entry (b & 0x3F) << 8 | (n & 0x3F) says whether lead b takes n as its
// second byte, for every byte >= C0 and every continuation byte, as the kernels fill it (runs of 16
// equal entries) and as the host builds it; and byte_perm's sign mode, which builds its indices.
TEST(Utf8Chunk, PairTableMatchesTheRules) {
  const unsigned char* table = chunk::host_pair_table();
  for (unsigned b = 0xC0; b < 0x100; ++b)
    for (unsigned n = 0x80; n < 0xC0; ++n) {
      const unsigned index = (b & 0x3Fu) << 8 | (n & 0x3Fu);
      const bool want = continuation_count(b) > 0 && second_byte_ok(b, n);
      ASSERT_EQ(table[index] != 0, want) << std::hex << "lead " << b << ", next " << n;
      const unsigned run = index >> 8 << 2 | (index & 0xFFu) >> 4;
      ASSERT_EQ((chunk::pair_run16_word(run / 32) >> run % 32 & 1u) != 0, want)
          << std::hex << "lead " << b << ", next " << n;
    }
  EXPECT_EQ(chunk::byte_perm(0x807F0102u, 0x0A0B0C0Du, 0x8B95u), 0x00FF000Cu);
  EXPECT_EQ(chunk::byte_perm(0x3F013F3Fu, 0x01020304u, 0x8834u), 0x00003F04u);
}

// decode's accumulate mode for warps inside the input (chunk.hpp, for_each_position_accumulate),
// as a warp runs it: every chunk's positions where a unit ends in the chunk stored into the slot of
// their unit (index -1, positions 0..2 only, into a scratch slot), then its last unit decoded
// again; both builds (ALL_WELL_FORMED where the chunk has no ill-formed unit). Whole chunks only.
TEST(Utf8Chunk, AccumulateModeMatchesReference) {
  for (Bytes in : rule_inputs()) {
    in.resize(in.size() / 16 * 16);
    if (in.empty())
      continue;
    const CodePoints want = reference_decode(in);
    auto word = [&](long long p) { return input_word(in, p); };
    for (const bool trust_clean : {false, true}) {
      CodePoints got(want.size() + 1, ~0u); // got[0]: the scratch slot of index -1
      long long at = 0;
      for (long long p = 0; p < static_cast<long long>(in.size()); p += 16) {
        const std::uint32_t w0 = word(p), w1 = word(p + 4), w2 = word(p + 8), w3 = word(p + 12),
                            next = word(p + 16);
        const std::uint32_t info =
            chunk::classify_chunk(word(p - 4), w0, w1, w2, w3, next, chunk::host_pair_table());
        ASSERT_NE(chunk::unit_starts(info), 0u) << "a chunk without a start, at " << p;
        // n: the unit's index in the input (first = at, the chunk's first unit); where() is an
        // index into got, 0 for the scratch slot of index at - 1 (positions 0..2 only)
        const auto where = [&](int n, int k) {
          EXPECT_GE(n, k < 3 ? at - 1 : at) << "position " << k << " before the chunk's units";
          return static_cast<std::uint32_t>(n < at ? 0 : n + 1);
        };
        const auto store = [&](std::uint32_t i, std::uint32_t cp) { got.at(i) = cp; };
        const auto unit = [&](unsigned k, bool well_formed) {
          return chunk_unit(w0, w1, w2, w3, next, k, well_formed);
        };
        if (trust_clean && chunk::ill_formed_starts(info) == 0)
          chunk::for_each_position_accumulate<true>(w0, w1, w2, w3, info, static_cast<int>(at),
                                                    where, store, unit);
        else
          chunk::for_each_position_accumulate(w0, w1, w2, w3, info, static_cast<int>(at), where,
                                              store, unit);
        at += chunk::bit_count(chunk::unit_starts(info));
      }
      ASSERT_EQ(static_cast<std::size_t>(at), want.size());
      got.erase(got.begin());
      ASSERT_TRUE(same(got, want)) << "input of " << in.size() << " bytes"
                                   << (trust_clean ? ", clean chunks unchecked" : "");
    }
  }
}

// decode's accumulate mode for the warps at the input's edges (for_each_position_accumulate's EDGE
// build): the input laid on the 16-byte grid at every skew and cut at three lengths, each chunk
// classified as the kernel does (bits outside the input cleared), its units stored by index (any
// position before the chunk's first unit into a scratch slot); chunks with no unit store nothing.
TEST(Utf8Chunk, AccumulateModeAtTheEdgesMatchesReference) {
  auto word = [](const Bytes& in, long long skew, long long p) { return input_word(in, p, skew); };
  for (const Bytes& whole : rule_inputs()) {
    for (const std::size_t cut : {whole.size(), whole.size() * 2 / 3, whole.size() / 3 + 1}) {
      if (cut > whole.size())
        continue;
      const Bytes in(whole.begin(), whole.begin() + static_cast<long long>(cut));
      const CodePoints want = reference_decode(in);
      for (long long skew = 0; skew < 16; ++skew) {
        // got[0]: the scratch slot; got[1]: index -1, which no store may reach (the stage's word
        // before the warp's first unit)
        CodePoints got(want.size() + 2, ~0u);
        long long at = 0;
        const long long end = skew + static_cast<long long>(in.size());
        for (long long p = 0; p < end + 16; p += 16) { // and one chunk wholly after the end
          const std::uint32_t w0 = word(in, skew, p), w1 = word(in, skew, p + 4),
                              w2 = word(in, skew, p + 8), w3 = word(in, skew, p + 12),
                              next = word(in, skew, p + 16);
          std::uint32_t info = chunk::classify_chunk(word(in, skew, p - 4), w0, w1, w2, w3, next,
                                                     chunk::host_pair_table());
          info &= inside_info_bits(p, skew, end);
          const auto where = [&](int n, int) {
            return static_cast<std::uint32_t>(n < at ? 0 : n + 2);
          };
          const auto store = [&](std::uint32_t i, std::uint32_t cp) { got.at(i) = cp; };
          const auto unit = [&](unsigned k, bool well_formed) {
            return chunk_unit(w0, w1, w2, w3, next, k, well_formed);
          };
          chunk::for_each_position_accumulate<false, true>(
              w0, w1, w2, w3, info, static_cast<int>(at), where, store, unit);
          at += chunk::bit_count(chunk::unit_starts(info));
        }
        ASSERT_EQ(static_cast<std::size_t>(at), want.size());
        ASSERT_EQ(got[1], ~0u) << "a store before the input's first unit, input of " << in.size()
                               << " bytes, skew " << skew;
        got.erase(got.begin(), got.begin() + 2);
        ASSERT_TRUE(same(got, want)) << "input of " << in.size() << " bytes, skew " << skew;
      }
    }
  }
}

// payload_bits (chunk.hpp) keeps each byte's payload bits, whatever its neighbours.
TEST(Utf8Chunk, PayloadBitsOfEveryByte) {
  for (std::uint32_t b = 0; b < 256; ++b) {
    const std::uint32_t want = b < 0x80   ? b
                               : b < 0xC0 ? b & 0x3Fu
                               : b < 0xE0 ? b & 0x1Fu
                               : b < 0xF0 ? b & 0x0Fu
                                          : b & 0x07u;
    for (const std::uint32_t other : {0x00u, 0xFFu, 0x80u, 0xC3u})
      for (int at = 0; at < 4; ++at) {
        std::uint32_t x = other * 0x01010101u;
        x = (x & ~(0xFFu << (8 * at))) | b << (8 * at);
        ASSERT_EQ(chunk::payload_bits(x) >> (8 * at) & 0xFFu, want)
            << "byte " << b << " at " << at << " among " << other;
      }
  }
}

// decode_with_entry (chunk.hpp) against the table 3-7 decoder (rules.hpp) for every scalar value
// encoded with garbage after its last byte, for every ASCII byte, and for every window that is not
// well-formed (U+FFFD whatever its bytes); and byte_perm's host emulation on the selectors used.
TEST(Utf8Chunk, DecodeWithEntryMatchesTheRulesForEveryScalarValue) {
  EXPECT_EQ(chunk::byte_perm(0x44332211u, 0u, 0x0123u), 0x11223344u);
  EXPECT_EQ(chunk::byte_perm(0x44332211u, 0u, 0x4012u), 0x00112233u);
  EXPECT_EQ(chunk::byte_perm(0x44332211u, 0u, 0x4401u), 0x00001122u);
  EXPECT_EQ(chunk::byte_perm(0x44332211u, 0u, 0x4440u), 0x00000011u);
  EXPECT_EQ(chunk::byte_perm(0x44332211u, 0x88776655u, 0x7654u), 0x88776655u);
  for (std::uint32_t cp = 0; cp <= 0x10FFFFu; ++cp) {
    if (!is_scalar_value(cp))
      continue;
    const std::uint32_t bytes = encoded_bytes(cp), len = encoded_length(cp);
    const std::uint32_t tail = len == 4 ? 0u : 0xA5C3E2F0u << (8 * len); // garbage after it
    const std::uint32_t w = bytes | tail;
    const Unit ref = decode_unit(w & 0xFFu, w >> 8 & 0xFFu, w >> 16 & 0xFFu, w >> 24);
    ASSERT_TRUE(ref.well_formed) << std::hex << cp;
    ASSERT_EQ(ref.code_point, cp) << std::hex << cp;
    ASSERT_EQ(chunk::decode_chunk_unit(w, true), cp) << std::hex << cp;
    ASSERT_EQ(chunk::decode_chunk_unit(w, false), kReplacementChar) << std::hex << cp;
  }
}

// encoded_word (rules.hpp: single_pass's branch-free encoder) against encoded_bytes for every
// value up to 0x110000, the surrogates among them, and values far above the range.
TEST(Utf8Rules, EncodedWordMatchesEncodedBytes) {
  const auto check = [](std::uint32_t cp) {
    const unsigned len = encoded_length(cp);
    const std::uint32_t mask = len == 4 ? ~0u : (1u << (8 * len)) - 1;
    ASSERT_EQ(encoded_word(cp, len), encoded_bytes(cp) & mask) << std::hex << cp;
    ASSERT_EQ(encoded_word(cp, len) & ~mask, 0u) << std::hex << cp;
  };
  for (std::uint32_t cp = 0; cp <= 0x110000u; ++cp)
    check(cp);
  for (std::uint32_t cp : {0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, 0x00FFFFFFu, 0x00110001u})
    check(cp);
}

// single_pass's tile arithmetic (tiles.hpp), as the host launches it: at every skew (the input's
// offset in its 16-byte line) and every block's tile, for sizes around the tile edges, the limits
// and the sizes of the adversarial corpus, the tiles launched cover the input, the last one holds
// its last element (that tile writes decode's and encode's count), and the query phase reserved
// enough status words. n == 0 launches nothing: every row writes its result on the host path.
TEST(Utf8Chunk, TileCountsCoverTheInputAndTheLastTileHoldsItsEnd) {
  auto check = [](std::size_t tile, std::size_t max_skew, std::size_t limit) {
    std::set<std::size_t> sizes = {
        1, 2, 3, 15, 16, 17, 4093, 65536, (std::size_t{1} << 20) + 7, limit - 1};
    for (std::size_t k : {1, 2, 3, 9, 32})
      for (std::size_t d = 0; d <= 2 * max_skew + 2; ++d)
        sizes.insert(k * tile + d - max_skew - 1); // k tiles, give or take a skew
    EXPECT_EQ(tiles::tile_count(0, 0, tile), 0u);  // why n == 0 is a host path
    for (std::size_t skew = 0; skew <= max_skew; ++skew)
      for (std::size_t n : sizes) {
        const std::size_t count = tiles::tile_count(skew, n, tile);
        SCOPED_TRACE("tile " + std::to_string(tile) + " skew " + std::to_string(skew) + " n " +
                     std::to_string(n));
        ASSERT_GE(count, 1u);
        EXPECT_GE(count * tile, skew + n);       // covers the input
        EXPECT_LT((count - 1) * tile, skew + n); // the last tile holds the last element
        EXPECT_LE(count, tiles::max_tile_count(max_skew, n, tile)); // reserved by the query
        EXPECT_LT(count, std::size_t{1} << 31); // a grid and a 32-bit tile index
        EXPECT_EQ(
            tiles::first_offset(0, static_cast<long long>(tile), static_cast<long long>(skew)), 0);
      }
  };
  for (int block : kBlockSizes) {
    check(single_pass_decode_tile(block), tiles::kMaxByteSkew, kMaxGpuBytes);
    check(single_pass_encode_tile(block), tiles::kMaxCodePointSkew, kMaxGpuCodePoints);
    check(single_pass_encode_large_tile(block), tiles::kMaxCodePointSkew, kMaxGpuCodePoints);
  }
}

// validate_single_pass's early exit, emulated: tiles run in any order, each skips its work when an
// error before its first byte (tiles::first_offset) is already known, otherwise folds its own first
// error in with a min; the result is -1 (tiles::kNoError) or the first error. Checked for every
// skew, small tiles, every error position and pairs of them, tiles in forward, reverse and shuffled
// order.
TEST(Utf8Chunk, ValidateSkipsOnlyTilesThatCannotHoldTheFirstError) {
  const long long tile = 64;
  for (long long skew = 0; skew < 16; ++skew)
    for (long long n : {1LL, 17LL, 48LL, 49LL, 64LL, 65LL, 200LL}) {
      const auto count = static_cast<long long>(tiles::tile_count(static_cast<std::size_t>(skew),
                                                                  static_cast<std::size_t>(n),
                                                                  static_cast<std::size_t>(tile)));
      // every byte's tile starts at or before it
      for (long long o = 0; o < n; ++o)
        ASSERT_LE(tiles::first_offset((o + skew) / tile, tile, skew), o);
      std::vector<std::vector<long long>> orders(3);
      for (long long t = 0; t < count; ++t)
        orders[0].push_back(t);
      orders[1].assign(orders[0].rbegin(), orders[0].rend());
      orders[2] = orders[0];
      for (std::size_t i = orders[2].size(); i > 1; --i)
        std::swap(orders[2][i - 1], orders[2][utf8_random(static_cast<std::uint64_t>(n), i) % i]);
      for (long long e1 = -1; e1 < n; ++e1)
        for (long long e2 : {-1LL, e1 + 1, n - 1}) {
          std::set<long long> errors;
          for (long long e : {e1, e2})
            if (e >= 0 && e < n)
              errors.insert(e);
          const long long want = errors.empty() ? -1 : *errors.begin();
          for (const auto& order : orders) {
            unsigned known = tiles::kNoError;
            for (long long t : order) {
              if (known < tiles::first_offset(t, tile, skew))
                continue; // the kernel's skip
              unsigned first = tiles::kNoError;
              for (long long e : errors)
                if ((e + skew) / tile == t)
                  first = std::min(first, static_cast<unsigned>(e));
              known = std::min(known, first);
            }
            const long long got = known == tiles::kNoError ? -1 : static_cast<long long>(known);
            ASSERT_EQ(got, want) << "skew " << skew << " n " << n << " errors " << e1 << ", " << e2;
          }
        }
    }
}

// encode's device rules (rules.hpp: encoded_length, encoded_bytes) against the reference, for
// every code point and the non-scalar values.
TEST(Utf8Rules, EncodeRulesMatchReference) {
  const CodePoints all = utf32_all_code_points();
  Bytes got;
  for (std::uint32_t cp : all) {
    const std::uint32_t bytes = encoded_bytes(cp);
    for (unsigned b = 0; b < encoded_length(cp); ++b)
      got.push_back(static_cast<unsigned char>(bytes >> (8 * b)));
  }
  EXPECT_TRUE(same(got, reference_encode(all)));
}

// ---- the generators
// ----------------------------------------------------------------------------------

TEST(Utf8Text, MixesHaveExactSizesAndTheirShape) {
  for (TextMix mix : kTextMixes)
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{65535},
                          std::size_t{65537}, std::size_t{300001}}) {
      SCOPED_TRACE(std::string(text_mix_name(mix)) + " n = " + std::to_string(n));
      const Bytes text = text_bytes(n, mix, 11);
      ASSERT_EQ(text.size(), n);
      EXPECT_EQ(text, text_bytes(n, mix, 11)) << "not deterministic";
      const long long first = reference_first_error(text);
      if (mix == TextMix::MixedErrors) {
        if (n >= 65535) {
          EXPECT_GE(first, 0);
        }
      } else {
        EXPECT_EQ(first, -1) << "well-formed mixes must be well-formed";
      }
      if (n < 300001)
        continue;
      const CodePoints cps = reference_decode(text);
      const double bytes_per_cp = static_cast<double>(n) / static_cast<double>(cps.size());
      const std::size_t fffd =
          static_cast<std::size_t>(std::count(cps.begin(), cps.end(), 0xFFFDu));
      switch (mix) {
      case TextMix::Ascii:
        EXPECT_EQ(bytes_per_cp, 1.0);
        break;
      case TextMix::Latin:
        EXPECT_GT(bytes_per_cp, 1.6);
        break;
      case TextMix::Cjk:
        EXPECT_NEAR(bytes_per_cp, 3.0, 0.01);
        break;
      case TextMix::Emoji:
        EXPECT_NEAR(bytes_per_cp, 4.0, 0.01);
        break;
      case TextMix::Mixed:
        EXPECT_GT(bytes_per_cp, 1.2);
        EXPECT_LT(bytes_per_cp, 2.0);
        break;
      case TextMix::MixedErrors: {
        const double error_fraction = static_cast<double>(fffd) / static_cast<double>(n);
        EXPECT_GT(error_fraction, 0.005);
        EXPECT_LT(error_fraction, 0.03);
        break;
      }
      case TextMix::File: // not in kTextMixes
        break;
      }
    }
  for (TextMix mix : kTextMixes) {
    TextMix parsed = TextMix::Ascii;
    EXPECT_TRUE(text_mix_from_name(text_mix_name(mix), &parsed));
    EXPECT_EQ(parsed, mix);
  }
  TextMix unused;
  EXPECT_FALSE(text_mix_from_name("klingon", &unused));
}

// The generated text is what the published results were measured on: pinned by hashes (FNV-1a of
// the bytes, and of the code points as little-endian words) taken from the generator of commit
// 662d031, so that a faster generator must draw the same text.
TEST(Utf8Text, GeneratorIsPinned) {
  struct Pin {
    TextMix mix;
    std::uint64_t bytes, points;
  };
  const Pin pins[] = {{TextMix::Ascii, 0x51dc742dc17a7b18ull, 0x2610aca66505ca00ull},
                      {TextMix::Latin, 0x11ca29eca16a69edull, 0x6eb0e274655360abull},
                      {TextMix::Cjk, 0x09dd75a76ef73ce2ull, 0x575f535cdd6b19b2ull},
                      {TextMix::Emoji, 0x3afba46861f388a2ull, 0x18a372d0678df095ull},
                      {TextMix::Mixed, 0xdbca3fd2b262613dull, 0xda2f2ada8148bb3dull},
                      {TextMix::MixedErrors, 0x8da2fb516fa39f0aull, 0x711473246fe1b90bull}};
  for (const Pin& pin : pins) {
    SCOPED_TRACE(text_mix_name(pin.mix));
    const auto bytes = utf8_text((std::size_t{1} << 20) + 7, pin.mix, 42);
    EXPECT_EQ(fnv1a(bytes.data(), bytes.size()), pin.bytes);
    EXPECT_EQ(fnv1a(text_points((std::size_t{1} << 18) + 3, pin.mix, 42)), pin.points);
  }
}

TEST(Utf8Text, FileMixRepeatsTheUserText) {
  // a, e-acute, a stray FF, a truncated 3-byte sequence: 4 code points, two of them U+FFFD
  const Bytes text = {'a', 0xC3, 0xA9, 0xFF, 0xE4, 0xB8};
  set_user_text(text);
  EXPECT_TRUE(has_user_text());
  const auto bytes = utf8_text(13, TextMix::File, 1);
  ASSERT_EQ(bytes.size(), 13u);
  for (std::size_t i = 0; i < bytes.size(); ++i)
    EXPECT_EQ(bytes[i], text[i % text.size()]) << i;
  const auto points = utf32_text(7, TextMix::File, 1);
  const CodePoints want = {'a', 0xE9, 0xFFFD, 0xFFFD, 'a', 0xE9, 0xFFFD};
  EXPECT_EQ(CodePoints(points.begin(), points.end()), want);
  clear_user_text();
  EXPECT_FALSE(has_user_text());
  EXPECT_THROW(utf8_text(4, TextMix::File, 1), std::logic_error);
  EXPECT_THROW(set_user_text({}), std::invalid_argument);
  EXPECT_STREQ(text_mix_name(TextMix::File), "file");
}

TEST(Utf8Text, CodePointMixes) {
  for (TextMix mix : kTextMixes) {
    const CodePoints cps = text_points(100000, mix, 3);
    ASSERT_EQ(cps.size(), 100000u);
    const auto invalid = std::count_if(cps.begin(), cps.end(),
                                       [](std::uint32_t cp) { return !is_scalar_value(cp); });
    if (mix == TextMix::MixedErrors) {
      EXPECT_GT(invalid, 500);
      EXPECT_LT(invalid, 1500);
    } else {
      EXPECT_EQ(invalid, 0) << text_mix_name(mix);
    }
  }
}

// ---- 4. tables and the contract
// ---------------------------------------------------------------------

template <typename Row>
void check_table(const std::vector<Row>& table, const Row* (*find)(std::string_view),
                 const std::vector<int>& single_pass_blocks) {
  const std::vector<std::string> want = {"cpu", "cpu_parallel", "iconv", "scan_based",
                                         "single_pass"};
  ASSERT_EQ(table.size(), want.size());
  std::set<std::string> names;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const Row& row = table[i];
    EXPECT_EQ(row.name, want[i]);
    EXPECT_TRUE(names.insert(row.name).second);
    EXPECT_EQ(find(row.name), &row);
    EXPECT_STRNE(row.description, "");
    const bool gpu = row.target == Target::Gpu;
    EXPECT_EQ(gpu, i >= 3);
    EXPECT_EQ(row.role, i == 0   ? Role::Reference
                        : i == 1 ? Role::Baseline
                        : i == 2 ? Role::Vendor
                                 : Role::Study);
    if (gpu) {
      const bool single_pass = std::string_view(row.name) == "single_pass";
      EXPECT_EQ(row.blocks, single_pass ? single_pass_blocks : any_block());
      EXPECT_EQ(row.default_block, 256);
      EXPECT_NE(std::find(row.blocks.begin(), row.blocks.end(), row.default_block),
                row.blocks.end());
      for (int block : row.blocks)
        EXPECT_GT(row.tile_elems(block), 0u);
    } else {
      EXPECT_TRUE(row.blocks.empty());
    }
  }
  EXPECT_EQ(find("no_such_variant"), nullptr);
}

TEST(Utf8Tables, NamesRolesBlocks) {
  // the single_pass rows also take 384 threads (utf8.hpp)
  const std::vector<int> single_pass = {64, 128, 256, 384, 512, 1024};
  EXPECT_EQ(single_pass_blocks(), single_pass);
  check_table(decode_variants(), find_decode, single_pass);
  check_table(validate_variants(), find_validate, single_pass);
  check_table(encode_variants(), find_encode, single_pass);
}

// What the query phase of a GPU row refuses, without touching any pointer or the GPU.
template <typename F> void expect_refused(F&& call, const std::string& needle) {
  try {
    call();
    ADD_FAILURE() << "not refused (wanted a message with \"" << needle << "\")";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(Utf8Contract, GpuRowsRefuseSizesBeyondTheirOffsetsAndBadBlocks) {
  const std::size_t too_many_bytes = std::size_t{1} << 32;
  for (const char* name : {"scan_based", "single_pass"}) {
    SCOPED_TRACE(name);
    std::size_t bytes = 0;
    expect_refused(
        [&] {
          find_decode(name)->run(nullptr, bytes, nullptr, too_many_bytes, nullptr, nullptr, 256,
                                 nullptr);
        },
        "2^32");
    expect_refused(
        [&] {
          find_validate(name)->run(nullptr, bytes, nullptr, too_many_bytes, nullptr, 256, nullptr);
        },
        "2^32");
    expect_refused(
        [&] {
          find_encode(name)->run(nullptr, bytes, nullptr, std::size_t{1} << 30, nullptr, nullptr,
                                 256, nullptr);
        },
        "2^30");
    expect_refused(
        [&] {
          find_decode(name)->run(nullptr, bytes, nullptr, 100, nullptr, nullptr, 100, nullptr);
        },
        "block");
    // the largest sizes they take: a query that answers
    bytes = 0;
    find_decode(name)->run(nullptr, bytes, nullptr, too_many_bytes - 1, nullptr, nullptr, 1024,
                           nullptr);
    EXPECT_GT(bytes, 0u);
    bytes = 0;
    find_encode(name)->run(nullptr, bytes, nullptr, (std::size_t{1} << 30) - 1, nullptr, nullptr,
                           64, nullptr);
    EXPECT_GT(bytes, 0u);
  }
}

TEST(Utf8Contract, RowsRefuseTooLittleStorageAndNullPointers) {
  unsigned char small[1];
  for (const auto& row : decode_variants()) {
    SCOPED_TRACE(row.name);
    const int block = row.takes_block() ? row.default_block : 0;
    std::size_t need = 0;
    row.run(nullptr, need, nullptr, 1 << 20, nullptr, nullptr, block, nullptr);
    if (need > 1) {
      std::size_t have = 1;
      expect_refused(
          [&] { row.run(small, have, nullptr, 1 << 20, nullptr, nullptr, block, nullptr); },
          "temporary storage too small");
    }
    if (row.target == Target::Cpu) {
      std::vector<unsigned char> temp(need);
      expect_refused(
          [&] { row.run(temp.data(), need, nullptr, 10, nullptr, nullptr, block, nullptr); },
          "null");
    }
  }
}

// A uint32 pointer that is not 4-byte aligned, refused in the run phase before any GPU work.
TEST(Utf8Contract, GpuRowsRefuseMisalignedCodePointPointers) {
  alignas(16) unsigned char buffer[64] = {};
  for (const char* name : {"scan_based", "single_pass"}) {
    SCOPED_TRACE(name);
    std::size_t need = 0;
    find_decode(name)->run(nullptr, need, nullptr, 8, nullptr, nullptr, 256, nullptr);
    std::vector<unsigned char> temp(need);
    unsigned long long count = 0;
    expect_refused(
        [&] {
          find_decode(name)->run(temp.data(), need, buffer, 8,
                                 reinterpret_cast<std::uint32_t*>(buffer + 2), &count, 256,
                                 nullptr);
        },
        "4-byte aligned output");
    need = 0;
    find_encode(name)->run(nullptr, need, nullptr, 8, nullptr, nullptr, 256, nullptr);
    temp.resize(need);
    expect_refused(
        [&] {
          find_encode(name)->run(temp.data(), need,
                                 reinterpret_cast<const std::uint32_t*>(buffer + 1), 8, buffer + 40,
                                 &count, 256, nullptr);
        },
        "4-byte aligned input");
  }
}

TEST(Utf8Contract, CpuRowsTakeEmptyInput) {
  for (const auto& row : decode_variants()) {
    if (row.target != Target::Cpu)
      continue;
    EXPECT_TRUE(run_rows<DecodeOp>(row, 0, Bytes{}).at(0).empty()) << row.name;
  }
  for (const auto& row : validate_variants()) {
    if (row.target != Target::Cpu)
      continue;
    EXPECT_EQ(run_validate(row, 0, Bytes{}).at(0), -1) << row.name;
  }
}

} // namespace
} // namespace gps::utf8
