// Cast (DML_CAST_OPERATOR_DESC): out[c] = convert(in[c]) by SPEC 3.5's rules (elem/cast.hpp).
// One step of the engine's convert family (a plain copy when the types are equal).
#include "exec/call.hpp"
#include "ops/op.hpp"

namespace strided::detail {
namespace {
constexpr std::uint64_t kCast6 = dtype_bit(DataType::FLOAT32) | dtype_bit(DataType::FLOAT16) |
                                 dtype_bit(DataType::INT16) | dtype_bit(DataType::INT8) | dtype_bit(DataType::UINT16) |
                                 dtype_bit(DataType::UINT8);
constexpr std::array<LevelRow, 4> kTable{{{FeatureLevel::FL_1_0, 4, 4, kCast6},
                                          {FeatureLevel::FL_3_0, 4, 4, kTenTypes},
                                          {FeatureLevel::FL_3_1, 1, 8, kTenTypes},
                                          kRow41}};
}  // namespace

void check(const Rules& r, const CastDesc& d) {
  r.same_sizes("output", d.output, "input", d.input);
  r.output_no_alias("output", d.output);
  r.level_rules(kTable, {{"input", &d.input, false}, {"output", &d.output, false}});
}

void lower(Lowering& l, const CastDesc& d) {
  const View in = l.in(d.input);
  l.copy(in, l.out(d.output));
}

// Call: one input, one output (the output's dtype is the target).
CastDesc from_call(const Call& c, const CastDesc*) {
  c.expect(1, 1, 0);
  return {c.in_desc(0), c.out_desc(0)};
}

}  // namespace strided::detail

namespace strided {

void cast(const ConstArrayView& x, const ArrayView& out) {
  const detail::CallArray a = detail::call_array(x, "x"), o = detail::call_array(out, "out");
  detail::expect_shape(o, std::vector<std::int64_t>(a.shape, a.shape + a.ndim), "out");
  if (!detail::is_empty(o)) detail::call(detail::op_code<CastDesc>(), nullptr, 0, &a, 1, &o, 1);
}

}  // namespace strided
