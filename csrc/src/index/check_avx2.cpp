// The index check's min/max and narrowing passes over contiguous runs, compiled for AVX2
// (64-bit compares and 4-8 lanes; the x86-64 baseline has no 64-bit vector compare). Selected
// by check.cpp when the active SIMD target is not "scalar". Exact either way: min/max and the
// element-wise narrowing do not depend on lane order.
#include "index/check_simd.hpp"
#include "index/common.hpp"
#include "index/narrow_body.hpp"

namespace strided::detail::index {
namespace {
template <class I>
void minmax(const std::byte* p, std::int64_t n, I& mn, I& mx) noexcept {
  I lo = mn, hi = mx;
  for (std::int64_t j = 0; j < n; ++j) {
    const I v = load<I>(p + j * static_cast<std::int64_t>(sizeof(I)));
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  mn = lo;
  mx = hi;
}
}  // namespace

void minmax_avx2(const std::byte* p, std::int64_t n, std::int32_t& mn, std::int32_t& mx) noexcept { minmax(p, n, mn, mx); }
void minmax_avx2(const std::byte* p, std::int64_t n, std::int64_t& mn, std::int64_t& mx) noexcept { minmax(p, n, mn, mx); }
void minmax_avx2(const std::byte* p, std::int64_t n, std::uint32_t& mn, std::uint32_t& mx) noexcept { minmax(p, n, mn, mx); }
void minmax_avx2(const std::byte* p, std::int64_t n, std::uint64_t& mn, std::uint64_t& mx) noexcept { minmax(p, n, mn, mx); }

template <class I, class U>
bool narrow_avx2(const std::byte* p, std::int64_t n, std::int64_t bound, U* dst) noexcept {
  return narrow_body<I, U>(p, n, bound, dst);
}
#define STRIDED_NARROW(I)                                                                                   \
  template bool narrow_avx2<I, std::uint16_t>(const std::byte*, std::int64_t, std::int64_t, std::uint16_t*) noexcept; \
  template bool narrow_avx2<I, std::uint32_t>(const std::byte*, std::int64_t, std::int64_t, std::uint32_t*) noexcept;
STRIDED_NARROW(std::int32_t)
STRIDED_NARROW(std::int64_t)
STRIDED_NARROW(std::uint32_t)
STRIDED_NARROW(std::uint64_t)
#undef STRIDED_NARROW

}  // namespace strided::detail::index
