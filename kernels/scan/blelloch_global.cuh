// The host-side skeleton shared by the two global-memory Blelloch variants: pad to 2^k, up-sweep,
// clear the root, down-sweep, copy back. The variants differ only in how a level is launched.
#pragma once

#include "common/cuda_check.hpp"
#include "common/workspace.hpp"

#include <cstddef>

namespace gps::scan {

template <typename Levels>
void blelloch_global_scan(const int* in, int* out, std::size_t n, int block, Workspace& ws,
                          cudaStream_t stream, const Levels& levels) {
  if (n == 0) return;
  std::size_t padded = 1;
  while (padded < n) padded *= 2;
  // in place in `out` when n is a power of two, else in a zero-padded workspace buffer
  int* data = padded == n ? out : static_cast<int*>(ws.reserve(padded * sizeof(int)));
  CUDA_CHECK(cudaMemcpyAsync(data, in, n * sizeof(int), cudaMemcpyDeviceToDevice, stream));
  if (padded > n)
    CUDA_CHECK(cudaMemsetAsync(data + n, 0, (padded - n) * sizeof(int), stream));
  // up-sweep: build the reduction tree in place
  for (std::size_t stride = 1; stride < padded; stride *= 2) levels.up(data, padded, stride, block, stream);
  // clear the root, then down-sweep: push prefixes back down the tree
  CUDA_CHECK(cudaMemsetAsync(data + padded - 1, 0, sizeof(int), stream));
  for (std::size_t stride = padded / 2; stride >= 1; stride /= 2)
    levels.down(data, padded, stride, block, stream);
  if (data != out)
    CUDA_CHECK(cudaMemcpyAsync(out, data, n * sizeof(int), cudaMemcpyDeviceToDevice, stream));
}

} // namespace gps::scan
