// The one list of compaction variants. Adding a variant = one new file, its declaration and its
// row here, and its line in CMakeLists.txt.
#include "compact/compact.hpp"
#include "scan/scan.hpp"

#include <type_traits>

namespace gps::compact {

// The variants (kernels/compact/<file>: cpu.cpp, scan_based.cu, single_pass.cu,
// prefetch_lookback.cu, library.cu) and
// the tile sizes their rows report.
using VariantFunction = std::remove_pointer_t<CompactFn>;
VariantFunction compact_cpu_with_scan, compact_scan_based_work_efficient,
    compact_scan_based_shared_mem, compact_scan_based_decoupled_lookback, compact_single_pass,
    compact_prefetch_lookback, compact_thrust_copy_if, compact_thrust_remove_copy, compact_cub;
std::size_t single_pass_tile(int block);
std::size_t prefetch_tile(int block);

namespace {
// A scan-based row's tile is its scan's tile (the map and scatter kernels have none).
template <const char* SCAN> std::size_t scan_tile(int block) {
  return scan::find_variant(SCAN)->tile_elems(block);
}
constexpr char kWorkEfficient[] = "work_efficient";
constexpr char kSharedMem[] = "shared_mem";
constexpr char kDecoupledLookback[] = "decoupled_lookback";

// The benchmarks' trimming (common/variant_table.hpp): the sequential CPU rows stop at 2^26; the
// scan-based rows sweep the block size at the primary kept fraction only (their block only
// changes the inner scan, which the scan study sweeps), the global-memory one up to 2^26.
constexpr BenchLimits kCpuLimits{26};
constexpr BenchLimits kScanBasedLimits{30, 30, BlockSweep::Primary};
constexpr BenchLimits kScanBasedSlowLimits{30, 26, BlockSweep::Primary};
} // namespace

const std::vector<Variant>& variants() {
  static const std::vector<Variant> table = {
      {"cpu_no_scan",
       compact_cpu_no_scan,
       Target::Cpu,
       Role::Reference,
       {},
       0,
       no_tile,
       "sequential loop with a write index: the reference",
       kCpuLimits},
      {"cpu_with_scan",
       compact_cpu_with_scan,
       Target::Cpu,
       Role::Baseline,
       {},
       0,
       no_tile,
       "map to 0/1, sequential exclusive scan, scatter: the GPU algorithm on one CPU core",
       kCpuLimits},
      {"scan_based_work_efficient", compact_scan_based_work_efficient, Target::Gpu, Role::Study,
       any_block(), 256, scan_tile<kWorkEfficient>,
       "map -> scan/work_efficient (global-memory Blelloch) -> scatter", kScanBasedSlowLimits},
      {"scan_based_shared_mem", compact_scan_based_shared_mem, Target::Gpu, Role::Study,
       any_block(), 256, scan_tile<kSharedMem>,
       "map -> scan/shared_mem (shared-memory Blelloch, multi-level) -> scatter", kScanBasedLimits},
      {"scan_based_decoupled_lookback", compact_scan_based_decoupled_lookback, Target::Gpu,
       Role::Study, any_block(), 256, scan_tile<kDecoupledLookback>,
       "map -> scan/decoupled_lookback (single-pass scan) -> scatter", kScanBasedLimits},
      {"single_pass", compact_single_pass, Target::Gpu, Role::Study, any_block(), 512,
       single_pass_tile,
       "one fused kernel: tile counts, decoupled look-back for the offset, staged coalesced "
       "writes"},
      {"prefetch_lookback", compact_prefetch_lookback, Target::Gpu, Role::Study, any_block(), 512,
       prefetch_tile,
       "single_pass on persistent blocks, tiles prefetched into shared memory by bulk copies, "
       "counts published a tile ahead, a look-back warp without data, packed-scan ranks, 16-byte "
       "stores (sm_90+)"},
      {"thrust_copy_if",
       compact_thrust_copy_if,
       Target::Gpu,
       Role::Vendor,
       {},
       0,
       no_tile,
       "thrust::copy_if with a nonzero predicate (vendor anchor; syncs for the count)"},
      {"thrust_remove_copy",
       compact_thrust_remove_copy,
       Target::Gpu,
       Role::Vendor,
       {},
       0,
       no_tile,
       "thrust::remove_copy of the zeros (vendor anchor; syncs for the count)"},
      {"cub",
       compact_cub,
       Target::Gpu,
       Role::Vendor,
       {},
       0,
       no_tile,
       "cub::DeviceSelect::If with a nonzero predicate (vendor anchor)"},
  };
  return table;
}

const Variant* find_variant(std::string_view name) {
  return find_by_name(variants(), name);
}

} // namespace gps::compact
