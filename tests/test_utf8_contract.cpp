// UTF-8 tests (the overview: test_utf8.cpp), part 4: the variant tables (names, roles, blocks)
// and the contract's argument checks, without a GPU.
#include "utf8_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gps::utf8 {
namespace {

using namespace test_support;

// ---- 4. tables and the contract
// ---------------------------------------------------------------------

template <typename Row>
void check_table(const std::vector<Row>& table, const Row* (*find)(std::string_view),
                 const std::vector<int>& single_pass_blocks) {
  const std::vector<std::string> want = {"cpu", "cpu_parallel", "iconv", "scan_based",
                                         "single_pass"};
  ASSERT_EQ(table.size(), want.size());
  std::set<std::string> names;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const Row& row = table[i];
    EXPECT_EQ(row.name, want[i]);
    EXPECT_TRUE(names.insert(row.name).second);
    EXPECT_EQ(find(row.name), &row);
    EXPECT_STRNE(row.description, "");
    const bool gpu = row.target == Target::Gpu;
    EXPECT_EQ(gpu, i >= 3);
    EXPECT_EQ(row.role, i == 0   ? Role::Reference
                        : i == 1 ? Role::Baseline
                        : i == 2 ? Role::Vendor
                                 : Role::Study);
    if (gpu) {
      const bool single_pass = std::string_view(row.name) == "single_pass";
      EXPECT_EQ(row.blocks, single_pass ? single_pass_blocks : any_block());
      EXPECT_EQ(row.default_block, 256);
      EXPECT_NE(std::find(row.blocks.begin(), row.blocks.end(), row.default_block),
                row.blocks.end());
      for (int block : row.blocks)
        EXPECT_GT(row.tile_elems(block), 0u);
    } else {
      EXPECT_TRUE(row.blocks.empty());
    }
  }
  EXPECT_EQ(find("no_such_variant"), nullptr);
}

TEST(Utf8Tables, NamesRolesBlocks) {
  // the single_pass rows also take 384 threads (utf8.hpp)
  const std::vector<int> single_pass = {64, 128, 256, 384, 512, 1024};
  EXPECT_EQ(single_pass_blocks(), single_pass);
  check_table(decode_variants(), find_decode, single_pass);
  check_table(validate_variants(), find_validate, single_pass);
  check_table(encode_variants(), find_encode, single_pass);
}

// What the query phase of a GPU row refuses, without touching any pointer or the GPU.
template <typename F> void expect_refused(F&& call, const std::string& needle) {
  try {
    call();
    ADD_FAILURE() << "not refused (wanted a message with \"" << needle << "\")";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(Utf8Contract, GpuRowsRefuseSizesBeyondTheirOffsetsAndBadBlocks) {
  const std::size_t too_many_bytes = std::size_t{1} << 32;
  for (const char* name : {"scan_based", "single_pass"}) {
    SCOPED_TRACE(name);
    std::size_t bytes = 0;
    expect_refused(
        [&] {
          find_decode(name)->run(nullptr, bytes, nullptr, too_many_bytes, nullptr, nullptr, 256,
                                 nullptr);
        },
        "2^32");
    expect_refused(
        [&] {
          find_validate(name)->run(nullptr, bytes, nullptr, too_many_bytes, nullptr, 256, nullptr);
        },
        "2^32");
    expect_refused(
        [&] {
          find_encode(name)->run(nullptr, bytes, nullptr, std::size_t{1} << 30, nullptr, nullptr,
                                 256, nullptr);
        },
        "2^30");
    expect_refused(
        [&] {
          find_decode(name)->run(nullptr, bytes, nullptr, 100, nullptr, nullptr, 100, nullptr);
        },
        "block");
    // the largest sizes they take: a query that answers
    bytes = 0;
    find_decode(name)->run(nullptr, bytes, nullptr, too_many_bytes - 1, nullptr, nullptr, 1024,
                           nullptr);
    EXPECT_GT(bytes, 0u);
    bytes = 0;
    find_encode(name)->run(nullptr, bytes, nullptr, (std::size_t{1} << 30) - 1, nullptr, nullptr,
                           64, nullptr);
    EXPECT_GT(bytes, 0u);
  }
}

TEST(Utf8Contract, RowsRefuseTooLittleStorageAndNullPointers) {
  unsigned char small[1];
  for (const auto& row : decode_variants()) {
    SCOPED_TRACE(row.name);
    const int block = row.takes_block() ? row.default_block : 0;
    std::size_t need = 0;
    row.run(nullptr, need, nullptr, 1 << 20, nullptr, nullptr, block, nullptr);
    if (need > 1) {
      std::size_t have = 1;
      expect_refused(
          [&] { row.run(small, have, nullptr, 1 << 20, nullptr, nullptr, block, nullptr); },
          "temporary storage too small");
    }
    if (row.target == Target::Cpu) {
      std::vector<unsigned char> temp(need);
      expect_refused(
          [&] { row.run(temp.data(), need, nullptr, 10, nullptr, nullptr, block, nullptr); },
          "null");
    }
  }
}

// A uint32 pointer that is not 4-byte aligned, refused in the run phase before any GPU work.
TEST(Utf8Contract, GpuRowsRefuseMisalignedCodePointPointers) {
  alignas(16) unsigned char buffer[64] = {};
  for (const char* name : {"scan_based", "single_pass"}) {
    SCOPED_TRACE(name);
    std::size_t need = 0;
    find_decode(name)->run(nullptr, need, nullptr, 8, nullptr, nullptr, 256, nullptr);
    std::vector<unsigned char> temp(need);
    unsigned long long count = 0;
    expect_refused(
        [&] {
          find_decode(name)->run(temp.data(), need, buffer, 8,
                                 reinterpret_cast<std::uint32_t*>(buffer + 2), &count, 256,
                                 nullptr);
        },
        "4-byte aligned output");
    need = 0;
    find_encode(name)->run(nullptr, need, nullptr, 8, nullptr, nullptr, 256, nullptr);
    temp.resize(need);
    expect_refused(
        [&] {
          find_encode(name)->run(temp.data(), need,
                                 reinterpret_cast<const std::uint32_t*>(buffer + 1), 8, buffer + 40,
                                 &count, 256, nullptr);
        },
        "4-byte aligned input");
  }
}

TEST(Utf8Contract, CpuRowsTakeEmptyInput) {
  for (const auto& row : decode_variants()) {
    if (row.target != Target::Cpu)
      continue;
    EXPECT_TRUE(run_rows<DecodeOp>(row, 0, Bytes{}).at(0).empty()) << row.name;
  }
  for (const auto& row : validate_variants()) {
    if (row.target != Target::Cpu)
      continue;
    EXPECT_EQ(run_validate(row, 0, Bytes{}).at(0), -1) << row.name;
  }
}

} // namespace
} // namespace gps::utf8
