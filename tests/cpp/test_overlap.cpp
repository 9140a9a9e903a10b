// region_overlap (exec/overlap.hpp) against brute force: every byte of both views listed.
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "check.hpp"
#include "exec/overlap.hpp"

using namespace strided::detail;

namespace {

std::set<std::int64_t> bytes_of(const Region& r) {
  std::set<std::int64_t> s;
  std::vector<std::int64_t> c(r.sizes.size(), 0);
  for (const auto n : r.sizes)
    if (n == 0) return s;
  for (;;) {
    std::int64_t off = r.offset;
    for (std::size_t d = 0; d < c.size(); ++d) off += c[d] * r.strides[d];
    for (std::size_t b = 0; b < r.width; ++b) s.insert(off + static_cast<std::int64_t>(b));
    std::size_t d = c.size();
    for (; d-- > 0;) {
      if (++c[d] < r.sizes[d]) break;
      c[d] = 0;
    }
    if (d == static_cast<std::size_t>(-1)) break;
  }
  return s;
}

bool brute(const Region& a, const Region& b) {
  const auto sa = bytes_of(a), sb = bytes_of(b);
  for (const auto x : sa)
    if (sb.count(x)) return true;
  return false;
}

void test_known_cases() {
  std::vector<std::byte> buf(4096);
  const std::byte* p = buf.data() + 2048;
  // a[:, ::2] and a[:, 1::2] of a 16x32 float32 array: interleaved, disjoint.
  Region even{0, 4, {16, 16}, {128, 8}}, odd{4, 4, {16, 16}, {128, 8}};
  CHECK(region_overlap(p, even, p, odd) == Overlap::kNo);
  CHECK(region_overlap(p, even, p, even) == Overlap::kYes);
  // Shifted by one byte: the elements straddle.
  Region odd1{3, 4, {16, 16}, {128, 8}};
  CHECK(region_overlap(p, even, p, odd1) == Overlap::kYes);
  // Reversed view (negative strides) of the same elements.
  Region rev{15 * 128 + 15 * 8, 4, {16, 16}, {-128, -8}};
  CHECK(region_overlap(p, even, p, rev) == Overlap::kYes);
  // Separate buffers never overlap; an empty view never overlaps.
  std::vector<std::byte> other(4096);
  CHECK(region_overlap(p, even, other.data(), even) == Overlap::kNo);
  Region empty{0, 4, {0, 16}, {128, 8}};
  CHECK(region_overlap(p, empty, p, even) == Overlap::kNo);
  // A tiny work budget gives up rather than guessing.
  Region col{0, 4, {1000}, {4 * 1001}}, col2{4 * 1000, 4, {1000}, {4 * 999}};
  CHECK(region_overlap(p, col, p, col2, 1) == Overlap::kUnknown);
}

void test_random_against_brute_force() {
  std::mt19937_64 rng(7);
  std::vector<std::byte> buf(1 << 16);
  const std::byte* p = buf.data() + (1 << 15);
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  int disagreements = 0, unknown = 0, yes = 0;
  for (int it = 0; it < 3000; ++it) {
    Region r[2];
    for (auto& v : r) {
      const int nd = static_cast<int>(pick(1, 3));
      v.width = static_cast<std::size_t>(std::int64_t{1} << pick(0, 3));
      v.offset = pick(-64, 64);
      for (int d = 0; d < nd; ++d) {
        v.sizes.push_back(pick(1, 6));
        v.strides.push_back(pick(-40, 40));
      }
    }
    const Overlap got = region_overlap(p, r[0], p, r[1]);
    if (got == Overlap::kUnknown) {
      ++unknown;
      continue;
    }
    const bool want = brute(r[0], r[1]);
    yes += want;
    if ((got == Overlap::kYes) != want) ++disagreements;
  }
  CHECK_EQ(disagreements, 0);
  CHECK_EQ(unknown, 0);  // small views are always decided
  CHECK(yes > 300);      // both answers were exercised
}

}  // namespace

int main() {
  test_known_cases();
  test_random_against_brute_force();
  return check::report();
}
