// strided::xla: XLA shapes, layouts and index arithmetic (SPEC.md section 5, seed 004).
// A Shape is a plain value (like XLA's proto): it may be constructed invalid; validate() checks
// XLA's rules, and every computation on a shape validates it first. All arithmetic is 64-bit and
// overflow-checked (ValidationError, never a wrapped number).
#pragma once
#include "strided/config.hpp"  // C++17 check first
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "strided/dtype.hpp"
#include "strided/tensor_desc.hpp"

namespace strided::xla {

// X(NAME, value, bytes, DataType). Values are XLA's PrimitiveType numbers (xla_data.proto).
// PRED is one byte (0 or 1) and is stored as UINT8 when seen as a DirectML tensor.
#define STRIDED_FOR_EACH_XLA_TYPE(X) \
  X(PRED, 1, 1, UINT8)               \
  X(S8, 2, 1, INT8)                  \
  X(S16, 3, 2, INT16)                \
  X(S32, 4, 4, INT32)                \
  X(S64, 5, 8, INT64)                \
  X(U8, 6, 1, UINT8)                 \
  X(U16, 7, 2, UINT16)               \
  X(U32, 8, 4, UINT32)               \
  X(U64, 9, 8, UINT64)               \
  X(F16, 10, 2, FLOAT16)             \
  X(F32, 11, 4, FLOAT32)             \
  X(F64, 12, 8, FLOAT64)

enum class PrimitiveType : int {
  PRIMITIVE_TYPE_INVALID = 0,
#define STRIDED_X(nm, val, bytes, dt) nm = val,
  STRIDED_FOR_EACH_XLA_TYPE(STRIDED_X)
#undef STRIDED_X
};

/// XLA's PaddingValue (values as in xla_data.proto). INVALID_PAD is never valid.
enum class PaddingValue : int {
  INVALID_PAD = 0,
  ZERO_PAD = 1,
  ONE_PAD = 2,
  LOWEST_PAD = 3,
  HIGHEST_PAD = 4,
  UNKNOWN_PAD = 5,
};

/// Bytes of one element; 0 for an invalid type.
std::size_t primitive_type_size(PrimitiveType t) noexcept;
/// True for the twelve types above.
bool is_valid_primitive_type(PrimitiveType t) noexcept;
/// Lower-case text name ("f32"); "invalid" for anything else.
std::string_view primitive_type_name(PrimitiveType t) noexcept;
/// Parses a type name in any case ("f32", "F32"); ValidationError otherwise.
PrimitiveType parse_primitive_type(std::string_view name);
/// The DirectML data type that stores it (PRED -> UINT8); ValidationError for an invalid type.
DataType to_data_type(PrimitiveType t);

/// True for ZERO_PAD .. UNKNOWN_PAD.
bool is_valid_padding_value(PaddingValue v) noexcept;
/// Upper-case enum name ("ZERO_PAD").
std::string_view padding_value_name(PaddingValue v) noexcept;
/// Parses "ZERO_PAD" in any case; ValidationError otherwise (INVALID_PAD included).
PaddingValue parse_padding_value(std::string_view name);

/// A tile entry meaning "combine this dimension with the next more minor one" (XLA's
/// Tile::kCombineDimension; text `*`).
constexpr std::int64_t kCombineDimension = std::numeric_limits<std::int64_t>::min();

/// How an array lies in memory: minor_to_major (most minor first), optional padded extents
/// (empty = no padding, as an empty repeated proto field), the value written to padding, and
/// XLA's tiles (SPEC 5.1: each a list of positive sizes or kCombineDimension; applied in order,
/// the first over the dimensions in physical order, each later one over the previous result).
/// A layout has padded_dimensions or tiles, not both. element_size_in_bits is 0 or the type's
/// natural size (text `E(bits)`).
struct Layout {
  std::vector<std::int64_t> minor_to_major;
  std::vector<std::int64_t> padded_dimensions;
  PaddingValue padding_value = PaddingValue::ZERO_PAD;
  std::vector<std::vector<std::int64_t>> tiles;
  std::int64_t element_size_in_bits = 0;

  Layout() = default;
  explicit Layout(std::vector<std::int64_t> m2m, std::vector<std::int64_t> padded = {},
                  PaddingValue pad = PaddingValue::ZERO_PAD, std::vector<std::vector<std::int64_t>> tiles_ = {},
                  std::int64_t element_bits = 0)
      : minor_to_major(std::move(m2m)), padded_dimensions(std::move(padded)), padding_value(pad),
        tiles(std::move(tiles_)), element_size_in_bits(element_bits) {}

  bool has_padding() const noexcept { return !padded_dimensions.empty(); }
  bool has_tiles() const noexcept { return !tiles.empty(); }
  /// "{1,0}", "{1,0:T(2,2)E(32)}" (padding has no text form).
  std::string to_string() const;
  std::size_t hash() const noexcept;
  friend bool operator==(const Layout& a, const Layout& b) noexcept {
    return a.minor_to_major == b.minor_to_major && a.padded_dimensions == b.padded_dimensions &&
           a.padding_value == b.padding_value && a.tiles == b.tiles && a.element_size_in_bits == b.element_size_in_bits;
  }
  friend bool operator!=(const Layout& a, const Layout& b) noexcept { return !(a == b); }
};

/// The default layout of `rank` dimensions: {rank-1, ..., 0} (row-major).
Layout default_layout(std::int64_t rank);
/// Layout whose minor_to_major is `major_to_minor` reversed; ValidationError unless a permutation.
Layout make_layout_from_major_to_minor(const std::vector<std::int64_t>& major_to_minor);

/// An element type, dimensions and a layout (XLA's array Shape).
struct Shape {
  PrimitiveType element_type = PrimitiveType::F32;
  std::vector<std::int64_t> dimensions;
  Layout layout;

  Shape() = default;
  /// Default (descending) layout.
  Shape(PrimitiveType t, std::vector<std::int64_t> dims);
  Shape(PrimitiveType t, std::vector<std::int64_t> dims, Layout l);

  std::int64_t rank() const noexcept { return static_cast<std::int64_t>(dimensions.size()); }
  /// Throws ValidationError naming the field ("Shape.layout.minor_to_major: ...") and the rule:
  /// a valid type, dimensions >= 0, minor_to_major a permutation of 0..rank-1, padded_dimensions
  /// absent or one per dimension each >= it, padding value not INVALID_PAD, byte size within 63 bits;
  /// tiles (SPEC 5.1) not with padded_dimensions, sizes positive or `*` (not last), every tile after
  /// the first dividing what it covers; element_size_in_bits 0 or the natural size.
  void validate() const;
  /// Logical elements (product of dimensions).
  std::uint64_t element_count() const;
  /// Physical elements (product of padded extents; for tiles XLA's ArraySize): the length of the
  /// buffer in elements.
  std::uint64_t physical_element_count() const;
  /// Bytes of the buffer, padding included.
  std::uint64_t byte_size() const;
  /// Padded extents (padded_dimensions, or the dimensions when there is no padding).
  std::vector<std::int64_t> padded_extents() const;
  /// Physical stride of every dimension, in elements. ValidationError for a tiled layout (a tiled
  /// dimension has no single stride).
  std::vector<std::int64_t> strides() const;
  /// The bounds of the physical array, major to minor, row-major in the buffer: the dimensions in
  /// physical order, or for tiles the result of applying every tile (tile counts and sizes).
  std::vector<std::int64_t> physical_dimensions() const;
  /// The DirectML description of this layout: padded strides, total_bytes = max(byte_size,
  /// DirectML's minimum implied size). A scalar is sizes {1}. ValidationError for a dimension of 0,
  /// more than 8 dimensions (DirectML's limits) or a tiled layout (not a strided tensor).
  TensorDesc tensor_desc() const;
  /// "f32[2,3]{0,1}"; a scalar is "f32[]".
  std::string to_string() const;
  /// Parses the text form; the layout may be omitted (default). The result is validated.
  static Shape parse(std::string_view text);
  std::size_t hash() const noexcept;
  friend bool operator==(const Shape& a, const Shape& b) noexcept {
    return a.element_type == b.element_type && a.dimensions == b.dimensions && a.layout == b.layout;
  }
  friend bool operator!=(const Shape& a, const Shape& b) noexcept { return !(a == b); }
};

/// ShapeUtil::MakeShape: default layout; validated.
Shape make_shape(PrimitiveType t, const std::vector<std::int64_t>& dims);
/// ShapeUtil::MakeShapeWithLayout (dense): validated.
Shape make_shape_with_layout(PrimitiveType t, const std::vector<std::int64_t>& dims,
                             const std::vector<std::int64_t>& minor_to_major);

// IndexUtil (padding- and tile-aware: a linear index is the physical element offset in the buffer).
std::int64_t multidimensional_index_to_linear_index(const Shape& shape, const std::vector<std::int64_t>& index);
/// ValidationError when `linear` is outside the buffer; IndexError when it lands in padding.
std::vector<std::int64_t> linear_index_to_multidimensional_index(const Shape& shape, std::int64_t linear);
/// The next index in row-major logical order (last dimension fastest); nullopt after the last.
std::optional<std::vector<std::int64_t>> bump_indices(const Shape& shape, const std::vector<std::int64_t>& index);
/// Physical stride of dimension `dim` in elements: for tiles, the product of the physical bounds
/// more minor than it; ValidationError for a dimension a tile covers (no single stride).
std::int64_t dimension_stride(const Shape& shape, std::int64_t dim);

// Data movement through the copy engine.
/// The element pattern written to padding (itemsize bytes); empty for UNKNOWN_PAD.
std::vector<unsigned char> padding_bytes(PrimitiveType t, PaddingValue v);
/// Writes the padding value into every padding element of `buf` (laid out as `shape`); no logical
/// element changes (a layout with several tiles rewrites them with their own values). UNKNOWN_PAD
/// writes nothing. BufferError if buf_bytes < byte_size.
void fill_padding(const Shape& shape, void* buf, std::size_t buf_bytes);
/// Packs a logical array into `shape`'s layout: src points at element (0,...,0), src_strides in
/// BYTES (any sign) one per dimension; then fills the padding. `src` must not overlap `dst`.
void pack(const Shape& shape, const void* src, const std::vector<std::int64_t>& src_strides_bytes, void* dst,
          std::size_t dst_bytes);
/// Unpacks the logical array of `src` (laid out as `shape`) into `dst`: dst points at element
/// (0,...,0), dst_strides in BYTES one per dimension (must not make elements overlap). The
/// buffers must not overlap. BufferError if src_bytes < byte_size.
void unpack(const Shape& shape, const void* src, std::size_t src_bytes, void* dst,
            const std::vector<std::int64_t>& dst_strides_bytes);
/// The shape checks of relayout: both shapes valid (errors name "relayout.src_shape" /
/// "relayout.dst_shape"), same element type and dimensions.
void check_relayout(const Shape& src, const Shape& dst);
/// Copies the array in `src_buf` (layout `src`) into `dst_buf` (layout `dst`) and fills dst's
/// padding. Element types and dimensions must match (ValidationError); a buffer shorter than its
/// shape's byte_size is a BufferError. The buffers must not overlap.
void relayout(const Shape& src, const void* src_buf, std::size_t src_bytes, const Shape& dst, void* dst_buf,
              std::size_t dst_bytes);

}  // namespace strided::xla
