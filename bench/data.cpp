#include "data.hpp"

#include "common/cpu_parallel.hpp"
#include "setup_trace.hpp"

namespace gps {

HostVector<int> random_ints(std::size_t n, std::uint64_t seed) {
  const SetupTrace trace("random_ints", n * sizeof(int));
  HostVector<int> v(n);
  parallel_chunks(n, threads_for(n), [&](unsigned, std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i)
      v[i] = static_cast<int>(static_cast<std::uint32_t>(random_word(seed, i)));
  });
  return v;
}

HostVector<int> random_sparse_ints(std::size_t n, double keep, std::uint64_t seed) {
  const SetupTrace trace("random_sparse_ints", n * sizeof(int));
  HostVector<int> v(n);
  // the position draw and the value draw come from two independent streams of the same seed
  const std::uint64_t value_seed = seed ^ 0xD1B54A32D192ED03ull;
  parallel_chunks(n, threads_for(n), [&](unsigned, std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      // uniform in [0, 1) from the top 53 bits
      const double u = static_cast<double>(random_word(seed, i) >> 11) * 0x1.0p-53;
      if (u >= keep)
        continue; // v[i] stays 0
      const auto value = static_cast<std::uint32_t>(random_word(value_seed, i));
      v[i] = static_cast<int>(value != 0 ? value : 1u);
    }
  });
  return v;
}

const char* key_distribution_name(KeyDistribution d) {
  switch (d) {
  case KeyDistribution::Uniform:
    return "uniform";
  case KeyDistribution::LowEntropy:
    return "low_entropy";
  case KeyDistribution::AllEqual:
    return "all_equal";
  }
  return "unknown";
}

HostVector<unsigned> random_keys(std::size_t n, std::uint64_t seed, KeyDistribution d) {
  const SetupTrace trace("random_keys", n * sizeof(unsigned));
  HostVector<unsigned> v(n);
  const auto word = [seed](std::uint64_t stream, std::size_t i) {
    return static_cast<unsigned>(random_word(seed + stream * 0x5851F42D4C957F2Dull, i));
  };
  parallel_chunks(n, threads_for(n), [&](unsigned, std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      switch (d) {
      case KeyDistribution::Uniform:
        v[i] = word(0, i);
        break;
      case KeyDistribution::LowEntropy:
        v[i] = word(0, i) & word(1, i) & word(2, i);
        break;
      case KeyDistribution::AllEqual:
        v[i] = word(0, 0);
        break;
      }
    }
  });
  return v;
}

} // namespace gps
