// The byte rules of UTF-8 (Unicode 15, table 3-7, "Well-Formed UTF-8 Byte Sequences") as small
// host and device functions, shared by the CPU and GPU variants.
//
// Decoding with U+FFFD for ill-formed input splits the bytes into units: a well-formed code point,
// or a maximal subpart of an ill-formed subsequence (one U+FFFD each). What makes a parallel
// decoder possible is that the split is local:
//   - every byte that is not a continuation byte (80..BF) starts a unit: a unit's later bytes are
//     all continuation bytes;
//   - a continuation byte at i belongs to the unit of the nearest non-continuation byte j before
//     it if j >= i - 3, j is a lead (C2..F4) that takes at least i - j continuation bytes, and the
//     byte after j is in the range table 3-7 gives for that lead (E0: A0..BF, ED: 80..9F,
//     F0: 90..BF, F4: 80..8F, otherwise 80..BF); otherwise it starts a unit of its own (a stray).
// So a byte's role depends on it and the 3 bytes before it, and a unit's value on it and the 3
// bytes after it. The sequential decoder (cpu.cpp) is written without these rules; the tests
// check that both agree.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define GPS_UTF8_HD __host__ __device__ __forceinline__
#else
#define GPS_UTF8_HD inline
#endif

namespace gps::utf8 {

inline constexpr std::uint32_t kReplacementChar = 0xFFFD;

GPS_UTF8_HD constexpr bool is_continuation(unsigned b) {
  return (b & 0xC0u) == 0x80u;
}

// Continuation bytes a lead byte takes: 1 for C2..DF, 2 for E0..EF, 3 for F0..F4; 0 for ASCII and
// for the bytes that never start a well-formed sequence (80..C1, F5..FF).
GPS_UTF8_HD constexpr int continuation_count(unsigned lead) {
  return lead < 0xC2u ? 0 : lead < 0xE0u ? 1 : lead < 0xF0u ? 2 : lead < 0xF5u ? 3 : 0;
}

// Whether `second` may follow `lead` (a byte with continuation_count(lead) > 0).
GPS_UTF8_HD constexpr bool second_byte_ok(unsigned lead, unsigned second) {
  const unsigned lo = lead == 0xE0u ? 0xA0u : lead == 0xF0u ? 0x90u : 0x80u;
  const unsigned hi = lead == 0xEDu ? 0x9Fu : lead == 0xF4u ? 0x8Fu : 0xBFu;
  return second >= lo && second <= hi;
}

// Whether byte b starts a unit, given the three bytes before it (b1 nearest; 0 for positions
// before the input).
GPS_UTF8_HD constexpr bool starts_unit(unsigned b3, unsigned b2, unsigned b1, unsigned b) {
  if (!is_continuation(b))
    return true;
  if (!is_continuation(b1))
    return !(continuation_count(b1) >= 1 && second_byte_ok(b1, b));
  if (!is_continuation(b2))
    return !(continuation_count(b2) >= 2 && second_byte_ok(b2, b1));
  if (!is_continuation(b3))
    return !(continuation_count(b3) >= 3 && second_byte_ok(b3, b2));
  return true;
}

struct Unit {
  std::uint32_t code_point; // U+FFFD when ill-formed
  bool well_formed;
};

// The unit that starts with b0, followed by b1, b2, b3 (0 for positions past the input).
GPS_UTF8_HD constexpr Unit decode_unit(unsigned b0, unsigned b1, unsigned b2, unsigned b3) {
  if (b0 < 0x80u)
    return {b0, true};
  const int need = continuation_count(b0);
  if (need == 0 || !second_byte_ok(b0, b1))
    return {kReplacementChar, false};
  if (need == 1)
    return {(b0 & 0x1Fu) << 6 | (b1 & 0x3Fu), true};
  if (!is_continuation(b2))
    return {kReplacementChar, false};
  if (need == 2)
    return {(b0 & 0x0Fu) << 12 | (b1 & 0x3Fu) << 6 | (b2 & 0x3Fu), true};
  if (!is_continuation(b3))
    return {kReplacementChar, false};
  return {(b0 & 0x07u) << 18 | (b1 & 0x3Fu) << 12 | (b2 & 0x3Fu) << 6 | (b3 & 0x3Fu), true};
}

// Whether cp is a Unicode scalar value (encodable): not a surrogate, at most 10FFFF.
GPS_UTF8_HD constexpr bool is_scalar_value(std::uint32_t cp) {
  return cp <= 0x10FFFFu && (cp < 0xD800u || cp > 0xDFFFu);
}

// UTF-8 length of cp as encode writes it (3 for the U+FFFD that replaces a non-scalar value).
GPS_UTF8_HD constexpr unsigned encoded_length(std::uint32_t cp) {
  return cp < 0x80u ? 1u : cp < 0x800u ? 2u : (cp < 0x10000u || cp > 0x10FFFFu) ? 3u : 4u;
}

// The bytes of cp as encode writes them, in the low bytes of the result (first byte lowest);
// encoded_length(cp) of them are meaningful.
GPS_UTF8_HD constexpr std::uint32_t encoded_bytes(std::uint32_t cp) {
  if (!is_scalar_value(cp))
    cp = kReplacementChar;
  if (cp < 0x80u)
    return cp;
  if (cp < 0x800u)
    return (0xC0u | cp >> 6) | (0x80u | (cp & 0x3Fu)) << 8;
  if (cp < 0x10000u)
    return (0xE0u | cp >> 12) | (0x80u | (cp >> 6 & 0x3Fu)) << 8 | (0x80u | (cp & 0x3Fu)) << 16;
  return (0xF0u | cp >> 18) | (0x80u | (cp >> 12 & 0x3Fu)) << 8 |
         (0x80u | (cp >> 6 & 0x3Fu)) << 16 | (0x80u | (cp & 0x3Fu)) << 24;
}

// encoded_bytes without branches (single_pass's encode): the 6-bit fields of cp (U+FFFD for a
// non-scalar value) laid out as the 4-byte form, shifted down to the last `len` bytes, with the
// marker bits of that length (0x80 in the continuation bytes, C0/E0/F0 in the lead byte); an
// ASCII value is its own byte. `len` is encoded_length(cp).
GPS_UTF8_HD constexpr std::uint32_t encoded_word(std::uint32_t cp, unsigned len) {
  const std::uint32_t c = is_scalar_value(cp) ? cp : kReplacementChar;
  const std::uint32_t fields =
      c >> 18 | (c >> 12 & 0x3Fu) << 8 | (c >> 6 & 0x3Fu) << 16 | (c & 0x3Fu) << 24;
  const unsigned drop = 8 * (4 - len); // bits of the 4-byte form above this length's bytes
  const std::uint32_t marker = 0x80808080u >> drop | (0xF0E0C000u >> (8 * (len - 1)) & 0xFFu);
  return len == 1 ? c : fields >> drop | marker;
}

} // namespace gps::utf8
