// Overflow-checked 64-bit arithmetic: every size computation goes through these, so an
// overflowing description is a ValidationError, never a wrapped number.
#pragma once
#include <cstdint>

namespace strided::detail {

/// r = a * b; false on overflow.
inline bool checked_mul(std::uint64_t a, std::uint64_t b, std::uint64_t& r) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return !__builtin_mul_overflow(a, b, &r);
#else
  if (a != 0 && b > UINT64_MAX / a) return false;
  r = a * b;
  return true;
#endif
}
/// r = a + b; false on overflow.
inline bool checked_add(std::uint64_t a, std::uint64_t b, std::uint64_t& r) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return !__builtin_add_overflow(a, b, &r);
#else
  if (b > UINT64_MAX - a) return false;
  r = a + b;
  return true;
#endif
}
/// True when a loop of stride `outer` steps exactly over n >= 1 steps of stride `inner`
/// (outer == inner * n: the two dimensions merge into one), tested by division: strides near
/// 2^62 would overflow the product.
inline bool nests(std::int64_t outer, std::int64_t inner, std::int64_t n) noexcept {
  return outer % n == 0 && outer / n == inner;
}

}  // namespace strided::detail
