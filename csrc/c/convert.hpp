// strided's C layer: DirectML's operator structs (strided/directml.h) turned into the C++
// descriptions (strided/ops.hpp). One converter per DML_OPERATOR_TYPE, in a table (convert.cpp).
#pragma once
#include <strided/directml.h>

#include <strided/feature_level.hpp>
#include <strided/ops.hpp>

namespace strided::c_api {

/// The C++ description of `op`, and the feature level at which DirectML introduced `op->Type`
/// (a plain struct and its *1 successor can be one C++ description: SpaceToDepth and
/// SpaceToDepth1 are both SpaceToDepthDesc, but DirectML accepts the *1 struct only from 2_1).
struct Converted {
  AnyDesc desc;
  FeatureLevel introduced;
};

/// Throws ValidationError naming the C struct's field ("DML_SLICE1_OPERATOR_DESC.InputTensor->
/// Desc->Sizes: must not be NULL") for malformed input: NULL pointers, an unknown or unsupported
/// operator type, a DimensionCount over 8, a wrong tensor Type, a non-NULL ScaleBias. Reads no
/// array before its count has been checked.
Converted convert(const DML_OPERATOR_DESC* op);

}  // namespace strided::c_api
