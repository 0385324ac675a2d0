// cpu_parallel: the work split over every CPU thread (common/cpu_parallel.hpp). The input is split
// into one chunk per thread at unit starts: from each even split point the chunk boundary backs up
// to a byte that is not a continuation byte, at most 3 bytes (rules.hpp: such a byte always starts
// a unit, and a continuation byte after 3 others is a stray, a unit of its own), so each thread
// owns exactly the units that start in its chunk, reading at most 3 bytes past it. decode and
// decode takes one pass over the input: each thread decodes its chunk into a staging buffer at the
// chunk's byte offset (chunk 0 straight into the output), the per-chunk counts are scanned
// (sequentially: one per thread), and each thread copies its run into place. encode takes two, as
// a parallel scan does: count each chunk's bytes, scan, encode from the offsets. Each thread runs
// the reference's loop (sequential.hpp), taking 8 ASCII bytes at once where they occur.
// (Measured on the 2-core development machine, not the GPU host: counting units first, then
// decoding from the offsets, made decoding cost two passes; single_pass's 16-byte SWAR chunk step,
// chunk.hpp, as the counting pass ran at a third of the byte loop's speed on x86, which lacks
// 3-input logic instructions.)
// Change from cpu: the split over threads at unit starts; output offsets from a scan of per-chunk
// counts; 8 ASCII bytes per test.
// Where the idea comes from: the CPU scan baseline of this study (scan/cpu_parallel), and UTF-8's
// self-synchronisation (a decoder can start anywhere and find the next unit start within 3 bytes).
#include "common/cpu_parallel.hpp"
#include "common/temp_storage.hpp"
#include "utf8/checks.hpp"
#include "utf8/sequential.hpp"
#include "utf8/utf8.hpp"

#include <algorithm>
#include <cstring>

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

// The reference's loops (sequential.hpp) with 8 ASCII bytes taken at once where they occur.
constexpr std::uint64_t kHighBits = 0x8080808080808080ull;
bool ascii8(const unsigned char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  return (w & kHighBits) == 0;
}

// Returns the number of code points written.
std::size_t decode_units(const unsigned char* in, std::size_t n, std::size_t begin, std::size_t end,
                         std::uint32_t* out) {
  const std::uint32_t* const first = out;
  std::size_t i = begin;
  while (i < end) {
    if (i + 8 <= end && ascii8(in + i)) {
      for (int k = 0; k < 8; ++k)
        out[k] = in[i + k];
      out += 8;
      i += 8;
    } else if (in[i] < 0x80u) {
      *out++ = in[i++];
    } else {
      const sequential::Decoded d = sequential::decode_unit_at(in, n, i);
      *out++ = d.code_point;
      i += d.length;
    }
  }
  return static_cast<std::size_t>(out - first);
}

long long first_error_units(const unsigned char* in, std::size_t n, std::size_t begin,
                            std::size_t end) {
  std::size_t i = begin;
  while (i < end) {
    if (i + 8 <= end && ascii8(in + i)) {
      i += 8;
    } else if (in[i] < 0x80u) {
      ++i;
    } else {
      const sequential::Decoded d = sequential::decode_unit_at(in, n, i);
      if (!d.well_formed)
        return static_cast<long long>(i);
      i += d.length;
    }
  }
  return -1;
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

// Temporary storage: n code points (the chunks' output before it is packed) when there is more
// than one chunk, and 3 words per chunk.
void decode_cpu_parallel(void* temp, std::size_t& temp_bytes, const unsigned char* in,
                         std::size_t n, std::uint32_t* out, unsigned long long* count, int,
                         cudaStream_t) {
  TempLayout layout(temp);
  const Split s = take_split(layout, n);
  std::uint32_t* staged = layout.take<std::uint32_t>(s.chunks > 1 ? n : 0);
  if (layout.sized(temp_bytes))
    return;
  checks::decode_args("utf8/decode/cpu_parallel", in, n, out, count);
  if (s.chunks == 1) {
    *count = decode_units(in, n, 0, n, out);
    return;
  }
  split_at_unit_starts(in, n, s);
  // one decoding pass: chunk 0 into place, every other chunk into the staging buffer at its byte
  // offset (a chunk of k bytes writes at most k code points); then the offsets, and the staged
  // runs copied into place
  for_each_chunk(s, [&](unsigned c, std::size_t b, std::size_t e) {
    s.counts[c] = decode_units(in, n, b, e, c == 0 ? out : staged + b);
  });
  *count = exclusive_scan_counts(s);
  for_each_chunk(s, [&](unsigned c, std::size_t b, std::size_t) {
    const std::size_t units = (c + 1 < s.chunks ? s.counts[c + 1] : *count) - s.counts[c];
    if (c > 0)
      std::memcpy(out + s.counts[c], staged + b, units * sizeof(std::uint32_t));
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
    *first_error = first_error_units(in, n, 0, n);
    return;
  }
  split_at_unit_starts(in, n, s);
  for_each_chunk(s, [&](unsigned c, std::size_t b, std::size_t e) {
    s.errors[c] = first_error_units(in, n, b, e);
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
