// strided: the ten DirectML data-movement operator descriptions (SPEC.md section 3), with
// validation against DirectML's rules and feature levels (SPEC.md section 4).
#pragma once
#include "strided/config.hpp"  // C++17 check first
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "strided/feature_level.hpp"
#include "strided/tensor_desc.hpp"

namespace strided {

/// DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC: out[c] = in[c].
struct IdentityDesc {
  TensorDesc input;
  TensorDesc output;
};

/// DML_SPLIT_OPERATOR_DESC: output k gets the input's range along `axis`.
struct SplitDesc {
  TensorDesc input;
  std::vector<TensorDesc> outputs;
  std::int64_t axis;
};

/// DML_JOIN_OPERATOR_DESC: inputs concatenated along `axis`.
struct JoinDesc {
  std::vector<TensorDesc> inputs;
  TensorDesc output;
  std::int64_t axis;
};

/// DML_SLICE_OPERATOR_DESC: out[c] = in[offsets + strides*c]; sizes == output sizes.
struct SliceDesc {
  TensorDesc input;
  TensorDesc output;
  std::vector<std::int64_t> offsets;
  std::vector<std::int64_t> sizes;
  std::vector<std::int64_t> strides;  // unsigned in DirectML: each >= 1
};

/// DML_SLICE1_OPERATOR_DESC: window offsets/sizes, signed non-zero strides.
struct Slice1Desc {
  TensorDesc input;
  TensorDesc output;
  std::vector<std::int64_t> offsets;  // InputWindowOffsets
  std::vector<std::int64_t> sizes;    // InputWindowSizes
  std::vector<std::int64_t> strides;  // InputWindowStrides
};

/// DML_GATHER_OPERATOR_DESC (numpy take / ONNX Gather).
struct GatherDesc {
  TensorDesc input;
  TensorDesc indices;
  TensorDesc output;
  std::int64_t axis;
  std::int64_t index_dimensions;
};

/// DML_GATHER_ELEMENTS_OPERATOR_DESC (ONNX GatherElements). As ONNX, `indices` may be smaller than
/// `input` off the axis (no broadcasting); such a description executes, but DirectML requires equal
/// sizes there, so no feature level accepts it.
struct GatherElementsDesc {
  TensorDesc input;
  TensorDesc indices;
  TensorDesc output;
  std::int64_t axis;
};

/// DML_GATHER_ND_OPERATOR_DESC (batch 0) / DML_GATHER_ND1_OPERATOR_DESC (batch > 0).
struct GatherNDDesc {
  TensorDesc input;
  TensorDesc indices;
  TensorDesc output;
  std::int64_t input_dimension_count;
  std::int64_t indices_dimension_count;
  std::int64_t batch_dimension_count = 0;
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
};

/// Any one description.
using AnyDesc = std::variant<IdentityDesc, SplitDesc, JoinDesc, SliceDesc, Slice1Desc, GatherDesc,
                             GatherElementsDesc, GatherNDDesc, ScatterDesc, ScatterNDDesc>;

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
