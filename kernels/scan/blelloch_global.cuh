// The host-side skeleton shared by the two global-memory Blelloch variants (work_efficient,
// work_efficient_compact): pad to 2^k, up-sweep, clear the root, down-sweep, copy back. The
// variants differ only in how a level is launched (`levels.up` / `levels.down`).
#pragma once

#include "common/arguments.hpp"
#include "common/cuda_check.hpp"
#include "common/temp_storage.hpp"

#include <cstddef>

namespace gps::scan {

// Temporary storage: the zero-padded copy, 2^ceil(log2 n) ints, when n is not a power of two
// (otherwise the scan runs in place in `out`). Refuses (as `who`) an n whose padded size needs
// more than 2^31 - 1 blocks.
template <typename Levels>
void blelloch_global_scan(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                          std::size_t n, int block, cudaStream_t stream, const char* who,
                          const Levels& levels) {
  std::size_t padded = 1;
  while (padded < n)
    padded *= 2;
  TempLayout layout(temp);
  int* padded_copy = layout.take<int>(padded == n ? 0 : padded);
  if (layout.sized(temp_bytes) || n == 0)
    return;
  grid_blocks(padded, block, who); // every level's grid fits when this one does
  int* data = padded == n ? out : padded_copy;
  CUDA_CHECK(cudaMemcpyAsync(data, in, n * sizeof(int), cudaMemcpyDeviceToDevice, stream));
  if (padded > n)
    CUDA_CHECK(cudaMemsetAsync(data + n, 0, (padded - n) * sizeof(int), stream));
  // up-sweep: build the reduction tree in place
  for (std::size_t stride = 1; stride < padded; stride *= 2)
    levels.up(data, padded, stride, block, stream);
  // clear the root, then down-sweep: push prefixes back down the tree
  CUDA_CHECK(cudaMemsetAsync(data + padded - 1, 0, sizeof(int), stream));
  for (std::size_t stride = padded / 2; stride >= 1; stride /= 2)
    levels.down(data, padded, stride, block, stream);
  if (data != out)
    CUDA_CHECK(cudaMemcpyAsync(out, data, n * sizeof(int), cudaMemcpyDeviceToDevice, stream));
}

} // namespace gps::scan
