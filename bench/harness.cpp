#include "harness.hpp"

#include "buffers.hpp"
#include "common/cuda_check.hpp"
#include "common/device_buffer.hpp"
#include "data.hpp"
#include "metadata.hpp"
#include "problem.hpp"
#include "sampler.hpp"
#include "spin.hpp"

#include <benchmark/benchmark.h>

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <sstream>

namespace gps::bench {

Options& options() {
  static Options o;
  return o;
}

// ---- process-wide GPU state --------------------------------------------------------------------

namespace {
struct GpuState {
  bool present = false;
  std::string absence;
  std::unique_ptr<CudaStream> stream;
  DeviceBuffer<unsigned char> l2_flush;
};
GpuState& gpu_state() {
  static GpuState state = [] {
    GpuState s;
    s.present = gpu_available(&s.absence);
    if (s.present)
      s.stream = std::make_unique<CudaStream>();
    else
      s.absence = "skipped: no GPU (" + s.absence + ")";
    return s;
  }();
  return state;
}
cudaStream_t bench_stream() {
  return gpu_state().stream->get();
}

// The L2 flush buffer for cold mode: twice the L2, zeroed before every sample.
void flush_l2(cudaStream_t stream) {
  auto& flush = gpu_state().l2_flush;
  if (flush.size() == 0) {
    int dev = 0, l2 = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    flush.allocate(static_cast<std::size_t>(l2) * 2);
  }
  CUDA_CHECK(cudaMemsetAsync(flush.data(), 0, flush.size(), stream));
}

// How a row's GPU samples are timed. Blocked (the default): behind nvbench's blocking kernel
// (bench/spin.hpp), so the events around the work measure GPU time without the host's launch
// gaps. Direct: events around the work as the host enqueues it, launch gaps included; for work
// that waits on the host inside (it times the blocking kernel out: 50 ms), and with
// --gps_no_blocking. Rows record which in their "blocked" counter.
struct GpuTiming {
  bool blocked = true;
};
constexpr double kBlockTimeoutSeconds = 0.05;

// One sample of GPU work: CUDA events around exactly `work` on the benchmark stream.
double gpu_sample(const std::function<void(cudaStream_t)>& work, GpuTiming& timing) {
  static CudaEvent start, stop;
  static StreamBlocker blocker;
  cudaStream_t s = bench_stream();
  if (options().cold_l2)
    flush_l2(s);
  const bool block = timing.blocked && !options().no_blocking;
  if (block)
    blocker.hold(s, kBlockTimeoutSeconds);
  CUDA_CHECK(cudaEventRecord(start.get(), s));
  work(s);
  CUDA_CHECK(cudaEventRecord(stop.get(), s));
  if (block)
    blocker.release();
  CUDA_CHECK(cudaEventSynchronize(stop.get()));
  if (block && blocker.timed_out()) { // the work waited on the host: time it directly
    timing.blocked = false;
    return gpu_sample(work, timing);
  }
  timing.blocked = block;
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
  return ms / 1e3;
}

} // namespace

bool check_blocking_kernel() {
  if (options().no_blocking || !gpu_present())
    return false;
  GpuTiming timing;
  gpu_sample([](cudaStream_t s) { spin_on_gpu(20e-6, s); }, timing);
  if (timing.blocked)
    return true;
  options().no_blocking = true;
  return false;
}

namespace {

double cpu_sample(const std::function<void()>& work) {
  const auto t0 = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string gib(std::size_t bytes) {
  std::ostringstream s;
  s.precision(2);
  s << std::fixed << static_cast<double>(bytes) / (1u << 30) << " GiB";
  return s.str();
}

// "" when `bytes` more fit in free GPU memory (with a margin for the context); else the reason.
std::string check_fits(std::size_t bytes) {
  std::size_t free_bytes = 0, total = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  const std::size_t margin = 64u << 20;
  if (bytes + margin <= free_bytes)
    return "";
  return "skipped: needs " + gib(bytes) + " more GPU memory, " + gib(free_bytes) + " free of " +
         gib(total);
}

// ---- the copy roofline
// ---------------------------------------------------------------------------

// Source and destination of the device-to-device copy of n int32 (random data: some memory systems
// compress zeros), one size at a time. Fetched before any timing: the timed work is the copy alone.
struct CopyBuffers {
  std::size_t n = ~std::size_t{0};
  DeviceBuffer<int> src, dst;
};
CopyBuffers& copy_storage() {
  static CopyBuffers b;
  return b;
}
void release_copy_buffers() {
  CopyBuffers& b = copy_storage();
  b.src.release();
  b.dst.release();
  b.n = ~std::size_t{0};
}
CopyBuffers& copy_buffers(std::size_t n) {
  CopyBuffers& b = copy_storage();
  if (b.n != n) {
    release_copy_buffers();
    if (std::string why = check_fits(2 * n * sizeof(int)); !why.empty())
      throw std::runtime_error(why);
    const SetupTrace trace("copy buffers", n * 4);
    b.src.allocate(n);
    random_words_device(b.src.data(), n, 7); // random_ints(n, 7) made on the GPU
    b.dst.allocate(n);
    b.n = n;
  }
  return b;
}
// The timed work of a copy row and of the roofline: one cudaMemcpyAsync on buffers fetched before.
std::function<void(cudaStream_t)> copy_work(CopyBuffers& b) {
  return [&b](cudaStream_t s) {
    if (b.n)
      CUDA_CHECK(cudaMemcpyAsync(b.dst.data(), b.src.data(), b.n * sizeof(int),
                                 cudaMemcpyDeviceToDevice, s));
  };
}

// The copy bandwidth of n int32 (bytes read + written / median time), measured once per size with
// the row timer and a stricter policy (at least 30 samples), so that one bad sample cannot skew
// every ratio of that size. 0 when the buffers do not fit.
double copy_gbs(std::size_t n) {
  static std::map<std::size_t, double> cache;
  if (auto it = cache.find(n); it != cache.end())
    return it->second;
  double gbs = 0;
  try {
    const auto work = copy_work(copy_buffers(n));
    work(bench_stream()); // warm-up
    SamplingPolicy policy = sampling_policy();
    policy.min_samples = std::max(policy.min_samples, 30);
    policy.min_seconds = std::max(policy.min_seconds, 0.02);
    GpuTiming timing;
    const Samples s = take_samples([&] { return gpu_sample(work, timing); }, policy);
    gbs = 2.0 * static_cast<double>(n) * sizeof(int) / s.median() / 1e9;
  } catch (const std::exception&) {
    gbs = 0;
  }
  cache[n] = gbs;
  return gbs;
}

// ---- one row -----------------------------------------------------------------------------------

void set_counters(benchmark::State& state, const Traffic& traffic, std::size_t n, int block,
                  const GpuTiming* gpu_timing, const Samples& s) {
  const bool on_gpu = gpu_timing != nullptr;
  const double median = s.median();
  if (median <= 0)
    return;
  const double gbs = traffic.bytes / median / 1e9;
  state.counters["GB/s"] = gbs;
  state.counters["elements/s"] = traffic.elements / median;
  if (traffic.input_bytes > 0)
    state.counters["input_GB/s"] = traffic.input_bytes / median / 1e9;
  state.counters["n"] = static_cast<double>(n);
  if (block > 0)
    state.counters["block"] = block;
  // seconds, so that the console's SI prefixes read right (743n = 743 ns)
  state.counters["median_s"] = median;
  state.counters["p10_s"] = s.quantile(0.1);
  state.counters["p90_s"] = s.quantile(0.9);
  state.counters["noise"] = s.noise();
  state.counters["samples"] = static_cast<double>(s.seconds.size());
  if (on_gpu)
    state.counters["blocked"] = gpu_timing->blocked ? 1 : 0;
  if (on_gpu && n > 0) {
    const double copy = copy_gbs(n);
    if (copy > 0) {
      state.counters["copy_frac"] = gbs / copy;
      state.counters["copy_GB/s"] = copy;
    }
  }
}

template <typename Body> void guarded(benchmark::State& state, Body&& body) {
  try {
    body();
  } catch (const CudaError& e) {
    state.SkipWithError(
        e.code() == cudaErrorMemoryAllocation
            ? (std::string("skipped: does not fit in GPU memory (") + e.what() + ")").c_str()
            : e.what());
  } catch (const std::bad_alloc&) {
    state.SkipWithError("skipped: out of host memory");
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

// The instance of the rows being run: rows of one (algorithm, point, size) are registered one
// after the other, so one cached instance serves them all and memory holds one size at a time.
struct CurrentInstance {
  const Problem* problem = nullptr;
  int point = -1;
  std::size_t n = 0;
  std::unique_ptr<Instance> instance;
  bool on_device = false;
};
Instance& current_instance(const Problem& problem, const AxisPoint& point, std::size_t n,
                           Target target) {
  static CurrentInstance cur;
  if (cur.problem != &problem || cur.point != point.id || cur.n != n || !cur.instance) {
    cur.instance.reset();
    cur.instance = problem.instance(point, n, Purpose::Benchmark);
    cur.problem = &problem;
    cur.point = point.id;
    cur.n = n;
    cur.on_device = false;
  }
  if (target == Target::Gpu && !cur.on_device) {
    if (std::string why = check_fits(cur.instance->device_bytes()); !why.empty()) {
      release_copy_buffers(); // the copy's buffers of this size go first
      if (why = check_fits(cur.instance->device_bytes()); !why.empty())
        throw std::runtime_error(why);
    }
    const SetupTrace trace("prepare on the GPU (host data included)", n * 4);
    cur.instance->prepare(Target::Gpu);
    cur.on_device = true;
  } else if (target == Target::Cpu) {
    const SetupTrace trace("prepare on the host", n * 4);
    cur.instance->prepare(Target::Cpu);
  }
  return *cur.instance;
}

struct Row {
  const Problem* problem;
  AxisPoint point;
  SizeCase size;
  const VariantInfo* variant;
  int block;
  bool validated = false;
};

// row_s: the row's wall time, set-up included (the first row of a size and axis point makes its
// data and expected output; the first of a size measures the copy), so a run's cost can be traced.
void set_row_seconds(benchmark::State& state, std::chrono::steady_clock::time_point start) {
  state.counters["row_s"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void run_row(benchmark::State& state, Row& row) {
  const auto start = std::chrono::steady_clock::now();
  const VariantInfo& v = *row.variant;
  const bool gpu = v.target == Target::Gpu;
  if (gpu && !gpu_present()) {
    state.SkipWithError(gpu_absence().c_str());
    return;
  }
  guarded(state, [&] {
    Instance& inst = current_instance(*row.problem, row.point, row.size.n, v.target);
    // temporary storage: exactly what the variant asks for, allocated outside the timing
    const std::size_t temp_bytes = inst.temp_bytes(v, row.block);
    DeviceBuffer<unsigned char> d_temp;
    std::vector<unsigned char> h_temp;
    if (gpu) {
      if (std::string why = check_fits(temp_bytes); !why.empty()) {
        state.SkipWithError((why + " (temporary storage)").c_str());
        return;
      }
      d_temp.allocate(temp_bytes);
    } else {
      h_temp.resize(temp_bytes);
    }
    void* temp = gpu ? static_cast<void*>(d_temp.data()) : static_cast<void*>(h_temp.data());
    cudaStream_t stream = gpu ? bench_stream() : nullptr;
    auto work = [&](cudaStream_t s) { inst.run(v, temp, temp_bytes, row.block, s); };
    // --gps_inject_slowdown=F: every sample also spins for F x this row's warm-up time
    double spin_seconds = 0;
    auto timed = [&](cudaStream_t s) {
      work(s);
      spin_on_gpu(spin_seconds, s);
    };

    // warm-up, which is also the checked run: poisoned outputs, every element compared
    inst.poison(v.target);
    work(stream);
    if (gpu)
      CUDA_CHECK(cudaStreamSynchronize(stream));
    if (!row.validated) {
      const SetupTrace trace("check", row.size.n * 4);
      if (std::string error = inst.check(v.target); !error.empty()) {
        state.SkipWithError(error.c_str());
        return;
      }
      row.validated = true;
    }
    // variants whose work waited on the host once are timed directly from then on
    static std::set<const VariantInfo*> direct;
    GpuTiming timing{direct.count(&v) == 0};
    if (gpu && options().inject_slowdown > 0)
      spin_seconds = options().inject_slowdown * gpu_sample(work, timing);
    Samples s;
    for (auto _ : state) {
      s = gpu ? take_samples([&] { return gpu_sample(timed, timing); }, sampling_policy())
              : take_samples([&] { return cpu_sample([&] { work(nullptr); }); }, sampling_policy());
      state.SetIterationTime(s.median());
    }
    if (gpu && !timing.blocked && !options().no_blocking)
      direct.insert(&v);
    set_counters(state, inst.traffic(), row.size.n, row.block, gpu ? &timing : nullptr, s);
    set_row_seconds(state, start);
  });
}

void run_copy_row(benchmark::State& state, std::size_t n) {
  const auto start = std::chrono::steady_clock::now();
  if (!gpu_present()) {
    state.SkipWithError(gpu_absence().c_str());
    return;
  }
  guarded(state, [&] {
    CopyBuffers& b = copy_buffers(n);
    const auto work = copy_work(b);
    // warm-up, which is also the checked run: the destination poisoned first
    poison_device(b.dst.data(), b.dst.bytes());
    work(bench_stream());
    CUDA_CHECK(cudaStreamSynchronize(bench_stream()));
    if (std::string e = first_mismatch_device(b.dst.data(), b.src.data(), n); !e.empty()) {
      state.SkipWithError(e.c_str());
      return;
    }
    Samples s;
    GpuTiming timing;
    for (auto _ : state) {
      s = take_samples([&] { return gpu_sample(work, timing); }, sampling_policy());
      state.SetIterationTime(s.median());
    }
    const double bytes = 2.0 * static_cast<double>(n) * sizeof(int);
    set_counters(state, {bytes, static_cast<double>(n)}, n, 0, &timing, s);
    set_row_seconds(state, start);
  });
}

benchmark::internal::Benchmark* settings(benchmark::internal::Benchmark* b) {
  return b->UseManualTime()->Unit(benchmark::kMicrosecond);
}

} // namespace

bool gpu_present() {
  return gpu_state().present;
}
const std::string& gpu_absence() {
  return gpu_state().absence;
}

// ---- registration ------------------------------------------------------------------------------

namespace {

// One row to register: the copy row of a size (variant == nullptr) or a variant's row.
struct RowEntry {
  std::string name;
  const Problem* problem;
  AxisPoint point;
  SizeCase size;
  const VariantInfo* variant;
  int block;
};

// Every row of the run, in suite order, before any is registered (the shard needs them all).
std::vector<RowEntry> all_rows() {
  std::vector<RowEntry> rows;
  const bool quick = options().quick;
  for (const Problem* problem : all_problems()) {
    const std::vector<AxisPoint> points = problem->points();
    for (const SizeCase& size : size_cases()) {
      // the quick preset: pot sizes 2^16, 2^20, 2^24, 2^28, primary axis points, default blocks,
      // CPU rows up to 2^24
      if (quick && (!size.pot || size.log2n < 16 || size.log2n % 4 != 0))
        continue;
      rows.push_back({std::string(problem->algorithm()) + "/copy/" + size.label(),
                      problem,
                      {},
                      size,
                      nullptr,
                      0});
      for (const AxisPoint& point : points)
        for (const RowPlan& plan : benchmark_rows(*problem, point, size)) {
          const bool cpu = plan.variant->target == Target::Cpu;
          if (quick && (!point.primary || (cpu && size.log2n > 24) ||
                        (plan.block && plan.block != plan.variant->default_block)))
            continue;
          rows.push_back({benchmark_name(*problem, *plan.variant, point, size, plan.block), problem,
                          point, size, plan.variant, plan.block});
        }
    }
  }
  return rows;
}

// A rough cost of a row for --gps_shard: its elements (CPU rows count 50 times) plus a fixed
// part for the row's setup and its minimum of samples.
double row_weight(const RowEntry& r) {
  const bool cpu = r.variant && r.variant->target == Target::Cpu;
  return static_cast<double>(r.size.n) * (cpu ? 50.0 : 1.0) + static_cast<double>(1u << 18);
}

} // namespace

void register_all() {
  std::vector<RowEntry> rows = all_rows();
  // --gps_shard=K/N: the K-th of N contiguous slices of about equal weight (rows stay in suite
  // order, so each slice keeps rows of one size together, and the slices' results merge)
  if (options().shard_count > 1) {
    double total = 0;
    for (const RowEntry& r : rows)
      total += row_weight(r);
    const double lo = total * (options().shard_index - 1) / options().shard_count;
    const double hi = total * options().shard_index / options().shard_count;
    std::vector<RowEntry> mine;
    double before = 0;
    for (RowEntry& r : rows) {
      const double mid = before + row_weight(r) / 2;
      before += row_weight(r);
      if (mid >= lo && mid < hi)
        mine.push_back(std::move(r));
    }
    rows = std::move(mine);
  }
  for (const RowEntry& r : rows) {
    if (!r.variant) {
      record_row(r.name, *r.problem, "copy", {}, r.size, 0);
      const std::size_t n = r.size.n;
      settings(benchmark::RegisterBenchmark(
          r.name.c_str(), [n](benchmark::State& state) { run_copy_row(state, n); }));
      continue;
    }
    record_row(r.name, *r.problem, r.variant->name, r.point, r.size, r.block);
    auto row = std::make_shared<Row>(Row{r.problem, r.point, r.size, r.variant, r.block});
    settings(benchmark::RegisterBenchmark(
        r.name.c_str(), [row](benchmark::State& state) { run_row(state, *row); }));
  }
}

} // namespace gps::bench
