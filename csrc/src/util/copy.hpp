// copy_bytes: memcpy, except where glibc's is pathological. glibc 2.36's x86-64 memcpy moves
// about 4-512 KiB with REP MOVSB, which (AMD Zen 3 measured) runs 12-15x slower when the
// destination lies 1-31 bytes past the source modulo 4096: each load waits on stores it seems
// to alias. 1 MiB in 64 KiB pieces, destination 16 bytes on: 555-600 us, 36-45 us at other
// distances. That distance is the usual one between two arrays malloc'd one after the other
// (a 16-byte chunk header): x, then np.empty_like(x). There the bytes go backward in 64-byte
// pieces (47-55 us, SSE2 or AVX2 alike), so no load follows a store to a nearby address. Not at
// 32-63 bytes, where glibc is fine: out of cache the backward copy is ~1.5x slower than glibc's
// best (8 MiB in 16 KiB rows: 620-850 us against 420-590; glibc at 16 bytes: 3.8-4.6 ms).
// stream_bytes: the same bytes, the destination's whole cache lines stored non-temporally.
// Everything has internal linkage: per-ISA translation units include it (check_isa_symbols).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#define STRIDED_STREAM_BYTES 1
#endif

namespace strided::detail {
namespace {

inline void copy_bytes(void* d, const void* s, std::size_t n) noexcept {
  const auto gap = (reinterpret_cast<std::uintptr_t>(d) - reinterpret_cast<std::uintptr_t>(s)) & 4095;
  if (n < 2048 || gap == 0 || gap >= 32) {
    std::memcpy(d, s, n);
    return;
  }
  auto* q = static_cast<unsigned char*>(d);
  const auto* p = static_cast<const unsigned char*>(s);
  for (; n >= 64; n -= 64) std::memcpy(q + n - 64, p + n - 64, 64);  // inlined as vector moves
  std::memcpy(q, p, n);
}

/// n bytes from s to d, the whole 64-byte lines of d streamed past the caches (x86-64: SSE2's
/// MOVNTDQ; elsewhere a plain copy): for large outputs that are written once and not read back
/// soon, whose lines a plain store would first read. The edge lines are stored normally, so
/// neighbours written by other threads stay intact. The writer ends with store_fence().
inline void stream_bytes(void* d, const void* s, std::size_t n) noexcept {
#if defined(STRIDED_STREAM_BYTES)
  auto* q = static_cast<unsigned char*>(d);
  const auto* p = static_cast<const unsigned char*>(s);
  const std::size_t h = (0 - reinterpret_cast<std::uintptr_t>(q)) & 63u;
  if (n < h + 64) {
    std::memcpy(q, p, n);
    return;
  }
  std::memcpy(q, p, h);
  std::size_t k = h;
  for (; k + 64 <= n; k += 64)
    for (std::size_t v = 0; v < 64; v += 16)
      _mm_stream_si128(reinterpret_cast<__m128i*>(q + k + v),
                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + k + v)));
  std::memcpy(q + k, p + k, n - k);
#else
  std::memcpy(d, s, n);
#endif
}

/// Publishes a thread's streamed stores (weakly ordered) before other threads read them.
inline void store_fence() noexcept {
#if defined(STRIDED_STREAM_BYTES)
  _mm_sfence();
#endif
}

}  // namespace
}  // namespace strided::detail
