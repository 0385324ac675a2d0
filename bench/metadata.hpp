// The variant metadata recorded in the benchmark JSON's context, so that scripts read every row's
// axes and every variant's role and description instead of parsing names (scripts/results.py):
//   gps_metadata_version  "1"
//   gps_suites            ["scan", "compact", ...]                      (suite order)
//   gps_variants          {"scan": {"traffic", "unit", "axes", "variants": [{"name", "target",
//                          "role", "blocks", "default_block", "description"}, ...]}, ...}
//   gps_rows              {"<run_name>": {"algorithm", "variant", "axes": {...}, "facet", "size", "log2n",
//                          "n", "block"}, ...}  keyed by the row's run_name in the JSON
// Each value is a JSON document in a string (Google Benchmark's context holds strings).
#pragma once

#include "problem.hpp"

#include <string>

namespace gps::bench {

// Called for every registered row (the copy rows too, with variant "copy").
void record_row(const std::string& name, const Problem& problem, const std::string& variant,
                const AxisPoint& point, const SizeCase& size, int block);

void add_metadata_context();

} // namespace gps::bench
