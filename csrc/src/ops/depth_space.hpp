// What SpaceToDepth and DepthToSpace (ops/space_to_depth.cpp, ops/depth_to_space.cpp) share:
// their level tables, the rules on the fields they have in common, the two views that make
// either operator one copy, and the C++ array functions' argument checks. SPEC 3.8:
//   b = block_size; depth tensor {N, C*b*b, H, W} <-> space tensor {N, C, H*b, W*b}
//   space[n, c, h*b + bh, w*b + bw] = depth[n, d, h, w]
//     DCR: d = (bh*b + bw)*C + c          CRD: d = (c*b + bh)*b + bw
// Both tensors are viewed as 6-d (n, c, h, bh, w, bw): the space tensor by splitting H*b and W*b,
// the depth tensor by splitting its channels by the order and permuting. One copy step moves it.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "exec/call.hpp"
#include "ops/op.hpp"
#include "util/checked.hpp"
#include "view/view.hpp"

namespace strided::detail::depth_space {

// SPEC 4: the plain structs (DCR only) from 1_0, the *1 structs (both orders) from 2_1; the same
// rows from 2_1 on.
constexpr std::array<LevelRow, 3> kTable{{{FeatureLevel::FL_1_0, 4, 4, kFloat32Float16},
                                          {FeatureLevel::FL_2_1, 4, 4, kEightTypes},
                                          {FeatureLevel::FL_5_0, 4, 4, kAllTypes}}};
constexpr std::array<LevelRow, 2> kTable1{
    {{FeatureLevel::FL_2_1, 4, 4, kEightTypes}, {FeatureLevel::FL_5_0, 4, 4, kAllTypes}}};

template <class T>
std::string s(T v) {
  return std::to_string(v);
}

/// The rules on the fields both descriptions have: 4 dimensions each, one dtype, block_size >= 1,
/// a known order.
template <class D>
void check_fields(const Rules& r, const D& d) {
  if (d.input.ndim() != 4) r.fail("input.sizes", "must have 4 dimensions (N, C, H, W), got " + s(d.input.ndim()));
  if (d.output.ndim() != 4) r.fail("output.sizes", "must have 4 dimensions (N, C, H, W), got " + s(d.output.ndim()));
  r.same_dtype("output", d.output, "input", d.input);
  if (d.block_size < 1) r.fail("block_size", "must be at least 1, got " + s(d.block_size));
  const auto o = static_cast<std::uint32_t>(d.order);
  if (o > 1) r.fail("order", "unknown order " + s(o) + " (expected DEPTH_COLUMN_ROW = 0 or COLUMN_ROW_DEPTH = 1)");
}

/// The level table of the struct the description can be: DCR the plain one (from 1_0), CRD the *1
/// struct `struct1` (from 2_1). A block size beyond DirectML's UINT needs no rule of its own: it
/// makes a channel count or a side at least 2^32, over DirectML's element limit.
template <class D>
void check_levels(const Rules& r, const D& d, const char* struct1) {
  const std::vector<Rules::Named> tensors{{"input", &d.input, false}, {"output", &d.output, false}};
  if (d.order == DepthSpaceOrder::COLUMN_ROW_DEPTH)
    r.level_rules(kTable1, tensors, "order", std::string("COLUMN_ROW_DEPTH (CRD) needs ") + struct1 + " of");
  else r.level_rules(kTable, tensors);
}

/// The space tensor {N, C, H*b, W*b} as (n, c, h, bh, w, bw).
inline View space_6d(const View& space, std::int64_t b) { return split_dim(split_dim(space, 3, b), 2, b); }

/// The depth tensor {N, C*b*b, H, W} as (n, c, h, bh, w, bw) for `order`.
inline View depth_6d(const View& depth, std::int64_t b, DepthSpaceOrder order) {
  const std::int64_t c = depth.sizes[1] / (b * b);  // validated: b*b divides the channels
  if (order == DepthSpaceOrder::COLUMN_ROW_DEPTH)  // channels (c, bh, bw): n c bh bw h w
    return permute(split_dim(split_dim(depth, 1, b * b), 2, b), {0, 1, 4, 2, 5, 3});
  return permute(split_dim(split_dim(depth, 1, b * c), 2, c), {0, 3, 4, 1, 5, 2});  // (bh, bw, c): n bh bw c h w
}

/// The order of a functional call's parameter; ValidationError naming `field` unless 0 or 1.
inline DepthSpaceOrder order_code(std::int64_t v, const char* field) {
  if (v != 0 && v != 1) throw ValidationError(std::string(field) + ": unknown order code " + s(v));
  return static_cast<DepthSpaceOrder>(v);
}

/// The C++ array function of either operator: checks x (4-d), block_size and order, the divisibility
/// the operator needs, out's shape and dtype (ValidationError, nothing written), then runs it unless
/// empty. `to_space`: DepthToSpace (x is the depth tensor).
inline void array_call(int code, const char* desc, bool to_space, const ConstArrayView& x, const ArrayView& out,
                       std::int64_t b, DepthSpaceOrder order) {
  const CallArray a = call_array(x, "x"), o = call_array(out, "out");
  const std::string d(desc);
  if (a.ndim != 4) throw ValidationError("x: must have 4 dimensions (N, C, H, W), got " + s(a.ndim));
  if (b < 1) throw ValidationError(d + ".block_size: must be at least 1, got " + s(b));
  const auto oc = static_cast<std::uint32_t>(order);
  if (oc > 1)
    throw ValidationError(d + ".order: unknown order " + s(oc) +
                          " (expected DEPTH_COLUMN_ROW = 0 or COLUMN_ROW_DEPTH = 1)");
  const auto ub = static_cast<std::uint64_t>(b);
  std::uint64_t bb = 0;
  const bool bb_fits = checked_mul(ub, ub, bb) && bb <= static_cast<std::uint64_t>(INT64_MAX);
  std::vector<std::int64_t> shape(a.shape, a.shape + 4);
  if (to_space) {
    if (!bb_fits || static_cast<std::uint64_t>(a.shape[1]) % bb != 0)
      throw ValidationError("x.shape[1]: must be divisible by block_size * block_size = " +
                            (bb_fits ? s(bb) : std::string("(over 64 bits)")) + ", got " + s(a.shape[1]));
    shape[1] = a.shape[1] / static_cast<std::int64_t>(bb);
    for (std::size_t i = 2; i < 4; ++i) {
      std::uint64_t m = 0;
      if (!checked_mul(static_cast<std::uint64_t>(a.shape[i]), ub, m) || m > static_cast<std::uint64_t>(INT64_MAX))
        throw ValidationError("x.shape[" + s(i) + "] * block_size does not fit in 64 bits");
      shape[i] = static_cast<std::int64_t>(m);
    }
  } else {
    for (std::size_t i = 2; i < 4; ++i) {
      if (a.shape[i] % b != 0)
        throw ValidationError("x.shape[" + s(i) + "]: must be divisible by block_size (" + s(b) + "), got " +
                              s(a.shape[i]));
      shape[i] = a.shape[i] / b;
    }
    std::uint64_t m = 0;
    if (!bb_fits || !checked_mul(static_cast<std::uint64_t>(a.shape[1]), bb, m) ||
        m > static_cast<std::uint64_t>(INT64_MAX))
      throw ValidationError("x.shape[1] * block_size * block_size does not fit in 64 bits");
    shape[1] = static_cast<std::int64_t>(m);
  }
  expect_shape(o, shape, "out");
  if (o.dtype != a.dtype)
    throw ValidationError("out.dtype: must equal x.dtype (" + std::string(dtype_enum_name(a.dtype)) + "), got " +
                          std::string(dtype_enum_name(o.dtype)));
  if (is_empty(o)) return;
  const std::int64_t prm[2] = {b, static_cast<std::int64_t>(oc)};
  call(code, prm, 2, &a, 1, &o, 1);
}

}  // namespace strided::detail::depth_space
