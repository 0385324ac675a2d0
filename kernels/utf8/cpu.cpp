// cpu: the scalar references every other variant is checked against. decode walks the input
// unit by unit with the state machine of Unicode table 3-7 (sequential.hpp), writing one U+FFFD
// per maximal subpart of an ill-formed subsequence; validate stops at the first ill-formed unit;
// encode writes each code point's 1 to 4 bytes, U+FFFD for a non-scalar value.
// Change from: nothing; the starting point of the study.
// Where the idea comes from: the Unicode Standard 15, section 3.9 ("U+FFFD Substitution of
// Maximal Subparts") and the WHATWG Encoding Standard's UTF-8 decoder, which Python's
// errors="replace" follows too.
#include "common/temp_storage.hpp"
#include "utf8/checks.hpp"
#include "utf8/sequential.hpp"
#include "utf8/utf8.hpp"

namespace gps::utf8 {

void decode_cpu(void* temp, std::size_t& temp_bytes, const unsigned char* in, std::size_t n,
                std::uint32_t* out, unsigned long long* count, int, cudaStream_t) {
  if (no_temp_needed(temp, temp_bytes))
    return;
  checks::decode_args("utf8/decode/cpu", in, n, out, count);
  *count = sequential::decode_range(in, n, 0, n, out);
}

void validate_cpu(void* temp, std::size_t& temp_bytes, const unsigned char* in, std::size_t n,
                  long long* first_error, int, cudaStream_t) {
  if (no_temp_needed(temp, temp_bytes))
    return;
  checks::validate_args("utf8/validate/cpu", in, n, first_error);
  *first_error = sequential::first_error_in(in, n, 0, n);
}

void encode_cpu(void* temp, std::size_t& temp_bytes, const std::uint32_t* in, std::size_t n,
                unsigned char* out, unsigned long long* count, int, cudaStream_t) {
  if (no_temp_needed(temp, temp_bytes))
    return;
  checks::encode_args("utf8/encode/cpu", in, n, out, count);
  std::size_t written = 0;
  for (std::size_t i = 0; i < n; ++i)
    written += sequential::encode_one(in[i], out + written);
  *count = written;
}

} // namespace gps::utf8
