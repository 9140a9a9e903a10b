// strided: the functional API in C++ (the same functions as Python's sd.copy, sd.split, ...).
// Each call validates its arrays the first time a (operator, parameters, dtypes, shapes,
// strides) combination is seen, plans it once and keeps the plan in the library's thread-safe
// cache; later calls of the same shape only run. The caller owns every array, outputs included.
#pragma once
#include "strided/config.hpp"  // C++17 check first
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "strided/dtype.hpp"
#include "strided/ops.hpp"

namespace strided {

/// A read-only strided array: element type, the address of element (0, ..., 0), sizes and BYTE
/// strides (any sign; 0 repeats an element). 0 to 8 dimensions; a size may be 0.
struct ConstArrayView {
  DataType dtype = DataType::UNKNOWN;
  const void* data = nullptr;
  std::vector<std::int64_t> sizes;
  std::vector<std::int64_t> strides;
};

/// A writable strided array. Its elements must not overlap each other (except that copy-family
/// functions accept stride 0: the last coordinate is written), and no two outputs of a call may
/// share memory (BufferError).
struct ArrayView {
  DataType dtype = DataType::UNKNOWN;
  void* data = nullptr;
  std::vector<std::int64_t> sizes;
  std::vector<std::int64_t> strides;
  operator ConstArrayView() const { return {dtype, data, sizes, strides}; }  // NOLINT: an output reads as an input
};

/// Identity: out = src, with src broadcast to out's sizes by numpy's rules (np.copyto).
void copy(const ConstArrayView& src, const ArrayView& out);
/// numpy.flip materialised: out = x reversed along each of `axes` (negative from the end; a repeated
/// or out-of-range axis: ValidationError "flip.axes[i]: ..."); out has x's sizes, any strides.
void flip(const ConstArrayView& x, const ArrayView& out, const std::vector<std::int64_t>& axes);
/// The array API's permute_dims (numpy.transpose materialised): out.sizes[i] = x.sizes[axes[i]],
/// out[c] = x[c permuted]; `axes` a permutation of x's dimensions (negative from the end).
/// numpy.broadcast_to materialised is copy(); the array API's concat is join().
void permute_dims(const ConstArrayView& x, const ArrayView& out, const std::vector<std::int64_t>& axes);
/// Split: outs[k] gets x's range along `axis` (negative from the end); their sizes along it sum to x's.
void split(const ConstArrayView& x, const std::vector<ArrayView>& outs, std::int64_t axis);
/// Join: xs concatenated along `axis` (negative from the end) into out (numpy.concatenate).
void join(const std::vector<ConstArrayView>& xs, const ArrayView& out, std::int64_t axis);
/// Slice1: out[c] = x[window offset + c * stride], signed non-zero strides (a negative stride
/// walks the window from its far end); out's sizes at most 1 + (sizes - 1) / |strides|.
void slice(const ConstArrayView& x, const ArrayView& out, const std::vector<std::int64_t>& offsets,
           const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& strides);
/// Gather (numpy take): out has sizes x[:axis] + indices + x[axis+1:].
void gather(const ConstArrayView& x, const ConstArrayView& indices, const ArrayView& out, std::int64_t axis);
/// GatherElements: out[c] = x[c with c[axis] = indices[c]]; out has indices' sizes.
void gather_elements(const ConstArrayView& x, const ConstArrayView& indices, const ArrayView& out, std::int64_t axis);
/// GatherND with `batch_dims` leading batch dimensions.
void gather_nd(const ConstArrayView& x, const ConstArrayView& indices, const ArrayView& out,
               std::int64_t batch_dims = 0);
/// ScatterElements: out = x, then out[c with c[axis] = indices[c]] (op)= updates[c] in row-major
/// order. `out` may be `x` itself (in place).
void scatter(const ConstArrayView& x, const ConstArrayView& indices, const ConstArrayView& updates,
             const ArrayView& out, std::int64_t axis, ScatterReduction reduction = ScatterReduction::NONE);
/// ScatterND: out = x, then out[indices[t]] (op)= updates[t] in row-major order of t.
void scatter_nd(const ConstArrayView& x, const ConstArrayView& indices, const ConstArrayView& updates,
                const ArrayView& out, ScatterReduction reduction = ScatterReduction::NONE);

/// Cast: out = x converted to out's dtype by SPEC 3.5's rules (same sizes).
void cast(const ConstArrayView& x, const ArrayView& out);
/// Tile: out[c] = x[c mod x.sizes], out.sizes[i] = x.sizes[i] * repeats[i]; one repeat (>= 1) per
/// dimension of x (none for a 0-d x: a copy). ValidationError "TileDesc.repeats[i]: ..." for a bad
/// repeat, "out: expected shape ..." for an out of the wrong shape; nothing is written then.
void tile(const ConstArrayView& x, const ArrayView& out, const std::vector<std::int64_t>& repeats);
/// Padding1 (SPEC 3.6): out.shape[i] = x.shape[i] + start[i] + end[i] (one non-negative count per
/// dimension of x, none for a 0-d x), out[c] = x[c - start] inside; outside `value` (CONSTANT,
/// converted to x's dtype by the Cast rules) or the element EDGE, REFLECTION, SYMMETRIC or WRAP maps
/// it to (numpy.pad's modes; pads wider than x fold periodically). ValidationError
/// "PaddingDesc.<field>[i]: ..." for a wrong count or a negative pad, "out: ..." for an out of the
/// wrong shape or dtype, and for a non-constant mode that pads a dimension of size 0; nothing is
/// written then.
void pad(const ConstArrayView& x, const ArrayView& out, const std::vector<std::int64_t>& start,
         const std::vector<std::int64_t>& end, PaddingMode mode = PaddingMode::CONSTANT,
         const Scalar& value = Scalar::from_int(DataType::INT64, 0));
/// DepthToSpace (SPEC 3.8): x {N, C*b*b, H, W} -> out {N, C, H*b, W*b}, b = block_size (>= 1),
/// out[n, c, h*b + bh, w*b + bw] = x[n, d, h, w] with d = (bh*b + bw)*C + c (DCR, ONNX's default)
/// or (c*b + bh)*b + bw (CRD, torch pixel_shuffle). ValidationError for an x that is not 4-d, a
/// block size below 1, channels not divisible by b*b, or an out of the wrong shape or dtype;
/// nothing is written then.
void depth_to_space(const ConstArrayView& x, const ArrayView& out, std::int64_t block_size,
                    DepthSpaceOrder order = DepthSpaceOrder::DEPTH_COLUMN_ROW);
/// SpaceToDepth (SPEC 3.8), DepthToSpace's inverse: x {N, C, H*b, W*b} -> out {N, C*b*b, H, W}
/// (CRD: torch pixel_unshuffle). ValidationError as depth_to_space (H and W must be divisible by b).
void space_to_depth(const ConstArrayView& x, const ArrayView& out, std::int64_t block_size,
                    DepthSpaceOrder order = DepthSpaceOrder::DEPTH_COLUMN_ROW);
/// FillValueConstant: every element of out set to `value`, converted to out's dtype by the Cast
/// rules (numpy.full, ONNX ConstantOfShape).
void full(const ArrayView& out, const Scalar& value);
/// NonzeroCoordinates as numpy.argwhere (SPEC 3.14.1): the coordinates of x's non-zero elements
/// in row-major order (+0.0 and -0.0 are zero, NaN is not). x is read once; then `allocate(K)`
/// is called once with the count K and returns the [K, x's ndim] result (any integer dtype that
/// holds x's largest coordinate, any strides), which receives the coordinates. Returns K.
/// ValidationError for a result of the wrong shape or dtype (nothing is written to it then).
std::int64_t argwhere(const ConstArrayView& x, const std::function<ArrayView(std::int64_t)>& allocate);
/// The same as a new row-major K x ndim vector of int64.
std::vector<std::int64_t> argwhere(const ConstArrayView& x);

/// MaxUnpooling (SPEC 3.14.2, ONNX MaxUnpool): out = 0, then out[p] = x[c] for p = indices[c], a
/// row-major position over all of out (any shape; torch's max_pool2d indices count per N, C
/// plane instead). indices: x's shape, INT32/INT64/UINT32/UINT64, each in [-M, M), M = out's
/// element count, else IndexError naming the first bad one; duplicates: the last in row-major
/// order wins. ValidationError for a wrong shape or dtype; nothing is written on any error.
void max_unpool(const ConstArrayView& x, const ConstArrayView& indices, const ArrayView& out);
/// Unfold (SPEC 3.14.3, im2col, torch nn.functional.unfold): x {N, C, S_0..S_{D-1}} (D 1 to 6)
/// -> out {N, C*prod(window_sizes), L}, L = prod over d of (S_d + start_d + end_d - dilation_d *
/// (window_d - 1) - 1) / stride_d + 1, zero padding; one value per spatial dimension in each
/// array (windows, strides and dilations >= 1, paddings >= 0). ValidationError
/// "UnfoldDesc.<field>[i]: ..." for a bad value or a dilated window larger than the padded input,
/// "out: expected shape ..." for a wrong out; nothing is written then.
void unfold(const ConstArrayView& x, const ArrayView& out, const std::vector<std::int64_t>& window_sizes,
            const std::vector<std::int64_t>& strides, const std::vector<std::int64_t>& dilations,
            const std::vector<std::int64_t>& start_padding, const std::vector<std::int64_t>& end_padding);
/// FillValueSequence: out[c] = start + k * delta, k = c's row-major index (not its memory order);
/// start and delta converted to out's dtype by the Cast rules. Integers wrap modulo 2^bits;
/// floats are computed in binary64 (product, then sum) and rounded once (numpy.arange).
void fill_sequence(const ArrayView& out, const Scalar& start, const Scalar& delta);
/// DiagonalMatrix1 over out's last two dimensions (earlier ones are batches; out needs at least
/// 2): with t = column - row, out = value (converted to out's dtype) where begin <= t < end (all
/// but end <= t < begin when begin > end), else `input` (out's dtype and shape; may be out
/// itself) or 0. begin and end are 32-bit signed (ValidationError otherwise).
void diagonal_fill(const ArrayView& out, std::int64_t begin, std::int64_t end, const Scalar& value,
                   const ConstArrayView* input = nullptr);
/// DiagonalMatrix: `value` on diagonal k (column - row = k; any k) of every matrix of out
/// (numpy.eye), 0 elsewhere. out needs at least 2 dimensions.
void eye(const ArrayView& out, std::int64_t k = 0, const Scalar& value = Scalar::from_int(DataType::INT64, 1));
/// numpy triu / tril, ONNX Trilu (upper = triu): x with the elements below diagonal k (triu) or
/// above it (tril) set to 0, over the last two dimensions. out has x's dtype and shape (may be x).
void triu(const ConstArrayView& x, const ArrayView& out, std::int64_t k = 0);
void tril(const ConstArrayView& x, const ArrayView& out, std::int64_t k = 0);
void trilu(const ConstArrayView& x, const ArrayView& out, std::int64_t k = 0, bool upper = true);
/// OneHot in ONNX's form (SPEC 3.9): out has one dimension more than indices, inserted at `axis`
/// (in [-(r+1), r], r = indices' dimension count) with out's size there the depth;
/// out[c] = values[1] where c[axis] is indices[c without the axis] (negative: counted from the
/// end), values[0] elsewhere, so an index outside [-depth, depth) gives an all-off sequence.
/// values: shape (2,) [off, on] of out's dtype; indices INT32, INT64, UINT32 or UINT64.
void one_hot(const ConstArrayView& indices, const ConstArrayView& values, const ArrayView& out, std::int64_t axis = -1);
/// ReverseSubsequences (SPEC 3.10): along `axis`, the first L = min(length, size) elements of each
/// sequence reversed and the rest copied; lengths (UINT32/UINT64/INT32/INT64) broadcast by numpy's
/// rules to x's sizes with 1 at the axis. IndexError for a negative length (nothing written).
void reverse_subsequences(const ConstArrayView& x, const ConstArrayView& lengths, const ArrayView& out,
                          std::int64_t axis);
/// SliceGrad (SPEC 3.11), slice's adjoint: out = 0, then the window of slice(out, offsets, sizes,
/// strides) = grad (grad's sizes at most 1 + (sizes - 1) / |strides|; an empty grad zeroes out).
void slice_grad(const ConstArrayView& grad, const ArrayView& out, const std::vector<std::int64_t>& offsets,
                const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& strides);

/// Drops every cached plan (they are rebuilt on the next call).
void clear_plan_cache();
/// Plans in the cache.
std::size_t plan_cache_size();

}  // namespace strided
