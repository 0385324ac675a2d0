// coarsened: thread-granularity coarsening (PMPP 4th ed., ch. 11.5). A block stages a tile of
// block * 8 elements in shared memory with coalesced loads; each thread scans its contiguous
// section of 8 sequentially, the section totals are scanned across the block (warp-shuffle block
// scan), and each thread adds its section's offset. Arbitrary n through the multi-level driver.
// Change from warp_shuffle: 8 elements per thread, so the parallel block scan (and the block-sum
// hierarchy) shrinks eightfold; sequential work is cheap and latency is hidden by the staging.
// Measured (H200, git show 4ff90fa:results/nvidia-h200.json, 2^28): 1806 GB/s (0.429x copy) at
// block 256 (1685-1806 over the blocks), 1.6x warp_shuffle: the best of the multi-level variants.
#include "common/block.cuh"
#include "scan/multilevel.cuh"
#include "scan/scan.hpp"

namespace gps::scan {
namespace {

constexpr int kSection = 8;

// one padding word every 32 keeps the strided section reads conflict-free
__device__ __forceinline__ int padded(int i) {
  return i + (i >> 5);
}

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    coarsened_tile_scan(const int* in, int* out, int* tile_sums, std::size_t n) {
  constexpr int kTile = BLOCK * kSection;
  __shared__ int tile[kTile + kTile / 32];
  __shared__ typename BlockScan<BLOCK>::TempStorage storage;
  const int t = threadIdx.x;
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * kTile;
  // phase 1: coalesced staging
#pragma unroll
  for (int k = 0; k < kSection; ++k) {
    const int j = k * BLOCK + t;
    tile[padded(j)] = base + j < n ? in[base + j] : 0;
  }
  __syncthreads();
  // phase 2: sequential scan of this thread's section
  int section[kSection];
  int running = 0;
#pragma unroll
  for (int k = 0; k < kSection; ++k) {
    section[k] = running;
    running += tile[padded(t * kSection + k)];
  }
  // phase 3: block scan of the section totals, then add each section's offset
  int total;
  const int offset = BlockScan<BLOCK>::exclusive_sum(running, total, storage);
#pragma unroll
  for (int k = 0; k < kSection; ++k)
    tile[padded(t * kSection + k)] = section[k] + offset;
  __syncthreads();
#pragma unroll
  for (int k = 0; k < kSection; ++k) {
    const int j = k * BLOCK + t;
    if (base + j < n)
      out[base + j] = tile[padded(j)];
  }
  if (t == 0)
    tile_sums[blockIdx.x] = total;
}

} // namespace

std::size_t coarsened_tile(int block) {
  return static_cast<std::size_t>(block) * kSection;
}

void exclusive_scan_coarsened(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                              std::size_t n, int block, cudaStream_t stream) {
  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    scan_multilevel(temp, temp_bytes, in, out, n, coarsened_tile(BLOCK), stream, "scan/coarsened",
                    [](const int* src, int* dst, int* sums, std::size_t count, std::size_t tiles,
                       cudaStream_t s) {
                      coarsened_tile_scan<BLOCK>
                          <<<static_cast<unsigned>(tiles), BLOCK, 0, s>>>(src, dst, sums, count);
                      CUDA_CHECK_LAUNCH();
                    });
  });
}

} // namespace gps::scan
