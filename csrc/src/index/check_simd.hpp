// Vectorised passes over contiguous runs of indices (check_avx2.cpp, x86 builds only).
#pragma once
#include <cstddef>
#include <cstdint>

namespace strided::detail::index {
void minmax_avx2(const std::byte* p, std::int64_t n, std::int32_t& mn, std::int32_t& mx) noexcept;
void minmax_avx2(const std::byte* p, std::int64_t n, std::int64_t& mn, std::int64_t& mx) noexcept;
void minmax_avx2(const std::byte* p, std::int64_t n, std::uint32_t& mn, std::uint32_t& mx) noexcept;
void minmax_avx2(const std::byte* p, std::int64_t n, std::uint64_t& mn, std::uint64_t& mx) noexcept;
/// narrow_body (narrow_body.hpp) compiled for AVX2; instantiated for the four index types and
/// U = uint16_t, uint32_t.
template <class I, class U>
bool narrow_avx2(const std::byte* p, std::int64_t n, std::int64_t bound, U* dst) noexcept;
}  // namespace strided::detail::index
