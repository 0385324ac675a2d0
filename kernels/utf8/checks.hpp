// Argument checks of the UTF-8 operations (utf8.hpp lists the limits): a variant refuses what it
// cannot do with a one-line std::invalid_argument naming the requirement. Host code only.
#pragma once

#include "common/arguments.hpp"
#include "utf8/utf8.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>

namespace gps::utf8::checks {

inline void not_null(const void* p, const char* who, const char* what) {
  if (p == nullptr)
    throw std::invalid_argument(std::string(who) + ": null " + what + " pointer");
}

// Run phase: the input and output pointers (when there is anything to read or write) and the
// result pointer.
inline void decode_args(const char* who, const void* in, std::size_t n, const void* out,
                        const void* count) {
  if (n > 0) {
    not_null(in, who, "input");
    not_null(out, who, "output");
  }
  not_null(count, who, "count");
}
inline void validate_args(const char* who, const void* in, std::size_t n, const void* first_error) {
  if (n > 0)
    not_null(in, who, "input");
  not_null(first_error, who, "first-error");
}
inline void encode_args(const char* who, const void* in, std::size_t n, const void* out,
                        const void* count) {
  decode_args(who, in, n, out, count);
}

// Run phase, GPU variants: the same, and the code points 4-byte aligned (decode's output,
// encode's input: the kernels move them as 32-bit words).
inline void gpu_decode_args(const char* who, const void* in, std::size_t n, const void* out,
                            const void* count) {
  decode_args(who, in, n, out, count);
  check_aligned(out, 4, who, "output");
}
inline void gpu_encode_args(const char* who, const void* in, std::size_t n, const void* out,
                            const void* count) {
  encode_args(who, in, n, out, count);
  check_aligned(in, 4, who, "input");
}

// Both phases, GPU variants: the 32-bit offsets' limits.
inline void gpu_bytes(std::size_t n, const char* who) {
  check_max_elements(n, kMaxGpuBytes - 1, who, "32-bit byte offsets: n < 2^32 bytes");
}
inline void gpu_code_points(std::size_t n, const char* who) {
  check_max_elements(n, kMaxGpuCodePoints - 1, who,
                     "32-bit output offsets: n < 2^30 code points, 4n bytes < 2^32");
}

} // namespace gps::utf8::checks
