// shared_mem: the work-efficient Blelloch scan moved into shared memory, one tile of 2 * block
// elements per block (GPU Gems 3, ch. 39.2.3), with the bank-conflict-free padding of one word
// every 32 (CONFLICT_FREE_OFFSET), and arbitrary n through the multi-level driver (ch. 39.2.4).
// Change from work_efficient_compact: the log2(tile) levels run in shared memory inside one launch
// instead of one global-memory launch per level; global memory is read and written ~once per level
// of the block-sum hierarchy.
// Measured (H200, git show 4ff90fa:results/nvidia-h200.json, 2^28): 1128 GB/s (0.268x copy) at
// block 256, the best block (1101 at 128, 922 at 1024): 4.4x work_efficient_compact. The hierarchy
// still reads and writes the data twice (scan the tiles, then add the block sums back).
#include "common/block.cuh"
#include "scan/multilevel.cuh"
#include "scan/scan.hpp"

namespace gps::scan {
namespace {

__device__ __forceinline__ int conflict_free(int i) {
  return i + (i >> 5);
}

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    blelloch_tile_scan(const int* in, int* out, int* tile_sums, std::size_t n) {
  constexpr int kTile = 2 * BLOCK;
  __shared__ int temp[kTile + kTile / 32];
  const int t = threadIdx.x;
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * kTile;
  const int a_in = t, b_in = t + BLOCK; // coalesced load: two halves of the tile
  temp[conflict_free(a_in)] = base + a_in < n ? in[base + a_in] : 0;
  temp[conflict_free(b_in)] = base + b_in < n ? in[base + b_in] : 0;
  // up-sweep
  int offset = 1;
  for (int d = kTile / 2; d > 0; d /= 2) {
    __syncthreads();
    if (t < d) {
      const int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
      temp[conflict_free(b)] += temp[conflict_free(a)];
    }
    offset *= 2;
  }
  // clear the root (after saving the tile total)
  if (t == 0) {
    tile_sums[blockIdx.x] = temp[conflict_free(kTile - 1)];
    temp[conflict_free(kTile - 1)] = 0;
  }
  // down-sweep
  for (int d = 1; d < kTile; d *= 2) {
    offset /= 2;
    __syncthreads();
    if (t < d) {
      const int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
      const int left = temp[conflict_free(a)];
      temp[conflict_free(a)] = temp[conflict_free(b)];
      temp[conflict_free(b)] += left;
    }
  }
  __syncthreads();
  if (base + a_in < n)
    out[base + a_in] = temp[conflict_free(a_in)];
  if (base + b_in < n)
    out[base + b_in] = temp[conflict_free(b_in)];
}

} // namespace

void exclusive_scan_shared_mem(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                               std::size_t n, int block, cudaStream_t stream) {
  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    scan_multilevel(temp, temp_bytes, in, out, n, 2 * BLOCK, stream, "scan/shared_mem",
                    [](const int* src, int* dst, int* sums, std::size_t count, std::size_t tiles,
                       cudaStream_t s) {
                      blelloch_tile_scan<BLOCK>
                          <<<static_cast<unsigned>(tiles), BLOCK, 0, s>>>(src, dst, sums, count);
                      CUDA_CHECK_LAUNCH();
                    });
  });
}

} // namespace gps::scan
