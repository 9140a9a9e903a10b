// ReverseSubsequences (DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC): along the axis, each sequence's
// first L = min(length, size) elements reversed and the rest copied. One step of its own (the
// index family's loop nests, index/common.hpp): per block of sequences it reads each length once
// and clamps it to [0, size] at that read, so every element it reads lies inside its sequence
// whatever another thread writes to the lengths; check() only names the first negative length.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "exec/call.hpp"
#include "index/steps.hpp"
#include "ops/op.hpp"
#include "util/copy.hpp"

namespace strided::detail {
namespace {
constexpr std::array<LevelRow, 4> kTable{{{FeatureLevel::FL_2_1, 4, 4, kEightTypes},
                                          {FeatureLevel::FL_3_0, 4, 5, kEightTypes},
                                          {FeatureLevel::FL_4_0, 1, 8, kEightTypes},
                                          {FeatureLevel::FL_5_0, 1, 8, kAllTypes}}};
// The lengths: UINT32, UINT64 from 5_0; signed lengths are strided's extension (no level).
constexpr std::uint64_t kU32 = dtype_bit(DataType::UINT32);
constexpr std::array<LevelRow, 4> kLengthTable{{{FeatureLevel::FL_2_1, 4, 4, kU32},
                                                {FeatureLevel::FL_3_0, 4, 5, kU32},
                                                {FeatureLevel::FL_4_0, 1, 8, kU32},
                                                {FeatureLevel::FL_5_0, 1, 8, kU32 | dtype_bit(DataType::UINT64)}}};

using index::load;
using index::store;

struct Geom {
  Walk<3> lines;  // every dimension but the axis: (lengths, input, output) byte strides
  std::int64_t M = 0;    // the axis' size
  std::int64_t ai = 0, ao = 0;  // input's and output's byte strides along it
  bool axis_inner = false;      // the axis varies faster in the output's memory than the lines
  Operand len, in, out;
  // The lengths as the description has them, to name a negative one (check()).
  std::vector<std::int64_t> len_sizes, len_strides;
  std::string len_name;  // "ReverseSubsequencesDesc.sequence_lengths" or, on a call, "reverse_subsequences.lengths"
};

constexpr std::int64_t kBlock = 256;

/// A length as a count in [0, m]: the read whose value is used.
template <class I>
inline std::int64_t clamp_length(I v, std::int64_t m) noexcept {
  if constexpr (std::is_signed_v<I>) {
    const auto t = static_cast<std::int64_t>(v);
    return t < 0 ? 0 : std::min(t, m);  // negative: only if another thread wrote it after check()
  } else {
    return static_cast<std::int64_t>(std::min<std::uint64_t>(v, static_cast<std::uint64_t>(m)));
  }
}

/// n elements from src (stride ss bytes) to dst (stride ds): constant strides in the common
/// contiguous cases, so the compiler vectorises them.
template <class T>
inline void move(std::byte* dst, std::int64_t ds, const std::byte* src, std::int64_t ss, std::int64_t n) noexcept {
  constexpr auto w = static_cast<std::int64_t>(sizeof(T));
  if (ds == w && ss == w) copy_bytes(dst, src, static_cast<std::size_t>(n * w));
  else if (ds == w && ss == -w)
    for (std::int64_t k = 0; k < n; ++k) store<T>(dst + k * w, load<T>(src - k * w));
  else
    for (std::int64_t k = 0; k < n; ++k) store<T>(dst + k * ds, load<T>(src + k * ss));
}

template <class I, std::size_t W>
void reverse_lines(const Geom& g, const std::byte* len, const std::byte* in, std::byte* out, std::int64_t lo,
                   std::int64_t hi) {
  using T = index::uint_of_t<W>;
  const std::int64_t M = g.M, ai = g.ai, ao = g.ao;
  const std::int64_t jl = g.lines.inner_st(0), ji = g.lines.inner_st(1), jo = g.lines.inner_st(2);
  std::vector<T> scratch;  // the per-column path's packed band, allocated once per part
  for_runs(g.lines, lo, hi, [&](const std::array<std::int64_t, 3>& o, std::int64_t j0, std::int64_t j1) {
    std::int64_t L[kBlock];
    for (std::int64_t jb = j0; jb < j1; jb += kBlock) {
      const std::int64_t n = std::min(j1 - jb, kBlock);
      for (std::int64_t j = 0; j < n; ++j) L[j] = clamp_length(load<I>(len + o[0] + (jb + j) * jl), M);
      const std::byte* ib = in + o[1] + jb * ji;
      std::byte* ob = out + o[2] + jb * jo;
      if (g.axis_inner) {
        for (std::int64_t j = 0; j < n; ++j) {
          const std::byte* src = ib + j * ji;
          std::byte* dst = ob + j * jo;
          const std::int64_t l = L[j];
          if (l > 0) move<T>(dst, ao, src + (l - 1) * ai, -ai, l);
          move<T>(dst + l * ao, ao, src + l * ai, ai, M - l);
        }
      } else {
        // Row by row of the output; neighbouring sequences of equal length (lengths broadcast
        // along a dimension, as ONNX's batch lengths over the features) move as one run.
        std::int64_t ends[kBlock];  // ends[j]: the end of the run of equal lengths that starts at j
        std::int64_t runs = 0;
        for (std::int64_t j = n; j-- > 0;) {
          ends[j] = j + 1 < n && L[j + 1] == L[j] ? ends[j + 1] : j + 1;
          runs += ends[j] == j + 1;
        }
        if (runs * 16 <= n) {
          for (std::int64_t k = 0; k < M; ++k)
            for (std::int64_t j = 0; j < n; j = ends[j]) {
              const std::int64_t s = k < L[j] ? L[j] - 1 - k : k;
              move<T>(ob + k * ao + j * jo, jo, ib + s * ai + j * ji, ji, ends[j] - j);
            }
        } else {
          // A length per sequence (short runs): a band of sequences at a time is first copied
          // row by row into a packed scratch, then each output row is read from it. The band's
          // rows lie a power-of-two stride apart in x and share a handful of cache sets, so
          // reading them in place missed the cache on nearly every element (5-10 ns each); the
          // packed copy stays in L2.
          const std::int64_t line = std::max<std::int64_t>(1, 64 / static_cast<std::int64_t>(W));
          std::int64_t cb = (std::int64_t{512} << 10) / (M * static_cast<std::int64_t>(W)) / line * line;
          cb = std::min(std::max(cb, line), n);
          const bool packed = M <= (std::int64_t{1} << 16);
          if (packed && scratch.size() < static_cast<std::size_t>(M * cb))
            scratch.resize(static_cast<std::size_t>(M * cb));
          for (std::int64_t c0 = 0; c0 < n; c0 += cb) {
            const std::int64_t c1 = std::min(n, c0 + cb), w = c1 - c0;
            if (!packed) {  // very long sequences: in place
              for (std::int64_t k = 0; k < M; ++k)
                for (std::int64_t j = c0; j < c1; ++j) {
                  const std::int64_t s = k < L[j] ? L[j] - 1 - k : k;
                  store<T>(ob + k * ao + j * jo, load<T>(ib + s * ai + j * ji));
                }
              continue;
            }
            for (std::int64_t k = 0; k < M; ++k)
              move<T>(reinterpret_cast<std::byte*>(scratch.data() + k * w), sizeof(T), ib + k * ai + c0 * ji, ji, w);
            for (std::int64_t k = 0; k < M; ++k) {
              std::byte* orow = ob + k * ao;
              for (std::int64_t j = c0; j < c1; ++j) {
                const std::int64_t s = k < L[j] ? L[j] - 1 - k : k;
                store<T>(orow + j * jo, scratch[static_cast<std::size_t>(s * w + (j - c0))]);
              }
            }
          }
        }
      }
    }
  });
}

/// IndexError naming the first negative length in row-major order.
template <class I>
void check_lengths(const Geom& g, const std::byte* len) {
  if constexpr (std::is_signed_v<I>) {
    Walk<1> w;
    for (std::size_t d = 0; d < g.len_sizes.size(); ++d) w.push(g.len_sizes[d], {g.len_strides[d]});
    w.coalesce();
    const std::int64_t st = w.inner_st(0);
    std::int64_t at = 0;
    for_runs(w, 0, w.count(), [&](const std::array<std::int64_t, 1>& o, std::int64_t j0, std::int64_t j1) {
      for (std::int64_t j = j0; j < j1; ++j) {
        const I v = load<I>(len + o[0] + j * st);
        if (v < 0) {
          std::string pos;  // the row-major position `at` as coordinates
          for (std::size_t d = g.len_sizes.size(); d-- > 0;) {
            pos = std::to_string(at % g.len_sizes[d]) + (pos.empty() ? "" : ", ") + pos;
            at /= g.len_sizes[d];
          }
          throw IndexError(g.len_name + "[" + pos + "]: length " + std::to_string(static_cast<std::int64_t>(v)) +
                           " is negative");
        }
        ++at;
      }
    });
  } else {
    (void)g;
    (void)len;
  }
}

using Fn = void (*)(const Geom&, const std::byte*, const std::byte*, std::byte*, std::int64_t, std::int64_t);
using CheckFn = void (*)(const Geom&, const std::byte*);

class ReverseStep final : public KernelStep {
 public:
  ReverseStep(const Geom& g, const View& out, const View& in, const View& len, Fn fn, CheckFn ck, std::uint64_t bytes)
      : KernelStep(out, {&in, &len}), g_(g), fn_(fn), check_(ck), bytes_(bytes) {}
  void check(const ExecContext& c) const override { check_(g_, g_.len.in_ptr(c)); }
  Work work(const ExecContext&) const override { return {g_.lines.count(), 64, bytes_}; }
  void part(const ExecContext& c, std::int64_t lo, std::int64_t hi) const override {
    fn_(g_, g_.len.in_ptr(c), g_.in.in_ptr(c), g_.out.out_ptr(c), lo, hi);
  }

 private:
  Geom g_;
  Fn fn_;
  CheckFn check_;
  std::uint64_t bytes_;
};
}  // namespace

void check(const Rules& r, const ReverseSubsequencesDesc& d) {
  r.same_ndim("sequence_lengths", d.sequence_lengths, "input", d.input);
  r.same_ndim("output", d.output, "input", d.input);
  r.axis_in_range("axis", d.axis, d.input.ndim());
  r.same_dtype("output", d.output, "input", d.input);
  r.same_sizes("output", d.output, "input", d.input);
  if (!(dtype_bit(d.sequence_lengths.dtype()) & kIndexTypes))
    r.fail("sequence_lengths.dtype", "lengths must be UINT32, UINT64, INT32 or INT64, got " +
                                         std::string(dtype_enum_name(d.sequence_lengths.dtype())));
  r.sizes_but_axis("sequence_lengths", d.sequence_lengths, "input", d.input, d.axis);
  r.output_no_alias("output", d.output);
  r.level_rules(kTable, {{"input", &d.input, false}, {"output", &d.output, false}});
  r.level_rules(kLengthTable, {{"sequence_lengths", &d.sequence_lengths, false}});
}

void lower(Lowering& l, const ReverseSubsequencesDesc& d) {
  const View in = l.in(d.input), len = l.in(d.sequence_lengths), out = l.out(d.output);
  const auto axis = static_cast<std::size_t>(d.axis);
  Geom g;
  g.len_name = l.name("ReverseSubsequencesDesc.sequence_lengths", "reverse_subsequences.lengths");
  for (std::size_t k = 0; k < in.sizes.size(); ++k)
    if (k != axis) g.lines.push(in.sizes[k], {len.strides[k], in.strides[k], out.strides[k]});
  g.lines.coalesce();
  g.M = in.sizes[axis];
  g.ai = in.strides[axis];
  g.ao = out.strides[axis];
  g.axis_inner = g.lines.inner_size() == 1 || std::abs(g.ao) <= std::abs(g.lines.inner_st(2));
  g.len = len.where;
  g.in = in.where;
  g.out = out.where;
  g.len_sizes = len.sizes;
  g.len_strides = len.strides;
  const std::size_t w = in.width();
  const Fn fn = index::dispatch_index(len.dtype, [&](auto itag) {
    return index::dispatch_width(w, [&](auto wtag) -> Fn {
      return &reverse_lines<decltype(itag), decltype(wtag)::value>;
    });
  });
  const CheckFn ck =
      index::dispatch_index(len.dtype, [](auto itag) -> CheckFn { return &check_lengths<decltype(itag)>; });
  const auto lines = static_cast<std::uint64_t>(g.lines.count());
  l.p.steps.push_back(std::make_unique<ReverseStep>(
      g, out, in, len, fn, ck, lines * (itemsize(len.dtype) + 2 * static_cast<std::uint64_t>(g.M) * w)));
}

// Call: x, lengths (x's dimension count, size 1 at the axis) -> out; parameter: axis.
ReverseSubsequencesDesc from_call(const Call& c, const ReverseSubsequencesDesc*) {
  c.expect(2, 1, 1);
  const int n = c.in[0].ndim;
  return {c.in_desc(0), c.in_desc(1, n), c.out_desc(0), Call::axis(c.prm[0], n, "reverse_subsequences.axis")};
}

CallShapes call_shapes(const Call& c, const ReverseSubsequencesDesc*) {
  c.expect(2, 0, 1);
  Call::axis(c.prm[0], c.in[0].ndim, "reverse_subsequences.axis");
  return {{c.in[0].shape, c.in[0].shape + c.in[0].ndim}, {}};
}

}  // namespace strided::detail

namespace strided {

void reverse_subsequences(const ConstArrayView& x, const ConstArrayView& lengths, const ArrayView& out,
                          std::int64_t axis) {
  const detail::CallArray a = detail::call_array(x, "x"), o = detail::call_array(out, "out");
  detail::CallArray len = detail::call_array(lengths, "lengths");
  const std::int64_t ax = detail::Call::axis(axis, a.ndim, "reverse_subsequences.axis");
  detail::expect_shape(o, {a.shape, a.shape + a.ndim}, "out");
  if (o.dtype != a.dtype)
    throw ValidationError("out.dtype: must equal x.dtype (" + std::string(dtype_enum_name(a.dtype)) + "), got " +
                          std::string(dtype_enum_name(o.dtype)));
  if (!(detail::dtype_bit(len.dtype) & detail::kIndexTypes))
    throw ValidationError("lengths.dtype: must be UINT32, UINT64, INT32 or INT64, got " +
                          std::string(dtype_enum_name(len.dtype)));
  // lengths broadcast (numpy's rules) to x's shape with 1 at the axis.
  detail::CallArray target = a;
  target.shape[ax] = 1;
  try {
    len = detail::broadcast_to(len, target);
  } catch (const ValidationError&) {
    throw ValidationError("lengths: shape " + detail::shape_str(len.shape, len.ndim) + " does not broadcast to " +
                          detail::shape_str(target.shape, target.ndim));
  }
  if (detail::is_empty(a)) return;  // nothing moves, no length is read
  const detail::CallArray ins[2] = {a, len};
  detail::call(detail::op_code<ReverseSubsequencesDesc>(), &ax, 1, ins, 2, &o, 1);
}

}  // namespace strided
