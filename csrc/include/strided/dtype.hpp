// strided: the eleven DirectML data types, generated from one X-macro list.
#pragma once
#include "strided/config.hpp"  // C++17 check first
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace strided {

// X(NAME, value, bytes, lower-case name, C++ storage type). Values are DirectML's
// DML_TENSOR_DATA_TYPE numbers: they are API, keep them. FLOAT16 is stored as raw uint16_t
// bits: data movement never interprets it; reductions convert through float.
#define STRIDED_FOR_EACH_DTYPE(X)            \
  X(FLOAT32, 1, 4, "float32", float)         \
  X(FLOAT16, 2, 2, "float16", std::uint16_t) \
  X(UINT32, 3, 4, "uint32", std::uint32_t)   \
  X(UINT16, 4, 2, "uint16", std::uint16_t)   \
  X(UINT8, 5, 1, "uint8", std::uint8_t)      \
  X(INT32, 6, 4, "int32", std::int32_t)      \
  X(INT16, 7, 2, "int16", std::int16_t)      \
  X(INT8, 8, 1, "int8", std::int8_t)         \
  X(FLOAT64, 9, 8, "float64", double)        \
  X(UINT64, 10, 8, "uint64", std::uint64_t)  \
  X(INT64, 11, 8, "int64", std::int64_t)

/// DML_TENSOR_DATA_TYPE. UNKNOWN (0) is never valid: every function taking a DataType throws
/// ValidationError for it (the constexpr queries below return 0 / "unknown" / false instead).
enum class DataType : std::uint32_t {
  UNKNOWN = 0,
#define STRIDED_X(name, value, bytes, str, type) name = value,
  STRIDED_FOR_EACH_DTYPE(STRIDED_X)
#undef STRIDED_X
};

/// Number of valid data types (UNKNOWN excluded).
inline constexpr int kDataTypeCount = 11;

/// Size of one element in bytes; 0 for UNKNOWN or an out-of-range value.
constexpr std::size_t itemsize(DataType t) noexcept {
  switch (t) {
#define STRIDED_X(name, value, bytes, str, type) \
  case DataType::name: return bytes;
    STRIDED_FOR_EACH_DTYPE(STRIDED_X)
#undef STRIDED_X
    default: return 0;
  }
}

/// Lower-case name ("float32"); "unknown" for anything else.
constexpr std::string_view dtype_name(DataType t) noexcept {
  switch (t) {
#define STRIDED_X(name, value, bytes, str, type) \
  case DataType::name: return str;
    STRIDED_FOR_EACH_DTYPE(STRIDED_X)
#undef STRIDED_X
    default: return "unknown";
  }
}

/// Upper-case enum name ("FLOAT32"); "UNKNOWN" for anything else.
constexpr std::string_view dtype_enum_name(DataType t) noexcept {
  switch (t) {
#define STRIDED_X(name, value, bytes, str, type) \
  case DataType::name: return #name;
    STRIDED_FOR_EACH_DTYPE(STRIDED_X)
#undef STRIDED_X
    default: return "UNKNOWN";
  }
}

/// True for the eleven valid types.
constexpr bool is_valid_dtype(DataType t) noexcept { return itemsize(t) != 0; }
/// True for FLOAT16, FLOAT32, FLOAT64.
constexpr bool is_float_dtype(DataType t) noexcept {
  return t == DataType::FLOAT16 || t == DataType::FLOAT32 || t == DataType::FLOAT64;
}
/// True for the signed integer types.
constexpr bool is_signed_int_dtype(DataType t) noexcept {
  return t == DataType::INT8 || t == DataType::INT16 || t == DataType::INT32 || t == DataType::INT64;
}
/// True for the three 64-bit types (not supported by DirectML before feature level 4_1).
constexpr bool is_64bit_dtype(DataType t) noexcept { return itemsize(t) == 8; }

/// Parses a type name in any case ("float32", "FLOAT32"; "unknown" is not a type). Throws
/// ValidationError ("dtype: unknown data type name '...'") for anything else.
DataType parse_dtype(std::string_view name);

/// Calls f(T{}) with T the storage type of `t` (the dispatch switch, generated once) and
/// returns what f returns. Throws ValidationError for UNKNOWN or an out-of-range value; passes
/// on whatever f throws.
template <class F>
decltype(auto) dispatch_dtype(DataType t, F&& f);

}  // namespace strided

#include "strided/error.hpp"

namespace strided {
template <class F>
decltype(auto) dispatch_dtype(DataType t, F&& f) {
  switch (t) {
#define STRIDED_X(name, value, bytes, str, type) \
  case DataType::name: return f(type{});
    STRIDED_FOR_EACH_DTYPE(STRIDED_X)
#undef STRIDED_X
    default: throw ValidationError("dtype: unknown data type " + std::to_string(static_cast<unsigned>(t)));
  }
}
}  // namespace strided
