// kogge_stone: the work-inefficient Kogge-Stone (Hillis-Steele) block scan in shared memory, one
// element per thread (PMPP 4th ed., ch. 11.2): log2(block) steps, each with two barriers, one
// after every thread has read its neighbour and one after every thread has written, so no
// double buffer is needed. Arbitrary n through the multi-level driver.
// Change from shared_mem: O(n log n) additions in shared memory but half the steps and no
// down-sweep; contrasts work efficiency with step count.
// Measured (H200, git show 4ff90fa:results/nvidia-h200.json, 2^28): 934 GB/s (0.222x copy) at block
// 256, the best block: 0.83x shared_mem, whose tiles are twice as large.
#include "common/block.cuh"
#include "scan/multilevel.cuh"
#include "scan/scan.hpp"

namespace gps::scan {
namespace {

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    kogge_stone_tile_scan(const int* in, int* out, int* tile_sums, std::size_t n) {
  __shared__ int buf[BLOCK];
  const int t = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * BLOCK + t;
  const int x = i < n ? in[i] : 0;
  buf[t] = x;
  for (int offset = 1; offset < BLOCK; offset *= 2) {
    __syncthreads(); // the previous step's writes are visible
    const int left = t >= offset ? buf[t - offset] : 0;
    __syncthreads(); // every read of this step is done before anyone writes
    buf[t] += left;
  }
  const int inclusive = buf[t];
  if (i < n)
    out[i] = inclusive - x;
  if (t == BLOCK - 1)
    tile_sums[blockIdx.x] = inclusive;
}

} // namespace

void exclusive_scan_kogge_stone(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                                std::size_t n, int block, cudaStream_t stream) {
  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    scan_multilevel(temp, temp_bytes, in, out, n, BLOCK, stream, "scan/kogge_stone",
                    [](const int* src, int* dst, int* sums, std::size_t count, std::size_t tiles,
                       cudaStream_t s) {
                      kogge_stone_tile_scan<BLOCK>
                          <<<static_cast<unsigned>(tiles), BLOCK, 0, s>>>(src, dst, sums, count);
                      CUDA_CHECK_LAUNCH();
                    });
  });
}

} // namespace gps::scan
