// Bit counts and prefetch hints without GCC builtins on compilers that lack them (MSVC), and
// STRIDED_UNROLL4.
#pragma once
#ifdef STRIDED_ISA_TU
#error "a per-ISA translation unit must not include util/bits.hpp (inline functions; see scripts/check_isa_symbols.sh)"
#endif
#include <cstdint>

#include "util/isa.hpp"
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif
#if defined(STRIDED_SSE2)
#include <xmmintrin.h>
#endif

// STRIDED_UNROLL4 before a loop: GCC and clang unroll it 4x, so that a short hot loop's speed
// depends less on where its code lands (index/elements.cpp). Not in sanitized builds, where it
// only lengthens the compile (elements.cpp under ASan at -O1: 119 s instead of 88).
#if defined(__clang__)
#if __has_feature(address_sanitizer)
#define STRIDED_SANITIZED_BUILD 1
#endif
#elif defined(__SANITIZE_ADDRESS__)
#define STRIDED_SANITIZED_BUILD 1
#endif
#if defined(__GNUC__) && !defined(STRIDED_SANITIZED_BUILD)
#define STRIDED_UNROLL4 _Pragma("GCC unroll 4")
#else
#define STRIDED_UNROLL4
#endif

namespace strided::detail {

/// Set bits of v.
inline int popcount64(std::uint64_t v) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_popcountll(v);
#else
  // SWAR count: MSVC's __popcnt64 needs the POPCNT instruction, which x86-64's baseline lacks.
  v = v - ((v >> 1) & 0x5555555555555555ULL);
  v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
  v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return static_cast<int>((v * 0x0101010101010101ULL) >> 56);
#endif
}

/// Index of the lowest set bit of v; v != 0.
inline int ctz64(std::uint64_t v) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_ctzll(v);
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
  unsigned long i = 0;
  _BitScanForward64(&i, v);
  return static_cast<int>(i);
#else
  int i = 0;
  while (!(v & 1)) v >>= 1, ++i;
  return i;
#endif
}

/// A read hint for the cache line holding p (no effect where the compiler offers none).
inline void prefetch(const void* p) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p);
#elif defined(STRIDED_SSE2)
  _mm_prefetch(static_cast<const char*>(p), _MM_HINT_T0);
#else
  (void)p;
#endif
}

}  // namespace strided::detail
