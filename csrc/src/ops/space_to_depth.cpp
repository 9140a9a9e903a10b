// SpaceToDepth (DML_SPACE_TO_DEPTH_OPERATOR_DESC, DCR; DML_SPACE_TO_DEPTH1_OPERATOR_DESC, either
// order): each b x b block of the input {N, C, H*b, W*b} moved into channels of the output
// {N, C*b*b, H, W}. DepthToSpace's views with the roles swapped (ops/depth_space.hpp): the input
// split into (n, c, h, bh, w, bw), the output viewed alike by the order; one copy step.
#include <cstdint>
#include <string>

#include "ops/depth_space.hpp"

namespace strided::detail {

void check(const Rules& r, const SpaceToDepthDesc& d) {
  using depth_space::s;
  depth_space::check_fields(r, d);
  const std::int64_t b = d.block_size;
  for (std::size_t i = 2; i < 4; ++i)
    if (d.input.sizes()[i] % b != 0)
      r.fail(field_at("input.sizes", i),
             "must be divisible by block_size (" + s(b) + "), got " + s(d.input.sizes()[i]));
  r.same_size("output", d.output, "input", d.input, 0);
  const std::int64_t c = d.input.sizes()[1];
  std::uint64_t want_c = 0;
  const bool fits = checked_mul(static_cast<std::uint64_t>(c), static_cast<std::uint64_t>(b), want_c) &&
                    checked_mul(want_c, static_cast<std::uint64_t>(b), want_c);
  if (!fits || want_c != static_cast<std::uint64_t>(d.output.sizes()[1]))
    r.fail("output.sizes[1]", "must equal input.sizes[1] * block_size * block_size = " + s(c) + " * " + s(b) + " * " +
                                  s(b) + " = " + (fits ? s(want_c) : "(over 64 bits)") + ", got " +
                                  s(d.output.sizes()[1]));
  for (std::size_t i = 2; i < 4; ++i) {
    const std::int64_t in = d.input.sizes()[i], out = d.output.sizes()[i];
    if (out != in / b)
      r.fail(field_at("output.sizes", i), "must equal input.sizes[" + s(i) + "] / block_size = " + s(in) + " / " +
                                              s(b) + " = " + s(in / b) + ", got " + s(out));
  }
  r.output_no_alias("output", d.output);
  depth_space::check_levels(r, d, "DML_SPACE_TO_DEPTH1_OPERATOR_DESC");
}

void lower(Lowering& l, const SpaceToDepthDesc& d) {
  const View in = l.in(d.input), out = l.out(d.output);
  const std::int64_t b = d.block_size;
  // Block size 1 is a copy: the identical view of the input may be the output (in place).
  if (b == 1) return l.copy(in, out);
  l.copy(depth_space::space_6d(in, b), depth_space::depth_6d(out, b, d.order));
}

// Call: one input (the space tensor), one output; parameters: block_size, order (0 DCR, 1 CRD).
SpaceToDepthDesc from_call(const Call& c, const SpaceToDepthDesc*) {
  c.expect(1, 1, 2);
  return {c.in_desc(0), c.out_desc(0), c.prm[0], depth_space::order_code(c.prm[1], "space_to_depth: order")};
}

}  // namespace strided::detail

namespace strided {

void space_to_depth(const ConstArrayView& x, const ArrayView& out, std::int64_t block_size, DepthSpaceOrder order) {
  detail::depth_space::array_call(detail::op_code<SpaceToDepthDesc>(), SpaceToDepthDesc::name, false, x, out,
                                  block_size, order);
}

}  // namespace strided
