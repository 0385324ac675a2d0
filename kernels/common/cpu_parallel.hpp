// Splits [0, n) into one contiguous chunk per hardware thread and runs fn(chunk, begin, end) on
// each in its own std::thread. The building block of every multi-threaded CPU baseline.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace gps {

inline unsigned cpu_threads() {
  return std::max(1u, std::thread::hardware_concurrency());
}

// Threads for a host pass over n elements (the benchmarks' inputs, references and checks): one
// below 2^20, where starting threads costs more than it saves, every hardware thread above.
inline unsigned threads_for(std::size_t n) {
  return n < (std::size_t{1} << 20) ? 1u : cpu_threads();
}

template <typename F> void parallel_chunks(std::size_t n, unsigned chunks, F&& fn) {
  chunks = static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(chunks, n)));
  std::vector<std::thread> threads;
  threads.reserve(chunks);
  for (unsigned c = 0; c < chunks; ++c) {
    const std::size_t begin = n * c / chunks, end = n * (c + 1) / chunks;
    threads.emplace_back([&fn, c, begin, end] { fn(c, begin, end); });
  }
  for (auto& t : threads)
    t.join();
}

// The first index i in [0, n) where bad(i) holds, or n; scanned by threads_for(n) threads (the
// benchmarks' result checks: one thread took 1.1 s over 2^30 elements).
template <typename Bad> std::size_t first_index_where(std::size_t n, const Bad& bad) {
  const unsigned chunks = threads_for(n);
  std::vector<std::size_t> first(chunks, n);
  parallel_chunks(n, chunks, [&](unsigned c, std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i)
      if (bad(i)) {
        first[c] = i;
        return;
      }
  });
  return *std::min_element(first.begin(), first.end());
}

} // namespace gps
