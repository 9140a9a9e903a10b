// The view algebra: an operator describes its data movement as views of its operands, made from
// the operand's own view by these small transforms (no loops, no copies). Every transform keeps
// the element type and the operand; sizes and byte strides change. Callers pass arguments the
// operator's validation has already checked (axes in range, sizes that divide).
#pragma once
#include <cstdint>
#include <vector>

#include "exec/program.hpp"

namespace strided::detail {

/// The part of `v` from `start` (count `n`) along `axis`.
View narrow(View v, int axis, std::int64_t start, std::int64_t n);

/// Every `step`-th element of `v` from `start`, per dimension (steps may be negative: the walk
/// goes backwards from `start`), `sizes` elements long. A dimension of one element gets stride 0,
/// so a step of any size cannot overflow its product.
View subsample(View v, const std::vector<std::int64_t>& start, const std::vector<std::int64_t>& step,
               const std::vector<std::int64_t>& sizes);

/// `v` read backwards along `axis`.
View flip(View v, int axis);

/// Dimensions reordered: result dimension i is v's dimension order[i] (numpy.transpose).
View permute(const View& v, const std::vector<int>& order);

/// `v` repeated to `sizes` (numpy.broadcast_to): dimensions are right-aligned, and a size-1 or
/// missing dimension of v gets stride 0.
View broadcast(const View& v, const std::vector<std::int64_t>& sizes);

/// Dimension `axis` of size a*b split into (a, b) with `inner` = b (row-major: the index i
/// becomes (i / b, i % b)).
View split_dim(View v, int axis, std::int64_t inner);

/// Dimensions axis and axis+1 merged into one; they must be contiguous with each other
/// (stride[axis] == size[axis+1] * stride[axis+1]) or one of them of size 1.
View merge(View v, int axis);

/// The diagonal of dimensions a and b (equal sizes), offset `k` (k > 0: above, along b):
/// dimension a becomes the diagonal and b disappears.
View diagonal(View v, int a, int b, std::int64_t k);

/// Sliding windows along `axis` (Unfold): a new innermost dimension of `size` elements spaced
/// `dilation` apart, the windows starting every `step` elements; the axis becomes the window
/// count 1 + (n - ((size - 1) * dilation + 1)) / step.
View windows(View v, int axis, std::int64_t size, std::int64_t step, std::int64_t dilation);

/// `v` with leading size-1 dimensions added or removed so it has `rank` dimensions; false when
/// a removed leading dimension is not of size 1.
bool align_right(View& v, int rank);

}  // namespace strided::detail
