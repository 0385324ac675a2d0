// The shared benchmark machinery every algorithm's registration file uses: the size axis and
// naming scheme, the CUDA-event timer, the counters, the device context, seeded random data cached
// per size, the device-memory fit check and the in-process copy reference.
#pragma once

#include "common/cuda_check.hpp"
#include "common/device_buffer.hpp"
#include "common/workspace.hpp"
#include "data.hpp"

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gps::bench {
using gps::random_ints;

// ---- size axis and names -------------------------------------------------------------------
// Every exponent from kMinLog2 to kMaxLog2, each as a power of two (pot) and as 2^k - 3 (npot).
struct SizeCase {
  int log2n;
  bool pot;
  std::size_t n;
  std::string label() const; // "pot/log2n:24"
};
inline constexpr int kMinLog2 = 10;
inline constexpr int kMaxLog2 = 30;
std::vector<SizeCase> size_cases();

// "scan" "shared_mem" {} size 256 -> "scan/shared_mem/npot/log2n:24/block:256"; `axes` are extra
// path segments placed after the variant (e.g. "keep:0.50"); block 0 means no block axis.
std::string benchmark_name(const std::string& algorithm, const std::string& variant,
                           const std::vector<std::string>& axes, const SizeCase& size, int block);

// ---- process-wide GPU state ------------------------------------------------------------------
bool gpu_present();               // false without a usable GPU (then only CPU rows run)
const std::string& gpu_absence(); // why there is no GPU
cudaStream_t bench_stream();
Workspace& bench_workspace();
bool cold_l2(); // GPS_COLD_L2=1: flush the L2 before every timed iteration

// ---- data ----------------------------------------------------------------------------------------

// Holds the data of one problem size (host inputs, references, device copies) across the
// benchmarks of that size; everything is dropped when a benchmark asks for another size.
class SizeCache {
public:
  template <typename T, typename Make> T& get(const std::string& key, std::size_t n, Make&& make) {
    if (n != n_) {
      entries_.clear();
      n_ = n;
    }
    auto it = entries_.find(key);
    if (it == entries_.end()) {
      auto holder = std::make_shared<T>(make());
      it = entries_.emplace(key, std::shared_ptr<void>(holder, holder.get())).first;
    }
    return *static_cast<T*>(it->second.get());
  }
  void clear() {
    entries_.clear();
    n_ = ~std::size_t{0};
  }

private:
  std::size_t n_ = ~std::size_t{0};
  std::map<std::string, std::shared_ptr<void>> entries_;
};
SizeCache& size_cache();

// Uploads and waits for the device: a pageable cudaMemcpy may return before its DMA lands, and the
// benchmarks run on a non-blocking stream that the legacy stream does not order against.
template <typename T> DeviceBuffer<T> to_device(const std::vector<T>& host) {
  DeviceBuffer<T> d(host.size());
  if (!host.empty())
    CUDA_CHECK(cudaMemcpy(d.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaDeviceSynchronize());
  return d;
}
template <typename T> std::vector<T> to_host(const T* d, std::size_t n) {
  std::vector<T> h(n);
  if (n) CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}
// Fills a device buffer with a recognisable pattern (0xAB bytes) so unwritten outputs show; waits
// for the fill, so that work on the benchmark stream cannot overtake it.
void poison(void* d, std::size_t bytes);

// First mismatch between two arrays as a readable message, or "" when they are equal.
template <typename T>
std::string first_mismatch(const std::vector<T>& got, const std::vector<T>& want,
                           std::size_t count) {
  for (std::size_t i = 0; i < count; ++i)
    if (!(got[i] == want[i]))
      return "wrong result at index " + std::to_string(i) + " of " + std::to_string(count) +
             ": got " + std::to_string(got[i]) + ", expected " + std::to_string(want[i]);
  return "";
}

// The same on the GPU (bench/device_compare.cu): both pointers in device memory, only the first
// mismatch is copied back. Cheap enough to validate every row at 2^30.
std::string first_mismatch_device(const int* got, const int* expected, std::size_t n);

// ---- running and reporting ---------------------------------------------------------------------
struct Traffic {
  double bytes;    // the bytes the algorithm must move at minimum (reads + writes, once each)
  double elements; // the elements processed (n)
};

// One GPU benchmark row. `prepare` (untimed, once per call of the benchmark function) uploads and
// allocates; `work` is exactly what is timed; `before_each` (untimed, optional) runs before every
// timed iteration, e.g. to restore an input; `validate` (untimed, once per row) returns "" or
// what is wrong.
struct GpuCase {
  std::size_t device_bytes = 0; // estimated footprint, checked against free GPU memory first
  std::function<void()> prepare;
  std::function<void(cudaStream_t)> work;
  std::function<void(cudaStream_t)> before_each;
  std::function<std::string()> validate;
  Traffic traffic{};
  std::size_t n = 0;
  int block = 0;
};

struct CpuCase {
  std::function<void()> prepare;
  std::function<void()> work;
  std::function<void()> before_each;
  std::function<std::string()> validate;
  Traffic traffic{};
  std::size_t n = 0;
};

// Body of a registered benchmark: fit check, warm-up, one-time validation, CUDA-event timing,
// counters. Errors become SkipWithError with the reason, never a crash.
void run_gpu_case(benchmark::State& state, const std::function<GpuCase()>& make_case,
                  bool& validated);
void run_cpu_case(benchmark::State& state, const std::function<CpuCase()>& make_case,
                  bool& validated);

// Registers a GPU row / CPU row with the common settings (manual time, units, default min time).
// Without a GPU, register_gpu registers nothing and returns nullptr.
benchmark::internal::Benchmark* register_gpu(const std::string& name,
                                             std::function<GpuCase()> make_case);
benchmark::internal::Benchmark* register_cpu(const std::string& name,
                                             std::function<CpuCase()> make_case);

// The device-to-device copy of n int32 (reads + writes 8n bytes): registered by every algorithm
// as "<algorithm>/copy/<size>", and measured in process for every row's copy_frac counter.
void register_copy_baseline(const std::string& algorithm, const SizeCase& size);
double copy_gbs(std::size_t n_ints); // cached median of repeated copies of n int32

// Called from main(): device facts, versions and commit into the JSON context.
void add_context();

// Each algorithm's file (bench/<algorithm>_bench.cpp) adds its registration function with
//   GPS_BENCHMARK_SUITE(scan, register_scan_benchmarks);
// main() then registers the suites in the order scan, compact, reduce, sort, then the rest.
int add_suite(const char* name, void (*register_fn)());
void register_suites();
#define GPS_BENCHMARK_SUITE(name, fn)                                                             \
  [[maybe_unused]] static const int gps_suite_##name = ::gps::bench::add_suite(#name, fn)

} // namespace gps::bench
