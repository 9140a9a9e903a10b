// ScatterND: out = in, then every index tuple's slice of updates is written (or combined) in
// row-major order of the tuples. Threads never share an output element: with large slices each
// thread owns a part of every slice; otherwise each thread owns a range of target positions.
// Otherwise check() reads every tuple once (split over threads), checks it and files (target offset, update offset) in
// a private bucket per (tuple part, target region); run() then has each thread apply its
// region's buckets in part order, i.e. in row-major order of the tuples: duplicates are combined
// in the serial order, bit-identical for any thread count, and no thread walks foreign tuples.
// In place on several threads, run() does both in one team (file, barrier, apply if all good).
#include <algorithm>
#include <atomic>
#include <limits>
#include <memory>
#include <vector>

#include "index/steps.hpp"
#include "plan/copy_plan.hpp"
#include "strided/error.hpp"
#include "util/bits.hpp"
#include "util/copy.hpp"
#include "util/isa.hpp"

namespace strided::detail::index {
namespace {

/// The tuple at x: its target's byte offset in the output and linear position; false when a
/// component is out of range.
template <class I>
bool decode_tuple(const TupleScatterGeom& g, const std::byte* x, std::int64_t& dst, std::int64_t& lin) {
  dst = 0;
  lin = 0;
  for (int c = 0; c < g.L; ++c) {
    const auto uc = static_cast<std::size_t>(c);
    const std::uint64_t p = index_pos(load<I>(x + c * g.comp_st), g.bound[uc]);
    if (p >= static_cast<std::uint64_t>(g.bound[uc])) return false;
    dst += static_cast<std::int64_t>(p) * g.out_st[uc];
    lin += static_cast<std::int64_t>(p) * g.lin_st[uc];
  }
  return true;
}

using DecodeFn = bool (*)(const TupleScatterGeom&, const std::byte* x, std::int64_t& dst, std::int64_t& lin);
using TupleScatterFn = void (*)(const TupleScatterGeom&, DecodeFn, const std::byte* idx, const std::byte* upd,
                                std::byte* out, std::int64_t tlo, std::int64_t thi, std::int64_t slo, std::int64_t shi);

/// The walk for slices of 1024+ elements (see check()): a tuple's decoding, through `decode`, is
/// small beside its slice, so this is compiled once per op, not once per op and index type.
template <class Op>
void tuple_scatter_part(const TupleScatterGeom& g, DecodeFn decode, const std::byte* idx, const std::byte* upd,
                        std::byte* out, std::int64_t tlo, std::int64_t thi, std::int64_t slo, std::int64_t shi) {
  using T = typename Op::type;
  const std::int64_t Q = g.slice.count();
  const bool whole = slo == 0 && shi == Q;
  const std::int64_t su = g.slice.inner_st(0), so = g.slice.inner_st(1);
  constexpr auto E = static_cast<std::int64_t>(sizeof(T));
  const bool dense = su == E && so == E;  // a constant stride: the loop vectorises (1024-float slices 1.9x)
  for_runs(g.tuples, 0, g.tuples.count(),
           [&](const std::array<std::int64_t, 2>& off, std::int64_t j0, std::int64_t j1) {
             for (std::int64_t j = j0; j < j1; ++j) {
               std::int64_t dst, lin;
               // A tuple changed by another thread after the check is skipped (never written astray).
               if (!decode(g, idx + off[0] + j * g.tuples.inner_st(0), dst, lin) || lin < tlo || lin >= thi) continue;
               const std::byte* u = upd + off[1] + j * g.tuples.inner_st(1);
               std::byte* o = out + dst;
               if (whole && Q == 1) {
                 store<T>(o, Op::apply(load<T>(o), load<T>(u)));
                 continue;
               }
               for_runs(g.slice, slo, shi, [&](const std::array<std::int64_t, 2>& s, std::int64_t a, std::int64_t b) {
                 const std::byte* us = u + s[0];
                 std::byte* os = o + s[1];
                 if (dense) {
                   for (std::int64_t e = a; e < b; ++e)
                     store<T>(os + e * E, Op::apply(load<T>(os + e * E), load<T>(us + e * E)));
                 } else {
                   for (std::int64_t e = a; e < b; ++e)
                     store<T>(os + e * so, Op::apply(load<T>(os + e * so), load<T>(us + e * su)));
                 }
               });
             }
           });
}

/// A tuple filed by the bucketing pass: byte offsets of its target slice and of its updates,
/// as O = int32_t where every offset fits (half the scratch traffic: 2M points 1.10x faster on
/// one thread, 1.13x on two), else int64_t.
template <class O>
struct Entry {
  O dst, upd;
};
constexpr int kMaxParts = 16;  // parts (and regions) of a filing
/// A region's filed entries: [0, n) of `v`, which keeps its length (and its elements' memory)
/// from call to call; filing writes through a cursor and grows `v` only when it is full.
/// std::vector::push_back was compiled out of line: a call per tuple, 40% of the time of 2M points
/// scattered into 128 KiB on one thread. Intel Xeon, 2M points into 4096x4096 float32 in place:
/// 1 thread 29.9 -> 22.8 ms, 2 threads 14.0 -> 8.8 (torch 20-21); into 128 KiB 15.0 -> 9.0 / 9.6 -> 5.0.
/// (The geometry copied to locals in bucket_tuples, before: 31.8 / 14.7 and 18.8 / 10.0 ms.)
template <class O>
struct Bucket {
  std::vector<Entry<O>> v;
  std::size_t n = 0;
  std::size_t size() const { return n; }
  const Entry<O>& operator[](std::size_t k) const { return v[k]; }
  const Entry<O>* begin() const { return v.data(); }
  const Entry<O>* end() const { return v.data() + n; }
};
/// Makes room for one more entry after `used` (cold: doubles the bucket).
template <class O>
STRIDED_NOINLINE Entry<O>* grow(Bucket<O>& b, std::size_t used) {
  b.v.resize(std::max<std::size_t>(1024, 2 * b.v.size()));
  return b.v.data() + used;
}
template <class O>
using BucketFn = bool (*)(const TupleScatterGeom&, const std::byte* idx, std::int64_t a, std::int64_t b,
                          int region_shift, int regions, Bucket<O>* buckets);

/// Regions of 2^shift targets, the least power of two >= targets / n: a tuple's region is a
/// shift of its linear target, not a 64-bit division (40-90 cycles per tuple on older Xeons).
int region_shift(std::int64_t targets, int n) {
  const std::int64_t want = (targets + n - 1) / n;
  int shift = 0;
  while ((std::int64_t{1} << shift) < want) ++shift;
  return shift;
}

/// Decodes and checks tuples [a, b) of LK components (0: g.L, read at run time), filing each
/// valid one in buckets[region of its target]; false when one is out of range (nothing is filed
/// past it). The geometry is copied to locals first: read through g, every field was loaded
/// again after each filing store (the compiler cannot tell they do not alias). decode_tuple's
/// rule is written out here on those locals: decode_tuple on a local copy of the fields ran
/// 1.3-1.6x slower (GCC 12, always inlined; builds alternated).
template <class I, class O, int LK>
bool bucket_tuples(const TupleScatterGeom& g, const std::byte* idx, std::int64_t a, std::int64_t b, int region_shift,
                   int regions, Bucket<O>* buckets) {
  const int L = LK > 0 ? LK : g.L;
  const std::int64_t cs = g.comp_st, last = regions - 1;
  std::array<std::int64_t, kMaxLoop> bound = g.bound, out_st = g.out_st, lin_st = g.lin_st;
  bool ok = true;
  const std::int64_t si = g.tuples.inner_st(0), su = g.tuples.inner_st(1);
  std::array<Entry<O>*, kMaxParts> cur{}, lim{};
  for (int r = 0; r < regions; ++r) {
    Bucket<O>& bk = buckets[r];
    cur[static_cast<std::size_t>(r)] = bk.v.data() + bk.n;
    lim[static_cast<std::size_t>(r)] = bk.v.data() + bk.v.size();
  }
  for_runs(g.tuples, a, b, [&](const std::array<std::int64_t, 2>& off, std::int64_t j0, std::int64_t j1) {
    if (!ok) return;
    const std::byte* x = idx + off[0];
    for (std::int64_t j = j0; j < j1; ++j) {
      std::int64_t dst = 0, lin = 0;
      for (int c = 0; c < L; ++c) {
        const auto uc = static_cast<std::size_t>(c);
        const std::uint64_t p = index_pos(load<I>(x + j * si + c * cs), bound[uc]);
        if (p >= static_cast<std::uint64_t>(bound[uc])) {
          ok = false;
          return;
        }
        dst += static_cast<std::int64_t>(p) * out_st[uc];
        lin += static_cast<std::int64_t>(p) * lin_st[uc];
      }
      const auto r = static_cast<std::size_t>(std::min<std::int64_t>(lin >> region_shift, last));
      if (cur[r] == lim[r]) {
        Bucket<O>& bk = buckets[r];
        cur[r] = grow(bk, static_cast<std::size_t>(cur[r] - bk.v.data()));
        lim[r] = bk.v.data() + bk.v.size();
      }
      *cur[r]++ = {static_cast<O>(dst), static_cast<O>(off[1] + j * su)};
    }
  });
  for (int r = 0; r < regions; ++r) {
    Bucket<O>& bk = buckets[r];
    bk.n = static_cast<std::size_t>(cur[static_cast<std::size_t>(r)] - bk.v.data());
  }
  return ok;
}
template <class I, class O>
bool bucket_part(const TupleScatterGeom& g, const std::byte* idx, std::int64_t a, std::int64_t b, int region_shift,
                 int regions, Bucket<O>* buckets) {
  switch (g.L) {
    case 1: return bucket_tuples<I, O, 1>(g, idx, a, b, region_shift, regions, buckets);
    case 2: return bucket_tuples<I, O, 2>(g, idx, a, b, region_shift, regions, buckets);
    default: return bucket_tuples<I, O, 0>(g, idx, a, b, region_shift, regions, buckets);
  }
}

/// Applies the filed entries (trusted: written by bucket_part after checking that very tuple,
/// in this call's private scratch).
template <class Op, class O>
void apply_entries(const TupleScatterGeom& g, const Bucket<O>& es, const std::byte* upd, std::byte* out) {
  using T = typename Op::type;
  const std::int64_t Q = g.slice.count();
  const std::int64_t su = g.slice.inner_st(0), so = g.slice.inner_st(1);
  constexpr auto E = static_cast<std::int64_t>(sizeof(T));
  // Targets are random: prefetched kAhead entries ahead, so many misses are in flight. With
  // several regions a region's slices of updates are scattered too (rows of every part land in
  // each region, kilobytes apart): prefetched as well (64-float rows, 2 threads: 0.26 -> 0.21 ms).
  // Single elements keep near-sequential updates (a part's entries in one region are a few
  // elements apart): no prefetch there.
  constexpr std::size_t kAhead = 16;
  const std::size_t n = es.size();
  if (Q == 1) {
    for (std::size_t k = 0; k < n; ++k) {
      if (k + kAhead < n) prefetch(out + es[k + kAhead].dst);
      const Entry<O>& e = es[k];
      store<T>(out + e.dst, Op::apply(load<T>(out + e.dst), load<T>(upd + e.upd)));
    }
    return;
  }
#if defined(STRIDED_STREAM_BYTES)  // (elsewhere stream_bytes is a plain copy)
  // Plain writes of dense slices of 2+ lines into a large output: the slices' whole lines are
  // streamed (no read for ownership; only their edge lines are read), the updates prefetched.
  // Zen 2, A/B in alternating processes, 32768 rows of 64 floats into 65536x64 in place:
  // 1 thread 2.3-2.7 -> 1.7-1.9 ms, 2 threads 1.9-2.0 -> 1.5-1.9 ms. One thread writes a region
  // in order, so a duplicate's later row still lands last.
  if constexpr (std::is_same_v<Op, OpNone<T>>) {
    const std::int64_t B = Q * E;
    if (g.slice.n == 1 && su == E && so == E && B >= 128 &&
        static_cast<std::uint64_t>(g.targets) * static_cast<std::uint64_t>(B) >= stream_threshold()) {
      for (std::size_t k = 0; k < n; ++k) {
        if (k + kAhead < n) {
          const std::byte* a = out + es[k + kAhead].dst;
          const std::byte* u = upd + es[k + kAhead].upd;
          prefetch(a);
          prefetch(a + B - 1);
          for (std::int64_t b = 0; b < B; b += 64) prefetch(u + b);
          prefetch(u + B - 1);
        }
        stream_bytes(out + es[k].dst, upd + es[k].upd, static_cast<std::size_t>(B));
      }
      store_fence();
      return;
    }
  }
#endif
  if (g.slice.n == 1 && su == E && so == E) {  // dense slices
    for (std::size_t k = 0; k < n; ++k) {
      if (k + kAhead < n) {
        const std::byte* a = out + es[k + kAhead].dst;
        const std::byte* u = upd + es[k + kAhead].upd;
        for (std::int64_t b = 0; b < Q * E; b += 64) {
          prefetch(a + b);
          prefetch(u + b);
        }
      }
      const Entry<O>& e = es[k];
      std::byte* o = out + e.dst;
      const std::byte* u = upd + e.upd;
      for (std::int64_t q = 0; q < Q; ++q) store<T>(o + q * E, Op::apply(load<T>(o + q * E), load<T>(u + q * E)));
    }
    return;
  }
  for (const Entry<O>& e : es)
    for_runs(g.slice, 0, Q, [&](const std::array<std::int64_t, 2>& s, std::int64_t a, std::int64_t b) {
      const std::byte* us = upd + e.upd + s[0];
      std::byte* os = out + e.dst + s[1];
      for (std::int64_t k = a; k < b; ++k) store<T>(os + k * so, Op::apply(load<T>(os + k * so), load<T>(us + k * su)));
    });
}
template <class O>
using ApplyFn = void (*)(const TupleScatterGeom&, const Bucket<O>&, const std::byte*, std::byte*);

/// The calling thread's buckets, filled by a step's check() for its run() (both run there):
/// part p's bucket for region r is b[p][r]. A part's vectors are cache lines of their own: parts
/// are filed by different threads, and vector headers of two parts sharing a line made every
/// push move that line between the cores (filing cost 1.65x the CPU time on 2 threads).
template <class O>
struct alignas(64) PartBuckets {
  std::array<Bucket<O>, kMaxParts> r;
};
template <class O>
struct BucketSlot {
  const void* owner = nullptr;
  int parts = 0, regions = 0;
  std::array<PartBuckets<O>, kMaxParts> b;

  void clear() {
    for (auto& p : b)
      for (auto& v : p.r) v.n = 0;
  }
};
// On the heap, made at a thread's first scatter: held in thread_local storage, the two slots
// (12 KiB) grew the module's TLS block, and that alone made argwhere of 16M floats 1.3x slower
// on 2 threads, with the same machine code (measured; the mechanism is not established).
template <class O>
BucketSlot<O>& t_buckets() {
  thread_local std::unique_ptr<BucketSlot<O>> s;
  if (!s) s = std::make_unique<BucketSlot<O>>();
  return *s;
}

template <class O>
class TupleScatterStep final : public Step {
 public:
  TupleScatterStep(const TupleScatterGeom& g, TupleScatterFn fn, DecodeFn decode, BucketFn<O> bucket, ApplyFn<O> apply,
                   IndexCheckSpec check, std::unique_ptr<const Step> copy, bool same_view)
      : g_(g), fn_(fn), decode_(decode), bucket_(bucket), apply_(apply), check_(std::move(check)),
        same_view_(same_view), copy_(std::move(copy)) {}

  void check(const ExecContext& c) const override {
    BucketSlot<O>& s = t_buckets<O>();
    if (s.owner == this) s.owner = nullptr;
    const int nt = threads(c);
    // Slices of 1024+ elements are split over threads instead (the walk checks each tuple at its
    // read). One thread files too: the same code then combines duplicates for any thread count
    // (two compiled copies of a float add may order its operands differently: NaN payloads).
    if (g_.slice.count() >= 1024) {
      check_indices(check_, c);
      return;
    }
    // In place on several threads: run() files and applies in one parallel region (each region
    // wakes the team, which costs milliseconds on a loaded machine), applying only once every
    // part is filed and checked, so a bad index still leaves the output untouched.
    if (nt > 1 && in_place(c)) {
      s.owner = this;
      s.parts = 0;  // nothing filed yet
      return;
    }
    // Parts and regions from the thread count: the result does not depend on them (module comment).
    // Several parts per thread, handed out dynamically: a thread that the OS delays holds up less.
    const int n = std::min(nt > 1 ? 4 * nt : 1, kMaxParts);
    const int shift = region_shift(g_.targets, n);
    s.clear();
    std::array<bool, kMaxParts> ok{};
    ok.fill(true);
    const std::byte* idx = g_.idx.in_ptr(c);
    parallel_parts(g_.tuples.count(), n, nt, 1, [&](int p, std::int64_t a, std::int64_t b) {
      ok[static_cast<std::size_t>(p)] = bucket_(g_, idx, a, b, shift, n, s.b[static_cast<std::size_t>(p)].r.data());
    });
    for (int p = 0; p < n; ++p)
      if (!ok[static_cast<std::size_t>(p)]) {
        check_indices(check_, c);  // throws, naming the first bad index
        throw IndexError(check_.name + ": an index was out of range when read and in range when read again "
                                       "(the indices changed during the call)");
      }
    s.parts = s.regions = n;
    s.owner = this;
  }

  void run(const ExecContext& c) const override {
    const std::byte* upd = g_.upd.in_ptr(c);
    std::byte* out = g_.out.out_ptr(c);
    if (!in_place(c)) copy_->run(c);
    BucketSlot<O>& s = t_buckets<O>();
    if (s.owner == this && s.parts == 0) {
      s.owner = nullptr;
      file_and_apply(c, s, upd, out);
      return;
    }
    if (s.owner == this) {
      s.owner = nullptr;
      const int n = s.regions;
      parallel_parts(n, n, threads(c), 1, [&](int r, std::int64_t, std::int64_t) {
        for (int p = 0; p < s.parts; ++p)
          apply_(g_, s.b[static_cast<std::size_t>(p)].r[static_cast<std::size_t>(r)], upd, out);
      });
      return;
    }
    const std::byte* idx = g_.idx.in_ptr(c);
    const std::int64_t Q = g_.slice.count();
    const int nt = threads(c);
    if (nt > 1 && Q >= 1024) {
      parallel_ranges(Q, nt, 64, [&](std::int64_t lo, std::int64_t hi) {
        fn_(g_, decode_, idx, upd, out, 0, g_.targets, lo, hi);
      });
    } else {
      parallel_ranges(g_.targets, nt, 1,
                      [&](std::int64_t lo, std::int64_t hi) { fn_(g_, decode_, idx, upd, out, lo, hi, 0, Q); });
    }
  }

 private:
  bool in_place(const ExecContext& c) const { return same_view_ && g_.in.in_ptr(c) == g_.out.out_ptr(c); }

  /// check()'s filing and run()'s applying in one team: parts filed (dynamically), a barrier,
  /// then, only when every part is in range, regions applied.
  void file_and_apply(const ExecContext& c, BucketSlot<O>& s, const std::byte* upd, std::byte* out) const {
    const int nt = threads(c);
    const int n = std::min(4 * nt, kMaxParts);
    const int shift = region_shift(g_.targets, n);
    const std::int64_t total = g_.tuples.count();
    s.clear();
    std::array<bool, kMaxParts> ok{};
    ok.fill(true);
    const std::byte* idx = g_.idx.in_ptr(c);
    auto file = [&](int p) {
      ok[static_cast<std::size_t>(p)] =
          bucket_(g_, idx, total * p / n, total * (p + 1) / n, shift, n, s.b[static_cast<std::size_t>(p)].r.data());
    };
    auto all_ok = [&] {
      bool good = true;
      for (int p = 0; p < n; ++p) good = good && ok[static_cast<std::size_t>(p)];
      return good;
    };
    auto apply = [&](int r) {
      for (int p = 0; p < n; ++p) apply_(g_, s.b[static_cast<std::size_t>(p)].r[static_cast<std::size_t>(r)], upd, out);
    };
#ifdef STRIDED_HAVE_OPENMP
    TeamWatch watch(nt, team_is_cold(nt));  // the filing phase is watched: its barrier is where team-mates are awaited
#pragma omp parallel num_threads(nt)
    {
      if (omp_get_thread_num() == 0) watch.caller_started();
#pragma omp for schedule(dynamic, 1) nowait
      for (int p = 0; p < n; ++p) file(p);
      if (omp_get_thread_num() == 0) watch.caller_done();
#pragma omp barrier
      // every part is filed; all threads see the same flags
      if (omp_get_thread_num() == 0) watch.team_arrived();
      if (all_ok()) {
#pragma omp for schedule(dynamic, 1)
        for (int r = 0; r < n; ++r) apply(r);
      }
    }
#else
    for (int p = 0; p < n; ++p) file(p);
    if (all_ok())
      for (int r = 0; r < n; ++r) apply(r);
#endif
    if (!all_ok()) {
      check_indices(check_, c);  // throws, naming the first bad index
      throw IndexError(check_.name + ": an index was out of range when read and in range when read again "
                                     "(the indices changed during the call)");
    }
  }

  int threads(const ExecContext& c) const {
    const std::int64_t tuples = g_.tuples.count(), Q = g_.slice.count();
    const std::uint64_t bytes =
        static_cast<std::uint64_t>(tuples) * (static_cast<std::uint64_t>(g_.L) * itemsize(g_.idx_dtype) +
                                              2 * itemsize(g_.dtype) * static_cast<std::uint64_t>(Q));
    return threads_for_bytes(bytes, c.threads);
  }

  TupleScatterGeom g_;
  TupleScatterFn fn_;
  DecodeFn decode_;
  BucketFn<O> bucket_;
  ApplyFn<O> apply_;
  IndexCheckSpec check_;
  bool same_view_;
  std::unique_ptr<const Step> copy_;
};

template <class O>
std::unique_ptr<const Step> make_step(const TupleScatterGeom& g, ScatterReduction r, TupleScatterFn fn, DecodeFn decode,
                                      IndexCheckSpec check, std::unique_ptr<const Step> copy, bool same_view) {
  const BucketFn<O> bucket =
      dispatch_index(g.idx_dtype, [](auto itag) -> BucketFn<O> { return &bucket_part<decltype(itag), O>; });
  const ApplyFn<O> apply =
      dispatch_reduction(r, g.dtype, [](auto op) -> ApplyFn<O> { return &apply_entries<decltype(op), O>; });
  return std::make_unique<TupleScatterStep<O>>(g, fn, decode, bucket, apply, std::move(check), std::move(copy),
                                               same_view);
}

/// Whether every target offset and every updates offset that bucket_part files fits 32 bits.
bool offsets_fit_32(const TupleScatterGeom& g) {
  std::int64_t dlo = 0, dhi = 0, ulo = 0, uhi = 0;
  for (std::size_t c = 0; c < static_cast<std::size_t>(g.L); ++c) {
    const std::int64_t span = (g.bound[c] - 1) * g.out_st[c];
    (span < 0 ? dlo : dhi) += span;
  }
  for (std::size_t d = 0; d < static_cast<std::size_t>(g.tuples.n); ++d) {
    const std::int64_t span = (g.tuples.size[d] - 1) * g.tuples.st[1][d];
    (span < 0 ? ulo : uhi) += span;
  }
  constexpr std::int64_t lo = std::numeric_limits<std::int32_t>::min(), hi = std::numeric_limits<std::int32_t>::max();
  return dlo >= lo && dhi <= hi && ulo >= lo && uhi <= hi;
}

std::atomic<bool> g_compact{true};

}  // namespace

std::unique_ptr<const Step> make_tuple_scatter_step(const TupleScatterGeom& g, ScatterReduction r, IndexCheckSpec check,
                                                    std::unique_ptr<const Step> copy, bool same_view) {
  const TupleScatterFn fn =
      dispatch_reduction(r, g.dtype, [](auto op) -> TupleScatterFn { return &tuple_scatter_part<decltype(op)>; });
  const DecodeFn decode =
      dispatch_index(g.idx_dtype, [](auto itag) -> DecodeFn { return &decode_tuple<decltype(itag)>; });
  if (g_compact.load(std::memory_order_relaxed) && offsets_fit_32(g))
    return make_step<std::int32_t>(g, r, fn, decode, std::move(check), std::move(copy), same_view);
  return make_step<std::int64_t>(g, r, fn, decode, std::move(check), std::move(copy), same_view);
}

void set_compact_entries(bool on) noexcept { g_compact.store(on, std::memory_order_relaxed); }
bool compact_entries() noexcept { return g_compact.load(std::memory_order_relaxed); }

}  // namespace strided::detail::index
