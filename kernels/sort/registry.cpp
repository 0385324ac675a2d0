// The one list of sort variants. Adding a variant = one new file + one row here.
#include "sort/sort.hpp"

#include <iterator>

namespace gps::sort {
namespace {
std::size_t no_tile(int) { return 0; }
std::size_t one_per_thread(int block) { return static_cast<std::size_t>(block); }
const std::vector<int> kAnyBlock(std::begin(kBlockSizes), std::end(kBlockSizes));
} // namespace

const std::vector<Variant>& variants() {
  static const std::vector<Variant> table = {
      {"cpu_std_sort", sort_cpu_std, Target::Cpu, {}, 0, no_tile, 1,
       "std::sort (keys), std::stable_sort by key (pairs): the comparison-sort baseline"},
      {"cpu_radix", sort_cpu_radix, Target::Cpu, {}, 0, no_tile, 4,
       "multi-threaded LSD radix sort, 8-bit digits, 4 passes (chunk histograms, scatter)"},
      {"split_1bit", sort_split_1bit, Target::Gpu, kAnyBlock, 256, one_per_thread, 32,
       "one split per bit: flag, in-house exclusive scan, scatter; 32 passes"},
      {"block_local_4bit", sort_block_local_4bit, Target::Gpu, kAnyBlock, 256,
       block_local_4bit_tile, 8,
       "4-bit digits: tile histograms, scan in digit-major order, shared-memory local sort and "
       "scatter; 8 passes"},
      {"onesweep", sort_onesweep, Target::Gpu, {256, 512}, 512, onesweep_tile, 4,
       "8-bit digits: one histogram pass, then per pass warp-multisplit ranking, per-digit "
       "decoupled look-back and a shared-memory staged scatter; 4 passes"},
      // thrust sorts in place: the copy of the input into the output is a fifth pass
      {"thrust", sort_thrust, Target::Gpu, {}, 0, no_tile, 5,
       "copy + thrust::sort / thrust::stable_sort_by_key (vendor anchor)"},
      {"cub", sort_cub, Target::Gpu, {}, 0, no_tile, 4,
       "cub::DeviceRadixSort::SortKeys / SortPairs (vendor anchor)"},
  };
  return table;
}

const Variant* find_variant(std::string_view name) { return find_by_name(variants(), name); }

} // namespace gps::sort
