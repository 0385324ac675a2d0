// reduce as the benchmarks and tests see it: random int32 in, their wrapping sum out.
#include "buffers.hpp"
#include "data.hpp"
#include "problem.hpp"
#include "reduce/reduce.hpp"

namespace gps {
namespace {

class ReduceInstance final : public Instance {
public:
  ReduceInstance(std::size_t n, Purpose purpose) : n_(n), purpose_(purpose) {}

  std::size_t device_bytes() const override { return (n_ + 1) * sizeof(int); }

  void prepare(Target target) override {
    if (!host_ready_) {
      input_ = random_ints(n_, data_seed(purpose_, n_));
      const char* reference = purpose_ == Purpose::Test ? "cpu" : "cpu_parallel";
      run_on_host(*reduce::find_variant(reference), input_.data(), &expected_, n_);
      host_ready_ = true;
    }
    if (target == Target::Gpu && !device_ready_) {
      d_in_ = to_device(input_);
      d_out_.allocate(1);
      device_ready_ = true;
    }
  }
  void poison(Target target) override {
    if (target == Target::Gpu)
      poison_device(d_out_.data(), d_out_.bytes());
    else
      h_out_ = static_cast<int>(0xABABABABu);
  }
  std::string check(Target target) override {
    const int got = target == Target::Gpu ? to_host(d_out_.data(), 1)[0] : h_out_;
    std::string error = first_mismatch(&got, &expected_, 1);
    if (error.empty() && purpose_ == Purpose::Test && target == Target::Gpu &&
        !first_mismatch(to_host(d_in_.data(), n_).data(), input_.data(), n_).empty())
      error = "the input was modified";
    return error;
  }
  Traffic traffic() const override {
    return {static_cast<double>(n_) * sizeof(int), static_cast<double>(n_)};
  }

protected:
  void call(const VariantInfo& v, void* temp, std::size_t& bytes, int block,
            cudaStream_t stream) override {
    row(v).run(temp, bytes, in(v), out(v), n_, block, stream);
  }

private:
  static const reduce::Variant& row(const VariantInfo& v) { return reduce::variants()[v.index]; }
  const int* in(const VariantInfo& v) const {
    return v.target == Target::Gpu ? d_in_.data() : input_.data();
  }
  int* out(const VariantInfo& v) { return v.target == Target::Gpu ? d_out_.data() : &h_out_; }

  std::size_t n_;
  Purpose purpose_;
  bool host_ready_ = false, device_ready_ = false;
  HostVector<int> input_;
  int expected_ = 0, h_out_ = 0;
  DeviceBuffer<int> d_in_, d_out_;
};

class ReduceProblem final : public TableProblem {
public:
  ReduceProblem() : TableProblem("reduce", "4n bytes read (int32)", describe(reduce::variants())) {}
  std::unique_ptr<Instance> instance(const AxisPoint&, std::size_t n,
                                     Purpose purpose) const override {
    return std::make_unique<ReduceInstance>(n, purpose);
  }
};

} // namespace

const Problem& reduce_problem() {
  static const ReduceProblem problem;
  return problem;
}

} // namespace gps
