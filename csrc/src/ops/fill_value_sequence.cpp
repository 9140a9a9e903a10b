// FillValueSequence (DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC): out[c] = start + k * delta, k the
// row-major index of c (SPEC 3.13). One generate step: each thread takes a contiguous range of k
// and writes it run by run along the innermost dimension with the kernel table's sequence kernel
// (the generate family), which computes every element from k (not by accumulation), so the result
// never depends on the thread count or the SIMD target.
#include <algorithm>
#include <cstdint>

#include "exec/call.hpp"
#include "kernels/kernels.hpp"
#include "ops/op.hpp"
#include "plan/copy_plan.hpp"
#include "plan/nest.hpp"
#include "runtime/simd.hpp"

namespace strided::detail {
namespace {
constexpr std::array<LevelRow, 3> kTable{{{FeatureLevel::FL_2_1, 4, 4, kEightTypes},
                                          {FeatureLevel::FL_4_0, 1, 8, kEightTypes},
                                          {FeatureLevel::FL_5_0, 1, 8, kTenTypes}}};

class SequenceStep final : public KernelStep {
 public:
  SequenceStep(const View& out, const Scalar& start, const Scalar& delta)
      : KernelStep(out, {}), out_(out.where), dtype_(out.dtype) {
    for (int i = 0; i < out.ndim(); ++i)
      walk_.push(out.sizes[static_cast<std::size_t>(i)], {out.strides[static_cast<std::size_t>(i)]});
    walk_.coalesce();  // drops size-1 dimensions and merges contiguous ones: row-major order kept
    p_ = {start.value_bits(), delta.value_bits(), start.to_double(), delta.to_double()};
  }
  Work work(const ExecContext&) const override {
    const std::int64_t total = walk_.count();
    return {total, 64, static_cast<std::uint64_t>(total) * itemsize(dtype_)};
  }
  void part(const ExecContext& c, std::int64_t lo, std::int64_t hi) const override {
    const KernelTable& kt = active_kernels();
    const SequenceKernel seq = kt.sequence[static_cast<int>(dtype_)];
    const auto W = static_cast<std::int64_t>(itemsize(dtype_));
    std::byte* base = out_.out_ptr(c);
    const std::int64_t total = walk_.count(), s0 = walk_.inner_st(0);
    // A large contiguous output is made in L1-sized blocks and streamed out by the kernel
    // table's line writer (non-temporal stores skip reading the output's lines first; one
    // fence per part: the copy kernel's fence per 8 KiB block cost 25%, 4.7 against 3.7 ms
    // for 128 MiB of int64).
    if (s0 == W && walk_.n == 1 && static_cast<std::uint64_t>(total * W) >= stream_threshold()) {
      const std::int64_t block = 8192 / W;
      alignas(64) std::byte buf[8192];
      LineWriter w;
      w.lo = w.at = base + lo * s0;
      w.hi = base + hi * s0;
      w.stream = true;
      w.fill_gaps = false;
      for (std::int64_t k = lo; k < hi; k += block) {
        const std::int64_t n = std::min(block, hi - k);
        seq(buf, W, k, n, p_);
        kt.rows(w, buf, 1, 0, base + k * s0, 0, n * s0, nullptr);
      }
      kt.finish(w);
      return;
    }
    std::int64_t k = lo;
    for_runs(walk_, lo, hi, [&](const std::array<std::int64_t, 1>& off, std::int64_t j0, std::int64_t j1) {
      seq(base + off[0] + j0 * s0, s0, k, j1 - j0, p_);
      k += j1 - j0;
    });
  }

 private:
  Operand out_;
  DataType dtype_;
  Walk<1> walk_;
  SequenceParams p_{};
};
}  // namespace

void check(const Rules& r, const FillValueSequenceDesc& d) {
  r.scalar_dtype("value_start", d.value_start, "output", d.output);
  r.scalar_dtype("value_delta", d.value_delta, "output", d.output);
  r.output_no_alias("output", d.output);
  r.level_rules(kTable, {{"output", &d.output, false}});
}

void lower(Lowering& l, const FillValueSequenceDesc& d) {
  const View out = l.out(d.output);
  l.own_elements(out);
  l.p.steps.push_back(std::make_unique<SequenceStep>(out, d.value_start, d.value_delta));
}

// Call: one output; parameters: the start's and the delta's bits (Scalars of the output's dtype).
FillValueSequenceDesc from_call(const Call& c, const FillValueSequenceDesc*) {
  c.expect(0, 1, 2);
  const TensorDesc out = c.out_desc(0);
  return {out, Scalar{out.dtype(), static_cast<std::uint64_t>(c.prm[0])},
          Scalar{out.dtype(), static_cast<std::uint64_t>(c.prm[1])}};
}

}  // namespace strided::detail

namespace strided {

void fill_sequence(const ArrayView& out, const Scalar& start, const Scalar& delta) {
  const detail::CallArray o = detail::call_array(out, "out");
  if (detail::is_empty(o)) return;
  const std::int64_t bits[2] = {static_cast<std::int64_t>(start.cast(o.dtype).value_bits()),
                                static_cast<std::int64_t>(delta.cast(o.dtype).value_bits())};
  detail::call(detail::op_code<FillValueSequenceDesc>(), bits, 2, nullptr, 0, &o, 1);
}

}  // namespace strided
