// The result of a GPU decode or encode of an empty input: the count is zeroed on the stream and
// nothing is launched. Host code only.
#pragma once

#include "common/cuda_check.hpp"

#include <cuda_runtime.h>

#include <cstddef>

namespace gps::utf8 {

// True (and the count zeroed) when n == 0: the caller returns.
inline bool zero_count_if_empty(std::size_t n, unsigned long long* count, cudaStream_t stream) {
  if (n != 0)
    return false;
  CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof *count, stream));
  return true;
}

} // namespace gps::utf8
