// Shared pieces of the index operators (Gather*, Scatter*): element access, index
// normalisation and the scatter reduction ops (FLOAT16 through elem/cast.hpp). Internal to
// csrc/src/index and the operators in csrc/src/ops that lower to its steps.
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

#include "elem/access.hpp"
#include "elem/cast.hpp"
#include "elem/index.hpp"
#include "plan/nest.hpp"
#include "runtime/runtime.hpp"
#include "util/checked.hpp"
#include "util/isa.hpp"

namespace strided::detail::index {

/// Unaligned, aliasing-safe element access (elem/access.hpp).
using elem::load;
using elem::store;

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

/// An index value as an unsigned position along an axis (elem/index.hpp, shared with the kernels).
using elem::index_pos;

/// index_pos for a read: an out-of-range value (only possible when another thread changed the
/// indices after the check) reads position 0 instead, which is in bounds (size >= 1 whenever
/// there is an index to read). Branch-free, so the gather loops keep their speed.
template <class I>
inline std::int64_t read_index(I v, std::int64_t size) noexcept {
  const std::uint64_t u = index_pos(v, size);
  return u < static_cast<std::uint64_t>(size) ? static_cast<std::int64_t>(u) : 0;
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
template <class Op>
inline constexpr bool is_op_none_v = false;
template <class T>
inline constexpr bool is_op_none_v<OpNone<T>> = true;
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
/// FLOAT16 ops: storage uint16_t bits, arithmetic in float (elem/cast.hpp's conversions), rounded
/// back each step; min/max select one operand's exact bits (NaN payloads, signed zeros kept).
inline float half_value(std::uint16_t h) noexcept { return elem::half_to_float(elem::Half{h}); }
inline std::uint16_t half_bits(float f) noexcept { return elem::float_to_half(f).bits; }
struct OpHalfAdd {
  using type = std::uint16_t;
  static std::uint16_t apply(std::uint16_t a, std::uint16_t u) noexcept {
    return half_bits(half_value(a) + half_value(u));
  }
};
struct OpHalfMul {
  using type = std::uint16_t;
  static std::uint16_t apply(std::uint16_t a, std::uint16_t u) noexcept {
    return half_bits(half_value(a) * half_value(u));
  }
};
struct OpHalfMin {
  using type = std::uint16_t;
  static std::uint16_t apply(std::uint16_t a, std::uint16_t u) noexcept {
    const float fa = half_value(a), fu = half_value(u);
    return (fa <= fu || std::isnan(fa)) ? a : u;
  }
};
struct OpHalfMax {
  using type = std::uint16_t;
  static std::uint16_t apply(std::uint16_t a, std::uint16_t u) noexcept {
    const float fa = half_value(a), fu = half_value(u);
    return (fa >= fu || std::isnan(fa)) ? a : u;
  }
};

}  // namespace strided::detail::index
