// An algorithm as the benchmarks and the tests both see it: its variant table (type-erased), its
// traffic model and extra axes, and, per (axis point, n), an Instance that owns the inputs, the
// expected output and the outputs, runs any variant under the temp-storage contract and checks
// every element of the result. bench/harness.cpp registers Google Benchmark rows from it and
// tests/test_variants.cpp generates the GoogleTest cases from it: one description, two uses.
#pragma once

#include "common/variant_table.hpp"
#include "setup_trace.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace gps {

// A table row without its function: what the harness, the tests and the JSON metadata need.
struct VariantInfo {
  int index; // row in the algorithm's own table
  std::string name;
  Target target;
  Role role;
  std::vector<int> blocks;
  int default_block;
  std::size_t (*tile_elems)(int block);
  std::string description;
  BenchLimits limits;
};

template <typename Row> std::vector<VariantInfo> describe(const std::vector<Row>& table) {
  std::vector<VariantInfo> out;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const Row& r = table[i];
    out.push_back({static_cast<int>(i), r.name, r.target, r.role, r.blocks, r.default_block,
                   r.tile_elems, r.description, r.limits});
  }
  return out;
}

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

// One value of each extra axis: e.g. keep:0.50, or keys + uniform for sort.
struct AxisValue {
  std::string axis;    // "keep"
  std::string value;   // "0.50"
  std::string segment; // as it appears in the benchmark name: "keep:0.50" ("": not in the name)
};
struct AxisPoint {
  std::vector<AxisValue> values;
  int id = 0;          // the problem's own index of this point
  bool primary = true; // the point where variants with BlockSweep::Primary sweep block sizes
};

struct Traffic {
  double bytes;           // the bytes the algorithm must move at minimum (reads + writes, once)
  double elements;        // what elements/s counts (n; code points for UTF-8)
  double input_bytes = 0; // when nonzero: an input_GB/s counter (UTF-8)
};

enum class Purpose { Benchmark, Test };

class Instance {
public:
  virtual ~Instance() = default;
  // Device memory its buffers take (inputs, outputs, expected output), exactly.
  virtual std::size_t device_bytes() const = 0;
  // Untimed: host data, and for Target::Gpu the device buffers (uploads finished on return).
  virtual void prepare(Target target) = 0;
  // The query phase of the contract for this variant and block.
  std::size_t temp_bytes(const VariantInfo& v, int block) {
    std::size_t bytes = 0;
    call(v, nullptr, bytes, block, nullptr);
    return bytes;
  }
  // Runs the variant on this instance's buffers (device ones for GPU variants, host ones for CPU).
  void run(const VariantInfo& v, void* temp, std::size_t bytes, int block, cudaStream_t stream) {
    call(v, temp, bytes, block, stream);
  }
  // Fills the outputs with a recognisable pattern (untimed; waits for the fill).
  virtual void poison(Target target) = 0;
  // "" when every element of the output (and count) is right; otherwise the first mismatch. Also
  // reports a modified input.
  virtual std::string check(Target target) = 0;
  virtual Traffic traffic() const = 0;

protected:
  // The variant's function on this instance's buffers, under the contract (temp == nullptr: the
  // query, which sets bytes).
  virtual void call(const VariantInfo& v, void* temp, std::size_t& bytes, int block,
                    cudaStream_t stream) = 0;
};

class Problem {
public:
  virtual ~Problem() = default;
  virtual const char* algorithm() const = 0;
  virtual const char* traffic_model() const = 0; // one line, the same for every variant
  virtual const char* unit() const { return "elements"; }
  virtual std::vector<std::string> axis_names() const { return {}; }
  virtual std::vector<AxisPoint> points() const { return {AxisPoint{}}; }
  virtual const std::vector<VariantInfo>& variants() const = 0;
  // Benchmark rows of this target at this point and size (the study's cost trims); CPU rows also
  // stop at the variant's limits.max_log2.
  virtual bool benchmarked(const AxisPoint&, const SizeCase&, Target) const { return true; }
  // Where variants with BlockSweep::Primary sweep block sizes (elsewhere: default block).
  virtual bool sweeps(const AxisPoint& p, const SizeCase&) const { return p.primary; }
  // Where variants with BlockSweep::Study sweep them: by default the same points.
  virtual bool sweeps_study(const AxisPoint& p, const SizeCase& size) const {
    return sweeps(p, size);
  }
  // Points the tests cover at size n: all of them up to 65536, the primary one above.
  virtual bool tested(const AxisPoint& p, std::size_t n) const { return n <= 65536 || p.primary; }
  virtual std::unique_ptr<Instance> instance(const AxisPoint& point, std::size_t n,
                                             Purpose purpose) const = 0;
};

// What every Problem built on one variant table shares: its name, traffic model, unit and rows.
class TableProblem : public Problem {
public:
  TableProblem(const char* algorithm, const char* traffic_model, std::vector<VariantInfo> variants,
               const char* unit = "elements")
      : algorithm_(algorithm), traffic_model_(traffic_model), unit_(unit),
        variants_(std::move(variants)) {}
  const char* algorithm() const override { return algorithm_; }
  const char* traffic_model() const override { return traffic_model_; }
  const char* unit() const override { return unit_; }
  const std::vector<VariantInfo>& variants() const override { return variants_; }

private:
  const char *algorithm_, *traffic_model_, *unit_;
  std::vector<VariantInfo> variants_;
};

// Every algorithm, in suite order (scan, compact, reduce, sort, ...). Adding an algorithm is one
// line in bench/problems/all.cpp.
const std::vector<const Problem*>& all_problems();
const Problem* find_problem(const std::string& algorithm);

// The variants of `problem` that would run at `size` and `point` with their blocks, as the
// benchmarks register them: block 0 for variants that take none.
struct RowPlan {
  const VariantInfo* variant;
  int block;
};
std::vector<RowPlan> benchmark_rows(const Problem& problem, const AxisPoint& point,
                                    const SizeCase& size);

// "scan" "shared_mem" {} size 256 -> "scan/shared_mem/npot/log2n:24/block:256"
std::string benchmark_name(const Problem& problem, const VariantInfo& v, const AxisPoint& point,
                           const SizeCase& size, int block);

} // namespace gps

namespace gps {

// Runs a CPU table row (host pointers) under the temp-storage contract: query, allocate, run.
template <typename Row, typename... Args> void run_on_host(const Row& row, Args... args) {
  const SetupTrace trace("host reference");
  std::size_t bytes = 0;
  row.run(nullptr, bytes, args..., 0, nullptr);
  std::vector<unsigned char> temp(bytes);
  row.run(temp.data(), bytes, args..., 0, nullptr);
}

// Benchmarks use one fixed seed per algorithm (the published results depend on it); tests use
// another per size.
inline constexpr std::uint64_t kBenchSeed = 42;
inline std::uint64_t data_seed(Purpose purpose, std::size_t n) {
  return purpose == Purpose::Benchmark ? kBenchSeed : 1000 + n;
}

} // namespace gps
