// onesweep's pairs, as its pairs passes lay them out (onesweep.cu): the packed pairs' spans, which
// side of a pass holds them, and the ranks a thread keeps in registers meanwhile.
#pragma once

#include <cstdint>

namespace gps::sort::onesweep_pairs {

// Pairs packed as uint2 {key, value} over up to three 8-byte-aligned segments: pair i lies in
// segment 0 below end0, in segment 1 below end1, else in segment 2. base[s] is where pair 0 would
// lie if segment s held every pair, so that pair i of segment s is at base[s] + 8 i. A temporary
// array is one segment; the output arrays' 8 n bytes hold the pairs as three (the keys' array
// the first n / 2, the values' array the next n / 2, one spare pair in the temporary storage the
// last one when n is odd).
struct PairSpan {
  std::uintptr_t base[3];
  unsigned end0, end1;

  __device__ __forceinline__ uint2* at(unsigned i) const {
    return reinterpret_cast<uint2*>(i < end0 ? base[0] : i < end1 ? base[1] : base[2]) + i;
  }
  // whether pairs [first, first + count) lie in one segment; if so, `pairs` is its base
  __device__ __forceinline__ bool run(unsigned first, unsigned count, const uint2*& pairs) const {
    const unsigned last = first + count;
    const bool one = last <= end0 || (first >= end0 && last <= end1) || first >= end1;
    pairs = reinterpret_cast<const uint2*>(last <= end0   ? base[0]
                                           : last <= end1 ? base[1]
                                                          : base[2]);
    return one;
  }
};

// What a pairs pass reads and writes (keys-only passes: 0): pairs packed in a PairSpan or the key
// and value arrays; and a packed output over more than one segment (the output arrays).
enum PairLayout : int { kInPairs = 1, kOutPairs = 2, kOutSplit = 4 };
constexpr bool has(int layout, PairLayout flag) {
  return (layout & flag) != 0;
}

// A thread's tile-sorted ranks (item j's, j a compile-time index): one register each, or for
// pairs, whose values come back into registers for the exchange, two 16-bit ranks a register
// (tiles < 2^16).
template <int N, bool PACKED> struct TileRanks {
  unsigned r[PACKED ? (N + 1) / 2 : N];
  __device__ __forceinline__ void set(int j, unsigned rank) {
    if constexpr (!PACKED)
      r[j] = rank;
    else if (j % 2 == 0)
      r[j / 2] = rank;
    else
      r[j / 2] |= rank << 16;
  }
  __device__ __forceinline__ unsigned get(int j) const {
    if constexpr (!PACKED)
      return r[j];
    else
      return j % 2 == 0 ? r[j / 2] & 0xFFFFu : r[j / 2] >> 16;
  }
};

} // namespace gps::sort::onesweep_pairs
