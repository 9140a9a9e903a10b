// Index operators through the C++ API (compile + execute): the SPEC 3.4 examples, duplicates
// and reductions, index errors that write nothing, in-place scatter, and the FLOAT16 converter
// against exhaustive/known values.
#include <cmath>
#include <cstring>
#include <vector>

#include "check.hpp"
#include "index/common.hpp"
#include "strided/strided.hpp"

using namespace strided;

namespace {

template <class T>
ConstBuffer cb(const std::vector<T>& v) {
  return ConstBuffer{v.data(), v.size() * sizeof(T)};
}
template <class T>
Buffer bb(std::vector<T>& v) {
  return Buffer{v.data(), v.size() * sizeof(T)};
}

void spec_scatter_1d() {
  std::vector<float> in{0, 1, 2, 3, 4}, upd{5, 6, 7, 8}, out(5, -1);
  std::vector<std::uint32_t> idx{3, 1, 3, 0};
  ScatterDesc d{TensorDesc(DataType::FLOAT32, {5}), TensorDesc(DataType::UINT32, {4}),
                TensorDesc(DataType::FLOAT32, {4}), TensorDesc(DataType::FLOAT32, {5}), 0};
  compile(d).execute({cb(in), cb(idx), cb(upd)}, {bb(out)});
  CHECK(out == (std::vector<float>{8, 6, 2, 7, 4}));
}

void spec_scatter_2d() {
  std::vector<float> in(9, 0), upd{10, 11, 12, 20, 21, 22}, out(9, -1);
  std::vector<std::int64_t> idx{1, 0, 2, 0, 2, 1};
  ScatterDesc d{TensorDesc(DataType::FLOAT32, {3, 3}), TensorDesc(DataType::INT64, {2, 3}),
                TensorDesc(DataType::FLOAT32, {2, 3}), TensorDesc(DataType::FLOAT32, {3, 3}), 0};
  compile(d).execute({cb(in), cb(idx), cb(upd)}, {bb(out)});
  CHECK(out == (std::vector<float>{20, 11, 0, 10, 0, 22, 0, 21, 12}));
}

void spec_gathers() {
  {
    std::vector<float> in{1, 2, 3, 4, 5, 6, 7, 8, 9}, out(6, -1);
    std::vector<std::int32_t> idx{1, 2, 0, 2, 0, 0};
    GatherElementsDesc d{TensorDesc(DataType::FLOAT32, {3, 3}), TensorDesc(DataType::INT32, {2, 3}),
                         TensorDesc(DataType::FLOAT32, {2, 3}), 0};
    compile(d).execute({cb(in), cb(idx)}, {bb(out)});
    CHECK(out == (std::vector<float>{4, 8, 3, 7, 2, 3}));
  }
  {
    std::vector<float> in{11, 12, 13, 14}, out(5, -1);
    std::vector<std::uint64_t> idx{3, 1, 3, 0, 2};
    GatherDesc d{TensorDesc(DataType::FLOAT32, {1, 1, 1, 4}), TensorDesc(DataType::UINT64, {1, 1, 1, 5}),
                 TensorDesc(DataType::FLOAT32, {1, 1, 1, 5}), 3, 1};
    compile(d).execute({cb(in), cb(idx)}, {bb(out)});
    CHECK(out == (std::vector<float>{14, 12, 14, 11, 13}));
  }
  {
    std::vector<float> in{0, 1, 2, 3}, out(4, -1);
    std::vector<std::uint32_t> idx{1, 0};
    GatherNDDesc d{TensorDesc(DataType::FLOAT32, {2, 2}),
                   TensorDesc(DataType::UINT32, {2, 1}),
                   TensorDesc(DataType::FLOAT32, {2, 2}),
                   2,
                   2,
                   0};
    compile(d).execute({cb(in), cb(idx)}, {bb(out)});
    CHECK(out == (std::vector<float>{2, 3, 0, 1}));
  }
  {
    std::vector<float> in{1, 2, 3, 4, 5, 6, 7, 8}, upd{9, 10, 11, 12}, out(8, -1);
    std::vector<std::uint32_t> idx{4, 3, 1, 7};
    ScatterNDDesc d{TensorDesc(DataType::FLOAT32, {1, 8}),
                    TensorDesc(DataType::UINT32, {4, 1}),
                    TensorDesc(DataType::FLOAT32, {1, 4}),
                    TensorDesc(DataType::FLOAT32, {1, 8}),
                    1,
                    2};
    compile(d).execute({cb(in), cb(idx), cb(upd)}, {bb(out)});
    CHECK(out == (std::vector<float>{1, 11, 3, 10, 9, 6, 7, 12}));
  }
}

void reductions_and_in_place() {
  std::vector<std::int16_t> x{1, 2, 3, 0};
  std::vector<std::int64_t> idx{0, 0, -1, 0};
  std::vector<std::int16_t> upd{5, -4, 7, 2};
  const TensorDesc tx(DataType::INT16, {3}), ti(DataType::INT64, {4}), tu(DataType::INT16, {4});
  auto run = [&](ScatterReduction r) {
    std::vector<std::int16_t> out(4, 0);
    compile(ScatterDesc{tx, ti, tu, tx, 0, r}).execute({cb(x), cb(idx), cb(upd)}, {bb(out)});
    out.resize(3);
    return out;
  };
  CHECK(run(ScatterReduction::NONE) == (std::vector<std::int16_t>{2, 2, 7}));
  CHECK(run(ScatterReduction::ADD) == (std::vector<std::int16_t>{4, 2, 10}));
  CHECK(run(ScatterReduction::MUL) == (std::vector<std::int16_t>{-40, 2, 21}));
  CHECK(run(ScatterReduction::MIN) == (std::vector<std::int16_t>{-4, 2, 3}));
  CHECK(run(ScatterReduction::MAX) == (std::vector<std::int16_t>{5, 2, 7}));
  // in place: the output buffer is the input buffer
  std::vector<std::int16_t> y{1, 2, 3, 99};  // total_bytes rounds 6 up to 8
  compile(ScatterDesc{tx, ti, tu, tx, 0, ScatterReduction::ADD})
      .execute({ConstBuffer{y.data(), 8}, cb(idx), cb(upd)}, {Buffer{y.data(), 8}});
  CHECK(y == (std::vector<std::int16_t>{4, 2, 10, 99}));
}

void index_errors_write_nothing() {
  std::vector<float> in(9, 1), upd(6, 2), out(9, -7);
  std::vector<std::int64_t> idx{1, 0, 2, 0, 2, 7};
  ScatterDesc d{TensorDesc(DataType::FLOAT32, {3, 3}), TensorDesc(DataType::INT64, {2, 3}),
                TensorDesc(DataType::FLOAT32, {2, 3}), TensorDesc(DataType::FLOAT32, {3, 3}), 0};
  const CompiledOperator op = compile(d);
  CHECK_THROWS(op.execute({cb(in), cb(idx), cb(upd)}, {bb(out)}), IndexError,
               "ScatterDesc.indices[1, 2] = 7: out of range [-3, 3) for axis 0");
  bool untouched = true;
  for (float v : out) untouched = untouched && v == -7;
  CHECK(untouched);
  idx[5] = -4;
  CHECK_THROWS(op.execute({cb(in), cb(idx), cb(upd)}, {bb(out)}), IndexError,
               "ScatterDesc.indices[1, 2] = -4: out of range [-3, 3)");
  idx[5] = -3;  // the first row: counts from the end
  op.execute({cb(in), cb(idx), cb(upd)}, {bb(out)});
  CHECK(out[2] == 2 && out[3] == 2);

  std::vector<std::uint32_t> nd_idx{1, 0, 2, 1};  // (1,0) fine, (2,1) bad in component 0
  std::vector<float> nd_in{0, 1, 2, 3}, nd_out(2, -7);
  GatherNDDesc g{TensorDesc(DataType::FLOAT32, {2, 2}),
                 TensorDesc(DataType::UINT32, {2, 2}),
                 TensorDesc(DataType::FLOAT32, {1, 2}),
                 2,
                 2,
                 0};
  CHECK_THROWS(compile(g).execute({cb(nd_in), cb(nd_idx)}, {bb(nd_out)}), IndexError,
               "GatherNDDesc.indices[1, 0] = 2: out of range [0, 2) for axis 0");
  CHECK(nd_out[0] == -7 && nd_out[1] == -7);
}

// SPEC 3.4: indices smaller than the input off the axis execute (ONNX) but no DirectML level
// accepts them; larger ones are invalid.
void smaller_indices() {
  const TensorDesc in(DataType::FLOAT32, {2, 3}), ix(DataType::INT64, {1, 2}), small(DataType::FLOAT32, {1, 2});
  std::vector<float> data{0, 1, 2, 3, 4, 5}, gout(2, -1);
  std::vector<std::int64_t> idx{0, 1};
  const GatherElementsDesc g{in, ix, small, 0};
  validate(g);
  compile(g).execute({cb(data), cb(idx)}, {bb(gout)});
  CHECK(gout == (std::vector<float>{0, 4}));  // ONNX Runtime's test vector

  std::vector<float> zeros(6, 0), upd{7, 8}, sout(6, -1);
  std::vector<std::int64_t> sidx{1, 0};
  const ScatterDesc s{in, ix, small, in, 0};
  validate(s);
  compile(s).execute({cb(zeros), cb(sidx), cb(upd)}, {bb(sout)});
  CHECK(sout == (std::vector<float>{0, 8, 0, 7, 0, 0}));
  std::vector<float> y{0, 1, 2, 3, 4, 5};  // in place: what the indices do not reach keeps its value
  compile(ScatterDesc{in, ix, small, in, 0, ScatterReduction::ADD}).execute({cb(y), cb(sidx), cb(upd)}, {bb(y)});
  CHECK(y == (std::vector<float>{0, 9, 2, 10, 4, 5}));

  const char* why = "indices.sizes[1]: 2 is smaller than input.sizes[1] (3): no DirectML feature level accepts it, "
                    "since DirectML requires indices sizes equal to input sizes off the axis";
  bool any_valid = false;
  for (FeatureLevel l : {FeatureLevel::FL_1_0, FeatureLevel::FL_2_0, FeatureLevel::FL_2_1, FeatureLevel::FL_3_0,
                         FeatureLevel::FL_4_1, FeatureLevel::FL_6_4})
    any_valid = any_valid || is_valid_at(g, l) || is_valid_at(s, l);
  CHECK(!any_valid);
  CHECK_THROWS(validate(g, FeatureLevel::FL_1_0), ValidationError, std::string("GatherElementsDesc.") + why);
  CHECK_THROWS(validate(s, FeatureLevel::FL_6_4), ValidationError, std::string("ScatterDesc.") + why);
  CHECK_THROWS(min_feature_level(g), ValidationError, std::string("GatherElementsDesc.") + why);
  CHECK_THROWS(min_feature_level(s), ValidationError, std::string("ScatterDesc.") + why);

  const TensorDesc wide(DataType::INT64, {1, 4}), wide_f(DataType::FLOAT32, {1, 4});
  CHECK_THROWS(validate(GatherElementsDesc{in, wide, wide_f, 0}), ValidationError,
               "GatherElementsDesc.indices.sizes[1]: must be at most input.sizes[1] (3) off the axis (0), got 4");
  CHECK_THROWS(compile(ScatterDesc{in, wide, wide_f, in, 0}), ValidationError,
               "ScatterDesc.indices.sizes[1]: must be at most input.sizes[1] (3)");
  CHECK_THROWS(validate(ScatterDesc{in, ix, wide_f, in, 0}), ValidationError,
               "ScatterDesc.updates.sizes[1]: must equal indices.sizes[1] (2), got 4");
  const TensorDesc one_d(DataType::INT64, {2}), one_d_f(DataType::FLOAT32, {2});
  CHECK_THROWS(validate(GatherElementsDesc{in, one_d, one_d_f, 0}), ValidationError,
               "GatherElementsDesc.indices.sizes: must have the same dimension count");
}

void half_converter() {
  using detail::index::half_bits;
  using detail::index::half_value;
  // the scatter reductions' FLOAT16 conversions (elem/cast.hpp): every non-NaN half survives
  // half -> float -> half; NaNs stay NaN
  int bad = 0;
  for (std::uint32_t h = 0; h < 65536; ++h) {
    const auto b = static_cast<std::uint16_t>(h);
    const float f = half_value(b);
    const bool nan = (b & 0x7c00u) == 0x7c00u && (b & 0x3ffu);
    if (nan ? !std::isnan(f) || (half_bits(f) & 0x7c00u) != 0x7c00u || !(half_bits(f) & 0x3ffu) : half_bits(f) != b)
      ++bad;
  }
  CHECK_EQ(bad, 0);
  CHECK_EQ(half_value(0x3c00), 1.0f);
  CHECK_EQ(half_value(0x0001), std::ldexp(1.0f, -24));
  CHECK_EQ(half_bits(65504.0f), 0x7bff);
  CHECK_EQ(half_bits(65520.0f), 0x7c00);  // halfway above the max rounds to inf
  CHECK_EQ(half_bits(2049.0f), 0x6800);   // tie between 2048 and 2050: even (2048)
  CHECK_EQ(half_bits(2051.0f), 0x6802);   // tie between 2050 and 2052: even (2052)
  CHECK_EQ(half_bits(std::ldexp(1.0f, -25)), 0x0000);               // tie to even zero
  CHECK_EQ(half_bits(std::ldexp(1.5f, -25)), 0x0001);               // above the tie
  CHECK_EQ(half_bits(std::ldexp(3.0f, -25)), 0x0002);               // 1.5 ulp: tie to even 2
  CHECK_EQ(half_bits(-0.0f), 0x8000);
  CHECK_EQ(half_bits(std::ldexp(1.0f, -14) * (1.0f - std::ldexp(1.0f, -12))), 0x0400);  // rounds up to normal
}

}  // namespace

int main() {
  spec_scatter_1d();
  spec_scatter_2d();
  spec_gathers();
  reductions_and_in_place();
  index_errors_write_nothing();
  smaller_indices();
  half_converter();
  return check::report();
}
