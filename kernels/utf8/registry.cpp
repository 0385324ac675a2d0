// The three lists of UTF-8 variants, one per operation. Adding a variant = one new file, its
// declarations and rows here, and its line in CMakeLists.txt.
#include "utf8/utf8.hpp"

#include <algorithm>
#include <type_traits>

namespace gps::utf8 {

// The variants (kernels/utf8/<name>: cpu.cpp, cpu_parallel.cpp, iconv.cpp, scan_based.cu,
// single_pass.cu).
std::remove_pointer_t<DecodeFn> decode_cpu_parallel, decode_iconv, decode_scan_based,
    decode_single_pass;
std::remove_pointer_t<ValidateFn> validate_cpu_parallel, validate_iconv, validate_scan_based,
    validate_single_pass;
std::remove_pointer_t<EncodeFn> encode_cpu_parallel, encode_iconv, encode_scan_based,
    encode_single_pass;

namespace {
// The scan-based kernels take one element per thread: their tile is the block.

// The benchmarks' trimming (common/variant_table.hpp): the CPU rows stop at 2^28 (the issue's
// comparison point; a scalar pass over 2^30 bytes takes seconds).
constexpr BenchLimits kCpuLimits{28};
// the GPU rows sweep the block size at the primary point only (decode of mixed text)
constexpr BenchLimits kGpuLimits{30, 30, BlockSweep::Primary};
} // namespace

std::vector<int> single_pass_blocks() {
  std::vector<int> blocks = any_block();
  blocks.insert(std::lower_bound(blocks.begin(), blocks.end(), 384), 384);
  return blocks;
}

const std::vector<DecodeVariant>& decode_variants() {
  static const std::vector<DecodeVariant> table = {
      {"cpu",
       decode_cpu,
       Target::Cpu,
       Role::Reference,
       {},
       0,
       no_tile,
       "sequential maximal-subpart decoder (Unicode table 3-7): the reference",
       kCpuLimits},
      {"cpu_parallel",
       decode_cpu_parallel,
       Target::Cpu,
       Role::Baseline,
       {},
       0,
       no_tile,
       "the reference on every CPU thread, split at unit starts; count, scan, decode",
       kCpuLimits},
      {"iconv",
       decode_iconv,
       Target::Cpu,
       Role::Vendor,
       {},
       0,
       no_tile,
       "glibc iconv UTF-8 -> UTF-32LE; U+FFFD substituted where it stops (vendor anchor)",
       kCpuLimits},
      {"scan_based", decode_scan_based, Target::Gpu, Role::Study, any_block(), 256, one_per_thread,
       "classify each byte (unit start or not) -> scan/decoupled_lookback -> decode and "
       "scatter",
       kGpuLimits},
      {"single_pass", decode_single_pass, Target::Gpu, Role::Study, single_pass_blocks(), 256,
       single_pass_decode_tile,
       "one kernel: 16-byte chunks classified with SWAR, decoupled look-back for the output "
       "offset, staged coalesced writes",
       kGpuLimits},
  };
  return table;
}

const std::vector<ValidateVariant>& validate_variants() {
  static const std::vector<ValidateVariant> table = {
      {"cpu",
       validate_cpu,
       Target::Cpu,
       Role::Reference,
       {},
       0,
       no_tile,
       "sequential decoder stopping at the first ill-formed unit: the reference",
       kCpuLimits},
      {"cpu_parallel",
       validate_cpu_parallel,
       Target::Cpu,
       Role::Baseline,
       {},
       0,
       no_tile,
       "the reference on every CPU thread, split at unit starts; first chunk with an error",
       kCpuLimits},
      {"iconv",
       validate_iconv,
       Target::Cpu,
       Role::Vendor,
       {},
       0,
       no_tile,
       "glibc iconv UTF-8 -> UTF-32LE into a scratch buffer; where it stops (vendor anchor)",
       kCpuLimits},
      {"scan_based", validate_scan_based, Target::Gpu, Role::Study, any_block(), 256,
       one_per_thread,
       "mark each byte that starts an ill-formed unit -> scan/decoupled_lookback -> the one mark "
       "with nothing before it",
       kGpuLimits},
      {"single_pass", validate_single_pass, Target::Gpu, Role::Study, single_pass_blocks(), 256,
       single_pass_decode_tile,
       "one kernel: 16-byte chunks classified with SWAR, block minimum, atomicMin; tiles after a "
       "known error skip",
       kGpuLimits},
  };
  return table;
}

const std::vector<EncodeVariant>& encode_variants() {
  static const std::vector<EncodeVariant> table = {
      {"cpu",
       encode_cpu,
       Target::Cpu,
       Role::Reference,
       {},
       0,
       no_tile,
       "sequential encoder, U+FFFD for non-scalar values: the reference",
       kCpuLimits},
      {"cpu_parallel",
       encode_cpu_parallel,
       Target::Cpu,
       Role::Baseline,
       {},
       0,
       no_tile,
       "the reference on every CPU thread: count bytes, scan, encode",
       kCpuLimits},
      {"iconv",
       encode_iconv,
       Target::Cpu,
       Role::Vendor,
       {},
       0,
       no_tile,
       "glibc iconv UTF-32LE -> UTF-8; EF BF BD substituted where it stops (vendor anchor)",
       kCpuLimits},
      {"scan_based", encode_scan_based, Target::Gpu, Role::Study, any_block(), 256, one_per_thread,
       "length of each code point -> scan/decoupled_lookback -> scatter bytes", kGpuLimits},
      {"single_pass", encode_single_pass, Target::Gpu, Role::Study, single_pass_blocks(), 256,
       single_pass_encode_tile,
       "one kernel: 16-byte loads, byte counts, decoupled look-back for the output offset, "
       "staged word-aligned writes",
       kGpuLimits},
  };
  return table;
}

const DecodeVariant* find_decode(std::string_view name) {
  return find_by_name(decode_variants(), name);
}
const ValidateVariant* find_validate(std::string_view name) {
  return find_by_name(validate_variants(), name);
}
const EncodeVariant* find_encode(std::string_view name) {
  return find_by_name(encode_variants(), name);
}

} // namespace gps::utf8
