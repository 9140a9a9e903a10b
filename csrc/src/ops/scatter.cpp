// Scatter (DML_SCATTER_OPERATOR_DESC = SCATTER_ELEMENTS, ONNX ScatterElements): out = in, then
// out[c with c[axis] = indices[c]] = updates[c] in row-major order (or combined by a reduction).
// One axis-scatter step (after a whole copy when the indices do not cover the input).
#include "exec/call.hpp"
#include "index/steps.hpp"
#include "ops/op.hpp"

namespace strided::detail {
namespace {
constexpr std::array<LevelRow, 4> kTable{
    {{FeatureLevel::FL_2_0, 4, 4, kFloat32Float16}, {FeatureLevel::FL_2_1, 4, 4, kEightTypes}, kRow30, kRow41}};
}  // namespace

void check(const Rules& r, const ScatterDesc& d) {
  r.reduction_known(d.reduction);
  r.axis_in_range("axis", d.axis, d.input.ndim());
  r.same_ndim("indices", d.indices, "input", d.input);
  r.same_ndim("updates", d.updates, "input", d.input);
  r.same_ndim("output", d.output, "input", d.input);
  r.index_dtype("indices", d.indices);
  r.same_dtype("updates", d.updates, "input", d.input);
  r.same_dtype("output", d.output, "input", d.input);
  r.elements_indices(d.indices, d.input, d.axis);
  r.same_sizes("updates", d.updates, "indices", d.indices);
  r.same_sizes("output", d.output, "input", d.input);
  r.output_no_alias("output", d.output);
  r.level_reduction(d.reduction);
  r.level_elements_indices(d.indices, d.input, d.axis);
  r.level_rules(kTable, {{"input", &d.input, false},
                         {"indices", &d.indices, true},
                         {"updates", &d.updates, false},
                         {"output", &d.output, false}});
}

void lower(Lowering& l, const ScatterDesc& d) {
  const View in = l.in(d.input), idx = l.in(d.indices), upd = l.in(d.updates), out = l.out(d.output);
  const auto axis = static_cast<int>(d.axis);
  // The step copies the input into each band of lines it scatters into; indices smaller than the
  // input off the axis leave parts of the output outside every line, so the whole input is
  // copied first and the step scatters into the output as if in place (its source is the output).
  const bool cover = index::covers_off_axis(in, idx, axis);
  const bool same = index::same_view(in, out);
  if (same) l.p.inplace_ok.emplace_back(in.where.buffer, out.where.buffer);
  if (!cover) l.p.steps.push_back(index::make_copy_unless_in_place(in, out, same));
  const View& src = cover ? in : out;
  index::ElementsGeom g;
  const auto a = static_cast<std::size_t>(axis);
  for (int k = 0; k < in.ndim(); ++k) {
    const auto u = static_cast<std::size_t>(k);
    if (k != axis) g.lines.push(idx.sizes[u], {idx.strides[u], upd.strides[u], out.strides[u], src.strides[u]});
  }
  g.lines.coalesce();
  g.K = idx.sizes[a];
  g.N = out.sizes[a];
  g.ax = {idx.strides[a], upd.strides[a], out.strides[a], src.strides[a]};
  g.where = {idx.where, upd.where, out.where, src.where};
  g.dtype = in.dtype;
  g.idx_dtype = idx.dtype;
  index::choose_tile(g, in.width());
  g.same_view = cover ? same : true;
  index::IndexCheckSpec c = index::check_spec(l.name(ScatterDesc::name, "scatter") + ".indices", idx);
  c.bound = {g.N};
  c.axis = {axis};
  l.p.steps.push_back(index::make_axis_scatter_step(g, d.reduction, std::move(c)));
}

// Call: x, indices, updates -> out; parameters: axis (negative from the end), reduction code.
ScatterDesc from_call(const Call& c, const ScatterDesc*) {
  c.expect(3, 1, 2);
  return {c.in_desc(0),
          c.in_desc(1),
          c.in_desc(2),
          c.out_desc(0),
          Call::axis(c.prm[0], c.in[0].ndim, "scatter.axis"),
          reduction_code(c.prm[1], "scatter.reduction")};
}

CallShapes call_shapes(const Call& c, const ScatterDesc*) {
  c.expect(3, 0, 2);
  Call::axis(c.prm[0], c.in[0].ndim, "scatter.axis");
  if (c.in[1].ndim != c.in[0].ndim) throw ValidationError("scatter.indices: must have as many dimensions as x");
  return {{c.in[0].shape, c.in[0].shape + c.in[0].ndim}, {c.in[1].shape, c.in[1].shape + c.in[1].ndim}};
}

}  // namespace strided::detail

namespace strided {

void scatter(const ConstArrayView& x, const ConstArrayView& indices, const ConstArrayView& updates,
             const ArrayView& out, std::int64_t axis, ScatterReduction reduction) {
  const detail::CallArray ins[3] = {detail::call_array(x, "x"), detail::call_array(indices, "indices"),
                                    detail::call_array(updates, "updates")};
  detail::index_call(detail::op_code<ScatterDesc>(), axis, reduction, ins, 3, detail::call_array(out, "out"));
}

}  // namespace strided
