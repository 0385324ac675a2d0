#include "sampler.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace gps::bench {

SamplingPolicy& sampling_policy() {
  static SamplingPolicy policy;
  return policy;
}

double Samples::quantile(double q) const {
  if (seconds.empty())
    return 0;
  const double pos = q * static_cast<double>(seconds.size() - 1);
  const auto lo = static_cast<std::size_t>(pos);
  const std::size_t hi = std::min(lo + 1, seconds.size() - 1);
  return seconds[lo] + (seconds[hi] - seconds[lo]) * (pos - static_cast<double>(lo));
}
double Samples::median() const {
  return quantile(0.5);
}

namespace {
struct Moments {
  double mean = 0, stdev = 0;
};
Moments moments(const std::vector<double>& x) {
  Moments m;
  if (x.empty())
    return m;
  for (double v : x)
    m.mean += v;
  m.mean /= static_cast<double>(x.size());
  if (x.size() < 2)
    return m;
  double ss = 0;
  for (double v : x)
    ss += (v - m.mean) * (v - m.mean);
  m.stdev = std::sqrt(ss / static_cast<double>(x.size() - 1));
  return m;
}
} // namespace

double Samples::noise() const {
  const Moments m = moments(seconds);
  return m.mean > 0 ? m.stdev / m.mean : 0;
}

Samples take_samples(const std::function<double()>& sample, const SamplingPolicy& policy) {
  Samples s;
  const auto start = std::chrono::steady_clock::now();
  while (true) {
    s.seconds.push_back(sample());
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const int count = static_cast<int>(s.seconds.size());
    if (count >= policy.max_samples || wall >= policy.max_seconds)
      break;
    if (count < policy.min_samples || wall < policy.min_seconds)
      continue;
    // the relative standard error of the mean, checked every few samples
    if (count % 4 == 0) {
      const Moments m = moments(s.seconds);
      if (m.mean > 0 &&
          m.stdev / std::sqrt(static_cast<double>(count)) / m.mean <= policy.max_noise)
        break;
    }
  }
  std::sort(s.seconds.begin(), s.seconds.end());
  return s;
}

} // namespace gps::bench
