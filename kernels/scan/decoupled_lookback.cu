// decoupled_lookback: single-pass scan with decoupled look-back (Merrill & Garland 2016). As
// soon as a tile is reduced it publishes its aggregate; then one warp looks back over the 32
// nearest predecessors at a time, summing aggregates until it meets an inclusive prefix, and
// publishes its own inclusive prefix. A tile no longer waits for its predecessor to finish its own
// look-back, so the serial chain of `chained` becomes mostly parallel and the kernel runs at
// memory speed. 16-byte evict-first loads and stores, 64 items per thread (single_pass.cuh).
// Change from chained: the prefix strategy (aggregate first, warp-wide look-back window).
#include "scan/scan.hpp"
#include "scan/single_pass.cuh"

namespace gps::scan {

std::size_t single_pass_tile(int block) { return single_pass_tile_elems(block); }

void exclusive_scan_decoupled_lookback(const int* in, int* out, std::size_t n, int block,
                                       Workspace& ws, cudaStream_t stream) {
  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    single_pass_scan_launch<BLOCK, PrefixStrategy::DecoupledLookback>(in, out, n, ws,
                                                                             stream);
  });
}

} // namespace gps::scan
