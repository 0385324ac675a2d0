// onesweep: LSD radix sort with 8-bit digits in one kernel per pass (Adinets & Merrill 2022,
// "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs"; CUB's DeviceRadixSort on
// sm_70+). Up front, one kernel counts all four digit positions of every key (shared-memory atomics
// into a 16-bit counter column per lane, then global atomics; its tiles in reverse order, so that
// the keys it leaves in L2 are pass 0's first) and a tiny kernel scans each of the
// four 256-bin histograms: the global start of every digit in every pass. Then, per pass, one
// kernel (started while the one before ends: programmatic dependent launch; no memset between
// passes, each pass clears the next one's status words) whose blocks run the steps
// of OnesweepAgent (the layout of CUB's AgentRadixSortOnesweep with its early counts), each a
// named function:
//   take_tile             the next tile index from an atomic counter (launch order, so the
//                         look-back below only ever waits on running or finished tiles);
//   load_keys,            BLOCK x ITEMS keys (and their values), warp-striped (first, thread 0
//   load_pairs            prefetches into L2 the tile about a quarter wave ahead); pairs: the
//                         values wait in shared memory while the keys are ranked (park_values);
//   copy_tile             keys only, block 256: in a pass whose keys all share one digit (the
//                         digit scan's flag), the tile's keys to their own positions, and no
//                         step below;
//   count_digits          each warp's digit histogram (one shared atomic per key, no return
//                         value), and the warp's heavy digit if it has one (> kHeavyCount keys);
//   publish_digit_counts  the tile's 256 digit counts, published at once (look-back aggregates),
//                         before any ranking, so that later tiles' look-backs wait less;
//   digit_starts_in_tile  a block scan over the digits: each warp's tile-sorted start per digit;
//   rank_keys             stable match-based ranking: each warp walks its items in input order;
//                         the lanes holding the same digit (peers) come from one shared atomicOr
//                         per key (CUB's WARP_MATCH_ATOMIC_OR), or for the warp's heavy digit from
//                         one ballot (many lanes on one atomicOr address serialise); the lowest
//                         peer advances the warp's start. The counters and masks sit at a
//                         bank-spreading slot per digit (slot_of). A tile of one digit keeps its
//                         input order (CUB's short circuit). Keys-only tiles at block 256 rank
//                         by half-warps, start and match mask in one word a digit (kHalf);
//   exchange              the keys (pairs: key and value as one 8-byte word) into digit-sorted
//                         order through shared memory;
//   lookback_digits       per digit, a look-back across the earlier tiles (thread d walks digit
//                         d's status words, 4 per L2 round trip, until it meets an inclusive
//                         prefix; common/lookback.cuh's DigitTileStatus, 32-bit words), then the
//                         tile's inclusive prefix is published;
//   scatter_keys,         thread t writes sorted positions t, t + BLOCK, ...: the output index is
//   scatter_pairs         the digit's global start + its look-back prefix + the position within
//                         the digit, so each digit's keys leave as one contiguous run.
// Pairs move packed: passes 0, 1 and 2 write each pair as one 8-byte word {key, value} (pass 0 to
// the temporary, pass 1 into the output arrays' bytes, pass 2 back), and only the last pass writes
// the key and value arrays (PairSpan, PairLayout). On the H100 a pass that writes packed pairs
// takes 1.7 ms at 2^28, one that writes the two arrays 2.4 ms (ncu, onesweep.tuning.md).
// Change from block_local_4bit: 8-bit digits (4 passes instead of 8), no per-pass counting kernel
// or scan over a digit table (one histogram pass for all digits, and the per-tile offsets come
// from the decoupled look-back inside the sorting kernel), and the local sort is a single
// match-based ranking instead of four block-wide splits. Each pass reads and writes every key
// (and value) exactly once. int32 and float32 keys: the digits are taken from the keys after
// sort.hpp's KeyOrder transform (the histogram and digit_of), and the keys move unchanged; a
// pass whose digit the transform does not touch (int32: all but the last) runs the uint32 kernel.
// Limits: n < 2^31 - 1 (32-bit tile positions; look-back values are 31-bit); any 4-byte-aligned
// pointers (scalar, warp-striped global loads and stores; pairs whose outputs are not 8-byte
// aligned move as arrays in passes 1 and 2). Temporary storage: the status words, and n keys or
// n + 1 packed pairs.
//
// Measured (CUB's time over onesweep's at 2^24 / 2^28 / 2^30, uniform uint32, best block; the
// figures of the earlier kernels, from e1968ee64c8e on, are in onesweep.tuning.md's last section):
//   keys   the headline runs of 4d7b3277ad59 (that commit's headline files, in the history,
//          block 256): 1.163x / 1.065x / 1.068x on the H100, 1.179x / 1.082x / 1.090x on the H200;
//          the keys-only kernels did not change until 5720031cec8a. Those of a4783e314b19
//          (results/partial/nvidia-{h100,h200}-headline.json, median [min-max] of 5 repetitions,
//          block 256): 1.167x [1.165-1.176] / 1.067x [1.065-1.070] / 1.069x [1.068-1.071] on the
//          H100, 1.183x [1.176-1.188] / 1.079x [1.078-1.080] / 1.086x [1.084-1.087] on the H200;
//          the sort rows of 5720031cec8a (the histogram in reverse order; results/
//          partial/nvidia-{h100,h200}-sort-headline.json): 1.174x [1.170-1.180] / 1.065x
//          [1.063-1.069] / 1.070x [1.066-1.071] on the H100, 1.190x [1.175-1.195] / 1.077x
//          [1.076-1.077] / 1.083x [1.081-1.084] on the H200; pairs there (block 384): 1.122x
//          [1.113-1.124] / 1.125x [1.122-1.131] / 1.122x [1.120-1.126] on the H100, 1.118x
//          [1.113-1.122] / 1.131x [1.128-1.135] / 1.145x [1.142-1.146] on the H200;
//          the sort rows of ee3ac741b10f (this kernel: block 256 ranked by half-warps; results/
//          partial/nvidia-{h100,h200}-sort-halfwarp.json): keys 1.177x [1.173-1.185] / 1.076x
//          [1.070-1.078] / 1.085x [1.084-1.086] on the H100, 1.200x [1.192-1.206] / 1.102x
//          [1.101-1.104] / 1.112x [1.110-1.114] on the H200 (2^28: 52.3 and 54.5 G keys/s,
//          0.627x and 0.461x copy); pairs 1.120x / 1.125x / 1.122x and 1.123x / 1.134x / 1.145x;
//          the sort rows of e299fb95ca94 (this kernel: digits by byte permute at block 256;
//          results/partial/nvidia-{h100,h200}-sort-prmt.json): keys 1.198x [1.192-1.206] / 1.089x
//          [1.077-1.093] / 1.127x [1.121-1.129] on the H100, 1.237x [1.227-1.243] / 1.136x
//          [1.133-1.138] / 1.146x [1.145-1.148] on the H200 (2^28: 52.9 and 56.2 G keys/s, 0.633x
//          and 0.475x copy); pairs 1.125x / 1.128x / 1.124x and 1.120x / 1.134x / 1.147x;
//          the sort rows of 8fba82efb6f9 (the half-warp count by +1; results/partial/nvidia-
//          {h100,h200}-sort-popc.json): keys 1.200x [1.195-1.207] / 1.088x [1.064-1.091] /
//          1.128x [1.123-1.130] on the H100, 1.250x [1.231-1.254] / 1.147x [1.144-1.149] /
//          1.155x [1.154-1.156] on the H200 (2^28: 0.632x and 0.480x copy); pairs 1.120x /
//          1.129x / 1.124x and 1.125x / 1.135x / 1.151x;
//          the sort rows of f34aa8408b42 (this kernel, with the one-digit pass copy; results/
//          partial/nvidia-{h100,h200}-sort-head.json): keys 1.197x [1.191-1.201] / 1.090x
//          [1.068-1.095] / 1.128x [1.124-1.131] on the H100, 1.238x [1.223-1.246] / 1.146x
//          [1.143-1.149] / 1.155x [1.154-1.157] on the H200; pairs 1.121x / 1.130x / 1.124x and
//          1.125x / 1.134x / 1.150x;
//          the sort rows of b466a0379e23 (this kernel: block 256 in tiles of 256 x 44 keys at 2
//          blocks an SM; results/partial/nvidia-{h100,h200}-sort-b256-44.json): keys 1.139x
//          [1.125-1.146] / 1.157x [1.151-1.159] / 1.172x [1.171-1.172] on the H100, 1.188x
//          [1.183-1.194] / 1.173x [1.172-1.176] / 1.189x [1.186-1.191] on the H200 (2^28: 56.2
//          and 58.1 G keys/s, 0.673x and 0.491x copy); pairs 1.122x / 1.132x / 1.124x and 1.120x /
//          1.136x / 1.150x;
//   pairs  packed, block 384: the headline runs of a4783e314b19 (the same files): 1.114x
//          [1.104-1.123] / 1.129x [1.124-1.132] / 1.126x [1.121-1.127] on the H100 (2^28 7831.3
//          us, 0.775x copy [0.772-0.776]), 1.103x [1.091-1.106] / 1.131x [1.130-1.133] / 1.146x
//          [1.141-1.148] on the H200 (2^28 6563.5 us, 0.653x copy [0.652-0.653]). When it landed
//          (commit 54efd91; same-call A/B runs against the kernel before, 10 repetitions a
//          build, results/partial/nvidia-{h100,h200}-sort-packed.txt; block 384): 1.108x / 1.124x
//          / 1.125x on the H100 (the kernel before, same call: 1.024x / 0.975x / 0.971x), 1.103x /
//          1.131x / 1.142x on the H200 (1.079x / 1.023x / 1.026x); 2^28 7733.1 us and 6561.2 us;
//          the H100's 5-repetition run of 8dbdcd2b0a0c (results/partial/nvidia-h100-sort-packed
//          .json): 1.114x / 1.127x / 1.121x, 0.774x copy at 2^28 (68 bytes a pair).
// Two speeds (H100, keys at block 256's 6144-key tile, 2^28; the 11264-key tile showed one speed
// in 20 repetitions): a pass runs about 1200 or 1300 us depending on the physical pages behind
// its output (the same kernel and addresses; the slow one reads 10-15 MB more from DRAM), so a
// sort takes 5180-5400 us by where its buffers lie (onesweep.tuning.md,
// twenty-eighth session; results/partial/nvidia-h100-sort-two-speeds.txt).
// What bounds it: neither the memory nor a pipe. A pass waits on shared memory (the ranking's
// counter round trips) at 41% issue against CUB's 55% (ncu, H100), with 25% fewer instructions.
//
// Tuning, in order; every step's prediction, A/B runs (same call, 5 repetitions), block traces,
// profiles and branches are in onesweep.tuning.md. Keys at 2^28 unless said:
//   kept     4 look-back predecessors per L2 round trip (-9%; pairs -7%)
//   dropped  a shared vote per digit in the histogram (+5.6%), hardware match.any for the peers
//            (+57%), the ranking's ballots reordered or its counter bumped by the peers' leader
//   kept     CUB's early counts with atomicOr peers and a short circuit for tiles of one digit
//            (-4%), then a ballot only in warps with a heavy digit (low_entropy -13%); dropped:
//            the look-back before the ranking (+8%)
//   kept     tile 384 x 20 (-10%), then 384 x 22, then 24 keys a thread with the match masks in
//            the exchange buffer (-2.9%; pairs -4.7%)
//   dropped  2 histogram copies (+3.4%), 8 bin copies in the histogram kernel (within 1%), the
//            tile's keys loaded while the tile atomic is in flight (+3.1%)
//   kept     the scatter's address form per pass (keys -2.7%); dropped: evict-first loads or
//            stores (pairs +7..8%), the values' address form alone on the H100 (within 1.5%),
//            the values prefetched by cp.async.bulk.prefetch (+6%)
//   dropped  20 or 22 keys a thread for pairs (+1.3..3.5%), the values loaded before the look-back
//            (-0.5%), 3 blocks an SM at 16..24 keys (+7..38%), a look-back warp beside 11 compute
//            warps (2.7x), persistent blocks with the next tile bulk-copied (+13.6%), start and
//            match mask in one 8-byte word (+4%), the exchange written during the ranking (+3.5%)
//   kept     int32 keys' first three passes through the uint32 kernel (-2.7%), counters and masks
//            at a bank-spreading slot (low_entropy -13%)
//   kept     the histogram by lane columns at 512 threads (-1.7%), no memsets between passes
//            (2^24 -2.4%, 2^20 -15%), programmatic dependent launch for 256..16384 tiles (2^24
//            -6.5%)
//   dropped  two ranking chains a warp (+3.4%), tiles from blockIdx.x (keys -0.75%, pairs
//            +3.5%), 11-bit digits in 3 passes (1.86x slower; pairs 2.2x)
//   kept     the histogram of whole tiles without bounds tests (H200 -2.0%, H100 -0.5%)
//   dropped  the values bulk-copied into shared memory at the tile's start (pairs +4.9%)
//   kept     in the pairs kernel, a __syncwarp() after each scatter store, keys' and values'
//            (CUB's form: one store at a time; pairs 2^28 -1.4% H100, -0.9% H200, float32 +0.3%
//            and all_equal 2^24 +0.7..2.9% the exceptions); not in the keys-only kernel (+2..4%)
//   dropped  pairs fused: the values loaded before the look-back into a buffer of their own,
//            keys and values stored by one loop (pairs 2^28 +3.3..5.2% H100; wip/sort-fused-pairs)
//   kept     the keys-only passes prefetch into L2 the keys of the tile a quarter of a wave of
//            resident blocks ahead (keys 2^28 -2.0% H100, -1.2% H200; low_entropy -3.0% H200);
//            not the pairs passes (+1..25% at every distance tried)
//   dropped  each digit's first look-back words loaded before the ranking's last barrier (UTF-8
//            decode's kept change: keys 2^28 +0.1%, pairs +0.4%, all_equal +3.8%)
//   dropped  the scatter's stores with an L2 evict_last policy (pairs 2^28 -0.6%, within the
//            noise; keys +1.9%); ncu found no DRAM read-back of the partial sectors it aimed at
//   measured pairs at block 256 (+16% at 2^28: 384 stays their block), and dropped each sorted
//            position's output index kept in shared memory for the values' scatter (+0.5%)
//   dropped  the same tile at 512 threads x 18 keys (32 warps an SM; keys 2^28 +3.1%, pairs the
//            same; 512 x 16 +10.4%), and tiles of two sub-tiles that share one count and one
//            look-back, sub-tile 0's keys loaded again from L2 (keys +24.5%, pairs +59%)
//   measured this pass design's memory work alone (bench/probes/sort_memory_probe.cu): split
//            sectors cost the probe 1.4x, but not this kernel, whose ordered writes merge them in
//            L2 (ncu: 43-56x fewer write misses); with a sort's run lengths the probe is no
//            faster than this kernel. Dropped: run-end sectors prefetched into L2 (keys +7.6%)
//   dropped  the digit's start taken by the lowest peer's returning atomic and a shuffle (keys
//            +0.9..1.7%, pairs -0.2..-0.9%), and peers from 8 ballots (CUB's
//            MatchAny; wip/sort-rank2): keys +17..23%; pairs -3.1..-3.6% on the H100 (ranges
//            apart) but +3.7..4.8% on the H200 (2^20 +13%): the trade differs by GPU
//   kept     at block 256, keys-only warps without a heavy digit rank in a loop of their own (no
//            ballot, no heavy test; a third of the ranking's instructions were that control flow):
//            keys 2^24 / 2^28 / 2^30 -3.6 / -1.0 / -2.2% H100, -3.4 / -2.8 / -2.6% H200; at 384
//            +0.7% on uniform keys (H100: bound by the shared pipe, not the issue rate), so not
//            there; pairs keep one loop (+0.4..1.1%)
//   dropped  that loop with conflict-free match masks (a 32-word table for the slot's low 5 bits,
//            3 ballots for the high 3; wip/sort-hybrid-match): H200 keys +5..8%, pairs +3.9%
//            (shared wavefronts -13%, instructions +28%)
//   dropped  block 256 at 26 keys a thread (tile 6656; no spills in the keys-only kernels): H200
//            keys +2.6% at 2^24, +3.2% at 2^28 and 2^30; at 22 keys +2.8%, +3.9%, +4.0%; at 28
//            keys (spills) H100 +5.6..6.3%
//   kept     pairs packed: the values loaded with the keys, one 8-byte exchange and store a pair,
//            the temporary packed (pairs 2^28 -3.6% H100 at 18 items, the values in registers:
//            24 spill), with the L2 prefetch (-4.7%); passes 1 and 2 packed in the output arrays'
//            bytes, only the last pass writing the arrays (-11.2%; ncu: 1.7 ms a packed pass, 2.4
//            one writing the arrays); the values parked in shared memory during the ranking, so
//            24 items fit (-13.9% in all; H200 -9.5%); dropped: block 256 for pairs (+15%), their
//            lean loop (+1%), 20 or 22 items with spills (+3..30%), a per-digit output pointer
//            (+0.1..1.7%), the packed stores without a warp sync (+0.3%), no early launch
//            signal for pairs (2^24 +2.5% H200), their prefetch half as far ahead (the same)
//   dropped  in the pairs passes that write the arrays: the exchange as two 4-byte arrays (H200
//            within 0.3%), and two neighbouring pairs of a run stored as 8-byte words, the runs
//            padded to their output phase after a look-back moved before the exchange (H200
//            +2.5..2.8%, float32 +7.7%): that look-back's overlap is worth more than the sectors
//   kept     the histogram kernel's tiles in reverse order, so that pass 0's first keys are in L2
//            (H200, 20 repetitions a side: pairs 2^24 -0.6%, ranges apart; keys 2^24 -0.6% and
//            every other size within the noise; predicted -1..-3% for keys: the pass is bound
//            by shared memory, not by DRAM)
//   dropped  keys-only tiles from blockIdx.x (H100: block 256 2^28 +0.4%, 384 -0.2%), the keys'
//            temporary padded by 128 bytes every 2^16 keys (H100 +1.2..2.8%), L2 policies by
//            store in the scatter (run ends evict_last +4.9..10.8%, the rest evict_first
//            +4.8..11.4%)
//   dropped  keys passes at block 256 in clusters of two blocks sharing one tile index, status
//            row and look-back, counts and prefixes swapped through distributed shared memory
//            (H200 keys 2^24..2^30 +21..26%; wip/sort-cluster), and at block 256 the exchange
//            apart from the counters with each key stored as it is ranked (H200 keys +3.8..6.2%),
//            then also built for 4 blocks an SM (64 registers, +3.8..5.7%)
//   kept     keys-only block 256 ranked by half-warps, start and match mask in one 32-bit word
//            (three shared accesses a key instead of five), with the scan over the ranking rows
//            kept in registers (every kernel): H200 keys 2^28 / 2^30 -2.3 / -2.5%, H100 2^30
//            -1.8%, block 384 -1.4% / -0.8% at 2^28 (the fold alone); 2^20 +2.3..2.5%. The first
//            half-warp form, with 17% more instructions, was +3.5..4.8%
//   kept     keys-only block 256 (uint32, int32) takes the digit by one byte permute instead of a
//            shift and a mask: keys 2^24 / 2^28 / 2^30 -1.9 / (slow speed) / -3.1% H100, -3.1 /
//            -3.0 / -2.9% H200, 2^20 -6.5..-7.5% (other kernels spill with it); dropped (H100):
//            the two half-warps' tables interleaved for 8-byte scans (gives back 2.6%;
//            wip/sort-interleave), the new start written by the highest peer (2 instructions an
//            item fewer: within the noise), the full tiles' scatter without its per-key branch
//            (+5.5% at 2^30: the stores leave in a burst), the scatter's address from a row
//            pointer (within the noise; wip/sort-top-peer); the half-warps at block 384 too
//            (uniform keys -3.9..-5.3% H100, but low_entropy +16%, all_equal +94%: reverted), and
//            both half-warps counting into one word a digit (all_equal at 256 the same)
//   kept     the half-warp count adds 1 to the word's low half (ATOMS.POPC.INC: the lanes on one
//            address in one update) instead of 1 << 16 to its high half (ATOMS.ADD: they
//            serialise): block 256 all_equal 2^28 -48.7% H100, -50.9% H200, low_entropy -16%,
//            uniform keys the same (H100) or -0.5..-1.0% (H200); dropped: with it, the half-warps
//            at block 384 too (uniform -2.9..-5.6%, low_entropy +2.6%, still behind block 256)
//   kept     at block 256, a pass whose keys all share one digit is copied (copy_tile): H100
//            all_equal -22% (2^24), -12% (2^28), low_entropy +0.6..0.9%, uniform within the
//            noise; at block 384 the same path cost uniform keys 1.9-2.2% and low_entropy 3.6-5.3%
//            (not kept there); landed in 52a4dd2 (A/B against the kernel before: all_equal
//            2^24 -21.9% H100, -34.7% H200; 2^28 -12.3%, -32.2%; low_entropy +0.6..0.9%)
//   dropped  the half-warps at block 384 again, with the histogram's whole tiles read by 16-byte
//            loads and status words with an epoch bit (passes 1 and 2 clearing no rows): H100
//            block 384 2^28 -3.7% (5077 us, one speed: 1.092x CUB, the 2^28 cell still short),
//            the loads and the epochs within the noise (wip/sort-half384-epoch)
//   kept     block 256 in tiles of 256 x 44 keys at 2 blocks an SM (128 registers, 16 warps)
//            instead of 256 x 24 at 3: keys 2^28 -11.3% H100 (one speed in 20 repetitions; the
//            old tile at its slow one), -2.4% H200; 2^30 -4.1%, -2.8%; 2^24 +5.1%, +4.2%; 40
//            keys a thread -9.7% and +0.3% at 2^28, 36 keys -6.4% (H100); 48 keys need more than
//            48 KB of static shared memory
// Skewed keys: until that count, block 256 sorted all_equal keys at 0.55-0.66x CUB and
// low_entropy at 0.98-1.07x (results/partial/nvidia-{h100,h200}-sort-skewed.json); now at
// 1.12-1.20x and 1.16-1.26x at 2^24 and 2^28, block 384 at 1.15-1.28x and 1.17-1.24x
// (results/partial/nvidia-{h100,h200}-sort-popc.json); with the copied passes, all_equal at 2^28
// at 1.34x on the H100 and 1.66x on the H200 (results/partial/nvidia-{h100,h200}-sort-copy-pass-
// land.txt).
#include "common/block.cuh"
#include "common/bulk_copy.cuh"
#include "common/cuda_check.hpp"
#include "common/dependent_launch.cuh"
#include "common/lookback.cuh"
#include "common/occupancy.hpp"
#include "common/per_device.hpp"
#include "sort/onesweep_pairs.cuh"
#include "sort/onesweep_plan.hpp"
#include "sort/passes.hpp"
#include "sort/sort.hpp"

#include <stdexcept>
#include <string>
#include <type_traits>

namespace gps::sort {
namespace {

using namespace onesweep_pairs;

constexpr int kRadixBits = 8;
constexpr int kRadix = 1 << kRadixBits;
constexpr int kPasses = 32 / kRadixBits;
// histogram kernel: threads per block and keys per thread (onesweep_plan.hpp)
constexpr int kHistBlock = static_cast<int>(onesweep_plan::kHistBlock);
constexpr int kHistItems = static_cast<int>(onesweep_plan::kHistItems);
constexpr int kLookbackDepth = 4; // predecessors per L2 round trip of the digit look-back
// A warp holding more keys of one digit than this ranks that digit's keys by one ballot instead
// of the shared atomicOr, whose lanes on one address serialise.
constexpr unsigned kHeavyCount = 48;

// Tuning per block size: keys per thread, and the blocks per SM the registers are budgeted for
// (65536 registers / (BLOCK x MIN_BLOCKS) per thread), checked with -Xptxas -v for sm_90.
// Block 384: 80 registers, no spills; 26 keys spill. Block 256: 44 keys at 2 blocks an SM (16
// warps), 128 registers; the uint32 and int32 keys-only kernels spill 24 and 28 bytes, float32
// and pairs none; 48 keys need more than 48 KB of static shared memory. Against 24 keys at 3
// blocks (the tile before, 6144 keys, 24 warps an SM), same-call A/B runs of the thirty-fifth
// session (onesweep.tuning.md): uniform keys at 2^28 -11.3% on the H100 (4824 against 5441 us,
// which ran at its slow speed) and -2.4% on the H200, 2^30 -4.1% and -2.8%, 2^24 +5.1% and +4.2%;
// 40 keys were -9.9% and +0.3% at 2^28, 36 keys -6.4% on the H100.
template <int BLOCK> struct OnesweepPolicy;
// A lean ranking loop (keys-only warps without a heavy digit: no ballot, no heavy test) pays at
// block 256, where the keys-only kernels rank by half-warps (half_rank_keys), but not at 384 (0.7%
// slower on uniform keys, H100): there the pass is bound by the shared-memory pipe (about three
// quarters of its peak wavefronts), and with 21% fewer instructions its warps wait on that pipe
// instead (ncu: mio throttle 2.2x; onesweep.tuning.md, twenty-fourth session).
#ifndef GPS_SORT_B256_ITEMS // other tiles at block 256, for measurement builds
#define GPS_SORT_B256_ITEMS 44
#define GPS_SORT_B256_BLOCKS 2
#endif
template <> struct OnesweepPolicy<256> {
  static constexpr int kItems = GPS_SORT_B256_ITEMS; // tile of 11264 keys, 46 KB of shared memory
  static constexpr int kMinBlocks = GPS_SORT_B256_BLOCKS; // <= 128 registers
};
template <> struct OnesweepPolicy<384> {
  static constexpr int kItems = 24;    // tile of 9216 keys, 38 KB of shared memory
  static constexpr int kMinBlocks = 2; // <= 85 registers
};

// ---- up front: the four digit histograms, then their exclusive scans --------------------------

// The histogram kernel's counters: each lane of a block counts into its own column, so that the
// 32 shared atomics of a warp fall in 32 distinct banks (a block-wide table [pass][digit] put the
// lanes' random digits ~3.5 to a bank, and the atomics, not the loads, bounded the kernel). Word
// (q, d) of lane l sits at (q * kRadix + d) * 32 + l; its low 16 bits count digit d of pass q, its
// high 16 bits digit d of pass q + 2 (q = 0, 1): 64 KB per block. A column gathers the keys of one
// lane of every warp of the block, so a block takes at most onesweep_plan::kHistMaxTilesPerBlock
// tiles (onesweep_plan::histogram_grid sizes the grid for it).
constexpr int kHistWords = 2 * kRadix * kWarpSize;
constexpr int kHistBytes = kHistWords * 4;

template <KeyType KT>
__global__ void __launch_bounds__(kHistBlock)
    onesweep_histogram(const unsigned* __restrict__ keys, std::size_t n,
                       unsigned* __restrict__ bins, bool early_trigger) {
  constexpr KeyOrder order = key_order(KT); // a compile-time constant: nothing for uint32
  constexpr int kTile = kHistBlock * kHistItems;
  static_assert(kTile == onesweep_plan::kHistTile, "the tiles of histogram_tiles(n)");
  extern __shared__ uint4 s_hist[]; // kHistBytes
  if (early_trigger)
    allow_dependent_launch(); // the scan kernel's blocks wait for this grid to finish
  unsigned* const s_words = reinterpret_cast<unsigned*>(s_hist);
  for (int i = threadIdx.x; i < kHistWords / 4; i += kHistBlock)
    s_hist[i] = make_uint4(0u, 0u, 0u, 0u);
  __syncthreads();
  unsigned* const column = s_words + lane_id();
  const auto count = [column](unsigned key) {
#pragma unroll
    for (int p = 0; p < kPasses; ++p) {
      const unsigned d = (key >> (p * kRadixBits)) & (kRadix - 1);
      atomicAdd(&column[((p & 1) * kRadix + d) * kWarpSize], 1u << (16 * (p >> 1)));
    }
  };
  // the tiles in reverse order, so that the keys read last (and left in L2) are the first that
  // pass 0 reads (H200 pairs 2^24 -0.6%, onesweep.tuning.md)
  const std::size_t tiles = onesweep_plan::histogram_tiles(n);
  for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const std::size_t base = (tiles - 1 - t) * kTile;
    unsigned k[kHistItems];
    if (base + kTile <= n) { // a whole tile: one base pointer, no bounds tests
      const unsigned* src = keys + base + threadIdx.x;
#pragma unroll
      for (int j = 0; j < kHistItems; ++j) // all loads first, then the atomics
        k[j] = order(src[j * kHistBlock]);
#pragma unroll
      for (int j = 0; j < kHistItems; ++j)
        count(k[j]);
      continue;
    }
#pragma unroll
    for (int j = 0; j < kHistItems; ++j) {
      const std::size_t i = base + j * kHistBlock + threadIdx.x;
      k[j] = i < n ? order(keys[i]) : 0u;
    }
#pragma unroll
    for (int j = 0; j < kHistItems; ++j)
      if (base + j * kHistBlock + threadIdx.x < n)
        count(k[j]);
  }
  __syncthreads();
  // row r = q * kRadix + d: the sum of its 32 lane words, read from lane (r % 32) on so that the
  // threads of a warp read 32 distinct banks
  for (int r = threadIdx.x; r < 2 * kRadix; r += kHistBlock) {
    const unsigned* row = s_words + r * kWarpSize;
    unsigned low = 0, high = 0;
#pragma unroll 8
    for (int i = 0; i < kWarpSize; ++i) {
      const unsigned w = row[(i + r) % kWarpSize];
      low += w & 0xFFFFu;
      high += w >> 16;
    }
    const int q = r / kRadix, d = r % kRadix;
    if (low != 0)
      atomicAdd(&bins[q * kRadix + d], low);
    if (high != 0)
      atomicAdd(&bins[(q + 2) * kRadix + d], high);
  }
}

// One block per pass: bins[pass][d] becomes the number of keys with a smaller digit.
// Also flags a pass whose keys all share one digit (one_digit_passes[pass], zeroed before): its
// sorted order is its input order, which the pass kernel then copies (copy_tile).
__global__ void __launch_bounds__(kRadix)
    onesweep_scan_bins(unsigned* bins, unsigned* one_digit_passes, bool early_trigger) {
  if (early_trigger)
    allow_dependent_launch();
  wait_for_prerequisite_grid(); // the histograms
  using Scan = BlockScan<kRadix>;
  __shared__ typename Scan::TempStorage s_scan;
  unsigned* b = bins + blockIdx.x * kRadix;
  int total = 0;
  const int count = static_cast<int>(b[threadIdx.x]);
  b[threadIdx.x] = static_cast<unsigned>(Scan::exclusive_sum(count, total, s_scan));
  if (count == total)
    one_digit_passes[blockIdx.x] = 1u;
}

// ---- one pass: the agent (CUB's AgentRadixSortOnesweep) and its kernel ------------------------

// The steps of one pass over one tile, in the order the kernel runs them. One agent per block; its
// fields live in registers, its TempStorage in shared memory.
// LAYOUT (pairs only): PairLayout's flags.
template <int BLOCK, bool PAIRS, KeyType KT, int LAYOUT = 0> struct OnesweepAgent {
  // the key type's order (sort.hpp), a compile-time constant: nothing for uint32
  static __device__ __forceinline__ unsigned ordered(unsigned key) { return key_order(KT)(key); }
  static constexpr int kItems = OnesweepPolicy<BLOCK>::kItems;
  static constexpr int kWarps = BLOCK / kWarpSize;
  static constexpr int kTile = BLOCK * kItems;
  static constexpr int kWarpItems = kWarpSize * kItems;
  // Keys-only tiles at block 256 are ranked by half-warps (rank_keys), each with one word a digit
  // slot: its early count in the low 16 bits until the starts are known, then its start in the
  // high 16 bits and the 16 lanes' match mask in the low 16. A half-warp's items are 16 positions
  // apart (load_tile), so (half-warp, item, lane) is input order. H200 keys 2^28 and 2^30 -2.3%
  // and -2.5%, H100 2^30 -1.8% (onesweep.tuning.md, twenty-ninth session); block 384 and pairs
  // keep whole warps.
  static constexpr bool kHalf = !PAIRS && BLOCK == 256;
  static constexpr int kRankers = kHalf ? 2 * kWarps : kWarps;      // ranking units a block
  static constexpr int kStride = kHalf ? kWarpSize / 2 : kWarpSize; // positions between items
  static_assert(!kHalf || kTile <= (1 << 16), "16-bit starts");
  static_assert(!kHalf || kWarpSize / 2 * kItems < (1 << 16), "16-bit early counts");
  static_assert(kRankers <= 2 * kWarps, "the rankers' tables fit the counts and masks");
  using Ranks = TileRanks<kItems, PAIRS>;
  static_assert(kTile >= 2 * kWarps * kRadix,
                "the exchange buffer holds the ranking counters and match masks");
  static_assert(BLOCK >= kRadix, "one thread per digit for the scan and the look-back");

  // what the exchange holds per tile-sorted position: the key, or the key and its value
  using Item = std::conditional_t<PAIRS, uint2, unsigned>;

  struct alignas(16) TempStorage { // 16: the half-warps' heavy test reads 4 slots a load
    union {
      Item exchange[kTile]; // keys (and their values) in tile-sorted order
      struct {
        // per warp, at slot_of(digit): the digit counts, then the tile-sorted starts; the lanes
        // holding the digit (atomicOr)
        unsigned counts[kWarps][kRadix];
        unsigned match[kWarps][kRadix];
      } rank; // until the ranking ends
    };
    // per digit d: the output index of tile-sorted position 0 if it held d; never negative, since
    // the keys below d in the whole input (digit_starts[d]) include those of this tile
    // (digit_start), so the scatter adds it and the position to the pointer one at a time
    unsigned global_base[kRadix];
    typename BlockScan<BLOCK>::TempStorage scan;
    unsigned tile;
    int one_digit; // every key of the tile has one digit
  };

  TempStorage& s;
  const int shift;
  const unsigned digit_sel; // digit_of's byte permute: byte shift / 8 of the key, zero-extended
  const DigitTileStatus<kRadix> status;
  unsigned tile = 0; // index in launch order
  // digit d's count in the ranking rows before each row (thread d; publish_digit_counts to
  // digit_starts_in_tile, in registers)
  unsigned row_prefix[kRankers];
  unsigned tile_base = 0; // input position of the tile's first key
  unsigned valid = 0;     // keys in the tile (kTile but in the last one)
  bool full = false;
  const unsigned first; // tile position of this thread's item 0 (warp-striped)

  __device__ __forceinline__ OnesweepAgent(TempStorage& storage, int digit_shift,
                                           DigitTileStatus<kRadix> digit_status)
      : s(storage), shift(digit_shift),
        digit_sel(0x4440u | static_cast<unsigned>(digit_shift) >> 3), status(digit_status),
        first(kHalf
                  ? warp_id() * kWarpItems + (lane_id() >> 4) * (kWarpItems / 2) + (lane_id() & 15)
                  : warp_id() * kWarpItems + lane_id()) {}

  // Where digit d's per-warp counter and match mask sit: its low 5 bits (the shared-memory bank)
  // XORed with 5x its high 3 bits, so that the digits skewed keys favour (0, 32, 64, 128, 96, ...:
  // few bits set) fall in different banks (1, 2, 4, 8, 16 keep theirs; 32 -> 5, 64 -> 10,
  // 128 -> 20). An involution: slot_of(slot_of(d)) == d. Uniform digits conflict as before.
  // float32 keys keep slot d: with the slot, their kernel (whose digits also take the order
  // transform's compare and select) ran 4% slower on uniform keys
  // (onesweep.tuning.md).
  static constexpr bool kSwizzle = KT != KeyType::Float32;
  static __device__ __forceinline__ unsigned slot_of(unsigned d) {
    return kSwizzle ? d ^ (((d >> 5) * 5u) & 31u) : d;
  }
  // The keys-only kernels at block 256 (uint32 and int32 keys) take the digit with one byte
  // permute instead of a shift and a mask: H100 keys 2^30 -3.1%, 2^24 -1.9%, 2^20 -6.5%
  // (onesweep.tuning.md, thirtieth session). The block-384 and pairs kernels spill 200-290 bytes
  // with it, float32 keys at 256 12-24 (ptxas), so they keep the shift.
  __device__ __forceinline__ unsigned digit_of(unsigned key) const {
    static_assert(kRadixBits == 8, "a digit is one byte of the key");
    if constexpr (kHalf && KT != KeyType::Float32)
      return __byte_perm(ordered(key), 0u, digit_sel);
    return (ordered(key) >> shift) & (kRadix - 1);
  }

  // The next tile index from the pass's atomic counter (launch order, so the look-back only ever
  // waits on running or finished tiles); clears the counts, the match masks and the flags.
  __device__ __forceinline__ void take_tile(unsigned* tile_counter, unsigned n) {
    if (threadIdx.x == 0) {
      s.tile = atomicAdd(tile_counter, 1u);
      s.one_digit = 0;
    }
    for (int i = threadIdx.x; i < kWarps * kRadix; i += BLOCK) {
      (&s.rank.counts[0][0])[i] = 0;
      (&s.rank.match[0][0])[i] = 0;
    }
    __syncthreads();
    tile = s.tile;
    tile_base = tile * kTile; // < n + kTile < 2^32 (n < 2^31 is checked)
    valid = min(n - tile_base, static_cast<unsigned>(kTile));
    full = valid == kTile;
  }

  // Load, warp-striped: warp w owns tile positions [w * kWarpItems, (w + 1) * kWarpItems) and its
  // item j in lane l is position w * kWarpItems + j * 32 + l, so every load is one coalesced
  // 128-byte line and (warp, item, lane) order is input order, which the stable ranking relies
  // on. Positions past the end of the last tile read as `missing`.
  __device__ __forceinline__ void load_tile(const unsigned* __restrict__ in, unsigned missing,
                                            unsigned (&items)[kItems]) const {
    if (full) {
      // one base pointer, so that the kItems loads use immediate offsets
      const unsigned* src = in + (tile_base + first);
#pragma unroll
      for (int j = 0; j < kItems; ++j)
        items[j] = src[j * kStride];
    } else {
#pragma unroll
      for (int j = 0; j < kItems; ++j) {
        const unsigned pos = first + j * kStride;
        items[j] = pos < valid ? in[tile_base + pos] : missing;
      }
    }
  }

  // Missing keys of the last tile order last (digit 255 in every pass, last in input order), so
  // they rank behind every real key, at sorted positions >= valid, and are never written.
  __device__ __forceinline__ void load_keys(const unsigned* __restrict__ keys_in,
                                            unsigned (&keys)[kItems]) const {
    load_tile(keys_in, key_order(KT).largest(), keys);
  }

  // Pairs: the keys and their values at once, from the two arrays or from the packed pairs.
  __device__ __forceinline__ void load_pairs(const unsigned* __restrict__ keys_in,
                                             const unsigned* __restrict__ vals_in,
                                             const PairSpan& pairs_in, unsigned (&keys)[kItems],
                                             unsigned (&vals)[kItems]) const {
    if constexpr (has(LAYOUT, kInPairs)) {
      const uint2* run = nullptr;
      if (pairs_in.run(tile_base, valid, run) && full) {
        const uint2* src = run + (tile_base + first); // one base pointer: immediate offsets
#pragma unroll
        for (int j = 0; j < kItems; ++j) {
          const uint2 p = src[j * kWarpSize];
          keys[j] = p.x;
          vals[j] = p.y;
        }
      } else {
        const unsigned missing = key_order(KT).largest();
#pragma unroll
        for (int j = 0; j < kItems; ++j) {
          const unsigned pos = first + j * kWarpSize;
          const uint2 p = pos < valid ? *pairs_in.at(tile_base + pos) : make_uint2(missing, 0u);
          keys[j] = p.x;
          vals[j] = p.y;
        }
      }
    } else {
      load_keys(keys_in, keys);
      load_tile(vals_in, 0u, vals);
    }
  }

  // Thread 0 asks L2 for the keys of the tile `ahead` tiles after this one (the tile a block
  // takes about a quarter of a wave later: bulk_copy.cuh's l2_ahead_tiles), as far as their last
  // whole 16 bytes; nothing when keys_in is not 16-byte aligned.
  __device__ __forceinline__ void prefetch_keys(const unsigned* keys_in, unsigned n,
                                                unsigned ahead) const {
    const unsigned first_key = (tile + ahead) * kTile; // wraps only far past n (n < 2^31)
    if (threadIdx.x != 0 || tile + ahead >= (n + kTile - 1) / kTile ||
        reinterpret_cast<std::uintptr_t>(keys_in) % 16 != 0)
      return;
    const unsigned count = min(n - first_key, static_cast<unsigned>(kTile)) & ~3u;
    if (count != 0)
      prefetch_l2(keys_in + first_key, 4 * count);
  }

  // Pairs: the same for the tile's pairs (the packed pairs, or the keys and the values). Its
  // first lines repeat prefetch_keys' on purpose: one helper for both changed the keys-only
  // kernels' code and cost them 0.8-1.5% (H200; onesweep.tuning.md, twenty-seventh session).
  __device__ __forceinline__ void prefetch_pairs(const unsigned* keys_in, const unsigned* vals_in,
                                                 const PairSpan& pairs_in, unsigned n,
                                                 unsigned ahead) const {
    const unsigned first_key = (tile + ahead) * kTile;
    if (threadIdx.x != 0 || tile + ahead >= (n + kTile - 1) / kTile)
      return;
    const unsigned count = min(n - first_key, static_cast<unsigned>(kTile)) & ~3u;
    if (count == 0)
      return;
    if constexpr (has(LAYOUT, kInPairs)) {
      // a segment of the output arrays starts 8-byte aligned, the bulk prefetch wants 16 bytes
      const uint2* run = nullptr;
      if (pairs_in.run(first_key, count, run)) {
        const unsigned skip = reinterpret_cast<std::uintptr_t>(run + first_key) % 16 / 8;
        if (count > skip + 1)
          prefetch_l2(run + first_key + skip, 8 * ((count - skip) & ~1u));
      }
    } else {
      if (reinterpret_cast<std::uintptr_t>(keys_in) % 16 == 0)
        prefetch_l2(keys_in + first_key, 4 * count);
      if (reinterpret_cast<std::uintptr_t>(vals_in) % 16 == 0)
        prefetch_l2(vals_in + first_key, 4 * count);
    }
  }

  // Early counts (CUB's BlockRadixRankMatchEarlyCounts): each warp's digit histogram, one shared
  // atomic per key with no return value, before any ranking, so that the tile's counts are
  // published as early as possible. Returns the warp's heavy digit (the most frequent one, where
  // the warp holds more than kHeavyCount keys of it), or kRadix (none), in every lane.
  __device__ __forceinline__ unsigned count_digits(const unsigned (&keys)[kItems]) {
    if constexpr (kHalf)
      return half_count_digits(keys);
    unsigned* counts = s.rank.counts[warp_id()];
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      atomicAdd(&counts[slot_of(digit_of(keys[j]))], 1u);
    __syncwarp();
    unsigned most = 0; // count << 8 | digit
#pragma unroll
    for (int d = lane_id(); d < kRadix; d += kWarpSize)
      most = max(most, counts[slot_of(d)] << kRadixBits | static_cast<unsigned>(d));
    most = warp_all_reduce(most, [](unsigned a, unsigned b) { return max(a, b); });
    __syncthreads();
    return (most >> kRadixBits) > kHeavyCount ? most & (kRadix - 1) : kRadix;
  }

  // Tile totals per digit (thread d owns digit d): scans the ranking rows' counts (warps, or
  // half-warps) into row_prefix, in registers, and publishes the tile's count of d at once (the
  // look-back's aggregate), so that
  // later tiles can look back past this one before its prefix is known. Returns the tile's count
  // of the thread's digit, missing keys included; `real_count` is without them.
  __device__ __forceinline__ unsigned publish_digit_counts(unsigned& real_count) {
    unsigned digit_count = 0;
    real_count = 0;
    if (threadIdx.x < kRadix) {
      const int d = threadIdx.x;
      if constexpr (kHalf) {
#pragma unroll
        for (int r = 0; r < kRankers; ++r) {
          const unsigned c = table(r)[slot_of(d)]; // the count alone (half_count_digits)
          row_prefix[r] = digit_count;
          digit_count += c;
        }
      } else {
#pragma unroll
        for (int w = 0; w < kWarps; ++w) {
          const unsigned c = s.rank.counts[w][slot_of(d)];
          row_prefix[w] = digit_count;
          digit_count += c;
        }
      }
      real_count = digit_count - (d == kRadix - 1 ? kTile - valid : 0u);
      status.publish(tile, d, tile == 0, real_count);
    }
    return digit_count;
  }

  // Each ranking row's tile-sorted start per digit, written once: its row_prefix plus the digit's
  // start in the tile, from a block scan (the prefixes written back first and the start added
  // after, as before, cost the keys-only kernel at block 384 1.4% on the H200 and 0.8% on the
  // H100: onesweep.tuning.md, twenty-ninth session). Returns the start of the thread's digit;
  // `one_digit`: every key of the tile has one digit (the same in every thread).
  __device__ __forceinline__ unsigned digit_starts_in_tile(unsigned digit_count, bool& one_digit) {
    int unused = 0;
    const auto digit_start = static_cast<unsigned>(
        BlockScan<BLOCK>::exclusive_sum(static_cast<int>(digit_count), unused, s.scan));
    if (threadIdx.x < kRadix) {
      if (digit_count == kTile)
        s.one_digit = 1;
      if constexpr (kHalf) {
#pragma unroll
        for (int r = 0; r < kRankers; ++r)
          table(r)[slot_of(threadIdx.x)] = (row_prefix[r] + digit_start) << 16;
      } else {
#pragma unroll
        for (int w = 0; w < kWarps; ++w)
          s.rank.counts[w][slot_of(threadIdx.x)] = row_prefix[w] + digit_start;
      }
    }
    __syncthreads();
    one_digit = s.one_digit != 0;
    return digit_start;
  }

  // Tile-sorted ranks, item by item: the lanes sharing a digit (peers) take consecutive positions
  // after the warp's running start for the digit, which the lowest peer then advances. Peers come
  // from one shared atomicOr per key (CUB's WARP_MATCH_ATOMIC_OR); in a warp with a heavy digit,
  // that digit's peers come from one ballot, since its many lanes on one atomicOr address would
  // serialise. A tile of one digit keeps its input order (CUB's short circuit). kHalf: by
  // half-warps (half_rank_keys), where a warp without a heavy digit runs a loop of its own, with
  // neither the ballot nor the heavy test.
  __device__ __forceinline__ void rank_keys(const unsigned (&keys)[kItems], Ranks& ranks,
                                            unsigned heavy_digit, bool one_digit) {
    if (one_digit) {
#pragma unroll
      for (int j = 0; j < kItems; ++j)
        ranks.set(j, first + j * kStride);
      __syncthreads(); // as below
      return;
    }
    if constexpr (kHalf) {
      half_rank_keys(keys, ranks, heavy_digit);
      __syncthreads(); // as below
      return;
    }
    unsigned* starts = s.rank.counts[warp_id()];
    unsigned* masks = s.rank.match[warp_id()];
    const unsigned below = lane_mask_lt();
    const unsigned me = 1u << lane_id();
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const unsigned digit = digit_of(keys[j]);
      const bool is_heavy = digit == heavy_digit;
      unsigned heavy_lanes = 0;
      if (heavy_digit != kRadix) // the warp's choice
        heavy_lanes = __ballot_sync(kFullMask, is_heavy);
      const unsigned slot = slot_of(digit);
      if (!is_heavy)
        atomicOr(&masks[slot], me);
      __syncwarp();
      const unsigned peers = is_heavy ? heavy_lanes : masks[slot];
      ranks.set(j, take_ranks(starts, masks, slot, peers, below));
    }
    __syncthreads(); // the starts are read: their memory becomes the exchange buffer
  }

  // ---- kHalf: ranking by half-warps ----
  // Ranker r's table (half-warp h of warp w is ranker 2w + h), one word a digit slot: the early
  // count (low 16 bits), then the start in the high 16 bits and the match mask of the half-warp's
  // 16 lanes in the low 16, so a key's ranking takes an atomicOr, one load and the leader's one
  // store (whole warps: an atomicOr, two loads and two stores). The 16 tables take the place of the
  // warps' counts and masks.
  __device__ __forceinline__ unsigned* table(int r) const {
    static_assert(sizeof(s.rank) == 2 * kWarps * kRadix * 4, "16 tables of kRadix words");
    return &s.rank.counts[0][0] + r * kRadix;
  }
  // count_digits by half-warps: the counts in the low 16 bits (at most 16 x kItems, in the
  // match-mask half, unused until digit_starts_in_tile rewrites every word), each key adding 1
  // with no return value, so that ptxas emits ATOMS.POPC.INC: the lanes on one address take one
  // update. Counted by 1 << 16 into the high half (until the thirty-first session) it was a plain
  // ATOMS.ADD, whose lanes on one address serialise: all_equal keys took 1.95x as long at 2^28,
  // low_entropy 1.19x (onesweep.tuning.md). The heavy digit (more than kHeavyCount / 2 of the
  // half-warp's keys) per half-warp, in its lanes.
  __device__ __forceinline__ unsigned half_count_digits(const unsigned (&keys)[kItems]) {
    const unsigned half = lane_id() >> 4;
    unsigned* tbl = table(2 * warp_id() + half);
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      atomicAdd(&tbl[slot_of(digit_of(keys[j]))], 1u);
    __syncwarp();
    // the most frequent slot: the max of count << 16 | slot, 4 slots a load
    unsigned most = 0;
    const unsigned l16 = lane_id() & 15;
#pragma unroll
    for (int i = 0; i < kRadix / 64; ++i) {
      const unsigned base = 4 * (l16 + 16 * i);
      const uint4 q = reinterpret_cast<const uint4*>(tbl)[l16 + 16 * i];
      most = max(most, max(max(q.x << 16 | base, q.y << 16 | (base + 1)),
                           max(q.z << 16 | (base + 2), q.w << 16 | (base + 3))));
    }
#pragma unroll
    for (int o = 8; o > 0; o >>= 1)
      most = max(most, __shfl_xor_sync(kFullMask, most, o));
    __syncthreads();
    return (most >> 16) > kHeavyCount / 2 ? slot_of(most & (kRadix - 1)) : kRadix;
  }
  // rank_keys by half-warps: a warp where neither half has a heavy digit runs the lean loop (the
  // rank from one load: start + the lower peers, no mask to clear apart); otherwise each half's
  // heavy digit takes its peers from a ballot.
  __device__ __forceinline__ void half_rank_keys(const unsigned (&keys)[kItems], Ranks& ranks,
                                                 unsigned heavy_digit) const {
    const unsigned half = lane_id() >> 4;
    unsigned* tbl = table(2 * warp_id() + half);
    const unsigned me = 1u << (lane_id() & 15);
    const unsigned below = me - 1u;
    if (__all_sync(kFullMask, heavy_digit == kRadix)) {
#pragma unroll
      for (int j = 0; j < kItems; ++j) {
        const unsigned slot = slot_of(digit_of(keys[j]));
        atomicOr(&tbl[slot], me);
        __syncwarp();
        const unsigned w = tbl[slot];
        // its own leader update, not take_half_ranks': through the helper, block 256 ran 1.4-9%
        // slower (onesweep.tuning.md, thirty-first session)
        const unsigned in_peers = __popc(w & below); // below < 2^16
        __syncwarp();
        if (in_peers == 0) // the new start, the mask cleared
          tbl[slot] = (w & 0xFFFF0000u) + (static_cast<unsigned>(__popc(w & 0xFFFFu)) << 16);
        __syncwarp();
        ranks.set(j, (w >> 16) + in_peers);
      }
    } else {
#pragma unroll
      for (int j = 0; j < kItems; ++j) {
        const unsigned digit = digit_of(keys[j]);
        const bool is_heavy = digit == heavy_digit;
        const unsigned heavy_lanes = (__ballot_sync(kFullMask, is_heavy) >> (16 * half)) & 0xFFFFu;
        const unsigned slot = slot_of(digit);
        if (!is_heavy)
          atomicOr(&tbl[slot], me);
        __syncwarp();
        const unsigned w = tbl[slot];
        ranks.set(j,
                  take_half_ranks(tbl, slot, is_heavy ? heavy_lanes : w & 0xFFFFu, w >> 16, below));
      }
    }
  }
  // take_ranks for a half-warp's word.
  static __device__ __forceinline__ unsigned
  take_half_ranks(unsigned* tbl, unsigned slot, unsigned peers, unsigned start, unsigned below) {
    const unsigned rank_in_peers = __popc(peers & below);
    __syncwarp();
    if (rank_in_peers == 0)
      tbl[slot] = (start + __popc(peers)) << 16; // the new start, the mask cleared
    __syncwarp();
    return start + rank_in_peers;
  }

  // One item's ranks from its peers: the warp's running start for the digit plus the lane's place
  // among its peers; the lowest peer advances the start and clears the digit's match mask.
  static __device__ __forceinline__ unsigned
  take_ranks(unsigned* starts, unsigned* masks, unsigned slot, unsigned peers, unsigned below) {
    const unsigned earlier = starts[slot];
    const unsigned rank_in_peers = __popc(peers & below);
    __syncwarp();
    if (rank_in_peers == 0) {
      starts[slot] = earlier + __popc(peers);
      masks[slot] = 0;
    }
    __syncwarp();
    return earlier + rank_in_peers;
  }

  // Items to their tile-sorted positions (a permutation of 0..kTile-1) in shared memory.
  __device__ __forceinline__ void exchange(const unsigned (&items)[kItems], const Ranks& ranks) {
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      s.exchange[ranks.get(j)] = items[j];
  }

  // Pairs: the values wait in shared memory, in input order, while the keys are ranked (their
  // registers free for the ranking), in the exchange buffer's second half, which the ranking's
  // counters and masks do not reach.
  static_assert(!PAIRS || kTile >= 2 * kWarps * kRadix, "the values' place after the counters");
  static_assert(!PAIRS || kTile <= (1 << 16), "pairs: 16-bit ranks (TileRanks)");
  __device__ __forceinline__ void park_values(const unsigned (&vals)[kItems]) {
    unsigned* park = reinterpret_cast<unsigned*>(s.exchange) + kTile + first;
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      park[j * kWarpSize] = vals[j];
  }
  // After the ranking's last barrier; a barrier before the exchange overwrites them.
  __device__ __forceinline__ void unpark_values(unsigned (&vals)[kItems]) {
    const unsigned* park = reinterpret_cast<const unsigned*>(s.exchange) + kTile + first;
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      vals[j] = park[j * kWarpSize];
    __syncthreads();
  }

  // Pairs to their tile-sorted positions, key and value in one 8-byte word.
  __device__ __forceinline__ void exchange_pairs(const unsigned (&keys)[kItems],
                                                 const unsigned (&vals)[kItems],
                                                 const Ranks& ranks) {
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      s.exchange[ranks.get(j)] = make_uint2(keys[j], vals[j]);
  }

  // Per-digit look-back (thread d, serially over the earlier tiles' status words of digit d, until
  // an inclusive prefix; common/lookback.cuh's DigitTileStatus), then the tile's inclusive prefix
  // is published. Sets the output index of each digit's first tile-sorted position.
  // Also clears this tile's row of the next pass's status words (next_status; nullptr in the last
  // pass), so that no pass needs a memset before it.
  __device__ __forceinline__ void lookback_digits(unsigned real_count, unsigned digit_start,
                                                  const unsigned* __restrict__ digit_starts,
                                                  unsigned* __restrict__ next_status) {
    if (threadIdx.x < kRadix) {
      const int d = threadIdx.x;
      if (next_status != nullptr)
        next_status[static_cast<std::size_t>(tile) * kRadix + d] = 0u;
      unsigned earlier = 0; // keys of digit d in all earlier tiles
      if (tile > 0) {
        earlier = status.template exclusive_prefix<kLookbackDepth>(tile, d);
        status.publish(tile, d, true, earlier + real_count);
      }
      // output index of sorted position p of digit d = start of d + earlier + (p - digit_start)
      s.global_base[d] = digit_starts[d] + earlier - digit_start;
    }
    __syncthreads();
  }

  // A pass whose keys all share one digit (onesweep_scan_bins' flag) keeps the input order: each
  // key goes to its own position, with no count, ranking, exchange or look-back (all_equal keys,
  // or the high bytes of small values, move at about the copy rate). The tile still clears its
  // row of the next pass's status words.
  __device__ __forceinline__ void copy_tile(const unsigned (&keys)[kItems],
                                            unsigned* __restrict__ keys_out,
                                            unsigned* __restrict__ next_status) const {
    if (next_status != nullptr && threadIdx.x < kRadix)
      next_status[static_cast<std::size_t>(tile) * kRadix + threadIdx.x] = 0u;
    unsigned* dst = keys_out + (tile_base + first); // one base pointer: immediate offsets
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      if (full || first + j * kStride < valid)
        dst[j * kStride] = keys[j];
  }

  // Thread t writes sorted positions t, t + BLOCK, ...: within a digit consecutive positions go to
  // consecutive addresses, so each digit's keys leave as one contiguous run.
  __device__ __forceinline__ void scatter_keys(unsigned* __restrict__ keys_out) const {
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const unsigned pos = j * BLOCK + threadIdx.x;
      const unsigned key = s.exchange[pos];
      const unsigned d = digit_of(key);
      if (full || pos < valid) // two 64-bit adds (see global_base): -2.8% (onesweep.tuning.md)
        *(keys_out + s.global_base[d] + pos) = key;
    }
  }

  // Pairs: the keys' positions. Packed output: each pair stored as one 8-byte word. The arrays
  // (the last pass only): the keys, then the values, each by a loop of its own (A/B: the same
  // time as one loop storing both; a pass that writes the two arrays takes 1.4x one that writes
  // packed pairs, ncu: onesweep.tuning.md, twenty-sixth session). One store at a time (CUB's
  // form: a __syncwarp() after each).
  __device__ __forceinline__ void scatter_pairs(unsigned* __restrict__ keys_out,
                                                unsigned* __restrict__ vals_out,
                                                const PairSpan& pairs_out) const {
    if constexpr (has(LAYOUT, kOutPairs)) {
#pragma unroll
      for (int j = 0; j < kItems; ++j) {
        const unsigned pos = j * BLOCK + threadIdx.x;
        const uint2 p = s.exchange[pos];
        const unsigned d = digit_of(p.x);
        if (full || pos < valid) {
          if constexpr (has(LAYOUT, kOutSplit))
            *pairs_out.at(s.global_base[d] + pos) = p;
          else
            reinterpret_cast<uint2*>(pairs_out.base[0])[s.global_base[d] + pos] = p;
        }
        __syncwarp();
      }
    } else {
      unsigned digits[(kItems + 3) / 4] = {}; // 8 bits each, for the values' loop
#pragma unroll
      for (int j = 0; j < kItems; ++j) {
        const unsigned pos = j * BLOCK + threadIdx.x;
        const unsigned key = s.exchange[pos].x;
        const unsigned d = digit_of(key);
        digits[j / 4] |= d << (8 * (j % 4));
        if (full || pos < valid)
          keys_out[s.global_base[d] + pos] = key;
        __syncwarp();
      }
#pragma unroll
      for (int j = 0; j < kItems; ++j) {
        const unsigned pos = j * BLOCK + threadIdx.x;
        const unsigned d = (digits[j / 4] >> (8 * (j % 4))) & (kRadix - 1);
        if (full || pos < valid)
          vals_out[s.global_base[d] + pos] = s.exchange[pos].y;
        __syncwarp();
      }
    }
  }
};

// The agent's shared memory: static for keys; dynamic for pairs, whose 8-byte exchange is larger
// than the 48 KB a kernel's static shared memory may take.
template <typename Agent, bool DYNAMIC> __device__ typename Agent::TempStorage& agent_storage() {
  if constexpr (DYNAMIC) {
    extern __shared__ uint4 s_onesweep_pairs[];
    return *reinterpret_cast<typename Agent::TempStorage*>(s_onesweep_pairs);
  } else {
    __shared__ typename Agent::TempStorage storage;
    return storage;
  }
}

template <int BLOCK, bool PAIRS, KeyType KT, int LAYOUT = 0>
__global__ void __launch_bounds__(BLOCK, OnesweepPolicy<BLOCK>::kMinBlocks)
    onesweep_pass(const unsigned* __restrict__ keys_in, unsigned* __restrict__ keys_out,
                  const unsigned* __restrict__ vals_in, unsigned* __restrict__ vals_out, unsigned n,
                  int shift, const unsigned* __restrict__ digit_starts,
                  DigitTileStatus<kRadix> status, unsigned* __restrict__ next_status,
                  unsigned* __restrict__ tile_counter, bool early_trigger, unsigned ahead,
                  PairSpan pairs_in, PairSpan pairs_out,
                  const unsigned* __restrict__ one_digit_pass) {
  using Agent = OnesweepAgent<BLOCK, PAIRS, KT, LAYOUT>;
  Agent agent(agent_storage<Agent, PAIRS>(), shift, status);
  // the next pass may launch once every block of this one runs; its blocks take their tiles and
  // clear their shared memory, then wait for this pass's output (keys, status rows)
  if (early_trigger)
    allow_dependent_launch();
  agent.take_tile(tile_counter, n);
  wait_for_prerequisite_grid(); // the previous pass (or the digit scans) finished and flushed
  if (ahead != 0) {             // the tile `ahead` tiles on, fetched into L2
    if constexpr (PAIRS)
      agent.prefetch_pairs(keys_in, vals_in, pairs_in, n, ahead);
    else
      agent.prefetch_keys(keys_in, n, ahead);
  }
  unsigned keys[Agent::kItems];
  typename Agent::Ranks ranks;
  [[maybe_unused]] unsigned vals[PAIRS ? Agent::kItems : 1];
  if constexpr (PAIRS) {
    agent.load_pairs(keys_in, vals_in, pairs_in, keys, vals);
  } else if constexpr (Agent::kHalf) {
    const bool copy = *one_digit_pass != 0; // the same in every block
    agent.load_keys(keys_in, keys);
    if (copy) {
      agent.copy_tile(keys, keys_out, next_status);
      return;
    }
  } else {
    (void)one_digit_pass; // block 384 keeps the full pass (onesweep.tuning.md)
    agent.load_keys(keys_in, keys);
  }
  if constexpr (PAIRS)
    agent.park_values(vals);
  const unsigned heavy_digit = agent.count_digits(keys);
  unsigned real_count;
  const unsigned digit_count = agent.publish_digit_counts(real_count);
  bool one_digit;
  const unsigned digit_start = agent.digit_starts_in_tile(digit_count, one_digit);
  agent.rank_keys(keys, ranks, heavy_digit, one_digit);
  if constexpr (PAIRS)
    agent.unpark_values(vals);
  if constexpr (PAIRS)
    agent.exchange_pairs(keys, vals, ranks);
  else
    agent.exchange(keys, ranks);
  agent.lookback_digits(real_count, digit_start, digit_starts,
                        next_status); // its barrier ends the exchange
  if constexpr (PAIRS)
    agent.scatter_pairs(keys_out, vals_out, pairs_out);
  else
    agent.scatter_keys(keys_out);
}

// A pairs pass's dynamic shared memory, opted in once per kernel and device.
template <int BLOCK, KeyType KT, int LAYOUT> int pairs_pass_shared_bytes() {
  constexpr int kBytes = sizeof(typename OnesweepAgent<BLOCK, true, KT, LAYOUT>::TempStorage);
  opt_in_shared<onesweep_pass<BLOCK, true, KT, LAYOUT>>(kBytes);
  return kBytes;
}

// The histogram kernel's resident blocks on the current device (occupancy.hpp; its 64 KB of
// dynamic shared memory opted in once per device).
template <KeyType KT> std::size_t histogram_blocks() {
  static PerDevice<unsigned> blocks;
  return blocks.get([](int device) {
    return resident_block_count(onesweep_histogram<KT>, kHistBlock, kHistBytes, device,
                                "onesweep's histogram");
  });
}

template <int BLOCK, bool PAIRS, KeyType KT>
void onesweep_launch(void* temp, std::size_t& temp_bytes, const unsigned* keys_in,
                     unsigned* keys_out, const unsigned* vals_in, unsigned* vals_out, std::size_t n,
                     cudaStream_t stream) {
  constexpr std::size_t kTile = OnesweepAgent<BLOCK, PAIRS, KT>::kTile;
  static_assert(kTile == OnesweepAgent<BLOCK, PAIRS, KeyType::Uint32>::kTile, "one tile per block");
  constexpr unsigned kTransformedBits = key_order(KT).changed_bits();
  const std::size_t tiles = (n + kTile - 1) / kTile;
  // temporary storage: pass counters + histograms + one-digit flags, two arrays of status words
  // (pass p uses array p % 2 while its tiles clear their rows of the other one for pass p + 1; the
  // header and array 0 take one memset up front), temporary keys (and values)
  constexpr std::size_t kHeader = kPasses + kPasses * kRadix + kPasses;
  TempLayout layout(temp);
  unsigned* header = layout.take<unsigned>(kHeader);
  unsigned* counters = header;                          // one tile counter per pass
  unsigned* bins = header + kPasses;                    // [pass][digit]
  unsigned* one_digit_passes = bins + kPasses * kRadix; // the passes whose keys share one digit
  unsigned* status = layout.take<unsigned>(2 * tiles * kRadix);
  unsigned* const status_of[2] = {status, status + tiles * kRadix};
  // The keys' ping-pong buffer (keys only), or the pairs packed as uint2 {key, value} and one
  // spare pair (pairs). Pairs: pass 0 reads the key and value arrays and writes packed pairs, 1
  // and 2 move packed pairs between the temporary and the output arrays' bytes (a three-segment
  // PairSpan), 3 writes the output arrays. Where an output array is not 8-byte aligned, passes 1
  // and 2 write and read the arrays instead.
  unsigned* keys_tmp = layout.take<unsigned>(PAIRS ? 0 : n);
  uint2* pairs_tmp = layout.take<uint2>(PAIRS ? n : 0);
  uint2* spare = layout.take<uint2>(PAIRS ? 1 : 0);
  if (layout.sized(temp_bytes))
    return;
  static_assert(kPasses == 4, "pairs: the layouts of the four passes");

  // zeroed: the counters, the histograms, the one-digit flags and status array 0 (the layout puts
  // them first, in this order)
  CUDA_CHECK(cudaMemsetAsync(
      header, 0,
      reinterpret_cast<const char*>(status_of[1]) - reinterpret_cast<const char*>(header), stream));
  // the histogram: whole waves of resident blocks, enough of them that none takes more tiles
  // than its 16-bit counters hold (onesweep_plan.hpp)
  const auto hist_grid =
      static_cast<unsigned>(onesweep_plan::histogram_grid(n, histogram_blocks<KT>()));
  // Each kernel after the histogram is launched to start while the kernel before it ends
  // (dependent_launch.cuh): its blocks take their tile and clear their shared memory, then wait.
  // Whether a kernel lets the next one launch once all its blocks run (early_trigger) or only as
  // they exit was measured (onesweep_plan::early_trigger).
  const bool early_trigger = onesweep_plan::early_trigger(tiles);
  // every pass prefetches a later tile into L2 (keys 2^28 -2% on the H100, packed pairs -1.1%)
  unsigned ahead = 0;
  if constexpr (!PAIRS)
    ahead = l2_ahead_tiles_of<onesweep_pass<BLOCK, false, KT>>(BLOCK, 0, "onesweep");
  else
    ahead = l2_ahead_tiles_of<onesweep_pass<BLOCK, true, KT, kOutPairs>>(
        BLOCK, pairs_pass_shared_bytes<BLOCK, KT, kOutPairs>(), "onesweep");
  onesweep_histogram<KT>
      <<<hist_grid, kHistBlock, kHistBytes, stream>>>(keys_in, n, bins, early_trigger);
  CUDA_CHECK_LAUNCH();
  launch_dependent(onesweep_scan_bins, kPasses, kRadix, 0, stream, bins, one_digit_passes,
                   early_trigger);

  // pairs: the temporary as one segment; the output arrays as three (PairSpan)
  const auto n32 = static_cast<unsigned>(n);
  const auto address = [](const void* q) { return reinterpret_cast<std::uintptr_t>(q); };
  PairSpan tmp_pairs = {};
  PairSpan out_pairs = {};
  bool split = false;
  if constexpr (PAIRS) {
    tmp_pairs = {{address(pairs_tmp), address(pairs_tmp), address(pairs_tmp)}, n32, n32};
    const unsigned half = n32 / 2;
    const std::uintptr_t bytes_half = std::uintptr_t{8} * half; // 64-bit: half < 2^30
    out_pairs = {
        {address(keys_out), address(vals_out) - bytes_half, address(spare) - 2 * bytes_half},
        half,
        2 * half};
    split = address(keys_out) % 8 == 0 && address(vals_out) % 8 == 0;
  }
  for (int pass = 0; pass < kPasses; ++pass) {
    const auto p = detail::pass_buffers(pass, kPasses, keys_in, keys_out, keys_tmp, vals_in,
                                        vals_out, nullptr);
    // pairs: which side of the pass holds packed pairs, and their spans
    int pair_layout = 0;
    PairSpan pairs_in = {}, pairs_out = {};
    if (PAIRS && pass % 2 == 0) { // the arrays (the input, or the output's bytes) to the temporary
      pair_layout = kOutPairs | (pass == 2 && split ? kInPairs : 0);
      pairs_in = out_pairs;
      pairs_out = tmp_pairs;
    } else if (PAIRS) { // the temporary to the output's bytes, or to the output arrays
      pair_layout = kInPairs | (pass == 1 && split ? kOutPairs | kOutSplit : 0);
      pairs_in = tmp_pairs;
      pairs_out = out_pairs;
    }
    const int shift = pass * kRadixBits;
    const auto launch = [&](auto kernel, int shared_bytes) {
      launch_dependent(kernel, static_cast<unsigned>(tiles), BLOCK, shared_bytes, stream,
                       p.keys_src, p.keys_dst, p.vals_src, p.vals_dst, n32, shift,
                       bins + pass * kRadix, DigitTileStatus<kRadix>{status_of[pass % 2]},
                       pass + 1 < kPasses ? status_of[(pass + 1) % 2] : nullptr, counters + pass,
                       early_trigger, ahead, pairs_in, pairs_out, one_digit_passes + pass);
    };
    // A pass whose digit the key type's transform leaves alone (int32: every pass but the last)
    // runs the uint32 kernel: the same digits, without the transform per key (int32 sorted 3%
    // slower than uint32 before; results/nvidia-h100-80gb-hbm3.json at e48f73b4e815).
    const bool transformed = ((kTransformedBits >> shift) & (kRadix - 1)) != 0;
    const auto launch_pass = [&](auto layout_constant) {
      constexpr int kLayout = decltype(layout_constant)::value;
      if constexpr (!PAIRS) {
        (void)kLayout; // keys only: pair_layout is 0
        if (transformed)
          launch(onesweep_pass<BLOCK, false, KT>, 0); // launch_dependent checks the launch
        else
          launch(onesweep_pass<BLOCK, false, KeyType::Uint32>, 0);
      } else if (transformed) {
        launch(onesweep_pass<BLOCK, true, KT, kLayout>,
               pairs_pass_shared_bytes<BLOCK, KT, kLayout>());
      } else {
        launch(onesweep_pass<BLOCK, true, KeyType::Uint32, kLayout>,
               pairs_pass_shared_bytes<BLOCK, KeyType::Uint32, kLayout>());
      }
    };
    using Int = std::integral_constant<int, 0>;
    switch (pair_layout) {
    case kInPairs:
      launch_pass(std::integral_constant<int, kInPairs>{});
      break;
    case kOutPairs:
      launch_pass(std::integral_constant<int, kOutPairs>{});
      break;
    case kInPairs | kOutPairs:
      launch_pass(std::integral_constant<int, kInPairs | kOutPairs>{});
      break;
    case kInPairs | kOutPairs | kOutSplit:
      launch_pass(std::integral_constant<int, kInPairs | kOutPairs | kOutSplit>{});
      break;
    default:
      launch_pass(Int{}); // keys only
    }
  }
}

template <int BLOCK>
void onesweep_dispatch(void* temp, std::size_t& temp_bytes, const unsigned* keys_in,
                       unsigned* keys_out, const unsigned* vals_in, unsigned* vals_out,
                       std::size_t n, KeyType key_type, cudaStream_t stream) {
  detail::with_pairs(vals_in, [&](auto pairs) {
    dispatch_key_type(key_type, [&](auto kt) { // uint32: the transform-free kernels
      onesweep_launch<BLOCK, decltype(pairs)::value, decltype(kt)::value>(
          temp, temp_bytes, keys_in, keys_out, vals_in, vals_out, n, stream);
    });
  });
}

} // namespace

std::size_t onesweep_tile(int block) {
  switch (block) {
  case 256:
    return 256 * OnesweepPolicy<256>::kItems;
  case 384:
    return 384 * OnesweepPolicy<384>::kItems;
  default:
    return 0;
  }
}

void sort_onesweep(void* temp, std::size_t& temp_bytes, const unsigned* keys_in, unsigned* keys_out,
                   const unsigned* vals_in, unsigned* vals_out, std::size_t n, KeyType key_type,
                   int block, cudaStream_t stream) {
  // status words hold counts + 1 below bit 31, and tile positions are 32-bit
  if (n >= (std::size_t{1} << 31) - 1)
    throw std::invalid_argument("onesweep: n must be below 2^31 - 1 (32-bit tile positions, "
                                "31-bit look-back values)");
  if (block != 256 && block != 384)
    throw std::invalid_argument("onesweep: unsupported block size " + std::to_string(block) +
                                " (256 or 384)");
  if (n == 0) {
    no_temp_needed(temp, temp_bytes);
    return;
  }
  if (block == 256)
    onesweep_dispatch<256>(temp, temp_bytes, keys_in, keys_out, vals_in, vals_out, n, key_type,
                           stream);
  else
    onesweep_dispatch<384>(temp, temp_bytes, keys_in, keys_out, vals_in, vals_out, n, key_type,
                           stream);
}

} // namespace gps::sort
