// Reduction benchmarks: every variant of the reduction table x size (pot/npot) x block size, plus
// the copy baseline. GB/s counts the minimum traffic of a reduction: n int32 read once (4n bytes;
// the 4-byte result is negligible), so the copy baseline (8n bytes) is the bandwidth to reach.
#include "harness.hpp"
#include "reduce/reduce.hpp"

namespace gps::bench {
namespace {

constexpr std::uint64_t kSeed = 42;

struct ReduceData {
  std::vector<int> input;
  int expected = 0;
};
ReduceData& reduce_data(std::size_t n) {
  return size_cache().get<ReduceData>("reduce/host", n, [n] {
    ReduceData d{random_ints(n, kSeed), 0};
    Workspace unused;
    reduce::reduce_cpu_parallel(d.input.data(), &d.expected, n, 0, unused, nullptr);
    return d;
  });
}

struct ReduceDeviceData {
  DeviceBuffer<int> input, result;
};
ReduceDeviceData& reduce_device_data(std::size_t n) {
  return size_cache().get<ReduceDeviceData>("reduce/device", n, [n] {
    return ReduceDeviceData{to_device(reduce_data(n).input), DeviceBuffer<int>(1)};
  });
}

Traffic reduce_traffic(std::size_t n) {
  return {static_cast<double>(n) * sizeof(int), static_cast<double>(n)};
}

std::string wrong_sum(int got, int expected) {
  if (got == expected) return "";
  return "wrong sum: got " + std::to_string(got) + ", expected " + std::to_string(expected);
}

void register_gpu_variant(const reduce::Variant& v, const SizeCase& size, int block) {
  const std::size_t n = size.n;
  register_gpu(benchmark_name("reduce", v.name, {}, size, block), [&v, n, block] {
    GpuCase c;
    // input + the partial sums of the multi-pass variants (n / 64 at the smallest tile)
    c.device_bytes = (n + n / 32) * sizeof(int) + (16u << 20);
    c.prepare = [n] { reduce_data(n), reduce_device_data(n); };
    c.work = [&v, n, block](cudaStream_t s) {
      auto& d = reduce_device_data(n);
      v.run(d.input.data(), d.result.data(), n, block, bench_workspace(), s);
    };
    c.validate = [&v, n, block] {
      auto& d = reduce_device_data(n);
      poison(d.result.data(), d.result.bytes());
      v.run(d.input.data(), d.result.data(), n, block, bench_workspace(), bench_stream());
      CUDA_CHECK(cudaStreamSynchronize(bench_stream()));
      return wrong_sum(to_host(d.result.data(), 1)[0], reduce_data(n).expected);
    };
    c.traffic = reduce_traffic(n);
    c.n = n;
    c.block = block;
    return c;
  });
}

void register_cpu_variant(const reduce::Variant& v, const SizeCase& size) {
  const std::size_t n = size.n;
  register_cpu(benchmark_name("reduce", v.name, {}, size, 0), [&v, n] {
    auto result = std::make_shared<int>(0);
    CpuCase c;
    c.prepare = [n] { reduce_data(n); };
    c.work = [&v, n, result] {
      Workspace unused;
      v.run(reduce_data(n).input.data(), result.get(), n, 0, unused, nullptr);
    };
    c.validate = [n, result] { return wrong_sum(*result, reduce_data(n).expected); };
    c.traffic = reduce_traffic(n);
    c.n = n;
    return c;
  });
}

} // namespace

void register_reduce_benchmarks();
GPS_BENCHMARK_SUITE(reduce, register_reduce_benchmarks);

void register_reduce_benchmarks() {
  for (const SizeCase& size : size_cases()) {
    register_copy_baseline("reduce", size);
    for (const reduce::Variant& v : reduce::variants()) {
      if (v.target == reduce::Target::Cpu) {
        register_cpu_variant(v, size);
      } else if (v.takes_block) {
        for (int block : reduce::kBlockSizes) register_gpu_variant(v, size, block);
      } else {
        register_gpu_variant(v, size, 0);
      }
    }
  }
}

} // namespace gps::bench
