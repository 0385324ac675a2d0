// Error checking for the CUDA runtime: every call and every launch goes through these macros.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace gps {

// Thrown by CUDA_CHECK. Carries the failing expression, file and line, and the CUDA error code so
// callers can tell "out of memory" (skip this size) from a real failure.
class CudaError : public std::runtime_error {
public:
  CudaError(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  cudaError_t code() const noexcept { return code_; }

private:
  cudaError_t code_;
};

[[noreturn]] void throw_cuda_error(cudaError_t code, const char* expr, const char* file, int line);

// True when a CUDA device is usable; otherwise `reason` says why (no driver, no device, ...).
bool gpu_available(std::string* reason = nullptr);

} // namespace gps

#define CUDA_CHECK(expr)                                                                           \
  do {                                                                                             \
    cudaError_t gps_err_ = (expr);                                                                 \
    if (gps_err_ != cudaSuccess)                                                                   \
      ::gps::throw_cuda_error(gps_err_, #expr, __FILE__, __LINE__);                                \
  } while (0)

// After every kernel launch: catches bad launch configurations immediately.
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())
