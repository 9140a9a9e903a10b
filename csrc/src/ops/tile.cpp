// Tile (DML_TILE_OPERATOR_DESC): out[c] = in[c mod in.sizes], out.sizes[i] = in.sizes[i] * repeats[i].
// A broadcast view copied: each output dimension i of r_i * m_i elements is split into (r_i, m_i)
// and the input is read over the same (r_i, m_i) with stride 0 along r_i. One copy step.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "exec/call.hpp"
#include "ops/op.hpp"
#include "util/checked.hpp"
#include "view/view.hpp"

namespace strided::detail {
namespace {
constexpr std::array<LevelRow, 4> kTable{{{FeatureLevel::FL_1_0, 4, 4, kFloat32Float16},
                                          {FeatureLevel::FL_2_1, 4, 4, kEightTypes},
                                          {FeatureLevel::FL_3_1, 1, 8, kEightTypes},
                                          {FeatureLevel::FL_4_1, 1, 8, kTenTypes}}};
}  // namespace

void check(const Rules& r, const TileDesc& d) {
  const int n = d.input.ndim();
  r.same_ndim("output", d.output, "input", d.input);
  r.same_dtype("output", d.output, "input", d.input);
  r.one_per_dim("repeats", d.repeats, n);
  const auto s = [](auto v) { return std::to_string(v); };
  for (std::size_t i = 0; i < d.repeats.size(); ++i)
    if (d.repeats[i] < 1) r.fail(field_at("repeats", i), "repeat must be at least 1, got " + s(d.repeats[i]));
  for (std::size_t i = 0; i < d.repeats.size(); ++i) {
    const std::int64_t in = d.input.sizes()[i], out = d.output.sizes()[i];
    std::uint64_t want = 0;
    const bool fits = checked_mul(static_cast<std::uint64_t>(in), static_cast<std::uint64_t>(d.repeats[i]), want);
    if (!fits || want != static_cast<std::uint64_t>(out))
      r.fail(field_at("output.sizes", i), "must equal input.sizes[" + s(i) + "] * repeats[" + s(i) + "] = " + s(in) +
                                              " * " + s(d.repeats[i]) + " = " + (fits ? s(want) : "(over 64 bits)") +
                                              ", got " + s(out));
  }
  r.output_no_alias("output", d.output);
  r.level_rules(kTable, {{"input", &d.input, false}, {"output", &d.output, false}});
  r.level_uint("repeats", d.repeats);
}

void lower(Lowering& l, const TileDesc& d) {
  const View in = l.in(d.input), out = l.out(d.output);
  const int n = in.ndim();
  const auto u = [](int i) { return static_cast<std::size_t>(i); };
  // The input broadcast to (r_0, ..., r_{n-1}, m_0, ..., m_{n-1}) (the r_i dimensions are new:
  // stride 0), then interleaved to (r_0, m_0, r_1, m_1, ...); each output dimension split alike.
  std::vector<std::int64_t> sizes(u(2 * n));
  std::vector<int> order(u(2 * n));
  for (int i = 0; i < n; ++i) {
    sizes[u(i)] = d.repeats[u(i)];
    sizes[u(n + i)] = in.sizes[u(i)];
    order[u(2 * i)] = i;
    order[u(2 * i + 1)] = n + i;
  }
  const View src = permute(broadcast(in, sizes), order);
  View dst = out;
  for (int i = n - 1; i >= 0; --i) dst = split_dim(dst, i, in.sizes[u(i)]);
  l.p.steps.push_back(make_copy_step(src, dst));
  // All repeats 1 is a copy: the identical view of the input may be the output (in place).
  const bool copy = std::all_of(d.repeats.begin(), d.repeats.end(), [](std::int64_t k) { return k == 1; });
  if (copy && in.dtype == out.dtype && in.strides == out.strides && in.where.offset == out.where.offset)
    l.p.inplace_ok.emplace_back(in.where.buffer, out.where.buffer);
}

// Call: one input, one output; parameters: repeats (one per dimension).
TileDesc from_call(const Call& c, const TileDesc*) {
  c.expect(1, 1, 0);
  const auto n = static_cast<std::size_t>(c.in[0].ndim);
  if (c.n_prm != n) throw ValidationError("tile: repeats need one value per dimension");
  return {c.in_desc(0), c.out_desc(0), {c.prm, c.prm + n}};
}

}  // namespace strided::detail

namespace strided {

void tile(const ConstArrayView& x, const ArrayView& out, const std::vector<std::int64_t>& repeats) {
  const detail::CallArray a = detail::call_array(x, "x"), o = detail::call_array(out, "out");
  const auto n = static_cast<std::size_t>(a.ndim);
  if (repeats.size() != n)
    throw ValidationError("TileDesc.repeats: must have one value per dimension (" + std::to_string(n) + "), got " +
                          std::to_string(repeats.size()));
  std::vector<std::int64_t> shape(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string at = "TileDesc.repeats[" + std::to_string(i) + "]: ";
    if (repeats[i] < 1) throw ValidationError(at + "repeat must be at least 1, got " + std::to_string(repeats[i]));
    std::uint64_t m = 0;
    if (!detail::checked_mul(static_cast<std::uint64_t>(a.shape[i]), static_cast<std::uint64_t>(repeats[i]), m) ||
        m > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      throw ValidationError(at + "x.shape[" + std::to_string(i) + "] * " + std::to_string(repeats[i]) +
                            " does not fit in 64 bits");
    shape[i] = static_cast<std::int64_t>(m);
  }
  detail::expect_shape(o, shape, "out");
  if (o.dtype != a.dtype)
    throw ValidationError("out.dtype: must equal x.dtype (" + std::string(dtype_enum_name(a.dtype)) + "), got " +
                          std::string(dtype_enum_name(o.dtype)));
  if (detail::is_empty(o)) return;
  // A 0-d x (no repeats) runs as shape (1,) (detail::call): one repeat of 1.
  const std::int64_t one = 1;
  if (n == 0) return detail::call(detail::op_code<TileDesc>(), &one, 1, &a, 1, &o, 1);
  detail::call(detail::op_code<TileDesc>(), repeats.data(), n, &a, 1, &o, 1);
}

}  // namespace strided
