// Validation rules of SPEC.md sections 2-4 from C++: examples that must pass, one failing case per
// rule with the field named, the feature-level table, min_feature_level, and a random-struct
// fuzz that must only ever pass or throw ValidationError.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "strided/strided.hpp"

using namespace strided;
using V = std::vector<std::int64_t>;
constexpr auto F32 = DataType::FLOAT32;
constexpr auto U32 = DataType::UINT32;

static TensorDesc T(DataType t, V sizes, V strides = {}) { return TensorDesc(t, std::move(sizes), std::move(strides)); }

static void tensor_sizes() {
  CHECK_EQ(calc_buffer_tensor_size(F32, {2, 3}, {5, 1}), 32u);
  CHECK_EQ(calc_buffer_tensor_size(F32, {2, 3}, {0, 1}), 12u);
  CHECK_EQ(calc_buffer_tensor_size(DataType::FLOAT16, {3}), 8u);
  CHECK_EQ(calc_buffer_tensor_size(DataType::UINT8, {1}), 4u);
  CHECK((packed_strides({1, 1, 3, 5}, "NCHW") == V{15, 15, 5, 1}));
  CHECK((packed_strides({1, 1, 3, 5}, "NHWC") == V{15, 1, 5, 1}));
  CHECK((packed_strides({2, 2, 3}) == V{6, 3, 1}));
  CHECK_THROWS(calc_buffer_tensor_size(F32, {1LL << 40, 1LL << 40}), ValidationError, "sizes");
  CHECK_THROWS(calc_buffer_tensor_size(F32, {2, 2}, {1LL << 62, 1}), ValidationError, "strides");
  CHECK_THROWS(T(F32, {}), ValidationError, "TensorDesc.sizes");
  CHECK_THROWS(T(F32, {1, 1, 1, 1, 1, 1, 1, 1, 1}), ValidationError, "TensorDesc.sizes");
  CHECK_THROWS(T(F32, {2, 0}), ValidationError, "TensorDesc.sizes[1]");
  CHECK_THROWS(T(F32, {2, 3}, {1}), ValidationError, "TensorDesc.strides");
  CHECK_THROWS(T(F32, {2, 3}, {3, -1}), ValidationError, "TensorDesc.strides[1]");
  CHECK_THROWS(TensorDesc(F32, {2, 3}, {}, 20), ValidationError, "TensorDesc.total_bytes");
  CHECK_THROWS(TensorDesc(F32, {2, 3}, {}, 0, 2), ValidationError, "TensorDesc.alignment");
  CHECK_THROWS(TensorDesc(F32, {2, 3}, {}, 0, 12), ValidationError, "TensorDesc.alignment");
  CHECK_THROWS(TensorDesc(DataType::UNKNOWN, {2, 3}), ValidationError, "TensorDesc.dtype");
  CHECK_THROWS(TensorDesc(F32, {2}, {}, 0, 0, static_cast<TensorFlags>(2)), ValidationError, "TensorDesc.flags");
  // is_packed must not overflow on broadcast tensors whose element count exceeds int64.
  TensorDesc big(DataType::UINT8, {1LL << 31, 1LL << 32}, {0, 0});
  CHECK(!big.is_packed());
  CHECK(big.is_broadcast());
  CHECK(T(F32, {1, 4}, {0, 1}).is_packed());
}

static void examples_pass() {
  const TensorDesc x44 = T(F32, {1, 1, 4, 4});
  Slice1Desc s1{x44, T(F32, {1, 1, 2, 2}), {0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, -2, 2}};
  validate(s1);
  CHECK(min_feature_level(s1) == FeatureLevel::FL_2_1);
  validate(SliceDesc{x44, T(F32, {1, 1, 3, 2}), {0, 0, 1, 2}, {1, 1, 3, 2}, {1, 1, 1, 1}});
  validate(SliceDesc{x44, T(F32, {1, 1, 2, 2}), {0, 0, 1, 0}, {1, 1, 2, 2}, {1, 1, 2, 3}});
  validate(SplitDesc{T(F32, {1, 1, 6, 2}), {T(F32, {1, 1, 2, 2}), T(F32, {1, 1, 1, 2}), T(F32, {1, 1, 3, 2})}, 2});
  validate(JoinDesc{{T(F32, {1, 1, 2, 3}), T(F32, {1, 1, 2, 4})}, T(F32, {1, 1, 2, 7}), 3});
  validate(ScatterDesc{T(F32, {5}), T(U32, {4}), T(F32, {4}), T(F32, {5}), 0});
  validate(ScatterDesc{T(F32, {3, 3}), T(U32, {2, 3}), T(F32, {2, 3}), T(F32, {3, 3}), 0});
  validate(GatherElementsDesc{T(F32, {3, 3}), T(U32, {2, 3}), T(F32, {2, 3}), 0});
  validate(GatherDesc{T(F32, {4}), T(U32, {5}), T(F32, {5}), 0, 1});
  validate(GatherNDDesc{T(F32, {2, 2}), T(U32, {2, 1}), T(F32, {2, 2}), 2, 2, 0});
  // DirectML's GatherND1 example 2: batch 1, 3x2 tuples of 2 coordinates.
  GatherNDDesc nd1{T(F32, {1, 3, 2, 2}), T(U32, {1, 3, 2, 2}), T(F32, {1, 1, 3, 2}), 3, 3, 1};
  validate(nd1);
  CHECK(min_feature_level(nd1) == FeatureLevel::FL_3_0);
  // DirectML's GatherND page: input {3,4,5,6,7}, indices {1,1,1,2,3} (3-tuples) -> {1,1,2,6,7}.
  validate(GatherNDDesc{T(F32, {3, 4, 5, 6, 7}), T(U32, {1, 1, 1, 2, 3}), T(F32, {1, 1, 2, 6, 7}), 5, 3, 0});
  // ScatterND example: in [1..8], idx [[4],[3],[1],[7]] as {1,8}, {4,1}, updates {1,4}.
  validate(ScatterNDDesc{T(F32, {1, 8}), T(U32, {4, 1}), T(F32, {1, 4}), T(F32, {1, 8}), 1, 2});
  // Identity relayout NCHW -> NHWC, broadcast input.
  validate(IdentityDesc{T(F32, {1, 2, 3, 5}), T(F32, {1, 2, 3, 5}, packed_strides({1, 2, 3, 5}, "NHWC"))});
  validate(IdentityDesc{T(F32, {4, 3}, {0, 1}), T(F32, {4, 3})});
}

static void rules_fail() {
  const TensorDesc a = T(F32, {2, 3}), b = T(F32, {2, 4});
  CHECK_THROWS(validate(IdentityDesc{a, b}), ValidationError, "IdentityDesc.output.sizes[1]");
  CHECK_THROWS(validate(IdentityDesc{a, T(DataType::INT32, {2, 3})}), ValidationError, "IdentityDesc.output.dtype");
  CHECK_THROWS(validate(IdentityDesc{a, T(F32, {1, 2, 3})}), ValidationError, "IdentityDesc.output.sizes");
  CHECK_THROWS(validate(IdentityDesc{a, T(F32, {2, 3}, {0, 1})}), ValidationError, "IdentityDesc.output.strides[0]");
  CHECK_THROWS(validate(IdentityDesc{a, T(F32, {2, 3}, {2, 1})}), ValidationError, "IdentityDesc.output.strides[0]");
  validate(IdentityDesc{a, T(F32, {2, 3}, {1, 2})});  // column-major output: fine
  validate(IdentityDesc{a, T(F32, {2, 3}, {3, 1})});

  const TensorDesc in = T(F32, {1, 1, 6, 2});
  CHECK_THROWS(validate(SplitDesc{in, {}, 2}), ValidationError, "SplitDesc.outputs");
  CHECK_THROWS(validate(SplitDesc{in, {in}, 4}), ValidationError, "SplitDesc.axis: 4 is out of range for 4 dimensions");
  CHECK_THROWS(validate(SplitDesc{in, {in}, -1}), ValidationError, "SplitDesc.axis: -1 is out of range");
  CHECK_THROWS(validate(SplitDesc{in, {T(F32, {1, 1, 2, 2}), T(F32, {1, 1, 3, 3})}, 2}), ValidationError,
               "SplitDesc.outputs[1].sizes[3]");
  CHECK_THROWS(validate(SplitDesc{in, {T(F32, {1, 1, 2, 2}), T(F32, {1, 1, 3, 2})}, 2}), ValidationError,
               "SplitDesc.outputs: sizes along axis 2 sum to 5");
  CHECK_THROWS(validate(SplitDesc{in, {T(F32, {1, 6, 2})}, 2}), ValidationError, "SplitDesc.outputs[0].sizes");
  CHECK_THROWS(validate(SplitDesc{in, {T(DataType::INT8, {1, 1, 6, 2})}, 2}), ValidationError,
               "SplitDesc.outputs[0].dtype");
  CHECK_THROWS(validate(JoinDesc{{T(F32, {1, 1, 2, 3})}, T(F32, {1, 1, 2, 7}), 4}), ValidationError,
               "JoinDesc.axis: 4 is out of range for 4 dimensions");
  CHECK_THROWS(validate(JoinDesc{{T(F32, {1, 1, 2, 3}), T(F32, {1, 1, 2, 3})}, T(F32, {1, 1, 2, 7}), 3}),
               ValidationError, "JoinDesc.inputs: sizes along axis 3 sum to 6");
  CHECK_THROWS(validate(JoinDesc{{}, T(F32, {1, 1, 2, 7}), 3}), ValidationError, "JoinDesc.inputs");

  const TensorDesc x44 = T(F32, {1, 1, 4, 4}), o22 = T(F32, {1, 1, 2, 2});
  CHECK_THROWS(validate(Slice1Desc{x44, o22, {0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, 0, 2}}), ValidationError,
               "Slice1Desc.strides[2]: stride must not be 0");
  CHECK_THROWS(validate(Slice1Desc{x44, o22, {0, 0, 1}, {1, 1, 4, 3}, {1, 1, 2, 2}}), ValidationError,
               "Slice1Desc.offsets: must have one value per dimension (4), got 3");
  CHECK_THROWS(validate(Slice1Desc{x44, o22, {0, 0, 1, 1}, {1, 1, 4, 3}, {1, 1, 2, 2}}), ValidationError,
               "Slice1Desc.offsets[2]");
  CHECK_THROWS(validate(Slice1Desc{x44, o22, {0, 0, -1, 1}, {1, 1, 4, 3}, {1, 1, 2, 2}}), ValidationError,
               "Slice1Desc.offsets[2]");
  CHECK_THROWS(validate(Slice1Desc{x44, o22, {0, 0, 0, 1}, {1, 1, 0, 3}, {1, 1, 2, 2}}), ValidationError,
               "Slice1Desc.sizes[2]");
  CHECK_THROWS(validate(Slice1Desc{x44, T(F32, {1, 1, 3, 2}), {0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, 2, 2}}),
               ValidationError, "Slice1Desc.output.sizes[2]: must be at most 1 + (sizes[2] - 1) / |strides[2]| = 2");
  CHECK_THROWS(validate(Slice1Desc{x44, o22, {0, 0, INT64_MAX, 1}, {1, 1, 4, 3}, {1, 1, INT64_MIN, 2}}),
               ValidationError, "Slice1Desc.offsets[2]");
  CHECK_THROWS(validate(Slice1Desc{x44, T(F32, {1, 1, 1, 1}), {0, 0, 0, 0}, {1, 1, 4, 3}, {1, 1, INT64_MIN, 2}},
                        FeatureLevel::FL_4_1),
               ValidationError, "Slice1Desc.strides[2]: -9223372036854775808 does not fit DirectML's INT");
  validate(Slice1Desc{x44, T(F32, {1, 1, 1, 1}), {0, 0, 0, 0}, {1, 1, 4, 3}, {1, 1, INT64_MIN, 2}});
  CHECK_THROWS(validate(SliceDesc{x44, o22, {0, 0, 1, 0}, {1, 1, 2, 2}, {1, 1, 2, 4}}), ValidationError,
               "SliceDesc.sizes[3]");
  CHECK_THROWS(validate(SliceDesc{x44, o22, {0, 0, 1, 0}, {1, 1, 2, 2}, {1, 1, 0, 3}}), ValidationError,
               "SliceDesc.strides[2]");
  CHECK_THROWS(validate(SliceDesc{x44, o22, {0, 0, 1, 0}, {1, 1, 2, 3}, {1, 1, 2, 3}}), ValidationError,
               "SliceDesc.sizes[3]: must equal output.sizes[3]");
  CHECK_THROWS(validate(SliceDesc{x44, o22, {0, 0, 4, 0}, {1, 1, 2, 2}, {1, 1, 1, 1}}), ValidationError,
               "SliceDesc.offsets[2]");
  CHECK_THROWS(validate(SliceDesc{x44, o22, {0, 0, 1, 0}, {1, 1, 2, 2}, {1, 1, INT64_MAX, 1}}), ValidationError,
               "SliceDesc.sizes[2]");

  CHECK_THROWS(validate(ScatterDesc{T(F32, {3, 3}), T(F32, {2, 3}), T(F32, {2, 3}), T(F32, {3, 3}), 0}),
               ValidationError, "ScatterDesc.indices.dtype");
  CHECK_THROWS(validate(ScatterDesc{T(F32, {3, 3}), T(U32, {2, 4}), T(F32, {2, 4}), T(F32, {3, 3}), 0}),
               ValidationError, "ScatterDesc.indices.sizes[1]: must be at most input.sizes[1] (3)");
  CHECK_THROWS(validate(ScatterDesc{T(F32, {3, 3}), T(U32, {2, 3}), T(F32, {3, 3}), T(F32, {3, 3}), 0}),
               ValidationError, "ScatterDesc.updates.sizes[0]");
  CHECK_THROWS(validate(ScatterDesc{T(F32, {3, 3}), T(U32, {2, 3}), T(F32, {2, 3}), T(F32, {3, 2}), 0}),
               ValidationError, "ScatterDesc.output.sizes[1]");
  CHECK_THROWS(validate(ScatterDesc{T(F32, {3, 3}), T(U32, {2, 3}), T(F32, {2, 3}), T(F32, {3, 3}), 2}),
               ValidationError, "ScatterDesc.axis");
  CHECK_THROWS(validate(ScatterDesc{T(F32, {3, 3}), T(U32, {2, 3}), T(DataType::INT32, {2, 3}), T(F32, {3, 3}), 0}),
               ValidationError, "ScatterDesc.updates.dtype");
  CHECK_THROWS(validate(GatherDesc{T(F32, {4}), T(U32, {5}), T(F32, {4}), 0, 1}), ValidationError,
               "GatherDesc.output.sizes[0]");
  CHECK_THROWS(validate(GatherDesc{T(F32, {4}), T(U32, {5}), T(F32, {5}), 0, 2}), ValidationError,
               "GatherDesc.index_dimensions");
  CHECK_THROWS(validate(GatherDesc{T(F32, {3, 4}), T(U32, {2, 5}), T(F32, {3, 5}), 1, 1}), ValidationError,
               "GatherDesc.indices.sizes[0]");
  // take-style gather padded to a common rank: x (3,4), idx (2,5), axis 1 -> (3,2,5).
  validate(GatherDesc{T(F32, {1, 3, 4}), T(U32, {1, 2, 5}), T(F32, {3, 2, 5}), 2, 2});
  CHECK_THROWS(validate(GatherDesc{T(F32, {2, 3, 4}), T(U32, {1, 2, 5}), T(F32, {3, 2, 5}), 2, 2}), ValidationError,
               "GatherDesc.output.sizes");
  CHECK_THROWS(validate(GatherNDDesc{T(F32, {2, 2}), T(U32, {2, 3}), T(F32, {2, 2}), 2, 2, 0}), ValidationError,
               "GatherNDDesc.indices.sizes[1]");
  CHECK_THROWS(validate(GatherNDDesc{T(F32, {2, 2}), T(U32, {2, 1}), T(F32, {2, 2}), 3, 2, 0}), ValidationError,
               "GatherNDDesc.input_dimension_count");
  CHECK_THROWS(validate(GatherNDDesc{T(F32, {2, 2}), T(U32, {2, 1}), T(F32, {2, 2}), 2, 2, 2}), ValidationError,
               "GatherNDDesc.batch_dimension_count");
  CHECK_THROWS(validate(GatherNDDesc{T(F32, {1, 3, 2, 2}), T(U32, {1, 4, 2, 2}), T(F32, {1, 1, 3, 2}), 3, 3, 1}),
               ValidationError, "GatherNDDesc.indices.sizes[1]: batch dimension 0");
  CHECK_THROWS(validate(ScatterNDDesc{T(F32, {1, 8}), T(U32, {4, 1}), T(F32, {1, 5}), T(F32, {1, 8}), 1, 2}),
               ValidationError, "ScatterNDDesc.updates.sizes[1]");
  CHECK_THROWS(validate(ScatterNDDesc{T(F32, {1, 8}), T(U32, {4, 1}), T(F32, {1, 4}), T(F32, {1, 8}), 1, 2,
                                      static_cast<ScatterReduction>(9)}),
               ValidationError, "ScatterNDDesc.reduction");
}

static void levels() {
  const TensorDesc f3 = T(F32, {2, 3, 4}), f4 = T(F32, {1, 2, 3, 4}), i64_4 = T(DataType::INT64, {1, 2, 3, 4});
  IdentityDesc id3{f3, f3}, id4{f4, f4}, id64{i64_4, i64_4};
  CHECK(!is_valid_at(id3, FeatureLevel::FL_2_1));
  CHECK(is_valid_at(id3, FeatureLevel::FL_3_0));
  CHECK(is_valid_at(id4, FeatureLevel::FL_1_0));
  CHECK(min_feature_level(id3) == FeatureLevel::FL_3_0);
  CHECK(min_feature_level(id64) == FeatureLevel::FL_4_1);
  CHECK_THROWS(validate(id3, FeatureLevel::FL_2_1), ValidationError,
               "IdentityDesc.input.sizes: 3 dimensions need feature level 3_0 (validating at 2_1)");
  CHECK_THROWS(validate(id64, FeatureLevel::FL_3_0), ValidationError,
               "IdentityDesc.input.dtype: INT64 needs feature level 4_1 (validating at 3_0)");
  // Join: 4-5 dims at 3_0, 1-8 from 3_1.
  JoinDesc j3{{f3}, f3, 0};
  CHECK(!is_valid_at(j3, FeatureLevel::FL_3_0));
  CHECK(is_valid_at(j3, FeatureLevel::FL_3_1));
  CHECK(min_feature_level(j3) == FeatureLevel::FL_3_1);
  // Scatter since 2_0; indices UINT32 only before 3_0.
  ScatterDesc sc{f4, T(U32, {1, 2, 3, 4}), f4, f4, 3};
  CHECK(!is_valid_at(sc, FeatureLevel::FL_1_0));
  CHECK(min_feature_level(sc) == FeatureLevel::FL_2_0);
  ScatterDesc sc_i32{f4, T(DataType::INT32, {1, 2, 3, 4}), f4, f4, 3};
  CHECK(min_feature_level(sc_i32) == FeatureLevel::FL_3_0);
  CHECK_THROWS(validate(sc_i32, FeatureLevel::FL_2_1), ValidationError, "ScatterDesc.indices.dtype");
  // Reductions: strided only.
  ScatterDesc add = sc;
  add.reduction = ScatterReduction::ADD;
  validate(add);
  CHECK(!is_valid_at(add, FeatureLevel::FL_6_4));
  CHECK_THROWS(min_feature_level(add), ValidationError, "ScatterDesc.reduction: ADD is a strided extension");
  // Over 2^32-1 elements: executes (no level), invalid at every level.
  TensorDesc huge(DataType::UINT8, {1LL << 33}, {0});
  IdentityDesc big{huge, T(DataType::UINT8, {1LL << 33})};
  validate(big);
  CHECK(!is_valid_at(big, FeatureLevel::FL_6_4));
  CHECK_THROWS(min_feature_level(big), ValidationError, "exceed DirectML's limit");
  CHECK_THROWS(validate(id4, static_cast<FeatureLevel>(0x1234)), ValidationError, "unknown feature level");
  // GatherND1 since 3_0.
  GatherNDDesc nd1{T(F32, {1, 3, 2, 2}), T(U32, {1, 3, 2, 2}), T(F32, {1, 1, 3, 2}), 3, 3, 1};
  CHECK_THROWS(validate(nd1, FeatureLevel::FL_2_1), ValidationError,
               "GatherNDDesc.batch_dimension_count: batch dimensions (GATHER_ND1) need feature level 3_0");
}

// Random descriptions, mostly malformed: validate must pass or throw ValidationError, nothing else.
static void fuzz() {
  std::mt19937_64 rng(12345);
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  auto val = [&]() -> std::int64_t {
    switch (pick(0, 5)) {
      case 0: return pick(-3, -1);
      case 1: return INT64_MAX - pick(0, 2);
      case 2: return INT64_MIN + pick(0, 2);
      default: return pick(0, 4);
    }
  };
  auto tensor = [&]() {
    const int n = static_cast<int>(pick(1, 5));
    V s;
    for (int i = 0; i < n; ++i) s.push_back(pick(1, 4));
    const DataType types[] = {F32, U32, DataType::INT64, DataType::INT32, DataType::UINT8};
    const DataType t = types[pick(0, 4)];
    if (pick(0, 3) == 0) {
      V st;
      for (int i = 0; i < n; ++i) st.push_back(pick(0, 6));
      return TensorDesc(t, s, st);
    }
    return TensorDesc(t, s);
  };
  auto vec = [&]() {
    V v;
    const int n = static_cast<int>(pick(0, 5));
    for (int i = 0; i < n; ++i) v.push_back(val());
    return v;
  };
  int passed = 0, rejected = 0, other = 0;
  for (int it = 0; it < 20000; ++it) {
    auto make = [&]() -> AnyDesc {
      switch (pick(0, 9)) {
        case 0: return IdentityDesc{tensor(), tensor()};
        case 1: return SplitDesc{tensor(), {tensor(), tensor()}, val()};
        case 2: return JoinDesc{{tensor()}, tensor(), val()};
        case 3: return SliceDesc{tensor(), tensor(), vec(), vec(), vec()};
        case 4: return Slice1Desc{tensor(), tensor(), vec(), vec(), vec()};
        case 5: return GatherDesc{tensor(), tensor(), tensor(), val(), val()};
        case 6: return GatherElementsDesc{tensor(), tensor(), tensor(), val()};
        case 7: return GatherNDDesc{tensor(), tensor(), tensor(), val(), val(), val()};
        case 8:
          return ScatterDesc{tensor(), tensor(), tensor(), tensor(), val(), static_cast<ScatterReduction>(pick(0, 6))};
        default:
          return ScatterNDDesc{
              tensor(), tensor(), tensor(), tensor(), val(), val(), static_cast<ScatterReduction>(pick(0, 6))};
      }
    };
    const AnyDesc d = make();
    for (int lvl = 0; lvl < 3; ++lvl) {
      try {
        if (lvl == 0) validate(d);
        else if (lvl == 1) validate(d, FeatureLevel::FL_2_1);
        else (void)min_feature_level(d);
        ++passed;
      } catch (const ValidationError&) {
        ++rejected;
      } catch (...) {
        ++other;
      }
    }
  }
  CHECK_EQ(other, 0);
  CHECK(passed > 0);
  CHECK(rejected > 0);
}

int main() {
  tensor_sizes();
  examples_pass();
  rules_fail();
  levels();
  fuzz();
  return check::report();
}
