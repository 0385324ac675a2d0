// interleaved: the starting point of the classic study (Harris, "Optimizing Parallel Reduction in
// CUDA", kernel 1; cuda-samples reduce0). Each block loads one element per thread into shared
// memory and halves the active threads at every level with interleaved addressing: at stride s
// only the threads with t % (2s) == 0 add, so the active threads of a warp are scattered (branch
// divergence, and the modulo is slow). One partial sum per block; the host launches passes over
// the partial sums until one value is left (multipass.cuh).
// Measured (H200, git show 4ff90fa:results/nvidia-h200.json), GB/s at 2^28 by block:
// 64: 417, 128: 836, 256: 906, 512: 819, 1024: 708; best 906 (0.21x copy). Block 256 is best
// from 2^24 up; at 2^20 block 1024 (328).
#include "common/block.cuh"
#include "reduce/multipass.cuh"
#include "reduce/reduce.hpp"

namespace gps::reduce {
namespace {

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    reduce_interleaved_pass(const int* __restrict__ in, int* __restrict__ partials, std::size_t n) {
  __shared__ int s_data[BLOCK];
  const int t = threadIdx.x;
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(BLOCK) + t;
  s_data[t] = i < n ? in[i] : 0;
  __syncthreads();
  // tree: at stride s, thread t (a multiple of 2s) adds the partial sum s to its right
  for (int stride = 1; stride < BLOCK; stride *= 2) {
    if (t % (2 * stride) == 0)
      s_data[t] += s_data[t + stride];
    __syncthreads();
  }
  if (t == 0)
    partials[blockIdx.x] = s_data[0];
}

} // namespace

void reduce_interleaved(void* temp, std::size_t& temp_bytes, const int* in, int* result,
                        std::size_t n, int block, cudaStream_t stream) {
  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    reduce_multipass(
        temp, temp_bytes, in, result, n, BLOCK, stream,
        [](const int* src, int* dst, std::size_t count, std::size_t blocks, cudaStream_t s) {
          reduce_interleaved_pass<BLOCK>
              <<<static_cast<unsigned>(blocks), BLOCK, 0, s>>>(src, dst, count);
          CUDA_CHECK_LAUNCH();
        });
  });
}

} // namespace gps::reduce
