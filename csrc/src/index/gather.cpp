// Gather (numpy take / ONNX Gather) and GatherND: every output block is read from one place of
// the input chosen by the indices, so the work splits freely over output blocks.
#include <cstring>
#include <type_traits>

#include "index/fresh.hpp"
#include "index/steps.hpp"
#include "plan/copy_plan.hpp"
#include "strided/error.hpp"
#include "util/bits.hpp"
#include "util/copy.hpp"
#include "util/isa.hpp"

namespace strided::detail::index {
namespace {

/// n <= 64 bytes in one or two fixed-size moves (two may overlap; the step's source and
/// destination never do), inlined: calls per short row (copy_block, memcpy) cost more than the
/// row itself.
STRIDED_ALWAYS_INLINE void copy_short(std::byte* d, const std::byte* s, std::size_t n) {
  const auto two = [&](auto k) {
    constexpr std::size_t K = decltype(k)::value;
    std::memcpy(d, s, K);
    if (n != K) std::memcpy(d + n - K, s + n - K, K);
  };
  if (n >= 32) two(std::integral_constant<std::size_t, 32>{});
  else if (n >= 16) two(std::integral_constant<std::size_t, 16>{});
  else if (n >= 8) two(std::integral_constant<std::size_t, 8>{});
  else if (n >= 4) two(std::integral_constant<std::size_t, 4>{});
  else
    for (std::size_t k = 0; k < n; ++k) d[k] = s[k];
}

/// Copies one block described by `w` (operands: 0 source, 1 destination).
template <std::size_t W>
inline void copy_block(const Walk<2>& w, std::int64_t count, const std::byte* src, std::byte* dst) {
  using T = uint_of_t<W>;
  if (count == 1) {
    store<T>(dst, load<T>(src));
    return;
  }
  const std::int64_t s0 = w.inner_st(0), s1 = w.inner_st(1);
  if (w.n == 1 && s0 == static_cast<std::int64_t>(W) && s1 == static_cast<std::int64_t>(W)) {
    copy_bytes(dst, src, static_cast<std::size_t>(count) * W);
    return;
  }
  for_runs(w, 0, count, [&](const std::array<std::int64_t, 2>& off, std::int64_t j0, std::int64_t j1) {
    const std::byte* s = src + off[0];
    std::byte* d = dst + off[1];
    for (std::int64_t j = j0; j < j1; ++j) store<T>(d + j * s1, load<T>(s + j * s0));
  });
}

// Random reads are latency-bound: the gathers read the sources of a block of indices ahead and
// prefetch them, so that many misses are in flight: kBlock of them, or 8 rows of over 64 bytes
// (their lines all prefetched: 32 rows of 4 lines ahead overran the miss buffers, and the
// prefetches stalled; Zen 2, 32768 random rows of 64 floats from 16 MiB, 1 thread, 3.2-3.3 ->
// 2.7-2.8 ms with both).
constexpr std::int64_t kBlock = 32;

/// Items [j0, j1) in blocks of `block` <= kBlock: source(j) reads item j's index (and prefetches
/// what it names), returning the source's byte offset; the next block's sources are read while
/// this block is moved by move(j, offset). Reading a block and then moving that same block left
/// the pipeline empty at every block's start (2x slower for 2M points from a 64 MiB source).
template <class S, class M>
inline void in_blocks(std::int64_t j0, std::int64_t j1, std::int64_t block, S&& source, M&& move) {
  std::int64_t src[2][kBlock];
  auto read = [&](std::int64_t jb, std::int64_t* sb) {
    const std::int64_t nb = std::min(block, j1 - jb);
    for (std::int64_t t = 0; t < nb; ++t) sb[t] = source(jb + t);
  };
  read(j0, src[0]);
  for (std::int64_t jb = j0, k = 0; jb < j1; jb += block, k ^= 1) {
    if (jb + block < j1) read(jb + block, src[k ^ 1]);
    const std::int64_t nb = std::min(block, j1 - jb);
    for (std::int64_t t = 0; t < nb; ++t) move(jb + t, src[k][t]);
  }
}

template <class I, std::size_t W>
void gather_items(const TakeGeom& g, const std::byte* in, const std::byte* idx, std::byte* out, std::int64_t lo,
                  std::int64_t hi) {
  using T = uint_of_t<W>;
  const std::int64_t M = g.index.count(), Q = g.inner.count(), N = g.N, a = g.a_in;
  const std::int64_t xi = g.index.inner_st(0), xo = g.index.inner_st(1);
  // Rows beyond the L2 (1 MiB) are read in blocks (in_blocks): the next block's sources are read
  // and prefetched while this one is copied (4M float32 from 64 MiB: 30 -> 21 ms; 4M rows of 4
  // float32: 95 -> 29 ms, numpy.take 46 ms). Rows that stay in the cache keep the plain loops,
  // whose out-of-order overlap is enough. Between L2 and L3 the prefetch is a trade: on Zen 4 it
  // gained 1.5-3x for 4-16 MiB tables, on Zen 5 it lost 1.3-1.8x for 4 MiB tables of 32-64 B rows.
  const bool far = N * std::abs(a) > (std::int64_t{1} << 20);
  // Packed rows of up to 64 bytes (embeddings a few elements wide) are copied inline: a call per
  // row cost more than the row (4M rows of 4 float32 from a table that stays in the cache ran
  // 1.6-1.9x slower than torch's index_select).
  const auto rb = static_cast<std::size_t>(Q) * W;
  const bool short_rows = Q > 1 && g.inner.n == 1 && g.inner.inner_st(0) == static_cast<std::int64_t>(W) &&
                          g.inner.inner_st(1) == static_cast<std::int64_t>(W) && rb <= 64;
  // A far row's lines are all prefetched (up to 8; the hardware follows longer rows): the
  // first line alone left the rest of a 256-byte row to miss in turn.
  const bool dense_rows = g.inner.n == 1 && g.inner.inner_st(0) == static_cast<std::int64_t>(W);
  const std::int64_t pf = dense_rows ? std::min<std::int64_t>(static_cast<std::int64_t>(rb), 512) : 1;
  const std::int64_t block = pf > 64 ? 8 : kBlock;
  // Far rows of 2+ lines into an output of at least the stream threshold: their whole lines are
  // streamed (Zen 2, alternating processes, 131072 rows of 64 floats from 16 MiB into a new
  // result, 1 / 2 threads: 10.4-11.5 -> 7.3-7.9 / 6.6-7.1 -> 3.9-4.9 ms; into numpy's out=, whose
  // rows start 16 bytes into a line and keep two edge lines each, 1.05-1.1x). Staging a block's
  // rows to stream them as one span ran slower.
  // Rows that start or end inside a line stream only from three times the threshold: on an Intel
  // Xeon with a 480 MiB L3 (2 threads, alternating builds), 256-byte rows into numpy's out= (16
  // bytes into a line) ran 2.0-2.4 ms streamed and 1.34-1.37 stored normally (torch 1.37-1.43;
  // 128- to 320-byte rows alike, outputs of 16-40 MiB), but 400- and 800-byte rows into 51 and
  // 100 MiB ran 1.2-1.3x faster streamed. Whole-line rows stream from the threshold (on par there).
  const std::uint64_t out_bytes = static_cast<std::uint64_t>(g.outer.count() * M) * rb;
  const bool stream = far && dense_rows && rb >= 128 && g.inner.inner_st(1) == static_cast<std::int64_t>(W) &&
                      out_bytes >= stream_threshold();
  const bool stream_edges = stream && out_bytes / 3 >= stream_threshold();
  const auto move = [&](const std::byte* s, std::byte* d) {
    if (short_rows) copy_short(d, s, rb);
    else if (stream && (stream_edges || ((reinterpret_cast<std::uintptr_t>(d) | rb) & 63) == 0)) stream_bytes(d, s, rb);
    else copy_block<W>(g.inner, Q, s, d);
  };
  while (lo < hi) {
    const std::int64_t row = lo / M, i0 = lo % M, i1 = std::min(M, i0 + (hi - lo));
    std::int64_t oin = 0, oout = 0;
    for_runs(g.outer, row, row + 1, [&](const std::array<std::int64_t, 2>& off, std::int64_t j0, std::int64_t) {
      oin = off[0] + j0 * g.outer.inner_st(0);
      oout = off[1] + j0 * g.outer.inner_st(1);
    });
    const std::byte* ib = in + oin;
    std::byte* ob = out + oout;
    if (Q == 1 && (a == static_cast<std::int64_t>(W) || a == -static_cast<std::int64_t>(W)) && N * W <= 64 * 1024 &&
        row + 1 < g.outer.count() && hi - lo > M - i0) {
      // the next input row is read in index order (random): prefetch it while this one runs
      for_runs(g.outer, row + 1, row + 2, [&](const std::array<std::int64_t, 2>& off, std::int64_t j0, std::int64_t) {
        const std::byte* nr = in + off[0] + j0 * g.outer.inner_st(0) + (a < 0 ? (N - 1) * a : 0);
        for (std::int64_t b = 0; b < N * static_cast<std::int64_t>(W); b += 64) prefetch(nr + b);
      });
    }
    for_runs(g.index, i0, i1, [&](const std::array<std::int64_t, 2>& off, std::int64_t j0, std::int64_t j1) {
      const std::byte* x = idx + off[0];
      std::byte* o = ob + off[1];
      if (far) {
        const auto source = [&](std::int64_t j) {
          const std::int64_t at = read_index(load<I>(x + j * xi), N) * a;
          for (std::int64_t b = 0; b < pf; b += 64) prefetch(ib + at + b);
          if (pf > 64) prefetch(ib + at + pf - 1);
          return at;
        };
        in_blocks(j0, j1, block, source, [&](std::int64_t j, std::int64_t at) { move(ib + at, o + j * xo); });
      } else if (Q == 1 && xi == static_cast<std::int64_t>(sizeof(I)) && xo == static_cast<std::int64_t>(W) &&
                 a == static_cast<std::int64_t>(W)) {  // dense: constant strides, scaled addressing
        for (std::int64_t j = j0; j < j1; ++j)
          store<T>(o + j * static_cast<std::int64_t>(W),
                   load<T>(ib + read_index(load<I>(x + j * static_cast<std::int64_t>(sizeof(I))), N) *
                                    static_cast<std::int64_t>(W)));
      } else if (Q == 1) {  // one element per index: a plain gather loop
        for (std::int64_t j = j0; j < j1; ++j)
          store<T>(o + j * xo, load<T>(ib + read_index(load<I>(x + j * xi), N) * a));
      } else {
        for (std::int64_t j = j0; j < j1; ++j) move(ib + read_index(load<I>(x + j * xi), N) * a, o + j * xo);
      }
    });
    lo += i1 - i0;
  }
  if (stream) store_fence();
}

/// Returns false when a component was out of range at its read (it then read position 0): the
/// step's check-at-read mode reports it (a fresh output, see index/fresh.hpp). LC: the tuple
/// length when fixed at compile time (2: points of a matrix, the common case, unrolled), else 0.
template <class I, std::size_t W, int LC>
bool tuple_gather_items(const TupleGatherGeom& g, const std::byte* in, const std::byte* idx, std::byte* out,
                        std::int64_t lo, std::int64_t hi) {
  const std::int64_t Q = g.slice.count();
  const int L = LC ? LC : g.L;
  // Each tuple is read and its source prefetched a block ahead of its copy (in_blocks).
  std::uint64_t bad = 0;
  const std::int64_t xs = g.tuples.inner_st(0), os = g.tuples.inner_st(1), is = g.tuples.inner_st(2);
  for_runs(g.tuples, lo, hi, [&](const std::array<std::int64_t, 3>& off, std::int64_t j0, std::int64_t j1) {
    in_blocks(
        j0, j1, kBlock,
        [&](std::int64_t j) {
          const std::byte* x = idx + off[0] + j * xs;
          std::int64_t s = off[2] + j * is;
          for (int c = 0; c < L; ++c) {
            const auto uc = static_cast<std::size_t>(c);
            const std::uint64_t u = index_pos(load<I>(x + c * g.comp_st), g.bound[uc]);
            const bool in_range = u < static_cast<std::uint64_t>(g.bound[uc]);
            bad |= in_range ? 0u : 1u;
            s += (in_range ? static_cast<std::int64_t>(u) : 0) * g.in_st[uc];
          }
          prefetch(in + s);
          return s;
        },
        [&](std::int64_t j, std::int64_t s) { copy_block<W>(g.slice, Q, in + s, out + off[1] + j * os); });
  });
  return bad == 0;
}

using TakeFn = void (*)(const TakeGeom&, const std::byte*, const std::byte*, std::byte*, std::int64_t, std::int64_t);
using TupleGatherFn = bool (*)(const TupleGatherGeom&, const std::byte*, const std::byte*, std::byte*, std::int64_t,
                               std::int64_t);

class TakeStep final : public KernelStep {
 public:
  TakeStep(const TakeGeom& g, TakeFn fn, IndexCheckSpec check, const View& out, const View& in, const View& idx)
      : KernelStep(out, {&in, &idx}), g_(g), fn_(fn), check_(std::move(check)) {}
  void check(const ExecContext& c) const override { check_indices(check_, c); }
  Work work(const ExecContext&) const override {
    const std::int64_t items = g_.outer.count() * g_.index.count();
    return {items, 1,
            static_cast<std::uint64_t>(items) *
                (itemsize(g_.idx_dtype) + 2 * itemsize(g_.dtype) * static_cast<std::uint64_t>(g_.inner.count()))};
  }
  void part(const ExecContext& c, std::int64_t lo, std::int64_t hi) const override {
    fn_(g_, g_.in.in_ptr(c), g_.idx.in_ptr(c), g_.out.out_ptr(c), lo, hi);
  }

 private:
  TakeGeom g_;
  TakeFn fn_;
  IndexCheckSpec check_;
};

class TupleGatherStep final : public Step {
 public:
  TupleGatherStep(const TupleGatherGeom& g, TupleGatherFn fn, IndexCheckSpec check)
      : g_(g), fn_(fn), check_(std::move(check)) {}
  void check(const ExecContext& c) const override {
    // A fresh output: each tuple is checked at its one read in run(), a failure reported after
    // the writes (the output is dropped). Otherwise all are checked before the first write.
    // check() and run() of a call run on its thread, inside the same scope.
    if (!fresh_outputs()) check_indices(check_, c);
  }
  void run(const ExecContext& c) const override {
    const std::byte* in = g_.in.in_ptr(c);
    const std::byte* idx = g_.idx.in_ptr(c);
    std::byte* out = g_.out.out_ptr(c);
    const std::int64_t items = g_.tuples.count();
    const std::uint64_t bytes =
        static_cast<std::uint64_t>(items) * (static_cast<std::uint64_t>(g_.L) * itemsize(g_.idx_dtype) +
                                             2 * itemsize(g_.dtype) * static_cast<std::uint64_t>(g_.slice.count()));
    const int nt = threads_for_bytes(bytes, c.threads);
    if (!fresh_outputs()) {
      parallel_ranges(items, nt, 1, [&](std::int64_t lo, std::int64_t hi) { fn_(g_, in, idx, out, lo, hi); });
      return;
    }
    constexpr int kMaxParts = 64;  // per part, not per thread: any team gives the same answer
    const int np = nt > 1 ? std::min(4 * nt, kMaxParts) : 1;
    std::array<bool, kMaxParts> ok{};
    ok.fill(true);
    parallel_parts(items, np, nt, 1, [&](int part, std::int64_t lo, std::int64_t hi) {
      ok[static_cast<std::size_t>(part)] = fn_(g_, in, idx, out, lo, hi);
    });
    for (int p = 0; p < np; ++p)
      if (!ok[static_cast<std::size_t>(p)]) {
        check_indices(check_, c);  // throws, naming the first bad index
        throw IndexError(check_.name + ": an index was out of range when read and in range when read again "
                                       "(the indices changed during the call)");
      }
  }

 private:
  TupleGatherGeom g_;
  TupleGatherFn fn_;
  IndexCheckSpec check_;
};

}  // namespace

std::unique_ptr<const Step> make_take_step(const TakeGeom& g, IndexCheckSpec check, const View& out, const View& in,
                                           const View& idx) {
  const TakeFn fn = dispatch_index(g.idx_dtype, [&](auto itag) {
    using I = decltype(itag);
    return dispatch_width(itemsize(g.dtype), [&](auto w) -> TakeFn { return &gather_items<I, decltype(w)::value>; });
  });
  return std::make_unique<TakeStep>(g, fn, std::move(check), out, in, idx);
}

std::unique_ptr<const Step> make_tuple_gather_step(const TupleGatherGeom& g, IndexCheckSpec check) {
  const TupleGatherFn fn = dispatch_index(g.idx_dtype, [&](auto itag) {
    using I = decltype(itag);
    return dispatch_width(itemsize(g.dtype), [&](auto w) -> TupleGatherFn {
      return g.L == 2 ? &tuple_gather_items<I, decltype(w)::value, 2> : &tuple_gather_items<I, decltype(w)::value, 0>;
    });
  });
  return std::make_unique<TupleGatherStep>(g, fn, std::move(check));
}

}  // namespace strided::detail::index
