// The add-back kernel of the multi-level driver (multilevel.cuh), compiled once for all variants.
#include "scan/multilevel.cuh"

namespace gps::scan::detail {

// Block b adds the scanned sum of tile b + 1 to that tile (tile 0's offset is zero).
__global__ void add_tile_offsets(int* data, const int* scanned_tile_sums, std::size_t n,
                                 std::size_t tile) {
  const std::size_t t = blockIdx.x + 1;
  const int offset = scanned_tile_sums[t];
  const std::size_t end = (t + 1) * tile < n ? (t + 1) * tile : n;
  for (std::size_t i = t * tile + threadIdx.x; i < end; i += blockDim.x)
    data[i] += offset;
}

} // namespace gps::scan::detail
