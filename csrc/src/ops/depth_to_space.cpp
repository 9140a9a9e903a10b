// DepthToSpace (DML_DEPTH_TO_SPACE_OPERATOR_DESC, DCR; DML_DEPTH_TO_SPACE1_OPERATOR_DESC, either
// order): the input's channels {N, C*b*b, H, W} moved into b x b blocks of the output
// {N, C, H*b, W*b}. The input viewed as (n, c, h, bh, w, bw) by the order (ops/depth_space.hpp),
// the output split alike: one copy step.
#include <cstdint>
#include <string>

#include "ops/depth_space.hpp"

namespace strided::detail {

void check(const Rules& r, const DepthToSpaceDesc& d) {
  using depth_space::s;
  depth_space::check_fields(r, d);
  const auto b = static_cast<std::uint64_t>(d.block_size);
  std::uint64_t bb = 0;
  const bool bb_fits = checked_mul(b, b, bb);
  const std::int64_t c = d.input.sizes()[1];
  if (!bb_fits || static_cast<std::uint64_t>(c) % bb != 0)
    r.fail("input.sizes[1]", "must be divisible by block_size * block_size = " +
                                 (bb_fits ? s(bb) : std::string("(over 64 bits)")) + ", got " + s(c));
  r.same_size("output", d.output, "input", d.input, 0);
  const std::uint64_t want_c = static_cast<std::uint64_t>(c) / bb;
  if (static_cast<std::uint64_t>(d.output.sizes()[1]) != want_c)
    r.fail("output.sizes[1]", "must equal input.sizes[1] / (block_size * block_size) = " + s(c) + " / " + s(bb) +
                                  " = " + s(want_c) + ", got " + s(d.output.sizes()[1]));
  for (std::size_t i = 2; i < 4; ++i) {
    const std::int64_t in = d.input.sizes()[i], out = d.output.sizes()[i];
    std::uint64_t want = 0;
    const bool fits = checked_mul(static_cast<std::uint64_t>(in), b, want);
    if (!fits || want != static_cast<std::uint64_t>(out))
      r.fail(field_at("output.sizes", i), "must equal input.sizes[" + s(i) + "] * block_size = " + s(in) + " * " +
                                              s(d.block_size) + " = " + (fits ? s(want) : "(over 64 bits)") + ", got " +
                                              s(out));
  }
  r.output_no_alias("output", d.output);
  depth_space::check_levels(r, d, "DML_DEPTH_TO_SPACE1_OPERATOR_DESC");
}

void lower(Lowering& l, const DepthToSpaceDesc& d) {
  const View in = l.in(d.input), out = l.out(d.output);
  const std::int64_t b = d.block_size;
  // Block size 1 is a copy: the identical view of the input may be the output (in place).
  if (b == 1) return l.copy(in, out);
  l.copy(depth_space::depth_6d(in, b, d.order), depth_space::space_6d(out, b));
}

// Call: one input (the depth tensor), one output; parameters: block_size, order (0 DCR, 1 CRD).
DepthToSpaceDesc from_call(const Call& c, const DepthToSpaceDesc*) {
  c.expect(1, 1, 2);
  return {c.in_desc(0), c.out_desc(0), c.prm[0], depth_space::order_code(c.prm[1], "depth_to_space: order")};
}

}  // namespace strided::detail

namespace strided {

void depth_to_space(const ConstArrayView& x, const ArrayView& out, std::int64_t block_size, DepthSpaceOrder order) {
  detail::depth_space::array_call(detail::op_code<DepthToSpaceDesc>(), DepthToSpaceDesc::name, true, x, out, block_size,
                                  order);
}

}  // namespace strided
