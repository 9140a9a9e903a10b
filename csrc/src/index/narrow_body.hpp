// The loop of the narrowing index check (check.cpp: baseline ISA; check_avx2.cpp: AVX2), in an
// unnamed namespace so each file keeps its own copy compiled with its own flags.
#pragma once
#include <type_traits>

#include "index/common.hpp"

namespace strided::detail::index {
namespace {
/// Writes the n contiguous indices at p, normalised (negative values count from the end), to
/// dst as U; returns whether every value was in range for an axis of size `bound`.
template <class I, class U>
bool narrow_body(const std::byte* p, std::int64_t n, std::int64_t bound, U* dst) noexcept {
  const auto b = static_cast<std::uint64_t>(bound);
  std::uint64_t bad = 0;
  for (std::int64_t j = 0; j < n; ++j) {
    const I v = load<I>(p + j * static_cast<std::int64_t>(sizeof(I)));
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
