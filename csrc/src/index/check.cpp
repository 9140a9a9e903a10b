// The index range check: a min/max pass over every index value (vectorisable, split over
// threads for large tensors), and only when it fails a row-major scan for the first bad value.
#include <limits>
#include <string>

#include "index/steps.hpp"
#include "kernels/index_kernels.hpp"
#include "runtime/simd.hpp"
#include "strided/error.hpp"

namespace strided::detail::index {
namespace {

template <class I>
bool in_range(I v, std::int64_t bound) noexcept {
  if constexpr (std::is_signed_v<I>) {
    const auto t = static_cast<std::int64_t>(v);
    return t >= -bound && t < bound;
  } else {
    return static_cast<std::uint64_t>(v) < static_cast<std::uint64_t>(bound);
  }
}

struct MinMax {
  std::array<std::int64_t, kMaxLoop> mn;   // signed types
  std::array<std::uint64_t, kMaxLoop> mx;  // as unsigned bits for unsigned types, signed otherwise
};

// `table`: the active kernel table's pass for I (big checks), else null (this file's copy).
template <class I>
void minmax_run(const std::byte* p, std::int64_t n, std::int64_t st, I& mn, I& mx, MinMaxKernel table) noexcept {
  if (st == static_cast<std::int64_t>(sizeof(I))) {
    if (table) table(p, n, &mn, &mx);
    else minmax_body<I>(p, n, mn, mx);
    return;
  }
  I lo = mn, hi = mx;
  for (std::int64_t j = 0; j < n; ++j) {
    const I v = load<I>(p + j * st);
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  mn = lo;
  mx = hi;
}

// Plain appends, no iostreams: error paths must not depend on locale machinery (an
// ostringstream here crashed in a g++ 13 build; see the issue log).
[[noreturn]] void report(const IndexCheckSpec& s, const std::vector<std::int64_t>& pos, std::int64_t value_s,
                         std::uint64_t value_u, bool is_signed, std::size_t comp) {
  std::string m = s.name;
  m += '[';
  for (std::size_t d = static_cast<std::size_t>(s.skip_leading); d < pos.size(); ++d) {
    if (d > static_cast<std::size_t>(s.skip_leading)) m += ", ";
    m += std::to_string(pos[d]);
  }
  m += "] = ";
  m += is_signed ? std::to_string(value_s) : std::to_string(value_u);
  m += ": out of range [";  // what the check accepts: from -size for signed index types
  m += std::to_string(is_signed ? -s.bound[comp] : 0);
  m += ", ";
  m += std::to_string(s.bound[comp]);
  m += ") for axis ";
  m += std::to_string(s.axis[comp]);
  throw IndexError(m);
}

template <class I>
void check_typed(const IndexCheckSpec& s, const std::byte* base, int threads) {
  const int nd = static_cast<int>(s.sizes.size());
  const std::size_t C = s.comp_dim >= 0 ? static_cast<std::size_t>(s.sizes[static_cast<std::size_t>(s.comp_dim)]) : 1;
  const std::int64_t cst = s.comp_dim >= 0 ? s.strides[static_cast<std::size_t>(s.comp_dim)] : 0;
  Walk<1> w;
  for (int d = 0; d < nd; ++d)
    if (d != s.comp_dim) w.push(s.sizes[static_cast<std::size_t>(d)], {s.strides[static_cast<std::size_t>(d)]});
  w.coalesce();
  const std::int64_t total = w.count();
  if (total == 0 || C == 0) return;
  // Big checks take the kernel table's pass (vectorised for the CPU's SIMD target).
  const MinMaxKernel table =
      total * static_cast<std::int64_t>(C) >= 4096 ? active_kernels().minmax[static_cast<int>(s.dtype)] : nullptr;

  // Partial min/max per part (not per thread: the OpenMP runtime may grant a smaller team),
  // combined afterwards; min/max are exact, so any split gives the same answer.
  const std::uint64_t bytes = static_cast<std::uint64_t>(total) * C * sizeof(I);
  constexpr int kMaxParts = 64;  // partial results live on the stack: no allocation per call
  const int nt = threads_for_bytes(bytes, threads);
  const int np = nt > 1 ? std::min(4 * nt, kMaxParts) : 1;
  std::array<std::array<I, kMaxLoop>, kMaxParts> lo, hi;
  for (std::size_t t = 0; t < static_cast<std::size_t>(np); ++t) {
    lo[t].fill(std::numeric_limits<I>::max());
    hi[t].fill(std::numeric_limits<I>::lowest());
  }
  parallel_parts(total, np, nt, 1, [&](int part, std::int64_t a, std::int64_t b) {
    auto& L = lo[static_cast<std::size_t>(part)];
    auto& H = hi[static_cast<std::size_t>(part)];
    for_runs(w, a, b, [&](const std::array<std::int64_t, 1>& off, std::int64_t j0, std::int64_t j1) {
      const std::int64_t st = w.inner_st(0);
      for (std::size_t c = 0; c < C; ++c)
        minmax_run<I>(base + off[0] + j0 * st + static_cast<std::int64_t>(c) * cst, j1 - j0, st, L[c], H[c], table);
    });
  });
  bool ok = true;
  for (std::size_t c = 0; c < C; ++c) {
    I mn = std::numeric_limits<I>::max(), mx = std::numeric_limits<I>::lowest();
    for (std::size_t t = 0; t < static_cast<std::size_t>(np); ++t) {
      mn = std::min(mn, lo[t][c]);
      mx = std::max(mx, hi[t][c]);
    }
    if (!in_range<I>(mn, s.bound[c]) || !in_range<I>(mx, s.bound[c])) ok = false;
  }
  if (ok) return;

  // Slow path: the first bad index in row-major order of the indices view.
  std::vector<std::int64_t> pos(static_cast<std::size_t>(nd), 0);
  for (;;) {
    std::int64_t off = 0;
    for (int d = 0; d < nd; ++d) off += pos[static_cast<std::size_t>(d)] * s.strides[static_cast<std::size_t>(d)];
    const I v = load<I>(base + off);
    const std::size_t c = s.comp_dim >= 0 ? static_cast<std::size_t>(pos[static_cast<std::size_t>(s.comp_dim)]) : 0;
    if (!in_range<I>(v, s.bound[c]))
      report(s, pos, static_cast<std::int64_t>(v), static_cast<std::uint64_t>(v), std::is_signed_v<I>, c);
    int d = nd - 1;
    for (; d >= 0; --d) {
      const auto ud = static_cast<std::size_t>(d);
      if (++pos[ud] < s.sizes[ud]) break;
      pos[ud] = 0;
    }
    if (d < 0) break;
  }
}

template <class I, class U>
void narrow_typed(const IndexCheckSpec& s, const std::byte* base, std::int64_t count, U* dst, int threads) {
  // Big passes take the kernel table's (vectorised for the CPU's SIMD target).
  const NarrowKernel table =
      count >= 4096 ? active_kernels().narrow[static_cast<int>(s.dtype)][sizeof(U) == 4] : nullptr;
  constexpr int kMaxParts = 64;
  const int nt = threads_for_bytes(static_cast<std::uint64_t>(count) * sizeof(I), threads);
  const int np = nt > 1 ? std::min(4 * nt, kMaxParts) : 1;
  std::array<bool, kMaxParts> ok{};
  ok.fill(true);  // parts past the end of a short range never run
  parallel_parts(count, np, nt, 64, [&](int part, std::int64_t a, std::int64_t b) {
    const std::byte* p = base + a * static_cast<std::int64_t>(sizeof(I));
    ok[static_cast<std::size_t>(part)] =
        table ? table(p, b - a, s.bound[0], dst + a) : narrow_body<I, U>(p, b - a, s.bound[0], dst + a);
  });
  for (int t = 0; t < np; ++t)
    if (!ok[static_cast<std::size_t>(t)]) {
      check_typed<I>(s, base, threads);  // throws, naming the first bad one
      // The narrowing pass saw a bad value that the scan no longer sees: another thread changed
      // the indices during the call. The result is unspecified then; refuse the scratch.
      throw IndexError(s.name + ": an index was out of range when read and in range when read again "
                                "(the indices changed during the call)");
    }
}

}  // namespace

void check_and_narrow(const IndexCheckSpec& spec, const ExecContext& c, std::int64_t count, int width, std::byte* dst) {
  const std::byte* base = spec.where.in_ptr(c);
  dispatch_index(spec.dtype, [&](auto tag) {
    using I = decltype(tag);
    if (width == 2) narrow_typed<I>(spec, base, count, reinterpret_cast<std::uint16_t*>(dst), c.threads);
    else narrow_typed<I>(spec, base, count, reinterpret_cast<std::uint32_t*>(dst), c.threads);
  });
}

void check_indices(const IndexCheckSpec& spec, const ExecContext& c) {
  const std::byte* base = spec.where.in_ptr(c);
  dispatch_index(spec.dtype, [&](auto tag) { check_typed<decltype(tag)>(spec, base, c.threads); });
}

}  // namespace strided::detail::index
