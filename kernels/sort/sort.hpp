// Radix sort of unsigned 32-bit keys, alone or with 32-bit values: ascending and stable (equal keys
// keep their input order, which the values show). Every variant has the same host signature and
// appears once in the table returned by sort::variants(); the benchmarks register from that table
// and the tests iterate over it.
//
// The library contract, for every variant:
//   - temporary storage: CUB's two-phase contract (common/temp_storage.hpp). Called with
//     temp == nullptr a variant only sets temp_bytes and returns; called with storage it runs and
//     never allocates (std::stable_sort's own buffer in cpu_std_sort pairs excepted). The query
//     sizes for its n, block and vals_in (null or not: pairs need more), so it must be given the
//     same ones as the run. CPU variants take host storage.
//   - concurrency: no state is shared between calls, so any variants may run at the same time on
//     different streams, each with its own temporary storage.
//   - pointers: any 4-byte-aligned keys and values, input and output (no variant makes vector
//     loads from global memory). Outputs must not overlap inputs.
//   - sizes: every n up to the limit given per variant below; a larger n is refused with
//     std::invalid_argument.
#pragma once

#include "common/variant_table.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <string_view>
#include <vector>

namespace gps::sort {

// Out of place: keys_in/vals_in are never written, so every benchmark iteration sorts the same
// unsorted input and no input restore is needed. vals_in == nullptr sorts keys only (vals_out is
// then ignored). GPU variants take device pointers and enqueue their work on `stream`
// (asynchronously); CPU variants take host pointers and ignore `stream`. `block` is the threads
// per block for variants that take one (one of Variant::blocks) and is ignored by the others.
using SortFn = void (*)(void* temp, std::size_t& temp_bytes, const unsigned* keys_in,
                        unsigned* keys_out, const unsigned* vals_in, unsigned* vals_out,
                        std::size_t n, int block, cudaStream_t stream);

using gps::kBlockSizes; // block sizes of the variants that take any block size
using gps::Role;
using gps::Target;
using Variant = gps::Variant<SortFn>;

const std::vector<Variant>& variants();
const Variant* find_variant(std::string_view name); // nullptr when unknown

// The variants, one per file (kernels/sort/<name>.cu, or cpu.cpp / library.cu). Limits on n:
//   cpu_std_sort, cpu_radix    none
//   split_1bit                 n <= INT_MAX (one int flag per key, scanned as int)
//   block_local_4bit           n < 2^32 (32-bit digit offsets)
//   onesweep                   n < 2^31 - 1 (32-bit tile positions, 31-bit look-back values)
//   thrust                     none
//   cub                        n <= INT_MAX (CUB's 32-bit offsets, its fastest configuration)
// (declared in registry.cpp next to their rows: adding a variant touches no header)

// The in-house scan (gps::scan variant name) the multi-pass variants call; a GPU scan variant.
inline constexpr const char* kDefaultScan = "decoupled_lookback";
// split_1bit and block_local_4bit with another scan, for experiments: the SortFn arguments with
// the scan's name after the temporary storage (throws std::invalid_argument on an unknown name or
// a CPU scan, in the query too). The scan's own temporary storage is part of temp_bytes.
void sort_split_1bit_with_scan(void* temp, std::size_t& temp_bytes, std::string_view scan_name,
                               const unsigned*, unsigned*, const unsigned*, unsigned*, std::size_t,
                               int, cudaStream_t);
void sort_block_local_4bit_with_scan(void* temp, std::size_t& temp_bytes,
                                     std::string_view scan_name, const unsigned*, unsigned*,
                                     const unsigned*, unsigned*, std::size_t, int, cudaStream_t);

// Keys one block handles, shared with the table (test edge sizes).
std::size_t block_local_4bit_tile(int block);
std::size_t onesweep_tile(int block);

} // namespace gps::sort
