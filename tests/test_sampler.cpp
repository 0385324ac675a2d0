// The harness's stopping rule (bench/sampler.hpp), on synthetic samples: the time limits are wall
// clock, so a sample that measures little but costs much host time (a small kernel) stops early.
#include "sampler.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace gps::bench {
namespace {

TEST(Sampler, TimeLimitsAreWallClock) {
  SamplingPolicy policy; // 10 samples, 5 ms, 0.1 s
  // 1 us measured, ~200 us of wall per sample: a minimum of 5 ms *measured* would take 5000
  // samples (a second of wall); the wall-clock minimum takes a few dozen
  const auto start = std::chrono::steady_clock::now();
  const Samples s = take_samples(
      [] {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        return 1e-6;
      },
      policy);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(s.seconds.size(), 10u);
  EXPECT_LT(s.seconds.size(), 600u);
  EXPECT_LT(wall, 0.2);
  EXPECT_DOUBLE_EQ(s.median(), 1e-6);
}

TEST(Sampler, NoisySamplesStopAtTheCap) {
  SamplingPolicy policy;
  policy.max_seconds = 0.02;
  int i = 0;
  const auto start = std::chrono::steady_clock::now();
  const Samples s = take_samples(
      [&] {
        std::this_thread::sleep_for(std::chrono::microseconds(100));
        return (++i % 2) ? 1e-6 : 1e-3; // never within 0.5%
      },
      policy);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(wall, 0.02);
  EXPECT_LT(wall, 0.2);
  EXPECT_GT(s.noise(), 0.5);
}

TEST(Sampler, QuietSamplesStopAtTheMinimum) {
  SamplingPolicy policy;
  policy.min_seconds = 0;
  const Samples s = take_samples([] { return 2e-3; }, policy);
  EXPECT_EQ(s.seconds.size(), 12u); // the first check after 10 samples, every 4th sample
  EXPECT_LT(s.noise(), 1e-12);
}

} // namespace
} // namespace gps::bench
