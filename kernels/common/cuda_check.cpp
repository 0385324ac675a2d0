#include "common/cuda_check.hpp"

#include <sstream>

namespace gps {

void throw_cuda_error(cudaError_t code, const char* expr, const char* file, int line) {
  cudaGetLastError(); // clear a sticky-free error so later calls are not poisoned by this one
  std::ostringstream msg;
  msg << "CUDA error " << cudaGetErrorName(code) << " (" << cudaGetErrorString(code) << ") in "
      << expr << " at " << file << ":" << line;
  throw CudaError(code, msg.str());
}

bool gpu_available(std::string* reason) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();
    if (reason)
      *reason = std::string("no usable CUDA GPU: ") + cudaGetErrorString(err);
    return false;
  }
  if (count == 0) {
    if (reason)
      *reason = "no usable CUDA GPU: cudaGetDeviceCount reports 0 devices";
    return false;
  }
  return true;
}

} // namespace gps
