// Unfold (DML_UNFOLD_OPERATOR_DESC, im2col, torch nn.functional.unfold), SPEC 3.14.3:
//   out[n, c*K + w, l] = in[n, c, p] (0 where p is in the padding), p[d] = b[d]*stride[d] - start[d] + w[d]*dilation[d]
// The output viewed as (N, C, k_0..k_{D-1}, B_0..B_{D-1}). For one window offset w, the window
// positions b whose p lies inside the input form a box [lo_d, hi_d) per dimension: one copy step
// from a strided view of the input (all N, C at once). The rest of the offset's positions are
// zeros, filled as boxes that do not depend on later offsets (the positions before / after the
// box along dimension d, for all offsets after w_d at once), so a 3x3 window takes 9 copies and
// at most 8 fills, every step writing its own elements (one parallel batch).
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "exec/call.hpp"
#include "exec/lines.hpp"
#include "ops/op.hpp"
#include "util/checked.hpp"
#include "view/view.hpp"

namespace strided::detail {
namespace {
using i64 = std::int64_t;
using u64 = std::uint64_t;
constexpr std::array<LevelRow, 1> kTable{{{FeatureLevel::FL_6_4, 3, 8, kAllTypes}}};
constexpr u64 kI64Max = static_cast<u64>(std::numeric_limits<i64>::max());

std::string s(u64 v) { return std::to_string(v); }
std::string s(i64 v) { return std::to_string(v); }

struct Params {
  const std::vector<i64>& window;
  const std::vector<i64>& strides;
  const std::vector<i64>& dilations;
  const std::vector<i64>& start;
  const std::vector<i64>& end;
};

/// Window positions per spatial dimension (B), K = prod(window), L = prod(B).
struct Geometry {
  std::vector<i64> blocks;
  i64 K = 1, L = 1;
};

/// The rules on the five arrays against the input's spatial sizes `S` (D of them); `fail(field,
/// rule)` throws at the first broken one. Overflow-safe for any values.
template <class Fail>
Geometry geometry(const i64* S, std::size_t D, const Params& p, Fail&& fail) {
  const std::array<const std::vector<i64>*, 5> arrays{&p.window, &p.strides, &p.dilations, &p.start, &p.end};
  static constexpr const char* names[5] = {"window_sizes", "strides", "dilations", "start_padding", "end_padding"};
  for (std::size_t k = 0; k < 5; ++k)
    if (arrays[k]->size() != D)
      fail(names[k], "must have one value per spatial dimension (" + s(static_cast<u64>(D)) + "), got " +
                         s(static_cast<u64>(arrays[k]->size())));
  static constexpr const char* rules[5] = {"window size must be at least 1", "stride must be at least 1",
                                           "dilation must be at least 1", "padding must not be negative",
                                           "padding must not be negative"};
  for (std::size_t k = 0; k < 5; ++k)
    for (std::size_t i = 0; i < D; ++i)
      if ((*arrays[k])[i] < (k < 3 ? 1 : 0))
        fail(field_at(names[k], i), std::string(rules[k]) + ", got " + s((*arrays[k])[i]));
  Geometry g;
  u64 K = 1, L = 1;
  for (std::size_t i = 0; i < D; ++i) {
    const auto w = static_cast<u64>(p.window[i]), dil = static_cast<u64>(p.dilations[i]);
    u64 padded = 0, span = 0;
    const bool padded_fits = checked_add(static_cast<u64>(S[i]), static_cast<u64>(p.start[i]), padded) &&
                             checked_add(padded, static_cast<u64>(p.end[i]), padded);
    const bool span_fits = checked_mul(dil, w - 1, span) && checked_add(span, 1, span);
    if (!span_fits || (padded_fits && span > padded))
      fail(field_at("window_sizes", i),
           "the dilated window dilations[" + s(static_cast<u64>(i)) +
               "] * (window - 1) + 1 = " + (span_fits ? s(span) : std::string("(over 64 bits)")) +
               " is larger than the padded input " + s(S[i]) + " + " + s(p.start[i]) + " + " + s(p.end[i]) + " = " +
               (padded_fits ? s(padded) : std::string("(over 64 bits)")));
    const u64 b = (padded - span) / static_cast<u64>(p.strides[i]) + 1;
    if (!checked_mul(K, w, K) || K > kI64Max) fail("window_sizes", "the product of the window sizes exceeds 2^63-1");
    if (!checked_mul(L, b, L) || L > kI64Max) fail("strides", "the number of window positions exceeds 2^63-1");
    g.blocks.push_back(static_cast<i64>(b));
  }
  g.K = static_cast<i64>(K);
  g.L = static_cast<i64>(L);
  return g;
}

Params params_of(const UnfoldDesc& d) {
  return {d.window_sizes, d.strides, d.dilations, d.start_padding, d.end_padding};
}

/// The result's sizes {N, C*K, L}; `fail` when C*K exceeds 2^63-1.
template <class Fail>
std::vector<i64> out_sizes(i64 N, i64 C, const Geometry& g, Fail&& fail) {
  u64 ck = 0;
  if (!checked_mul(static_cast<u64>(C), static_cast<u64>(g.K), ck) || ck > kI64Max)
    fail("window_sizes", "channels * prod(window_sizes) exceeds 2^63-1");
  return {N, static_cast<i64>(ck), g.L};
}
}  // namespace

void check(const Rules& r, const UnfoldDesc& d) {
  const std::size_t D = d.window_sizes.size();
  const auto fail = [&](const std::string& f, const std::string& rule) { r.fail(f, rule); };
  if (D < 1 || D > 6) r.fail("window_sizes", "must have 1 to 6 values (DimensionCount), got " + s(static_cast<u64>(D)));
  if (static_cast<std::size_t>(d.input.ndim()) != D + 2)
    r.fail("input.sizes", "must have 2 + len(window_sizes) = " + s(static_cast<u64>(D + 2)) +
                              " dimensions (N, C, spatial), got " + s(static_cast<i64>(d.input.ndim())));
  r.same_dtype("output", d.output, "input", d.input);
  const Geometry g = geometry(d.input.sizes().data() + 2, D, params_of(d), fail);
  if (d.output.ndim() < 3)
    r.fail("output.sizes",
           "must have at least 3 dimensions ({N, C*K, L}), got " + s(static_cast<i64>(d.output.ndim())));
  r.right_aligned("output", d.output, out_sizes(d.input.sizes()[0], d.input.sizes()[1], g, fail));
  r.output_no_alias("output", d.output);
  r.level_rules(kTable, {{"input", &d.input, false}, {"output", &d.output, false}});
  r.level_uint("window_sizes", d.window_sizes);
  r.level_uint("strides", d.strides);
  r.level_uint("dilations", d.dilations);
  r.level_uint("start_padding", d.start_padding);
  r.level_uint("end_padding", d.end_padding);
}

namespace {
/// Window offset k's box: the positions [lo_i, hi_i) along each spatial dimension whose input
/// position lies inside the input, and p0_i, the input position at lo_i (0 for an empty box).
struct Box {
  std::vector<i64> lo, hi, p0;
  bool any = true;  // not empty along any dimension
};

/// The boxes of every offset, row-major over the offsets. Unsigned arithmetic: validation bounds
/// S + start + end by 2^64, not 2^63.
std::vector<Box> boxes(const View& in, const UnfoldDesc& d, const Geometry& g) {
  const std::size_t D = d.window_sizes.size();
  std::vector<Box> r(static_cast<std::size_t>(g.K));
  // The offset's window position (D <= 6, validated). An array: on a std::vector, GCC 13 warned
  // (-Wfree-nonheap-object, a false positive) at the odometer below.
  i64 w[kMaxDims] = {};
  for (Box& x : r) {
    x.lo.resize(D), x.hi.resize(D), x.p0.resize(D);
    for (std::size_t i = 0; i < D; ++i) {
      const auto B = static_cast<u64>(g.blocks[i]), st = static_cast<u64>(d.strides[i]);
      const auto S = static_cast<u64>(in.sizes[2 + i]), start = static_cast<u64>(d.start_padding[i]);
      const u64 t = static_cast<u64>(w[i]) * static_cast<u64>(d.dilations[i]);  // <= the dilated window
      u64 b0 = 0, p = t - start;  // p = b*st + t - start at b = b0
      if (t < start) {
        const u64 a = start - t;
        b0 = a / st + (a % st != 0);
        p = b0 * st - a;  // < st
      }
      const u64 l0 = std::min(B, b0);
      const u64 h0 = p > S - 1 ? l0 : std::min(B, std::max(l0, b0 + (S - 1 - p) / st + 1));
      x.lo[i] = static_cast<i64>(l0);
      x.hi[i] = static_cast<i64>(h0);
      x.p0[i] = static_cast<i64>(p < S ? p : 0);
      x.any = x.any && h0 > l0;
    }
    for (std::size_t i = D; i-- > 0 && ++w[i] == d.window_sizes[i];) w[i] = 0;  // next offset
  }
  return r;
}

/// Unfold into a row-major packed output whose rows (the last window-position dimension) read
/// contiguous input runs: one step writing the output in address order through the line writer.
/// Each row is its run with the zeros around it, rows outside the box are zeros, and each 64-byte
/// line is stored once, whole. (As separate steps, the one-element zero columns beside the rows
/// were fills of their own, sharing every row's first line with the copy of the row.)
class UnfoldRowsStep final : public LinesStep {
 public:
  /// `in_nc`: the input's byte strides along N and C; `step[i]`: its byte step between window
  /// positions along spatial dimension i; `box_at[k]`: the byte offset of box k's first element.
  UnfoldRowsStep(const View& in, const View& out, i64 N, i64 C, std::array<i64, 2> in_nc, std::vector<i64> step,
                 std::vector<i64> blocks, std::vector<Box> boxes, std::vector<i64> box_at, i64 width)
      : LinesStep(out, {&in}, out_bytes(N, C, blocks, boxes.size(), width), 0, width, true), in_(in.where), N_(N),
        C_(C), in_nc_(in_nc), step_(std::move(step)), blocks_(std::move(blocks)), boxes_(std::move(boxes)),
        box_at_(std::move(box_at)), w_(width) {
    const std::size_t D = blocks_.size();
    pos_st_.assign(D, w_);  // the output's byte stride along each window-position dimension
    for (std::size_t i = D - 1; i-- > 0;) pos_st_[i] = pos_st_[i + 1] * blocks_[i + 1];
    slab_ = pos_st_[0] * blocks_[0];
  }

 private:
  static i64 out_bytes(i64 N, i64 C, const std::vector<i64>& blocks, std::size_t boxes, i64 width) {
    i64 b = N * C * static_cast<i64>(boxes) * width;
    for (const i64 x : blocks) b *= x;
    return b;
  }
  // The slabs (one (n, c, offset) each: the offset's L positions) from the one holding w.at.
  void rows(const ExecContext& c, LineWriter& w, std::byte* dst) const override {
    const std::byte* src = in_.in_ptr(c);
    const KernelTable& k = active_kernels();
    const auto K = static_cast<i64>(boxes_.size());
    const std::size_t D = blocks_.size(), R = D >= 2 ? D - 2 : 0;  // R: the dimension handed to rows()
    std::array<i64, 6> t{};  // positions along dimensions [0, R)
    for (i64 s = (w.at - dst) / slab_; s < N_ * C_ * K && w.at < w.hi; ++s) {
      const auto uk = static_cast<std::size_t>(s % K);
      const Box& b = boxes_[uk];
      if (!b.any) continue;  // zeros: the gap before the next run
      const i64 nc = s / K;
      const std::byte* sp = src + (nc / C_) * in_nc_[0] + (nc % C_) * in_nc_[1] + box_at_[uk];
      std::byte* dp = dst + s * slab_ + b.lo[D - 1] * w_;
      const i64 nb = (b.hi[D - 1] - b.lo[D - 1]) * w_;
      if (D == 1) {
        k.rows(w, sp, 1, 0, dp, 0, nb, nullptr);
        continue;
      }
      for (std::size_t i = 0; i < R; ++i) t[i] = b.lo[i];
      while (w.at < w.hi) {
        const std::byte* so = sp;
        std::byte* o = dp + b.lo[R] * pos_st_[R];
        for (std::size_t i = 0; i < R; ++i) {
          so += (t[i] - b.lo[i]) * step_[i];
          o += t[i] * pos_st_[i];
        }
        k.rows(w, so, b.hi[R] - b.lo[R], step_[R], o, pos_st_[R], nb, nullptr);
        std::size_t i = R;
        while (i > 0 && ++t[i - 1] == b.hi[i - 1]) {
          t[i - 1] = b.lo[i - 1];
          --i;
        }
        if (i == 0) break;
      }
    }
  }

  Operand in_;
  i64 N_, C_;
  std::array<i64, 2> in_nc_;
  std::vector<i64> step_, blocks_;
  std::vector<Box> boxes_;
  std::vector<i64> box_at_, pos_st_;
  i64 w_, slab_ = 0;
};

/// The UnfoldRowsStep for `out` (aligned to {N, C*K, L}), or null where it does not apply: an
/// output that is not row-major packed, or rows whose runs are not contiguous in the input.
std::unique_ptr<Step> rows_step(const View& in, const View& out, const UnfoldDesc& d, const Geometry& g,
                                std::vector<Box> bx) {
  const auto W = static_cast<i64>(out.width());
  const std::size_t D = d.window_sizes.size();
  i64 st = W;
  for (std::size_t k = 3; k-- > 0;) {
    if (out.sizes[k] > 1 && out.strides[k] != st) return nullptr;
    st *= out.sizes[k];
  }
  const std::size_t last = 2 + D - 1;
  if (in.sizes[last] > 1 && (d.strides[D - 1] != 1 || in.strides[last] != W)) return nullptr;
  std::vector<i64> step(D), at(bx.size(), 0);
  for (std::size_t i = 0; i < D; ++i) step[i] = in.strides[2 + i] * d.strides[i];
  for (std::size_t k = 0; k < bx.size(); ++k)
    for (std::size_t i = 0; i < D; ++i) at[k] += bx[k].p0[i] * in.strides[2 + i];
  return std::make_unique<UnfoldRowsStep>(in, out, in.sizes[0], in.sizes[1],
                                          std::array<i64, 2>{in.strides[0], in.strides[1]}, std::move(step), g.blocks,
                                          std::move(bx), std::move(at), W);
}
}  // namespace

void lower(Lowering& l, const UnfoldDesc& d) {
  const View in = l.in(d.input);
  View out = l.out(d.output);
  align_right(out, 3);  // validated: only leading 1s beyond {N, C*K, L}
  // Several steps run together, so a stride-0 output (which a one-step copy accepts, keeping
  // the last coordinate) would have them race on one element.
  for (std::size_t i = 0; i < 3; ++i)
    if (out.strides[i] == 0 && out.sizes[i] > 1)
      throw BufferError("outputs[0]: the output's elements overlap each other (a stride 0); every output element "
                        "needs its own memory");
  const auto D = static_cast<int>(d.window_sizes.size());
  const auto u = [](int i) { return static_cast<std::size_t>(i); };
  const Geometry g = geometry(in.sizes.data() + 2, u(D), params_of(d), [](const std::string&, const std::string&) {});
  std::vector<Box> bx = boxes(in, d, g);
  if (std::unique_ptr<Step> rows = rows_step(in, out, d, g, bx)) {
    l.p.steps.push_back(std::move(rows));
    return;
  }
  // out as (N, C, k_0..k_{D-1}, B_0..B_{D-1}): window offset dimension i at 2 + i, position i at 2 + D + i.
  View o = out;
  for (int i = D - 1; i >= 1; --i) o = split_dim(o, 2, g.blocks[u(i)]);
  o = split_dim(o, 1, g.K);
  for (int i = D - 1; i >= 1; --i) o = split_dim(o, 2, d.window_sizes[u(i)]);
  const Scalar zero = Scalar::from_int(out.dtype, 0);
  std::vector<i64> w(u(D), 0);
  for (const Box& b : bx) {
    const std::vector<i64>&lo = b.lo, &hi = b.hi;
    // Zeros outside the box along dimension i (inside it along dimensions before i), for this
    // w_0..w_i and every offset after it: filled once, at the first such offset.
    for (int i = 0; i < D; ++i) {
      bool first = true;
      for (int j = i + 1; j < D; ++j) first = first && w[u(j)] == 0;
      for (int j = 0; j < i; ++j) first = first && hi[u(j)] > lo[u(j)];  // else an earlier piece has them
      if (!first) continue;
      View f = o;
      for (int j = 0; j <= i; ++j) f = narrow(f, 2 + j, w[u(j)], 1);
      for (int j = 0; j < i; ++j) f = narrow(f, 2 + D + j, lo[u(j)], hi[u(j)] - lo[u(j)]);
      const i64 B = g.blocks[u(i)];
      if (lo[u(i)] > 0) l.fill(narrow(f, 2 + D + i, 0, lo[u(i)]), zero);
      if (hi[u(i)] < B) l.fill(narrow(f, 2 + D + i, hi[u(i)], B - hi[u(i)]), zero);
    }
    if (b.any) {
      View dst = o, src = in;
      for (int i = 0; i < D; ++i) {
        dst = narrow(narrow(dst, 2 + i, w[u(i)], 1), 2 + D + i, lo[u(i)], hi[u(i)] - lo[u(i)]);
        src = narrow(src, 2 + i, b.p0[u(i)], 1);
        // Within the input (the box ends inside it); a single position needs no stride.
        src.strides[u(2 + i)] = hi[u(i)] - lo[u(i)] > 1 ? src.strides[u(2 + i)] * d.strides[u(i)] : 0;
        src.sizes[u(2 + i)] = hi[u(i)] - lo[u(i)];
      }
      // The input gains the window offset dimensions (size 1) to match the output's view.
      src.sizes.insert(src.sizes.begin() + 2, u(D), 1);
      src.strides.insert(src.strides.begin() + 2, u(D), 0);
      l.copy(src, dst);
    }
    for (int i = D - 1; i >= 0 && ++w[u(i)] == d.window_sizes[u(i)]; --i) w[u(i)] = 0;  // next offset
  }
}

// Call: one input {N, C, spatial...}, one output {N, C*K, L}; parameters: the five arrays, one
// value per spatial dimension each, concatenated (window_sizes, strides, dilations, start, end).
UnfoldDesc from_call(const Call& c, const UnfoldDesc*) {
  c.expect(1, 1, 0);
  const auto D = static_cast<std::size_t>(c.in[0].ndim < 2 ? 0 : c.in[0].ndim - 2);
  if (c.n_prm != 5 * D) throw ValidationError("unfold: expected 5 parameters per spatial dimension");
  const auto part = [&](std::size_t k) { return std::vector<i64>(c.prm + k * D, c.prm + (k + 1) * D); };
  return {c.in_desc(0), c.out_desc(0), part(0), part(1), part(2), part(3), part(4)};
}

}  // namespace strided::detail

namespace strided {

void unfold(const ConstArrayView& x, const ArrayView& out, const std::vector<std::int64_t>& window_sizes,
            const std::vector<std::int64_t>& strides, const std::vector<std::int64_t>& dilations,
            const std::vector<std::int64_t>& start_padding, const std::vector<std::int64_t>& end_padding) {
  using detail::i64;
  const detail::CallArray a = detail::call_array(x, "x"), o = detail::call_array(out, "out");
  if (a.ndim < 3 || a.ndim > 8)
    throw ValidationError("x: must have 3 to 8 dimensions (N, C and 1 to 6 spatial), got " + std::to_string(a.ndim));
  const auto D = static_cast<std::size_t>(a.ndim - 2);
  const auto fail = [](const std::string& f, const std::string& rule) {
    throw ValidationError("UnfoldDesc." + f + ": " + rule);
  };
  const detail::Params p{window_sizes, strides, dilations, start_padding, end_padding};
  const detail::Geometry g = detail::geometry(a.shape + 2, D, p, fail);
  detail::expect_shape(o, detail::out_sizes(a.shape[0], a.shape[1], g, fail), "out");
  if (o.dtype != a.dtype)
    throw ValidationError("out.dtype: must equal x.dtype (" + std::string(dtype_enum_name(a.dtype)) + "), got " +
                          std::string(dtype_enum_name(o.dtype)));
  if (detail::is_empty(o)) return;
  // An empty spatial dimension with padding around it: every position reads padding.
  if (detail::is_empty(a)) return full(out, Scalar::from_int(o.dtype, 0));
  std::vector<i64> prm;
  for (const auto* v : {&window_sizes, &strides, &dilations, &start_padding, &end_padding})
    prm.insert(prm.end(), v->begin(), v->end());
  detail::call(detail::op_code<UnfoldDesc>(), prm.data(), prm.size(), &a, 1, &o, 1);
}

}  // namespace strided
