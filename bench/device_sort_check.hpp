// Validation of a GPU sort's output on the GPU (bench/problems/sort_problem.cpp): reading 2^30 keys
// and values back and checking them on the host cost seconds per row (4-8 GiB of pinned buffers
// per instance, a random gather over the input); here only the first failing index and, for keys,
// a multiset fingerprint travel back.
#pragma once

#include "sort/sort.hpp"

#include <cstddef>
#include <cstdint>

namespace gps {

struct DeviceSortCheck {
  std::size_t first_bad;                      // n when none
  std::uint64_t fingerprint_a, fingerprint_b; // keys only, when asked for
};

// All arrays in device memory. Pairs (vals != nullptr; the values are the input indices): index i
// fails when vals[i] >= n, keys[i] != keys_in[vals[i]], or (order(keys[i]), vals[i]) does not
// strictly follow (order(keys[i-1]), vals[i-1]). Keys: index i fails when order(keys[i-1]) >
// order(keys[i]); with `fingerprint`, also the sums over the keys of random_word(key, 1) and
// random_word(key, 2) (data.hpp), as the host's fingerprint. Synchronous.
DeviceSortCheck check_sort_on_device(const unsigned* keys, const unsigned* vals,
                                     const unsigned* keys_in, std::size_t n, sort::KeyOrder order,
                                     bool fingerprint);

} // namespace gps
