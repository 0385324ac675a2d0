// scan_based: the course project's plan, completed, through the project's own scan
// (scan/decoupled_lookback, asked for by name; its storage carved out of ours).
//   decode:   1. classify: flags[i] = 1 when byte i starts a unit (rules.hpp: from byte i and the
//                3 bytes before it), one thread per byte;
//             2. exclusive scan of the flags: each unit's index in the output;
//             3. decode and scatter: each unit start decodes its unit (reading up to 3 bytes past
//                it) and writes the code point at its index; the last thread writes the count.
//   validate: 1. mark the bytes that start an ill-formed unit; 2. exclusive scan of the marks;
//             3. the one mark with no mark before it is the first error (a single writer; -1 was
//                written before when there is none).
//   encode:   1. the byte length of each code point (1..4; 3 for the U+FFFD of a non-scalar
//                value); 2. exclusive scan: each code point's byte offset; 3. scatter its bytes.
// Change from the CPU variants: one thread per element and a device-wide scan instead of a
// sequential walk.
// Where the idea comes from: the unfinished GPU decoder of the course project this study grew out
// of (issue 13): map each byte to its offset in an expanded 4-bytes-per-code-point form, scan,
// scatter into a zeroed expanded array, turn each 4-byte group into its code point; compact the
// padding away when encoding. This file keeps its map/scan/scatter structure but scans unit-start
// flags (0/1 per byte) instead of expanded offsets: the scan then yields each unit's output index
// directly, and the expanded array (4n words written and read again) and its zeroing disappear.
// Likewise encode scans the code points' byte lengths, which is the compaction of the padded
// 4-byte form without materialising it. Global traffic of decode for n input bytes and c code
// points: the bytes read twice (2n), the flags written and read twice (12n: the scan reads them),
// the offsets written by the scan and read (8n), the code points written (4c): 22n + 4c, against
// n + 4c for single_pass.
#include "common/arguments.hpp"
#include "common/block.cuh"
#include "common/cuda_check.hpp"
#include "common/temp_storage.hpp"
#include "scan/scan.hpp"
#include "utf8/checks.hpp"
#include "utf8/empty_input.hpp"
#include "utf8/rules.hpp"
#include "utf8/utf8.hpp"

#include <stdexcept>

namespace gps::utf8 {
namespace {

constexpr const char* kScanName = "decoupled_lookback";

const scan::Variant& inner_scan() {
  const scan::Variant* s = scan::find_variant(kScanName);
  if (s == nullptr)
    throw std::logic_error("utf8/scan_based: no scan variant decoupled_lookback");
  return *s;
}

// Byte i of the input, 0 outside it.
__device__ __forceinline__ unsigned byte_at(const unsigned char* in, std::size_t n, long long i) {
  return i >= 0 && static_cast<std::size_t>(i) < n ? in[i] : 0u;
}

__device__ __forceinline__ long long thread_index() {
  return static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
}

// ---- decode ------------------------------------------------------------------------------------

__global__ void mark_unit_starts(const unsigned char* __restrict__ in, std::size_t n,
                                 int* __restrict__ flags) {
  const long long i = thread_index();
  if (static_cast<std::size_t>(i) >= n)
    return;
  flags[i] =
      starts_unit(byte_at(in, n, i - 3), byte_at(in, n, i - 2), byte_at(in, n, i - 1), in[i]);
}

__global__ void decode_units(const unsigned char* __restrict__ in, std::size_t n,
                             const int* __restrict__ flags, const int* __restrict__ offsets,
                             std::uint32_t* __restrict__ out,
                             unsigned long long* __restrict__ count) {
  const long long i = thread_index();
  if (static_cast<std::size_t>(i) >= n)
    return;
  const auto index = static_cast<unsigned>(offsets[i]); // the scan wraps: read it unsigned
  if (flags[i])
    out[index] =
        decode_unit(in[i], byte_at(in, n, i + 1), byte_at(in, n, i + 2), byte_at(in, n, i + 3))
            .code_point;
  if (static_cast<std::size_t>(i) == n - 1)
    *count = static_cast<unsigned long long>(index) + static_cast<unsigned>(flags[i]);
}

// ---- validate ----------------------------------------------------------------------------------

__global__ void mark_ill_formed(const unsigned char* __restrict__ in, std::size_t n,
                                int* __restrict__ marks) {
  const long long i = thread_index();
  if (static_cast<std::size_t>(i) >= n)
    return;
  const unsigned b = in[i];
  const bool start =
      starts_unit(byte_at(in, n, i - 3), byte_at(in, n, i - 2), byte_at(in, n, i - 1), b);
  marks[i] =
      start && !decode_unit(b, byte_at(in, n, i + 1), byte_at(in, n, i + 2), byte_at(in, n, i + 3))
                    .well_formed;
}

__global__ void find_first_mark(const int* __restrict__ marks, const int* __restrict__ before,
                                std::size_t n, long long* __restrict__ first_error) {
  const long long i = thread_index();
  if (static_cast<std::size_t>(i) < n && marks[i] && before[i] == 0)
    *first_error = i;
}

// ---- encode ------------------------------------------------------------------------------------

__global__ void byte_lengths(const std::uint32_t* __restrict__ in, std::size_t n,
                             int* __restrict__ lengths) {
  const long long i = thread_index();
  if (static_cast<std::size_t>(i) < n)
    lengths[i] = static_cast<int>(encoded_length(in[i]));
}

__global__ void scatter_bytes(const std::uint32_t* __restrict__ in, std::size_t n,
                              const int* __restrict__ offsets, unsigned char* __restrict__ out,
                              unsigned long long* __restrict__ count) {
  const long long i = thread_index();
  if (static_cast<std::size_t>(i) >= n)
    return;
  const std::uint32_t cp = in[i];
  const unsigned length = encoded_length(cp);
  const std::uint32_t bytes = encoded_bytes(cp);
  const auto at = static_cast<unsigned>(offsets[i]);
  for (unsigned b = 0; b < length; ++b)
    out[at + b] = static_cast<unsigned char>(bytes >> (8 * b));
  if (static_cast<std::size_t>(i) == n - 1)
    *count = static_cast<unsigned long long>(at) + length;
}

// ---- the three steps, under the temp-storage contract -----------------------------------------

// Two int arrays of n elements and the scan's storage for n elements at this block.
struct ScanBasedStorage {
  int* marks;
  int* offsets;
  void* scan_temp;
  std::size_t scan_bytes;
};
ScanBasedStorage take_storage(TempLayout& layout, std::size_t n, int block, cudaStream_t stream) {
  ScanBasedStorage s{layout.take<int>(n), layout.take<int>(n), nullptr, 0};
  if (n > 0) {
    inner_scan().run(nullptr, s.scan_bytes, nullptr, nullptr, n, block, stream); // the query
    s.scan_temp = layout.take_bytes(s.scan_bytes);
  }
  return s;
}

void exclusive_scan(const ScanBasedStorage& s, std::size_t n, int block, cudaStream_t stream) {
  std::size_t bytes = s.scan_bytes;
  inner_scan().run(s.scan_temp, bytes, s.marks, s.offsets, n, block, stream);
}

void check_block(int block) {
  dispatch_block_size(block, [](auto) {}); // refuses a block size no kernel here takes
}

} // namespace

// Temporary storage: 2n ints and scan/decoupled_lookback's storage for n elements.
void decode_scan_based(void* temp, std::size_t& temp_bytes, const unsigned char* in, std::size_t n,
                       std::uint32_t* out, unsigned long long* count, int block,
                       cudaStream_t stream) {
  constexpr const char* kWho = "utf8/decode/scan_based";
  checks::gpu_bytes(n, kWho);
  check_block(block);
  TempLayout layout(temp);
  const ScanBasedStorage s = take_storage(layout, n, block, stream);
  if (layout.sized(temp_bytes))
    return;
  checks::gpu_decode_args(kWho, in, n, out, count);
  if (zero_count_if_empty(n, count, stream))
    return;
  const unsigned grid = grid_blocks(n, static_cast<std::size_t>(block), kWho);
  mark_unit_starts<<<grid, block, 0, stream>>>(in, n, s.marks);
  CUDA_CHECK_LAUNCH();
  exclusive_scan(s, n, block, stream);
  decode_units<<<grid, block, 0, stream>>>(in, n, s.marks, s.offsets, out, count);
  CUDA_CHECK_LAUNCH();
}

// Temporary storage: 2n ints and scan/decoupled_lookback's storage for n elements.
void validate_scan_based(void* temp, std::size_t& temp_bytes, const unsigned char* in,
                         std::size_t n, long long* first_error, int block, cudaStream_t stream) {
  constexpr const char* kWho = "utf8/validate/scan_based";
  checks::gpu_bytes(n, kWho);
  check_block(block);
  TempLayout layout(temp);
  const ScanBasedStorage s = take_storage(layout, n, block, stream);
  if (layout.sized(temp_bytes))
    return;
  checks::validate_args(kWho, in, n, first_error);
  CUDA_CHECK(cudaMemsetAsync(first_error, 0xFF, sizeof *first_error, stream)); // -1: none
  if (n == 0)
    return;
  const unsigned grid = grid_blocks(n, static_cast<std::size_t>(block), kWho);
  mark_ill_formed<<<grid, block, 0, stream>>>(in, n, s.marks);
  CUDA_CHECK_LAUNCH();
  exclusive_scan(s, n, block, stream);
  find_first_mark<<<grid, block, 0, stream>>>(s.marks, s.offsets, n, first_error);
  CUDA_CHECK_LAUNCH();
}

// Temporary storage: 2n ints and scan/decoupled_lookback's storage for n elements.
void encode_scan_based(void* temp, std::size_t& temp_bytes, const std::uint32_t* in, std::size_t n,
                       unsigned char* out, unsigned long long* count, int block,
                       cudaStream_t stream) {
  constexpr const char* kWho = "utf8/encode/scan_based";
  checks::gpu_code_points(n, kWho);
  check_block(block);
  TempLayout layout(temp);
  const ScanBasedStorage s = take_storage(layout, n, block, stream);
  if (layout.sized(temp_bytes))
    return;
  checks::gpu_encode_args(kWho, in, n, out, count);
  if (zero_count_if_empty(n, count, stream))
    return;
  const unsigned grid = grid_blocks(n, static_cast<std::size_t>(block), kWho);
  byte_lengths<<<grid, block, 0, stream>>>(in, n, s.marks);
  CUDA_CHECK_LAUNCH();
  exclusive_scan(s, n, block, stream);
  scatter_bytes<<<grid, block, 0, stream>>>(in, n, s.offsets, out, count);
  CUDA_CHECK_LAUNCH();
}

} // namespace gps::utf8
