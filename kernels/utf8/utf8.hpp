// UTF-8 decoding, validation and encoding. Three operations, each with one host signature and one
// variant table (kernels/utf8/registry.cpp); the benchmarks and the tests are generated from the
// tables. Adding a variant: one new file kernels/utf8/<name>.cu (or .cpp) defining the operations
// it implements, its declarations and rows in registry.cpp, its line in
// kernels/utf8/CMakeLists.txt.
//
// Semantics, the same for every variant (kernels/utf8/rules.hpp holds the byte rules):
//   - decode: UTF-8 bytes -> UTF-32 code points. Ill-formed input is replaced by U+FFFD, one per
//     "maximal subpart of an ill-formed subsequence" (Unicode 15, section 3.9, U+FFFD substitution
//     of maximal subparts; the WHATWG Encoding Standard's decoder; Python's
//     bytes.decode("utf-8", errors="replace")): overlongs (C0, C1, E0 80..9F, F0 80..8F),
//     surrogates (ED A0..BF), values above U+10FFFF (F4 90..BF, F5..FF), truncated sequences and
//     stray continuation bytes.
//   - validate: whether the input is well-formed UTF-8, and the byte offset of the first
//     ill-formed subsequence (where decode writes its first U+FFFD); -1 when well-formed.
//   - encode: UTF-32 -> UTF-8. Code points that are not Unicode scalar values (surrogates
//     D800..DFFF, anything above 10FFFF) are written as U+FFFD (EF BF BD).
//
// The library contract, for every variant:
//   - temporary storage: CUB's two-phase contract (common/temp_storage.hpp). Called with
//     temp == nullptr a variant only sets temp_bytes (for these n and block) and returns; called
//     with at least that much storage it runs and never allocates. CPU variants take host storage.
//   - pointers: GPU variants take device pointers (the count and first-error results too: nothing
//     is copied back to the host, no synchronisation) and enqueue their work on `stream`; CPU
//     variants take host pointers and ignore `stream`. `block` is the threads per block for the
//     variants that take one (one of Variant::blocks) and is ignored by the others. Inputs and
//     outputs must not overlap. Byte pointers may have any alignment; uint32 pointers must be
//     4-byte aligned (the GPU variants refuse others with std::invalid_argument). A null pointer
//     where something is read or written is refused the same way.
//   - output capacity: decode writes at most n code points, encode at most 4n bytes; nothing past
//     the count written is touched.
//   - concurrency: no state is shared between calls (per-device shared-memory opt-in aside, set
//     once per device; iconv keeps one conversion descriptor per calling thread), so any variants
//     may run at the same time on different streams or threads, each with its own temp storage.
//   - sizes: see the list below; a larger n is refused with std::invalid_argument naming the
//     limit (the GPU variants count with 32-bit offsets).
//
//   variant        decode / validate                        encode
//   cpu            any n, no temp                           any n, no temp
//   cpu_parallel   any n; 3 words per CPU thread (decode:   any n, 3 words per CPU thread
//                  + n code points from 2^16 bytes on)
//   iconv          any n, 64 KiB (validate's scratch)       any n, no temp
//   scan_based     n < 2^32 bytes; 8 bytes per input byte   n < 2^30 code points; 8 bytes per code
//                  plus scan/decoupled_lookback's storage   point plus the scan's storage
//   single_pass    n < 2^32 bytes; 32 bytes per tile + 8    n < 2^30 code points; 32 bytes per
//                  (validate: 4 bytes)                      tile + 8 (8 a tile below kEncodeLargeN)
// (single_pass tiles: single_pass_decode_tile(block) bytes, single_pass_encode_tile(block) code
// points, or single_pass_encode_large_tile(block) from kEncodeLargeN on, plus one for an input that
// does not start on a 16-byte boundary.)
#pragma once

#include "common/variant_table.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace gps::utf8 {

// Decodes in[0, n) into out[0, *count); out holds n code points.
using DecodeFn = void (*)(void* temp, std::size_t& temp_bytes, const unsigned char* in,
                          std::size_t n, std::uint32_t* out, unsigned long long* count, int block,
                          cudaStream_t stream);
// Writes to *first_error the byte offset of the first ill-formed subsequence of in[0, n), or -1.
using ValidateFn = void (*)(void* temp, std::size_t& temp_bytes, const unsigned char* in,
                            std::size_t n, long long* first_error, int block, cudaStream_t stream);
// Encodes in[0, n) into out[0, *count); out holds 4n bytes.
using EncodeFn = void (*)(void* temp, std::size_t& temp_bytes, const std::uint32_t* in,
                          std::size_t n, unsigned char* out, unsigned long long* count, int block,
                          cudaStream_t stream);

using gps::Role;
using gps::Target;
using DecodeVariant = gps::Variant<DecodeFn>;
using ValidateVariant = gps::Variant<ValidateFn>;
using EncodeVariant = gps::Variant<EncodeFn>;

const std::vector<DecodeVariant>& decode_variants();
const std::vector<ValidateVariant>& validate_variants();
const std::vector<EncodeVariant>& encode_variants();
const DecodeVariant* find_decode(std::string_view name); // nullptr when unknown
const ValidateVariant* find_validate(std::string_view name);
const EncodeVariant* find_encode(std::string_view name);

// The references every variant is checked against (the "cpu" rows), for callers that need them by
// name: the benchmarks' and tests' expected outputs.
void decode_cpu(void* temp, std::size_t& temp_bytes, const unsigned char* in, std::size_t n,
                std::uint32_t* out, unsigned long long* count, int block, cudaStream_t stream);
void validate_cpu(void* temp, std::size_t& temp_bytes, const unsigned char* in, std::size_t n,
                  long long* first_error, int block, cudaStream_t stream);
void encode_cpu(void* temp, std::size_t& temp_bytes, const std::uint32_t* in, std::size_t n,
                unsigned char* out, unsigned long long* count, int block, cudaStream_t stream);

// Input bytes (decode, validate) or code points (encode) one block of the single-pass kernels
// handles: the tile edge sizes of the tests.
std::size_t single_pass_decode_tile(int block);
std::size_t single_pass_encode_tile(int block);
// The block sizes the single_pass rows take: any_block()'s and 384 (decode's kernel at 384 threads
// is built for 3 blocks of 12 warps an SM at 56 registers, against 4 of 8 at block 256: the faster
// at 2^28 bytes on both GPUs; single_pass.tuning.md). The three operations share one row list
// (bench/problems/utf8_problem.cpp), so validate and encode take 384 too.
std::vector<int> single_pass_blocks();
// single_pass encode takes larger tiles (8 vectors of code points a thread instead of 4) from
// kEncodeLargeN code points on: their tile edges for the tests.
// (GPS_UTF8_ENCODE_LARGE_N=0 in a test build: the larger tiles at every size, for the sanitizers.)
#ifdef GPS_UTF8_ENCODE_LARGE_N
inline constexpr std::size_t kEncodeLargeN = GPS_UTF8_ENCODE_LARGE_N;
#else
inline constexpr std::size_t kEncodeLargeN = std::size_t{1} << 22;
#endif
inline constexpr int kEncodeStepsSmall = 4, kEncodeStepsLarge = 8;
std::size_t single_pass_encode_large_tile(int block);

// Size limits of the GPU variants (32-bit offsets): n < kMaxGpuBytes bytes for decode and
// validate, n < kMaxGpuCodePoints code points for encode (4n output bytes below 2^32).
inline constexpr std::size_t kMaxGpuBytes = std::size_t{1} << 32;
inline constexpr std::size_t kMaxGpuCodePoints = std::size_t{1} << 30;

} // namespace gps::utf8
