// Padding / Padding1 (DML_PADDING_OPERATOR_DESC, DML_PADDING1_OPERATOR_DESC), SPEC 3.6: the input
// placed at start_padding in the output, the border by the mode. Into a row-major packed output
// (the functional API's results, most out= arrays) the whole output is one PadRowsStep (below:
// one pass in address order, each row written with its last-dimension margins). Otherwise (and
// for border tables too large to keep), views and copy steps:
//   CONSTANT: the interior is one copy; the border is disjoint slabs (dimension i outside the
//     interior, dimensions before i inside it, dimensions after i whole), each a fill.
//   EDGE, REFLECTION, SYMMETRIC, WRAP: along one dimension the output is a sequence of runs, each
//     an affine read of the input along it (forward, backward, or one element repeated), and the
//     runs of one kind recur with the mode's period P (WRAP m, REFLECTION 2(m-1), SYMMETRIC 2m).
//     Per dimension that is at most a head, a block of whole runs (one copy: the runs as an extra
//     dimension of stride P written from a stride-0 view of the source) and a tail per kind of
//     run, so a pad of any width costs a bounded number of steps. The inner dimensions whose
//     pieces multiply to at most 64 are one product of pieces read from the input (interior
//     included: one parallel batch with no dependences); each further padded dimension, outward,
//     reads the output's rows already complete along the inner ones.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "exec/call.hpp"
#include "exec/lines.hpp"
#include "kernels/kernels.hpp"
#include "ops/op.hpp"
#include "plan/copy_plan.hpp"
#include "runtime/simd.hpp"
#include "util/checked.hpp"
#include "view/view.hpp"

namespace strided::detail {
namespace {
using i64 = std::int64_t;
using u64 = std::uint64_t;

// SPEC 4: PADDING (the FLOAT value) from 1_0, PADDING1 (any value of the output's type) from 5_0.
constexpr std::array<LevelRow, 4> kTable{{{FeatureLevel::FL_1_0, 4, 5, kFloat32Float16},
                                          {FeatureLevel::FL_2_1, 4, 5, kEightTypes},
                                          {FeatureLevel::FL_3_1, 1, 8, kEightTypes},
                                          {FeatureLevel::FL_5_0, 1, 8, kAllTypes}}};
constexpr std::array<LevelRow, 1> kTable1{{{FeatureLevel::FL_5_0, 1, 8, kAllTypes}}};
// The modes' own gates (SPEC 4): SYMMETRIC from 3_0, WRAP from 6_4 (tensor rows as above).
constexpr std::array<LevelRow, 1> kSymmetricGate{{{FeatureLevel::FL_3_0, 1, 8, kAllTypes}}};
constexpr std::array<LevelRow, 1> kWrapGate{{{FeatureLevel::FL_6_4, 1, 8, kAllTypes}}};

std::string s(u64 v) { return std::to_string(v); }
std::string s(i64 v) { return std::to_string(v); }

// Output elements [at + t*spacing, at + t*spacing + len) for t < count along one dimension, read
// from source elements from, from + step, ... (step -1, 0 or 1) of the input's extent there.
struct Piece {
  i64 at, len, from, step, count, spacing;
};

// The pieces covering [0, L) of one dimension (L = s + m + e) for a mode other than CONSTANT,
// without the interior [s, s + m) unless `interior`. Unsigned arithmetic: nothing here can wrap
// (every bound is below L + P < 2^64).
std::vector<Piece> pieces(PaddingMode mode, u64 m, u64 s0, u64 e, bool interior) {
  std::vector<Piece> v;
  const auto I = [](u64 x) { return static_cast<i64>(x); };
  const u64 L = s0 + m + e;
  if (mode == PaddingMode::EDGE || m == 1) {  // m = 1: every mode repeats the one element
    if (s0) v.push_back({0, I(s0), 0, 0, 1, 0});
    if (interior) v.push_back({I(s0), I(m), 0, 1, 1, 0});
    if (e) v.push_back({I(s0 + m), I(e), I(m - 1), 0, 1, 0});
    return v;
  }
  // One period of j = c - s from j = 0: runs (offset in the period, length, first value, step).
  struct Run {
    u64 off, len;
    i64 from, step;
  };
  std::vector<Run> runs{{0, m, 0, 1}};  // j in [0, m): the input forward (the interior at j = 0)
  u64 P = m;                            // WRAP
  if (mode == PaddingMode::REFLECTION) {
    P = 2 * (m - 1);
    if (m > 2) runs.push_back({m, m - 2, I(m - 2), -1});  // m-2 .. 1
  } else if (mode == PaddingMode::SYMMETRIC) {
    P = 2 * m;
    runs.push_back({m, m, I(m - 1), -1});  // m-1 .. 0
  }
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const Run& w = runs[k];
    const u64 r = (w.off + s0 % P) % P;  // occurrences of the run start at c = r + t*P
    if (r > 0 && w.len > P - r) {        // the one starting before 0, cut
      const u64 skip = P - r;
      v.push_back({0, I(std::min(L, w.len - skip)), w.from + w.step * I(skip), w.step, 1, 0});
    }
    const u64 whole = L >= r + w.len ? (L - r - w.len) / P + 1 : 0;
    if (whole && (k != 0 || interior)) {
      v.push_back({I(r), I(w.len), w.from, w.step, I(whole), I(P)});
    } else if (whole) {  // all but the interior, the occurrence at c = s (s = r + t0*P)
      const u64 t0 = (s0 - r) / P;
      if (t0) v.push_back({I(r), I(w.len), w.from, w.step, I(t0), I(P)});
      if (whole > t0 + 1) v.push_back({I(r + (t0 + 1) * P), I(w.len), w.from, w.step, I(whole - t0 - 1), I(P)});
    }
    const u64 a = r + whole * P;  // the one cut at L
    if (a < L) v.push_back({I(a), I(L - a), w.from, w.step, 1, 0});
  }
  return v;
}

// `v` with dimension `axis` narrowed to `p`'s elements: the destination (stride `spacing` between
// runs) or, `source`, the run read from element `from` by `step` and repeated with stride 0.
View piece_view(View v, int axis, const Piece& p, bool source) {
  const auto a = static_cast<std::size_t>(axis);
  const i64 st = v.strides[a];
  v.where.offset += (source ? p.from : p.at) * st;
  v.sizes[a] = p.len;
  if (source) v.strides[a] = p.step * st;
  if (p.count > 1) {
    v.sizes.insert(v.sizes.begin() + axis, p.count);
    v.strides.insert(v.strides.begin() + axis, source ? 0 : p.spacing * st);
  }
  return v;
}

// Padding into a row-major packed output in one pass in address order (kernels.hpp's
// LineWriter): the interior's rows copied to their places, each with its margins along the last
// dimension, so a line a margin shares with a row is stored once, whole. CONSTANT writes the
// value between the rows too (the whole output); the other modes' margins are elements of the
// row's own source (RowMargins), and their rows outside the interior along outer dimensions are
// source rows too (`outer`), so the pass writes every row. Dimensions are the input's (CONSTANT:
// coalesced where the inner one is unpadded and the input steps over it exactly); the last one
// is contiguous in the input (its rows are the copied runs).
class PadRowsStep final : public LinesStep {
 public:
  struct Dim {
    i64 m, s, o, is;  // interior size, start padding, output size, input byte stride
  };
  /// outer[q] (modes other than CONSTANT, q before the last dimension): the source coordinate of
  /// each output coordinate c outside the interior along q, at c (c < s) or c - m (c >= s + m).
  PadRowsStep(const View& in, const View& out, std::vector<Dim> dims, i64 width, std::uint64_t value, bool fill,
              std::vector<i64> left, std::vector<i64> right, std::vector<std::vector<i64>> outer = {})
      : LinesStep(out, {&in}, static_cast<i64>(out_bytes(dims, width)), value, width, fill), in_(in.where),
        d_(std::move(dims)), w_(width), left_(std::move(left)), right_(std::move(right)), outer_(std::move(outer)) {
    os_.assign(d_.size(), w_);  // output byte strides (packed)
    for (std::size_t k = d_.size() - 1; k-- > 0;) os_[k] = os_[k + 1] * d_[k + 1].o;
  }

 private:
  static std::uint64_t out_bytes(const std::vector<Dim>& dims, i64 width) {
    auto b = static_cast<std::uint64_t>(width);
    for (const Dim& x : dims) b *= static_cast<std::uint64_t>(x.o);
    return b;
  }
  void rows(const ExecContext& c, LineWriter& w, std::byte* dst) const override {
    if (fill_) constant_rows(w, in_.in_ptr(c), dst);
    else every_row(w, in_.in_ptr(c), dst);
  }

  // Modes other than CONSTANT: every output row from the first one that ends after w.at, each
  // read from its source row (the interior's along each dimension, else outer_'s), a block of
  // interior rows along the second-last dimension per call.
  void every_row(LineWriter& w, const std::byte* src, std::byte* dst) const {
    const KernelTable& k = active_kernels();
    const std::size_t last = d_.size() - 1;
    const i64 nb = d_[last].m * w_, lb = d_[last].s * w_;
    const RowMargins mg{w_, static_cast<i64>(left_.size()), static_cast<i64>(right_.size()), left_.data(),
                        right_.data()};
    const RowMargins* m = left_.empty() && right_.empty() ? nullptr : &mg;  // no margins: the rows as they are
    if (last == 0) {
      k.rows(w, src, 1, 0, dst + lb, 0, nb, m);
      return;
    }
    const auto source = [&](std::size_t q, i64 c) {  // the source coordinate of output coordinate c along q
      const Dim& x = d_[q];
      return c < x.s         ? outer_[q][static_cast<std::size_t>(c)]
             : c < x.s + x.m ? c - x.s
                             : outer_[q][static_cast<std::size_t>(c - x.m)];
    };
    std::vector<i64> o(last);  // the row's output coordinates
    i64 r = (w.at - dst) / os_[last - 1];
    for (std::size_t q = last; q-- > 0;) {
      o[q] = r % d_[q].o;
      r /= d_[q].o;
    }
    if (r > 0) return;  // at the end
    const std::size_t b = last - 1;
    const Dim& y = d_[b];
    while (w.at < w.hi) {
      i64 in_off = 0, out_off = lb;
      for (std::size_t q = 0; q < b; ++q) {
        in_off += source(q, o[q]) * d_[q].is;
        out_off += o[q] * os_[q];
      }
      for (i64 c = o[b]; c < y.o && w.at < w.hi;) {
        const bool inside = c >= y.s && c < y.s + y.m;
        const i64 n1 = inside ? y.s + y.m - c : 1;
        k.rows(w, src + in_off + source(b, c) * y.is, n1, y.is, dst + out_off + c * os_[b], os_[b], nb, m);
        c += n1;
      }
      o[b] = 0;
      std::size_t q = b;
      for (; q-- > 0;) {  // the next block: dimensions b-1, b-2, ... counted up
        if (++o[q] < d_[q].o) break;
        o[q] = 0;
      }
      if (q == static_cast<std::size_t>(-1)) return;
    }
  }

  // CONSTANT: the rows from the first one that ends after w.at, a block (the second-last
  // dimension) per call.
  void constant_rows(LineWriter& w, const std::byte* src, std::byte* dst) const {
    const KernelTable& k = active_kernels();
    const std::size_t R = d_.size(), last = R - 1;
    const i64 nb = d_[last].m * w_;
    const RowMargins mg{w_, static_cast<i64>(left_.size()), static_cast<i64>(right_.size()), left_.data(),
                        right_.data()};
    const RowMargins* m = fill_ ? nullptr : &mg;
    const i64 after = nb + mg.n_right * w_;  // a row's end from its copied run's start
    std::vector<i64> t(R, 0);                // the row's interior coordinates (t[last] stays 0)
    bool end = false;
    auto carry = [&](std::size_t j) {  // the next row: dimensions j, j-1, ... counted up
      for (std::size_t q = j + 1; q-- > 0;) {
        if (++t[q] < d_[q].m) return;
        t[q] = 0;
      }
      end = true;
    };
    // Seek: the output element at w.at, and the interior row at or after it.
    const i64 e = (w.at - dst) / w_;
    std::size_t k0 = 0;
    for (; k0 < last; ++k0) {
      const i64 u = e / (os_[k0] / w_) % d_[k0].o - d_[k0].s;
      if (u < 0) break;  // before the interior along k0: its first row there
      if (u >= d_[k0].m) {
        if (k0 == 0) end = true;
        else carry(k0 - 1);
        break;
      }
      t[k0] = u;
    }
    auto row_at = [&](std::size_t upto) {
      i64 off = d_[last].s * w_;
      for (std::size_t q = 0; q < upto; ++q) off += (t[q] + d_[q].s) * os_[q];
      return off;
    };
    if (k0 == last && (w.at - dst) >= row_at(last) + after) {  // w.at is past its row
      if (last == 0) end = true;
      else carry(last - 1);
    }
    while (!end && w.at < w.hi) {
      i64 in_off = 0;
      for (std::size_t q = 0; q < last; ++q) in_off += t[q] * d_[q].is;
      if (last == 0) {
        k.rows(w, src, 1, 0, dst + row_at(0), 0, nb, m);
        break;
      }
      const std::size_t b = last - 1;  // the block: the rows along b from t[b]
      k.rows(w, src + in_off, d_[b].m - t[b], d_[b].is, dst + row_at(last), os_[b], nb, m);
      t[b] = d_[b].m - 1;
      carry(b);
    }
  }

  Operand in_;
  std::vector<Dim> d_;
  std::vector<i64> os_;
  i64 w_;
  std::vector<i64> left_, right_;  // RowMargins (modes other than CONSTANT)
  std::vector<std::vector<i64>> outer_;
};

// The PadRowsStep for `d`, or null when it does not apply: an output that is not row-major
// packed, an empty interior, rows not contiguous in the input; for modes other than CONSTANT
// also rows under a cache line or margins over 64 elements (a run per margin element).
std::unique_ptr<Step> pad_rows_step(const View& in, const View& out, const PaddingDesc& d) {
  const auto n = static_cast<std::size_t>(in.ndim());
  const i64 W = static_cast<i64>(out.width());
  const bool constant = d.padding_mode == PaddingMode::CONSTANT;
  if (n == 0 || in.dtype != out.dtype) return nullptr;
  i64 st = W;
  for (std::size_t k = n; k-- > 0;) {
    if (in.sizes[k] == 0) return nullptr;
    if (out.sizes[k] > 1 && out.strides[k] != st) return nullptr;
    st *= out.sizes[k];
  }
  std::vector<PadRowsStep::Dim> v;  // outermost first; CONSTANT: inner dimensions merged as they come
  for (std::size_t k = 0; k < n; ++k) {
    PadRowsStep::Dim x{in.sizes[k], d.start_padding[k], out.sizes[k], in.strides[k]};
    if (constant && x.o == 1) continue;
    if (constant && !v.empty() && x.s == 0 && x.o == x.m && (v.back().m == 1 || v.back().is == x.m * x.is)) {
      PadRowsStep::Dim& y = v.back();
      y = {y.m * x.m, y.s * x.m, y.o * x.o, x.is};
      continue;
    }
    v.push_back(x);
  }
  if (v.empty() || (v.back().m > 1 && v.back().is != W)) return nullptr;
  const std::uint64_t value = element_slot(d.padding_value.cast(out.dtype));
  if (constant)
    return std::make_unique<PadRowsStep>(in, out, std::move(v), W, value, true, std::vector<i64>{}, std::vector<i64>{});
  const PadRowsStep::Dim& r = v.back();
  if (r.m * W < 64 || r.s > 64 || r.o - r.s - r.m > 64) return nullptr;
  // Tables of source coordinates for the border rows along outer dimensions: at most as many
  // entries as the output has rows, bounded so that huge pads keep the steps' bounded size.
  constexpr i64 kMaxOuter = i64{1} << 16;
  i64 outer_border = 0;
  for (std::size_t k = 0; k + 1 < n; ++k) {
    outer_border += std::min(v[k].o - v[k].m, kMaxOuter + 1);  // no overflow, whatever the pads
    if (outer_border > kMaxOuter) return nullptr;
  }
  // The source coordinate of each output coordinate outside [s, s + m) along dimension k, at c
  // (c < s) or c - m, from the mode's pieces.
  const auto border = [&](std::size_t k) {
    const PadRowsStep::Dim& x = v[k];
    std::vector<i64> at(static_cast<std::size_t>(x.o - x.m));
    for (const Piece& p :
         pieces(d.padding_mode, static_cast<u64>(x.m), static_cast<u64>(x.s), static_cast<u64>(x.o - x.s - x.m), false))
      for (i64 t = 0; t < p.count; ++t)
        for (i64 i = 0; i < p.len; ++i) {
          const i64 c = p.at + t * p.spacing + i;
          at[static_cast<std::size_t>(c < x.s ? c : c - x.m)] = p.from + p.step * i;
        }
    return at;
  };
  std::vector<std::vector<i64>> outer;
  for (std::size_t k = 0; k + 1 < n; ++k) outer.push_back(border(k));
  std::vector<i64> at = border(n - 1);  // the margins (at most 128 elements), as byte offsets
  for (i64& a : at) a *= W;
  std::vector<i64> left(at.begin(), at.begin() + r.s), right(at.begin() + r.s, at.end());
  return std::make_unique<PadRowsStep>(in, out, std::move(v), W, value, false, std::move(left), std::move(right),
                                       std::move(outer));
}

}  // namespace

void check(const Rules& r, const PaddingDesc& d) {
  const int n = d.input.ndim();
  r.same_ndim("output", d.output, "input", d.input);
  r.same_dtype("output", d.output, "input", d.input);
  const auto mode = static_cast<std::uint32_t>(d.padding_mode);
  if (mode > 4)
    r.fail("padding_mode", "unknown mode " + std::to_string(mode) +
                               " (expected CONSTANT = 0, EDGE = 1, REFLECTION = 2, SYMMETRIC = 3 or WRAP = 4)");
  r.scalar_dtype("padding_value", d.padding_value, "output", d.output);
  r.one_per_dim("start_padding", d.start_padding, n);
  r.one_per_dim("end_padding", d.end_padding, n);
  for (std::size_t i = 0; i < d.start_padding.size(); ++i) {
    if (d.start_padding[i] < 0)
      r.fail(field_at("start_padding", i), "must be non-negative, got " + s(d.start_padding[i]));
    if (d.end_padding[i] < 0) r.fail(field_at("end_padding", i), "must be non-negative, got " + s(d.end_padding[i]));
  }
  for (std::size_t i = 0; i < d.start_padding.size(); ++i) {
    const i64 in = d.input.sizes()[i], out = d.output.sizes()[i];
    u64 want = 0;
    const bool fits = checked_add(static_cast<u64>(in), static_cast<u64>(d.start_padding[i]), want) &&
                      checked_add(want, static_cast<u64>(d.end_padding[i]), want) &&
                      want <= static_cast<u64>(std::numeric_limits<i64>::max());
    if (!fits || want != static_cast<u64>(out))
      r.fail(field_at("output.sizes", i),
             "must equal input.sizes[" + std::to_string(i) + "] + start_padding[" + std::to_string(i) +
                 "] + end_padding[" + std::to_string(i) + "] = " + s(in) + " + " + s(d.start_padding[i]) + " + " +
                 s(d.end_padding[i]) + " = " + (fits ? s(want) : std::string("(over 64 bits)")) + ", got " + s(out));
  }
  r.output_no_alias("output", d.output);
  const std::vector<Rules::Named> tensors{{"input", &d.input, false}, {"output", &d.output, false}};
  // PADDING's value is a FLOAT: a constant it cannot hold needs PADDING1 (SPEC 4's gates).
  if (d.padding_mode == PaddingMode::CONSTANT && !Rules::fits_float32(d.padding_value))
    r.level_rules(kTable1, tensors, "padding_value",
                  "a value FLOAT32 does not hold needs DML_PADDING1_OPERATOR_DESC of");
  else r.level_rules(kTable, tensors);
  if (d.padding_mode == PaddingMode::SYMMETRIC) r.level_rules(kSymmetricGate, {}, "padding_mode", "SYMMETRIC needs");
  if (d.padding_mode == PaddingMode::WRAP) r.level_rules(kWrapGate, {}, "padding_mode", "WRAP needs");
  // A pad beyond DirectML's UINT needs no rule of its own: the output is then over the element limit.
}

void lower(Lowering& l, const PaddingDesc& d) {
  const View in = l.in(d.input), out = l.out(d.output);
  const int n = in.ndim();
  const auto u = [](int i) { return static_cast<std::size_t>(i); };
  const auto padded = [&](int i) { return d.start_padding[u(i)] + d.end_padding[u(i)] > 0; };
  int inner = n - 1;  // the innermost padded dimension
  while (inner >= 0 && !padded(inner)) --inner;
  if (inner < 0) return l.copy(in, out);  // no padding: a copy, which may run in place
  // Several steps write one output: an element shared by two coordinates (a stride 0, which a
  // functional call's out may have) would be written by two of them at once.
  for (int i = 0; i < n; ++i)
    if (out.sizes[u(i)] > 1 && out.strides[u(i)] == 0)
      throw BufferError("out: stride 0 along dimension " + std::to_string(i) +
                        "; every padded output element needs its own memory");
  // out with dimensions before `upto` narrowed to the interior.
  const auto inside_before = [&](int upto) {
    View v = out;
    for (int k = 0; k < upto; ++k) v = narrow(v, k, d.start_padding[u(k)], in.sizes[u(k)]);
    return v;
  };
  std::unique_ptr<Step> rows = pad_rows_step(in, out, d);
  if (d.padding_mode == PaddingMode::CONSTANT) {
    if (rows) {
      l.p.steps.push_back(std::move(rows));
      return;
    }
    l.copy(in, inside_before(n));
    for (int i = 0; i < n; ++i) {
      if (!padded(i)) continue;
      const View slab = inside_before(i);
      const i64 b = d.start_padding[u(i)], e = d.end_padding[u(i)];
      if (b) l.fill(narrow(slab, i, 0, b), d.padding_value);
      if (e) l.fill(narrow(slab, i, b + in.sizes[u(i)], e), d.padding_value);
    }
    return;
  }
  const auto dim_pieces = [&](int i, bool interior) {
    return pieces(d.padding_mode, static_cast<u64>(in.sizes[u(i)]), static_cast<u64>(d.start_padding[u(i)]),
                  static_cast<u64>(d.end_padding[u(i)]), interior);
  };
  int k = n;
  if (rows) {  // every row, its margins along the last dimension included
    l.p.steps.push_back(std::move(rows));
    k = 0;
  } else {
    // Dimensions k.. as one product of their pieces read from the input, interior included: one
    // batch of independent copies (one parallel region). k is the outermost dimension that keeps the
    // product at kMaxProduct steps or fewer (the innermost padded one always fits).
    constexpr std::size_t kMaxProduct = 64;
    std::vector<std::vector<Piece>> per_dim(u(n));
    std::size_t steps = 1;
    for (int i = n - 1; i >= 0; --i) {
      per_dim[u(i)] = padded(i) ? dim_pieces(i, true) : std::vector<Piece>{{0, in.sizes[u(i)], 0, 1, 1, 0}};
      // Largest first, so the first step is the interior's bulk: borders written after it cost
      // little, but a large copy's streaming stores into cache lines that small border copies
      // have just written cost several times the whole copy.
      std::stable_sort(per_dim[u(i)].begin(), per_dim[u(i)].end(),
                       [](const Piece& a, const Piece& b) { return a.len * a.count > b.len * b.count; });
      if (i < inner && steps * per_dim[u(i)].size() > kMaxProduct) break;
      steps *= per_dim[u(i)].size();
      k = i;
    }
    const View base = inside_before(k);
    std::vector<std::size_t> at(u(n), 0);  // an odometer over the pieces of dimensions k..n-1
    for (std::size_t step = 0; step < steps; ++step) {
      View src = in, dst = base;
      for (int i = n - 1; i >= k; --i) {  // inner first: inserting a dimension at i moves none before it
        src = piece_view(src, i, per_dim[u(i)][at[u(i)]], true);
        dst = piece_view(dst, i, per_dim[u(i)][at[u(i)]], false);
      }
      l.p.steps.push_back(make_copy_step(src, dst));
      for (int i = n - 1; i >= k && ++at[u(i)] == per_dim[u(i)].size(); --i) at[u(i)] = 0;
    }
  }
  // Dimensions before k, outward: the border along i from the output's rows complete along the
  // dimensions after i.
  for (int i = k - 1; i >= 0; --i) {
    if (!padded(i)) continue;
    const View dst = inside_before(i);
    const View src = narrow(dst, i, d.start_padding[u(i)], in.sizes[u(i)]);
    for (const Piece& p : dim_pieces(i, false))
      l.p.steps.push_back(make_copy_step(piece_view(src, i, p, true), piece_view(dst, i, p, false)));
  }
}

// Call: one input, one output; parameters: mode, the value's bits (a Scalar of the output's dtype),
// then start_padding and end_padding (one per dimension each).
PaddingDesc from_call(const Call& c, const PaddingDesc*) {
  c.expect(1, 1, 2);
  const auto n = static_cast<std::size_t>(c.in[0].ndim);
  if (c.n_prm != 2 + 2 * n) throw ValidationError("pad: start and end need one value per dimension each");
  if (c.prm[0] < 0 || c.prm[0] > 4) throw ValidationError("pad: unknown padding mode code " + s(c.prm[0]));
  const TensorDesc out = c.out_desc(0);
  return {c.in_desc(0),
          out,
          static_cast<PaddingMode>(c.prm[0]),
          Scalar{out.dtype(), static_cast<u64>(c.prm[1])},
          {c.prm + 2, c.prm + 2 + n},
          {c.prm + 2 + n, c.prm + 2 + 2 * n}};
}

}  // namespace strided::detail

namespace strided {

void pad(const ConstArrayView& x, const ArrayView& out, const std::vector<std::int64_t>& start,
         const std::vector<std::int64_t>& end, PaddingMode mode, const Scalar& value) {
  using detail::i64;
  const detail::CallArray a = detail::call_array(x, "x"), o = detail::call_array(out, "out");
  const auto n = static_cast<std::size_t>(a.ndim);
  const auto str = [](auto v) { return std::to_string(v); };
  for (const auto* f : {&start, &end})
    if (f->size() != n)
      throw ValidationError(std::string("PaddingDesc.") + (f == &start ? "start" : "end") +
                            "_padding: must have one value per dimension (" + str(n) + "), got " + str(f->size()));
  const auto mc = static_cast<std::uint32_t>(mode);
  if (mc > 4)
    throw ValidationError("PaddingDesc.padding_mode: unknown mode " + str(mc) +
                          " (expected CONSTANT = 0, EDGE = 1, REFLECTION = 2, SYMMETRIC = 3 or WRAP = 4)");
  std::vector<i64> shape(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (const auto* f : {&start, &end})
      if ((*f)[i] < 0)
        throw ValidationError(std::string("PaddingDesc.") + (f == &start ? "start" : "end") + "_padding[" + str(i) +
                              "]: must be non-negative, got " + str((*f)[i]));
    std::uint64_t sz = 0;
    if (!detail::checked_add(static_cast<std::uint64_t>(a.shape[i]), static_cast<std::uint64_t>(start[i]), sz) ||
        !detail::checked_add(sz, static_cast<std::uint64_t>(end[i]), sz) ||
        sz > static_cast<std::uint64_t>(std::numeric_limits<i64>::max()))
      throw ValidationError("PaddingDesc.end_padding[" + str(i) + "]: x.shape[" + str(i) +
                            "] + start + end does not fit in 64 bits");
    shape[i] = static_cast<i64>(sz);
  }
  detail::expect_shape(o, shape, "out");
  if (o.dtype != a.dtype)
    throw ValidationError("out.dtype: must equal x.dtype (" + std::string(dtype_enum_name(a.dtype)) + "), got " +
                          std::string(dtype_enum_name(o.dtype)));
  // numpy.pad's rule: only a constant can extend a dimension that has no elements.
  if (mode != PaddingMode::CONSTANT)
    for (std::size_t i = 0; i < n; ++i)
      if (a.shape[i] == 0 && start[i] + end[i] > 0)
        throw ValidationError("x.shape[" + str(i) + "]: a dimension of size 0 can only be padded with CONSTANT");
  if (detail::is_empty(o)) return;
  const auto bits = static_cast<i64>(value.cast(o.dtype).value_bits());
  // An empty x padded to a non-empty out (CONSTANT): nothing but the value.
  if (detail::is_empty(a)) return detail::call(detail::op_code<FillValueConstantDesc>(), &bits, 1, nullptr, 0, &o, 1);
  // A 0-d x runs as shape (1,) (detail::call): no padding.
  std::vector<i64> prm{static_cast<i64>(mc), bits};
  prm.insert(prm.end(), start.begin(), start.end());
  prm.insert(prm.end(), end.begin(), end.end());
  if (n == 0) prm.insert(prm.end(), {0, 0});
  detail::call(detail::op_code<PaddingDesc>(), prm.data(), prm.size(), &a, 1, &o, 1);
}

}  // namespace strided