// DiagonalMatrix / DiagonalMatrix1 (DML_DIAGONAL_MATRIX(1)_OPERATOR_DESC, SPEC 3.12): over the
// last two dimensions, with t = column - row, out = value inside the band, input (or 0) outside.
// One band step writes every element once: each row is three column ranges [0, x), [x, y),
// [y, C), the middle one the band when begin <= end (else the two outer ones), each written by a
// kernel of the copy engine's table (a fill, or a copy of the input's row: any strides,
// streaming stores for large outputs). In place (the input the identical view of the output),
// only the band is written.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "exec/call.hpp"
#include "kernels/kernels.hpp"
#include "ops/op.hpp"
#include "plan/copy_plan.hpp"
#include "plan/nest.hpp"
#include "runtime/simd.hpp"

namespace strided::detail {
namespace {
// DIAGONAL_MATRIX (begin = Offset, end = Offset + 1, a FLOAT value, no input) and DIAGONAL_MATRIX1.
constexpr std::array<LevelRow, 4> kTable0{{{FeatureLevel::FL_2_0, 4, 4, kFloat32Float16},
                                           {FeatureLevel::FL_2_1, 4, 4, kEightTypes},
                                           {FeatureLevel::FL_4_0, 2, 4, kEightTypes},
                                           {FeatureLevel::FL_5_1, 2, 4, kAllTypes}}};
constexpr std::array<LevelRow, 1> kTable1{{{FeatureLevel::FL_5_1, 2, 4, kAllTypes}}};

constexpr std::int64_t kInt32Min = std::numeric_limits<std::int32_t>::min();
constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

class BandStep final : public KernelStep {
 public:
  BandStep(const View& out, const View* in, const Scalar& value, std::int64_t begin, std::int64_t end)
      : KernelStep(out, {in}), out_(out.where), width_(out.width()), value_(element_slot(value)), begin_(begin),
        end_(end) {
    const int n = out.ndim();
    for (int i = 0; i + 1 < n; ++i) {  // batches and rows; the last dimension is the columns
      const auto u = static_cast<std::size_t>(i);
      rows_.push(out.sizes[u], {out.strides[u], in ? in->strides[u] : 0});
    }
    cols_ = out.sizes.back();
    ocs_ = out.strides.back();
    if (in) {
      in_ = in->where;
      has_in_ = true;
      ics_ = in->strides.back();
      same_strides_ = in->strides == out.strides;
    }
    const auto rows = static_cast<std::uint64_t>(rows_.count());
    bytes_ = rows * static_cast<std::uint64_t>(cols_) * width_;
    const std::int64_t band = begin <= end ? std::min(end - begin, cols_) : cols_;
    band_bytes_ = rows * static_cast<std::uint64_t>(band) * width_;
  }
  Work work(const ExecContext& c) const override {
    return {rows_.count(), 1, in_place(c) ? band_bytes_ : bytes_};  // what this run writes (at most)
  }
  void part(const ExecContext& c, std::int64_t lo, std::int64_t hi) const override {
    std::byte* out = out_.out_ptr(c);
    const std::byte* in = has_in_ ? in_.in_ptr(c) : nullptr;
    const bool skip_in = in_place(c);  // outside the band is already x
    const std::uint64_t bytes = skip_in ? band_bytes_ : bytes_;
    const int lw = width_ == 1 ? 0 : width_ == 2 ? 1 : width_ == 4 ? 2 : 3;  // the table's log2(width)
    const auto& k = active_kernels().k[bytes >= stream_threshold() ? 1 : 0];
    const auto w = static_cast<std::int64_t>(width_);
    const std::uint64_t zero = 0, value = value_;
    const auto fill = [&](const std::uint64_t* v, std::byte* d, std::int64_t n) {
      k[static_cast<int>(ocs_ == w ? KernelKind::Fill : KernelKind::Generic)][lw](reinterpret_cast<const std::byte*>(v),
                                                                                  d, 1, 0, 0, n, 0, ocs_);
    };
    const auto copy = [&](const std::byte* s, std::byte* d, std::int64_t n) {
      k[static_cast<int>(ocs_ == w && ics_ == w ? KernelKind::Contig : KernelKind::Generic)][lw](s, d, 1, 0, 0, n, ics_,
                                                                                                 ocs_);
    };
    const std::int64_t C = cols_;
    for_runs(rows_, lo, hi, [&](const std::array<std::int64_t, 2>& off, std::int64_t r0, std::int64_t r1) {
      for (std::int64_t r = r0; r < r1; ++r) {
        std::byte* d = out + off[0] + r * rows_.inner_st(0);
        const std::byte* s = has_in_ ? in + off[1] + r * rows_.inner_st(1) : nullptr;
          // t = col - row: begin <= t < end is r + begin <= col < r + end
        const bool band_in_middle = begin_ <= end_;
        const std::int64_t x = std::clamp<std::int64_t>(r + (band_in_middle ? begin_ : end_), 0, C);
        const std::int64_t y = std::clamp<std::int64_t>(r + (band_in_middle ? end_ : begin_), 0, C);
        const std::int64_t cuts[4] = {0, x, y, C};
        for (int piece = 0; piece < 3; ++piece) {
          const std::int64_t c0 = cuts[piece], n = cuts[piece + 1] - c0;
          if (n <= 0) continue;
          if ((piece == 1) == band_in_middle) fill(&value, d + c0 * ocs_, n);
          else if (!has_in_) fill(&zero, d + c0 * ocs_, n);
          else if (!skip_in) copy(s + c0 * ics_, d + c0 * ocs_, n);
        }
      }
    });
  }

 private:
  bool in_place(const ExecContext& c) const {  // the input the identical view of the output
    return has_in_ && same_strides_ && in_.in_ptr(c) == out_.out_ptr(c);
  }

  Operand out_, in_;
  std::size_t width_;
  std::uint64_t value_;  // element_slot: the element at offset 0
  std::int64_t begin_, end_, cols_ = 0, ocs_ = 0, ics_ = 0;
  bool has_in_ = false, same_strides_ = false;
  std::uint64_t bytes_ = 0, band_bytes_ = 0;  // the whole output; the band (in place)
  Walk<2> rows_;  // (out, in) byte strides of the batch and row dimensions
};

void int32_field(const Rules& r, const char* field, std::int64_t v) {
  if (v < kInt32Min || v > kInt32Max)
    r.fail(field, "must fit a 32-bit signed INT (-2147483648 to 2147483647), got " + std::to_string(v));
}
}  // namespace

void check(const Rules& r, const DiagonalMatrixDesc& d) {
  r.count_in_range("output.sizes", d.output.ndim(), 2, 8, "dimensions: rows and columns after any batches");
  r.scalar_dtype("value", d.value, "output", d.output);
  int32_field(r, "diagonal_fill_begin", d.diagonal_fill_begin);
  int32_field(r, "diagonal_fill_end", d.diagonal_fill_end);
  if (d.input) {
    r.same_dtype("input", *d.input, "output", d.output);
    r.same_sizes("input", *d.input, "output", d.output);
  }
  r.output_no_alias("output", d.output);
  std::vector<Rules::Named> tensors{{"output", &d.output, false}};
  if (d.input) tensors.insert(tensors.begin(), {"input", &*d.input, false});
  // SPEC 4: the older DIAGONAL_MATRIX holds one diagonal (Offset), a FLOAT value and no input.
  if (d.input) {
    r.level_rules(kTable1, tensors, "input", "an input needs DIAGONAL_MATRIX1,");
  } else if (d.diagonal_fill_end != d.diagonal_fill_begin + 1) {
    r.level_rules(kTable1, tensors, "diagonal_fill_end",
                  "a band other than one diagonal (end != begin + 1) needs DIAGONAL_MATRIX1,");
  } else if (!Rules::fits_float32(d.value)) {
    r.level_rules(kTable1, tensors, "value", "a value that FLOAT32 does not hold exactly needs DIAGONAL_MATRIX1,");
  } else {
    r.level_rules(kTable0, tensors);
  }
}

void lower(Lowering& l, const DiagonalMatrixDesc& d) {
  const View out = l.out(d.output);
  l.own_elements(out);
  if (!d.input) {
    l.p.steps.push_back(std::make_unique<BandStep>(out, nullptr, d.value, d.diagonal_fill_begin, d.diagonal_fill_end));
    return;
  }
  const View in = l.in(*d.input);
  l.allow_inplace(in, out);
  l.p.steps.push_back(std::make_unique<BandStep>(out, &in, d.value, d.diagonal_fill_begin, d.diagonal_fill_end));
}

// Call: one output and an optional input (out's dtype and shape); parameters: the value's bits
// (a Scalar of the output's dtype), begin, end.
DiagonalMatrixDesc from_call(const Call& c, const DiagonalMatrixDesc*) {
  c.expect(0, 1, 3);
  if (c.n_in > 1) throw ValidationError("functional call: wrong number of arrays or parameters for the operator");
  const TensorDesc out = c.out_desc(0);
  DiagonalMatrixDesc d{out, Scalar{out.dtype(), static_cast<std::uint64_t>(c.prm[0])}, c.prm[1], c.prm[2], {}};
  if (c.n_in == 1) d.input = c.in_desc(0, out.ndim());
  return d;
}

}  // namespace strided::detail

namespace strided {

void diagonal_fill(const ArrayView& out, std::int64_t begin, std::int64_t end, const Scalar& value,
                   const ConstArrayView* input) {
  const detail::CallArray o = detail::call_array(out, "out");
  if (o.ndim < 2)
    throw ValidationError("out: needs at least 2 dimensions (rows and columns), got " + std::to_string(o.ndim));
  if (begin < detail::kInt32Min || begin > detail::kInt32Max || end < detail::kInt32Min || end > detail::kInt32Max)
    throw ValidationError(std::string(begin < detail::kInt32Min || begin > detail::kInt32Max ? "begin" : "end") +
                          ": must fit a 32-bit signed INT, got " +
                          std::to_string(begin < detail::kInt32Min || begin > detail::kInt32Max ? begin : end));
  const std::int64_t prm[3] = {static_cast<std::int64_t>(value.cast(o.dtype).value_bits()), begin, end};
  if (input) {
    const detail::CallArray a = detail::call_array(*input, "input");
    detail::expect_shape(a, std::vector<std::int64_t>(o.shape, o.shape + o.ndim), "input");
    if (a.dtype != o.dtype)
      throw ValidationError("input.dtype: must equal out.dtype (" + std::string(dtype_enum_name(o.dtype)) + "), got " +
                            std::string(dtype_enum_name(a.dtype)));
    if (detail::is_empty(o)) return;
    return detail::call(detail::op_code<DiagonalMatrixDesc>(), prm, 3, &a, 1, &o, 1);
  }
  if (detail::is_empty(o)) return;
  detail::call(detail::op_code<DiagonalMatrixDesc>(), prm, 3, nullptr, 0, &o, 1);
}

namespace {
// k clamped to the columns and rows, where the band's result stops changing, so that any k
// fits DirectML's INT.
std::int64_t clamp_k(const ConstArrayView& x, std::int64_t k) {
  const std::int64_t rows = x.sizes.size() >= 2 ? x.sizes[x.sizes.size() - 2] : 0;
  const std::int64_t cols = x.sizes.empty() ? 0 : x.sizes.back();
  return std::clamp<std::int64_t>(k, std::max(-rows, detail::kInt32Min + 1), std::min(cols, detail::kInt32Max - 1));
}
}  // namespace

void eye(const ArrayView& out, std::int64_t k, const Scalar& value) {
  k = clamp_k(out, k);
  diagonal_fill(out, k, k + 1, value);
}

void trilu(const ConstArrayView& x, const ArrayView& out, std::int64_t k, bool upper) {
  k = clamp_k(x, k);
  const Scalar zero{x.dtype, 0};
  // triu keeps col - row >= k (zeros where t < k); tril keeps t <= k (zeros where t >= k + 1).
  if (upper) diagonal_fill(out, detail::kInt32Min, k, zero, &x);
  else diagonal_fill(out, k + 1, detail::kInt32Max, zero, &x);
}
void triu(const ConstArrayView& x, const ArrayView& out, std::int64_t k) { trilu(x, out, k, true); }
void tril(const ConstArrayView& x, const ArrayView& out, std::int64_t k) { trilu(x, out, k, false); }

}  // namespace strided
