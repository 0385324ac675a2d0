// Programmatic dependent launch (Hopper, compute capability 9.0+): a kernel launched with
// launch_dependent may start while the kernel before it on the stream is still running; its blocks
// run what does not read that kernel's results, then wait_for_prerequisite_grid() waits until it
// has finished and its writes are visible. The kernel before calls allow_dependent_launch() to let
// the next one start once all of its own blocks have called it (or exited). That hides the launch
// latency and the tail of each kernel of a multi-kernel algorithm (onesweep's passes). On older
// GPUs both device calls do nothing and launch_dependent launches normally (stream order).
//
// Only for a kernel whose predecessor on the stream is a kernel of the same algorithm: the first
// kernel of an algorithm must not start before the caller's earlier work has finished.
#pragma once

#include "common/cuda_check.hpp"
#include "common/per_device.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

namespace gps {

__device__ __forceinline__ void wait_for_prerequisite_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

__device__ __forceinline__ void allow_dependent_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Whether the current device supports programmatic dependent launch (set once per device).
inline bool dependent_launch_supported() {
  static PerDevice<bool> supported;
  return supported.get([](int device) {
    int major = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    return major >= 9;
  });
}

// kernel<<<grid, block, shared_bytes, stream>>>(args...), allowed to start before the kernel
// before it on `stream` has finished (see above). Checks the launch.
template <typename... Params, typename... Args>
void launch_dependent(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared_bytes,
                      cudaStream_t stream, Args&&... args) {
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  cudaLaunchAttribute attribute[1] = {};
  attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute[0].val.programmaticStreamSerializationAllowed = 1;
  if (dependent_launch_supported()) {
    config.attrs = attribute;
    config.numAttrs = 1;
  }
  CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
}

} // namespace gps
