// decoupled_lookback_pipelined: the decoupled look-back scan made persistent and prefetching. A
// grid that exactly fills the GPU loops over tiles; while a block reduces, looks back for and
// stores tile t, the 16-byte asynchronous copies (cp.async) of its next tile into a second
// shared-memory buffer are already in flight. Tiles are larger (32 items per thread) and the
// output is written with evict-first stores. The look-back window is 64 predecessors wide.
// Change from decoupled_lookback: the look-back latency is hidden behind the next tile's loads
// instead of stalling the block (the same idea as CUB's and Onesweep's software pipelining).
#include "scan/scan.hpp"
#include "scan/single_pass.cuh"

namespace gps::scan {

namespace {
// int4 vectors per thread: 8 (32 items) up to 512 threads; 1024-thread blocks take 4 so that the
// two buffers (2 x block x vectors x 16 bytes) fit in shared memory.
template <int BLOCK> constexpr int pipelined_vecs() { return BLOCK >= 1024 ? 4 : 8; }
constexpr int kDepth = 2;
} // namespace

std::size_t decoupled_lookback_pipelined_tile(int block) {
  return static_cast<std::size_t>(block) * 4 * (block >= 1024 ? 4 : 8);
}

void exclusive_scan_decoupled_lookback_pipelined(const int* in, int* out, std::size_t n, int block,
                                                 Workspace& ws, cudaStream_t stream) {
  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    pipelined_scan_launch<BLOCK, pipelined_vecs<BLOCK>(), kDepth>(in, out, n, ws, stream);
  });
}

} // namespace gps::scan
