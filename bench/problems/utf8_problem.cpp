// utf8 as the benchmarks and tests see it: three operations (decode, validate, encode) over six
// text mixes, the operation and the mix being the two axes:
//   utf8/<variant>/<decode|validate|encode>/<mix>/<pot|npot>/log2n:<k>[/block:<b>]
// n is the input size: bytes for decode and validate, code points for encode. The three tables
// (kernels/utf8/registry.cpp) hold the same variants in the same order, so one row list serves.
//
// Traffic (the minimum each operation must move), per operation:
//   decode    n bytes read + 4 bytes per code point written
//   validate  n bytes read (up to the first error: a validator may stop there)
//   encode    4n bytes read + the UTF-8 bytes written
// elements/s counts code points (in the input for decode and validate); input_GB/s is the input
// alone.
#include "buffers.hpp"
#include "problem.hpp"
#include "utf8/utf8.hpp"
#include "utf8_text.hpp"

#include <cstdint>

namespace gps {
namespace {

enum class Op { Decode, Validate, Encode };
constexpr Op kOps[] = {Op::Decode, Op::Validate, Op::Encode};
const char* op_name(Op op) {
  return op == Op::Decode ? "decode" : op == Op::Validate ? "validate" : "encode";
}
constexpr int kMixes = sizeof(kTextMixes) / sizeof(kTextMixes[0]);
constexpr int kPrimaryPoint = 4; // decode of mixed text

// ids: op x generated mix first, then op x the file mix (--gps_utf8_file) when it is set
constexpr int kGenerated = 3 * kMixes;
Op op_of(const AxisPoint& p) {
  return p.id < kGenerated ? kOps[p.id / kMixes] : kOps[p.id - kGenerated];
}
TextMix mix_of(const AxisPoint& p) {
  return p.id < kGenerated ? kTextMixes[p.id % kMixes] : TextMix::File;
}

class Utf8Instance final : public Instance {
public:
  Utf8Instance(Op op, TextMix mix, std::size_t n, Purpose purpose)
      : op_(op), mix_(mix), n_(n), purpose_(purpose) {}

  std::size_t device_bytes() const override {
    // input, output (decode: n code points; encode: 4n bytes), expected output, results
    return op_ == Op::Validate ? n_ + 64 : op_ == Op::Decode ? 9 * n_ + 64 : 12 * n_ + 64;
  }

  void prepare(Target target) override {
    if (!host_ready_)
      make_host();
    if (target == Target::Gpu && !device_ready_) {
      if (op_ == Op::Encode) {
        d_points_in_ = to_device(points_in_);
        d_bytes_out_.allocate(4 * n_);
      } else {
        d_bytes_in_ = to_device(bytes_in_);
      }
      if (op_ == Op::Decode) {
        d_points_out_.allocate(n_);
        d_expected_ = to_device(expected_points_);
      }
      d_result_.allocate(1);
      device_ready_ = true;
    }
    if (target == Target::Cpu) {
      h_points_out_.resize(op_ == Op::Decode ? n_ : 0);
      h_bytes_out_.resize(op_ == Op::Encode ? 4 * n_ : 0);
    }
  }

  void poison(Target target) override {
    if (target == Target::Gpu) {
      poison_device(d_points_out_.data(), d_points_out_.bytes());
      poison_device(d_bytes_out_.data(), d_bytes_out_.bytes());
      poison_device(d_result_.data(), d_result_.bytes());
    } else {
      poison_host(h_points_out_);
      poison_host(h_bytes_out_);
      h_result_ = 0xABABABABABABABABull;
    }
  }
  std::string check(Target target) override {
    const bool gpu = target == Target::Gpu;
    const unsigned long long result = gpu ? to_host(d_result_.data(), 1)[0] : h_result_;
    if (op_ == Op::Validate) {
      const auto got = static_cast<long long>(result);
      return got == expected_error_ ? ""
                                    : "wrong first error: got " + std::to_string(got) +
                                          ", expected " + std::to_string(expected_error_);
    }
    if (op_ == Op::Decode) {
      const std::size_t want = expected_points_.size();
      if (std::string e = wrong_count(result, want); !e.empty())
        return e;
      std::string e = gpu ? first_mismatch_device(d_points_out_.data(), d_expected_.data(), want)
                          : first_mismatch(h_points_out_.data(), expected_points_.data(), want);
      if (e.empty() && gpu && purpose_ == Purpose::Test)
        e = untouched_past(d_points_out_, want);
      return e;
    }
    const std::size_t want = expected_bytes_.size();
    if (std::string e = wrong_count(result, want); !e.empty())
      return e;
    const HostVector<unsigned char> got =
        gpu ? to_host(d_bytes_out_.data(), want)
            : HostVector<unsigned char>(h_bytes_out_.begin(), h_bytes_out_.begin() + want);
    std::string e = first_mismatch(got.data(), expected_bytes_.data(), want);
    if (e.empty() && gpu && purpose_ == Purpose::Test)
      e = untouched_past(d_bytes_out_, want);
    return e;
  }
  Traffic traffic() const override {
    const double n = static_cast<double>(n_), points = static_cast<double>(code_points_);
    switch (op_) {
    case Op::Decode:
      return {n + 4 * points, points, n};
    case Op::Validate: { // a validator must read up to the first error, no further
      const double read = expected_error_ >= 0 ? static_cast<double>(expected_error_) + 1 : n;
      return {read, points, read};
    }
    case Op::Encode:
      return {4 * n + static_cast<double>(expected_bytes_.size()), n, 4 * n};
    }
    return {0, 0, 0};
  }

private:
  // Test runs also check that nothing past the count was written (still poison).
  template <typename T> std::string untouched_past(const DeviceBuffer<T>& d, std::size_t count) {
    const HostVector<T> all = to_host(d.data(), d.size());
    const auto* bytes = reinterpret_cast<const unsigned char*>(all.data() + count);
    for (std::size_t i = 0; i < (all.size() - count) * sizeof(T); ++i)
      if (bytes[i] != kPoisonByte)
        return "written past the count at element " + std::to_string(count + i / sizeof(T));
    if (op_ != Op::Encode &&
        !first_mismatch(to_host(d_bytes_in_.data(), n_).data(), bytes_in_.data(), n_).empty())
      return "the input was modified";
    return "";
  }

  void call(const VariantInfo& v, void* temp, std::size_t& bytes, int block,
            cudaStream_t s) override {
    const bool gpu = v.target == Target::Gpu;
    unsigned long long* result = gpu ? d_result_.data() : &h_result_;
    switch (op_) {
    case Op::Decode:
      utf8::decode_variants()[v.index].run(temp, bytes, gpu ? d_bytes_in_.data() : bytes_in_.data(),
                                           n_, gpu ? d_points_out_.data() : h_points_out_.data(),
                                           result, block, s);
      break;
    case Op::Validate:
      utf8::validate_variants()[v.index].run(temp, bytes,
                                             gpu ? d_bytes_in_.data() : bytes_in_.data(), n_,
                                             reinterpret_cast<long long*>(result), block, s);
      break;
    case Op::Encode:
      utf8::encode_variants()[v.index].run(
          temp, bytes, gpu ? d_points_in_.data() : points_in_.data(), n_,
          gpu ? d_bytes_out_.data() : h_bytes_out_.data(), result, block, s);
      break;
    }
  }

  void make_host() {
    const std::uint64_t seed = data_seed(purpose_, n_);
    // the tests check against the sequential reference; the benchmarks against the parallel one
    const char* reference = purpose_ == Purpose::Test ? "cpu" : "cpu_parallel";
    unsigned long long count = 0;
    if (op_ == Op::Encode) {
      points_in_ = utf32_text(n_, mix_, seed);
      expected_bytes_.resize(4 * n_);
      run_on_host(*utf8::find_encode(reference), points_in_.data(), n_, expected_bytes_.data(),
                  &count);
      expected_bytes_.resize(count);
      code_points_ = n_;
    } else {
      bytes_in_ = utf8_text(n_, mix_, seed);
      expected_points_.resize(n_);
      run_on_host(*utf8::find_decode(reference), bytes_in_.data(), n_, expected_points_.data(),
                  &count);
      expected_points_.resize(count);
      code_points_ = count;
      if (op_ == Op::Validate)
        run_on_host(*utf8::find_validate(reference), bytes_in_.data(), n_, &expected_error_);
    }
    host_ready_ = true;
  }

  Op op_;
  TextMix mix_;
  std::size_t n_;
  Purpose purpose_;
  bool host_ready_ = false, device_ready_ = false;
  HostVector<unsigned char> bytes_in_, expected_bytes_, h_bytes_out_;
  HostVector<std::uint32_t> points_in_, expected_points_, h_points_out_;
  std::size_t code_points_ = 0;
  long long expected_error_ = -1;
  unsigned long long h_result_ = 0;
  DeviceBuffer<unsigned char> d_bytes_in_, d_bytes_out_;
  DeviceBuffer<std::uint32_t> d_points_in_, d_points_out_, d_expected_;
  DeviceBuffer<unsigned long long> d_result_;
};

class Utf8Problem final : public TableProblem {
public:
  // the three tables hold the same rows in the same order (tests/test_extras.cpp checks it)
  Utf8Problem()
      : TableProblem("utf8",
                     "decode: n bytes read + 4 bytes written per code point; validate: the bytes "
                     "up to the first error (n when well-formed); encode: 4n bytes read + the "
                     "UTF-8 bytes written",
                     describe(utf8::decode_variants()), "code points") {}
  std::vector<std::string> axis_names() const override { return {"operation", "mix"}; }
  std::vector<AxisPoint> points() const override {
    std::vector<AxisPoint> points;
    int id = 0;
    for (Op op : kOps)
      for (TextMix mix : kTextMixes) {
        const std::string o = op_name(op), m = text_mix_name(mix);
        points.push_back({{{"operation", o, o}, {"mix", m, m}}, id, id == kPrimaryPoint});
        ++id;
      }
    if (has_user_text())
      for (Op op : kOps) {
        const std::string o = op_name(op), m = text_mix_name(TextMix::File);
        points.push_back({{{"operation", o, o}, {"mix", m, m}}, id++, false});
      }
    return points;
  }
  // mixed text and the user's for the CPU rows (pot), every mix for the GPU rows (npot at the
  // primary point only)
  bool benchmarked(const AxisPoint& p, const SizeCase& size, Target target) const override {
    // encode takes n < 2^30 code points (its 4n output bytes need 32-bit offsets)
    if (op_of(p) == Op::Encode && size.n >= utf8::kMaxGpuCodePoints)
      return false;
    if (target == Target::Cpu) // and the user's text, to hold the GPU against the CPU on it
      return size.pot && (mix_of(p) == TextMix::Mixed || mix_of(p) == TextMix::File);
    return size.pot || p.primary;
  }
  // above 65536, the well-formed and the ill-formed blend of every operation
  bool tested(const AxisPoint& p, std::size_t n) const override {
    return n <= 65536 || mix_of(p) == TextMix::Mixed || mix_of(p) == TextMix::MixedErrors;
  }
  std::unique_ptr<Instance> instance(const AxisPoint& point, std::size_t n,
                                     Purpose purpose) const override {
    return std::make_unique<Utf8Instance>(op_of(point), mix_of(point), n, purpose);
  }
};

} // namespace

const Problem& utf8_problem() {
  static const Utf8Problem problem;
  return problem;
}

} // namespace gps
