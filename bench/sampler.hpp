// The one timing loop of the study (GPU rows, CPU rows and the copy roofline alike), after
// nvbench's stopping rule: take samples until the median is known to within the noise target or a
// time cap is reached, never fewer than a minimum number. Every sample times exactly one call.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace gps::bench {

struct SamplingPolicy {
  int min_samples = 10;
  double min_seconds = 0.005; // measured time, summed over samples
  double max_seconds = 0.1;   // measured time cap: stop here even if still noisy
  double max_noise = 0.005;   // target relative standard error of the mean sample
  int max_samples = 100000;
};
SamplingPolicy& sampling_policy(); // the process-wide policy (gpu_bench --gps_* flags)

struct Samples {
  std::vector<double> seconds; // sorted
  double median() const;
  double quantile(double q) const;
  double noise() const; // relative standard deviation of the samples
};

// Calls `sample()` (which returns the seconds one timed call took) until the policy is met.
Samples take_samples(const std::function<double()>& sample, const SamplingPolicy& policy);

} // namespace gps::bench
