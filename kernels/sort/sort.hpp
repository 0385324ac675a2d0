// Radix sort of unsigned 32-bit keys, alone or with 32-bit values: ascending and stable (equal keys
// keep their input order, which the values show). Every variant has the same host signature and
// appears once in the table returned by sort::variants(); the benchmarks register from that table
// and the tests iterate over it.
#pragma once

#include "common/variant_table.hpp"
#include "common/workspace.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <string_view>
#include <vector>

namespace gps::sort {

// Out of place: keys_in/vals_in are never written, so every benchmark iteration sorts the same
// unsorted input and no input restore is needed. vals_in == nullptr sorts keys only (vals_out is
// then ignored). GPU variants take device pointers and enqueue their work on `stream`
// (asynchronously); CPU variants take host pointers and ignore `ws` and `stream`. `block` is the
// threads per block for variants that take one (one of Variant::blocks) and is ignored by the
// others. Outputs must not overlap inputs.
using SortFn = void (*)(const unsigned* keys_in, unsigned* keys_out, const unsigned* vals_in,
                        unsigned* vals_out, std::size_t n, int block, Workspace& ws,
                        cudaStream_t stream);

using gps::Target;

struct Variant {
  const char* name;
  SortFn run;
  Target target;
  std::vector<int> blocks;              // block sizes it supports; empty: takes no block size
  int default_block;                    // the one used where no block sweep is made (0: none)
  std::size_t (*tile_elems)(int block); // keys one block handles (edge sizes for the tests)
  int passes; // read+write passes over the keys (and values) one call makes: the GB/s counter
  const char* description;
};

using gps::kBlockSizes; // block sizes of the variants that take any block size

const std::vector<Variant>& variants();
const Variant* find_variant(std::string_view name); // nullptr when unknown

// The variants, one per file (kernels/sort/<name>.cu, or cpu.cpp / library.cu).
void sort_cpu_std(const unsigned*, unsigned*, const unsigned*, unsigned*, std::size_t, int,
                  Workspace&, cudaStream_t);
void sort_cpu_radix(const unsigned*, unsigned*, const unsigned*, unsigned*, std::size_t, int,
                    Workspace&, cudaStream_t);
void sort_split_1bit(const unsigned*, unsigned*, const unsigned*, unsigned*, std::size_t, int,
                     Workspace&, cudaStream_t);
void sort_block_local_4bit(const unsigned*, unsigned*, const unsigned*, unsigned*, std::size_t, int,
                           Workspace&, cudaStream_t);
void sort_onesweep(const unsigned*, unsigned*, const unsigned*, unsigned*, std::size_t, int,
                   Workspace&, cudaStream_t);
void sort_thrust(const unsigned*, unsigned*, const unsigned*, unsigned*, std::size_t, int,
                 Workspace&, cudaStream_t);
void sort_cub(const unsigned*, unsigned*, const unsigned*, unsigned*, std::size_t, int, Workspace&,
              cudaStream_t);

// The in-house scan (gps::scan variant name) the multi-pass variants call; a GPU scan variant.
inline constexpr const char* kDefaultScan = "decoupled_lookback";
// split_1bit and block_local_4bit with another scan, for experiments (throws on an unknown name
// or a CPU scan).
void sort_split_1bit_with_scan(std::string_view scan_name, const unsigned*, unsigned*,
                               const unsigned*, unsigned*, std::size_t, int, Workspace&,
                               cudaStream_t);
void sort_block_local_4bit_with_scan(std::string_view scan_name, const unsigned*, unsigned*,
                                     const unsigned*, unsigned*, std::size_t, int, Workspace&,
                                     cudaStream_t);

// Tile sizes, shared with the table.
std::size_t block_local_4bit_tile(int block);
std::size_t onesweep_tile(int block);

} // namespace gps::sort
