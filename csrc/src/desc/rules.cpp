// The shared validation rules (desc/rules.hpp).
#include "desc/rules.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include "strided/error.hpp"
#include "util/checked.hpp"

namespace strided::detail {
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

// "need feature level X", X the lowest level at which `table` accepts `n` dimensions / dtype
// `t`, or that no level accepts them (a table may leave a type out at every level: Tile's FLOAT64).
std::string needs_dims(const LevelTable& table, int n) {
  for (FeatureLevel l : kLevels) {
    const LevelRow* r = table.at(l);
    if (r && n >= r->min_dims && n <= r->max_dims) return "need feature level " + lv(l);
  }
  return "are accepted at no DirectML feature level";
}
std::string needs_dtype(const LevelTable& table, DataType t) {
  for (FeatureLevel l : kLevels) {
    const LevelRow* r = table.at(l);
    if (r && (r->dtypes & dtype_bit(t))) return "needs feature level " + lv(l);
  }
  return "is accepted at no DirectML feature level";
}

}  // namespace

std::string field_at(const std::string& field, std::size_t i) { return field + "[" + std::to_string(i) + "]"; }

void Rules::fail(const std::string& field, const std::string& rule) const {
  throw ValidationError(std::string(name_) + "." + field + ": " + rule);
}
std::string Rules::validating() const { return " (validating at " + lv(*level_) + ")"; }

void Rules::axis_in_range(const std::string& field, i64 axis, int n) const {
  if (axis < 0 || axis >= n) fail(field, str(axis) + " is out of range for " + str(n) + " dimensions");
}
void Rules::count_in_range(const std::string& field, i64 v, i64 lo, i64 hi, const std::string& what) const {
  if (v < lo || v > hi)
    fail(field, str(v) + " is out of range: must be " + str(lo) + " to " + str(hi) + " (" + what + ")");
}
void Rules::same_ndim(const std::string& field, const TensorDesc& t, const std::string& ref_field,
                      const TensorDesc& ref) const {
  if (t.ndim() != ref.ndim())
    fail(field + ".sizes",
         "must have the same dimension count as " + ref_field + " (" + str(ref.ndim()) + "), got " + str(t.ndim()));
}
void Rules::same_dtype(const std::string& field, const TensorDesc& t, const std::string& ref_field,
                       const TensorDesc& ref) const {
  if (t.dtype() != ref.dtype())
    fail(field + ".dtype", "must equal " + ref_field + ".dtype (" + dt(ref.dtype()) + "), got " + dt(t.dtype()));
}
void Rules::scalar_dtype(const std::string& field, const Scalar& s, const std::string& ref_field,
                         const TensorDesc& ref) const {
  if (s.dtype != ref.dtype())
    fail(field + ".dtype", "must equal " + ref_field + ".dtype (" + dt(ref.dtype()) + "), got " +
                               (is_valid_dtype(s.dtype) ? dt(s.dtype) : std::string("UNKNOWN")));
}
bool Rules::fits_float32(const Scalar& s) { return s.cast(DataType::FLOAT32).cast(s.dtype) == s; }
void Rules::same_size(const std::string& field, const TensorDesc& t, const std::string& ref_field,
                      const TensorDesc& ref, std::size_t i) const {
  if (t.sizes()[i] != ref.sizes()[i])
    fail(field_at(field + ".sizes", i), "must equal " + field_at(ref_field + ".sizes", i) + " (" + str(ref.sizes()[i]) +
                                            "), got " + str(t.sizes()[i]));
}
void Rules::same_sizes(const std::string& field, const TensorDesc& t, const std::string& ref_field,
                       const TensorDesc& ref) const {
  same_ndim(field, t, ref_field, ref);
  for (std::size_t i = 0; i < t.sizes().size(); ++i) same_size(field, t, ref_field, ref, i);
}
void Rules::one_per_dim(const std::string& field, const std::vector<i64>& v, int n) const {
  if (v.size() != static_cast<std::size_t>(n))
    fail(field, "must have one value per dimension (" + str(n) + "), got " + str(v.size()));
}
void Rules::index_dtype(const std::string& field, const TensorDesc& t) const {
  if (!(dtype_bit(t.dtype()) & kIndexTypes))
    fail(field + ".dtype", "indices must be INT32, INT64, UINT32 or UINT64, got " + dt(t.dtype()));
}
void Rules::reduction_known(ScatterReduction r) const {
  if (static_cast<std::uint32_t>(r) > 4)
    fail("reduction", "unknown reduction " + str(static_cast<u64>(r)) + " (expected NONE, ADD, MUL, MIN or MAX)");
}
void Rules::leading_ones(const std::string& field, const TensorDesc& t, i64 count,
                         const std::string& count_field) const {
  const auto lead = static_cast<std::size_t>(t.ndim() - count);
  for (std::size_t i = 0; i < lead; ++i)
    if (t.sizes()[i] != 1)
      fail(field_at(field + ".sizes", i), "must be 1: only the last " + count_field + " = " + str(count) +
                                              " dimensions are meaningful, got " + str(t.sizes()[i]));
}
void Rules::right_aligned(const std::string& field, const TensorDesc& t, const std::vector<i64>& expected) const {
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
      fail(field_at(field + ".sizes", i),
           "must be " + str(e[i]) + " (expected sizes " + list(e) + "), got " + str(t.sizes()[i]));
}

// Conservative: sort the dimensions of size > 1 by stride; each stride must be at least the
// extent (1 + sum((size-1)*stride)) of all smaller-stride dimensions. It accepts every packed,
// padded or permuted layout. No overflow: the TensorDesc bounded the extent.
void Rules::output_no_alias(const std::string& field, const TensorDesc& t) const {
  struct D {
    u64 stride, size;
    std::size_t dim;
  };
  std::vector<D> dims;
  for (std::size_t i = 0; i < t.sizes().size(); ++i)
    if (t.sizes()[i] > 1) dims.push_back({static_cast<u64>(t.strides()[i]), static_cast<u64>(t.sizes()[i]), i});
  std::stable_sort(dims.begin(), dims.end(), [](const D& a, const D& b) { return a.stride < b.stride; });
  u64 extent = 1;
  for (const D& d : dims) {
    if (d.stride == 0)
      fail(field_at(field + ".strides", d.dim), "an output must not broadcast: stride 0 over a dimension of size " +
                                                    str(d.size) + " makes its elements alias (threads would race)");
    if (d.stride < extent)
      fail(field_at(field + ".strides", d.dim),
           "stride " + str(d.stride) + " overlaps the output's smaller-stride dimensions (extent " + str(extent) +
               "); an output's elements must not alias (threads would race)");
    extent += (d.size - 1) * d.stride;
  }
}

void Rules::window_params(const TensorDesc& input, const TensorDesc& output, const std::vector<i64>& offsets,
                          const std::vector<i64>& sizes, const std::vector<i64>& strides, const WindowNames& f) const {
  same_ndim(f.output, output, f.input, input);
  same_dtype(f.output, output, f.input, input);
  one_per_dim(f.offsets, offsets, input.ndim());
  one_per_dim(f.sizes, sizes, input.ndim());
  one_per_dim(f.strides, strides, input.ndim());
}

void Rules::signed_window(const TensorDesc& input, const TensorDesc& output, const std::vector<i64>& offsets,
                          const std::vector<i64>& sizes, const std::vector<i64>& strides, const WindowNames& f) const {
  window_params(input, output, offsets, sizes, strides, f);
  for (std::size_t i = 0; i < strides.size(); ++i) {
    if (strides[i] == 0) fail(field_at(f.strides, i), "stride must not be 0");
    if (offsets[i] < 0) fail(field_at(f.offsets, i), "offset must not be negative, got " + str(offsets[i]));
    if (sizes[i] < 1) fail(field_at(f.sizes, i), "window size must be at least 1, got " + str(sizes[i]));
  }
  for (std::size_t i = 0; i < strides.size(); ++i) {
    const i64 in = input.sizes()[i];
    // offsets[i] + sizes[i] <= input.sizes[i], without overflow.
    if (sizes[i] > in || offsets[i] > in - sizes[i])
      fail(field_at(f.offsets, i), "the window (offset " + str(offsets[i]) + " + size " + str(sizes[i]) + ") exceeds " +
                                       field_at(f.input + ".sizes", i) + " (" + str(in) + ")");
    const u64 mag = strides[i] < 0 ? u64{0} - static_cast<u64>(strides[i]) : static_cast<u64>(strides[i]);
    const u64 max_copied = 1 + static_cast<u64>(sizes[i] - 1) / mag;
    if (static_cast<u64>(output.sizes()[i]) > max_copied)
      fail(field_at(f.output + ".sizes", i), "must be at most 1 + (" + field_at(f.sizes, i) + " - 1) / |" +
                                                 field_at(f.strides, i) + "| = " + str(max_copied) + ", got " +
                                                 str(output.sizes()[i]));
  }
}

void Rules::sizes_but_axis(const std::string& field, const TensorDesc& t, const std::string& ref_field,
                           const TensorDesc& ref, i64 axis) const {
  for (std::size_t i = 0; i < t.sizes().size(); ++i) {
    if (i != static_cast<std::size_t>(axis)) same_size(field, t, ref_field, ref, i);
    else if (t.sizes()[i] != 1)
      fail(field_at(field + ".sizes", i), "must be 1 along the axis (" + str(axis) + "), got " + str(t.sizes()[i]));
  }
}

void Rules::parts_along_axis(const std::string& one_field, const TensorDesc& one, const std::string& many_field,
                             const std::vector<TensorDesc>& many, i64 axis) const {
  if (many.empty()) fail(many_field, "must have at least one tensor");
  if (many.size() > kUintMax) fail(many_field, "too many tensors (DirectML's count is a UINT)");
  axis_in_range("axis", axis, one.ndim());
  for (std::size_t k = 0; k < many.size(); ++k) {
    same_ndim(field_at(many_field, k), many[k], one_field, one);
    same_dtype(field_at(many_field, k), many[k], one_field, one);
  }
  const auto ax = static_cast<std::size_t>(axis);
  u64 sum = 0;
  for (std::size_t k = 0; k < many.size(); ++k) {
    for (std::size_t i = 0; i < many[k].sizes().size(); ++i)
      if (i != ax) same_size(field_at(many_field, k), many[k], one_field, one, i);
    if (!checked_add(sum, static_cast<u64>(many[k].sizes()[ax]), sum))
      fail(many_field, "sizes along axis " + str(axis) + " overflow 64 bits");
  }
  if (sum != static_cast<u64>(one.sizes()[ax]))
    fail(many_field, "sizes along axis " + str(axis) + " sum to " + str(sum) + ", but " +
                         field_at(one_field + ".sizes", ax) + " is " + str(one.sizes()[ax]));
}

void Rules::elements_indices(const TensorDesc& idx, const TensorDesc& in, i64 axis) const {
  for (std::size_t i = 0; i < idx.sizes().size(); ++i)
    if (i != static_cast<std::size_t>(axis) && idx.sizes()[i] > in.sizes()[i])
      fail(field_at("indices.sizes", i), "must be at most " + field_at("input.sizes", i) + " (" + str(in.sizes()[i]) +
                                             ") off the axis (" + str(axis) + "), got " + str(idx.sizes()[i]));
}

std::vector<i64> Rules::tuple_indices(const TensorDesc& input, const TensorDesc& indices, i64 idc, i64 iic,
                                      i64 batch) const {
  const int n = input.ndim();
  count_in_range("input_dimension_count", idc, 1, n, "the input's trailing dimensions");
  count_in_range("indices_dimension_count", iic, 1, n, "the indices' trailing dimensions");
  if (batch < 0) fail("batch_dimension_count", "must not be negative, got " + str(batch));
  if (batch >= idc)
    fail("batch_dimension_count", "must be less than input_dimension_count (" + str(idc) + "), got " + str(batch));
  if (batch >= iic)
    fail("batch_dimension_count", "must be less than indices_dimension_count (" + str(iic) + "), got " + str(batch));
  same_ndim("indices", indices, "input", input);
  index_dtype("indices", indices);
  leading_ones("input", input, idc, "input_dimension_count");
  leading_ones("indices", indices, iic, "indices_dimension_count");
  const auto nn = static_cast<std::size_t>(n);
  const i64 k = indices.sizes()[nn - 1];
  if (k > idc - batch)
    fail(field_at("indices.sizes", nn - 1), "the index tuple size must be at most input_dimension_count - "
                                            "batch_dimension_count (" +
                                                str(idc - batch) + "), got " + str(k));
  const std::size_t in0 = nn - static_cast<std::size_t>(idc), ix0 = nn - static_cast<std::size_t>(iic);
  for (std::size_t b = 0; b < static_cast<std::size_t>(batch); ++b)
    if (indices.sizes()[ix0 + b] != input.sizes()[in0 + b])
      fail(field_at("indices.sizes", ix0 + b), "batch dimension " + str(b) + " must equal input.sizes[" + str(in0 + b) +
                                                   "] (" + str(input.sizes()[in0 + b]) + "), got " +
                                                   str(indices.sizes()[ix0 + b]));
  std::vector<i64> e(indices.sizes().begin() + static_cast<std::ptrdiff_t>(ix0), indices.sizes().end() - 1);
  e.insert(e.end(), input.sizes().begin() + static_cast<std::ptrdiff_t>(in0 + static_cast<std::size_t>(batch + k)),
           input.sizes().end());
  return e;
}

void Rules::level_rules(const LevelTable& table, const std::vector<Named>& tensors, const std::string& since_field,
                        const std::string& since_what) const {
  if (!level_) return;
  const FeatureLevel l = *level_;
  const LevelRow* r = table.at(l);
  if (!r) {
    const std::string msg = since_what + " feature level " + lv(table.since()) + validating();
    if (since_field.empty()) throw ValidationError(std::string(name_) + ": " + msg);
    fail(since_field, msg);
  }
  for (const Named& x : tensors) {
    const TensorDesc& t = *x.t;
    if (t.ndim() < r->min_dims || t.ndim() > r->max_dims)
      fail(x.field + ".sizes", str(t.ndim()) + " dimensions " + needs_dims(table, t.ndim()) + validating());
    if (x.is_index) {
      if (!(index_types(l) & dtype_bit(t.dtype())))
        fail(x.field + ".dtype", dt(t.dtype()) + " indices need feature level 3_0" + validating());
    } else if (!(r->dtypes & dtype_bit(t.dtype()))) {
      fail(x.field + ".dtype", dt(t.dtype()) + " " + needs_dtype(table, t.dtype()) + validating());
    }
    if (t.element_count() > kDmlMaxElements)
      fail(x.field + ".sizes", str(t.element_count()) + " elements exceed DirectML's limit of " + str(kDmlMaxElements) +
                                   " per tensor" + validating());
    for (std::size_t i = 0; i < t.strides().size(); ++i)
      if (t.has_strides() && static_cast<u64>(t.strides()[i]) > kUintMax)
        fail(field_at(x.field + ".strides", i),
             "stride " + str(t.strides()[i]) + " does not fit DirectML's UINT" + validating());
  }
}
void Rules::level_uint(const std::string& field, const std::vector<i64>& v) const {
  if (!level_) return;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] < 0 || static_cast<u64>(v[i]) > kUintMax)
      fail(field_at(field, i), str(v[i]) + " does not fit DirectML's UINT" + validating());
}
void Rules::level_int(const std::string& field, const std::vector<i64>& v) const {
  if (!level_) return;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] < kIntMin || v[i] > kIntMax)
      fail(field_at(field, i), str(v[i]) + " does not fit DirectML's INT" + validating());
}
void Rules::level_never(const std::string& field, const std::string& rule) const {
  if (level_) fail(field, rule + validating() + "; validate without a feature level to use it");
}
void Rules::level_reduction(ScatterReduction r) const {
  if (r != ScatterReduction::NONE)
    level_never("reduction", reduction_name(r) +
                                 " is a strided extension (ONNX's reduction) that no DirectML feature level accepts");
}
void Rules::level_elements_indices(const TensorDesc& idx, const TensorDesc& in, i64 axis) const {
  for (std::size_t i = 0; i < idx.sizes().size(); ++i)
    if (i != static_cast<std::size_t>(axis) && idx.sizes()[i] != in.sizes()[i])
      level_never(field_at("indices.sizes", i),
                  str(idx.sizes()[i]) + " is smaller than " + field_at("input.sizes", i) + " (" + str(in.sizes()[i]) +
                      "): no DirectML feature level accepts it, since DirectML requires indices sizes equal to "
                      "input sizes off the axis");
}

std::vector<Rules::Named> with_list(std::vector<Rules::Named> v, const std::string& field,
                                    const std::vector<TensorDesc>& ts, bool before) {
  std::vector<Rules::Named> items;
  for (std::size_t k = 0; k < ts.size(); ++k) items.push_back({field_at(field, k), &ts[k], false});
  if (before) {
    items.insert(items.end(), v.begin(), v.end());
    return items;
  }
  v.insert(v.end(), items.begin(), items.end());
  return v;
}

}  // namespace strided::detail
