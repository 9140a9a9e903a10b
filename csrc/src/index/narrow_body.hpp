// The loops of the index check over contiguous runs (check.cpp: baseline ISA; check_avx2.cpp:
// AVX2). ISA-safe: this header is included by a per-ISA translation unit, so everything in it
// has internal linkage (unnamed namespace) and it includes nothing that defines inline functions
// or templates with external linkage (no index/common.hpp, no <string>/<vector>/<algorithm>):
// each file keeps its own copy compiled with its own flags, and the linker can never pick the
// AVX2 copy for baseline code. scripts/check_isa_symbols.sh (ctest isa_symbols) checks this.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace strided::detail::index {
namespace {
/// An unaligned element load (index buffers may be misaligned): index/common.hpp's load(),
/// repeated here with internal linkage.
template <class T>
inline T isa_load(const std::byte* p) noexcept {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

/// Running min/max of the n contiguous values at p, folded into mn/mx.
template <class I>
void minmax_body(const std::byte* p, std::int64_t n, I& mn, I& mx) noexcept {
  I lo = mn, hi = mx;
  for (std::int64_t j = 0; j < n; ++j) {
    const I v = isa_load<I>(p + j * static_cast<std::int64_t>(sizeof(I)));
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
    const I v = isa_load<I>(p + j * static_cast<std::int64_t>(sizeof(I)));
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
}  // namespace
}  // namespace strided::detail::index
