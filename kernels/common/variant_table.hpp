// What every algorithm's variant table shares: where a variant runs, the block sizes the
// benchmarks and tests sweep, the row shape of the tables whose variants differ only in their
// function, and the lookup by name.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace gps {

enum class Target { Cpu, Gpu };

// Block sizes of the variants that take any block size.
inline constexpr int kBlockSizes[] = {64, 128, 256, 512, 1024};

// One row of a variant table (scan, compact, reduce): Fn is the algorithm's host signature.
template <typename Fn> struct BlockVariant {
  const char* name;
  Fn run;
  Target target;
  bool takes_block;                     // registered for every block size in kBlockSizes
  std::size_t (*tile_elems)(int block); // elements one block handles (edge sizes for the tests)
  const char* description;
};

// The row named `name` in `table`, or nullptr when there is none.
template <typename Variant>
const Variant* find_by_name(const std::vector<Variant>& table, std::string_view name) {
  for (const auto& v : table)
    if (name == v.name) return &v;
  return nullptr;
}

} // namespace gps
