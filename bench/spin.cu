// A GPU delay of a given length on a stream: one thread spinning on the global timer. Used by
// --gps_inject_slowdown to make a real, uniform slowdown for testing the regression gate.
#include "common/cuda_check.hpp"
#include "spin.hpp"

namespace gps::bench {
namespace {

__global__ void spin_kernel(unsigned long long ns) {
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

} // namespace

void spin_on_gpu(double seconds, cudaStream_t stream) {
  if (seconds <= 0)
    return;
  spin_kernel<<<1, 1, 0, stream>>>(static_cast<unsigned long long>(seconds * 1e9));
  CUDA_CHECK_LAUNCH();
}

} // namespace gps::bench
