// Shared pieces of the index operators (Gather*, Scatter*): unaligned element access, index
// normalisation, FLOAT16 conversion and the scatter reduction ops. Internal to csrc/src/index and ops/lower_index.cpp.
#pragma once
#ifdef STRIDED_ISA_TU
#error \
    "a per-ISA translation unit (*_avx2.cpp, *_avx512.cpp) must not include this header: its inline functions and templates would be emitted as weak symbols compiled for that ISA (see scripts/check_isa_symbols.sh)"
#endif
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "plan/nest.hpp"
#include "runtime/runtime.hpp"
#include "util/checked.hpp"
#include "util/isa.hpp"

namespace strided::detail::index {

/// Unaligned, aliasing-safe element access (buffers handed to execute() may be misaligned);
/// always inlined (util/isa.hpp says why).
template <class T>
STRIDED_ALWAYS_INLINE T load(const std::byte* p) noexcept {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <class T>
STRIDED_ALWAYS_INLINE void store(std::byte* p, T v) noexcept {
  std::memcpy(p, &v, sizeof(T));
}

/// Unsigned storage type of an element width (1, 2, 4, 8 bytes): plain copies move bits only.
template <std::size_t W>
struct UIntOf;
template <>
struct UIntOf<1> {
  using type = std::uint8_t;
};
template <>
struct UIntOf<2> {
  using type = std::uint16_t;
};
template <>
struct UIntOf<4> {
  using type = std::uint32_t;
};
template <>
struct UIntOf<8> {
  using type = std::uint64_t;
};
template <std::size_t W>
using uint_of_t = typename UIntOf<W>::type;

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

/// index_pos for a read: an out-of-range value (only possible when another thread changed the
/// indices after the check) reads position 0 instead, which is in bounds (size >= 1 whenever
/// there is an index to read). Branch-free, so the gather loops keep their speed.
template <class I>
inline std::int64_t read_index(I v, std::int64_t size) noexcept {
  const std::uint64_t u = index_pos(v, size);
  return u < static_cast<std::uint64_t>(size) ? static_cast<std::int64_t>(u) : 0;
}

// ---------------------------------------------------------------- FLOAT16
/// IEEE binary16 bits -> float (exact).
inline float half_to_float(std::uint16_t h) noexcept {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t man = h & 0x3ffu;
  std::uint32_t bits;
  if (exp == 0x1fu) {
    bits = sign | 0x7f800000u | (man << 13);  // inf / NaN, payload kept
  } else if (exp != 0) {
    bits = sign | ((exp + 112u) << 23) | (man << 13);
  } else if (man == 0) {
    bits = sign;
  } else {  // subnormal: normalise
    exp = 113;
    while ((man & 0x400u) == 0) {
      man <<= 1;
      --exp;
    }
    bits = sign | (exp << 23) | ((man & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// float -> IEEE binary16 bits, round to nearest even; NaN stays NaN (quiet, payload truncated),
/// overflow gives inf. Matches numpy's float32 -> float16 cast.
inline std::uint16_t float_to_half(float f) noexcept {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  const auto sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  const std::uint32_t exp = (x >> 23) & 0xffu;
  std::uint32_t man = x & 0x7fffffu;
  if (exp == 0xffu) {
    if (man == 0) return static_cast<std::uint16_t>(sign | 0x7c00u);
    return static_cast<std::uint16_t>(sign | 0x7e00u | (man >> 13));
  }
  const int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 0x1f) return static_cast<std::uint16_t>(sign | 0x7c00u);
  if (e <= 0) {
    if (e < -10) return sign;  // below half the smallest subnormal: rounds to zero
    man |= 0x800000u;
    const int shift = 14 - e;  // 24-bit significand -> subnormal half
    const std::uint32_t half = man >> shift;
    const std::uint32_t rem = man & ((1u << shift) - 1u);
    const std::uint32_t mid = 1u << (shift - 1);
    std::uint32_t r = half;
    if (rem > mid || (rem == mid && (half & 1u))) ++r;
    return static_cast<std::uint16_t>(sign | r);
  }
  std::uint32_t r = (static_cast<std::uint32_t>(e) << 10) | (man >> 13);
  const std::uint32_t rem = man & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) ++r;  // may carry into exp: inf, correct
  return static_cast<std::uint16_t>(sign | r);
}

// ---------------------------------------------------------------- scatter reduction ops
// Each Op has a storage type T and `static T apply(T acc, T update)`. Integers wrap (done in
// unsigned arithmetic, so signed types share the unsigned op of their width); FLOAT16 goes
// through float and is rounded back at each step; float min/max follow numpy's
// minimum/maximum: a NaN in either operand is the result (the accumulator's if both are NaN),
// and of equal values (-0.0 vs +0.0) the accumulator is kept.
template <class T>
struct OpNone {
  using type = T;
  static T apply(T, T u) noexcept { return u; }
};
template <class T>
struct OpAdd {
  using type = T;
  static T apply(T a, T u) noexcept {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<std::common_type_t<T, unsigned>>;
      return static_cast<T>(static_cast<U>(a) + static_cast<U>(u));
    } else {
      return a + u;
    }
  }
};
template <class T>
struct OpMul {
  using type = T;
  static T apply(T a, T u) noexcept {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<std::common_type_t<T, unsigned>>;  // no int promotion overflow
      return static_cast<T>(static_cast<U>(a) * static_cast<U>(u));
    } else {
      return a * u;
    }
  }
};
template <class T>
struct OpMin {
  using type = T;
  static T apply(T a, T u) noexcept {
    if constexpr (std::is_floating_point_v<T>) return (a <= u || std::isnan(a)) ? a : u;
    else return u < a ? u : a;
  }
};
template <class T>
struct OpMax {
  using type = T;
  static T apply(T a, T u) noexcept {
    if constexpr (std::is_floating_point_v<T>) return (a >= u || std::isnan(a)) ? a : u;
    else return u > a ? u : a;
  }
};
/// FLOAT16 ops: storage uint16_t bits, arithmetic in float, rounded back each step; min/max
/// select one operand's exact bits (NaN payloads, signed zeros kept).
struct OpHalfAdd {
  using type = std::uint16_t;
  static std::uint16_t apply(std::uint16_t a, std::uint16_t u) noexcept {
    return float_to_half(half_to_float(a) + half_to_float(u));
  }
};
struct OpHalfMul {
  using type = std::uint16_t;
  static std::uint16_t apply(std::uint16_t a, std::uint16_t u) noexcept {
    return float_to_half(half_to_float(a) * half_to_float(u));
  }
};
struct OpHalfMin {
  using type = std::uint16_t;
  static std::uint16_t apply(std::uint16_t a, std::uint16_t u) noexcept {
    const float fa = half_to_float(a), fu = half_to_float(u);
    return (fa <= fu || std::isnan(fa)) ? a : u;
  }
};
struct OpHalfMax {
  using type = std::uint16_t;
  static std::uint16_t apply(std::uint16_t a, std::uint16_t u) noexcept {
    const float fa = half_to_float(a), fu = half_to_float(u);
    return (fa >= fu || std::isnan(fa)) ? a : u;
  }
};

}  // namespace strided::detail::index
