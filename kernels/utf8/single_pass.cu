// single_pass: each operation in one kernel (plus a memset of its status words), the minimum
// global traffic: the input read once, the output written once.
//
// decode: each block's tile is its index (the hardware dispatches blocks in index order, so a tile
// only ever waits on tiles that are running or done: lookback.cuh's block_tile_index), loads its
// tile with evict-first 16-byte loads, classifies each thread's 16-byte chunks (chunk.hpp: SWAR
// over the four words, the role of a byte decided by the 3 bytes before it), counts the units per
// chunk, learns how many code points all earlier tiles write through the decoupled look-back
// (common/lookback.cuh, TileStatus), then decodes and writes: each warp stages one vector step's
// code points (at most 512) in shared memory and writes them as one contiguous run with evict-first
// stores. A step is staged in one of three modes chosen per warp (no multi-byte unit: fixed ASCII
// slots; lanes of 6 units or more: one pass over the 16 positions accumulating each unit's code
// point; else a loop over the units), and the first step is staged while warp 0 looks back.
//
// validate: the same loads and classification; the first ill-formed unit of the block, then one
// atomicMin; tiles that start after an error already found skip their loads.
//
// encode: tiles of code points, the byte count of each code point, look-back for the output
// offset, bytes staged per warp (each code point's bytes ORed into the stage by one or two shared
// atomics) and stored as aligned 32-bit words (byte stores only at the two ends of a run). From
// 2^22 code points on, tiles of 8 vector steps a thread whose code points are read again (from L2)
// to stage them; below, 4 steps held in registers.
//
// Change from scan_based: classify, scan and scatter fused into one kernel; no per-byte flags or
// offsets in global memory, and the scan runs over per-tile counts.
//
// Where the idea comes from: CUB's DeviceSelect (Merrill & Garland 2016, "Single-pass Parallel
// Prefix Scan with Decoupled Look-back") for the structure; the SWAR byte classification follows
// the idea of Keiser & Lemire 2021, "Validating UTF-8 in less than one instruction per byte"
// (classify bytes in parallel, find what each lead byte's continuation bytes must be), adapted to
// 32-bit GPU registers and to the maximal-subpart units of the replacement decoder.
//
// Tile layout (decode): warp w owns 2048 contiguous bytes of the tile; its j-th 16-byte vector
// step covers 512 bytes, lane l taking bytes 16l..16l+15, so a lane's neighbours' words come from
// shuffles (from a 4-byte load at the warp's two ends). A code point belongs to the tile (and
// lane) where its unit starts; a lane reads up to 3 bytes past its chunk (the next lane's first
// word). Alignment: any input pointer. The tiles are laid on the 16-byte grid of the input's
// address (tile 0 starts up to 15 bytes before the input), so every full vector load is aligned;
// the positions outside the input read as 0 and their bits are cleared.
//
// Measured (GB/s of bytes read + written, best block; the design targets >= 0.8x copy at 2^28
// bytes of mixed text): results/partial/nvidia-{h200,h100}-utf8.json (commit aa2239d9ff9a), 5
// repetitions:
//                      H100                            H200
//   decode mixed 2^28  2050 GB/s = 0.681x copy (b256)  2254 GB/s = 0.529x copy (b256)
//   decode ascii 2^28  2470 = 0.821x                   3073 = 0.722x
//   decode latin, cjk, emoji 2^28  0.63x, 0.51x, 0.50x     0.48x, 0.38x, 0.37x
//   validate mixed     1492 = 0.496x                   1486 = 0.349x
//   encode mixed       1119 = 0.372x                   1196 = 0.281x
// Decode of mixed text at block 384 (3 blocks an SM, loads before the table fill; the twelfth
// session below): results/partial/nvidia-{h200,h100}-utf8-b384.json (commit da137f4e6402), 5
// repetitions: 2^28 H100 462.5 us = 0.710x copy (block 256 in the same run 0.682x), H200 415.2 us
// = 0.559x (0.532x).
// (at 784fea8 / cd757ae, before the second session: decode mixed 1001 and 1012 GB/s; at 13e4db0,
// before the third: 1457 and 1472 GB/s, validate mixed 1081 and 1083; at 6b10fe2756b8, before the
// sixth: 1972 and 2094 GB/s, validate mixed 1226 and 1233; encode mixed at e48f73b4e815, the full
// runs: 1102 and 1179.)
// What bounds it: the same times on both GPUs although the H200 has 1.4x the bandwidth: integer
// work, not memory. ncu (H200, commit fa94210, decode mixed 2^28, b256): the ALU pipe saturated
// ("math pipe throttle" and "not selected" stalls), 64 registers (32 warps per SM). validate (no
// output, no look-back) took 184 M warp instructions, 351 per warp and 512-byte step, half of them
// LOP3 (before the word-before reuse below, 8% faster): the SWAR classification of non-ASCII
// chunks cost as much as the whole decode write phase did.
// The 0.8x target needs a classification several times cheaper (byte-permute or table lookups,
// as the SIMD validators do), not better overlap.
//
// The decode write phase, step by step (H200, 2^28, b256 unless said, medians of 5 repetitions in
// us, each step A/B in one run against the one before; mixed / latin / cjk / emoji / ascii):
//   main (e13ed4b): one loop over each lane's unit starts (its trip count the warp's most: 16 for
//     a lane of ASCII with one accented letter), about 40 operations a trip; ASCII-only lanes 16
//     fixed slots. 970 / 725 / 578 / 490 / 452; mixed b512 978.
//   split mode (kept): where a warp's units are mostly ASCII, 16 fixed ASCII slots and the loop
//     over the multi-byte units only. Predicted: mixed -10..20%. Measured: mixed 850 (b512 819),
//     but latin/cjk/emoji 2-3% slower (the mode test regathered the ASCII bits from the bytes).
//   info encoding (kept): bits 0..15 the non-ASCII starts, 16..31 the well-formed starts, so the
//     ASCII starts take two operations. Predicted: most of the 2-3% back. Measured: mixed 833,
//     latin/cjk/emoji 1-1.5% slower than main.
//   lean (kept): ncu's SASS showed the 16 ASCII slots compiled as 16 branches (BSSY/BRA/BSYNC,
//     ~13 instructions a slot) and the trip's window picked from registers by a 12-select chain.
//     Now the slots store unconditionally (other positions into a scratch word), windows come from
//     a shared-memory copy of the chunk (two loads and a funnel shift), stage indices carry the
//     warp base. Predicted: mixed ~720, cjk ~520, latin ~650, emoji ~460. Measured: 739 / 681 /
//     555 / 479 / 452 (586 M -> 506 M warp instructions for mixed).
//   overlap (kept): step 0 staged while warp 0 looks back (barrier stalls were 21.7% of the
//     samples). Predicted: mixed ~680. Measured: 734 (b512 687, was 724) / 671 / 549 / 476 / 451.
//   Dropped, measured slower: 16-byte output stores from a stage laid from the run's offset in its
//     16-byte line (predicted -10%; mixed 849 -> 949, latin +7.5%); one loop per 4-byte word in
//     the generic mode (cheaper windows; predicted cjk -8%: cjk 584 -> 615); __launch_bounds__ for
//     40 or 48 warps per SM (48 and 40 registers, spills: mixed +2% and +7%); 2 vectors per
//     thread (8 KiB tiles: mixed -7% but ascii +10%, latin/cjk/emoji +3-4%); split margin 1
//     (latin 671 -> 737) and 6 (mixed_errors 755 -> 781) instead of 3.
//   Net, main -> overlap, the same run (5 repetitions, ranges disjoint): H200 mixed 1.32x (b512
//   1.42x), latin 1.08x, cjk 1.05x, emoji 1.03x, ascii 1.00x; the H100 the same ratios.
//   classes (kept, classification, so validate too): the word before each chunk is the previous
//     lane's last word; steps 1..3 take its five 4-bit class fields by one shuffle instead of
//     classifying it again (one classify_word of five). Predicted: validate mixed 267 -> ~245 us,
//     decode -3%. Measured against overlap in one run (5 repetitions, ranges disjoint): H200
//     validate mixed 267.4 -> 247.6 (1.08x), decode mixed 734.7 -> 709.5 (b512 686.9 -> 670.1),
//     latin 1.03x, cjk 1.04x, emoji 1.05x, ascii the same; H100 the same ratios.
//   Dropped, measured slower: staging steps 1..3 in a loop that is not unrolled (values rotated to
//     index 0: half the code, against the 15% instruction-fetch stalls; predicted -3..5%; latin
//     +3%, cjk +3%, mixed b512 +3.6%).
//   Dropped, measured: a well-formed fast path of the classification (branch wip/utf8-fast2,
//     chunk.hpp's classify_well_formed: continuation bytes exactly where the leads ask for them,
//     by byte shifts of the lead masks, about 25 operations a word; the exact classify_chunk out
//     of line for the chunks it turns down). Predicted (H200, 2^28): validate mixed 247.6 ->
//     150-170 us, decode mixed b512 670 -> 590-630, latin and cjk -8..12%. Measured, H200, A-B-A-B
//     with 5 repetitions each, us (mixed / latin / cjk / emoji / mixed_errors / ascii):
//       exact only (as here): decode b256 710 / 650 / 528 / 455 / 731 / 447, mixed b512 670;
//         validate 247 / 249 / 249 / 249 / 26.9 / 65.1.
//       fast path for 2- and 3-byte leads other than E0, E1, ED: decode 752 / 539 / 425 / 548 /
//         836 / 446, mixed b512 687; validate 245 / 135 / 135 / 348 / 29.1 / 66.4.
//       every lead on the fast path (C0, C1, F5..FF and the narrowed second bytes of E0, ED, F0,
//         F4 checked behind a lead filter, out of line so that decode keeps 64 registers): decode
//         711 / 557 / 441 / 476 / 1077 / 444, mixed b512 651 (-2.8%); validate 209 / 150 / 150 /
//         272 / 33.2 / 74.0. Inline instead: decode at 73 and 82 registers, mixed b512 803.
//     Latin and CJK gain 14-20% (decode) and 40% (validate), but mixed text, the goal's mix, only
//     2.8% at its best block, and emoji lose 5% and mixed_errors 47% (most warps hold an ill-formed
//     chunk, so they run both classifications): not kept.
// The ceiling (a micro-benchmark, not in results/: read 2^28 bytes, write each as a 32-bit word,
//   as an all-ASCII decode does, 5 x 2^28 bytes of traffic): with each warp store writing
//   contiguous bytes, 344 us on the H200 (3904 GB/s, 0.92x the copy rate of the utf8 rows, 4254
//   GB/s) and 470 us on the H100 (2858 GB/s, 0.95x of 3009), with 4- or 16-byte stores alike; with
//   16-byte stores laid 64 bytes apart (each lane its own 64 output bytes), 713 and 820 us. Decode
//   of ASCII takes 446 us on the H200: 1.3x the ceiling, the write path's own overhead.
// ncu against it (H200, commit 5f1aaff, 2^28, --clock-control none; stalls per issued instruction):
//   ceiling kernel  331 us, DRAM 83% of peak, 105 M warp instructions, 76% warps active, issue
//                   31%; stalls long scoreboard 15.8, MIO throttle 12.6 (waiting on memory).
//   decode ascii    448 us (b256), DRAM 61%, 208 M instructions, 49% warps active (64
//                   registers), issue 45%; stalls barrier 7.2, long scoreboard 2.9: the blocks
//                   wait at the barriers around warp 0's look-back, too few per SM to hide it.
//   decode mixed    662 us (b512), DRAM 30%, 498 M instructions, issue 73%; stalls not selected
//                   3.0, math pipe throttle 2.4, 17.5 M shared-memory bank conflicts: integer
//                   work, 4.7x the ceiling's instructions. 0.8x copy needs about half of them.
//   Dropped, measured slower: a gather mode in place of the loop over all units (branch
//     wip/gather: the step's bytes laid contiguous in shared memory, its unit starts listed in
//     order by 16 fixed slots per lane, lane l decoding units l, l + 32, ...: every lane the same
//     trips, where the loop takes the warp's most). Predicted (H200, 2^28): mixed b512 670 ->
//     560-620 us, cjk -0..10%, emoji +-5%. Measured (5 repetitions, in us, in the call's order
//     G0 / G1 / G2 / G1; G0 as here, G1 gather for the loop mode, G2 for split mode too): mixed
//     b512 671 / 689 / 811 / 689, b256 709 / 721 / 855 / 720; latin 651 / 719 / 710 / 718; cjk 528
//     / 626 / 618 / 625; emoji 455 / 556 / 548 / 555; ascii 452 / 452 / 451 / 451; mixed_errors
//     730 / 737 / 855 / 736.
//     Correct (every GPU test, memcheck, racecheck, synccheck clean) but slower: within
//     one script the lanes' unit counts differ little, so the loop's trips are close to the mean,
//     and the list costs more than the divergence it removes.
// Third session (2026-11-22): the ALU diet. ncu's pipe counters (H100, commit 3731ffd, decode
//   mixed 2^28, b512, 674.5 us): ALU pipe 79.8% of its peak, FMA-heavy pipe (IMAD) 36.1%, XU
//   (POPC, FLO, BREV) 21.4%, LSU 22.8%, issue 71.7%: the integer ALU pipe (LOP3, SHF, ISETP,
//   SEL, IADD3, PRMT, LEA), half the issue rate, is the bound, so an ALU operation moved to IMAD
//   or dropped is time saved. The generic loop's trip was 47 instructions, 27 of them ALU.
//   step 1 (kept, 7cd6d42 + cafdbd4): each unit decoded through a table in shared memory indexed
//     by its first byte (chunk.hpp's decode_entry: a prmt selector that reverses the unit's bytes
//     and the mask of their payload bits; then two masks, a LEA.HI and one IMAD pack the fields:
//     decode_with_entry), replacing compares, selects and per-field shifts; the generic mode's
//     unit index is its trip count (no shift, mask and POPC per unit); the stage padded (i +
//     i / 32, one LEA.HI) instead of XOR-swizzled (a shift and a LOP3); the funnel shift's wrap
//     mode takes 8k mod 32 itself. The trip: 16 ALU of 33 instructions. Predicted (H100, 2^28):
//     cjk -15..25%, latin and emoji -10..20%, mixed -8..15%, mixed_errors -5..12%, ascii +-1%.
//     Measured (H100, one call, builds N-B-N, 5 repetitions, medians in us, ranges disjoint):
//     mixed b512 674.3 -> 639.2 / 635.2 (-5.5%), b256 707.2 -> 659.2 (-6.8%), latin 648.3 ->
//     566.1 (-12.7%), cjk 527.6 -> 478.6 (-9.3%), emoji 455.7 -> 424.4 (-6.9%), mixed_errors
//     733.7 -> 678.1 (-7.6%), ascii 553.2 -> 553.3. Short of the prediction for CJK and emoji:
//     their classification, unchanged, is a larger share of the ALU work than counted. The first
//     build failed at block 512 (47 KiB of dynamic shared memory plus the table's 2 KiB static
//     exceed the default 48 KiB limit): opt_in_shared now sets the limit at every size.
//   step 2 (kept, e13526b + 5df9ec0): prmt by inline PTX (__byte_perm masks the selector with
//     0x7777 first, one LOP3); the loops built twice, without the per-unit well-formedness test
//     (a shift, a LOP3 and a SEL) for warps whose step has no ill-formed unit; split mode, in
//     warps whose bytes all lie in the input, stores each of the 16 positions into the slot of
//     the unit that holds it (chunk.hpp's for_each_position_in_unit: no ASCII test or select,
//     the multi-byte units' slots rewritten by the loop after), positions 0..2 (which may belong
//     to the previous lane's last unit) into the lane's scratch word. Predicted: mixed -3..6%,
//     cjk and latin -4..8%, emoji -3..6%, mixed_errors +-2%. Measured against step 1 (H100,
//     N-B-N): mixed b512 639.5 -> 620.4 / 620.8 (-3.0%), b256 664.0 -> 649.5 (-2.2%), latin
//     570.7 -> 549.2 (-3.8%), cjk 481.4 -> 470.2 (-2.3%), emoji 427.2 -> 422.8 (-1.0%), mixed
//     2^24 b256 55.7 -> 53.3 (-4.3%), ascii the same, mixed_errors 678.9 -> 688.4 (+1.4%: its
//     warps take the tested loops, and the code grew). Kept: the goal's mix gains. The first
//     build of step 2 let positions 0..2 write into the previous lane's slot (rewritten after a
//     __syncwarp): correct, but a write-write overlap between lanes that racecheck reported
//     (it timed out on the hazards); the scratch word removed it, racecheck clean.
//   Net, session start -> step 2, one call per GPU (builds N-B, 5 repetitions, us): H100 as
//     above; H200 mixed b512 669 -> 605 (-9.6%), b256 709 -> 641, latin 650 -> 536 (-17.5%), cjk
//     528 -> 460 (-12.9%), emoji 455 -> 414 (-9.0%), mixed_errors 730 -> 683 (-6.4%), ascii 447
//     -> 446. Every GPU test, memcheck, racecheck and synccheck clean on both GPUs.
//   step 3 (kept, 3fa04f0; chunk.hpp): the classification's sums (the nibble tests), its shift
//     and add of nibble_ge_5, and the gathers' shift-and-merge of each 4-bit field (>> 28, << 4q,
//     |) as IMAD and IMAD.HI by constants from a __constant__ table, which the compiler cannot
//     turn back into ALU shifts or LEAs: about 14 ALU operations per non-ASCII word moved to the
//     FMA pipe. Predicted (H100, 2^28): validate mixed -15..25%, decode cjk and latin -8..15%,
//     mixed -4..10%, ascii +-1%. Measured (H100, N-B-N against step 2, 5 repetitions, us):
//     validate mixed 248.0 -> 218.9 / 217.8 (-12%), cjk 249.6 -> 219.8 / 218.3; decode mixed
//     b512 620.3 -> 610.2 / 606.1 (-1.6..2.3%), b256 648.7 -> 642.7 / 639.2, latin 548.6 ->
//     538.7 / 537.0 (-2%), cjk 470.8 -> 459.6 / 457.7 (-2.5%), emoji 422.6 -> 410.7 / 409.0 (-3%),
//     mixed_errors 687.6 -> 679.0 / 674.5, mixed 2^24 b256 52.4 -> 50.8 / 50.5, ascii the same;
//     ranges disjoint but for ascii. H200 (N-B): validate mixed 247.2 -> 217.5 (-12%), decode
//     mixed b512 604.6 -> 598.0 (-1.1%), b256 641.7 -> 631.2, latin 536.1 -> 526.7, cjk 460.5 ->
//     449.2, emoji 414.9 -> 401.4, mixed_errors 682.0 -> 670.6. Under the prediction: validate
//     gains 12%, decode 1-3% (its loops and stores are the larger share).
//   step 4 (dropped, b7631c9, reverted by 6b4ae39): the same for the decode loops (the word and
//     table-entry offsets as IMAD.HI, the field packing's >> 2 and >> 16, the stage padding).
//     Predicted: decode cjk and latin -4..8%, mixed -2..5%. Measured (H100, N-B-N): mixed b256
//     640.2 -> 797.2 (+25%), b512 606.9 -> 691.2, latin +15%, cjk +10%, emoji +7%, mixed_errors
//     +26%: the SASS shows 230 LDC (each constant loaded into a register, not an operand) and the
//     IMAD count doubled (2429 against about 1200); the offsets through byte pointers may also
//     have cost the loops their shared-memory addressing (LD.E.U8 appears). Not pursued.
//   Net, session start -> step 3 (us, 5 repetitions): H100 mixed b512 674.3 -> 610.2 (-9.5%;
//     0.485x -> 0.538x copy), latin 648.3 -> 538.7 (-17%), cjk 527.6 -> 459.6 (-13%), emoji
//     455.7 -> 410.7 (-10%), validate mixed 0.359x -> 0.408x copy; H200 mixed b512 669.5 -> 598.0
//     (-10.7%; 0.346x -> 0.387x), latin -19%, cjk -15%, emoji -12%, validate mixed 0.254x ->
//     0.289x. Every GPU test, memcheck, racecheck and synccheck clean on both GPUs after each
//     kept step.
//   What is left: the classification's logic (LOP3, SHF) and the loops' remaining ALU work; the
//     0.8x goal still needs the time cut 1.49x (H100) and 2.07x (H200) at b512.
// Fourth session (2026-11-22, H100 only: the device time ran out before the H200 call): the store
//   step (kept, commit 2d5295062c57). Each unit of a step's run took a loop trip of about 10
//   operations, 6 of them ALU (the index, its stage slot i + i / 32, the 64-bit address, the
//   bound). Lane l's units are l + 32m at stage slot l + 33m, so the step is now 16 unrolled
//   rounds from two pointers with constant strides: a compare, a load and a store each.
//   Predicted: mixed b512 -3..-8%, ascii -5..-15%, latin, cjk and emoji -2..-5%. Measured (H100,
//   N-P-B-N-P-B, 5 repetitions, medians in us; B the loop, P 16 predicated rounds, N as here: P
//   plus a warp-uniform test every 4 rounds that the run has ended), B / P / N:
//     mixed b512    610.9 [609.7-611.5] / 585.6 / 577.4 [576.3-579.1]: -5.5%, 0.538x -> 0.570x copy
//     mixed b256    643.0 / 624.3 / 620.0 (-3.6%); mixed 2^24 b512 51.6 / 50.8 / 50.1 (-2.9%)
//     latin         540.5 / 528.6 / 524.0 (-3.1%); cjk 461.0 / 456.7 / 442.9 (-3.9%)
//     emoji         411.6 / 417.2 / 393.5 (-4.4%; P +1.4%: only its first 4 rounds hold units)
//     mixed_errors  678.7 / 663.4 / 659.2 (-2.9%)
//     ascii         550.2 [547.9-553.3] / 549.4 / 546.3 [542.9-549.5] (overlap: barrier-bound)
//   Every UTF-8 test and memcheck, racecheck and synccheck over the single_pass tests (21 of 21
//   clean) passed on the H100 with N.
//   On the H200 (commit f22cebca2812, 5 repetitions): mixed b512 565.3 us (0.410x copy, was
//   0.387x), b256 607.8; every GPU test, and memcheck, racecheck and synccheck over the
//   single_pass, concurrency and checks groups (27 of 27 clean).
// Fifth session (2026-11-23, H200 unless said; A/B builds in one call, 5 repetitions, medians in
//   us with the repetitions' range). Where the instructions went (ncu source counters, decode
//   mixed 2^28 b512, commit f22cebca2812: 412 M warp instructions, 565.6 us, issue 70%): the
//   classification 34% (214 per non-ASCII chunk; 129 K of 131 K warp steps run it, every lane's
//   chunk or not), split mode's 16 position stores 16% (140 per step), its loop over the
//   multi-byte units 23% (31 per trip, 5.27 trips per step: the warp's most, about twice the
//   mean), the store step 10%.
//   Accumulate mode (kept; chunk.hpp's for_each_position_accumulate): one pass over the 16
//     positions, each adding its payload bits (payload_bits: SWAR, 9 operations a word) to its
//     unit's code point (a start begins it, a continuation byte shifts it by 6) and storing the
//     value so far into its unit's slot, so each unit's last position leaves its code point; the
//     last unit, which may end in the next chunk, is decoded again by the table. No loop, no
//     branch per unit: the same work in every lane. Predicted: mixed b512 -10..-17% (the split
//     steps' instructions 375 -> about 200). The first form, C++ (15 operations a position: the
//     compiler shifted, masked and compared each start bit to add it to the slot index, and kept
//     the warp's stage offset apart): mixed b512 564.2 -> 541.8 at 7 units a lane or more, 535.3
//     at 4 or more, but latin 511 -> 551 (+7.8%), cjk +2.2% at 7 and +22% at 4, emoji +2.7% and
//     +33%. With the stores by their 32-bit shared address and split mode removed: mixed b512
//     525 (-7.0%), latin +4.3%, cjk +18% at 5. With one position as inline PTX
//     (accumulate_position: the start bit tested by one logic operation into a predicate, the slot
//     index incremented under it, the value one multiply-add and one select; 8.25 instructions a
//     position): mixed b512 564.3 -> 475.4 [472.6-477.7] at 5 or 6 units (-15.7%), 479.5 at 7; b256
//     608.2 -> 489.6 (-19.5%); latin 510.9 -> 471.8 (-7.6%); mixed_errors 649.1 -> 557.7 (-14%);
//     cjk 431.1 -> 442.9 at 6 (+2.8%), 434.9 at 7 (+0.9%); emoji +1.1%; ascii the same. Kept at 6
//     units (mixed text, the goal's mix, 0.9% faster than at 7; CJK 1.8% slower).
//   The store step's output address held in registers (kept): the compiler rebuilt it (a
//     constant load and two address operations) under each of the 16 rounds' predicates; an
//     empty asm statement now holds it. Predicted: mixed -3..-5%. Measured: mixed b512 479.2 ->
//     467.7 (-2.4%), b256 494.0 -> 474.6 (-3.9%), latin -4.2%, cjk -3.6%, emoji -1.8%,
//     mixed_errors -4.7%, ascii the same.
//   Dropped: two steps' unit counts in one warp scan (16-bit halves; predicted -1..-2%): mixed
//     b512 -0.8%, ranges overlapping. Steps 0 and 1 both staged during the look-back, in two
//     stages (predicted mixed -3..-8%, ascii -5..-10%): mixed b512 +1.0%, b256 +2.1%, b1024 +4%,
//     latin +1.5%, ascii the same: warp 0 stages both steps after its look-back, so the barrier
//     opens later.
//   Net (commit e6c00cbc90d2 against f22cebca2812, builds B-N-B-N in one call per GPU):
//     H200  mixed b512 566.5 -> 468.2 (-17.4%), b256 609.5 -> 473.3 (-22%), mixed 2^24 b256 46.8
//           -> 42.0, latin 512.4 -> 454.7 (-11%), mixed_errors 650.6 -> 534.6 (-18%), cjk 433.1 ->
//           428.2 (-1.1%), emoji 383.8 -> 380.7, ascii the same (447 / 446).
//     H100  mixed b512 579.7 -> 500.4 (-13.7%), b256 622.3 -> 506.5 (-19%), latin 525.0 -> 477.4
//           (-9%), mixed_errors 660.9 -> 554.7 (-16%), cjk 444.2 -> 440.3, emoji 395.2 -> 391.7,
//           ascii the same (548).
//   ncu after (H200, b512): 305 M warp instructions, 467.6 us; the classification is now 41% of
//   them, the accumulate steps 29%, the store steps 6%; the first store step waits at the
//   barrier behind the look-back (21% of the stall samples). What is left for 0.8x copy (about
//   290 us on the H200, 410 on the H100): a classification that does not run for every lane of
//   a warp whose chunks are partly ASCII (about a third of mixed text's chunks are), or a much
//   cheaper one. Every GPU test, and memcheck, racecheck and synccheck over the single_pass,
//   concurrency and checks groups (27 of 27 clean), passed on both GPUs with N.
// Sixth session (2026-11-23, H200; A/B builds in one call, 5 repetitions, medians in us; B = the
//   kernel before, commit 33f908fb2220): the second-byte rule by a pair table (kept; chunk.hpp's
//   pair table). A position's takes-1 bit depends only on (its byte, the next byte), and, for a
//   byte >= C0, only on their low 6 bits: one byte permute builds the index of the pair, one
//   shared load reads a 16 KB byte table, one shifted add puts the bit into second_ok. It replaces
//   the SWAR lead validity (C0, C1, F5..FF) and the four narrow second-byte ranges (E0, ED, F0,
//   F4), and the ascii, lead3 and lead4 classes lose their validity terms (only second_ok, which
//   holds only for leads, lets them count). SASS of decode b512: LOP3 809 -> 569, IMAD 1091 ->
//   1053, 124 LDS (68 of them the table's) against 56. Predicted: decode mixed -6..-12%, latin
//   and cjk -8..-15%, validate -15..-25%, ascii the same. Builds: P = the table filled by 8-byte
//   runs computed per thread; F = filled by 16-byte runs from 8 constant words (kept); FB = F
//   with the next byte's bits masked by the lead's too, so that every position that is not a
//   lead reads entry 0 (one word, a broadcast; two IMADs a word more):
//                               B       P       F       FB
//     decode mixed b256        471.2   450.4   448.6   454.6   (F -4.8%)
//     decode mixed b512        463.8   453.1   452.8   458.7   (F -2.4%)
//     decode mixed 2^24 b256    42.0    36.3    39.3    39.9   (F -6.5%; P's 36.3 not explained)
//     decode latin / cjk / emoji  452 / 426 / 378  ->  F 431 / 398 / 355 (-4.6%, -6.6%, -6.2%)
//     decode mixed_errors      531.9   505.0   501.5   509.0   (F -5.7%)
//     decode ascii             439.6   440.8   441.3   442.0   (the same within the ranges)
//     validate mixed           217.9   185.6   180.3   189.7   (F -17.3%; latin, cjk, emoji alike)
//     validate ascii            65.8    68.4    66.4    66.7   (P's fill cost 4%; F +0.9%)
//     validate mixed_errors     26.5    28.9    25.1    25.7   (F -5%)
//   The decode gain is half the prediction. ncu (P, decode mixed 2^28 b256): 290 M warp
//   instructions, 453.7 us; the shared loads conflict 1.8-way on average (the table's and the
//   stage's), the stage stores 2.4-way; barrier stalls 4.0 of the 12.5 cycles between a warp's
//   instructions (the look-back). FB's broadcast did not pay for its two IMADs a word. Blocks 256
//   and 512 are within 1% for decode of mixed text at 2^28 (448.6 [446.5-449.7] against 452.8
//   [449.0-453.7]: the ranges overlap).
//   H100 (F against B, builds B-N-B-N in the verification call): mixed b512 500.3 -> 491.6
//   (-1.7%), b256 505.5 -> 492.7 (-2.5%), mixed 2^24 b256 45.3 -> 43.0 (-5.0%), latin -3.0%, cjk
//   -5.4%, emoji -5.6%, mixed_errors -4.7%, ascii the same (548.8 / 549.1). Every GPU test, and
//   memcheck, racecheck and synccheck over the single_pass, concurrency and checks groups (27 of
//   27 clean), passed on both GPUs at a130e118b269.
//   Then two changes around the stores and the tile's start (builds B-E-T-ET-B-ET-T-E in one call;
//   B = a130e118b269's kernel, medians of the two runs of each build):
//   E = stores only at units' ends (kept; chunk.hpp's accumulate_position_after): accumulate mode
//     stored every position's value so far (16 stores a lane), each unit's last one surviving; now
//     position k's value is stored only where position k + 1 starts a unit, under the start test
//     position k + 1 makes anyway (a predicated st.shared in its inline PTX: the same instructions,
//     fewer lanes per store, fewer shared-memory wavefronts). Predicted: mixed -0..-3%.
//   T = the tile from blockIdx.x (kept; lookback.cuh's block_tile_index) instead of an atomic
//     counter, whose round trip opened every tile behind a barrier. Predicted: mixed -2..-4%, ascii
//     -3..-8%.
//                               B       E       T       ET
//     decode mixed b256        449.6   444.3   442.0   438.2   (ET -2.5%, ranges apart)
//     decode mixed b512        453.0   449.7   445.8   442.6   (ET -2.3%)
//     decode mixed 2^24 b256    39.3    38.8    35.8    35.8   (ET -9%)
//     decode latin / cjk / emoji  432.3 / 399.5 / 355.0  ->  ET 418.9 / 389.1 / 344.5 (-3.1%,
//                                 -2.6%, -3.0%)
//     decode mixed_errors      501.7   491.7   491.4   482.8   (ET -3.8%)
//     decode ascii             441.5   439.5   439.4   436.3   (ET -1.2%; T alone -0.5%, not the
//                                                               3-8% predicted)
//     validate (every mix)     unchanged (its tiles were already blockIdx.x; no accumulate mode)
//   The kept code (aa2239d9ff9a, E and T together, encode's tiles from blockIdx.x too) against
//   e93269e3 (the pair table), builds B-N-B-N in the verification call of each GPU:
//     H100  decode mixed b256 491.4 -> 481.9 (-1.9%), b512 489.5 -> 483.1 (-1.3%), 2^24 b256 42.8
//           -> 38.5 (-10%), latin / cjk / emoji / mixed_errors -2.2 / -2.1 / -2.3 / -2.7%, ascii
//           549.2 -> 542.9 (-1.2%); encode ascii 1003.6 -> 980.7 (-2.3%), cjk -1.1%, mixed -0.9%.
//     H200  decode mixed b256 449.8 -> 438.0 (-2.6%), b512 452.7 -> 442.6 (-2.2%), 2^24 b256 39.4
//           -> 35.7 (-9.3%), latin / cjk / emoji / mixed_errors -2.8 / -2.7 / -3.1 / -3.6%, ascii
//           441.6 -> 437.2 (-1.0%); encode ascii 939.6 -> 912.1 (-2.9%), cjk -1.7%, mixed -1.8%.
//   Every GPU test, and memcheck, racecheck and synccheck over the single_pass, concurrency and
//   checks groups (27 of 27 clean), passed on both GPUs at aa2239d9ff9a.
//   Dropped (H200, builds B-A-U5-U5-A-B, branch wip/utf8-arrive; B = aa2239d9ff9a's kernel):
//   A = the barrier after the warps' counts kept for warp 0 only (bar.sync 1; the other warps
//     bar.arrive and stage step 0 at once; warp offsets read after the second barrier). Predicted:
//     mixed -1..-2%, ascii -1..-3%. Measured: mixed b256 437.3 -> 442.0 (+1.1%), b512 442.3 ->
//     449.1 (+1.5%), latin and cjk +0.8%, ascii the same.
//   U5 = accumulate mode from 5 units a lane (6 here), since stores at units' ends made it cheaper
//     (predicted: mixed -0..-1%): every row within 0.3%; the threshold stays at 6.
//   Where the time goes now (ncu, H200, decode b256 at 2^28, commit f145f1f): mixed text 287 M
//   warp instructions in 440 us, issue slots 62% busy, ALU pipe 56%, FMA-heavy 45%, LSU 37%; of
//   the 12.3 cycles between a warp's instructions 4.0 are barrier stalls (the look-back behind
//   __syncthreads), 1.6 not selected, 1.25 wait, 1.1 long scoreboard, 1.1 math pipe throttle.
//   ASCII: 149 M instructions in 443 us, barrier 10.8 of 23.4 cycles, long scoreboard 4.5. The
//   pipes no longer bound decode of mixed text; the tile's look-back and its barrier do. H100
//   (the same kernel, mixed): 288 M instructions in 489 us, issue 57%, ALU 50%, FMA-heavy 36%,
//   barrier 5.0 of 13.6 cycles.
//   Dropped (H200, builds B-W1-W4-W4-W1-B, branch wip/utf8-warp-tiles): each warp's 2048 bytes a
//   tile of the look-back of its own (index tile x warps + warp; no block barrier after the
//   counts; each warp publishes its aggregate, looks back itself, stages and stores), W1 with one
//   predecessor per lane and round trip, W4 with four. Predicted: mixed -5..-15%, ascii
//   -5..-15%. Measured: mixed b256 438.3 -> 498.5 (+14%) / 649.9 (+48%), b128 +8%, b1024 +24%,
//   ascii 436.3 -> 501.6 (+15%), 2^24 +15%: eight times the tiles make eight times the walks,
//   and a warp waits out its own walk with its stores behind it, where a block's walk (warp 0)
//   overlapped the other warps' staging.
//   Dropped (H200, builds B-O-N0-N0-O-B, branch wip/utf8-overlap): O = warp 0 stages step 0
//   while its look-back's first loads are in flight (lookback.cuh's exclusive_prefix calling the
//   staging after issuing the first window). Predicted: mixed -1..-3%, ascii -2..-5%. Measured:
//   mixed b256 438.3 -> 491.3 (+12%), b512 443.5 -> 571.2 (+29%), ascii +6%, latin +12%; N0 (the
//   same code without the overlap) as B within 0.6%. The tile's inclusive prefix is published
//   only after its walk, so a walk that waits for the staging delays every later tile's walk (they
//   find aggregates where they would have found prefixes): the time from a tile's counts to its
//   published prefix is on the chain's critical path, and anything put there costs several times.
//   Dropped (H200, builds B-V8-V8-B, branch wip/utf8-vecs8): 8 vector steps per warp instead of
//   4 (tiles of 32 KiB at block 256: half the look-backs per byte). ptxas: 128 registers (60
//   here), so 2 blocks of 256 an SM instead of 4. Predicted: mixed -0..+10%. Measured: mixed b256
//   442.3 -> 505.0 (+14%), b128 +9%, latin +14%, cjk +16%, ascii the same, validate +1.7%. The
//   same with 3 blocks an SM (80 registers, 32 bytes of spills) did not build at block 1024.
//   What the look-back chain costs (H200, branch wip/utf8-two-pass, a measurement, not a
//   variant): the same decode kernel fed each tile's prefix from a count kernel (the
//   classification only) and a CUB scan of the tile counts, so that no tile waits on another. ncu
//   per kernel, 2^28, block 256: mixed text count 178.9 us + scan 5.4 + decode 359.7 (542.8 us in
//   all against 438.5 single-pass); ASCII count 63.0 + scan 5.5 + decode 340.8 (421.0 against
//   436.4: the two passes are 3.5% faster on ASCII alone). So the chain costs decode about 78 us
//   of mixed text's 438 (18%) and 95 us of ASCII's 436 (22%). Without any chain, ASCII decodes at
//   0.925x copy (the read-and-widen ceiling's 0.92x) but mixed text only at 0.64x: the 0.8x goal
//   (about 290 us on the H200) needs both the chain hidden and the decode work itself cut by a
//   fifth.
// Seventh session (2026-11-23, H200, builds B-N2-N1-N2cs-B-N2 in one call, 5 repetitions,
//   medians in us; branch wip/utf8-halves, dropped): NOTES.md's larger tiles with reloaded chunks.
//   N2 = each warp owns 4096 bytes under one look-back (two halves of 4 steps, classified a half at
//   a time through load_and_classify, each step's info, rank and run held: 24 registers); the
//   chunks are not held but loaded again when their step is staged (the next step's load issued
//   before the current step's staging; the first load evict-normal so that the reload hits L2).
//   ptxas: 64 registers at block 256 (no spills; 20 bytes at 512). N1 = the same code with one
//   half (as B). N2cs = N2 with an evict-first first load. Predicted: mixed b256 -4..-9%, ASCII
//   -5..-12%, N2cs slower than N2. Measured: ASCII 441.5 -> 415.2 (-6%: the chain halved), but
//   mixed b256 441.8 -> 501.6 (+13.5%), b512 +15.6%, latin +11%, CJK +13%, emoji +12%,
//   mixed_errors +13.6%, 2^24 b256 +7%; N1 within 0.9% of B; N2cs mixed 541.6 (the reloads miss
//   L2 with an evict-first first load). SASS (block 512): ISETP 539 -> 774, IADD3 223 -> 411,
//   LD 92 -> 180. N2r (second call, B-N2r-N2-B-N2r) = N2 with the halves staged by a loop that is
//   not unrolled (one copy of a half's staging code, its fields picked by the half's index; 63
//   registers, no spills at 512 either): mixed b256 441.6 -> 493.7 (+11.8%), b512 the same as B
//   (446.9 against 446.3), 2^24 b512 -9%, ASCII -5.7%, latin, CJK, emoji +11-13%: not the code's
//   size. ncu (mixed text, b256, one sort each): N1 287.3 M warp instructions, 12.46 cycles
//   between a warp's instructions, 446.8 us; N2 304.0 M (+5.8%), 13.30, 486.3 us; N2r 314.5 M
//   (+9.5%), 12.76, 496.4 us; DRAM throughput 44.8% -> 41.3%. The reloads and the per-step fields
//   add instructions, and a warp issues more slowly, more than the shorter chain saves. In all
//   three, shared stores run 2.1-way bank conflicts (half of their wavefronts) and shared loads
//   1.8-way (42%), the accumulate mode's scattered slot stores and the table lookups.
//   Kept (branch wip/utf8-edge-accumulate): the accumulate mode for the warps at the input's
//   edges too. The full runs of ae81ebd7e33b had decode of mixed text at n = 2^k - 3 a fixed
//   2.3-3.8 us slower than at 2^k at 2^20 and 2^24 (ncu: the kernel itself, 10.3-10.7 us against
//   12.8-13.8 at 2^20 on the H200). The last tile's last warp is not inside the input, so it took
//   the loop mode, and the kernel's end waits for that tile. Now such a warp runs
//   for_each_position_accumulate's EDGE build (a scratch slot before the lane's first unit at
//   every position, no store for a chunk without a unit). Predicted: npot 2^20 b256 13.8 ->
//   11.3-11.8 us, 2^24 -> ~36.5, pot unchanged. Measured (B-N-B-N, 5 repetitions; H200, then
//   H100): npot 2^16 b256 14.0/13.9 -> 9.6/9.6 (H100 13.9 -> 9.4/9.5), 2^20 13.8/13.7 ->
//   11.2/11.5 (H100 13.8/13.7 -> 11.2/11.3), 2^24 39.0/39.1 -> 35.9/36.1 (H100 42.4/42.3 ->
//   39.0/39.3), 2^28 the same; pot the same within 1% (2^28 b256 437.8/439.3 -> 439.7/440.3,
//   ranges overlapping), but mixed_errors at 2^28 +1.2% on both GPUs (H200 482.6/483.2 ->
//   488.8/488.8, H100 510.7/511.4 -> 516.4/516.7, ranges apart), not explained (the inside
//   warps' paths are unchanged; ptxas: the same 60 registers). Every GPU test and memcheck,
//   racecheck and synccheck over the UTF-8 groups (27 of 27) passed on both GPUs at
//   4d98de6543fe. Kept: every input whose length is not a multiple of a warp's 2048 bytes gains
//   the ~2.5 us (the last tile's time); a new CPU test checks the EDGE build
//   at every skew and cut (Utf8Chunk.AccumulateModeAtTheEdgesMatchesReference).
// Eighth session (2026-11-23): encode, untouched since the block-index change. ncu (H200, base,
//   2^28 code points, block 256): 711 M warp instructions for mixed text (85 a code point), 477 M
//   for ASCII, issue slots 48-55% busy, 62 registers (32 warps an SM); the stall samples 30% at
//   the barrier behind warp 0's look-back (65536 tiles of 4096 code points: four times decode's
//   tile count for the same input bytes) and 6% on the first loads. Steps, each an A/B against
//   the base in one call on the H200 (5 repetitions, medians in us, 2^28, block 256):
//   - the bytes of each code point ORed into the stage by one or two shared atomicOr (a
//     branch-free encoded_word, rules.hpp; four ASCII code points as one word) instead of up to
//     four predicated byte stores, the stage cleared by the store step. Predicted: -20..-40% (the
//     byte stores and their branches). Measured: ASCII 909.6 -> 818.1 (-10%), emoji -3%, but CJK
//     +3.5%, latin +5%, mixed 1228 -> 1258 (+2.5%). Kept only with what follows.
//   - tiles of 16 and 8 steps a warp (65536 and 32768 code points at block 256), the lengths and
//     ranks first, the code points read again from L2 to stage (predicted: ASCII -35..-50%,
//     mixed -20..-40%): 16 steps fully unrolled: ASCII 767, but CJK 2174 (+96%), mixed 1605; 8
//     steps: ASCII 755, CJK 1117, mixed 1314 (+7%). ncu: 17-25% of the stall samples "no
//     instruction": the unrolled steps missed the instruction cache. Rolled (ranks and lengths in
//     shared memory, 36-40 registers): 8 steps: ASCII 677 (-26%), CJK 991 (-11%), emoji 1014
//     (-18%), latin 1099 (-9%), mixed 1036 (-16%), mixed_errors 1088 (-12%); 16 steps: ASCII 647,
//     CJK and emoji 3-4% slower than 8, mixed and mixed_errors 0.6-1.1% faster. But small inputs
//     lost: mixed 2^20 12.1 -> 17.9 us; with the next step's code points loaded during the current
//     one (kept), 2^16 9.3 -> 15.6, 2^20 12.2 -> 16.9, and 2^28 mixed 1042; 2^24 the same.
//   - kept: 8 steps from 2^22 code points on (kEncodeLargeN, utf8.hpp), 4 steps below with their
//     code points held in registers (no second read). Measured (commit 41bac69ebf43 on the H200,
//     4dca319e2862 on the H100, B-N-B-N; every pair's repetition ranges apart unless said):
//     H200: ascii 2^28 912.8 / 910.4 -> 676.9 / 676.8 (-26%), mixed 2^28 1230.1 / 1230.5 ->
//       1042.4 / 1042.7 (-15%), cjk -9.5%, emoji -17.5%, latin -8.8%, mixed_errors -11.6%; ascii
//       2^24 -18%, 2^22 -20%; mixed 2^24 84.5 -> 83.7 (-1%), but mixed 2^16 9.4-9.6 -> 9.8-10.1
//       (+4%) and 2^20 12.4 -> 12.8-12.9 (+3.6%).
//     H100: ascii 2^28 982.3 / 984.9 -> 774.5 / 774.7 (-21%), mixed 2^28 1322.4 / 1323.3 ->
//       1092.6 / 1093.4 (-17%), cjk -12%, emoji -15%, latin -12%, mixed_errors -14%; ascii 2^24
//       -14%; mixed 2^24 the same (88.8 / 89.6 -> 88.9 / 89.0), but mixed 2^16 9.4 -> 9.9 (+5%)
//       and 2^20 12.5 -> 13.2-13.3 (+6%).
//     Decode unchanged. The small inputs' cost was put on the atomic staging (their tiles are as
//     before); the try below does not support that.
//     Every GPU test passed on both GPUs (test_utf8 now checks sizes around the switch and the
//     8-step tile's edges); memcheck, racecheck and synccheck clean over the encode groups on
//     both GPUs, and on the H200 also over a build with the 8-step tiles at every size
//     (GPS_UTF8_ENCODE_LARGE_N=0). Encode of mixed text at 2^28: 0.282x -> 0.332x copy on the
//     H200, 0.371x -> 0.448x on the H100 (results/partial/nvidia-{h200,h100}-utf8-encode.json).
//   Dropped (H200, commit 9de01b3c94e1, builds B-N-B-N in one call, 5 repetitions, medians in us;
//     branch wip/utf8-encode-small2): N = the 4-step tiles staged by byte stores again
//     (ENC_SMALL_BYTES; the 8-step tiles keep the atomics). Predicted: mixed 2^16 and 2^20 back
//     to 9.4 and 12.4 us, 2^22 and up unchanged. Measured (B's first run, slower in every row and
//     in the copy rows too, left out): mixed 2^16 9.66 [9.63-9.66] against 9.73 / 9.70, 2^20 12.58
//     against 12.61 / 12.58, 2^22 26.66 against 26.85 / 26.82, ascii 2^16 7.07 against 7.10 /
//     7.07, cjk 2^20 11.34 against 11.49 / 11.42, 2^28 rows within 0.3%. Byte stores gain nothing
//     here; what the small inputs pay is elsewhere (the shared ranks and lengths, the stage's
//     clearing). test_utf8 passed and memcheck, racecheck and synccheck were clean with N.
// Ninth session (2026-11-23, H100, commit 468f9f1e462b; branch wip/utf8-two-pass2, the sixth
//   session's two-pass measurement on this kernel, not a variant): what the look-back chain costs
//   on the H100. ncu per kernel (--clock-control none), 2^28 bytes, two launches each:
//     mixed b256  single-pass 482.6 / 486.8 us (288.0 M warp instructions, barrier stalls 4.9-5.0
//                 per issue, issue slots 57-58% busy); two passes: count 179.7 / 180.4 + CUB scan
//                 6.7 + decode with known prefixes 377.8 / 378.9 (283.1 M, barrier 0.8, issue 74%)
//     mixed b512  single-pass 486.1 / 488.2; known prefixes 388.7 / 389.2
//     ascii b256  single-pass 554.3 / 545.3 (barrier 13.7-13.9, issue 26%); known 467.9 / 468.6
//   So the chain costs 105 us of mixed text's 483 (22%; the H200's 78 of 438, 18%) and 82 of
//   ASCII's 550. Decode with known prefixes runs at about 0.87x copy on the H100 (the same bytes
//   in 378 us against 482 at 0.682x): hiding at least 70% of the chain would meet the 0.8x goal
//   there (411 us); on the H200 the same decode is 0.65x copy (359.7 us), so the H200 needs the
//   decode work cut as well. The lead: a tile's classification (and its published counts)
//   pipelined against the previous tile's look-back and stores, not more tiles in flight.
// Twelfth session (2026-11-23, H100, builds B-W1-W2-B-W2-W1 in one call, 5 repetitions, medians
//   in us; branch wip/utf8-walker, dropped): the look-back taken off the decoding warps' path.
//   W1 = warp 0 of the block is a walker with no bytes of its own (it waits at the barrier after
//   the counts, looks back, writes the tile's offset and signals a named barrier by bar.arrive,
//   then exits), the other warps stage step 0 and wait on that barrier (bar.sync), so a tile is
//   one warp's 2048 bytes smaller; W2 = W1 with steps 0 and 1 staged before the wait (a second
//   stage per warp: 55 KB of shared memory a block at 256 threads, 4 blocks an SM still; 64 and 61
//   registers at 256 and 512). The idea: warp 0 looked back and then staged its own 4 steps, so a
//   block lived for the walk plus warp 0's decode; without a walker the walk is overlapped with
//   the other warps' staging. Predicted: mixed b512 -8..-15% (W2), -0..-5% (W1). Measured
//   (B / W1 / W2): mixed b256 482.7 [481.2-484.1] / 499.9 / 498.9 (+3.4%), b512 482.3 / 491.5 /
//   485.6 [481.4-486.4] (+0.7%), latin b256 449.5 / 470.3 / 467.6 (+4%), cjk 408.0 / 430.2 / 424.5
//   (+4%), emoji 360.7 / 383.1 / 377.8 (+5%), ascii 542.4 / 553.6 / 550.6 (+1.5%), mixed_errors
//   516.1 / 536.8 / 535.3 (+3.7%), mixed 2^24 b256 39.3 / 41.0 / 40.6 (+3%); only mixed 2^20
//   gained (b256 11.45 / 11.25 / 10.85, b512 13.3 / 12.45 / 11.95: fewer, shorter tiles' walks
//   end sooner there). Copy 713.2 us in every run. The decoding warps lost to the walker (7 of 8
//   at 256 threads, 15 of 16 at 512) cost more than the walk they no longer wait for, and the
//   second stage won back only part at 512. In that build, test_utf8 passed decode's mix and
//   edge-size tests at every block; encode failed (the build let encode's tile_offsets scan one
//   warp too few), so the later groups did not run: the variant was not verified further.
//   Kept: 384-thread blocks built for 3 an SM (kDecodeMinBlocks: 56 registers, no spills; 36
//   warps an SM against 32 at 256 threads and 60 registers), a block size of the single_pass rows
//   (validate and encode take it too: the three operations share one row list; the default stays
//   256, faster at 2^24 and below, and validate and encode were not measured at 384). The
//   walker runs showed the decoding warps' number, not the walk, as what a block gives up; more
//   warps an SM should cover more of each block's barrier wait. Predicted (H100, 2^28): mixed
//   -0..-4%. Measured, builds B-N-B-N in one call per GPU (5 repetitions, medians of the two
//   runs, us; N also built 192, 288 and 576 threads for 36 warps an SM at 56 registers, 320 and
//   640 for 40 at 48, with 36 bytes of spills; the same test_utf8 groups passed in every build):
//                       H100 B b256 -> N b384             H200 B b256 -> N b384
//     mixed            484.2 -> 467.1 (-3.5%)            444.6 -> 426.8 (-4.0%)
//     latin            450.7 -> 435.6 (-3.3%)            424.7 -> 410.3 (-3.4%)
//     cjk              409.6 -> 393.5 (-3.9%)            394.7 -> 381.0 (-3.5%)
//     emoji            362.5 -> 346.5 (-4.4%)            348.4 -> 334.6 (-4.0%)
//     ascii            544.9 -> 532.8 (-2.2%)            441.8 -> 430.5 (-2.5%)
//     mixed_errors     517.0 -> 491.4 (-4.9%)            491.7 -> 464.3 (-5.6%)
//     mixed 2^24        39.0 -> 40.7 (+4%)                35.7 -> 37.0 (+3.5%)
//     mixed 2^20       11.35 -> 12.1 (+7%)              11.15 -> 12.15 (+9%)
//   every 2^28 pair's repetition ranges apart. Mixed text at 2^28 by shape (H100 / H200): 192 x 6
//   490.3 / -, 288 x 4 477.1 / 441.3, 384 x 3 467.1 / 426.8, 576 x 2 472.4 / -, 320 x 4 (48
//   registers) - / 452.5, 640 x 2 - / 441.0; 256 x 4 built for 4 blocks (64 registers) 483.9 /
//   445.2, the same as B's 60. At 2^24 and 2^20 block 256 stays faster (at 2^24, 683 tiles of 24
//   KiB for 396 block slots, 1.7 waves, against 1024 of 16 KiB for 528, 1.9): the block sweep of
//   mixed text keeps every size's best block in view.
//   The other side of the same curve: a first build gave every other block __launch_bounds__(BLOCK,
//   1), with which ptxas takes 80 registers at 256 threads (3 blocks, 24 warps an SM): mixed text
//   at 2^28 on the H100 522.2 us against 484.4 (+8%), 2^24 42.2 against 39.1. kDecodeMinBlocks
//   leaves those sizes without a minimum (0), as before.
//   Dropped (H100, builds B-V-B-V, 5 repetitions, medians of the two runs, us; B = main at
//   b095dc6): 40 warps an SM without spills, by 3 vector steps a warp instead of 4 (kVecs; ptxas:
//   48 registers at 320 x 4 and 640 x 2, no spills; 448 x 3 at 40 with 20 bytes). Predicted:
//   mixed 2^28 -0..-4% against block 384. Measured, mixed 2^28: 320 x 4 491.6, 640 x 2 494.8,
//   448 x 3 498.2, 384 x 3 501.7, 256 516.2, against B's 384 466.6 (+5.3% for the best) and 256
//   484.1; 2^30 320 x 4 1948.3 against 1839.4; 2^24 39.9 against B's 256 39.1. A warp's fixed
//   costs (its end words, its share of the tile's barriers and look-back) spread over fewer bytes
//   cost more than the 4 warps an SM gain. test_utf8's single_pass groups passed with it.
//   Dropped (H100, builds B-R-B-R, the same measures; branch wip/utf8-regs): 40 warps an SM at 4
//   steps, each step's rank, run and next word computed again when it is staged instead of held
//   (a warp reduction for the counts up front; ptxas: 48 registers, no spills, at 320 x 4, 640 x 2
//   and at 256 without a minimum, which then runs 5 blocks an SM). Predicted: mixed 2^28 -0..-4%
//   against block 384 for the 40-warp shapes, +0..+2% for R's own 384. Measured, mixed 2^28: 320 x
//   4 469.8, 640 x 2 472.0, 256 x 5 473.1, R's 384 473.6, against B's 384 466.4 (+0.7% for the
//   best) and 256 483.1; 2^30 640 x 2 1845.2 against 1841.1; 2^24 256 39.8 against 38.7. At block
//   256 the other mixes gained 1.6-5% (ascii 544.7 -> 517.7), about what block 384 gives them
//   (the A/B above): the rescans take what the fourth warp-quarter gives.
//   Dropped (H100, builds B-S-B-S, the same measures; branch wip/utf8-spec): speculative decode
//   from 2^22 bytes on. Well-formed text has its units exactly at the bytes that are not
//   continuation bytes, so each tile counted those right after its loads (a SWAR test a word),
//   published that count and looked back (warp 0, which then classified its own bytes; the other
//   warps classified at once and waited on a named barrier only to store); a warp whose units
//   differed set a flag, and the exact kernel, launched after it, decoded the input again where
//   the flag was set (its blocks return at once otherwise). The idea: the look-back no longer
//   waits for the predecessors' classification. Predicted: mixed 2^28 b384 -8..-14%, ascii
//   -10..-15%, mixed_errors about 2x. Measured: mixed 2^28 b384 466.2 -> 532.2 (+14%), b256 +17%,
//   b512 +10%, 2^30 b384 1842.5 -> 2104.8, 2^24 b256 38.5 -> 45.1; ascii +8%, latin, cjk and emoji
//   +19%; mixed_errors 516.1 -> 1094.9 (2.1x). Not measured apart: how much is the second
//   kernel's 10923 returning blocks and how much the speculative kernel itself. test_utf8's
//   single_pass groups passed with it, also in a build that speculated at every size (the fallback
//   taken by the adversarial and fuzzed inputs). A second call (B-S1-B-S1, S1 without the exact
//   kernel's launch: a measurement, wrong on ill-formed text): mixed 2^28 b384 466.9 -> 487.3
//   (+4.4%), b256 483.4 -> 521.3 (+7.9%), latin +9%, ascii +0.5%. So the fallback's launch of
//   returning blocks cost about 45 us, and the speculative kernel is slower on its own: warp 0
//   looks back before its classification instead of after, which moves the walk on its path but
//   does not take it off.
//   Kept: the tile's loads issued before the block fills its two tables (WarpChunks::load, then
//   the barrier, then WarpChunks::classify), so that the fill and its barrier run under the loads'
//   latency. Predicted (H100): mixed 2^28 b384 -0.5..-1.5%, 2^20 -2..-5%. Measured (H100, builds
//   B-E-B-E, 5 repetitions, medians of the two runs, us): mixed 2^28 b384 467.0 -> 460.4 (-1.4%,
//   ranges apart), npot 466.6 -> 461.2, b256 482.0 -> 480.4 (ranges overlapping); latin, cjk and
//   emoji (b256) -1.0..-1.4% (ranges apart), mixed_errors -0.8% (overlapping), ascii the same;
//   2^24 b384 39.9 -> 39.3, b256 the same; 2^20 and 2^16 the same within 0.2 us, not the gain
//   predicted (there the first tiles' table fills are a small part of a launch's time). H200
//   (O-N-O-N in the verification call of da137f4e6402): mixed 2^28 b384 422.4 -> 414.4 (-1.9%,
//   ranges apart), b256 440.4 -> 436.2 (-1.0%), latin -1.2%, cjk -0.8%, emoji -1.3%, mixed_errors
//   -0.8%, ascii -0.4% (ranges overlapping), 2^24 b384 36.8 -> 37.0, 2^20 b256 11.1 -> 11.3. Every
//   GPU test and memcheck, racecheck and synccheck over 34 UTF-8 groups passed on both GPUs at
//   da137f4e6402.
#include "common/block.cuh"
#include "common/cuda_check.hpp"
#include "common/lookback.cuh"
#include "common/per_device.hpp"
#include "common/shared_memory.cuh"
#include "common/temp_storage.hpp"
#include "common/warp.cuh"
#include "utf8/checks.hpp"
#include "utf8/chunk.hpp"
#include "utf8/empty_input.hpp"
#include "utf8/rules.hpp"
#include "utf8/tiles.hpp"
#include "utf8/utf8.hpp"

#include <cuda/atomic>

#include <cstdint>
#include <type_traits>
#include <utility>

namespace gps::utf8 {
namespace {

constexpr int kVecs = 4; // 16-byte vectors per thread and tile
// decode's accumulate mode (one pass over a chunk's 16 positions) costs about as much as 6 trips
// of the loop over units: taken in warps whose most units per lane reach this (measured on the
// H200: 5 and 6 the same for mixed text, 7 0.9% slower there but CJK 1.8% faster).
constexpr unsigned kAccumulateUnits = 6;

// ---- decode and validate: tiles of bytes -------------------------------------------------------

template <int BLOCK> struct ByteTile {
  static_assert(BLOCK % kWarpSize == 0, "block must be whole warps");
  static constexpr int kWarps = BLOCK / kWarpSize;
  static constexpr int kStepBytes = kWarpSize * 16;     // one vector step of a warp: 512
  static constexpr int kWarpBytes = kVecs * kStepBytes; // 2048
  static constexpr int kTileBytes = BLOCK * kVecs * 16; // 4 KiB (64 threads) .. 64 KiB (1024)
  // per warp: the stage of a step's units (at most 512, one padding word after every 32:
  // stage_slot), a scratch word per lane (accumulate mode's positions before a lane's first unit
  // store there), and a
  // copy of each lane's chunk and the word after it (5 words per lane: odd, so the lanes' copies
  // fall in distinct banks)
  static constexpr int kStageUnits = kStepBytes + kStepBytes / 32;
  static constexpr int kChunkCopy = kStageUnits + kWarpSize;
  static constexpr int kStageWords = kChunkCopy + 5 * kWarpSize + 16; // a multiple of 32
  static constexpr int kStageBytes = kWarps * kStageWords * 4;
};

// The input on the 16-byte grid of its address: virtual position p is byte p - begin of the input
// (begin = the input's offset in its 16-byte line); positions outside [begin, end) read as 0.
struct ByteGrid {
  std::uintptr_t base; // address of virtual position 0 (16-byte aligned)
  long long begin;
  long long end;

  __device__ __forceinline__ const unsigned char* at(long long p) const {
    return reinterpret_cast<const unsigned char*>(base + static_cast<std::uintptr_t>(p));
  }
  __device__ __forceinline__ unsigned byte(long long p) const {
    return p >= begin && p < end ? *at(p) : 0u;
  }
  // The 4 bytes at p (a multiple of 4).
  __device__ __forceinline__ unsigned word(long long p) const {
    if (p >= begin && p + 4 <= end)
      return *reinterpret_cast<const unsigned*>(at(p));
    return byte(p) | byte(p + 1) << 8 | byte(p + 2) << 16 | byte(p + 3) << 24;
  }
  // The 16 bytes at p (a multiple of 16); `inside`: known to lie in the input.
  __device__ __forceinline__ uint4 vector(long long p, bool inside) const {
    if (inside || (p >= begin && p + 16 <= end))
      return __ldcs(reinterpret_cast<const uint4*>(at(p))); // evict-first: read once
    return make_uint4(word(p), word(p + 4), word(p + 8), word(p + 12));
  }
  // classify_chunk's bits of the positions p..p+15 that lie in the input.
  __device__ __forceinline__ unsigned inside_mask(long long p) const {
    const long long lo = begin - p < 0 ? 0 : begin - p > 16 ? 16 : begin - p;
    const long long hi = end - p < 0 ? 0 : end - p > 16 ? 16 : end - p;
    const unsigned below_hi = (1u << hi) - 1u, below_lo = (1u << lo) - 1u; // hi, lo <= 16
    const unsigned m = below_hi & ~below_lo;
    return m | m << 16;
  }
};

ByteGrid byte_grid(const unsigned char* in, std::size_t n) {
  const auto address = reinterpret_cast<std::uintptr_t>(in);
  const auto begin = static_cast<long long>(address % 16);
  return {address - static_cast<std::uintptr_t>(begin), begin, begin + static_cast<long long>(n)};
}

// Tiles launched for this input (g.begin is its skew; tiles.hpp); the last one holds the input's
// last byte and writes the count.
std::size_t byte_tiles(const ByteGrid& g, std::size_t tile) {
  return tiles::tile_count(static_cast<std::size_t>(g.begin),
                           static_cast<std::size_t>(g.end - g.begin), tile);
}

// One warp's chunks of a tile, loaded and classified (phase 1 of decode and validate).
template <int BLOCK> struct WarpChunks {
  using Tile = ByteTile<BLOCK>;
  uint4 v[kVecs];       // this lane's chunk of each vector step
  unsigned next[kVecs]; // the 4 bytes after each chunk
  unsigned info[kVecs]; // classify_chunk's result, bits outside the input cleared
  long long base;       // virtual position of the warp's first byte
  bool inside;          // the warp's bytes all lie in the input

  __device__ __forceinline__ long long chunk_at(int j) const {
    return base + j * Tile::kStepBytes + lane_id() * 16;
  }

  // Loads the warp's 2048 bytes (all loads issued before any is used) and classifies them; the
  // words before and after each chunk come from the neighbouring lanes, and at the warp's ends
  // from a 4-byte load.
  __device__ __forceinline__ void load_and_classify(const ByteGrid& grid, long long warp_base,
                                                    const unsigned char* pairs) {
    load(grid, warp_base);
    classify(grid, pairs);
  }
  // The two halves: the loads (issued before anything uses them), then the classification.
  __device__ __forceinline__ void load(const ByteGrid& grid, long long warp_base) {
    base = warp_base;
    inside = base >= grid.begin && base + Tile::kWarpBytes <= grid.end;
#pragma unroll
    for (int j = 0; j < kVecs; ++j)
      v[j] = grid.vector(chunk_at(j), inside);
  }
  __device__ __forceinline__ void classify(const ByteGrid& grid, const unsigned char* pairs) {
    const int lane = lane_id();
    const unsigned before = lane == 0 ? grid.word(base - 4) : 0u;
    const unsigned after = lane == kWarpSize - 1 ? grid.word(base + Tile::kWarpBytes) : 0u;
    unsigned carry = 0; // lane 31's last-word classes of the step before
#pragma unroll
    for (int j = 0; j < kVecs; ++j) {
      const unsigned down = __shfl_down_sync(kFullMask, v[j].x, 1);
      const unsigned wrap_next =
          j == kVecs - 1 ? after : __shfl_sync(kFullMask, v[j == kVecs - 1 ? j : j + 1].x, 0);
      next[j] = lane == kWarpSize - 1 ? wrap_next : down;
      // the word before each chunk: classified here in step 0; in later steps its classes come
      // from the lane before (or lane 31 of the step before), which classified it as its last
      // word (one classify_word of five saved per chunk)
      const bool ascii_chunk = ((v[j].x | v[j].y | v[j].z | v[j].w) & chunk::kHigh) == 0;
      chunk::ChunkMasks m;
      unsigned last = chunk::kAsciiWordClasses;
      if (!ascii_chunk) {
        m = chunk::own_masks(v[j].x, v[j].y, v[j].z, v[j].w, next[j], pairs);
        last = chunk::last_word_classes(m);
      }
      const unsigned from_before = __shfl_up_sync(kFullMask, last, 1);
      const unsigned prev_classes = lane == 0 ? carry : from_before;
      carry = __shfl_sync(kFullMask, last, kWarpSize - 1);
      if (j == 0) {
        const unsigned up = __shfl_up_sync(kFullMask, v[0].w, 1);
        const unsigned prev = lane == 0 ? before : up;
        if (!ascii_chunk)
          chunk::add_word(m, 0, prev, v[0].x, pairs);
      } else if (!ascii_chunk) {
        chunk::add_prev_classes(m, prev_classes);
      }
      info[j] = ascii_chunk ? chunk::kAllAscii : chunk::chunk_info(m);
      if (!inside)
        info[j] &= grid.inside_mask(chunk_at(j));
    }
  }
};

// The block's copy of chunk.hpp's pair table (its used entries: one 8-byte store per run of 8
// equal entries); the caller's barrier orders it before the loads.
__constant__ std::uint32_t kPairRun16Bits[8] = {
    chunk::pair_run16_word(0), chunk::pair_run16_word(1), chunk::pair_run16_word(2),
    chunk::pair_run16_word(3), chunk::pair_run16_word(4), chunk::pair_run16_word(5),
    chunk::pair_run16_word(6), chunk::pair_run16_word(7)};
template <int BLOCK> __device__ __forceinline__ void fill_pair_table(unsigned char* pairs) {
  for (unsigned c = threadIdx.x; c < 256; c += BLOCK) {
    const unsigned v = (kPairRun16Bits[c >> 5] >> (c & 31u) & 1u) * 0x01010101u;
    *reinterpret_cast<uint4*>(pairs + (c >> 2) * 256 + (c & 3u) * 16) = make_uint4(v, v, v, v);
  }
}

template <int BLOCK> struct DecodeShared {
  unsigned tile_prefix; // code points of all earlier tiles
  unsigned warp_units[BLOCK / kWarpSize];
  unsigned warp_offset[BLOCK / kWarpSize];
};

// Staging index of unit i of a warp's step, from the warp's first word: one padding word after
// every 32 units, so that lanes writing 16 (or 8) units apart hit different banks and lanes
// reading 32 consecutive units from a multiple of 32 still do (one LEA.HI; the XOR swizzle used
// before took a shift and a logic operation on the ALU pipe, which bounds decode).
__device__ __forceinline__ int stage_slot(int i) {
  return i + (i >> 5);
}

// Warp 0, after the barrier that follows the warps' counts: the warps' offsets within the tile,
// the tile's offset by look-back, and (last tile) the total.
template <int BLOCK, int DEPTH = 1>
__device__ __forceinline__ void tile_offsets(DecodeShared<BLOCK>& shared, unsigned tile,
                                             unsigned tile_total, TileStatus status,
                                             unsigned long long* count) {
  constexpr int kWarps = BLOCK / kWarpSize;
  const int lane = lane_id();
  const unsigned own = lane < kWarps ? shared.warp_units[lane] : 0u;
  const unsigned inclusive = warp_inclusive_scan(own);
  const unsigned aggregate = __shfl_sync(kFullMask, inclusive, kWarpSize - 1);
  if (lane < kWarps)
    shared.warp_offset[lane] = inclusive - own;
  const unsigned prefix = status.exclusive_prefix<DEPTH>(tile, aggregate); // look-back
  if (lane == 0) {
    shared.tile_prefix = prefix;
    if (tile == tile_total - 1) // the last tile: it holds the input's last element
      *count = static_cast<unsigned long long>(prefix) + aggregate;
  }
}

// decode's blocks an SM: 384 threads are built for 3 (56 registers: 36 warps an SM, 12.5% more
// than the 32 that 64 registers allow; the header's twelfth session has the runs); the other
// sizes as the compiler chooses (0: no minimum; 60-64 registers at 256..1024 threads)
template <int BLOCK> constexpr int kDecodeMinBlocks = BLOCK == 384 ? 3 : 0;
// decode's look-back window: 32 x this many predecessors per L2 round trip
constexpr int kDecodeLookbackDepth = 1;

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK, kDecodeMinBlocks<BLOCK>)
    decode_kernel(ByteGrid grid, std::uint32_t* __restrict__ out,
                  unsigned long long* __restrict__ count, unsigned tile_total, TileStatus status) {
  using Tile = ByteTile<BLOCK>;
  __shared__ DecodeShared<BLOCK> shared;
  __shared__ uint2 s_entry[256]; // chunk::decode_entry of every first byte
  __shared__ alignas(16) unsigned char s_pairs[chunk::kPairTableBytes]; // chunk.hpp's pair table
  extern __shared__ std::uint32_t s_stage[];                            // kStageWords per warp
  // the tile is the block's index (lookback.cuh's block_tile_index); the atomic counter
  // (next_tile_index) used before opened every tile with its round trip (sixth session: decode
  // of mixed text at 2^28 1.7% faster without it, at 2^24 9%)
  const unsigned tile = block_tile_index();
  const int lane = lane_id(), warp = warp_id();

  // the tile's loads are issued first, so that they are in flight while the tables are filled
  WarpChunks<BLOCK> chunks;
  chunks.load(grid, static_cast<long long>(tile) * Tile::kTileBytes +
                        static_cast<long long>(warp) * Tile::kWarpBytes);
  for (unsigned b = threadIdx.x; b < 256; b += BLOCK) {
    const chunk::DecodeEntry e = chunk::decode_entry(b);
    s_entry[b] = make_uint2(e.sel, e.mask);
  }
  fill_pair_table<BLOCK>(s_pairs);
  __syncthreads(); // both tables

  // classify; units per chunk; their ranks within each vector step of the warp
  chunks.classify(grid, s_pairs);
  unsigned rank[kVecs], run[kVecs], warp_units = 0;
#pragma unroll
  for (int j = 0; j < kVecs; ++j) {
    const unsigned units = __popc(chunk::unit_starts(chunks.info[j]));
    const unsigned inclusive = warp_inclusive_scan(units);
    rank[j] = inclusive - units;
    run[j] = __shfl_sync(kFullMask, inclusive, kWarpSize - 1);
    warp_units += run[j];
  }
  if (lane == 0)
    shared.warp_units[warp] = warp_units;
  __syncthreads();

  // decode: each step's units staged in shared memory, then written as one contiguous run; the
  // first step is staged while warp 0 looks back (the tile's offset is needed only to store)
  std::uint32_t* const stage = s_stage + warp * Tile::kStageWords; // this warp's words
  const int scratch = Tile::kStageUnits + lane;
  std::uint32_t* const copy = stage + Tile::kChunkCopy + 5 * lane;
  const std::uint32_t stage_addr = shared_address(stage);
  const auto stage_step = [&](int j) {
    const uint4 v = chunks.v[j];
    const int first = static_cast<int>(rank[j]);
    const unsigned info = chunks.info[j];
    const auto put = [&](int i, std::uint32_t cp) { stage[stage_slot(first + i)] = cp; };
    // the unit at chunk position k: its 4 bytes by two loads and a funnel shift (picking the two
    // words from registers by k took about 12 selects; the funnel shift's wrap mode takes the
    // shift mod 32), then its first byte's entry and decode_with_entry
    const auto unit = [&](unsigned k, bool well_formed) {
      const std::uint32_t w = __funnelshift_r(copy[k >> 2], copy[(k >> 2) + 1], 8 * k);
      const uint2 e = s_entry[w & 0xFFu];
      return chunk::decode_with_entry(w, {e.x, e.y}, well_formed);
    };
    // Three modes, chosen per warp and step (a loop's trip count is the warp's most):
    // - no multi-byte unit in the warp: for_each_unit (16 fixed slots per ASCII chunk);
    // - warps inside the input where some lane holds kAccumulateUnits units or more: accumulate
    //   mode, one pass over the 16 positions, each adding its payload bits to its unit's code
    //   point and storing it into the unit's slot (no loop, no branch per unit); a warp at the
    //   input's start or end takes it too, in the EDGE build (tested per unit);
    // - otherwise the loop over all units.
    // Each comes in two builds: with a well-formedness test per unit, and (warps with no
    // ill-formed unit in this step, all of them in mixed text) without.
    const unsigned most_units = __reduce_max_sync(kFullMask, __popc(chunk::unit_starts(info)));
    const unsigned most_multi = __reduce_max_sync(kFullMask, __popc(info & 0xFFFFu));
    const bool clean = __all_sync(kFullMask, chunk::ill_formed_starts(info) == 0);
    if (most_multi == 0) {
      chunk::for_each_unit(v.x, v.y, v.z, v.w, chunks.next[j], info, put);
    } else {
      copy[0] = v.x; // read back by this lane only
      copy[1] = v.y;
      copy[2] = v.z;
      copy[3] = v.w;
      copy[4] = chunks.next[j];
      // accumulate mode's stores by their 32-bit shared address: slot n of the stage at
      // stage_addr + 4 * stage_slot(n), two operations (through the pointer, the warp's offset
      // stayed apart: three); positions before the lane's first unit into its scratch word
      const auto address = [&](int n, bool before_first) {
        return stage_addr + 4u * static_cast<unsigned>(before_first ? scratch : stage_slot(n));
      };
      const auto store = [](std::uint32_t a, std::uint32_t cp) { st_shared(a, cp); };
      if (chunks.inside && most_units >= kAccumulateUnits) {
        // inside the input only positions 0..2 may precede the lane's first unit
        const auto where = [&](int n, int k) { return address(n, k < 3 && n < first); };
        if (clean)
          chunk::for_each_position_accumulate<true>(v.x, v.y, v.z, v.w, info, first, where, store,
                                                    unit);
        else
          chunk::for_each_position_accumulate(v.x, v.y, v.z, v.w, info, first, where, store, unit);
      } else if (most_units >= kAccumulateUnits) {
        // a warp at the input's start or end (at most two a launch, one of them the last tile's,
        // whose time the kernel's end waits for: the loop mode cost it ~3 us): the EDGE build,
        // any position may precede the lane's first unit
        const auto where = [&](int n, int) { return address(n, n < first); };
        chunk::for_each_position_accumulate<false, true>(v.x, v.y, v.z, v.w, info, first, where,
                                                         store, unit);
      } else if (clean) {
        chunk::for_each_unit_in_order<true>(info, unit, put);
      } else {
        chunk::for_each_unit_in_order(info, unit, put);
      }
    }
  };
  // lane l stores units l, l + 32, ... of the step's run: unit l + 32m sits at stage_slot = l +
  // 33m, so both addresses step by constants from one pointer each (the loop over i it replaces
  // took about 10 operations a unit, 6 of them on the ALU pipe, for the index, the slot and the
  // 64-bit address); fully unrolled, each of the 16 rounds is a compare, a load and a store, and
  // every 4th round first tests whether the warp's run has ended
  const auto store_step = [&](int j, unsigned at) {
    std::uint32_t* dst = out + at + lane;
    // held in registers: the compiler rebuilt it (a constant load and two address operations)
    // under each round's predicate
    asm("" : "+l"(dst));
    const std::uint32_t* const src = stage + lane;
    const int left = static_cast<int>(run[j]) - lane;
#pragma unroll
    for (int m = 0; m < Tile::kStepBytes / kWarpSize; ++m) {
      if (m % 4 == 0 && kWarpSize * m >= static_cast<int>(run[j]))
        break; // the warp's run ends (a warp-uniform test every 4 rounds)
      if (kWarpSize * m < left)
        __stcs(dst + kWarpSize * m, src[(kWarpSize + 1) * m]); // evict-first: not re-read
    }
  };

  if (warp == 0)
    tile_offsets<BLOCK, kDecodeLookbackDepth>(shared, tile, tile_total, status,
                                              count); // the look-back
  const unsigned warp_offset =
      __reduce_add_sync(kFullMask, lane < warp ? shared.warp_units[lane] : 0u);
  stage_step(0);
  __syncthreads(); // the tile's offset and step 0's stage
  unsigned at = shared.tile_prefix + warp_offset;
  store_step(0, at);
#pragma unroll
  for (int j = 1; j < kVecs; ++j) {
    at += run[j - 1];
    __syncwarp(); // the stage is rewritten by this step
    stage_step(j);
    __syncwarp();
    store_step(j, at);
  }
}

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    validate_kernel(ByteGrid grid, unsigned* __restrict__ first_error) {
  using Tile = ByteTile<BLOCK>;
  __shared__ unsigned s_first; // the block's first error (byte offset), kNoError for none
  __shared__ int s_skip;
  __shared__ alignas(16) unsigned char s_pairs[chunk::kPairTableBytes]; // chunk.hpp's pair table
  const long long tile_base = static_cast<long long>(blockIdx.x) * Tile::kTileBytes;
  if (threadIdx.x == 0) {
    s_first = tiles::kNoError;
    // an error before this tile's first byte is already known: nothing here can be first (kNoError
    // is above every offset, so an unset word never skips)
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> known(*first_error);
    s_skip = known.load(cuda::memory_order_relaxed) <
             tiles::first_offset(static_cast<long long>(blockIdx.x), Tile::kTileBytes, grid.begin);
  }
  fill_pair_table<BLOCK>(s_pairs);
  __syncthreads(); // s_skip and the pair table
  if (s_skip)
    return; // the whole block: s_skip is shared

  WarpChunks<BLOCK> chunks;
  chunks.load_and_classify(grid, tile_base + static_cast<long long>(warp_id()) * Tile::kWarpBytes,
                           s_pairs);
  unsigned first = tiles::kNoError;
#pragma unroll
  for (int j = kVecs - 1; j >= 0; --j) {
    const unsigned ill_formed = chunk::ill_formed_starts(chunks.info[j]);
    if (ill_formed != 0)
      first =
          static_cast<unsigned>(chunks.chunk_at(j) - grid.begin) + chunk::lowest_bit(ill_formed);
  }
  first = warp_all_reduce(first, [](unsigned a, unsigned b) { return min(a, b); });
  if (lane_id() == 0 && first != tiles::kNoError)
    atomicMin(&s_first, first);
  __syncthreads();
  if (threadIdx.x == 0 && s_first != tiles::kNoError)
    atomicMin(first_error, s_first);
}

// The result, written unconditionally (-1 when no tile found an error).
__global__ void finish_validate(const unsigned* first_error, long long* result) {
  *result = *first_error == tiles::kNoError ? -1ll : static_cast<long long>(*first_error);
}
static_assert(kMaxGpuBytes - 2 < tiles::kNoError, "an offset would read as \"no error\"");

// ---- encode: tiles of code points ---------------------------------------------------------------

template <int BLOCK, int STEPS> struct CodePointTile { // STEPS: vectors of code points a thread
  static constexpr int kWarps = BLOCK / kWarpSize;
  static constexpr int kStepItems = kWarpSize * 4; // one vector step of a warp: 128
  static constexpr int kWarpItems = STEPS * kStepItems;
  static constexpr int kTile = BLOCK * STEPS * 4;
  // per warp: a step's bytes (at most 512) after up to 3 lead bytes (136 words), then each step's
  // ranks and packed lengths (STEPS x 32 words each), written by pass 1 for pass 2
  static constexpr int kRunWords = 136;
  static constexpr int kStageWords = kRunWords + 2 * STEPS * kWarpSize;
  static constexpr int kStageBytes = kWarps * kStageWords * 4;
};

// The code points on the 16-byte grid of their address, as ByteGrid (in elements).
struct CodePointGrid {
  std::uintptr_t base;
  long long begin;
  long long end;

  __device__ __forceinline__ bool in_range(long long q) const { return q >= begin && q < end; }
  __device__ __forceinline__ const std::uint32_t* at(long long q) const {
    return reinterpret_cast<const std::uint32_t*>(base + static_cast<std::uintptr_t>(q) * 4);
  }
  // LAST: the code points' last read (evict-first); otherwise they are read again (kept in L2)
  template <bool LAST = true>
  __device__ __forceinline__ uint4 vector(long long q, bool inside) const {
    if (inside || (q >= begin && q + 4 <= end))
      return LAST ? __ldcs(reinterpret_cast<const uint4*>(at(q)))
                  : __ldcg(reinterpret_cast<const uint4*>(at(q)));
    return make_uint4(in_range(q) ? *at(q) : 0u, in_range(q + 1) ? *at(q + 1) : 0u,
                      in_range(q + 2) ? *at(q + 2) : 0u, in_range(q + 3) ? *at(q + 3) : 0u);
  }
};

CodePointGrid code_point_grid(const std::uint32_t* in, std::size_t n) {
  const auto address = reinterpret_cast<std::uintptr_t>(in);
  const auto begin = static_cast<long long>(address % 16 / 4);
  return {address - static_cast<std::uintptr_t>(begin) * 4, begin,
          begin + static_cast<long long>(n)};
}

// A step's bytes, staged from byte `lead` on (the run's offset in its 32-bit word), stored as
// whole aligned words, with byte stores for the partial words at the two ends (those words are
// shared with the neighbouring runs). Clears the stage words it reads (the staging ORs into them).
__device__ __forceinline__ void store_byte_run(unsigned char* word_base, std::uint32_t* stage,
                                               unsigned lead, unsigned bytes) {
  const unsigned end = lead + bytes;
  const unsigned words = (end + 3) / 4;
  const auto* stage_bytes = reinterpret_cast<const unsigned char*>(stage);
  for (unsigned t = lane_id(); t < words; t += kWarpSize) {
    const unsigned lo = 4 * t, hi = 4 * t + 4;
    if (lo >= lead && hi <= end) {
      __stcs(reinterpret_cast<unsigned*>(word_base) + t, stage[t]);
    } else {
      for (unsigned b = lo; b < hi; ++b)
        if (b >= lead && b < end)
          word_base[b] = stage_bytes[b];
    }
    stage[t] = 0;
  }
}

// The sum of the four 8-bit lengths packed in a word (one multiply-add).
__device__ __forceinline__ unsigned packed_length_sum(unsigned packed) {
  return packed * 0x01010101u >> 24;
}

// `bytes` (the low `len` bytes of the word) ORed into the stage from byte p on: one or two words.
__device__ __forceinline__ void stage_bytes_at(std::uint32_t* stage, unsigned p,
                                               std::uint32_t bytes, unsigned len) {
  const unsigned shift = 8 * (p & 3u);
  atomicOr(&stage[p >> 2], bytes << shift);
  if (shift + 8 * len > 32)
    atomicOr(&stage[(p >> 2) + 1], bytes >> (32 - shift));
}

template <int BLOCK, int STEPS>
__global__ void __launch_bounds__(BLOCK)
    encode_kernel(CodePointGrid grid, unsigned char* __restrict__ out,
                  unsigned long long* __restrict__ count, unsigned tile_total, TileStatus status) {
  using Tile = CodePointTile<BLOCK, STEPS>;
  __shared__ DecodeShared<BLOCK> shared; // same bookkeeping: here the units are bytes
  extern __shared__ std::uint32_t s_stage[];
  const unsigned tile = block_tile_index();
  const int lane = lane_id(), warp = warp_id();
  const long long base =
      static_cast<long long>(tile) * Tile::kTile + static_cast<long long>(warp) * Tile::kWarpItems;
  const bool inside = base >= grid.begin && base + Tile::kWarpItems <= grid.end;

  std::uint32_t* const stage = s_stage + warp * Tile::kStageWords;
  std::uint32_t* const ranks = stage + Tile::kRunWords + lane; // step j at 32 j
  std::uint32_t* const lengths = ranks + STEPS * kWarpSize;    // step j at 32 j
  // the warp's stage starts cleared (the staging ORs into it; store_byte_run clears it again)
  for (int i = lane; i < Tile::kRunWords; i += kWarpSize)
    stage[i] = 0;
  // pass 1: load; byte lengths (0 outside the input, 8 bits each); ranks within each vector step
  // of the warp. Tiles of up to 4 steps hold their code points in registers (fully unrolled);
  // larger ones read them again in pass 2 (an L2 hit: the first read keeps them in L2, the second
  // evicts them first)
  constexpr bool kReload = STEPS > 4;
  uint4 held[kReload ? 1 : STEPS];
  unsigned warp_bytes = 0;
#pragma unroll 4
  for (int j = 0; j < STEPS; ++j) {
    const long long q = base + j * Tile::kStepItems + lane * 4;
    const uint4 v = grid.vector<!kReload>(q, inside);
    if constexpr (!kReload)
      held[j] = v;
    const std::uint32_t cp[4] = {v.x, v.y, v.z, v.w};
    unsigned packed = 0;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const unsigned len = inside || grid.in_range(q + k) ? encoded_length(cp[k]) : 0u;
      packed |= len << (8 * k);
    }
    lengths[kWarpSize * j] = packed;
    const unsigned total = packed_length_sum(packed);
    const unsigned inclusive = warp_inclusive_scan(total);
    ranks[kWarpSize * j] = inclusive - total;
    warp_bytes += __shfl_sync(kFullMask, inclusive, kWarpSize - 1);
  }
  if (lane == 0)
    shared.warp_units[warp] = warp_bytes;
  __syncthreads();
  if (warp == 0)
    tile_offsets<BLOCK>(shared, tile, tile_total, status, count);
  __syncthreads();

  // encode: each step's bytes ORed into the (cleared) stage from the run's offset in its word,
  // stored as aligned words
  unsigned at = shared.tile_prefix + shared.warp_offset[warp];
  // step j's code points: held since pass 1, or read again (loaded during step j - 1)
  uint4 v;
  if constexpr (kReload)
    v = grid.vector(base + lane * 4, inside);
  else
    v = held[0];
#pragma unroll(STEPS <= 4 ? STEPS : 1) // 8 unrolled steps missed the instruction cache (header)
  for (int j = 0; j < STEPS; ++j) {
    const auto dst = reinterpret_cast<std::uintptr_t>(out) + at;
    const unsigned lead = static_cast<unsigned>(dst % 4);
    const std::uint32_t cp[4] = {v.x, v.y, v.z, v.w};
    if (j + 1 < STEPS) {
      if constexpr (kReload)
        v = grid.vector(base + (j + 1) * Tile::kStepItems + lane * 4, inside);
      else
        v = held[j + 1 < STEPS ? j + 1 : 0];
    }
    const unsigned rank = ranks[kWarpSize * j], packed = lengths[kWarpSize * j];
    const unsigned run = __shfl_sync(kFullMask, rank + packed_length_sum(packed), kWarpSize - 1);
    unsigned p = lead + rank;
    if (packed == 0x01010101u) { // four ASCII code points: one word of bytes
      stage_bytes_at(stage, p, cp[0] | cp[1] << 8 | cp[2] << 16 | cp[3] << 24, 4);
    } else {
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const unsigned len = packed >> (8 * k) & 0xFFu;
        if (len != 0) // 0: outside the input
          stage_bytes_at(stage, p, encoded_word(cp[k], len), len);
        p += len;
      }
    }
    __syncwarp();
    store_byte_run(reinterpret_cast<unsigned char*>(dst - lead), stage, lead, run);
    at += run;
    __syncwarp();
  }
}

// ---- host side ----------------------------------------------------------------------------------

// The dynamic shared memory a kernel may take, set once per device (per_device.hpp) whatever its
// size: the default limit is 48 KiB less the kernel's static shared memory, so decode at 512
// threads (47 KiB dynamic, 2 KiB static) needs it although its dynamic part is under 48 KiB.
template <auto KERNEL> void opt_in_shared(int bytes) {
  static PerDevice<bool> done;
  done.get([bytes](int) {
    CUDA_CHECK(cudaFuncSetAttribute(KERNEL, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    return true;
  });
}

} // namespace

// the single-pass kernels take dispatch_block_size's sizes and 384 (single_pass_blocks)
template <typename F> void dispatch_single_pass_block(int block, F&& f) {
  if (block == 384)
    f(std::integral_constant<int, 384>{});
  else
    dispatch_block_size(block, std::forward<F>(f));
}

std::size_t single_pass_decode_tile(int block) {
  std::size_t tile = 0;
  dispatch_single_pass_block(block,
                             [&](auto b) { tile = ByteTile<decltype(b)::value>::kTileBytes; });
  return tile;
}

std::size_t single_pass_encode_tile(int block) {
  std::size_t tile = 0;
  dispatch_single_pass_block(
      block, [&](auto b) { tile = CodePointTile<decltype(b)::value, kEncodeStepsSmall>::kTile; });
  return tile;
}

std::size_t single_pass_encode_large_tile(int block) {
  std::size_t tile = 0;
  dispatch_single_pass_block(
      block, [&](auto b) { tile = CodePointTile<decltype(b)::value, kEncodeStepsLarge>::kTile; });
  return tile;
}

// Temporary storage: one status word per tile (8 bytes each) and one more (lookback.cuh's tile
// counter, unused here: the tiles follow the blocks' indices).
void decode_single_pass(void* temp, std::size_t& temp_bytes, const unsigned char* in, std::size_t n,
                        std::uint32_t* out, unsigned long long* count, int block,
                        cudaStream_t stream) {
  constexpr const char* kWho = "utf8/decode/single_pass";
  checks::gpu_bytes(n, kWho);
  dispatch_single_pass_block(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    using Tile = ByteTile<BLOCK>;
    TempLayout layout(temp);
    const TileStatusStorage storage =
        take_tile_status(layout, tiles::max_tile_count(tiles::kMaxByteSkew, n, Tile::kTileBytes));
    if (layout.sized(temp_bytes))
      return;
    checks::gpu_decode_args(kWho, in, n, out, count);
    if (zero_count_if_empty(n, count, stream))
      return;
    const ByteGrid grid = byte_grid(in, n);
    const std::size_t launched = byte_tiles(grid, Tile::kTileBytes);
    const TileStatus status = clear_tile_status({storage.words, launched}, stream);
    opt_in_shared<decode_kernel<BLOCK>>(Tile::kStageBytes);
    decode_kernel<BLOCK><<<static_cast<unsigned>(launched), BLOCK, Tile::kStageBytes, stream>>>(
        grid, out, count, static_cast<unsigned>(launched), status);
    CUDA_CHECK_LAUNCH();
  });
}

// Temporary storage: one 32-bit word (the first error so far).
void validate_single_pass(void* temp, std::size_t& temp_bytes, const unsigned char* in,
                          std::size_t n, long long* first_error, int block, cudaStream_t stream) {
  constexpr const char* kWho = "utf8/validate/single_pass";
  checks::gpu_bytes(n, kWho);
  dispatch_single_pass_block(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    using Tile = ByteTile<BLOCK>;
    TempLayout layout(temp);
    unsigned* first = layout.take<unsigned>(1);
    if (layout.sized(temp_bytes))
      return;
    checks::validate_args(kWho, in, n, first_error);
    if (n == 0) {
      CUDA_CHECK(cudaMemsetAsync(first_error, 0xFF, sizeof *first_error, stream)); // -1
      return;
    }
    const ByteGrid grid = byte_grid(in, n);
    const std::size_t launched = byte_tiles(grid, Tile::kTileBytes);
    CUDA_CHECK(cudaMemsetAsync(first, 0xFF, sizeof *first, stream)); // kNoError
    validate_kernel<BLOCK><<<static_cast<unsigned>(launched), BLOCK, 0, stream>>>(grid, first);
    CUDA_CHECK_LAUNCH();
    finish_validate<<<1, 1, 0, stream>>>(first, first_error);
    CUDA_CHECK_LAUNCH();
  });
}

// Temporary storage: one status word per tile (8 bytes each) and one more (lookback.cuh's tile
// counter, unused here: the tiles follow the blocks' indices).
void encode_single_pass(void* temp, std::size_t& temp_bytes, const std::uint32_t* in, std::size_t n,
                        unsigned char* out, unsigned long long* count, int block,
                        cudaStream_t stream) {
  constexpr const char* kWho = "utf8/encode/single_pass";
  checks::gpu_code_points(n, kWho);
  // a large input takes the tiles of 8 vectors a thread (a look-back per 8192 code points at
  // 256 threads), a small one the tiles of 4 (more tiles to spread over the SMs)
  const bool large = n + 1 > kEncodeLargeN; // (n >= kEncodeLargeN, also when that is 0)
  dispatch_single_pass_block(block, [&](auto b) {
    constexpr int BLOCK = decltype(b)::value;
    const auto run = [&](auto steps) {
      constexpr int STEPS = decltype(steps)::value;
      using Tile = CodePointTile<BLOCK, STEPS>;
      TempLayout layout(temp);
      const TileStatusStorage storage =
          take_tile_status(layout, tiles::max_tile_count(tiles::kMaxCodePointSkew, n, Tile::kTile));
      if (layout.sized(temp_bytes))
        return;
      checks::gpu_encode_args(kWho, in, n, out, count);
      if (zero_count_if_empty(n, count, stream))
        return;
      const CodePointGrid grid = code_point_grid(in, n);
      const std::size_t launched =
          tiles::tile_count(static_cast<std::size_t>(grid.begin), n, Tile::kTile);
      const TileStatus status = clear_tile_status({storage.words, launched}, stream);
      opt_in_shared<encode_kernel<BLOCK, STEPS>>(Tile::kStageBytes);
      encode_kernel<BLOCK, STEPS>
          <<<static_cast<unsigned>(launched), BLOCK, Tile::kStageBytes, stream>>>(
              grid, out, count, static_cast<unsigned>(launched), status);
      CUDA_CHECK_LAUNCH();
    };
    if (large)
      run(std::integral_constant<int, kEncodeStepsLarge>{});
    else
      run(std::integral_constant<int, kEncodeStepsSmall>{});
  });
}

} // namespace gps::utf8
