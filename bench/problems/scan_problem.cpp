// scan as the benchmarks and tests see it: random int32 in, the exclusive prefix sum out.
#include "buffers.hpp"
#include "data.hpp"
#include "problem.hpp"
#include "scan/scan.hpp"

namespace gps {
namespace {

class ScanInstance final : public Instance {
public:
  ScanInstance(std::size_t n, Purpose purpose) : n_(n), purpose_(purpose) {}

  std::size_t device_bytes() const override { return 3 * n_ * sizeof(int); }

  void prepare(Target target) override {
    if (!host_ready_)
      make_host();
    if (target == Target::Gpu && !device_ready_) {
      d_in_ = to_device(input_);
      d_expected_ = to_device(expected_);
      d_out_.allocate(n_);
      device_ready_ = true;
    }
    if (target == Target::Cpu)
      h_out_.resize(n_);
  }

  void poison(Target target) override {
    if (target == Target::Gpu)
      poison_device(d_out_.data(), d_out_.bytes());
    else
      poison_host(h_out_);
  }
  std::string check(Target target) override {
    if (target == Target::Cpu)
      return first_mismatch(h_out_.data(), expected_.data(), n_);
    std::string error = first_mismatch_device(d_out_.data(), d_expected_.data(), n_);
    if (error.empty() && purpose_ == Purpose::Test &&
        !first_mismatch(to_host(d_in_.data(), n_).data(), input_.data(), n_).empty())
      error = "the input was modified";
    return error;
  }
  Traffic traffic() const override {
    return {2.0 * static_cast<double>(n_) * sizeof(int), static_cast<double>(n_)};
  }

protected:
  void call(const VariantInfo& v, void* temp, std::size_t& bytes, int block,
            cudaStream_t stream) override {
    row(v).run(temp, bytes, in(v), out(v), n_, block, stream);
  }

private:
  static const scan::Variant& row(const VariantInfo& v) { return scan::variants()[v.index]; }
  const int* in(const VariantInfo& v) const {
    return v.target == Target::Gpu ? d_in_.data() : input_.data();
  }
  int* out(const VariantInfo& v) { return v.target == Target::Gpu ? d_out_.data() : h_out_.data(); }

  void make_host() {
    input_ = random_ints(n_, data_seed(purpose_, n_));
    expected_.resize(n_); // zeros from HostVector's allocator, written by the reference
    // the tests check against the sequential reference; the benchmarks against the parallel one
    // (the sequential loop takes seconds at 2^30), which the tests check in turn
    const char* reference = purpose_ == Purpose::Test ? "cpu" : "cpu_parallel";
    run_on_host(*scan::find_variant(reference), input_.data(), expected_.data(), n_);
    host_ready_ = true;
  }

  std::size_t n_;
  Purpose purpose_;
  bool host_ready_ = false, device_ready_ = false;
  HostVector<int> input_, expected_, h_out_;
  DeviceBuffer<int> d_in_, d_out_, d_expected_;
};

class ScanProblem final : public TableProblem {
public:
  ScanProblem()
      : TableProblem("scan", "4n bytes read + 4n bytes written (int32)",
                     describe(scan::variants())) {}
  std::unique_ptr<Instance> instance(const AxisPoint&, std::size_t n,
                                     Purpose purpose) const override {
    return std::make_unique<ScanInstance>(n, purpose);
  }
};

} // namespace

const Problem& scan_problem() {
  static const ScanProblem problem;
  return problem;
}

} // namespace gps
