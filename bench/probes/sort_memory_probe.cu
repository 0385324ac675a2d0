// sort_memory_probe: what one pass of an 8-bit LSD radix sort costs in memory alone, with the
// tile and the write pattern of sort/onesweep (384 threads x 24 keys, 2 blocks an SM) and none of
// its ranking, digit counts or look-back. A measurement probe for the study (its figures go to
// kernels/sort/onesweep.tuning.md), not a benchmark row: it sorts nothing. Not a lower bound for
// the sort: with a sort's run lengths it runs no faster than onesweep's whole sort on the H100
// (results/partial/nvidia-h100-sort-memory-probe.txt): its tiles write as soon as they load,
// and the split sectors' parts miss L2 far more often than onesweep's, whose writes its look-back
// orders. Its inputs come from the benchmarks' generator (data.hpp: random_word on the device,
// random_keys for the real runs); the calls in the results file used a hash of the index of its
// own, uniform words as well, and the same pass and read kernels (their PTX is unchanged).
//
// Each block takes tile blockIdx.x, loads its keys (and values) warp-striped as onesweep does,
// writes them to shared memory at a fixed permutation of the tile (the exchange), and writes the
// tile out in 256 runs of R = tile / 256 (every tile holds each digit R times, the mean of uniform
// keys; R = 36 for onesweep's tile), run d of tile t at (d * tiles + t) * R (so the runs of one
// digit are contiguous across tiles, as a sort's output is); thread t writes sorted positions t, t
// + 384, ..., each run's base read from shared memory, the values after the keys (their load,
// exchange and scatter), as onesweep's pairs kernel does, with a __syncwarp() after each store. A
// read-only pass over the keys stands for the histogram. Four passes alternate between two buffers;
// CUDA events around the four (or the read), medians over the repetitions after a warm-up; the
// device-to-device copy of the same bytes in the same run.
//
// Usage: sort_memory_probe [log2n (default 28)] [repetitions (default 10)] [items (default 24)]
//                           [slot (default: the run's length)] [prefetch (default 0)]
// items: keys a thread, 16, 24, 32 or 48 (tiles of 6144..18432 keys, runs of 24..72 keys: 24
// is onesweep's; the others ask what other tile sizes would cost; 48 takes 72 KB of shared
// memory, still 2 blocks an SM). slot: the keys each run's place takes in the output, from the
// run's length (the runs packed as a sort writes them) to twice it; a slot rounded up to 8 keys
// starts every run on a 32-byte sector of its own (the output longer), to see what shared sectors
// cost; 0 writes each tile whole, in place (the same loads, exchange and stores, no scatter: the
// pass's schedule without its write pattern). prefetch 1: each tile's thread d first asks L2 for
// the sectors at the two ends of its run d (prefetch.global.L2), so that the partial sectors that
// two tiles share are in L2 before either writes its part. slot "real" (items 16 or 24): runs as a
// sort writes them (real_run_pass), with lengths from random keys' digit counts. ptxas: no spills
// but in the pairs kernels at 32 keys (12 bytes) and 48 (328 bytes: their figures are upper
// bounds). Prints one line per measurement: what, keys, median us, min, max, GB/s of the median.
#include "common/cuda_check.hpp"
#include "common/device_buffer.hpp"
#include "data.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace gps {
namespace {

constexpr int kBlock = 384;
constexpr int kRadix = 256;

template <int ITEMS> struct Shape {
  static constexpr int kTile = kBlock * ITEMS;
  static constexpr int kRun = kTile / kRadix;
  static constexpr int kWarpItems = 32 * ITEMS;
  static constexpr int kSharedBytes = (kTile + kRadix) * 4;
  static_assert(kTile % kRadix == 0, "runs of equal length");
  static_assert(kTile % 7919 != 0 && kTile % 2 == 0, "7919 is a prime above every tile");
};

// the exchange's permutation of the tile: item (warp, j, lane) goes to its input position times
// 7919 (a prime, coprime to every tile here), so the 32 lanes of a store fall in 32 banks and 32
// runs
template <int TILE> __device__ __forceinline__ unsigned exchange_slot(unsigned input_pos) {
  return (input_pos * 7919u) % TILE;
}

__device__ __forceinline__ void prefetch_l2_sector(const unsigned* p) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
}

// A tile's items, warp-striped as onesweep loads them: this thread's item j is tile position
// first + 32 j.
template <int ITEMS>
__device__ __forceinline__ void load_striped(const unsigned* __restrict__ in, unsigned tile,
                                             unsigned first, unsigned (&items)[ITEMS]) {
  const unsigned* src = in + static_cast<std::size_t>(tile) * Shape<ITEMS>::kTile + first;
#pragma unroll
  for (int j = 0; j < ITEMS; ++j)
    items[j] = src[j * 32];
}
// The items into shared memory: at exchange_slot of their position (PERMUTE), or at it.
template <bool PERMUTE, int ITEMS>
__device__ __forceinline__ void exchange_in(unsigned* s_exchange, unsigned first,
                                            const unsigned (&items)[ITEMS]) {
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const unsigned pos = first + j * 32;
    s_exchange[PERMUTE ? exchange_slot<Shape<ITEMS>::kTile>(pos) : pos] = items[j];
  }
}

// The values' phase of a pairs pass, as onesweep's: loaded after the keys' scatter, exchanged
// like the keys, and written to the keys' runs (digit_at(j, pos): the digit of sorted position
// pos, this thread's item j), a warp sync after each store.
template <bool PERMUTE, int ITEMS, typename DigitAt>
__device__ __forceinline__ void
scatter_values(const unsigned* __restrict__ vals_in, unsigned* __restrict__ vals_out, unsigned tile,
               unsigned first, unsigned* s_exchange, const unsigned* s_base, DigitAt digit_at) {
  unsigned items[ITEMS];
  load_striped(vals_in, tile, first, items);
  __syncthreads();
  exchange_in<PERMUTE>(s_exchange, first, items);
  __syncthreads();
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const unsigned pos = j * kBlock + threadIdx.x;
    vals_out[s_base[digit_at(j, pos)] + pos] = s_exchange[pos];
    __syncwarp();
  }
}

// The start of both pass kernels: the block's tile (its index), the dynamic shared memory split
// into the exchange buffer and the 256 digit bases, this thread's first warp-striped position,
// and its keys loaded.
template <int ITEMS> struct PassTile {
  unsigned* s_exchange;
  unsigned* s_base;
  unsigned tile;
  unsigned first;
  unsigned items[ITEMS];
  __device__ __forceinline__ explicit PassTile(const unsigned* __restrict__ keys_in) {
    extern __shared__ unsigned s_shared[];
    s_exchange = s_shared;
    s_base = s_shared + Shape<ITEMS>::kTile;
    tile = blockIdx.x;
    first = (threadIdx.x / 32) * Shape<ITEMS>::kWarpItems + threadIdx.x % 32;
    load_striped(keys_in, tile, first, items);
  }
};

template <bool PAIRS, int ITEMS>
__global__ void __launch_bounds__(kBlock, 2)
    scatter_pass(const unsigned* __restrict__ keys_in, unsigned* __restrict__ keys_out,
                 const unsigned* __restrict__ vals_in, unsigned* __restrict__ vals_out,
                 unsigned tiles, unsigned slot, bool prefetch_runs) {
  using S = Shape<ITEMS>;
  PassTile<ITEMS> t(keys_in);
  if (threadIdx.x < kRadix)
    t.s_base[threadIdx.x] =
        slot == 0 ? t.tile * S::kTile // the tile whole, in place
                  : threadIdx.x * slot * tiles + t.tile * slot - threadIdx.x * S::kRun;
  if (prefetch_runs && slot != 0 && threadIdx.x < kRadix) {
    // the sectors at the two ends of the thread's run, into L2 before any store reaches them
    const std::size_t run = static_cast<std::size_t>(threadIdx.x) * slot * tiles + t.tile * slot;
    prefetch_l2_sector(keys_out + run);
    prefetch_l2_sector(keys_out + run + S::kRun - 1);
    if constexpr (PAIRS) {
      prefetch_l2_sector(vals_out + run);
      prefetch_l2_sector(vals_out + run + S::kRun - 1);
    }
  }
  exchange_in<true>(t.s_exchange, t.first, t.items);
  __syncthreads();
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const unsigned pos = j * kBlock + threadIdx.x;
    keys_out[t.s_base[pos / S::kRun] + pos] = t.s_exchange[pos];
    if constexpr (PAIRS)
      __syncwarp();
  }
  if constexpr (PAIRS)
    scatter_values<true, ITEMS>(vals_in, vals_out, t.tile, t.first, t.s_exchange, t.s_base,
                                [](int, unsigned pos) { return pos / S::kRun; });
}

// Runs as a sort writes them: each tile's keys arrive sorted by their low 8 bits (the digit
// counts of random keys, so the runs' lengths vary and their ends fall anywhere), and
// bases[tile][d] is digit d's run start in the output minus its start in the tile. The exchange
// keeps each key at its position; the scatter takes the digit from the key, and the values the
// digits kept in registers, as onesweep does.
template <bool PAIRS, int ITEMS>
__global__ void __launch_bounds__(kBlock, 2)
    real_run_pass(const unsigned* __restrict__ keys_in, unsigned* __restrict__ keys_out,
                  const unsigned* __restrict__ vals_in, unsigned* __restrict__ vals_out,
                  const unsigned* __restrict__ bases) {
  using S = Shape<ITEMS>;
  PassTile<ITEMS> t(keys_in);
  if (threadIdx.x < kRadix)
    t.s_base[threadIdx.x] = bases[static_cast<std::size_t>(t.tile) * kRadix + threadIdx.x];
  exchange_in<false>(t.s_exchange, t.first, t.items);
  __syncthreads();
  unsigned digits[(ITEMS + 3) / 4] = {};
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const unsigned pos = j * kBlock + threadIdx.x;
    const unsigned key = t.s_exchange[pos];
    const unsigned d = key & (kRadix - 1);
    digits[j / 4] |= d << (8 * (j % 4));
    keys_out[t.s_base[d] + pos] = key;
    if constexpr (PAIRS)
      __syncwarp();
  }
  if constexpr (PAIRS)
    scatter_values<false, ITEMS>(
        vals_in, vals_out, t.tile, t.first, t.s_exchange, t.s_base,
        [&digits](int j, unsigned) { return (digits[j / 4] >> (8 * (j % 4))) & (kRadix - 1); });
}

// the histogram's traffic: every key read once, 16 bytes a load (n a multiple of 4)
__global__ void __launch_bounds__(512)
    read_pass(const uint4* __restrict__ keys, std::size_t n4, unsigned* sink) {
  unsigned acc = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n4;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const uint4 k = keys[i];
    acc ^= k.x ^ k.y ^ k.z ^ k.w;
  }
  if (acc == 0x9E3779B9u) // never in practice: keeps the loads
    atomicAdd(sink, 1u);
}

// uniform random words, from the benchmarks' seeded generator (data.hpp)
__global__ void fill(unsigned* p, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    p[i] = static_cast<unsigned>(random_word(seed, i));
}

struct Stats {
  double median, min, max;
};

template <typename F> Stats time_us(int reps, F&& work) {
  const CudaEvent start, stop;
  work(); // warm-up
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    CUDA_CHECK(cudaEventRecord(start.get()));
    work();
    CUDA_CHECK(cudaEventRecord(stop.get()));
    CUDA_CHECK(cudaEventSynchronize(stop.get()));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    t.push_back(1000.0 * ms);
  }
  std::sort(t.begin(), t.end());
  return {t[t.size() / 2], t.front(), t.back()};
}

void print(const char* what, std::size_t n, Stats s, double bytes) {
  std::printf("%-24s %12zu %10.1f %10.1f %10.1f %8.1f\n", what, n, s.median, s.min, s.max,
              bytes / (s.median * 1e3));
}

int parse(const char* text, int lo, int hi, const char* what) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < lo || v > hi) {
    std::fprintf(stderr, "sort_memory_probe: %s must be an integer in [%d, %d], got '%s'\n", what,
                 lo, hi, text);
    std::exit(2);
  }
  return static_cast<int>(v);
}

template <int ITEMS> int run(int log2n, int reps, int slot_arg, bool prefetch_runs) {
  using S = Shape<ITEMS>;
  const int slot = slot_arg < 0 ? S::kRun : slot_arg;
  if (slot != 0 && (slot < S::kRun || slot > 2 * S::kRun)) {
    std::fprintf(stderr, "sort_memory_probe: slot must be 0 or in [%d, %d] at %d items, got %d\n",
                 S::kRun, 2 * S::kRun, ITEMS, slot);
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "sort_memory_probe: no CUDA device\n");
    return 1;
  }
  const auto tiles = static_cast<unsigned>((std::size_t{1} << log2n) / S::kTile);
  const std::size_t n = static_cast<std::size_t>(tiles) * S::kTile; // whole tiles only
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# %s, %zu keys (%u tiles of %d: %d x %d), runs of %d in slots of %d%s, %d "
              "repetitions; us: median min max; GB/s\n",
              prop.name, n, tiles, S::kTile, kBlock, ITEMS, S::kRun, slot,
              prefetch_runs ? ", the runs' end sectors prefetched" : "", reps);
  const std::size_t room = slot == 0 ? n : n / S::kRun * slot; // the output's length
  DeviceBuffer<unsigned> key_buffers[2], value_buffers[2], sink_buffer(1);
  unsigned *keys[2], *vals[2], *sink = sink_buffer.data();
  for (int b = 0; b < 2; ++b) {
    key_buffers[b].allocate(room);
    value_buffers[b].allocate(room);
    keys[b] = key_buffers[b].data();
    vals[b] = value_buffers[b].data();
    fill<<<1024, 256>>>(keys[b], n, 1u + b);
    CUDA_CHECK_LAUNCH();
    fill<<<1024, 256>>>(vals[b], n, 7u + b);
    CUDA_CHECK_LAUNCH();
  }
  for (auto kernel : {scatter_pass<false, ITEMS>, scatter_pass<true, ITEMS>})
    CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, S::kSharedBytes));
  CUDA_CHECK(cudaDeviceSynchronize());
  const double key_bytes = 4.0 * static_cast<double>(n);

  print("copy keys", n,
        time_us(reps,
                [&] { CUDA_CHECK(cudaMemcpyAsync(keys[1], keys[0], n * 4, cudaMemcpyDefault)); }),
        2 * key_bytes);
  print("read keys", n,
        time_us(reps,
                [&] {
                  read_pass<<<prop.multiProcessorCount * 8, 512>>>(
                      reinterpret_cast<const uint4*>(keys[0]), n / 4, sink);
                  CUDA_CHECK_LAUNCH();
                }),
        key_bytes);
  const auto passes = [&](auto kernel) {
    for (int p = 0; p < 4; ++p) {
      kernel<<<tiles, kBlock, S::kSharedBytes>>>(keys[p % 2], keys[1 - p % 2], vals[p % 2],
                                                 vals[1 - p % 2], tiles,
                                                 static_cast<unsigned>(slot), prefetch_runs);
      CUDA_CHECK_LAUNCH();
    }
  };
  print("4 scatter passes, keys", n, time_us(reps, [&] { passes(scatter_pass<false, ITEMS>); }),
        4 * 2 * key_bytes);
  print("4 scatter passes, pairs", n, time_us(reps, [&] { passes(scatter_pass<true, ITEMS>); }),
        4 * 4 * key_bytes);
  return 0;
}

// Four passes of real_run_pass over one input (the keys of each tile sorted by their low 8 bits
// on the host), against the same probe's packed runs of equal length.
template <int ITEMS> int run_real(int log2n, int reps) {
  using S = Shape<ITEMS>;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "sort_memory_probe: no CUDA device\n");
    return 1;
  }
  const auto tiles = static_cast<unsigned>((std::size_t{1} << log2n) / S::kTile);
  const std::size_t n = static_cast<std::size_t>(tiles) * S::kTile;
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# %s, %zu keys (%u tiles of %d: %d x %d), runs of random keys' digit counts, %d "
              "repetitions; us: median min max; GB/s\n",
              prop.name, n, tiles, S::kTile, kBlock, ITEMS, reps);
  // the benchmarks' uniform keys (data.hpp), each tile's sorted by its low byte (counting
  // sort), and the tiles' run bases
  const HostVector<unsigned> keys = random_keys(n, 1, KeyDistribution::Uniform);
  std::vector<unsigned> sorted(n), bases(static_cast<std::size_t>(tiles) * kRadix);
  std::vector<unsigned> counts(static_cast<std::size_t>(tiles) * kRadix, 0);
  for (std::size_t i = 0; i < n; ++i)
    ++counts[i / S::kTile * kRadix + (keys[i] & (kRadix - 1))];
  std::vector<std::size_t> run(kRadix, 0); // each digit's next output position
  {
    std::vector<std::size_t> total(kRadix, 0);
    for (std::size_t t = 0; t < tiles; ++t)
      for (int d = 0; d < kRadix; ++d)
        total[d] += counts[t * kRadix + d];
    std::size_t start = 0;
    for (int d = 0; d < kRadix; ++d)
      run[d] = start, start += total[d];
  }
  for (std::size_t t = 0; t < tiles; ++t) {
    unsigned local[kRadix];
    unsigned at = 0;
    for (int d = 0; d < kRadix; ++d) {
      local[d] = at;
      bases[t * kRadix + d] = static_cast<unsigned>(run[d] - at); // mod 2^32: + position wraps back
      at += counts[t * kRadix + d];
      run[d] += counts[t * kRadix + d];
    }
    for (std::size_t i = t * S::kTile; i < (t + 1) * S::kTile; ++i)
      sorted[t * S::kTile + local[keys[i] & (kRadix - 1)]++] = keys[i];
  }
  DeviceBuffer<unsigned> key_buffer(n), out_buffer(n), value_buffer(n), value_out_buffer(n),
      base_buffer(bases.size());
  unsigned *d_keys = key_buffer.data(), *d_out = out_buffer.data(), *d_vals = value_buffer.data(),
           *d_vals_out = value_out_buffer.data(), *d_bases = base_buffer.data();
  CUDA_CHECK(cudaMemcpy(d_keys, sorted.data(), n * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_vals, sorted.data(), n * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_bases, bases.data(), bases.size() * 4, cudaMemcpyHostToDevice));
  for (auto kernel : {real_run_pass<false, ITEMS>, real_run_pass<true, ITEMS>})
    CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, S::kSharedBytes));
  const double key_bytes = 4.0 * static_cast<double>(n);
  print(
      "copy keys", n,
      time_us(reps, [&] { CUDA_CHECK(cudaMemcpyAsync(d_out, d_keys, n * 4, cudaMemcpyDefault)); }),
      2 * key_bytes);
  const auto passes = [&](auto kernel) {
    for (int p = 0; p < 4; ++p) {
      kernel<<<tiles, kBlock, S::kSharedBytes>>>(d_keys, d_out, d_vals, d_vals_out, d_bases);
      CUDA_CHECK_LAUNCH();
    }
  };
  print("4 real-run passes, keys", n, time_us(reps, [&] { passes(real_run_pass<false, ITEMS>); }),
        4 * 2 * key_bytes);
  print("4 real-run passes, pairs", n, time_us(reps, [&] { passes(real_run_pass<true, ITEMS>); }),
        4 * 4 * key_bytes);
  // the output is the input sorted by the low byte (stable): checked, so the pattern is the real
  // one
  std::vector<unsigned> out(n);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * 4, cudaMemcpyDeviceToHost));
  for (std::size_t i = 1; i < n; ++i)
    if ((out[i - 1] & 255u) > (out[i] & 255u)) {
      std::fprintf(stderr, "sort_memory_probe: real runs out of order at %zu\n", i);
      return 1;
    }
  return 0;
}

} // namespace
} // namespace gps

int main(int argc, char** argv) {
  if (argc > 6) {
    std::fprintf(stderr, "usage: sort_memory_probe [log2n 16..30] [repetitions 1..100] "
                         "[items 16|24|32|48] [slot 0, run..2 x run, or real] [prefetch 0|1]\n");
    return 2;
  }
  const int log2n = argc > 1 ? gps::parse(argv[1], 16, 30, "log2n") : 28;
  const int reps = argc > 2 ? gps::parse(argv[2], 1, 100, "repetitions") : 10;
  const int items = argc > 3 ? gps::parse(argv[3], 16, 48, "items") : 24;
  if (argc > 4 && std::string(argv[4]) == "real") {
    if (items == 16 || items == 24)
      return items == 16 ? gps::run_real<16>(log2n, reps) : gps::run_real<24>(log2n, reps);
    std::fprintf(stderr, "sort_memory_probe: slot real takes items 16 or 24, got %d\n", items);
    return 2;
  }
  const int slot = argc > 4 ? gps::parse(argv[4], 0, 144, "slot") : -1;
  const bool prefetch_runs = argc > 5 && gps::parse(argv[5], 0, 1, "prefetch") == 1;
  switch (items) {
  case 16:
    return gps::run<16>(log2n, reps, slot, prefetch_runs);
  case 24:
    return gps::run<24>(log2n, reps, slot, prefetch_runs);
  case 32:
    return gps::run<32>(log2n, reps, slot, prefetch_runs);
  case 48:
    return gps::run<48>(log2n, reps, slot, prefetch_runs);
  default:
    std::fprintf(stderr, "sort_memory_probe: items must be 16, 24, 32 or 48, got %d\n", items);
    return 2;
  }
}
