// The engine's one loop nest: dimensions with a byte stride per operand (Walk), the odometer that
// walks it (Cursor) and runs of its innermost dimension (for_runs). The copy planner keeps its
// outer loops in a Walk<2> (source, destination); the index family and the generate steps build
// Walks of 1-3 operands.
#pragma once
#ifdef STRIDED_ISA_TU
#error "a per-ISA translation unit must not include plan/nest.hpp (inline templates; see scripts/check_isa_symbols.sh)"
#endif
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "util/checked.hpp"

namespace strided::detail {

/// Dimensions a Walk holds by default: a description has at most 8 and Gather's functional form
/// pads to a common count. The copy planner's outer loops hold up to 62 (kMaxPlanLoop).
inline constexpr int kMaxLoop = 16;
inline constexpr int kMaxPlanLoop = 64;

/// A loop nest over `n` (at most N) dimensions with byte strides for K operands, outermost first.
/// N is a parameter rather than one large bound so that the index kernels' stack frames, which
/// hold Cursors, stay as they were (frames 384 bytes larger moved one_hot's streamed kernel by up to
/// 1.2x at 2 threads on the development machine, with the same machine code).
template <int K, int N = kMaxLoop>
struct Walk {
  int n = 0;
  std::array<std::int64_t, N> size{};
  std::array<std::array<std::int64_t, N>, K> st{};

  void push(std::int64_t s, const std::array<std::int64_t, K>& strides) {
    size[static_cast<std::size_t>(n)] = s;
    for (int k = 0; k < K; ++k)
      st[static_cast<std::size_t>(k)][static_cast<std::size_t>(n)] = strides[static_cast<std::size_t>(k)];
    ++n;
  }
  std::int64_t count() const noexcept {
    std::int64_t c = 1;
    for (int i = 0; i < n; ++i) c *= size[static_cast<std::size_t>(i)];
    return c;
  }
  std::int64_t inner_size() const noexcept { return n ? size[static_cast<std::size_t>(n - 1)] : 1; }
  std::int64_t inner_st(int k) const noexcept {
    return n ? st[static_cast<std::size_t>(k)][static_cast<std::size_t>(n - 1)] : 0;
  }
  /// Drops size-1 dimensions and merges neighbours that are contiguous for every operand;
  /// keeps at least one dimension so inner_size()/inner_st() are always meaningful. A walk with
  /// a zero-size dimension is left as it is (it runs nothing).
  void coalesce() {
    for (int i = 0; i < n; ++i)
      if (size[static_cast<std::size_t>(i)] == 0) return;
    Walk out;
    for (int i = 0; i < n; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      if (size[ui] == 1) continue;
      if (out.n > 0) {
        const auto last = static_cast<std::size_t>(out.n - 1);
        bool mergeable = true;
        for (std::size_t k = 0; k < static_cast<std::size_t>(K); ++k)
          if (!nests(out.st[k][last], st[k][ui], size[ui])) mergeable = false;
        if (mergeable) {
          out.size[last] *= size[ui];
          for (std::size_t k = 0; k < static_cast<std::size_t>(K); ++k) out.st[k][last] = st[k][ui];
          continue;
        }
      }
      std::array<std::int64_t, K> s{};
      for (std::size_t k = 0; k < static_cast<std::size_t>(K); ++k) s[k] = st[k][ui];
      out.push(size[ui], s);
    }
    if (out.n == 0) out.push(1, std::array<std::int64_t, K>{});
    *this = out;
  }
};

/// Odometer over the dimensions of a Walk but its `free` innermost ones (1: for_runs hands the
/// innermost to its caller; 0: every dimension, as the copy planner's outer loops), with each
/// operand's byte offset.
template <int K, int N = kMaxLoop>
struct Cursor {
  const Walk<K, N>& w;
  int top;                          // dimensions [0, top) are counted
  std::array<std::int64_t, N> pos;  // set by seek() for [0, top)
  std::array<std::int64_t, K> off{};

  explicit Cursor(const Walk<K, N>& walk, int free = 1) : w(walk), top(std::max(0, walk.n - free)) {}
  /// Positions the cursor at position `row` (row-major over dimensions 0..top-1).
  void seek(std::int64_t row) noexcept {
    off.fill(0);
    for (int i = top - 1; i >= 0; --i) {
      const auto ui = static_cast<std::size_t>(i);
      pos[ui] = row % w.size[ui];
      row /= w.size[ui];
      for (std::size_t k = 0; k < static_cast<std::size_t>(K); ++k) off[k] += pos[ui] * w.st[k][ui];
    }
  }
  void next() noexcept {
    for (int i = top - 1; i >= 0; --i) {
      const auto ui = static_cast<std::size_t>(i);
      if (++pos[ui] < w.size[ui]) {
        for (std::size_t k = 0; k < static_cast<std::size_t>(K); ++k) off[k] += w.st[k][ui];
        return;
      }
      pos[ui] = 0;
      for (std::size_t k = 0; k < static_cast<std::size_t>(K); ++k) off[k] -= (w.size[ui] - 1) * w.st[k][ui];
    }
  }
};

/// Calls f(offsets, j0, j1) for every run [j0, j1) of the innermost dimension that covers the
/// linear (row-major) positions [lo, hi) of `w`; offsets are those of the run's row.
template <int K, int N, class F>
inline void for_runs(const Walk<K, N>& w, std::int64_t lo, std::int64_t hi, F&& f) {
  if (lo >= hi) return;
  const std::int64_t J = w.inner_size();
  Cursor<K, N> c(w);
  c.seek(lo / J);
  std::int64_t j0 = lo % J;
  while (lo < hi) {
    const std::int64_t j1 = std::min(J, j0 + (hi - lo));
    f(static_cast<const std::array<std::int64_t, K>&>(c.off), j0, j1);
    lo += j1 - j0;
    j0 = 0;
    c.next();
  }
}

}  // namespace strided::detail
