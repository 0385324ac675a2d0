// Seeded input generators shared by the benchmarks and the tests. Counter-based (splitmix64 of
// seed and index) and generated in parallel: the same (n, seed) gives the same values on every
// machine and thread count.
#pragma once

#include "host_vector.hpp"

#include <cstddef>
#include <cstdint>

namespace gps {

#if defined(__CUDACC__)
#define GPS_DATA_HD __host__ __device__ __forceinline__
#else
#define GPS_DATA_HD inline
#endif

// splitmix64 of (seed, index); on the host and the device alike (the device checks of
// bench/device_sort_check.cu fingerprint keys with it as the host does).
GPS_DATA_HD constexpr std::uint64_t random_word(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + index + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Full 32-bit range, so sums wrap. Never all zeros.
HostVector<int> random_ints(std::size_t n, std::uint64_t seed);

// The stream-compaction input: each element is, independently with probability `keep` (0 to 1), a
// random nonzero value, and 0 otherwise (random positions; keep = 1 gives no zeros at all).
HostVector<int> random_sparse_ints(std::size_t n, double keep, std::uint64_t seed);

// Sort keys (and values). uniform: random 32-bit words; low_entropy: the AND of three random words
// (each bit is 1 with probability 1/8, about 0.54 bits of entropy per bit, like the entropy-reduced
// keys of CUB's benchmarks: few distinct digits, long runs of equal digits); all_equal: one random
// word repeated (every pass puts every key in one digit).
enum class KeyDistribution { Uniform, LowEntropy, AllEqual };
inline constexpr KeyDistribution kKeyDistributions[] = {
    KeyDistribution::Uniform, KeyDistribution::LowEntropy, KeyDistribution::AllEqual};
const char* key_distribution_name(KeyDistribution d); // "uniform", "low_entropy", "all_equal"
HostVector<unsigned> random_keys(std::size_t n, std::uint64_t seed, KeyDistribution d);

} // namespace gps
