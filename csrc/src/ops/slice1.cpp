// Slice1 (DML_SLICE1_OPERATOR_DESC): a window (offsets, sizes) read with signed, non-zero
// strides; a negative stride walks the window from its far end. One copy from a subsampled view.
#include "exec/call.hpp"
#include "ops/op.hpp"
#include "view/view.hpp"

namespace strided::detail {
namespace {
constexpr std::array<LevelRow, 3> kTable{{{FeatureLevel::FL_2_1, 4, 5, kEightTypes}, kRow30, kRow41}};
}  // namespace

void check(const Rules& r, const Slice1Desc& d) {
  r.signed_window(d.input, d.output, d.offsets, d.sizes, d.strides);
  r.output_no_alias("output", d.output);
  r.level_rules(kTable, {{"input", &d.input, false}, {"output", &d.output, false}});
  r.level_uint("offsets", d.offsets);
  r.level_uint("sizes", d.sizes);
  r.level_int("strides", d.strides);
}

void lower(Lowering& l, const Slice1Desc& d) {
  const View in = l.in(d.input), out = l.out(d.output);
  std::vector<std::int64_t> start(d.offsets.size());
  for (std::size_t i = 0; i < start.size(); ++i) start[i] = d.offsets[i] + (d.strides[i] < 0 ? d.sizes[i] - 1 : 0);
  l.p.steps.push_back(make_copy_step(subsample(in, start, d.strides, out.sizes), out));
}

// Call: one input, one output; parameters: offsets, sizes, strides (one per dimension each).
Slice1Desc from_call(const Call& c, const Slice1Desc*) {
  c.expect(1, 1, 0);
  const auto n = static_cast<std::size_t>(c.in[0].ndim);
  if (c.n_prm != 3 * n) throw ValidationError("slice: offsets, sizes and strides need one value per dimension");
  return {c.in_desc(0), c.out_desc(0), {c.prm, c.prm + n}, {c.prm + n, c.prm + 2 * n}, {c.prm + 2 * n, c.prm + 3 * n}};
}

}  // namespace strided::detail

namespace strided {

void slice(const ConstArrayView& x, const ArrayView& out, const std::vector<std::int64_t>& offsets,
           const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& strides) {
  const detail::CallArray a = detail::call_array(x, "x"), o = detail::call_array(out, "out");
  std::vector<std::int64_t> prm(offsets);
  prm.insert(prm.end(), sizes.begin(), sizes.end());
  prm.insert(prm.end(), strides.begin(), strides.end());
  if (!detail::is_empty(a) && !detail::is_empty(o)) {
    if (a.ndim == 0) return detail::call(detail::op_code<IdentityDesc>(), nullptr, 0, &a, 1, &o, 1);
    return detail::call(detail::op_code<Slice1Desc>(), prm.data(), prm.size(), &a, 1, &o, 1);
  }
  // Nothing moves; the arguments must still fit (Slice1Desc's rules, which need non-empty tensors).
  const auto n = static_cast<std::size_t>(a.ndim);
  if (offsets.size() != n || sizes.size() != n || strides.size() != n || o.ndim != a.ndim)
    throw ValidationError("Slice1Desc: offsets, sizes, strides and out need one value or dimension per x dimension");
  for (std::size_t i = 0; i < n; ++i)
    if (strides[i] == 0 || offsets[i] < 0 || sizes[i] < 0 || offsets[i] > a.shape[i] - sizes[i])
      throw ValidationError("Slice1Desc.sizes[" + std::to_string(i) + "]: window [" + std::to_string(offsets[i]) +
                            ", " + std::to_string(offsets[i] + sizes[i]) + ") with stride " +
                            std::to_string(strides[i]) + " does not fit x's size " + std::to_string(a.shape[i]));
}

}  // namespace strided
