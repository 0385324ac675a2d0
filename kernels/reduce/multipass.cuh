// The host-side driver shared by the multi-pass reductions (interleaved, convergent,
// first_add_on_load, warp_shuffle), as in Harris' study: each pass reduces every tile of its input
// to one partial sum per block, and the host launches passes over the partial sums until one
// block is left, whose sum is the result. A variant supplies only the pass, as
// `launch_pass(in, partial_sums, count, blocks, stream)`, with one partial sum per block.
#pragma once

#include "common/cuda_check.hpp"
#include "common/workspace.hpp"

#include <cstddef>

namespace gps::reduce {

template <typename LaunchPass>
void reduce_multipass(const int* in, int* result, std::size_t n, std::size_t tile, Workspace& ws,
                      cudaStream_t stream, const LaunchPass& launch_pass) {
  if (n == 0) {
    CUDA_CHECK(cudaMemsetAsync(result, 0, sizeof(int), stream));
    return;
  }
  // two ping-pong buffers for the partial sums: pass 1 writes the first (the largest), pass 2 the
  // second, pass 3 the first again, ...; the last pass (one block) writes the result
  const std::size_t first = (n + tile - 1) / tile;
  const std::size_t second = (first + tile - 1) / tile;
  Carver sizing;
  sizing.take<int>(first);
  sizing.take<int>(second);
  Carver carve(ws.reserve(sizing.bytes()));
  int* partials[2] = {carve.take<int>(first), carve.take<int>(second)};

  const int* src = in;
  std::size_t count = n;
  for (int pass = 0;; ++pass) {
    const std::size_t blocks = (count + tile - 1) / tile;
    int* dst = blocks == 1 ? result : partials[pass % 2];
    launch_pass(src, dst, count, blocks, stream);
    if (blocks == 1) return;
    src = dst;
    count = blocks;
  }
}

} // namespace gps::reduce
