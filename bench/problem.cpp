#include "problem.hpp"

#include <algorithm>

namespace gps {

std::string SizeCase::label() const {
  return std::string(pot ? "pot" : "npot") + "/log2n:" + std::to_string(log2n);
}

std::vector<SizeCase> size_cases() {
  std::vector<SizeCase> cases;
  for (int k = kMinLog2; k <= kMaxLog2; ++k) {
    const std::size_t pot = std::size_t{1} << k;
    cases.push_back({k, true, pot});
    cases.push_back({k, false, pot - 3});
  }
  return cases;
}

const Problem* find_problem(const std::string& algorithm) {
  for (const Problem* p : all_problems())
    if (algorithm == p->algorithm())
      return p;
  return nullptr;
}

namespace {
bool sweeps_here(const Problem& problem, const VariantInfo& v, const AxisPoint& point,
                 const SizeCase& size) {
  switch (v.limits.sweep) {
  case BlockSweep::Everywhere:
    return true;
  case BlockSweep::Primary:
    return problem.sweeps(point, size);
  case BlockSweep::Study:
    return problem.sweeps_study(point, size);
  }
  return true;
}
} // namespace

std::vector<RowPlan> benchmark_rows(const Problem& problem, const AxisPoint& point,
                                    const SizeCase& size) {
  std::vector<RowPlan> rows;
  for (const VariantInfo& v : problem.variants()) {
    if (size.log2n > v.limits.max_log2 || !problem.benchmarked(point, size, v.target))
      continue;
    if (v.blocks.empty()) {
      rows.push_back({&v, 0});
      continue;
    }
    const bool sweep =
        size.log2n <= v.limits.sweep_max_log2 && sweeps_here(problem, v, point, size);
    for (int block : v.blocks)
      if (sweep || block == v.default_block)
        rows.push_back({&v, block});
  }
  return rows;
}

std::string benchmark_name(const Problem& problem, const VariantInfo& v, const AxisPoint& point,
                           const SizeCase& size, int block) {
  std::string name = std::string(problem.algorithm()) + "/" + v.name;
  for (const auto& value : point.values)
    if (!value.segment.empty()) // an axis at its default value can stay out of the name
      name += "/" + value.segment;
  name += "/" + size.label();
  if (block > 0)
    name += "/block:" + std::to_string(block);
  return name;
}

} // namespace gps
