// The variant metadata recorded in the benchmark JSON's context, so that scripts read every row's
// axes and every variant's role and description instead of parsing names (scripts/results.py):
//   gps_metadata_version  "1"
//   gps_suites            ["scan", "compact", ...]                      (suite order)
//   gps_variants          {"scan": {"traffic", "unit", "axes", "variants": [{"name", "target",
//                          "role", "blocks", "default_block", "description"}, ...]}, ...}
//   gps_rows              {"<run_name>": {"algorithm", "variant", "axes": {...}, "facet", "size",
//   "log2n",
//                          "n", "block"}, ...}  keyed by the row's run_name in the JSON
// They are spliced into the --benchmark_out JSON file after the run, as JSON values (Google
// Benchmark's own context holds strings only and its console reporter prints every context entry,
// which would put a megabyte of metadata on the terminal).
#pragma once

#include "problem.hpp"

#include <string>

namespace gps::bench {

// Called for every registered row (the copy rows too, with variant "copy").
void record_row(const std::string& name, const Problem& problem, const std::string& variant,
                const AxisPoint& point, const SizeCase& size, int block);

// Adds the four entries to the "context" object of the JSON file `path`; returns "" or what failed.
std::string add_metadata_to_file(const std::string& path);

} // namespace gps::bench
