// Join (DML_JOIN_OPERATOR_DESC): the inputs concatenated along `axis`. One copy per input.
#include "exec/call.hpp"
#include "ops/op.hpp"
#include "view/view.hpp"

namespace strided::detail {
namespace {
constexpr std::array<LevelRow, 5> kTable{{{FeatureLevel::FL_1_0, 4, 4, kSixTypes},
                                          {FeatureLevel::FL_2_1, 4, 4, kEightTypes},
                                          {FeatureLevel::FL_3_0, 4, 5, kEightTypes},
                                          {FeatureLevel::FL_3_1, 1, 8, kEightTypes},
                                          kRow41}};
}  // namespace

void check(const Rules& r, const JoinDesc& d) {
  r.parts_along_axis("output", d.output, "inputs", d.inputs, d.axis);
  r.output_no_alias("output", d.output);
  r.level_rules(kTable, with_list({{"output", &d.output, false}}, "inputs", d.inputs, true));
}

void lower(Lowering& l, const JoinDesc& d) {
  const std::vector<View> ins = l.ins(d.inputs);
  const View out = l.out(d.output);
  const auto axis = static_cast<int>(d.axis);
  std::int64_t start = 0;
  for (const View& i : ins) {
    const std::int64_t n = i.sizes[static_cast<std::size_t>(axis)];
    if (n > 0) l.p.steps.push_back(make_copy_step(i, narrow(out, axis, start, n)));
    start += n;
  }
}

// Call: the inputs, one output; parameter: axis.
JoinDesc from_call(const Call& c, const JoinDesc*) {
  c.expect(0, 1, 1);
  return {c.in_descs(), c.out_desc(0), c.prm[0]};
}

}  // namespace strided::detail

namespace strided {

void join(const std::vector<ConstArrayView>& xs, const ArrayView& out, std::int64_t axis) {
  const detail::CallArray o = detail::call_array(out, "out");
  if (o.ndim == 0) throw ValidationError("out: zero-dimensional arrays cannot be concatenated");
  const std::int64_t ax = detail::Call::axis(axis, o.ndim, "axis");
  const std::vector<detail::CallArray> live = detail::parts_along_axis(o, "out", xs, "xs", ax);
  if (!live.empty() && !detail::is_empty(o))
    detail::call(detail::op_code<JoinDesc>(), &ax, 1, live.data(), live.size(), &o, 1);
}

}  // namespace strided
