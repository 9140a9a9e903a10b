// FillValueConstant (DML_FILL_VALUE_CONSTANT_OPERATOR_DESC): out[c] = value. One copy from a
// stride-0 constant operand (the engine's Fill kernel, streaming stores for large outputs).
#include "exec/call.hpp"
#include "ops/op.hpp"

namespace strided::detail {
namespace {
constexpr std::array<LevelRow, 3> kTable{
    {{FeatureLevel::FL_2_1, 4, 4, kEightTypes}, {FeatureLevel::FL_4_0, 1, 8, kEightTypes}, kRow41}};
}  // namespace

void check(const Rules& r, const FillValueConstantDesc& d) {
  r.scalar_dtype("value", d.value, "output", d.output);
  r.output_no_alias("output", d.output);
  r.level_rules(kTable, {{"output", &d.output, false}});
}

void lower(Lowering& l, const FillValueConstantDesc& d) { l.fill(l.out(d.output), d.value); }

// Call: one output; parameter: the value's bits (a Scalar of the output's dtype).
FillValueConstantDesc from_call(const Call& c, const FillValueConstantDesc*) {
  c.expect(0, 1, 1);
  const TensorDesc out = c.out_desc(0);
  return {out, Scalar{out.dtype(), static_cast<std::uint64_t>(c.prm[0])}};
}

}  // namespace strided::detail

namespace strided {

void full(const ArrayView& out, const Scalar& value) {
  const detail::CallArray o = detail::call_array(out, "out");
  if (detail::is_empty(o)) return;
  const auto bits = static_cast<std::int64_t>(value.cast(o.dtype).value_bits());
  detail::call(detail::op_code<FillValueConstantDesc>(), &bits, 1, nullptr, 0, &o, 1);
}

}  // namespace strided
