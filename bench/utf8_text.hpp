// Seeded text for the UTF-8 study, shared by the benchmarks and the tests: realistic text by mix,
// random code points for encode, and the adversarial inputs of the tests. Counter-based: the same
// (n, mix, seed) gives the same bytes on every machine and thread count (the input is generated
// in independent segments of 64 KiB, in parallel).
#pragma once

#include "host_vector.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gps {

// What the text is made of:
//   ascii         English-like words, spaces, punctuation, newlines: 1 byte per code point
//   latin         words of accented Latin letters (U+00C0..U+017F) between ASCII spaces: mostly
//                 2-byte code points
//   cjk           CJK ideographs with CJK punctuation: 3-byte code points only
//   emoji         emoji (U+1F300..U+1F64F, U+1F900..U+1F9FF): 4-byte code points only
//   mixed         a realistic blend, in runs of 20..200 characters of one kind: English (45%),
//                 Western European with accents (15%), Cyrillic and Greek (10%), CJK (15%),
//                 Devanagari (5%), English with emoji (10%); about 1.5 bytes per code point
//   mixed_errors  mixed with about 1% of its bytes in ill-formed sequences of every kind: stray
//                 continuation bytes, truncated 2-, 3- and 4-byte sequences, overlongs (C0, C1,
//                 E0 80..9F, F0 80..8F), surrogates (ED A0..BF), above U+10FFFF (F4 90..BF,
//                 F5..F7) and the bytes F8..FF
//   file          the user's own text (gpu_bench --gps_utf8_file=PATH, set_user_text): its bytes
//                 repeated to n bytes (cut anywhere, so a sequence may be split at the end); for
//                 encode, the code points of its decoding (U+FFFD for what is ill-formed), repeated
// Every generated mix but mixed_errors is well-formed UTF-8. kTextMixes holds the generated ones.
enum class TextMix { Ascii, Latin, Cjk, Emoji, Mixed, MixedErrors, File };
inline constexpr TextMix kTextMixes[] = {TextMix::Ascii, TextMix::Latin, TextMix::Cjk,
                                         TextMix::Emoji, TextMix::Mixed, TextMix::MixedErrors};

// "ascii", "latin", "cjk", "emoji", "mixed", "mixed_errors", "file"
const char* text_mix_name(TextMix mix);
// The generated mix named `name`; false when there is none.
bool text_mix_from_name(std::string_view name, TextMix* mix);

// The text of the "file" mix; set before the benchmark rows are registered (they include the file
// mix only when it is set). Throws std::invalid_argument when `bytes` is empty.
void set_user_text(std::vector<unsigned char> bytes);
bool has_user_text();
void clear_user_text(); // for the tests

// Exactly n_bytes of UTF-8 text of the given mix (any n_bytes: a character that would not fit at
// the end of a segment is replaced by ASCII).
HostVector<unsigned char> utf8_text(std::size_t n_bytes, TextMix mix, std::uint64_t seed);

// n code points drawn as utf8_text draws its characters; for mixed_errors about 1% of them are not
// Unicode scalar values (surrogates D800..DFFF, 110000..7FFFFFFF, FFFFFFFF), which encode writes as
// U+FFFD.
HostVector<std::uint32_t> utf32_text(std::size_t n, TextMix mix, std::uint64_t seed);

// ---- the tests' inputs
// ---------------------------------------------------------------------------

// The counter-based generator behind everything here (splitmix64 of splitmix64(seed) + index);
// kernels/utf8/golden/make_golden.py has a copy of it.
std::uint64_t utf8_random(std::uint64_t seed, std::uint64_t index);

// n random bytes, a quarter uniform and the rest drawn from the bytes that matter to a decoder
// (A, 80, 8F, 90, 9F, A0, BF, C0, C1, C2, DF, E0, E1, ED, EE, EF, F0, F1, F4, F5, FF), so that
// near-valid sequences of every kind are frequent. make_golden.py has a copy of it.
std::vector<unsigned char> utf8_random_bytes(std::size_t n, std::uint64_t seed);

// Exhaustive short sequences, each followed by 'A' (which ends any unit, so each decodes as if
// alone): every byte pair; every E0..F4 lead with every second and third byte; every F0..F4 lead
// with second byte 80, 8F, 90 or BF and every third and fourth byte. make_golden.py has a copy.
std::vector<unsigned char> utf8_all_pairs();
std::vector<unsigned char> utf8_all_lead_triples();
std::vector<unsigned char> utf8_all_lead_quads();
// Every code point 0..10FFFF, then 110000..11FFFF, 7FFFFFFF, 80000000, FFFFFFFF.
std::vector<std::uint32_t> utf32_all_code_points();

struct Utf8Case {
  std::string name;
  std::vector<unsigned char> bytes;
};

// Short and long inputs a decoder gets wrong if it can: every byte value alone; every truncated
// sequence alone, before ASCII, after ASCII and before another lead; overlongs; surrogates; values
// above U+10FFFF; stray continuation bytes; each of these patterns (and well-formed 2-, 3- and
// 4-byte sequences) straddling tile boundaries at every offset from 6 bytes before to 1 after,
// between ASCII and between 2-byte filler, for tiles of `tile_bytes` (also at 16-byte chunk and
// 512-byte boundaries inside the first tile); random bytes (utf8_random_bytes).
std::vector<Utf8Case> utf8_adversarial_corpus(std::size_t tile_bytes, std::uint64_t seed);

// A copy of `text` with `edits` random edits (a byte replaced by a random or a decoder-relevant
// byte, inserted, or deleted), for the fuzz loop.
std::vector<unsigned char> utf8_mutate(std::vector<unsigned char> text, std::size_t edits,
                                       std::uint64_t seed);

} // namespace gps
