// The check-at-read gather of one dense line (elements.cpp, gather_lines_checked) for signed
// indices and 4-byte elements, compiled for AVX2: 4 (int64) or 8 (int32) indices normalised,
// range-tested and clamped per instruction, the elements fetched with a hardware gather. The
// scalar loop spends most of its time on that per-index arithmetic when the line sits in L1.
// ISA-safe includes only (see check_avx2.cpp); CMake compiles this file with AVX2 flags.
#include <immintrin.h>

#include "index/check_simd.hpp"
#include "index/narrow_body.hpp"

namespace strided::detail::index {
namespace {
template <class I>
inline bool one(const std::byte* idx, const std::byte* in, std::byte* out, std::int64_t k, std::int64_t N) noexcept {
  const auto v = static_cast<std::int64_t>(isa_load<I>(idx + k * static_cast<std::int64_t>(sizeof(I))));
  const auto u = static_cast<std::uint64_t>(v + (v < 0 ? N : 0));
  const bool ok = u < static_cast<std::uint64_t>(N);
  std::memcpy(out + k * 4, in + (ok ? static_cast<std::int64_t>(u) : 0) * 4, 4);
  return ok;
}
inline void put(std::byte* p, __m128i v, bool stream) noexcept {
  if (stream) _mm_stream_si128(reinterpret_cast<__m128i*>(p), v);
  else _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
}
}  // namespace

bool gather_line_checked_i64_avx2(const std::byte* idx, const std::byte* in, std::byte* out, std::int64_t K,
                                  std::int64_t N, bool stream) noexcept {
  bool ok = true;
  std::int64_t k = 0;
  if (stream)  // streaming stores of 16 bytes need 16-byte alignment
    for (; k < K && (reinterpret_cast<std::uintptr_t>(out + k * 4) & 15) != 0; ++k)
      ok &= one<std::int64_t>(idx, in, out, k, N);
  const __m256i zero = _mm256_setzero_si256(), vn = _mm256_set1_epi64x(N), vn1 = _mm256_set1_epi64x(N - 1);
  __m256i bad = zero;
  for (; k + 4 <= K; k += 4) {
    __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx + k * 8));
    v = _mm256_add_epi64(v, _mm256_and_si256(_mm256_cmpgt_epi64(zero, v), vn));  // negative: from the end
    const __m256i b = _mm256_or_si256(_mm256_cmpgt_epi64(zero, v), _mm256_cmpgt_epi64(v, vn1));
    bad = _mm256_or_si256(bad, b);
    v = _mm256_andnot_si256(b, v);  // a bad index reads position 0
    put(out + k * 4, _mm256_i64gather_epi32(reinterpret_cast<const int*>(in), v, 4), stream);
  }
  for (; k < K; ++k) ok &= one<std::int64_t>(idx, in, out, k, N);
  return ok && _mm256_testz_si256(bad, bad);
}

bool gather_line_checked_i32_avx2(const std::byte* idx, const std::byte* in, std::byte* out, std::int64_t K,
                                  std::int64_t N, bool stream) noexcept {
  bool ok = true;
  std::int64_t k = 0;
  if (stream)
    for (; k < K && (reinterpret_cast<std::uintptr_t>(out + k * 4) & 15) != 0; ++k)
      ok &= one<std::int32_t>(idx, in, out, k, N);
  // int32 indices address an axis of at most 2^31 elements in range; a longer axis is left to
  // the scalar loop (the caller only sends N < 2^31).
  const __m256i zero = _mm256_setzero_si256(), vn = _mm256_set1_epi32(static_cast<int>(N)),
                vn1 = _mm256_set1_epi32(static_cast<int>(N - 1));
  __m256i bad = zero;
  for (; k + 8 <= K; k += 8) {
    __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx + k * 4));
    v = _mm256_add_epi32(v, _mm256_and_si256(_mm256_cmpgt_epi32(zero, v), vn));
    const __m256i b = _mm256_or_si256(_mm256_cmpgt_epi32(zero, v), _mm256_cmpgt_epi32(v, vn1));
    bad = _mm256_or_si256(bad, b);
    v = _mm256_andnot_si256(b, v);
    const __m256i g = _mm256_i32gather_epi32(reinterpret_cast<const int*>(in), v, 4);
    put(out + k * 4, _mm256_castsi256_si128(g), stream);
    put(out + k * 4 + 16, _mm256_extracti128_si256(g, 1), stream);
  }
  for (; k < K; ++k) ok &= one<std::int32_t>(idx, in, out, k, N);
  return ok && _mm256_testz_si256(bad, bad);
}

}  // namespace strided::detail::index

namespace strided::detail::index {

void gather_line_narrowed_u16_avx2(const std::byte* idx, const std::byte* in, std::byte* out, std::int64_t K,
                                   bool stream) noexcept {
  std::int64_t k = 0;
  auto one16 = [&](std::int64_t j) { std::memcpy(out + j * 4, in + isa_load<std::uint16_t>(idx + j * 2) * 4, 4); };
  if (stream)
    for (; k < K && (reinterpret_cast<std::uintptr_t>(out + k * 4) & 15) != 0; ++k) one16(k);
  for (; k + 8 <= K; k += 8) {
    const __m256i v = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(idx + k * 2)));
    const __m256i g = _mm256_i32gather_epi32(reinterpret_cast<const int*>(in), v, 4);
    put(out + k * 4, _mm256_castsi256_si128(g), stream);
    put(out + k * 4 + 16, _mm256_extracti128_si256(g, 1), stream);
  }
  for (; k < K; ++k) one16(k);
}

}  // namespace strided::detail::index
