// cpu_parallel: the reference's loops on every CPU thread (common/cpu_parallel.hpp). The input is
// split into one chunk per thread at unit starts: from each even split point the chunk boundary
// backs up to a byte that is not a continuation byte, at most 3 bytes (rules.hpp: such a byte
// always starts a unit, and a continuation byte after 3 others is a stray, a unit of its own), so
// each thread decodes exactly the units that start in its chunk, reading at most 3 bytes past it.
// decode and encode take two passes, as a parallel scan does: each thread counts its output, the
// counts are scanned (sequentially: one per thread), each thread writes from its offset. validate
// takes the first error of the first chunk that has one.
// Change from cpu: the work split over threads at unit starts; output offsets from a scan of
// per-chunk counts.
// Where the idea comes from: the CPU scan baseline of this study (scan/cpu_parallel), and UTF-8's
// self-synchronisation (a decoder can start anywhere and find the next unit start within 3 bytes).
#include "common/cpu_parallel.hpp"
#include "common/temp_storage.hpp"
#include "utf8/checks.hpp"
#include "utf8/sequential.hpp"
#include "utf8/utf8.hpp"

#include <algorithm>

namespace gps::utf8 {
namespace {

// Below this many input elements one thread does it all (thread start-up would dominate).
constexpr std::size_t kMinParallel = std::size_t{1} << 16;

unsigned chunks_for(std::size_t n) {
  return n < kMinParallel ? 1u : cpu_threads();
}

// Per-chunk boundaries (chunks + 1) and results (chunks), carved out of the caller's host storage.
struct Split {
  std::size_t* bounds;
  std::size_t* counts;
  long long* errors;
  unsigned chunks;
};
Split take_split(TempLayout& layout, std::size_t n) {
  const unsigned chunks = chunks_for(n);
  Split s{layout.take<std::size_t>(chunks + 1), layout.take<std::size_t>(chunks),
          layout.take<long long>(chunks), chunks};
  return s;
}

// Even boundaries, each moved back to a unit start (never before the previous boundary).
void split_at_unit_starts(const unsigned char* in, std::size_t n, const Split& s) {
  s.bounds[0] = 0;
  for (unsigned c = 1; c < s.chunks; ++c)
    s.bounds[c] = std::max(s.bounds[c - 1], sequential::unit_start_near(in, n * c / s.chunks));
  s.bounds[s.chunks] = n;
}

void split_evenly(std::size_t n, const Split& s) {
  for (unsigned c = 0; c <= s.chunks; ++c)
    s.bounds[c] = n * c / s.chunks;
}

// Runs fn(c, begin, end) for every chunk, one thread each.
template <typename F> void for_each_chunk(const Split& s, F&& fn) {
  parallel_chunks(s.chunks, s.chunks, [&](unsigned c, std::size_t, std::size_t) {
    fn(c, s.bounds[c], s.bounds[c + 1]);
  });
}

// counts[c] becomes the exclusive prefix; returns the total.
std::size_t exclusive_scan_counts(const Split& s) {
  std::size_t running = 0;
  for (unsigned c = 0; c < s.chunks; ++c) {
    const std::size_t v = s.counts[c];
    s.counts[c] = running;
    running += v;
  }
  return running;
}

} // namespace

void decode_cpu_parallel(void* temp, std::size_t& temp_bytes, const unsigned char* in,
                         std::size_t n, std::uint32_t* out, unsigned long long* count, int,
                         cudaStream_t) {
  TempLayout layout(temp);
  const Split s = take_split(layout, n);
  if (layout.sized(temp_bytes))
    return;
  checks::decode_args("utf8/decode/cpu_parallel", in, n, out, count);
  if (s.chunks == 1) {
    *count = sequential::decode_range(in, n, 0, n, out);
    return;
  }
  split_at_unit_starts(in, n, s);
  // pass 1: units per chunk; then their offsets; pass 2: decode from the offsets
  for_each_chunk(s, [&](unsigned c, std::size_t b, std::size_t e) {
    s.counts[c] = sequential::count_range(in, n, b, e);
  });
  *count = exclusive_scan_counts(s);
  for_each_chunk(s, [&](unsigned c, std::size_t b, std::size_t e) {
    sequential::decode_range(in, n, b, e, out + s.counts[c]);
  });
}

void validate_cpu_parallel(void* temp, std::size_t& temp_bytes, const unsigned char* in,
                           std::size_t n, long long* first_error, int, cudaStream_t) {
  TempLayout layout(temp);
  const Split s = take_split(layout, n);
  if (layout.sized(temp_bytes))
    return;
  checks::validate_args("utf8/validate/cpu_parallel", in, n, first_error);
  if (s.chunks == 1) {
    *first_error = sequential::first_error_in(in, n, 0, n);
    return;
  }
  split_at_unit_starts(in, n, s);
  for_each_chunk(s, [&](unsigned c, std::size_t b, std::size_t e) {
    s.errors[c] = sequential::first_error_in(in, n, b, e);
  });
  long long first = -1;
  for (unsigned c = 0; c < s.chunks && first < 0; ++c)
    first = s.errors[c];
  *first_error = first;
}

void encode_cpu_parallel(void* temp, std::size_t& temp_bytes, const std::uint32_t* in,
                         std::size_t n, unsigned char* out, unsigned long long* count, int,
                         cudaStream_t) {
  TempLayout layout(temp);
  const Split s = take_split(layout, n);
  if (layout.sized(temp_bytes))
    return;
  checks::encode_args("utf8/encode/cpu_parallel", in, n, out, count);
  split_evenly(n, s);
  // pass 1: bytes per chunk; then their offsets; pass 2: encode from the offsets
  for_each_chunk(s, [&](unsigned c, std::size_t b, std::size_t e) {
    std::size_t bytes = 0;
    for (std::size_t i = b; i < e; ++i)
      bytes += sequential::encoded_size_one(in[i]);
    s.counts[c] = bytes;
  });
  *count = exclusive_scan_counts(s);
  for_each_chunk(s, [&](unsigned c, std::size_t b, std::size_t e) {
    unsigned char* dst = out + s.counts[c];
    for (std::size_t i = b; i < e; ++i)
      dst += sequential::encode_one(in[i], dst);
  });
}

} // namespace gps::utf8
