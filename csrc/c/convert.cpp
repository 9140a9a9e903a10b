// DML_<OP>_OPERATOR_DESC -> the C++ description. Adding an operator: write its converter (a few
// lines with the helpers below) and put it in kConverters.
#include "convert.hpp"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <strided/error.hpp>

namespace strided::c_api {
namespace {

[[noreturn]] void fail(const std::string& field, const std::string& rule) {
  throw ValidationError(field + ": " + rule);
}

/// A copy of *p: each field is then read once, whatever another thread writes to the caller's
/// struct meanwhile (a count checked and then used must be the same value).
template <class T>
T deref(const T* p, const std::string& field) {
  if (p == nullptr) fail(field, "must not be NULL");
  return *p;
}

/// DirectML's UINT/INT arrays of `count` values; NULL only when count is 0.
template <class T>
std::vector<std::int64_t> values(const T* p, std::uint32_t count, const std::string& field) {
  if (count > 0 && p == nullptr) fail(field, "must not be NULL (" + std::to_string(count) + " values expected)");
  return std::vector<std::int64_t>(p, p + count);
}

/// A DimensionCount that sizes the struct's arrays: at most DML_TENSOR_DIMENSION_COUNT_MAX1.
std::uint32_t dim_count(std::uint32_t n, const std::string& field) {
  if (n > DML_TENSOR_DIMENSION_COUNT_MAX1)
    fail(field, "must be at most 8 (DML_TENSOR_DIMENSION_COUNT_MAX1), got " + std::to_string(n));
  return n;
}

TensorDesc tensor(const DML_TENSOR_DESC* t, const std::string& field) {
  const DML_TENSOR_DESC td = deref(t, field);
  if (td.Type != DML_TENSOR_TYPE_BUFFER)
    fail(field + "->Type", "must be DML_TENSOR_TYPE_BUFFER (1), got " + std::to_string(static_cast<int>(td.Type)));
  const auto b = deref(static_cast<const DML_BUFFER_TENSOR_DESC*>(td.Desc), field + "->Desc");
  const std::string f = field + "->Desc->";
  if (b.DimensionCount < 1 || b.DimensionCount > DML_TENSOR_DIMENSION_COUNT_MAX1)
    fail(f + "DimensionCount",
         "must be 1..8 (DML_TENSOR_DIMENSION_COUNT_MAX1), got " + std::to_string(b.DimensionCount));
  std::vector<std::int64_t> sizes = values(b.Sizes, b.DimensionCount, f + "Sizes");
  std::vector<std::int64_t> strides;
  if (b.Strides != nullptr) strides = values(b.Strides, b.DimensionCount, f + "Strides");
  try {
    return TensorDesc(static_cast<DataType>(b.DataType), std::move(sizes), std::move(strides), b.TotalTensorSizeInBytes,
                      b.GuaranteedBaseOffsetAlignment, static_cast<TensorFlags>(b.Flags));
  } catch (const ValidationError& e) {
    throw ValidationError(field + ": " + e.what());  // "...InputTensor: TensorDesc.sizes[1]: ..."
  }
}

std::vector<TensorDesc> tensors(const DML_TENSOR_DESC* t, std::uint32_t count, const std::string& field) {
  if (count > 0 && t == nullptr) fail(field, "must not be NULL (" + std::to_string(count) + " tensors expected)");
  std::vector<TensorDesc> out;
  out.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) out.push_back(tensor(t + i, field + "[" + std::to_string(i) + "]"));
  return out;
}

/// A DML_SCALAR_UNION of `type` as a Scalar: the member of that type, so the bits are right on
/// any byte order (FLOAT16 is the binary16 pattern in UInt16).
Scalar scalar(DML_TENSOR_DATA_TYPE type, const DML_SCALAR_UNION& u) {
  const auto dtype = static_cast<DataType>(type);
  std::uint64_t bits = 0;
  switch (dtype) {
    case DataType::FLOAT32: {
      std::uint32_t b32;
      std::memcpy(&b32, &u.Float32, 4);
      bits = b32;
      break;
    }
    case DataType::FLOAT64: std::memcpy(&bits, &u.Float64, 8); break;
    case DataType::FLOAT16:
    case DataType::UINT16: bits = u.UInt16; break;
    case DataType::INT16: bits = static_cast<std::uint16_t>(u.Int16); break;
    case DataType::UINT32: bits = u.UInt32; break;
    case DataType::INT32: bits = static_cast<std::uint32_t>(u.Int32); break;
    case DataType::UINT8: bits = u.UInt8; break;
    case DataType::INT8: bits = static_cast<std::uint8_t>(u.Int8); break;
    case DataType::UINT64: bits = u.UInt64; break;
    case DataType::INT64: bits = static_cast<std::uint64_t>(u.Int64); break;
    default: break;  // an unknown type: validate() names it
  }
  return Scalar{dtype, bits};
}

/// The struct behind DML_OPERATOR_DESC::Desc, and "<struct name>.<field>" for messages.
template <class S>
struct In {
  const S& s;
  const char* name;
  std::string f(const char* field) const { return std::string(name) + "." + field; }
  TensorDesc t(const DML_TENSOR_DESC* p, const char* field) const { return tensor(p, f(field)); }
};

#define STRIDED_IN(S) \
  In<S> in { *static_cast<const S*>(p), #S }

// ---------------------------------------------------------------- one converter per operator

AnyDesc identity(const void* p) {
  STRIDED_IN(DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC);
  if (in.s.ScaleBias != nullptr)
    fail(in.f("ScaleBias"), "must be NULL (strided moves data: scale and bias are not supported)");
  return IdentityDesc{in.t(in.s.InputTensor, "InputTensor"), in.t(in.s.OutputTensor, "OutputTensor")};
}

AnyDesc cast(const void* p) {
  STRIDED_IN(DML_CAST_OPERATOR_DESC);
  return CastDesc{in.t(in.s.InputTensor, "InputTensor"), in.t(in.s.OutputTensor, "OutputTensor")};
}

AnyDesc slice(const void* p) {
  STRIDED_IN(DML_SLICE_OPERATOR_DESC);
  const std::uint32_t n = dim_count(in.s.DimensionCount, in.f("DimensionCount"));
  return SliceDesc{in.t(in.s.InputTensor, "InputTensor"), in.t(in.s.OutputTensor, "OutputTensor"),
                   values(in.s.Offsets, n, in.f("Offsets")), values(in.s.Sizes, n, in.f("Sizes")),
                   values(in.s.Strides, n, in.f("Strides"))};
}

AnyDesc slice1(const void* p) {
  STRIDED_IN(DML_SLICE1_OPERATOR_DESC);
  const std::uint32_t n = dim_count(in.s.DimensionCount, in.f("DimensionCount"));
  return Slice1Desc{in.t(in.s.InputTensor, "InputTensor"), in.t(in.s.OutputTensor, "OutputTensor"),
                    values(in.s.InputWindowOffsets, n, in.f("InputWindowOffsets")),
                    values(in.s.InputWindowSizes, n, in.f("InputWindowSizes")),
                    values(in.s.InputWindowStrides, n, in.f("InputWindowStrides"))};
}

AnyDesc split(const void* p) {
  STRIDED_IN(DML_SPLIT_OPERATOR_DESC);
  return SplitDesc{in.t(in.s.InputTensor, "InputTensor"),
                   tensors(in.s.OutputTensors, in.s.OutputCount, in.f("OutputTensors")), in.s.Axis};
}

AnyDesc join(const void* p) {
  STRIDED_IN(DML_JOIN_OPERATOR_DESC);
  return JoinDesc{tensors(in.s.InputTensors, in.s.InputCount, in.f("InputTensors")),
                  in.t(in.s.OutputTensor, "OutputTensor"), in.s.Axis};
}

AnyDesc gather(const void* p) {
  STRIDED_IN(DML_GATHER_OPERATOR_DESC);
  return GatherDesc{in.t(in.s.InputTensor, "InputTensor"), in.t(in.s.IndicesTensor, "IndicesTensor"),
                    in.t(in.s.OutputTensor, "OutputTensor"), in.s.Axis, in.s.IndexDimensions};
}

AnyDesc gather_elements(const void* p) {
  STRIDED_IN(DML_GATHER_ELEMENTS_OPERATOR_DESC);
  return GatherElementsDesc{in.t(in.s.InputTensor, "InputTensor"), in.t(in.s.IndicesTensor, "IndicesTensor"),
                            in.t(in.s.OutputTensor, "OutputTensor"), in.s.Axis};
}

AnyDesc gather_nd(const void* p) {
  STRIDED_IN(DML_GATHER_ND_OPERATOR_DESC);
  return GatherNDDesc{in.t(in.s.InputTensor, "InputTensor"),
                      in.t(in.s.IndicesTensor, "IndicesTensor"),
                      in.t(in.s.OutputTensor, "OutputTensor"),
                      in.s.InputDimensionCount,
                      in.s.IndicesDimensionCount,
                      0};
}

AnyDesc gather_nd1(const void* p) {
  STRIDED_IN(DML_GATHER_ND1_OPERATOR_DESC);
  return GatherNDDesc{in.t(in.s.InputTensor, "InputTensor"),
                      in.t(in.s.IndicesTensor, "IndicesTensor"),
                      in.t(in.s.OutputTensor, "OutputTensor"),
                      in.s.InputDimensionCount,
                      in.s.IndicesDimensionCount,
                      in.s.BatchDimensionCount};
}

AnyDesc scatter(const void* p) {
  STRIDED_IN(DML_SCATTER_OPERATOR_DESC);
  return ScatterDesc{in.t(in.s.InputTensor, "InputTensor"),
                     in.t(in.s.IndicesTensor, "IndicesTensor"),
                     in.t(in.s.UpdatesTensor, "UpdatesTensor"),
                     in.t(in.s.OutputTensor, "OutputTensor"),
                     in.s.Axis,
                     ScatterReduction::NONE};
}

AnyDesc scatter_nd(const void* p) {
  STRIDED_IN(DML_SCATTER_ND_OPERATOR_DESC);
  return ScatterNDDesc{in.t(in.s.InputTensor, "InputTensor"),
                       in.t(in.s.IndicesTensor, "IndicesTensor"),
                       in.t(in.s.UpdatesTensor, "UpdatesTensor"),
                       in.t(in.s.OutputTensor, "OutputTensor"),
                       in.s.InputDimensionCount,
                       in.s.IndicesDimensionCount,
                       ScatterReduction::NONE};
}

AnyDesc tile(const void* p) {
  STRIDED_IN(DML_TILE_OPERATOR_DESC);
  const std::uint32_t n = dim_count(in.s.RepeatsCount, in.f("RepeatsCount"));
  return TileDesc{in.t(in.s.InputTensor, "InputTensor"), in.t(in.s.OutputTensor, "OutputTensor"),
                  values(in.s.Repeats, n, in.f("Repeats"))};
}

template <class Desc, class S>
AnyDesc depth_space(const In<S>& in, std::uint32_t order) {
  return Desc{in.t(in.s.InputTensor, "InputTensor"), in.t(in.s.OutputTensor, "OutputTensor"), in.s.BlockSize,
              static_cast<DepthSpaceOrder>(order)};
}
AnyDesc space_to_depth(const void* p) {
  STRIDED_IN(DML_SPACE_TO_DEPTH_OPERATOR_DESC);
  return depth_space<SpaceToDepthDesc>(in, DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW);
}
AnyDesc space_to_depth1(const void* p) {
  STRIDED_IN(DML_SPACE_TO_DEPTH1_OPERATOR_DESC);
  return depth_space<SpaceToDepthDesc>(in, static_cast<std::uint32_t>(in.s.Order));
}
AnyDesc depth_to_space(const void* p) {
  STRIDED_IN(DML_DEPTH_TO_SPACE_OPERATOR_DESC);
  return depth_space<DepthToSpaceDesc>(in, DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW);
}
AnyDesc depth_to_space1(const void* p) {
  STRIDED_IN(DML_DEPTH_TO_SPACE1_OPERATOR_DESC);
  return depth_space<DepthToSpaceDesc>(in, static_cast<std::uint32_t>(in.s.Order));
}

AnyDesc fill_value_constant(const void* p) {
  STRIDED_IN(DML_FILL_VALUE_CONSTANT_OPERATOR_DESC);
  return FillValueConstantDesc{in.t(in.s.OutputTensor, "OutputTensor"), scalar(in.s.ValueDataType, in.s.Value)};
}

/// PADDING's and DIAGONAL_MATRIX's FLOAT value as a Scalar of the output's dtype (SPEC 3.5's
/// Cast rules, as DirectML converts it).
Scalar float_value(float v, const TensorDesc& output) {
  return Scalar::from_double(output.dtype(), static_cast<double>(v));
}

/// PADDING and PADDING1 but for the value (set by the caller).
template <class S>
PaddingDesc padding_desc(const In<S>& in) {
  const std::uint32_t n = dim_count(in.s.DimensionCount, in.f("DimensionCount"));
  return PaddingDesc{in.t(in.s.InputTensor, "InputTensor"),
                     in.t(in.s.OutputTensor, "OutputTensor"),
                     static_cast<PaddingMode>(in.s.PaddingMode),
                     Scalar{},
                     values(in.s.StartPadding, n, in.f("StartPadding")),
                     values(in.s.EndPadding, n, in.f("EndPadding"))};
}
AnyDesc padding(const void* p) {
  STRIDED_IN(DML_PADDING_OPERATOR_DESC);
  PaddingDesc d = padding_desc(in);
  d.padding_value = float_value(in.s.PaddingValue, d.output);
  return d;
}
AnyDesc padding1(const void* p) {
  STRIDED_IN(DML_PADDING1_OPERATOR_DESC);
  PaddingDesc d = padding_desc(in);
  d.padding_value = scalar(in.s.PaddingValueDataType, in.s.PaddingValue);
  return d;
}

AnyDesc max_unpooling(const void* p) {
  STRIDED_IN(DML_MAX_UNPOOLING_OPERATOR_DESC);
  return MaxUnpoolingDesc{in.t(in.s.InputTensor, "InputTensor"), in.t(in.s.IndicesTensor, "IndicesTensor"),
                          in.t(in.s.OutputTensor, "OutputTensor")};
}

AnyDesc diagonal_matrix(const void* p) {
  STRIDED_IN(DML_DIAGONAL_MATRIX_OPERATOR_DESC);
  // v0 fills the one diagonal t == Offset: begin = Offset, end = Offset + 1, which must stay an INT.
  if (in.s.Offset == INT32_MAX)
    fail(in.f("Offset"), "must be below 2147483647 here (strided holds end = Offset + 1 as a 32-bit INT)");
  TensorDesc output = in.t(in.s.OutputTensor, "OutputTensor");
  const Scalar value = float_value(in.s.Value, output);
  return DiagonalMatrixDesc{std::move(output), value, in.s.Offset, std::int64_t{in.s.Offset} + 1, std::nullopt};
}
AnyDesc diagonal_matrix1(const void* p) {
  STRIDED_IN(DML_DIAGONAL_MATRIX1_OPERATOR_DESC);
  std::optional<TensorDesc> input;
  if (in.s.InputTensor != nullptr) input = in.t(in.s.InputTensor, "InputTensor");  // optional
  return DiagonalMatrixDesc{in.t(in.s.OutputTensor, "OutputTensor"), scalar(in.s.ValueDataType, in.s.Value),
                            in.s.DiagonalFillBegin, in.s.DiagonalFillEnd, std::move(input)};
}

AnyDesc one_hot(const void* p) {
  STRIDED_IN(DML_ONE_HOT_OPERATOR_DESC);
  return OneHotDesc{in.t(in.s.IndicesTensor, "IndicesTensor"), in.t(in.s.ValuesTensor, "ValuesTensor"),
                    in.t(in.s.OutputTensor, "OutputTensor"), in.s.Axis};
}

AnyDesc fill_value_sequence(const void* p) {
  STRIDED_IN(DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC);
  return FillValueSequenceDesc{in.t(in.s.OutputTensor, "OutputTensor"), scalar(in.s.ValueDataType, in.s.ValueStart),
                               scalar(in.s.ValueDataType, in.s.ValueDelta)};
}

AnyDesc reverse_subsequences(const void* p) {
  STRIDED_IN(DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC);
  return ReverseSubsequencesDesc{in.t(in.s.InputTensor, "InputTensor"),
                                 in.t(in.s.SequenceLengthsTensor, "SequenceLengthsTensor"),
                                 in.t(in.s.OutputTensor, "OutputTensor"), in.s.Axis};
}

AnyDesc nonzero_coordinates(const void* p) {
  STRIDED_IN(DML_NONZERO_COORDINATES_OPERATOR_DESC);
  return NonzeroCoordinatesDesc{in.t(in.s.InputTensor, "InputTensor"),
                                in.t(in.s.OutputCountTensor, "OutputCountTensor"),
                                in.t(in.s.OutputCoordinatesTensor, "OutputCoordinatesTensor")};
}

AnyDesc slice_grad(const void* p) {
  STRIDED_IN(DML_SLICE_GRAD_OPERATOR_DESC);
  const std::uint32_t n = dim_count(in.s.DimensionCount, in.f("DimensionCount"));
  return SliceGradDesc{in.t(in.s.InputGradientTensor, "InputGradientTensor"),
                       in.t(in.s.OutputGradientTensor, "OutputGradientTensor"),
                       values(in.s.InputWindowOffsets, n, in.f("InputWindowOffsets")),
                       values(in.s.InputWindowSizes, n, in.f("InputWindowSizes")),
                       values(in.s.InputWindowStrides, n, in.f("InputWindowStrides"))};
}

AnyDesc unfold(const void* p) {
  STRIDED_IN(DML_UNFOLD_OPERATOR_DESC);
  const std::uint32_t n = dim_count(in.s.DimensionCount, in.f("DimensionCount"));
  return UnfoldDesc{in.t(in.s.InputTensor, "InputTensor"),
                    in.t(in.s.OutputTensor, "OutputTensor"),
                    values(in.s.WindowSizes, n, in.f("WindowSizes")),
                    values(in.s.Strides, n, in.f("Strides")),
                    values(in.s.Dilations, n, in.f("Dilations")),
                    values(in.s.StartPadding, n, in.f("StartPadding")),
                    values(in.s.EndPadding, n, in.f("EndPadding"))};
}

#undef STRIDED_IN

struct Entry {
  DML_OPERATOR_TYPE type;
  const char* struct_name;
  FeatureLevel introduced;   // DirectML's first level with this operator type
  AnyDesc (*convert)(const void*);
};

// Every operator of SPEC section 3, by DirectML's operator type.
constexpr Entry kConverters[] = {
    {DML_OPERATOR_ELEMENT_WISE_IDENTITY, "DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC", FeatureLevel::FL_1_0, identity},
    {DML_OPERATOR_SLICE, "DML_SLICE_OPERATOR_DESC", FeatureLevel::FL_1_0, slice},
    {DML_OPERATOR_CAST, "DML_CAST_OPERATOR_DESC", FeatureLevel::FL_1_0, cast},
    {DML_OPERATOR_SPLIT, "DML_SPLIT_OPERATOR_DESC", FeatureLevel::FL_1_0, split},
    {DML_OPERATOR_JOIN, "DML_JOIN_OPERATOR_DESC", FeatureLevel::FL_1_0, join},
    {DML_OPERATOR_PADDING, "DML_PADDING_OPERATOR_DESC", FeatureLevel::FL_1_0, padding},
    {DML_OPERATOR_GATHER, "DML_GATHER_OPERATOR_DESC", FeatureLevel::FL_1_0, gather},
    {DML_OPERATOR_SPACE_TO_DEPTH, "DML_SPACE_TO_DEPTH_OPERATOR_DESC", FeatureLevel::FL_1_0, space_to_depth},
    {DML_OPERATOR_DEPTH_TO_SPACE, "DML_DEPTH_TO_SPACE_OPERATOR_DESC", FeatureLevel::FL_1_0, depth_to_space},
    {DML_OPERATOR_TILE, "DML_TILE_OPERATOR_DESC", FeatureLevel::FL_1_0, tile},
    {DML_OPERATOR_MAX_UNPOOLING, "DML_MAX_UNPOOLING_OPERATOR_DESC", FeatureLevel::FL_2_0, max_unpooling},
    {DML_OPERATOR_DIAGONAL_MATRIX, "DML_DIAGONAL_MATRIX_OPERATOR_DESC", FeatureLevel::FL_2_0, diagonal_matrix},
    {DML_OPERATOR_SCATTER_ELEMENTS, "DML_SCATTER_OPERATOR_DESC", FeatureLevel::FL_2_0, scatter},
    {DML_OPERATOR_ONE_HOT, "DML_ONE_HOT_OPERATOR_DESC", FeatureLevel::FL_2_0, one_hot},
    {DML_OPERATOR_FILL_VALUE_CONSTANT, "DML_FILL_VALUE_CONSTANT_OPERATOR_DESC", FeatureLevel::FL_2_1,
     fill_value_constant},
    {DML_OPERATOR_FILL_VALUE_SEQUENCE, "DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC", FeatureLevel::FL_2_1,
     fill_value_sequence},
    {DML_OPERATOR_REVERSE_SUBSEQUENCES, "DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC", FeatureLevel::FL_2_1,
     reverse_subsequences},
    {DML_OPERATOR_GATHER_ELEMENTS, "DML_GATHER_ELEMENTS_OPERATOR_DESC", FeatureLevel::FL_2_1, gather_elements},
    {DML_OPERATOR_GATHER_ND, "DML_GATHER_ND_OPERATOR_DESC", FeatureLevel::FL_2_1, gather_nd},
    {DML_OPERATOR_SCATTER_ND, "DML_SCATTER_ND_OPERATOR_DESC", FeatureLevel::FL_2_1, scatter_nd},
    {DML_OPERATOR_SLICE1, "DML_SLICE1_OPERATOR_DESC", FeatureLevel::FL_2_1, slice1},
    {DML_OPERATOR_DEPTH_TO_SPACE1, "DML_DEPTH_TO_SPACE1_OPERATOR_DESC", FeatureLevel::FL_2_1, depth_to_space1},
    {DML_OPERATOR_SPACE_TO_DEPTH1, "DML_SPACE_TO_DEPTH1_OPERATOR_DESC", FeatureLevel::FL_2_1, space_to_depth1},
    {DML_OPERATOR_NONZERO_COORDINATES, "DML_NONZERO_COORDINATES_OPERATOR_DESC", FeatureLevel::FL_3_0,
     nonzero_coordinates},
    {DML_OPERATOR_SLICE_GRAD, "DML_SLICE_GRAD_OPERATOR_DESC", FeatureLevel::FL_3_0, slice_grad},
    {DML_OPERATOR_GATHER_ND1, "DML_GATHER_ND1_OPERATOR_DESC", FeatureLevel::FL_3_0, gather_nd1},
    {DML_OPERATOR_PADDING1, "DML_PADDING1_OPERATOR_DESC", FeatureLevel::FL_5_0, padding1},
    {DML_OPERATOR_DIAGONAL_MATRIX1, "DML_DIAGONAL_MATRIX1_OPERATOR_DESC", FeatureLevel::FL_5_1, diagonal_matrix1},
    {DML_OPERATOR_UNFOLD, "DML_UNFOLD_OPERATOR_DESC", FeatureLevel::FL_6_4, unfold},
};

}  // namespace

Converted convert(const DML_OPERATOR_DESC* op) {
  const DML_OPERATOR_DESC o = deref(op, "DML_OPERATOR_DESC");
  for (const Entry& e : kConverters) {
    if (e.type != o.Type) continue;
    if (o.Desc == nullptr) fail("DML_OPERATOR_DESC.Desc", std::string("must not be NULL (a ") + e.struct_name + ")");
    return {e.convert(o.Desc), e.introduced};
  }
  fail("DML_OPERATOR_DESC.Type", "unknown or unsupported operator type " + std::to_string(static_cast<int>(o.Type)) +
                                     " (strided runs DirectML's data-movement operators)");
}

}  // namespace strided::c_api
