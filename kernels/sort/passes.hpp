// Host-side pieces shared by the multi-pass GPU sorts: which buffers a pass reads and writes, and
// the in-house scan a variant calls by name.
#pragma once

#include "scan/scan.hpp"

#include <stdexcept>
#include <string>
#include <string_view>

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

// The GPU scan variant called `name` (gps::scan table); throws when there is none.
inline const scan::Variant& gpu_scan(std::string_view name) {
  const scan::Variant* v = scan::find_variant(name);
  if (!v || v->target != scan::Target::Gpu)
    throw std::invalid_argument("sort: no GPU scan variant named '" + std::string(name) + "'");
  return *v;
}

} // namespace gps::sort::detail
