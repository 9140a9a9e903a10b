// GatherElements (DML_GATHER_ELEMENTS_OPERATOR_DESC, ONNX GatherElements):
// out[c] = in[c with c[axis] = indices[c]]. One axis-gather step.
#include "exec/call.hpp"
#include "index/steps.hpp"
#include "ops/op.hpp"

namespace strided::detail {
namespace {
constexpr std::array<LevelRow, 3> kTable{{{FeatureLevel::FL_2_1, 4, 4, kEightTypes}, kRow30, kRow41}};
}  // namespace

void check(const Rules& r, const GatherElementsDesc& d) {
  r.axis_in_range("axis", d.axis, d.input.ndim());
  r.same_ndim("indices", d.indices, "input", d.input);
  r.same_ndim("output", d.output, "input", d.input);
  r.index_dtype("indices", d.indices);
  r.same_dtype("output", d.output, "input", d.input);
  r.elements_indices(d.indices, d.input, d.axis);
  r.same_sizes("output", d.output, "indices", d.indices);
  r.output_no_alias("output", d.output);
  r.level_elements_indices(d.indices, d.input, d.axis);
  r.level_rules(kTable, {{"input", &d.input, false}, {"indices", &d.indices, true}, {"output", &d.output, false}});
}

void lower(Lowering& l, const GatherElementsDesc& d) {
  const View in = l.in(d.input), idx = l.in(d.indices), out = l.out(d.output);
  const auto axis = static_cast<int>(d.axis);
  index::ElementsGeom g;
  const auto a = static_cast<std::size_t>(axis);
  for (int k = 0; k < in.ndim(); ++k) {
    const auto u = static_cast<std::size_t>(k);
    if (k != axis) g.lines.push(idx.sizes[u], {idx.strides[u], out.strides[u], in.strides[u], 0});
  }
  g.lines.coalesce();
  g.K = idx.sizes[a];
  g.N = in.sizes[a];
  g.ax = {idx.strides[a], out.strides[a], in.strides[a], 0};
  g.where = {idx.where, out.where, in.where, in.where};
  g.dtype = in.dtype;
  g.idx_dtype = idx.dtype;
  index::choose_tile(g, in.width());
  index::IndexCheckSpec c = index::check_spec(l.name(GatherElementsDesc::name, "gather_elements") + ".indices", idx);
  c.bound = {g.N};
  c.axis = {axis};
  l.p.steps.push_back(index::make_axis_gather_step(g, std::move(c)));
}

// Call: x, indices -> out; parameters: axis (negative from the end), reduction (unused).
GatherElementsDesc from_call(const Call& c, const GatherElementsDesc*) {
  c.expect(2, 1, 1);
  return {c.in_desc(0), c.in_desc(1), c.out_desc(0), Call::axis(c.prm[0], c.in[0].ndim, "gather_elements.axis")};
}

CallShapes call_shapes(const Call& c, const GatherElementsDesc*) {
  c.expect(2, 0, 1);
  Call::axis(c.prm[0], c.in[0].ndim, "gather_elements.axis");
  if (c.in[1].ndim != c.in[0].ndim) throw ValidationError("gather_elements.indices: must have as many dimensions as x");
  return {{c.in[1].shape, c.in[1].shape + c.in[1].ndim}, {}};
}

}  // namespace strided::detail

namespace strided {

void gather_elements(const ConstArrayView& x, const ConstArrayView& indices, const ArrayView& out, std::int64_t axis) {
  const detail::CallArray ins[2] = {detail::call_array(x, "x"), detail::call_array(indices, "indices")};
  detail::index_call(detail::op_code<GatherElementsDesc>(), axis, ScatterReduction::NONE, ins, 2,
                     detail::call_array(out, "out"));
}

}  // namespace strided
