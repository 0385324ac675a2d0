// The host-side driver shared by the multi-pass reductions (interleaved, convergent,
// first_add_on_load, warp_shuffle), as in Harris' study: each pass reduces every tile of its input
// to one partial sum per block, and the host launches passes over the partial sums until one
// block is left, whose sum is the result. A variant supplies only the pass, as
// `launch_pass(in, partial_sums, count, blocks, stream)`, with one partial sum per block.
// Temporary storage (common/temp_storage.hpp): two ping-pong buffers for the partial sums.
#pragma once

#include "common/cuda_check.hpp"
#include "common/temp_storage.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>

namespace gps::reduce {

template <typename LaunchPass>
void reduce_multipass(void* temp, std::size_t& temp_bytes, const int* in, int* result,
                      std::size_t n, std::size_t tile, cudaStream_t stream,
                      const LaunchPass& launch_pass) {
  // two ping-pong buffers for the partial sums: pass 1 writes the first (the largest), pass 2 the
  // second, pass 3 the first again, ...; the last pass (one block) writes the result
  const std::size_t first = (n + tile - 1) / tile;
  const std::size_t second = (first + tile - 1) / tile;
  if (first > 0x7fffffffu) // one block per tile: the grid's x dimension
    throw std::invalid_argument("multi-pass reduction: n must be at most (2^31 - 1) x " +
                                std::to_string(tile) + " (one block per tile)");
  TempLayout layout(temp);
  int* partials[2] = {layout.take<int>(first), layout.take<int>(second)};
  if (layout.sized(temp_bytes))
    return;

  if (n == 0) {
    CUDA_CHECK(cudaMemsetAsync(result, 0, sizeof(int), stream));
    return;
  }
  const int* src = in;
  std::size_t count = n;
  for (int pass = 0;; ++pass) {
    const std::size_t blocks = (count + tile - 1) / tile;
    int* dst = blocks == 1 ? result : partials[pass % 2];
    launch_pass(src, dst, count, blocks, stream);
    if (blocks == 1)
      return;
    src = dst;
    count = blocks;
  }
}

} // namespace gps::reduce
