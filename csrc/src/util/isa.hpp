// The instruction sets this translation unit is compiled for, one spelling for every compiler.
// GCC and clang define __SSE2__, __AVX2__, __F16C__ ... from -m flags; MSVC defines __AVX2__ and
// __AVX512F__ for /arch but never __SSE2__ (implied by x64) nor __F16C__ (its /arch:AVX2 TUs run
// only on CPUs that simd.cpp found to have F16C). Macros only: safe in the per-ISA TUs.
#pragma once

#if defined(__SSE2__) || defined(_M_X64) || defined(_M_AMD64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#define STRIDED_SSE2 1
#endif
#if defined(__AVX2__)
#define STRIDED_AVX2 1
#endif
#if defined(__AVX512F__)
#define STRIDED_AVX512 1
#endif
#if defined(__F16C__) || (defined(_MSC_VER) && !defined(__clang__) && defined(__AVX2__))
#define STRIDED_F16C 1
#endif

// For the one-instruction element accessors (a memcpy of 1-8 bytes) in every kernel's inner loop.
// With _FORTIFY_SOURCE=3 (Ubuntu 24.04's and Fedora's default) a memcpy to a pointer of unknown
// size starts as a checked call, so GCC's inliner takes the accessor for a large function and, in
// units with many instances, leaves it out of line: one call per element, 5-11x slower loops.
#if defined(_MSC_VER) && !defined(__clang__)
#define STRIDED_ALWAYS_INLINE __forceinline
#else
#define STRIDED_ALWAYS_INLINE inline __attribute__((always_inline))
#endif
// For a cold path kept out of the loop that calls it.
#if defined(_MSC_VER) && !defined(__clang__)
#define STRIDED_NOINLINE __declspec(noinline)
#else
#define STRIDED_NOINLINE __attribute__((noinline))
#endif
