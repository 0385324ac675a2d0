// UTF-8 tests (the overview: test_utf8.cpp): the text generators of bench/utf8_text.cpp, their
// exact sizes, each mix's shape, the user-file mix and the pinned output.
#include "utf8/rules.hpp"
#include "utf8_test_support.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace gps::utf8 {
namespace {

using namespace test_support;

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

} // namespace
} // namespace gps::utf8
