// Kernel bodies, compiled once per SIMD target: kernels_<target>.cpp defines STRIDED_KNS (a
// namespace name) and includes this file, so the same templates become SSE2, AVX2 and AVX-512
// code (highway's "foreach target" idea, without the library). Everything here lives in that
// per-target namespace and uses no std:: templates that could be emitted out of line: the
// linker must never merge an AVX-512 instantiation into the baseline code. The kernels_<target>.cpp
// files are compiled with STRIDED_ISA_TU defined, which the library's ordinary internal headers
// refuse; ctest isa_symbols (scripts/check_isa_symbols.sh) checks the objects.
#ifndef STRIDED_KNS
#error "define STRIDED_KNS before including kernels_impl.hpp"
#endif

#include <cstdint>
#include <cstring>

#include "elem/access.hpp"
#include "elem/cast.hpp"
#include "elem/index.hpp"
#include "kernels/index_kernels.hpp"
#include "kernels/kernels.hpp"
#include "util/copy.hpp"
#include "util/isa.hpp"
#include "util/l1_sets.hpp"

#if defined(STRIDED_SSE2)
#include <immintrin.h>
#endif
// The neon target (kernels_neon.cpp) only: the scalar target stays scalar on AArch64 too.
#if defined(STRIDED_KERNELS_NEON) && defined(__ARM_NEON) && defined(__aarch64__)
#define SK_NEON 1
#include <arm_neon.h>
#endif

#if defined(__GNUC__) && !defined(__clang__)
// Keep GCC from turning the explicit vector copy loops (L1 staging buffers) into memcpy calls:
// a libc call per 256-byte row costs more than the copy.
#pragma GCC optimize("no-tree-loop-distribute-patterns")
#endif

namespace strided::detail::STRIDED_KNS {
namespace {

using i64 = std::int64_t;
using byte = std::byte;

template <int W> struct Uint;
template <> struct Uint<1> {
  using T = std::uint8_t;
};
template <> struct Uint<2> {
  using T = std::uint16_t;
};
template <> struct Uint<4> {
  using T = std::uint32_t;
};
template <> struct Uint<8> {
  using T = std::uint64_t;
};
template <int W> using U = typename Uint<W>::T;

// Elements are moved as unsigned integers of their width (elem/access.hpp): bit-exact and legal
// at any alignment (numpy arrays need not be aligned).
template <int W> STRIDED_ALWAYS_INLINE U<W> ld(const byte* p) { return elem::load<U<W>>(p); }
template <int W> STRIDED_ALWAYS_INLINE void st(byte* p, U<W> v) { elem::store<U<W>>(p, v); }

inline i64 imin(i64 a, i64 b) { return a < b ? a : b; }
inline i64 imax(i64 a, i64 b) { return a > b ? a : b; }
inline std::uintptr_t addr(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }
// Elements of width W from p to the next 64-byte line (p aligned to W): where a streamed run
// starts, so that it streams whole lines only (see copy_run).
template <int W> inline i64 to_line(const void* p) { return static_cast<i64>((0 - addr(p)) & 63) / W; }

// ------------------------------------------------------------------ full-width vectors
#if defined(STRIDED_AVX512)
#define SK_VB 64
using vec = __m512i;
inline vec vload(const byte* p) { return _mm512_loadu_si512(p); }
inline void vstore(byte* p, vec v) { _mm512_storeu_si512(p, v); }
inline void vstream(byte* p, vec v) { _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v); }
template <int W> inline vec vbroadcast(U<W> x) {
  if constexpr (W == 1) return _mm512_set1_epi8(static_cast<char>(x));
  else if constexpr (W == 2) return _mm512_set1_epi16(static_cast<short>(x));
  else if constexpr (W == 4) return _mm512_set1_epi32(static_cast<int>(x));
  else return _mm512_set1_epi64(static_cast<long long>(x));
}
template <int W> inline vec vreverse(vec v) {
  if constexpr (W == 1) {
    const __m512i in_lane = _mm512_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6,
                                            7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                            13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i r = _mm512_shuffle_epi8(v, in_lane);
    return _mm512_shuffle_i64x2(r, r, 0x1B);
  } else if constexpr (W == 2) {
    const __m512i idx = _mm512_set_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                         22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    return _mm512_permutexvar_epi16(idx, v);
  } else if constexpr (W == 4) {
    return _mm512_permutexvar_epi32(_mm512_set_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), v);
  } else {
    return _mm512_permutexvar_epi64(_mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7), v);
  }
}
#elif defined(STRIDED_AVX2)
#define SK_VB 32
using vec = __m256i;
inline vec vload(const byte* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
inline void vstore(byte* p, vec v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
inline void vstream(byte* p, vec v) { _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v); }
template <int W> inline vec vbroadcast(U<W> x) {
  if constexpr (W == 1) return _mm256_set1_epi8(static_cast<char>(x));
  else if constexpr (W == 2) return _mm256_set1_epi16(static_cast<short>(x));
  else if constexpr (W == 4) return _mm256_set1_epi32(static_cast<int>(x));
  else return _mm256_set1_epi64x(static_cast<long long>(x));
}
template <int W> inline vec vreverse(vec v) {
  if constexpr (W == 1) {
    const __m256i m = _mm256_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8,
                                      9, 10, 11, 12, 13, 14, 15);
    return _mm256_permute4x64_epi64(_mm256_shuffle_epi8(v, m), 0x4E);
  } else if constexpr (W == 2) {
    const __m256i m = _mm256_set_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0, 3, 2, 5, 4, 7, 6, 9,
                                      8, 11, 10, 13, 12, 15, 14);
    return _mm256_permute4x64_epi64(_mm256_shuffle_epi8(v, m), 0x4E);
  } else if constexpr (W == 4) {
    return _mm256_permutevar8x32_epi32(v, _mm256_set_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  } else {
    return _mm256_permute4x64_epi64(v, 0x1B);
  }
}
#elif defined(SK_NEON)
#define SK_VB 16
using vec = uint8x16_t;
inline vec vload(const byte* p) { return vld1q_u8(reinterpret_cast<const std::uint8_t*>(p)); }
inline void vstore(byte* p, vec v) { vst1q_u8(reinterpret_cast<std::uint8_t*>(p), v); }
inline void vstream(byte* p, vec v) { vstore(p, v); }  // no streaming store in ACLE: plain stores
template <int W> inline vec vbroadcast(U<W> x) {
  if constexpr (W == 1) return vdupq_n_u8(x);
  else if constexpr (W == 2) return vreinterpretq_u8_u16(vdupq_n_u16(x));
  else if constexpr (W == 4) return vreinterpretq_u8_u32(vdupq_n_u32(x));
  else return vreinterpretq_u8_u64(vdupq_n_u64(x));
}
template <int W> inline vec vreverse(vec v) {  // reverse within each 64-bit half, then swap halves
  if constexpr (W == 1) v = vrev64q_u8(v);
  else if constexpr (W == 2) v = vreinterpretq_u8_u16(vrev64q_u16(vreinterpretq_u16_u8(v)));
  else if constexpr (W == 4) v = vreinterpretq_u8_u32(vrev64q_u32(vreinterpretq_u32_u8(v)));
  return vextq_u8(v, v, 8);
}
#elif defined(STRIDED_SSE2)
#define SK_VB 16
using vec = __m128i;
inline vec vload(const byte* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
inline void vstore(byte* p, vec v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }
inline void vstream(byte* p, vec v) { _mm_stream_si128(reinterpret_cast<__m128i*>(p), v); }
template <int W> inline vec vbroadcast(U<W> x) {
  if constexpr (W == 1) return _mm_set1_epi8(static_cast<char>(x));
  else if constexpr (W == 2) return _mm_set1_epi16(static_cast<short>(x));
  else if constexpr (W == 4) return _mm_set1_epi32(static_cast<int>(x));
  else return _mm_set1_epi64x(static_cast<long long>(x));
}
template <int W> inline vec vreverse(vec v) {
  if constexpr (W == 1) {  // SSE2 has no byte shuffle: swap bytes in words, then reverse words
    v = _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8));
    return vreverse<2>(v);
  } else if constexpr (W == 2) {
    v = _mm_shufflehi_epi16(_mm_shufflelo_epi16(v, 0x1B), 0x1B);
    return _mm_shuffle_epi32(v, 0x4E);
  } else if constexpr (W == 4) {
    return _mm_shuffle_epi32(v, 0x1B);
  } else {
    return _mm_shuffle_epi32(v, 0x4E);
  }
}
#endif

inline void fence() {
#if defined(STRIDED_SSE2)
  _mm_sfence();  // streaming stores are weakly ordered: publish them before the caller goes on
#endif
}

// ------------------------------------------------------------------ contiguous rows
// Streamed runs store whole 64-byte lines only, the partial lines at both ends normally: with
// 32-byte vectors, a line half streamed and half stored normally (by this run's tail and the next
// run's head, rows that do not start on a line) is written to memory in pieces and read back.
// depth_to_space DCR b = 2 into (4, 32, 256, 256) float32 (1 KiB rows through interleave's
// buffer), AVX2, output 48 bytes into a line: 12.2-13.6 ms before, 2-3 ms at any other offset.
template <bool NT> inline void copy_run(byte* d, const byte* s, std::size_t b) {
#if defined(SK_VB)
  constexpr std::size_t L = 64;
  if (NT && b >= 8 * SK_VB) {
    const std::size_t head = (0 - addr(d)) & (L - 1);
    std::memcpy(d, s, head);
    d += head, s += head, b -= head;
    for (; b >= 4 * SK_VB; b -= 4 * SK_VB, d += 4 * SK_VB, s += 4 * SK_VB) {
      const vec v0 = vload(s), v1 = vload(s + SK_VB), v2 = vload(s + 2 * SK_VB), v3 = vload(s + 3 * SK_VB);
      vstream(d, v0), vstream(d + SK_VB, v1), vstream(d + 2 * SK_VB, v2), vstream(d + 3 * SK_VB, v3);
    }
    for (; b >= L; b -= L, d += L, s += L)
      for (std::size_t k = 0; k < L; k += SK_VB) vstream(d + k, vload(s + k));
  }
#endif
  copy_bytes(d, s, b);
}

template <int W, bool NT>
void k_contig(const byte* s, byte* d, i64 n1, i64 ss1, i64 ds1, i64 n0, i64, i64) {
  const auto b = static_cast<std::size_t>(n0) * W;
  for (i64 r = 0; r < n1; ++r) copy_run<NT>(d + r * ds1, s + r * ss1, b);
  if (NT) fence();
}

// ------------------------------------------------------------------ broadcast fill
template <int W, bool NT> inline void fill_row(byte* d, U<W> x, i64 n) {
  i64 i = 0;
#if defined(SK_VB)
  constexpr i64 per = SK_VB / W;
  if (n >= 2 * per) {
    const vec v = vbroadcast<W>(x);  // d + i*W for any i keeps the pattern's phase
    if (NT && addr(d) % W == 0) {
      for (const i64 h = imin(n, to_line<W>(d)); i < h; ++i) st<W>(d + i * W, x);
      for (; i + 64 / W <= n; i += 64 / W)
        for (i64 k = 0; k < 64 / W; k += per) vstream(d + (i + k) * W, v);
    }
    for (; i + per <= n; i += per) vstore(d + i * W, v);
  }
#endif
  for (; i < n; ++i) st<W>(d + i * W, x);
}

template <int W, bool NT>
void k_fill(const byte* s, byte* d, i64 n1, i64 ss1, i64 ds1, i64 n0, i64, i64) {
  for (i64 r = 0; r < n1; ++r) fill_row<W, NT>(d + r * ds1, ld<W>(s + r * ss1), n0);
  if (NT) fence();
}

// ------------------------------------------------------------------ reversal: d[i] = s[-i]
template <int W, bool NT> inline void reverse_row(byte* d, const byte* s, i64 n) {
  i64 i = 0;
#if defined(SK_VB)
  constexpr i64 per = SK_VB / W;
  if (NT && addr(d) % W == 0 && n >= 4 * per) {
    for (const i64 h = to_line<W>(d); i < h; ++i) st<W>(d + i * W, ld<W>(s - i * W));
    for (; i + 64 / W <= n; i += 64 / W)
      for (i64 k = i; k < i + 64 / W; k += per) vstream(d + k * W, vreverse<W>(vload(s - (k + per - 1) * W)));
  }
  for (; i + per <= n; i += per) vstore(d + i * W, vreverse<W>(vload(s - (i + per - 1) * W)));
#endif
  for (; i < n; ++i) st<W>(d + i * W, ld<W>(s - i * W));
}

template <int W, bool NT>
void k_reverse(const byte* s, byte* d, i64 n1, i64 ss1, i64 ds1, i64 n0, i64, i64) {
  for (i64 r = 0; r < n1; ++r) reverse_row<W, NT>(d + r * ds1, s + r * ss1, n0);
  if (NT) fence();
}

// ------------------------------------------------------------------ strided source, contiguous destination
// ------------------------------------------------------------------ narrow shuffles (AVX-512)
// vpermt2d/q/w pick any lanes of two registers: a stride-K gather (K source vectors -> one) or
// a C-plane interleave (C plane vectors -> C output vectors) is a chain of K-1 (C-1) of them,
// with index vectors made at compile time (C, K <= 8; built per call, C = 8's 56 vectors cost
// 0.35 us, more than an 8x8 transpose). W = 1 would need VBMI (not in this target).
#if defined(STRIDED_AVX512)
template <bool NT> inline void put512(byte* p, __m512i v) {
  if (NT) _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v);
  else _mm512_storeu_si512(p, v);
}
// The tiles' helpers that pass vectors in arrays are always inlined: GCC left some out of line
// once they had more callers, and the arrays then went through memory (NHWC -> NCHW float64
// (1, 64, 65, 16) in cache, one thread: 45 -> 59 GB/s inlined).
// 4x4 transpose of 128-bit lanes across (A, B, C, D): out[L] = (A.L, B.L, C.L, D.L).
STRIDED_ALWAYS_INLINE void lanes4x4(__m512i A, __m512i B, __m512i C, __m512i D, __m512i out[4]) {
  const __m512i x0 = _mm512_shuffle_i32x4(A, B, 0x44), x1 = _mm512_shuffle_i32x4(A, B, 0xEE);
  const __m512i y0 = _mm512_shuffle_i32x4(C, D, 0x44), y1 = _mm512_shuffle_i32x4(C, D, 0xEE);
  out[0] = _mm512_shuffle_i32x4(x0, y0, 0x88);
  out[1] = _mm512_shuffle_i32x4(x0, y0, 0xDD);
  out[2] = _mm512_shuffle_i32x4(x1, y1, 0x88);
  out[3] = _mm512_shuffle_i32x4(x1, y1, 0xDD);
}
template <int W> constexpr bool has_perm2() { return W >= 2; }
template <int W> inline vec perm2(vec a, vec idx, vec b) {
  if constexpr (W == 2) return _mm512_permutex2var_epi16(a, idx, b);
  else if constexpr (W == 4) return _mm512_permutex2var_epi32(a, idx, b);
  else return _mm512_permutex2var_epi64(a, idx, b);
}
template <int W, bool NT> inline void put(byte* p, vec v) {
  if (NT) vstream(p, v);
  else vstore(p, v);
}

// Index vectors for the stride-K gather of offset r: step t (1..K-1) merges source vector t
// (t == 1: vectors 0 and 1) into the lanes q whose element q*K + r lies in it. (Built-in
// arrays, as DeinterleaveTable below.)
template <int W, int K> struct GatherTable {
  static constexpr int E = SK_VB / W;
  alignas(64) U<W> a[K][K > 1 ? K - 1 : 1][E];
  constexpr GatherTable() : a{} {
    for (int r = 0; r < K; ++r)
      for (int t = 1; t < K; ++t)
        for (int q = 0; q < E; ++q) {
          const int g = q * K + r, v = g / E;
          a[r][t - 1][q] = static_cast<U<W>>(t == 1 ? (v <= 1 ? g : 0) : (v == t ? E + g % E : q));
        }
  }
};

// The interleave's: output vector u of a block of E rows holds elements p = u*E + lane, from
// plane p % C, row p / C; step t merges plane t's vector.
template <int W, int C> struct InterleaveTable {
  static constexpr int E = SK_VB / W;
  alignas(64) U<W> a[C][C - 1][E];
  constexpr InterleaveTable() : a{} {
    for (int u = 0; u < C; ++u)
      for (int t = 1; t < C; ++t)
        for (int q = 0; q < E; ++q) {
          const int p = u * E + q, c = p % C, row = p / C;
          a[u][t - 1][q] = static_cast<U<W>>(t == 1 ? (c <= 1 ? c * E + row : 0) : (c == t ? E + row : q));
        }
  }
};

// Rows r < R (R == K: a de-interleave; R == 1: a strided gather) of d[r*ds1 + i*W] =
// s[(i*K + r)*W] for i < n; returns how many i were done (whole vectors; the caller finishes).
template <int W, int K, int R, bool NT> inline i64 gather_simd(const byte* s, byte* d, i64 ds1, i64 n) {
  constexpr int E = SK_VB / W;
  static constexpr GatherTable<W, K> tab{};
  vec idx[K][K > 1 ? K - 1 : 1];  // (the loop ran 12-17% slower with K = 8 reading tab in place)
  for (int r = 0; r < K; ++r)
    for (int t = 1; t < K; ++t) idx[r][t - 1] = vload(reinterpret_cast<const byte*>(tab.a[r][t - 1]));
  i64 i = 0;
  // The K loads span K*E elements; with R < K the last K - R of them lie past element (n-1)*K+R-1,
  // the last one used: stop a vector early so they are never past the source's end.
  for (; i + E + (R < K ? 1 : 0) <= n; i += E) {
    vec v[K];
    for (int t = 0; t < K; ++t) v[t] = vload(s + (i * K + t * E) * W);
    for (int r = 0; r < R; ++r) {
      vec acc = perm2<W>(v[0], idx[r][0], v[1]);
      for (int t = 2; t < K; ++t) acc = perm2<W>(acc, idx[r][t - 1], v[t]);
      put<W, NT>(d + r * ds1 + i * W, acc);
    }
  }
  return i;
}

// C planes (plane c at s + c*ss0) into rows of C: output vector u of a block of E rows holds
// elements p = u*E + lane, from plane p % C, row p / C. Returns the rows done.
template <int W, int C, bool NT> inline i64 interleave_simd(const byte* s, i64 ss0, byte* d, i64 n1) {
  constexpr int E = SK_VB / W;
  static constexpr InterleaveTable<W, C> tab{};
  vec idx[C][C - 1];
  for (int u = 0; u < C; ++u)
    for (int t = 1; t < C; ++t) idx[u][t - 1] = vload(reinterpret_cast<const byte*>(tab.a[u][t - 1]));
  i64 r = 0;
  for (; r + E <= n1; r += E) {
    vec v[C];
    for (int c = 0; c < C; ++c) v[c] = vload(s + c * ss0 + r * W);
    for (int u = 0; u < C; ++u) {
      vec acc = perm2<W>(v[0], idx[u][0], v[1]);
      for (int t = 2; t < C; ++t) acc = perm2<W>(acc, idx[u][t - 1], v[t]);
      put<W, NT>(d + (r * C + u * E) * W, acc);
    }
  }
  return r;
}
#else
template <int W> constexpr bool has_perm2() { return false; }
#endif

// One row dr[i] = sr[i * stride]: K > 0 is the stride in elements, known at compile time (the
// de-interleave of narrow transposes and step-K slices: the loads become fixed offsets);
// K == 0 reads the stride ss0 (bytes) at run time.
template <int W, bool NT, int K> inline void gather_row(byte* dr, const byte* sr, i64 n0, i64 ss0) {
  const i64 st0 = K > 0 ? i64{K} * W : ss0;
  i64 i = 0;
#if defined(SK_VB)
  constexpr i64 per = SK_VB / W, B = 1024 / W;
  if (NT && addr(dr) % W == 0 && n0 >= 4 * per) {
    for (const i64 h = to_line<W>(dr); i < h; ++i) st<W>(dr + i * W, ld<W>(sr + i * st0));
    // Gathered 1 KiB at a time into L1, then streamed: reading a vector right after its
    // element stores would stall on store forwarding (measured 3x slower per vector).
    alignas(64) byte buf[B * W];
    for (; i + B <= n0; i += B) {
      for (i64 j = 0; j < B; ++j) st<W>(buf + j * W, ld<W>(sr + (i + j) * st0));
      for (i64 q = 0; q < B * W; q += SK_VB) vstream(dr + i * W + q, vload(buf + q));
    }
  }
#endif
  for (; i < n0; ++i) st<W>(dr + i * W, ld<W>(sr + i * st0));
}

template <int W, bool NT>
void k_generic(const byte* s, byte* d, i64 n1, i64 ss1, i64 ds1, i64 n0, i64 ss0, i64 ds0) {
  for (i64 r = 0; r < n1; ++r)
    for (i64 i = 0; i < n0; ++i) st<W>(d + r * ds1 + i * ds0, ld<W>(s + r * ss1 + i * ss0));
}

// ------------------------------------------------------------------ transpose micro-tiles
// micro<W, NT>(s, sst, d, dst): T x T elements; source row k (at s + k*sst) holds T contiguous
// elements, destination row j (at d + j*dst) receives element j of every source row.
// Shuffles are pure data movement (no arithmetic), so float bit patterns survive.
#if defined(STRIDED_SSE2)
template <bool NT> inline void put128(byte* p, __m128i v) {
  if (NT) _mm_stream_si128(reinterpret_cast<__m128i*>(p), v);
  else _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
}
inline __m128i get128(const byte* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }

template <bool NT> inline void micro_u8_16(const byte* s, i64 sst, byte* d, i64 dst) {
  __m128i r[16], a[16], b[16], c[16];
  for (int k = 0; k < 16; ++k) r[k] = get128(s + k * sst);
  for (int i = 0; i < 8; ++i) {
    a[i] = _mm_unpacklo_epi8(r[2 * i], r[2 * i + 1]);
    a[i + 8] = _mm_unpackhi_epi8(r[2 * i], r[2 * i + 1]);
  }
  for (int i = 0; i < 4; ++i) {
    b[i] = _mm_unpacklo_epi16(a[2 * i], a[2 * i + 1]);
    b[i + 4] = _mm_unpackhi_epi16(a[2 * i], a[2 * i + 1]);
    b[i + 8] = _mm_unpacklo_epi16(a[2 * i + 8], a[2 * i + 9]);
    b[i + 12] = _mm_unpackhi_epi16(a[2 * i + 8], a[2 * i + 9]);
  }
  for (int g = 0; g < 4; ++g) {
    c[4 * g + 0] = _mm_unpacklo_epi32(b[4 * g], b[4 * g + 1]);
    c[4 * g + 1] = _mm_unpackhi_epi32(b[4 * g], b[4 * g + 1]);
    c[4 * g + 2] = _mm_unpacklo_epi32(b[4 * g + 2], b[4 * g + 3]);
    c[4 * g + 3] = _mm_unpackhi_epi32(b[4 * g + 2], b[4 * g + 3]);
  }
  for (int g = 0; g < 4; ++g) {
    put128<NT>(d + (4 * g + 0) * dst, _mm_unpacklo_epi64(c[4 * g], c[4 * g + 2]));
    put128<NT>(d + (4 * g + 1) * dst, _mm_unpackhi_epi64(c[4 * g], c[4 * g + 2]));
    put128<NT>(d + (4 * g + 2) * dst, _mm_unpacklo_epi64(c[4 * g + 1], c[4 * g + 3]));
    put128<NT>(d + (4 * g + 3) * dst, _mm_unpackhi_epi64(c[4 * g + 1], c[4 * g + 3]));
  }
}

template <bool NT> inline void micro_u16_8(const byte* s, i64 sst, byte* d, i64 dst) {
  __m128i r[8], a[8], c[8];
  for (int k = 0; k < 8; ++k) r[k] = get128(s + k * sst);
  for (int i = 0; i < 4; ++i) {
    a[i] = _mm_unpacklo_epi16(r[2 * i], r[2 * i + 1]);      // columns 0..3 of rows 2i, 2i+1
    a[i + 4] = _mm_unpackhi_epi16(r[2 * i], r[2 * i + 1]);  // columns 4..7
  }
  for (int h = 0; h < 2; ++h) {  // h: column half
    c[4 * h + 0] = _mm_unpacklo_epi32(a[4 * h + 0], a[4 * h + 1]);
    c[4 * h + 1] = _mm_unpackhi_epi32(a[4 * h + 0], a[4 * h + 1]);
    c[4 * h + 2] = _mm_unpacklo_epi32(a[4 * h + 2], a[4 * h + 3]);
    c[4 * h + 3] = _mm_unpackhi_epi32(a[4 * h + 2], a[4 * h + 3]);
  }
  for (int h = 0; h < 2; ++h) {
    put128<NT>(d + (4 * h + 0) * dst, _mm_unpacklo_epi64(c[4 * h], c[4 * h + 2]));
    put128<NT>(d + (4 * h + 1) * dst, _mm_unpackhi_epi64(c[4 * h], c[4 * h + 2]));
    put128<NT>(d + (4 * h + 2) * dst, _mm_unpacklo_epi64(c[4 * h + 1], c[4 * h + 3]));
    put128<NT>(d + (4 * h + 3) * dst, _mm_unpackhi_epi64(c[4 * h + 1], c[4 * h + 3]));
  }
}
#endif

#if defined(STRIDED_AVX512)
// 16 rows of 16 4-byte units -> put(c, unit c of every row), each as soon as it is made (storing
// them there, not after all 16, keeps micro_u32_16 in registers: 0.76-0.84x otherwise).
template <class Put> STRIDED_ALWAYS_INLINE void u32_16x16(const __m512i r[16], Put&& put) {
  __m512i t[16], u[16];
  for (int k = 0; k < 8; ++k) {
    t[2 * k] = _mm512_unpacklo_epi32(r[2 * k], r[2 * k + 1]);
    t[2 * k + 1] = _mm512_unpackhi_epi32(r[2 * k], r[2 * k + 1]);
  }
  for (int k = 0; k < 4; ++k) {  // u[4k+j] lane L: column 4L+j of rows 4k..4k+3
    u[4 * k + 0] = _mm512_unpacklo_epi64(t[4 * k], t[4 * k + 2]);
    u[4 * k + 1] = _mm512_unpackhi_epi64(t[4 * k], t[4 * k + 2]);
    u[4 * k + 2] = _mm512_unpacklo_epi64(t[4 * k + 1], t[4 * k + 3]);
    u[4 * k + 3] = _mm512_unpackhi_epi64(t[4 * k + 1], t[4 * k + 3]);
  }
  for (int j = 0; j < 4; ++j) {
    __m512i q[4];
    lanes4x4(u[j], u[4 + j], u[8 + j], u[12 + j], q);
    for (int L = 0; L < 4; ++L) put(4 * L + j, q[L]);
  }
}
template <bool NT> inline void micro_u32_16(const byte* s, i64 sst, byte* d, i64 dst) {
  __m512i r[16];
  for (int k = 0; k < 16; ++k) r[k] = _mm512_loadu_si512(s + k * sst);
  u32_16x16(r, [&](int c, __m512i v) { put512<NT>(d + c * dst, v); });
}
// 8 rows of 8 8-byte units -> q[j] = unit j of every row.
STRIDED_ALWAYS_INLINE void u64_8x8(const __m512i r[8], __m512i q[8]) {
  __m512i t[8];
  for (int k = 0; k < 4; ++k) {  // t[2k+j] lane L: column 2L+j of rows 2k, 2k+1
    t[2 * k] = _mm512_unpacklo_epi64(r[2 * k], r[2 * k + 1]);
    t[2 * k + 1] = _mm512_unpackhi_epi64(r[2 * k], r[2 * k + 1]);
  }
  for (int j = 0; j < 2; ++j) {
    __m512i o[4];
    lanes4x4(t[j], t[2 + j], t[4 + j], t[6 + j], o);
    for (int L = 0; L < 4; ++L) q[2 * L + j] = o[L];
  }
}
template <bool NT> inline void micro_u64_8(const byte* s, i64 sst, byte* d, i64 dst) {
  __m512i r[8], q[8];
  for (int k = 0; k < 8; ++k) r[k] = _mm512_loadu_si512(s + k * sst);
  u64_8x8(r, q);
  for (int j = 0; j < 8; ++j) put512<NT>(d + j * dst, q[j]);
}

// float16 C = 24: 32 pixels of 24 planes <-> 32 packed pixel rows of 48 bytes, 24 whole lines
// each way (8x8 tiles of 16-byte rows stored 96 16-byte pieces, most of them lane extracts: about
// 22 GB/s on one thread here, in cache or streamed, against 38-49 for float32 C = 24). Per
// group of 8 planes, an 8x8 transpose of 8-byte units (4 pixels of a plane): unit m of group g
// holds channels 8g..8g+7 of pixels 4m..4m+3, word 4k+i channel 8g+k of pixel 4m+i. The 3 lines of
// pixels 4m..4m+3 (word f: pixel f/24, channel f%24) take each word from one of the 3 groups'
// unit m: a two-source word permute from groups 0 and 1, then group 2's words merged in.
struct C24Words {
  // [0]: lines from units (to pixel rows); [1]: units from lines (to planes).
  alignas(64) std::uint16_t a[2][3][32] = {}, b[2][3][32] = {};  // a: from sources 0/1; b: from 2
  std::uint32_t from2[2][3] = {};                                  // the words b supplies
};
constexpr C24Words c24_words() {
  C24Words w;
  for (int v = 0; v < 3; ++v)
    for (int u = 0; u < 32; ++u) {
      // To pixel rows: line v's word u is flat f = 32v + u; its source is unit g = channel / 8.
      const int f = 32 * v + u, i = f / 24, c = f % 24, word = 4 * (c % 8) + i;
      if (c / 8 == 2) w.b[0][v][u] = static_cast<std::uint16_t>(word), w.from2[0][v] |= 1u << u;
      else w.a[0][v][u] = static_cast<std::uint16_t>(32 * (c / 8) + word);
      // To planes: unit v's word u is channel 8v + u/4 of pixel u%4, word `at` of the 3 lines.
      const int at = 24 * (u % 4) + 8 * v + u / 4;
      if (at / 32 == 2) w.b[1][v][u] = static_cast<std::uint16_t>(at % 32), w.from2[1][v] |= 1u << u;
      else w.a[1][v][u] = static_cast<std::uint16_t>(at);
    }
  return w;
}
inline constexpr C24Words kC24 = c24_words();

// x[0..2] -> y[0..2] by table `dir` of kC24.
STRIDED_ALWAYS_INLINE void c24_mix(int dir, const __m512i x[3], __m512i y[3]) {
  for (int v = 0; v < 3; ++v) {
    const __m512i a = _mm512_load_si512(kC24.a[dir][v]), b = _mm512_load_si512(kC24.b[dir][v]);
    y[v] = _mm512_mask_permutexvar_epi16(_mm512_permutex2var_epi16(x[0], a, x[1]), kC24.from2[dir][v], b, x[2]);
  }
}

// Planes (plane c at s + c*ss0) -> 32 rows of 48 bytes at d.
template <bool NT> inline void planes24_u16(const byte* s, i64 ss0, byte* d) {
  __m512i q[3][8];
  for (int g = 0; g < 3; ++g) {
    __m512i r[8];
    for (int k = 0; k < 8; ++k) r[k] = _mm512_loadu_si512(s + (8 * g + k) * ss0);
    u64_8x8(r, q[g]);
  }
  for (int m = 0; m < 8; ++m) {
    const __m512i x[3] = {q[0][m], q[1][m], q[2][m]};
    __m512i y[3];
    c24_mix(0, x, y);
    for (int v = 0; v < 3; ++v) put512<NT>(d + 192 * m + 64 * v, y[v]);
  }
}

// 32 rows of 48 bytes at s -> planes (plane c at d + c*ds0).
template <bool NT> inline void rows24_u16(const byte* s, byte* d, i64 ds0) {
  __m512i q[3][8];
  for (int m = 0; m < 8; ++m) {
    const __m512i x[3] = {_mm512_loadu_si512(s + 192 * m), _mm512_loadu_si512(s + 192 * m + 64),
                          _mm512_loadu_si512(s + 192 * m + 128)};
    __m512i y[3];
    c24_mix(1, x, y);
    for (int g = 0; g < 3; ++g) q[g][m] = y[g];
  }
  for (int g = 0; g < 3; ++g) {
    __m512i r[8];
    u64_8x8(q[g], r);
    for (int k = 0; k < 8; ++k) put512<NT>(d + (8 * g + k) * ds0, r[k]);
  }
}
#endif
#if defined(STRIDED_AVX2)  // (AVX-512 targets too: micro256<4> finishes 16x16 tiling's edges)
template <bool NT> inline void put256(byte* p, __m256i v) {
  if (NT) _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v);
  else _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
}
// AVX2's register tiles, G = 32 / W rows of G units -> o[j] = unit j of every row: 8x8 of 4
// bytes, 4x4 of 8.
template <int W> STRIDED_ALWAYS_INLINE void tile256(const __m256i r[32 / W], __m256i o[32 / W]) {
  static_assert(W == 4 || W == 8, "4- and 8-byte units");
  if constexpr (W == 4) {
    const auto f = [&](int k) { return _mm256_castsi256_ps(r[k]); };
    const __m256 t0 = _mm256_unpacklo_ps(f(0), f(1)), t1 = _mm256_unpackhi_ps(f(0), f(1));
    const __m256 t2 = _mm256_unpacklo_ps(f(2), f(3)), t3 = _mm256_unpackhi_ps(f(2), f(3));
    const __m256 t4 = _mm256_unpacklo_ps(f(4), f(5)), t5 = _mm256_unpackhi_ps(f(4), f(5));
    const __m256 t6 = _mm256_unpacklo_ps(f(6), f(7)), t7 = _mm256_unpackhi_ps(f(6), f(7));
    const __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    const __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    const __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    const __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    const __m256 x[8] = {_mm256_permute2f128_ps(u0, u4, 0x20), _mm256_permute2f128_ps(u1, u5, 0x20),
                         _mm256_permute2f128_ps(u2, u6, 0x20), _mm256_permute2f128_ps(u3, u7, 0x20),
                         _mm256_permute2f128_ps(u0, u4, 0x31), _mm256_permute2f128_ps(u1, u5, 0x31),
                         _mm256_permute2f128_ps(u2, u6, 0x31), _mm256_permute2f128_ps(u3, u7, 0x31)};
    for (int k = 0; k < 8; ++k) o[k] = _mm256_castps_si256(x[k]);
  } else {
    const __m256i t0 = _mm256_unpacklo_epi64(r[0], r[1]), t1 = _mm256_unpackhi_epi64(r[0], r[1]);
    const __m256i t2 = _mm256_unpacklo_epi64(r[2], r[3]), t3 = _mm256_unpackhi_epi64(r[2], r[3]);
    o[0] = _mm256_permute2x128_si256(t0, t2, 0x20), o[1] = _mm256_permute2x128_si256(t1, t3, 0x20);
    o[2] = _mm256_permute2x128_si256(t0, t2, 0x31), o[3] = _mm256_permute2x128_si256(t1, t3, 0x31);
  }
}
// The micro-tiles of tile256: source row k at s + k*sst, destination row j at d + j*dst.
template <int W, bool NT> inline void micro256(const byte* s, i64 sst, byte* d, i64 dst) {
  constexpr int G = 32 / W;
  __m256i r[G], o[G];
  for (int k = 0; k < G; ++k) r[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + k * sst));
  tile256<W>(r, o);
  for (int k = 0; k < G; ++k) put256<NT>(d + k * dst, o[k]);
}
#elif defined(STRIDED_SSE2)
template <bool NT> inline void micro_u32_4(const byte* s, i64 sst, byte* d, i64 dst) {
  __m128i r[4];
  for (int k = 0; k < 4; ++k) r[k] = get128(s + k * sst);
  const __m128i t0 = _mm_unpacklo_epi32(r[0], r[1]), t1 = _mm_unpackhi_epi32(r[0], r[1]);
  const __m128i t2 = _mm_unpacklo_epi32(r[2], r[3]), t3 = _mm_unpackhi_epi32(r[2], r[3]);
  put128<NT>(d, _mm_unpacklo_epi64(t0, t2));
  put128<NT>(d + dst, _mm_unpackhi_epi64(t0, t2));
  put128<NT>(d + 2 * dst, _mm_unpacklo_epi64(t1, t3));
  put128<NT>(d + 3 * dst, _mm_unpackhi_epi64(t1, t3));
}
template <bool NT> inline void micro_u64_2(const byte* s, i64 sst, byte* d, i64 dst) {
  const __m128i r0 = get128(s), r1 = get128(s + sst);
  put128<NT>(d, _mm_unpacklo_epi64(r0, r1));
  put128<NT>(d + dst, _mm_unpackhi_epi64(r0, r1));
}
#endif

#if defined(SK_VB)
// Lane-parallel micro-tiles for 1- and 2-byte elements: the unpack network works within each
// 128-bit lane, so one AVX2 / AVX-512 register transposes 2 / 4 independent tiles at once
// (tile l covers destination rows [l*E, (l+1)*E), E = 16 / W). Used on the L1 staging buffers.
template <int E> inline vec unpacklo(vec a, vec b);
template <int E> inline vec unpackhi(vec a, vec b);
#define SK_UNPACK(E, lo, hi)                                            \
  template <> inline vec unpacklo<E>(vec a, vec b) { return lo(a, b); } \
  template <> inline vec unpackhi<E>(vec a, vec b) { return hi(a, b); }
#if defined(STRIDED_AVX512)
SK_UNPACK(8, _mm512_unpacklo_epi8, _mm512_unpackhi_epi8)
SK_UNPACK(16, _mm512_unpacklo_epi16, _mm512_unpackhi_epi16)
SK_UNPACK(32, _mm512_unpacklo_epi32, _mm512_unpackhi_epi32)
SK_UNPACK(64, _mm512_unpacklo_epi64, _mm512_unpackhi_epi64)
template <int l> inline __m128i lane(vec v) { return _mm512_extracti32x4_epi32(v, l); }
#elif defined(STRIDED_AVX2)
SK_UNPACK(8, _mm256_unpacklo_epi8, _mm256_unpackhi_epi8)
SK_UNPACK(16, _mm256_unpacklo_epi16, _mm256_unpackhi_epi16)
SK_UNPACK(32, _mm256_unpacklo_epi32, _mm256_unpackhi_epi32)
SK_UNPACK(64, _mm256_unpacklo_epi64, _mm256_unpackhi_epi64)
template <int l> inline __m128i lane(vec v) {
  if constexpr (l == 0) return _mm256_castsi256_si128(v);
  else return _mm256_extracti128_si256(v, 1);
}
#elif defined(SK_NEON)
// AArch64's zip1/zip2 are SSE2's unpacklo/unpackhi.
#define SK_ZIP(E, T)                                                                               \
  inline vec zip1_##E(vec a, vec b) {                                                              \
    return vreinterpretq_u8_##T(vzip1q_##T(vreinterpretq_##T##_u8(a), vreinterpretq_##T##_u8(b))); \
  }                                                                                                \
  inline vec zip2_##E(vec a, vec b) {                                                              \
    return vreinterpretq_u8_##T(vzip2q_##T(vreinterpretq_##T##_u8(a), vreinterpretq_##T##_u8(b))); \
  }
inline vec zip1_8(vec a, vec b) { return vzip1q_u8(a, b); }
inline vec zip2_8(vec a, vec b) { return vzip2q_u8(a, b); }
SK_ZIP(16, u16)
SK_ZIP(32, u32)
SK_ZIP(64, u64)
#undef SK_ZIP
SK_UNPACK(8, zip1_8, zip2_8)
SK_UNPACK(16, zip1_16, zip2_16)
SK_UNPACK(32, zip1_32, zip2_32)
SK_UNPACK(64, zip1_64, zip2_64)
template <int l> inline vec lane(vec v) { return v; }
#else
SK_UNPACK(8, _mm_unpacklo_epi8, _mm_unpackhi_epi8)
SK_UNPACK(16, _mm_unpacklo_epi16, _mm_unpackhi_epi16)
SK_UNPACK(32, _mm_unpacklo_epi32, _mm_unpackhi_epi32)
SK_UNPACK(64, _mm_unpacklo_epi64, _mm_unpackhi_epi64)
template <int l> inline __m128i lane(vec v) { return v; }
#endif
#undef SK_UNPACK

constexpr int kLanes = SK_VB / 16;

// Row o of the first NL lanes' tiles to destination rows l*E + o.
template <int E, int NL = kLanes, int l = 0> inline void put_lanes(byte* d, i64 dst, int o, vec v) {
#if defined(SK_NEON)
  vstore(d + (l * E + o) * dst, lane<l>(v));
#else
  _mm_storeu_si128(reinterpret_cast<__m128i*>(d + (l * E + o) * dst), lane<l>(v));
#endif
  if constexpr (l + 1 < NL) put_lanes<E, NL, l + 1>(d, dst, o, v);
}

// The first NL 16-byte lanes at p, the rest zero: a masked load never reads the bytes past them
// (AVX-512 only has partial wide tiles).
template <int NL> inline vec vload_lanes(const byte* p) {
#if defined(STRIDED_AVX512)
  if constexpr (NL < kLanes) return _mm512_maskz_loadu_epi8(_cvtu64_mask64((std::uint64_t{1} << (16 * NL)) - 1), p);
#else
  static_assert(NL == kLanes, "partial wide tiles need masked loads");
#endif
  return vload(p);
}

// The last two stages of the in-lane unpack networks: 4 vectors of 4 32-bit units per lane ->
// o[q], unit q of each (a 4x4 transpose of 32-bit units within every lane).
STRIDED_ALWAYS_INLINE void u32_4x4(const vec b[4], vec o[4]) {
  const vec c0 = unpacklo<32>(b[0], b[1]), c1 = unpackhi<32>(b[0], b[1]);
  const vec c2 = unpacklo<32>(b[2], b[3]), c3 = unpackhi<32>(b[2], b[3]);
  o[0] = unpacklo<64>(c0, c2), o[1] = unpackhi<64>(c0, c2), o[2] = unpacklo<64>(c1, c3), o[3] = unpackhi<64>(c1, c3);
}

// 16 rows of SK_VB bytes -> o[j], whose lane l holds column l*16 + j of the 16 rows (kLanes
// independent 16x16 byte tiles).
STRIDED_ALWAYS_INLINE void u8_lanes16(const vec r[16], vec o[16]) {
  vec a[16], b[16];
  for (int i = 0; i < 8; ++i) {
    a[i] = unpacklo<8>(r[2 * i], r[2 * i + 1]);
    a[i + 8] = unpackhi<8>(r[2 * i], r[2 * i + 1]);
  }
  for (int i = 0; i < 4; ++i) {
    b[i] = unpacklo<16>(a[2 * i], a[2 * i + 1]);
    b[i + 4] = unpackhi<16>(a[2 * i], a[2 * i + 1]);
    b[i + 8] = unpacklo<16>(a[2 * i + 8], a[2 * i + 9]);
    b[i + 12] = unpackhi<16>(a[2 * i + 8], a[2 * i + 9]);
  }
  for (int g = 0; g < 4; ++g) u32_4x4(b + 4 * g, o + 4 * g);
}

// 8 rows of SK_VB bytes -> o[j], whose lane l holds column l*8 + j of the 8 rows (kLanes
// independent 8x8 tiles of 2-byte elements).
STRIDED_ALWAYS_INLINE void u16_lanes8(const vec r[8], vec o[8]) {
  vec a[8];
  for (int i = 0; i < 4; ++i) {
    a[i] = unpacklo<16>(r[2 * i], r[2 * i + 1]);
    a[i + 4] = unpackhi<16>(r[2 * i], r[2 * i + 1]);
  }
  for (int h = 0; h < 2; ++h) u32_4x4(a + 4 * h, o + 4 * h);
}

// E = 16 / W rows (1-, 2- or 4-byte elements) -> o[j], whose lane l holds column l*E + j (an
// E x E transpose within every lane; applied twice, the identity).
template <int W> STRIDED_ALWAYS_INLINE void lane_tiles(const vec r[16 / W], vec o[16 / W]) {
  if constexpr (W == 1) u8_lanes16(r, o);
  else if constexpr (W == 2) u16_lanes8(r, o);
  else u32_4x4(r, o);
}

// Lane l of o[j] (16 bytes) to q + (E*l + j)*st, in that (pixel) order.
template <int E, int l = 0> STRIDED_ALWAYS_INLINE void put_pixels(byte* q, i64 st, const vec o[E]) {
  for (int j = 0; j < E; ++j) {
#if defined(SK_NEON)
    vstore(q + (l * E + j) * st, lane<l>(o[j]));
#else
    _mm_storeu_si128(reinterpret_cast<__m128i*>(q + (l * E + j) * st), lane<l>(o[j]));
#endif
  }
  if constexpr (l + 1 < kLanes) put_pixels<E, l + 1>(q, st, o);
}
// Lane l: the 16 bytes at p + l*step.
inline vec load_lanes(const byte* p, i64 step) {
#if defined(STRIDED_AVX512)
  const vec v = _mm512_inserti32x4(_mm512_castsi128_si512(get128(p)), get128(p + step), 1);
  return _mm512_inserti32x4(_mm512_inserti32x4(v, get128(p + 2 * step), 2), get128(p + 3 * step), 3);
#elif defined(STRIDED_AVX2)
  return _mm256_inserti128_si256(_mm256_castsi128_si256(get128(p)), get128(p + step), 1);
#else
  (void)step;
  return vload(p);
#endif
}
// Pixels of C elements of W = 1 or 2 bytes that are not whole 16-byte lanes (uint8 C = 5..15,
// 17..63; float16 C = 9..15, 17..63), C at run time: groups of E = 16 / W planes, the last one
// padded with zero planes, each transposed within its lanes (lane l of o[j] is then pixel
// El + j's 16 bytes of the group), kLanes * E pixels at a time. Interleaved into rows of C elements at d
// (16 bytes of slack past the last), one 16-byte store per pixel and group: the padded group's
// stores pass the pixel's end by under 16 bytes, into the next pixel's first group (the padded
// group is stored first, in pixel order, and the first group after it). Returns the pixels done.
template <int W> STRIDED_ALWAYS_INLINE i64 interleave_groups(const byte* s, i64 ss0, byte* d, i64 n1, i64 C) {
  constexpr int E = 16 / W, P = kLanes * E;
  const i64 RW = C * W, G = (C + E - 1) / E;
  i64 r = 0;
  for (; r + P <= n1; r += P) {
    for (i64 t = 0; t < G; ++t) {
      const i64 g = t == 0 ? G - 1 : t - 1;
      vec v[E], o[E];
      for (int k = 0; k < E; ++k) v[k] = g * E + k < C ? vload(s + (g * E + k) * ss0 + r * W) : vbroadcast<1>(0);
      lane_tiles<W>(v, o);
      put_pixels<E>(d + r * RW + g * 16, RW, o);
    }
  }
  return r;
}
// The inverse: pixels of C elements (rows RW = C*W bytes apart at s) into C planes (plane c at
// d + c*ds1), kLanes * E pixels at a time: lane l of v[k] the 16 bytes of group g of pixel El + k. The
// padded group's loads read up to 16 bytes past a pixel: blocks stop where that would pass the
// last one. Each group takes KB blocks in turn, so that every plane gets KB lines at once (the
// source read again from L1 / L2 per group); one thread, uint8 C = 24: 1 MiB KB 1 -> 8 21 -> 31
// GB/s, 32 MiB 1 -> 32 5.2 -> 10.7 (64: 11.0). Returns the pixels done.
template <int W, bool NT> STRIDED_ALWAYS_INLINE i64 deinterleave_groups(const byte* s, byte* d, i64 ds1, i64 n, i64 C,
                                                                        i64 KB) {
  constexpr int E = 16 / W, P = kLanes * E;
  const i64 RW = C * W, G = (C + E - 1) / E;
  const auto fits = [&](i64 j) { return (j + P) * RW + G * 16 - RW <= n * RW; };
  i64 i = 0;
  while (fits(i)) {
    i64 nb = 1;
    while (nb < KB && fits(i + nb * P)) ++nb;
    for (i64 g = 0; g < G; ++g) {
      for (i64 b = i; b < i + nb * P; b += P) {
        vec v[E], o[E];
        for (int k = 0; k < E; ++k) v[k] = load_lanes(s + (b + k) * RW + g * 16, E * RW);
        lane_tiles<W>(v, o);
        for (int c = 0; c < E; ++c) {  // (a fixed count: o stays in registers)
          byte* q = d + (g * E + c) * ds1 + b * W;
          if (g * E + c >= C) continue;
          if (NT) vstream(q, o[c]);
          else vstore(q, o[c]);
        }
      }
    }
    i += nb * P;
  }
  return i;
}

#if defined(STRIDED_AVX512)
// Planes into pixels of G 16-byte lanes (G = 1: uint8 C = 16, float16 C = 8; G = 2: uint8 C = 32,
// float16 C = 16, float32 C = 8, nChw8c), 64 / W pixels at a time: G groups of 16 / W planes
// transposed within their lanes (lane l of o[g][j] is then group g's part of pixel El + j), and
// lanes4x4 gathers whole pixels, 4 / G to a vector. Per vector 4 shuffles (G = 2, 32-bit and
// 16-bit units; bytes 6), where the permute chains take C - 1 (and bytes had only an element
// loop or the tiles). One thread, AMD Zen 5, GB/s: float32 C = 8 (1, 8, 64, 64) in cache
// 53.4 -> 74.8; float16 C = 16 (the panels before) (4, 16, 64, 64) in cache 17.9 -> 39.4,
// (32, 16, 128, 128) streamed 15.5 -> 23; uint8 C = 16 (1, 16, 256, 256) 15.1 -> 37.5,
// (32, 16, 256, 256) streamed 8.8 -> 20.7; uint8 C = 32 (1, 32, 181, 181) 16.8 -> 30.5;
// float16 C = 8 (1, 8, 181, 181) 51.5 -> 58.9. Returns the rows done.
template <int W, int G, bool NT> inline i64 interleave_lanes(const byte* s, i64 ss0, byte* d, i64 n1) {
  static_assert(W <= 4 && (G == 1 || G == 2), "pixels of one or two 16-byte lanes");
  constexpr int E = 16 / W, P = 4 * E;  // elements per lane; pixels per block (a vector per plane)
  i64 r = 0;
  for (; r + P <= n1; r += P) {
    vec o[G][E];
    for (int g = 0; g < G; ++g) {
      vec v[E];
      for (int k = 0; k < E; ++k) v[k] = vload(s + (g * E + k) * ss0 + r * W);
      lane_tiles<W>(v, o[g]);
    }
    for (int j = 0; j < E; j += 4 / G) {  // t[l]: pixels El + j .. El + j + 4/G - 1
      vec t[4];
      lanes4x4(o[0][j], o[1 % G][j + 1 / G], o[0][j + 2 / G], o[(3 % G)][j + 3 / G], t);
      for (int l = 0; l < 4; ++l) put512<NT>(d + (r + E * l + j) * 16 * G, t[l]);
    }
  }
  return r;
}
// The inverse (nChw8c -> NCHW, ...): both steps are transposes, so the same two undo them in the
// other order. Rows (planes) r at d + r*ds1; returns the pixels done. One thread, GB/s, against
// the permute chains (float32) and the panels (float16): float32 C = 8 (1, 64, 64, 8) 51.3 ->
// 72.3, (64, 128, 128, 8) streamed 19.4 -> 27.6; float16 C = 16 (8, 56, 56, 16) 23.4 -> 50.6,
// (32, 128, 128, 16) streamed 13.2 -> 28.1 (2 threads 36.9 -> 62.2); uint8 C = 32 (16, 256, 256,
// 32) streamed 11.6 -> 16.9 (in cache, (1, 181, 181, 32), on par with the tiles).
template <int W, int G, bool NT> inline i64 deinterleave_lanes(const byte* s, byte* d, i64 ds1, i64 n) {
  constexpr int E = 16 / W, P = 4 * E;
  i64 i = 0;
  for (; i + P <= n; i += P) {
    vec o[G][E];
    for (int j = 0; j < E; j += 4 / G) {
      vec t[4], x[4];
      for (int l = 0; l < 4; ++l) t[l] = vload(s + (i + E * l + j) * 16 * G);
      lanes4x4(t[0], t[1], t[2], t[3], x);
      for (int m = 0; m < 4; ++m) o[m % G][j + m / G] = x[m];
    }
    for (int g = 0; g < G; ++g) {
      vec v[E];
      lane_tiles<W>(o[g], v);
      for (int k = 0; k < E; ++k) put512<NT>(d + (g * E + k) * ds1 + i * W, v[k]);
    }
  }
  return i;
}
#endif

// E = 16 / W source rows of 16*NL bytes -> NL tiles of E x E elements of W = 1 or 2 bytes.
template <int W, int NL = kLanes> inline void wide(const byte* s, i64 sst, byte* d, i64 dst) {
  constexpr int E = 16 / W;
  vec r[E], o[E];
  for (int k = 0; k < E; ++k) r[k] = vload_lanes<NL>(s + k * sst);
  lane_tiles<W>(r, o);
  for (int j = 0; j < E; ++j) put_lanes<E, NL>(d, dst, j, o[j]);
}

#if defined(STRIDED_AVX2) && !defined(STRIDED_AVX512)
// 16 source rows of 32 bytes -> 16x16 2-byte elements: two groups of 8 rows transposed within
// their lanes, then each destination row joined from the two groups' halves (one 32-byte store
// per row instead of two 16-byte ones).
inline void wide16_u16(const byte* s, i64 sst, byte* d, i64 dst) {
  vec r[8], a[8], b[8];
  for (int k = 0; k < 8; ++k) r[k] = vload(s + k * sst);
  u16_lanes8(r, a);
  for (int k = 0; k < 8; ++k) r[k] = vload(s + (8 + k) * sst);
  u16_lanes8(r, b);
  for (int j = 0; j < 8; ++j) {
    vstore(d + j * dst, _mm256_permute2x128_si256(a[j], b[j], 0x20));
    vstore(d + (8 + j) * dst, _mm256_permute2x128_si256(a[j], b[j], 0x31));
  }
}
#endif

#if defined(STRIDED_AVX512)
// 32x32 2-byte elements, each row a whole 64-byte line: four groups of 8 rows transposed within
// their lanes, then the lanes of the four groups exchanged (destination row 8l + j is lane l of
// every group's o[j]).
template <bool NT> inline void micro_u16_32(const byte* s, i64 sst, byte* d, i64 dst) {
  vec o[4][8];
  for (int g = 0; g < 4; ++g) {
    vec r[8];
    for (int k = 0; k < 8; ++k) r[k] = vload(s + (8 * g + k) * sst);
    u16_lanes8(r, o[g]);
  }
  for (int j = 0; j < 8; ++j) {
    __m512i t[4];
    lanes4x4(o[0][j], o[1][j], o[2][j], o[3][j], t);
    for (int l = 0; l < 4; ++l) put512<NT>(d + (8 * l + j) * dst, t[l]);
  }
}
#endif
#endif

#if defined(SK_NEON)
// 4x4 (4-byte) and 2x2 (8-byte) tiles: one register per row, the unpack network above.
inline void neon_u32_4(const byte* s, i64 sst, byte* d, i64 dst) {
  const vec r0 = vload(s), r1 = vload(s + sst), r2 = vload(s + 2 * sst), r3 = vload(s + 3 * sst);
  const vec t0 = unpacklo<32>(r0, r1), t1 = unpackhi<32>(r0, r1);
  const vec t2 = unpacklo<32>(r2, r3), t3 = unpackhi<32>(r2, r3);
  vstore(d, unpacklo<64>(t0, t2));
  vstore(d + dst, unpackhi<64>(t0, t2));
  vstore(d + 2 * dst, unpacklo<64>(t1, t3));
  vstore(d + 3 * dst, unpackhi<64>(t1, t3));
}
inline void neon_u64_2(const byte* s, i64 sst, byte* d, i64 dst) {
  const vec r0 = vload(s), r1 = vload(s + sst);
  vstore(d, unpacklo<64>(r0, r1));
  vstore(d + dst, unpackhi<64>(r0, r1));
}
#endif

// Micro-tile edge per width for this target (0: none, use the blocked scalar loop).
template <int W> constexpr int tile_edge() {
#if defined(STRIDED_AVX512)
  return W == 1 ? 16 : W == 2 ? 8 : W == 4 ? 16 : 8;
#elif defined(STRIDED_AVX2)
  return W == 1 ? 16 : W == 2 ? 8 : W == 4 ? 8 : 4;
#elif defined(STRIDED_SSE2) || defined(SK_NEON)
  return W == 1 ? 16 : W == 2 ? 8 : W == 4 ? 4 : 2;
#else
  return 0;
#endif
}

template <int W, bool NT> inline void micro(const byte* s, i64 sst, byte* d, i64 dst) {
#if defined(STRIDED_SSE2)
  if constexpr (W == 1) micro_u8_16<NT>(s, sst, d, dst);
  else if constexpr (W == 2) micro_u16_8<NT>(s, sst, d, dst);
#if defined(STRIDED_AVX512)
  else if constexpr (W == 4) micro_u32_16<NT>(s, sst, d, dst);
  else micro_u64_8<NT>(s, sst, d, dst);
#elif defined(STRIDED_AVX2)
  else micro256<W, NT>(s, sst, d, dst);
#else
  else if constexpr (W == 4) micro_u32_4<NT>(s, sst, d, dst);
  else micro_u64_2<NT>(s, sst, d, dst);
#endif
#elif defined(SK_NEON)
  if constexpr (W <= 2) wide<W>(s, sst, d, dst);
  else if constexpr (W == 4) neon_u32_4(s, sst, d, dst);
  else neon_u64_2(s, sst, d, dst);
#else
  (void)s, (void)sst, (void)d, (void)dst;
#endif
}

inline void prefetch_l2(const byte* p) {
#if defined(STRIDED_SSE2)
  _mm_prefetch(reinterpret_cast<const char*>(p), _MM_HINT_T1);
#elif defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p, 0, 2);
#else
  (void)p;
#endif
}

// Cache block (macro-tile) edge in elements: two blocks of about 16-32 KiB stay in L1/L2.
template <int W> constexpr i64 block_edge() { return W == 1 ? 128 : W == 2 ? 64 : W == 4 ? 64 : 32; }

#if defined(SK_VB)
// Staged block shape (measured on the 2-core dev VM, 128 MiB transposes): BI source rows of BR
// elements; 32 KiB per staging buffer. BI*W is a multiple of 64 (whole destination lines).
template <int W> constexpr i64 stage_bi() { return W == 1 ? 128 : W == 2 ? 64 : W == 4 ? 64 : 32; }
template <int W> constexpr i64 stage_br() { return W <= 2 ? 256 : 128; }

// One full BI x BR block, staged twice through L1 (HPTT's macro-tile): the BI source rows
// (BR elements each) are copied whole into a contiguous buffer (each source line read once;
// power-of-two strides cannot thrash a cache set), transposed there by micro-tiles into a
// second buffer, and written out a whole destination row segment (BI*W bytes, a multiple of 64)
// at a time, with streaming stores when NT (then d and ds1 are 64-byte aligned).
template <int W, bool NT>
inline void block_staged(const byte* s, i64 ss0, byte* d, i64 ds1, const byte* next) {
  constexpr i64 T = tile_edge<W>(), BI = stage_bi<W>(), BR = stage_br<W>(), RS = BR * W, RD = BI * W;
  alignas(64) byte sb[BI * RS];
  alignas(64) byte db[BR * RD];
  for (i64 k = 0; k < BI; ++k) {
    // The source side is latency-bound (each row contributes a few lines): ask for the next
    // block's lines while this one is copied.
    for (i64 q = 0; q < RS; q += 64) prefetch_l2(next + k * ss0 + q);
    for (i64 q = 0; q < RS; q += SK_VB) vstore(sb + k * RS + q, vload(s + k * ss0 + q));
  }
  if constexpr (W <= 2) {
    constexpr i64 C = SK_VB / W;  // destination rows per wide micro-tile
    for (i64 r = 0; r < BR; r += C)
      for (i64 i = 0; i < BI; i += T) wide<W>(sb + i * RS + r * W, RS, db + r * RD + i * W, RD);
  } else {
    for (i64 r = 0; r < BR; r += T)
      for (i64 i = 0; i < BI; i += T) micro<W, false>(sb + i * RS + r * W, RS, db + r * RD + i * W, RD);
  }
  for (i64 j = 0; j < BR; ++j)
    for (i64 q = 0; q < RD; q += SK_VB) {
      if (NT) vstream(d + j * ds1 + q, vload(db + j * RD + q));
      else vstore(d + j * ds1 + q, vload(db + j * RD + q));
    }
}
#endif

#if defined(SK_VB)
// ------------------------------------------------------------------ panels: one short side
// NCHW <-> NHWC with C = 16..256: one side of the transpose is a short packed row (C elements),
// too short for the square blocks above. A panel takes whole short rows: the long side cut in
// pieces of m, tiled in L1 and written as long runs, so each source line is read once and each
// destination line written once, whole, with no peeled columns or scalar edges.
constexpr i64 kPanel = 16384;  // bytes per staging buffer
template <int W> constexpr i64 panel_rc() { return W <= 2 ? SK_VB / W : tile_edge<W>(); }

// The multiple of which tile_area's rows and columns must be.
template <int W> constexpr i64 area_edge() {
#if defined(STRIDED_AVX512)
  if constexpr (W == 4) return 8;
#endif
  return tile_edge<W>();
}

// Wide tiles of NL lanes (T columns each) down `rows` rows (a multiple of T).
template <int W, int NL> inline void wide_part(const byte* sb, i64 RS, byte* db, i64 RD, i64 rows) {
  for (i64 i = 0; i < rows; i += tile_edge<W>()) wide<W, NL>(sb + i * RS, RS, db + i * W, RD);
}

// `rows` rows (stride RS) of `cols` elements -> `cols` rows (stride RD) of `rows` elements;
// rows % area_edge, cols % area_edge (wide tiles of panel_rc columns, then micro-tiles).
template <int W> inline void tile_area(const byte* sb, i64 RS, byte* db, i64 RD, i64 rows, i64 cols) {
  constexpr i64 T = tile_edge<W>(), RC = panel_rc<W>();
#if defined(STRIDED_AVX512)
  if constexpr (W == 4) {  // 16x16 tiles, and 8x8 ones for the rows and columns past them
    const i64 r16 = rows / 16 * 16, c16 = cols / 16 * 16;
    for (i64 c = 0; c < c16; c += 16)
      for (i64 i = 0; i < r16; i += 16) micro_u32_16<false>(sb + i * RS + c * W, RS, db + c * RD + i * W, RD);
    for (i64 c = 0; c < cols; c += 8)  // the 8x8 edges: rows past r16 in every column, then the last 8 columns
      for (i64 i = c < c16 ? r16 : 0; i < rows; i += 8)
        micro256<4, false>(sb + i * RS + c * W, RS, db + c * RD + i * W, RD);
    return;
  }
#endif
#if defined(STRIDED_AVX512)
  // Packed float16 rows of C = 24 (NHWC -> NCHW into the cache): whole lines (rows24_u16; one
  // thread, 0.1-6 MiB, processes alternated: 1.08-1.17x the three 8-row partial wide tiles below).
  if constexpr (W == 2) {
    if (cols == 24 && RS == 48 && rows >= 32) {
      const i64 r32 = rows / 32 * 32;
      for (i64 i = 0; i < r32; i += 32) rows24_u16<false>(sb + i * RS, db + i * W, RD);
      sb += r32 * RS, db += r32 * W, rows -= r32;
    }
  }
#endif
  i64 c = 0;
#if defined(STRIDED_AVX2) && !defined(STRIDED_AVX512)
  // 2-byte elements, rows a multiple of 16: 16x16 tiles with whole 32-byte stores (same-process
  // A/B: NHWC -> NCHW float16 C = 24..128 1.05-1.11x on 2 threads; NCHW -> NHWC 1.00-1.03x, and
  // C = 24, whose 24 rows would mix both tiles, 0.96x, so it keeps the 8-row tiles).
  if constexpr (W == 2) {
    if (rows % 16 == 0)
      for (; c + RC <= cols; c += RC)
        for (i64 i = 0; i < rows; i += 16) wide16_u16(sb + i * RS + c * W, RS, db + c * RD + i * W, RD);
  }
#endif
  for (; c + RC <= cols; c += RC)
    for (i64 i = 0; i < rows; i += T) {
      if constexpr (W <= 2) wide<W>(sb + i * RS + c * W, RS, db + c * RD + i * W, RD);
      else micro<W, false>(sb + i * RS + c * W, RS, db + c * RD + i * W, RD);
    }
#if defined(STRIDED_AVX512)
  // 1- and 2-byte elements: 2 or 3 lanes' worth of columns past the wide tiles in partial wide
  // tiles (NHWC -> NCHW float16 C = 24: three 8x8 micro-tiles, one 16-byte lane each, cost
  // three times the shuffles).
  if constexpr (W <= 2) {
    if (cols - c == 2 * T) wide_part<W, 2>(sb + c * W, RS, db + c * RD, RD, rows);
    else if (cols - c == 3 * T) wide_part<W, 3>(sb + c * W, RS, db + c * RD, RD, rows);
    if (cols - c >= 2 * T) c = cols;
  }
#endif
  for (; c < cols; c += T)  // 1- and 2-byte elements: the columns past the wide tiles, in micro-tiles
    for (i64 i = 0; i < rows; i += T) micro<W, false>(sb + i * RS + c * W, RS, db + c * RD + i * W, RD);
}

// n bytes from b to d; when NT, the whole lines of d streamed, its partial lines stored normally.
template <bool NT> inline void put_run(byte* d, const byte* b, i64 n) {
  i64 q = 0;
  if (NT) {
    q = imin(n, to_line<1>(d));
    std::memcpy(d, b, static_cast<std::size_t>(q));
    for (; q + 64 <= n; q += 64)
      for (i64 k = q; k < q + 64; k += SK_VB) vstream(d + k, vload(b + k));
  } else {
    // From the first aligned vector on (one unaligned vector before it): a store that straddles
    // two lines costs two (numpy's arrays start 16 bytes into a line; NHWC -> NCHW float32 C = 64,
    // one thread, in cache, 1.2x faster).
    if (n >= 2 * SK_VB) {
      q = static_cast<i64>((0 - addr(d)) & (SK_VB - 1));
      if (q > 0) vstore(d, vload(b));
    }
    for (; q + SK_VB <= n; q += SK_VB) vstore(d + q, vload(b + q));
  }
  std::memcpy(d + q, b + q, static_cast<std::size_t>(n - q));
}

// Line micro-tiles: T x T elements with T*W = 64, so that each row of a tile is a whole line
// (AVX-512: 64x64 bytes, 32x32 2-byte, 16x16 4-byte, 8x8 8-byte elements; 0 where the target
// has none).
template <int W> constexpr i64 line_edge() {
#if defined(STRIDED_AVX512)
  return 64 / W;
#else
  return 0;
#endif
}
#if defined(STRIDED_AVX512)
// K line micro-tiles of 1- or 2-byte elements side by side along the source rows: tile j reads
// line j of its T rows (at s + 64 j) and writes destination rows jT..jT + T - 1. Vector (c, k) of
// a tile holds, lane g, the 16 bytes c of row gE + k (E = 16 / W): its in-lane transposes
// (u8_lanes16, u16_lanes8) leave each of those 16 bytes' columns as one whole destination line.
// The four rows k, E + k, 2E + k, 3E + k are loaded once each and their lanes exchanged into the
// vectors of c = 0..3, staged in L1 (T vectors per tile do not fit the registers for bytes).
// Planes a multiple of 4 KiB apart put a tile's T lines in one L1 set, which refills few lines
// at once (a probe reading 64 lines of one set ran at 48 GB/s, the same lines spread over sets
// at 136, one line of 4 sets in turn at 90): K tiles load a line of each in turn (tile_rows).
template <int W, bool NT, int K> inline void line_tiles(const byte* s, i64 sst, byte* d, i64 dst) {
  static_assert(W <= 2, "4- and 8-byte line tiles fit the registers (micro_u32_16, micro_u64_8)");
  constexpr int T = 64 / W, E = 16 / W;
  alignas(64) byte b[K][T * 64];
  for (int k = 0; k < E; ++k)
    for (int j = 0; j < K; ++j) {
      const byte* p = s + 64 * j + k * sst;
      __m512i x[4];
      lanes4x4(vload(p), vload(p + E * sst), vload(p + 2 * E * sst), vload(p + 3 * E * sst), x);
      for (int c = 0; c < 4; ++c) _mm512_store_si512(b[j] + (c * E + k) * 64, x[c]);
    }
  for (int j = 0; j < K; ++j)
    for (int c = 0; c < 4; ++c) {
      vec r[E], o[E];
      for (int k = 0; k < E; ++k) r[k] = _mm512_load_si512(b[j] + (c * E + k) * 64);
      lane_tiles<W>(r, o);
      for (int q = 0; q < E; ++q) put512<NT>(d + (j * T + c * E + q) * dst, o[q]);
    }
}
#endif
template <int W, bool NT> inline void line_micro(const byte* s, i64 sst, byte* d, i64 dst) {
#if defined(STRIDED_AVX512)
  if constexpr (W == 1) {
    line_tiles<1, NT, 1>(s, sst, d, dst);
    return;
  }
  if constexpr (W == 2) {
    micro_u16_32<NT>(s, sst, d, dst);
    return;
  }
#endif
  micro<W, NT>(s, sst, d, dst);
}

#if defined(STRIDED_AVX512)
inline __mmask64 lanes(unsigned a, unsigned b) {  // [a, b), 0 <= a < b <= 64
  return _cvtu64_mask64((b == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << b) - 1) & ~((std::uint64_t{1} << a) - 1));
}
#endif
// Bytes [a, b) of the 64 at p to the 64 at q, 0 <= a < b <= 64 (a masked store never touches the
// other lanes' bytes).
inline void put_lanes(byte* q, const byte* p, unsigned a, unsigned b) {
#if defined(STRIDED_AVX512)
  _mm512_mask_storeu_epi8(q, lanes(a, b), _mm512_loadu_si512(p));
#else
  std::memcpy(q + a, p + a, b - a);
#endif
}

// Planes [nl, nc) past the line tiles of one tile row (T rows; source row r at s + r*W, destination
// row r at o + r*ds1), in 8x8 tiles: 8 float32 ones (C = 24, 40, ...) or 8-24 float16 ones
// (C = 40, 48, ...); float16 C = 24 (no line tile) in whole lines (planes24_u16).
template <int W>
STRIDED_ALWAYS_INLINE void rest_tiles(const byte* s, i64 ss0, byte* o, i64 ds1, i64 nl, i64 nc) {
#if defined(STRIDED_AVX512)
  constexpr i64 T = line_edge<W>();
  if constexpr (W == 4) {
    if (nl < nc)
      for (i64 h = 0; h < T; h += 8) micro256<4, false>(s + nl * ss0 + h * W, ss0, o + h * ds1 + nl * W, ds1);
  } else if constexpr (W == 2) {
    if (nl == 0 && nc == 24 && ds1 == 48) {  // one thread: 1.5 MiB in cache 25 -> 41 GB/s, 12 MiB streamed 23 -> 32
      planes24_u16<false>(s, ss0, o);
      return;
    }
    for (i64 g = nl; g < nc; g += 8)
      for (i64 h = 0; h < T; h += 8) micro_u16_8<false>(s + g * ss0 + h * W, ss0, o + h * ds1 + g * W, ds1);
  }
#else
  (void)s, (void)ss0, (void)o, (void)ds1, (void)nl, (void)nc;
#endif
}

// Which of tile_rows's streamed calls into rows that start off a line take its wrapping tiles (see
// there): float16, and float32 from planes a multiple of 4 KiB apart.
template <int W> bool tiles_wrap(i64 ss0) { return line_edge<W>() > 0 && (W == 2 || (W == 4 && ss0 % 4096 == 0)); }

// Packed destination rows of n0 = 1..8 line micro-tiles (AVX2: 2..16 8x8 micro-tiles), tiled
// straight from the n0 source planes (k_transpose says when). One: n0 == T.
template <int W, bool NT, bool One> void tile_rows(const byte* s, byte* d, i64 n1, i64 n0, i64 ss0) {
  constexpr i64 T = line_edge<W>() > 0 ? line_edge<W>() : tile_edge<W>();
  const i64 ds1 = n0 * W, nc = One ? T : n0, nl = One ? T : n0 / imax(T, 1) * T;  // nl: planes in line tiles
  const auto off = static_cast<i64>(addr(d) % 64);
  // float16 streamed into rows of whole lines that start off a line (numpy's arrays start 16 bytes
  // into one; the tiles stored such rows normally, and tile_rows_shifted's ring takes rows of up
  // to 64 planes): the tiles start at plane c0, where the lines do, and each tile row's last line
  // (a pixel's tail, the next pixel's head) is one more tile, of source rows copied into L1. The
  // first head and the last tail are stored normally. One / two threads, processes alternated,
  // GB/s: NCHW -> NHWC (8, 96, 120, 120) 13.0 / 23.4 -> 17.1 / 32.3, (16, 192, 64, 64) 12.0 /
  // 22.4 -> 17.9 / 27.6, (16, 256, 56, 56) 12.4 / 22.1 -> 14.1 / 23.9; outputs of 12-16 MiB that
  // the cache held between calls ran 0.85x on two threads. uint8 (C = 192..512) ran 0.85-1.08x.
  // float32 from planes a multiple of 4 KiB apart too, in place of the ring (k_transpose), whose
  // tiles' loads crowd one L1 set: (8, 128, 128, 128) 13.5 / 17.0 -> 15.0 / 21.1, (2, 128, 256,
  // 256) 10.3 / 17.7 -> 14.9 / 21.3, (8, 64, 128, 128) 19.8 / 22.2 -> 19.3 / 25.8 (planes that
  // do not crowd keep the ring: 0.77x here; float64 ran 0.8-1.14x, float16 C = 64 0.64-1.19x).
  const bool wrap = NT && !One && tiles_wrap<W>(ss0) && off % W == 0 && ds1 % 64 == 0 && n1 > T;
  const i64 c0 = wrap ? (64 - off) / W % T : 0;
  const bool aligned = off == 0 || c0 > 0, sh = c0 > 0;
  const i64 ce = sh ? n0 - T + c0 : nl;  // the planes [c0, ce) in line tiles
  const auto tile = [&](i64 r, i64 c) {
    if (NT && aligned) line_micro<W, true>(s + c * ss0 + r * W, ss0, d + r * ds1 + c * W, ds1);
    else line_micro<W, false>(s + c * ss0 + r * W, ss0, d + r * ds1 + c * W, ds1);
  };
  // Planes [nl, nc) past the line tiles (stored normally), or the wrapping tile of rows [q, q + T)
  // (the last tile row's ends one row early: pixel n1 - 1 has no next pixel).
  const auto rest = [&](i64 r) {
    if constexpr (!One) {
      if (sh) {
        alignas(64) byte b[T * 64];
        const i64 q = imin(r, n1 - 1 - T), u = T - c0;
        for (i64 k = 0; k < T; ++k)
          vstore(b + 64 * k, vload(k < u ? s + (ce + k) * ss0 + q * W : s + (k - u) * ss0 + (q + 1) * W));
        line_micro<W, true>(b, 64, d + q * ds1 + ce * W, ds1);
      } else {
        rest_tiles<W>(s + r * W, ss0, d + r * ds1, ds1, nl, nc);
      }
    }
  };
  if (sh) {
    for (i64 i = 0; i < c0; ++i) st<W>(d + i * W, ld<W>(s + i * ss0));
    for (i64 i = ce; i < n0; ++i) st<W>(d + (n1 - 1) * ds1 + i * W, ld<W>(s + i * ss0 + (n1 - 1) * W));
  }
  i64 r = 0;
  // 1- and 2-byte planes a multiple of 4 KiB apart: each tile's 64 or 32 source lines fall in one
  // L1 set; the K tiles of a visit load them a line of each tile in turn (line_tiles). One
  // thread, in L2, processes alternated (GB/s): uint8 C = 64..512 17-20 -> 29-32, float16 C = 64
  // 29.8 -> 38.9, C = 128 33 -> 35; float16 C = 256 ran 0.87-0.94x, float32 (16 lines a tile)
  // 0.95-0.99x.
  const bool crowded = line_edge<W>() > 0 && (W == 1 || (W == 2 && n0 <= 128)) && ss0 % 4096 == 0;
  if (!One || crowded) {
    // K tile rows (4 lines of each plane) per visit of a group of T planes, not one: with planes
    // a power of two apart, every plane's line of a tile row falls in one L1 set, and 32+ planes
    // walked a line at a time evicted each other's next lines (the hardware fetches them ahead).
    // AMD Zen 5, one thread, in cache, processes alternated (GB/s): float32 C = 64 (planes 4 KiB
    // apart) 21-25 -> 37, C = 128 28-32 -> 44, float16 C = 64, 128 21-26 -> 30, 22-32 -> 40;
    // 2 tile rows per visit: 32, 40; 8: 30, 39.
    constexpr int K = 4;
    for (; r + K * T <= n1; r += K * T) {
      if (nc >= imin(64, 4 * T) && r + 2 * K * T <= n1)
        for (i64 k = 0; k < nc; ++k)
          for (i64 j = 0; j < K; ++j) prefetch_l2(s + k * ss0 + (r + K * T + j * T) * W);
      for (i64 c = c0; c < ce; c += T) {
#if defined(STRIDED_AVX512)
        if constexpr (W <= 2) {
          if (crowded) {
            if (NT && aligned) line_tiles<W, true, K>(s + c * ss0 + r * W, ss0, d + r * ds1 + c * W, ds1);
            else line_tiles<W, false, K>(s + c * ss0 + r * W, ss0, d + r * ds1 + c * W, ds1);
            continue;
          }
        }
#endif
        for (i64 j = 0; j < K; ++j) tile(r + j * T, c);
      }
      for (i64 j = 0; j < K; ++j) rest(r + j * T);
    }
  }
  for (; r + T <= n1; r += T) {
    if (nc >= imin(64, 4 * T) && r + 3 * T <= n1)
      for (i64 k = 0; k < nc; ++k) prefetch_l2(s + k * ss0 + (r + 2 * T) * W);
    for (i64 c = c0; c < ce; c += T) tile(r, c);
    rest(r);
  }
  // The last rows: one tile row ending at n1, over rows already written (same values). Element by
  // element, the rows past the tiles and the peeled first rows cost more than the tiles of a
  // 256-pixel granule: NCHW -> NHWC float32 (1, 64, 64, 64) on 2 threads 39 -> 26 us (one: 33).
  if (r < n1 && n1 >= T) {
    for (i64 c = c0; c < ce; c += T) tile(n1 - T, c);
    rest(n1 - T);
    r = n1;
  }
  for (; r < n1; ++r)
    for (i64 i = 0; i < nc; ++i) st<W>(d + r * ds1 + i * W, ld<W>(s + r * W + i * ss0));
}

// tile_rows streamed into a destination that is not 64-byte aligned (numpy allocates at 16
// bytes; tile_rows would store normally). The T rows of a tile row are one contiguous span of
// B = 64 n0 bytes. Each span is tiled into a ring of L1 buffers (span byte j at + off + j) and
// streamed out shifted onto whole lines, T lines after each micro-tile of a later span, so that
// loads and stores overlap (streaming each span after it: 1.3x slower) and no line is read back
// while its stores may be in flight (a ring of 2: 1.1x slower with 32 planes); the bytes of a
// span's last partial line are carried into the next one's first. Prefetching from 2 T planes
// (4 T aligned) gave float32 C = 32 and 48 1.2-1.5x. 64 MiB against ordinary stores: float32
// C = 16..128 and float16 C = 32..64 1.02-2.0x. Longer spans keep ordinary stores: float16
// C = 128 (8 KiB spans, a ring of 3) ran 0.80x / 0.92x on 1 / 2 threads, C = 256 (a ring of 2)
// 0.81x / 0.97x.
template <int W> constexpr i64 shift_span() { return W == 2 ? 4096 : 8192; }
template <int W, bool One> void tile_rows_shifted(const byte* s, byte* d, i64 n1, i64 n0, i64 ss0) {
  constexpr i64 T = line_edge<W>(), kRing = 3 * (8192 + 64);
  const i64 ds1 = n0 * W, nc = One ? T : n0, B = T * ds1;  // B <= shift_span
  // Planes in line tiles; the rest in 8x8 tiles, as tile_rows (imax: T is 0 where there are no line tiles).
  const i64 nl = One ? T : n0 / imax(T, 1) * T;
  const auto off = static_cast<i64>(addr(d) & 63);
  alignas(64) byte ring[kRing];
  const i64 nb = imin(8, kRing / (B + 64));
  // K spans (tile rows) per visit of a group of T planes, as in tile_rows; span m is streamed out
  // while span m + L is tiled, L = nb - K (the spans in flight, L + K, fill the ring). AMD Zen 5,
  // one thread, numpy's outputs, processes alternated, 9 rounds (GB/s): float32 C = 64 at 32 MiB
  // 15.7 -> 18.3, C = 32 25.7 -> 28.8, float16 C = 96 32.9 -> 35.0, C = 48 and 64 on par; on 2
  // threads these are bound by the memory's bandwidth.
  const i64 K = One ? 1 : imin(4, nb / 2), L = nb - K;
  const auto buf = [&](i64 m) { return ring + m % nb * (B + 64); };
  // Lines [k0, k1) of span m (span bytes [64k - off, 64k - off + 64) at buf + 64k), its n0 lines.
  const auto emit = [&](i64 m, i64 k0, i64 k1) {
    const byte* b = buf(m);
    byte* o = d + m * B - off;
    if (m == 0 && k0 == 0) {  // the bytes before d are not ours
      put_lanes(o, b, static_cast<unsigned>(off), 64);
      k0 = 1;
    }
    for (i64 k = k0; k < k1; ++k)
      for (i64 v = 0; v < 64; v += SK_VB) vstream(o + 64 * k + v, vload(b + 64 * k + v));
  };
  // Span m's last partial line (its bytes past B) into span m + 1's first, before either is
  // emitted (or, after the last whole span, straight to the output).
  const auto carry = [&](i64 m) {
    put_lanes((m + 2) * T <= n1 ? buf(m + 1) : d + (m + 1) * B - off, buf(m) + B, 0, static_cast<unsigned>(off));
  };
  i64 r = 0, n = 0, done = 0;  // done: spans emitted whole
  for (; r + T <= n1; r += K * T, n += K) {
    const i64 kb = imin(K, (n1 - r) / imax(T, 1)), e0 = imax(0, n - L), e1 = n - L + kb;  // emitted: [e0, e1)
    for (i64 m = e0; m < e1; ++m) carry(m);
    if (nc >= 2 * T && r + (2 * K + 1) * T <= n1)
      for (i64 k = 0; k < nc; ++k)
        for (i64 j = 0; j < K; ++j) prefetch_l2(s + k * ss0 + (r + (K + 1 + j) * T) * W);
    for (i64 c = 0; c < nl; c += T)
      for (i64 j = 0; j < kb; ++j) {
        line_micro<W, false>(s + c * ss0 + (r + j * T) * W, ss0, buf(n + j) + off + c * W, ds1);
        if (n + j - L >= 0) emit(n + j - L, c, c + T);
      }
    if (nl < nc)
      for (i64 j = 0; j < kb; ++j) {
        rest_tiles<W>(s + (r + j * T) * W, ss0, buf(n + j) + off, ds1, nl, nc);
        if (n + j - L >= 0) emit(n + j - L, nl, nc);
      }
    done = imax(done, e1);
    if (kb < K) {  // the last spans
      r += kb * T, n += kb;
      break;
    }
  }
  for (i64 m = done; m < n; ++m) carry(m);
  for (i64 m = done; m < n; ++m) emit(m, 0, n0);
  if (r < n1 && n1 >= T) {  // the last rows: one tile row ending at n1 (stored), over rows already written
    for (i64 c = 0; c < nl; c += T)
      line_micro<W, false>(s + c * ss0 + (n1 - T) * W, ss0, d + (n1 - T) * ds1 + c * W, ds1);
    rest_tiles<W>(s + (n1 - T) * W, ss0, d + (n1 - T) * ds1, ds1, nl, nc);
    r = n1;
  }
  for (; r < n1; ++r)
    for (i64 i = 0; i < nc; ++i) st<W>(d + r * ds1 + i * W, ld<W>(s + r * W + i * ss0));
}

// Destination rows of n0 elements packed one after another (ds1 == n0*W; NCHW -> NHWC): m
// destination rows at a time; the n0 source rows (far apart: staged, the next panel's prefetched).
// Streamed (NT), a panel's source rows are staged while the previous panel's output is written
// (two staging buffers): loads and stores in flight together; 16-64 MiB on 2 threads, float32
// C = 24..128 1.14-1.28x faster, float16 C = 64, 128 1.15-1.23x. Stored normally (outputs that
// fit the cache), the interleaved stores cost: float16 C = 32, 64 at 8 MiB 1.07-1.1x slower.
template <int W, bool NT> void panel_rows(const byte* s, byte* d, i64 n1, i64 n0, i64 ss0) {
  constexpr i64 RC = panel_rc<W>();
  const i64 m = 2 * kPanel / (n0 * W) / RC * RC, RD = n0 * W;
  alignas(64) byte sb[NT ? 2 : 1][2 * kPanel];
  alignas(64) byte db[2 * kPanel];
  // Prefetch PD rows ahead (into the next panel at the end): with planes a power of two apart,
  // the rows share cache sets, and a whole panel prefetched ahead would evict itself.
  constexpr i64 PD = 8;
  // Panels of m rows, the last one narrower (a thread's block of rows need not be a multiple of m).
  const auto width = [&](i64 r0) { return imin(m, (n1 - r0) / RC * RC); };
  // Stages panel [r0, r0 + w) into buf; with out, writes the previous panel's `on` tiled bytes
  // from db there meanwhile, a share after each source row (split on line boundaries).
  const auto load = [&](byte* buf, i64 r0, i64 w, byte* out, i64 on) {
    const i64 RS = w * W;
    i64 done = 0;
    for (i64 k = 0; k < n0; ++k) {
      const byte* sr = s + k * ss0 + r0 * W;
      const byte* pf = k + PD < n0 ? sr + PD * ss0 : r0 + 2 * w <= n1 ? sr + (PD - n0) * ss0 + RS : nullptr;
      if (pf)
        for (i64 q = 0; q < RS; q += 64) prefetch_l2(pf + q);
      for (i64 q = 0; q < RS; q += SK_VB) vstore(buf + k * RS + q, vload(sr + q));
      if (out) {
        i64 to =
            k + 1 == n0 ? on : imin(on, static_cast<i64>((addr(out) + (k + 1) * on / n0 + 63) / 64 * 64 - addr(out)));
        if (to > done) {
          put_run<NT>(out + done, db + done, to - done);
          done = to;
        }
      }
    }
  };
  i64 r0 = 0, w = width(0);
  int cur = 0;
  if (w > 0) load(sb[0], 0, w, nullptr, 0);
  while (w > 0) {
    tile_area<W>(sb[cur], w * W, db, RD, n0, w);
    const i64 rn = r0 + w, wn = width(rn);
    if (NT && wn > 0) {
      cur ^= 1;
      load(sb[cur], rn, wn, d + r0 * RD, w * RD);
    } else {
      put_run<NT>(d + r0 * RD, db, w * RD);
      if (wn > 0) load(sb[cur], rn, wn, nullptr, 0);
    }
    r0 = rn, w = wn;
  }
  for (; r0 < n1; ++r0)
    for (i64 i = 0; i < n0; ++i) st<W>(d + r0 * RD + i * W, ld<W>(s + r0 * W + i * ss0));
}

// The mirror (ss0 == n1*W; NHWC -> NCHW): m packed source rows (contiguous) tiled into n1
// destination row pieces of m elements.
// Streamed (the source comes from memory), the next panel's source is prefetched in address
// order while this panel's rows are written, a share after each row: the reads stay sequential
// and overlap the stores, and the tiles then read the panel from L2. Against copying 8 KiB strips
// to L1 first and tiling them there (the loads of each strip, stored to L1 and read back by its
// tiles at once, left no overlap between strips; AMD Zen 5, AVX-512, processes alternated, 32 MiB):
// float32 C = 24..128 1.0-1.6x faster on 1 thread and 1.3-1.5x on 2, float16 C = 64, 128 1.5x
// and 1.6x on 2 threads; against tiling in place without the prefetch 1.0-1.3x.
template <int W, bool NT> void panel_cols(const byte* s, byte* d, i64 n1, i64 ds1, i64 n0) {
  constexpr i64 T = tile_edge<W>();
  // Streamed, panels of 32 KiB: tiles and their buffer then stay in L1 (against 64 KiB, 32 MiB
  // outputs: 1.1-1.3x faster on 1 thread, 1.0-1.1x on 2; AVX2 1.15-1.37x and 1.06-1.19x). Cached
  // outputs keep 64 KiB (float32 C = 128 into 4 MiB ran 1.4-1.6x slower with 32).
  // Streamed, though, at least 8 lines of each destination row a panel (float32, float64: 4):
  // source rows of 256 bytes and more left runs of 1-4 lines a row, and streaming stores that
  // visit many rows a line at a time ran at a third of those that write 4 lines or more a row (a
  // probe: 13-17 against 43 GB/s). One thread, processes alternated, GB/s: NHWC -> NCHW float16
  // C = 128 / 256 / 512 10.8 / 19.4 / 4.4 -> 14.3 / 25.1 / 12.2, uint8 C = 256 14.5 -> 19.3,
  // float32 C = 192 / 256 10.7 / 10.5 -> 15.0 / 14.0, float64 C = 256 16.8 -> 20.3, AVX2 float16
  // C = 512 / float32 C = 384 4.3 / 4.7 -> 10.8 / 14.9 (two threads 0.9-1.3x; float32 with 8
  // lines: C = 128 0.8x); NCHW -> NHWC float16 (16, 500, 28, 28) (rows not whole lines; 16
  // columns, before: 32-byte runs) 6.3 -> 17.1. db holds a strip of such a panel (panel_rc rows
  // of 512 + 64 bytes).
  const i64 m0 = (NT ? 2 : 4) * kPanel / (n1 * W) / T * T, RS = n1 * W;
  const i64 m = NT ? imax(m0, ((W <= 2 ? 512 : 256) / W + T - 1) / T * T) : m0;
  alignas(64) byte db[4 * kPanel + 64 * 64];
  i64 i0 = 0;
  // Streamed rows that start inside a line (numpy's 16-byte alignment): the columns up to the
  // first line boundary first, so that every panel's pieces are whole lines (a piece of 1 KiB
  // that starts and ends inside lines stores 2 of its 17 lines in parts, each read for ownership
  // and written back twice).
  if (NT && ds1 % 64 == 0 && addr(d) % W == 0) {
    const i64 h = imin(n0, static_cast<i64>(((0 - addr(d)) & 63) / W));
    for (i64 r = 0; r < n1; ++r)
      for (i64 i = 0; i < h; ++i) st<W>(d + r * ds1 + i * W, ld<W>(s + r * W + i * RS));
    i0 = h;
  }
  // Panels of m columns, the last one narrower (a thread's block of columns may be less than m).
  for (i64 w; (w = imin(m, (n0 - i0) / T * T)) > 0; i0 += w) {
    // 1- and 2-byte tiles fill each buffer line in 16-byte pieces over several tiles, so a few
    // dozen rows' lines stay live at once: rows an even number of lines apart crowd into a few
    // L1 sets and evict each other between the pieces (float16 C = 32, rows 2 KiB apart, ran 3x
    // slower than C = 64). An odd row pitch spreads them over the sets.
    const i64 RD = w * W + (W <= 2 && n1 <= 64 && w * W % 128 == 0 ? 64 : 0);
    const byte* next = s + (i0 + w) * RS;
    const i64 nb = NT ? imin(m, n0 - i0 - w) * RS : 0;  // the next panel's source bytes
    // A strip of RC destination rows at a time, written out while it is still in L1 (the whole
    // panel at once, 64 KiB, was read back from L2: float32 C = 64 in cache 1.1-1.2x slower).
    constexpr i64 RC = panel_rc<W>();
    for (i64 c = 0; c < n1; c += RC) {
      const i64 cw = imin(RC, n1 - c);
      tile_area<W>(s + i0 * RS + c * W, RS, db, RD, w, cw);
      for (i64 r = c; r < c + cw; ++r) {
        put_run<NT>(d + r * ds1 + i0 * W, db + (r - c) * RD, w * W);
        for (i64 q = r * nb / n1 / 64 * 64; q < (r + 1) * nb / n1; q += 64) prefetch_l2(next + q);
      }
    }
  }
  for (i64 r = 0; r < n1; ++r)
    for (i64 i = i0; i < n0; ++i) st<W>(d + r * ds1 + i * W, ld<W>(s + r * W + i * RS));
}

#if defined(STRIDED_AVX512)
// Streamed transposes whose destination rows start on whole lines (ds1 % 64 == 0): line
// micro-tiles (float16 C = 24: rows24_u16) tiled straight from the source into whole destination
// lines, streamed, with no staging in L1 (k_transpose says when). Source element (column r, row i)
// at s + r*W + i*ss0, destination row r at d + r*ds1.
// - Few columns (n1*W up to 1 KiB: float16 NHWC -> NCHW with C = 24..96 or 512, a thread's band
//   of a 2-D transpose's columns): blocks of 512 rows, one line tile of columns (32 planes) at a
//   time, each destination row's 1 KiB run streamed in turn; the source block is read once from
//   memory and again from L2. 12-64 MiB, processes alternated, against the panels, GB/s on 1 / 2
//   threads: C = 24 23 / 24 -> 36 / 35, 32 26 / 35 -> 38 / 41, 64 28 / 28-36 -> 35 / 34-38, 512
//   11-12 / 12-14 -> 15-32 / 20-37 (C = 128, 256: 25 / 40 -> 33 / 35, 18 / 31 -> 21 / 26, so
//   k_transpose keeps the panels there; 64 planes at once: 0.8x; float32 C = 64..256: 0.8-1.0x).
//   4096 x 4096 on 2 threads (bands of 128 columns) against the staged blocks: float16 9.1 ->
//   19.8, float32 19.0 -> 20.9.
// - Many columns (a whole 2-D transpose, NCHW -> NHWC with C over 256, NHWC -> NCHW float32 with
//   C over 256): blocks of R rows by 1 KiB of each, the next block's lines prefetched into L2 in
//   address order (long runs of each source row) while this block's tiles are written a column
//   of tiles at a time (R-element runs of each destination row). One thread, 4096 x 4096 float16
//   10 -> 15-16 GB/s, float32 11.5 -> 17-18; NCHW -> NHWC float16 (2, 1024, 64, 64) 11.6 -> 15,
//   float32 (1, 1024, 64, 64) 14.5 -> 20.6 (2 threads 14.9 -> 30.9); NHWC -> NCHW float32 C = 512
//   13.7 -> 26.7 (28.3 -> 39.3). Against blocks of L rows (each destination line on its own) or
//   of single lines of many rows (each source line on its own): 0.7-0.8x.
template <int W> void tiles_to_lines(const byte* s, i64 ss0, byte* d, i64 ds1, i64 n1, i64 n0) {
  constexpr i64 L = line_edge<W>();
  // Streamed: the rows from the destination's first line boundary (ds1 keeps all its rows in
  // phase) to the last whole tile. n0 >= L: the rows before and after, one stored tile each,
  // over rows also streamed (the same values).
  const i64 h = static_cast<i64>(((0 - addr(d)) & 63) / W), e = h + (n0 - h) / L * L;
  const auto tile = [&](i64 i, i64 c) {
    if (W == 2 && n1 == 24) rows24_u16<true>(s + i * ss0, d + i * W, ds1);
    else line_micro<W, true>(s + i * ss0 + c * W, ss0, d + c * ds1 + i * W, ds1);
  };
  const auto stored = [&](i64 i) {
    if (W == 2 && n1 == 24) rows24_u16<false>(s + i * ss0, d + i * W, ds1);
    else
      for (i64 c = 0; c < n1; c += L)
        line_micro<W, false>(s + i * ss0 + imin(c, n1 - L) * W, ss0, d + imin(c, n1 - L) * ds1 + i * W, ds1);
  };
  if (h > 0) stored(0);
  if (n1 * W <= 1024) {
    for (i64 b = h; b < e; b += 512)
      for (i64 c = 0; c < n1; c += L)
        for (i64 i = b; i < imin(e, b + 512); i += L) tile(i, c);
  } else {
    constexpr i64 R = W == 2 ? 64 : 128, K = 1024 / W;  // rows, columns per block
    for (i64 b = h; b < e; b += R) {
      const i64 rb = imin(R, e - b);
      for (i64 g = 0; g < n1; g += K) {
        const i64 kw = imin(K, n1 - g);
        // The next block, spread over this block's tiles: its rows' lines in address order.
        const i64 nb = g + K < n1 ? b : b + R, ng = g + K < n1 ? g + K : 0;
        const i64 lines = (imin(K, n1 - ng) * W + 63) / 64, total = nb < e ? imin(R, e - nb) * lines : 0;
        const i64 per = (total * L * L + kw * rb - 1) / (kw * rb);
        i64 q = 0;
        for (i64 c = g; c < g + kw; c += L)
          for (i64 i = b; i < b + rb; i += L) {
            tile(i, imin(c, n1 - L));  // n1 % L != 0: the last tile ends at n1 (over rows written)
            for (const i64 qe = imin(total, q + per); q < qe; ++q)
              prefetch_l2(s + (nb + q / lines) * ss0 + ng * W + q % lines * 64);
          }
      }
    }
  }
  if (e < n0) stored(n0 - L);
}
#endif
#endif

#if defined(STRIDED_AVX2)  // (and AVX-512)
// The blocks' tile edge: the line tiles, or the micro-tiles where there are none (AVX2).
template <int W> constexpr i64 block_tile() { return line_edge<W>() > 0 ? line_edge<W>() : tile_edge<W>(); }
// plane_runs's window (pixels).
constexpr i64 kRunPixels = 256;
// More than 8 lines in one set among the first 16 planes, or a block tile's (float64: two tiles
// of 8 planes, all in one set, ran 0.4-0.65x the runs in line_blocks; with 8 lines a set, float32
// C = 16 and 32, line_blocks ran 1.2-1.5x the runs).
template <int W> bool planes_crowded(i64 ds1, i64 n1) {
  return rows_per_set(ds1, imin(n1, imax(block_tile<W>(), 16))) > 8;
}
// plane_runs's strip onto crowded planes: a source line's planes (LS) or a block tile's (AVX2:
// two to four micro-tiles across a line, see there), 0 for the plane counts between them and
// for uint8: k_transpose stages those of float16 and float32 (staged_windows).
template <int W> constexpr i64 run_strip(i64 n1) {
  constexpr i64 BT = block_tile<W>(), LS = 64 / W > BT ? 64 / W : BT;
  return W < 2 ? 0 : n1 == LS || n1 >= 2 * LS ? LS : n1 == BT || n1 >= 2 * BT ? BT : 0;
}

// Transposes into the cache (k_transpose says when): line micro-tiles (AVX2: the micro-tiles,
// rows of 16 or 32 bytes) in blocks of 4 x 4 tiles
// (the block edge hardly mattered: 2 to 8 tiles, or none, within 10%); the rows and columns past
// the last whole tile as one more tile ending at n1 / n0, over elements already written. One
// thread, AMD Zen 5, processes alternated, GB/s against the panels and staged blocks: 1000 x 1000
// float16 16.3 -> 42.8, float32 23.4 -> 47.3, uint8 19.7 -> 35.7, float64 (700 x 700) 24 -> 53;
// NHWC -> NCHW (1, 56, 56, 256) float32 26 -> 38-40, NCHW -> NHWC (1, 512, 28, 28) float16
// 17.8 -> 39-43. The AVX2 kernels on the same machine: 1000 x 1000 float32 22 -> 46, float16
// 16 -> 34, uint8 18 -> 26; NHWC -> NCHW (1, 56, 56, 256) float32 21.5 -> 29.4; NCHW -> NHWC
// (1, 256, 56, 56) float32 17 -> 37.
// Strides that put many of a tile's lines in one L1 set: 1- and 2-byte sources with 16 or more
// load four tiles at once (line_tiles), unless the four tiles' destination rows would crowd too
// (1000 x 2048 float16, source rows 4 KiB apart, 19.2 -> 31.4; 1000 x 4096 uint8 16 -> 23.8;
// with 4 KiB destination rows as well, 0.5-0.7x). k_transpose keeps the older paths for other
// sources a multiple of 4 KiB apart (1024 x 1024 float32 0.86x) and for destinations of more
// than 8 lines per set (NHWC -> NCHW (1, 64, 64, 64) float16 0.24x, (4, 32, 32, 64) 0.69x).
// gcd(st, 4096): the lowest set bit of |st|, at most 4096 (std::gcd would be a weak symbol of
// this ISA's object at -O0, which scripts/check_isa_symbols.sh rejects).
inline i64 gcd4k(i64 st) {
  const i64 a = (st < 0 ? -st : st) | 4096;
  return a & -a;
}
template <int W> i64 lines_per_set(i64 st) { return rows_per_set(st, block_tile<W>()); }
template <int W> bool line_blocks_crowded(i64 ss0, i64 ds1) {
  return W <= 2 && line_edge<W>() > 0 && lines_per_set<W>(ss0) >= 16 && 4 * lines_per_set<W>(ds1) <= 16;
}
template <int W> void line_blocks(const byte* s, i64 ss0, byte* d, i64 ds1, i64 n1, i64 n0) {
  constexpr i64 L = block_tile<W>(), BB = 4 * L;
  const i64 nr = n1 / L * L, ni = n0 / L * L;
  const auto tile = [&](i64 r, i64 i) { line_micro<W, false>(s + r * W + i * ss0, ss0, d + r * ds1 + i * W, ds1); };
  const bool crowded = line_blocks_crowded<W>(ss0, ds1);  // (AVX-512 only)
  (void)crowded;
  for (i64 r0 = 0; r0 < nr; r0 += BB)
    for (i64 i0 = 0; i0 < ni; i0 += BB) {
#if defined(STRIDED_AVX512)
      if constexpr (W <= 2) {
        if (crowded && r0 + BB <= nr) {
          for (i64 i = i0; i < imin(i0 + BB, ni); i += L)
            line_tiles<W, false, 4>(s + r0 * W + i * ss0, ss0, d + r0 * ds1 + i * W, ds1);
          continue;
        }
      }
#endif
      for (i64 r = r0; r < imin(r0 + BB, nr); r += L)
        for (i64 i = i0; i < imin(i0 + BB, ni); i += L) tile(r, i);
    }
  if (nr < n1)
    for (i64 i = 0; i < ni; i += L) tile(n1 - L, i);
  if (ni < n0)
    for (i64 r = 0; r < nr; r += L) tile(r, n0 - L);
  if (nr < n1 && ni < n0) tile(n1 - L, n0 - L);
}

// Pixel rows (RS bytes apart) into planes that crowd into one L1 set (planes a multiple of 4 KiB
// apart: HW = 32x32, 64x64, 224x224 float32), into the cache: a tile stores one line to each of
// its planes, all in one set, which cannot hold them while they are read for ownership. Here
// the tiles of a strip of planes go to an L1 buffer instead, a window of 256 pixels, and each
// plane's run (256 pixels) is stored in turn: consecutive stores walk consecutive sets. One
// thread, AMD Zen 5, processes alternated, GB/s, the panels before: float32 (1, 64, 64, 16)
// 21.6 -> 46.2, (1, 224, 224, 16) 19.3 -> 35.3, (1, 64, 64, 32) 26.7 -> 39.5; float16 (1, 64,
// 64, 64) 21.8 -> 32.8; float64 (1, 64, 64, 20) 29 -> 36; the AVX2 kernels: float32 (1, 64, 64,
// 16) 29.4 -> 51.3, float16 (1, 64, 64, 40) 24.8 -> 41.2. Not for uint8 onto crowded planes
// alone (64 planes of 256-byte
// runs: 0.78-1.36x, no clear gain) nor for strips that would overlap by most of a tile (a few
// planes past one tile edge: float16 C = 40 0.80x, float32 C = 24 0.95x).
// `peel`: the pixel rows crowd too (2-D transposes of 1024 x 1024 float32): the strips after
// the first start on a source line, so that each tile row loads one whole line (rows straddling
// two lines needed each line again a strip later, after the set had evicted it): 1024 x 1024
// float32 and float16, 512 x 512 float64, 12.3-14.1 -> 25-25.8 GB/s.
// AVX-512 takes it too where only the pixel rows crowd, for calls of at least 256 planes (whole
// rows' worth: the planner's split gives them), with `Ahead`: the next strip's source lines are
// asked for while this one is tiled (one thread, processes alternated: 1000 x 1024 float32 21.6
// -> 27.2 GB/s (24.8 without reading ahead), 1000 x 512 float64 22.8 -> 32.5, NCHW -> NHWC
// (1, 256, 32, 32) float32 18.3 -> 28.7; reading ahead onto crowded planes ran 0.83-0.96x).
// AVX2's micro-tiles ran 0.47-0.87x there: they keep the staged blocks.
// L: the strip's planes, a multiple of the block tile: a source line's worth where the caller can
// (AVX2: two to four micro-tiles across the line, so that the line is loaded once; strips of one
// tile read it again a strip later, from L2 where the rows crowd). AVX2, one thread, processes
// alternated, GB/s: 1024 x 1024 float32 15.6 -> 25.0, float16 11.7 -> 25.5, 1024 x 2048 float16
// 8.1 -> 20.5, 512 x 512 float64 15.0 -> 24.7; NHWC -> NCHW onto crowded planes float16 C = 128
// 21.9 -> 28.9, float64 C = 32 25.8 -> 30.4, float32 C = 16..32 1.0-1.09x, C = 64 0.90x.
template <int W, bool Ahead, i64 L, i64 S = kRunPixels>
void plane_runs(const byte* s, i64 RS, byte* d, i64 n1, i64 ds1, i64 n0, bool peel) {
  constexpr i64 T = block_tile<W>(), RB = S * W;
  static_assert(L % T == 0, "a strip is whole tiles");
  alignas(64) byte buf[L * RB];
  // The strips and windows past the last whole one end at n1 and n0 (rewriting some elements).
  const i64 h = peel && RS % 64 == 0 ? static_cast<i64>(((0 - addr(s)) & 63u) / W) : 0;
  const auto window = [&](i64 i0) {
    for (i64 c0 = 0, last = -1; c0 < n1; c0 = c0 < h && c0 + L > h ? h : c0 + L) {
      const i64 c = imin(c0, n1 - L);
      if (c == last) continue;
      last = c;
      const byte* nx = c + L < n1 ? s + i0 * RS + (c + L) * W : s + imin(i0 + S, n0 - S) * RS;
      for (i64 i = 0; i < S; i += T) {
        if constexpr (Ahead)
          for (i64 k = 0; k < T; ++k) prefetch_l2(nx + (i + k) * RS);
        for (i64 q = 0; q < L; q += T)
          line_micro<W, false>(s + (i0 + i) * RS + (c + q) * W, RS, buf + q * RB + i * W, RB);
      }
      for (i64 r = 0; r < L; ++r) put_run<false>(d + (c + r) * ds1 + i0 * W, buf + r * RB, RB);
    }
  };
  for (i64 i0 = 0; i0 < n0; i0 += S) window(imin(i0, n0 - S));
}
#endif

template <int W>
inline void edge_block(const byte* s, byte* d, i64 r0, i64 r1, i64 i0, i64 i1, i64 ss1, i64 ds1, i64 ss0, i64 ds0,
                       bool simd) {
  constexpr i64 T = tile_edge<W>();
  i64 r = r0;
  if (T > 0 && simd) {
    for (; r + T <= r1; r += T) {
      i64 i = i0;
      for (; i + T <= i1; i += T) micro<W, false>(s + r * W + i * ss0, ss0, d + r * ds1 + i * W, ds1);
      for (; i < i1; ++i)
        for (i64 q = r; q < r + T; ++q) st<W>(d + q * ds1 + i * W, ld<W>(s + q * W + i * ss0));
    }
  }
  for (; r < r1; ++r)
    for (i64 i = i0; i < i1; ++i) st<W>(d + r * ds1 + i * ds0, ld<W>(s + r * ss1 + i * ss0));
}

// dst[r*ds1 + i*ds0] = src[r*ss1 + i*ss0] with the source fast along r and the destination
// fast along i, in blocks. `simd`: ss1 == W and ds0 == W (micro-tiles apply). NT: see
// k_transpose (only full blocks stream; edges use ordinary stores).
template <int W, bool NT>
void transpose_tiles(const byte* s, byte* d, i64 n1, i64 ss1, i64 ds1, i64 n0, i64 ss0, i64 ds0, bool simd) {
  constexpr i64 B = block_edge<W>();
#if defined(SK_VB)
  if (simd) {
    constexpr i64 BI = stage_bi<W>(), BR = stage_br<W>();
    const i64 nr = n1 / BR * BR, ni = n0 / BI * BI;
    // Blocks along the source rows first: the destination rows of a band fill sequentially.
    for (i64 r0 = 0; r0 < nr; r0 += BR)
      for (i64 i0 = 0; i0 < ni; i0 += BI) {
        const i64 ni0 = i0 + BI < ni ? i0 + BI : 0, nr0 = i0 + BI < ni ? r0 : r0 + BR;
        block_staged<W, NT>(s + r0 * W + i0 * ss0, ss0, d + r0 * ds1 + i0 * W, ds1,
                            s + (nr0 < nr ? nr0 : r0) * W + ni0 * ss0);
      }
    // edges: the rows below nr (all columns) and the columns right of ni (rows above nr)
    for (i64 r0 = nr; r0 < n1; r0 += B)
      for (i64 i0 = 0; i0 < n0; i0 += B)
        edge_block<W>(s, d, r0, imin(n1, r0 + B), i0, imin(n0, i0 + B), ss1, ds1, ss0, ds0, true);
    for (i64 r0 = 0; r0 < nr; r0 += B)
      for (i64 i0 = ni; i0 < n0; i0 += B)
        edge_block<W>(s, d, r0, imin(nr, r0 + B), i0, imin(n0, i0 + B), ss1, ds1, ss0, ds0, true);
    return;
  }
#endif
  for (i64 r0 = 0; r0 < n1; r0 += B)
    for (i64 i0 = 0; i0 < n0; i0 += B)
      edge_block<W>(s, d, r0, imin(n1, r0 + B), i0, imin(n0, i0 + B), ss1, ds1, ss0, ds0, simd);
}

// ------------------------------------------------------------------ narrow transposes
// One side of at most kNarrow elements (NCHW <-> NHWC with C = 3, depth_to_space's interleave of
// b planes, space_to_depth's reverse): too narrow for micro-tiles and cache blocks, so the
// narrow count C is a template argument and each element is one fixed-offset load and store.
constexpr int kNarrow = 16;

// The 16-byte lanes of a pixel of C elements that (de)interleave_lanes take on this target, 0
// where they do not (float32 C = 4 keeps its permute chains: 3 per vector).
template <int W, int C> constexpr int lane_groups() {
#if defined(STRIDED_AVX512)
  return W <= 4 && C * W == 32 ? 2 : W <= 2 && C * W == 16 ? 1 : 0;
#else
  return 0;
#endif
}

#if defined(STRIDED_AVX512)
// The vector interleave for C planes: whole lanes by interleave_lanes, others by the permute
// chains.
template <int W, int C> constexpr bool has_interleave_vec() {
  return (has_perm2<W>() && C >= 2 && C <= 8) || lane_groups<W, C>() > 0;
}
template <int W, int C, bool NT> inline i64 interleave_vec(const byte* s, i64 ss0, byte* d, i64 n1) {
  if constexpr (lane_groups<W, C>() > 0) return interleave_lanes<W, lane_groups<W, C>(), NT>(s, ss0, d, n1);
  else return interleave_simd<W, C, NT>(s, ss0, d, n1);
}
#endif

// The narrow counts that interleave_pad and deinterleave_pad take by the groups above (every
// vector target):
// uint8 C = 5..15 and float16 C = 9..15, one 16-byte store per pixel in pixel order into an L1
// chunk (masked stores of C bytes ran 0.6-0.95x as fast). One thread, GB/s, against the element
// loop: uint8 C = 5 (1, 5, 458, 458) 7.1 -> 16.9, C = 12 6.1 -> 22.7, (32, 12, 300, 300) 6.2 ->
// 17.5; float16 C = 12 (1, 12, 200, 200) 15.3 -> 33.5, NHWC -> NCHW 15.7 -> 42.1, (8, 12, 512,
// 512) 10 / 10.3 -> 18.7 / 22.1. float32 C = 9..15 the same with 16x16 tiles of 4 bytes (1, 12,
// 100, 100) 24.0 -> 47.7, float64 with two groups of 8x8 tiles of 8 bytes ((1, 15, 100, 100)
// 38.6 -> 43.7). Both return the rows done (0 where this target has no such kernel).
// AVX2 (no 16-bit permutes) takes float16 C = 5..8 by the groups too, both ways: one thread, 1 MiB,
// 60 x 60 planes, GB/s: NHWC -> NCHW 15-16 -> 43-49, NCHW -> NHWC 11-12 -> 30-36.
template <int W, int C> constexpr bool has_groups() {
#if defined(STRIDED_AVX2) && !defined(STRIDED_AVX512)
  return (W == 1 && C >= 5 && C <= 15) || (W == 2 && C >= 5 && C <= 15);
#elif defined(SK_VB)
  return (W == 1 && C >= 5 && C <= 15) || (W == 2 && C >= 9 && C <= 15);
#else
  return false;
#endif
}
template <int W, int C> constexpr bool has_pad() {
#if defined(STRIDED_AVX512)
  return has_groups<W, C>() || (W >= 4 && C >= 9 && C <= 15);
#elif defined(STRIDED_AVX2)
  return has_groups<W, C>() || (W >= 4 && C >= 5 && C <= 15);
#else
  return has_groups<W, C>();
#endif
}
#if defined(STRIDED_AVX2) && !defined(STRIDED_AVX512)
// C planes into pixels by byte shuffles within 128-bit lanes (shuffle_deinterleave's inverse):
// a lane block of 16 / W pixels is C 16-byte output pieces, piece k the OR of C shuffles, one
// per plane's 16 bytes; each lane of a register takes its own block, and the lanes' pieces are
// then stored in order. Entry [k][c]: where output piece k wants plane c's bytes (-128: zero).
template <int W, int C> struct InterleaveShuffleTable {
  std::int8_t a[C][C][16];
  constexpr InterleaveShuffleTable() : a{} {
    for (int k = 0; k < C; ++k)
      for (int c = 0; c < C; ++c)
        for (int j = 0; j < 16; ++j) {
          const int o = k * 16 + j, e = o / W;
          a[k][c][j] = static_cast<std::int8_t>(e % C == c ? e / C * W + o % W : -128);
        }
  }
};
// Pieces i and i + 1 of the 2C (piece k of lane 0 at i = k, of lane 1 at i = C + k) as one store.
template <int C, int i> STRIDED_ALWAYS_INLINE void put_pieces(byte* q, const __m256i* o) {
  if constexpr (i < 2 * C) {
    constexpr int imm = (i / C) | ((2 + (i + 1) / C) << 4);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(q + i * 16),
                        _mm256_permute2x128_si256(o[i % C], o[(i + 1) % C], imm));
    put_pieces<C, i + 2>(q, o);
  }
}
template <int W, int C> inline i64 shuffle_interleave(const byte* s, i64 ss0, byte* d, i64 n1) {
  constexpr i64 E = 16 / W;  // pixels per lane block
  static constexpr InterleaveShuffleTable<W, C> tab{};
  __m256i m[C][C];
  for (int k = 0; k < C; ++k)
    for (int c = 0; c < C; ++c)
      m[k][c] = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(tab.a[k][c])));
  i64 r = 0;
  for (; r + 2 * E <= n1; r += 2 * E) {
    __m256i v[C], o[C];
    for (int c = 0; c < C; ++c) v[c] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + c * ss0 + r * W));
    for (int k = 0; k < C; ++k) {
      __m256i acc = _mm256_shuffle_epi8(v[0], m[k][0]);
      for (int c = 1; c < C; ++c) acc = _mm256_or_si256(acc, _mm256_shuffle_epi8(v[c], m[k][c]));
      o[k] = acc;
    }
    put_pieces<C, 0>(d + r * C * W, o);
  }
  return r;
}
#endif
template <int W, int C> inline i64 interleave_pad(const byte* s, i64 ss0, byte* d, i64 n1) {
#if defined(SK_VB)
  if constexpr (has_groups<W, C>()) return interleave_groups<W>(s, ss0, d, n1, C);
#endif
#if defined(STRIDED_AVX2) && !defined(STRIDED_AVX512)
  // AVX2's float32 C = 2..15 and float16 C = 2..4 (no permute chains there) by the groups as well,
  // groups of 4 (8) planes: one thread, 1 MiB, GB/s, against the element loop: float32 16-22 ->
  // 30-38, (1, 3, 1024, 1024) 13.7 -> 23.7; float16 C = 2..4 9-10 -> 18-30. (uint8 C = 2..4 keep
  // their shuffles: 0.3-0.6x.)
  if constexpr (C == 2 && (W == 2 || W == 4)) {
    // Two planes: each 128-bit lane's halves unpacked, then the lanes put in order. Against the
    // groups, processes alternated, GB/s: (1, 2, 200, 200) float16 18.3 -> 53.6, float32 34.1 ->
    // 58.0; (1, 2, 1024, 1024) 17.0 -> 45.9, 27.4 -> 44.7 (uint8 and float64 on par: kept).
    constexpr i64 E = 32 / W;
    i64 r = 0;
    for (; r + E <= n1; r += E) {
      const vec a = vload(s + r * W), b = vload(s + ss0 + r * W);
      const vec lo = unpacklo<8 * W>(a, b), hi = unpackhi<8 * W>(a, b);
      vstore(d + r * 2 * W, _mm256_permute2x128_si256(lo, hi, 0x20));
      vstore(d + r * 2 * W + 32, _mm256_permute2x128_si256(lo, hi, 0x31));
    }
    return r;
  }
  // Three planes by byte shuffles. One thread, processes alternated, GB/s: uint8 (1, 3, 1080,
  // 1920) 21.4 (the element loop) -> 39.1; against the groups, float16 (1, 3, 1024, 1024) 21.7 ->
  // 38.1, float32 22.8 -> 30.4, (1, 3, 200, 200) 40.3 -> 43.4 (C = 4 ran 0.7-1.0x: not taken).
  if constexpr (W <= 4 && C == 3) return shuffle_interleave<W, C>(s, ss0, d, n1);
  if constexpr ((W == 4 && C >= 2 && C <= 15) || (W == 2 && C >= 2 && C <= 4))
    return interleave_groups<W>(s, ss0, d, n1, C);
#endif
#if defined(STRIDED_AVX512)
  if constexpr (W == 4 && C >= 9 && C <= 15) {  // the same with 16x16 tiles of 4 bytes
    i64 r = 0;
    for (; r + 16 <= n1; r += 16) {
      __m512i v[16], o[16];
      for (int c = 0; c < 16; ++c) v[c] = c < C ? vload(s + c * ss0 + r * 4) : _mm512_setzero_si512();
      u32_16x16(v, [&](int j, __m512i x) { o[j] = x; });
      for (int j = 0; j < 16; ++j) vstore(d + (r + j) * C * 4, o[j]);
    }
    return r;
  } else if constexpr (W == 8 && C >= 9 && C <= 15) {  // two groups of 8 planes, 8x8 tiles of 8 bytes
    i64 r = 0;
    for (; r + 8 <= n1; r += 8) {
      for (int g = 1; g >= 0; --g) {  // the padded group first (see interleave_groups)
        __m512i v[8], q[8];
        for (int c = 0; c < 8; ++c)
          v[c] = 8 * g + c < C ? vload(s + (8 * g + c) * ss0 + r * 8) : _mm512_setzero_si512();
        u64_8x8(v, q);
        for (int j2 = 0; j2 < 8; ++j2) vstore(d + (r + j2) * C * 8 + 64 * g, q[j2]);
      }
    }
    return r;
  }
#endif
  (void)s, (void)ss0, (void)d, (void)n1;
  return 0;
}

// The inverse: pixels (ss0 == C*W) into C planes; float32 C = 9..15 by 16x16 tiles of pixels
// of 16 elements (one thread: (1, 100, 100, 12) 9.9 -> 63 GB/s, (16, 200, 200, 12) streamed 3.2
// -> 29), float64 C = 9..15 by two 8x8 tiles ((1, 128, 128, 12) 13.7 -> 45.4, (8, 256, 256, 12)
// streamed 8.0 -> 25.6). The loads read up to 16 elements past a pixel: blocks stop where that
// would pass the last one. kb: deinterleave_groups's KB.
template <int W, int C, bool NT> inline i64 deinterleave_pad(const byte* s, byte* d, i64 ds1, i64 n, i64 kb) {
#if defined(SK_VB)
  if constexpr (has_groups<W, C>()) return deinterleave_groups<W, NT>(s, d, ds1, n, C, kb);
#endif
#if defined(STRIDED_AVX512)
  if constexpr (W == 4 && C >= 9 && C <= 15) {  // 16 rows of 64 bytes, 16x16 tiles of 4 bytes
    i64 i = 0;
    for (; (i + 16) * C + 16 - C <= n * C; i += 16) {
      __m512i v[16];
      for (int k = 0; k < 16; ++k) v[k] = vload(s + (i + k) * C * 4);
      u32_16x16(v, [&](int c, __m512i x) {
        if (c < C) put512<NT>(d + c * ds1 + i * 4, x);
      });
    }
    return i;
  } else if constexpr (W == 8 && C >= 9 && C <= 15) {  // 8 pixels of two 64-byte groups, 8x8 tiles
    i64 i = 0;
    for (; (i + 8) * C + 16 - C <= n * C; i += 8) {
      for (int g = 0; g < 2; ++g) {
        __m512i v[8], q[8];
        for (int k = 0; k < 8; ++k) v[k] = vload(s + (i + k) * C * 8 + 64 * g);
        u64_8x8(v, q);
        for (int c = 0; c < 8; ++c)
          if (8 * g + c < C) put512<NT>(d + (8 * g + c) * ds1 + i * 8, q[c]);
      }
    }
    return i;
  }
#elif defined(STRIDED_AVX2)
  if constexpr (W >= 4 && C >= 5 && C <= 15) {
    // The same with AVX2's tiles: G pixels of NG groups of G elements (8x8 tiles of 4 bytes, 4x4
    // of 8), the last group padded with the next pixel's elements (not stored). One thread, 1 MiB
    // in cache, GB/s: NHWC -> NCHW float32 C = 5..15 6-7 (the element loop) -> 43-49, C = 8 17 ->
    // 51; float64 C = 5..15 7 -> 48-53, C = 8 21 -> 55; float32 (8, 200, 200, 12) streamed 4.9 ->
    // 17.8 (2 threads 11.4 -> 43).
    constexpr int G = 32 / W, NG = (C + G - 1) / G;
    i64 i = 0;
    for (; (i + G) * C + NG * G - C <= n * C; i += G)
      for (int g = 0; g < NG; ++g) {
        __m256i v[G], q[G];
        for (int k = 0; k < G; ++k)
          v[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + ((i + k) * C + g * G) * W));
        tile256<W>(v, q);
        for (int c = 0; c < G; ++c)
          if (g * G + c < C) put256<NT>(d + (g * G + c) * ds1 + i * W, q[c]);
      }
    return i;
  }
#endif
  (void)s, (void)d, (void)ds1, (void)n, (void)kb;
  return 0;
}

// Packed rows of C elements (d[r*C*W + c*W] = s[c*ss0 + r*W]) built in L1 about 4 KiB at a time,
// by `part(s, buf, m)` (returns the rows done; buf has 64 bytes of slack) and the element loop,
// and written whole, streamed when NT (no read-for-ownership of the output). Chunks of a
// multiple of 64 rows where they fit (the vector blocks' rows: 64 / W). Always inlined: out of
// line, C is no longer a constant in the element loop (AVX2, uint8 C = 3 ran 19 -> 3 GB/s).
template <int W, bool NT, class Part>
STRIDED_ALWAYS_INLINE void interleave_staged(const byte* s, i64 ss0, byte* d, i64 n1, i64 C, Part&& part) {
  constexpr i64 P = 64 / W;  // the vector blocks' rows
  const i64 RW = C * W, R = 4096 / RW >= P ? 4096 / RW / P * P : 4096 / RW;
  alignas(64) byte buf[4096 + 64];
  for (i64 r0 = 0; r0 < n1; r0 += R) {
    const i64 m = imin(R, n1 - r0);
    const byte* sp = s + r0 * W;
    for (i64 r = part(sp, buf, m); r < m; ++r)
      for (i64 c = 0; c < C; ++c) st<W>(buf + r * RW + c * W, ld<W>(sp + c * ss0 + r * W));
    copy_run<NT>(d + r0 * RW, buf, static_cast<std::size_t>(m * RW));
  }
}

// Interleave C planes (plane c at s + c*ss0, contiguous along r) into rows of C contiguous
// elements: d[r*ds1 + c*W] = s[c*ss0 + r*W]. A contiguous output (ds1 == C*W) is built 4 KiB
// at a time in L1 and written whole, streamed when NT (no read-for-ownership of the output).
template <int W, int C, bool NT> void interleave(const byte* s, i64 ss0, byte* d, i64 ds1, i64 n1) {
  constexpr i64 RW = C * W;
#if defined(STRIDED_AVX512)
  if constexpr (has_interleave_vec<W, C>()) {
    if (ds1 == RW) {
      // Rows up to the first 64-byte-aligned output vector by the scalar loop below.
      i64 h = 0;
      while (h < n1 && h < 64 && (addr(d + h * RW) & (SK_VB - 1)) != 0) ++h;
      if ((addr(d + h * RW) & (SK_VB - 1)) != 0) {
        // Never aligned (rows of 32 or 64 bytes from numpy's 16 bytes into a line: float32
        // C = 8, nChw8c; float64 C = 4, 8): streamed, every store would split two lines and
        // none stream. Staged in L1 and streamed whole (copy_run).
        if constexpr (NT) {
          // The planes' rows up to a source line first, where the planes are whole lines apart:
          // each vector load then reads one line, not two (many planes a power of two apart
          // share an L1 set, which evicts a straddled line before the next load wants its rest).
          const i64 h0 = ss0 % 64 == 0 ? imin(n1, to_line<W>(s)) : 0;
          for (i64 r = 0; r < h0; ++r)
            for (int c = 0; c < C; ++c) st<W>(d + r * RW + c * W, ld<W>(s + c * ss0 + r * W));
          s += h0 * W, d += h0 * RW, n1 -= h0;
          constexpr i64 R = 4096 / RW;
          alignas(64) byte buf[R * RW];
          for (i64 r0 = 0; r0 < n1; r0 += R) {
            const i64 m = imin(R, n1 - r0);
            const byte* sp = s + r0 * W;
            for (i64 r = interleave_vec<W, C, false>(sp, ss0, buf, m); r < m; ++r)
              for (int c = 0; c < C; ++c) st<W>(buf + r * RW + c * W, ld<W>(sp + c * ss0 + r * W));
            copy_run<NT>(d + r0 * RW, buf, static_cast<std::size_t>(m * RW));
          }
          return;
        }
        h = 0;  // into the cache: unaligned stores
      }
      for (i64 r = 0; r < h; ++r)
        for (int c = 0; c < C; ++c) st<W>(d + r * RW + c * W, ld<W>(s + c * ss0 + r * W));
      const i64 m =
          h + (h == 0 && (addr(d) & (SK_VB - 1)) != 0 ? interleave_vec<W, C, false>(s, ss0, d, n1)
                                                      : interleave_vec<W, C, NT>(s + h * W, ss0, d + h * RW, n1 - h));
      for (i64 r = m; r < n1; ++r)
        for (int c = 0; c < C; ++c) st<W>(d + r * RW + c * W, ld<W>(s + c * ss0 + r * W));
      return;
    }
  }
#endif
  if (ds1 == RW) {
    // float64 C = 9..15 streamed keep the element loop (the tiles ran 0.91x; in cache 1.08-1.13x).
    interleave_staged<W, NT>(s, ss0, d, n1, C, [&](const byte* sp, byte* b, i64 m) {
      return W == 8 && NT ? 0 : interleave_pad<W, C>(sp, ss0, b, m);
    });
    return;
  }
  for (i64 r = 0; r < n1; ++r)
    for (int c = 0; c < C; ++c) st<W>(d + r * ds1 + c * W, ld<W>(s + c * ss0 + r * W));
}

#if defined(STRIDED_AVX2)  // (and AVX-512, for bytes)
// AVX2 has no two-source permute of 16-bit lanes (perm2 above), nor AVX-512 without VBMI one of
// bytes, but vpshufb moves bytes within each 128-bit lane: a block of C 16-byte source pieces
// holds 16/W pixels, and channel r's 16 bytes are the OR of C byte shuffles, one per piece. The
// lanes of a register take consecutive blocks, so each store writes SK_VB/W elements of one row.
// Rows r < R (R == C: a de-interleave; R == 1: a stride-C gather, x[..., ::C]). Returns the
// elements done. AVX-512, one thread, (1080, 1920, 3) uint8 HWC -> CHW: 22.6 GB/s element by
// element, 60 with these (4 channels: 29 -> 47).
template <int W, int C> constexpr bool has_shuffle_deinterleave() { return W <= 4 && C >= 2 && C <= 4; }

// The shuffle controls, made at compile time: entry [r*C + t] puts the bytes of source piece t
// where row r's 16 bytes want them (output byte j: element j/W of the row, its elements C apart
// in the source; -128: a zero byte); every lane takes the same.
// (Built-in arrays: std::array's accessors would be weak symbols of this ISA's object at -O0,
// which scripts/check_isa_symbols.sh rejects.)
template <int W, int C> struct DeinterleaveTable {
  std::int8_t a[C * C][16];
  constexpr DeinterleaveTable() : a{} {
    for (int r = 0; r < C; ++r)
      for (int t = 0; t < C; ++t)
        for (int j = 0; j < 16; ++j) {
          const int o = (j / W * C + r) * W + j % W;
          a[r * C + t][j] = static_cast<std::int8_t>(o / 16 == t ? o % 16 : -128);
        }
  }
};

#if defined(STRIDED_AVX512)
inline vec lanes_of(const void* q) { return _mm512_broadcast_i32x4(get128(static_cast<const byte*>(q))); }
template <int C> inline vec blocks(const byte* p) {  // lane l: the 16 bytes at p + 16 l C
  const __m512i v = _mm512_inserti32x4(_mm512_castsi128_si512(get128(p)), get128(p + 16 * C), 1);
  return _mm512_inserti32x4(_mm512_inserti32x4(v, get128(p + 32 * C), 2), get128(p + 48 * C), 3);
}
inline vec shuffle_bytes(vec v, vec c) { return _mm512_shuffle_epi8(v, c); }
inline vec vor(vec a, vec b) { return _mm512_or_si512(a, b); }
#else
inline vec lanes_of(const void* q) { return _mm256_broadcastsi128_si256(get128(static_cast<const byte*>(q))); }
template <int C> inline vec blocks(const byte* p) {
  return _mm256_inserti128_si256(_mm256_castsi128_si256(get128(p)), get128(p + 16 * C), 1);
}
inline vec shuffle_bytes(vec v, vec c) { return _mm256_shuffle_epi8(v, c); }
inline vec vor(vec a, vec b) { return _mm256_or_si256(a, b); }
#endif

template <int W, int C, int R, bool NT> inline i64 shuffle_deinterleave(const byte* s, byte* d, i64 ds1, i64 n) {
  constexpr int E = SK_VB / W;  // elements of one row per step; the step reads SK_VB*C bytes
  static constexpr DeinterleaveTable<W, C> tab{};
  vec ctl[R][C];
  for (int r = 0; r < R; ++r)
    for (int t = 0; t < C; ++t) ctl[r][t] = lanes_of(tab.a[r * C + t]);
  i64 i = 0;
  // With R < C a step's last C - R elements lie past the last one used: stop a step early so
  // that they are never past the source's end (as gather_simd does).
  for (; i + E + (R < C ? 1 : 0) <= n; i += E) {
    const byte* p = s + i * C * W;
    vec v[C];
    for (int t = 0; t < C; ++t) v[t] = blocks<C>(p + 16 * t);
    for (int r = 0; r < R; ++r) {
      vec acc = shuffle_bytes(v[0], ctl[r][0]);
      for (int t = 1; t < C; ++t) acc = vor(acc, shuffle_bytes(v[t], ctl[r][t]));
      if (NT) vstream(d + r * ds1 + i * W, acc);
      else vstore(d + r * ds1 + i * W, acc);
    }
  }
  return i;
}
#endif

#if defined(STRIDED_AVX512)
// Whole lanes by deinterleave_lanes; other bytes by the shuffles above; wider elements by
// two-source permutes (gather_simd), C up to 8.
template <int W, int C> constexpr bool has_deinterleave_simd() {
  return lane_groups<W, C>() > 0 || has_pad<W, C>() ||
         (W == 1 ? has_shuffle_deinterleave<W, C>() : has_perm2<W>() && C >= 2 && C <= 8);
}
template <int W, int C, int R, bool NT> inline i64 deinterleave_simd(const byte* s, byte* d, i64 ds1, i64 n,
                                                                     i64 kb = 1) {
  if constexpr (lane_groups<W, C>() > 0 && R == C) return deinterleave_lanes<W, lane_groups<W, C>(), NT>(s, d, ds1, n);
  else if constexpr (has_pad<W, C>() && R == C) return deinterleave_pad<W, C, NT>(s, d, ds1, n, kb);
  else if constexpr (W == 1) return shuffle_deinterleave<W, C, R, NT>(s, d, ds1, n);
  else return gather_simd<W, C, R, NT>(s, d, ds1, n);
}
#elif defined(STRIDED_AVX2)
template <int W, int C> constexpr bool has_deinterleave_simd() {
  return has_shuffle_deinterleave<W, C>() || has_pad<W, C>();
}
template <int W, int C, int R, bool NT> inline i64 deinterleave_simd(const byte* s, byte* d, i64 ds1, i64 n,
                                                                     i64 kb = 1) {
  if constexpr (has_pad<W, C>() && R == C) return deinterleave_pad<W, C, NT>(s, d, ds1, n, kb);
  else return shuffle_deinterleave<W, C, R, NT>(s, d, ds1, n);
}
#else
template <int W, int C> constexpr bool has_deinterleave_simd() { return has_groups<W, C>(); }
template <int W, int C, int R, bool NT> inline i64 deinterleave_simd(const byte* s, byte* d, i64 ds1, i64 n,
                                                                     i64 kb = 1) {
  if constexpr (has_groups<W, C>() && R == C) return deinterleave_pad<W, C, NT>(s, d, ds1, n, kb);
  (void)s, (void)d, (void)ds1, (void)n, (void)kb;
  return 0;
}
#endif

// One row of a stride-K gather (x[..., ::K]) by deinterleave_simd's R == 1 form; false where this
// target has none for W and K (then gather_row does it).
template <int W, int K, bool NT> inline bool gather_row_simd(byte* dr, const byte* sr, i64 n0) {
#if defined(SK_VB)  // (a discarded if-constexpr branch still names SK_VB)
  if constexpr (has_deinterleave_simd<W, K>()) {
    if (NT && addr(dr) % W != 0) return false;
    constexpr i64 ss0 = i64{K} * W;
    i64 h = NT ? imin(n0, to_line<W>(dr)) : 0;
    gather_row<W, false, K>(dr, sr, h, ss0);  // up to the first line
    // Streamed: whole lines only. A step stops short of the row's last element (its loads reach
    // K - 1 elements past the step), so it is given one more element than the lines it may do.
    const i64 n = NT ? imin(n0 - h, ((n0 - h - 1) * W / 64 * 64 / W) + 1) : n0 - h;
    h += deinterleave_simd<W, K, 1, NT>(sr + h * ss0, dr + h * W, 0, n);
    gather_row<W, false, K>(dr + h * W, sr + h * ss0, n0 - h, ss0);
    return true;
  }
#endif
  (void)dr, (void)sr, (void)n0;
  return false;
}

// Packed pixels of C elements (C*W bytes apart at s) into C planes (plane r at d + r*ds1): the
// vector blocks by `part(s, d, n, nt)` (returns the pixels done), the rest by the element loop
// (K: the stride in elements where known at compile time, else 0). Streams only when every
// plane reaches a line boundary at the same pixel, and the planes are long: C streams of short
// pieces (space_to_depth's 512-byte rows) ran 1.45x slower streamed than cached (3.05 vs 2.1 ms,
// (4,32,256,256) f32, one thread, AVX-512).
template <int W, bool NT, int K, class Part>
inline void deinterleave_packed(const byte* s, byte* d, i64 ds1, i64 n0, i64 C, Part&& part) {
  const i64 ss0 = C * W;
  const bool nt = NT && ds1 % 64 == 0 && addr(d) % W == 0 && n0 * W >= 4096;
  const i64 h = nt ? imin(n0, to_line<W>(d)) : 0;
  const i64 m = h + part(s + h * ss0, d + h * W, nt ? (n0 - h) * W / 64 * 64 / W : n0, nt, NT ? 32 : 8);
  for (i64 r = 0; r < C; ++r) {
    gather_row<W, false, K>(d + r * ds1, s + r * W, h, ss0);
    gather_row<W, false, K>(d + r * ds1 + m * W, s + r * W + m * ss0, n0 - m, ss0);
  }
}

// The reverse: C destination rows (row r at d + r*ds1, contiguous along i) from every C-th
// element: d[r*ds1 + i*W] = s[r*W + i*ss0]. Chunks of about 8 KiB of source, read by all C rows
// while in L1; a compile-time stride when the source is packed (ss0 == C*W).
template <int W, int C, bool NT> void deinterleave(const byte* s, i64 ss0, byte* d, i64 ds1, i64 n0) {
  constexpr i64 I = (8192 / (C * W) + 63) / 64 * 64;
#if defined(SK_VB)  // (a discarded if-constexpr branch still names SK_VB)
  if constexpr (has_deinterleave_simd<W, C>()) {
    if (ss0 == C * W) {
      deinterleave_packed<W, NT, C>(s, d, ds1, n0, C, [&](const byte* sp, byte* dp, i64 n, bool nt, i64 kb) {
        return nt ? deinterleave_simd<W, C, C, true>(sp, dp, ds1, n, kb)
                  : deinterleave_simd<W, C, C, false>(sp, dp, ds1, n, kb);
      });
      return;
    }
  }
#endif
  if (NT && n0 * W < 4096) {  // short rows: cached stores (above)
    deinterleave<W, C, false>(s, ss0, d, ds1, n0);
    return;
  }
  for (i64 i0 = 0; i0 < n0; i0 += I) {
    const i64 m = imin(I, n0 - i0);
    for (int r = 0; r < C; ++r) {
      if (ss0 == C * W) gather_row<W, NT, C>(d + r * ds1 + i0 * W, s + r * W + i0 * ss0, m, ss0);
      else gather_row<W, NT, 0>(d + r * ds1 + i0 * W, s + r * W + i0 * ss0, m, ss0);
    }
  }
}

#if defined(SK_VB)
// Pixels past the narrow kernels' templates (uint8 C = 17..63, float16 C = 17..63), packed on
// one side: the groups' kernels with C at run time (k_transpose says when).
// Streamed from more than 32 planes (the hardware tracks fewer streams), the planes' lines 4
// chunks ahead are prefetched: uint8 C = 40, 56, 63 10.7 / 9.8 / 8.4 -> 14-15 / 14.5 / 13.8
// GB/s (one thread, 24-37 MiB); with 20-28 planes 0.7-1.3x, as tile_rows found.
template <int W, bool NT> void interleave_wide(const byte* s, i64 ss0, byte* d, i64 n1, i64 C) {
  interleave_staged<W, NT>(s, ss0, d, n1, C, [&](const byte* sp, byte* b, i64 m) {
    if (NT && C > 32 && (sp - s) / W + 5 * m <= n1)
      for (i64 c = 0; c < C; ++c)
        for (i64 q = 0; q < m * W; q += 64) prefetch_l2(sp + c * ss0 + 4 * m * W + q);
    return interleave_groups<W>(sp, ss0, b, m, C);
  });
}
template <int W, bool NT> void deinterleave_wide(const byte* s, byte* d, i64 ds1, i64 n0, i64 C) {
  deinterleave_packed<W, NT, 0>(s, d, ds1, n0, C, [&](const byte* sp, byte* dp, i64 n, bool nt, i64 kb) {
    return nt ? deinterleave_groups<W, true>(sp, dp, ds1, n, C, kb)
              : deinterleave_groups<W, false>(sp, dp, ds1, n, C, kb);
  });
}
#endif

template <int W, bool NT>
void k_gather(const byte* s, byte* d, i64 n1, i64 ss1, i64 ds1, i64 n0, i64 ss0, i64) {
  for (i64 r = 0; r < n1; ++r) {
    const byte* sr = s + r * ss1;
    byte* dr = d + r * ds1;
    if (ss0 == 2 * W) {  // x[..., ::2]
      if (!gather_row_simd<W, 2, NT>(dr, sr, n0)) gather_row<W, NT, 2>(dr, sr, n0, ss0);
    } else if (ss0 == 3 * W) {
      if (!gather_row_simd<W, 3, NT>(dr, sr, n0)) gather_row<W, NT, 3>(dr, sr, n0, ss0);
    } else if (ss0 == 4 * W) {
      if (!gather_row_simd<W, 4, NT>(dr, sr, n0)) gather_row<W, NT, 4>(dr, sr, n0, ss0);
    } else {
      gather_row<W, NT, 0>(dr, sr, n0, ss0);
    }
  }
  // no fence: the planner's loop runner fences once per span (kernels.hpp)
}

// Runs the narrow kernel for C == n (1 <= n <= kNarrow). DE: de-interleave, else interleave.
template <int W, bool NT, bool DE, int C = 1>
inline void narrow(const byte* s, i64 ss0, byte* d, i64 ds1, i64 n, i64 len) {
  if (n == C) {
    if constexpr (DE) deinterleave<W, C, NT>(s, ss0, d, ds1, len);
    else interleave<W, C, NT>(s, ss0, d, ds1, len);
  } else if constexpr (C < kNarrow) {
    narrow<W, NT, DE, C + 1>(s, ss0, d, ds1, n, len);
  }
}

#if defined(STRIDED_AVX2)  // (and AVX-512; SSE2 and NEON unmeasured)
template <int W, bool NT>
void k_transpose(const byte* s, byte* d, i64 n1, i64 ss1, i64 ds1, i64 n0, i64 ss0, i64 ds0);

// The staging buffers of staged_windows and staged_planes, and their window: 256 pixels, halved
// (down to `least`) while the planes' runs, 64 bytes apart so that they do not crowd, would not fit.
constexpr i64 kStageBuf = 32 * 1024;
template <int W> i64 stage_window(i64 planes, i64 least) {
  i64 S = kRunPixels;
  while (S > least && planes * (S * W + 64) > kStageBuf) S /= 2;
  return S;
}

// Into planes that crowd one L1 set where plane_runs takes no strips (fewer planes than a strip,
// counts between strips): plane_runs's window around any path. The call runs a window of pixels
// at a time into an L1 buffer whose rows do not crowd, by k_transpose's other paths, and each
// plane's run is then stored in turn (consecutive stores, consecutive sets). One thread, AMD Zen
// 5, 1 MiB, processes alternated, GB/s: NHWC -> NCHW (4, 64, 64, C) float16 C = 16 21.0 -> 30.4,
// 36 12.2 -> 23.5, 40 24.0 -> 28.2, 48 22.0 -> 28.5; float32 C = 20 14.7 -> 28.3, 24 28.9 -> 30.6
// (AVX2: unchanged, its strips of 8 take most counts). Pixels of at least a line, or of 32 bytes
// (the lanes kernels); the narrow and the groups' kernels (pixels of 17-63 other bytes) ran
// 0.55-0.95x through the buffer (float16 C = 12, 20, 24, 28), and so did float64's pairs of 8x8
// tiles (C = 10, 12: 0.74-0.87x): not taken. Returns false where it does not apply. Out of line:
// its buffer stays out of k_transpose's frame.
template <int W> STRIDED_NOINLINE bool staged_windows(const byte* s, i64 ss0, byte* d, i64 ds1, i64 n1, i64 n0) {
  const i64 S = stage_window<W>(n1, 64), RB = S * W + 64;
  if (n0 < S || n1 * RB > kStageBuf || (n1 * W < 64 && n1 * W != 32) || run_strip<W>(n1) != 0 ||
      !planes_crowded<W>(ds1, n1))
    return false;
  alignas(64) byte buf[kStageBuf];
  for (i64 i0 = 0; i0 < n0; i0 += S) {
    const i64 i = imin(i0, n0 - S);  // the last window ends at n0 (rewriting a few pixels)
    k_transpose<W, false>(s + i * ss0, buf, n1, W, RB, S, ss0, W);
    for (i64 r = 0; r < n1; ++r) put_run<false>(d + r * ds1 + i * W, buf + r * RB, S * W);
  }
  return true;
}

// From source planes that crowd one L1 set (NCHW -> NHWC from 64 x 64 planes, the planes 16 KiB
// apart) with channel counts that no line tile or 8x8 tile takes whole: staged_windows's mirror.
// A window of pixels of every plane is copied into an L1 buffer whose rows do not crowd (each
// plane's run read whole, in consecutive sets), then transposed from there by the other paths.
// One thread, AMD Zen 5, 1 MiB, GB/s (benchmarks/channel_sweep.py, 64 x 64 planes; 60 x 60 ones
// ran 27-47): AVX-512 float32 C = 18..47 / 65..100 16-23 / 16-21 -> 27-33 / 27-28, float64
// C = 17..71 21-34 -> 32-39, float16 C = 25..63 15-24 -> 22-30 (17..23 on par); AVX2 float32
// 9-26 -> 28-34, float16 C = 16..128 7-18 -> 16-28, float64 16-23 -> 30-37, uint8 6-15 -> 14-23.
// Processes alternated, NCHW -> NHWC (4, C, 64, 64): AVX-512 float32 C = 20 / 36 / 100 20.4 /
// 21.2 / 20.1 -> 26.0 / 29.4 / 24.2, float16 C = 36 16.6 -> 27.3, float64 C = 20 28.9 -> 35.9;
// AVX2 1.4-2.9x. Not taken: C a multiple of 8 on AVX-512 and for AVX2's float32 (their tiles take
// whole lines or 8x8 tiles: 0.6-0.85x staged), AVX-512's uint8 (0.7-0.9x) and float16 past 63
// (0.7-1.2x), nor where a window of 32 pixels of every plane would not fit the buffer. Returns
// false where it does not apply. Out of line: its buffer stays out of k_transpose's frame.
template <int W> bool planes_staged(i64 c) {
#if defined(STRIDED_AVX512)
  return W >= 2 && c > 16 && c % 8 != 0 && (W != 2 || c < 64);
#else
  return W != 4 ? c >= 16 && c <= 128 : c > 16 && c % 8 != 0;
#endif
}
template <int W> STRIDED_NOINLINE bool staged_planes(const byte* s, i64 ss0, byte* d, i64 ds1, i64 n1, i64 n0) {
  const i64 S = stage_window<W>(n0, 32), RB = S * W + 64;
  if (n1 < S || n0 * RB > kStageBuf || !planes_staged<W>(n0) || !planes_crowded<W>(ss0, n0)) return false;
  alignas(64) byte buf[kStageBuf];
  for (i64 i0 = 0; i0 < n1; i0 += S) {
    const i64 i = imin(i0, n1 - S);  // the last window ends at n1 (rewriting a few pixels)
    for (i64 r = 0; r < n0; ++r) put_run<false>(buf + r * RB, s + r * ss0 + i * W, S * W);
    k_transpose<W, false>(buf, d + i * ds1, S, W, ds1, n0, RB, W);
  }
  return true;
}
#endif

template <int W, bool NT>
void k_transpose(const byte* s, byte* d, i64 n1, i64 ss1, i64 ds1, i64 n0, i64 ss0, i64 ds0) {
  constexpr i64 T = tile_edge<W>();
  const bool unit = ss1 == W && ds0 == W;
#if defined(STRIDED_AVX2)
  if constexpr (!NT && (W == 2 || W == 4))
    if (unit && staged_windows<W>(s, ss0, d, ds1, n1, n0)) return;
  if constexpr (!NT)
    if (unit && staged_planes<W>(s, ss0, d, ds1, n1, n0)) return;
#endif
  // Sides of up to 8: the narrow kernels (shuffle chains); 9..16: panels where they apply
  // (nChw16c: a chain of 15 shuffles per vector ran 1.3x slower than the panel).
  const i64 small = imin(n0, n1);
  // Pixels of one or two whole 16-byte lanes (uint8 C = 16, 32; float16 C = 16): the narrow
  // kernels' (de)interleave_lanes, not the tiles; planes into the cache that would put more than
  // 8 of their lines in one L1 set keep the tiles (float16 (4, 64, 64, 16) ran 0.70x).
#if defined(STRIDED_AVX512)
  const bool lanes = ((W == 1 && (small == 16 || small == 32)) || (W == 2 && small == 16)) &&
                     (n0 <= n1 || NT || rows_per_set(ds1, small) <= 8);
#else
  const bool lanes = false;
#endif
  if constexpr (W == 1) {
    if (unit && lanes && small == 32) {
      if (n0 <= n1) interleave<W, 32, NT>(s, ss0, d, ds1, n1);
      else deinterleave<W, 32, NT>(s, ss0, d, ds1, n0);
      return;
    }
  }
#if defined(SK_VB)
  if constexpr (W <= 2) {
    // Pixels of 17..63 bytes, neither whole lanes (above) nor whole lines: the groups' kernels,
    // C at run time (the tiles and panels took them in pieces and edges). One thread, AMD Zen 5,
    // GB/s, NCHW -> NHWC / NHWC -> NCHW: uint8 C = 24 1 MiB 11 / 9 -> 28 / 31, 32 MiB 5 / 7.5 ->
    // 12 / 11, (1, 1024, 1024, 24) 5.4 / 4.4 -> 17.7 / 21.1; C = 40 1 MiB 14 / 11 -> 26 / 36;
    // float16 C = 20 1 MiB 18.5 / 19 -> 29 / 34, 32 MiB 7 / 10 -> 11-13 / 11. Kept elsewhere,
    // where their paths ran faster (0.7-0.9x otherwise): float16 C = 24 but NHWC -> NCHW into
    // the cache (planes24_u16, rows24_u16), streamed float16 C = 17 and uint8 C = 48 NHWC ->
    // NCHW (NCHW -> NHWC, with interleave_wide's prefetch, 1.5-1.9x the tiles).
#if defined(STRIDED_AVX512)
    const bool keep = W == 2 ? (small == 24 && (NT || n0 <= n1)) || (small == 17 && NT) : small == 48 && NT && n0 > n1;
#elif defined(STRIDED_AVX2)
    // AVX2 (two lanes a vector): whole lanes (uint8 C = 32, 48; float16 C = 24) keep the tiles
    // and panels, and so do interleaves into the cache (uint8 C = 24 0.84x, 40 0.98x); the rest
    // ran 1.03-1.18x in cache and 2.4-3.7x streamed (uint8 C = 24, float16 C = 20; 12-32 MiB).
    const bool keep = small * W % 16 == 0 || (!NT && n0 <= n1);
#else
    const bool keep = small * W % 16 == 0;  // (SSE2 / NEON: one lane a vector)
#endif
    // float16 C = 33..63 too, streamed, where the tiles took them in pieces (NCHW -> NHWC C = 36,
    // 48, 63 8.1 / 8.6 / 4.3 -> 15.2 / 23.4 / 17.1 GB/s, NHWC -> NCHW C = 36, 63 5.2 / 5.3 -> 12.7
    // / 12.4); NHWC -> NCHW with C a multiple of 8 keeps its tiles (C = 40, 48: 0.72-0.81x), and
    // so does everything into the cache (0.63-0.88x NCHW -> NHWC).
    const bool wider = W == 2 && NT && small * W < 128 && (n0 <= n1 || small % 8 != 0);
    if (unit && small > kNarrow && (small * W < 64 || wider) && !lanes && !keep) {
      if (n0 <= n1 && ds1 == n0 * W) return interleave_wide<W, NT>(s, ss0, d, n1, n0);
      if (n0 > n1 && ss0 == n1 * W) return deinterleave_wide<W, NT>(s, d, ds1, n0, n1);
    }
  }
#endif
  if (unit && small <= kNarrow && (T == 0 || small <= 8 || small % (T > 0 ? T : 1) != 0 || lanes)) {
    if (n0 <= n1) narrow<W, NT, false>(s, ss0, d, ds1, n0, n1);
    else narrow<W, NT, true>(s, ss0, d, ds1, n1, n0);
    return;  // no fence: see k_gather
  }
  const bool simd = T > 0 && unit;
#if defined(SK_VB)
  if (simd) {
    constexpr i64 RC = panel_rc<W>();
    constexpr i64 L = line_edge<W>();
    // C a multiple of 8 but not of the line tile (float32 C = 24, 40, ...; float16 C = 24, 40, 48,
    // ...) into the cache: the same, with the planes past the line tiles in 8x8 tiles. The panels'
    // staging ran 14-16 GB/s in cache here (AMD Zen 5, one thread); float16 C = 80 is on par.
    // Streamed, only through tile_rows_shifted (its ring of L1 spans; tile_rows streams whole
    // tile lines, which rows of such C do not start on). Against the panels, (4, 24, 256, 256) on
    // 2 threads, processes alternated: float32 36 -> 50 GB/s, float16 33.5 -> 45.5.
    const bool shifted = L > 0 && L * n0 * W <= shift_span<W>();
    const bool rest8 =
        (!NT || shifted) && ((W == 4 && area_edge<W>() == 8 && n0 > L) || (W == 2 && n0 >= 24)) && n0 % 8 == 0;
    // AVX2 has no line tiles; float32 into the cache takes its 8x8 tiles the same way (in place
    // of the panels; one thread, 1.5-7.5 MiB, AMD Zen 5 with the AVX2 kernels: 10-14 -> 20-32
    // GB/s, 2 threads 23-28 -> 24-57; float16's 8x8 tiles of 16-byte rows ran 0.8-1.0x: panels).
#if defined(STRIDED_AVX2) && !defined(STRIDED_AVX512)
    constexpr bool kDirect = true;
#else
    constexpr bool kDirect = false;
#endif
    constexpr i64 D = L > 0 ? L : T;
    const bool direct = L > 0 ? (n0 % L == 0 || rest8) && n0 <= 8 * L
                              : kDirect && W == 4 && !NT && n0 % T == 0 && n0 >= 2 * T && n0 <= 16 * T;
    if (D > 0 && ds1 == n0 * W && direct) {
      // Packed rows of 1..8 line micro-tiles (NCHW -> NHWC with C = 16..128 float32, 32..256
      // float16, 64..512 uint8, nChw16c), each tile row a whole output line: tiled straight from the source
      // planes, no staging (the panels' two L1 passes cost more than they save here; one thread,
      // 32 MiB: C = 16 2.3 vs 2.7-3.0 ms, C = 32 1.5x, C = 128 1.27x, C = 64 1.16x faster than the
      // panels; float16 C = 32..256 at 4-32 MiB 1.3-1.8x). The mirror (whole lines stored into C
      // planes in turn) ran 2-3x slower than panel_cols: NHWC -> NCHW keeps the panels. From
      // 64 planes (32 of float64) their lines two tile rows ahead are prefetched (the hardware
      // tracks fewer streams: float32 C = 64 1.11-1.14x faster, float16 C = 64 and 96 1.16-1.67x,
      // float64 C = 48 1.14-1.29x); with 16-32 it tracks them all (prefetching: 0.7-0.94x).
      // Planes a multiple of 64 bytes apart (power-of-two planes share L1 sets): the first
      // pixels up to a source line are peeled, so that each tile row loads whole lines; loads
      // straddling two lines needed each line twice, and the set had evicted it in between
      // (numpy's arrays start 16 bytes into a line; AMD Zen 4, one thread, (1, 64, 64, 64)
      // float32 in cache 10.7 -> 18 GB/s).
      if (ss0 % 64 == 0) {
        const i64 h = imin(n1, to_line<W>(s));
        if (h > 0 && n1 >= D) {  // stored tile rows over [0, h) (D may be less than h: AVX2);
          const auto rows_at = [&](i64 q) {
            if (n0 == D) tile_rows<W, false, true>(s + q * W, d + q * ds1, D, n0, ss0);
            else tile_rows<W, false, false>(s + q * W, d + q * ds1, D, n0, ss0);
          };
          i64 end = 0;
          for (i64 r = 0; r < h; r += D) {  // the rows past h are tiled again below
            rows_at(imin(r, n1 - D));
            end = imin(r, n1 - D) + D;
          }
          // Unless they fit no tile row of their own (a few rows: NHWC -> NCHW float16 (1, 16, 16,
          // 32) in numpy's arrays, 16 bytes into a line, went element by element below, 3-6x
          // slower than from a line): one more tile row ending at n1, if any row is left.
          if (n1 - h < D) {
            if (end < n1) rows_at(n1 - D);
            return;
          }
        } else {
          for (i64 r = 0; r < h; ++r)
            for (i64 i = 0; i < n0; ++i) st<W>(d + r * ds1 + i * W, ld<W>(s + r * W + i * ss0));
        }
        s += h * W, d += h * ds1, n1 -= h;
      }
      // float32 rows of whole lines from planes that crowd: tile_rows's wrapping tiles (see there).
      const bool wraps = W == 4 && tiles_wrap<W>(ss0) && n0 % imax(L, 1) == 0 && n0 > L;
      if (NT && (addr(d) % 64 != 0 || n0 % imax(L, 1) != 0) && shifted && !wraps) {
        if (n0 == L) tile_rows_shifted<W, true>(s, d, n1, n0, ss0);
        else tile_rows_shifted<W, false>(s, d, n1, n0, ss0);
      } else if (n0 == D) tile_rows<W, NT, true>(s, d, n1, n0, ss0);
      else tile_rows<W, NT, false>(s, d, n1, n0, ss0);
      return;
    }
    // Sides that are a multiple of tile_area's edge but not of the micro-tile (float32 C = 24, 40,
    // 56 on AVX-512: 16x16 tiles plus 8x8 ones) take the panels when the staged blocks below
    // cannot serve them at all (64 MiB, 2 / 1 threads, of memcpy: NCHW->NHWC 0.35-0.45 ->
    // 0.56-0.61 / 0.25 -> 0.40-0.42, NHWC->NCHW 0.54-0.57 -> 0.62-0.67 / 0.32-0.39 -> 0.45-0.46).
    // With C = 200 the blocks cover 192 channels and the panels ran 0.7-0.9x as fast.
    constexpr i64 A = area_edge<W>();
    const auto panel_side = [&](i64 c) { return c % T == 0 || (c % A == 0 && c < stage_bi<W>()); };
#if defined(STRIDED_AVX512)
    // Streamed into destination rows of whole lines: float16 with 24 or a multiple of 32 columns,
    // float32 with a multiple of 16 (NHWC -> NCHW, 2-D transposes whole or in a thread's band of
    // columns, NCHW -> NHWC past the line tiles above); straight into the lines (tiles_to_lines).
    // Packed source rows that the panels below take keep them where they ran faster: float16
    // C = 128..480 (on 2 threads here 0.85-0.89x), float32 up to 256 (0.8-1.0x).
    if constexpr (W == 2 || W == 4) {
      const bool panels = ss0 == n1 * W && (W == 2 ? n1 > 3 * L && n1 < 16 * L : n1 * W <= 1024);
      // Many columns not a multiple of L (NCHW -> NHWC with C over 256 from 28 x 28 planes): the
      // last tile ends at n1. The panels took them in pieces of 16 planes, 32-byte runs of each
      // streamed row: float16 (16, 512, 28, 28) 5.4 -> 15.0 GB/s, (16, 384, 28, 28) 6.0 -> 20.6,
      // float32 (16, 512, 30, 30) 12.2 -> 21.5 (one thread; two: 1.0-1.16x, bands of 64 rows).
      const bool cols = !panels && (W == 2 && n1 == 24 ? ss0 == 48 : n1 % L == 0 || n1 * W > 1024);
      if (NT && cols && ds1 % 64 == 0 && addr(d) % W == 0 && n0 >= L) {
        tiles_to_lines<W>(s, ss0, d, ds1, n1, n0);
        return;
      }
    }
#endif
#if defined(STRIDED_AVX2)
    // Into the cache, both sides at least a tile: line tiles (AVX2: micro-tiles) in blocks
    // (line_blocks; 1.4-2.7x the panels and staged blocks below), unless the strides crowd a
    // tile's lines into a few L1 sets (rows or planes a multiple of 4 KiB or so apart; AVX2's
    // tiles write each destination line in pieces, so its destination rows must spread wider:
    // rows 2 KiB apart ran 0.3x, 16 KiB 0.14-0.42x).
    constexpr i64 BT = block_tile<W>();
    const bool crowded = L > 0 ? planes_crowded<W>(ds1, n1) : gcd4k(ds1) > 512;
    const bool blocks = n1 >= BT && n0 >= BT && (ss0 % 4096 != 0 || line_blocks_crowded<W>(ss0, ds1)) && !crowded;
    if (!NT && blocks) {
      line_blocks<W>(s, ss0, d, ds1, n1, n0);
      return;
    }
    // Into planes that crowd into one L1 set, or from rows that do: plane_runs (uint8 only where
    // both do; see there).
    const bool rows_crowded = planes_crowded<W>(ss0, n0);
    // uint8 with both sides' rows a multiple of 1 KiB apart (2-D transposes of 1024 x 1024, 2048
    // x 2048): strips of a source line's 64 planes, windows of 512 pixels (8 lines a plane). One
    // thread, processes alternated, GB/s: AVX-512 1024 x 1024 14.9 -> 27.7, 2048 x 2048 12.7 ->
    // 26.2, 1024 x 2048 20.1 -> 26.9, NCHW -> NHWC (1, 1024, 32, 32) 13.6 -> 24.8; AVX2 13.4 ->
    // 20.4, 10.5 -> 16.6 (the tiles and line_tiles before, one line of each plane at a time;
    // 2000 x 2000 runs 24-35). And onto planes that crowd with more than 64 of them, not a
    // multiple of 16 (NHWC -> NCHW from 64 x 64 planes, C = 65..79, 100, 200): one thread, 1 MiB,
    // processes alternated, GB/s, (4, 64, 64, C) C = 65 / 100 / 200: AVX-512 6.7 / 6.6 / 6.6 (the
    // staged blocks) -> 14.9 / 19.8 / 20.7, AVX2 6.8 / 6.7 / 6.5 -> 12.5 / 18.3 / 16.6 (60 x 60
    // planes: 24-32). Multiples of 16 keep their paths (21 -> 13-16 in a sweep).
    if constexpr (W == 1) {
      const bool both = gcd4k(ss0) >= 1024 && gcd4k(ds1) >= 1024 && n1 >= 64;
      if (!NT && n0 >= 512 && (both || (crowded && n1 > 64 && n1 % 16 != 0)))
        return plane_runs<W, false, 64, 512>(s, ss0, d, n1, ds1, n0, true);
    }
    constexpr i64 LS = 64 / W > BT ? 64 / W : BT;  // a strip of a whole source line's planes
    if (!NT && W >= 2 && (crowded || (L > 0 && rows_crowded && n1 >= kRunPixels)) && n0 >= kRunPixels) {
      if (!crowded) return plane_runs<W, true, BT>(s, ss0, d, n1, ds1, n0, true);
      const i64 strip = run_strip<W>(n1);
      // Both sides crowd (float32, float64: 2-D transposes of 1024 x 1024, NCHW -> NHWC with
      // C = 1024 from 32 x 32 planes): strips of 256 bytes of each source row, windows of 128
      // pixels (the same 32 KiB buffer). A source line a row per strip read 15-26 GB/s here
      // (hugepages put all 256 rows of a window in 16 L2 sets), four lines a row 57-65, and
      // runs of 4 lines a plane stored 27-32 against 8 lines' 90 (AMD Zen 5, probes). One
      // thread, processes alternated, GB/s: AVX-512 1024 x 1024 float32 25.5 -> 32.9, 512 x 512
      // float64 27.4 -> 34.3; AVX2 24.2 -> 32.8, 25.6 -> 34.3. float16 (strips of 128 or 256
      // bytes) ran 0.85-1.06x: keeps the line strips.
      if constexpr (W >= 4)
        if (rows_crowded && n1 >= 256 / W && n0 >= 128)
          return plane_runs<W, false, 256 / W, 128>(s, ss0, d, n1, ds1, n0, true);
      if (strip == LS) return plane_runs<W, false, LS>(s, ss0, d, n1, ds1, n0, rows_crowded);
      if (strip == BT) return plane_runs<W, false, BT>(s, ss0, d, n1, ds1, n0, rows_crowded);
    }
#endif
    // Both sides packed (a whole (1, HW, C) array): the panels of the shorter side. NHWC -> NCHW
    // float32 (1, 16, 16, 64) in cache took panel_rows's 256-element rows: 45 GB/s, against
    // 68-88 for the panels of its 64-element rows (one thread, AMD Zen 5).
    const bool cols_fit = ss0 == n1 * W && panel_side(n1) && n1 * W * T <= kPanel && n0 >= T;
    if (ds1 == n0 * W && panel_side(n0) && n0 * W * RC <= kPanel && n1 >= RC && !(cols_fit && n1 < n0)) {
      panel_rows<W, NT>(s, d, n1, n0, ss0);
      return;
    }
    if (cols_fit) {
      panel_cols<W, NT>(s, d, n1, ds1, n0);
      return;
    }
#if defined(STRIDED_AVX2)
    // Streamed calls that no path above takes (neither side a multiple of the tiles, C = 60, 100,
    // 300, 2-D with odd sides), up to 16 MiB: line_blocks with ordinary stores ran faster than the
    // staged blocks below streamed (12-55 MiB outputs, processes alternated, 1 / 2 threads: 1.2-1.34x
    // / 1.1-1.33x); one call of 69 MiB (6000 x 3000 float32) ran 0.74x on one thread.
    if (NT && blocks && n1 * n0 * W <= (i64{16} << 20)) {
      line_blocks<W>(s, ss0, d, ds1, n1, n0);
      return;
    }
#endif
  }
  if (NT && simd && ds1 % 64 == 0 && addr(d) % W == 0) {
    // Peel the columns before the first 64-byte-aligned one (ds1 keeps all rows in phase).
    const i64 h = imin(n0, static_cast<i64>(((0 - addr(d)) & 63u) / W));
    if (h > 0) transpose_tiles<W, false>(s, d, n1, ss1, ds1, h, ss0, ds0, true);
    transpose_tiles<W, true>(s + h * ss0, d + h * W, n1, ss1, ds1, n0 - h, ss0, ds0, true);
    return;
  }
#endif
  transpose_tiles<W, false>(s, d, n1, ss1, ds1, n0, ss0, ds0, simd);
}

// ------------------------------------------------------------------ the convert family
// dst[r, i] = cast_value<D>(src[r, i]) (elem/cast.hpp). Contig: both operands walk their own
// element width along the inner loop, a form compilers vectorise; F16C converts float32 <->
// float16 eight at a time where the target has it (round to nearest even, quiet NaNs keeping
// the payload's high bits: SPEC 3.5's rules exactly).
template <class S, class D>
void k_convert(const byte* s, byte* d, i64 n1, i64 ss1, i64 ds1, i64 n0, i64 ss0, i64 ds0) {
  for (i64 r = 0; r < n1; ++r, s += ss1, d += ds1)
    for (i64 i = 0; i < n0; ++i) elem::store<D>(d + i * ds0, elem::cast_value<D>(elem::load<S>(s + i * ss0)));
}

// n contiguous elements converted (F16C / NEON FCVT for float16 where the target has them).
template <class S, class D> inline void convert_run(const byte* s, byte* d, i64 n) {
  i64 i = 0;
#if defined(STRIDED_F16C)
  if constexpr (std::is_same_v<S, float> && std::is_same_v<D, elem::Half>) {
    for (; i + 8 <= n; i += 8)
      _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 2 * i),
                       _mm256_cvtps_ph(_mm256_loadu_ps(reinterpret_cast<const float*>(s + 4 * i)),
                                       _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  } else if constexpr (std::is_same_v<S, elem::Half> && std::is_same_v<D, float>) {
    for (; i + 8 <= n; i += 8)
      _mm256_storeu_ps(reinterpret_cast<float*>(d + 4 * i),
                       _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 2 * i))));
  }
#elif defined(SK_NEON)
  // FCVT rounds to nearest even and keeps a quiet NaN's high payload bits, as F16C does
  // (the default FPCR: no flush-to-zero, no default NaN).
  if constexpr (std::is_same_v<S, float> && std::is_same_v<D, elem::Half>) {
    for (; i + 4 <= n; i += 4)
      vst1_u16(reinterpret_cast<std::uint16_t*>(d + 2 * i),
               vreinterpret_u16_f16(vcvt_f16_f32(vld1q_f32(reinterpret_cast<const float*>(s + 4 * i)))));
  } else if constexpr (std::is_same_v<S, elem::Half> && std::is_same_v<D, float>) {
    for (; i + 4 <= n; i += 4)
      vst1q_f32(reinterpret_cast<float*>(d + 4 * i),
                vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(reinterpret_cast<const std::uint16_t*>(s + 2 * i)))));
  }
#endif
  for (; i < n; ++i)
    elem::store<D>(d + i * static_cast<i64>(sizeof(D)),
                   elem::cast_value<D>(elem::load<S>(s + i * static_cast<i64>(sizeof(S)))));
}

template <class S, class D>
void k_convert_contig(const byte* s, byte* d, i64 n1, i64 ss1, i64 ds1, i64 n0, i64, i64) {
  for (i64 r = 0; r < n1; ++r, s += ss1, d += ds1) convert_run<S, D>(s, d, n0);
}

#if defined(SK_VB)
// Outputs larger than the cache: converted 4 KiB at a time into L1 by `conv` (the pair's
// contiguous kernel) and streamed from there (converted in place, every output line would be
// read for ownership first: int32 -> float32 ran at 0.77 of a memcpy of the same bytes). One
// function for every pair (a template per pair doubled the convert family's compile time); the
// planner fences after the span.
STRIDED_NOINLINE void convert_streamed(CopyKernel conv, i64 WS, i64 WD, const byte* s, byte* d, i64 n1, i64 ss1,
                                       i64 ds1, i64 n0) {
  alignas(64) byte buf[4096];
  const i64 B = 4096 / WD;  // elements per block
  for (i64 r = 0; r < n1; ++r, s += ss1, d += ds1) {
    if (n0 * WD < 8 * SK_VB || addr(d) % WD != 0) {
      conv(s, d, 1, 0, 0, n0, WS, WD);
      continue;
    }
    const i64 head = static_cast<i64>((0 - addr(d)) & 63) / WD;  // whole lines streamed (see copy_run)
    conv(s, d, 1, 0, 0, head, WS, WD);
    i64 i = head;
    for (; i + B <= n0; i += B) {
      conv(s + i * WS, buf, 1, 0, 0, B, WS, WD);
      for (i64 q = 0; q < B * WD; q += SK_VB) vstream(d + i * WD + q, vload(buf + q));
    }
    conv(s + i * WS, d + i * WD, 1, 0, 0, n0 - i, WS, WD);
  }
}
template <class S, class D>
void k_convert_stream(const byte* s, byte* d, i64 n1, i64 ss1, i64 ds1, i64 n0, i64, i64) {
  convert_streamed(&k_convert_contig<S, D>, sizeof(S), sizeof(D), s, d, n1, ss1, ds1, n0);
}
#endif

void fill_convert(CopyKernel (&t)[kDtypeSlots][kDtypeSlots][3]) noexcept {
  for (int a = 1; a < kDtypeSlots; ++a)
    for (int b = 1; b < kDtypeSlots; ++b)
      elem::for_dtype(a, [&](auto sv) {
        elem::for_dtype(b, [&](auto dv) {
          using S = decltype(sv);
          using D = decltype(dv);
          if constexpr (!std::is_same_v<S, D>) {
            t[a][b][0] = &k_convert<S, D>;
            t[a][b][1] = &k_convert_contig<S, D>;
#if defined(SK_VB)
            t[a][b][2] = &k_convert_stream<S, D>;
#else
            t[a][b][2] = &k_convert_contig<S, D>;  // no vector stores: nothing to stream
#endif
          }
        });
      });
}

// ------------------------------------------------------------------ the generate family
// The sequence (kernels.hpp). The product and the sum are separate statements (or separate
// instructions), and the library is built with -ffp-contract=off (CMakeLists.txt), so that no
// compiler fuses them into an FMA.
template <class T, class S> inline void sequence_run(byte* p, S s, i64 k0, i64 n, const SequenceParams& g) {
  if constexpr (std::is_integral_v<T>) {
    const std::uint64_t d = g.idelta;
    std::uint64_t v = g.istart + static_cast<std::uint64_t>(k0) * d;  // then += delta: exact mod 2^64
    for (i64 i = 0; i < n; ++i, v += d) elem::store<T>(p + i * s, static_cast<T>(v));
  } else {
    // k as k0 + i: exact in binary64 below 2^53, and an int32 i converts in vector registers
    constexpr i64 kChunk = i64{1} << 30;
    const double d = g.fdelta, st = g.fstart;
    for (i64 i0 = 0; i0 < n; i0 += kChunk) {
      const auto m = static_cast<std::int32_t>(imin(n - i0, kChunk));
      const double base = static_cast<double>(k0 + i0);
      byte* q = p + i0 * s;
      std::int32_t i = 0;
#if defined(STRIDED_F16C)
      if constexpr (std::is_same_v<T, elem::Half> && !std::is_same_v<S, i64>) {
        // Contiguous float16: eight sums at a time narrowed to float32; where that is exact (a
        // NaN or a value float32 cannot hold is not), F16C's one rounding to nearest even is
        // SPEC's double -> float16 rounding. Other groups take the scalar conversion.
        const __m256d lane = _mm256_set_pd(3, 2, 1, 0), vd = _mm256_set1_pd(d), vs = _mm256_set1_pd(st);
        for (; i + 8 <= m; i += 8) {
          const __m256d k = _mm256_add_pd(_mm256_set1_pd(base + static_cast<double>(i)), lane);
          const __m256d s0 = _mm256_add_pd(_mm256_mul_pd(k, vd), vs);
          const __m256d s1 = _mm256_add_pd(_mm256_mul_pd(_mm256_add_pd(k, _mm256_set1_pd(4)), vd), vs);
          const __m128 f0 = _mm256_cvtpd_ps(s0), f1 = _mm256_cvtpd_ps(s1);
          const int exact = _mm256_movemask_pd(_mm256_cmp_pd(_mm256_cvtps_pd(f0), s0, _CMP_EQ_OQ)) &
                            _mm256_movemask_pd(_mm256_cmp_pd(_mm256_cvtps_pd(f1), s1, _CMP_EQ_OQ));
          if (exact != 0xf) break;
          _mm_storeu_si128(reinterpret_cast<__m128i*>(q + i * s),
                           _mm256_cvtps_ph(_mm256_set_m128(f1, f0), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
        }
      }
#endif
      for (; i < m; ++i) {
        const double prod = (base + static_cast<double>(i)) * d;
        const double sum = prod + st;
        elem::store<T>(q + i * s, elem::cast_value<T>(sum));
      }
    }
  }
}
// A stride known at compile time (std::integral_constant would be emitted as a weak symbol of
// this ISA object at -O0: scripts/check_isa_symbols.sh).
template <i64 V> struct Fixed {
  constexpr operator i64() const { return V; }
};
template <class T> void k_sequence(byte* d, i64 ds, i64 k0, i64 n, const SequenceParams& g) {
  // a contiguous run gets a constant stride, so the compiler vectorises it
  if (ds == static_cast<i64>(sizeof(T))) sequence_run<T>(d, Fixed<sizeof(T)>{}, k0, n, g);
  else sequence_run<T>(d, ds, k0, n, g);
}
void fill_generate(SequenceKernel (&t)[kDtypeSlots]) noexcept {
  for (int a = 1; a < kDtypeSlots; ++a) elem::for_dtype(a, [&](auto tag) { t[a] = &k_sequence<decltype(tag)>; });
}

// ------------------------------------------------------------------ one-hot (kernels.hpp)
// n copies of v from p, `stride` bytes apart (contiguous: the broadcast fill's row).
template <int W> inline void put_run(byte* p, i64 stride, i64 n, U<W> v) {
  if (stride == W) {
    fill_row<W, false>(p, v, n);
  } else {
    for (i64 k = 0; k < n; ++k) st<W>(p + k * stride, v);
  }
}

template <class I, int W> void k_one_hot(const byte* idx, byte* out, i64 n_lines, const OneHotParams& g) {
  constexpr i64 kBlock = 2048;    // lines whose positions are read together (runs of 8 KiB of float32)
  constexpr i64 kBuf = 64 << 10;  // a streamed block's buffer
  U<W> off, on;  // the elements' bytes, at the start of their slots
  std::memcpy(&off, &g.off, W);
  std::memcpy(&on, &g.on, W);
  const i64 D = g.D, ax = g.ax, ji = g.ji, jo = g.jo;
  const auto ud = static_cast<std::uint64_t>(D);
  // Dense blocks (lines of D contiguous elements one after another, or D rows of contiguous
  // lines) of at least one line per buffer.
  const bool streamed = g.stream && D * W <= kBuf && (g.axis_inner ? ax == W && jo == D * W : jo == W);
  const i64 blk = streamed ? imin(kBuf / (D * W), kBlock) : kBlock;  // streamed: D * W <= kBuf, so >= 1
  alignas(64) byte buf[kBuf];  // untouched unless streamed
  std::uint64_t pos[kBlock];
  for (i64 jb = 0; jb < n_lines; jb += blk) {
    const i64 n = imin(n_lines - jb, blk);
    // The only read of each index: a position >= D (out of range) matches no element.
    for (i64 j = 0; j < n; ++j) pos[j] = elem::index_pos(elem::load<I>(idx + (jb + j) * ji), D);
    // The block (in the output, or packed in buf) filled with off in memory order (vectorised
    // runs), then one 'on' per line while the block is still in cache.
    byte* base = streamed ? buf : out + jb * jo;
    const i64 bjo = streamed ? (g.axis_inner ? D * W : W) : jo;
    const i64 bax = streamed ? (g.axis_inner ? W : n * W) : ax;
    if (g.axis_inner ? bax == W && bjo == D * W : bjo == W && bax == n * W) {
      put_run<W>(base, W, n * D, off);  // a dense block: one run (short lines vectorise badly)
    } else if (g.axis_inner) {
      for (i64 j = 0; j < n; ++j) put_run<W>(base + j * bjo, bax, D, off);
    } else {
      for (i64 k = 0; k < D; ++k) put_run<W>(base + k * bax, bjo, n, off);
    }
    for (i64 j = 0; j < n; ++j)
      if (pos[j] < ud) st<W>(base + j * bjo + static_cast<i64>(pos[j]) * bax, on);
    if (streamed) {
      if (g.axis_inner) k_contig<W, true>(buf, out + jb * jo, 1, 0, 0, n * D, W, W);
      else k_contig<W, true>(buf, out + jb * jo, D, n * W, ax, n, W, W);
    }
  }
}
template <class I> void fill_one_hot_row(OneHotKernel (&t)[4]) noexcept {
  t[0] = &k_one_hot<I, 1>;
  t[1] = &k_one_hot<I, 2>;
  t[2] = &k_one_hot<I, 4>;
  t[3] = &k_one_hot<I, 8>;
}
void fill_one_hot(OneHotKernel (&t)[kDtypeSlots][4]) noexcept {
  fill_one_hot_row<std::int32_t>(t[6]);  // DataType values (DirectML's): INT32 6, UINT32 3, UINT64 10, INT64 11
  fill_one_hot_row<std::uint32_t>(t[3]);
  fill_one_hot_row<std::uint64_t>(t[10]);
  fill_one_hot_row<std::int64_t>(t[11]);
}

// ------------------------------------------------------------------ line writer (kernels.hpp)
// The line being assembled lives in a register on AVX-512 (byte-masked loads and blends; a masked
// load never faults on the lanes it leaves out, so a piece may start anywhere in its row), else
// in the writer's buffer.
#if defined(STRIDED_AVX512)
struct Acc {
  __m512i v;
};
inline Acc acc_load(const LineWriter& w) { return {_mm512_load_si512(w.line)}; }
inline void acc_save(LineWriter& w, const Acc& a) { _mm512_store_si512(w.line, a.v); }
// Lanes [o, o + k) from p (p[0] into lane o), or from the pattern when p is null.
inline void acc_put(Acc& a, const LineWriter& w, const byte* p, unsigned o, unsigned k) {
  const __mmask64 m = lanes(o, o + k);
  a.v = p ? _mm512_mask_loadu_epi8(a.v, m, p - o) : _mm512_mask_mov_epi8(a.v, m, _mm512_load_si512(w.pattern));
}
inline void acc_store(const Acc& a, const LineWriter&, byte* line, unsigned from, unsigned to) {
  _mm512_mask_storeu_epi8(line, lanes(from, to), a.v);
}
inline void acc_line(const Acc& a, const LineWriter& w, byte* line) {
  if (w.stream) _mm512_stream_si512(reinterpret_cast<__m512i*>(line), a.v);
  else _mm512_store_si512(line, a.v);
}
#else
struct Acc {};
inline Acc acc_load(const LineWriter&) { return {}; }
inline void acc_save(LineWriter&, const Acc&) {}
inline void acc_put(Acc&, LineWriter& w, const byte* p, unsigned o, unsigned k) {
  std::memcpy(w.line + o, p ? p : w.pattern + o, k);
}
inline void acc_store(const Acc&, const LineWriter& w, byte* line, unsigned from, unsigned to) {
  std::memcpy(line + from, w.line + from, to - from);
}
inline void acc_line(const Acc&, const LineWriter& w, byte* line) {
#if defined(SK_VB)
  if (w.stream) {
    for (unsigned q = 0; q < 64; q += SK_VB) vstream(line + q, vload(w.line + q));
    return;
  }
#endif
  std::memcpy(line, w.line, 64);
}
#endif

// Whole lines [at, at + n) (at 64-byte aligned, n a multiple of 64) from p, or the pattern.
inline void lines_direct(const LineWriter& w, byte* at, const byte* p, i64 n) {
#if defined(SK_VB)
  // Vector loops, cached too: where GCC could bound n, it expanded a memcpy here as rep movsq
  // (edge pads of 100-float rows 1.5x slower).
  if (p) {
    if (w.stream) {
      for (i64 q = 0; q < n; q += SK_VB) vstream(at + q, vload(p + q));
    } else {
      for (i64 q = 0; q < n; q += SK_VB) vstore(at + q, vload(p + q));
    }
  } else {
    const vec v = vload(w.pattern);  // every SK_VB-byte piece of the pattern is the same
    if (w.stream) {
      for (i64 q = 0; q < n; q += SK_VB) vstream(at + q, v);
    } else {
      for (i64 q = 0; q < n; q += SK_VB) vstore(at + q, v);
    }
  }
#else
  if (p) {
    std::memcpy(at, p, static_cast<std::size_t>(n));
  } else {
    for (i64 q = 0; q < n; q += 64) std::memcpy(at + q, w.pattern, 64);
  }
#endif
}

// Whether w stores bytes where they go rather than assembling lines: a cached output with its
// gaps filled. A line two runs share is then stored twice while in L1, which costs less than
// assembling it in a register kept across calls (unfold's 55-float rows: 1.7x faster); [lo, hi)
// holds whole lines but at the output's ends, so no other writer stores into ours. (Rows with
// margins, assembled in an L1 buffer first, ran 1.3x slower stored that way: edge pads of
// 100-float rows, 10 MiB, 2 threads.)
inline bool direct(const LineWriter& w) { return !w.stream && w.fill_gaps; }

// n bytes at w.at (n <= hi - at) from p, or the pattern when p is null.
inline void emit(LineWriter& w, Acc& a, const byte* p, i64 n) {
  if (direct(w) && n > 0) {
    if (p) {
      std::memcpy(w.at, p, static_cast<std::size_t>(n));
    } else if (n <= 64 && w.hi - w.at >= 64) {
      // A short gap: one store of 64 pattern bytes. What it writes past the gap lies in [at, hi),
      // which this writer writes whole, in address order (gaps are filled): written again next.
      std::memcpy(w.at, w.pattern + (addr(w.at) & 63), 64);
    } else {
      for (byte *q = w.at, *e = w.at + n; q < e; q += 64)
        std::memcpy(q, w.pattern + (addr(q) & 63), static_cast<std::size_t>(imin(64, e - q)));
    }
    w.at += n;
    return;
  }
  while (n > 0) {
    const auto o = static_cast<unsigned>(addr(w.at) & 63);
    if (o == 0 && n >= 64) {  // whole lines: no assembly (at >= lo and at + n <= hi)
      const i64 m = n & ~i64{63};
      lines_direct(w, w.at, p, m);
      w.at += m, n -= m;
      if (p) p += m;
      continue;
    }
    const auto k = static_cast<unsigned>(imin(64 - o, n));
    acc_put(a, w, p, o, k);
    w.at += k, n -= k;
    if (p) p += k;
    if (o + k == 64) {  // the line is complete: whole, or only our part of it at lo
      byte* line = w.at - 64;
      if (line >= w.lo) acc_line(a, w, line);
      else acc_store(a, w, line, static_cast<unsigned>(w.lo - line), 64);
    }
  }
}

// The bytes of [lo, at) in the line being assembled stored, and the writer moved on to q (> at)
// without writing what lies between (bytes later steps write).
inline void skip_to(LineWriter& w, const Acc& a, byte* q) {
  const auto o = static_cast<unsigned>(addr(w.at) & 63);
  if (o != 0 && !direct(w)) {
    byte* line = w.at - o;
    acc_store(a, w, line, line >= w.lo ? 0u : static_cast<unsigned>(w.lo - line), o);
  }
  w.at = w.lo = q;
}

// One run of len bytes from p to q (q >= the previous run's end), clipped to [at, hi).
inline void run_at(LineWriter& w, Acc& a, byte* q, const byte* p, i64 len) {
  if (q > w.at) {
    if (q >= w.hi) {
      if (w.fill_gaps) emit(w, a, nullptr, w.hi - w.at);
      else skip_to(w, a, w.hi);
      return;
    }
    if (w.fill_gaps) emit(w, a, nullptr, q - w.at);
    else skip_to(w, a, q);
  } else if (q < w.at) {  // the run began in the previous writer's range
    const i64 skip = w.at - q;
    if (skip >= len) return;
    p += skip, len -= skip;
  }
  emit(w, a, p, imin(len, w.hi - w.at));
}

void k_rows(LineWriter& w, const byte* s, i64 n1, i64 ss1, byte* d, i64 ds1, i64 nb, const RowMargins* mg) {
  Acc a = acc_load(w);
  if (!mg) {
    for (i64 r = 0; r < n1 && w.at < w.hi; ++r) run_at(w, a, d + r * ds1, s + r * ss1, nb);
  } else {
    const i64 W = mg->width, lb = mg->n_left * W, row = lb + nb + mg->n_right * W;
    constexpr i64 kRow = 2048;
    if (row <= kRow && !w.stream) {
      // Short rows into a cached output: the row with its margins assembled in L1 and written as
      // one run (a run per margin element cost more than the row's copy: reflect pads of
      // 128-float rows ran 1.7x slower than constant ones on 2 threads). Not when streaming: the
      // assembly's stores queue behind the streamed ones, and reflect pads of 128-float rows into
      // 34 MiB ran 1.5-2x slower assembled (2 threads, AVX2).
      alignas(64) byte buf[kRow + 4096];
      const auto elem = [W](byte* t, const byte* f) {
        switch (W) {
          case 1: st<1>(t, ld<1>(f)); break;
          case 2: st<2>(t, ld<2>(f)); break;
          case 4: st<4>(t, ld<4>(f)); break;
          default: st<8>(t, ld<8>(f)); break;
        }
      };
      for (i64 r = 0; r < n1 && w.at < w.hi; ++r) {
        const byte* p = s + r * ss1;
        // The row assembled 2 KiB from its source modulo 4 KiB. CPUs test a load against older
        // stores by address bits 0-11 first, so a buffer at a fixed place delays the next rows'
        // loads whenever their low bits meet it ("4K aliasing"). With rb fixed, reflect pads into
        // 4 MiB on 1 thread ran 2x slower in 14 of 16 processes (by stack position); placed so,
        // in 9 of 16 (other fixed buffers, such as the line writer's, remain).
        byte* rb = buf + ((addr(p) + 2048 - addr(buf)) & 4032);
        for (i64 j = 0; j < mg->n_left; ++j) elem(rb + j * W, p + mg->left[j]);
        copy_run<false>(rb + lb, p, static_cast<std::size_t>(nb));
        for (i64 j = 0; j < mg->n_right; ++j) elem(rb + lb + nb + j * W, p + mg->right[j]);
        run_at(w, a, d + r * ds1 - lb, rb, row);
      }
    } else {
      for (i64 r = 0; r < n1 && w.at < w.hi; ++r) {
        const byte* p = s + r * ss1;
        byte* q = d + r * ds1 - lb;
        for (i64 j = 0; j < mg->n_left; ++j, q += W) run_at(w, a, q, p + mg->left[j], W);
        run_at(w, a, q, p, nb);
        q += nb;
        for (i64 j = 0; j < mg->n_right; ++j, q += W) run_at(w, a, q, p + mg->right[j], W);
      }
    }
  }
  acc_save(w, a);
}

void k_finish(LineWriter& w) {
  Acc a = acc_load(w);
  if (w.fill_gaps) emit(w, a, nullptr, w.hi - w.at);
  skip_to(w, a, w.hi);  // the last line, ours only up to hi (and from lo, if lo is in it too)
  if (w.stream) fence();
}

// ------------------------------------------------------------------ the table
// noexcept down to make_table: kernels_<target>() (noexcept) then needs no terminate handler,
// which clang would otherwise emit at -O0 as a weak __clang_call_terminate in this ISA object
// (scripts/check_isa_symbols.sh allows an ISA object no weak or global symbol but its entry point).
template <bool NT, int W> constexpr CopyKernel pick(KernelKind k) noexcept {
  switch (k) {
    case KernelKind::Contig: return &k_contig<W, NT>;
    case KernelKind::Fill: return &k_fill<W, NT>;
    case KernelKind::Reverse: return &k_reverse<W, NT>;
    case KernelKind::Gather: return &k_gather<W, NT>;
    case KernelKind::Generic: return &k_generic<W, NT>;
    default: return &k_transpose<W, NT>;
  }
}

template <bool NT> void fill_table(CopyKernel (&t)[kKernelKinds][4]) noexcept {
  for (int k = 0; k < kKernelKinds; ++k) {
    const auto kind = static_cast<KernelKind>(k);
    t[k][0] = pick<NT, 1>(kind);
    t[k][1] = pick<NT, 2>(kind);
    t[k][2] = pick<NT, 4>(kind);
    t[k][3] = pick<NT, 8>(kind);
  }
}

// ------------------------------------------------------------------ the axis-index family
template <class I> void k_minmax(const byte* p, i64 n, void* mn, void* mx) noexcept {
  index::minmax_body<I>(p, n, *static_cast<I*>(mn), *static_cast<I*>(mx));
}
template <class I, class T> bool k_narrow(const byte* p, i64 n, i64 bound, void* dst) noexcept {
  return index::narrow_body<I, T>(p, n, bound, static_cast<T*>(dst));
}
template <class I> void set_index(KernelTable& t, int s) noexcept {
  t.minmax[s] = &k_minmax<I>;
  t.narrow[s][0] = &k_narrow<I, std::uint16_t>;
  t.narrow[s][1] = &k_narrow<I, std::uint32_t>;
}
void fill_index(KernelTable& t) noexcept {
  set_index<std::int32_t>(t, 6);  // DataType values, as for one_hot: INT32 6, UINT32 3, UINT64 10, INT64 11
  set_index<std::int64_t>(t, 11);
  set_index<std::uint32_t>(t, 3);
  set_index<std::uint64_t>(t, 10);
#if defined(STRIDED_AVX2)
  t.gather_line[0] = &index::gather_line_checked_i32;
  t.gather_line[1] = &index::gather_line_checked_i64;
  t.gather_line_u16 = &index::gather_line_u16;
#endif
}

KernelTable make_table(const char* name) noexcept {
  KernelTable t{};
  t.name = name;
  fill_table<false>(t.k[0]);
  fill_table<true>(t.k[1]);
  fill_convert(t.convert);
  fill_index(t);
  t.rows = &k_rows;
  t.finish = &k_finish;
  fill_generate(t.sequence);
  fill_one_hot(t.one_hot);
  return t;
}

}  // namespace
}  // namespace strided::detail::STRIDED_KNS

#undef SK_VB
#undef SK_NEON
