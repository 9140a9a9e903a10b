// strided::Scalar (DML_SCALAR_UNION + its type): conversions by SPEC 3.5's Cast rules, written
// once in elem/cast.hpp. Bits are read and written by value, not by memcpy of the union, so the
// layout is the union's on any byte order.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "elem/cast.hpp"
#include "strided/error.hpp"
#include "strided/ops.hpp"

namespace strided {
namespace {
namespace elem = detail::elem;
using elem::Half;

std::uint64_t to_bits(Half h) { return h.bits; }
std::uint64_t to_bits(float f) { return elem::bits_of(f); }
std::uint64_t to_bits(double d) { return elem::bits_of(d); }
template <class T>
std::uint64_t to_bits(T v) {
  return static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<T>>(v));
}

template <class T>
T from_bits(std::uint64_t b) {
  if constexpr (std::is_same_v<T, Half>) return Half{static_cast<std::uint16_t>(b)};
  else if constexpr (std::is_same_v<T, float>) return elem::float_of(static_cast<std::uint32_t>(b));
  else if constexpr (std::is_same_v<T, double>) {
    double d;
    std::memcpy(&d, &b, 8);
    return d;
  } else return static_cast<T>(static_cast<std::make_unsigned_t<T>>(b));
}

template <class From>
Scalar convert(DataType to, From v) {
  if (!is_valid_dtype(to))
    throw ValidationError("Scalar.dtype: unknown data type " + std::to_string(static_cast<unsigned>(to)));
  Scalar s{to, 0};
  elem::for_dtype(static_cast<int>(to), [&](auto t) { s.bits = to_bits(elem::cast_value<decltype(t)>(v)); });
  return s;
}

/// Calls f(value) with this scalar's value in its storage type.
template <class F>
void with_value(const Scalar& s, F&& f) {
  if (!is_valid_dtype(s.dtype))
    throw ValidationError("Scalar.dtype: unknown data type " + std::to_string(static_cast<unsigned>(s.dtype)));
  elem::for_dtype(static_cast<int>(s.dtype), [&](auto t) { f(from_bits<decltype(t)>(s.bits)); });
}
}  // namespace

Scalar Scalar::from_double(DataType dtype, double value) { return convert(dtype, value); }
Scalar Scalar::from_int(DataType dtype, std::int64_t value) { return convert(dtype, value); }
Scalar Scalar::from_uint(DataType dtype, std::uint64_t value) { return convert(dtype, value); }

Scalar Scalar::cast(DataType to) const {
  Scalar r;
  with_value(*this, [&](auto v) { r = convert(to, v); });
  return r;
}

double Scalar::to_double() const {
  double d = 0;
  with_value(*this, [&](auto v) { d = elem::cast_value<double>(v); });
  return d;
}

std::uint64_t Scalar::value_bits() const noexcept {
  const std::size_t n = itemsize(dtype);
  return n >= 8 ? bits : bits & ((std::uint64_t{1} << (8 * n)) - 1);
}

std::string Scalar::to_string() const {
  if (!is_valid_dtype(dtype)) return "UNKNOWN";
  std::string v;
  with_value(*this, [&](auto x) {
    using T = decltype(x);
    if constexpr (std::is_integral_v<T>) {
      v = std::to_string(x);
    } else {
      const double d = elem::cast_value<double>(x);
      if (std::isnan(d)) v = std::signbit(d) ? "-nan" : "nan";
      else if (std::isinf(d)) v = d < 0 ? "-inf" : "inf";
      else {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", d);  // round-trips a double
        v = buf;
      }
    }
  });
  return std::string(dtype_enum_name(dtype)) + " " + v;
}

}  // namespace strided
