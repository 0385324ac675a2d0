// What every algorithm's variant table shares: the row shape, where a variant runs, its role in
// the study, the block sizes it takes, what the benchmarks may trim for cost, and the lookup by
// name. The table is the one source of truth: benchmarks and tests are generated from it and the
// benchmark JSON records it (bench/metadata.cpp), so scripts never hard-code a variant.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace gps {

enum class Target { Cpu, Gpu };

// Why a variant is in the study: reference (the sequential CPU loop every result is checked
// against), baseline (another CPU implementation), study (a step of the GPU course: textbook to
// single-pass), vendor (Thrust/CUB, the anchors). The device-to-device copy, the roofline, is
// registered by the harness for every algorithm.
enum class Role { Reference, Baseline, Study, Vendor };

constexpr const char* target_name(Target t) {
  return t == Target::Cpu ? "cpu" : "gpu";
}
constexpr const char* role_name(Role r) {
  return r == Role::Reference  ? "reference"
         : r == Role::Baseline ? "baseline"
         : r == Role::Study    ? "study"
                               : "vendor";
}

// Block sizes of the variants that take any block size.
inline constexpr int kBlockSizes[] = {64, 128, 256, 512, 1024};
inline std::vector<int> any_block() {
  return {std::begin(kBlockSizes), std::end(kBlockSizes)};
}

// Where a variant's block sweep runs (elsewhere: its default block).
enum class BlockSweep {
  Everywhere, // every axis point and size
  Primary,    // the algorithm's primary axis point (Problem::sweeps)
  Study,      // the wider set the problem names for its study variant (Problem::sweeps_study)
};
// What the benchmarks may leave out to keep a suite's run time in bounds; the study's cost, not
// the variant's correctness (the tests run every block at every edge size).
struct BenchLimits {
  int max_log2 = 30;                         // no benchmark row above 2^max_log2 (slow CPU rows)
  int sweep_max_log2 = 30;                   // block sweep up to here; the default block above it
  BlockSweep sweep = BlockSweep::Everywhere; // at which axis points and sizes
};

// One row of a variant table; Fn is the algorithm's host signature (temp-storage contract first,
// common/temp_storage.hpp).
template <typename Fn> struct Variant {
  const char* name;
  Fn run;
  Target target;
  Role role;
  std::vector<int> blocks;              // block sizes it takes; empty: none
  int default_block;                    // used where no block sweep is made; 0 when none
  std::size_t (*tile_elems)(int block); // elements one block handles (test edge sizes); 0: none
  const char* description;
  BenchLimits limits = {};

  bool takes_block() const { return !blocks.empty(); }
};

// Tile-size functions of the rows: none, one element per thread, two per thread.
inline std::size_t no_tile(int) {
  return 0;
}
inline std::size_t one_per_thread(int block) {
  return static_cast<std::size_t>(block);
}
inline std::size_t two_per_thread(int block) {
  return 2 * static_cast<std::size_t>(block);
}

// The row named `name` in `table`, or nullptr when there is none.
template <typename Row>
const Row* find_by_name(const std::vector<Row>& table, std::string_view name) {
  for (const auto& v : table)
    if (name == v.name)
      return &v;
  return nullptr;
}

} // namespace gps
