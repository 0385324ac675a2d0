// decoupled_lookback: single-pass scan with decoupled look-back (Merrill & Garland 2016). As
// soon as a tile is reduced it publishes its aggregate; then one warp looks back over the 32
// nearest predecessors at a time, summing aggregates until it meets an inclusive prefix, and
// publishes its own inclusive prefix (common/lookback.cuh: LookbackPrefix). A tile no longer
// waits for its predecessor to finish its own look-back, so the serial chain of `chained` becomes
// mostly parallel and the kernel runs at memory speed. 16-byte evict-first loads and stores, 64
// items per thread (single_pass.cuh).
// Change from chained: the prefix strategy (aggregate first, warp-wide look-back window).
// Measured (H200, 2^28, block 256): 16 items per thread gave 0.55x copy, 32 items 0.69x, 64 items
// with evict-first loads and stores 0.77x; a wider look-back window (64 or 128 predecessors per
// round trip) was slower, and a persistent, cp.async-prefetching version reached only 0.48x.
// In the H200 run of 4ff90fa (git show 4ff90fa:results/nvidia-h200.json): 3156 GB/s at 2^28 (0.749x
// copy, 1.03x CUB; 3000-3156 over the blocks), 1.11x CUB at 2^24 and 1.53x at 2^20.
#include "scan/scan.hpp"
#include "scan/single_pass.cuh"

namespace gps::scan {

std::size_t single_pass_tile(int block) {
  return single_pass_tile_elems(block);
}

// (2026-11-24) Each tile's status word in a 32-byte sector of its own (common/lookback.cuh's
// kTileStatusStride, measured there): 2^28 -11.5% on the H100 and -13.6% on the H200 at block
// 128; the H200 partial run of 40e61dffd4f5 (results/partial/nvidia-h200-status-stride.json):
// 579.1 us at 2^28, 0.875x copy, 1.195x CUB (the headline run of 82d4281d9b00: 0.760x, 1.038x).
// The headline runs of e81b104b31dc (that commit's headline files, in the history; 5
// repetitions), 2^28 block 128: H100 745.9 us = 0.957x copy [0.942-0.957], 1.175x CUB; H200 572.0
// us = 0.881x [0.867-0.882], 1.188x CUB. Below 512 tiles (2^21 and less at block 128) the words
// are packed one a tile again (twentieth session: stride 4 had cost up to 9% there; lookback.cuh).
// Those of 4d7b3277ad59 (that commit's headline files, in the history): H100 749.5 us = 0.955x
// copy [0.942-0.957], 1.164x CUB; H200 577.6 us = 0.878x [0.863-0.878], 1.202x CUB. Those of
// a4783e314b19 (the same kernel; results/partial/nvidia-{h100,h200}-headline.json): H100 746.8 us
// = 0.956x copy [0.943-0.958], 1.172x CUB; H200 571.4 us = 0.882x [0.870-0.883], 1.190x CUB.
// Temporary storage: 8 bytes per tile of single_pass_tile(block) elements (32 from 512 tiles on:
// common/lookback.cuh's tile_status_stride), plus 8.
template <typename Status> using Lookback = LookbackPrefix<Status, 1>;

void exclusive_scan_decoupled_lookback(void* temp, std::size_t& temp_bytes, const int* in, int* out,
                                       std::size_t n, int block, cudaStream_t stream) {
  dispatch_block_size(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    single_pass_scan_launch<BLOCK, Lookback>(temp, temp_bytes, in, out, n, stream,
                                             "scan/decoupled_lookback");
  });
}

} // namespace gps::scan
