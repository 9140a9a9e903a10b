// Index normalisation, written once: an index value of any of the four index types -> a position
// along a dimension of `size` elements (SPEC 3.0: negative values count from the end). ISA-safe
// (like cast.hpp): internal linkage and only <cstdint>/<type_traits>, so the per-ISA kernels (the
// one-hot kernel) and the index family's baseline code each compile their own copy.
#pragma once
#include <cstdint>
#include <type_traits>

namespace strided::detail::elem {
namespace {

/// An index value as an unsigned position along an axis of `size`: negative values of signed
/// types count from the end; any value outside [-size, size) (or [0, size)) gives a position
/// >= size. Kernels call it at the very read whose value they use and test that position: the
/// check pass before them only names the first bad index, while another thread may rewrite the
/// indices between the two (SPEC 3.0 rule 2).
template <class I>
inline std::uint64_t index_pos(I v, std::int64_t size) noexcept {
  if constexpr (std::is_signed_v<I>) {
    const auto t = static_cast<std::int64_t>(v);
    return static_cast<std::uint64_t>(t) + static_cast<std::uint64_t>(t < 0 ? size : 0);
  } else {
    return static_cast<std::uint64_t>(v);
  }
}

}  // namespace
}  // namespace strided::detail::elem
