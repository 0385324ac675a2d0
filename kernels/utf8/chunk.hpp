// The 16-byte chunk step of the single-pass kernels (single_pass.cu), as host and device code so
// that the tests check it on the CPU against the reference, byte for byte, without a GPU.
//
// A thread owns a chunk of 16 input bytes, held as four little-endian 32-bit words, and sees the
// word before it (bytes -4..-1) and the word after it (bytes 16..19), with 0 for positions outside
// the input. classify_chunk finds which of its 16 bytes start a unit and which of those units are
// well-formed (rules.hpp: a byte's role depends on the 3 bytes before it), with SWAR arithmetic on
// the words: each byte class is computed for 4 bytes at once as its 0x80 bit, gathered into a bit
// mask (bit k + 4 for position k, -4 <= k < 20); whether a lead takes the next byte comes from a
// table over the pair of bytes (the pair table); the units follow from a few mask operations. A
// chunk of 16 ASCII bytes (the common case of most text) takes one test.
//
// Cost (for the study): about 30 integer operations per non-ASCII word of 4 bytes (about 13 of
// them multiply-adds, on the FMA pipe: mul_add below) and 4 shared loads, against 16 bytes per
// loaded vector; decode_with_entry is about 8 operations per unit.
#pragma once

#include "utf8/rules.hpp"

#include <cstdint>

namespace gps::utf8::chunk {

inline constexpr std::uint32_t kHigh = 0x80808080u;
inline constexpr std::uint32_t kAllAscii = 0xFFFF0000u; // classify_chunk of 16 ASCII bytes

// classify_chunk's result ("info"), two 16-bit masks over the chunk's bytes (bit k: byte k):
//   bits 0..15:  the units that do not start with an ASCII byte (multi-byte code points, and the
//                ill-formed units that each decode to U+FFFD);
//   bits 16..31: the well-formed units (ASCII bytes and well-formed multi-byte code points).
// So every unit start is in one half or both, and each role takes one or two operations to
// recover (ASCII starts: good & ~other); validate's ill-formed units are `other & ~good`.
GPS_UTF8_HD constexpr std::uint32_t unit_starts(std::uint32_t info) {
  return (info | info >> 16) & 0xFFFFu;
}
GPS_UTF8_HD constexpr std::uint32_t ill_formed_starts(std::uint32_t info) {
  return info & ~(info >> 16) & 0xFFFFu;
}

// The 0x80 bits of u (one per byte) as 4 bits, byte 0 lowest: the four products land on bits
// 28..31 and no other two overlap, so nothing carries into them.
GPS_UTF8_HD constexpr std::uint32_t gather_high_bits(std::uint32_t u) {
  return ((u & kHigh) * 0x00204081u) >> 28;
}

// The integer ALU pipe (logic, shifts, compares, most adds) bounds the kernels, at half the issue
// rate, while the FMA pipe's IMAD sits at a third of its peak (ncu, single_pass.tuning.md). So on
// the GPU the sums, shifts and merges of disjoint bit fields below are multiply-adds by constants
// the compiler cannot see (a __constant__ table: a shift by a known constant would be turned back
// into an ALU shift or LEA): a * k + c and the high word of a * k, one IMAD each.
// (One list for the device table and the host's copy: GPS_UTF8_FMA_CONSTANTS, in FmaConstant's
// order.)
#define GPS_UTF8_FMA_CONSTANTS                                                                     \
  { 1u, 8u, 16u, 1u << 4, 1u << 8, 1u << 12, 1u << 16, 1u << 20 }
#if defined(__CUDACC__)
static __constant__ std::uint32_t kFmaConstants[8] = GPS_UTF8_FMA_CONSTANTS;
#endif
enum FmaConstant {
  kFmaOne,
  kFmaEight,
  kFmaSixteen,
  kFmaShift4,
  kFmaShift8,
  kFmaShift12,
  kFmaShift16,
  kFmaShift20
};
GPS_UTF8_HD std::uint32_t fma_constant(FmaConstant k) {
#if defined(__CUDA_ARCH__)
  return kFmaConstants[k];
#else
  constexpr std::uint32_t values[8] = GPS_UTF8_FMA_CONSTANTS;
  return values[k];
#endif
}
// a * k + c (mod 2^32)
GPS_UTF8_HD std::uint32_t mul_add(std::uint32_t a, FmaConstant k, std::uint32_t c) {
  return a * fma_constant(k) + c;
}
// m with gather_high_bits(u) added at bit `at` (m's bits there are clear): three IMADs.
GPS_UTF8_HD std::uint32_t add_gathered(std::uint32_t m, std::uint32_t u, FmaConstant at) {
#if defined(__CUDA_ARCH__)
  const std::uint32_t product = (u & kHigh) * 0x00204081u; // gather_high_bits' product
  const std::uint32_t bits = __umulhi(product, fma_constant(kFmaSixteen)); // product >> 28
#else
  const std::uint32_t bits = gather_high_bits(u);
#endif
  return mul_add(bits, at, m);
}

// (hi:lo) >> shift, shift < 32: the 4 bytes starting at byte shift / 8 of lo.
GPS_UTF8_HD constexpr std::uint32_t funnel_right(std::uint32_t lo, std::uint32_t hi,
                                                 unsigned shift) {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(hi) << 32 | lo) >> shift);
}

// PTX prmt (default mode): byte n of the result is byte (s >> 4n) & 7 of y:x (x's bytes 0..3, y's
// 4..7), or, when bit 3 of that selector nibble is set, that byte's sign bit replicated (0x00 or
// 0xFF); only the selector's low 16 bits count. Inline PTX rather than __byte_perm, which masks
// the selector with 0x7777 first (one more ALU operation per unit). The host emulates it for the
// tests.
GPS_UTF8_HD std::uint32_t byte_perm(std::uint32_t x, std::uint32_t y, std::uint32_t s) {
#if defined(__CUDA_ARCH__)
  std::uint32_t r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(s));
  return r;
#else
  const std::uint64_t both = static_cast<std::uint64_t>(y) << 32 | x;
  std::uint32_t r = 0;
  for (int n = 0; n < 4; ++n) {
    const unsigned nibble = (s >> (4 * n)) & 0xFu;
    std::uint32_t byte = static_cast<std::uint32_t>(both >> (8 * (nibble & 7u)) & 0xFFu);
    if (nibble & 8u)
      byte = (byte & 0x80u) != 0 ? 0xFFu : 0u;
    r |= byte << (8 * n);
  }
  return r;
#endif
}

// The second-byte rule of table 3-7 as a byte table in shared memory (the pair table): entry
// (h << 8) | l, for h, l < 64, is 1 when 0xC0 | h is a lead (C2..F4) and 0x80 | l may follow it
// (E0: A0..BF, ED: 80..9F, F0: 90..BF, F4: 80..8F, the other leads 80..BF), else 0. Each chunk
// position looks up its pair (its byte's low 6 bits, the next byte's low 6 bits): one byte permute
// builds the index, one shared load reads the entry (the SWAR form took about 20 logic operations
// a word for the lead validity and the four narrow ranges). A position whose byte is not >= C0
// reads row 0 (C0 is never a lead): those lookups hit 16 words, in 16 distinct banks.
inline constexpr int kPairTableBytes = (63 << 8) + 64; // rows of 256 bytes, 64 entries used

GPS_UTF8_HD constexpr unsigned pair_entry(unsigned h, unsigned l) {
  const unsigned lead = 0xC0u | h;
  return continuation_count(lead) > 0 && second_byte_ok(lead, 0x80u | l) ? 1u : 0u;
}

// Every range bound is a multiple of 16, so the table is runs of 16 equal entries: run c < 256 is
// row c >> 2 from column 16 * (c & 3). The kernels fill it with one 16-byte store per run, from
// the runs' bits (32 a word).
GPS_UTF8_HD constexpr unsigned pair_run16(unsigned c) {
  return pair_entry(c >> 2, (c & 3u) * 16u);
}
constexpr std::uint32_t pair_run16_word(unsigned w) {
  std::uint32_t bits = 0;
  for (unsigned b = 0; b < 32; ++b)
    bits |= pair_run16(32 * w + b) << b;
  return bits;
}
constexpr bool pair_runs16_are_uniform() {
  for (unsigned h = 0; h < 64; ++h)
    for (unsigned l = 0; l < 64; ++l)
      if (pair_entry(h, l) != pair_run16(h << 2 | l >> 4))
        return false;
  return true;
}
static_assert(pair_runs16_are_uniform(), "the pair table is filled by runs of 16 equal entries");

// The table on the host (the tests run the chunk step on the CPU with it).
inline const unsigned char* host_pair_table() {
  static const struct Table {
    unsigned char bytes[kPairTableBytes] = {};
    Table() {
      for (unsigned h = 0; h < 64; ++h)
        for (unsigned l = 0; l < 64; ++l)
          bytes[h << 8 | l] = static_cast<unsigned char>(pair_entry(h, l));
    }
  } table;
  return table.bytes;
}

// The bytes of u (0x80 bits) spread to 0x7F in their byte: one IMAD.HI on the GPU.
GPS_UTF8_HD std::uint32_t spread_high_bits(std::uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __umulhi(u, 0xFE000000u); // bit 8i + 7 times 0xFE << 24, shifted down by 32: 0x7F << 8i
#else
  return (u >> 7) * 0x7Fu;
#endif
}

// The gathered byte classes of a chunk and its neighbours, one bit per byte: bit 4q + b for byte b
// of word q, where word 0 is the word before the chunk, words 1..4 the chunk's and word 5 the word
// after it (only its continuation bits, 20..23, are used). lead3 and lead4 are the bytes >= E0 and
// >= F0: they only matter behind second_ok, which holds only for leads.
struct ChunkMasks {
  std::uint32_t cont = 0, ascii = 0, lead3 = 0, lead4 = 0, second_ok = 0;
};

// Word q's classes (x, followed by `following`) added at bit 4q (q = 0..4; the bits are clear).
// The byte classes by SWAR (each as the 0x80 bit of its byte, then gathered), second_ok by the
// pair table (`pairs`: the kernel's shared copy, or host_pair_table()).
GPS_UTF8_HD void add_word(ChunkMasks& m, int q, std::uint32_t x, std::uint32_t following,
                          const unsigned char* pairs) {
  // bits 6, 5, 4 of each byte moved to its bit 7 (the bits shifted across a byte are masked off)
  const std::uint32_t x1 = x << 1;
  const std::uint32_t cont = x & ~x1 & kHigh;
  const std::uint32_t ge_c0 = x & x1 & kHigh;
  const std::uint32_t ge_e0 = ge_c0 & (x << 2);
  const std::uint32_t ge_f0 = ge_e0 & (x << 3);
  // the pairs' indices: byte 1 the lead's low 6 bits (0 for a byte below C0), byte 0 the next
  // byte's low 6 bits, bytes 2 and 3 zero (selector nibble 8: the sign of lead_low's byte 0)
  const std::uint32_t lead_low = x & spread_high_bits(ge_c0) & 0x3F3F3F3Fu;
  const std::uint32_t low = x & 0x3F3F3F3Fu;
  const std::uint32_t low_next = following & 0x3F3F3F3Fu;
  const std::uint32_t index[4] = {
      byte_perm(lead_low, low, 0x8805u), byte_perm(lead_low, low, 0x8816u),
      byte_perm(lead_low, low, 0x8827u), byte_perm(lead_low, low_next, 0x8834u)};
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int i = 0; i < 4; ++i)
    m.second_ok += static_cast<std::uint32_t>(pairs[index[i]]) << (4 * q + i);
  // 2^(4q): kFmaOne, then kFmaShift4 .. kFmaShift16 (consecutive in FmaConstant)
  const FmaConstant at = q == 0 ? kFmaOne : static_cast<FmaConstant>(kFmaShift4 + (q - 1));
  m.cont = add_gathered(m.cont, cont, at);
  m.ascii = add_gathered(m.ascii, ~x & kHigh, at);
  m.lead3 = add_gathered(m.lead3, ge_e0, at);
  m.lead4 = add_gathered(m.lead4, ge_f0, at);
}

// The masks of the chunk's own words and the continuation bits of the word after it; the word
// before it is added by add_word(m, 0, prev, w0) or, from the chunk before, by add_prev_classes.
GPS_UTF8_HD ChunkMasks own_masks(std::uint32_t w0, std::uint32_t w1, std::uint32_t w2,
                                 std::uint32_t w3, std::uint32_t next, const unsigned char* pairs) {
  ChunkMasks m;
  const std::uint32_t words[5] = {w0, w1, w2, w3, next};
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int q = 1; q < 5; ++q)
    add_word(m, q, words[q - 1], words[q], pairs);
  m.cont = add_gathered(m.cont, next & ~(next << 1), kFmaShift20); // bytes 16..19: continuation
  return m;
}

// The classes of the chunk's last word, packed as five 4-bit fields: what the chunk after this one
// needs of its word before (so that a kernel passes them on by one shuffle instead of classifying
// the word twice). A chunk of 16 ASCII bytes has kAsciiWordClasses.
GPS_UTF8_HD constexpr std::uint32_t last_word_classes(const ChunkMasks& m) {
  return ((m.cont >> 16) & 0xFu) | ((m.ascii >> 12) & 0xF0u) | ((m.lead3 >> 8) & 0xF00u) |
         ((m.lead4 >> 4) & 0xF000u) | (m.second_ok & 0xF0000u);
}
inline constexpr std::uint32_t kAsciiWordClasses = 0xF0u;

// The word before the chunk, from the chunk before's last_word_classes.
GPS_UTF8_HD constexpr void add_prev_classes(ChunkMasks& m, std::uint32_t packed) {
  m.cont |= packed & 0xFu;
  m.ascii |= (packed >> 4) & 0xFu;
  m.lead3 |= (packed >> 8) & 0xFu;
  m.lead4 |= (packed >> 12) & 0xFu;
  m.second_ok |= (packed >> 16) & 0xFu;
}

// The chunk's info (above) from its complete masks: a lead consumes the continuation bytes that
// follow it while they fit its pattern.
GPS_UTF8_HD constexpr std::uint32_t chunk_info(const ChunkMasks& m) {
  const std::uint32_t takes1 = m.second_ok & (m.cont >> 1);
  const std::uint32_t takes2 = takes1 & m.lead3 & (m.cont >> 2);
  const std::uint32_t takes3 = takes2 & m.lead4 & (m.cont >> 3);
  const std::uint32_t consumed = takes1 << 1 | takes2 << 2 | takes3 << 3;
  const std::uint32_t complete = m.ascii | (takes1 & ~m.lead3) | (takes2 & ~m.lead4) | takes3;
  const std::uint32_t starts = (~consumed >> 4) & 0xFFFFu;
  return (starts & ~(m.ascii >> 4)) | ((complete >> 4) & starts) << 16;
}

// Units of a 16-byte chunk w0..w3 (byte k of the chunk is byte k % 4 of word k / 4), with the word
// before it and the word after it. Returns the chunk's info (above): the starts that are not ASCII
// bytes in bits 0..15, the well-formed starts in bits 16..31. Positions outside the input must read
// as 0 (they are then never part of a unit of the input); the caller clears the bits of positions
// outside it.
GPS_UTF8_HD std::uint32_t classify_chunk(std::uint32_t prev, std::uint32_t w0, std::uint32_t w1,
                                         std::uint32_t w2, std::uint32_t w3, std::uint32_t next,
                                         const unsigned char* pairs) {
  if (((w0 | w1 | w2 | w3) & kHigh) == 0)
    return kAllAscii;
  ChunkMasks m = own_masks(w0, w1, w2, w3, next, pairs);
  add_word(m, 0, prev, w0, pairs);
  return chunk_info(m);
}

// What decode_with_entry needs of a unit's first byte b0: a byte_perm selector that puts the
// unit's L bytes in reverse order in the low bytes (the last byte lowest; zeros above), and the
// mask of their payload bits (0x7F for ASCII; 0x3F for each continuation byte; 0x1F, 0x0F, 0x07
// for a lead of L = 2, 3, 4). The kernels keep the 256 entries in shared memory (one load per
// unit instead of ~6 operations to derive them); bytes that never start a well-formed unit get
// the L = 2 entry, unused (their units decode to U+FFFD).
struct DecodeEntry {
  std::uint32_t sel;
  std::uint32_t mask;
};
GPS_UTF8_HD constexpr DecodeEntry decode_entry(std::uint32_t b0) {
  return b0 < 0x80u   ? DecodeEntry{0x4440u, 0x7Fu}
         : b0 < 0xE0u ? DecodeEntry{0x4401u, 0x1F3Fu}
         : b0 < 0xF0u ? DecodeEntry{0x4012u, 0x0F3F3Fu}
                      : DecodeEntry{0x0123u, 0x073F3F3Fu};
}

// The code point of the unit whose bytes are w's low bytes (first byte lowest), given its first
// byte's entry: the payload bits of the reversed bytes r (r's byte j is the unit's byte L-1-j),
// then the 6- (7-, for ASCII) bit fields packed: byte pairs into 12-bit fields (lo + hi / 4),
// then the two 12-bit halves (c - (c >> 16) * (65536 - 4096)). U+FFFD when not well-formed.
// Branch-free: a byte permute, 4 logic operations and one multiply-add on the GPU (the old form,
// with the length from compares and selects and each field shifted on its own, took about twice
// the integer ALU operations, and the ALU pipe is what bounds decode).
GPS_UTF8_HD std::uint32_t decode_with_entry(std::uint32_t w, DecodeEntry e, bool well_formed) {
  const std::uint32_t r = byte_perm(w, 0u, e.sel) & e.mask;
  const std::uint32_t c = (r & 0x00FF00FFu) + ((r & 0xFF00FF00u) >> 2);
  const std::uint32_t cp = c - (c >> 16) * (65536u - 4096u);
  return well_formed ? cp : kReplacementChar;
}

// The code point of the unit whose bytes are w's low bytes (first byte lowest): the byte itself
// for ASCII, the decoded well-formed sequence, or U+FFFD.
GPS_UTF8_HD std::uint32_t decode_chunk_unit(std::uint32_t w, bool well_formed) {
  return decode_with_entry(w, decode_entry(w & 0xFFu), well_formed);
}

// The 4 bytes of the chunk (plus the word after it) from position k, 0 <= k < 16.
GPS_UTF8_HD constexpr std::uint32_t chunk_window(std::uint32_t w0, std::uint32_t w1,
                                                 std::uint32_t w2, std::uint32_t w3,
                                                 std::uint32_t next, unsigned k) {
  const unsigned q = k >> 2;
  const std::uint32_t lo = q == 0 ? w0 : q == 1 ? w1 : q == 2 ? w2 : w3;
  const std::uint32_t hi = q == 0 ? w1 : q == 1 ? w2 : q == 2 ? w3 : next;
  return funnel_right(lo, hi, (k & 3u) * 8u);
}

// Index of the lowest set bit of x (x != 0).
GPS_UTF8_HD int lowest_bit(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __ffs(static_cast<int>(x)) - 1;
#else
  return __builtin_ctz(x);
#endif
}

// Calls put(i, code point) for the chunk's units in order, i = 0, 1, ...: the chunk's part of the
// output. `info` is classify_chunk's result with the bits of positions outside the input cleared.
// A chunk of 16 ASCII bytes writes its bytes; otherwise each unit start is visited once (a loop
// over the set bits: the work follows the units, not the bytes).
template <typename Put>
GPS_UTF8_HD void for_each_unit(std::uint32_t w0, std::uint32_t w1, std::uint32_t w2,
                               std::uint32_t w3, std::uint32_t next, std::uint32_t info,
                               Put&& put) {
  if (info == kAllAscii) {
    const std::uint32_t words[4] = {w0, w1, w2, w3};
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int k = 0; k < 16; ++k)
      put(k, words[k / 4] >> (8 * (k % 4)) & 0xFFu);
    return;
  }
  const std::uint32_t well_formed = info >> 16;
  std::uint32_t starts = unit_starts(info);
  for (int i = 0; starts != 0; ++i) {
    const int k = lowest_bit(starts);
    starts &= starts - 1;
    put(i, decode_chunk_unit(chunk_window(w0, w1, w2, w3, next, static_cast<unsigned>(k)),
                             (well_formed >> k) & 1u));
  }
}

// Number of set bits of x.
GPS_UTF8_HD int bit_count(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __popc(x);
#else
  return __builtin_popcount(x);
#endif
}

// The payload bits of each of the 4 bytes of x: 0x7F of an ASCII byte, 0x3F of a continuation
// byte, 0x1F, 0x0F, 0x07 of a lead of 2, 3, 4 bytes (a byte's bit j is cleared when bit 7 down to
// bit j + 1 are all set, for j = 6..3; the shifted-in bits of the next byte never reach those).
GPS_UTF8_HD constexpr std::uint32_t payload_bits(std::uint32_t x) {
  const std::uint32_t s1 = x >> 1, s2 = x >> 2, s3 = x >> 3, s4 = x >> 4;
  const std::uint32_t clear =
      s1 & (0x40404040u | (s2 & (0x20202020u | (s3 & (0x10101010u | (s4 & 0x08080808u))))));
  return x & ~clear & 0x7F7F7F7Fu;
}

// Index of the highest set bit of x (x != 0).
GPS_UTF8_HD int highest_bit(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return 31 - __clz(static_cast<int>(x));
#else
  return 31 - __builtin_clz(x);
#endif
}

// Byte j (0..3) of x, as one operation on the GPU (a logic operation, a shift or a byte permute).
GPS_UTF8_HD std::uint32_t byte_of(std::uint32_t x, int j) {
  return j == 0   ? x & 0xFFu
         : j == 3 ? x >> 24
                  : byte_perm(x, 0u, 0x4440u | static_cast<unsigned>(j));
}

// One position of for_each_position_accumulate (its first): with start = (starts & bit) != 0, acc =
// start ? bits : acc * 64 + bits and n += start. On the GPU as inline PTX, so that the start test
// is one logic operation that sets a predicate, the increment is predicated and the value one
// multiply-add and one select (compiled from C++, the start bit was shifted down, masked and
// compared, four operations, to be added to n).
GPS_UTF8_HD void accumulate_position(std::uint32_t& acc, int& n, std::uint32_t bits,
                                     std::uint32_t starts, std::uint32_t bit) {
#if defined(__CUDA_ARCH__)
  asm("{\n\t.reg .pred p;\n\t.reg .b32 t;\n\t"
      "and.b32 t, %3, %4;\n\t"
      "setp.ne.b32 p, t, 0;\n\t"
      "@p add.s32 %1, %1, 1;\n\t"
      "mad.lo.u32 t, %0, 64, %2;\n\t"
      "selp.b32 %0, %2, t, p;\n\t}"
      : "+r"(acc), "+r"(n)
      : "r"(bits), "r"(starts), "r"(bit));
#else
  const bool start = (starts & bit) != 0;
  acc = start ? bits : acc * 64u + bits;
  n += start ? 1 : 0;
#endif
}

// accumulate_position, and before it, under the same start test, the store of the position
// before: its value into its slot when this position starts a unit (so that only a unit's last
// position in the chunk is stored). On the GPU `where` is a 32-bit shared address and the store a
// predicated st.shared; on the host store(where, value).
template <typename Store>
GPS_UTF8_HD void accumulate_position_after(std::uint32_t& acc, int& n, std::uint32_t bits,
                                           std::uint32_t starts, std::uint32_t bit,
                                           std::uint32_t where, std::uint32_t value,
                                           Store&& store) {
#if defined(__CUDA_ARCH__)
  (void)store;
  asm volatile("{\n\t.reg .pred p;\n\t.reg .b32 t;\n\t"
               "and.b32 t, %3, %4;\n\t"
               "setp.ne.b32 p, t, 0;\n\t"
               "@p st.shared.b32 [%5], %6;\n\t"
               "@p add.s32 %1, %1, 1;\n\t"
               "mad.lo.u32 t, %0, 64, %2;\n\t"
               "selp.b32 %0, %2, t, p;\n\t}"
               : "+r"(acc), "+r"(n)
               : "r"(bits), "r"(starts), "r"(bit), "r"(where), "r"(value)
               : "memory");
#else
  const bool start = (starts & bit) != 0;
  if (start)
    store(where, value);
  acc = start ? bits : acc * 64u + bits;
  n += start ? 1 : 0;
#endif
}

// Every unit of the chunk in one pass over its 16 positions, without a loop (decode's accumulate
// mode): each position adds its payload bits to the code point of the unit that holds it (a start
// begins a new one, a continuation byte shifts it by 6), so a unit's last position in the chunk
// holds its code point (U+FFFD for an ill-formed unit; ALL_WELL_FORMED: the caller knows there is
// none). That value is stored, store(where(n, k), value) with n = first + the unit's index in the
// chunk, only where position k + 1 starts a unit, under the start test that position k + 1 makes
// anyway (on the GPU a predicated st.shared inside accumulate_position_after: no extra operation,
// and each store has only the lanes whose unit ends there). Positions 0..2 may belong to the chunk
// before's last unit (n == first - 1): where(first - 1, k) must send them elsewhere. The last unit
// may end in the word after the chunk: it is decoded again by unit(k, well_formed) (as
// for_each_unit_in_order's) and stored through store(where(n, 15), value). A chunk inside the
// input always has a start among its positions 0..3. EDGE: the chunk may have positions outside the
// input (their bits cleared in info): before its start any position may precede the chunk's first
// unit (where(first - 1, k) for any k must go elsewhere), the positions after its end add to its
// last unit only (whose value comes from unit()), and a chunk with no start stores nothing.
// Per position: a test of the start bit, a byte extraction, a multiply-add and a select for the
// value, the slot index kept by a predicated increment, and the predicated store.
template <bool ALL_WELL_FORMED = false, bool EDGE = false, typename Where, typename Store,
          typename Unit>
GPS_UTF8_HD void for_each_position_accumulate(std::uint32_t w0, std::uint32_t w1, std::uint32_t w2,
                                              std::uint32_t w3, std::uint32_t info, int first,
                                              Where&& where, Store&& store, Unit&& unit) {
  const std::uint32_t payload[4] = {payload_bits(w0), payload_bits(w1), payload_bits(w2),
                                    payload_bits(w3)};
  const std::uint32_t starts = unit_starts(info), well_formed = info >> 16;
  std::uint32_t acc = 0, value = 0;
  bool ok = true;
  int n = first - 1;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int k = 0; k < 16; ++k) {
    const bool start = (starts & (1u << k)) != 0;
    const std::uint32_t bits = byte_of(payload[k / 4], k % 4);
    if (k == 0)
      accumulate_position(acc, n, bits, starts, 1u);
    else
      accumulate_position_after(acc, n, bits, starts, 1u << k, where(n, k - 1), value, store);
    if (!ALL_WELL_FORMED)
      ok = start ? (well_formed & (1u << k)) != 0 : ok;
    value = ALL_WELL_FORMED || ok ? acc : kReplacementChar;
  }
  if (EDGE && starts == 0)
    return;
  const int last = highest_bit(starts);
  store(where(n, 15),
        unit(static_cast<unsigned>(last), ALL_WELL_FORMED || ((well_formed >> last) & 1u) != 0));
}

// Calls put(i, code point) for the chunk's units in order, i = 0, 1, ... (decode's loop mode): the
// starts are visited in order, so a unit's index is the trip count; unit(k, well_formed) gives the
// code point of the unit at chunk position k (decode_chunk_unit of chunk_window, or a kernel's
// cheaper form of it). ALL_WELL_FORMED: the caller knows that every unit is well-formed (no test
// per unit).
template <bool ALL_WELL_FORMED = false, typename Unit, typename Put>
GPS_UTF8_HD void for_each_unit_in_order(std::uint32_t info, Unit&& unit, Put&& put) {
  const std::uint32_t well_formed = info >> 16;
  std::uint32_t starts = unit_starts(info);
  for (int i = 0; starts != 0; ++i) {
    const int k = lowest_bit(starts);
    starts &= starts - 1;
    put(i, unit(static_cast<unsigned>(k), ALL_WELL_FORMED || ((well_formed >> k) & 1u) != 0));
  }
}

} // namespace gps::utf8::chunk
