// The benchmark side of the study: registers every algorithm's rows from its Problem description
// (bench/problem.hpp), runs each row through the one timing loop (bench/sampler.hpp), and writes
// the counters, the device context and the variant metadata into the JSON.
#pragma once

#include <string>

namespace gps::bench {

struct Options {
  bool cold_l2 = false; // flush the L2 before every sample (--gps_cold_l2, GPS_COLD_L2=1)
  // For testing the regression gate (scripts/compare.py) with a real slowdown: each timed GPU
  // sample also spins on the GPU for this fraction of the row's warm-up time
  // (--gps_inject_slowdown; the extra launch adds about 2 us more to the smallest rows).
  double inject_slowdown = 0;
  // A first look: a few sizes, the primary axis points, each variant at its default block.
  bool quick = false;
  // Time GPU samples directly, the host's launch gaps included, instead of behind the blocking
  // kernel (--gps_no_blocking; bench/spin.hpp).
  bool no_blocking = false;
  // --gps_shard=K/N: register only the K-th (1-based) of N slices of the rows, of about equal
  // cost, so that a run too long for one sitting can be split and its parts merged
  // (scripts/merge_results.py).
  int shard_index = 1, shard_count = 1;
};
Options& options();

bool gpu_present(); // false without a usable GPU (GPU rows then skip with the reason)

// One blocked sample of a 20 us spin: true when the blocking kernel (bench/spin.hpp) held the
// stream and let go on the host's release. Otherwise (it timed out: every sample would wait 50 ms
// before being timed directly) it sets options().no_blocking and returns false.
bool check_blocking_kernel();
const std::string& gpu_absence();

// Registers every row of every algorithm (GPU rows too when there is no GPU: they skip with the
// reason, and --benchmark_list_tests lists them all), in suite order.
void register_all();

// Device facts, versions, commit, clocks and the variant metadata into the JSON context.
void add_context();

} // namespace gps::bench
