// strided: the DirectML data-movement operator descriptions (SPEC.md section 3), with
// validation against DirectML's rules and feature levels (SPEC.md section 4).
#pragma once
#include "strided/config.hpp"  // C++17 check first
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "strided/feature_level.hpp"
#include "strided/tensor_desc.hpp"

namespace strided {

/// Every operator description, once, in DirectML's order: X(Name, family). `Name##Desc` is the
/// struct below; `family` is the kind of step it lowers to (copy: strided copies only, index:
/// index-driven steps). The AnyDesc variant, validation and compile dispatch, the Python classes
/// and the functional entry points are all generated from this list (docs/ARCHITECTURE.md).
#define STRIDED_FOR_EACH_OP(X)  \
  X(Identity, copy)             \
  X(Split, copy)                \
  X(Join, copy)                 \
  X(Slice, copy)                \
  X(Slice1, copy)               \
  X(Gather, index)              \
  X(GatherElements, index)      \
  X(GatherND, index)            \
  X(Scatter, index)             \
  X(ScatterND, index)           \
  X(Cast, copy)                 \
  X(Padding, copy)              \
  X(Tile, copy)                 \
  X(SpaceToDepth, copy)         \
  X(DepthToSpace, copy)         \
  X(FillValueConstant, copy)    \
  X(MaxUnpooling, index)        \
  X(Unfold, copy)               \
  X(NonzeroCoordinates, copy)   \
  X(FillValueSequence, copy)    \
  X(DiagonalMatrix, copy)       \
  X(OneHot, index)              \
  X(ReverseSubsequences, index) \
  X(SliceGrad, copy)

/// DML_SCALAR_UNION with its data type (SPEC 1): the value's bits in the low itemsize(dtype)
/// bytes of `bits`, as the union holds them (FLOAT16: the binary16 pattern); higher bytes are
/// ignored. A description's scalar field (a pad or fill value) has its output's dtype.
struct Scalar {
  DataType dtype = DataType::UNKNOWN;
  std::uint64_t bits = 0;

  /// `value` converted to `dtype` by SPEC 3.5's Cast rules (from FLOAT64, INT64 or UINT64 exactly:
  /// -2 becomes UINT8 254, 300.7 becomes UINT8 255); ValidationError for an unknown dtype.
  static Scalar from_double(DataType dtype, double value);
  static Scalar from_int(DataType dtype, std::int64_t value);
  static Scalar from_uint(DataType dtype, std::uint64_t value);
  /// This value converted to `to` by the Cast rules (the same bits when `to` == dtype).
  Scalar cast(DataType to) const;
  /// The value as a double (exact for every float and for integers up to 2^53).
  double to_double() const;
  /// The bits that matter: the low itemsize(dtype) bytes.
  std::uint64_t value_bits() const noexcept;
  /// "FLOAT32 1.5", "UINT8 254", "FLOAT16 nan".
  std::string to_string() const;
  friend bool operator==(const Scalar& a, const Scalar& b) noexcept {
    return a.dtype == b.dtype && a.value_bits() == b.value_bits();
  }
  friend bool operator!=(const Scalar& a, const Scalar& b) noexcept { return !(a == b); }
};

/// How a field is passed when a description is built from Python (keyword-only fields follow
/// the others; optional and keyword-only ones default to their type's zero: 0, NONE). The
/// fields() of every description list all its members in declaration order.
enum class FieldUse { Required, Optional, KeywordOnly };

/// One field of a description, for generic code (Python classes, repr, equality, the C ABI).
template <class D, class T>
struct DescField {
  const char* name;
  T D::* member;
  FieldUse use;
};
template <class D, class T>
constexpr DescField<D, T> desc_field(const char* name, T D::* member, FieldUse use = FieldUse::Required) {
  return {name, member, use};
}

/// DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC: out[c] = in[c].
struct IdentityDesc {
  TensorDesc input;
  TensorDesc output;

  static constexpr const char* name = "IdentityDesc";
  static constexpr const char* doc = "DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC: out[c] = in[c].";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("input", &IdentityDesc::input), desc_field("output", &IdentityDesc::output));
  }
};

/// DML_SPLIT_OPERATOR_DESC: output k gets the input's range along `axis`.
struct SplitDesc {
  TensorDesc input;
  std::vector<TensorDesc> outputs;
  std::int64_t axis;

  static constexpr const char* name = "SplitDesc";
  static constexpr const char* doc = "DML_SPLIT_OPERATOR_DESC: output k gets the input's range along axis.";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("input", &SplitDesc::input), desc_field("outputs", &SplitDesc::outputs),
                           desc_field("axis", &SplitDesc::axis));
  }
};

/// DML_JOIN_OPERATOR_DESC: inputs concatenated along `axis`.
struct JoinDesc {
  std::vector<TensorDesc> inputs;
  TensorDesc output;
  std::int64_t axis;

  static constexpr const char* name = "JoinDesc";
  static constexpr const char* doc = "DML_JOIN_OPERATOR_DESC: the inputs concatenated along axis.";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("inputs", &JoinDesc::inputs), desc_field("output", &JoinDesc::output),
                           desc_field("axis", &JoinDesc::axis));
  }
};

/// DML_SLICE_OPERATOR_DESC: out[c] = in[offsets + strides*c]; sizes == output sizes.
struct SliceDesc {
  TensorDesc input;
  TensorDesc output;
  std::vector<std::int64_t> offsets;
  std::vector<std::int64_t> sizes;
  std::vector<std::int64_t> strides;  // unsigned in DirectML: each >= 1

  static constexpr const char* name = "SliceDesc";
  static constexpr const char* doc =
      "DML_SLICE_OPERATOR_DESC: out[c] = in[offsets + strides*c]; sizes are the output's.";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("input", &SliceDesc::input), desc_field("output", &SliceDesc::output),
                           desc_field("offsets", &SliceDesc::offsets), desc_field("sizes", &SliceDesc::sizes),
                           desc_field("strides", &SliceDesc::strides));
  }
};

/// DML_SLICE1_OPERATOR_DESC: window offsets/sizes, signed non-zero strides.
struct Slice1Desc {
  TensorDesc input;
  TensorDesc output;
  std::vector<std::int64_t> offsets;  // InputWindowOffsets
  std::vector<std::int64_t> sizes;    // InputWindowSizes
  std::vector<std::int64_t> strides;  // InputWindowStrides

  static constexpr const char* name = "Slice1Desc";
  static constexpr const char* doc =
      "DML_SLICE1_OPERATOR_DESC: a window (offsets, sizes) read with signed, non-zero strides.";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("input", &Slice1Desc::input), desc_field("output", &Slice1Desc::output),
                           desc_field("offsets", &Slice1Desc::offsets), desc_field("sizes", &Slice1Desc::sizes),
                           desc_field("strides", &Slice1Desc::strides));
  }
};

/// DML_GATHER_OPERATOR_DESC (numpy take / ONNX Gather).
struct GatherDesc {
  TensorDesc input;
  TensorDesc indices;
  TensorDesc output;
  std::int64_t axis;
  std::int64_t index_dimensions;

  static constexpr const char* name = "GatherDesc";
  static constexpr const char* doc = "DML_GATHER_OPERATOR_DESC (numpy take / ONNX Gather).";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("input", &GatherDesc::input), desc_field("indices", &GatherDesc::indices),
                           desc_field("output", &GatherDesc::output), desc_field("axis", &GatherDesc::axis),
                           desc_field("index_dimensions", &GatherDesc::index_dimensions));
  }
};

/// DML_GATHER_ELEMENTS_OPERATOR_DESC (ONNX GatherElements). As ONNX, `indices` may be smaller than
/// `input` off the axis (no broadcasting); such a description executes, but DirectML requires equal
/// sizes there, so no feature level accepts it.
struct GatherElementsDesc {
  TensorDesc input;
  TensorDesc indices;
  TensorDesc output;
  std::int64_t axis;

  static constexpr const char* name = "GatherElementsDesc";
  static constexpr const char* doc =
      "DML_GATHER_ELEMENTS_OPERATOR_DESC (ONNX GatherElements). indices smaller than input off the axis execute "
      "(as ONNX; they do not broadcast) but are valid at no DirectML feature level.";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("input", &GatherElementsDesc::input),
                           desc_field("indices", &GatherElementsDesc::indices),
                           desc_field("output", &GatherElementsDesc::output),
                           desc_field("axis", &GatherElementsDesc::axis));
  }
};

/// DML_GATHER_ND_OPERATOR_DESC (batch 0) / DML_GATHER_ND1_OPERATOR_DESC (batch > 0).
struct GatherNDDesc {
  TensorDesc input;
  TensorDesc indices;
  TensorDesc output;
  std::int64_t input_dimension_count;
  std::int64_t indices_dimension_count;
  std::int64_t batch_dimension_count = 0;

  static constexpr const char* name = "GatherNDDesc";
  static constexpr const char* doc =
      "DML_GATHER_ND_OPERATOR_DESC (batch_dimension_count 0) / DML_GATHER_ND1_OPERATOR_DESC.";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("input", &GatherNDDesc::input), desc_field("indices", &GatherNDDesc::indices),
                           desc_field("output", &GatherNDDesc::output),
                           desc_field("input_dimension_count", &GatherNDDesc::input_dimension_count),
                           desc_field("indices_dimension_count", &GatherNDDesc::indices_dimension_count),
                           desc_field("batch_dimension_count", &GatherNDDesc::batch_dimension_count,
                                      FieldUse::Optional));
  }
};

/// How Scatter/ScatterND combine duplicate indices. NONE is DirectML's operator (last write in
/// row-major index order wins); the others are a strided extension (ONNX's `reduction`), valid
/// when validating at no particular level, and at no DirectML feature level.
enum class ScatterReduction : std::uint32_t { NONE = 0, ADD = 1, MUL = 2, MIN = 3, MAX = 4 };

/// DML_SCATTER_OPERATOR_DESC (= SCATTER_ELEMENTS). `indices` smaller than `input` off the axis: as
/// GatherElementsDesc (the output elements they do not reach hold the input's).
struct ScatterDesc {
  TensorDesc input;
  TensorDesc indices;
  TensorDesc updates;
  TensorDesc output;
  std::int64_t axis;
  ScatterReduction reduction = ScatterReduction::NONE;

  static constexpr const char* name = "ScatterDesc";
  static constexpr const char* alias = "ScatterElementsDesc";  // DirectML's newer name
  static constexpr const char* doc =
      "DML_SCATTER_OPERATOR_DESC (= SCATTER_ELEMENTS). reduction other than 'none', and indices smaller than "
      "input off the axis, are strided extensions (ONNX ScatterElements), valid at no DirectML feature level.";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("input", &ScatterDesc::input), desc_field("indices", &ScatterDesc::indices),
                           desc_field("updates", &ScatterDesc::updates), desc_field("output", &ScatterDesc::output),
                           desc_field("axis", &ScatterDesc::axis),
                           desc_field("reduction", &ScatterDesc::reduction, FieldUse::KeywordOnly));
  }
};
using ScatterElementsDesc = ScatterDesc;

/// DML_SCATTER_ND_OPERATOR_DESC.
struct ScatterNDDesc {
  TensorDesc input;
  TensorDesc indices;
  TensorDesc updates;
  TensorDesc output;
  std::int64_t input_dimension_count;
  std::int64_t indices_dimension_count;
  ScatterReduction reduction = ScatterReduction::NONE;

  static constexpr const char* name = "ScatterNDDesc";
  static constexpr const char* doc =
      "DML_SCATTER_ND_OPERATOR_DESC (ONNX ScatterND). reduction other than 'none' is a strided extension, valid at "
      "no DirectML feature level.";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("input", &ScatterNDDesc::input), desc_field("indices", &ScatterNDDesc::indices),
                           desc_field("updates", &ScatterNDDesc::updates), desc_field("output", &ScatterNDDesc::output),
                           desc_field("input_dimension_count", &ScatterNDDesc::input_dimension_count),
                           desc_field("indices_dimension_count", &ScatterNDDesc::indices_dimension_count),
                           desc_field("reduction", &ScatterNDDesc::reduction, FieldUse::KeywordOnly));
  }
};

/// DML_CAST_OPERATOR_DESC: out[c] = convert(in[c]) to the output's data type by SPEC 3.5's rules
/// (truncation toward zero and saturation for float -> int, round to nearest even, modulo for
/// int -> int, quiet NaNs keeping their payload's high bits).
struct CastDesc {
  TensorDesc input;
  TensorDesc output;

  static constexpr const char* name = "CastDesc";
  static constexpr const char* doc =
      "DML_CAST_OPERATOR_DESC: out[c] = in[c] converted to the output's data type (SPEC 3.5: truncation and "
      "saturation for float -> int, round to nearest even, modulo 2^bits for int -> int).";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("input", &CastDesc::input), desc_field("output", &CastDesc::output));
  }
};

/// DML_PADDING_MODE: what Padding writes outside the input (SPEC 3.6).
enum class PaddingMode : std::uint32_t { CONSTANT = 0, EDGE = 1, REFLECTION = 2, SYMMETRIC = 3, WRAP = 4 };

/// DML_PADDING1_OPERATOR_DESC (and DML_PADDING_OPERATOR_DESC, its FLOAT value): the input placed at
/// start_padding in an output of in.sizes + start_padding + end_padding, the rest by padding_mode.
struct PaddingDesc {
  TensorDesc input;
  TensorDesc output;
  PaddingMode padding_mode;
  Scalar padding_value;                     // PaddingValueDataType + PaddingValue: the output's dtype
  std::vector<std::int64_t> start_padding;  // StartPadding (DimensionCount values): UINT, any size
  std::vector<std::int64_t> end_padding;    // EndPadding

  static constexpr const char* name = "PaddingDesc";
  static constexpr const char* doc =
      "DML_PADDING1_OPERATOR_DESC / DML_PADDING_OPERATOR_DESC: out.sizes[i] = in.sizes[i] + start_padding[i] + "
      "end_padding[i]; out[c] = in[c - start_padding] inside, and outside padding_value (CONSTANT) or the input "
      "element that EDGE, REFLECTION, SYMMETRIC or WRAP maps it to (numpy.pad's edge, reflect, symmetric, wrap; "
      "pads wider than the input fold periodically).";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("input", &PaddingDesc::input), desc_field("output", &PaddingDesc::output),
                           desc_field("padding_mode", &PaddingDesc::padding_mode),
                           desc_field("padding_value", &PaddingDesc::padding_value),
                           desc_field("start_padding", &PaddingDesc::start_padding),
                           desc_field("end_padding", &PaddingDesc::end_padding));
  }
};

/// DML_TILE_OPERATOR_DESC: out[c] = in[c mod in.sizes], out.sizes[i] = in.sizes[i] * repeats[i].
struct TileDesc {
  TensorDesc input;
  TensorDesc output;
  std::vector<std::int64_t> repeats;  // Repeats (RepeatsCount = the dimension count): each >= 1

  static constexpr const char* name = "TileDesc";
  static constexpr const char* doc =
      "DML_TILE_OPERATOR_DESC: the input repeated repeats[i] times along each dimension i "
      "(out.sizes[i] = in.sizes[i] * repeats[i]; out[c] = in[c mod in.sizes]).";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("input", &TileDesc::input), desc_field("output", &TileDesc::output),
                           desc_field("repeats", &TileDesc::repeats));
  }
};

/// DML_DEPTH_SPACE_ORDER: how SpaceToDepth/DepthToSpace number the channels of the depth tensor
/// {N, C*b*b, H, W} against the space tensor {N, C, H*b, W*b} (SPEC 3.8): space[n, c, h*b + bh,
/// w*b + bw] = depth[n, d, h, w] with DEPTH_COLUMN_ROW (DCR, ONNX's default) d = (bh*b + bw)*C + c,
/// COLUMN_ROW_DEPTH (CRD, torch pixel_shuffle) d = (c*b + bh)*b + bw.
enum class DepthSpaceOrder : std::uint32_t { DEPTH_COLUMN_ROW = 0, COLUMN_ROW_DEPTH = 1 };

/// DML_SPACE_TO_DEPTH_OPERATOR_DESC (order DCR) / DML_SPACE_TO_DEPTH1_OPERATOR_DESC: blocks of
/// block_size x block_size pixels moved into channels, {N, C, H*b, W*b} -> {N, C*b*b, H, W}.
struct SpaceToDepthDesc {
  TensorDesc input;
  TensorDesc output;
  std::int64_t block_size;  // UINT in DirectML: at least 1
  DepthSpaceOrder order = DepthSpaceOrder::DEPTH_COLUMN_ROW;  // the *1 struct's Order

  static constexpr const char* name = "SpaceToDepthDesc";
  static constexpr const char* doc =
      "DML_SPACE_TO_DEPTH_OPERATOR_DESC (order DCR) / DML_SPACE_TO_DEPTH1_OPERATOR_DESC: each block_size x "
      "block_size block of the input {N, C, H*b, W*b} moved into channels of the output {N, C*b*b, H, W}: "
      "out[n, d, h, w] = in[n, c, h*b + bh, w*b + bw] with d = (bh*b + bw)*C + c (DCR) or (c*b + bh)*b + bw (CRD).";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("input", &SpaceToDepthDesc::input),
                           desc_field("output", &SpaceToDepthDesc::output),
                           desc_field("block_size", &SpaceToDepthDesc::block_size),
                           desc_field("order", &SpaceToDepthDesc::order, FieldUse::Optional));
  }
};

/// DML_DEPTH_TO_SPACE_OPERATOR_DESC (order DCR) / DML_DEPTH_TO_SPACE1_OPERATOR_DESC: channels moved
/// into block_size x block_size blocks of pixels, {N, C*b*b, H, W} -> {N, C, H*b, W*b}.
struct DepthToSpaceDesc {
  TensorDesc input;
  TensorDesc output;
  std::int64_t block_size;  // UINT in DirectML: at least 1
  DepthSpaceOrder order = DepthSpaceOrder::DEPTH_COLUMN_ROW;  // the *1 struct's Order

  static constexpr const char* name = "DepthToSpaceDesc";
  static constexpr const char* doc =
      "DML_DEPTH_TO_SPACE_OPERATOR_DESC (order DCR) / DML_DEPTH_TO_SPACE1_OPERATOR_DESC: the channels of the "
      "input {N, C*b*b, H, W} moved into block_size x block_size blocks of the output {N, C, H*b, W*b}: "
      "out[n, c, h*b + bh, w*b + bw] = in[n, d, h, w] with d = (bh*b + bw)*C + c (DCR) or (c*b + bh)*b + bw (CRD).";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("input", &DepthToSpaceDesc::input),
                           desc_field("output", &DepthToSpaceDesc::output),
                           desc_field("block_size", &DepthToSpaceDesc::block_size),
                           desc_field("order", &DepthToSpaceDesc::order, FieldUse::Optional));
  }
};

/// DML_FILL_VALUE_CONSTANT_OPERATOR_DESC: every element of the output set to `value`.
struct FillValueConstantDesc {
  TensorDesc output;
  Scalar value;  // ValueDataType + Value: a value of the output's dtype

  static constexpr const char* name = "FillValueConstantDesc";
  static constexpr const char* doc =
      "DML_FILL_VALUE_CONSTANT_OPERATOR_DESC: out[c] = value (a Scalar of the output's dtype; a Python "
      "number is converted to it by the Cast rules).";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("output", &FillValueConstantDesc::output),
                           desc_field("value", &FillValueConstantDesc::value));
  }
};

/// DML_MAX_UNPOOLING_OPERATOR_DESC: out = 0, then out[position idx[c]] = in[c] for every c, the
/// position counted row-major over all of out's sizes (ONNX MaxUnpool; torch counts per N, C plane).
struct MaxUnpoolingDesc {
  TensorDesc input;
  TensorDesc indices;  // same sizes as input; each in [-M, M), M = output's element count
  TensorDesc output;

  static constexpr const char* name = "MaxUnpoolingDesc";
  static constexpr const char* doc =
      "DML_MAX_UNPOOLING_OPERATOR_DESC: out = 0, then out[p] = in[c] with p = indices[c], a row-major position "
      "over all of out's sizes (ONNX MaxUnpool; negative positions count from the end; duplicates: the last in "
      "row-major order of indices wins).";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("input", &MaxUnpoolingDesc::input),
                           desc_field("indices", &MaxUnpoolingDesc::indices),
                           desc_field("output", &MaxUnpoolingDesc::output));
  }
};

/// DML_UNFOLD_OPERATOR_DESC (im2col, torch nn.functional.unfold): input {N, C, S_0..S_{D-1}},
/// output {N, C*prod(window_sizes), L} (leading 1s allowed), L the number of window positions;
/// zero padding. Each of the five arrays has D values (DirectML's DimensionCount, 1 to 6).
struct UnfoldDesc {
  TensorDesc input;
  TensorDesc output;
  std::vector<std::int64_t> window_sizes;   // each >= 1
  std::vector<std::int64_t> strides;        // each >= 1
  std::vector<std::int64_t> dilations;      // each >= 1
  std::vector<std::int64_t> start_padding;  // each >= 0
  std::vector<std::int64_t> end_padding;    // each >= 0

  static constexpr const char* name = "UnfoldDesc";
  static constexpr const char* doc =
      "DML_UNFOLD_OPERATOR_DESC (im2col, torch nn.functional.unfold): out[n, c*K + w, l] = in[n, c, b*stride - "
      "start_padding + w*dilation] for window offset w and window position b (row-major), 0 in the padding; "
      "out = {N, C*K, L}, K = prod(window_sizes).";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("input", &UnfoldDesc::input), desc_field("output", &UnfoldDesc::output),
                           desc_field("window_sizes", &UnfoldDesc::window_sizes),
                           desc_field("strides", &UnfoldDesc::strides), desc_field("dilations", &UnfoldDesc::dilations),
                           desc_field("start_padding", &UnfoldDesc::start_padding),
                           desc_field("end_padding", &UnfoldDesc::end_padding));
  }
};

/// DML_NONZERO_COORDINATES_OPERATOR_DESC (SPEC 3.14.1): output_count (UINT32, every size 1) gets
/// K, the number of the input's non-zero elements (+0.0 and -0.0 are zero, NaN is not);
/// output_coordinates (UINT32 {1,...,1, M, N}, M = the input's element count) gets in row j < K
/// the last N coordinates of the j-th non-zero element in row-major order, zeros in rows j >= K.
struct NonzeroCoordinatesDesc {
  TensorDesc input;
  TensorDesc output_count;
  TensorDesc output_coordinates;

  static constexpr const char* name = "NonzeroCoordinatesDesc";
  static constexpr const char* doc =
      "DML_NONZERO_COORDINATES_OPERATOR_DESC: output_count gets K = the number of non-zero input elements "
      "(+0.0/-0.0 are zero, NaN is not); row j < K of output_coordinates {1,...,1, M, N} the last N "
      "coordinates of the j-th non-zero element (row-major), rows j >= K zeros. Both outputs UINT32.";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("input", &NonzeroCoordinatesDesc::input),
                           desc_field("output_count", &NonzeroCoordinatesDesc::output_count),
                           desc_field("output_coordinates", &NonzeroCoordinatesDesc::output_coordinates));
  }
};

/// DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC: out[c] = start + k * delta, k the row-major index of c.
struct FillValueSequenceDesc {
  TensorDesc output;
  Scalar value_start;  // ValueDataType + ValueStart: a value of the output's dtype
  Scalar value_delta;  // ValueDelta, same dtype

  static constexpr const char* name = "FillValueSequenceDesc";
  static constexpr const char* doc =
      "DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC: out[c] = value_start + k * value_delta, k = the row-major index of c "
      "(integers modulo 2^bits; floats computed in binary64 and rounded once to the output's dtype). Both values "
      "are Scalars of the output's dtype (a Python number is converted to it by the Cast rules).";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("output", &FillValueSequenceDesc::output),
                           desc_field("value_start", &FillValueSequenceDesc::value_start),
                           desc_field("value_delta", &FillValueSequenceDesc::value_delta));
  }
};

/// DML_DIAGONAL_MATRIX_OPERATOR_DESC (begin = Offset, end = Offset + 1, no input) and
/// DML_DIAGONAL_MATRIX1_OPERATOR_DESC: with t = column - row over the last two dimensions,
/// out = value where (end >= begin) XOR (t >= begin) XOR (t < end), else input (or 0).
struct DiagonalMatrixDesc {
  TensorDesc output;
  Scalar value;                            // ValueDataType + Value: a value of the output's dtype
  std::int64_t diagonal_fill_begin = 0;    // INT (32-bit signed), inclusive
  std::int64_t diagonal_fill_end = 0;      // INT, exclusive
  std::optional<TensorDesc> input;         // DIAGONAL_MATRIX1's optional InputTensor

  static constexpr const char* name = "DiagonalMatrixDesc";
  static constexpr const char* doc =
      "DML_DIAGONAL_MATRIX_OPERATOR_DESC / DML_DIAGONAL_MATRIX1_OPERATOR_DESC: over the last two dimensions "
      "(earlier ones are batches), with t = column - row, out = value where begin <= t < end (all but "
      "end <= t < begin when begin > end), else input (when given) or 0.";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("output", &DiagonalMatrixDesc::output),
                           desc_field("value", &DiagonalMatrixDesc::value),
                           desc_field("diagonal_fill_begin", &DiagonalMatrixDesc::diagonal_fill_begin),
                           desc_field("diagonal_fill_end", &DiagonalMatrixDesc::diagonal_fill_end),
                           desc_field("input", &DiagonalMatrixDesc::input, FieldUse::Optional));
  }
};

/// DML_ONE_HOT_OPERATOR_DESC: out[c] = (c[axis] == indices[c with c[axis] = 0]) ? on : off, with
/// off, on = values' elements 0 and 1 in row-major order; negative indices count from the end of
/// the axis, and an index outside [-size, size) gives an all-off sequence (not an error).
struct OneHotDesc {
  TensorDesc indices;  // output's sizes, 1 on the axis
  TensorDesc values;   // output's dtype, at least 2 elements
  TensorDesc output;
  std::int64_t axis;

  static constexpr const char* name = "OneHotDesc";
  static constexpr const char* doc =
      "DML_ONE_HOT_OPERATOR_DESC: out[c] = on if c[axis] == indices[c with c[axis] = 0] else off, where off and on "
      "are values' elements 0 and 1 (row-major); a negative index counts from the end of the axis and one outside "
      "[-size, size) gives an all-off sequence.";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("indices", &OneHotDesc::indices), desc_field("values", &OneHotDesc::values),
                           desc_field("output", &OneHotDesc::output), desc_field("axis", &OneHotDesc::axis));
  }
};

/// DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC: along `axis`, the first L = min(length, size) elements
/// of every sequence reversed and the rest copied, L read from sequence_lengths (input's sizes, 1
/// on the axis). A negative length (signed types, a strided extension) is an IndexError.
struct ReverseSubsequencesDesc {
  TensorDesc input;
  TensorDesc sequence_lengths;  // input's sizes, 1 on the axis; UINT32/UINT64 (INT32/INT64: no level)
  TensorDesc output;
  std::int64_t axis;

  static constexpr const char* name = "ReverseSubsequencesDesc";
  static constexpr const char* doc =
      "DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC: out[c] = in[c with c[axis] = L - 1 - c[axis]] where c[axis] < L, "
      "else in[c], with L = min(sequence_lengths[c with c[axis] = 0], in.sizes[axis]). Signed lengths execute "
      "(a negative one raises IndexError) but are valid at no DirectML feature level.";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("input", &ReverseSubsequencesDesc::input),
                           desc_field("sequence_lengths", &ReverseSubsequencesDesc::sequence_lengths),
                           desc_field("output", &ReverseSubsequencesDesc::output),
                           desc_field("axis", &ReverseSubsequencesDesc::axis));
  }
};

/// DML_SLICE_GRAD_OPERATOR_DESC: the adjoint of Slice1 with the same window: the output gradient
/// is zero but at the window's positions, which receive the input gradient.
struct SliceGradDesc {
  TensorDesc input_gradient;   // Slice1's output
  TensorDesc output_gradient;  // Slice1's input
  std::vector<std::int64_t> input_window_offsets;
  std::vector<std::int64_t> input_window_sizes;
  std::vector<std::int64_t> input_window_strides;  // signed, non-zero (INT in DirectML.h)

  static constexpr const char* name = "SliceGradDesc";
  static constexpr const char* doc =
      "DML_SLICE_GRAD_OPERATOR_DESC: the adjoint of Slice1 with the same window: output_gradient = 0, then "
      "output_gradient[start + strides*c] = input_gradient[c] with start = offsets + (strides < 0 ? sizes - 1 : 0).";
  static constexpr auto fields() {
    return std::make_tuple(desc_field("input_gradient", &SliceGradDesc::input_gradient),
                           desc_field("output_gradient", &SliceGradDesc::output_gradient),
                           desc_field("input_window_offsets", &SliceGradDesc::input_window_offsets),
                           desc_field("input_window_sizes", &SliceGradDesc::input_window_sizes),
                           desc_field("input_window_strides", &SliceGradDesc::input_window_strides));
  }
};

/// Any one description (the list's order).
namespace detail {
template <class First, class... Rest>
struct VariantOfRest {
  using type = std::variant<Rest...>;
};
}  // namespace detail
#define STRIDED_X(Name, family) , Name##Desc
using AnyDesc = detail::VariantOfRest<void STRIDED_FOR_EACH_OP(STRIDED_X)>::type;
#undef STRIDED_X

// Every struct is a plain aggregate: constructing one checks nothing (its TensorDescs are each
// valid by construction); validate() checks how the fields fit together.

/// Name of the description type ("Slice1Desc"). Never throws (beyond std::bad_alloc).
std::string desc_name(const AnyDesc& desc);

/// Throws ValidationError naming the description, field and rule (e.g.
/// "Slice1Desc.strides[2]: stride must not be 0") when `desc` breaks a rule of SPEC.md at
/// `level`. No level = what strided executes (the newest level plus strided's extensions:
/// tensors over 2^32-1 elements, scatter reductions).
void validate(const AnyDesc& desc, std::optional<FeatureLevel> level = std::nullopt);
/// validate() without the exception: false exactly when validate(desc, level) would throw
/// ValidationError (an unknown `level` included). Never throws ValidationError.
bool is_valid_at(const AnyDesc& desc, FeatureLevel level);
/// The lowest feature level at which validate() passes (SPEC.md's example Slice1 -> FL_2_1).
/// Throws ValidationError when no DirectML level accepts the description: the structural
/// reason when validate(desc) fails, else the newest level's reason (a strided extension such
/// as a scatter reduction or smaller GatherElements/Scatter indices, or a tensor over 2^32-1
/// elements).
FeatureLevel min_feature_level(const AnyDesc& desc);

}  // namespace strided
