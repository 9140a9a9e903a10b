// The view algebra: operators describe their data movement as views of their operands, made
// from the operand's own view by these small transforms (no loops, no copies).
#pragma once
#include <cstdint>
#include <vector>

#include "exec/program.hpp"

namespace strided::detail {

/// The part of `v` from `start` (count `n`) along `axis`.
inline View narrow(View v, int axis, std::int64_t start, std::int64_t n) {
  const auto a = static_cast<std::size_t>(axis);
  v.where.offset += start * v.strides[a];
  v.sizes[a] = n;
  return v;
}

/// Every `step`-th element of `v` from `start`, per dimension (steps may be negative: the walk
/// goes backwards from `start`), `sizes` elements long. A dimension of one element gets stride 0,
/// so a step of any size cannot overflow its product.
inline View subsample(View v, const std::vector<std::int64_t>& start, const std::vector<std::int64_t>& step,
                      const std::vector<std::int64_t>& sizes) {
  for (std::size_t i = 0; i < v.sizes.size(); ++i) {
    v.where.offset += start[i] * v.strides[i];
    v.strides[i] = sizes[i] == 1 ? 0 : v.strides[i] * step[i];
  }
  v.sizes = sizes;
  return v;
}

/// `v` with leading size-1 dimensions added or removed so it has `rank` dimensions; false when
/// a removed leading dimension is not of size 1.
bool align_right(View& v, int rank);

}  // namespace strided::detail
