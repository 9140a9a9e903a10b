// Misuse of the C++ API (issue 6): every wrong call throws a strided::Error subclass whose message
// names the field, and a failed execute() leaves every output byte as it was. Run under
// STRIDED_SANITIZE=ON (scripts/run_sanitizers.sh) this also proves no out-of-bounds access.
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "check.hpp"
#include "strided/strided.hpp"

using namespace strided;
using V = std::vector<std::int64_t>;

namespace {

constexpr std::uint8_t kCanary = 0xA5;
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
int g_cases = 0;

// Runs `f`, expecting exception E whose message contains `needle`.
template <class E, class F>
void expect(F&& f, const std::string& needle, const char* what) {
  ++g_cases;
  try {
    f();
    check::fail(__FILE__, __LINE__, std::string(what) + ": did not throw");
  } catch (const E& e) {
    if (std::string(e.what()).find(needle) == std::string::npos)
      check::fail(__FILE__, __LINE__, std::string(what) + ": message '" + e.what() + "' lacks '" + needle + "'");
    else ++check::passes();
  } catch (const std::exception& e) {
    check::fail(__FILE__, __LINE__, std::string(what) + ": wrong exception type: " + e.what());
  }
}
#define EXPECT(E, expr, needle) expect<E>([&] { (void)(expr); }, needle, #expr)

TensorDesc T(DataType t, V sizes, V strides = {}) { return TensorDesc(t, std::move(sizes), std::move(strides)); }
const DataType F32 = DataType::FLOAT32, I32 = DataType::INT32, I64 = DataType::INT64;

void tensor_desc() {
  EXPECT(ValidationError, T(DataType::UNKNOWN, {2}), "TensorDesc.dtype");
  EXPECT(ValidationError, T(static_cast<DataType>(12), {2}), "TensorDesc.dtype");
  EXPECT(ValidationError, T(static_cast<DataType>(0xffffffffu), {2}), "TensorDesc.dtype");
  EXPECT(ValidationError, T(F32, {}), "TensorDesc.sizes");
  EXPECT(ValidationError, T(F32, {2, 0}), "TensorDesc.sizes[1]");
  EXPECT(ValidationError, T(F32, {-3}), "TensorDesc.sizes[0]");
  EXPECT(ValidationError, T(F32, {kMin}), "TensorDesc.sizes[0]");
  EXPECT(ValidationError, T(F32, V(9, 1)), "TensorDesc.sizes");
  EXPECT(ValidationError, T(F32, V(1000, 1)), "TensorDesc.sizes");
  EXPECT(ValidationError, T(F32, {kMax}), "TensorDesc");
  EXPECT(ValidationError, T(F32, {1 << 30, 1 << 30, 1 << 30}), "TensorDesc");
  EXPECT(ValidationError, T(F32, {kMax, kMax}), "TensorDesc");
  EXPECT(ValidationError, T(F32, {2, 3}, {1}), "TensorDesc.strides");
  EXPECT(ValidationError, T(F32, {2, 3}, {3, -1}), "TensorDesc.strides[1]");
  EXPECT(ValidationError, T(F32, {2, 3}, {kMin, 1}), "TensorDesc.strides[0]");
  EXPECT(ValidationError, T(F32, {3, 3}, {std::int64_t{1} << 62, std::int64_t{1} << 62}), "TensorDesc");
  EXPECT(ValidationError, T(DataType::UINT8, {2}, {kMax}), "TensorDesc");
  EXPECT(ValidationError, T(DataType::FLOAT64, {2}, {kMax / 8}), "TensorDesc");
  EXPECT(ValidationError, TensorDesc(F32, {2, 3}, {}, 20), "TensorDesc.total_bytes");
  EXPECT(ValidationError, TensorDesc(F32, {2}, {}, 0, 3), "TensorDesc.alignment");
  EXPECT(ValidationError, TensorDesc(F32, {2}, {}, 0, 2), "TensorDesc.alignment");
  EXPECT(ValidationError, TensorDesc(F32, {2}, {}, 0, 0x80000001u), "TensorDesc.alignment");
  EXPECT(ValidationError, TensorDesc(F32, {2}, {}, 0, 0, static_cast<TensorFlags>(2)), "TensorDesc.flags");
  EXPECT(ValidationError, calc_buffer_tensor_size(F32, {kMax, 2}), "sizes");
  EXPECT(ValidationError, calc_buffer_tensor_size(F32, {2, 2}, {1}), "strides");
  EXPECT(ValidationError, calc_buffer_tensor_size(DataType::UNKNOWN, {2}), "dtype");
  EXPECT(ValidationError, packed_strides({1, 2, 3}, "NHWC"), "NHWC");
  EXPECT(ValidationError, packed_strides({1, 2}, "XYZ"), "XYZ");
  EXPECT(ValidationError, packed_strides({kMax, kMax}), "");
  EXPECT(ValidationError, packed_strides({1, 2}, std::vector<int>{0, 0}), "");
  EXPECT(ValidationError, packed_strides({1, 2}, std::vector<int>{0, 2}), "");
  EXPECT(ValidationError, packed_strides({1, 2}, std::vector<int>{-1, 0}), "");
}

// validate() and compile() reject `d` with the same message naming `needle`.
void rejects(const AnyDesc& d, const std::string& needle, const char* what) {
  expect<ValidationError>([&] { validate(d); }, needle, what);
  expect<ValidationError>([&] { (void)compile(d); }, needle, what);
  CHECK(!is_valid_at(d, FeatureLevel::FL_6_4));
  expect<ValidationError>([&] { (void)min_feature_level(d); }, "", what);
}
#define REJECTS(desc, needle) rejects(desc, needle, #desc)

void descriptions() {
  const TensorDesc x = T(F32, {2, 4});
  REJECTS((IdentityDesc{x, T(I32, {2, 4})}), "IdentityDesc");
  REJECTS((IdentityDesc{x, T(F32, {4, 2})}), "IdentityDesc");
  REJECTS((IdentityDesc{x, T(F32, {2, 4, 1})}), "IdentityDesc");
  REJECTS((IdentityDesc{x, T(F32, {2, 4}, {0, 1})}), "IdentityDesc.output");
  REJECTS((SplitDesc{x, {x}, 2}), "SplitDesc.axis");
  REJECTS((SplitDesc{x, {x}, -1}), "SplitDesc.axis");
  REJECTS((SplitDesc{x, {x}, kMax}), "SplitDesc.axis");
  REJECTS((SplitDesc{x, {x}, kMin}), "SplitDesc.axis");
  REJECTS((SplitDesc{x, {}, 0}), "SplitDesc.outputs");
  REJECTS((SplitDesc{x, {T(F32, {2, 1}), T(F32, {2, 2})}, 1}), "SplitDesc");
  REJECTS((SplitDesc{x, {T(F32, {2, 3}), T(F32, {2, 2})}, 1}), "SplitDesc");
  REJECTS((SplitDesc{x, {T(F32, {2, 2}), T(I32, {2, 2})}, 1}), "SplitDesc.outputs[1]");
  REJECTS((SplitDesc{x, std::vector<TensorDesc>(5, T(F32, {2, 1})), 1}), "SplitDesc");
  REJECTS((JoinDesc{{x}, x, 5}), "JoinDesc.axis");
  REJECTS((JoinDesc{{}, x, 0}), "JoinDesc.inputs");
  REJECTS((JoinDesc{{x, x}, T(F32, {2, 7}), 1}), "JoinDesc");
  REJECTS((JoinDesc{{x, T(F32, {3, 4})}, T(F32, {2, 8}), 1}), "JoinDesc.inputs[1]");
  REJECTS((JoinDesc{{x, x}, T(F32, {2, 8}, {0, 1}), 1}), "JoinDesc.output");
  REJECTS((SliceDesc{x, T(F32, {1, 1}), {0}, {1, 1}, {1, 1}}), "SliceDesc.offsets");
  REJECTS((SliceDesc{x, T(F32, {1, 1}), {0, 0}, {1, 1}, {1, 0}}), "SliceDesc.strides[1]");
  REJECTS((SliceDesc{x, T(F32, {1, 3}), {0, 1}, {1, 3}, {1, 2}}), "SliceDesc");
  REJECTS((SliceDesc{x, T(F32, {1, 2}), {0, kMax}, {1, 2}, {1, 1}}), "SliceDesc");
  REJECTS((SliceDesc{x, T(F32, {1, 2}), {0, 0}, {1, 2}, {1, kMax}}), "SliceDesc");
  REJECTS((SliceDesc{x, T(F32, {1, 2}), {0, kMin}, {1, 2}, {1, 1}}), "SliceDesc");
  REJECTS((Slice1Desc{x, T(F32, {1, 1}), {0, 0}, {1, 1}, {1, 0}}), "Slice1Desc.strides[1]");
  REJECTS((Slice1Desc{x, T(F32, {1, 2}), {0, 3}, {1, 2}, {1, 1}}), "Slice1Desc");
  REJECTS((Slice1Desc{x, T(F32, {1, 2}), {0, kMax}, {1, 2}, {1, 1}}), "Slice1Desc");
  REJECTS((Slice1Desc{x, T(F32, {1, 1}), {0, 1}, {1, kMax}, {1, 1}}), "Slice1Desc");
  REJECTS((Slice1Desc{x, T(F32, {1, 1}), {0, 1}, {1, kMin}, {1, 1}}), "Slice1Desc.sizes[1]");
  REJECTS((Slice1Desc{x, T(F32, {1, 3}), {0, 0}, {1, 4}, {1, kMin}}), "Slice1Desc");
  REJECTS((Slice1Desc{x, T(F32, {1, 3}), {0, 0}, {1, 4}, {1, 2}}), "Slice1Desc");
  REJECTS((Slice1Desc{x, T(F32, {1, 1}), {0, 0, 0}, {1, 1}, {1, 1}}), "Slice1Desc.offsets");
  const TensorDesc g = T(F32, {1, 4});
  REJECTS((GatherDesc{g, T(I32, {1, 3}), T(F32, {1, 3}), 2, 1}), "GatherDesc.axis");
  REJECTS((GatherDesc{g, T(F32, {1, 3}), T(F32, {1, 3}), 1, 1}), "GatherDesc.indices");
  REJECTS((GatherDesc{g, T(I32, {1, 3}), T(F32, {1, 3}), 1, kMax}), "GatherDesc.index_dimensions");
  REJECTS((GatherDesc{g, T(I32, {1, 3}), T(F32, {1, 4}), 1, 1}), "GatherDesc.output");
  REJECTS((GatherElementsDesc{g, T(I64, {2, 2}), T(F32, {2, 2}), 1}), "GatherElementsDesc");
  REJECTS((GatherElementsDesc{g, T(I64, {1, 2}), T(F32, {1, 2}), kMin}), "GatherElementsDesc.axis");
  REJECTS((GatherNDDesc{T(F32, {2, 2}), T(I64, {2, 1}), T(F32, {2, 2}), 3, 2, 0}), "GatherNDDesc");
  REJECTS((GatherNDDesc{T(F32, {2, 2}), T(I64, {1, 3}), T(F32, {1, 1}), 2, 2, 0}), "GatherNDDesc");
  REJECTS((GatherNDDesc{T(F32, {2, 2}), T(I64, {2, 1}), T(F32, {2, 2}), 2, 2, kMax}), "GatherNDDesc");
  REJECTS((GatherNDDesc{T(F32, {2, 2}), T(I64, {2, 1}), T(F32, {2, 2}), kMin, 2, 0}), "GatherNDDesc");
  const TensorDesc s = T(F32, {3, 3});
  REJECTS((ScatterDesc{s, T(I32, {2, 3}), T(F32, {2, 3}), s, 2}), "ScatterDesc.axis");
  REJECTS((ScatterDesc{s, T(I32, {2, 3}), T(F32, {3, 3}), s, 0}), "ScatterDesc.updates");
  REJECTS((ScatterDesc{s, T(I32, {2, 4}), T(F32, {2, 4}), s, 0}), "ScatterDesc.indices");
  REJECTS((ScatterDesc{s, T(I32, {2, 3}), T(F32, {2, 3}), T(F32, {3, 3}, {0, 1}), 0}), "ScatterDesc.output");
  REJECTS((ScatterDesc{s, T(I32, {2, 3}), T(F32, {2, 3}), s, 0, static_cast<ScatterReduction>(9)}), "ScatterDesc");
  REJECTS((ScatterNDDesc{T(F32, {1, 8}), T(I64, {4, 1}), T(F32, {1, 5}), T(F32, {1, 8}), 1, 2}), "ScatterNDDesc");
  REJECTS((ScatterNDDesc{T(F32, {1, 8}), T(I64, {4, 1}), T(F32, {1, 4}), T(F32, {1, 8}), kMax, 2}), "ScatterNDDesc");
  // The level checks answer (never crash) for an unknown level.
  ++g_cases;
  CHECK(!is_valid_at(IdentityDesc{x, x}, static_cast<FeatureLevel>(0x1234)));
  EXPECT(ValidationError, validate(IdentityDesc{x, x}, static_cast<FeatureLevel>(0x1234)), "");
}

struct Bytes {
  std::vector<std::uint8_t> v;
  explicit Bytes(std::size_t n, std::uint8_t fill = kCanary) : v(n, fill) {}
  bool all_canary() const {
    for (auto b : v)
      if (b != kCanary) return false;
    return true;
  }
  ConstBuffer in() const { return {v.data(), v.size()}; }
  Buffer out() { return {v.data(), v.size()}; }
};

void execute_buffers() {
  const TensorDesc x = T(F32, {2, 4});
  const CompiledOperator id = compile(IdentityDesc{x, x});
  Bytes in(32, 1), out(32), short_in(31, 1), short_out(31);
  EXPECT(BufferError, id.execute({}, {out.out()}), "execute.inputs");
  EXPECT(BufferError, id.execute({in.in(), in.in()}, {out.out()}), "execute.inputs");
  EXPECT(BufferError, id.execute({in.in()}, {}), "execute.outputs");
  EXPECT(BufferError, id.execute({in.in()}, {out.out(), out.out()}), "execute.outputs");
  EXPECT(BufferError, id.execute({short_in.in()}, {out.out()}), "execute.inputs[0]");
  EXPECT(BufferError, id.execute({in.in()}, {short_out.out()}), "execute.outputs[0]");
  EXPECT(BufferError, id.execute({ConstBuffer{nullptr, 32}}, {out.out()}), "execute.inputs[0]");
  EXPECT(BufferError, id.execute({in.in()}, {Buffer{nullptr, 32}}), "execute.outputs[0]");
  EXPECT(BufferError, id.execute({ConstBuffer{nullptr, 0}}, {out.out()}), "execute.inputs[0]");
  CHECK(out.all_canary());
  CHECK(short_out.all_canary());

  const CompiledOperator split = compile(SplitDesc{x, {T(F32, {2, 1}), T(F32, {2, 3})}, 1});
  Bytes o1(8), o2(20), o2s(19);
  EXPECT(BufferError, split.execute({in.in()}, {o1.out(), o2s.out()}), "execute.outputs[1]");
  CHECK(o1.all_canary() && o2s.all_canary());

  // total_bytes larger than the minimum: the buffer must cover all of it.
  const CompiledOperator padded = compile(IdentityDesc{x, TensorDesc(F32, {2, 4}, {}, 64)});
  Bytes p60(60);
  EXPECT(BufferError, padded.execute({in.in()}, {p60.out()}), "64");
  CHECK(p60.all_canary());
}

template <class I>
std::vector<std::uint8_t> index_bytes(std::vector<I> v) {
  std::vector<std::uint8_t> b(v.size() * sizeof(I));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

void execute_indices() {
  const TensorDesc s = T(F32, {3, 3});
  Bytes data(36, 0), upd(24, 0);
  {  // Scatter: one bad index after good ones: nothing written.
    const auto op = compile(ScatterDesc{s, T(I32, {2, 3}), T(F32, {2, 3}), s, 0});
    const auto idx = index_bytes<std::int32_t>({1, 0, 2, 0, 3, 1});
    Bytes out(36);
    EXPECT(IndexError, op.execute({data.in(), {idx.data(), idx.size()}, upd.in()}, {out.out()}), "[1, 1]");
    CHECK(out.all_canary());
  }
  {  // Scatter in place (output = input buffer): the input bytes survive a failed call.
    const auto op = compile(ScatterDesc{s, T(I32, {1, 3}), T(F32, {1, 3}), s, 0});
    const auto idx = index_bytes<std::int32_t>({0, 1, -4});
    Bytes buf(36);
    EXPECT(IndexError, op.execute({buf.in(), {idx.data(), idx.size()}, upd.in()}, {buf.out()}), "-4");
    CHECK(buf.all_canary());
  }
  {  // Gather: INT64 extremes.
    const auto op = compile(GatherDesc{T(F32, {1, 4}), T(I64, {1, 3}), T(F32, {1, 3}), 1, 1});
    for (std::int64_t bad : {kMin, kMax, std::int64_t{4}, std::int64_t{-5}}) {
      const auto idx = index_bytes<std::int64_t>({0, bad, 1});
      Bytes in(16, 0), out(12);
      EXPECT(IndexError, op.execute({in.in(), {idx.data(), idx.size()}}, {out.out()}), std::to_string(bad));
      CHECK(out.all_canary());
    }
  }
  {  // Gather: UINT64 / UINT32 max.
    const auto op = compile(GatherDesc{T(F32, {1, 4}), T(DataType::UINT64, {1, 2}), T(F32, {1, 2}), 1, 1});
    const auto idx = index_bytes<std::uint64_t>({0, ~std::uint64_t{0}});
    Bytes in(16, 0), out(8);
    EXPECT(IndexError, op.execute({in.in(), {idx.data(), idx.size()}}, {out.out()}), "18446744073709551615");
    CHECK(out.all_canary());
    const auto op32 = compile(GatherDesc{T(F32, {1, 4}), T(DataType::UINT32, {1, 2}), T(F32, {1, 2}), 1, 1});
    const auto idx32 = index_bytes<std::uint32_t>({0xffffffffu, 0});
    EXPECT(IndexError, op32.execute({in.in(), {idx32.data(), idx32.size()}}, {out.out()}), "4294967295");
    CHECK(out.all_canary());
  }
  {  // GatherElements, GatherND, ScatterND.
    const auto ge = compile(GatherElementsDesc{s, T(I64, {2, 3}), T(F32, {2, 3}), 0});
    const auto idx = index_bytes<std::int64_t>({1, 2, 0, 2, 3, 0});
    Bytes out(24);
    EXPECT(IndexError, ge.execute({data.in(), {idx.data(), idx.size()}}, {out.out()}), "[1, 1]");
    CHECK(out.all_canary());
    const auto gnd = compile(GatherNDDesc{T(F32, {2, 2}), T(I64, {2, 1}), T(F32, {2, 2}), 2, 2, 0});
    const auto idx2 = index_bytes<std::int64_t>({1, 2});
    Bytes in16(16, 0), out16(16);
    EXPECT(IndexError, gnd.execute({in16.in(), {idx2.data(), idx2.size()}}, {out16.out()}), "2");
    CHECK(out16.all_canary());
    const auto snd = compile(ScatterNDDesc{T(F32, {1, 8}), T(I64, {4, 1}), T(F32, {1, 4}), T(F32, {1, 8}), 1, 2});
    const auto idx3 = index_bytes<std::int64_t>({4, 3, -9, 7});
    Bytes in32(32, 0), u16(16, 0), out32(32);
    EXPECT(IndexError, snd.execute({in32.in(), {idx3.data(), idx3.size()}, u16.in()}, {out32.out()}), "-9");
    CHECK(out32.all_canary());
  }
}

void extreme_valid_strides() {
  // |stride| huge but a one-element window: valid, and must not overflow when scaled to bytes.
  for (std::int64_t st : {kMin, kMax, std::int64_t{1} << 62, -(std::int64_t{1} << 62)}) {
    const auto op = compile(Slice1Desc{T(F32, {2, 4}), T(F32, {1, 1}), {1, 2}, {1, 1}, {1, st}});
    float in[8] = {0, 1, 2, 3, 4, 5, 6, 7}, out = -1;
    op.execute({{in, sizeof in}}, {{&out, sizeof out}});
    CHECK_EQ(out, 6.0f);
    if (st > 0) {  // Slice (v1): unsigned strides, same rule
      const auto v1 = compile(SliceDesc{T(F32, {2, 4}), T(F32, {1, 1}), {1, 2}, {1, 1}, {1, st}});
      out = -1;
      v1.execute({{in, sizeof in}}, {{&out, sizeof out}});
      CHECK_EQ(out, 6.0f);
    }
  }
}

void xla_misuse() {
  using namespace strided::xla;
  const Shape bad_perm(PrimitiveType::F32, {2, 3}, Layout({0, 0}));
  const Shape bad_range(PrimitiveType::F32, {2, 3}, Layout({0, 7}));
  const Shape bad_pad(PrimitiveType::F32, {2, 3}, Layout({1, 0}, {2, 2}));
  const Shape neg(PrimitiveType::F32, {2, -3});
  const Shape bad_tile(PrimitiveType::F32, {2, 3}, Layout({1, 0}, {}, PaddingValue::ZERO_PAD, {{0, 2}}));
  const Shape bad_sub(PrimitiveType::F32, {2, 3}, Layout({1, 0}, {}, PaddingValue::ZERO_PAD, {{2, 2}, {3}}));
  const Shape ok = make_shape(PrimitiveType::F32, {2, 3});
  EXPECT(ValidationError, bad_tile.validate(), "tiles[0][0]");
  EXPECT(ValidationError, bad_sub.validate(), "tiles[1]");
  EXPECT(ValidationError, bad_perm.validate(), "minor_to_major");
  EXPECT(ValidationError, bad_range.validate(), "minor_to_major");
  EXPECT(ValidationError, bad_pad.validate(), "padded_dimensions");
  EXPECT(ValidationError, neg.validate(), "dimensions[1]");
  EXPECT(ValidationError, Shape(static_cast<PrimitiveType>(99), {2}).validate(), "element_type");
  EXPECT(ValidationError, Shape(PrimitiveType::F64, {kMax, kMax}).validate(), "");
  EXPECT(ValidationError, Shape::parse("f32[2,3"), "");
  EXPECT(ValidationError, Shape::parse("f32[2,3]{0,0}"), "");
  EXPECT(ValidationError, Shape::parse("f32[9223372036854775808]"), "");
  EXPECT(ValidationError, Shape::parse(std::string(100000, '[')), "");
  EXPECT(ValidationError, make_layout_from_major_to_minor({0, 0}), "");
  EXPECT(ValidationError, default_layout(-1), "");
  // Invalid shapes must be refused by everything that computes offsets from them.
  for (const Shape* sh : {&bad_perm, &bad_range, &bad_pad, &neg, &bad_tile, &bad_sub}) {
    EXPECT(ValidationError, multidimensional_index_to_linear_index(*sh, {0, 0}), "");
    EXPECT(ValidationError, linear_index_to_multidimensional_index(*sh, 0), "");
    EXPECT(ValidationError, dimension_stride(*sh, 0), "");
    Bytes buf(64);
    float src[6] = {};
    EXPECT(ValidationError, fill_padding(*sh, buf.v.data(), buf.v.size()), "");
    EXPECT(ValidationError, pack(*sh, src, {12, 4}, buf.v.data(), buf.v.size()), "");
    EXPECT(ValidationError, relayout(*sh, src, sizeof src, ok, buf.v.data(), buf.v.size()), "");
    CHECK(buf.all_canary());
  }
  EXPECT(ValidationError, multidimensional_index_to_linear_index(ok, {0, 3}), "index[1]");
  EXPECT(ValidationError, multidimensional_index_to_linear_index(ok, {0}), "index");
  EXPECT(ValidationError, multidimensional_index_to_linear_index(ok, {kMin, 0}), "index[0]");
  EXPECT(ValidationError, linear_index_to_multidimensional_index(ok, 6), "");
  EXPECT(ValidationError, linear_index_to_multidimensional_index(ok, kMin), "");
  EXPECT(ValidationError, bump_indices(ok, {2, 0}), "");
  EXPECT(ValidationError, dimension_stride(ok, 2), "");
  EXPECT(ValidationError, dimension_stride(ok, kMin), "");
  Bytes dst(24), dst_short(23);
  float src[6] = {1, 2, 3, 4, 5, 6};
  EXPECT(BufferError,
         relayout(ok, src, 23, make_shape_with_layout(PrimitiveType::F32, {2, 3}, {0, 1}), dst.v.data(), dst.v.size()),
         "");
  EXPECT(BufferError,
         relayout(ok, src, sizeof src, make_shape_with_layout(PrimitiveType::F32, {2, 3}, {0, 1}), dst_short.v.data(),
                  dst_short.v.size()),
         "");
  EXPECT(ValidationError,
         relayout(ok, src, sizeof src, make_shape(PrimitiveType::S32, {2, 3}), dst.v.data(), dst.v.size()), "");
  EXPECT(ValidationError,
         relayout(ok, src, sizeof src, make_shape(PrimitiveType::F32, {3, 2}), dst.v.data(), dst.v.size()), "");
  EXPECT(BufferError, pack(ok, src, {12, 4}, dst_short.v.data(), dst_short.v.size()), "");
  EXPECT(BufferError, fill_padding(ok, dst_short.v.data(), dst_short.v.size()), "");
  // A tiled destination (f32[2,3]{1,0:T(2,2)}: 32 bytes) that is too short is refused unwritten.
  const Shape tiled(PrimitiveType::F32, {2, 3}, Layout({1, 0}, {}, PaddingValue::ONE_PAD, {{2, 2}}));
  EXPECT(BufferError, relayout(ok, src, sizeof src, tiled, dst.v.data(), dst.v.size()), "relayout.dst_buf");
  EXPECT(BufferError, pack(tiled, src, {12, 4}, dst.v.data(), dst.v.size()), "pack.dst");
  EXPECT(BufferError, unpack(tiled, src, sizeof src, dst.v.data(), {12, 4}), "unpack.src");
  EXPECT(ValidationError, unpack(tiled, src, 32, dst.v.data(), {4}), "unpack.dst_strides");
  CHECK(dst.all_canary() && dst_short.all_canary());
}

}  // namespace

int main() {
  tensor_desc();
  descriptions();
  execute_buffers();
  execute_indices();
  extreme_valid_strides();
  xla_misuse();
  std::printf("misuse cases: %d\n", g_cases);
  return check::report();
}
