// UTF-8 tests (the overview: test_utf8.cpp), part 1 and 2:
//   1. the CPU references against golden results computed by CPython's codec
//      (kernels/utf8/golden/golden.inc, written by make_golden.py): every byte value alone, every
//      truncated sequence, overlongs, surrogates, values above U+10FFFF, stray continuation bytes,
//      Markus Kuhn's decoder test sequences, exhaustive byte pairs and lead triples and quads,
//      random bytes, and encode of every code point;
//   2. the GPU variants' byte rules on the CPU, without a GPU: the per-byte rules of scan_based
//      (rules.hpp) and the 16-byte chunk step of single_pass (chunk.hpp, emulated at every input
//      alignment) against the reference, and single_pass's tile arithmetic (tiles.hpp: the last
//      tile holds the input's end at every skew; validate's skip never hides the first error).
#include "utf8/chunk.hpp"
#include "utf8/golden/golden.inc"
#include "utf8/rules.hpp"
#include "utf8/tiles.hpp"
#include "utf8_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gps::utf8 {
namespace {

using namespace test_support;

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

} // namespace
} // namespace gps::utf8
