// iconv: glibc's iconv(3), the CPU library anchor every Linux system has. decode converts
// "UTF-8" to "UTF-32LE" (the host's uint32 on the little-endian hosts this study runs on), encode
// "UTF-32LE" to "UTF-8"; validate converts into a 64 KiB scratch buffer and reports where iconv
// stops.
// Change from cpu_parallel: not a step of the study but the anchor a user would reach for.
// Where iconv's behaviour differs from this library's, and what the row therefore measures:
//   - iconv has no replacement mode: at an ill-formed sequence it stops with EILSEQ (EINVAL for
//     one truncated at the end of the input), at its first byte. The row then substitutes as the
//     reference does (one U+FFFD for the maximal subpart there, sequential.hpp; encode: EF BF BD
//     for the code point) and resumes iconv after it. On well-formed input the row is pure iconv;
//     with errors it is iconv plus one reference step and one iconv call per error.
//   - glibc's "UTF-8" to its internal UCS-4 (and to "WCHAR_T") accepts the pre-2003, 31-bit form:
//     F4 90.., F5..F7 leads and 5- and 6-byte sequences decode to values above U+10FFFF, and
//     encoding accepts such values. "UTF-32LE" on the other side rejects them, so the row converts
//     to and from "UTF-32LE" (a second internal step inside glibc) and agrees with the reference.
//   - validate's offset is iconv's stopping point: the first byte of the first ill-formed
//     sequence, which is where the reference's first maximal subpart starts (the tests check).
// One conversion descriptor per calling thread and direction, opened on first use (the query
// phase opens it: the run phase then never allocates) and reset before each call.
#include "common/temp_storage.hpp"
#include "utf8/checks.hpp"
#include "utf8/sequential.hpp"
#include "utf8/utf8.hpp"

#include <iconv.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "iconv variant: UTF-32LE is host order");

namespace gps::utf8 {
namespace {

class Converter {
public:
  Converter(const char* to, const char* from) : cd_(iconv_open(to, from)) {
    if (cd_ == reinterpret_cast<iconv_t>(-1))
      throw std::runtime_error(std::string("utf8/iconv: iconv_open(\"") + to + "\", \"" + from +
                               "\") failed: " + std::strerror(errno));
  }
  ~Converter() { iconv_close(cd_); }
  Converter(const Converter&) = delete;
  Converter& operator=(const Converter&) = delete;

  // The descriptor in its initial state.
  iconv_t reset() {
    iconv(cd_, nullptr, nullptr, nullptr, nullptr);
    return cd_;
  }

private:
  iconv_t cd_;
};

Converter& decoder() {
  thread_local Converter c("UTF-32LE", "UTF-8");
  return c;
}
Converter& encoder() {
  thread_local Converter c("UTF-8", "UTF-32LE");
  return c;
}

constexpr std::size_t kScratchBytes = std::size_t{64} << 10;

// One iconv call over the rest of the input. Returns false where it stopped at an ill-formed or
// truncated sequence (EILSEQ, EINVAL) or a full output (E2BIG, `full_ok`); throws on anything else.
bool convert(iconv_t cd, const char*& ip, std::size_t& il, char*& op, std::size_t& ol,
             bool full_ok) {
  if (iconv(cd, const_cast<char**>(&ip), &il, &op, &ol) != static_cast<std::size_t>(-1))
    return true;
  if (errno == EILSEQ || errno == EINVAL || (full_ok && errno == E2BIG))
    return false;
  throw std::runtime_error(std::string("utf8/iconv: iconv failed: ") + std::strerror(errno));
}

} // namespace

void decode_iconv(void* temp, std::size_t& temp_bytes, const unsigned char* in, std::size_t n,
                  std::uint32_t* out, unsigned long long* count, int, cudaStream_t) {
  if (no_temp_needed(temp, temp_bytes)) {
    decoder();
    return;
  }
  checks::decode_args("utf8/decode/iconv", in, n, out, count);
  iconv_t cd = decoder().reset();
  const char* ip = reinterpret_cast<const char*>(in);
  std::size_t il = n;
  char* op = reinterpret_cast<char*>(out);
  std::size_t ol = 4 * n;
  while (il > 0 && !convert(cd, ip, il, op, ol, false)) {
    // stopped at an ill-formed unit: one U+FFFD for its maximal subpart, as the reference does
    const auto at = static_cast<std::size_t>(reinterpret_cast<const unsigned char*>(ip) - in);
    const sequential::Decoded d = sequential::decode_unit_at(in, n, at);
    std::memcpy(op, &d.code_point, 4);
    op += 4;
    ol -= 4;
    ip += d.length;
    il -= d.length;
    cd = decoder().reset();
  }
  *count = static_cast<unsigned long long>(op - reinterpret_cast<char*>(out)) / 4;
}

void validate_iconv(void* temp, std::size_t& temp_bytes, const unsigned char* in, std::size_t n,
                    long long* first_error, int, cudaStream_t) {
  TempLayout layout(temp);
  char* scratch = layout.take<char>(kScratchBytes);
  if (layout.sized(temp_bytes)) {
    decoder();
    return;
  }
  checks::validate_args("utf8/validate/iconv", in, n, first_error);
  iconv_t cd = decoder().reset();
  const char* ip = reinterpret_cast<const char*>(in);
  std::size_t il = n;
  long long first = -1;
  while (il > 0) {
    char* op = scratch;
    std::size_t ol = kScratchBytes;
    if (convert(cd, ip, il, op, ol, true))
      break;
    if (errno == E2BIG)
      continue; // scratch full: convert on into it again
    const auto at = static_cast<std::size_t>(reinterpret_cast<const unsigned char*>(ip) - in);
    const sequential::Decoded d = sequential::decode_unit_at(in, n, at);
    if (!d.well_formed) {
      first = static_cast<long long>(at);
      break;
    }
    ip += d.length; // iconv refused a unit the reference accepts: not an error here
    il -= d.length;
    cd = decoder().reset();
  }
  *first_error = first;
}

void encode_iconv(void* temp, std::size_t& temp_bytes, const std::uint32_t* in, std::size_t n,
                  unsigned char* out, unsigned long long* count, int, cudaStream_t) {
  if (no_temp_needed(temp, temp_bytes)) {
    encoder();
    return;
  }
  checks::encode_args("utf8/encode/iconv", in, n, out, count);
  iconv_t cd = encoder().reset();
  const char* ip = reinterpret_cast<const char*>(in);
  std::size_t il = 4 * n;
  char* op = reinterpret_cast<char*>(out);
  std::size_t ol = 4 * n;
  while (il > 0 && !convert(cd, ip, il, op, ol, false)) {
    // stopped at a code point UTF-8 cannot carry: the reference's bytes for it (U+FFFD)
    std::uint32_t cp;
    std::memcpy(&cp, ip, 4);
    const std::size_t bytes = sequential::encode_one(cp, reinterpret_cast<unsigned char*>(op));
    op += bytes;
    ol -= bytes;
    ip += 4;
    il -= 4;
    cd = encoder().reset();
  }
  *count = static_cast<unsigned long long>(op - reinterpret_cast<char*>(out));
}

} // namespace gps::utf8
