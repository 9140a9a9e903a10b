// ScatterElements and GatherElements. The work is split over the non-axis positions ("lines"):
// a thread owns whole lines, and walks each line's indices in order, so duplicates are combined
// by one thread in row-major order and results do not depend on the thread count. When the axis
// is not the innermost dimension, `tile` neighbouring lines are walked together (for k: for j in
// tile), which keeps the touched band of the target (N x tile elements) in cache and reads the
// indices/updates in contiguous runs. Scatter copies its input into each band just before
// scattering into it, so the copy costs no extra pass over memory.
#include <atomic>

#include "util/bits.hpp"
#if defined(STRIDED_SSE2) && (defined(__x86_64__) || defined(_M_X64))
#include <emmintrin.h>
#endif
#include <vector>

#include "index/fresh.hpp"
#include "index/steps.hpp"
#include "plan/copy_plan.hpp"
#include "runtime/simd.hpp"
#include "strided/error.hpp"

namespace strided::detail::index {
namespace {

/// Per-thread scratch for packed bands, kept between calls (OpenMP threads persist).
std::byte* scratch(std::size_t bytes) {
  thread_local std::vector<std::uint64_t> buf;
  if (buf.size() * 8 < bytes) buf.resize((bytes + 7) / 8);
  return reinterpret_cast<std::byte*>(buf.data());
}

/// Prefetches the `bytes` at p (a band row `kAhead` rows ahead): band rows are far apart, so the
/// hardware prefetchers, which follow streams within a page, do not fetch them.
constexpr std::int64_t kAhead = 16;
inline void prefetch_run(const std::byte* p, std::int64_t bytes) noexcept {
  for (std::int64_t b = 0; b < bytes; b += 64) prefetch(p + b);
  prefetch(p + bytes - 1);
}

/// Prefetches the target line [p, p + (n-1)*stride] when it is dense and small: its elements
/// are then read in random order, which the hardware prefetchers cannot follow.
inline void prefetch_line(const std::byte* p, std::int64_t n, std::int64_t stride, std::int64_t width) noexcept {
  const std::int64_t a = stride < 0 ? -stride : stride;
  if (a != width || n * a > 64 * 1024) return;
  prefetch_run(stride < 0 ? p + (n - 1) * stride : p, n * a);
}

/// Runs piece(k0, n) over [0, K) in pieces, the prefetches of the next target line (`next`, dense,
/// `bytes` long) spread over them, 8 lines per piece (as scatter_lines does): issued all at once,
/// they queue on the few miss buffers ahead of the index stream's. AMD Zen 2, same process A/B,
/// gather_elements along the last axis of 2048x4096, 1 / 2 threads: float32 int64 new result
/// 16-17 -> 11-13 / 9.3-11 -> 6.5-7.7 ms, out= 20-21 -> 16-17 / 11.6-12.8 -> 9.0-10 ms, int32
/// indices 1.3-1.5x, float64 1.5x; 4 pieces or 16 ran no better.
template <class F>
inline void spread_prefetch(const std::byte* next, std::int64_t bytes, std::int64_t K, F&& piece) {
  const std::int64_t L = (bytes + 63) / 64;
  if (!next || bytes > 64 * 1024 || K < 2 * L) {
    if (next) prefetch_line(next, bytes, 1, 1);
    piece(std::int64_t{0}, K);
    return;
  }
  constexpr std::int64_t G = 8;
  const std::int64_t b = K * G / L / 16 * 16;  // 16 elements: whole lines of 4- and 8-byte output
  prefetch(next + bytes - 1);  // an unaligned line's last cache line
  std::int64_t k0 = 0;
  for (std::int64_t l = 0; l < L; l += G) {
    for (std::int64_t q = l; q < l + G && q < L; ++q) prefetch(next + q * 64);
    const std::int64_t n = l + G >= L ? K - k0 : std::min(b, K - k0);
    piece(k0, n);
    k0 += n;
  }
}

/// Copies a band (N rows of wd elements; rows `rs` bytes apart, elements `es`) into the packed
/// scratch s, row n at s + n * wd elements.
template <class T>
void pack_band(std::byte* s, const std::byte* from, std::int64_t rs, std::int64_t es, std::int64_t N,
               std::int64_t wd) noexcept {
  constexpr auto E = static_cast<std::int64_t>(sizeof(T));
  for (std::int64_t n = 0; n < N; ++n) {
    const std::byte* f = from + n * rs;
    if (n + kAhead < N) prefetch_run(f + kAhead * rs, wd * es);
    std::byte* d = s + n * wd * E;
    for (std::int64_t j = 0; j < wd; ++j) store<T>(d + j * E, load<T>(f + j * es));
  }
}

using GatherElemFn = void (*)(const ElementsGeom&, const std::byte* idx, std::byte* out, const std::byte* in,
                              std::int64_t lo, std::int64_t hi, bool stream);

/// A store that bypasses the caches (x86 MOVNTI) for 4- and 8-byte elements: a large gather
/// result is written once and not read back soon, and a plain store would first read each
/// line. Other widths and CPUs store normally. The caller ends with stream_fence().
template <class T>
inline void stream_store(std::byte* p, T v) noexcept {
#if defined(STRIDED_SSE2) && (defined(__x86_64__) || defined(_M_X64))
  if constexpr (sizeof(T) == 4) {
    _mm_stream_si32(reinterpret_cast<int*>(p), static_cast<int>(v));
    return;
  } else if constexpr (sizeof(T) == 8) {
    _mm_stream_si64(reinterpret_cast<long long*>(p), static_cast<long long>(v));
    return;
  }
#endif
  store<T>(p, v);
}
inline void stream_fence() noexcept {
#if defined(STRIDED_SSE2) && (defined(__x86_64__) || defined(_M_X64))
  _mm_sfence();  // streaming stores are weakly ordered: publish them before the threads join
#endif
}

/// The position of index value v. Trusted: v comes from the private copy that the narrowing
/// check wrote after checking that very value (no other thread can reach it), so it is used as
/// it is; otherwise it is checked here, at the read whose value is used (index_pos/read_index).
template <bool Trusted, class I>
inline std::uint64_t pos_at(I v, std::int64_t n) noexcept {
  if constexpr (Trusted) return static_cast<std::uint64_t>(v);
  else return index_pos(v, n);
}
template <bool Trusted, class I>
inline std::int64_t read_at(I v, std::int64_t n) noexcept {
  if constexpr (Trusted) return static_cast<std::int64_t>(v);
  else return read_index(v, n);
}

/// dispatch_index for the kernels that run after check() has checked every index: UINT64 indices
/// are read as int64. A value the check passed is below the axis length (< 2^63) and reads the
/// same; one that another thread changed after the check still lands in [0, N) or is skipped
/// (index_pos + the range test). One instantiation fewer per index reader.
template <class F>
decltype(auto) dispatch_checked_index(DataType t, F&& f) {
  switch (t) {
    case DataType::INT32: return f(std::int32_t{});
    case DataType::UINT32: return f(std::uint32_t{});
    default: return f(std::int64_t{});  // INT64, UINT64
  }
}

// ---------------------------------------------------------------- scatter's index readers
// scatter_lines reads its indices through a reader: `each(p, stride, n, N, f)` calls f(k, pos)
// for the n indices at p, `stride` bytes apart, skipping a position >= N (only possible when
// another thread changed that index after the check: never written astray).
// - DirectIndex compiles the index type into the loop: the plain scatter and the float adds,
//   minima and maxima (kDirectOp: 13 ops x 4 index kinds) stay as tight as a copy.
// - ChunkedIndex reads 256 positions at a time through a function (one per index kind), then
//   applies them: the other 27 reductions are compiled once each instead of once per index kind
//   (with all 160 direct, this file took 51 s to compile at -O3 instead of 35, 135 s under ASan
//   at -O1 instead of 86).

/// Positions of n indices at p, `stride` bytes apart (see pos_at).
using PosFn = void (*)(const std::byte* p, std::int64_t stride, std::int64_t n, std::int64_t N, std::uint64_t* pos);
template <class I, bool Trusted>
void read_positions(const std::byte* p, std::int64_t stride, std::int64_t n, std::int64_t N,
                    std::uint64_t* pos) noexcept {
  for (std::int64_t k = 0; k < n; ++k) pos[k] = pos_at<Trusted>(load<I>(p + k * stride), N);
}

template <class I, bool Trusted>
struct DirectIndex {
  static constexpr auto kWidth = static_cast<std::int64_t>(sizeof(I));
  DirectIndex(PosFn, std::int64_t) noexcept {}
  std::int64_t width() const noexcept { return kWidth; }
  template <class F>
  void each(const std::byte* p, std::int64_t stride, std::int64_t n, std::int64_t N, F&& f) const {
    const auto uN = static_cast<std::uint64_t>(N);
    // Unrolled: the dense loop is 5 instructions, and ran 15% slower when its placement made it
    // cross a 64-byte line (GCC does not align it); four copies per turn amortise that.
    STRIDED_UNROLL4
    for (std::int64_t k = 0; k < n; ++k) {
      const std::uint64_t q = pos_at<Trusted>(load<I>(p + k * stride), N);
      if (!Trusted && q >= uN) continue;
      f(k, q);
    }
  }
  /// Dense indices: a constant stride, so the loop keeps scaled addressing.
  template <class F>
  void each_dense(const std::byte* p, std::int64_t n, std::int64_t N, F&& f) const {
    each(p, kWidth, n, N, std::forward<F>(f));
  }
};

struct ChunkedIndex {
  PosFn read;
  std::int64_t w;
  ChunkedIndex(PosFn r, std::int64_t width) noexcept : read(r), w(width) {}
  std::int64_t width() const noexcept { return w; }
  template <class F>
  void each(const std::byte* p, std::int64_t stride, std::int64_t n, std::int64_t N, F&& f) const {
    constexpr std::int64_t kChunk = 256;
    std::uint64_t pos[kChunk];
    const auto uN = static_cast<std::uint64_t>(N);
    for (std::int64_t k0 = 0; k0 < n; k0 += kChunk) {
      const std::int64_t m = std::min(kChunk, n - k0);
      read(p + k0 * stride, stride, m, N, pos);
      STRIDED_UNROLL4
      for (std::int64_t i = 0; i < m; ++i)
        if (pos[i] < uN) f(k0 + i, pos[i]);
    }
  }
  template <class F>
  void each_dense(const std::byte* p, std::int64_t n, std::int64_t N, F&& f) const {
    each(p, w, n, N, std::forward<F>(f));
  }
};

/// The ops compiled with DirectIndex: the plain scatter and the float adds, minima and maxima
/// (scatter_add and scatter_reduce's amin/amax; through ChunkedIndex, add ran 1.2x slower on 2
/// threads and max along an outer axis 1.2x); the 27 integer reductions and products are chunked.
template <class Op>
inline constexpr bool kDirectOp =
    is_op_none_v<Op> || std::is_same_v<Op, OpAdd<float>> || std::is_same_v<Op, OpAdd<double>> ||
    std::is_same_v<Op, OpHalfAdd> || std::is_same_v<Op, OpMin<float>> || std::is_same_v<Op, OpMin<double>> ||
    std::is_same_v<Op, OpMax<float>> || std::is_same_v<Op, OpMax<double>> || std::is_same_v<Op, OpHalfMin> ||
    std::is_same_v<Op, OpHalfMax>;

using ElemFn = void (*)(const ElementsGeom&, PosFn, const std::byte* idx, const std::byte* upd, std::byte* out,
                        const std::byte* in, std::int64_t lo, std::int64_t hi);
/// A scatter kernel and the index reader its ChunkedIndex calls (unused by DirectIndex).
struct ScatterKernel {
  ElemFn fn = nullptr;
  PosFn pos = nullptr;
};

template <class Op, class Index>
void scatter_lines(const ElementsGeom& g, PosFn read, const std::byte* idx, const std::byte* upd, std::byte* out,
                   const std::byte* in, std::int64_t lo, std::int64_t hi) {
  using T = typename Op::type;
  constexpr auto E = static_cast<std::int64_t>(sizeof(T));
  const Index ix(read, static_cast<std::int64_t>(itemsize(g.idx_dtype)));
  const std::int64_t K = g.K, N = g.N, tile = g.tile;
  const std::int64_t ai = g.ax[0], au = g.ax[1], ao = g.ax[2], an = g.ax[3];
  const std::int64_t ji = g.lines.inner_st(0), ju = g.lines.inner_st(1), jo = g.lines.inner_st(2),
                     jn = g.lines.inner_st(3);
  for_runs(g.lines, lo, hi, [&](const std::array<std::int64_t, 4>& off, std::int64_t j0, std::int64_t j1) {
    const std::byte* ib = idx + off[0];
    const std::byte* ub = upd + off[1];
    std::byte* ob = out + off[2];
    const std::byte* nb = in ? in + off[3] : nullptr;
    if (tile == 1) {
      for (std::int64_t j = j0; j < j1; ++j) {
        std::byte* ol = ob + j * jo;
        const bool dense = ai == ix.width() && au == E && ao == E;
        // Dense lines spread the next line's prefetches over this one's updates, one line per
        // K / L of them: L prefetches issued at once (256 for 4096 floats) queue on the few miss
        // buffers and hold up the stores behind them. Same process, 2048x4096: float32 1.27x
        // faster on 1 thread, 1.03-1.25x on 2 (256x4096: 1.3-1.4x); 2 threads, float64 1.3x,
        // reduction add 1.45x, int32 mul / max 1.07-1.14x, uint8 1.0x.
        const std::int64_t L = (N * E + 63) / 64;
        const bool spread = dense && !nb && j + 1 < j1 && N * E <= 64 * 1024 && K >= L;
        if (j + 1 < j1 && !spread) prefetch_line(ol + jo, N, ao, E);
        if (nb) {
          const std::byte* nl = nb + j * jn;
          for (std::int64_t n = 0; n < N; ++n) store<T>(ol + n * ao, load<T>(nl + n * an));
        }
        const std::byte* il = ib + j * ji;
        const std::byte* ul = ub + j * ju;
        if (dense) {
          const auto run = [&](std::int64_t k0, std::int64_t n) {  // updates [k0, k0 + n)
            const std::byte* uk = ul + k0 * E;
            ix.each_dense(il + k0 * ix.width(), n, N, [&](std::int64_t k, std::uint64_t p) {
              std::byte* o = ol + static_cast<std::int64_t>(p) * E;
              store<T>(o, Op::apply(load<T>(o), load<T>(uk + k * E)));
            });
          };
          std::int64_t k0 = 0;
          if (spread) {
            const std::byte* next = ol + jo;
            for (std::int64_t l = 0, b = K / L; l < L; ++l, k0 += b) {
              prefetch(next + l * 64);
              run(k0, b);
            }
            prefetch(next + N * E - 1);
          }
          run(k0, K - k0);
          continue;
        }
        ix.each(il, ai, K, N, [&](std::int64_t k, std::uint64_t p) {
          std::byte* o = ol + static_cast<std::int64_t>(p) * ao;
          store<T>(o, Op::apply(load<T>(o), load<T>(ul + k * au)));
        });
      }
      return;
    }
    if (g.pack) {
      // Through a packed band: the band's rows may be a power of two apart (cache-set
      // conflicts, one TLB entry each); the packed copy sits in L2 at consecutive addresses.
      std::byte* s = scratch(static_cast<std::size_t>(N * tile) * sizeof(T));
      const std::byte* from = nb ? nb : ob;
      const std::int64_t af = nb ? an : ao, jf = nb ? jn : jo;
      for (std::int64_t jt = j0; jt < j1; jt += tile) {
        const std::int64_t je = std::min(j1, jt + tile), wd = je - jt;
        pack_band<T>(s, from + jt * jf, af, jf, N, wd);
        for (std::int64_t k = 0; k < K; ++k) {
          const std::byte* ik = ib + k * ai + jt * ji;
          const std::byte* uk = ub + k * au + jt * ju;
          if (k + kAhead < K) {
            prefetch_run(ik + kAhead * ai, wd * ji);
            prefetch_run(uk + kAhead * au, wd * ju);
          }
          ix.each(ik, ji, wd, N, [&](std::int64_t j, std::uint64_t p) {
            std::byte* o = s + (static_cast<std::int64_t>(p) * wd + j) * E;
            store<T>(o, Op::apply(load<T>(o), load<T>(uk + j * ju)));
          });
        }
        for (std::int64_t n = 0; n < N; ++n) {
          std::byte* d = ob + n * ao + jt * jo;
          if (n + kAhead < N) prefetch_run(d + kAhead * ao, wd * jo);
          const std::byte* f = s + n * wd * E;
          for (std::int64_t j = 0; j < wd; ++j) store<T>(d + j * jo, load<T>(f + j * E));
        }
      }
      return;
    }
    for (std::int64_t jt = j0; jt < j1; jt += tile) {
      const std::int64_t je = std::min(j1, jt + tile);
      if (nb)
        for (std::int64_t n = 0; n < N; ++n)
          for (std::int64_t j = jt; j < je; ++j) store<T>(ob + n * ao + j * jo, load<T>(nb + n * an + j * jn));
      for (std::int64_t k = 0; k < K; ++k) {
        const std::byte* ik = ib + k * ai + jt * ji;
        const std::byte* uk = ub + k * au + jt * ju;
        std::byte* ok = ob + jt * jo;
        ix.each(ik, ji, je - jt, N, [&](std::int64_t j, std::uint64_t p) {
          std::byte* o = ok + static_cast<std::int64_t>(p) * ao + j * jo;
          store<T>(o, Op::apply(load<T>(o), load<T>(uk + j * ju)));
        });
      }
    }
  });
}

/// The kernel table's check-at-read line gather for dense lines of K signed indices I into an
/// axis of N 4-byte elements, or null (other widths and index types, short lines, int32 indices
/// into an axis of 2^31 or more).
template <class I, std::size_t W>
GatherLineKernel checked_line_gather(std::int64_t K, std::int64_t N) {
  if constexpr (W == 4 && (std::is_same_v<I, std::int64_t> || std::is_same_v<I, std::int32_t>)) {
    if (K >= 16 && (sizeof(I) == 8 || N <= std::int64_t{0x7fffffff}))
      return active_kernels().gather_line[sizeof(I) == 8];
  }
  return nullptr;
}

template <class I, std::size_t W, bool Trusted>
void gather_lines(const ElementsGeom& g, const std::byte* idx, std::byte* out, const std::byte* in, std::int64_t lo,
                  std::int64_t hi, bool stream) {
  using T = uint_of_t<W>;
  const std::int64_t K = g.K, N = g.N, tile = g.tile;
  const std::int64_t ai = g.ax[0], ao = g.ax[1], an = g.ax[2];
  const std::int64_t ji = g.lines.inner_st(0), jo = g.lines.inner_st(1), jn = g.lines.inner_st(2);
  // Narrowed uint16 positions (trusted) and 4-byte elements: the kernel table's line gather.
  constexpr bool kVec = Trusted && W == 4 && std::is_same_v<I, std::uint16_t>;
  const GatherLineU16Kernel vec = kVec && K >= 16 ? active_kernels().gather_line_u16 : nullptr;
  // Indices check() passed but did not narrow (under the narrowing threshold, or not
  // C-contiguous): the check-at-read kernel, its verdict unneeded (an index another thread
  // changed since reads position 0, as read_index does). Same process, out= along the last
  // axis, 256 KiB-1 MiB of float32, 1-2 threads: int64 indices 1.48-1.57x faster, int32
  // 1.35-1.43x.
  const GatherLineKernel cvec = Trusted ? nullptr : checked_line_gather<I, W>(K, N);
  for_runs(g.lines, lo, hi, [&](const std::array<std::int64_t, 4>& off, std::int64_t j0, std::int64_t j1) {
    const std::byte* ib = idx + off[0];
    std::byte* ob = out + off[1];
    const std::byte* nb = in + off[2];
    if (tile == 1) {
      for (std::int64_t j = j0; j < j1; ++j) {
        const std::byte* il = ib + j * ji;
        std::byte* ol = ob + j * jo;
        const std::byte* nl = nb + j * jn;
        constexpr auto E = static_cast<std::int64_t>(W), EI = static_cast<std::int64_t>(sizeof(I));
        if (ai == EI && ao == E && an == E) {  // dense lines: constant strides, scaled addressing
          spread_prefetch(j + 1 < j1 ? nl + jn : nullptr, N * E, K, [&](std::int64_t k0, std::int64_t n) {
            const std::byte* ik = il + k0 * EI;
            std::byte* ok = ol + k0 * E;
            if constexpr (kVec) {
              if (vec) return vec(ik, nl, ok, n, stream);
            }
            if (cvec) {
              cvec(ik, nl, ok, n, N, stream);
              return;
            }
            auto value = [&](std::int64_t k) { return load<T>(nl + read_at<Trusted>(load<I>(ik + k * EI), N) * E); };
            if (stream) {
              for (std::int64_t k = 0; k < n; ++k) stream_store<T>(ok + k * E, value(k));
            } else {
              for (std::int64_t k = 0; k < n; ++k) store<T>(ok + k * E, value(k));
            }
          });
          continue;
        }
        if (j + 1 < j1) prefetch_line(nl + jn, N, an, E);
        for (std::int64_t k = 0; k < K; ++k)
          store<T>(ol + k * ao, load<T>(nl + read_at<Trusted>(load<I>(il + k * ai), N) * an));
      }
      return;
    }
    if (g.pack) {  // see scatter_lines
      std::byte* s = scratch(static_cast<std::size_t>(N * tile) * W);
      constexpr auto E = static_cast<std::int64_t>(W);
      for (std::int64_t jt = j0; jt < j1; jt += tile) {
        const std::int64_t je = std::min(j1, jt + tile), wd = je - jt;
        pack_band<T>(s, nb + jt * jn, an, jn, N, wd);
        for (std::int64_t k = 0; k < K; ++k) {
          const std::byte* ik = ib + k * ai + jt * ji;
          std::byte* ok = ob + k * ao + jt * jo;
          if (k + kAhead < K) {
            prefetch_run(ik + kAhead * ai, wd * ji);
            if (!stream) prefetch_run(ok + kAhead * ao, wd * jo);
          }
          if (stream && jo == E) {
            for (std::int64_t j = 0; j < wd; ++j)
              stream_store<T>(ok + j * E, load<T>(s + (read_at<Trusted>(load<I>(ik + j * ji), N) * wd + j) * E));
            continue;
          }
          for (std::int64_t j = 0; j < wd; ++j)
            store<T>(ok + j * jo, load<T>(s + (read_at<Trusted>(load<I>(ik + j * ji), N) * wd + j) * E));
        }
      }
      return;
    }
    for (std::int64_t jt = j0; jt < j1; jt += tile) {
      const std::int64_t je = std::min(j1, jt + tile);
      for (std::int64_t k = 0; k < K; ++k) {
        const std::byte* ik = ib + k * ai;
        std::byte* ok = ob + k * ao;
        for (std::int64_t j = jt; j < je; ++j)
          store<T>(ok + j * jo, load<T>(nb + read_at<Trusted>(load<I>(ik + j * ji), N) * an + j * jn));
      }
    }
  });
}

/// gather_lines for dense lines (tile 1) that checks each index at its one read instead of
/// trusting an earlier pass: a bad one reads position 0 and makes the result false (the caller
/// then reports it; the output is fresh, see index/fresh.hpp).
template <class I, std::size_t W>
bool gather_lines_checked(const ElementsGeom& g, const std::byte* idx, std::byte* out, const std::byte* in,
                          std::int64_t lo, std::int64_t hi, bool stream) {
  using T = uint_of_t<W>;
  constexpr auto E = static_cast<std::int64_t>(W), EI = static_cast<std::int64_t>(sizeof(I));
  const std::int64_t K = g.K, N = g.N;
  const auto uN = static_cast<std::uint64_t>(N);
  const std::int64_t ji = g.lines.inner_st(0), jo = g.lines.inner_st(1), jn = g.lines.inner_st(2);
  std::uint64_t bad = 0;
  const GatherLineKernel vec = checked_line_gather<I, W>(K, N);
  for_runs(g.lines, lo, hi, [&](const std::array<std::int64_t, 4>& off, std::int64_t j0, std::int64_t j1) {
    for (std::int64_t j = j0; j < j1; ++j) {
      const std::byte* il = idx + off[0] + j * ji;
      std::byte* ol = out + off[1] + j * jo;
      const std::byte* nl = in + off[2] + j * jn;
      spread_prefetch(j + 1 < j1 ? nl + jn : nullptr, N * E, K, [&](std::int64_t k0, std::int64_t n) {
        const std::byte* ik = il + k0 * EI;
        std::byte* ok = ol + k0 * E;
        if (vec) {
          bad |= vec(ik, nl, ok, n, N, stream) ? 0u : 1u;
          return;
        }
        std::uint64_t b = 0;
        auto value = [&](std::int64_t k) {
          const std::uint64_t u = index_pos(load<I>(ik + k * EI), N);
          b |= u >= uN ? 1u : 0u;
          return load<T>(nl + static_cast<std::int64_t>(u < uN ? u : 0) * E);
        };
        if (stream) {
          for (std::int64_t k = 0; k < n; ++k) stream_store<T>(ok + k * E, value(k));
        } else {
          for (std::int64_t k = 0; k < n; ++k) store<T>(ok + k * E, value(k));
        }
        bad |= b;
      });
    }
  });
  return bad == 0;
}
using CheckedGatherFn = bool (*)(const ElementsGeom&, const std::byte* idx, std::byte* out, const std::byte* in,
                                 std::int64_t lo, std::int64_t hi, bool stream);

int threads_for(const ElementsGeom& g, int max_threads, bool copy) {
  const std::uint64_t lines = static_cast<std::uint64_t>(g.lines.count());
  const std::uint64_t w = itemsize(g.dtype);
  std::uint64_t bytes = lines * static_cast<std::uint64_t>(g.K) * (itemsize(g.idx_dtype) + 2 * w);
  if (copy) bytes += lines * static_cast<std::uint64_t>(g.N) * 2 * w;
  return threads_for_bytes(bytes, max_threads);
}

// ---------------------------------------------------------------- narrowed indices
// Large index tensors are read twice (checked, then used). When they are C-contiguous and the
// axis is short, the check also writes them as uint16/uint32 to a per-thread scratch and the
// kernel reads that instead: for int64 indices and an axis of at most 65536, the second read
// moves a quarter of the bytes. The scratch is the calling thread's (check() and run() of one
// execution run there), kept between calls, at most kNarrowMax bytes.
constexpr std::int64_t kNarrowMax = std::int64_t{32} << 20;
std::atomic<std::int64_t> g_narrow_threshold{std::int64_t{4} << 20};

struct NarrowSlot {
  const void* owner = nullptr;  // the step whose check() filled buf for its next run()
  std::vector<std::uint64_t> buf;
};
thread_local NarrowSlot t_narrow;

/// The narrowed variant of a step: geometry with the scratch's strides, and its kernel.
template <class Fn>
struct Narrow {
  int width = 0;  // 2 or 4 bytes per index; 0: indices are used as they are
  std::int64_t count = 0;
  ElementsGeom g;
  Fn fn{};
};

template <class Fn, class MakeFn>
Narrow<Fn> make_narrow(const ElementsGeom& g, const IndexCheckSpec& c, MakeFn&& make_fn) {
  Narrow<Fn> r;
  const auto w = static_cast<std::int64_t>(itemsize(g.idx_dtype));
  const int width = g.N <= 65536 ? 2 : (g.N <= (std::int64_t{1} << 32) ? 4 : 0);
  if (width == 0 || width >= w) return r;
  std::int64_t expect = w, count = 1;  // C-contiguous (size-1 dimensions may have any stride)
  for (std::size_t d = c.sizes.size(); d-- > 0;) {
    if (c.sizes[d] != 1 && c.strides[d] != expect) return r;
    expect *= c.sizes[d];
    count *= c.sizes[d];
  }
  if (count * width > kNarrowMax) return r;
  r.g = g;
  // Every index stride is a multiple of w (or belongs to a size-1 dimension, never stepped).
  for (std::size_t i = 0; i < static_cast<std::size_t>(r.g.lines.n); ++i)
    r.g.lines.st[0][i] = g.lines.st[0][i] / w * width;
  r.g.ax[0] = g.ax[0] / w * width;
  r.g.where[0] = Operand{};
  r.g.idx_dtype = width == 2 ? DataType::UINT16 : DataType::UINT32;
  r.width = width;
  r.count = count;
  // uint32 positions go through the untrusted uint32 kernels (the same code plus one compare per
  // index, for axes over 65536 only): one set of instantiations fewer.
  r.fn = width == 2 ? make_fn(std::uint16_t{}, std::true_type{}) : make_fn(std::uint32_t{}, std::false_type{});
  return r;
}

/// check(): the plain check, or the narrowing one into this thread's scratch.
template <class Fn>
void check_maybe_narrow(const void* owner, const Narrow<Fn>& nw, const IndexCheckSpec& spec, const ExecContext& c) {
  if (t_narrow.owner == owner) t_narrow.owner = nullptr;
  if (nw.width == 0 || nw.count * static_cast<std::int64_t>(itemsize(spec.dtype)) < g_narrow_threshold.load()) {
    check_indices(spec, c);
    return;
  }
  const auto words = static_cast<std::size_t>((nw.count * nw.width + 7) / 8);
  if (t_narrow.buf.size() < words) t_narrow.buf.resize(words);
  check_and_narrow(spec, c, nw.count, nw.width, reinterpret_cast<std::byte*>(t_narrow.buf.data()));
  t_narrow.owner = owner;
}

/// run(): the narrowed geometry and kernel when check() filled the scratch for this step.
bool take_narrowed(const void* owner) {
  if (t_narrow.owner != owner) return false;
  t_narrow.owner = nullptr;
  return true;
}

class ScatterElementsStep final : public Step {
 public:
  ScatterElementsStep(const ElementsGeom& g, ScatterKernel fn, IndexCheckSpec check, Narrow<ScatterKernel> nw)
      : g_(g), fn_(fn), check_(std::move(check)), nw_(std::move(nw)) {}
  void check(const ExecContext& c) const override { check_maybe_narrow(this, nw_, check_, c); }
  void run(const ExecContext& c) const override {
    const bool narrowed = take_narrowed(this);
    const ElementsGeom& g = narrowed ? nw_.g : g_;
    const ScatterKernel& k = narrowed ? nw_.fn : fn_;
    const std::byte* idx = narrowed ? reinterpret_cast<const std::byte*>(t_narrow.buf.data()) : g_.where[0].in_ptr(c);
    const std::byte* upd = g_.where[1].in_ptr(c);
    std::byte* out = g_.where[2].out_ptr(c);
    const std::byte* in = g_.where[3].in_ptr(c);
    if (g_.same_view && in == out) in = nullptr;  // in place: the output already holds the input
    const int nt = threads_for(g, c.threads, in != nullptr);
    parallel_ranges(g.lines.count(), nt, g.tile,
                    [&](std::int64_t lo, std::int64_t hi) { k.fn(g, k.pos, idx, upd, out, in, lo, hi); });
  }

 private:
  ElementsGeom g_;
  ScatterKernel fn_;
  IndexCheckSpec check_;
  Narrow<ScatterKernel> nw_;
};

// ---------------------------------------------------------------- fresh results
thread_local bool t_fresh = false;

/// Whether a large result of naturally aligned 4/8-byte elements is streamed (see stream_store).
bool stream_result(const ElementsGeom& g, const std::byte* out) {
  const std::uint64_t w = itemsize(g.dtype);
  bool aligned = reinterpret_cast<std::uintptr_t>(out) % w == 0 && g.ax[1] % static_cast<std::int64_t>(w) == 0;
  for (std::size_t i = 0; i < static_cast<std::size_t>(g.lines.n); ++i)
    aligned = aligned && g.lines.st[1][i] % static_cast<std::int64_t>(w) == 0;
  return (w == 4 || w == 8) && aligned &&
         static_cast<std::uint64_t>(g.lines.count()) * static_cast<std::uint64_t>(g.K) * w >= stream_threshold();
}

class AxisGatherStep final : public Step {
 public:
  AxisGatherStep(const ElementsGeom& g, GatherElemFn fn, CheckedGatherFn checked, IndexCheckSpec check,
                 Narrow<GatherElemFn> nw)
      : g_(g), fn_(fn), checked_(checked), check_(std::move(check)), nw_(std::move(nw)) {}
  void check(const ExecContext& c) const override {
    // A fresh output: each index is checked at its one read in run(), a failure found after the
    // writes (the output is dropped). Otherwise every index is checked before the first write.
    // check() and run() of a call run on its thread, inside the same scope.
    if (checked_ && t_fresh) {
      if (t_narrow.owner == this) t_narrow.owner = nullptr;
      return;
    }
    check_maybe_narrow(this, nw_, check_, c);
  }
  void run(const ExecContext& c) const override {
    if (checked_ && t_fresh) {
      run_checked(c);
      return;
    }
    const bool narrowed = take_narrowed(this);
    const ElementsGeom& g = narrowed ? nw_.g : g_;
    const GatherElemFn fn = narrowed ? nw_.fn : fn_;
    const std::byte* idx = narrowed ? reinterpret_cast<const std::byte*>(t_narrow.buf.data()) : g_.where[0].in_ptr(c);
    std::byte* out = g_.where[1].out_ptr(c);
    const std::byte* in = g_.where[2].in_ptr(c);
    const int nt = threads_for(g, c.threads, false);
    const bool stream = stream_result(g, out);
    parallel_ranges(g.lines.count(), nt, g.tile, [&](std::int64_t lo, std::int64_t hi) {
      fn(g, idx, out, in, lo, hi, stream);
      if (stream) stream_fence();
    });
  }

 private:
  void run_checked(const ExecContext& c) const {
    const std::byte* idx = g_.where[0].in_ptr(c);
    std::byte* out = g_.where[1].out_ptr(c);
    const std::byte* in = g_.where[2].in_ptr(c);
    const int nt = threads_for(g_, c.threads, false);
    const bool stream = stream_result(g_, out);
    constexpr int kMaxParts = 64;  // per part, not per thread: any team gives the same answer
    const int np = nt > 1 ? std::min(4 * nt, kMaxParts) : 1;
    std::array<bool, kMaxParts> ok{};
    ok.fill(true);
    parallel_parts(g_.lines.count(), np, nt, 1, [&](int part, std::int64_t lo, std::int64_t hi) {
      ok[static_cast<std::size_t>(part)] = checked_(g_, idx, out, in, lo, hi, stream);
      if (stream) stream_fence();
    });
    for (int p = 0; p < np; ++p)
      if (!ok[static_cast<std::size_t>(p)]) {
        check_indices(check_, c);  // throws, naming the first bad index
        throw IndexError(check_.name + ": an index was out of range when read and in range when read again "
                                       "(the indices changed during the call)");
      }
  }

  ElementsGeom g_;
  GatherElemFn fn_;
  CheckedGatherFn checked_;
  IndexCheckSpec check_;
  Narrow<GatherElemFn> nw_;
};

}  // namespace

std::unique_ptr<const Step> make_axis_scatter_step(const ElementsGeom& g, ScatterReduction r, IndexCheckSpec check) {
  auto make_fn = [&](auto itag, auto trusted) {
    using I = decltype(itag);
    constexpr bool kTrusted = decltype(trusted)::value;
    ScatterKernel k;
    k.pos = &read_positions<I, kTrusted>;
    k.fn = dispatch_reduction(r, g.dtype, [](auto op) -> ElemFn {
      using Op = decltype(op);
      if constexpr (kDirectOp<Op>) return &scatter_lines<Op, DirectIndex<I, kTrusted>>;
      else return &scatter_lines<Op, ChunkedIndex>;
    });
    return k;
  };
  const ScatterKernel fn =
      dispatch_checked_index(g.idx_dtype, [&](auto itag) { return make_fn(itag, std::false_type{}); });
  auto nw = make_narrow<ScatterKernel>(g, check, make_fn);
  return std::make_unique<ScatterElementsStep>(g, fn, std::move(check), std::move(nw));
}

std::unique_ptr<const Step> make_axis_gather_step(const ElementsGeom& g, IndexCheckSpec check) {
  auto make_fn = [&](auto itag, auto trusted) {
    using I = decltype(itag);
    return dispatch_width(itemsize(g.dtype), [&](auto w) -> GatherElemFn {
      return &gather_lines<I, decltype(w)::value, decltype(trusted)::value>;
    });
  };
  const GatherElemFn fn =
      dispatch_checked_index(g.idx_dtype, [&](auto itag) { return make_fn(itag, std::false_type{}); });
  auto nw = make_narrow<GatherElemFn>(g, check, make_fn);
  CheckedGatherFn checked = nullptr;
  const auto w = static_cast<std::int64_t>(itemsize(g.dtype));
  if (g.tile == 1 && g.ax[0] == static_cast<std::int64_t>(itemsize(g.idx_dtype)) && g.ax[1] == w && g.ax[2] == w)
    checked = dispatch_index(g.idx_dtype, [&](auto itag) {
      return dispatch_width(itemsize(g.dtype), [&](auto wt) -> CheckedGatherFn {
        return &gather_lines_checked<decltype(itag), decltype(wt)::value>;
      });
    });
  return std::make_unique<AxisGatherStep>(g, fn, checked, std::move(check), std::move(nw));
}

FreshOutputScope::FreshOutputScope() noexcept : old_(t_fresh) { t_fresh = true; }
FreshOutputScope::~FreshOutputScope() { t_fresh = old_; }
bool fresh_outputs() noexcept { return t_fresh; }

void set_narrow_threshold(std::int64_t bytes) noexcept { g_narrow_threshold.store(bytes < 0 ? 0 : bytes); }
std::int64_t narrow_threshold() noexcept { return g_narrow_threshold.load(); }

}  // namespace strided::detail::index
