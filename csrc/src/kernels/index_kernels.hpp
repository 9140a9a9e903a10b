// The axis-index family's kernel bodies: passes over contiguous runs of index values (min/max,
// narrowing) and, for AVX2 targets, dense line gathers of 4-byte elements. Included by
// kernels_impl.hpp (one copy per SIMD target, in its kernel table) and by index/check.cpp
// (the baseline copy for small checks). ISA-safe: everything has internal linkage (unnamed
// namespace) and nothing included defines inline functions or templates with external linkage
// (no index/common.hpp, no <string>/<vector>/<algorithm>), so the linker can never pick an AVX2
// copy for baseline code; scripts/check_isa_symbols.sh (ctest isa_symbols) checks this.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "elem/access.hpp"
#include "util/isa.hpp"
#if defined(STRIDED_AVX2)
#include <immintrin.h>
#endif

namespace strided::detail::index {
namespace {
/// Running min/max of the n contiguous values at p, folded into mn/mx.
template <class I>
void minmax_body(const std::byte* p, std::int64_t n, I& mn, I& mx) noexcept {
  I lo = mn, hi = mx;
  for (std::int64_t j = 0; j < n; ++j) {
    const I v = elem::load<I>(p + j * static_cast<std::int64_t>(sizeof(I)));
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  mn = lo;
  mx = hi;
}

/// Writes the n contiguous indices at p, normalised (negative values count from the end), to
/// dst as U; returns whether every value was in range for an axis of size `bound`.
template <class I, class U>
bool narrow_body(const std::byte* p, std::int64_t n, std::int64_t bound, U* dst) noexcept {
  const auto b = static_cast<std::uint64_t>(bound);
  std::uint64_t bad = 0;
  for (std::int64_t j = 0; j < n; ++j) {
    const I v = elem::load<I>(p + j * static_cast<std::int64_t>(sizeof(I)));
    std::uint64_t t;
    if constexpr (std::is_signed_v<I>) {
      const auto s = static_cast<std::int64_t>(v);
      t = static_cast<std::uint64_t>(s + (s < 0 ? bound : 0));  // below -bound stays negative: huge
    } else {
      t = static_cast<std::uint64_t>(v);
    }
    bad |= t >= b ? 1u : 0u;
    dst[j] = static_cast<U>(t);
  }
  return bad == 0;
}

#if defined(STRIDED_AVX2) && defined(STRIDED_KNS)  // (a kernel table's copy only: check.cpp has no use for them)
// The check-at-read gather of one dense line (elements.cpp, gather_lines_checked) for signed
// indices and 4-byte elements: 4 (int64) or 8 (int32) indices normalised, range-tested and
// clamped per instruction, the elements then loaded one by one (gather4, gather8). The scalar
// loop spends most of its time on that per-index arithmetic when the line sits in L1.
// With `stream`, the edges of a line are streamed too (MOVNTI): a cache line whose middle is
// streamed and whose ends are stored normally (where one output line ends and the next begins)
// reaches memory in pieces and is read back.
inline void put4(std::byte* p, const std::byte* from, bool stream) noexcept {
  if (stream) {
    int v;
    std::memcpy(&v, from, 4);
    _mm_stream_si32(reinterpret_cast<int*>(p), v);
  } else {
    std::memcpy(p, from, 4);
  }
}
template <class I>
inline bool gather_one(const std::byte* idx, const std::byte* in, std::byte* out, std::int64_t k, std::int64_t N,
                       bool stream) noexcept {
  const auto v = static_cast<std::int64_t>(elem::load<I>(idx + k * static_cast<std::int64_t>(sizeof(I))));
  const auto u = static_cast<std::uint64_t>(v + (v < 0 ? N : 0));
  const bool ok = u < static_cast<std::uint64_t>(N);
  put4(out + k * 4, in + (ok ? static_cast<std::int64_t>(u) : 0) * 4, stream);
  return ok;
}
// The 4-byte elements at in + 4 * pos[q], q < 4 (64-bit positions) or < 8 (32-bit), loaded one
// by one rather than by AVX2's gather instructions, which are microcoded on AMD Zen and slowed on
// Intel by the GDS mitigation. On a Zen 3 host, same process, 4096-element lines: 1.13-1.56x
// faster than vpgather (int64 indices 1.34-1.56x, int32 1.13-1.32x, uint16 1.0-1.15x), in L1 and
// from memory alike.
inline __m128i gather4(const std::byte* in, __m256i pos) noexcept {
  alignas(32) std::int64_t p[4];
  alignas(16) std::int32_t e[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(p), pos);
  for (int q = 0; q < 4; ++q) std::memcpy(&e[q], in + p[q] * 4, 4);
  return _mm_load_si128(reinterpret_cast<const __m128i*>(e));
}
inline __m256i gather8(const std::byte* in, __m256i pos) noexcept {
  alignas(32) std::int32_t p[8], e[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(p), pos);
  for (int q = 0; q < 8; ++q) std::memcpy(&e[q], in + static_cast<std::int64_t>(p[q]) * 4, 4);
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(e));
}
inline void gather_put(std::byte* p, __m128i v, bool stream) noexcept {
  if (stream) _mm_stream_si128(reinterpret_cast<__m128i*>(p), v);
  else _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
}

/// out[k] = in[idx[k]] for k < K (int64 indices), each normalised and tested at its read (a bad
/// one reads position 0); whether all were in [-N, N). `stream`: non-temporal stores.
bool gather_line_checked_i64(const std::byte* idx, const std::byte* in, std::byte* out, std::int64_t K, std::int64_t N,
                             bool stream) noexcept {
  bool ok = true;
  std::int64_t k = 0;
  if (stream)  // streaming stores of 16 bytes need 16-byte alignment
    for (; k < K && (reinterpret_cast<std::uintptr_t>(out + k * 4) & 15) != 0; ++k)
      ok &= gather_one<std::int64_t>(idx, in, out, k, N, stream);
  const __m256i zero = _mm256_setzero_si256(), vn = _mm256_set1_epi64x(N), vn1 = _mm256_set1_epi64x(N - 1);
  __m256i bad = zero;
  for (; k + 4 <= K; k += 4) {
    __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx + k * 8));
    v = _mm256_add_epi64(v, _mm256_and_si256(_mm256_cmpgt_epi64(zero, v), vn));  // negative: from the end
    const __m256i b = _mm256_or_si256(_mm256_cmpgt_epi64(zero, v), _mm256_cmpgt_epi64(v, vn1));
    bad = _mm256_or_si256(bad, b);
    v = _mm256_andnot_si256(b, v);  // a bad index reads position 0
    gather_put(out + k * 4, gather4(in, v), stream);
  }
  for (; k < K; ++k) ok &= gather_one<std::int64_t>(idx, in, out, k, N, stream);
  return ok && _mm256_testz_si256(bad, bad);
}

/// The same for int32 indices; needs N < 2^31 (a longer axis is left to the scalar loop).
bool gather_line_checked_i32(const std::byte* idx, const std::byte* in, std::byte* out, std::int64_t K, std::int64_t N,
                             bool stream) noexcept {
  bool ok = true;
  std::int64_t k = 0;
  if (stream)
    for (; k < K && (reinterpret_cast<std::uintptr_t>(out + k * 4) & 15) != 0; ++k)
      ok &= gather_one<std::int32_t>(idx, in, out, k, N, stream);
  const __m256i zero = _mm256_setzero_si256(), vn = _mm256_set1_epi32(static_cast<int>(N)),
                vn1 = _mm256_set1_epi32(static_cast<int>(N - 1));
  __m256i bad = zero;
  for (; k + 8 <= K; k += 8) {
    __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx + k * 4));
    v = _mm256_add_epi32(v, _mm256_and_si256(_mm256_cmpgt_epi32(zero, v), vn));
    const __m256i b = _mm256_or_si256(_mm256_cmpgt_epi32(zero, v), _mm256_cmpgt_epi32(v, vn1));
    bad = _mm256_or_si256(bad, b);
    v = _mm256_andnot_si256(b, v);
    const __m256i g = gather8(in, v);
    gather_put(out + k * 4, _mm256_castsi256_si128(g), stream);
    gather_put(out + k * 4 + 16, _mm256_extracti128_si256(g, 1), stream);
  }
  for (; k < K; ++k) ok &= gather_one<std::int32_t>(idx, in, out, k, N, stream);
  return ok && _mm256_testz_si256(bad, bad);
}

/// The narrowed gather's dense line (uint16 positions written by the narrowing check, trusted):
/// out[k] = in[idx[k]] for 4-byte elements.
void gather_line_u16(const std::byte* idx, const std::byte* in, std::byte* out, std::int64_t K, bool stream) noexcept {
  std::int64_t k = 0;
  auto one16 = [&](std::int64_t j) { put4(out + j * 4, in + elem::load<std::uint16_t>(idx + j * 2) * 4, stream); };
  if (stream)
    for (; k < K && (reinterpret_cast<std::uintptr_t>(out + k * 4) & 15) != 0; ++k) one16(k);
  for (; k + 8 <= K; k += 8) {
    const __m256i v = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(idx + k * 2)));
    const __m256i g = gather8(in, v);
    gather_put(out + k * 4, _mm256_castsi256_si128(g), stream);
    gather_put(out + k * 4 + 16, _mm256_extracti128_si256(g, 1), stream);
  }
  for (; k < K; ++k) one16(k);
}
#endif
}  // namespace
}  // namespace strided::detail::index
