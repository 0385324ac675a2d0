// onesweep: LSD radix sort with 8-bit digits in one kernel per pass (Adinets & Merrill 2022,
// "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs"; CUB's DeviceRadixSort on
// sm_70+). Up front, one kernel counts all four digit positions of every key (shared-memory atomics
// into a 16-bit counter column per lane, then global atomics) and a tiny kernel scans each of the
// four 256-bin histograms: the global start of every digit in every pass. Then, per pass, one
// kernel (started while the one before ends: programmatic dependent launch; no memset between
// passes, each pass clears the next one's status words) whose blocks run the steps
// of OnesweepAgent (the layout of CUB's AgentRadixSortOnesweep with its early counts), each a
// named function:
//   take_tile             the next tile index from an atomic counter (launch order, so the
//                         look-back below only ever waits on running or finished tiles);
//   load_keys             BLOCK x ITEMS keys, warp-striped;
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
//                         input order (CUB's short circuit);
//   exchange              the keys into digit-sorted order through shared memory;
//   lookback_digits       per digit, a look-back across the earlier tiles (thread d walks digit
//                         d's status words, 4 per L2 round trip, until it meets an inclusive
//                         prefix; common/lookback.cuh's DigitTileStatus, 32-bit words), then the
//                         tile's inclusive prefix is published;
//   scatter_keys,         thread t writes sorted positions t, t + BLOCK, ...: the output index is
//   scatter_values        the digit's global start + its look-back prefix + the position within
//                         the digit, so each digit's keys leave as one contiguous run; the values
//                         follow the keys' ranks through the same exchange.
// Change from block_local_4bit: 8-bit digits (4 passes instead of 8), no per-pass counting kernel
// or scan over a digit table (one histogram pass for all digits, and the per-tile offsets come
// from the decoupled look-back inside the sorting kernel), and the local sort is a single
// match-based ranking instead of four block-wide splits. Each pass reads and writes every key
// (and value) exactly once. int32 and float32 keys: the digits are taken from the keys after
// sort.hpp's KeyOrder transform (the histogram and digit_of), and the keys move unchanged; a
// pass whose digit the transform does not touch (int32: all but the last) runs the uint32 kernel.
// Limits: n < 2^31 - 1 (32-bit tile positions; look-back values are 31-bit); any 4-byte-aligned
// pointers (scalar, warp-striped global loads and stores).
// Measured (H200, git show 4ff90fa:results/nvidia-h200.json), G keys/s, uniform keys: block
// 256 / 512: 28.9 / 29.7 at 2^24, 33.6 / 34.3 at 2^28 (keys, 0.81x CUB at 512); pairs 24.7 at
// 2^24, 27.8 at 2^28 (block 512, 0.77x CUB). Block 512 with 12 keys per thread was the default
// then; it is 384 x 22 now (below). Tried and dropped (2026-11-22): all_equal keys run at 0.69x CUB
// (H100) against 0.81x for uniform ones, and the guess was that the histogram's 4 shared-memory
// atomics per key serialise when a warp's 32 lanes hit one address. A warp whose lanes shared a
// digit counted it with one atomic (a shuffle and a vote per key and digit). Predicted: all_equal
// 0.69x -> 0.85-0.9x CUB, uniform unchanged. Measured on one H200 in one call, A/B/A builds, 5
// repetitions, block 512: every row slower: keys at 2^28 uniform 7834 -> 8273 us (+5.6%),
// low_entropy +4.5%, all_equal 6801 -> 7673 us (+12.8%); pairs +3.6% to +11%; 2^24 the same (+4% to
// +11%); ranges disjoint, the A runs within 0.1% of each other. Hopper's shared atomics on one
// address are not the cost the guess assumed; the vote and shuffle added to every key are. Where a
// block's life goes (2026-11-22, second session; a traced copy of one pass stamping clock64()
// between the steps, H200, 2^28 uniform keys, block 512, 43691 tiles, 1807 us a pass): 20895 cycles
// a block: take_tile 1397 (the tile counter's atomic), load 536, rank_keys 7756 (37%: 8 ballots, 2
// population counts and a shared counter round trip per key), publish 1080, rank_in_tile 1875,
// exchange 649, lookback_digits 5231 (25%: p10/p50/p90 4514/5203/5989 cycles, about three L2 round
// trips of the serial per-digit walk), scatter 2371. Then (predicted: keys 2^28 7834 -> 6700-7200
// us): the digit walk loads 4 predecessors per round trip (kLookbackDepth;
// StatusWords::serial_lookback<DEPTH>). Measured (one H200, builds A-B-C-D-A-B, 5 repetitions,
// block 512): keys 2^28 7792/7794 -> 7070/7074 us (-9%), pairs 9571 -> 8901 (-7%), 2^24 keys 565 ->
// 527 us, low_entropy 7834 -> 7117, all_equal 6755 -> 6393; 8 predecessors: 7166 (keys), between.
// Kept at 4. Hardware match.any instead of the 8 ballots per key: keys uniform 11083 us (+57%: it
// serialises over the distinct digits of a warp), all_equal 4473 us
// (-30%); dropped. CUB in the same run: keys 5427 us (onesweep 0.77x), pairs 7423 (0.83x).
// Two changes to rank_keys, A-B-C-D-A in one call on the H200 (5 repetitions, block 512): every
// item's 8 ballots first, then the counter chain (predicted -3..8% from the ILP): keys 2^28
// 7112/7105 -> 7133 us, pairs 8992/8972 -> 8956, the same within the noise; the peers' leader
// bumping the warp counter with a shared atomic and shuffling the old value to its peers, no
// __syncwarp pair (no prediction): keys 7384 us (+4%), pairs 9085; both together: keys 7112,
// pairs 9187. Dropped: neither the order of the ballots nor the counter's round trip is what the
// ranking waits on.
// CUB's early counts (BlockRadixRankMatchEarlyCounts, read to learn): each warp's digit histogram
// by shared atomics first, the tile's counts published before the ranking, then per key the
// highest peer bumps the warp's tile-sorted start with one atomic and shuffles it to its peers, so
// the ranks come out tile-sorted (no rank_in_tile pass over the keys). Predicted keys 2^28 7100
// -> 6000-6500 us. Measured (one H200, A-B-C-A-B-C builds, 5 repetitions, block 512; baseline
// keys 7080/7054 us, pairs 8909/8893, 2^24 keys 527/524, low_entropy 7124/7107, all_equal
// 6397/6392): with the 8 ballots for the peers, keys 7893/7894 (+12%); with the peers from a
// shared atomicOr per key (CUB's WARP_MATCH_ATOMIC_OR), keys 6361/6359 (-10%), 2^24 447/449
// (-15%), pairs 8645/8650 (-3%), but low_entropy 7940/7941 (+12%) and all_equal 7614/7615 (+19%):
// lanes sharing a digit serialise on one atomicOr address. Not kept (the issue also asks for the
// skewed distributions); the next attempt: the atomicOr peers with CUB's short circuit for tiles
// of one digit, and the ballots where a warp's keys are skewed.
// That attempt, same call pattern (A-B-C-A-B; baseline keys 7112/7099 us, 2^24 533/526,
// low_entropy 7163/7155, all_equal 6420/6413): early counts, the tile's counts published before
// the ranking, a short circuit for tiles of one digit, atomicOr peers with this kernel's LDS/STS
// counter chain, the 8 ballots in warps with more than 48 (or 24) keys of one digit. Predicted:
// uniform 6000-6400 us, low_entropy no worse, all_equal under 5000. Measured: uniform 6730/6728
// (-5%), 2^24 477 (-10%), pairs 8903 (-1%), but low_entropy 9448 (+32%) and all_equal 7640
// (+19%): the early histogram's atomics serialise when a warp's lanes share a digit (CUB spreads
// them over RANK_NUM_PARTS copies), which the short circuit comes too late to save. Not kept.
// Third session (2026-11-22, H200, each call A/B builds in one run, 5 repetitions, medians; keys
// 2^28 uniform unless said; CUB in the same runs: keys 5422-5439 us, pairs 7415-7465, low_entropy
// 5547-5571, all_equal 3934-3975):
//   X2 = the early-counts structure above with count atomics that return nothing, peers by
//     atomicOr, ballots in warps with a heavy digit, short circuit (block 512 x 12). Predicted
//     6600-6700 us, low_entropy ~7200, all_equal ~5500. Measured: 6799 (baseline at 8200f16's
//     design 7078), pairs 8956, low_entropy 8690 (+22%), all_equal 4744 (-26%). The first try's
//     returning atomics (for the warp maximum) had cost all_equal 7611.
//   X3 = X2 with the look-back moved before the ranking, to publish each inclusive prefix early.
//     Predicted -12%. Measured +8% (7348): the block waits the same, only sooner. Dropped.
//   Tile shape: 384 x 20 (CUB's sm_90 keys tile). Predicted -3..7%. Measured 6831 -> 6157 (-10%),
//     pairs 9022 -> 8131, low_entropy 8718 -> 7892, all_equal 4781 -> 4023. 384 x 16: 6999;
//     384 x 22: 5910 (kept; 47 KB of static shared memory, 24 keys would need dynamic shared
//     memory); block 256 x 16 in the same design: 6750-6990.
//   Peers from match.any in every warp (CUB's WARP_MATCH_ANY): 11450 (+86%). Dropped.
//   Count atomics over 2 histogram copies (odd and even lanes): uniform +3.4%, low_entropy +3.6%.
//     Histogram kernel with 8 bin copies (CUB's sm_90 histogram policy): within 1% either way
//     (uniform -0.4%, low_entropy -0.8%, all_equal +1.2%). Both dropped: contention on the count
//     atomics is not what low_entropy pays.
//   ncu (gpu__time_duration, one sort, 384 x 22): histogram 472 us, passes 1341-1345 us each;
//     CUB's histogram 456, passes 1217-1223. low_entropy: ours 531 and ~1750 per pass, CUB 572
//     and ~1222; all_equal: ours 379 and ~846, CUB 273 and ~889. The low_entropy loss is in the
//     passes: its warps ranked by the 8 ballots (or by atomicOr with ~11 lanes of digit 0 on one
//     address) cost ~400 us a pass more than atomicOr on uniform keys.
//   Heavy digit by one ballot, the rest by atomicOr (predicted low_entropy 7571 -> 6100-6400,
//     uniform +-0.5%). Measured against no special case (A-B-C-D-A-B-C, two loops / one loop with
//     a ballot per key / one loop, the ballot only in heavy warps): low_entropy 7846 -> 6782 /
//     6850 / 6831 (-13%), uniform 5948 -> 6080 / 6074 / 6036 (+1.5% for the last), pairs +0.5%,
//     2^24 keys +3.5%; all_equal 3734 -> 3946-3982 (+6%), which came from the heavy digit being
//     noted by shared atomicMax in the publish step; the warp now finds it itself from its counts.
//     Kept (one loop, ballot only in heavy warps): the issue asks for skewed keys too.
//   Final at 384 x 22 (anchor runs, commit 63ee721): keys 5795 us (0.94x CUB), low_entropy 6438,
//     all_equal 3591. Then the match masks moved into the exchange buffer's memory (unused until
//     the ranking ends): 47 -> 35 KB of shared memory, the same time (5786 against 5786), and room
//     for more keys per thread. Predicted for 24 keys: -1..3%. Measured (A-B-C-D-A-C-B): 384 x 24
//     keys 5619/5625 (-2.9%), pairs 7915 -> 7543 (-4.7%), low_entropy 6278 (-2.1%), all_equal 3430
//     (-4.8%); 384 x 26 (spills): keys 5617, pairs 7715; block 256 x 16 / 20 / 24 (3 blocks per
//     SM): 7047 / 6143 / 5703. Kept: 24 keys at both blocks.
//   Then (one call, A-B-C-D-A-B-C): the keys of tile blockIdx.x loaded while the tile counter's
//     atomic is in flight, reloaded when the counter answers another index (predicted -3..6%: the
//     atomic was 7% of a block's life in the trace). Measured: keys 5618/5617 -> 5794/5797 us
//     (+3.1%), pairs +1.9%, all_equal +5.5%. With it, 2 or 8 look-back predecessors per round trip
//     instead of 4: keys 5737/5729 and 5737 (both -1% against 4, within that slower build). Not
//     kept (code as at 16282f4).
//   On the final build (A-B-C-D-E-A-B-E, no predictions beyond +-1..3%): 2 look-back predecessors
//     per round trip: keys 5656/5650 against 5613/5612 with 4 (+0.7%), all_equal +2.2%; 8: keys
//     5628 (+0.3%), all_equal -0.9%; the heavy-digit threshold at 24 or 96 keys instead of 48:
//     low_entropy 6275 and 6276/6277 against 6276, uniform unchanged. Kept: 4 and 48.
//   Evict-first loads and stores (A-B-C-D-A-B-D): the A build, meant as the baseline, wrote the
//     scatter's address as pointer + base + position (two 64-bit adds) instead of pointer[base +
//     position] (a 32-bit add, then the widening), and was faster than 16282f4: keys 5463/5461
//     against 5612 us in the call before (-2.7%), low_entropy 6100/6097 (-2.8%), all_equal 3321
//     (-2.3%), pairs 7474/7451 (-0.6%); CUB 5429 in both calls. Evict-first loads: keys the same
//     (5461/5454), pairs +6.9% (7966); evict-first stores: keys +1.5%, pairs +8%; both: the same
//     as the stores. Not kept.
//   The address form on its own (A-B-C-B-A-C, CUB keys 5445 us): P0 = pointer[base + position]
//     for keys and values, P1 = pointer + base + position for both, P2 = P1 for keys, P0 for
//     values. Predicted: P1 keys -2.7%, pairs -1% from P2. Measured: keys 5619/5615 (P0), 5461/5461
//     (P1), 5459/5459 (P2); pairs 7543/7555, 7670/7665 (+1.6%), 7757/7759 (+2.8%); all_equal pairs
//     5292/5290, 5574/5572 (+5.3%), 5596/5595; low_entropy keys 6281/6279, 6108/6108, 6106/6106.
//     Kept: P1 for the keys-only pass, P0 for pairs (each pass's PTX identical to the measured).
//   Pairs with only the values' address in the new form (H100, A-B-A-B; predicted +-2%): uniform
//     2^28 9425/9434 against 9440/9440 us, 2^24 the same, low_entropy 8029/7995 against
//     8108/8105 (-1.2%), all_equal -0.2%; CUB 8909. Not kept: within 1.5% and not measured on the
//     H200, where both stores in the new form cost pairs 1.6% (branch wip/vptr).
//   Pairs: the tile's values prefetched into L2 by one cp.async.bulk.prefetch as the tile starts
//     (H100, A-B-A-B; predicted -1..4%, the values' loads after the scatter hitting L2). Measured:
//     uniform 2^28 9739/9743 against 9154/9180 us (+6.1%), 2^24 +5.5%, 2^30 +6.7%, low_entropy
//     +4.0%, all_equal +6.4%; keys the same (5523/5519 against 5520/5523). Not kept (wip/vpf).
//   int32 keys sort 3% slower than uint32 (the anchors). The XOR of the order transform applied
//     after the shift in digit_of, to fold into the mask: the same PTX, so not measured.
// Fourth session (2026-11-22, H100): where pairs lose to CUB there. Values cost CUB 3351 us a
//   sort at 2^28 (pairs minus keys) and us 3868 (+15%; on the H200 2034 against 2107, +4%;
//   results/partial/nvidia-{h100,h200}-headline.json).
//   ncu, one sort's four passes (--clock-control none): the same DRAM bytes (2.2 GB read and
//   written a pass), but 2.15-2.30 ms a pass against CUB's 2.03-2.16; issue active 25-27%
//   against 32-34%; stalls per issue long scoreboard 5.7-6.4 against 4.2-4.6, barrier 5.3-6.0
//   against 4.6-5.2, lg throttle 0.63-0.72 against 0.08; 155 M shared bank conflicts against 81 M
//   (keys: 134 M against 60 M, at the same 1.25 ms a pass); 42.8 M L2 write requests against
//   39.7 M. CUB's pairs tile is 384 x 23 (30393 tiles), its keys tile 384 x 19. A/B on the H100
//   (branch wip/pairs-h100, A-B-C-D-E-A, 5 repetitions, medians in us, pairs 2^28 uniform /
//   low_entropy / all_equal / 2^30 uniform; CUB 8927 / 7867 / 6799 / 34335):
//     24 items (as here)          9461 and 9451 / 8111 and 8104 / 6699 and 6695 / 36147 and 36155
//     20 items per thread         9787 / 8455 / 6861 / 37432   (predicted -1..4%; +3.5%)
//     22 items per thread         9576 / 8347 / 6732 / 36502   (+1.3%)
//     24, values loaded before the look-back (their latency under it; predicted -1..4%)
//                                 9405 / 7974 / 6544 / 36211   (-0.5%, -1.6%, -2.3%, +0.2%)
//     20, values loaded early     9870 / 8423 / 6680 / 38028
//   Not kept: smaller tiles are slower, and the early load gains under 1% on uniform pairs (not
//   measured on the H200). The gap is in how the pass issues its work (fewer instructions than
//   CUB's, 593 M against 708 M, but a lower issue rate), not in the bytes it moves.
//   Keys, the same ncu (H100): our pass and CUB's both take 1.25 ms, ours with 534 M warp
//   instructions at 80 registers (2 blocks, 24 warps per SM, issue active 41%), CUB's with 713 M
//   at 56 registers (3 blocks of 384 x 19, 36 warps, issue active 55%). A/B (branch
//   wip/keys-occupancy, A-B-C-D-E-A, 5 repetitions; predicted for 3 blocks per SM at 16-20 keys a
//   thread: -3..+5%): keys 2^28 5524 and 5523 us at 384 x 24, 2 blocks (CUB 5545); 3 blocks per
//   SM (56 registers) at 16 keys 5934 (+7.4%, no spills), 18 keys 6419, 20 keys 6514 (spills of
//   56-80 B), 24 keys 7689 (148 B); 2^24, 2^30, low_entropy and all_equal alike. Dropped: this
//   kernel needs its registers more than CUB's needs the warps.
//   Pipes (ncu, H100, commit 3731ffd, 2^28 uniform keys, one pass each, % of each pipe's peak):
//   ours: ALU 23%, FMA-heavy 18%, LSU 39%, XU 10%, issue 41%; stalls per issue: short scoreboard
//   (shared memory) 3.4, long scoreboard 2.1, MIO throttle 2.0, barrier 1.9. CUB's: ALU 60%,
//   FMA-heavy 14%, LSU 31%, issue 55%; barrier 3.8, long scoreboard 3.4. No pipe bounds our pass:
//   it waits on shared memory (the ranking's counter round trips), so the UTF-8 kernel's remedy
//   (moving ALU work to the FMA pipe) has nothing to offer here; pairs: issue 27%, MIO throttle
//   2.8 against CUB's 0.6 (the values' exchange), LSU 30%.
// Fifth session (2026-11-22, H100): a look-back warp (branch wip/lookback-warp, dropped). The block
//   of 384 threads became 11 compute warps (tile 352 x 24 = 8448 keys) and one warp that walks
//   back for all 256 digits (8 a lane, interleaved: one round loads 4 predecessors of each) while
//   the compute warps count, rank and exchange, handing over the counts and the digit starts by
//   named barriers (bar.arrive / bar.sync); all 384 threads scatter. The idea: the walk (25% of a
//   block's life in the second session's trace) overlapped with the ranking instead of after it.
//   Predicted: keys 2^28 -6..-14%, pairs -5..-12%. Measured (5 repetitions, medians in us, builds
//   N-B-N3-N-B in one call; B as here): keys 2^28 14686 / 14780 against 5480 / 5515 (2.7x slower),
//   2^24 1031 against 417, 2^30 58229 against 21532, pairs 15363 against 9232, low_entropy 14843
//   against 6084, all_equal 14092 against 3938; N3 (416 threads = 12 + 1 warps, 22 keys, 72
//   registers) 13904. Where the walk starts made no difference (3 repetitions: at the tile's
//   start 14791, after the counts 14020, after the digit starts 14094), and the 11-warp tile with
//   the walk left to the compute threads was only 4% slower (5758 against 5522): the walk by one
//   warp was the cost. A clock64() trace of sampled tiles (2^24 keys) showed why: the warp's walk
//   took 42-53 k cycles in 7-9 rounds with almost no spinning, the compute threads' walk (one digit
//   a thread, 8 warps) 490-4300 cycles. Under the sort's traffic a round costs the walking warp
//   about 190 cycles per 128-byte line it requests (32 lines a round: ~6000 cycles), so one warp
//   walks 8x slower than eight, and slow walks let the newest inclusive prefix lag ~32 tiles
//   behind, which lengthens every walk. Two 16-byte relaxed loads per predecessor (8 consecutive
//   digits a lane, 8 vector loads a round) cut a walk to 25-33 k cycles: keys
//   2^28 9674, pairs 11545, still 1.75x slower. Weak ld.global.cg loads: the same 47 k cycles (and
//   a weak load in a spin is not a valid protocol). Reloading all unpublished words of a round at
//   once did not help (there was almost nothing to reload). Not kept: the look-back stays with 256
//   threads after the exchange.
// Where a block's life goes now (H100, commit de5035f's kernel with clock64() stamps by thread 0
//   after each step's barrier, tiles t % 2048 == 700 of every pass, 64 samples, 2^28; the traced
//   build runs 2.7% slower, 5657 against 5507 us; CUB 5517 in the same call), median cycles and
//   share of the block's life:
//                   take  load+count  publish+starts  rank   exchange  lookback  scatter  total
//     keys uniform  1221  4711        1691            7452   1018      2660      2716     22021
//                   5.5%  21%         8%              34%    5%        12%       12%
//     low_entropy   1344  5453        1610            9831   899       2523      2472     24407
//     pairs         1110  4730        4010            9314   896       4422      12185    39214
//     all_equal     1049  3698        2120            198    246       5320      1806     15106
//   The ranking is the largest step, and low_entropy's gap to CUB (6128 against 5621 us) is in it
//   (+2400 cycles against uniform keys); pairs spend a third of a block in the values' load,
//   exchange and scatter; the look-back is 12% (35% for all_equal, whose ranking is skipped).
// Sixth session (2026-11-22, H100, each call A/B builds in one run, 5 repetitions, medians in us;
//   B = the kernel here; CUB in the same calls: keys 2^28 5539-5550, pairs 8733-8749, low_entropy
//   5621-5628, all_equal 4394-4403). Three experiments, all dropped:
//   Persistent blocks with the next tile bulk-copied into shared memory (branch wip/persist: a
//     grid of resident blocks, common/tile_ring.cuh's resident_blocks; the claimed tile's keys,
//     and for pairs its values, land in a 36 KB stage by cp.async.bulk while the current tile is
//     ranked; the load step reads the stage). Predicted: keys 2^28 -4..-10%, pairs -5..-12%.
//     Claiming the next tile as the look-back starts: keys 6263 against 5515/5519 (+13.6%),
//     all_equal 5171 against 3940 (+31%), pairs 10753 against 9233 (+16%): a claimed tile waits for
//     its block's look-back, so the look-backs chain across blocks (as common/tile_ring.cuh says of
//     the scans). Claiming after the look-back: keys 6321-6328 against 5487-5523 (+15%), all_equal
//     4353 (+10%), pairs 10344 with values from global memory, 10733 staged. A clock64() count of
//     the stage wait (thread 0, every tile of a 2^28 sort): 1868 cycles of a 24407-cycle tile for
//     uniform keys, 3300 of 16080 for all_equal: with the claim this late, the 36 KB copy has only
//     the scatter to land in, and under the pass's traffic it takes longer; the rest of the tile
//     also ran ~2500 cycles slower than in B. Every onesweep test passed (also with 2 blocks).
//   The ranking's start and match mask of a digit in one 8-byte word (branch wip/rank64: one
//     LDS.64 and one STS.64 per item instead of two loads and two stores; the per-warp counts
//     stay 32-bit). Predicted: keys -4..-8%, low_entropy -4..-8%, pairs -2..-5%. Measured: keys
//     5738/5746 against 5519/5520 (+4%), low_entropy 6325 against 6130 (+3.2%), pairs 9154/9181
//     against 9247/9257 (-0.8%), all_equal -0.3%.
//   Keys only: the exchange buffer in its own (dynamic) shared memory, each key written there as
//     soon as it is ranked, so the ranks need no registers, and 3 blocks per SM (56 registers, as
//     CUB's 384 x 19 keys tile runs) (branch wip/xkeys). Predicted: 384 x 24 at 2 blocks -1..-3%,
//     384 x 20 at 3 blocks -0..-6%, 384 x 16 at 3 blocks +3..+7%. Measured (keys 2^28, B
//     5519/5524): 384 x 24 at 2 blocks 5714/5716 (+3.5%), 384 x 20 at 3 blocks 6128/6131 (+11%,
//     40-52 B of spills), 384 x 16 at 3 blocks 5906 (+7%), 384 x 24 at 3 blocks 7607 (+38%, 124 B
//     of spills); low_entropy alike. The keys still hold 24 registers through the count and the
//     ranking, so 3 blocks only fit smaller tiles, and writing the exchange inside the ranking loop
//     is itself slower. (That build skipped the exchange for tiles of one digit: all_equal failed
//     its tests; no timing of it is quoted.)
//   Kept: int32 keys run their first three passes through the uint32 kernel (the sign-bit flip of
//     their order transform leaves those digits alone; onesweep_launch). Predicted: int32 keys
//     2^28 -3% (to uint32's time), pairs -1..-2%, uint32 and float32 unchanged. Measured (N-B-N-B):
//     int32 keys 2^28 5570.7 [5561.6-5571.4] / 5564.8 against 5717.0 [5715.6-5731.1] / 5722.7
//     (-2.7%), pairs 9242.6 / 9255.0 against 9337.7 / 9333.8 (-0.9%), keys 2^24 425.5 / 423.0
//     against 431.5 / 431.9 (-1.7%); uint32 and float32 within 0.1%. int32 keys now run 0.8% behind
//     uint32 (the last pass keeps the transform) and 1.025x CUB's int32 time (5434 us; CUB sorts
//     int32 2% faster than its uint32). Every onesweep test, the concurrency tests, and memcheck,
//     racecheck and synccheck over the 68 int32 onesweep tests passed.
//   Kept: the per-warp counters and match masks of digit d at slot_of(d) (d's low 5 bits XORed
//     with 5x its high 3) instead of d. Why: low_entropy's ranking cost 2400 cycles more than
//     uniform keys' (the trace above), and its common digits (0, 1, 2, 4, ..., 128, a bit or two
//     set) put 32, 64, 128, 96, 160, 192 in digit 0's bank: the atomicOr and the counter round
//     trips of a warp's item conflicted in one bank. Predicted: low_entropy keys 2^28 -3..-8%,
//     uniform +0..1%, all_equal +-0.5%. Measured (H100, N-B-N-B, 5 repetitions, us): low_entropy
//     keys 5341 / 5336 against 6139 / 6131 (-13%, now 1.05x CUB's 5626), low_entropy pairs 7773 /
//     7768 against 8112 / 8104 (-4.2%, 1.01x CUB's 7865), uniform keys 5543 / 5534 against 5533 /
//     5520 (+0.2%), uniform pairs 9189 / 9194 against 9230 / 9224 (-0.4%), all_equal 3934 / 3933
//     against 3943 / 3939, 2^24 keys 424 / 421 against 421 / 420. H200 (N-B-N-B): low_entropy keys
//     5251 / 5251 against 6103 / 6101 (-14%, 1.06x CUB's 5552), low_entropy pairs 7076 / 7076
//     against 7819 / 7816 (-9.5%, 1.04x CUB), uniform keys 5457 / 5456 against 5451 / 5448
//     (+0.1%), uniform pairs 7524 / 7525 against 7505 / 7510 (+0.2%). But float32 keys (uniform
//     bits) ran 4% slower in the anchor runs of that build (H100 5992 against 5750 us, H200 5869
//     against 5660), pairs within 0.6%: their kernel keeps slot d (kSwizzle), its PTX the same as
//     before. Every GPU test, and memcheck, racecheck and synccheck over the onesweep tests, passed
//     on both GPUs with the slots in every kernel.
// Seventh session (2026-11-22; A/B builds in one call, 5 repetitions, medians in us with the
//   repetitions' range; B = the kernel before the session; CUB in the same calls):
//   Histogram by lane columns (kept). The up-front histogram kernel took 472 us on the H200 (ncu,
//     third session), CUB's 456, against a read-only floor near 250 us: its 4 shared atomics per
//     key, lanes' random digits ~3.5 to a bank. Now each lane counts into its own column (word
//     (pass & 1, digit) of lane l at bank l; 16-bit counters, pass p in half p / 2): no conflicts.
//     Predicted: histogram H200 -> 280-330 us; keys 2^28 H200 -2.5..-3.5%, H100 -1..-2%. Measured
//     (H100, N-B-N-B): keys 2^28 5479.4 [5473.5-5485.7] against 5534.7 [5533.5-5543.3] (-1.0%),
//     2^30 -1.3%, low_entropy -3.0%, pairs -0.6%, all_equal +1.3% (3987 against 3935). 512
//     threads a block instead of 256 (M-N-B-M-N-B; 3 blocks and 48 warps an SM): keys 2^28
//     5438.7 [5437.9-5444.3] (-1.7% against B), 2^30 21307.7 (-1.9%), low_entropy -3.7%, pairs
//     -0.9%, all_equal +0.5%; kept. 1024 threads: within 0.2% of 512. ncu: our histogram 393 us
//     on both GPUs, CUB's 454-458 (H200: 391 against 455).
//   No memsets between passes (kept). The status words of a pass were cleared by a memset before
//     it (30 MB at 2^28); now two arrays alternate, and each tile of pass p clears its row of the
//     array pass p + 1 uses (lookback_digits); the counters, histograms and array 0 take one
//     memset up front. Predicted: keys 2^28 -0.7..-1.2%, 2^24 -1.5..-3%, 2^20 -8..-15%.
//     Measured (H100, against the histogram build): 2^28 5435.9 against 5447.2 (-0.2%), 2^24
//     413.9 [413.6-414.3] against 424.1 (-2.4%), 2^20 57.7 against 67.5 (-15%), 2^30 the same.
//   Programmatic dependent launch (kept, common/dependent_launch.cuh): the digit scans and every
//     pass are launched to start while the kernel before ends; their blocks take a tile and clear
//     their shared memory, then wait (griddepcontrol.wait) before reading what it wrote. Predicted
//     (no memsets as base): 2^20 -10..-20%, 2^24 -1.5..-4%, 2^28 -0.1..-0.5%. With every block
//     letting the next kernel launch at its start (S), measured on the H100: 2^24 385.1
//     [384.5-385.2] against 412.6 (-6.7%), 2^28 -0.1%, 2^20 -1%, but 2^30 +0.6%; H200 (S-Q-S-Q):
//     2^24 376 against 402 (-6.5%), 2^26 1380 against 1402 (-1.5%), 2^28 5371 against 5362
//     (+0.2%), 2^30 21265 against 21137 (+0.6%), 2^20 56.0 against 57.0. Waiting inside take_tile
//     while the tile atomic is in flight did not change that (2^30 21313), nor did one thread per
//     block giving the signal; the signal given after the look-back instead of at the start
//     halved the large-size loss and the 2^24 gain. With the launch attribute but no signal
//     (X: the next kernel launches as this one's blocks exit): 2^30 21130 (as without), 2^28
//     -0.1%, 2^24 395 (-2%), 2^20 50.9 (-11%). Kept: the signal at the start for passes of
//     256..16384 tiles (onesweep_plan::early_trigger: more than a wave of resident blocks, and
//     below the sizes where the early blocks cost), none otherwise. H200 (N-X-S-N-X-S): 2^20 51.0
//     [51.0-51.1] (S 56.1), 2^22 127.4 (S 121.1: 456 tiles, now in the range), 2^24 375.7
//     [375.3-377.9] (X 395.1), 2^26 1382.5 (X 1395.3), 2^28 5368.1 [5355.2-5369.6] (X 5358.9), 2^30
//     21142.5 (X 21130.5, S 21278.9); CUB 79.2, 170, 416, 1418, 5441, 21604.
// Eighth session (2026-11-23, H200, builds O-T-O-T in one call, 5 repetitions, medians in us):
//   two ranking chains per warp (branch wip/sort-2chain, dropped). Each warp ranked items
//   0..11 and 12..23 as two independent chains, interleaved in one loop (their own match masks,
//   16-bit running starts in the two halves of each counter word, chain 0 before chain 1 in
//   the scan over warps), so that the two chains' shared-memory round trips overlap and each
//   pair of items takes one set of __syncwarp()s. Predicted: keys 2^28 -3..-8%, pairs -2..-6%,
//   all_equal the same. Measured: keys 2^28 5357.0 -> 5537.9 (+3.4%), 2^24 376.5 -> 383.3,
//   low_entropy 5062.7 -> 5353.6 (+5.7%), all_equal 3410.9 -> 4961.2 (+45%), pairs 7452.4 ->
//   7594.5 (+1.9%), pairs all_equal +20%; CUB keys 5439, pairs 7469. Every onesweep test and
//   test_checks passed. The ranking's round trips are not what the pass waits on.
// Ninth session (2026-11-23, H100, builds O-T-O-T in one call, 5 repetitions, medians in us;
//   branch wip/sort-block-order, dropped): each block's tile from blockIdx.x instead of the tile
//   counter's atomic (the hardware dispatches a grid's blocks in index order; the UTF-8 decode
//   gained 1.7% from it, common/lookback.cuh's block_tile_index). Predicted: keys 2^28 -1..-3%,
//   2^24 -2..-5%, pairs -0.5..-2%. Measured: keys 2^28 5435.5 -> 5394.9 (-0.75%, ranges apart),
//   2^30 -0.3%, 2^24 -0.3%, low_entropy -0.7%, all_equal -1.3%; but pairs 2^28 9072 -> 9393
//   (+3.5%), 2^30 35625 -> 36974 (+3.8%), 2^24 602.8 -> 619.3 (+2.7%). Why pairs lose was not
//   measured (a guess: the atomic hands the earliest tiles to the blocks that start first, which
//   under programmatic dependent launch need not follow the block index). CUB in the same call:
//   keys 5548, pairs 8727. Every onesweep test and test_checks passed with it.
// Tenth session (2026-11-23, H100; branch wip/sort-11bit, dropped): 11-bit digits, 3 passes
//   (the issue's lead: 28 B a key instead of 36), as a variant onesweep_wide beside this one:
//   256 x 24 keys a tile (3 blocks an SM), 16-bit per-warp counters for 2048 digits, match masks
//   on a digit's low 8 bits split by three ballots, thread t owning digits 8t..8t+7 (one 16-byte
//   vector of counters a warp, two 16-byte relaxed loads or stores of a status row), a histogram
//   kernel of three 2048-bin tables. Predicted from the block trace above (75% of a block's life
//   grows with the keys, 25% with the digits): 1.05-1.6x onesweep's time. Measured (5
//   repetitions, one call, commit 9c13e58fd5ed, results/partial/nvidia-h100-sort-11bit.json): keys
//   2^28 10118.0 us [10111.7-10127.2] against 5433.6 [5430.1-5434.3] here (1.86x slower; CUB
//   5542.7), 2^24 692.1 against 385.4, pairs 2^28 20410.9 against 9090.0 (2.2x). ncu: a pass 3.28
//   ms against 1.26, 1.74 G warp instructions against 0.55 G, 1.81 GB written against 1.12 (the
//   status rows, 8 KB a tile). A traced build counted the look-back at about 24 predecessors a tile
//   (thread 0 until all 8 of its digits met an inclusive prefix), and running the look-back before
//   the ranking did not shorten it (keys +0.2%, pairs -1.5%). Every onesweep_wide test passed, and
//   memcheck, racecheck and synccheck were clean. The digits' work per tile (counters, scans,
//   look-back, status rows) grows 8x and outweighs the pass saved: 8-bit digits stay.
//   The histogram kernel issues about 35 instructions a key (ncu, H100: 291.7 M warp instructions
//   for 2^28 keys, issue slots 73% busy) and takes 391-395 us on both GPUs, though the H200 reads
//   1.07 GB in about 255 us: its bound is the issue rate, not the memory. A whole tile now loads
//   from one base pointer and counts without bounds tests (the 64-bit index and compare of every
//   key). Predicted: histogram H200 391 -> 280-330 us, H100 395 -> 350-375; sort keys 2^28 H200
//   -1..-2%, H100 -0.3..-0.8%.
//   Measured (kept; commit e1968ee64c8e, one call per GPU, builds O-N-O-N, O the old loop, 5
//   repetitions, medians of the two runs of each, every pair's repetition ranges apart unless
//   said; ncu on one sort): H200 histogram 391.6 -> 284.4 us (171.2 M warp instructions against
//   291.7 M, issue slots 62% busy against 74%); keys 2^28 5348.2 / 5347.9 -> 5243.6 / 5243.5
//   (-2.0%; CUB 5418-5422: 1.034x), 2^30 21094 / 21084 -> 20719 / 20715 (-1.8%), 2^24 375.5 /
//   375.8 -> 369.0 / 369.5, low_entropy -2.1%, all_equal -3.1%, int32 -2.0%, float32 5764 ->
//   5514 (-4.4%), pairs 2^28 7397.7 / 7396.9 -> 7293.0 / 7290.8 (-1.4%; CUB 7413-7417), 2^30
//   -1.3%. H100: histogram 397.3 -> 369.0 us (now near its read floor); keys 2^28 5437.0 / 5438.1
//   -> 5414.2 / 5409.9 (-0.5%; CUB 5542-5548: 1.024x), 2^30 -0.2%, 2^24 385.8 / 386.2 -> 382.8 /
//   382.6, float32 -3.9%, int32 -0.5%, low_entropy -0.4%, all_equal -0.5%; pairs 2^28 9109 / 9102
//   -> 9090 / 9087 (-0.2%, ranges overlapping), 2^24 the same. Every onesweep test (334) and
//   test_checks passed on both GPUs; memcheck, racecheck and synccheck clean over the keys
//   (H200) and pairs (H100) groups of uniform keys.
// Eleventh session (2026-11-23, H100, builds B-N-B-N in one call, 5 repetitions, medians in us;
//   branch wip/sort-vals-bulk, dropped): the values of a full tile bulk-copied into shared memory
//   at the tile's start (one cp.async.bulk by thread 0 and an mbarrier, 36 KB of dynamic shared
//   memory at 384 x 24: 2 blocks an SM still fit, 80 registers), read from there for the values'
//   exchange instead of the 24 global loads a thread issues after the keys' scatter. Why: that
//   load is the pass's last step, its latency in the open (the fourth session's trace: pairs
//   spend a third of a block in the values' load, exchange and scatter; ncu: lg throttle
//   0.63-0.72 against CUB's 0.08). Predicted: pairs 2^28 -2..-5%, keys the same. Measured (B =
//   main at 209dae2e0259, N = c00d15ea21cd): pairs 2^28 9066.0 / 9065.8 -> 9510.0 / 9511.5
//   (+4.9%), 2^24 608.2 / 609.6 -> 622.9 / 623.3, 2^30 35562 / 35623 -> 37408 / 37405 (+5.1%),
//   low_entropy +5.5%, all_equal +3.0%, int32 and float32 +5%; keys 5413.4 / 5411.7 against
//   5411.4 / 5414.0 (the same); CUB pairs 8715-8725 in all four runs. Every onesweep test and
//   test_checks passed, and memcheck, racecheck and synccheck were clean over four pairs groups.
//   Why (two more calls, B-N2-N3-B-N2-N3 and B-N4-N5-B-N4-N5, pairs 2^28 / 2^24, B 9052-9062 /
//   608-610): not the shared-memory carveout: N2, main's kernel launched with 36 KB of dynamic
//   shared memory it does not use, 9045 / 9052 and 610 / 612; the L2 hint costs part: N3, the bulk
//   copy without evict-first, 9365 / 9370 (+3.4%); a later copy costs more: N4, issued after the
//   digit counts are published, 9575 / 9557 (+5.6%), N5, after the ranking, 9581 / 9585 (+5.8%);
//   keys the same in every build. The values' global loads at the pass's end are not what it
//   waits on (as the fourth session's early load found); the bulk copy only adds to the tile.
#include "common/block.cuh"
#include "common/cuda_check.hpp"
#include "common/dependent_launch.cuh"
#include "common/lookback.cuh"
#include "common/occupancy.hpp"
#include "common/per_device.hpp"
#include "sort/onesweep_plan.hpp"
#include "sort/passes.hpp"
#include "sort/sort.hpp"

#include <stdexcept>
#include <string>

namespace gps::sort {
namespace {

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
// (65536 registers / (BLOCK x MIN_BLOCKS) per thread). Both take 80 registers and compile without
// spills for sm_90 (checked with -Xptxas -v); 26 keys spill. Both run 24 warps per SM.
template <int BLOCK> struct OnesweepPolicy;
template <> struct OnesweepPolicy<256> {
  static constexpr int kItems = 24;    // tile of 6144 keys, 26 KB of shared memory
  static constexpr int kMinBlocks = 3; // <= 85 registers
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
  for (std::size_t base = blockIdx.x * static_cast<std::size_t>(kTile); base < n;
       base += static_cast<std::size_t>(gridDim.x) * kTile) {
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
__global__ void __launch_bounds__(kRadix) onesweep_scan_bins(unsigned* bins, bool early_trigger) {
  if (early_trigger)
    allow_dependent_launch();
  wait_for_prerequisite_grid(); // the histograms
  using Scan = BlockScan<kRadix>;
  __shared__ typename Scan::TempStorage s_scan;
  unsigned* b = bins + blockIdx.x * kRadix;
  int total = 0;
  const int count = static_cast<int>(b[threadIdx.x]);
  b[threadIdx.x] = static_cast<unsigned>(Scan::exclusive_sum(count, total, s_scan));
}

// ---- one pass: the agent (CUB's AgentRadixSortOnesweep) and its kernel ------------------------

// The steps of one pass over one tile, in the order the kernel runs them. One agent per block; its
// fields live in registers, its TempStorage in shared memory.
template <int BLOCK, bool PAIRS, KeyType KT> struct OnesweepAgent {
  // the key type's order (sort.hpp), a compile-time constant: nothing for uint32
  static __device__ __forceinline__ unsigned ordered(unsigned key) { return key_order(KT)(key); }
  static constexpr int kItems = OnesweepPolicy<BLOCK>::kItems;
  static constexpr int kWarps = BLOCK / kWarpSize;
  static constexpr int kTile = BLOCK * kItems;
  static constexpr int kWarpItems = kWarpSize * kItems;
  static constexpr int kDigitWords = (kItems + 3) / 4; // the digits a thread scatters, 8 bits each
  static_assert(kTile >= 2 * kWarps * kRadix,
                "the exchange buffer holds the ranking counters and match masks");
  static_assert(BLOCK >= kRadix, "one thread per digit for the scan and the look-back");

  struct TempStorage {
    union {
      unsigned exchange[kTile]; // keys, then values, in tile-sorted order
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
  const DigitTileStatus<kRadix> status;
  unsigned tile = 0;      // index in launch order
  unsigned tile_base = 0; // input position of the tile's first key
  unsigned valid = 0;     // keys in the tile (kTile but in the last one)
  bool full = false;
  const unsigned first; // tile position of this thread's item 0 (warp-striped)

  __device__ __forceinline__ OnesweepAgent(TempStorage& storage, int digit_shift,
                                           DigitTileStatus<kRadix> digit_status)
      : s(storage), shift(digit_shift), status(digit_status),
        first(warp_id() * kWarpItems + lane_id()) {}

  // Where digit d's per-warp counter and match mask sit: its low 5 bits (the shared-memory bank)
  // XORed with 5x its high 3 bits, so that the digits skewed keys favour (0, 32, 64, 128, 96, ...:
  // few bits set) fall in different banks (1, 2, 4, 8, 16 keep theirs; 32 -> 5, 64 -> 10,
  // 128 -> 20). An involution: slot_of(slot_of(d)) == d. Uniform digits conflict as before.
  // float32 keys keep slot d: with the slot, their kernel (whose digits also take the order
  // transform's compare and select) ran 4% slower on uniform keys (header).
  static constexpr bool kSwizzle = KT != KeyType::Float32;
  static __device__ __forceinline__ unsigned slot_of(unsigned d) {
    return kSwizzle ? d ^ (((d >> 5) * 5u) & 31u) : d;
  }
  __device__ __forceinline__ unsigned digit_of(unsigned key) const {
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
        items[j] = src[j * kWarpSize];
    } else {
#pragma unroll
      for (int j = 0; j < kItems; ++j) {
        const unsigned pos = first + j * kWarpSize;
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

  // Early counts (CUB's BlockRadixRankMatchEarlyCounts): each warp's digit histogram, one shared
  // atomic per key with no return value, before any ranking, so that the tile's counts are
  // published as early as possible. Returns the warp's heavy digit (the most frequent one, where
  // the warp holds more than kHeavyCount keys of it), or kRadix (none), in every lane.
  __device__ __forceinline__ unsigned count_digits(const unsigned (&keys)[kItems]) {
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

  // Tile totals per digit (thread d owns digit d): turns the warp counts into an exclusive scan
  // over warps and publishes the tile's count of d at once (the look-back's aggregate), so that
  // later tiles can look back past this one before its prefix is known. Returns the tile's count
  // of the thread's digit, missing keys included; `real_count` is without them.
  __device__ __forceinline__ unsigned publish_digit_counts(unsigned& real_count) {
    unsigned digit_count = 0;
    real_count = 0;
    if (threadIdx.x < kRadix) {
      const int d = threadIdx.x;
#pragma unroll
      for (int w = 0; w < kWarps; ++w) {
        const unsigned c = s.rank.counts[w][slot_of(d)];
        s.rank.counts[w][slot_of(d)] = digit_count;
        digit_count += c;
      }
      real_count = digit_count - (d == kRadix - 1 ? kTile - valid : 0u);
      status.publish(tile, d, tile == 0, real_count);
    }
    return digit_count;
  }

  // Each warp's tile-sorted start per digit: the counts (scanned over the warps above) plus the
  // digit's start in the tile, from a block scan. Returns the start of the thread's digit;
  // `one_digit`: every key of the tile has one digit (the same in every thread).
  __device__ __forceinline__ unsigned digit_starts_in_tile(unsigned digit_count, bool& one_digit) {
    int unused = 0;
    const auto digit_start = static_cast<unsigned>(
        BlockScan<BLOCK>::exclusive_sum(static_cast<int>(digit_count), unused, s.scan));
    if (threadIdx.x < kRadix) {
      if (digit_count == kTile)
        s.one_digit = 1;
#pragma unroll
      for (int w = 0; w < kWarps; ++w)
        s.rank.counts[w][slot_of(threadIdx.x)] += digit_start;
    }
    __syncthreads();
    one_digit = s.one_digit != 0;
    return digit_start;
  }

  // Tile-sorted ranks, item by item: the lanes sharing a digit (peers) take consecutive positions
  // after the warp's running start for the digit, which the lowest peer then advances. Peers come
  // from one shared atomicOr per key (CUB's WARP_MATCH_ATOMIC_OR); in a warp with a heavy digit,
  // that digit's peers come from one ballot, since its many lanes on one atomicOr address would
  // serialise. A tile of one digit keeps its input order (CUB's short circuit).
  __device__ __forceinline__ void rank_keys(const unsigned (&keys)[kItems],
                                            unsigned (&ranks)[kItems], unsigned heavy_digit,
                                            bool one_digit) {
    if (one_digit) {
#pragma unroll
      for (int j = 0; j < kItems; ++j)
        ranks[j] = first + j * kWarpSize;
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
      ranks[j] = take_ranks(starts, masks, slot, peers, below);
    }
    __syncthreads(); // the starts are read: their memory becomes the exchange buffer
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
  __device__ __forceinline__ void exchange(const unsigned (&items)[kItems],
                                           const unsigned (&ranks)[kItems]) {
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      s.exchange[ranks[j]] = items[j];
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

  // Thread t writes sorted positions t, t + BLOCK, ...: within a digit consecutive positions go to
  // consecutive addresses, so each digit's keys leave as one contiguous run. Keeps the digits of
  // the positions written (8 bits each) for the values.
  __device__ __forceinline__ void scatter_keys(unsigned* __restrict__ keys_out,
                                               unsigned (&digits)[kDigitWords]) const {
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const unsigned pos = j * BLOCK + threadIdx.x;
      const unsigned key = s.exchange[pos];
      const unsigned d = digit_of(key);
      if constexpr (PAIRS)
        digits[j / 4] |= d << (8 * (j % 4));
      if (full || pos < valid)
        if constexpr (PAIRS)
          keys_out[s.global_base[d] + pos] = key;
        else // two 64-bit adds (see global_base): keys -2.8%, but pairs +1.6% (header)
          *(keys_out + s.global_base[d] + pos) = key;
    }
  }

  // Values: the keys' load pattern, ranks and destinations.
  __device__ __forceinline__ void scatter_values(const unsigned* __restrict__ vals_in,
                                                 unsigned* __restrict__ vals_out,
                                                 const unsigned (&ranks)[kItems],
                                                 const unsigned (&digits)[kDigitWords]) {
    unsigned vals[kItems];
    load_tile(vals_in, 0u, vals);
    __syncthreads(); // every key is read out of the exchange buffer
    exchange(vals, ranks);
    __syncthreads();
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const unsigned pos = j * BLOCK + threadIdx.x;
      const unsigned d = (digits[j / 4] >> (8 * (j % 4))) & (kRadix - 1);
      if (full || pos < valid)
        vals_out[s.global_base[d] + pos] = s.exchange[pos];
    }
  }
};

template <int BLOCK, bool PAIRS, KeyType KT>
__global__ void __launch_bounds__(BLOCK, OnesweepPolicy<BLOCK>::kMinBlocks)
    onesweep_pass(const unsigned* __restrict__ keys_in, unsigned* __restrict__ keys_out,
                  const unsigned* __restrict__ vals_in, unsigned* __restrict__ vals_out, unsigned n,
                  int shift, const unsigned* __restrict__ digit_starts,
                  DigitTileStatus<kRadix> status, unsigned* __restrict__ next_status,
                  unsigned* __restrict__ tile_counter, bool early_trigger) {
  using Agent = OnesweepAgent<BLOCK, PAIRS, KT>;
  __shared__ typename Agent::TempStorage storage;
  Agent agent(storage, shift, status);
  // the next pass may launch once every block of this one runs; its blocks take their tiles and
  // clear their shared memory, then wait for this pass's output (keys, status rows)
  if (early_trigger)
    allow_dependent_launch();
  agent.take_tile(tile_counter, n);
  wait_for_prerequisite_grid(); // the previous pass (or the digit scans) finished and flushed
  unsigned keys[Agent::kItems], ranks[Agent::kItems];
  agent.load_keys(keys_in, keys);
  const unsigned heavy_digit = agent.count_digits(keys);
  unsigned real_count;
  const unsigned digit_count = agent.publish_digit_counts(real_count);
  bool one_digit;
  const unsigned digit_start = agent.digit_starts_in_tile(digit_count, one_digit);
  agent.rank_keys(keys, ranks, heavy_digit, one_digit);
  agent.exchange(keys, ranks);
  agent.lookback_digits(real_count, digit_start, digit_starts,
                        next_status); // its barrier ends the exchange
  unsigned digits[Agent::kDigitWords] = {};
  agent.scatter_keys(keys_out, digits);
  if constexpr (PAIRS)
    agent.scatter_values(vals_in, vals_out, ranks, digits);
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
  // temporary storage: pass counters + histograms, two arrays of status words (pass p uses array
  // p % 2 while its tiles clear their rows of the other one for pass p + 1; the counters, the
  // histograms and array 0 take one memset up front), temporary keys (and values)
  constexpr std::size_t kHeader = kPasses + kPasses * kRadix;
  TempLayout layout(temp);
  unsigned* header = layout.take<unsigned>(kHeader);
  unsigned* counters = header;       // one tile counter per pass
  unsigned* bins = header + kPasses; // [pass][digit]
  unsigned* status = layout.take<unsigned>(2 * tiles * kRadix);
  unsigned* const status_of[2] = {status, status + tiles * kRadix};
  unsigned* keys_tmp = layout.take<unsigned>(n);
  unsigned* vals_tmp = layout.take<unsigned>(PAIRS ? n : 0);
  if (layout.sized(temp_bytes))
    return;

  // zeroed: the counters, the histograms and status array 0 (the layout puts them first, in this
  // order)
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
  onesweep_histogram<KT>
      <<<hist_grid, kHistBlock, kHistBytes, stream>>>(keys_in, n, bins, early_trigger);
  CUDA_CHECK_LAUNCH();
  launch_dependent(onesweep_scan_bins, kPasses, kRadix, 0, stream, bins, early_trigger);

  for (int pass = 0; pass < kPasses; ++pass) {
    const auto p = detail::pass_buffers(pass, kPasses, keys_in, keys_out, keys_tmp, vals_in,
                                        vals_out, vals_tmp);
    const int shift = pass * kRadixBits;
    const auto launch = [&](auto kernel) {
      launch_dependent(kernel, static_cast<unsigned>(tiles), BLOCK, 0, stream, p.keys_src,
                       p.keys_dst, p.vals_src, p.vals_dst, static_cast<unsigned>(n), shift,
                       bins + pass * kRadix, DigitTileStatus<kRadix>{status_of[pass % 2]},
                       pass + 1 < kPasses ? status_of[(pass + 1) % 2] : nullptr, counters + pass,
                       early_trigger);
    };
    // A pass whose digit the key type's transform leaves alone (int32: every pass but the last)
    // runs the uint32 kernel: the same digits, without the transform per key (int32 sorted 3%
    // slower than uint32 before; results/nvidia-h100-80gb-hbm3.json at e48f73b4e815).
    if (((kTransformedBits >> shift) & (kRadix - 1)) == 0)
      launch(onesweep_pass<BLOCK, PAIRS, KeyType::Uint32>);
    else
      launch(onesweep_pass<BLOCK, PAIRS, KT>); // launch_dependent checks the launch
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
