// GPU-side helpers of the timing loop (bench/spin.cu).
#pragma once

#include <cuda_runtime.h>

namespace gps::bench {

// A GPU delay of `seconds` enqueued on `stream`: --gps_inject_slowdown's real, uniform slowdown
// for testing the regression gate.
void spin_on_gpu(double seconds, cudaStream_t stream);

// nvbench's blocking kernel: hold a stream while the timed work is enqueued behind it, so that the
// GPU then runs the start event, the work and the stop event back to back and the events measure
// GPU time only, not the host's launch gaps (which at 2^16 elements can be most of a row's time
// and vary with the host's load). Work that waits on the host inside (thrust::copy_if returning
// its count) cannot be enqueued behind a held stream: the kernel lets go after `timeout_seconds`
// and says so, and the caller times that work directly.
class StreamBlocker {
public:
  StreamBlocker();
  ~StreamBlocker();
  StreamBlocker(const StreamBlocker&) = delete;
  StreamBlocker& operator=(const StreamBlocker&) = delete;

  void hold(cudaStream_t stream, double timeout_seconds); // enqueue the blocking kernel
  void release();                                         // let the held stream go
  bool timed_out() const; // after the stream passed the kernel: it let go by itself

private:
  volatile int* release_ = nullptr;   // host-mapped: 1 lets the kernel go
  volatile int* timed_out_ = nullptr; // host-mapped: the kernel sets 1 when it gave up waiting
  int* release_device_ = nullptr;
  int* timed_out_device_ = nullptr;
};

} // namespace gps::bench
