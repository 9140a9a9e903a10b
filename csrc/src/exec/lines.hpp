// Kernel steps that write their output in address order through the kernel table's line writer
// (kernels/kernels.hpp LineWriter): padding's rows and unfold's rows.
#pragma once
#include <algorithm>
#include <cstdint>
#include <initializer_list>

#include "exec/program.hpp"
#include "kernels/kernels.hpp"
#include "plan/copy_plan.hpp"
#include "runtime/simd.hpp"

namespace strided::detail {

/// Writes `bytes_` at its output (a packed view, `out_`'s element 0 first): the range is split on
/// 64-byte lines of the address space, and each part's rows(w) writes the runs that meet
/// [w.lo, w.hi) in increasing address order through the kernel table's rows(); then finish()
/// fills up to w.hi with the pattern (the `width_`-byte element `value_` repeated from the output's
/// start) when `fill_`, and stores the last line.
class LinesStep : public KernelStep {
 public:
  Work work(const ExecContext& c) const override {
    const auto o0 = reinterpret_cast<std::uintptr_t>(out_.out_ptr(c));
    // memcpy-class work: the copy planner's grain (its work_bytes) in time
    return {static_cast<std::int64_t>(o0 & 63) + bytes_, 64, static_cast<std::uint64_t>(bytes_) / 4};
  }
  void part(const ExecContext& c, std::int64_t lo, std::int64_t hi) const override {
    std::byte* dst = out_.out_ptr(c);
    const auto o0 = reinterpret_cast<std::uintptr_t>(dst);
    const std::uintptr_t base = o0 & ~std::uintptr_t{63};
    LineWriter w;
    for (unsigned j = 0; j < 128; ++j) {  // the value's byte for every address mod 64 (twice)
      const auto b = (j + 64 - (o0 & 63)) % static_cast<unsigned>(width_);
      w.pattern[j] = static_cast<std::byte>(value_ >> (8 * b));
    }
    w.lo = w.at = reinterpret_cast<std::byte*>(std::max(base + static_cast<std::uintptr_t>(lo), o0));
    w.hi = reinterpret_cast<std::byte*>(base + static_cast<std::uintptr_t>(hi));
    w.stream = static_cast<std::uint64_t>(bytes_) >= stream_threshold();
    w.fill_gaps = fill_;
    rows(c, w, dst);
    active_kernels().finish(w);
  }

 protected:
  LinesStep(const View& out, std::initializer_list<const View*> ins, std::int64_t bytes, std::uint64_t value,
            std::int64_t width, bool fill)
      : KernelStep(out, ins), out_(out.where), bytes_(bytes), value_(value), width_(width), fill_(fill) {}
  /// Writes the runs that meet [w.at, w.hi) of the output at `dst`.
  virtual void rows(const ExecContext& c, LineWriter& w, std::byte* dst) const = 0;

  Operand out_;
  std::int64_t bytes_;
  std::uint64_t value_;
  std::int64_t width_;
  bool fill_;
};

}  // namespace strided::detail
