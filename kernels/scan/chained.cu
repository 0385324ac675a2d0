// chained: single-pass scan with a serial chain of tile prefixes (StreamScan, Yan et al. 2013).
// Tiles take a dynamic index from an atomic counter, load and scan their tile, then one thread
// spins until the predecessor tile has published its inclusive prefix (flag + value in one 64-bit
// word), publishes its own and the block adds it in (common/lookback.cuh: ChainedPrefix). One
// launch plus one memset: 2n global traffic. Same tiles and loads as decoupled_lookback
// (single_pass.cuh), so the two differ only in how a tile learns its prefix.
// Change from the multi-level variants: no second pass over the data; the cost moves into the
// latency of the chain, which is serial across tiles (one L2 round trip per tile).
// Measured (H200, git show 4ff90fa:results/nvidia-h200.json, 2^28): 880 GB/s (0.209x copy) at block
// 512, 390 at 256 and 112 at 64: with a serial chain, larger tiles (fewer links) are all that
// helps.
#include "scan/scan.hpp"
#include "scan/single_pass.cuh"

namespace gps::scan {

// Temporary storage: 8 bytes per tile of single_pass_tile(block) elements (32 from 512 tiles on:
// common/lookback.cuh's tile_status_stride), plus 8.
void exclusive_scan_chained(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                            std::size_t n, int block, cudaStream_t stream) {
  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    single_pass_scan_launch<BLOCK, ChainedPrefix>(temp, temp_bytes, in, out, n, stream,
                                                  "scan/chained");
  });
}

} // namespace gps::scan
