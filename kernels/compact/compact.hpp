// Stream compaction of int32: keep the nonzero elements, in their input order, and report how
// many were kept. Every variant has the same host signature and appears once in the table
// returned by compact::variants() (kernels/compact/registry.cpp); the benchmarks and the tests are
// generated from that table. Adding a variant: one new file kernels/compact/<name>.cu defining
// `void compact_<name>(CompactFn's parameters)`, its declaration and row in registry.cpp, its line
// in kernels/compact/CMakeLists.txt (and its limits in the list below).
//
// The library contract, for every variant:
//   - temporary storage: CUB's two-phase contract (common/temp_storage.hpp). Called with
//     temp == nullptr a variant only sets temp_bytes (for these n and block) and returns; called
//     with at least that much storage it runs and never allocates. CPU variants take host storage.
//     The scan_based_* variants carve their scan's storage (asked for by name) out of their own.
//   - concurrency: no state is shared between calls (single_pass's shared-memory opt-in is set
//     once per device), so any variants may run at the same time on different streams, each with
//     its own temporary storage.
//   - pointers: `in` and `out` must not overlap. Any 4-byte-aligned `in` and `out`, except where
//     the list below says 16 (int4 loads; refused otherwise with std::invalid_argument naming the
//     requirement).
//   - sizes: the kept count is an unsigned (32-bit) output, so every variant refuses n >= 2^32
//     (and cub n > INT_MAX) with std::invalid_argument naming the limit; below it, every n.
//
//   variant                        temporary storage                in, out   n
//   cpu_no_scan                    none                             4, 4      < 2^32
//   cpu_with_scan                  2n ints (host)                   4, 4      < 2^32
//   scan_based_work_efficient      2n ints + the storage of         4, 4      < 2^32
//   scan_based_shared_mem            scan/<name> at the same block
//   scan_based_decoupled_lookback    (the scan reads and writes the
//                                    flags and offsets in temp
//                                    storage, 256-byte aligned: its
//                                    16-byte requirement always holds)
//   single_pass                    8 bytes per tile of              16, 4     < 2^32
//                                    single_pass_tile(block) (32
//                                    from 512 tiles on), plus 8
//   thrust_copy_if,                what Thrust asks for             4, 4      < 2^32 (syncs
//   thrust_remove_copy                                                          `stream`)
//   cub                            what CUB asks for                4, 4      <= INT_MAX
#pragma once

#include "common/variant_table.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <string_view>
#include <vector>

namespace gps::compact {

// Writes the nonzero elements of in[0, n) to out[0, kept) in order and the kept count to *count.
// `out` must hold n elements; out[kept, n) is left untouched. GPU variants take device pointers
// (`count` included: no host synchronisation inside the call unless the list above says so) and
// enqueue their work on `stream`; CPU variants take host pointers and ignore `stream`. `block` is
// the threads per block for variants that take one (one of Variant::blocks) and is ignored by the
// others.
using CompactFn = void (*)(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                           unsigned* count, std::size_t n, int block, cudaStream_t stream);

using gps::kBlockSizes;
using gps::Role;
using gps::Target;
using Variant = gps::Variant<CompactFn>;

const std::vector<Variant>& variants();
const Variant* find_variant(std::string_view name); // nullptr when unknown

// The largest n any variant takes: the kept count is 32-bit.
inline constexpr std::size_t kMaxElements = 0xffffffffu;

// The reference every variant is checked against (the "cpu_no_scan" row), for callers that need
// it by name: the benchmarks' and tests' expected outputs.
void compact_cpu_no_scan(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                         unsigned* count, std::size_t n, int block, cudaStream_t stream);

} // namespace gps::compact
