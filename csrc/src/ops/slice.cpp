// Slice (DML_SLICE_OPERATOR_DESC): out[c] = in[offsets + strides * c], strides >= 1. One copy
// from a subsampled view of the input.
#include "ops/op.hpp"
#include "view/view.hpp"

namespace strided::detail {
namespace {
constexpr std::array<LevelRow, 4> kTable{
    {{FeatureLevel::FL_1_0, 4, 5, kSixTypes}, {FeatureLevel::FL_2_1, 4, 5, kEightTypes}, kRow30, kRow41}};
}  // namespace

void check(const Rules& r, const SliceDesc& d) {
  r.window_params(d.input, d.output, d.offsets, d.sizes, d.strides);
  const auto s = [](std::int64_t v) { return std::to_string(v); };
  for (std::size_t i = 0; i < d.strides.size(); ++i) {
    if (d.strides[i] < 1) r.fail(field_at("strides", i), "stride must be at least 1, got " + s(d.strides[i]));
    if (d.offsets[i] < 0) r.fail(field_at("offsets", i), "offset must not be negative, got " + s(d.offsets[i]));
    if (d.sizes[i] != d.output.sizes()[i])
      r.fail(field_at("sizes", i), "must equal output.sizes[" + std::to_string(i) + "] (" + s(d.output.sizes()[i]) +
                                       "), got " + s(d.sizes[i]));
  }
  // Every read in bounds: offsets[i] + (sizes[i]-1) * strides[i] <= input.sizes[i] - 1, in a
  // form that cannot overflow (all values are non-negative here).
  for (std::size_t i = 0; i < d.strides.size(); ++i) {
    const std::int64_t in = d.input.sizes()[i];
    const std::string dim = "input.sizes[" + std::to_string(i) + "] (" + s(in) + ")";
    if (d.offsets[i] >= in) r.fail(field_at("offsets", i), "offset " + s(d.offsets[i]) + " is outside " + dim);
    if (d.sizes[i] - 1 > (in - 1 - d.offsets[i]) / d.strides[i])
      r.fail(field_at("sizes", i), "the slice reads past the input: offset " + s(d.offsets[i]) + " + (size " +
                                       s(d.sizes[i]) + " - 1) * stride " + s(d.strides[i]) + " must be below " + dim);
  }
  r.output_no_alias("output", d.output);
  r.level_rules(kTable, {{"input", &d.input, false}, {"output", &d.output, false}});
  r.level_uint("offsets", d.offsets);
  r.level_uint("sizes", d.sizes);
  r.level_uint("strides", d.strides);
}

void lower(Lowering& l, const SliceDesc& d) {
  const View in = l.in(d.input), out = l.out(d.output);
  l.p.steps.push_back(make_copy_step(subsample(in, d.offsets, d.strides, out.sizes), out));
}

// Call: one input, one output; parameters: offsets, then strides (one per dimension each).
SliceDesc from_call(const Call& c, const SliceDesc*) {
  c.expect(1, 1, 0);
  const auto n = static_cast<std::size_t>(c.in[0].ndim);
  if (c.n_prm != 2 * n) throw ValidationError("SliceDesc: offsets and strides need one value per dimension");
  const TensorDesc out = c.out_desc(0);
  return {c.in_desc(0), out, {c.prm, c.prm + n}, out.sizes(), {c.prm + n, c.prm + 2 * n}};
}

}  // namespace strided::detail
