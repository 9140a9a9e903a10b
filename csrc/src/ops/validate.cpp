// Validation of the ten operator descriptions: the shape, axis, dtype, index-type and
// dimension-count rules of SPEC.md sections 3-4, DirectML's documented rules (Split, Slice1,
// Scatter, Gather*, ScatterND pages) and DirectML's feature-level tables.
//
// Order: structural checks first (counts, parameter ranges, vector lengths, dimension counts,
// dtypes), then per-dimension size rules, then strided's output-aliasing rule, then the
// feature-level rules when a level is given. Every index into a vector is guarded by an earlier
// length check, and all arithmetic on user values is overflow-safe, so a malformed description
// always ends in ValidationError, never in undefined behaviour.
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "strided/error.hpp"
#include "strided/ops.hpp"
#include "util/checked.hpp"

namespace strided {
namespace {

using u64 = std::uint64_t;
using i64 = std::int64_t;

constexpr u64 kDmlMaxElements = 0xffffffffull;  // DirectML: at most 2^32-1 elements per tensor
constexpr u64 kUintMax = 0xffffffffull;         // DirectML's UINT fields
constexpr i64 kIntMin = std::numeric_limits<std::int32_t>::min();
constexpr i64 kIntMax = std::numeric_limits<std::int32_t>::max();

constexpr std::array<FeatureLevel, 15> kLevels = {
#define STRIDED_X(name, value, str) FeatureLevel::name,
    STRIDED_FOR_EACH_FEATURE_LEVEL(STRIDED_X)
#undef STRIDED_X
};

template <class T>
std::string str(T v) {
  return std::to_string(v);
}
std::string at(const std::string& field, std::size_t i) { return field + "[" + std::to_string(i) + "]"; }
std::string list(const std::vector<i64>& v) {
  std::string s = "{";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "}";
}
std::string dt(DataType t) { return std::string(dtype_enum_name(t)); }
std::string lv(FeatureLevel l) { return std::string(feature_level_name(l)); }
std::string reduction_name(ScatterReduction r) {
  switch (r) {
    case ScatterReduction::NONE: return "NONE";
    case ScatterReduction::ADD: return "ADD";
    case ScatterReduction::MUL: return "MUL";
    case ScatterReduction::MIN: return "MIN";
    case ScatterReduction::MAX: return "MAX";
  }
  return "UNKNOWN";
}

// The operator kinds of the feature-level table (GatherND1 = GatherNDDesc with batch dims).
enum class Op { Identity, Split, Join, Slice, Slice1, Scatter, Gather, GatherElements, GatherND, GatherND1, ScatterND };

constexpr u64 bit(DataType t) { return u64{1} << static_cast<unsigned>(t); }
constexpr u64 kAll = bit(DataType::FLOAT32) | bit(DataType::FLOAT16) | bit(DataType::UINT32) | bit(DataType::UINT16) |
                     bit(DataType::UINT8) | bit(DataType::INT32) | bit(DataType::INT16) | bit(DataType::INT8) |
                     bit(DataType::FLOAT64) | bit(DataType::UINT64) | bit(DataType::INT64);
constexpr u64 kEight = kAll & ~(bit(DataType::FLOAT64) | bit(DataType::UINT64) | bit(DataType::INT64));
constexpr u64 kSix = bit(DataType::FLOAT32) | bit(DataType::FLOAT16) | bit(DataType::INT32) | bit(DataType::INT16) |
                     bit(DataType::UINT32) | bit(DataType::UINT16);
constexpr u64 kF32F16 = bit(DataType::FLOAT32) | bit(DataType::FLOAT16);
constexpr u64 kIndexTypes = bit(DataType::INT32) | bit(DataType::INT64) | bit(DataType::UINT32) | bit(DataType::UINT64);

FeatureLevel since(Op op) {
  switch (op) {
    case Op::Slice1:
    case Op::GatherElements:
    case Op::GatherND:
    case Op::ScatterND:
      return FeatureLevel::FL_2_1;
    case Op::Scatter:
      return FeatureLevel::FL_2_0;
    case Op::GatherND1:
      return FeatureLevel::FL_3_0;
    default:
      return FeatureLevel::FL_1_0;
  }
}

struct LevelRule {
  bool exists;
  int min_dims, max_dims;
  u64 dtypes;
};

// SPEC.md section 4's table: dimension counts and data types per operator and level.
LevelRule rule(Op op, FeatureLevel l) {
  if (l < since(op)) return {false, 0, 0, 0};
  if (l >= FeatureLevel::FL_4_1) return {true, 1, 8, kAll};
  if (l >= FeatureLevel::FL_3_0) {
    if (op == Op::Join && l < FeatureLevel::FL_3_1) return {true, 4, 5, kEight};
    return {true, 1, 8, kEight};
  }
  if (l >= FeatureLevel::FL_2_1) {
    const bool four_five = op == Op::Identity || op == Op::Slice || op == Op::Slice1;
    return {true, 4, four_five ? 5 : 4, kEight};
  }
  switch (op) {  // 1_0 and 2_0
    case Op::Identity: return {true, 4, 5, kF32F16};
    case Op::Split:
    case Op::Join: return {true, 4, 4, kSix};
    case Op::Slice: return {true, 4, 5, kSix};
    case Op::Gather:
    case Op::Scatter: return {true, 4, 4, kF32F16};
    default: return {false, 0, 0, 0};
  }
}

// Index tensors: UINT32 only before 3_0, then the four integer types.
u64 index_types(FeatureLevel l) { return l < FeatureLevel::FL_3_0 ? bit(DataType::UINT32) : kIndexTypes; }

struct Ctx {
  std::string name;  // "Slice1Desc"
  std::optional<FeatureLevel> level;

  [[noreturn]] void fail(const std::string& field, const std::string& rule) const {
    throw ValidationError(name + "." + field + ": " + rule);
  }
  std::string validating() const { return " (validating at " + lv(*level) + ")"; }

  // ---------------------------------------------------------------- structural helpers
  void axis_in_range(const std::string& field, i64 axis, int n) const {
    if (axis < 0 || axis >= n) fail(field, str(axis) + " is out of range for " + str(n) + " dimensions");
  }
  void count_in_range(const std::string& field, i64 v, i64 lo, i64 hi, const std::string& what) const {
    if (v < lo || v > hi)
      fail(field, str(v) + " is out of range: must be " + str(lo) + " to " + str(hi) + " (" + what + ")");
  }
  void same_ndim(const std::string& field, const TensorDesc& t, const std::string& ref_field,
                 const TensorDesc& ref) const {
    if (t.ndim() != ref.ndim())
      fail(field + ".sizes", "must have the same dimension count as " + ref_field + " (" + str(ref.ndim()) + "), got " +
                                 str(t.ndim()));
  }
  void same_dtype(const std::string& field, const TensorDesc& t, const std::string& ref_field,
                  const TensorDesc& ref) const {
    if (t.dtype() != ref.dtype())
      fail(field + ".dtype", "must equal " + ref_field + ".dtype (" + dt(ref.dtype()) + "), got " + dt(t.dtype()));
  }
  void same_size(const std::string& field, const TensorDesc& t, const std::string& ref_field, const TensorDesc& ref,
                 std::size_t i) const {
    if (t.sizes()[i] != ref.sizes()[i])
      fail(at(field + ".sizes", i), "must equal " + at(ref_field + ".sizes", i) + " (" + str(ref.sizes()[i]) +
                                        "), got " + str(t.sizes()[i]));
  }
  void same_sizes(const std::string& field, const TensorDesc& t, const std::string& ref_field,
                  const TensorDesc& ref) const {
    same_ndim(field, t, ref_field, ref);
    for (std::size_t i = 0; i < t.sizes().size(); ++i) same_size(field, t, ref_field, ref, i);
  }
  void one_per_dim(const std::string& field, const std::vector<i64>& v, int n) const {
    if (v.size() != static_cast<std::size_t>(n))
      fail(field, "must have one value per dimension (" + str(n) + "), got " + str(v.size()));
  }
  void index_dtype(const std::string& field, const TensorDesc& t) const {
    if (!(bit(t.dtype()) & kIndexTypes))
      fail(field + ".dtype", "indices must be INT32, INT64, UINT32 or UINT64, got " + dt(t.dtype()));
  }
  void reduction_known(ScatterReduction r) const {
    if (static_cast<std::uint32_t>(r) > 4)
      fail("reduction", "unknown reduction " + str(static_cast<u64>(r)) + " (expected NONE, ADD, MUL, MIN or MAX)");
  }
  // Leading dimensions outside the "meaningful" trailing `count` must be 1 (DirectML pads
  // lower-rank tensors with leading 1s; anything else there has no defined meaning).
  void leading_ones(const std::string& field, const TensorDesc& t, i64 count, const std::string& count_field) const {
    const auto lead = static_cast<std::size_t>(t.ndim() - count);
    for (std::size_t i = 0; i < lead; ++i)
      if (t.sizes()[i] != 1)
        fail(at(field + ".sizes", i), "must be 1: only the last " + count_field + " = " + str(count) +
                                          " dimensions are meaningful, got " + str(t.sizes()[i]));
  }
  // `expected` right-aligned into `t`'s dimension count: surplus leading entries must be 1
  // (cropped), missing ones are leading 1s (DirectML's rule for Gather/GatherND/ScatterND).
  void right_aligned(const std::string& field, const TensorDesc& t, const std::vector<i64>& expected) const {
    const auto n = static_cast<std::size_t>(t.ndim());
    std::vector<i64> e = expected;
    if (e.size() > n) {
      const std::size_t surplus = e.size() - n;
      for (std::size_t j = 0; j < surplus; ++j)
        if (e[j] != 1)
          fail(field + ".sizes", "the expected sizes " + list(expected) + " need " + str(e.size() - j) +
                                     " dimensions but the tensor has " + str(n));
      e.erase(e.begin(), e.begin() + static_cast<std::ptrdiff_t>(surplus));
    }
    e.insert(e.begin(), n - e.size(), 1);
    for (std::size_t i = 0; i < n; ++i)
      if (t.sizes()[i] != e[i])
        fail(at(field + ".sizes", i),
             "must be " + str(e[i]) + " (expected sizes " + list(e) + "), got " + str(t.sizes()[i]));
  }

  // Safety rule of strided: an OUTPUT must not have two coordinates at the same element
  // (stride 0 over a dimension of size > 1, or strides that overlap), or threads writing
  // disjoint coordinates would race on one element and results would depend on scheduling.
  // Conservative check: sort the dimensions of size > 1 by stride; each stride must be at
  // least the extent (1 + sum((size-1)*stride)) of all smaller-stride dimensions. It accepts
  // every packed, padded or permuted layout. No overflow: the TensorDesc bounded the extent.
  void output_no_alias(const std::string& field, const TensorDesc& t) const {
    struct D {
      u64 stride, size;
      std::size_t dim;
    };
    std::vector<D> dims;
    for (std::size_t i = 0; i < t.sizes().size(); ++i)
      if (t.sizes()[i] > 1)
        dims.push_back({static_cast<u64>(t.strides()[i]), static_cast<u64>(t.sizes()[i]), i});
    std::stable_sort(dims.begin(), dims.end(), [](const D& a, const D& b) { return a.stride < b.stride; });
    u64 extent = 1;
    for (const D& d : dims) {
      if (d.stride == 0)
        fail(at(field + ".strides", d.dim), "an output must not broadcast: stride 0 over a dimension of size " +
                                                str(d.size) + " makes its elements alias (threads would race)");
      if (d.stride < extent)
        fail(at(field + ".strides", d.dim),
             "stride " + str(d.stride) + " overlaps the output's smaller-stride dimensions (extent " + str(extent) +
                 "); an output's elements must not alias (threads would race)");
      extent += (d.size - 1) * d.stride;
    }
  }

  // ---------------------------------------------------------------- feature-level helpers
  struct Named {
    std::string field;
    const TensorDesc* t;
    bool is_index;
  };

  // The lowest level at which `op` accepts `n` dimensions / dtype `t`.
  static FeatureLevel needs_dims(Op op, int n) {
    for (FeatureLevel l : kLevels) {
      const LevelRule r = rule(op, l);
      if (r.exists && n >= r.min_dims && n <= r.max_dims) return l;
    }
    return kNewestFeatureLevel;
  }
  static FeatureLevel needs_dtype(Op op, DataType t) {
    for (FeatureLevel l : kLevels) {
      const LevelRule r = rule(op, l);
      if (r.exists && (r.dtypes & bit(t))) return l;
    }
    return kNewestFeatureLevel;
  }

  // Every tensor of the operator (struct order) against the table at `level`; no-op without a
  // level (strided executes all dimension counts and dtypes, and tensors over 2^32-1 elements).
  void level_rules(Op op, const std::vector<Named>& tensors, const std::string& since_field = "",
                   const std::string& since_what = "the operator needs") const {
    if (!level) return;
    const FeatureLevel l = *level;
    const LevelRule r = rule(op, l);
    if (!r.exists) {
      const std::string msg = since_what + " feature level " + lv(since(op)) + validating();
      if (since_field.empty()) throw ValidationError(name + ": " + msg);
      fail(since_field, msg);
    }
    for (const Named& x : tensors) {
      const TensorDesc& t = *x.t;
      if (t.ndim() < r.min_dims || t.ndim() > r.max_dims)
        fail(x.field + ".sizes", str(t.ndim()) + " dimensions need feature level " + lv(needs_dims(op, t.ndim())) +
                                     validating());
      if (x.is_index) {
        if (!(index_types(l) & bit(t.dtype())))
          fail(x.field + ".dtype", dt(t.dtype()) + " indices need feature level 3_0" + validating());
      } else if (!(r.dtypes & bit(t.dtype()))) {
        fail(x.field + ".dtype", dt(t.dtype()) + " needs feature level " + lv(needs_dtype(op, t.dtype())) + validating());
      }
      if (t.element_count() > kDmlMaxElements)
        fail(x.field + ".sizes", str(t.element_count()) + " elements exceed DirectML's limit of " +
                                     str(kDmlMaxElements) + " per tensor" + validating());
      for (std::size_t i = 0; i < t.strides().size(); ++i)
        if (t.has_strides() && static_cast<u64>(t.strides()[i]) > kUintMax)
          fail(at(x.field + ".strides", i), "stride " + str(t.strides()[i]) + " does not fit DirectML's UINT" +
                                                validating());
    }
  }
  // DirectML's UINT / INT parameter arrays (only when validating at a level).
  void level_uint(const std::string& field, const std::vector<i64>& v) const {
    if (!level) return;
    for (std::size_t i = 0; i < v.size(); ++i)
      if (v[i] < 0 || static_cast<u64>(v[i]) > kUintMax)
        fail(at(field, i), str(v[i]) + " does not fit DirectML's UINT" + validating());
  }
  void level_int(const std::string& field, const std::vector<i64>& v) const {
    if (!level) return;
    for (std::size_t i = 0; i < v.size(); ++i)
      if (v[i] < kIntMin || v[i] > kIntMax) fail(at(field, i), str(v[i]) + " does not fit DirectML's INT" + validating());
  }
  // What strided executes but no DirectML feature level accepts (SPEC.md section 4): without a
  // level it passes; at every level it fails with `rule`, which says why. min_feature_level then
  // reports it through the newest level.
  void level_never(const std::string& field, const std::string& rule) const {
    if (level) fail(field, rule + validating() + "; validate without a feature level to use it");
  }
  void level_reduction(ScatterReduction r) const {
    if (r != ScatterReduction::NONE)
      level_never("reduction", reduction_name(r) +
                                   " is a strided extension (ONNX's reduction) that no DirectML feature level accepts");
  }
  // GatherElements and Scatter (SPEC.md 3.4, as ONNX): off the axis the indices may be smaller
  // than the input, never larger; along it any size. Size-1 dimensions do not broadcast.
  void elements_indices(const TensorDesc& idx, const TensorDesc& in, i64 axis) const {
    for (std::size_t i = 0; i < idx.sizes().size(); ++i)
      if (i != static_cast<std::size_t>(axis) && idx.sizes()[i] > in.sizes()[i])
        fail(at("indices.sizes", i), "must be at most " + at("input.sizes", i) + " (" + str(in.sizes()[i]) +
                                         ") off the axis (" + str(axis) + "), got " + str(idx.sizes()[i]));
  }
  // ... but DirectML's SCATTER and GATHER_ELEMENTS pages require them equal off the axis.
  void level_elements_indices(const TensorDesc& idx, const TensorDesc& in, i64 axis) const {
    for (std::size_t i = 0; i < idx.sizes().size(); ++i)
      if (i != static_cast<std::size_t>(axis) && idx.sizes()[i] != in.sizes()[i])
        level_never(at("indices.sizes", i),
                    str(idx.sizes()[i]) + " is smaller than " + at("input.sizes", i) + " (" + str(in.sizes()[i]) +
                        "): no DirectML feature level accepts it, since DirectML requires indices sizes equal to "
                        "input sizes off the axis");
  }
};

// ------------------------------------------------------------------ per operator

void check(const Ctx& c, const IdentityDesc& d) {
  c.same_ndim("output", d.output, "input", d.input);
  c.same_dtype("output", d.output, "input", d.input);
  c.same_sizes("output", d.output, "input", d.input);
  c.output_no_alias("output", d.output);
  c.level_rules(Op::Identity, {{"input", &d.input, false}, {"output", &d.output, false}});
}

// Split and Join share the rule: the many tensors equal the one in every dimension but `axis`,
// and their sizes along `axis` sum exactly to its size.
void check_parts(const Ctx& c, const std::string& one_field, const TensorDesc& one, const std::string& many_field,
                 const std::vector<TensorDesc>& many, i64 axis) {
  if (many.empty()) c.fail(many_field, "must have at least one tensor");
  if (many.size() > kUintMax) c.fail(many_field, "too many tensors (DirectML's count is a UINT)");
  c.axis_in_range("axis", axis, one.ndim());
  for (std::size_t k = 0; k < many.size(); ++k) {
    c.same_ndim(at(many_field, k), many[k], one_field, one);
    c.same_dtype(at(many_field, k), many[k], one_field, one);
  }
  const auto ax = static_cast<std::size_t>(axis);
  u64 sum = 0;
  for (std::size_t k = 0; k < many.size(); ++k) {
    for (std::size_t i = 0; i < many[k].sizes().size(); ++i)
      if (i != ax) c.same_size(at(many_field, k), many[k], one_field, one, i);
    if (!detail::checked_add(sum, static_cast<u64>(many[k].sizes()[ax]), sum))
      c.fail(many_field, "sizes along axis " + str(axis) + " overflow 64 bits");
  }
  if (sum != static_cast<u64>(one.sizes()[ax]))
    c.fail(many_field, "sizes along axis " + str(axis) + " sum to " + str(sum) + ", but " +
                           at(one_field + ".sizes", ax) + " is " + str(one.sizes()[ax]));
}

std::vector<Ctx::Named> with_list(std::vector<Ctx::Named> v, const std::string& field,
                                  const std::vector<TensorDesc>& ts, bool before) {
  std::vector<Ctx::Named> list;
  for (std::size_t k = 0; k < ts.size(); ++k) list.push_back({at(field, k), &ts[k], false});
  if (before) {
    list.insert(list.end(), v.begin(), v.end());
    return list;
  }
  v.insert(v.end(), list.begin(), list.end());
  return v;
}

void check(const Ctx& c, const SplitDesc& d) {
  check_parts(c, "input", d.input, "outputs", d.outputs, d.axis);
  for (std::size_t k = 0; k < d.outputs.size(); ++k) c.output_no_alias(at("outputs", k), d.outputs[k]);
  c.level_rules(Op::Split, with_list({{"input", &d.input, false}}, "outputs", d.outputs, false));
}

void check(const Ctx& c, const JoinDesc& d) {
  check_parts(c, "output", d.output, "inputs", d.inputs, d.axis);
  c.output_no_alias("output", d.output);
  c.level_rules(Op::Join, with_list({{"output", &d.output, false}}, "inputs", d.inputs, true));
}

void check(const Ctx& c, const SliceDesc& d) {
  const int n = d.input.ndim();
  c.same_ndim("output", d.output, "input", d.input);
  c.same_dtype("output", d.output, "input", d.input);
  c.one_per_dim("offsets", d.offsets, n);
  c.one_per_dim("sizes", d.sizes, n);
  c.one_per_dim("strides", d.strides, n);
  for (std::size_t i = 0; i < d.strides.size(); ++i) {
    if (d.strides[i] < 1) c.fail(at("strides", i), "stride must be at least 1, got " + str(d.strides[i]));
    if (d.offsets[i] < 0) c.fail(at("offsets", i), "offset must not be negative, got " + str(d.offsets[i]));
    if (d.sizes[i] != d.output.sizes()[i])
      c.fail(at("sizes", i), "must equal output.sizes[" + str(i) + "] (" + str(d.output.sizes()[i]) + "), got " +
                                 str(d.sizes[i]));
  }
  // Every read in bounds: offsets[i] + (sizes[i]-1) * strides[i] <= input.sizes[i] - 1, in a
  // form that cannot overflow (all values are non-negative here).
  for (std::size_t i = 0; i < d.strides.size(); ++i) {
    const i64 in = d.input.sizes()[i];
    if (d.offsets[i] >= in)
      c.fail(at("offsets", i), "offset " + str(d.offsets[i]) + " is outside input.sizes[" + str(i) + "] (" + str(in) + ")");
    if (d.sizes[i] - 1 > (in - 1 - d.offsets[i]) / d.strides[i])
      c.fail(at("sizes", i), "the slice reads past the input: offset " + str(d.offsets[i]) + " + (size " +
                                 str(d.sizes[i]) + " - 1) * stride " + str(d.strides[i]) + " must be below input.sizes[" +
                                 str(i) + "] (" + str(in) + ")");
  }
  c.output_no_alias("output", d.output);
  c.level_rules(Op::Slice, {{"input", &d.input, false}, {"output", &d.output, false}});
  c.level_uint("offsets", d.offsets);
  c.level_uint("sizes", d.sizes);
  c.level_uint("strides", d.strides);
}

void check(const Ctx& c, const Slice1Desc& d) {
  const int n = d.input.ndim();
  c.same_ndim("output", d.output, "input", d.input);
  c.same_dtype("output", d.output, "input", d.input);
  c.one_per_dim("offsets", d.offsets, n);
  c.one_per_dim("sizes", d.sizes, n);
  c.one_per_dim("strides", d.strides, n);
  for (std::size_t i = 0; i < d.strides.size(); ++i) {
    if (d.strides[i] == 0) c.fail(at("strides", i), "stride must not be 0");
    if (d.offsets[i] < 0) c.fail(at("offsets", i), "offset must not be negative, got " + str(d.offsets[i]));
    if (d.sizes[i] < 1) c.fail(at("sizes", i), "window size must be at least 1, got " + str(d.sizes[i]));
  }
  for (std::size_t i = 0; i < d.strides.size(); ++i) {
    const i64 in = d.input.sizes()[i];
    // offsets[i] + sizes[i] <= input.sizes[i], without overflow.
    if (d.sizes[i] > in || d.offsets[i] > in - d.sizes[i])
      c.fail(at("offsets", i), "the window (offset " + str(d.offsets[i]) + " + size " + str(d.sizes[i]) +
                                   ") exceeds input.sizes[" + str(i) + "] (" + str(in) + ")");
    const u64 mag = d.strides[i] < 0 ? u64{0} - static_cast<u64>(d.strides[i]) : static_cast<u64>(d.strides[i]);
    const u64 max_copied = 1 + static_cast<u64>(d.sizes[i] - 1) / mag;
    if (static_cast<u64>(d.output.sizes()[i]) > max_copied)
      c.fail(at("output.sizes", i), "must be at most 1 + (sizes[" + str(i) + "] - 1) / |strides[" + str(i) +
                                        "]| = " + str(max_copied) + ", got " + str(d.output.sizes()[i]));
  }
  c.output_no_alias("output", d.output);
  c.level_rules(Op::Slice1, {{"input", &d.input, false}, {"output", &d.output, false}});
  c.level_uint("offsets", d.offsets);
  c.level_uint("sizes", d.sizes);
  c.level_int("strides", d.strides);
}

void check(const Ctx& c, const GatherDesc& d) {
  const int n = d.input.ndim();
  c.axis_in_range("axis", d.axis, n);
  c.count_in_range("index_dimensions", d.index_dimensions, 0, n, "the indices' trailing dimensions");
  c.same_ndim("indices", d.indices, "input", d.input);
  c.same_ndim("output", d.output, "input", d.input);
  c.index_dtype("indices", d.indices);
  c.same_dtype("output", d.output, "input", d.input);
  c.leading_ones("indices", d.indices, d.index_dimensions, "index_dimensions");
  // output = input.sizes[:axis] + indices.sizes[n-k:] + input.sizes[axis+1:], right-aligned.
  const auto ax = static_cast<std::size_t>(d.axis);
  const auto& in = d.input.sizes();
  const auto& ix = d.indices.sizes();
  std::vector<i64> e(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(ax));
  e.insert(e.end(), ix.end() - static_cast<std::ptrdiff_t>(d.index_dimensions), ix.end());
  e.insert(e.end(), in.begin() + static_cast<std::ptrdiff_t>(ax) + 1, in.end());
  c.right_aligned("output", d.output, e);
  c.output_no_alias("output", d.output);
  c.level_rules(Op::Gather,
                {{"input", &d.input, false}, {"indices", &d.indices, true}, {"output", &d.output, false}});
}

void check(const Ctx& c, const GatherElementsDesc& d) {
  const int n = d.input.ndim();
  c.axis_in_range("axis", d.axis, n);
  c.same_ndim("indices", d.indices, "input", d.input);
  c.same_ndim("output", d.output, "input", d.input);
  c.index_dtype("indices", d.indices);
  c.same_dtype("output", d.output, "input", d.input);
  c.elements_indices(d.indices, d.input, d.axis);
  c.same_sizes("output", d.output, "indices", d.indices);
  c.output_no_alias("output", d.output);
  c.level_elements_indices(d.indices, d.input, d.axis);
  c.level_rules(Op::GatherElements,
                {{"input", &d.input, false}, {"indices", &d.indices, true}, {"output", &d.output, false}});
}

// GatherND and ScatterND: the meaningful trailing dimensions of input and indices, the tuple size
// k = indices.sizes[n-1], and the sizes indices_m[:-1] + input_m[batch+k:] (ONNX's rule, which
// DirectML's pages express right-aligned with leading 1s).
std::vector<i64> nd_common(const Ctx& c, const TensorDesc& input, const TensorDesc& indices, i64 idc, i64 iic,
                           i64 batch) {
  const int n = input.ndim();
  c.count_in_range("input_dimension_count", idc, 1, n, "the input's trailing dimensions");
  c.count_in_range("indices_dimension_count", iic, 1, n, "the indices' trailing dimensions");
  if (batch < 0) c.fail("batch_dimension_count", "must not be negative, got " + str(batch));
  if (batch >= idc)
    c.fail("batch_dimension_count", "must be less than input_dimension_count (" + str(idc) + "), got " + str(batch));
  if (batch >= iic)
    c.fail("batch_dimension_count", "must be less than indices_dimension_count (" + str(iic) + "), got " + str(batch));
  c.same_ndim("indices", indices, "input", input);
  c.index_dtype("indices", indices);
  c.leading_ones("input", input, idc, "input_dimension_count");
  c.leading_ones("indices", indices, iic, "indices_dimension_count");
  const auto nn = static_cast<std::size_t>(n);
  const i64 k = indices.sizes()[nn - 1];
  if (k > idc - batch)
    c.fail(at("indices.sizes", nn - 1), "the index tuple size must be at most input_dimension_count - "
                                        "batch_dimension_count (" + str(idc - batch) + "), got " + str(k));
  const std::size_t in0 = nn - static_cast<std::size_t>(idc), ix0 = nn - static_cast<std::size_t>(iic);
  for (std::size_t b = 0; b < static_cast<std::size_t>(batch); ++b)
    if (indices.sizes()[ix0 + b] != input.sizes()[in0 + b])
      c.fail(at("indices.sizes", ix0 + b), "batch dimension " + str(b) + " must equal input.sizes[" + str(in0 + b) +
                                               "] (" + str(input.sizes()[in0 + b]) + "), got " +
                                               str(indices.sizes()[ix0 + b]));
  std::vector<i64> e(indices.sizes().begin() + static_cast<std::ptrdiff_t>(ix0), indices.sizes().end() - 1);
  e.insert(e.end(), input.sizes().begin() + static_cast<std::ptrdiff_t>(in0 + static_cast<std::size_t>(batch + k)),
           input.sizes().end());
  return e;
}

void check(const Ctx& c, const GatherNDDesc& d) {
  c.same_ndim("output", d.output, "input", d.input);
  c.same_dtype("output", d.output, "input", d.input);
  const auto e = nd_common(c, d.input, d.indices, d.input_dimension_count, d.indices_dimension_count,
                           d.batch_dimension_count);
  c.right_aligned("output", d.output, e);
  c.output_no_alias("output", d.output);
  const bool nd1 = d.batch_dimension_count > 0;
  c.level_rules(nd1 ? Op::GatherND1 : Op::GatherND,
                {{"input", &d.input, false}, {"indices", &d.indices, true}, {"output", &d.output, false}},
                nd1 ? "batch_dimension_count" : "", nd1 ? "batch dimensions (GATHER_ND1) need" : "the operator needs");
}

void check(const Ctx& c, const ScatterDesc& d) {
  const int n = d.input.ndim();
  c.reduction_known(d.reduction);
  c.axis_in_range("axis", d.axis, n);
  c.same_ndim("indices", d.indices, "input", d.input);
  c.same_ndim("updates", d.updates, "input", d.input);
  c.same_ndim("output", d.output, "input", d.input);
  c.index_dtype("indices", d.indices);
  c.same_dtype("updates", d.updates, "input", d.input);
  c.same_dtype("output", d.output, "input", d.input);
  c.elements_indices(d.indices, d.input, d.axis);
  c.same_sizes("updates", d.updates, "indices", d.indices);
  c.same_sizes("output", d.output, "input", d.input);
  c.output_no_alias("output", d.output);
  c.level_reduction(d.reduction);
  c.level_elements_indices(d.indices, d.input, d.axis);
  c.level_rules(Op::Scatter, {{"input", &d.input, false},
                              {"indices", &d.indices, true},
                              {"updates", &d.updates, false},
                              {"output", &d.output, false}});
}

void check(const Ctx& c, const ScatterNDDesc& d) {
  c.reduction_known(d.reduction);
  c.same_ndim("updates", d.updates, "input", d.input);
  c.same_ndim("output", d.output, "input", d.input);
  c.same_dtype("updates", d.updates, "input", d.input);
  c.same_dtype("output", d.output, "input", d.input);
  const auto e = nd_common(c, d.input, d.indices, d.input_dimension_count, d.indices_dimension_count, 0);
  c.same_sizes("output", d.output, "input", d.input);
  c.right_aligned("updates", d.updates, e);
  c.output_no_alias("output", d.output);
  c.level_reduction(d.reduction);
  c.level_rules(Op::ScatterND, {{"input", &d.input, false},
                                {"indices", &d.indices, true},
                                {"updates", &d.updates, false},
                                {"output", &d.output, false}});
}

}  // namespace

std::string desc_name(const AnyDesc& desc) {
  static const char* const names[] = {"IdentityDesc", "SplitDesc",          "JoinDesc",     "SliceDesc",
                                      "Slice1Desc",   "GatherDesc",         "GatherElementsDesc",
                                      "GatherNDDesc", "ScatterDesc",        "ScatterNDDesc"};
  static_assert(sizeof(names) / sizeof(names[0]) == std::variant_size_v<AnyDesc>, "one name per description");
  return names[desc.index()];
}

void validate(const AnyDesc& desc, std::optional<FeatureLevel> level) {
  const Ctx c{desc_name(desc), level};
  if (level && !is_known_feature_level(static_cast<std::uint32_t>(*level)))
    throw ValidationError(c.name + ": unknown feature level " + std::to_string(static_cast<std::uint32_t>(*level)));
  std::visit([&c](const auto& d) { check(c, d); }, desc);
}

bool is_valid_at(const AnyDesc& desc, FeatureLevel level) {
  try {
    validate(desc, level);
    return true;
  } catch (const ValidationError&) {
    return false;
  }
}

FeatureLevel min_feature_level(const AnyDesc& desc) {
  validate(desc, std::nullopt);  // a structural error is the reason no level accepts it
  for (FeatureLevel l : kLevels)
    if (is_valid_at(desc, l)) return l;
  validate(desc, kNewestFeatureLevel);  // throws the newest level's reason (extension, size limit)
  throw ValidationError(desc_name(desc) + ": no DirectML feature level accepts this description");
}

}  // namespace strided
