// The C++ functional API (strided/array.hpp) against plain reference loops: every function on
// strided views (negative, zero and padded strides), the plan cache, in-place scatter, empty
// arrays, and misuse giving typed errors with nothing written.
#include <cstdint>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "check.hpp"
#include "strided/array.hpp"
#include "strided/error.hpp"

using namespace strided;

namespace {

constexpr std::int64_t F = sizeof(float);

ConstArrayView in(const std::vector<float>& v, std::vector<std::int64_t> sizes, std::vector<std::int64_t> strides,
                  std::int64_t offset = 0) {
  return {DataType::FLOAT32, v.data() + offset, std::move(sizes), std::move(strides)};
}
ArrayView out(std::vector<float>& v, std::vector<std::int64_t> sizes, std::vector<std::int64_t> strides) {
  return {DataType::FLOAT32, v.data(), std::move(sizes), std::move(strides)};
}
std::vector<float> iota(std::size_t n) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), 0.0f);
  return v;
}

void copy_broadcast_and_reverse() {
  // src: a row of 4 read backwards (negative stride), broadcast over 3 rows.
  const std::vector<float> s = iota(4);
  std::vector<float> o(12, -1);
  copy(in(s, {4}, {-F}, 3), out(o, {3, 4}, {4 * F, F}));
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) CHECK_EQ(o[static_cast<std::size_t>(r * 4 + c)], static_cast<float>(3 - c));
  std::vector<float> o2(12, -1);
  CHECK_THROWS(copy(in(s, {4}, {F}), out(o2, {3, 5}, {5 * F, F})), ValidationError, "does not broadcast");
  CHECK(o2 == std::vector<float>(12, -1));
}

void split_join_roundtrip() {
  const std::vector<float> x = iota(24);  // 4 x 6, columns split 1 + 2 + 3
  std::vector<float> a(4), b(8), c(12);
  std::vector<ArrayView> parts{out(a, {4, 1}, {F, F}), out(b, {4, 2}, {2 * F, F}), out(c, {4, 3}, {3 * F, F})};
  split(in(x, {4, 6}, {6 * F, F}), parts, -1);
  for (int r = 0; r < 4; ++r) {
    CHECK_EQ(a[static_cast<std::size_t>(r)], x[static_cast<std::size_t>(r * 6)]);
    CHECK_EQ(b[static_cast<std::size_t>(r * 2 + 1)], x[static_cast<std::size_t>(r * 6 + 2)]);
    CHECK_EQ(c[static_cast<std::size_t>(r * 3 + 2)], x[static_cast<std::size_t>(r * 6 + 5)]);
  }
  std::vector<float> y(24, -1);
  join({in(a, {4, 1}, {F, F}), in(b, {4, 2}, {2 * F, F}), in(c, {4, 3}, {3 * F, F})}, out(y, {4, 6}, {6 * F, F}), 1);
  CHECK(y == x);
  std::vector<float> z(24, -1);
  CHECK_THROWS(join({in(a, {4, 1}, {F, F})}, out(z, {4, 6}, {6 * F, F}), 1), ValidationError, "sum to 1");
  CHECK(z == std::vector<float>(24, -1));
}

void slice_negative_stride() {
  const std::vector<float> x = iota(10);
  std::vector<float> o(3, -1);
  slice(in(x, {10}, {F}), out(o, {3}, {F}), {1}, {7}, {-3});  // window [1, 8) read from 7 down by 3
  CHECK(o == (std::vector<float>{7, 4, 1}));
  CHECK_THROWS(slice(in(x, {10}, {F}), out(o, {3}, {F}), {1}, {7}, {0}), ValidationError, "strides[0]");
}

void index_functions() {
  const std::vector<float> x = iota(12);  // 3 x 4
  const std::vector<std::int64_t> idx{2, -1, 0};
  const ConstArrayView iv{DataType::INT64, idx.data(), {3}, {8}};
  std::vector<float> g(12, -1);  // take rows 2, 2, 0 of x
  gather(in(x, {3, 4}, {4 * F, F}), iv, out(g, {3, 4}, {4 * F, F}), 0);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c)
      CHECK_EQ(g[static_cast<std::size_t>(r * 4 + c)], x[static_cast<std::size_t>((r == 2 ? 0 : 2) * 4 + c)]);
  // gather_elements along the last axis, indices (3, 1)
  std::vector<float> ge(3, -1);
  gather_elements(in(x, {3, 4}, {4 * F, F}), ConstArrayView{DataType::INT64, idx.data(), {3, 1}, {8, 8}},
                  out(ge, {3, 1}, {F, F}), 1);
  CHECK(ge == (std::vector<float>{2, 7, 8}));
  // gather_nd: points (2, 1) and (0, 3)
  const std::vector<std::int32_t> pts{2, 1, 0, 3};
  std::vector<float> gn(2, -1);
  gather_nd(in(x, {3, 4}, {4 * F, F}), ConstArrayView{DataType::INT32, pts.data(), {2, 2}, {8, 4}}, out(gn, {2}, {F}));
  CHECK(gn == (std::vector<float>{9, 3}));
  // scatter_nd in place with ADD and a duplicate point
  std::vector<float> y = x;
  const std::vector<std::int32_t> dup{1, 1, 1, 1};
  const std::vector<float> upd{10, 20};
  scatter_nd(in(y, {3, 4}, {4 * F, F}), ConstArrayView{DataType::INT32, dup.data(), {2, 2}, {8, 4}}, in(upd, {2}, {F}),
             out(y, {3, 4}, {4 * F, F}), ScatterReduction::ADD);
  CHECK_EQ(y[5], 5.0f + 30.0f);
  CHECK_EQ(y[4], 4.0f);
  // scatter along axis 0: column 0 of rows idx -> the last duplicate wins
  std::vector<float> s(12, -1);
  const std::vector<std::int64_t> rows{1, 1};
  scatter(in(x, {3, 4}, {4 * F, F}), ConstArrayView{DataType::INT64, rows.data(), {2, 1}, {8, 8}},
          in(upd, {2, 1}, {F, F}), out(s, {3, 4}, {4 * F, F}), 0);
  CHECK_EQ(s[4], 20.0f);
  CHECK_EQ(s[5], 5.0f);
}

void index_errors_write_nothing() {
  const std::vector<float> x = iota(12);
  const std::vector<std::int64_t> bad{0, 3};
  std::vector<float> g(8, -1);
  CHECK_THROWS(gather(in(x, {3, 4}, {4 * F, F}), ConstArrayView{DataType::INT64, bad.data(), {2}, {8}},
                      out(g, {2, 4}, {4 * F, F}), 0),
               IndexError, "gather.indices[1] = 3: out of range [-3, 3) for axis 0");
  CHECK(g == std::vector<float>(8, -1));
  CHECK_THROWS(gather(in(x, {3, 4}, {4 * F, F}), ConstArrayView{DataType::INT64, bad.data(), {2}, {8}},
                      out(g, {4, 2}, {2 * F, F}), 0),
               ValidationError, "expected shape (2, 4)");
  CHECK_THROWS(gather(in(x, {3, 4}, {4 * F, F}), ConstArrayView{DataType::FLOAT32, x.data(), {2}, {4}},
                      out(g, {2, 4}, {4 * F, F}), 0),
               ValidationError, "indices");
  // Two outputs of a split sharing memory.
  std::vector<float> o(6, -1);
  CHECK_THROWS(split(in(x, {2, 6}, {6 * F, F}), {out(o, {1, 6}, {6 * F, F}), out(o, {1, 6}, {6 * F, F})}, 0),
               BufferError, "outputs[0] and outputs[1]");
}

void empty_arrays() {
  const std::vector<float> x = iota(12);
  std::vector<float> o(12, -1);
  // No indices: a scatter is a copy of x.
  const std::vector<std::int64_t> none;
  scatter(in(x, {3, 4}, {4 * F, F}), ConstArrayView{DataType::INT64, none.data(), {0, 4}, {32, 8}},
          in(x, {0, 4}, {4 * F, F}), out(o, {3, 4}, {4 * F, F}), 0);
  CHECK(o == x);
  // A gather of no indices writes nothing, and still checks the result's shape.
  std::vector<float> g(4, -1);
  gather(in(x, {3, 4}, {4 * F, F}), ConstArrayView{DataType::INT64, none.data(), {0}, {8}}, out(g, {0, 4}, {4 * F, F}),
         0);
  CHECK_THROWS(gather(in(x, {3, 4}, {4 * F, F}), ConstArrayView{DataType::INT64, none.data(), {0}, {8}},
                      out(g, {4, 0}, {0, F}), 0),
               ValidationError, "expected shape (0, 4)");
  // Rows of an empty axis cannot be taken.
  const std::vector<std::int64_t> zero{0};
  CHECK_THROWS(gather(in(x, {0, 4}, {4 * F, F}), ConstArrayView{DataType::INT64, zero.data(), {1}, {8}},
                      out(g, {1, 4}, {4 * F, F}), 0),
               IndexError, "empty axis");
}

void cast_rules() {
  // SPEC 3.5's vectors through the C++ function, read with a negative stride.
  const std::vector<float> x{2.7f, -2.5f, 3e9f, -1.0f};
  std::vector<std::int32_t> i(4, 7);
  cast(in(x, {4}, {-F}, 3), ArrayView{DataType::INT32, i.data(), {4}, {4}});
  CHECK(i == (std::vector<std::int32_t>{-1, 2147483647, -2, 2}));
  std::vector<std::uint8_t> u(4, 7);
  cast(in(x, {4}, {F}), ArrayView{DataType::UINT8, u.data(), {4}, {1}});
  CHECK(u == (std::vector<std::uint8_t>{2, 0, 255, 0}));
  CHECK_THROWS(cast(in(x, {4}, {F}), ArrayView{DataType::UINT8, u.data(), {2}, {1}}), ValidationError,
               "expected shape (4,)");
}

void tile_rules() {
  // SPEC 3.7's example: {1,1,2,3} [[1,2,3],[4,5,6]] repeated {1,1,3,3} -> {1,1,6,9}.
  const std::vector<float> x{1, 2, 3, 4, 5, 6};
  std::vector<float> o(54, -1);
  tile(in(x, {1, 1, 2, 3}, {6 * F, 6 * F, 3 * F, F}), out(o, {1, 1, 6, 9}, {54 * F, 54 * F, 9 * F, F}), {1, 1, 3, 3});
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 9; ++c)
      CHECK_EQ(o[static_cast<std::size_t>(r * 9 + c)], x[static_cast<std::size_t>((r % 2) * 3 + c % 3)]);
  // x read transposed and backwards (negative and swapped strides) into a padded out, rows of 5.
  std::vector<float> p(4 * 5, -1);
  tile(in(x, {3, 2}, {-F, 3 * F}, 2), out(p, {3, 4}, {5 * F, F}), {1, 2});  // x' = [[3,6],[2,5],[1,4]]
  const std::vector<float> want{3, 6, 3, 6, -1, 2, 5, 2, 5, -1, 1, 4, 1, 4, -1, -1, -1, -1, -1, -1};
  CHECK(p == want);
  // A 0-d x takes no repeats (a copy); an empty x gives an empty out (nothing written).
  std::vector<float> s(1, -1);
  tile(in(x, {}, {}, 4), out(s, {}, {}), {});
  CHECK_EQ(s[0], 5.0f);
  tile(in(x, {0, 3}, {3 * F, F}), out(o, {0, 6}, {6 * F, F}), {4, 2});
  // Misuse: typed errors, nothing written.
  std::vector<float> q(12, -1);
  CHECK_THROWS(tile(in(x, {2, 3}, {3 * F, F}), out(q, {2, 6}, {6 * F, F}), {1, 0}), ValidationError,
               "TileDesc.repeats[1]: repeat must be at least 1, got 0");
  CHECK_THROWS(tile(in(x, {2, 3}, {3 * F, F}), out(q, {2, 6}, {6 * F, F}), {2}), ValidationError,
               "TileDesc.repeats: must have one value per dimension (2), got 1");
  CHECK_THROWS(tile(in(x, {2, 3}, {3 * F, F}), out(q, {3, 4}, {4 * F, F}), {1, 2}), ValidationError,
               "out: expected shape (2, 6), got (3, 4)");
  CHECK_THROWS(tile(in(x, {2, 3}, {3 * F, F}), ArrayView{DataType::INT32, q.data(), {2, 6}, {24, 4}}, {1, 2}),
               ValidationError, "out.dtype: must equal x.dtype (FLOAT32), got INT32");
  CHECK_THROWS(tile(in(x, {2, 3}, {3 * F, F}), out(q, {2, 6}, {6 * F, F}), {1, INT64_MAX}), ValidationError,
               "does not fit in 64 bits");
  CHECK(q == std::vector<float>(12, -1));
}

void pad_rules() {
  // SPEC 3.6's example: [1,2,3,4], start 2, end 4, in every mode.
  const std::vector<float> x{1, 2, 3, 4};
  const std::vector<std::pair<PaddingMode, std::vector<float>>> cases{
      {PaddingMode::CONSTANT, {9, 9, 1, 2, 3, 4, 9, 9, 9, 9}},
      {PaddingMode::EDGE, {1, 1, 1, 2, 3, 4, 4, 4, 4, 4}},
      {PaddingMode::REFLECTION, {3, 2, 1, 2, 3, 4, 3, 2, 1, 2}},
      {PaddingMode::SYMMETRIC, {2, 1, 1, 2, 3, 4, 4, 3, 2, 1}},
      {PaddingMode::WRAP, {3, 4, 1, 2, 3, 4, 1, 2, 3, 4}}};
  for (const auto& [mode, want] : cases) {
    std::vector<float> o(10, -1);
    pad(in(x, {4}, {F}), out(o, {10}, {F}), {2}, {4}, mode, Scalar::from_double(DataType::FLOAT32, 9));
    CHECK(o == want);
  }
  // x read backwards as a 2 x 2 [[4,3],[2,1]], REFLECTION by 1 on both sides of both dimensions into
  // a padded out (rows of 5): the period 2 of m = 2 folds it to [1,2,1,2], [3,4,3,4] twice.
  std::vector<float> p(4 * 5, -1);
  pad(in(x, {2, 2}, {-2 * F, -F}, 3), out(p, {4, 4}, {5 * F, F}), {1, 1}, {1, 1}, PaddingMode::REFLECTION);
  const std::vector<float> want{1, 2, 1, 2, -1, 3, 4, 3, 4, -1, 1, 2, 1, 2, -1, 3, 4, 3, 4, -1};
  CHECK(p == want);
  // A 0-d x takes no pads (a copy); an empty x with a constant fills out; empty out: nothing.
  std::vector<float> s(1, -1);
  pad(in(x, {}, {}, 2), out(s, {}, {}), {}, {}, PaddingMode::WRAP);
  CHECK_EQ(s[0], 3.0f);
  std::vector<float> f(6, -1);
  pad(in(x, {0, 3}, {3 * F, F}), out(f, {2, 3}, {3 * F, F}), {1, 0}, {1, 0}, PaddingMode::CONSTANT,
      Scalar::from_int(DataType::INT64, 5));
  CHECK(f == std::vector<float>(6, 5));
  // Misuse: typed errors, nothing written.
  std::vector<float> q(12, -1);
  const ConstArrayView x22 = in(x, {2, 2}, {2 * F, F});
  CHECK_THROWS(pad(x22, out(q, {3, 4}, {4 * F, F}), {1, -1}, {0, 3}), ValidationError,
               "PaddingDesc.start_padding[1]: must be non-negative, got -1");
  CHECK_THROWS(pad(x22, out(q, {3, 4}, {4 * F, F}), {1, 1}, {0}), ValidationError,
               "PaddingDesc.end_padding: must have one value per dimension (2), got 1");
  CHECK_THROWS(pad(x22, out(q, {3, 4}, {4 * F, F}), {1, 1}, {0, 1}, static_cast<PaddingMode>(5)), ValidationError,
               "PaddingDesc.padding_mode: unknown mode 5");
  CHECK_THROWS(pad(x22, out(q, {3, 4}, {4 * F, F}), {1, 1}, {0, 0}), ValidationError,
               "out: expected shape (3, 3), got (3, 4)");
  CHECK_THROWS(pad(in(x, {0, 2}, {2 * F, F}), out(q, {1, 4}, {4 * F, F}), {1, 1}, {0, 1}, PaddingMode::EDGE),
               ValidationError, "x.shape[0]: a dimension of size 0 can only be padded with CONSTANT");
  CHECK(q == std::vector<float>(12, -1));
}

void depth_space_rules() {
  // SPEC 3.8's example: depth {1,8,1,1} = 1..8, block 2 -> space DCR [[1,3],[5,7]],[[2,4],[6,8]], CRD in order.
  const std::vector<float> x{1, 2, 3, 4, 5, 6, 7, 8};
  const ConstArrayView depth = in(x, {1, 8, 1, 1}, {8 * F, F, F, F});
  std::vector<float> o(8, -1);
  depth_to_space(depth, out(o, {1, 2, 2, 2}, {8 * F, 4 * F, 2 * F, F}), 2);  // DCR is the default
  CHECK(o == (std::vector<float>{1, 3, 5, 7, 2, 4, 6, 8}));
  depth_to_space(depth, out(o, {1, 2, 2, 2}, {8 * F, 4 * F, 2 * F, F}), 2, DepthSpaceOrder::COLUMN_ROW_DEPTH);
  CHECK(o == x);
  // SpaceToDepth maps it back, here from a space tensor read with its rows reversed (negative
  // strides) into a depth out with padded channels (stride 2).
  const std::vector<float> sp{3, 4, 1, 2, 7, 8, 5, 6};  // rows swapped: [[1,2],[3,4]], [[5,6],[7,8]]
  std::vector<float> d(16, -1);
  space_to_depth(in(sp, {1, 2, 2, 2}, {8 * F, 4 * F, -2 * F, F}, 2), out(d, {1, 8, 1, 1}, {16 * F, 2 * F, F, F}), 2,
                 DepthSpaceOrder::COLUMN_ROW_DEPTH);
  for (std::size_t i = 0; i < 16; ++i) CHECK_EQ(d[i], i % 2 ? -1.0f : static_cast<float>(i / 2 + 1));
  // Block size 1 is a copy, also in place; an empty x gives an empty out (nothing written).
  std::vector<float> y = x;
  depth_to_space(in(y, {1, 2, 2, 2}, {8 * F, 4 * F, 2 * F, F}), out(y, {1, 2, 2, 2}, {8 * F, 4 * F, 2 * F, F}), 1);
  CHECK(y == x);
  space_to_depth(in(x, {2, 1, 0, 4}, {4 * F, 4 * F, 4 * F, F}), out(o, {2, 4, 0, 2}, {0, 0, 0, F}), 2);
  // Misuse: typed errors, nothing written.
  std::vector<float> q(8, -1);
  const ArrayView q_space = out(q, {1, 2, 2, 2}, {8 * F, 4 * F, 2 * F, F});
  CHECK_THROWS(depth_to_space(depth, q_space, 0), ValidationError,
               "DepthToSpaceDesc.block_size: must be at least 1, got 0");
  CHECK_THROWS(depth_to_space(depth, q_space, 3), ValidationError,
               "x.shape[1]: must be divisible by block_size * block_size = 9, got 8");
  CHECK_THROWS(depth_to_space(depth, q_space, 2, static_cast<DepthSpaceOrder>(2)), ValidationError,
               "DepthToSpaceDesc.order: unknown order 2");
  CHECK_THROWS(depth_to_space(in(x, {8, 1, 1}, {F, F, F}), q_space, 2), ValidationError,
               "x: must have 4 dimensions (N, C, H, W), got 3");
  CHECK_THROWS(depth_to_space(depth, out(q, {1, 2, 4, 1}, {8 * F, 4 * F, F, F}), 2), ValidationError,
               "out: expected shape (1, 2, 2, 2), got (1, 2, 4, 1)");
  CHECK_THROWS(depth_to_space(depth, ArrayView{DataType::INT32, q.data(), {1, 2, 2, 2}, {32, 16, 8, 4}}, 2),
               ValidationError, "out.dtype: must equal x.dtype (FLOAT32), got INT32");
  CHECK_THROWS(space_to_depth(in(x, {1, 2, 2, 2}, {8 * F, 4 * F, 2 * F, F}), out(q, {1, 18, 1, 1}, {18 * F, F, F, F}),
                              3),
               ValidationError, "x.shape[2]: must be divisible by block_size (3), got 2");
  CHECK_THROWS(space_to_depth(in(x, {1, INT64_MAX / 2, 0, 4}, {0, 0, 0, F}), q_space, 4), ValidationError,
               "x.shape[1] * block_size * block_size does not fit in 64 bits");
  CHECK(q == std::vector<float>(8, -1));
}

void full_rules() {
  // A padded, reversed out (rows of 5, walked backwards); the value converted by the Cast rules.
  std::vector<float> o(4 * 5, -1);
  full(ArrayView{DataType::FLOAT32, o.data() + 15, {4, 4}, {-5 * F, F}}, Scalar::from_double(DataType::FLOAT64, 2.5));
  for (std::size_t i = 0; i < o.size(); ++i) CHECK_EQ(o[i], i % 5 == 4 ? -1.0f : 2.5f);
  std::vector<std::uint8_t> u(3, 0);
  full(ArrayView{DataType::UINT8, u.data(), {3}, {1}}, Scalar::from_int(DataType::INT64, -2));  // -2 -> 254
  CHECK(u == std::vector<std::uint8_t>(3, 254));
  CHECK_EQ(Scalar::from_double(DataType::FLOAT16, 65520.0).bits, std::uint64_t{0x7C00});  // -> +inf
  CHECK_EQ(Scalar::from_double(DataType::INT32, -2.7).cast(DataType::INT64).bits, ~std::uint64_t{1});  // -2
  full(ArrayView{DataType::FLOAT32, o.data(), {0, 4}, {4 * F, F}}, Scalar::from_int(DataType::INT64, 1));  // empty
  CHECK_EQ(o[0], 2.5f);
}

void sequence_rules() {
  // SPEC 3.13: INT8 120 + 5k wraps; row-major k over a reversed, padded out (rows of 5).
  std::vector<std::int8_t> b(2 * 5, 0);
  fill_sequence(ArrayView{DataType::INT8, b.data() + 5, {2, 3}, {-5, 1}}, Scalar::from_int(DataType::INT64, 120),
                Scalar::from_int(DataType::INT64, 5));
  const std::vector<std::int8_t> want{-121, -116, -111, 0, 0, 120, 125, -126, 0, 0};
  CHECK(b == want);
  std::vector<float> f(8, -1);  // floats from binary64, rounded once: element 7 is 0.699999988f
  fill_sequence(ArrayView{DataType::FLOAT32, f.data(), {8}, {F}}, Scalar::from_int(DataType::INT64, 0),
                Scalar::from_double(DataType::FLOAT32, 0.1));
  CHECK_EQ(f[7], 0.699999988f);
  fill_sequence(ArrayView{DataType::FLOAT32, f.data(), {0, 2}, {2 * F, F}}, Scalar::from_int(DataType::INT64, 5),
                Scalar::from_int(DataType::INT64, 1));  // empty: nothing written
  CHECK_EQ(f[0], 0.0f);
}

void diagonal_rules() {
  // eye(k = 1) into a 3x4 out with rows of 5; SPEC 3.12's band and triu/tril with an input.
  std::vector<float> o(3 * 5, -1);
  eye(ArrayView{DataType::FLOAT32, o.data(), {3, 4}, {5 * F, F}}, 1);
  for (std::size_t i = 0; i < o.size(); ++i) CHECK_EQ(o[i], i % 5 == 4 ? -1.0f : (i % 5 == i / 5 + 1 ? 1.0f : 0.0f));
  const std::vector<float> x = iota(12);  // 3x4: 0..11
  std::vector<float> u(12, -1), l(12, -1);
  triu(in(x, {3, 4}, {4 * F, F}), out(u, {3, 4}, {4 * F, F}), 1);
  tril(in(x, {3, 4}, {4 * F, F}), out(l, {3, 4}, {4 * F, F}), -1);
  for (std::size_t i = 0; i < 12; ++i) {
    const auto t = static_cast<std::int64_t>(i % 4) - static_cast<std::int64_t>(i / 4);
    CHECK_EQ(u[i], t >= 1 ? x[i] : 0.0f);
    CHECK_EQ(l[i], t <= -1 ? x[i] : 0.0f);
  }
  std::vector<float> d(12, -1);  // begin > end: all but [end, begin) = all but t = 0
  diagonal_fill(out(d, {3, 4}, {4 * F, F}), 1, 0, Scalar::from_int(DataType::INT64, 7));
  for (std::size_t i = 0; i < 12; ++i) CHECK_EQ(d[i], i % 4 == i / 4 ? 0.0f : 7.0f);
  eye(out(d, {3, 4}, {4 * F, F}), INT64_C(1) << 40);  // any k: beyond the columns, all zeros
  CHECK(d == std::vector<float>(12, 0));
  std::vector<float> q(12, -1);
  CHECK_THROWS(eye(ArrayView{DataType::FLOAT32, q.data(), {12}, {F}}), ValidationError,
               "out: needs at least 2 dimensions (rows and columns), got 1");
  CHECK_THROWS(diagonal_fill(out(q, {3, 4}, {4 * F, F}), INT64_C(1) << 31, 0, Scalar::from_int(DataType::INT64, 1)),
               ValidationError, "begin: must fit a 32-bit signed INT, got 2147483648");
  const ConstArrayView wrong = in(x, {4, 3}, {3 * F, F});
  CHECK_THROWS(diagonal_fill(out(q, {3, 4}, {4 * F, F}), 0, 1, Scalar::from_int(DataType::INT64, 1), &wrong),
               ValidationError, "input: expected shape (3, 4), got (4, 3)");
  CHECK(q == std::vector<float>(12, -1));
}

void plan_cache() {
  clear_plan_cache();
  CHECK_EQ(plan_cache_size(), std::size_t{0});
  const std::vector<float> x = iota(64);
  std::vector<float> o(64);
  for (int i = 0; i < 3; ++i) copy(in(x, {8, 8}, {F, 8 * F}), out(o, {8, 8}, {8 * F, F}));  // a transpose
  CHECK_EQ(plan_cache_size(), std::size_t{1});
  CHECK_EQ(o[1], 8.0f);
  clear_plan_cache();
  CHECK_EQ(plan_cache_size(), std::size_t{0});
}

void unfold_rules() {
  // SPEC 3.14.3: in {1,1,5,5} = 0..24, window {3,3}, start {1,0}, end {1,0} -> {1,9,15}.
  const std::vector<float> x = iota(25);
  std::vector<float> o(9 * 15, -1);
  unfold(in(x, {1, 1, 5, 5}, {25 * F, 25 * F, 5 * F, F}), out(o, {1, 9, 15}, {135 * F, 15 * F, F}), {3, 3}, {1, 1},
         {1, 1}, {1, 0}, {1, 0});
  const std::vector<float> row0{0, 0, 0, 0, 1, 2, 5, 6, 7, 10, 11, 12, 15, 16, 17};
  const std::vector<float> row8{7, 8, 9, 12, 13, 14, 17, 18, 19, 22, 23, 24, 0, 0, 0};
  CHECK(std::vector<float>(o.begin(), o.begin() + 15) == row0);
  CHECK(std::vector<float>(o.begin() + 8 * 15, o.end()) == row8);
  // 1-d, x read backwards: [[5..1],[10..6]], window 2, stride 2, dilation 2, start 1 -> {1,4,2}
  // = x'[c, 2b - 1 + 2w]; out column-major.
  const std::vector<float> y{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  std::vector<float> p(8, -1);
  unfold(in(y, {1, 2, 5}, {10 * F, 5 * F, -F}, 4), out(p, {1, 4, 2}, {8 * F, F, 4 * F}), {2}, {2}, {2}, {1}, {0});
  CHECK(p == (std::vector<float>{0, 4, 0, 9, 4, 2, 9, 7}));
  // Misuse: typed errors, nothing written.
  std::vector<float> q(9 * 9, -1);
  const ConstArrayView x4 = in(x, {1, 1, 5, 5}, {25 * F, 25 * F, 5 * F, F});
  CHECK_THROWS(unfold(x4, out(q, {1, 9, 9}, {81 * F, 9 * F, F}), {3, 3}, {1, 0}, {1, 1}, {0, 0}, {0, 0}),
               ValidationError, "UnfoldDesc.strides[1]: stride must be at least 1, got 0");
  CHECK_THROWS(unfold(x4, out(q, {1, 9, 9}, {81 * F, 9 * F, F}), {3, 6}, {1, 1}, {1, 1}, {0, 0}, {0, 0}),
               ValidationError, "UnfoldDesc.window_sizes[1]: the dilated window");
  CHECK_THROWS(unfold(x4, out(q, {1, 9, 9}, {81 * F, 9 * F, F}), {3}, {1}, {1}, {0}, {0}), ValidationError,
               "UnfoldDesc.window_sizes: must have one value per spatial dimension (2), got 1");
  CHECK_THROWS(unfold(x4, out(q, {1, 9, 8}, {72 * F, 8 * F, F}), {3, 3}, {1, 1}, {1, 1}, {0, 0}, {0, 0}),
               ValidationError, "out: expected shape (1, 9, 9), got (1, 9, 8)");
  CHECK(q == std::vector<float>(81, -1));
  // An empty spatial dimension inside padding: zeros.
  std::vector<float> z(4, -1);
  unfold(in(x, {1, 1, 0, 2}, {2 * F, 2 * F, 2 * F, F}), out(z, {1, 1, 4}, {4 * F, 4 * F, F}), {1, 1}, {1, 1}, {1, 1},
         {1, 0}, {1, 0});
  CHECK(z == std::vector<float>(4, 0));
}

void max_unpool_rules() {
  // SPEC 3.14.2: in {1,1,2,2} [[5,6],[7,8]], idx [[1,3],[8,15]], out {1,1,4,4}.
  const std::vector<float> x{5, 6, 7, 8};
  const std::vector<std::uint32_t> idx{1, 3, 8, 15};
  std::vector<float> o(16, -1);
  const ConstArrayView xi = in(x, {1, 1, 2, 2}, {4 * F, 4 * F, 2 * F, F});
  const ConstArrayView ii{DataType::UINT32, idx.data(), {1, 1, 2, 2}, {16, 16, 8, 4}};
  max_unpool(xi, ii, out(o, {1, 1, 4, 4}, {16 * F, 16 * F, 4 * F, F}));
  CHECK(o == (std::vector<float>{0, 5, 0, 6, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 8}));
  // Column-major out: positions still count row-major over its sizes.
  std::vector<float> c(16, -1);
  max_unpool(xi, ii, out(c, {1, 1, 4, 4}, {16 * F, 16 * F, F, 4 * F}));
  CHECK_EQ(c[4], 5.0f);   // position 1 = (0, 1)
  CHECK_EQ(c[2], 7.0f);   // position 8 = (2, 0)
  CHECK_EQ(c[15], 8.0f);  // position 15 = (3, 3)
  // Bad index: IndexError, nothing written; a wrong indices shape: ValidationError.
  const std::vector<std::int64_t> bad{0, 1, 16, 2};
  std::vector<float> q(16, -1);
  CHECK_THROWS(max_unpool(xi, ConstArrayView{DataType::INT64, bad.data(), {1, 1, 2, 2}, {32, 32, 16, 8}},
                          out(q, {1, 1, 4, 4}, {16 * F, 16 * F, 4 * F, F})),
               IndexError, "max_unpool.indices[0, 0, 1, 0] = 16: out of range [-16, 16) for axis 0");
  CHECK_THROWS(max_unpool(xi, ConstArrayView{DataType::INT64, bad.data(), {1, 1, 4}, {32, 32, 8}},
                          out(q, {1, 1, 4, 4}, {16 * F, 16 * F, 4 * F, F})),
               ValidationError, "indices: expected shape (1, 1, 2, 2)");
  CHECK(q == std::vector<float>(16, -1));
}

void argwhere_rules() {
  // SPEC 3.14.1's example read through a reversed row stride: x' = [[-0.0,3.5,0,-5.2],[1,0,0,2]].
  const std::vector<float> x{1, 0, 0, 2, -0.0f, 3.5f, 0, -5.2f};
  const std::vector<std::int64_t> got = argwhere(in(x, {2, 4}, {-4 * F, F}, 4));
  CHECK(got == (std::vector<std::int64_t>{0, 1, 0, 3, 1, 0, 1, 3}));
  // Into a caller's int32 result with strides (column-major), allocated once the count is known.
  std::vector<std::int32_t> res(16, -1);
  std::int64_t asked = -1;
  const std::int64_t k = argwhere(in(x, {2, 4}, {4 * F, F}), [&](std::int64_t n) {
    asked = n;
    return ArrayView{DataType::INT32, res.data(), {n, 2}, {4, 8 * 4}};
  });
  CHECK_EQ(k, 4);
  CHECK_EQ(asked, 4);
  CHECK(std::vector<std::int32_t>(res.begin(), res.begin() + 4) == (std::vector<std::int32_t>{0, 0, 1, 1}));
  CHECK(std::vector<std::int32_t>(res.begin() + 8, res.begin() + 12) == (std::vector<std::int32_t>{0, 3, 1, 3}));
  CHECK_EQ(res[4], -1);
  // NaN counts, a 0-d array gives K rows of no coordinates, an empty array none.
  const std::vector<float> nan{0, std::numeric_limits<float>::quiet_NaN()};
  CHECK(argwhere(in(nan, {2}, {F})) == (std::vector<std::int64_t>{1}));
  CHECK_EQ(argwhere(in(nan, {}, {}, 1),
                    [](std::int64_t n) { return ArrayView{DataType::INT64, nullptr, {n, 0}, {0, 8}}; }),
           1);
  CHECK(argwhere(in(nan, {0, 2}, {2 * F, F})).empty());
  // A result of the wrong shape or a dtype too narrow: ValidationError, nothing written.
  std::vector<std::int8_t> small(600, 7);
  const std::vector<float> ones(300, 1.0f);
  CHECK_THROWS(argwhere(in(ones, {300}, {F}),
                        [&](std::int64_t n) { return ArrayView{DataType::INT8, small.data(), {n, 1}, {1, 1}}; }),
               ValidationError, "INT8 cannot hold coordinate 299");
  CHECK_THROWS(argwhere(in(ones, {300}, {F}),
                        [&](std::int64_t n) { return ArrayView{DataType::INT8, small.data(), {n, 2}, {2, 1}}; }),
               ValidationError, "out: expected shape (300, 1)");
  CHECK_THROWS(argwhere(in(ones, {3}, {F}),
                        [&](std::int64_t n) { return ArrayView{DataType::FLOAT32, small.data(), {n, 1}, {4, 4}}; }),
               ValidationError, "integer dtype");
  CHECK(small == std::vector<std::int8_t>(600, 7));
}

void flip_permute_dims() {
  const std::vector<float> x = iota(6);  // [[0,1,2],[3,4,5]]
  std::vector<float> o(6, -1);
  flip(in(x, {2, 3}, {3 * F, F}), out(o, {2, 3}, {3 * F, F}), {-1});
  CHECK(o == (std::vector<float>{2, 1, 0, 5, 4, 3}));
  flip(in(x, {2, 3}, {3 * F, F}), out(o, {2, 3}, {F, 2 * F}), {0, 1});  // column-major out
  CHECK(o == (std::vector<float>{5, 2, 4, 1, 3, 0}));
  permute_dims(in(x, {2, 3}, {3 * F, F}), out(o, {3, 2}, {2 * F, F}), {1, 0});
  CHECK(o == (std::vector<float>{0, 3, 1, 4, 2, 5}));
  permute_dims(in(x, {2, 3}, {-3 * F, F}, 3), out(o, {3, 2}, {2 * F, F}), {-1, -2});  // rows reversed
  CHECK(o == (std::vector<float>{3, 0, 4, 1, 5, 2}));
  std::vector<float> e;
  flip(in(x, {0, 3}, {3 * F, F}), out(e, {0, 3}, {3 * F, F}), {0});
  std::vector<float> keep(6, -1);
  CHECK_THROWS(flip(in(x, {2, 3}, {3 * F, F}), out(keep, {2, 3}, {3 * F, F}), {0, -2}), ValidationError,
               "flip.axes[1]: axis 0 is repeated");
  CHECK_THROWS(flip(in(x, {2, 3}, {3 * F, F}), out(keep, {2, 3}, {3 * F, F}), {2}), ValidationError,
               "flip.axes[0]: 2 is out of range");
  CHECK_THROWS(permute_dims(in(x, {2, 3}, {3 * F, F}), out(keep, {2, 3}, {3 * F, F}), {1, 0}), ValidationError,
               "out: expected shape (3, 2)");
  CHECK_THROWS(permute_dims(in(x, {2, 3}, {3 * F, F}), out(keep, {3, 2}, {2 * F, F}), {0}), ValidationError,
               "must be a permutation of 2");
  CHECK(keep == std::vector<float>(6, -1));
}

void one_hot_rules() {
  // SPEC 3.9: one_hot([[0, 2], [-1, 5]], 3) -> [[[1,0,0],[0,0,1]],[[0,0,1],[0,0,0]]], values [off, on] = [0, 1].
  const std::vector<std::int32_t> idx{0, 2, -1, 5};
  const std::vector<float> v{0, 1};
  const ConstArrayView iv{DataType::INT32, idx.data(), {2, 2}, {8, 4}};
  std::vector<float> o(12, -1);
  one_hot(iv, in(v, {2}, {F}), out(o, {2, 2, 3}, {6 * F, 3 * F, F}), -1);
  CHECK(o == (std::vector<float>{1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0}));
  // axis 0 into a transposed out (strides reversed): out[k, i, j] = (k == idx[i, j]).
  one_hot(iv, in(v, {2}, {F}), out(o, {3, 2, 2}, {F, 3 * F, 6 * F}), 0);
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        const int ix = idx[static_cast<std::size_t>(i * 2 + j)], pos = ix < 0 ? ix + 3 : ix;
        CHECK_EQ(o[static_cast<std::size_t>(k + i * 3 + j * 6)], pos == k ? 1.0f : 0.0f);
      }
  // Misuse: typed errors, nothing written.
  std::vector<float> q(12, -1);
  CHECK_THROWS(one_hot(iv, in(v, {2}, {F}), out(q, {3, 2, 2}, {4 * F, 2 * F, F}), -1), ValidationError,
               "out: expected shape (2, 2, 2), got (3, 2, 2)");  // the depth is out's size at the axis
  CHECK_THROWS(one_hot(iv, in(v, {1}, {F}), out(q, {2, 2, 3}, {6 * F, 3 * F, F}), -1), ValidationError,
               "values: must be [off, on] (shape (2,)), got shape (1,)");
  CHECK_THROWS(one_hot(iv, in(v, {2}, {F}), out(q, {2, 2, 3}, {6 * F, 3 * F, F}), 3), ValidationError,
               "one_hot.axis: 3 is out of range for 3 dimension(s)");
  CHECK_THROWS(one_hot(iv, in(v, {2}, {F}), out(q, {2, 6}, {6 * F, F}), -1), ValidationError,
               "out: must have one dimension more than indices (3), got 2");
  CHECK(q == std::vector<float>(12, -1));
}

void reverse_subsequences_rules() {
  // SPEC 3.10: in {3, 4} = 1..12, lengths [2, 4, 3] on axis 1 -> [[2,1,3,4],[8,7,6,5],[11,10,9,12]].
  std::vector<float> x(12);
  std::iota(x.begin(), x.end(), 1.0f);
  const std::vector<std::uint32_t> len{2, 4, 3};
  std::vector<float> o(12, -1);
  reverse_subsequences(in(x, {3, 4}, {4 * F, F}), ConstArrayView{DataType::UINT32, len.data(), {3, 1}, {4, 4}},
                       out(o, {3, 4}, {4 * F, F}), 1);
  CHECK(o == (std::vector<float>{2, 1, 3, 4, 8, 7, 6, 5, 11, 10, 9, 12}));
  // lengths broadcast (a single 9: every row reversed whole), x read transposed into a transposed out.
  const std::vector<std::int64_t> nine{9};
  reverse_subsequences(in(x, {4, 3}, {F, 4 * F}), ConstArrayView{DataType::INT64, nine.data(), {1}, {8}},
                       out(o, {4, 3}, {F, 4 * F}), 0);
  CHECK(o == (std::vector<float>{4, 3, 2, 1, 8, 7, 6, 5, 12, 11, 10, 9}));
  std::vector<float> q(12, -1);
  const std::vector<std::int64_t> neg{1, -2, 0};
  CHECK_THROWS(reverse_subsequences(in(x, {3, 4}, {4 * F, F}),
                                    ConstArrayView{DataType::INT64, neg.data(), {3, 1}, {8, 8}},
                                    out(q, {3, 4}, {4 * F, F}), 1),
               IndexError, "reverse_subsequences.lengths[1, 0]: length -2 is negative");
  CHECK_THROWS(reverse_subsequences(in(x, {3, 4}, {4 * F, F}), ConstArrayView{DataType::UINT32, len.data(), {3}, {4}},
                                    out(q, {3, 4}, {4 * F, F}), 1),
               ValidationError, "lengths: shape (3,) does not broadcast to (3, 1)");
  CHECK_THROWS(reverse_subsequences(in(x, {3, 4}, {4 * F, F}),
                                    ConstArrayView{DataType::FLOAT32, x.data(), {3, 1}, {4, 4}},
                                    out(q, {3, 4}, {4 * F, F}), 1),
               ValidationError, "lengths.dtype: must be UINT32, UINT64, INT32 or INT64, got FLOAT32");
  CHECK(q == std::vector<float>(12, -1));
}

void slice_grad_rules() {
  // SPEC 3.11: offsets {0,0}, sizes {3,3}, strides {2,2}, gradient [[1,3],[9,11]] -> {4,4} with zeros between.
  const std::vector<float> g{1, 3, 9, 11};
  std::vector<float> o(16, -1);
  slice_grad(in(g, {2, 2}, {2 * F, F}), out(o, {4, 4}, {4 * F, F}), {0, 0}, {3, 3}, {2, 2});
  CHECK(o == (std::vector<float>{1, 0, 3, 0, 0, 0, 0, 0, 9, 0, 11, 0, 0, 0, 0, 0}));
  // Negative strides, the gradient read backwards: rows 2, 0 and columns 3, 1 of a padded out (pitch 5).
  std::vector<float> p(20, -1);
  slice_grad(in(g, {2, 2}, {-2 * F, -F}, 3), out(p, {4, 4}, {5 * F, F}), {0, 1}, {3, 3}, {-2, -2});
  // grad' = [[11, 9], [3, 1]]: (2, 3) = 11, (2, 1) = 9, (0, 3) = 3, (0, 1) = 1.
  CHECK(p == (std::vector<float>{0, 1, 0, 3, -1, 0, 0, 0, 0, -1, 0, 9, 0, 11, -1, 0, 0, 0, 0, -1}));
  // An empty gradient zeroes out.
  slice_grad(in(g, {0, 2}, {2 * F, F}), out(o, {4, 4}, {4 * F, F}), {0, 0}, {0, 3}, {1, 2});
  CHECK(o == std::vector<float>(16, 0));
  std::vector<float> q(16, -1);
  CHECK_THROWS(slice_grad(in(g, {2, 2}, {2 * F, F}), out(q, {4, 4}, {4 * F, F}), {0, 0}, {3, 3}, {2, 0}),
               ValidationError, "SliceGradDesc.input_window_strides[1]: stride must not be 0");
  CHECK_THROWS(slice_grad(in(g, {2, 2}, {2 * F, F}), out(q, {4, 4}, {4 * F, F}), {0, 2}, {3, 3}, {2, 2}),
               ValidationError, "exceeds output_gradient.sizes[1] (4)");
  CHECK_THROWS(slice_grad(in(g, {2, 2}, {2 * F, F}), out(q, {4, 4}, {4 * F, F}), {0}, {3, 3}, {2, 2}), ValidationError,
               "one value per dimension (2), got 1");
  CHECK(q == std::vector<float>(16, -1));
}

}  // namespace

int main() {
  copy_broadcast_and_reverse();
  split_join_roundtrip();
  slice_negative_stride();
  index_functions();
  index_errors_write_nothing();
  empty_arrays();
  cast_rules();
  tile_rules();
  pad_rules();
  depth_space_rules();
  full_rules();
  unfold_rules();
  max_unpool_rules();
  argwhere_rules();
  flip_permute_dims();
  sequence_rules();
  diagonal_rules();
  one_hot_rules();
  reverse_subsequences_rules();
  slice_grad_rules();
  plan_cache();
  return check::report();
}
