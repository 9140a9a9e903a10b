// Lowering of the pure data-movement operators: each is one or more strided copies.
#include "ops/lower.hpp"

namespace strided::detail {

View view_of(const TensorDesc& t, bool is_output, int buffer) {
  View v;
  v.where = Operand{is_output, buffer, 0};
  v.dtype = t.dtype();
  v.sizes = t.sizes();
  v.strides.resize(t.sizes().size());
  const auto item = static_cast<std::int64_t>(t.itemsize());
  // A size-1 dimension's stride never moves an address, and a TensorDesc may give it any value up
  // to INT64_MAX: scaling that to bytes would overflow, so it becomes 0.
  for (std::size_t i = 0; i < v.strides.size(); ++i) v.strides[i] = t.sizes()[i] == 1 ? 0 : t.strides()[i] * item;
  return v;
}

void lower_identity(Program& p, const View& in, const View& out) {
  p.steps.push_back(make_copy_step(in, out));
  if (in.strides == out.strides && in.where.offset == out.where.offset)
    p.inplace_ok.emplace_back(in.where.buffer, out.where.buffer);
}

namespace {
// The part of `v` from `start` (count `n`) along `axis`.
View narrow(View v, int axis, std::int64_t start, std::int64_t n) {
  const auto a = static_cast<std::size_t>(axis);
  v.where.offset += start * v.strides[a];
  v.sizes[a] = n;
  return v;
}
}  // namespace

void lower_split(Program& p, const View& in, const std::vector<View>& outs, int axis) {
  std::int64_t start = 0;
  for (const View& o : outs) {
    const std::int64_t n = o.sizes[static_cast<std::size_t>(axis)];
    if (n > 0) p.steps.push_back(make_copy_step(narrow(in, axis, start, n), o));
    start += n;
  }
}

void lower_join(Program& p, const std::vector<View>& ins, const View& out, int axis) {
  std::int64_t start = 0;
  for (const View& i : ins) {
    const std::int64_t n = i.sizes[static_cast<std::size_t>(axis)];
    if (n > 0) p.steps.push_back(make_copy_step(i, narrow(out, axis, start, n)));
    start += n;
  }
}

void lower_slice(Program& p, const View& in, const View& out, const std::vector<std::int64_t>& offsets,
                 const std::vector<std::int64_t>& strides) {
  View src = in;
  src.sizes = out.sizes;
  for (std::size_t i = 0; i < src.sizes.size(); ++i) {
    src.where.offset += offsets[i] * in.strides[i];
    // One output element along i: its stride is never used, and a valid |stride| may be any
    // value up to 2^63 there (max_copied is 1), so the product could overflow.
    src.strides[i] = out.sizes[i] == 1 ? 0 : in.strides[i] * strides[i];
  }
  p.steps.push_back(make_copy_step(src, out));
}

void lower_slice1(Program& p, const View& in, const View& out, const std::vector<std::int64_t>& offsets,
                  const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& strides) {
  std::vector<std::int64_t> start(offsets.size());
  for (std::size_t i = 0; i < start.size(); ++i) start[i] = offsets[i] + (strides[i] < 0 ? sizes[i] - 1 : 0);
  lower_slice(p, in, out, start, strides);
}

}  // namespace strided::detail
