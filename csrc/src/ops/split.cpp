// Split (DML_SPLIT_OPERATOR_DESC): output k is the input's range along `axis`. One copy per output.
#include "exec/call.hpp"
#include "ops/op.hpp"
#include "view/view.hpp"

namespace strided::detail {
namespace {
constexpr std::array<LevelRow, 4> kTable{
    {{FeatureLevel::FL_1_0, 4, 4, kSixTypes}, {FeatureLevel::FL_2_1, 4, 4, kEightTypes}, kRow30, kRow41}};
}  // namespace

void check(const Rules& r, const SplitDesc& d) {
  r.parts_along_axis("input", d.input, "outputs", d.outputs, d.axis);
  for (std::size_t k = 0; k < d.outputs.size(); ++k) r.output_no_alias(field_at("outputs", k), d.outputs[k]);
  r.level_rules(kTable, with_list({{"input", &d.input, false}}, "outputs", d.outputs, false));
}

void lower(Lowering& l, const SplitDesc& d) {
  const View in = l.in(d.input);
  const auto axis = static_cast<int>(d.axis);
  std::int64_t start = 0;
  for (const View& o : l.outs(d.outputs)) {
    const std::int64_t n = o.sizes[static_cast<std::size_t>(axis)];
    if (n > 0) l.p.steps.push_back(make_copy_step(narrow(in, axis, start, n), o));
    start += n;
  }
}

// Call: one input, the outputs; parameter: axis.
SplitDesc from_call(const Call& c, const SplitDesc*) {
  c.expect(1, 0, 1);
  return {c.in_desc(0), c.out_descs(), c.prm[0]};
}

}  // namespace strided::detail

namespace strided {

void split(const ConstArrayView& x, const std::vector<ArrayView>& outs, std::int64_t axis) {
  const detail::CallArray a = detail::call_array(x, "x");
  if (a.ndim == 0) throw ValidationError("x: a 0-d array cannot be split (it has no axis)");
  const std::int64_t ax = detail::Call::axis(axis, a.ndim, "axis");
  std::vector<ConstArrayView> views(outs.begin(), outs.end());
  const std::vector<detail::CallArray> live = detail::parts_along_axis(a, "x", views, "outs", ax);
  if (!live.empty()) detail::call(detail::op_code<SplitDesc>(), &ax, 1, &a, 1, live.data(), live.size());
}

}  // namespace strided
