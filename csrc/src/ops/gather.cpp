// Gather (DML_GATHER_OPERATOR_DESC, numpy take / ONNX Gather):
// out[o, j, q] = in[o, indices[j], q] with j over the last `index_dimensions` of indices.
#include "exec/call.hpp"
#include "index/steps.hpp"
#include "ops/op.hpp"

namespace strided::detail {
namespace {
constexpr std::array<LevelRow, 4> kTable{
    {{FeatureLevel::FL_1_0, 4, 4, kFloat32Float16}, {FeatureLevel::FL_2_1, 4, 4, kEightTypes}, kRow30, kRow41}};
}  // namespace

void check(const Rules& r, const GatherDesc& d) {
  const int n = d.input.ndim();
  r.axis_in_range("axis", d.axis, n);
  r.count_in_range("index_dimensions", d.index_dimensions, 0, n, "the indices' trailing dimensions");
  r.same_ndim("indices", d.indices, "input", d.input);
  r.same_ndim("output", d.output, "input", d.input);
  r.index_dtype("indices", d.indices);
  r.same_dtype("output", d.output, "input", d.input);
  r.leading_ones("indices", d.indices, d.index_dimensions, "index_dimensions");
  // output = input.sizes[:axis] + indices.sizes[n-k:] + input.sizes[axis+1:], right-aligned.
  const auto ax = static_cast<std::ptrdiff_t>(d.axis);
  const auto& in = d.input.sizes();
  const auto& ix = d.indices.sizes();
  std::vector<std::int64_t> e(in.begin(), in.begin() + ax);
  e.insert(e.end(), ix.end() - static_cast<std::ptrdiff_t>(d.index_dimensions), ix.end());
  e.insert(e.end(), in.begin() + ax + 1, in.end());
  r.right_aligned("output", d.output, e);
  r.output_no_alias("output", d.output);
  r.level_rules(kTable, {{"input", &d.input, false}, {"indices", &d.indices, true}, {"output", &d.output, false}});
}

void lower(Lowering& l, const GatherDesc& desc) {
  const View in = l.in(desc.input), idx = l.in(desc.indices), out = l.out(desc.output);
  const auto axis = static_cast<int>(desc.axis);
  const int d = static_cast<int>(desc.index_dimensions);
  const View x = index::aligned(idx, d);
  const auto ua = static_cast<std::size_t>(axis), ud = static_cast<std::size_t>(d);
  const View o = index::aligned(out, in.ndim() - 1 + d);
  index::TakeGeom g;
  for (std::size_t i = 0; i < ua; ++i) g.outer.push(in.sizes[i], {in.strides[i], o.strides[i]});
  for (std::size_t k = 0; k < ud; ++k) g.index.push(x.sizes[k], {x.strides[k], o.strides[ua + k]});
  for (std::size_t i = ua + 1; i < in.sizes.size(); ++i)
    g.inner.push(in.sizes[i], {in.strides[i], o.strides[i - 1 + ud]});
  g.outer.coalesce();
  g.index.coalesce();
  g.inner.coalesce();
  g.N = in.sizes[ua];
  g.a_in = in.strides[ua];
  g.in = in.where;
  g.idx = idx.where;
  g.out = out.where;
  g.dtype = in.dtype;
  g.idx_dtype = idx.dtype;
  index::IndexCheckSpec c = index::check_spec(l.name(GatherDesc::name, "gather") + ".indices", idx);
  c.skip_leading = idx.ndim() - d;
  c.bound = {g.N};
  c.axis = {axis};
  l.p.steps.push_back(index::make_take_step(g, std::move(c), out, in, idx));
}

// Call: x, indices -> out (numpy take's shapes; validated with leading 1s added, since the
// description wants equal dimension counts); parameters: axis of x (negative from the end).
GatherDesc from_call(const Call& c, const GatherDesc*) {
  c.expect(2, 1, 1);
  const int nd = c.max_ndim();
  const std::int64_t axis = Call::axis(c.prm[0], c.in[0].ndim, "gather.axis");
  return {c.in_desc(0, nd), c.in_desc(1, nd), c.out_desc(0, nd), axis + nd - c.in[0].ndim, c.in[1].ndim};
}

CallShapes call_shapes(const Call& c, const GatherDesc*) {
  c.expect(2, 0, 1);
  const ArraySpec &x = c.in[0], &i = c.in[1];
  const auto ax = static_cast<std::ptrdiff_t>(Call::axis(c.prm[0], x.ndim, "gather.axis"));
  std::vector<std::int64_t> shape(x.shape, x.shape + ax);
  shape.insert(shape.end(), i.shape, i.shape + i.ndim);
  shape.insert(shape.end(), x.shape + ax + 1, x.shape + x.ndim);
  return {shape, {}};
}

}  // namespace strided::detail

namespace strided {

void gather(const ConstArrayView& x, const ConstArrayView& indices, const ArrayView& out, std::int64_t axis) {
  const detail::CallArray ins[2] = {detail::call_array(x, "x"), detail::call_array(indices, "indices")};
  detail::index_call(detail::op_code<GatherDesc>(), axis, ScatterReduction::NONE, ins, 2,
                     detail::call_array(out, "out"));
}

}  // namespace strided
