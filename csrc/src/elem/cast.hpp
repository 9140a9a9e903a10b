// SPEC 3.5's conversion rules, written once: cast_value<To>(from) for every pair of the eleven
// DirectML types. ISA-safe (like index/narrow_body.hpp): everything has internal linkage and
// only <cstdint>/<cstring>/<type_traits> are included, so each per-ISA kernel translation unit
// compiles its own copy and the linker can never hand AVX2 code to a baseline caller.
//
//   same type                 bit copy
//   float -> wider float      exact
//   float -> narrower float   round to nearest even; overflow -> +-inf; subnormals kept
//   NaN -> other float        NaN of the same sign, quiet bit set, payload's high bits kept
//   float -> int              truncate toward 0; NaN -> 0; saturate at the type's min / max
//   int -> float              round to nearest even (once, from the exact integer); overflow -> inf
//   int -> int                modulo 2^bits (the low bits, two's complement)
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace strided::detail::elem {
namespace {

/// FLOAT16's storage: IEEE binary16 bits.
struct Half {
  std::uint16_t bits;
};

template <class T>
constexpr bool kIsFloat = std::is_same_v<T, float> || std::is_same_v<T, double>;

inline std::uint32_t bits_of(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
inline std::uint64_t bits_of(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
inline float float_of(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

/// binary16 -> binary32, exact; a NaN gets the quiet bit (payload kept).
inline float half_to_float(Half h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h.bits & 0x8000u) << 16;
  std::uint32_t exp = (h.bits >> 10) & 0x1fu;
  std::uint32_t man = h.bits & 0x3ffu;
  if (exp == 0x1fu) return float_of(sign | 0x7f800000u | (man << 13) | (man ? 0x400000u : 0u));
  if (exp != 0) return float_of(sign | ((exp + 112u) << 23) | (man << 13));
  if (man == 0) return float_of(sign);
  exp = 113;  // subnormal: normalise
  while ((man & 0x400u) == 0) {
    man <<= 1;
    --exp;
  }
  return float_of(sign | (exp << 23) | ((man & 0x3ffu) << 13));
}

/// A binary32/binary64 value's sign, biased exponent and significand -> binary16 bits, rounding
/// once to nearest even. `mbits` is the significand's width (23 or 52), `bias` the exponent's.
inline Half to_half(std::uint64_t sign, std::int64_t exp, std::uint64_t man, int mbits, std::int64_t bias,
                    std::int64_t exp_max) {
  const auto s = static_cast<std::uint16_t>(sign << 15);
  if (exp == exp_max) {  // inf or NaN (quiet, the payload's high bits kept)
    if (man == 0) return {static_cast<std::uint16_t>(s | 0x7c00u)};
    return {static_cast<std::uint16_t>(s | 0x7e00u | (man >> (mbits - 10)))};
  }
  const std::int64_t e = exp - bias + 15;
  if (e >= 0x1f) return {static_cast<std::uint16_t>(s | 0x7c00u)};
  int shift = mbits - 10;  // significand bits dropped
  std::uint64_t m = man;
  std::uint64_t r;
  if (e <= 0) {  // subnormal half (or zero)
    if (e < -10) return {s};  // below half the smallest subnormal: rounds to zero
    m |= std::uint64_t{1} << mbits;
    shift += static_cast<int>(1 - e);
    r = m >> shift;
  } else {
    r = (static_cast<std::uint64_t>(e) << 10) | (m >> shift);
  }
  const std::uint64_t rem = m & ((std::uint64_t{1} << shift) - 1), mid = std::uint64_t{1} << (shift - 1);
  if (rem > mid || (rem == mid && (r & 1u))) ++r;  // a carry into the exponent gives inf: correct
  return {static_cast<std::uint16_t>(s | r)};
}
inline Half float_to_half(float f) {
  const std::uint32_t b = bits_of(f);
  return to_half(b >> 31, (b >> 23) & 0xffu, b & 0x7fffffu, 23, 127, 0xff);
}
inline Half double_to_half(double d) {
  const std::uint64_t b = bits_of(d);
  return to_half(b >> 63, static_cast<std::int64_t>((b >> 52) & 0x7ffu), b & 0xfffffffffffffull, 52, 1023, 0x7ff);
}

/// Float -> integer: truncate toward zero, NaN -> 0, saturate.
template <class I, class F>
inline I float_to_int(F x) {
  constexpr int bits = 8 * sizeof(I);
  constexpr F lo = std::is_signed_v<I> ? -static_cast<F>(std::uint64_t{1} << (bits - 1)) : F(0);
  // 2^(bits-1) or 2^bits, both exact in float and double (for 64 bits: 2^64 as 2 * 2^63)
  constexpr F hi = std::is_signed_v<I> ? static_cast<F>(std::uint64_t{1} << (bits - 1))
                                       : static_cast<F>(std::uint64_t{1} << (bits - 1)) * F(2);
  if (x != x) return I(0);
  if (x <= lo) return std::is_signed_v<I> ? static_cast<I>(std::uint64_t{1} << (bits - 1)) : I(0);
  if (x >= hi) return static_cast<I>(std::is_signed_v<I> ? (std::uint64_t{1} << (bits - 1)) - 1 : ~std::uint64_t{0});
  return static_cast<I>(x);
}

/// SPEC 3.5: `From` value -> `To` value.
template <class To, class From>
inline To cast_value(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<From, Half>) {
    if constexpr (std::is_same_v<To, double>) return static_cast<double>(half_to_float(v));
    else return cast_value<To>(half_to_float(v));
  } else if constexpr (std::is_same_v<To, Half>) {
    if constexpr (std::is_same_v<From, float>) return float_to_half(v);
    else return double_to_half(static_cast<double>(v));  // exact below 2^53; larger ones become inf anyway
  } else if constexpr (kIsFloat<To>) {
    return static_cast<To>(v);  // float<->double and int -> float: IEEE, one rounding to nearest even
  } else if constexpr (kIsFloat<From>) {
    return float_to_int<To>(v);
  } else {
    return static_cast<To>(static_cast<std::make_unsigned_t<To>>(static_cast<std::uint64_t>(v)));  // low bits
  }
}

/// Calls f(T{}) for each of the eleven storage types by DataType value (1..11, DirectML's).
template <class F>
inline void for_dtype(int dt, F&& f) {
  switch (dt) {
    case 1: f(float{}); break;
    case 2: f(Half{}); break;
    case 3: f(std::uint32_t{}); break;
    case 4: f(std::uint16_t{}); break;
    case 5: f(std::uint8_t{}); break;
    case 6: f(std::int32_t{}); break;
    case 7: f(std::int16_t{}); break;
    case 8: f(std::int8_t{}); break;
    case 9: f(double{}); break;
    case 10: f(std::uint64_t{}); break;
    case 11: f(std::int64_t{}); break;
    default: break;
  }
}

}  // namespace
}  // namespace strided::detail::elem
