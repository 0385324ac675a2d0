// How many blocks of a kernel the current GPU holds at once: for grids sized in whole waves of
// resident blocks (onesweep's histogram) or persistent grids (tile_ring.cuh's resident_blocks).
// Slow (an attribute call and an occupancy query): callers keep the answer per device
// (per_device.hpp), outside the timed call. And the opt-in of a kernel to its dynamic shared
// memory, once per device.
#pragma once

#include "common/cuda_check.hpp"
#include "common/per_device.hpp"

#include <stdexcept>
#include <string>

namespace gps {

// Blocks of `kernel` (`block` threads, `shared_bytes` of dynamic shared memory, which the kernel is
// opted in to first: needed above 48 KiB) that `device` runs at once; throws when not even one
// fits. `who` names the variant in the error.
template <typename Kernel>
unsigned resident_block_count(Kernel kernel, int block, int shared_bytes, int device,
                              const char* who) {
  CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes));
  int per_sm = 0, sms = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, shared_bytes));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  if (per_sm < 1)
    throw std::runtime_error(std::string(who) + ": a block with its " +
                             std::to_string(shared_bytes) +
                             " bytes of shared memory does not fit this GPU");
  return static_cast<unsigned>(per_sm * sms);
}

// Lets KERNEL take `bytes` of dynamic shared memory, set once per device (the attribute belongs to
// the current device) and kernel, whatever the size: the default limit is 48 KiB less the kernel's
// static shared memory.
template <auto KERNEL> void opt_in_shared(int bytes) {
  static PerDevice<bool> done;
  done.get([bytes](int) {
    CUDA_CHECK(cudaFuncSetAttribute(KERNEL, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    return true;
  });
}

} // namespace gps
