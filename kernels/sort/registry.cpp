// The one list of sort variants. Adding a variant = one new file, its declaration and its row
// here, and its line in CMakeLists.txt.
#include "sort/sort.hpp"

#include <type_traits>

namespace gps::sort {

// The variants, one per file (kernels/sort/<name>.cu; cpu.cpp holds two).
using VariantFunction = std::remove_pointer_t<SortFn>;
VariantFunction sort_cpu_std, sort_cpu_radix, sort_split_1bit, sort_block_local_4bit, sort_onesweep,
    sort_thrust, sort_cub;

namespace {

// What the benchmarks may trim for time (the tests run every block at every edge size).
constexpr BenchLimits kStdSortLimits = {24};  // the comparison sort: slow above 2^24
constexpr BenchLimits kCpuRadixLimits = {28}; // the CPU radix sort: up to 2^28
// the multi-pass sorts: block sweep to 2^26, uniform uint32 keys at pot sizes
constexpr BenchLimits kScanBasedLimits = {30, 26, BlockSweep::Primary};
// onesweep: block sweep at every keys point at pot sizes (sort_problem.cpp's sweeps_study)
constexpr BenchLimits kOnesweepLimits = {30, 30, BlockSweep::Study};
} // namespace

const std::vector<Variant>& variants() {
  static const std::vector<Variant> table = {
      {"cpu_std_sort",
       sort_cpu_std,
       Target::Cpu,
       Role::Reference,
       {},
       0,
       no_tile,
       "std::sort (keys), std::stable_sort by key (pairs): the comparison-sort baseline",
       kStdSortLimits},
      {"cpu_radix",
       sort_cpu_radix,
       Target::Cpu,
       Role::Baseline,
       {},
       0,
       no_tile,
       "multi-threaded LSD radix sort, 8-bit digits, 4 passes (chunk histograms, scatter)",
       kCpuRadixLimits},
      {"split_1bit", sort_split_1bit, Target::Gpu, Role::Study, any_block(), 256, one_per_thread,
       "one split per bit: flag, in-house exclusive scan, scatter; 32 passes", kScanBasedLimits},
      {"block_local_4bit", sort_block_local_4bit, Target::Gpu, Role::Study, any_block(), 256,
       block_local_4bit_tile,
       "4-bit digits: tile histograms, scan in digit-major order, shared-memory local sort and "
       "scatter; 8 passes",
       kScanBasedLimits},
      {"onesweep",
       sort_onesweep,
       Target::Gpu,
       Role::Study,
       {256, 384},
       384,
       onesweep_tile,
       "8-bit digits: one histogram pass, then per pass warp-multisplit ranking, per-digit "
       "decoupled look-back and a shared-memory staged scatter; 4 passes",
       kOnesweepLimits},
      {"thrust",
       sort_thrust,
       Target::Gpu,
       Role::Vendor,
       {},
       0,
       no_tile,
       "copy + thrust::sort / thrust::stable_sort_by_key (vendor anchor)"},
      {"cub",
       sort_cub,
       Target::Gpu,
       Role::Vendor,
       {},
       0,
       no_tile,
       "cub::DeviceRadixSort::SortKeys / SortPairs (vendor anchor)"},
  };
  return table;
}

const Variant* find_variant(std::string_view name) {
  return find_by_name(variants(), name);
}

} // namespace gps::sort
