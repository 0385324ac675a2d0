#include "utf8_text.hpp"

#include "common/cpu_parallel.hpp"
#include "setup_trace.hpp"
#include "utf8/sequential.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gps {
namespace {

constexpr std::uint64_t splitmix64(std::uint64_t x) {
  std::uint64_t z = x + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// A stream of random words: utf8_random over the indices 0, 1, 2, ... of a seed derived from
// (seed, stream), so that independent segments draw independent streams.
class Rng {
public:
  // utf8_random(seed_, i) = splitmix64(splitmix64(seed_) + i): the inner hash is the stream's
  // constant, computed once (the same words, half the hashing per draw)
  Rng(std::uint64_t seed, std::uint64_t stream)
      : mixed_seed_(splitmix64(utf8_random(seed, stream))) {}
  std::uint64_t next() { return splitmix64(mixed_seed_ + index_++); }
  unsigned below(unsigned k) { return static_cast<unsigned>(next() % k); }
  bool percent(unsigned p) { return below(100) < p; }

private:
  std::uint64_t mixed_seed_;
  std::uint64_t index_ = 0;
};

// ---- characters
// ----------------------------------------------------------------------------------

enum class Script {
  English,
  European,
  Cyrillic,
  Greek,
  Cjk,
  Devanagari,
  EnglishEmoji,
  Latin,
  Emoji
};

// Accented lower-case letters of Western European languages (U+00DF..U+00FC, all 2 bytes).
constexpr std::uint32_t kAccented[] = {0xE0, 0xE1, 0xE2, 0xE4, 0xE7, 0xE8, 0xE9, 0xEA, 0xEB, 0xEE,
                                       0xEF, 0xF1, 0xF3, 0xF4, 0xF6, 0xF9, 0xFA, 0xFC, 0xDF};

std::uint32_t emoji(Rng& rng) {
  return rng.percent(70) ? 0x1F300u + rng.below(0x350) : 0x1F900u + rng.below(0x100);
}

// Code points of text of one mix: words of 1..9 letters of the current script between separators;
// `mixed` switches script every 20..200 characters.
class CharSource {
public:
  CharSource(TextMix mix, Rng& rng) : mix_(mix), rng_(rng) {
    switch (mix) {
    case TextMix::Ascii:
      script_ = Script::English;
      break;
    case TextMix::Latin:
      script_ = Script::Latin;
      break;
    case TextMix::Cjk:
      script_ = Script::Cjk;
      break;
    case TextMix::Emoji:
      script_ = Script::Emoji;
      break;
    case TextMix::Mixed:
    case TextMix::MixedErrors:
    case TextMix::File: // not generated (utf8_text and utf32_text copy the user's text)
      script_ = pick_script();
      break;
    }
  }

  std::uint32_t next() {
    if ((mix_ == TextMix::Mixed || mix_ == TextMix::MixedErrors) && run_left_-- == 0) {
      script_ = pick_script();
      run_left_ = 20 + rng_.below(181);
    }
    if (word_left_ == 0) {
      word_left_ = 1 + rng_.below(9);
      return separator();
    }
    --word_left_;
    return letter();
  }

private:
  Script pick_script() {
    const unsigned r = rng_.below(100);
    return r < 45   ? Script::English
           : r < 60 ? Script::European
           : r < 65 ? Script::Cyrillic
           : r < 70 ? Script::Greek
           : r < 85 ? Script::Cjk
           : r < 90 ? Script::Devanagari
                    : Script::EnglishEmoji;
  }

  std::uint32_t ascii_letter() { return (rng_.percent(5) ? 'A' : 'a') + rng_.below(26); }

  std::uint32_t letter() {
    switch (script_) {
    case Script::English:
    case Script::EnglishEmoji:
      return ascii_letter();
    case Script::European:
      return rng_.percent(12) ? kAccented[rng_.below(std::size(kAccented))] : ascii_letter();
    case Script::Cyrillic:
      return 0x430u + rng_.below(32);
    case Script::Greek:
      return 0x3B1u + rng_.below(25);
    case Script::Cjk:
      return 0x4E00u + rng_.below(0x9FFF - 0x4E00 + 1);
    case Script::Devanagari:
      return rng_.percent(30) ? 0x93Eu + rng_.below(15) : 0x905u + rng_.below(0x39 - 0x05 + 1);
    case Script::Latin: {
      const std::uint32_t cp = 0xC0u + rng_.below(0x17F - 0xC0 + 1);
      return cp == 0xD7u || cp == 0xF7u ? cp + 1 : cp; // letters only: no x or divide sign
    }
    case Script::Emoji:
      return emoji(rng_);
    }
    return 'a';
  }

  std::uint32_t separator() {
    switch (script_) {
    case Script::Cjk: {
      constexpr std::uint32_t kPunctuation[] = {0x3001, 0x3002, 0xFF0C, 0x4E00 + 0x42};
      return kPunctuation[rng_.below(std::size(kPunctuation))];
    }
    case Script::Emoji:
      return emoji(rng_);
    case Script::Devanagari:
      if (rng_.percent(10))
        return 0x964; // danda
      break;
    case Script::EnglishEmoji:
      if (rng_.percent(20))
        return emoji(rng_);
      break;
    default:
      break;
    }
    constexpr char kAsciiSeparators[] = "                ,.\n;";
    return static_cast<unsigned char>(kAsciiSeparators[rng_.below(sizeof kAsciiSeparators - 1)]);
  }

  TextMix mix_;
  Rng& rng_;
  Script script_ = Script::English;
  unsigned run_left_ = 0;
  unsigned word_left_ = 0;
};

// UTF-8 of a scalar value (the generator draws only scalar values), first byte lowest; returns
// its length. The reference's encoder: text is drawn independently of the decoders under test.
unsigned utf8_bytes(std::uint32_t cp, unsigned char* out) {
  return static_cast<unsigned>(utf8::sequential::encode_one(cp, out));
}

// One ill-formed sequence of a random kind (returns its length, at most 4).
unsigned ill_formed(Rng& rng, unsigned char* p) {
  auto cont = [&](unsigned span) { return static_cast<unsigned char>(0x80u + rng.below(span)); };
  auto byte = [](unsigned b) { return static_cast<unsigned char>(b); };
  switch (rng.below(12)) {
  case 0:
    p[0] = cont(64);
    return 1; // stray continuation byte
  case 1:
    p[0] = cont(64), p[1] = cont(64), p[2] = cont(64);
    return 3; // a run of them
  case 2:
    p[0] = byte(0xC2 + rng.below(30)), p[1] = ' ';
    return 2; // truncated 2-byte
  case 3:
    p[0] = byte(0xE1 + rng.below(11)), p[1] = cont(64), p[2] = '.';
    return 3; // 3-byte
  case 4:     // truncated 4-byte
    p[0] = byte(0xF1 + rng.below(3)), p[1] = cont(64), p[2] = cont(64), p[3] = ' ';
    return 4;
  case 5:
    p[0] = byte(0xC0 + rng.below(2)), p[1] = cont(64);
    return 2; // overlong C0, C1
  case 6:
    p[0] = 0xE0, p[1] = cont(32), p[2] = cont(64);
    return 3; // overlong E0 80..9F
  case 7:
    p[0] = 0xF0, p[1] = cont(16), p[2] = cont(64), p[3] = cont(64);
    return 4; // F0 80..8F
  case 8:
    p[0] = 0xED, p[1] = byte(0xA0 + rng.below(32)), p[2] = cont(64);
    return 3; // surrogate
  case 9:
    p[0] = 0xF4, p[1] = byte(0x90 + rng.below(48)), p[2] = cont(64), p[3] = cont(64);
    return 4; // above U+10FFFF
  case 10:
    p[0] = byte(0xF5 + rng.below(3)), p[1] = cont(64), p[2] = cont(64), p[3] = cont(64);
    return 4; // F5..F7 leads
  default:
    p[0] = byte(0xF8 + rng.below(8));
    return 1; // F8..FF
  }
}

constexpr std::size_t kSegmentBytes = std::size_t{64} << 10;
constexpr std::size_t kSegmentCodePoints = std::size_t{16} << 10;

// Fills seg[0, len) with text of `mix`; characters that would not fit at the end become ASCII.
void fill_segment(unsigned char* seg, std::size_t len, TextMix mix, Rng& rng) {
  CharSource source(mix, rng);
  std::size_t at = 0;
  unsigned char bytes[4];
  while (at < len) {
    unsigned k = utf8_bytes(source.next(), bytes);
    if (at + k > len)
      k = utf8_bytes('a' + rng.below(26), bytes);
    std::copy(bytes, bytes + k, seg + at);
    at += k;
  }
  if (mix != TextMix::MixedErrors)
    return;
  // about 1% of the bytes: one ill-formed sequence (2.6 bytes on average) per 300 bytes, which
  // with the characters it cuts into makes a little over 1%
  for (std::size_t e = 0; e < len / 300; ++e) {
    const std::size_t pos = rng.next() % len;
    unsigned char bad[4];
    const unsigned k = ill_formed(rng, bad);
    std::copy(bad, bad + std::min<std::size_t>(k, len - pos), seg + pos);
  }
}

std::uint32_t non_scalar_value(Rng& rng) {
  switch (rng.below(3)) {
  case 0:
    return 0xD800u + rng.below(0x800); // surrogate
  case 1:
    return 0x110000u + static_cast<std::uint32_t>(rng.next() % 0x7FEF0000u); // too large
  default:
    return 0xFFFFFFFFu;
  }
}

// Generates `segments` segments of `per` elements each (the last one short) in parallel.
template <typename F> void for_each_segment(std::size_t n, std::size_t per, F&& fill) {
  const std::size_t segments = (n + per - 1) / per;
  parallel_chunks(segments, cpu_threads(), [&](unsigned, std::size_t b, std::size_t e) {
    for (std::size_t s = b; s < e; ++s)
      fill(s, s * per, std::min(n, (s + 1) * per));
  });
}

} // namespace

const char* text_mix_name(TextMix mix) {
  switch (mix) {
  case TextMix::Ascii:
    return "ascii";
  case TextMix::Latin:
    return "latin";
  case TextMix::Cjk:
    return "cjk";
  case TextMix::Emoji:
    return "emoji";
  case TextMix::Mixed:
    return "mixed";
  case TextMix::MixedErrors:
    return "mixed_errors";
  case TextMix::File:
    return "file";
  }
  return "?";
}

bool text_mix_from_name(std::string_view name, TextMix* mix) {
  for (TextMix m : kTextMixes)
    if (name == text_mix_name(m)) {
      *mix = m;
      return true;
    }
  return false;
}

std::uint64_t utf8_random(std::uint64_t seed, std::uint64_t index) {
  return splitmix64(splitmix64(seed) + index);
}

namespace {
// the "file" mix: the user's bytes, and the code points of their decoding (made on first use)
struct UserText {
  std::vector<unsigned char> bytes;
  std::vector<std::uint32_t> points;
};
UserText& user_text() {
  static UserText text;
  return text;
}
const std::vector<std::uint32_t>& user_code_points() {
  UserText& t = user_text();
  if (t.points.empty()) {
    for (std::size_t i = 0; i < t.bytes.size();) {
      const utf8::sequential::Decoded d =
          utf8::sequential::decode_unit_at(t.bytes.data(), t.bytes.size(), i);
      t.points.push_back(d.code_point);
      i += d.length;
    }
  }
  return t.points;
}
// out[0, n) = source repeated, in parallel
template <typename T>
void repeat_into(T* out, std::size_t n, const std::vector<T>& source, const char* what) {
  if (source.empty())
    throw std::logic_error(std::string(what) + ": the file mix without a user text");
  for_each_segment(n, kSegmentBytes, [&](std::size_t, std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i)
      out[i] = source[i % source.size()];
  });
}
} // namespace

void set_user_text(std::vector<unsigned char> bytes) {
  if (bytes.empty())
    throw std::invalid_argument("the user text is empty");
  user_text().bytes = std::move(bytes);
  user_text().points.clear();
}
bool has_user_text() {
  return !user_text().bytes.empty();
}
void clear_user_text() {
  user_text() = UserText{};
}

HostVector<unsigned char> utf8_text(std::size_t n_bytes, TextMix mix, std::uint64_t seed) {
  const SetupTrace trace("utf8_text", n_bytes);
  HostVector<unsigned char> out(n_bytes);
  if (mix == TextMix::File) {
    repeat_into(out.data(), n_bytes, user_text().bytes, "utf8_text");
    return out;
  }
  for_each_segment(n_bytes, kSegmentBytes, [&](std::size_t s, std::size_t b, std::size_t e) {
    Rng rng(seed, s);
    fill_segment(out.data() + b, e - b, mix, rng);
  });
  return out;
}

HostVector<std::uint32_t> utf32_text(std::size_t n, TextMix mix, std::uint64_t seed) {
  const SetupTrace trace("utf32_text", n * sizeof(std::uint32_t));
  HostVector<std::uint32_t> out(n);
  if (mix == TextMix::File) {
    repeat_into(out.data(), n, user_code_points(), "utf32_text");
    return out;
  }
  for_each_segment(n, kSegmentCodePoints, [&](std::size_t s, std::size_t b, std::size_t e) {
    Rng rng(seed, s);
    CharSource source(mix, rng);
    for (std::size_t i = b; i < e; ++i)
      out[i] =
          mix == TextMix::MixedErrors && rng.percent(1) ? non_scalar_value(rng) : source.next();
  });
  return out;
}

// ---- the tests' inputs
// ---------------------------------------------------------------------------

std::vector<unsigned char> utf8_random_bytes(std::size_t n, std::uint64_t seed) {
  static constexpr unsigned char kSpecial[] = {0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF,
                                               0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xED,
                                               0xEE, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF};
  std::vector<unsigned char> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t w = utf8_random(seed, i);
    out[i] = ((w >> 8) & 3) == 0 ? static_cast<unsigned char>(w)
                                 : kSpecial[(w >> 16) % std::size(kSpecial)];
  }
  return out;
}

std::vector<unsigned char> utf8_all_pairs() {
  std::vector<unsigned char> out;
  out.reserve(3 * 65536);
  for (unsigned b0 = 0; b0 < 256; ++b0)
    for (unsigned b1 = 0; b1 < 256; ++b1)
      out.insert(out.end(), {static_cast<unsigned char>(b0), static_cast<unsigned char>(b1), 'A'});
  return out;
}

std::vector<unsigned char> utf8_all_lead_triples() {
  std::vector<unsigned char> out;
  out.reserve(21 * 4 * 65536);
  for (unsigned b0 = 0xE0; b0 <= 0xF4; ++b0)
    for (unsigned b1 = 0; b1 < 256; ++b1)
      for (unsigned b2 = 0; b2 < 256; ++b2)
        out.insert(out.end(), {static_cast<unsigned char>(b0), static_cast<unsigned char>(b1),
                               static_cast<unsigned char>(b2), 'A'});
  return out;
}

std::vector<unsigned char> utf8_all_lead_quads() {
  std::vector<unsigned char> out;
  out.reserve(5 * 4 * 5 * 65536);
  for (unsigned b0 = 0xF0; b0 <= 0xF4; ++b0)
    for (unsigned b1 : {0x80u, 0x8Fu, 0x90u, 0xBFu})
      for (unsigned b2 = 0; b2 < 256; ++b2)
        for (unsigned b3 = 0; b3 < 256; ++b3)
          out.insert(out.end(),
                     {static_cast<unsigned char>(b0), static_cast<unsigned char>(b1),
                      static_cast<unsigned char>(b2), static_cast<unsigned char>(b3), 'A'});
  return out;
}

std::vector<std::uint32_t> utf32_all_code_points() {
  std::vector<std::uint32_t> out;
  out.reserve(0x120000 + 3);
  for (std::uint32_t cp = 0; cp < 0x120000u; ++cp)
    out.push_back(cp);
  out.insert(out.end(), {0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu});
  return out;
}

namespace {

using Bytes = std::vector<unsigned char>;

std::string hex_name(const Bytes& b) {
  std::string s;
  char buf[4];
  for (unsigned char c : b) {
    std::snprintf(buf, sizeof buf, "%02X", c);
    s += buf;
  }
  return s;
}

// The full sequence of each lead class (its ends: lowest and highest lead, and the leads with a
// narrower second-byte range).
const std::vector<Bytes>& lead_sequences() {
  static const std::vector<Bytes> seqs = {{0xC2, 0xA9},
                                          {0xDF, 0xBF},
                                          {0xE0, 0xA0, 0x80},
                                          {0xE1, 0x80, 0x80},
                                          {0xEC, 0xBF, 0xBF},
                                          {0xED, 0x9F, 0xBF},
                                          {0xEE, 0x80, 0x80},
                                          {0xEF, 0xBF, 0xBD},
                                          {0xF0, 0x90, 0x80, 0x80},
                                          {0xF1, 0x80, 0x80, 0x80},
                                          {0xF3, 0xBF, 0xBF, 0xBF},
                                          {0xF4, 0x8F, 0xBF, 0xBF}};
  return seqs;
}

// The patterns placed across boundaries: well-formed, truncated, overlong, surrogate, too large,
// stray, and combinations.
const std::vector<Bytes>& boundary_patterns() {
  static const std::vector<Bytes> patterns = {{0xC3, 0xA9},
                                              {0xE2, 0x82, 0xAC},
                                              {0xF0, 0x9F, 0x98, 0x80},
                                              {0xE0, 0xA4, 0x85},
                                              {0xED, 0x9F, 0xBF},
                                              {0xF4, 0x8F, 0xBF, 0xBF},
                                              {0xC3},
                                              {0xE2, 0x82},
                                              {0xE2},
                                              {0xF0, 0x9F, 0x98},
                                              {0xF0, 0x9F},
                                              {0xF0},
                                              {0xC0, 0x80},
                                              {0xC1, 0xBF},
                                              {0xE0, 0x80, 0x80},
                                              {0xE0, 0x9F, 0xBF},
                                              {0xF0, 0x80, 0x80, 0x80},
                                              {0xF0, 0x8F, 0xBF, 0xBF},
                                              {0xED, 0xA0, 0x80},
                                              {0xED, 0xBF, 0xBF},
                                              {0xF4, 0x90, 0x80, 0x80},
                                              {0xF5, 0x80, 0x80, 0x80},
                                              {0xFF},
                                              {0x80},
                                              {0x80, 0x80},
                                              {0xBF, 0xBF, 0xBF},
                                              {0x80, 0x80, 0x80, 0x80, 0x80},
                                              {0xC3, 0x80, 0x80},
                                              {0xE2, 0x82, 0xE2, 0x82, 0xAC},
                                              {0xF0, 0x9F, 0x98, 0xF0, 0x9F, 0x98, 0x80}};
  return patterns;
}

} // namespace

std::vector<Utf8Case> utf8_adversarial_corpus(std::size_t tile_bytes, std::uint64_t seed) {
  if (tile_bytes < 64)
    throw std::invalid_argument("utf8_adversarial_corpus: tile below 64 bytes");
  std::vector<Utf8Case> cases;
  for (unsigned b = 0; b < 256; ++b) {
    char name[16];
    std::snprintf(name, sizeof name, "byte_%02X", b);
    cases.push_back({name, {static_cast<unsigned char>(b)}});
  }
  // every truncated sequence: alone, before ASCII, after ASCII, before another lead, twice
  for (const Bytes& full : lead_sequences()) {
    cases.push_back({"valid_" + hex_name(full), full});
    for (std::size_t k = 1; k < full.size(); ++k) {
      const Bytes prefix(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(k));
      const std::string name = "truncated_" + hex_name(prefix);
      Bytes before_ascii = prefix, after_ascii = {'A'}, before_lead = prefix, twice = prefix;
      before_ascii.push_back('A');
      after_ascii.insert(after_ascii.end(), prefix.begin(), prefix.end());
      before_lead.insert(before_lead.end(), full.begin(), full.end());
      twice.insert(twice.end(), prefix.begin(), prefix.end());
      cases.push_back({name, prefix});
      cases.push_back({name + "_A", before_ascii});
      cases.push_back({"A_" + name, after_ascii});
      cases.push_back({name + "_then_valid", before_lead});
      cases.push_back({name + "_twice", twice});
    }
  }
  Bytes all_patterns;
  for (const Bytes& p : boundary_patterns()) {
    cases.push_back({"pattern_" + hex_name(p), p});
    all_patterns.insert(all_patterns.end(), p.begin(), p.end());
  }
  cases.push_back({"all_patterns_back_to_back", all_patterns});

  // each pattern across a tile boundary (and, in tile 0, across 16-byte chunk, 512-byte and
  // 2048-byte boundaries), at offsets -6..+1 from it, in ASCII or in 2-byte filler
  const auto& patterns = boundary_patterns();
  const std::size_t len = (patterns.size() + 2) * tile_bytes;
  for (int filler = 0; filler < 2; ++filler) {
    for (int offset = -6; offset <= 1; ++offset) {
      Bytes text(len);
      for (std::size_t i = 0; i < len; ++i)
        text[i] = filler == 0 ? static_cast<unsigned char>('a' + i % 26)
                              : static_cast<unsigned char>(i % 2 == 0 ? 0xC3 : 0xA9);
      auto place = [&](const Bytes& p, std::size_t boundary) {
        const std::size_t at = boundary - 6 + static_cast<std::size_t>(offset + 6);
        for (std::size_t i = 0; i < p.size() && at + i < len; ++i)
          text[at + i] = p[i];
      };
      for (std::size_t p = 0; p < patterns.size(); ++p)
        place(patterns[p], (p + 1) * tile_bytes);
      const std::size_t inner[] = {16, 32, 48, 512, 2048};
      for (std::size_t i = 0; i < std::size(inner); ++i)
        if (inner[i] + 8 < tile_bytes)
          place(patterns[(i * 7) % patterns.size()], inner[i]);
      cases.push_back({std::string(filler == 0 ? "ascii" : "two_byte") + "_boundaries_offset_" +
                           std::to_string(offset),
                       std::move(text)});
    }
  }
  cases.push_back({"random_1000", utf8_random_bytes(1000, seed)});
  cases.push_back({"random_2_tiles_plus_5", utf8_random_bytes(2 * tile_bytes + 5, seed + 1)});
  cases.push_back({"random_100000", utf8_random_bytes(100000, seed + 2)});
  return cases;
}

std::vector<unsigned char> utf8_mutate(std::vector<unsigned char> text, std::size_t edits,
                                       std::uint64_t seed) {
  Rng rng(seed, 0x6d757461746500ull);
  const std::vector<unsigned char> special = utf8_random_bytes(64, seed ^ 0x5eed);
  for (std::size_t e = 0; e < edits; ++e) {
    const std::size_t pos = text.empty() ? 0 : rng.next() % text.size();
    const unsigned char byte =
        rng.percent(50) ? static_cast<unsigned char>(rng.next()) : special[rng.below(64)];
    switch (rng.below(3)) {
    case 0:
      if (!text.empty())
        text[pos] = byte;
      break;
    case 1:
      text.insert(text.begin() + static_cast<std::ptrdiff_t>(pos), byte);
      break;
    default:
      if (!text.empty())
        text.erase(text.begin() + static_cast<std::ptrdiff_t>(pos));
      break;
    }
  }
  return text;
}

} // namespace gps
