// warp_shuffle: the levels inside a warp are done with register shuffles (warp_reduce_sum), with
// no shared memory and no barrier, and the warp sums are combined by the first warp after one
// barrier (BlockReduce in common/block.cuh, CUB's BLOCK_REDUCE_WARP_REDUCTIONS). Harris' kernel 5
// unrolls the last warp over volatile shared memory; the shuffle form is cuda-samples reduce4/5's
// modern equivalent and needs no volatile or implicit warp-synchronous assumption.
// Change from first_add_on_load: the block tree, log2(BLOCK) barriers -> one barrier, shuffles.
// Measured (H200, git show 4ff90fa:results/nvidia-h200.json), GB/s at 2^28 by block:
// 64: 836, 128: 1662, 256: 2397, 512: 2264, 1024: 2040; best 2397 (0.57x copy), 1.37x
// first_add_on_load. At blocks 64 and 128 it equals first_add_on_load (836, 1662): there the
// figure follows the bytes per block (interleaved and convergent give half of it with half the
// tile), which points at the rate blocks start, not the tree, as the limit of small blocks.
#include "common/block.cuh"
#include "reduce/multipass.cuh"
#include "reduce/reduce.hpp"

namespace gps::reduce {
namespace {

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    reduce_warp_shuffle_pass(const int* __restrict__ in, int* __restrict__ partials,
                             std::size_t n) {
  __shared__ typename BlockReduce<BLOCK>::TempStorage storage;
  const int t = threadIdx.x;
  // load with the first addition, as in first_add_on_load
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(2 * BLOCK) + t;
  const int sum = (i < n ? in[i] : 0) + (i + BLOCK < n ? in[i + BLOCK] : 0);
  // block reduction: warp shuffles, one exchange of warp sums through shared memory
  const int total = BlockReduce<BLOCK>::sum(sum, storage);
  if (t == 0)
    partials[blockIdx.x] = total;
}

} // namespace

void reduce_warp_shuffle(void* temp, std::size_t& temp_bytes, const int* in, int* result,
                         std::size_t n, int block, cudaStream_t stream) {
  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    reduce_multipass(
        temp, temp_bytes, in, result, n, 2 * BLOCK, stream,
        [](const int* src, int* dst, std::size_t count, std::size_t blocks, cudaStream_t s) {
          reduce_warp_shuffle_pass<BLOCK>
              <<<static_cast<unsigned>(blocks), BLOCK, 0, s>>>(src, dst, count);
          CUDA_CHECK_LAUNCH();
        });
  });
}

} // namespace gps::reduce
