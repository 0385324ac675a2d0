#include "harness.hpp"

#include "common/cpu_parallel.hpp"
#include "git_commit.hpp"

#include <cuda/version>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace gps::bench {

// ---- size axis and names -------------------------------------------------------------------

std::string SizeCase::label() const {
  return std::string(pot ? "pot" : "npot") + "/log2n:" + std::to_string(log2n);
}

std::vector<SizeCase> size_cases() {
  std::vector<SizeCase> cases;
  for (int k = kMinLog2; k <= kMaxLog2; ++k) {
    const std::size_t pot = std::size_t{1} << k;
    cases.push_back({k, true, pot});
    cases.push_back({k, false, pot - 3});
  }
  return cases;
}

std::string benchmark_name(const std::string& algorithm, const std::string& variant,
                           const std::vector<std::string>& axes, const SizeCase& size, int block) {
  std::string name = algorithm + "/" + variant;
  for (const auto& axis : axes) name += "/" + axis;
  name += "/" + size.label();
  if (block > 0) name += "/block:" + std::to_string(block);
  return name;
}

// ---- process-wide GPU state ------------------------------------------------------------------

namespace {
struct GpuState {
  bool present = false;
  std::string absence;
  std::unique_ptr<CudaStream> stream;
  Workspace workspace;
  DeviceBuffer<unsigned char> l2_flush;
};
GpuState& gpu_state() {
  static GpuState state = [] {
    GpuState s;
    s.present = gpu_available(&s.absence);
    if (s.present) s.stream = std::make_unique<CudaStream>();
    return s;
  }();
  return state;
}
} // namespace

bool gpu_present() { return gpu_state().present; }
const std::string& gpu_absence() { return gpu_state().absence; }
cudaStream_t bench_stream() { return gpu_state().stream->get(); }
Workspace& bench_workspace() { return gpu_state().workspace; }
bool cold_l2() {
  static const bool cold = [] {
    const char* v = std::getenv("GPS_COLD_L2");
    return v && std::strcmp(v, "0") != 0 && *v;
  }();
  return cold;
}

// ---- data ----------------------------------------------------------------------------------------

SizeCache& size_cache() {
  static SizeCache cache;
  return cache;
}

void poison(void* d, std::size_t bytes) {
  if (bytes) CUDA_CHECK(cudaMemset(d, 0xAB, bytes));
  CUDA_CHECK(cudaDeviceSynchronize());
}

// ---- running and reporting ---------------------------------------------------------------------

namespace {

// Counters from the per-iteration times: GB/s and elements/s use the median iteration (robust to
// the odd slow iteration), ms_p10/ms_p90 give the spread that compare.py uses as the noise band.
void set_counters(benchmark::State& state, const Traffic& traffic, std::size_t n, int block,
                  bool on_gpu, std::vector<double> seconds) {
  if (seconds.empty()) return;
  std::sort(seconds.begin(), seconds.end());
  auto quantile = [&](double q) {
    return seconds[static_cast<std::size_t>(q * static_cast<double>(seconds.size() - 1) + 0.5)];
  };
  const double median = quantile(0.5);
  if (median <= 0) return;
  const double gbs = traffic.bytes / median / 1e9;
  state.counters["GB/s"] = gbs;
  state.counters["elements/s"] = traffic.elements / median;
  state.counters["n"] = static_cast<double>(n);
  state.counters["ms_median"] = median * 1e3;
  state.counters["ms_p10"] = quantile(0.1) * 1e3;
  state.counters["ms_p90"] = quantile(0.9) * 1e3;
  if (block > 0) state.counters["block"] = block;
  if (on_gpu && n > 0) {
    const double copy = copy_gbs(n);
    if (copy > 0) state.counters["copy_frac"] = gbs / copy;
  }
  const auto iterations = static_cast<std::int64_t>(seconds.size());
  state.SetBytesProcessed(static_cast<std::int64_t>(traffic.bytes) * iterations);
  state.SetItemsProcessed(static_cast<std::int64_t>(traffic.elements) * iterations);
}

std::string gib(std::size_t bytes) {
  std::ostringstream s;
  s.precision(2);
  s << std::fixed << static_cast<double>(bytes) / (1u << 30) << " GiB";
  return s.str();
}

// Frees every cached buffer of other sizes, then checks the estimated footprint against the
// free memory; returns the reason when it does not fit.
std::string check_fits(std::size_t needed) {
  std::size_t free_bytes = 0, total = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  const std::size_t margin = 256u << 20; // context, library temp storage, fragmentation
  if (needed + margin > free_bytes)
    return "skipped: needs about " + gib(needed) + " of GPU memory, " + gib(free_bytes) +
           " free of " + gib(total);
  return "";
}

template <typename Body> void guarded(benchmark::State& state, Body&& body) {
  try {
    body();
  } catch (const CudaError& e) {
    if (e.code() == cudaErrorMemoryAllocation) {
      size_cache().clear();
      state.SkipWithError(
          (std::string("skipped: does not fit in GPU memory (") + e.what() + ")").c_str());
    } else {
      state.SkipWithError(e.what());
    }
  } catch (const std::bad_alloc&) {
    size_cache().clear();
    state.SkipWithError("skipped: out of memory (host or library temporary storage)");
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

} // namespace

void run_gpu_case(benchmark::State& state, const std::function<GpuCase()>& make_case,
                  bool& validated) {
  if (!gpu_present()) {
    state.SkipWithError(gpu_absence().c_str());
    return;
  }
  guarded(state, [&] {
    GpuCase c = make_case();
    // the data of other sizes goes first; the footprint check sees only this size's needs
    if (std::string why = check_fits(c.device_bytes); !why.empty()) {
      // maybe this size's own buffers are already cached: only then is the estimate pessimistic
      size_cache().clear();
      if (why = check_fits(c.device_bytes); !why.empty()) {
        state.SkipWithError(why.c_str());
        return;
      }
    }
    if (c.prepare) c.prepare();
    CUDA_CHECK(cudaDeviceSynchronize()); // uploads done before the stream's work starts
    cudaStream_t stream = bench_stream();
    auto& flush = gpu_state().l2_flush;
    if (cold_l2() && flush.size() == 0) {
      int dev = 0, l2 = 0;
      CUDA_CHECK(cudaGetDevice(&dev));
      CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
      flush.allocate(static_cast<std::size_t>(l2) * 2);
    }
    // warm-up (also grows the workspace to its final size), then the one-time validation
    if (c.before_each) c.before_each(stream);
    c.work(stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    if (!validated && c.validate) {
      if (std::string error = c.validate(); !error.empty()) {
        state.SkipWithError(error.c_str());
        return;
      }
      validated = true;
    }
    CudaEvent start, stop;
    std::vector<double> seconds;
    for (auto _ : state) {
      if (c.before_each) c.before_each(stream);
      if (flush.size()) CUDA_CHECK(cudaMemsetAsync(flush.data(), 0, flush.size(), stream));
      CUDA_CHECK(cudaEventRecord(start.get(), stream));
      c.work(stream);
      CUDA_CHECK(cudaEventRecord(stop.get(), stream));
      CUDA_CHECK(cudaEventSynchronize(stop.get()));
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
      state.SetIterationTime(ms / 1e3);
      seconds.push_back(ms / 1e3);
    }
    set_counters(state, c.traffic, c.n, c.block, true, std::move(seconds));
  });
}

void run_cpu_case(benchmark::State& state, const std::function<CpuCase()>& make_case,
                  bool& validated) {
  guarded(state, [&] {
    CpuCase c = make_case();
    if (c.prepare) c.prepare();
    if (c.before_each) c.before_each();
    c.work(); // warm-up: faults the output pages in
    if (!validated && c.validate) {
      if (std::string error = c.validate(); !error.empty()) {
        state.SkipWithError(error.c_str());
        return;
      }
      validated = true;
    }
    std::vector<double> seconds;
    for (auto _ : state) {
      if (c.before_each) c.before_each();
      const auto t0 = std::chrono::steady_clock::now();
      c.work();
      const auto t1 = std::chrono::steady_clock::now();
      const double s = std::chrono::duration<double>(t1 - t0).count();
      state.SetIterationTime(s);
      seconds.push_back(s);
    }
    set_counters(state, c.traffic, c.n, 0, false, std::move(seconds));
  });
}

namespace {
benchmark::internal::Benchmark* common_settings(benchmark::internal::Benchmark* b) {
  return b->UseManualTime()->Unit(benchmark::kMicrosecond);
}
} // namespace

benchmark::internal::Benchmark* register_gpu(const std::string& name,
                                             std::function<GpuCase()> make_case) {
  if (!gpu_present()) return nullptr; // main() has said why; only CPU rows run
  auto validated = std::make_shared<bool>(false);
  return common_settings(benchmark::RegisterBenchmark(
      name.c_str(), [make_case = std::move(make_case), validated](benchmark::State& state) {
        run_gpu_case(state, make_case, *validated);
      }));
}

benchmark::internal::Benchmark* register_cpu(const std::string& name,
                                             std::function<CpuCase()> make_case) {
  auto validated = std::make_shared<bool>(false);
  return common_settings(benchmark::RegisterBenchmark(
      name.c_str(), [make_case = std::move(make_case), validated](benchmark::State& state) {
        run_cpu_case(state, make_case, *validated);
      }));
}

// ---- copy baseline -----------------------------------------------------------------------------

namespace {
struct CopyBuffers {
  DeviceBuffer<int> src, dst;
};
CopyBuffers& copy_buffers(std::size_t n) {
  return size_cache().get<CopyBuffers>("copy/buffers", n, [n] {
    CopyBuffers b{DeviceBuffer<int>(n), DeviceBuffer<int>(n)};
    // random bytes, not zeros: some memory systems compress zero pages
    b.src = to_device(random_ints(n, 7));
    return b;
  });
}
void copy_work(CopyBuffers& b, std::size_t n, cudaStream_t s) {
  CUDA_CHECK(cudaMemcpyAsync(b.dst.data(), b.src.data(), n * sizeof(int),
                             cudaMemcpyDeviceToDevice, s));
}
} // namespace

double copy_gbs(std::size_t n) {
  static std::map<std::size_t, double> cache;
  if (auto it = cache.find(n); it != cache.end()) return it->second;
  double gbs = 0;
  try {
    // own buffers (not the size cache) so that measuring never evicts a benchmark's data
    DeviceBuffer<int> src(n), dst(n);
    CUDA_CHECK(cudaMemset(src.data(), 0x5A, n * sizeof(int)));
    CUDA_CHECK(cudaDeviceSynchronize());
    cudaStream_t s = bench_stream();
    CudaEvent start, stop;
    std::vector<float> times;
    const int reps = n >= (1u << 26) ? 10 : 50;
    for (int r = 0; r < reps + 2; ++r) {
      CUDA_CHECK(cudaEventRecord(start.get(), s));
      CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), n * sizeof(int),
                                 cudaMemcpyDeviceToDevice, s));
      CUDA_CHECK(cudaEventRecord(stop.get(), s));
      CUDA_CHECK(cudaEventSynchronize(stop.get()));
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
      if (r >= 2) times.push_back(ms); // two warm-ups
    }
    std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
    gbs = 2.0 * n * sizeof(int) / (times[times.size() / 2] / 1e3) / 1e9;
  } catch (const CudaError&) {
    gbs = 0; // no room for a second pair of buffers at this size: no copy_frac counter
  }
  cache[n] = gbs;
  return gbs;
}

void register_copy_baseline(const std::string& algorithm, const SizeCase& size) {
  const std::size_t n = size.n;
  register_gpu(benchmark_name(algorithm, "copy", {}, size, 0), [n] {
    GpuCase c;
    c.device_bytes = 2 * n * sizeof(int);
    c.work = [n](cudaStream_t s) { copy_work(copy_buffers(n), n, s); };
    c.validate = [n] {
      auto& b = copy_buffers(n);
      return first_mismatch(to_host(b.dst.data(), n), to_host(b.src.data(), n), n);
    };
    c.traffic = {2.0 * n * sizeof(int), static_cast<double>(n)};
    c.n = n;
    return c;
  });
}

// ---- suites ------------------------------------------------------------------------------------

namespace {
std::vector<std::pair<std::string, void (*)()>>& suites() {
  static std::vector<std::pair<std::string, void (*)()>> list;
  return list;
}
} // namespace

int add_suite(const char* name, void (*register_fn)()) {
  suites().emplace_back(name, register_fn);
  return static_cast<int>(suites().size());
}

void register_suites() {
  static const std::vector<std::string> order = {"scan", "compact", "reduce", "sort"};
  auto rank = [](const std::string& name) {
    const auto it = std::find(order.begin(), order.end(), name);
    return it == order.end() ? order.size() : static_cast<std::size_t>(it - order.begin());
  };
  auto list = suites();
  std::stable_sort(list.begin(), list.end(), [&](const auto& a, const auto& b) {
    return rank(a.first) != rank(b.first) ? rank(a.first) < rank(b.first) : a.first < b.first;
  });
  for (const auto& suite : list) suite.second();
}

// ---- context -----------------------------------------------------------------------------------

void add_context() {
  benchmark::AddCustomContext("git_commit", GPS_GIT_COMMIT);
  benchmark::AddCustomContext("cccl_version", std::to_string(CCCL_MAJOR_VERSION) + "." +
                                                  std::to_string(CCCL_MINOR_VERSION) + "." +
                                                  std::to_string(CCCL_PATCH_VERSION));
  benchmark::AddCustomContext("cuda_runtime_build_version", std::to_string(CUDART_VERSION));
  benchmark::AddCustomContext("l2_mode", cold_l2() ? "cold (flushed before each iteration)"
                                                   : "warm (not flushed)");
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
  std::ostringstream peak;
  peak.precision(1);
  peak << std::fixed << peak_gbs;
  benchmark::AddCustomContext("gpu_peak_bandwidth_gbs", peak.str());
  benchmark::AddCustomContext("cuda_driver_version", std::to_string(driver));
  benchmark::AddCustomContext("cuda_runtime_version", std::to_string(runtime));
}

} // namespace gps::bench
