#include "data.hpp"

#include "common/cpu_parallel.hpp"

namespace gps {

std::uint64_t random_word(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + index + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::vector<int> random_ints(std::size_t n, std::uint64_t seed) {
  std::vector<int> v(n);
  parallel_chunks(n, n < (1u << 20) ? 1u : cpu_threads(),
                  [&](unsigned, std::size_t b, std::size_t e) {
                    for (std::size_t i = b; i < e; ++i)
                      v[i] = static_cast<int>(static_cast<std::uint32_t>(random_word(seed, i)));
                  });
  return v;
}

} // namespace gps
