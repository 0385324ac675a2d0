// Shared by the UTF-8 test files (test_utf8*.cpp): the generators' text as vectors, the
// references, element-wise comparison, and the runner that calls any row of the three
// operations on the host or the device (outputs poisoned, GPU rows run twice on the same
// temporary storage, bytes past the count checked untouched).
#pragma once

#include "common/cuda_check.hpp"
#include "utf8/utf8.hpp"
#include "utf8_text.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace gps::utf8::test_support {

using gps::testing::max_test_n; // GPS_TEST_MAX_N (test_support.hpp)

using Bytes = std::vector<unsigned char>;
using CodePoints = std::vector<std::uint32_t>;

// the generators' text as plain vectors (they return HostVector, the benchmarks' host arrays)
inline Bytes text_bytes(std::size_t n, TextMix mix, std::uint64_t seed) {
  const auto v = utf8_text(n, mix, seed);
  return Bytes(v.begin(), v.end());
}
inline CodePoints text_points(std::size_t n, TextMix mix, std::uint64_t seed) {
  const auto v = utf32_text(n, mix, seed);
  return CodePoints(v.begin(), v.end());
}

// ---- helpers
// -------------------------------------------------------------------------------------

inline std::uint64_t fnv1a(const unsigned char* p, std::size_t n) {
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (std::size_t i = 0; i < n; ++i)
    h = (h ^ p[i]) * 0x100000001B3ull;
  return h;
}
inline std::uint64_t fnv1a(const CodePoints& cps) {
  Bytes packed(4 * cps.size());
  for (std::size_t i = 0; i < cps.size(); ++i)
    for (int b = 0; b < 4; ++b)
      packed[4 * i + b] = static_cast<unsigned char>(cps[i] >> (8 * b));
  return fnv1a(packed.data(), packed.size());
}

inline std::string hex(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%X", v);
  return buf;
}

// Compares every element; on failure: how many differ, the first few, and the lengths.
template <typename T>
::testing::AssertionResult same(const std::vector<T>& got, const std::vector<T>& want) {
  std::size_t bad = 0;
  std::string first;
  const std::size_t common = std::min(got.size(), want.size());
  for (std::size_t i = 0; i < common; ++i) {
    if (got[i] == want[i])
      continue;
    if (++bad <= 4)
      first += " [" + std::to_string(i) + "] " + hex(got[i]) + " != " + hex(want[i]);
  }
  if (bad == 0 && got.size() == want.size())
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "length " << got.size() << " (want " << want.size() << "), " << bad << " of the first "
         << common << " differ:" << first;
}

// The references. `call(temp, bytes)` runs a CPU entry point twice: the size query with no
// temporary storage, then the run with storage of the size it asked for.
template <class Call> inline void with_temp_storage(Call call) {
  std::size_t bytes = 0;
  call(nullptr, bytes);
  Bytes temp(bytes);
  call(temp.data(), bytes);
}
inline CodePoints reference_decode(const Bytes& in) {
  CodePoints out(in.size());
  unsigned long long count = 0;
  with_temp_storage([&](void* temp, std::size_t& bytes) {
    decode_cpu(temp, bytes, in.data(), in.size(), out.data(), &count, 0, nullptr);
  });
  out.resize(count);
  return out;
}
inline long long reference_first_error(const Bytes& in) {
  long long first = -2;
  with_temp_storage([&](void* temp, std::size_t& bytes) {
    validate_cpu(temp, bytes, in.data(), in.size(), &first, 0, nullptr);
  });
  return first;
}
inline Bytes reference_encode(const CodePoints& in) {
  Bytes out(4 * in.size());
  unsigned long long count = 0;
  with_temp_storage([&](void* temp, std::size_t& bytes) {
    encode_cpu(temp, bytes, in.data(), in.size(), out.data(), &count, 0, nullptr);
  });
  out.resize(count);
  return out;
}

// ---- running any row, on the host or the device
// --------------------------------------------------

constexpr unsigned char kPoison = 0xAB;
constexpr std::size_t kSlack = 64; // bytes past every output that must stay poisoned

class DeviceMemory {
public:
  explicit DeviceMemory(std::size_t bytes) {
    CUDA_CHECK(cudaMalloc(&p_, std::max<std::size_t>(bytes, 1)));
  }
  ~DeviceMemory() { cudaFree(p_); }
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  unsigned char* get() const { return static_cast<unsigned char*>(p_); }

private:
  void* p_ = nullptr;
};

class Stream {
public:
  Stream() { CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(s_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }

private:
  cudaStream_t s_ = nullptr;
};

// Host -> device copies and fills of the GPU cases, each waited for before it returns. They run on
// the legacy default stream, and the rows run on a non-blocking Stream, which the legacy stream
// does not order against; a pageable cudaMemcpy may also return before its DMA lands. Without the
// wait a row can read its input before it arrives, and a poison fill can land after the row has
// written its results: the first H100 run reported results "never written", mostly in the first
// run after a large upload (bench/buffers.hpp waits for the same reason).
inline void upload(void* d, const void* h, std::size_t bytes) {
  if (bytes)
    CUDA_CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaDeviceSynchronize());
}
inline void fill(void* d, int value, std::size_t bytes) {
  CUDA_CHECK(cudaMemset(d, value, bytes));
  CUDA_CHECK(cudaDeviceSynchronize());
}

// Where the buffers start, in bytes past a 256-byte aligned allocation.
struct Placement {
  std::size_t in = 0;
  std::size_t out = 0;
};

// One operation as the runner sees it: input element and output element types, capacity, and how
// to call its row. Result: the output up to the count (decode, encode) or the first error.
struct DecodeOp {
  using Row = DecodeVariant;
  using In = unsigned char;
  using Out = std::uint32_t;
  static std::size_t capacity(std::size_t n) { return n; }
  static void call(const Row& row, void* temp, std::size_t& temp_bytes, const In* in, std::size_t n,
                   Out* out, unsigned long long* count, int block, cudaStream_t stream) {
    row.run(temp, temp_bytes, in, n, out, count, block, stream);
  }
};
struct EncodeOp {
  using Row = EncodeVariant;
  using In = std::uint32_t;
  using Out = unsigned char;
  static std::size_t capacity(std::size_t n) { return 4 * n; }
  static void call(const Row& row, void* temp, std::size_t& temp_bytes, const In* in, std::size_t n,
                   Out* out, unsigned long long* count, int block, cudaStream_t stream) {
    row.run(temp, temp_bytes, in, n, out, count, block, stream);
  }
};

// Runs `row` on `in` (GPU rows twice on the same temporary storage); returns each run's output.
// Outputs and the count are poisoned before each run; the bytes past the count are checked
// untouched.
template <typename Op>
std::vector<std::vector<typename Op::Out>> run_rows(const typename Op::Row& row, int block,
                                                    const std::vector<typename Op::In>& in,
                                                    Placement at = {}) {
  using In = typename Op::In;
  using Out = typename Op::Out;
  const std::size_t n = in.size();
  const std::size_t out_bytes = Op::capacity(n) * sizeof(Out);
  std::size_t temp_bytes = 0;
  Op::call(row, nullptr, temp_bytes, nullptr, n, nullptr, nullptr, block, nullptr);
  std::vector<std::vector<Out>> results;
  if (row.target == Target::Cpu) {
    std::vector<unsigned char> temp(temp_bytes), in_buf(at.in + n * sizeof(In) + 1),
        out_buf(at.out + out_bytes + kSlack, kPoison);
    std::memcpy(in_buf.data() + at.in, in.data(), n * sizeof(In));
    unsigned long long count = ~0ull;
    Op::call(row, temp.data(), temp_bytes, reinterpret_cast<const In*>(in_buf.data() + at.in), n,
             reinterpret_cast<Out*>(out_buf.data() + at.out), &count, block, nullptr);
    EXPECT_LE(count, Op::capacity(n));
    count = std::min<unsigned long long>(count, Op::capacity(n));
    std::vector<Out> out(count);
    std::memcpy(out.data(), out_buf.data() + at.out, count * sizeof(Out));
    const auto tail =
        std::count_if(out_buf.begin() + static_cast<std::ptrdiff_t>(at.out + count * sizeof(Out)),
                      out_buf.end(), [](unsigned char b) { return b != kPoison; });
    EXPECT_EQ(tail, 0) << "bytes written past the count";
    results.push_back(std::move(out));
    return results;
  }
  const Stream stream;
  DeviceMemory temp(temp_bytes), d_in(at.in + n * sizeof(In) + 1),
      d_out(at.out + out_bytes + kSlack), d_count(sizeof(unsigned long long));
  upload(d_in.get() + at.in, in.data(), n * sizeof(In));
  for (int run = 0; run < 2; ++run) {
    fill(d_out.get(), kPoison, at.out + out_bytes + kSlack);
    fill(d_count.get(), 0xFF, sizeof(unsigned long long));
    Op::call(row, temp.get(), temp_bytes, reinterpret_cast<const In*>(d_in.get() + at.in), n,
             reinterpret_cast<Out*>(d_out.get() + at.out),
             reinterpret_cast<unsigned long long*>(d_count.get()), block, stream.get());
    CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    unsigned long long count = 0;
    CUDA_CHECK(cudaMemcpy(&count, d_count.get(), sizeof count, cudaMemcpyDefault));
    EXPECT_LE(count, Op::capacity(n))
        << "run " << run << (count == ~0ull ? ": count never written (still the poison)" : "");
    count = std::min<unsigned long long>(count, Op::capacity(n));
    std::vector<unsigned char> out_buf(at.out + out_bytes + kSlack);
    CUDA_CHECK(cudaMemcpy(out_buf.data(), d_out.get(), out_buf.size(), cudaMemcpyDefault));
    std::vector<Out> out(count);
    std::memcpy(out.data(), out_buf.data() + at.out, count * sizeof(Out));
    const auto outside =
        std::count_if(out_buf.begin(), out_buf.begin() + static_cast<std::ptrdiff_t>(at.out),
                      [](unsigned char b) { return b != kPoison; }) +
        std::count_if(out_buf.begin() + static_cast<std::ptrdiff_t>(at.out + count * sizeof(Out)),
                      out_buf.end(), [](unsigned char b) { return b != kPoison; });
    EXPECT_EQ(outside, 0) << "run " << run << ": bytes written outside [out, out + count)";
    results.push_back(std::move(out));
  }
  return results;
}

// Validate: each run's first error.
inline std::vector<long long> run_validate(const ValidateVariant& row, int block, const Bytes& in,
                                           Placement at = {}) {
  const std::size_t n = in.size();
  std::size_t temp_bytes = 0;
  row.run(nullptr, temp_bytes, nullptr, n, nullptr, block, nullptr);
  std::vector<long long> results;
  if (row.target == Target::Cpu) {
    Bytes temp(temp_bytes), in_buf(at.in + n + 1);
    std::copy(in.begin(), in.end(), in_buf.begin() + static_cast<std::ptrdiff_t>(at.in));
    long long first = -2;
    row.run(temp.data(), temp_bytes, in_buf.data() + at.in, n, &first, block, nullptr);
    results.push_back(first);
    return results;
  }
  const Stream stream;
  DeviceMemory temp(temp_bytes), d_in(at.in + n + 1), d_first(sizeof(long long));
  upload(d_in.get() + at.in, in.data(), n);
  for (int run = 0; run < 2; ++run) {
    fill(d_first.get(), kPoison, sizeof(long long));
    row.run(temp.get(), temp_bytes, d_in.get() + at.in, n,
            reinterpret_cast<long long*>(d_first.get()), block, stream.get());
    CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    long long first = 0;
    CUDA_CHECK(cudaMemcpy(&first, d_first.get(), sizeof first, cudaMemcpyDefault));
    results.push_back(first);
  }
  return results;
}

} // namespace gps::utf8::test_support
