// The index check's min/max and narrowing passes over contiguous runs, compiled for AVX2
// (64-bit compares and 4-8 lanes; the x86-64 baseline has no 64-bit vector compare). Selected
// by check.cpp when the active SIMD target is not "scalar". Exact either way: min/max and the
// element-wise narrowing do not depend on lane order.
// ISA-safe includes only (declarations, and narrow_body.hpp's internal-linkage loops): an
// inline function or template with external linkage used here would be emitted as a weak symbol
// compiled for AVX2, which the linker may then pick for baseline callers too. CMake defines
// STRIDED_ISA_TU here, and the library's ordinary internal headers refuse to be included.
#include "index/check_simd.hpp"
#include "index/narrow_body.hpp"

namespace strided::detail::index {

void minmax_avx2(const std::byte* p, std::int64_t n, std::int32_t& mn, std::int32_t& mx) noexcept {
  minmax_body(p, n, mn, mx);
}
void minmax_avx2(const std::byte* p, std::int64_t n, std::int64_t& mn, std::int64_t& mx) noexcept {
  minmax_body(p, n, mn, mx);
}
void minmax_avx2(const std::byte* p, std::int64_t n, std::uint32_t& mn, std::uint32_t& mx) noexcept {
  minmax_body(p, n, mn, mx);
}
void minmax_avx2(const std::byte* p, std::int64_t n, std::uint64_t& mn, std::uint64_t& mx) noexcept {
  minmax_body(p, n, mn, mx);
}

template <class I, class U>
bool narrow_avx2(const std::byte* p, std::int64_t n, std::int64_t bound, U* dst) noexcept {
  return narrow_body<I, U>(p, n, bound, dst);
}
#define STRIDED_NARROW(I)                                                                                             \
  template bool narrow_avx2<I, std::uint16_t>(const std::byte*, std::int64_t, std::int64_t, std::uint16_t*) noexcept; \
  template bool narrow_avx2<I, std::uint32_t>(const std::byte*, std::int64_t, std::int64_t, std::uint32_t*) noexcept;
STRIDED_NARROW(std::int32_t)
STRIDED_NARROW(std::int64_t)
STRIDED_NARROW(std::uint32_t)
STRIDED_NARROW(std::uint64_t)
#undef STRIDED_NARROW

}  // namespace strided::detail::index
