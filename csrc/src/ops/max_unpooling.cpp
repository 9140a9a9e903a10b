// MaxUnpooling (DML_MAX_UNPOOLING_OPERATOR_DESC, ONNX MaxUnpool), SPEC 3.14.2: out = 0, then
// out[p] = in[c] for p = indices[c], a row-major position over all of out's sizes. A zero fill,
// then one flat-scatter step (index/flat_scatter.cpp), whose check names the first
// bad index before anything is written.
#include <string>

#include "exec/call.hpp"
#include "index/steps.hpp"
#include "ops/op.hpp"
#include "util/checked.hpp"

namespace strided::detail {
namespace {
// SPEC 4 (its 3_0 table from 2_0): 4 dimensions; FLOAT32/FLOAT16 and UINT32 indices, then (5_0)
// all but FLOAT64 and UINT64 indices too. Signed indices: no level.
constexpr std::array<LevelRow, 2> kTable{
    {{FeatureLevel::FL_2_0, 4, 4, kFloat32Float16}, {FeatureLevel::FL_5_0, 4, 4, kTenTypes}}};
constexpr std::array<LevelRow, 2> kIndexTable{
    {{FeatureLevel::FL_2_0, 4, 4, dtype_bit(DataType::UINT32)},
     {FeatureLevel::FL_5_0, 4, 4, dtype_bit(DataType::UINT32) | dtype_bit(DataType::UINT64)}}};
}  // namespace

void check(const Rules& r, const MaxUnpoolingDesc& d) {
  r.index_dtype("indices", d.indices);
  r.same_sizes("indices", d.indices, "input", d.input);
  r.same_dtype("output", d.output, "input", d.input);
  r.output_no_alias("output", d.output);
  r.level_rules(kTable, {{"input", &d.input, false}, {"output", &d.output, false}});
  r.level_rules(kIndexTable, {{"indices", &d.indices, false}});
}

void lower(Lowering& l, const MaxUnpoolingDesc& d) {
  const View in = l.in(d.input), idx = l.in(d.indices), out = l.out(d.output);
  l.fill(out, Scalar::from_int(out.dtype, 0));
  index::FlatScatterGeom g;
  for (int k = 0; k < in.ndim(); ++k) {
    const auto u = static_cast<std::size_t>(k);
    g.items.push(in.sizes[u], {idx.strides[u], in.strides[u]});
  }
  g.items.coalesce();
  // out's dimensions, size-1 ones dropped and contiguous neighbours merged (usually one is left).
  g.M = 1;
  for (int k = 0; k < out.ndim(); ++k) {
    const auto u = static_cast<std::size_t>(k);
    g.M *= out.sizes[u];
    if (out.sizes[u] == 1) continue;
    const auto last = static_cast<std::size_t>(g.n - 1);
    if (g.n > 0 && out.sizes[u] > 0 && nests(g.out_st[last], out.strides[u], out.sizes[u])) {
      g.out_size[last] *= out.sizes[u];
      g.out_st[last] = out.strides[u];
    } else {
      g.out_size[static_cast<std::size_t>(g.n)] = out.sizes[u];
      g.out_st[static_cast<std::size_t>(g.n++)] = out.strides[u];
    }
  }
  if (g.n == 0) g.out_size[static_cast<std::size_t>(g.n++)] = 1;  // a single element: stride unused
  g.in = in.where;
  g.idx = idx.where;
  g.out = out.where;
  g.dtype = in.dtype;
  g.idx_dtype = idx.dtype;
  index::IndexCheckSpec c = index::check_spec(l.name(MaxUnpoolingDesc::name, "max_unpool") + ".indices", idx);
  c.bound = {g.M};
  c.axis = {0};
  l.p.steps.push_back(index::make_flat_scatter_step(g, std::move(c)));
}

// Call: x, indices -> out (any shape; positions count over all of it); no parameters.
MaxUnpoolingDesc from_call(const Call& c, const MaxUnpoolingDesc*) {
  c.expect(2, 1, 0);
  return {c.in_desc(0), c.in_desc(1), c.out_desc(0)};
}

CallShapes call_shapes(const Call&, const MaxUnpoolingDesc*) {
  throw ValidationError("max_unpool: the result's shape is an argument (output_shape), not derived from x");
}

}  // namespace strided::detail

namespace strided {

void max_unpool(const ConstArrayView& x, const ConstArrayView& indices, const ArrayView& out) {
  const detail::CallArray ins[2] = {detail::call_array(x, "x"), detail::call_array(indices, "indices")};
  const detail::CallArray o = detail::call_array(out, "out");
  detail::expect_shape(ins[1], std::vector<std::int64_t>(ins[0].shape, ins[0].shape + ins[0].ndim), "indices");
  if (o.dtype != ins[0].dtype)
    throw ValidationError("out.dtype: must equal x.dtype (" + std::string(dtype_enum_name(ins[0].dtype)) + "), got " +
                          std::string(dtype_enum_name(o.dtype)));
  if (!(detail::dtype_bit(ins[1].dtype) & detail::kIndexTypes))
    throw ValidationError("indices.dtype: indices must be INT32, INT64, UINT32 or UINT64, got " +
                          std::string(dtype_enum_name(ins[1].dtype)));
  if (detail::is_empty(ins[0])) {  // nothing to scatter: zeros
    if (!detail::is_empty(o)) full(out, Scalar::from_int(o.dtype, 0));
    return;
  }
  if (detail::is_empty(o)) throw IndexError("indices: every index is out of range for an empty out");
  detail::call(detail::op_code<MaxUnpoolingDesc>(), nullptr, 0, ins, 2, &o, 1);
}

}  // namespace strided
