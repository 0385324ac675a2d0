// first_add_on_load: each thread adds two elements, one tile half apart, while loading (Harris,
// kernel 4; cuda-samples reduce3). Half the blocks for the same n, and the first level of the tree
// happens in registers instead of shared memory, so no thread is idle after the load.
// Change from convergent: tile of 2 * BLOCK elements per block, first addition during the load.
// Measured (H200, git show 4ff90fa:results/nvidia-h200.json), GB/s at 2^28 by block:
// 64: 836, 128: 1659, 256: 1744, 512: 1572, 1024: 1322; best 1744 (0.41x copy), 1.9x convergent
// (half the blocks, each twice the loads in flight).
#include "common/block.cuh"
#include "reduce/multipass.cuh"
#include "reduce/reduce.hpp"

namespace gps::reduce {
namespace {

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    reduce_first_add_pass(const int* __restrict__ in, int* __restrict__ partials, std::size_t n) {
  __shared__ int s_data[BLOCK];
  const int t = threadIdx.x;
  // both loads are coalesced: the tile's two halves
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(2 * BLOCK) + t;
  s_data[t] = (i < n ? in[i] : 0) + (i + BLOCK < n ? in[i + BLOCK] : 0);
  __syncthreads();
  // tree: as in convergent
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (t < stride)
      s_data[t] += s_data[t + stride];
    __syncthreads();
  }
  if (t == 0)
    partials[blockIdx.x] = s_data[0];
}

} // namespace

void reduce_first_add_on_load(void* temp, std::size_t& temp_bytes, const int* in, int* result,
                              std::size_t n, int block, cudaStream_t stream) {
  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    reduce_multipass(
        temp, temp_bytes, in, result, n, 2 * BLOCK, stream,
        [](const int* src, int* dst, std::size_t count, std::size_t blocks, cudaStream_t s) {
          reduce_first_add_pass<BLOCK>
              <<<static_cast<unsigned>(blocks), BLOCK, 0, s>>>(src, dst, count);
          CUDA_CHECK_LAUNCH();
        });
  });
}

} // namespace gps::reduce
