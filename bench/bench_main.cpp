// gpu_bench: every algorithm's benchmarks in one binary. Filter with --benchmark_filter=REGEX over
// names such as scan/shared_mem/npot/log2n:24/block:256 (see README.md).
#include "harness.hpp"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  // Defaults for a suite that fits in minutes; any flag given on the command line wins.
  std::vector<char*> args(argv, argv + argc);
  // Each row reports the median of its timed iterations; --benchmark_repetitions=N adds
  // aggregates over N repetitions on top.
  bool user_min_time = false;
  for (int i = 1; i < argc; ++i)
    user_min_time |= std::strncmp(argv[i], "--benchmark_min_time", 20) == 0;
  static char min_time[] = GPS_MIN_TIME_FLAG;
  if (!user_min_time) args.insert(args.begin() + 1, min_time);
  int args_count = static_cast<int>(args.size());
  args.push_back(nullptr);

  benchmark::Initialize(&args_count, args.data());
  if (benchmark::ReportUnrecognizedArguments(args_count, args.data())) return 1;

  if (!gps::bench::gpu_present())
    std::fprintf(stderr,
                 "gpu_bench: %s\ngpu_bench: running the CPU benchmarks only; GPU rows are not "
                 "registered.\n",
                 gps::bench::gpu_absence().c_str());
  gps::bench::register_suites();
  try {
    gps::bench::add_context();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu_bench: could not read the device: %s\n", e.what());
    return 1;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
