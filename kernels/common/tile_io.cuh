// Tile loads and stores with a full and a partial path, in the warp-striped vector layout of the
// single-pass kernels (scan/chained, scan/decoupled_lookback, compact/single_pass; CUB's
// BLOCK_LOAD_WARP_TRANSPOSE gives the same order without the transpose):
//
//   warp w owns kWarpItems contiguous elements of the tile; its j-th int4 vector covers 128
//   contiguous elements, lane l taking elements 4l..4l+3.
//
// Every load and store instruction is then one fully coalesced 512-byte access and no
// shared-memory transpose is needed; within a warp, (vector, lane, component) order is input
// order, which scans and stable selections rely on. A full tile moves as 16-byte vectors (the
// caller checks the 16-byte alignment on the host: kVectorAlign), a partial tile (the last one) as
// bounds-checked scalars.
#pragma once

#include "common/warp.cuh"

#include <cstddef>

namespace gps {

// Alignment the full-tile path needs for the tile's base pointer.
inline constexpr std::size_t kVectorAlign = sizeof(int4);

// Vector transforms for WarpStripedTile::store.
struct KeepVector {
  __device__ __forceinline__ int4 operator()(int4 v) const { return v; }
};
struct AddToVector {
  int offset;
  __device__ __forceinline__ int4 operator()(int4 v) const {
    return make_int4(v.x + offset, v.y + offset, v.z + offset, v.w + offset);
  }
};

// BLOCK threads hold the tile, or the warps from FIRST_WARP on where the block's first warps have
// other work (they call none of the functions below).
template <int BLOCK, int VECS, int FIRST_WARP = 0> struct WarpStripedTile {
  static_assert(BLOCK % kWarpSize == 0, "block must be whole warps");
  static_assert(FIRST_WARP >= 0 && FIRST_WARP < BLOCK / kWarpSize, "the tile needs a warp");
  static constexpr int kWarps = BLOCK / kWarpSize - FIRST_WARP; // warps that hold the tile
  static constexpr int kVecs = VECS;                            // int4 vectors per thread
  static constexpr int kWarpItems = kWarpSize * 4 * VECS;       // elements per warp
  static constexpr int kTile = kWarps * kWarpItems;             // elements per tile

  // Whether this thread holds part of the tile.
  static __device__ __forceinline__ bool holds() {
    if constexpr (FIRST_WARP == 0)
      return true;
    else
      return warp_id() >= FIRST_WARP;
  }

  // Index of this thread's j-th int4 within the tile, in int4 units.
  static __device__ __forceinline__ int vector_slot(int j) {
    return ((warp_id() - FIRST_WARP) * VECS + j) * kWarpSize + lane_id();
  }

  // Bounds-checked scalar load of a partial tile's vectors (zeros past n).
  static __device__ __forceinline__ void load_partial(const int* in, std::size_t tile_base,
                                                      std::size_t n, int4 (&v)[VECS]) {
#pragma unroll
    for (int j = 0; j < VECS; ++j) {
      const std::size_t i = tile_base + 4 * static_cast<std::size_t>(vector_slot(j));
      v[j].x = i + 0 < n ? in[i + 0] : 0;
      v[j].y = i + 1 < n ? in[i + 1] : 0;
      v[j].z = i + 2 < n ? in[i + 2] : 0;
      v[j].w = i + 3 < n ? in[i + 3] : 0;
    }
  }

  // This thread's VECS vectors of the tile at tile_base: evict-first 16-byte loads for a full tile
  // (the data streams through once; L2 is left to what is re-read, such as look-back status
  // words), bounds-checked scalar loads with zeros past n otherwise. All loads are issued before
  // any is used.
  static __device__ __forceinline__ void load(const int* in, std::size_t tile_base, std::size_t n,
                                              bool full_tile, int4 (&v)[VECS]) {
    if (full_tile) {
#pragma unroll
      for (int j = 0; j < VECS; ++j)
        v[j] = __ldcs(reinterpret_cast<const int4*>(in + tile_base) + vector_slot(j));
    } else {
      load_partial(in, tile_base, n, v);
    }
  }

  // Stores transform(v[j]) for this thread's VECS vectors to the tile at tile_base: 16-byte stores
  // for a full tile (evict-first with STREAMING: the output is not re-read), bounds-checked scalar
  // stores otherwise. The transform (an offset to add, say) is applied as each vector is stored.
  template <bool STREAMING, typename Transform = KeepVector>
  static __device__ __forceinline__ void store(int* out, std::size_t tile_base, std::size_t n,
                                               bool full_tile, const int4 (&v)[VECS],
                                               Transform transform = {}) {
#pragma unroll
    for (int j = 0; j < VECS; ++j) {
      const std::size_t i = tile_base + 4 * static_cast<std::size_t>(vector_slot(j));
      const int4 r = transform(v[j]);
      if (full_tile) {
        if constexpr (STREAMING)
          __stcs(reinterpret_cast<int4*>(out + i), r);
        else
          *reinterpret_cast<int4*>(out + i) = r;
      } else {
        if (i + 0 < n)
          out[i + 0] = r.x;
        if (i + 1 < n)
          out[i + 1] = r.y;
        if (i + 2 < n)
          out[i + 2] = r.z;
        if (i + 3 < n)
          out[i + 3] = r.w;
      }
    }
  }
};

} // namespace gps
