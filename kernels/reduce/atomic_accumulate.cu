// atomic_accumulate: one launch instead of a pass per level: every block reduces its tile as
// warp_shuffle does and adds its sum to the result with one atomicAdd (the result is zeroed by a
// memset on the same stream first). Wrapping int32 addition is associative and commutative, so
// the order in which blocks land does not change the sum. The common single-kernel reduction of
// GPU courses (e.g. the atomic variant of "Faster Parallel Reductions on Kepler", NVIDIA
// developer blog, 2014).
// Change from warp_shuffle: the multi-pass tree over block partials -> one atomicAdd per block;
// no temporary storage.
// Added to show what adding a variant takes (README.md, "Adding a variant"): this file, its
// declaration and row in registry.cpp, its line in CMakeLists.txt.
// Measured (results/nvidia-{h200,h100-80gb-hbm3}.json, commit e48f73b4e815, best block 512):
// at 2^28 2315 GB/s on the H200 and 2269 on the H100 (0.545x and 0.754x copy; warp_shuffle 2396
// and 2306 at block 256): the same time on both GPUs, so not memory-bound; at 2^20 1.17x and
// 1.22x CUB (one launch against CUB's two kernels). At block 64 it takes 2100 us (H200) against
// warp_shuffle's 1282: 2^21 atomics on one word.
#include "common/arguments.hpp"
#include "common/block.cuh"
#include "common/cuda_check.hpp"
#include "common/temp_storage.hpp"
#include "reduce/reduce.hpp"

namespace gps::reduce {
namespace {

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    reduce_atomic_accumulate_kernel(const int* __restrict__ in, int* __restrict__ result,
                                    std::size_t n) {
  __shared__ typename BlockReduce<BLOCK>::TempStorage storage;
  const int t = threadIdx.x;
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(2 * BLOCK) + t;
  const int sum = (i < n ? in[i] : 0) + (i + BLOCK < n ? in[i + BLOCK] : 0);
  const int total = BlockReduce<BLOCK>::sum(sum, storage);
  if (t == 0)
    atomicAdd(result, total);
}

} // namespace

void reduce_atomic_accumulate(void* temp, std::size_t& temp_bytes, const int* in, int* result,
                              std::size_t n, int block, cudaStream_t stream) {
  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    const unsigned blocks =
        n == 0 ? 0u
               : grid_blocks(n, 2 * static_cast<std::size_t>(BLOCK), "reduce/atomic_accumulate");
    if (no_temp_needed(temp, temp_bytes))
      return;
    CUDA_CHECK(cudaMemsetAsync(result, 0, sizeof(int), stream));
    if (blocks == 0)
      return;
    reduce_atomic_accumulate_kernel<BLOCK><<<blocks, BLOCK, 0, stream>>>(in, result, n);
    CUDA_CHECK_LAUNCH();
  });
}

} // namespace gps::reduce
