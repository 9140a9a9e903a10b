// SliceGrad (DML_SLICE_GRAD_OPERATOR_DESC): the adjoint of Slice1 with the same window. A fill of
// zeros, then (ordered after it: both write the window) a copy of the gradient into Slice1's
// window as a view of the output (a negative stride is a flipped view). No kernel of its own.
#include <string>

#include "exec/call.hpp"
#include "ops/op.hpp"
#include "view/view.hpp"

namespace strided::detail {
namespace {
constexpr std::array<LevelRow, 3> kTable{
    {{FeatureLevel::FL_3_0, 4, 5, kEightTypes}, {FeatureLevel::FL_3_1, 1, 8, kEightTypes}, kRow41}};

const WindowNames kNames{"output_gradient", "input_gradient", "input_window_offsets", "input_window_sizes",
                         "input_window_strides"};
}  // namespace

void check(const Rules& r, const SliceGradDesc& d) {
  // Slice1's rules for the mirrored pair: its input is output_gradient, its output input_gradient.
  r.signed_window(d.output_gradient, d.input_gradient, d.input_window_offsets, d.input_window_sizes,
                  d.input_window_strides, kNames);
  r.output_no_alias("output_gradient", d.output_gradient);
  r.level_rules(kTable, {{"input_gradient", &d.input_gradient, false}, {"output_gradient", &d.output_gradient, false}});
  r.level_uint(kNames.offsets, d.input_window_offsets);
  r.level_uint(kNames.sizes, d.input_window_sizes);
  r.level_int(kNames.strides, d.input_window_strides);
}

void lower(Lowering& l, const SliceGradDesc& d) {
  View grad = l.in(d.input_gradient), out = l.out(d.output_gradient);
  const int n = out.ndim();
  std::vector<std::int64_t> start(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < start.size(); ++i)
    start[i] = d.input_window_offsets[i] + (d.input_window_strides[i] < 0 ? d.input_window_sizes[i] - 1 : 0);
  // A functional call's out= may repeat a dimension (stride 0): each of its elements ends with the
  // value of its last coordinate (SPEC 3.0 rule 3), so only that coordinate is written: the
  // gradient's element that lands there, or no copy at all when none does.
  bool copy = true;
  for (int i = 0; i < n; ++i) {
    const auto u = static_cast<std::size_t>(i);
    if (out.strides[u] != 0 || out.sizes[u] == 1) continue;
    const std::int64_t last = out.sizes[u] - 1, step = d.input_window_strides[u], diff = last - start[u];
    const std::int64_t k = diff / step;
    if (diff % step == 0 && k >= 0 && k < grad.sizes[u]) grad = narrow(grad, i, k, 1);
    else copy = false;
    out = narrow(out, i, last, 1);
    start[u] = 0;
  }
  l.fill(out, Scalar{out.dtype, 0});  // all-zero bits: zero in every type
  if (!copy) return;
  l.p.steps.push_back(make_copy_step(grad, subsample(out, start, d.input_window_strides, grad.sizes)));
}

// Call: the gradient in, the output gradient out; parameters: offsets, sizes, strides (one per
// dimension each).
SliceGradDesc from_call(const Call& c, const SliceGradDesc*) {
  c.expect(1, 1, 0);
  const auto n = static_cast<std::size_t>(c.out[0].ndim);
  if (c.n_prm != 3 * n) throw ValidationError("slice_grad: offsets, sizes and strides need one value per dimension");
  return {c.in_desc(0), c.out_desc(0), {c.prm, c.prm + n}, {c.prm + n, c.prm + 2 * n}, {c.prm + 2 * n, c.prm + 3 * n}};
}

}  // namespace strided::detail

namespace strided {

void slice_grad(const ConstArrayView& grad, const ArrayView& out, const std::vector<std::int64_t>& offsets,
                const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& strides) {
  const detail::CallArray g = detail::call_array(grad, "grad"), o = detail::call_array(out, "out");
  const auto n = static_cast<std::size_t>(o.ndim);
  const auto s = [](std::int64_t v) { return std::to_string(v); };
  if (g.ndim != o.ndim)
    throw ValidationError("grad: must have out's dimension count (" + s(o.ndim) + "), got " + s(g.ndim));
  if (g.dtype != o.dtype)
    throw ValidationError("out.dtype: must equal grad.dtype (" + std::string(dtype_enum_name(g.dtype)) + "), got " +
                          std::string(dtype_enum_name(o.dtype)));
  for (const auto* v : {&offsets, &sizes, &strides})
    if (v->size() != n)
      throw ValidationError("SliceGradDesc: offsets, sizes and strides need one value per dimension (" + s(o.ndim) +
                            "), got " + s(static_cast<std::int64_t>(v->size())));
  if (!detail::is_empty(g) && !detail::is_empty(o)) {
    if (n == 0) return detail::call(detail::op_code<IdentityDesc>(), nullptr, 0, &g, 1, &o, 1);
    std::vector<std::int64_t> prm(offsets);
    prm.insert(prm.end(), sizes.begin(), sizes.end());
    prm.insert(prm.end(), strides.begin(), strides.end());
    return detail::call(detail::op_code<SliceGradDesc>(), prm.data(), prm.size(), &g, 1, &o, 1);
  }
  // An empty gradient: the window must still fit (SliceGradDesc's rules need non-empty tensors);
  // out is all zeros.
  for (std::size_t i = 0; i < n; ++i) {
    const auto mag = strides[i] < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(strides[i])
                                    : static_cast<std::uint64_t>(strides[i]);
    const bool fits = strides[i] != 0 && offsets[i] >= 0 && sizes[i] >= 0 && offsets[i] <= o.shape[i] - sizes[i];
    // At most ceil(sizes / |strides|) elements (none from an empty window).
    if (!fits ||
        static_cast<std::uint64_t>(g.shape[i]) > (sizes[i] ? 1 + static_cast<std::uint64_t>(sizes[i] - 1) / mag : 0))
      throw ValidationError("SliceGradDesc.input_window_sizes[" + s(static_cast<std::int64_t>(i)) + "]: window [" +
                            s(offsets[i]) + ", " + s(offsets[i] + sizes[i]) + ") with stride " + s(strides[i]) +
                            " does not fit out's size " + s(o.shape[i]) + " and grad's " + s(g.shape[i]));
  }
  if (!detail::is_empty(o)) full(out, Scalar{o.dtype, 0});
}

}  // namespace strided
