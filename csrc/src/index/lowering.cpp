// Helpers shared by the index operators' lowerings (index/steps.hpp).
#include <algorithm>

#include "index/steps.hpp"
#include "strided/error.hpp"
#include "view/view.hpp"

namespace strided::detail::index {

IndexCheckSpec check_spec(std::string name, const View& idx) {
  IndexCheckSpec s;
  s.name = std::move(name);
  s.where = idx.where;
  s.dtype = idx.dtype;
  s.sizes = idx.sizes;
  s.strides = idx.strides;
  return s;
}

IndexCheckSpec tuple_check_spec(std::string name, const View& idx, int q, const std::int64_t* bound, int L,
                                int first_axis) {
  IndexCheckSpec c = check_spec(std::move(name), idx);
  c.skip_leading = idx.ndim() - q;
  c.comp_dim = idx.ndim() - 1;
  for (int k = 0; k < L; ++k) {
    c.bound.push_back(bound[k]);
    c.axis.push_back(first_axis + k);
  }
  return c;
}

/// Lines processed together when the axis is not the innermost dimension (`tile`), and whether
/// each tile's band of the target (N x tile elements) goes through a packed scratch copy. A
/// band of a large target is spread over N rows that are often a power of two apart: direct
/// access thrashes a few cache sets and takes a TLB entry per row, while the packed band is
/// contiguous and stays in L2 (tile chosen so it is about 256 KiB).
void choose_tile(ElementsGeom& g, std::size_t width) {
  g.tile = 1;
  g.pack = false;
  if (g.lines.inner_size() <= 1) return;
  const std::int64_t ai = g.ax[0] < 0 ? -g.ax[0] : g.ax[0];
  const std::int64_t ji = g.lines.inner_st(0) < 0 ? -g.lines.inner_st(0) : g.lines.inner_st(0);
  if (ai <= ji) return;  // the axis is the inner dimension: walk line by line
  const auto w = static_cast<std::int64_t>(width);
  const std::int64_t n = std::max<std::int64_t>(g.N, 1);
  const std::int64_t line = std::max<std::int64_t>(1, 64 / w);  // a cache line of elements
  const std::int64_t at = g.ax[2] < 0 ? -g.ax[2] : g.ax[2];
  // Divisions instead of products: n and at can each approach 2^63 (no overflow).
  if (n <= 512 * 1024 / (line * w) && at > 64 * 1024 / n) {
    std::int64_t t = line;
    while (t < 512 && 2 * t * n * w <= 256 * 1024) t *= 2;
    g.tile = t;
    g.pack = true;
    return;
  }
  std::int64_t t = line;  // small targets are cache-resident anyway; huge ones are random access
  while (t < 256 && n <= 128 * 1024 / (2 * t * w)) t *= 2;
  g.tile = t;
}

bool same_view(const View& a, const View& b) {
  return a.sizes == b.sizes && a.strides == b.strides && a.where.offset == b.where.offset;
}

bool covers_off_axis(const View& in, const View& idx, int axis) {
  for (int d = 0; d < in.ndim(); ++d)
    if (d != axis && idx.sizes[static_cast<std::size_t>(d)] != in.sizes[static_cast<std::size_t>(d)]) return false;
  return true;
}

namespace {
class CopyUnlessInPlace final : public Step {
 public:
  CopyUnlessInPlace(const View& in, const View& out, bool same_view)
      : in_(in.where), out_(out.where), same_view_(same_view), copy_(make_copy_step(in, out)) {}
  void run(const ExecContext& c) const override {
    if (!(same_view_ && in_.in_ptr(c) == out_.out_ptr(c))) copy_->run(c);
  }

 private:
  Operand in_, out_;
  bool same_view_;
  std::unique_ptr<const Step> copy_;
};
}  // namespace

std::unique_ptr<const Step> make_copy_unless_in_place(const View& in, const View& out, bool same_view) {
  return std::make_unique<CopyUnlessInPlace>(in, out, same_view);
}

View aligned(View v, int rank) {
  if (rank > kMaxLoop || !align_right(v, rank))
    throw ValidationError("internal: a view does not align to " + std::to_string(rank) + " dimension(s)");
  return v;
}

}  // namespace strided::detail::index
