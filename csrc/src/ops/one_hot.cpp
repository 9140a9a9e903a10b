// OneHot (DML_ONE_HOT_OPERATOR_DESC): out[c] = (c[axis] == idx[c with c[axis] = 0]) ? on : off.
// One step: the engine's loop nest (plan/nest.hpp) walks the lines (every dimension but the
// axis) and hands each run of them to the one-hot kernel of the per-ISA table (kernels/kernels.hpp:
// per block of lines it reads each index once, fills the block with the off value in the
// output's memory order, then writes one on value per line while the block is in cache; a large
// output's dense blocks go through a buffer and are streamed out). An index can only choose
// between the two values, never an address: out-of-range values (or values another thread
// rewrites) give all-off sequences, so there is nothing to check before writing.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "exec/call.hpp"
#include "kernels/kernels.hpp"
#include "ops/op.hpp"
#include "plan/copy_plan.hpp"
#include "plan/nest.hpp"
#include "runtime/simd.hpp"

namespace strided::detail {
namespace {
constexpr std::array<LevelRow, 4> kTable{
    {{FeatureLevel::FL_2_0, 4, 4, kFloat32Float16}, {FeatureLevel::FL_2_1, 4, 4, kEightTypes}, kRow30, kRow41}};
// The indices' dimension counts (their types are the index rule: UINT32, then the four from 3_0).
constexpr std::array<LevelRow, 2> kIndexTable{
    {{FeatureLevel::FL_2_0, 4, 4, kIndexTypes}, {FeatureLevel::FL_3_0, 1, 8, kIndexTypes}}};

struct Geom {
  Walk<2> lines;    // every dimension but the axis: (indices, output) byte strides
  std::int64_t D = 0;      // the output's size along the axis
  std::int64_t ax = 0;     // the output's byte stride along it
  std::int64_t on_at = 0;  // byte offset of values' element 1 (element 0 is at 0)
  bool axis_inner = false;  // the axis varies faster in memory than the lines' inner dimension
  // Outputs over the stream threshold whose blocks are dense (below): each block is assembled in
  // a 64 KiB buffer and streamed out (in place, every output line would first be read for
  // ownership: 128 MiB with the axis outermost ran at 0.81 of a memcpy).
  bool stream = false;
  Operand idx, values, out;
};

class OneHotStep final : public KernelStep {
 public:
  OneHotStep(const Geom& g, const View& out, const View& idx, const View& values, std::uint64_t bytes)
      : KernelStep(out, {&idx, &values}), g_(g), idx_slot_(static_cast<int>(idx.dtype)), lw_(log2_width(out.width())),
        width_(out.width()), bytes_(bytes) {}
  Work work(const ExecContext&) const override { return {g_.lines.count(), 64, bytes_}; }
  void part(const ExecContext& c, std::int64_t lo, std::int64_t hi) const override {
    const std::byte* idx = g_.idx.in_ptr(c);
    const std::byte* values = g_.values.in_ptr(c);
    std::byte* out = g_.out.out_ptr(c);
    OneHotParams p{g_.D, g_.ax, g_.lines.inner_st(0), g_.lines.inner_st(1), 0, 0, g_.axis_inner, g_.stream};
    std::memcpy(&p.off, values, width_);  // each element's bytes at the start of its slot
    std::memcpy(&p.on, values + g_.on_at, width_);
    const OneHotKernel k = active_kernels().one_hot[idx_slot_][lw_];
    for_runs(g_.lines, lo, hi, [&](const std::array<std::int64_t, 2>& o, std::int64_t j0, std::int64_t j1) {
      k(idx + o[0] + j0 * p.ji, out + o[1] + j0 * p.jo, j1 - j0, p);
    });
  }

 private:
  Geom g_;
  int idx_slot_, lw_;
  std::size_t width_;
  std::uint64_t bytes_;
};
}  // namespace

void check(const Rules& r, const OneHotDesc& d) {
  const int n = d.output.ndim();
  r.same_ndim("indices", d.indices, "output", d.output);
  r.same_ndim("values", d.values, "output", d.output);
  r.axis_in_range("axis", d.axis, n);
  r.index_dtype("indices", d.indices);
  r.same_dtype("values", d.values, "output", d.output);
  r.sizes_but_axis("indices", d.indices, "output", d.output, d.axis);
  if (d.values.element_count() < 2)
    r.fail("values.sizes", "must hold at least 2 elements (off, on), got " + std::to_string(d.values.element_count()));
  r.output_no_alias("output", d.output);
  r.level_rules(kTable, {{"values", &d.values, false}, {"output", &d.output, false}});
  r.level_rules(kIndexTable, {{"indices", &d.indices, true}});
}

void lower(Lowering& l, const OneHotDesc& d) {
  const View idx = l.in(d.indices), values = l.in(d.values), out = l.out(d.output);
  const auto axis = static_cast<std::size_t>(d.axis);
  Geom g;
  for (std::size_t k = 0; k < out.sizes.size(); ++k)
    if (k != axis) g.lines.push(out.sizes[k], {idx.strides[k], out.strides[k]});
  g.lines.coalesce();
  g.D = out.sizes[axis];
  g.ax = out.strides[axis];
  // values' element 1 in row-major order: coordinate 1 of its last dimension of size > 1.
  for (std::size_t k = values.sizes.size(); k-- > 0;)
    if (values.sizes[k] > 1) {
      g.on_at = values.strides[k];
      break;
    }
  const std::int64_t jo = g.lines.inner_st(1);
  g.axis_inner = g.lines.inner_size() == 1 || std::abs(g.ax) <= std::abs(jo);
  g.stream =
      static_cast<std::uint64_t>(g.lines.count()) * static_cast<std::uint64_t>(g.D) * out.width() >= stream_threshold();
  g.idx = idx.where;
  g.values = values.where;
  g.out = out.where;
  const std::size_t w = out.width();
  const auto lines = static_cast<std::uint64_t>(g.lines.count());
  l.p.steps.push_back(std::make_unique<OneHotStep>(g, out, idx, values,
                                                   lines *
                                                       (itemsize(idx.dtype) + static_cast<std::uint64_t>(g.D) * w)));
}

// Call: indices (with a size-1 dimension at the axis), values (aligned right) -> out; parameters:
// axis (of out), depth.
OneHotDesc from_call(const Call& c, const OneHotDesc*) {
  c.expect(2, 1, 1);
  const int n = c.out[0].ndim;
  return {c.in_desc(0, n), c.in_desc(1, n), c.out_desc(0), Call::axis(c.prm[0], n, "one_hot.axis")};
}

CallShapes call_shapes(const Call& c, const OneHotDesc*) {
  c.expect(2, 0, 2);
  const std::int64_t axis = Call::axis(c.prm[0], c.in[0].ndim, "one_hot.axis");
  std::vector<std::int64_t> shape(c.in[0].shape, c.in[0].shape + c.in[0].ndim);
  shape[static_cast<std::size_t>(axis)] = c.prm[1];
  return {shape, {}};
}

}  // namespace strided::detail

namespace strided {

void one_hot(const ConstArrayView& indices, const ConstArrayView& values, const ArrayView& out, std::int64_t axis) {
  detail::CallArray idx = detail::call_array(indices, "indices");
  const detail::CallArray v = detail::call_array(values, "values"), o = detail::call_array(out, "out");
  const auto s = [](std::int64_t x) { return std::to_string(x); };
  if (o.ndim != idx.ndim + 1)
    throw ValidationError("out: must have one dimension more than indices (" + s(idx.ndim + 1) + "), got " + s(o.ndim));
  const std::int64_t ax = detail::Call::axis(axis, o.ndim, "one_hot.axis");
  // indices with a size-1 dimension inserted at the axis: the description's form.
  for (int d = idx.ndim; d > ax; --d) {
    idx.shape[d] = idx.shape[d - 1];
    idx.strides[d] = idx.strides[d - 1];
  }
  idx.shape[ax] = 1;
  idx.strides[ax] = 0;
  ++idx.ndim;
  std::vector<std::int64_t> want(idx.shape, idx.shape + idx.ndim);
  want[static_cast<std::size_t>(ax)] = o.shape[ax];
  detail::expect_shape(o, want, "out");
  if (v.ndim != 1 || v.shape[0] != 2)
    throw ValidationError("values: must be [off, on] (shape (2,)), got shape " + detail::shape_str(v.shape, v.ndim));
  if (v.dtype != o.dtype)
    throw ValidationError("out.dtype: must equal values.dtype (" + std::string(dtype_enum_name(v.dtype)) + "), got " +
                          std::string(dtype_enum_name(o.dtype)));
  if (!(detail::dtype_bit(idx.dtype) & detail::kIndexTypes))
    throw ValidationError("indices.dtype: must be INT32, INT64, UINT32 or UINT64, got " +
                          std::string(dtype_enum_name(idx.dtype)));
  if (detail::is_empty(o)) return;
  const std::int64_t prm[2] = {ax, o.shape[ax]};
  const detail::CallArray ins[2] = {idx, v};
  detail::call(detail::op_code<OneHotDesc>(), prm, 2, ins, 2, &o, 1);
}

}  // namespace strided
