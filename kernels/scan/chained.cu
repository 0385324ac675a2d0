// chained: single-pass scan with a serial chain of tile prefixes (StreamScan, Yan et al. 2013).
// Tiles take a dynamic index from an atomic counter, load and reduce their tile, then thread 0
// spins until the predecessor tile has published its inclusive prefix (flag + value in one 64-bit
// word), publishes its own and the block adds it in. One launch plus one memset: 2n global traffic.
// Same tiles and loads as decoupled_lookback (single_pass.cuh), so the two differ only in how a
// tile learns its prefix.
// Change from the multi-level variants: no second pass over the data; the cost moves into the
// latency of the chain, which is serial across tiles (one L2 round trip per tile).
#include "scan/scan.hpp"
#include "scan/single_pass.cuh"

namespace gps::scan {

void exclusive_scan_chained(const int* in, int* out, std::size_t n, int block, Workspace& ws,
                            cudaStream_t stream) {
  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    single_pass_scan_launch<BLOCK, PrefixStrategy::Chained>(in, out, n, ws, stream);
  });
}

} // namespace gps::scan
