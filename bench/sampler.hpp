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
  // Wall-clock seconds spent sampling, not the sum of the measured times: a 3 us kernel costs
  // some 100 us of host time per sample (the blocking kernel, two events, a synchronisation), so a
  // minimum of measured time forced over a thousand samples (0.1 s of wall) on every small row,
  // most of the suite's time. Measured before (H200, 281aece): the suite's shards 1-3 sampled 158 s
  // of measured time in 446 s of wall, over 2.9 million samples. Predicted for this change: those
  // shards from 446 s to about 250 s; the gate still quiet on a rerun and catching a 5% slowdown.
  // Measured (H200, 2026-11-22): 337 s (110 + 194 + 33; the rest was host set-up, since cut by
  // HostVector); the gate quiet on a rerun (ratios 0.936-1.031) and flagging 20 of 20 groups of
  // a 5% injected slowdown.
  double min_seconds = 0.005;
  double max_seconds = 0.1; // stop here even if still noisy
  double max_noise = 0.005; // target relative standard error of the mean sample
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
