// GatherND (DML_GATHER_ND_OPERATOR_DESC; with batch dimensions DML_GATHER_ND1_OPERATOR_DESC):
// the last dimension of indices holds coordinates into the input after the batch dimensions.
// One tuple-gather step.
#include "exec/call.hpp"
#include "index/steps.hpp"
#include "ops/op.hpp"

namespace strided::detail {
namespace {
constexpr std::array<LevelRow, 3> kTable{{{FeatureLevel::FL_2_1, 4, 4, kEightTypes}, kRow30, kRow41}};
constexpr std::array<LevelRow, 2> kTableBatch{{kRow30, kRow41}};  // GATHER_ND1
}  // namespace

void check(const Rules& r, const GatherNDDesc& d) {
  r.same_ndim("output", d.output, "input", d.input);
  r.same_dtype("output", d.output, "input", d.input);
  const auto e =
      r.tuple_indices(d.input, d.indices, d.input_dimension_count, d.indices_dimension_count, d.batch_dimension_count);
  r.right_aligned("output", d.output, e);
  r.output_no_alias("output", d.output);
  const bool nd1 = d.batch_dimension_count > 0;
  r.level_rules(nd1 ? LevelTable(kTableBatch) : LevelTable(kTable),
                {{"input", &d.input, false}, {"indices", &d.indices, true}, {"output", &d.output, false}},
                nd1 ? "batch_dimension_count" : "", nd1 ? "batch dimensions (GATHER_ND1) need" : "the operator needs");
}

void lower(Lowering& l, const GatherNDDesc& d) {
  const View in = l.in(d.input), idx = l.in(d.indices), out = l.out(d.output);
  const int r = static_cast<int>(d.input_dimension_count), q = static_cast<int>(d.indices_dimension_count);
  const int b = static_cast<int>(d.batch_dimension_count);
  const View xi = index::aligned(in, r);
  const View xx = index::aligned(idx, q);
  const int L = static_cast<int>(xx.sizes[static_cast<std::size_t>(q - 1)]);
  const View xo = index::aligned(out, q - 1 + r - b - L);
  index::TupleGatherGeom g;
  for (int i = 0; i < q - 1; ++i) {
    const auto u = static_cast<std::size_t>(i);
    g.tuples.push(xx.sizes[u], {xx.strides[u], xo.strides[u], i < b ? xi.strides[u] : 0});
  }
  g.tuples.coalesce();
  g.L = L;
  g.comp_st = xx.strides[static_cast<std::size_t>(q - 1)];
  for (int c = 0; c < L; ++c) {
    g.bound[static_cast<std::size_t>(c)] = xi.sizes[static_cast<std::size_t>(b + c)];
    g.in_st[static_cast<std::size_t>(c)] = xi.strides[static_cast<std::size_t>(b + c)];
  }
  for (int i = b + L; i < r; ++i)
    g.slice.push(xi.sizes[static_cast<std::size_t>(i)],
                 {xi.strides[static_cast<std::size_t>(i)], xo.strides[static_cast<std::size_t>(q - 1 + i - b - L)]});
  g.slice.coalesce();
  g.in = in.where;
  g.idx = idx.where;
  g.out = out.where;
  g.dtype = in.dtype;
  g.idx_dtype = idx.dtype;
  index::IndexCheckSpec c =
      index::tuple_check_spec(l.name(GatherNDDesc::name, "gather_nd") + ".indices", idx, q, g.bound.data(), L, b);
  l.p.steps.push_back(index::make_tuple_gather_step(g, std::move(c)));
}

// Call: x, indices -> out (validated with leading 1s added); parameters: batch_dims.
GatherNDDesc from_call(const Call& c, const GatherNDDesc*) {
  c.expect(2, 1, 1);
  const int nd = c.max_ndim();
  return {c.in_desc(0, nd), c.in_desc(1, nd), c.out_desc(0, nd), c.in[0].ndim, c.in[1].ndim, c.prm[0]};
}

CallShapes call_shapes(const Call& c, const GatherNDDesc*) {
  c.expect(2, 0, 1);
  const ArraySpec &x = c.in[0], &i = c.in[1];
  const std::int64_t b = c.prm[0];
  const std::int64_t L = i.ndim ? i.shape[i.ndim - 1] : 0;
  if (b < 0 || b >= std::min(x.ndim, i.ndim) || L < 1 || L > x.ndim - b)
    throw ValidationError("gather_nd: batch_dims or the index tuple size does not fit x");
  for (std::int64_t k = 0; k < b; ++k)
    if (i.shape[k] != x.shape[k]) throw ValidationError("gather_nd.indices: batch dimensions differ from x's");
  std::vector<std::int64_t> shape(i.shape, i.shape + i.ndim - 1);
  shape.insert(shape.end(), x.shape + b + L, x.shape + x.ndim);
  return {shape, {}};
}

}  // namespace strided::detail

namespace strided {

void gather_nd(const ConstArrayView& x, const ConstArrayView& indices, const ArrayView& out, std::int64_t batch_dims) {
  const detail::CallArray ins[2] = {detail::call_array(x, "x"), detail::call_array(indices, "indices")};
  detail::index_call(detail::op_code<GatherNDDesc>(), batch_dims, ScatterReduction::NONE, ins, 2,
                     detail::call_array(out, "out"));
}

}  // namespace strided
