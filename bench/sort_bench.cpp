// Sort benchmarks: the variants of the sort table x size (pot/npot) x keys|pairs x key
// distribution (x block size), plus the copy baseline. Names:
//   sort/<variant>/<keys|pairs>/<uniform|low_entropy|all_equal>/<pot|npot>/log2n:<k>[/block:<b>]
//
// Counters. elements/s is keys/s (Traffic.elements = n). GB/s counts one read and one write of
// every key (and value) per pass the variant actually makes (Variant::passes): 32 for split_1bit,
// 8 for block_local_4bit, 4 for onesweep, cub and cpu_radix, 5 for thrust (its in-place sort needs
// the input copied into the output first: one more pass), and 1 for cpu_std_sort (a comparison
// sort has no passes: the minimum). Auxiliary traffic (flags and their scan, digit tables, the
// up-front histogram read, look-back status) is not counted: GB/s well below the copy baseline
// shows that overhead.
//
// Every variant sorts out of place, so the input is never modified and every iteration sorts the
// same unsorted data; nothing needs restoring between iterations.
//
// The full axis product would not fit the suite's 5-minute budget on an H100 (split_1bit takes
// about 0.5 s per sort of 2^30 keys), so it is trimmed:
//   - block sizes are swept for uniform keys-only rows at pot sizes, up to 2^26 for the multi-pass
//     variants (at every pot size for onesweep, whose two block sizes are cheap); every other row
//     uses the variant's default block;
//   - the low_entropy and all_equal distributions run at pot sizes only;
//   - CPU rows run for uniform keys at pot sizes, cpu_std_sort up to 2^24 and cpu_radix up to
//     2^28 (std::sort alone takes about 30 s for 2^28 keys).
//
// Validation (once per row, outside the timing). std::stable_sort of 2^30 pairs takes minutes of
// host time, so the check is exact but sort-free where it can be: pairs carry their input index as
// the value, and the output is the stable sort iff every value v is < n, keys_out[i] ==
// keys_in[v], and (key, value) strictly increases (distinct values then make it a permutation).
// Keys-only output is compared with std::sort of the input up to 2^24 keys; above that it must be
// non-decreasing with the same multiset fingerprint (two 64-bit sums of hashed keys) as the input.
// The tests compare every variant with std::stable_sort directly.
#include "common/cpu_parallel.hpp"
#include "harness.hpp"
#include "sort/sort.hpp"

#include <algorithm>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

namespace gps::bench {
namespace {

constexpr std::uint64_t kSeed = 42;
constexpr int kSweepMaxLog2 = 26;     // block sweep of the multi-pass variants
constexpr int kCpuStdMaxLog2 = 24;    // cpu_std_sort rows
constexpr int kCpuRadixMaxLog2 = 28;  // cpu_radix rows
constexpr int kExactKeysMaxLog2 = 24; // keys-only rows compared with std::sort up to here

unsigned check_threads(std::size_t n) {
  return n < (1u << 20) ? 1u : cpu_threads();
}

// ---- host data -------------------------------------------------------------------------------

struct Fingerprint {
  std::uint64_t a = 0, b = 0;
  bool operator==(const Fingerprint& o) const { return a == o.a && b == o.b; }
};
Fingerprint fingerprint(const unsigned* keys, std::size_t n) {
  const unsigned chunks = check_threads(n);
  std::vector<Fingerprint> part(chunks);
  parallel_chunks(n, chunks, [&](unsigned c, std::size_t b, std::size_t e) {
    Fingerprint f;
    for (std::size_t i = b; i < e; ++i) {
      f.a += random_word(keys[i], 1);
      f.b += random_word(keys[i], 2);
    }
    part[c] = f;
  });
  Fingerprint total;
  for (const auto& f : part) total.a += f.a, total.b += f.b;
  return total;
}

struct SortHost {
  std::vector<unsigned> keys;
  std::vector<unsigned> sorted_keys; // std::sort of keys, up to 2^kExactKeysMaxLog2 keys
  Fingerprint fp;
};
SortHost& sort_host(std::size_t n, KeyDistribution dist) {
  return size_cache().get<SortHost>(std::string("sort/host/") + key_distribution_name(dist), n,
                                    [n, dist] {
                                      SortHost h;
                                      h.keys = random_keys(n, kSeed, dist);
                                      h.fp = fingerprint(h.keys.data(), n);
                                      if (n <= (std::size_t{1} << kExactKeysMaxLog2)) {
                                        h.sorted_keys = h.keys;
                                        std::sort(h.sorted_keys.begin(), h.sorted_keys.end());
                                      }
                                      return h;
                                    });
}

// The values of every pairs row: the input index, which makes the O(n) pairs check possible.
const std::vector<unsigned>& index_values(std::size_t n) {
  return size_cache().get<std::vector<unsigned>>("sort/host/values", n, [n] {
    std::vector<unsigned> v(n);
    std::iota(v.begin(), v.end(), 0u);
    return v;
  });
}

// First index where `bad(i)` holds (scanned in parallel), or n.
template <typename Bad> std::size_t first_bad(std::size_t n, const Bad& bad) {
  const unsigned chunks = check_threads(n);
  std::vector<std::size_t> first(chunks, n);
  parallel_chunks(n, chunks, [&](unsigned c, std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i)
      if (bad(i)) {
        first[c] = i;
        return;
      }
  });
  return *std::min_element(first.begin(), first.end());
}

std::string at(std::size_t i, std::size_t n, const std::string& what) {
  return "wrong result at index " + std::to_string(i) + " of " + std::to_string(n) + ": " + what;
}

// "" when (keys, vals) is the stable sort of (h.keys, index_values); vals == nullptr: keys only.
std::string check_sorted(const SortHost& h, std::size_t n, const unsigned* keys,
                         const unsigned* vals) {
  if (vals) {
    const std::size_t i = first_bad(n, [&](std::size_t i) {
      const unsigned v = vals[i];
      if (v >= n || keys[i] != h.keys[v]) return true;
      return i > 0 && !(keys[i - 1] < keys[i] || (keys[i - 1] == keys[i] && vals[i - 1] < v));
    });
    if (i == n) return "";
    return at(i, n,
              "key " + std::to_string(keys[i]) + " value " + std::to_string(vals[i]) +
                  (i > 0 ? " after key " + std::to_string(keys[i - 1]) + " value " +
                               std::to_string(vals[i - 1])
                         : std::string()) +
                  " (not the stable order of the input)");
  }
  if (!h.sorted_keys.empty()) {
    const std::size_t i = first_bad(n, [&](std::size_t i) { return keys[i] != h.sorted_keys[i]; });
    if (i == n) return "";
    return at(i, n,
              "got " + std::to_string(keys[i]) + ", expected " + std::to_string(h.sorted_keys[i]));
  }
  const std::size_t i = first_bad(n, [&](std::size_t i) { return i > 0 && keys[i - 1] > keys[i]; });
  if (i != n) return at(i, n, std::to_string(keys[i]) + " after " + std::to_string(keys[i - 1]));
  if (!(fingerprint(keys, n) == h.fp)) return "sorted, but not a permutation of the input keys";
  return "";
}

// ---- device data ------------------------------------------------------------------------------

// One set of device buffers per size, shared by every row of that size: the keys of the
// distribution last asked for (re-uploaded when the distribution changes, which registration
// order makes rare), the index values (on the first pairs row) and the outputs. It lives in the
// size cache, so the harness can free it; `alive` tells device_bytes_needed() whether it still
// holds memory.
struct SortDevice {
  int dist = -1; // KeyDistribution of keys_in, -1: none yet
  DeviceBuffer<unsigned> keys_in, keys_out, vals_in, vals_out;
  std::shared_ptr<char> alive = std::make_shared<char>(0);
};
struct SortDeviceState {
  std::weak_ptr<char> alive;
  std::size_t n = 0;
  bool vals = false;
};
SortDeviceState& sort_device_state() {
  static SortDeviceState state;
  return state;
}

struct SortPointers {
  const unsigned *keys_in = nullptr, *vals_in = nullptr;
  unsigned *keys_out = nullptr, *vals_out = nullptr;
};
SortPointers sort_device(std::size_t n, KeyDistribution dist, bool pairs) {
  auto& d = size_cache().get<SortDevice>("sort/device", n, [n] {
    SortDevice d;
    d.keys_in.allocate(n);
    d.keys_out.allocate(n);
    return d;
  });
  if (d.dist != static_cast<int>(dist)) {
    const auto& keys = sort_host(n, dist).keys;
    if (n)
      CUDA_CHECK(
          cudaMemcpy(d.keys_in.data(), keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaDeviceSynchronize()); // the pageable upload has landed before the stream reads it
    d.dist = static_cast<int>(dist);
  }
  if (pairs && d.vals_in.size() != n) {
    d.vals_in = to_device(index_values(n));
    d.vals_out.allocate(n);
  }
  sort_device_state() = {d.alive, n, d.vals_in.size() == n && n > 0};
  SortPointers p{d.keys_in.data(), nullptr, d.keys_out.data(), nullptr};
  if (pairs) p.vals_in = d.vals_in.data(), p.vals_out = d.vals_out.data();
  return p;
}

// Grow-only pinned host buffers for reading results back: a 2^30-key row reads back 4 or 8 GiB,
// several times faster pinned than pageable (the pageable fallback is for hosts short of pinnable
// memory).
class ReadbackBuffer {
public:
  ~ReadbackBuffer() {
    if (pinned_) cudaFreeHost(pinned_); // at exit the runtime may be gone: nothing to report
  }
  const unsigned* fetch(const unsigned* d, std::size_t n) {
    if (n > capacity_ && !pinning_failed_) {
      if (pinned_) cudaFreeHost(pinned_);
      pinned_ = nullptr;
      capacity_ = 0;
      void* p = nullptr;
      if (cudaMallocHost(&p, n * sizeof(unsigned)) == cudaSuccess) {
        pinned_ = static_cast<unsigned*>(p);
        capacity_ = n;
      } else {
        cudaGetLastError();
        pinning_failed_ = true;
      }
    }
    if (pinning_failed_ && pageable_.size() < n) pageable_.resize(n);
    unsigned* dst = pinning_failed_ ? pageable_.data() : pinned_;
    if (n) CUDA_CHECK(cudaMemcpy(dst, d, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    return dst;
  }

private:
  unsigned* pinned_ = nullptr;
  std::size_t capacity_ = 0;
  bool pinning_failed_ = false;
  std::vector<unsigned> pageable_;
};
const unsigned* readback(int which, const unsigned* d, std::size_t n) {
  static ReadbackBuffer buffers[2];
  return buffers[which].fetch(d, n);
}

// ---- rows -------------------------------------------------------------------------------------

Traffic sort_traffic(const sort::Variant& v, std::size_t n, bool pairs) {
  const double bytes_per_pass = 2.0 * n * sizeof(unsigned) * (pairs ? 2 : 1);
  return {v.passes * bytes_per_pass, static_cast<double>(n)};
}

// Device memory a row still has to allocate: its inputs and outputs unless this size's buffers
// are held already, and the growth of the shared workspace (a temporary per key and value, plus
// split_1bit's flags and scan; digit tables and look-back status stay below a byte per key), or
// for thrust its temporary storage. Counting what is already held would make the harness clear
// the size cache (and re-create this size's data) for nearly every row at 2^30.
std::size_t device_bytes_needed(const sort::Variant& v, std::size_t n, bool pairs) {
  const std::size_t per_key = sizeof(unsigned) * (pairs ? 2 : 1);
  const SortDeviceState& held = sort_device_state();
  std::size_t in_out = 2 * per_key * n;
  if (!held.alive.expired() && held.n == n)
    in_out -= std::min(in_out, 2 * sizeof(unsigned) * n * (held.vals ? 2 : 1));
  const bool thrust = std::string(v.name) == "thrust";
  const std::size_t ws =
      thrust ? 0
             : per_key * n + n + (std::string(v.name) == "split_1bit" ? 2 * sizeof(int) * n : 0);
  const std::size_t ws_growth = ws - std::min(ws, bench_workspace().capacity());
  return in_out + ws_growth + (thrust ? per_key * n : 0) + (64u << 20);
}

void register_gpu_row(const sort::Variant& v, const SizeCase& size, KeyDistribution dist,
                      bool pairs, int block) {
  const std::size_t n = size.n;
  const std::vector<std::string> axes = {pairs ? "pairs" : "keys", key_distribution_name(dist)};
  register_gpu(benchmark_name("sort", v.name, axes, size, block), [&v, n, dist, pairs, block] {
    auto ptrs = std::make_shared<SortPointers>();
    GpuCase c;
    c.device_bytes = device_bytes_needed(v, n, pairs);
    c.prepare = [ptrs, n, dist, pairs] { *ptrs = sort_device(n, dist, pairs); };
    c.work = [&v, ptrs, n, block](cudaStream_t s) {
      v.run(ptrs->keys_in, ptrs->keys_out, ptrs->vals_in, ptrs->vals_out, n, block,
            bench_workspace(), s);
    };
    c.validate = [&v, ptrs, n, dist, pairs, block] {
      const SortPointers& p = *ptrs;
      poison(p.keys_out, n * sizeof(unsigned));
      if (pairs) poison(p.vals_out, n * sizeof(unsigned));
      v.run(p.keys_in, p.keys_out, p.vals_in, p.vals_out, n, block, bench_workspace(),
            bench_stream());
      CUDA_CHECK(cudaStreamSynchronize(bench_stream()));
      const unsigned* keys = readback(0, p.keys_out, n);
      const unsigned* vals = pairs ? readback(1, p.vals_out, n) : nullptr;
      return check_sorted(sort_host(n, dist), n, keys, vals);
    };
    c.traffic = sort_traffic(v, n, pairs);
    c.n = n;
    c.block = block;
    return c;
  });
}

void register_cpu_row(const sort::Variant& v, const SizeCase& size, bool pairs) {
  const std::size_t n = size.n;
  const KeyDistribution dist = KeyDistribution::Uniform;
  const std::vector<std::string> axes = {pairs ? "pairs" : "keys", key_distribution_name(dist)};
  register_cpu(benchmark_name("sort", v.name, axes, size, 0), [&v, n, dist, pairs] {
    auto keys = std::make_shared<std::vector<unsigned>>(n);
    auto vals = std::make_shared<std::vector<unsigned>>(pairs ? n : 0);
    auto in = std::make_shared<SortPointers>();
    CpuCase c;
    c.prepare = [in, n, dist, pairs] {
      in->keys_in = sort_host(n, dist).keys.data();
      in->vals_in = pairs ? index_values(n).data() : nullptr;
    };
    c.work = [&v, n, in, keys, vals] {
      Workspace unused;
      v.run(in->keys_in, keys->data(), in->vals_in, in->vals_in ? vals->data() : nullptr, n, 0,
            unused, nullptr);
    };
    c.validate = [n, dist, pairs, keys, vals] {
      return check_sorted(sort_host(n, dist), n, keys->data(), pairs ? vals->data() : nullptr);
    };
    c.traffic = sort_traffic(v, n, pairs);
    c.n = n;
    return c;
  });
}

int cpu_max_log2(const sort::Variant& v) {
  return std::string(v.name) == "cpu_std_sort" ? kCpuStdMaxLog2 : kCpuRadixMaxLog2;
}

// The block sizes of one row group (see the trimming rules at the top).
std::vector<int> row_blocks(const sort::Variant& v, const SizeCase& size, KeyDistribution dist,
                            bool pairs) {
  if (v.blocks.empty()) return {0};
  const bool sweep = size.pot && dist == KeyDistribution::Uniform && !pairs &&
                     (size.log2n <= kSweepMaxLog2 || std::string(v.name) == "onesweep");
  return sweep ? v.blocks : std::vector<int>{v.default_block};
}

} // namespace

void register_sort_benchmarks();
GPS_BENCHMARK_SUITE(sort, register_sort_benchmarks);

void register_sort_benchmarks() {
  // size-major, then distribution: the rows of one size share its data, and the device keys are
  // re-uploaded only when the distribution changes
  for (const SizeCase& size : size_cases()) {
    register_copy_baseline("sort", size);
    for (KeyDistribution dist : kKeyDistributions) {
      if (!size.pot && dist != KeyDistribution::Uniform) continue;
      for (bool pairs : {false, true})
        for (const sort::Variant& v : sort::variants()) {
          if (v.target == sort::Target::Cpu) {
            if (size.pot && dist == KeyDistribution::Uniform && size.log2n <= cpu_max_log2(v))
              register_cpu_row(v, size, pairs);
          } else {
            for (int block : row_blocks(v, size, dist, pairs))
              register_gpu_row(v, size, dist, pairs, block);
          }
        }
    }
  }
}

} // namespace gps::bench
