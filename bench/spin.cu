// GPU-side helpers of the timing loop: a spin of a given length (--gps_inject_slowdown) and the
// blocking kernel that holds a stream while timed work is enqueued (StreamBlocker).
#include "common/cuda_check.hpp"
#include "spin.hpp"

#include <atomic>

namespace gps::bench {
namespace {

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

__global__ void spin_kernel(unsigned long long ns) {
  const unsigned long long start = global_ns();
  while (global_ns() - start < ns) {
  }
}

// Waits until the host writes `release` (host-mapped memory, read through the volatile pointer on
// every poll) or `timeout_ns` pass; in the second case it sets `timed_out`.
__global__ void block_kernel(const volatile int* release, volatile int* timed_out,
                             unsigned long long timeout_ns) {
  const unsigned long long start = global_ns();
  while (*release == 0) {
    if (global_ns() - start > timeout_ns) {
      *timed_out = 1;
      return;
    }
    __nanosleep(500);
  }
}

} // namespace

void spin_on_gpu(double seconds, cudaStream_t stream) {
  if (seconds <= 0)
    return;
  spin_kernel<<<1, 1, 0, stream>>>(static_cast<unsigned long long>(seconds * 1e9));
  CUDA_CHECK_LAUNCH();
}

StreamBlocker::StreamBlocker() {
  void* host = nullptr;
  CUDA_CHECK(cudaHostAlloc(&host, 2 * sizeof(int), cudaHostAllocMapped));
  release_ = static_cast<volatile int*>(host);
  timed_out_ = release_ + 1;
  void* device = nullptr;
  CUDA_CHECK(cudaHostGetDevicePointer(&device, host, 0));
  release_device_ = static_cast<int*>(device);
  timed_out_device_ = release_device_ + 1;
}

StreamBlocker::~StreamBlocker() {
  cudaFreeHost(const_cast<int*>(release_)); // no check: may run at exit, after the context
}

void StreamBlocker::hold(cudaStream_t stream, double timeout_seconds) {
  *release_ = 0;
  *timed_out_ = 0;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  block_kernel<<<1, 1, 0, stream>>>(release_device_, timed_out_device_,
                                    static_cast<unsigned long long>(timeout_seconds * 1e9));
  CUDA_CHECK_LAUNCH();
}

void StreamBlocker::release() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  *release_ = 1;
}

bool StreamBlocker::timed_out() const {
  return *timed_out_ != 0;
}

} // namespace gps::bench
