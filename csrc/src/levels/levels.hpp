// Feature-level tables as data (SPEC.md section 4): each operator file lists, per DirectML
// level where its rules change, the dimension counts and data types it accepts from then on.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

#include "strided/dtype.hpp"
#include "strided/feature_level.hpp"

namespace strided::detail {

constexpr std::uint64_t dtype_bit(DataType t) { return std::uint64_t{1} << static_cast<unsigned>(t); }

// The data-type sets of the tables.
constexpr std::uint64_t kAllTypes =
    dtype_bit(DataType::FLOAT32) | dtype_bit(DataType::FLOAT16) | dtype_bit(DataType::UINT32) |
    dtype_bit(DataType::UINT16) | dtype_bit(DataType::UINT8) | dtype_bit(DataType::INT32) | dtype_bit(DataType::INT16) |
    dtype_bit(DataType::INT8) | dtype_bit(DataType::FLOAT64) | dtype_bit(DataType::UINT64) | dtype_bit(DataType::INT64);
constexpr std::uint64_t kEightTypes =
    kAllTypes & ~(dtype_bit(DataType::FLOAT64) | dtype_bit(DataType::UINT64) | dtype_bit(DataType::INT64));
/// SPEC 4's "10t": all but FLOAT64 (Cast, Tile, FillValueSequence, MaxUnpooling).
constexpr std::uint64_t kTenTypes = kAllTypes & ~dtype_bit(DataType::FLOAT64);
constexpr std::uint64_t kSixTypes = dtype_bit(DataType::FLOAT32) | dtype_bit(DataType::FLOAT16) |
                                    dtype_bit(DataType::INT32) | dtype_bit(DataType::INT16) |
                                    dtype_bit(DataType::UINT32) | dtype_bit(DataType::UINT16);
constexpr std::uint64_t kFloat32Float16 = dtype_bit(DataType::FLOAT32) | dtype_bit(DataType::FLOAT16);
constexpr std::uint64_t kIndexTypes =
    dtype_bit(DataType::INT32) | dtype_bit(DataType::INT64) | dtype_bit(DataType::UINT32) | dtype_bit(DataType::UINT64);

/// From level `from` on (until the next row): tensors of min_dims..max_dims dimensions and the
/// data types in `dtypes`.
struct LevelRow {
  FeatureLevel from;
  int min_dims, max_dims;
  std::uint64_t dtypes;
};

/// An operator's table: rows in increasing `from`; the first row's level introduced it.
struct LevelTable {
  const LevelRow* rows;
  std::size_t count;

  template <std::size_t N>
  constexpr LevelTable(const std::array<LevelRow, N>& r) : rows(r.data()), count(N) {}  // NOLINT: implicit by design
  FeatureLevel since() const { return rows[0].from; }
  /// The row in force at `level`, or nullptr before the operator existed.
  const LevelRow* at(FeatureLevel level) const {
    const LevelRow* r = nullptr;
    for (std::size_t i = 0; i < count; ++i)
      if (rows[i].from <= level) r = &rows[i];
    return r;
  }
};

/// The rows every operator shares from FL_3_0 (1-8 dimensions) and FL_4_1 (64-bit types).
constexpr LevelRow kRow30{FeatureLevel::FL_3_0, 1, 8, kEightTypes};
constexpr LevelRow kRow41{FeatureLevel::FL_4_1, 1, 8, kAllTypes};

/// Index tensors: UINT32 only before FL_3_0, then the four integer types.
inline std::uint64_t index_types(FeatureLevel l) {
  return l < FeatureLevel::FL_3_0 ? dtype_bit(DataType::UINT32) : kIndexTypes;
}

}  // namespace strided::detail
