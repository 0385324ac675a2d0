// warp_shuffle: the block scan built from warp scans (__shfl_up_sync, no shared memory inside a
// warp), then one shared-memory exchange of the warp totals (CUB's BLOCK_SCAN_WARP_SCANS), one
// element per thread; arbitrary n through the multi-level driver.
// Change from kogge_stone: the log2(32) in-warp steps use register shuffles and need no barrier;
// only two barriers per block remain.
// Measured (H200, git show 4ff90fa:results/nvidia-h200.json, 2^28): 1120 GB/s (0.266x copy) at
// block 512 (1091 at 256), 1.2x kogge_stone: no faster than shared_mem, whose tiles are twice as
// large.
#include "common/block.cuh"
#include "scan/multilevel.cuh"
#include "scan/scan.hpp"

namespace gps::scan {
namespace {

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    warp_shuffle_tile_scan(const int* in, int* out, int* tile_sums, std::size_t n) {
  __shared__ typename BlockScan<BLOCK>::TempStorage storage;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * BLOCK + threadIdx.x;
  const int x = i < n ? in[i] : 0;
  int total;
  const int exclusive = BlockScan<BLOCK>::exclusive_sum(x, total, storage);
  if (i < n)
    out[i] = exclusive;
  if (threadIdx.x == 0)
    tile_sums[blockIdx.x] = total;
}

} // namespace

void exclusive_scan_warp_shuffle(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                                 std::size_t n, int block, cudaStream_t stream) {
  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    scan_multilevel(temp, temp_bytes, in, out, n, BLOCK, stream, "scan/warp_shuffle",
                    [](const int* src, int* dst, int* sums, std::size_t count, std::size_t tiles,
                       cudaStream_t s) {
                      warp_shuffle_tile_scan<BLOCK>
                          <<<static_cast<unsigned>(tiles), BLOCK, 0, s>>>(src, dst, sums, count);
                      CUDA_CHECK_LAUNCH();
                    });
  });
}

} // namespace gps::scan
