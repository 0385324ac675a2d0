// GPS_TRACE_SETUP=1: the benchmarks' and tests' set-up steps (input generation, host references,
// uploads, downloads, instance set-up) print their wall time to stderr, so that a slow run can be
// traced to its set-up. Off by default; one getenv per process.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>

namespace gps {

inline bool setup_trace_on() {
  static const bool on = [] {
    const char* v = std::getenv("GPS_TRACE_SETUP");
    return v != nullptr && v[0] != '\0' && v[0] != '0';
  }();
  return on;
}

// Prints "[setup] WHAT [MiB] SECONDS s" when the scope ends: steps of a size (bytes) from 1 MiB
// up, steps without one from 10 ms up, where it matters.
class SetupTrace {
public:
  explicit SetupTrace(const char* what, std::size_t bytes = 0)
      : what_(what), bytes_(bytes), start_(std::chrono::steady_clock::now()) {}
  SetupTrace(const SetupTrace&) = delete;
  SetupTrace& operator=(const SetupTrace&) = delete;
  ~SetupTrace() {
    if (!setup_trace_on())
      return;
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (bytes_ >= (std::size_t{1} << 20))
      std::fprintf(stderr, "[setup] %s %.0f MiB %.3f s\n", what_,
                   static_cast<double>(bytes_) / (1 << 20), s);
    else if (bytes_ == 0 && s >= 0.01)
      std::fprintf(stderr, "[setup] %s %.3f s\n", what_, s);
  }

private:
  const char* what_;
  std::size_t bytes_;
  std::chrono::steady_clock::time_point start_;
};

} // namespace gps
