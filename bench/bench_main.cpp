// gpu_bench: every algorithm's benchmarks in one binary. Filter with --benchmark_filter=REGEX over
// names such as scan/shared_mem/npot/log2n:24/block:256 (see README.md); --gps_help lists the
// project's own options.
#include "harness.hpp"
#include "metadata.hpp"
#include "sampler.hpp"
#include "utf8_text.hpp"

#include <benchmark/benchmark.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace {

const char* kHelp =
    "gpu_bench: the project's own options (Google Benchmark's --benchmark_* options work too)\n"
    "  --gps_min_samples=N    fewest samples per row (default 10)\n"
    "  --gps_min_time=S       fewest seconds (wall clock) a row samples (default 0.005)\n"
    "  --gps_max_time=S       seconds (wall clock) after which a row stops sampling even if noisy\n"
    "                         (default 0.1)\n"
    "  --gps_max_noise=F      stop once the relative standard error of the mean sample is below F\n"
    "                         (default 0.005 = 0.5%)\n"
    "  --gps_quick            a first look: pot sizes 2^16, 2^20, 2^24 and 2^28, the primary axis\n"
    "                         points (keep 0.50, uniform keys, utf8 decode of mixed text), each\n"
    "                         variant at its default block, CPU rows up to 2^24\n"
    "  --gps_cold_l2          flush the L2 before every sample (also GPS_COLD_L2=1)\n"
    "  --gps_inject_slowdown=F  testing the regression gate: every GPU sample also spins on the\n"
    "                         GPU for F x the row's warm-up time (plus one launch, ~2 us)\n"
    "  --gps_no_blocking      time GPU samples directly (the host's launch gaps included) instead "
    "of\n"
    "                         behind a blocking kernel that holds the stream while the work is\n"
    "                         enqueued (GPU time only, as nvbench; the row's \"blocked\" counter)\n"
    "  --gps_shard=K/N        only the K-th of N slices of the rows, of about equal cost (a run\n"
    "                         split over several sittings; merge the parts with\n"
    "                         scripts/merge_results.py)\n"
    "  --gps_utf8_file=PATH   also benchmark utf8 on this file's text (the mix \"file\": its "
    "bytes\n"
    "                         repeated to each size; encode: the code points of its decoding)\n"
    "  --gps_help             this text\n"
    "Each row's time is the median of its samples; --benchmark_repetitions=N repeats whole rows.\n"
    "GPS_TRACE_SETUP=1 prints each set-up step's wall time (generation, references, copies).\n";

bool parse_number(const char* arg, const char* flag, double& out) {
  const std::size_t len = std::strlen(flag);
  if (std::strncmp(arg, flag, len) != 0 || arg[len] != '=')
    return false;
  char* end = nullptr;
  out = std::strtod(arg + len + 1, &end);
  if (end == arg + len + 1 || *end != '\0' || !(out >= 0)) {
    std::fprintf(stderr, "gpu_bench: bad value in %s\n", arg);
    std::exit(2);
  }
  return true;
}

// --gps_utf8_file=PATH: the file's bytes become the utf8 "file" mix; one line and exit 2 when it
// cannot be read or is empty.
void read_user_text(const char* path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    std::fprintf(stderr, "gpu_bench: cannot read --gps_utf8_file %s: %s\n", path,
                 ec ? ec.message().c_str()
                    : (std::filesystem::exists(path, ec) ? "not a regular file"
                                                         : "No such file or directory"));
    std::exit(2);
  }
  std::FILE* file = std::fopen(path, "rb");
  if (file == nullptr) {
    std::fprintf(stderr, "gpu_bench: cannot read --gps_utf8_file %s: %s\n", path,
                 std::strerror(errno));
    std::exit(2);
  }
  std::vector<unsigned char> bytes;
  unsigned char chunk[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(chunk, 1, sizeof chunk, file)) > 0)
    bytes.insert(bytes.end(), chunk, chunk + got);
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) {
    std::fprintf(stderr, "gpu_bench: cannot read --gps_utf8_file %s\n", path);
    std::exit(2);
  }
  if (bytes.empty()) {
    std::fprintf(stderr, "gpu_bench: --gps_utf8_file %s is empty\n", path);
    std::exit(2);
  }
  gps::set_user_text(std::move(bytes));
}

// Removes the --gps_* options from argv and applies them.
void take_gps_options(std::vector<char*>& args) {
  auto& policy = gps::bench::sampling_policy();
  const char* env = std::getenv("GPS_COLD_L2");
  gps::bench::options().cold_l2 = env && *env && std::strcmp(env, "0") != 0;
  std::vector<char*> rest;
  for (char* arg : args) {
    double v = 0;
    if (std::strncmp(arg, "--gps_", 6) != 0) {
      rest.push_back(arg);
    } else if (std::strcmp(arg, "--gps_help") == 0) {
      std::fputs(kHelp, stdout);
      std::exit(0);
    } else if (std::strcmp(arg, "--gps_quick") == 0) {
      gps::bench::options().quick = true;
    } else if (std::strncmp(arg, "--gps_shard=", 12) == 0) {
      int k = 0, n = 0;
      char extra = 0;
      if (std::sscanf(arg + 12, "%d/%d%c", &k, &n, &extra) != 2 || n < 1 || k < 1 || k > n) {
        std::fprintf(stderr, "gpu_bench: bad value in %s (K/N with 1 <= K <= N)\n", arg);
        std::exit(2);
      }
      gps::bench::options().shard_index = k;
      gps::bench::options().shard_count = n;
    } else if (std::strcmp(arg, "--gps_no_blocking") == 0) {
      gps::bench::options().no_blocking = true;
    } else if (std::strncmp(arg, "--gps_utf8_file=", 16) == 0) {
      read_user_text(arg + 16);
    } else if (std::strcmp(arg, "--gps_cold_l2") == 0) {
      gps::bench::options().cold_l2 = true;
    } else if (parse_number(arg, "--gps_min_samples", v)) {
      policy.min_samples = static_cast<int>(v);
    } else if (parse_number(arg, "--gps_min_time", v)) {
      policy.min_seconds = v;
    } else if (parse_number(arg, "--gps_max_time", v)) {
      policy.max_seconds = v;
    } else if (parse_number(arg, "--gps_inject_slowdown", v)) {
      gps::bench::options().inject_slowdown = v;
    } else if (parse_number(arg, "--gps_max_noise", v)) {
      policy.max_noise = v;
    } else {
      std::fprintf(stderr, "gpu_bench: unknown option %s (see --gps_help)\n", arg);
      std::exit(2);
    }
  }
  args = rest;
}

} // namespace

int main(int argc, char** argv) {
  std::vector<char*> args(argv, argv + argc);
  take_gps_options(args);
  // Every row samples until its own stopping rule (bench/sampler.hpp) inside ONE benchmark
  // iteration, so Google Benchmark must not ask for more: a minimum time it always meets.
  // Google Benchmark would repeat that iteration until its own minimum time were met: a row
  // that samples for 0.1 s and reports 1 us would then run for hours.
  for (char* arg : args)
    if (std::strncmp(arg, "--benchmark_min_time", 20) == 0) {
      std::fprintf(stderr, "gpu_bench: --benchmark_min_time does not apply here (each row samples "
                           "inside one iteration): use --gps_min_time=S or --gps_max_time=S\n");
      return 2;
    }
  static char min_time[] = GPS_MIN_TIME_FLAG;
  args.insert(args.begin() + 1, min_time);
  const std::vector<std::string> all_args(args.begin(), args.end()); // Initialize() removes its own
  int args_count = static_cast<int>(args.size());
  args.push_back(nullptr);

  benchmark::Initialize(&args_count, args.data());
  if (benchmark::ReportUnrecognizedArguments(args_count, args.data()))
    return 2;

  if (!gps::bench::gpu_present())
    std::fprintf(stderr, "gpu_bench: %s; GPU rows will be reported as skipped\n",
                 gps::bench::gpu_absence().c_str());
  gps::bench::register_all();
  try {
    gps::bench::add_context();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu_bench: could not read the device: %s\n", e.what());
    return 1;
  }
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  // the variant metadata goes into the JSON results file (not the console)
  std::string out_file, out_format = "json";
  for (const std::string& a : all_args) {
    if (a.rfind("--benchmark_out=", 0) == 0)
      out_file = a.substr(16);
    if (a.rfind("--benchmark_out_format=", 0) == 0)
      out_format = a.substr(23);
  }
  if (ran > 0 && !out_file.empty() && out_format == "json") {
    if (std::string error = gps::bench::add_metadata_to_file(out_file); !error.empty()) {
      std::fprintf(stderr, "gpu_bench: could not add the variant metadata: %s\n", error.c_str());
      return 1;
    }
  }
  if (ran == 0) {
    std::fprintf(stderr, "gpu_bench: no benchmark matches the filter (or the filter is not a "
                         "valid regular expression)\n");
    return 1;
  }
  return 0;
}
