// Identity (DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC): out[c] = in[c]. One strided copy.
#include <algorithm>
#include <string>
#include <vector>

#include "exec/call.hpp"
#include "ops/op.hpp"

namespace strided::detail {
namespace {
constexpr std::array<LevelRow, 4> kTable{
    {{FeatureLevel::FL_1_0, 4, 5, kFloat32Float16}, {FeatureLevel::FL_2_1, 4, 5, kEightTypes}, kRow30, kRow41}};
}  // namespace

void check(const Rules& r, const IdentityDesc& d) {
  r.same_ndim("output", d.output, "input", d.input);
  r.same_dtype("output", d.output, "input", d.input);
  r.same_sizes("output", d.output, "input", d.input);
  r.output_no_alias("output", d.output);
  r.level_rules(kTable, {{"input", &d.input, false}, {"output", &d.output, false}});
}

void lower(Lowering& l, const IdentityDesc& d) {
  const View in = l.in(d.input);
  l.copy(in, l.out(d.output));
}

// Call: one input, one output (the functional copy has broadcast the input already).
IdentityDesc from_call(const Call& c, const IdentityDesc*) {
  c.expect(1, 1, 0);
  return {c.in_desc(0), c.out_desc(0)};
}

}  // namespace strided::detail

namespace strided {

void copy(const ConstArrayView& src, const ArrayView& out) {
  const detail::CallArray s = detail::call_array(src, "src"), o = detail::call_array(out, "out");
  if (s.dtype != o.dtype)
    throw ValidationError("out: dtype " + std::string(dtype_name(o.dtype)) + " differs from src dtype " +
                          std::string(dtype_name(s.dtype)) + " (copy never converts)");
  const detail::CallArray b = detail::broadcast_to(s, o);
  if (!detail::is_empty(o)) detail::call(detail::op_code<IdentityDesc>(), nullptr, 0, &b, 1, &o, 1);
}

namespace {
// `axes` normalised against n dimensions (negative from the end); ValidationError naming
// "<fn>.axes[i]" for one out of range or repeated.
std::vector<int> norm_axes(const std::vector<std::int64_t>& axes, int n, const char* fn) {
  std::vector<int> r;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const std::string at = std::string(fn) + ".axes[" + std::to_string(i) + "]: ";
    if (axes[i] < -n || axes[i] >= n)
      throw ValidationError(at + std::to_string(axes[i]) + " is out of range for " + std::to_string(n) +
                            " dimension(s)");
    const int a = static_cast<int>(axes[i] < 0 ? axes[i] + n : axes[i]);
    if (std::find(r.begin(), r.end(), a) != r.end())
      throw ValidationError(at + "axis " + std::to_string(a) + " is repeated");
    r.push_back(a);
  }
  return r;
}

// The Identity copy of a view of x (same dtype) into an out of exactly the view's shape.
void copy_view(const ConstArrayView& view, const ArrayView& out) {
  if (out.sizes != view.sizes)
    throw ValidationError("out: expected shape " +
                          detail::shape_str(view.sizes.data(), static_cast<int>(view.sizes.size())) + ", got " +
                          detail::shape_str(out.sizes.data(), static_cast<int>(out.sizes.size())));
  copy(view, out);
}
}  // namespace

void flip(const ConstArrayView& x, const ArrayView& out, const std::vector<std::int64_t>& axes) {
  ConstArrayView v = x;
  detail::call_array(x, "x");  // the view's own checks first
  for (const int a : norm_axes(axes, static_cast<int>(x.sizes.size()), "flip")) {
    const auto u = static_cast<std::size_t>(a);
    if (v.sizes[u] > 0) v.data = static_cast<const std::byte*>(v.data) + (v.sizes[u] - 1) * v.strides[u];
    v.strides[u] = -v.strides[u];
  }
  copy_view(v, out);
}

void permute_dims(const ConstArrayView& x, const ArrayView& out, const std::vector<std::int64_t>& axes) {
  detail::call_array(x, "x");
  const int n = static_cast<int>(x.sizes.size());
  if (axes.size() != x.sizes.size())
    throw ValidationError("permute_dims.axes: must be a permutation of " + std::to_string(n) + " dimension(s), got " +
                          std::to_string(axes.size()) + " axes");
  ConstArrayView v = x;
  const std::vector<int> perm = norm_axes(axes, n, "permute_dims");
  for (std::size_t i = 0; i < perm.size(); ++i) {
    v.sizes[i] = x.sizes[static_cast<std::size_t>(perm[i])];
    v.strides[i] = x.strides[static_cast<std::size_t>(perm[i])];
  }
  copy_view(v, out);
}

}  // namespace strided
