// Identity (DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC): out[c] = in[c]. One strided copy.
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

}  // namespace strided
