// strided::xla: shapes, layouts, IndexUtil and relayout against XLA's published examples (seed
// 004, SPEC.md section 5) and a slow reference loop written here.
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "check.hpp"
#include "strided/strided.hpp"

using namespace strided;
using namespace strided::xla;
using V = std::vector<std::int64_t>;

namespace {

void test_published_examples() {
  // XLA's IndexUtil tests: f32[10,20] column-major (3,5) -> 53, row-major -> 65.
  const Shape col = make_shape_with_layout(PrimitiveType::F32, {10, 20}, {0, 1});
  const Shape row = make_shape_with_layout(PrimitiveType::F32, {10, 20}, {1, 0});
  CHECK_EQ(multidimensional_index_to_linear_index(col, {3, 5}), 53);
  CHECK_EQ(multidimensional_index_to_linear_index(row, {3, 5}), 65);
  CHECK(linear_index_to_multidimensional_index(col, 53) == (V{3, 5}));
  CHECK(linear_index_to_multidimensional_index(row, 65) == (V{3, 5}));
  CHECK_EQ(dimension_stride(Shape::parse("F32[5,8,10,4]{3,2,1,0}"), 1), 40);
  CHECK_EQ(dimension_stride(Shape::parse("F32[5,8,10,4]{3,2,1,0}"), 0), 320);
  CHECK_EQ(dimension_stride(Shape::parse("F32[5,8,10,4]{3,2,1,0}"), 3), 1);
}

void test_sizes_and_text() {
  CHECK_EQ(primitive_type_size(PrimitiveType::PRED), 1u);
  CHECK_EQ(primitive_type_size(PrimitiveType::S16), 2u);
  CHECK_EQ(primitive_type_size(PrimitiveType::F64), 8u);
  CHECK(to_data_type(PrimitiveType::PRED) == DataType::UINT8);
  CHECK(to_data_type(PrimitiveType::S8) == DataType::INT8);
  CHECK(to_data_type(PrimitiveType::F16) == DataType::FLOAT16);
  CHECK(parse_primitive_type("F32") == PrimitiveType::F32);
  CHECK(parse_padding_value("one_pad") == PaddingValue::ONE_PAD);
  CHECK_THROWS(parse_primitive_type("f128"), ValidationError, "f128");
  CHECK_THROWS(parse_padding_value("INVALID_PAD"), ValidationError, "INVALID_PAD");

  const Shape s = Shape::parse("f32[2,3]{0,1}");
  CHECK_EQ(s.to_string(), std::string("f32[2,3]{0,1}"));
  CHECK_EQ(make_shape(PrimitiveType::S8, {2, 3}).to_string(), std::string("s8[2,3]{1,0}"));
  CHECK_EQ(Shape::parse("pred[]").to_string(), std::string("pred[]"));
  CHECK(Shape::parse(" U16 [ 4 , 5 ] ") == make_shape(PrimitiveType::U16, {4, 5}));
  CHECK_THROWS(Shape::parse("f32[2,3"), ValidationError, "Shape.parse");
  CHECK_THROWS(Shape::parse("f32[2,3]{0,0}"), ValidationError, "Shape.layout.minor_to_major");
  CHECK_THROWS(Shape::parse("f32[2,-3]"), ValidationError, "Shape.parse");
  CHECK_THROWS(Shape::parse("f32[99999999999999999999]"), ValidationError, "63 bits");

  Shape p(PrimitiveType::F32, {2, 3}, Layout({0, 1}, {3, 5}));
  CHECK_EQ(p.element_count(), 6u);
  CHECK_EQ(p.physical_element_count(), 15u);
  CHECK_EQ(p.byte_size(), 60u);
  CHECK(p.strides() == (V{1, 3}));
  const TensorDesc d = p.tensor_desc();
  CHECK(d.sizes() == (V{2, 3}));
  CHECK(d.strides() == (V{1, 3}));
  CHECK_EQ(d.total_bytes(), 60u);
  CHECK(make_shape(PrimitiveType::PRED, {}).tensor_desc().sizes() == (V{1}));
  CHECK_THROWS(make_shape(PrimitiveType::F32, {2, 0}).tensor_desc(), ValidationError, "dimensions[1] is 0");
  CHECK(default_layout(3).minor_to_major == (V{2, 1, 0}));
  CHECK(make_layout_from_major_to_minor({0, 2, 1}).minor_to_major == (V{1, 2, 0}));
}

void test_validate() {
  CHECK_THROWS(Shape(PrimitiveType::F32, {2, 3}, Layout({0})).validate(), ValidationError,
               "Shape.layout.minor_to_major: must have one entry per dimension");
  CHECK_THROWS(Shape(PrimitiveType::F32, {2, 3}, Layout({0, 2})).validate(), ValidationError,
               "Shape.layout.minor_to_major[1]");
  CHECK_THROWS(Shape(PrimitiveType::F32, {2, -1}).validate(), ValidationError, "Shape.dimensions[1]");
  CHECK_THROWS(Shape(PrimitiveType::F32, {2, 3}, Layout({1, 0}, {2})).validate(), ValidationError,
               "Shape.layout.padded_dimensions: must have one entry");
  CHECK_THROWS(Shape(PrimitiveType::F32, {2, 3}, Layout({1, 0}, {2, 2})).validate(), ValidationError,
               "Shape.layout.padded_dimensions[1]");
  CHECK_THROWS(Shape(PrimitiveType::F32, {2}, Layout({0}, {}, PaddingValue::INVALID_PAD)).validate(), ValidationError,
               "Shape.layout.padding_value");
  CHECK_THROWS(Shape(PrimitiveType::PRIMITIVE_TYPE_INVALID, {2}).validate(), ValidationError, "Shape.element_type");
  const std::int64_t big = std::int64_t(1) << 40;
  CHECK_THROWS(Shape(PrimitiveType::F32, {big, big}).validate(), ValidationError, "overflows");
  CHECK_THROWS(Shape(PrimitiveType::F64, {big, 1 << 21}).validate(), ValidationError, "overflows");
  Shape(PrimitiveType::F32, {big, 0}).validate();  // empty: no overflow
  CHECK_EQ(Shape(PrimitiveType::F32, {big, 0}).byte_size(), 0u);

  const Shape s = make_shape(PrimitiveType::F32, {2, 3});
  CHECK_THROWS(multidimensional_index_to_linear_index(s, {1}), ValidationError, "index: must have one entry");
  CHECK_THROWS(multidimensional_index_to_linear_index(s, {1, 3}), ValidationError, "index[1]: 3 is out of range");
  CHECK_THROWS(linear_index_to_multidimensional_index(s, 6), ValidationError, "outside the buffer");
  CHECK_THROWS(linear_index_to_multidimensional_index(Shape(PrimitiveType::F32, {2, 3}, Layout({0, 1}, {3, 5})), 2),
               IndexError, "padding");
  CHECK_THROWS(bump_indices(s, {-1, 0}), ValidationError, "bump_indices.index[0]");
  CHECK_THROWS(dimension_stride(s, 2), ValidationError, "dimension_stride.dim");
}

void test_bump() {
  const Shape s = make_shape_with_layout(PrimitiveType::F32, {2, 3}, {0, 1});
  V i{0, 0};
  std::vector<V> seen{i};
  while (auto n = bump_indices(s, i)) {
    i = *n;
    seen.push_back(i);
  }
  CHECK(seen == (std::vector<V>{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}));
  CHECK(!bump_indices(make_shape(PrimitiveType::F32, {}), {}).has_value());
}

// The spec's example: f32[2,3] padded [3,5] with minor_to_major {0,1} -> a d 0 b e 0 c f 0 0 0 0 0 0 0.
void test_pack_example() {
  const Shape s(PrimitiveType::F32, {2, 3}, Layout({0, 1}, {3, 5}));
  const float x[2][3] = {{1, 2, 3}, {4, 5, 6}};  // a b c / d e f
  std::vector<float> buf(15, -7.0f);
  pack(s, x, {12, 4}, buf.data(), buf.size() * 4);
  const std::vector<float> want{1, 4, 0, 2, 5, 0, 3, 6, 0, 0, 0, 0, 0, 0, 0};
  CHECK(buf == want);
  CHECK_THROWS(pack(s, x, {12, 4}, buf.data(), 59), BufferError, "pack.dst");
}

// Reference: every physical element is either a logical element or padding.
template <class T>
void check_relayout_ref(PrimitiveType t, PaddingValue pv, T pad) {
  const Shape src = make_shape(t, {3, 2, 4});
  const Shape dst(t, {3, 2, 4}, Layout({1, 0, 2}, {4, 3, 5}, pv));
  std::vector<T> in(24);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<T>(i % 7 + 2);
  const T sentinel = static_cast<T>(99);
  std::vector<T> out(60, sentinel);
  relayout(src, in.data(), in.size() * sizeof(T), dst, out.data(), out.size() * sizeof(T));
  for (std::int64_t a = 0; a < 4; ++a)
    for (std::int64_t b = 0; b < 3; ++b)
      for (std::int64_t c = 0; c < 5; ++c) {
        // physical offset with minor_to_major {1,0,2}: b fastest, then a, then c.
        const std::size_t off = static_cast<std::size_t>(b + 3 * (a + 4 * c));
        const bool logical = a < 3 && b < 2 && c < 4;
        const T want = logical                           ? in[static_cast<std::size_t>(a * 8 + b * 4 + c)]
                       : pv == PaddingValue::UNKNOWN_PAD ? sentinel
                                                         : pad;
        CHECK(std::memcmp(&out[off], &want, sizeof(T)) == 0);
      }
}

void test_relayout() {
  const float inf = std::numeric_limits<float>::infinity();
  check_relayout_ref<float>(PrimitiveType::F32, PaddingValue::ZERO_PAD, 0.0f);
  check_relayout_ref<float>(PrimitiveType::F32, PaddingValue::ONE_PAD, 1.0f);
  check_relayout_ref<float>(PrimitiveType::F32, PaddingValue::LOWEST_PAD, -inf);
  check_relayout_ref<float>(PrimitiveType::F32, PaddingValue::HIGHEST_PAD, inf);
  check_relayout_ref<float>(PrimitiveType::F32, PaddingValue::UNKNOWN_PAD, 0.0f);
  check_relayout_ref<std::int16_t>(PrimitiveType::S16, PaddingValue::LOWEST_PAD, -32768);
  check_relayout_ref<std::uint32_t>(PrimitiveType::U32, PaddingValue::HIGHEST_PAD, 0xffffffffu);
  check_relayout_ref<std::uint16_t>(PrimitiveType::F16, PaddingValue::LOWEST_PAD, 0xFC00);
  check_relayout_ref<std::uint16_t>(PrimitiveType::F16, PaddingValue::ONE_PAD, 0x3C00);
  check_relayout_ref<std::uint8_t>(PrimitiveType::PRED, PaddingValue::HIGHEST_PAD, 1);
  check_relayout_ref<std::uint8_t>(PrimitiveType::PRED, PaddingValue::LOWEST_PAD, 0);
  check_relayout_ref<double>(PrimitiveType::F64, PaddingValue::ONE_PAD, 1.0);
  check_relayout_ref<std::int64_t>(PrimitiveType::S64, PaddingValue::HIGHEST_PAD,
                                   std::numeric_limits<std::int64_t>::max());

  const Shape a = make_shape(PrimitiveType::F32, {2, 3}), b = make_shape(PrimitiveType::S32, {2, 3});
  float buf[6] = {};
  CHECK_THROWS(relayout(a, buf, 24, b, buf, 24), ValidationError, "element_type");
  CHECK_THROWS(relayout(a, buf, 24, make_shape(PrimitiveType::F32, {3, 2}), buf, 24), ValidationError, "dimensions");
  CHECK_THROWS(relayout(a, buf, 20, a, buf, 24), BufferError, "relayout.src_buf");
  CHECK_THROWS(relayout(a, buf, 24, Shape(PrimitiveType::F32, {2, 3}, Layout({1})), buf, 24), ValidationError,
               "relayout.dst_shape.layout.minor_to_major");
  // A scalar and an empty shape move what they hold (one element / nothing).
  float one = 3.5f, got = 0;
  relayout(make_shape(PrimitiveType::F32, {}), &one, 4, make_shape(PrimitiveType::F32, {}), &got, 4);
  CHECK_EQ(got, 3.5f);
  float pad[4] = {9, 9, 9, 9};
  relayout(make_shape(PrimitiveType::F32, {0, 2}), nullptr, 0,
           Shape(PrimitiveType::F32, {0, 2}, Layout({1, 0}, {2, 2}, PaddingValue::ONE_PAD)), pad, 16);
  CHECK(pad[0] == 1 && pad[1] == 1 && pad[2] == 1 && pad[3] == 1);
}

// SPEC 5.1's tiled examples, and pack / unpack / relayout / fill_padding of f32[3,5]{1,0:T(2,2)}
// against the element loop of its worked positions.
void test_tiles() {
  const Shape t = Shape::parse("f32[3,5]{1,0:T(2,2)}");
  CHECK(t.layout.tiles == (std::vector<V>{{2, 2}}));
  CHECK_EQ(t.to_string(), std::string("f32[3,5]{1,0:T(2,2)}"));
  CHECK_EQ(multidimensional_index_to_linear_index(t, {2, 3}), 17);
  CHECK(linear_index_to_multidimensional_index(t, 17) == (V{2, 3}));
  CHECK_THROWS(linear_index_to_multidimensional_index(t, 9), IndexError, "padding of a partial tile");
  CHECK_EQ(t.byte_size(), 96u);
  CHECK(t.physical_dimensions() == (V{2, 3, 2, 2}));
  CHECK_EQ(multidimensional_index_to_linear_index(Shape::parse("f32[2,3,4]{0,1,2:T(512)}"), {1, 2, 3}), 5633);
  CHECK_EQ(Shape::parse("f32[2,3,4]{0,1,2:T(512)}").byte_size(), 24576u);
  CHECK_EQ(dimension_stride(Shape::parse("f32[5,3,5]{2,1,0:T(2,2)}"), 0), 24);
  CHECK_THROWS(dimension_stride(Shape::parse("f32[5,3,5]{2,1,0:T(2,2)}"), 1), ValidationError, "no single stride");
  const Shape star = Shape::parse("f16[2,3,1004]{2,1,0:T(2,*,128)}");
  CHECK_EQ(star.layout.tiles[0][1], kCombineDimension);
  CHECK_THROWS(Shape::parse("pred[8,8,8]{0,2,1:T(8,128)E(32)}"), ValidationError, "element_size_in_bits");
  CHECK_THROWS(Shape::parse("f32[4,8]{1,0:T(2,4)(3,1)}"), ValidationError, "tiles[1]");
  CHECK_THROWS(Shape(PrimitiveType::F32, {3, 5}, Layout({1, 0}, {4, 6}, PaddingValue::ZERO_PAD, {{2, 2}})).validate(),
               ValidationError, "padded_dimensions or tiles");

  const int pos[3][5] = {{0, 1, 4, 5, 8}, {2, 3, 6, 7, 10}, {12, 13, 16, 17, 20}};
  float x[3][5], buf[24], back[3][5] = {};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 5; ++c) x[r][c] = static_cast<float>(10 * r + c);
  const Shape one(PrimitiveType::F32, {3, 5}, Layout({1, 0}, {}, PaddingValue::ONE_PAD, {{2, 2}}));
  pack(one, x, {20, 4}, buf, sizeof buf);
  bool ok = true;
  std::vector<bool> data(24, false);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 5; ++c) {
      ok = ok && buf[pos[r][c]] == x[r][c];
      data[static_cast<std::size_t>(pos[r][c])] = true;
    }
  for (std::size_t i = 0; i < 24; ++i) ok = ok && (data[i] || buf[i] == 1.0f);
  CHECK(ok);
  unpack(one, buf, sizeof buf, back, {20, 4});
  CHECK(std::memcmp(back, x, sizeof x) == 0);
  float row[15];
  relayout(one, buf, sizeof buf, make_shape(PrimitiveType::F32, {3, 5}), row, sizeof row);
  CHECK(std::memcmp(row, x, sizeof x) == 0);
  for (float& v : buf) v = 7;
  fill_padding(one, buf, sizeof buf);
  ok = true;
  for (std::size_t i = 0; i < 24; ++i) ok = ok && buf[i] == (data[i] ? 7.0f : 1.0f);
  CHECK(ok);
  CHECK_THROWS(unpack(one, buf, 92, back, {20, 4}), BufferError, "unpack.src");
}

}  // namespace

int main() {
  test_published_examples();
  test_sizes_and_text();
  test_validate();
  test_bump();
  test_pack_example();
  test_relayout();
  test_tiles();
  return check::report();
}
