// Host-side pieces shared by the multi-pass GPU sorts: which buffers a pass reads and writes, the
// keys-only / key-value dispatch, and the driver of the scan-based sorts (split_1bit,
// block_local_4bit), which call an in-house scan variant by name.
#pragma once

#include "common/temp_storage.hpp"
#include "scan/scan.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace gps::sort::detail {

// The keys (and values) one pass reads and writes. Out-of-place sorts ping-pong between the output
// and a temporary of n elements: pass 0 reads the input, and the destinations alternate so that the
// last pass writes the output (the input is never written). vals are nullptr for keys only.
struct PassBuffers {
  const unsigned* keys_src;
  unsigned* keys_dst;
  const unsigned* vals_src;
  unsigned* vals_dst;
};

inline PassBuffers pass_buffers(int pass, int passes, const unsigned* keys_in, unsigned* keys_out,
                                unsigned* keys_tmp, const unsigned* vals_in, unsigned* vals_out,
                                unsigned* vals_tmp) {
  const bool to_out = (passes - 1 - pass) % 2 == 0;
  PassBuffers b;
  b.keys_dst = to_out ? keys_out : keys_tmp;
  b.keys_src = pass == 0 ? keys_in : (to_out ? keys_tmp : keys_out); // what pass - 1 wrote
  b.vals_dst = vals_in ? (to_out ? vals_out : vals_tmp) : nullptr;
  b.vals_src = vals_in ? (pass == 0 ? vals_in : (to_out ? vals_tmp : vals_out)) : nullptr;
  return b;
}

// Calls f(std::true_type{}) to sort key-value pairs (vals_in given), f(std::false_type{}) to sort
// keys only: the kernels take PAIRS as a template parameter, written once as
//   with_pairs(vals_in, [&](auto pairs) { kernel<BLOCK, decltype(pairs)::value><<<...>>>(...); });
template <typename F> void with_pairs(const unsigned* vals_in, F&& f) {
  if (vals_in)
    f(std::true_type{});
  else
    f(std::false_type{});
}

// The GPU scan variant called `name` (gps::scan table); throws when there is none.
inline const scan::Variant& gpu_scan(std::string_view name) {
  const scan::Variant* v = scan::find_variant(name);
  if (!v || v->target != Target::Gpu)
    throw std::invalid_argument("sort: no GPU scan variant named '" + std::string(name) + "'");
  return *v;
}

// The driver of the scan-based sorts. Each of the `passes` passes runs
//   count(buffers, pass, table)                     a kernel writing `table_elems` ints,
//   scan.run(table -> offsets)                       the in-house exclusive scan, by name,
//   scatter(buffers, pass, table, offsets, pairs)    a kernel moving the keys (and values),
// with `pairs` std::true_type or std::false_type (with_pairs). Temporary storage (two-phase
// contract): the ping-pong keys (and values), the table and its scan, and the scan's own storage,
// which the scan sizes for itself. The caller has handled n == 0.
template <typename Count, typename Scatter>
void scan_based_sort(void* temp, std::size_t& temp_bytes, const scan::Variant& scan, int passes,
                     std::size_t table_elems, const unsigned* keys_in, unsigned* keys_out,
                     const unsigned* vals_in, unsigned* vals_out, std::size_t n, int block,
                     cudaStream_t stream, const Count& count, const Scatter& scatter) {
  TempLayout layout(temp);
  unsigned* keys_tmp = layout.take<unsigned>(n);
  unsigned* vals_tmp = layout.take<unsigned>(vals_in ? n : 0);
  int* table = layout.take<int>(table_elems);
  int* offsets = layout.take<int>(table_elems);
  std::size_t scan_bytes = 0;
  scan.run(nullptr, scan_bytes, nullptr, nullptr, table_elems, block, stream);
  void* scan_temp = layout.take_bytes(scan_bytes); // the scan's buffers must not alias ours
  if (layout.sized(temp_bytes))
    return;

  for (int pass = 0; pass < passes; ++pass) {
    const PassBuffers p =
        pass_buffers(pass, passes, keys_in, keys_out, keys_tmp, vals_in, vals_out, vals_tmp);
    count(p, pass, table);
    scan.run(scan_temp, scan_bytes, table, offsets, table_elems, block, stream);
    with_pairs(vals_in, [&](auto pairs) { scatter(p, pass, table, offsets, pairs); });
  }
}

} // namespace gps::sort::detail
