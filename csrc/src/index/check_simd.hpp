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

namespace strided::detail::index {
/// gather_lines_checked's dense line for 4-byte elements (gather_avx2.cpp): out[k] = in[idx[k]]
/// for k < K, each index normalised and tested at its read (a bad one reads position 0);
/// returns whether all were in [-N, N). `stream`: non-temporal stores (out 4-byte aligned).
/// The int32 form needs N < 2^31. Indices are int64 / int32, contiguous (any alignment).
bool gather_line_checked_i64_avx2(const std::byte* idx, const std::byte* in, std::byte* out, std::int64_t K,
                                  std::int64_t N, bool stream) noexcept;
bool gather_line_checked_i32_avx2(const std::byte* idx, const std::byte* in, std::byte* out, std::int64_t K,
                                  std::int64_t N, bool stream) noexcept;
/// The narrowed gather's dense line (uint16 positions written by the narrowing check, trusted):
/// out[k] = in[idx[k]] for 4-byte elements.
void gather_line_narrowed_u16_avx2(const std::byte* idx, const std::byte* in, std::byte* out, std::int64_t K,
                                   bool stream) noexcept;
}  // namespace strided::detail::index
