// sort as the benchmarks and tests see it: uint32 keys (uniform, low_entropy, all_equal) alone or
// with their input index as the value, sorted ascending and stable; and uniform int32 and float32
// keys (the same random bits, ordered as sort.hpp's KeyOrder says: the axis "key", in the names
// only when it is not uint32), at pot sizes 2^16, 2^20, 2^24, 2^28 and 2^30; onesweep's keys at
// every block, pairs at the default block.
//
// Traffic: one model for every variant, the floor of an LSD radix sort with 8-bit digits: four
// passes that each read and write every key (and value) once, plus one read of the keys for the
// digit histograms: 36 bytes per key (keys only), 68 per pair. GB/s then ranks as keys/s does.
//
// Validation, exact and sort-free where it can be (std::stable_sort of 2^30 pairs takes minutes):
// pairs carry their input index as the value, so the output is the stable sort iff every value v
// is < n, keys_out[i] == keys_in[v], and (key, value) strictly increases (distinct values then make
// it a permutation). Keys alone are compared with std::sort of the input up to 2^24 keys; above
// that they must be non-decreasing with the same multiset fingerprint as the input. A GPU's output
// is checked on the GPU by the same rules (bench/device_sort_check.cu; the exact keys against a
// device copy of the expected ones): only a failure's neighbourhood is read back.
#include "buffers.hpp"
#include "common/cpu_parallel.hpp"
#include "data.hpp"
#include "device_sort_check.hpp"
#include "problem.hpp"
#include "sort/sort.hpp"

#include <algorithm>
#include <numeric>

namespace gps {
namespace {

constexpr std::size_t kExactKeysMax = std::size_t{1} << 24;

struct Fingerprint {
  std::uint64_t a = 0, b = 0;
  bool operator==(const Fingerprint& o) const { return a == o.a && b == o.b; }
};
Fingerprint fingerprint(const unsigned* keys, std::size_t n) {
  const unsigned chunks = threads_for(n);
  std::vector<Fingerprint> part(chunks);
  parallel_chunks(n, chunks, [&](unsigned c, std::size_t b, std::size_t e) {
    Fingerprint f;
    for (std::size_t i = b; i < e; ++i) {
      f.a += random_word(keys[i], 1);
      f.b += random_word(keys[i], 2);
    }
    part[c] = f;
  });
  Fingerprint total;
  for (const auto& f : part)
    total.a += f.a, total.b += f.b;
  return total;
}

std::string at(std::size_t i, std::size_t n, const std::string& what) {
  return "wrong result at index " + std::to_string(i) + " of " + std::to_string(n) + ": " + what;
}

struct SortPoint {
  KeyDistribution dist;
  bool pairs;
  sort::KeyType key_type;
};

// The points by id: 0..5 uint32 keys, distribution-major, keys before pairs (the ids and names of
// before the key axis); 6..9 uniform int32 then float32 keys, keys before pairs.
constexpr int kUintPoints = 6;
constexpr int kPoints = 10;
SortPoint sort_point(int id) {
  if (id < kUintPoints)
    return {kKeyDistributions[id / 2], id % 2 == 1, sort::KeyType::Uint32};
  const int k = id - kUintPoints;
  return {KeyDistribution::Uniform, k % 2 == 1,
          k / 2 == 0 ? sort::KeyType::Int32 : sort::KeyType::Float32};
}

class SortInstance final : public Instance {
public:
  SortInstance(SortPoint point, std::size_t n, Purpose purpose)
      : point_(point), n_(n), purpose_(purpose) {}

  std::size_t device_bytes() const override {
    const bool exact_keys = !point_.pairs && n_ <= kExactKeysMax; // and their expected copy
    return ((point_.pairs ? 4 : 2) + (exact_keys ? 1 : 0)) * n_ * sizeof(unsigned);
  }
  void prepare(Target target) override {
    if (!host_ready_) {
      keys_ = random_keys(n_, data_seed(purpose_, n_), point_.dist);
      if (point_.pairs) {
        vals_.resize(n_);
        parallel_chunks(n_, threads_for(n_), [&](unsigned, std::size_t b, std::size_t e) {
          std::iota(vals_.begin() + b, vals_.begin() + e, static_cast<unsigned>(b));
        });
      } else if (n_ <= kExactKeysMax) {
        // stable: keys that order as equal can differ in their bits (float -0.0 and +0.0)
        sorted_keys_ = keys_;
        std::stable_sort(sorted_keys_.begin(), sorted_keys_.end(),
                         [o = order_](unsigned a, unsigned b) { return o(a) < o(b); });
      } else {
        fingerprint_ = fingerprint(keys_.data(), n_);
      }
      host_ready_ = true;
    }
    if (target == Target::Gpu && !device_ready_) {
      d_keys_in_ = to_device(keys_);
      d_keys_out_.allocate(n_);
      if (!sorted_keys_.empty())
        d_sorted_keys_ = to_device(sorted_keys_);
      if (point_.pairs) {
        d_vals_in_ = to_device(vals_);
        d_vals_out_.allocate(n_);
      }
      device_ready_ = true;
    }
    if (target == Target::Cpu) {
      h_keys_out_.resize(n_);
      h_vals_out_.resize(point_.pairs ? n_ : 0);
    }
  }
  void poison(Target target) override {
    if (target == Target::Gpu) {
      poison_device(d_keys_out_.data(), d_keys_out_.bytes());
      poison_device(d_vals_out_.data(), d_vals_out_.bytes());
    } else {
      poison_host(h_keys_out_);
      poison_host(h_vals_out_);
    }
  }
  std::string check(Target target) override {
    std::string error =
        target == Target::Gpu
            ? check_on_device()
            : check_sorted(h_keys_out_.data(), point_.pairs ? h_vals_out_.data() : nullptr);
    if (error.empty() && purpose_ == Purpose::Test && target == Target::Gpu &&
        !first_mismatch(to_host(d_keys_in_.data(), n_).data(), keys_.data(), n_).empty())
      error = "the input was modified";
    return error;
  }
  Traffic traffic() const override {
    const double per_key = point_.pairs ? 4.0 * 16 + 4 : 4.0 * 8 + 4;
    return {per_key * static_cast<double>(n_), static_cast<double>(n_)};
  }

private:
  void call(const VariantInfo& v, void* temp, std::size_t& bytes, int block,
            cudaStream_t s) override {
    const sort::Variant& row = sort::variants()[v.index];
    if (v.target == Target::Gpu)
      row.run(temp, bytes, d_keys_in_.data(), d_keys_out_.data(),
              point_.pairs ? d_vals_in_.data() : nullptr, d_vals_out_.data(), n_, point_.key_type,
              block, s);
    else
      row.run(temp, bytes, keys_.data(), h_keys_out_.data(), point_.pairs ? vals_.data() : nullptr,
              h_vals_out_.data(), n_, point_.key_type, block, s);
  }

  // The GPU's output checked where it is (bench/device_sort_check.cu), by the rules of
  // check_sorted; only a failure's neighbourhood is read back, for the message.
  std::string check_on_device() const {
    const std::size_t n = n_;
    if (!point_.pairs && n <= kExactKeysMax)
      return first_mismatch_device(d_keys_out_.data(), d_sorted_keys_.data(), n);
    const DeviceSortCheck c =
        check_sort_on_device(d_keys_out_.data(), point_.pairs ? d_vals_out_.data() : nullptr,
                             d_keys_in_.data(), n, order_, !point_.pairs);
    if (c.first_bad < n) {
      // keys[i-1..i] (and the values) of the first failure, for the same message as the host's
      const std::size_t lo = c.first_bad > 0 ? c.first_bad - 1 : 0, count = c.first_bad - lo + 1;
      const HostVector<unsigned> keys = to_host(d_keys_out_.data() + lo, count);
      HostVector<unsigned> vals(count, 0);
      if (point_.pairs)
        vals = to_host(d_vals_out_.data() + lo, count);
      const std::size_t i = c.first_bad - lo;
      const std::string here = std::to_string(keys[i]);
      if (!point_.pairs)
        return at(c.first_bad, n, here + " after " + std::to_string(keys[i - 1]));
      return at(c.first_bad, n,
                "key " + here + " value " + std::to_string(vals[i]) +
                    (i > 0 ? " after key " + std::to_string(keys[i - 1]) + " value " +
                                 std::to_string(vals[i - 1])
                           : std::string()) +
                    " (not the stable order of the input)");
    }
    if (!point_.pairs && !(Fingerprint{c.fingerprint_a, c.fingerprint_b} == fingerprint_))
      return "sorted, but not a permutation of the input";
    return "";
  }

  std::string check_sorted(const unsigned* keys, const unsigned* vals) const {
    const std::size_t n = n_;
    if (vals) {
      const std::size_t i = first_index_where(n, [&](std::size_t i) {
        const unsigned v = vals[i];
        if (v >= n || keys[i] != keys_[v])
          return true;
        const unsigned prev = i > 0 ? order_(keys[i - 1]) : 0, cur = order_(keys[i]);
        return i > 0 && !(prev < cur || (prev == cur && vals[i - 1] < v));
      });
      if (i == n)
        return "";
      return at(i, n,
                "key " + std::to_string(keys[i]) + " value " + std::to_string(vals[i]) +
                    (i > 0 ? " after key " + std::to_string(keys[i - 1]) + " value " +
                                 std::to_string(vals[i - 1])
                           : std::string()) +
                    " (not the stable order of the input)");
    }
    if (n <= kExactKeysMax) {
      const std::size_t i =
          first_index_where(n, [&](std::size_t i) { return keys[i] != sorted_keys_[i]; });
      if (i == n)
        return "";
      return at(i, n,
                "got " + std::to_string(keys[i]) + ", expected " + std::to_string(sorted_keys_[i]));
    }
    const std::size_t i = first_index_where(
        n, [&](std::size_t i) { return i > 0 && order_(keys[i - 1]) > order_(keys[i]); });
    if (i != n)
      return at(i, n, std::to_string(keys[i]) + " after " + std::to_string(keys[i - 1]));
    if (!(fingerprint(keys, n) == fingerprint_))
      return "sorted, but not a permutation of the input";
    return "";
  }

  SortPoint point_;
  sort::KeyOrder order_ = sort::key_order(point_.key_type);
  std::size_t n_;
  Purpose purpose_;
  bool host_ready_ = false, device_ready_ = false;
  HostVector<unsigned> keys_, vals_, sorted_keys_, h_keys_out_, h_vals_out_;
  Fingerprint fingerprint_;
  DeviceBuffer<unsigned> d_keys_in_, d_keys_out_, d_vals_in_, d_vals_out_, d_sorted_keys_;
};

bool is_uniform(const AxisPoint& p) {
  return sort_point(p.id).dist == KeyDistribution::Uniform;
}
bool is_uint(const AxisPoint& p) {
  return p.id < kUintPoints;
}

class SortProblem final : public TableProblem {
public:
  SortProblem()
      : TableProblem("sort",
                     "radix-sort floor for every variant: 4 passes x (read + write of each key and "
                     "value) + one read of the keys: 36 bytes per key, 68 per key-value pair",
                     describe(sort::variants()), "keys") {}
  std::vector<std::string> axis_names() const override { return {"kind", "distribution", "key"}; }
  // uint32 first, distribution-major (the rows of one distribution share its keys), keys before
  // pairs; then the other key types (sort_point)
  std::vector<AxisPoint> points() const override {
    std::vector<AxisPoint> points;
    for (int id = 0; id < kPoints; ++id) {
      const SortPoint sp = sort_point(id);
      const std::string kind = sp.pairs ? "pairs" : "keys", dist = key_distribution_name(sp.dist),
                        key = sort::key_type_name(sp.key_type);
      points.push_back({{{"kind", kind, kind},
                         {"distribution", dist, dist},
                         {"key", key, sp.key_type == sort::KeyType::Uint32 ? "" : key}},
                        id,
                        id == 0});
    }
    return points;
  }
  // skewed distributions at pot sizes only; CPU rows for uniform uint32 keys at pot sizes; the
  // other key types: GPU rows at a few pot sizes
  bool benchmarked(const AxisPoint& p, const SizeCase& size, Target target) const override {
    if (!is_uint(p))
      return target == Target::Gpu && size.pot &&
             (size.log2n == 30 || (size.log2n >= 16 && size.log2n % 4 == 0));
    if (!is_uniform(p) && !size.pot)
      return false;
    return target == Target::Gpu || (is_uniform(p) && size.pot);
  }
#ifdef GPS_SORT_SWEEP_ALL // measurement builds only: every axis point at every block
  static constexpr bool kEveryPoint = true;
#else
  static constexpr bool kEveryPoint = false;
#endif
  // the multi-pass sorts: uniform uint32 keys at pot sizes
  bool sweeps(const AxisPoint& p, const SizeCase& size) const override {
    return (kEveryPoint || p.primary) && size.pot;
  }
  // onesweep: keys at every block (block 256 is their fastest at every distribution since the
  // half-warp count's fix, onesweep.tuning.md's thirty-first session); pairs at their default block
  bool sweeps_study(const AxisPoint& p, const SizeCase& size) const override {
    return (kEveryPoint || p.primary || !sort_point(p.id).pairs) && size.pot;
  }
  bool tested(const AxisPoint& p, std::size_t n) const override {
    return n <= 65536 || (is_uniform(p) && (is_uint(p) || n <= (std::size_t{1} << 21)));
  }
  std::unique_ptr<Instance> instance(const AxisPoint& point, std::size_t n,
                                     Purpose purpose) const override {
    return std::make_unique<SortInstance>(sort_point(point.id), n, purpose);
  }
};

} // namespace

const Problem& sort_problem() {
  static const SortProblem problem;
  return problem;
}

} // namespace gps
