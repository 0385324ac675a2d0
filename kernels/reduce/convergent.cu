// convergent: sequential addressing (Harris, kernel 3; cuda-samples reduce2). At stride s the
// threads t < s add s_data[t + s] into s_data[t]: the active threads are consecutive, so whole
// warps either work or are idle (no divergence until the last 32), and the accesses of a warp hit
// consecutive banks (no bank conflicts).
// Change from interleaved: the active-thread test and the addressing, `t < stride` with strides
// halving from BLOCK/2 instead of `t % (2*stride) == 0` with strides doubling.
// Measured (H200, git show 4ff90fa:results/nvidia-h200.json), GB/s at 2^28 by block:
// 64: 417, 128: 836, 256: 933, 512: 837, 1024: 715; best 933 (0.22x copy), only 3% over
// interleaved: on Hopper the divergent `%` test costs little, the passes over memory dominate.
#include "common/block.cuh"
#include "reduce/multipass.cuh"
#include "reduce/reduce.hpp"

namespace gps::reduce {
namespace {

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    reduce_convergent_pass(const int* __restrict__ in, int* __restrict__ partials, std::size_t n) {
  __shared__ int s_data[BLOCK];
  const int t = threadIdx.x;
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(BLOCK) + t;
  s_data[t] = i < n ? in[i] : 0;
  __syncthreads();
  // tree: the lower half of the active threads adds the upper half
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (t < stride)
      s_data[t] += s_data[t + stride];
    __syncthreads();
  }
  if (t == 0)
    partials[blockIdx.x] = s_data[0];
}

} // namespace

void reduce_convergent(void* temp, std::size_t& temp_bytes, const int* in, int* result,
                       std::size_t n, int block, cudaStream_t stream) {
  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    reduce_multipass(
        temp, temp_bytes, in, result, n, BLOCK, stream,
        [](const int* src, int* dst, std::size_t count, std::size_t blocks, cudaStream_t s) {
          reduce_convergent_pass<BLOCK>
              <<<static_cast<unsigned>(blocks), BLOCK, 0, s>>>(src, dst, count);
          CUDA_CHECK_LAUNCH();
        });
  });
}

} // namespace gps::reduce
