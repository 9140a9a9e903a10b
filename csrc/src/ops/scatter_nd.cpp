// ScatterND (DML_SCATTER_ND_OPERATOR_DESC, ONNX ScatterND): out = in, then
// out[indices[t, :], s] = updates[t, s] for every index tuple t in row-major order (or combined
// by a reduction). One tuple-scatter step (which copies the input first unless in place).
#include "exec/call.hpp"
#include "index/steps.hpp"
#include "ops/op.hpp"

namespace strided::detail {
namespace {
constexpr std::array<LevelRow, 3> kTable{{{FeatureLevel::FL_2_1, 4, 4, kEightTypes}, kRow30, kRow41}};
}  // namespace

void check(const Rules& r, const ScatterNDDesc& d) {
  r.reduction_known(d.reduction);
  r.same_ndim("updates", d.updates, "input", d.input);
  r.same_ndim("output", d.output, "input", d.input);
  r.same_dtype("updates", d.updates, "input", d.input);
  r.same_dtype("output", d.output, "input", d.input);
  const auto e = r.tuple_indices(d.input, d.indices, d.input_dimension_count, d.indices_dimension_count, 0);
  r.same_sizes("output", d.output, "input", d.input);
  r.right_aligned("updates", d.updates, e);
  r.output_no_alias("output", d.output);
  r.level_reduction(d.reduction);
  r.level_rules(kTable, {{"input", &d.input, false},
                         {"indices", &d.indices, true},
                         {"updates", &d.updates, false},
                         {"output", &d.output, false}});
}

void lower(Lowering& l, const ScatterNDDesc& d) {
  const View in = l.in(d.input), idx = l.in(d.indices), upd = l.in(d.updates), out = l.out(d.output);
  const int r = static_cast<int>(d.input_dimension_count), q = static_cast<int>(d.indices_dimension_count);
  const View xi = index::aligned(in, r);
  const View xo = index::aligned(out, r);
  const View xx = index::aligned(idx, q);
  const int L = static_cast<int>(xx.sizes[static_cast<std::size_t>(q - 1)]);
  const View xu = index::aligned(upd, q - 1 + r - L);
  index::TupleScatterGeom g;
  for (int i = 0; i < q - 1; ++i) {
    const auto u = static_cast<std::size_t>(i);
    g.tuples.push(xx.sizes[u], {xx.strides[u], xu.strides[u]});
  }
  g.tuples.coalesce();
  g.L = L;
  g.comp_st = xx.strides[static_cast<std::size_t>(q - 1)];
  std::int64_t lin = 1;
  for (int c = L - 1; c >= 0; --c) {
    const auto u = static_cast<std::size_t>(c);
    g.bound[u] = xo.sizes[u];
    g.out_st[u] = xo.strides[u];
    g.lin_st[u] = lin;
    lin *= xo.sizes[u];
  }
  g.targets = lin;
  for (int i = L; i < r; ++i)
    g.slice.push(xo.sizes[static_cast<std::size_t>(i)],
                 {xu.strides[static_cast<std::size_t>(q - 1 + i - L)], xo.strides[static_cast<std::size_t>(i)]});
  g.slice.coalesce();
  g.in = in.where;
  g.idx = idx.where;
  g.upd = upd.where;
  g.out = out.where;
  g.dtype = in.dtype;
  g.idx_dtype = idx.dtype;
  const bool same = index::same_view(xi, xo);
  if (same) l.p.inplace_ok.emplace_back(in.where.buffer, out.where.buffer);
  index::IndexCheckSpec c =
      index::tuple_check_spec(l.name(ScatterNDDesc::name, "scatter_nd") + ".indices", idx, q, g.bound.data(), L, 0);
  l.p.steps.push_back(index::make_tuple_scatter_step(g, d.reduction, std::move(c), make_copy_step(xi, xo), same));
}

// Call: x, indices, updates -> out (validated with leading 1s added); parameters: (unused),
// reduction code.
ScatterNDDesc from_call(const Call& c, const ScatterNDDesc*) {
  c.expect(3, 1, 2);
  const int nd = c.max_ndim();
  return {c.in_desc(0, nd),
          c.in_desc(1, nd),
          c.in_desc(2, nd),
          c.out_desc(0, nd),
          c.in[0].ndim,
          c.in[1].ndim,
          reduction_code(c.prm[1], "scatter_nd.reduction")};
}

CallShapes call_shapes(const Call& c, const ScatterNDDesc*) {
  c.expect(3, 0, 2);
  const ArraySpec &x = c.in[0], &i = c.in[1];
  const std::int64_t L = i.ndim ? i.shape[i.ndim - 1] : 0;
  if (L < 1 || L > x.ndim) throw ValidationError("scatter_nd.indices: the index tuple size does not fit x");
  std::vector<std::int64_t> upd(i.shape, i.shape + i.ndim - 1);
  upd.insert(upd.end(), x.shape + L, x.shape + x.ndim);
  return {{x.shape, x.shape + x.ndim}, upd};
}

}  // namespace strided::detail

namespace strided {

void scatter_nd(const ConstArrayView& x, const ConstArrayView& indices, const ConstArrayView& updates,
                const ArrayView& out, ScatterReduction reduction) {
  const detail::CallArray ins[3] = {detail::call_array(x, "x"), detail::call_array(indices, "indices"),
                                    detail::call_array(updates, "updates")};
  detail::index_call(detail::op_code<ScatterNDDesc>(), 0, reduction, ins, 3, detail::call_array(out, "out"));
}

}  // namespace strided
