// The one list of compaction variants. Adding a variant = one new file + one row here.
#include "compact/compact.hpp"
#include "scan/scan.hpp"

namespace gps::compact {
namespace {
std::size_t no_tile(int) { return 0; }
// A scan-based row's tile is its scan's tile (the map and scatter kernels have none).
template <const char* SCAN> std::size_t scan_tile(int block) {
  return scan::find_variant(SCAN)->tile_elems(block);
}
constexpr char kWorkEfficient[] = "work_efficient";
constexpr char kSharedMem[] = "shared_mem";
constexpr char kDecoupledLookback[] = "decoupled_lookback";
} // namespace

const std::vector<Variant>& variants() {
  static const std::vector<Variant> table = {
      {"cpu_no_scan", compact_cpu_no_scan, Target::Cpu, false, no_tile,
       "sequential loop with a write index: the reference"},
      {"cpu_with_scan", compact_cpu_with_scan, Target::Cpu, false, no_tile,
       "map to 0/1, sequential exclusive scan, scatter: the GPU algorithm on one CPU core"},
      {"scan_based_work_efficient", compact_scan_based_work_efficient, Target::Gpu, true,
       scan_tile<kWorkEfficient>, "map -> scan/work_efficient (global-memory Blelloch) -> scatter"},
      {"scan_based_shared_mem", compact_scan_based_shared_mem, Target::Gpu, true, scan_tile<kSharedMem>,
       "map -> scan/shared_mem (shared-memory Blelloch, multi-level) -> scatter"},
      {"scan_based_decoupled_lookback", compact_scan_based_decoupled_lookback, Target::Gpu, true,
       scan_tile<kDecoupledLookback>,
       "map -> scan/decoupled_lookback (single-pass scan) -> scatter"},
      {"single_pass", compact_single_pass, Target::Gpu, true, single_pass_tile,
       "one fused kernel: tile counts, decoupled look-back for the offset, staged coalesced "
       "writes"},
      {"thrust_copy_if", compact_thrust_copy_if, Target::Gpu, false, no_tile,
       "thrust::copy_if with a nonzero predicate (vendor anchor; syncs for the count)"},
      {"thrust_remove_copy", compact_thrust_remove_copy, Target::Gpu, false, no_tile,
       "thrust::remove_copy of the zeros (vendor anchor; syncs for the count)"},
      {"cub", compact_cub, Target::Gpu, false, no_tile,
       "cub::DeviceSelect::If with a nonzero predicate (vendor anchor)"},
  };
  return table;
}

const Variant* find_variant(std::string_view name) { return find_by_name(variants(), name); }

} // namespace gps::compact
