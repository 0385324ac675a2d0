// The JSON context: what machine and software produced the numbers, and the clocks it ran at.
#include "harness.hpp"

#include "common/cuda_check.hpp"
#include "git_commit.hpp"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cuda/version>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <sstream>

namespace gps::bench {
namespace {

std::string fixed1(double v) {
  std::ostringstream s;
  s.precision(1);
  s << std::fixed << v;
  return s.str();
}

// Current SM and memory clocks and the clock-limit reasons through NVML, loaded at run time (the
// driver ships it; the build does not need it). Nothing is recorded where NVML is missing.
void add_clock_context(int dev) {
  void* nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW);
  if (!nvml) {
    benchmark::AddCustomContext("gpu_clocks", "unknown (NVML not found)");
    return;
  }
  using Init = int (*)();
  using ByBus = int (*)(const char*, void**);
  using Clock = int (*)(void*, int, unsigned*);
  using Reasons = int (*)(void*, unsigned long long*);
  auto init = reinterpret_cast<Init>(dlsym(nvml, "nvmlInit_v2"));
  auto by_bus = reinterpret_cast<ByBus>(dlsym(nvml, "nvmlDeviceGetHandleByPciBusId_v2"));
  auto clock = reinterpret_cast<Clock>(dlsym(nvml, "nvmlDeviceGetClockInfo"));
  auto reasons =
      reinterpret_cast<Reasons>(dlsym(nvml, "nvmlDeviceGetCurrentClocksThrottleReasons"));
  char bus[32] = {};
  void* handle = nullptr;
  unsigned sm = 0, mem = 0;
  if (init && by_bus && clock && init() == 0 &&
      cudaDeviceGetPCIBusId(bus, sizeof bus, dev) == cudaSuccess && by_bus(bus, &handle) == 0 &&
      clock(handle, 1, &sm) == 0 && clock(handle, 2, &mem) == 0) {
    benchmark::AddCustomContext("gpu_sm_clock_mhz_at_start", std::to_string(sm));
    benchmark::AddCustomContext("gpu_memory_clock_mhz_at_start", std::to_string(mem));
    unsigned long long r = 0;
    if (reasons && reasons(handle, &r) == 0) {
      // 0x1 idle and 0x4 applications clocks setting are normal; power, thermal and slowdown are
      // not
      const bool throttled = (r & ~0x5ull) != 0;
      std::ostringstream s;
      s << "0x" << std::hex << r << (throttled ? " (throttled)" : " (not throttled)");
      benchmark::AddCustomContext("gpu_clock_limit_reasons_at_start", s.str());
    }
  } else {
    benchmark::AddCustomContext("gpu_clocks", "unknown (NVML did not answer)");
  }
  dlclose(nvml);
}

} // namespace

void add_context() {
  benchmark::AddCustomContext("git_commit", GPS_GIT_COMMIT);
  benchmark::AddCustomContext("cccl_version", std::to_string(CCCL_MAJOR_VERSION) + "." +
                                                  std::to_string(CCCL_MINOR_VERSION) + "." +
                                                  std::to_string(CCCL_PATCH_VERSION));
  benchmark::AddCustomContext("cuda_runtime_build_version", std::to_string(CUDART_VERSION));
  benchmark::AddCustomContext("l2_mode", options().cold_l2 ? "cold (flushed before each sample)"
                                                           : "warm (not flushed)");
  if (gpu_present() && !options().no_blocking && !check_blocking_kernel()) {
    std::fprintf(stderr, "gpu_bench: the blocking kernel did not see the host's release (a 20 us "
                         "spin timed it out): every row is timed directly, launch gaps included\n");
    benchmark::AddCustomContext("gpu_timing_fallback",
                                "the blocking kernel timed out on a 20 us spin at startup");
  }
  benchmark::AddCustomContext(
      "gpu_timing", options().no_blocking
                        ? "direct: events around the work as enqueued, launch gaps included"
                        : "blocked: work enqueued behind a blocking kernel, GPU time only (rows "
                          "whose work waits on the host: direct, counter blocked = 0)");
  if (options().shard_count > 1)
    benchmark::AddCustomContext("gps_shard", std::to_string(options().shard_index) + "/" +
                                                 std::to_string(options().shard_count));
  if (options().inject_slowdown > 0)
    benchmark::AddCustomContext("injected_slowdown",
                                std::to_string(options().inject_slowdown) +
                                    " (--gps_inject_slowdown: NOT a real measurement)");
  if (!gpu_present()) {
    benchmark::AddCustomContext("gpu_name", "none");
    benchmark::AddCustomContext("gpu_unavailable", gpu_absence());
    return;
  }
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  cudaDeviceProp p{};
  CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
  auto attr = [dev](cudaDeviceAttr a) {
    int v = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&v, a, dev));
    return v;
  };
  const int mem_clock_khz = attr(cudaDevAttrMemoryClockRate);
  const int bus_bits = attr(cudaDevAttrGlobalMemoryBusWidth);
  // double data rate: two transfers per clock over the whole bus
  const double peak_gbs = 2.0 * mem_clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
  int driver = 0, runtime = 0;
  CUDA_CHECK(cudaDriverGetVersion(&driver));
  CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  benchmark::AddCustomContext("gpu_name", p.name);
  benchmark::AddCustomContext("gpu_compute_capability",
                              std::to_string(p.major) + "." + std::to_string(p.minor));
  benchmark::AddCustomContext("gpu_sm_count", std::to_string(p.multiProcessorCount));
  benchmark::AddCustomContext("gpu_l2_bytes", std::to_string(p.l2CacheSize));
  benchmark::AddCustomContext("gpu_memory_bytes", std::to_string(p.totalGlobalMem));
  benchmark::AddCustomContext("gpu_memory_bus_bits", std::to_string(bus_bits));
  benchmark::AddCustomContext("gpu_memory_clock_khz", std::to_string(mem_clock_khz));
  benchmark::AddCustomContext("gpu_sm_clock_khz", std::to_string(attr(cudaDevAttrClockRate)));
  benchmark::AddCustomContext("gpu_peak_bandwidth_gbs", fixed1(peak_gbs));
  benchmark::AddCustomContext("cuda_driver_version", std::to_string(driver));
  benchmark::AddCustomContext("cuda_runtime_version", std::to_string(runtime));
  add_clock_context(dev);
}

} // namespace gps::bench
