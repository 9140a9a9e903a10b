// Lowering of the index operators: views -> loop geometries -> steps (csrc/src/index).
//
// Views may have the equal dimension counts of the DirectML descriptions (leading size-1
// padding) or their natural numpy dimension counts (the functional path): each operator aligns
// its tensors to their real ranks from the right. Shapes were validated by the caller; the
// consistency checks below only keep a bad call from reading or writing out of bounds.
#include <memory>
#include <string>

#include "index/steps.hpp"
#include "ops/lower.hpp"
#include "strided/error.hpp"

namespace strided::detail {
namespace {

using index::ElementsGeom;
using index::IndexCheckSpec;

[[noreturn]] void fail(const std::string& msg) { throw ValidationError(msg); }

std::string shape_str(const std::vector<std::int64_t>& s) {
  std::string r = "{";
  for (std::size_t i = 0; i < s.size(); ++i) r += (i ? "," : "") + std::to_string(s[i]);
  return r + "}";
}

/// `v` as exactly `rank` dimensions: extra leading dimensions must have size 1, missing ones
/// are added with size 1.
View align_right(const View& v, int rank, const char* what) {
  if (rank < 0 || rank > index::kMaxLoop) fail(std::string(what) + ": unsupported dimension count " + std::to_string(rank));
  View r = v;
  const int n = v.ndim();
  if (n > rank) {
    for (int d = 0; d < n - rank; ++d)
      if (v.sizes[static_cast<std::size_t>(d)] != 1)
        fail(std::string(what) + ": sizes " + shape_str(v.sizes) + " do not right-align to " + std::to_string(rank) +
             " dimension(s) (leading sizes must be 1)");
    r.sizes.erase(r.sizes.begin(), r.sizes.begin() + (n - rank));
    r.strides.erase(r.strides.begin(), r.strides.begin() + (n - rank));
  } else if (n < rank) {
    r.sizes.insert(r.sizes.begin(), static_cast<std::size_t>(rank - n), 1);
    r.strides.insert(r.strides.begin(), static_cast<std::size_t>(rank - n), 0);
  }
  return r;
}

void check_index_dtype(const View& idx, const char* desc) {
  const DataType t = idx.dtype;
  if (t != DataType::INT32 && t != DataType::INT64 && t != DataType::UINT32 && t != DataType::UINT64)
    fail(std::string(desc) + ".indices: data type must be INT32, INT64, UINT32 or UINT64, got " +
         std::string(dtype_enum_name(t)));
}

void check_same_dtype(const View& a, const View& b, const char* what) {
  if (a.dtype != b.dtype || !is_valid_dtype(a.dtype))
    fail(std::string(what) + ": data type " + std::string(dtype_enum_name(b.dtype)) + " must equal the input's " +
         std::string(dtype_enum_name(a.dtype)));
}

void check_sizes(const std::vector<std::int64_t>& got, const std::vector<std::int64_t>& want, const char* what) {
  if (got != want) fail(std::string(what) + ": sizes " + shape_str(got) + " must be " + shape_str(want));
}

IndexCheckSpec check_spec(const char* name, const View& idx) {
  IndexCheckSpec s;
  s.name = name;
  s.where = idx.where;
  s.dtype = idx.dtype;
  s.sizes = idx.sizes;
  s.strides = idx.strides;
  return s;
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

/// GatherElements / Scatter: off the axis the indices may be smaller than `in` (ONNX), never
/// larger. Returns whether they cover `in` there (equal sizes).
bool elements_cover(const View& in, const View& idx, int axis, const char* what) {
  bool cover = true;
  for (int d = 0; d < in.ndim(); ++d) {
    const auto u = static_cast<std::size_t>(d);
    if (d == axis) continue;
    if (idx.sizes[u] > in.sizes[u])
      fail(std::string(what) + ": sizes " + shape_str(idx.sizes) + " exceed the input's " + shape_str(in.sizes) +
           " off the axis");
    cover = cover && idx.sizes[u] == in.sizes[u];
  }
  return cover;
}

/// out = in, skipped when the output is the input's memory (in place, identical views).
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

void lower_gather_elements(Program& p, const View& in, const View& idx, const View& out, int axis) {
  const char* D = "GatherElementsDesc";
  check_index_dtype(idx, D);
  check_same_dtype(in, out, "GatherElementsDesc.output");
  const int n = in.ndim();
  if (idx.ndim() != n || out.ndim() != n) fail("GatherElementsDesc: input, indices and output need equal dimension counts");
  if (axis < 0 || axis >= n) fail("GatherElementsDesc.axis: out of range");
  check_sizes(out.sizes, idx.sizes, "GatherElementsDesc.output");
  elements_cover(in, idx, axis, "GatherElementsDesc.indices");
  ElementsGeom g;
  const auto a = static_cast<std::size_t>(axis);
  for (int d = 0; d < n; ++d) {
    const auto u = static_cast<std::size_t>(d);
    if (d != axis) g.lines.push(idx.sizes[u], {idx.strides[u], out.strides[u], in.strides[u], 0});
  }
  g.lines.coalesce();
  g.K = idx.sizes[a];
  g.N = in.sizes[a];
  g.ax = {idx.strides[a], out.strides[a], in.strides[a], 0};
  g.where = {idx.where, out.where, in.where, in.where};
  g.dtype = in.dtype;
  g.idx_dtype = idx.dtype;
  choose_tile(g, in.width());
  IndexCheckSpec c = check_spec("gather_elements.indices", idx);
  c.bound = {g.N};
  c.axis = {axis};
  p.steps.push_back(index::make_gather_elements_step(g, std::move(c)));
}

void lower_scatter(Program& p, const View& in, const View& idx, const View& upd, const View& out, int axis,
                   ScatterReduction reduction) {
  const char* D = "ScatterDesc";
  check_index_dtype(idx, D);
  check_same_dtype(in, out, "ScatterDesc.output");
  check_same_dtype(in, upd, "ScatterDesc.updates");
  const int n = in.ndim();
  if (idx.ndim() != n || out.ndim() != n || upd.ndim() != n)
    fail("ScatterDesc: input, indices, updates and output need equal dimension counts");
  if (axis < 0 || axis >= n) fail("ScatterDesc.axis: out of range");
  if (static_cast<std::uint32_t>(reduction) > 4) fail("ScatterDesc.reduction: unknown reduction");
  check_sizes(out.sizes, in.sizes, "ScatterDesc.output");
  check_sizes(upd.sizes, idx.sizes, "ScatterDesc.updates");
  // The step copies the input into each band of lines it scatters into; indices smaller than the
  // input off the axis leave parts of the output outside every line, so the whole input is
  // copied first and the step scatters into the output as if in place (its source is the output).
  const bool cover = elements_cover(in, idx, axis, "ScatterDesc.indices");
  const bool same = same_view(in, out);
  if (same) p.inplace_ok.emplace_back(in.where.buffer, out.where.buffer);
  if (!cover) p.steps.push_back(std::make_unique<CopyUnlessInPlace>(in, out, same));
  const View& src = cover ? in : out;
  ElementsGeom g;
  const auto a = static_cast<std::size_t>(axis);
  for (int d = 0; d < n; ++d) {
    const auto u = static_cast<std::size_t>(d);
    if (d != axis) g.lines.push(idx.sizes[u], {idx.strides[u], upd.strides[u], out.strides[u], src.strides[u]});
  }
  g.lines.coalesce();
  g.K = idx.sizes[a];
  g.N = out.sizes[a];
  g.ax = {idx.strides[a], upd.strides[a], out.strides[a], src.strides[a]};
  g.where = {idx.where, upd.where, out.where, src.where};
  g.dtype = in.dtype;
  g.idx_dtype = idx.dtype;
  choose_tile(g, in.width());
  g.same_view = cover ? same : true;
  IndexCheckSpec c = check_spec("scatter.indices", idx);
  c.bound = {g.N};
  c.axis = {axis};
  p.steps.push_back(index::make_scatter_elements_step(g, reduction, std::move(c)));
}

void lower_gather(Program& p, const View& in, const View& idx, const View& out, int axis, int index_dimensions) {
  const char* D = "GatherDesc";
  check_index_dtype(idx, D);
  check_same_dtype(in, out, "GatherDesc.output");
  const int n = in.ndim(), d = index_dimensions;
  if (axis < 0 || axis >= n) fail("GatherDesc.axis: out of range");
  if (d < 0 || d > idx.ndim()) fail("GatherDesc.index_dimensions: out of range");
  const View x = align_right(idx, d, "GatherDesc.indices");
  const auto ua = static_cast<std::size_t>(axis), ud = static_cast<std::size_t>(d);
  std::vector<std::int64_t> want(in.sizes.begin(), in.sizes.begin() + axis);
  want.insert(want.end(), x.sizes.begin(), x.sizes.end());
  want.insert(want.end(), in.sizes.begin() + axis + 1, in.sizes.end());
  const View o = align_right(out, static_cast<int>(want.size()), "GatherDesc.output");
  check_sizes(o.sizes, want, "GatherDesc.output");
  index::GatherGeom g;
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
  IndexCheckSpec c = check_spec("gather.indices", idx);
  c.skip_leading = idx.ndim() - d;
  c.bound = {g.N};
  c.axis = {axis};
  p.steps.push_back(index::make_gather_step(g, std::move(c)));
}

void lower_gather_nd(Program& p, const View& in, const View& idx, const View& out, int input_dimension_count,
                     int indices_dimension_count, int batch_dimension_count) {
  const char* D = "GatherNDDesc";
  check_index_dtype(idx, D);
  check_same_dtype(in, out, "GatherNDDesc.output");
  const int r = input_dimension_count, q = indices_dimension_count, b = batch_dimension_count;
  if (r < 1 || r > in.ndim()) fail("GatherNDDesc.input_dimension_count: out of range");
  if (q < 1 || q > idx.ndim()) fail("GatherNDDesc.indices_dimension_count: out of range");
  const View xi = align_right(in, r, "GatherNDDesc.input");
  const View xx = align_right(idx, q, "GatherNDDesc.indices");
  const int L = static_cast<int>(xx.sizes[static_cast<std::size_t>(q - 1)]);
  if (b < 0 || b >= q || b >= r) fail("GatherNDDesc.batch_dimension_count: out of range");
  if (L < 1 || L > r - b) fail("GatherNDDesc.indices: the last dimension must be between 1 and the input rank minus batch");
  for (int i = 0; i < b; ++i)
    if (xx.sizes[static_cast<std::size_t>(i)] != xi.sizes[static_cast<std::size_t>(i)])
      fail("GatherNDDesc.indices: batch dimensions must equal the input's");
  std::vector<std::int64_t> want(xx.sizes.begin(), xx.sizes.end() - 1);
  want.insert(want.end(), xi.sizes.begin() + b + L, xi.sizes.end());
  const View xo = align_right(out, static_cast<int>(want.size()), "GatherNDDesc.output");
  check_sizes(xo.sizes, want, "GatherNDDesc.output");
  index::GatherNDGeom g;
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
  IndexCheckSpec c = check_spec("gather_nd.indices", idx);
  c.skip_leading = idx.ndim() - q;
  c.comp_dim = idx.ndim() - 1;
  for (int k = 0; k < L; ++k) {
    c.bound.push_back(g.bound[static_cast<std::size_t>(k)]);
    c.axis.push_back(b + k);
  }
  p.steps.push_back(index::make_gather_nd_step(g, std::move(c)));
}

void lower_scatter_nd(Program& p, const View& in, const View& idx, const View& upd, const View& out,
                      int input_dimension_count, int indices_dimension_count, ScatterReduction reduction) {
  const char* D = "ScatterNDDesc";
  check_index_dtype(idx, D);
  check_same_dtype(in, out, "ScatterNDDesc.output");
  check_same_dtype(in, upd, "ScatterNDDesc.updates");
  if (static_cast<std::uint32_t>(reduction) > 4) fail("ScatterNDDesc.reduction: unknown reduction");
  const int r = input_dimension_count, q = indices_dimension_count;
  if (r < 1 || r > in.ndim()) fail("ScatterNDDesc.input_dimension_count: out of range");
  if (q < 1 || q > idx.ndim()) fail("ScatterNDDesc.indices_dimension_count: out of range");
  const View xi = align_right(in, r, "ScatterNDDesc.input");
  const View xo = align_right(out, r, "ScatterNDDesc.output");
  check_sizes(xo.sizes, xi.sizes, "ScatterNDDesc.output");
  const View xx = align_right(idx, q, "ScatterNDDesc.indices");
  const int L = static_cast<int>(xx.sizes[static_cast<std::size_t>(q - 1)]);
  if (L < 1 || L > r) fail("ScatterNDDesc.indices: the last dimension must be between 1 and the input rank");
  std::vector<std::int64_t> want(xx.sizes.begin(), xx.sizes.end() - 1);
  want.insert(want.end(), xi.sizes.begin() + L, xi.sizes.end());
  const View xu = align_right(upd, static_cast<int>(want.size()), "ScatterNDDesc.updates");
  check_sizes(xu.sizes, want, "ScatterNDDesc.updates");
  index::ScatterNDGeom g;
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
  const bool same = same_view(xi, xo);
  if (same) p.inplace_ok.emplace_back(in.where.buffer, out.where.buffer);
  IndexCheckSpec c = check_spec("scatter_nd.indices", idx);
  c.skip_leading = idx.ndim() - q;
  c.comp_dim = idx.ndim() - 1;
  for (int k = 0; k < L; ++k) {
    c.bound.push_back(g.bound[static_cast<std::size_t>(k)]);
    c.axis.push_back(k);
  }
  p.steps.push_back(index::make_scatter_nd_step(g, reduction, std::move(c), make_copy_step(xi, xo), same));
}

}  // namespace strided::detail
