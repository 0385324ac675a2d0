// Radix sort of 32-bit keys (uint32, int32 or float32, passed as their bits), alone or with 32-bit
// values: ascending and stable (equal keys keep their input order, which the values show). Every
// variant has the same host signature and appears once in the table returned by sort::variants();
// the benchmarks register from that table and the tests iterate over it.
//
// The library contract, for every variant:
//   - temporary storage: CUB's two-phase contract (common/temp_storage.hpp). Called with
//     temp == nullptr a variant only sets temp_bytes and returns; called with storage it runs and
//     never allocates (std::stable_sort's own buffer in cpu_std_sort excepted). The query
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
#include <type_traits>
#include <vector>

namespace gps::sort {

// The key types, as CUB sorts them: a key's bits go through an order-preserving transform
// (KeyOrder) before its digits are taken, and are moved unchanged. int32: the sign bit flipped.
// float32: positive values (sign bit 0) get the sign bit set, negative ones have every bit
// flipped, and -0.0 counts as +0.0 (CUB: "positive and negative zeros are considered equivalent";
// equal keys keep their input order), so the order is -NaN < -inf < ... < -min < +-0.0 < ... <
// +inf < +NaN, NaNs by their bits.
enum class KeyType { Uint32, Int32, Float32 };
inline constexpr KeyType kKeyTypes[] = {KeyType::Uint32, KeyType::Int32, KeyType::Float32};
inline const char* key_type_name(KeyType t) {
  return t == KeyType::Uint32 ? "uint32" : t == KeyType::Int32 ? "int32" : "float32";
}

#if defined(__CUDACC__)
#define GPS_SORT_HD __host__ __device__ __forceinline__
#else
#define GPS_SORT_HD inline
#endif

// The transform: key ^ (sign bit set ? negative_xor : positive_xor), after -0.0 became +0.0 for
// floats; a few instructions per key.
struct KeyOrder {
  unsigned positive_xor, negative_xor;
  bool float_zeros; // -0.0 (0x80000000) orders as +0.0
  GPS_SORT_HD constexpr unsigned operator()(unsigned key) const {
    if (float_zeros && key == 0x80000000u)
      key = 0;
    return key ^ ((key >> 31) ? negative_xor : positive_xor);
  }
  // The key bits the transform may change: a digit outside them is the key's own.
  GPS_SORT_HD constexpr unsigned changed_bits() const {
    return positive_xor | negative_xor | (float_zeros ? 0x80000000u : 0u);
  }
  // A key that orders last (all digits maximal): a filler for missing keys.
  GPS_SORT_HD constexpr unsigned largest() const { return ~0u ^ positive_xor; }
};
inline constexpr KeyOrder key_order(KeyType t) {
  return t == KeyType::Uint32  ? KeyOrder{0u, 0u, false}
         : t == KeyType::Int32 ? KeyOrder{0x80000000u, 0x80000000u, false}
                               : KeyOrder{0x80000000u, 0xffffffffu, true};
}

// Calls f(std::integral_constant<KeyType, T>{}) for the key type t, so that a kernel takes it as a
// template parameter and applies key_order(T) as a compile-time constant: the uint32 kernels then
// compile to the same code as without key types.
template <typename F> void dispatch_key_type(KeyType t, F&& f) {
  if (t == KeyType::Uint32)
    f(std::integral_constant<KeyType, KeyType::Uint32>{});
  else if (t == KeyType::Int32)
    f(std::integral_constant<KeyType, KeyType::Int32>{});
  else
    f(std::integral_constant<KeyType, KeyType::Float32>{});
}

// Out of place: keys_in/vals_in are never written, so every benchmark iteration sorts the same
// unsorted input and no input restore is needed. vals_in == nullptr sorts keys only (vals_out is
// then ignored). `key_type` says how to order the keys' bits (KeyType). GPU variants take device
// pointers and enqueue their work on `stream`
// (asynchronously); CPU variants take host pointers and ignore `stream`. `block` is the threads
// per block for variants that take one (one of Variant::blocks) and is ignored by the others.
using SortFn = void (*)(void* temp, std::size_t& temp_bytes, const unsigned* keys_in,
                        unsigned* keys_out, const unsigned* vals_in, unsigned* vals_out,
                        std::size_t n, KeyType key_type, int block, cudaStream_t stream);

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
//   cub                        none (an int count up to INT_MAX where faster, else 64-bit)
// (declared in registry.cpp next to their rows: adding a variant touches no header)

// The in-house scan (gps::scan variant name) the multi-pass variants call; a GPU scan variant.
inline constexpr const char* kDefaultScan = "decoupled_lookback";
// split_1bit and block_local_4bit with another scan, for experiments: the SortFn arguments with
// the scan's name after the temporary storage (throws std::invalid_argument on an unknown name or
// a CPU scan, in the query too). The scan's own temporary storage is part of temp_bytes.
void sort_split_1bit_with_scan(void* temp, std::size_t& temp_bytes, std::string_view scan_name,
                               const unsigned*, unsigned*, const unsigned*, unsigned*, std::size_t,
                               KeyType, int, cudaStream_t);
void sort_block_local_4bit_with_scan(void* temp, std::size_t& temp_bytes,
                                     std::string_view scan_name, const unsigned*, unsigned*,
                                     const unsigned*, unsigned*, std::size_t, KeyType, int,
                                     cudaStream_t);

// Keys one block handles, shared with the table (test edge sizes).
std::size_t block_local_4bit_tile(int block);
std::size_t onesweep_tile(int block);

} // namespace gps::sort
