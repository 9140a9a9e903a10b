#include "exec/overlap.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include "util/checked.hpp"

namespace strided::detail {
namespace {

using u64 = std::uint64_t;

struct Term {
  u64 c, ub;  // coefficient (bytes) and bound: the variable runs over [0, ub]
};

// 8 dimensions and one width term per view, with room for the functional layer's padding.
constexpr std::size_t kMaxTerms = 40;

struct Span {
  u64 lo = 0, hi = 0;  // bytes [lo, hi)
  bool empty = false;
};

/// Adds a view's terms (strides made positive, base moved to its lowest byte); false on
/// overflow or too many terms.
bool terms_of(const std::byte* p, const Region& r, Span& s, std::array<Term, kMaxTerms>& t, std::size_t& n) {
  u64 base = reinterpret_cast<std::uintptr_t>(p) + static_cast<u64>(r.offset);
  u64 span = 0;
  for (std::size_t d = 0; d < r.sizes.size(); ++d) {
    const std::int64_t sz = r.sizes[d], st = r.strides[d];
    if (sz <= 0) {
      s.empty = true;
      return true;
    }
    if (sz == 1 || st == 0) continue;
    const u64 c = st < 0 ? u64{0} - static_cast<u64>(st) : static_cast<u64>(st);
    const u64 ub = static_cast<u64>(sz - 1);
    u64 reach;
    if (!checked_mul(c, ub, reach) || !checked_add(span, reach, span) || n == kMaxTerms) return false;
    if (st < 0) base -= reach;
    t[n++] = {c, ub};
  }
  if (r.width > 1) {
    if (n == kMaxTerms) return false;
    t[n++] = {1, static_cast<u64>(r.width - 1)};
  }
  s.lo = base;
  return checked_add(base, span, s.hi) && checked_add(s.hi, r.width, s.hi);
}

u64 gcd(u64 a, u64 b) {
  while (b) {
    const u64 r = a % b;
    a = b;
    b = r;
  }
  return a;
}

struct Search {
  const Term* t;
  std::size_t n;
  std::array<u64, kMaxTerms + 1> rest{};  // rest[k]: largest sum reachable by terms k..n-1
  std::array<u64, kMaxTerms + 1> g{};     // g[k]: gcd of the coefficients k..n-1
  std::int64_t work = 0, max_work = 0;
  bool gave_up = false;

  bool solve(std::size_t k, u64 target) {
    if (++work > max_work) {
      gave_up = true;
      return false;
    }
    if (k == n) return target == 0;
    if (target > rest[k] || target % g[k] != 0) return false;
    const u64 c = t[k].c;
    const u64 hi = std::min(t[k].ub, target / c);
    const u64 lo = target > rest[k + 1] ? (target - rest[k + 1] + c - 1) / c : 0;
    for (u64 x = hi + 1; x-- > lo;) {
      if (solve(k + 1, target - c * x)) return true;
      if (gave_up) return false;
    }
    return false;
  }
};

}  // namespace

Overlap region_overlap(const std::byte* pa, const Region& a, const std::byte* pb, const Region& b,
                       std::int64_t max_work) noexcept {
  std::array<Term, kMaxTerms> t;  // only the first n are used: no zeroing (order_steps calls this often)
  std::size_t n = 0;
  Span sa, sb;
  if (!terms_of(pa, a, sa, t, n)) return Overlap::kUnknown;
  if (!terms_of(pb, b, sb, t, n)) return Overlap::kUnknown;
  if (sa.empty || sb.empty || sa.hi <= sb.lo || sb.hi <= sa.lo) return Overlap::kNo;
  // a's byte sa.lo + X (X a sum of a's terms) equals b's byte sb.hi - 1 - Y (b's terms counted
  // down from its top): X + Y = sb.hi - 1 - sa.lo, every variable within its bound.
  const u64 target = sb.hi - 1 - sa.lo;
  // Merge equal coefficients, largest first: the search then fixes the coarse positions first
  // and the reachable-range bound leaves few candidates at each level.
  std::sort(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(n),
            [](const Term& x, const Term& y) { return x.c > y.c; });
  std::size_t m = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (m && t[m - 1].c == t[i].c) {
      if (!checked_add(t[m - 1].ub, t[i].ub, t[m - 1].ub)) return Overlap::kUnknown;
    } else {
      t[m++] = t[i];
    }
  }
  Search s{t.data(), m};
  s.max_work = max_work;
  s.rest[m] = 0;
  s.g[m] = 0;
  for (std::size_t k = m; k-- > 0;) {
    u64 reach;
    if (!checked_mul(t[k].c, t[k].ub, reach) || !checked_add(reach, s.rest[k + 1], s.rest[k])) return Overlap::kUnknown;
    s.g[k] = gcd(t[k].c, s.g[k + 1]);
  }
  if (m == 0) return target == 0 ? Overlap::kYes : Overlap::kNo;
  const bool found = s.solve(0, target);
  if (s.gave_up) return Overlap::kUnknown;
  return found ? Overlap::kYes : Overlap::kNo;
}

bool may_overlap_itself(const Region& r, bool zero_strides_ok) noexcept {
  std::array<Term, kMaxTerms> t;  // only the first n are used: no zeroing (order_steps calls this often)
  std::size_t n = 0;
  for (std::size_t d = 0; d < r.sizes.size(); ++d) {
    const std::int64_t sz = r.sizes[d], st = r.strides[d];
    if (sz <= 0) return false;  // empty: nothing is written
    if (sz == 1) continue;
    if (st == 0) {
      if (!zero_strides_ok) return true;
      continue;
    }
    if (n == kMaxTerms) return true;
    t[n++] = {st < 0 ? u64{0} - static_cast<u64>(st) : static_cast<u64>(st), static_cast<u64>(sz - 1)};
  }
  std::sort(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(n),
            [](const Term& x, const Term& y) { return x.c < y.c; });
  u64 reach = r.width;  // bytes spanned by the smaller-stride dimensions so far
  for (std::size_t i = 0; i < n; ++i) {
    if (t[i].c < reach) return true;
    u64 add;
    if (!checked_mul(t[i].c, t[i].ub, add) || !checked_add(reach, add, reach)) return true;
  }
  return false;
}

}  // namespace strided::detail
