#include "metadata.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace gps::bench {
namespace {

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\u%04x", c);
      out += esc;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string& rows_json() {
  static std::string json;
  return json;
}

std::string variant_json(const std::string& name, const char* target, const char* role,
                         const std::vector<int>& blocks, int default_block,
                         const std::string& description) {
  std::string blocks_json = "[";
  for (std::size_t i = 0; i < blocks.size(); ++i)
    blocks_json += (i ? "," : "") + std::to_string(blocks[i]);
  blocks_json += "]";
  return "{\"name\":" + quote(name) + ",\"target\":" + quote(target) + ",\"role\":" + quote(role) +
         ",\"blocks\":" + blocks_json + ",\"default_block\":" + std::to_string(default_block) +
         ",\"description\":" + quote(description) + "}";
}

} // namespace

void record_row(const std::string& name, const Problem& problem, const std::string& variant,
                const AxisPoint& point, const SizeCase& size, int block) {
  std::string axes = "{";
  for (std::size_t i = 0; i < point.values.size(); ++i)
    axes += (i ? "," : "") + quote(point.values[i].axis) + ":" + quote(point.values[i].value);
  axes += "}";
  std::string facet;
  for (const auto& value : point.values)
    if (!value.segment.empty())
      facet += (facet.empty() ? "" : "/") + value.segment;
  std::string& json = rows_json();
  json += json.empty() ? "{" : ",";
  // Google Benchmark appends /manual_time to the names of manually timed rows
  json += quote(name + "/manual_time") + ":{\"algorithm\":" + quote(problem.algorithm()) +
          ",\"variant\":" + quote(variant) + ",\"axes\":" + axes + ",\"facet\":" + quote(facet) +
          ",\"size\":" + quote(size.pot ? "pot" : "npot") +
          ",\"log2n\":" + std::to_string(size.log2n) + ",\"n\":" + std::to_string(size.n) +
          ",\"block\":" + std::to_string(block) + "}";
}

std::string add_metadata_to_file(const std::string& path) {
  std::string suites = "[", variants = "{";
  bool first = true;
  for (const Problem* p : all_problems()) {
    suites += (first ? "" : ",") + quote(p->algorithm());
    std::string axes = "[";
    const auto names = p->axis_names();
    for (std::size_t i = 0; i < names.size(); ++i)
      axes += (i ? "," : "") + quote(names[i]);
    axes += "]";
    std::string list = "[" + variant_json("copy", "gpu", "roofline", {}, 0,
                                          "cudaMemcpyAsync device to device of n int32: the "
                                          "physical limit (8n bytes moved)");
    for (const VariantInfo& v : p->variants())
      list += "," + variant_json(v.name, target_name(v.target), role_name(v.role), v.blocks,
                                 v.default_block, v.description);
    list += "]";
    variants += (first ? "" : ",") + quote(p->algorithm()) +
                ":{\"traffic\":" + quote(p->traffic_model()) + ",\"unit\":" + quote(p->unit()) +
                ",\"axes\":" + axes + ",\"variants\":" + list + "}";
    first = false;
  }
  const std::string& rows = rows_json();
  const std::string members =
      "\n    \"gps_metadata_version\": \"1\",\n    \"gps_suites\": " + suites +
      "],\n    \"gps_variants\": " + variants +
      "},\n    \"gps_rows\": " + (rows.empty() ? "{}" : rows + "}") + ",";

  std::ifstream in(path, std::ios::binary);
  if (!in)
    return "cannot read " + path;
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  const std::string key = "\"context\": {";
  const std::size_t at = text.find(key);
  if (at == std::string::npos)
    return path + " has no \"context\" object";
  text.insert(at + key.size(), members);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out)
      return "cannot write " + tmp;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    return "cannot replace " + path;
  return "";
}

} // namespace gps::bench
