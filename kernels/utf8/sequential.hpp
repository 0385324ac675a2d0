// The sequential decoder and encoder the CPU variants are built from (host code, internal to
// kernels/utf8). decode_unit_at is the textbook state machine of Unicode table 3-7 (the WHATWG
// "UTF-8 decoder" in its replacement mode), deliberately written without the local rules of
// rules.hpp, so that the tests check the GPU variants' rules against an independent reference.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gps::utf8::sequential {

struct Decoded {
  std::uint32_t code_point; // U+FFFD when ill-formed
  std::size_t length;       // bytes of the unit: the code point, or the maximal subpart
  bool well_formed;
};

// The unit at in[i] (i < n): a well-formed code point, or the maximal subpart of an ill-formed
// subsequence (at least 1 byte), which decodes to one U+FFFD.
inline Decoded decode_unit_at(const unsigned char* in, std::size_t n, std::size_t i) {
  const unsigned b0 = in[i];
  if (b0 < 0x80u)
    return {b0, 1, true};
  unsigned need = 0, lo = 0x80u, hi = 0xBFu; // continuation bytes to come, next byte's range
  std::uint32_t value = 0;
  if (b0 >= 0xC2u && b0 <= 0xDFu) {
    need = 1;
    value = b0 & 0x1Fu;
  } else if (b0 >= 0xE0u && b0 <= 0xEFu) {
    need = 2;
    value = b0 & 0x0Fu;
    if (b0 == 0xE0u)
      lo = 0xA0u; // overlong below U+0800
    if (b0 == 0xEDu)
      hi = 0x9Fu; // surrogates D800..DFFF
  } else if (b0 >= 0xF0u && b0 <= 0xF4u) {
    need = 3;
    value = b0 & 0x07u;
    if (b0 == 0xF0u)
      lo = 0x90u; // overlong below U+10000
    if (b0 == 0xF4u)
      hi = 0x8Fu; // above U+10FFFF
  } else {
    return {0xFFFDu, 1, false}; // 80..C1, F5..FF never start a sequence
  }
  std::size_t length = 1;
  while (length <= need && i + length < n) {
    const unsigned b = in[i + length];
    if (b < lo || b > hi)
      break;
    value = value << 6 | (b & 0x3Fu);
    lo = 0x80u;
    hi = 0xBFu;
    ++length;
  }
  if (length == need + 1)
    return {value, length, true};
  return {0xFFFDu, length, false};
}

// Decodes the units that start in [begin, end) (begin a unit start; units may run past end, up to
// n) into out; returns how many were written.
inline std::size_t decode_range(const unsigned char* in, std::size_t n, std::size_t begin,
                                std::size_t end, std::uint32_t* out) {
  std::size_t written = 0;
  for (std::size_t i = begin; i < end;) {
    if (in[i] < 0x80u) { // ASCII run: the common case, kept tight
      out[written++] = in[i++];
      continue;
    }
    const Decoded d = decode_unit_at(in, n, i);
    out[written++] = d.code_point;
    i += d.length;
  }
  return written;
}

// The offset of the first ill-formed unit that starts in [begin, end), or -1.
inline long long first_error_in(const unsigned char* in, std::size_t n, std::size_t begin,
                                std::size_t end) {
  for (std::size_t i = begin; i < end;) {
    if (in[i] < 0x80u) {
      ++i;
      continue;
    }
    const Decoded d = decode_unit_at(in, n, i);
    if (!d.well_formed)
      return static_cast<long long>(i);
    i += d.length;
  }
  return -1;
}

// A unit start at or at most 3 bytes before s (0 < s < n), for splitting the input between
// threads: a byte that is not a continuation byte always starts a unit, and a continuation byte
// with 3 continuation bytes before it is a stray (no lead is near enough to take it).
inline std::size_t unit_start_near(const unsigned char* in, std::size_t s) {
  for (std::size_t back = 0; back <= 3 && back <= s; ++back)
    if ((in[s - back] & 0xC0u) != 0x80u)
      return s - back;
  return s;
}

// Encoding of one code point: non-scalar values (surrogates, above 10FFFF) become U+FFFD.
inline std::size_t encode_one(std::uint32_t cp, unsigned char* out) {
  if (cp < 0x80u) {
    out[0] = static_cast<unsigned char>(cp);
    return 1;
  }
  if (cp < 0x800u) {
    out[0] = static_cast<unsigned char>(0xC0u | cp >> 6);
    out[1] = static_cast<unsigned char>(0x80u | (cp & 0x3Fu));
    return 2;
  }
  if (cp > 0x10FFFFu || (cp >= 0xD800u && cp <= 0xDFFFu))
    cp = 0xFFFDu;
  if (cp < 0x10000u) {
    out[0] = static_cast<unsigned char>(0xE0u | cp >> 12);
    out[1] = static_cast<unsigned char>(0x80u | (cp >> 6 & 0x3Fu));
    out[2] = static_cast<unsigned char>(0x80u | (cp & 0x3Fu));
    return 3;
  }
  out[0] = static_cast<unsigned char>(0xF0u | cp >> 18);
  out[1] = static_cast<unsigned char>(0x80u | (cp >> 12 & 0x3Fu));
  out[2] = static_cast<unsigned char>(0x80u | (cp >> 6 & 0x3Fu));
  out[3] = static_cast<unsigned char>(0x80u | (cp & 0x3Fu));
  return 4;
}

inline std::size_t encoded_size_one(std::uint32_t cp) {
  return cp < 0x80u ? 1 : cp < 0x800u ? 2 : (cp < 0x10000u || cp > 0x10FFFFu) ? 3 : 4;
}

} // namespace gps::utf8::sequential
