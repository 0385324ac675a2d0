// compact as the benchmarks and tests see it: int32 with a kept fraction of random nonzero values
// at random positions in, the nonzero ones in order plus their count out. Axis keep:0.00..1.00.
#include "buffers.hpp"
#include "common/cpu_parallel.hpp"
#include "compact/compact.hpp"
#include "data.hpp"
#include "problem.hpp"

#include <cstdio>

namespace gps {
namespace {

constexpr double kKeepFractions[] = {0.0, 0.5, 0.75, 1.0};
constexpr int kPrimaryKeep = 1; // keep 0.50

// The kept elements, in parallel (count per chunk, offsets, copy per chunk): the sequential loop
// takes seconds at 2^30 with half the elements kept (branch misses).
HostVector<int> kept_elements(const HostVector<int>& input) {
  const std::size_t n = input.size();
  const unsigned chunks = threads_for(n);
  std::vector<std::size_t> offsets(chunks + 1, 0);
  parallel_chunks(n, chunks, [&](unsigned c, std::size_t b, std::size_t e) {
    std::size_t kept = 0;
    for (std::size_t i = b; i < e; ++i)
      kept += input[i] != 0;
    offsets[c + 1] = kept;
  });
  for (unsigned c = 0; c < chunks; ++c)
    offsets[c + 1] += offsets[c];
  HostVector<int> kept(offsets[chunks]);
  parallel_chunks(n, chunks, [&](unsigned c, std::size_t b, std::size_t e) {
    std::size_t k = offsets[c];
    for (std::size_t i = b; i < e; ++i)
      if (input[i] != 0)
        kept[k++] = input[i];
  });
  return kept;
}

class CompactInstance final : public Instance {
public:
  CompactInstance(double keep, std::size_t n, Purpose purpose)
      : keep_(keep), n_(n), purpose_(purpose) {}

  // input, output, expected (at most n) and the count
  std::size_t device_bytes() const override { return 3 * n_ * sizeof(int) + sizeof(unsigned); }

  void prepare(Target target) override {
    if (!host_ready_)
      make_host();
    if (target == Target::Gpu && !device_ready_) {
      d_in_ = to_device(input_);
      d_expected_ = to_device(expected_);
      d_out_.allocate(n_);
      d_count_.allocate(1);
      device_ready_ = true;
    }
    if (target == Target::Cpu)
      h_out_.resize(n_);
  }
  void poison(Target target) override {
    if (target == Target::Gpu) {
      poison_device(d_out_.data(), d_out_.bytes());
      poison_device(d_count_.data(), d_count_.bytes());
    } else {
      poison_host(h_out_);
      h_count_ = 0xABABABABu;
    }
  }
  std::string check(Target target) override {
    const std::size_t kept = expected_.size();
    if (target == Target::Cpu) {
      if (std::string e = wrong_count(h_count_, kept); !e.empty())
        return e;
      return first_mismatch(h_out_.data(), expected_.data(), kept);
    }
    if (std::string e = wrong_count(to_host(d_count_.data(), 1)[0], kept); !e.empty())
      return e;
    if (std::string e = first_mismatch_device(d_out_.data(), d_expected_.data(), kept); !e.empty())
      return e;
    if (purpose_ == Purpose::Test) {
      // nothing past the count is written, and the input is untouched
      const HostVector<int> out = to_host(d_out_.data(), n_);
      const HostVector<int> poison(n_ - kept, static_cast<int>(0xABABABABu));
      if (std::string e = first_mismatch(out.data() + kept, poison.data(), n_ - kept); !e.empty())
        return "written past the count: " + e;
      if (!first_mismatch(to_host(d_in_.data(), n_).data(), input_.data(), n_).empty())
        return "the input was modified";
    }
    return "";
  }
  Traffic traffic() const override {
    return {static_cast<double>(n_ + expected_.size()) * sizeof(int), static_cast<double>(n_)};
  }

protected:
  void call(const VariantInfo& v, void* temp, std::size_t& bytes, int block,
            cudaStream_t stream) override {
    row(v).run(temp, bytes, in(v), out(v), count(v), n_, block, stream);
  }

private:
  static const compact::Variant& row(const VariantInfo& v) { return compact::variants()[v.index]; }
  const int* in(const VariantInfo& v) const {
    return v.target == Target::Gpu ? d_in_.data() : input_.data();
  }
  int* out(const VariantInfo& v) { return v.target == Target::Gpu ? d_out_.data() : h_out_.data(); }
  unsigned* count(const VariantInfo& v) {
    return v.target == Target::Gpu ? d_count_.data() : &h_count_;
  }

  void make_host() {
    input_ = random_sparse_ints(n_, keep_, data_seed(purpose_, n_));
    if (purpose_ == Purpose::Benchmark) {
      expected_ = kept_elements(input_);
    } else { // the tests check against the reference row of the table
      const compact::Variant* ref = nullptr;
      for (const auto& v : compact::variants())
        if (v.role == Role::Reference && !ref)
          ref = &v;
      HostVector<int> out(n_);
      unsigned kept = 0;
      run_on_host(*ref, input_.data(), out.data(), &kept, n_);
      out.resize(kept);
      expected_ = std::move(out);
    }
    host_ready_ = true;
  }

  double keep_;
  std::size_t n_;
  Purpose purpose_;
  bool host_ready_ = false, device_ready_ = false;
  HostVector<int> input_, expected_, h_out_;
  unsigned h_count_ = 0;
  DeviceBuffer<int> d_in_, d_out_, d_expected_;
  DeviceBuffer<unsigned> d_count_;
};

class CompactProblem final : public TableProblem {
public:
  CompactProblem()
      : TableProblem("compact", "4n bytes read + 4 bytes written per kept element (int32)",
                     describe(compact::variants())) {}
  std::vector<std::string> axis_names() const override { return {"keep"}; }
  std::vector<AxisPoint> points() const override {
    std::vector<AxisPoint> points;
    for (int i = 0; i < 4; ++i) {
      char value[16];
      std::snprintf(value, sizeof value, "%.2f", kKeepFractions[i]);
      points.push_back({{{"keep", value, std::string("keep:") + value}}, i, i == kPrimaryKeep});
    }
    return points;
  }
  std::unique_ptr<Instance> instance(const AxisPoint& point, std::size_t n,
                                     Purpose purpose) const override {
    return std::make_unique<CompactInstance>(kKeepFractions[point.id], n, purpose);
  }
};

} // namespace

const Problem& compact_problem() {
  static const CompactProblem problem;
  return problem;
}

} // namespace gps
