// Internals shared by the strided::xla translation units.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "strided/xla.hpp"

namespace strided::xla::detail {

/// ValidationError "<field>[i]: ..." unless `p` is a permutation of 0..p.size()-1.
void check_permutation(const std::vector<std::int64_t>& p, const std::string& field);
/// Product of non-negative extents (0 if any is 0); ValidationError beyond 63 bits.
std::uint64_t checked_product(const std::vector<std::int64_t>& v);
/// Shape::validate with the error messages prefixed by `name` ("relayout.src_shape").
void validate_shape(const Shape& s, const std::string& name);
/// Physical strides in elements of a VALIDATED shape.
std::vector<std::int64_t> strides_of(const Shape& s);

}  // namespace strided::xla::detail
