// Hopper's bulk copy engine (sm_90, PTX cp.async.bulk) and the shared-memory barrier (mbarrier)
// it signals: one thread moves a whole tile from global into shared memory with one instruction,
// without registers, and any thread waits for the bytes on the barrier. The building block of the
// prefetching single-pass kernels (scan/prefetch_lookback): while a tile waits for its look-back,
// the next tiles are already on their way into shared memory. (CUTLASS's SM90_BULK_COPY_G2S and
// ClusterTransactionBarrier; the CUDA programming guide's "asynchronous data copies using TMA".)
//
// On devices below sm_90 the device functions trap: callers check supports_bulk_copy() on the
// host first (tile_ring.cuh's resident_blocks does, once per device).
#pragma once

#include "common/cuda_check.hpp"
#include "common/occupancy.hpp"
#include "common/per_device.hpp"
#include "common/shared_memory.cuh"

#include <cstdint>

namespace gps {

// Whether the current device has the bulk copy engine (compute capability 9.0 or newer).
inline bool supports_bulk_copy() {
  int device = 0, major = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  return major >= 9;
}

// Bulk copies move multiples of 16 bytes between 16-byte aligned addresses, and one barrier phase
// counts at most 2^20 - 1 bytes.
inline constexpr unsigned kBulkAlign = 16;
inline constexpr unsigned kBulkMaxPhaseBytes = (1u << 20) - 1;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define GPS_BULK_COPY_DEVICE 1
#endif

// A barrier in shared memory whose phase completes when `count` threads have arrived and every
// byte announced with arrive_expect_tx has landed.
struct SharedBarrier {
  std::uint64_t word;

  // One thread, before any use; then a __syncthreads() before other threads touch it.
  __device__ __forceinline__ void init(unsigned count) {
#ifdef GPS_BULK_COPY_DEVICE
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(&word)), "r"(count)
                 : "memory");
    // make the initialised barrier visible to the bulk copy engine (the async proxy)
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#else
    (void)count;
    __trap();
#endif
  }
  // Arrive and announce `bytes` more bytes for the current phase.
  __device__ __forceinline__ void arrive_expect_tx(unsigned bytes) {
#ifdef GPS_BULK_COPY_DEVICE
    asm volatile(
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(&word)),
        "r"(bytes)
        : "memory");
#else
    (void)bytes;
    __trap();
#endif
  }
  // Arrive with nothing to copy.
  __device__ __forceinline__ void arrive() {
#ifdef GPS_BULK_COPY_DEVICE
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(&word))
                 : "memory");
#else
    __trap();
#endif
  }
  // Waits until the phase of this parity (0 for the first phase, then alternating) completes; what
  // the phase's arrivals wrote and the bytes its copies moved are then visible to the caller.
  __device__ __forceinline__ void wait(unsigned parity) {
#ifdef GPS_BULK_COPY_DEVICE
    unsigned done = 0;
    do {
      asm volatile("{\n\t.reg .pred p;\n\t"
                   "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                   "selp.u32 %0, 1, 0, p;\n\t}"
                   : "=r"(done)
                   : "r"(shared_address(&word)), "r"(parity)
                   : "memory");
    } while (!done);
#else
    (void)parity;
    __trap();
#endif
  }
};

// Orders this thread's earlier shared-memory accesses (and, after a barrier, the block's) before
// later bulk copies into the same shared memory.
__device__ __forceinline__ void fence_proxy_async_shared() {
#ifdef GPS_BULK_COPY_DEVICE
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#else
  __trap();
#endif
}

// Starts copying `bytes` (a multiple of 16, both addresses 16-byte aligned) from global `src` to
// shared `dst`; `barrier` counts the bytes as they land. Evict-first in L2: the data streams
// through once.
__device__ __forceinline__ void bulk_load_evict_first(void* dst, const void* src, unsigned bytes,
                                                      SharedBarrier& barrier) {
#ifdef GPS_BULK_COPY_DEVICE
  std::uint64_t policy;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
               " [%0], [%1], %2, [%3], %4;" ::"r"(shared_address(dst)),
               "l"(src), "r"(bytes), "r"(shared_address(&barrier.word)), "l"(policy)
               : "memory");
#else
  (void)dst, (void)src, (void)bytes, (void)barrier;
  __trap();
#endif
}

// Asks L2 to fetch `bytes` (a multiple of 16; `src` 16-byte aligned) from global memory ahead of
// their loads: a hint with nothing to wait for. The single-pass kernels prefetch the tile that
// starts about a quarter of a wave of resident blocks after theirs (l2_ahead_tiles), so that its
// loads hit L2 instead of waiting on DRAM (utf8/single_pass.tuning.md, fifteenth session).
__device__ __forceinline__ void prefetch_l2(const void* src, unsigned bytes) {
#ifdef GPS_BULK_COPY_DEVICE
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(src), "r"(bytes) : "memory");
#else
  (void)src, (void)bytes; // a hint: nothing to do below sm_90
#endif
}

// How far ahead (in tiles) a kernel with `resident` blocks at once prefetches: a quarter of
// them (measured on the H100: 12..50% the same at 2^28 bytes, 100% slower at 2^24, 200% slower
// everywhere: the prefetched lines must still be in L2 when their tile starts). An A/B build sets
// GPS_L2_AHEAD_PERCENT (0: no prefetch).
#ifndef GPS_L2_AHEAD_PERCENT
#define GPS_L2_AHEAD_PERCENT 25
#endif
inline constexpr unsigned l2_ahead_tiles(unsigned resident) {
  return resident * GPS_L2_AHEAD_PERCENT / 100u;
}

// l2_ahead_tiles of KERNEL's resident blocks (`block` threads, `shared_bytes` of dynamic shared
// memory) on the current device, found once per device (occupancy.hpp; `who` names the variant
// in its error).
template <auto KERNEL> unsigned l2_ahead_tiles_of(int block, int shared_bytes, const char* who) {
  static PerDevice<unsigned> ahead;
  return ahead.get([&](int device) {
    return l2_ahead_tiles(resident_block_count(KERNEL, block, shared_bytes, device, who));
  });
}

} // namespace gps
