// Scan benchmarks: every variant of the scan table x size (pot/npot) x block size, plus the copy
// baseline. GB/s counts the minimum traffic of a scan: n int32 read + n int32 written.
#include "harness.hpp"
#include "scan/scan.hpp"

namespace gps::bench {
namespace {

constexpr std::uint64_t kSeed = 42;

struct ScanData {
  std::vector<int> input, expected;
};
ScanData &scan_data(std::size_t n) {
  return size_cache().get<ScanData>("scan/host", n, [n] {
    ScanData d{random_ints(n, kSeed), std::vector<int>(n)};
    Workspace unused;
    scan::exclusive_scan_cpu_parallel(d.input.data(), d.expected.data(), n, 0, unused, nullptr);
    return d;
  });
}

struct ScanDeviceData {
  DeviceBuffer<int> input, output, expected;
};
ScanDeviceData &scan_device_data(std::size_t n) {
  return size_cache().get<ScanDeviceData>("scan/device", n, [n] {
    return ScanDeviceData{to_device(scan_data(n).input), DeviceBuffer<int>(n),
                          to_device(scan_data(n).expected)};
  });
}

Traffic scan_traffic(std::size_t n) {
  return {2.0 * n * sizeof(int), static_cast<double>(n)};
}

void register_gpu_variant(const scan::Variant &v, const SizeCase &size, int block) {
  const std::size_t n = size.n;
  register_gpu(benchmark_name("scan", v.name, {}, size, block), [&v, n, block] {
    GpuCase c;
    // input, output, expected output + the largest workspace a variant uses (a padded copy for
    // work_efficient)
    c.device_bytes = 4 * n * sizeof(int);
    c.prepare = [n] { scan_data(n), scan_device_data(n); };
    c.work = [&v, n, block](cudaStream_t s) {
      auto &d = scan_device_data(n);
      v.run(d.input.data(), d.output.data(), n, block, bench_workspace(), s);
    };
    c.validate = [&v, n, block] {
      auto &d = scan_device_data(n);
      poison(d.output.data(), d.output.bytes());
      v.run(d.input.data(), d.output.data(), n, block, bench_workspace(), bench_stream());
      CUDA_CHECK(cudaStreamSynchronize(bench_stream()));
      return first_mismatch_device(d.output.data(), d.expected.data(), n);
    };
    c.traffic = scan_traffic(n);
    c.n = n;
    c.block = block;
    return c;
  });
}

void register_cpu_variant(const scan::Variant &v, const SizeCase &size) {
  const std::size_t n = size.n;
  register_cpu(benchmark_name("scan", v.name, {}, size, 0), [&v, n] {
    auto output = std::make_shared<std::vector<int>>(n);
    CpuCase c;
    c.prepare = [n] { scan_data(n); };
    c.work = [&v, n, output] {
      Workspace unused;
      v.run(scan_data(n).input.data(), output->data(), n, 0, unused, nullptr);
    };
    c.validate = [n, output] { return first_mismatch(*output, scan_data(n).expected, n); };
    c.traffic = scan_traffic(n);
    c.n = n;
    return c;
  });
}

} // namespace

void register_scan_benchmarks();
GPS_BENCHMARK_SUITE(scan, register_scan_benchmarks);

void register_scan_benchmarks() {
  for (const SizeCase &size : size_cases()) {
    register_copy_baseline("scan", size);
    for (const scan::Variant &v : scan::variants()) {
      if (v.target == scan::Target::Cpu) {
        register_cpu_variant(v, size);
      } else if (v.takes_block) {
        for (int block : scan::kBlockSizes)
          register_gpu_variant(v, size, block);
      } else {
        register_gpu_variant(v, size, 0);
      }
    }
  }
}

} // namespace gps::bench
