// FillValueSequence (DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC): out[c] = start + k * delta, k the
// row-major index of c (SPEC 3.13). One generate step: each thread takes a contiguous range of k
// and writes it run by run along the innermost dimension, computing every element from k (not
// by accumulation), so the result never depends on the thread count.
#include <cstdint>
#include <type_traits>

#include <algorithm>

#include "elem/cast.hpp"
#include "exec/call.hpp"
#include "index/common.hpp"
#include "kernels/kernels.hpp"
#include "ops/op.hpp"
#include "plan/copy_plan.hpp"
#include "plan/nest.hpp"
#include "runtime/runtime.hpp"
#include "runtime/simd.hpp"

namespace strided::detail {
namespace {
constexpr std::array<LevelRow, 3> kTable{{{FeatureLevel::FL_2_1, 4, 4, kEightTypes},
                                          {FeatureLevel::FL_4_0, 1, 8, kEightTypes},
                                          {FeatureLevel::FL_5_0, 1, 8, kTenTypes}}};

// The value of element k. Integers: (start + k*delta) mod 2^64, whose low bits are SPEC's
// mod 2^bits. Floats: fl64(fl64(k*delta) + start), then one conversion (elem/cast.hpp): the
// product and the sum are separate statements so that no compiler fuses them into an FMA
// (ISO C++ mode contracts nothing across statements).
template <class T>
struct Sequence {
  static constexpr bool kInt = std::is_integral_v<T>;
  std::uint64_t istart = 0, idelta = 0;
  double fstart = 0, fdelta = 0;

  // Writes elements k0 .. k0+n-1 at p, p+s, ... (s bytes apart); a contiguous run gets a
  // constant stride, so the compiler vectorises it.
  void write(std::byte* p, std::int64_t s, std::int64_t k0, std::int64_t n) const {
    if (s == static_cast<std::int64_t>(sizeof(T))) run(p, std::integral_constant<std::int64_t, sizeof(T)>{}, k0, n);
    else run(p, s, k0, n);
  }
  template <class S>
  void run(std::byte* p, S s, std::int64_t k0, std::int64_t n) const {
    if constexpr (kInt) {
      // locals: stores through std::byte* could alias the members, which would stop vectorising
      const std::uint64_t d = idelta;
      std::uint64_t v = istart + static_cast<std::uint64_t>(k0) * d;  // then += delta: exact mod 2^64
      for (std::int64_t i = 0; i < n; ++i, v += d) index::store(p + i * s, static_cast<T>(v));
    } else {
      // k as k0 + i: exact in binary64 below 2^53, and an int32 i converts in vector registers
      const double k0d = static_cast<double>(k0), d = fdelta, st = fstart;
      for (std::int64_t i0 = 0; i0 < n; i0 += kChunk) {
        const auto m = static_cast<std::int32_t>(std::min<std::int64_t>(n - i0, kChunk));
        const double base = k0d + static_cast<double>(i0);
        std::byte* q = p + i0 * s;
        for (std::int32_t i = 0; i < m; ++i) {
          const double prod = (base + static_cast<double>(i)) * d;
          const double sum = prod + st;
          index::store(q + i * s, elem::cast_value<T>(sum));
        }
      }
    }
  }
  static constexpr std::int64_t kChunk = std::int64_t{1} << 30;
};

class SequenceStep final : public Step {
 public:
  SequenceStep(const View& out, const Scalar& start, const Scalar& delta) : out_(out.where), dtype_(out.dtype) {
    for (int i = 0; i < out.ndim(); ++i)
      walk_.push(out.sizes[static_cast<std::size_t>(i)], {out.strides[static_cast<std::size_t>(i)]});
    walk_.coalesce();  // drops size-1 dimensions and merges contiguous ones: row-major order kept
    istart_ = start.value_bits();
    idelta_ = delta.value_bits();
    fstart_ = start.to_double();
    fdelta_ = delta.to_double();
  }
  void run(const ExecContext& c) const override {
    elem::for_dtype(static_cast<int>(dtype_), [&](auto tag) {
      using T = decltype(tag);
      Sequence<T> g{};
      g.istart = istart_, g.idelta = idelta_, g.fstart = fstart_, g.fdelta = fdelta_;
      std::byte* base = out_.out_ptr(c);
      const std::int64_t total = walk_.count(), s0 = walk_.inner_st(0);
      const int threads = threads_for_bytes(static_cast<std::uint64_t>(total) * sizeof(T), c.threads);
      // A large contiguous output is made in L1-sized blocks and streamed out by the kernel
      // table's line writer (non-temporal stores skip reading the output's lines first; one
      // fence per part: the copy kernel's fence per 8 KiB block cost 25%, 4.7 against 3.7 ms
      // for 128 MiB of int64).
      constexpr std::int64_t kBlock = 8192 / sizeof(T);
      const bool stream = s0 == static_cast<std::int64_t>(sizeof(T)) && walk_.n == 1 &&
                          static_cast<std::uint64_t>(total) * sizeof(T) >= stream_threshold();
      parallel_ranges(total, threads, 64, [&](std::int64_t lo, std::int64_t hi) {
        if (stream) {
          const KernelTable& kt = active_kernels();
          alignas(64) T block[kBlock];
          LineWriter w;
          w.lo = w.at = base + lo * s0;
          w.hi = base + hi * s0;
          w.stream = true;
          w.fill_gaps = false;
          for (std::int64_t k = lo; k < hi; k += kBlock) {
            const std::int64_t n = std::min(kBlock, hi - k);
            g.write(reinterpret_cast<std::byte*>(block), sizeof(T), k, n);
            kt.rows(w, reinterpret_cast<const std::byte*>(block), 1, 0, base + k * s0, 0, n * s0, nullptr);
          }
          kt.finish(w);
          return;
        }
        std::int64_t k = lo;
        for_runs(walk_, lo, hi, [&](const std::array<std::int64_t, 1>& off, std::int64_t j0, std::int64_t j1) {
          g.write(base + off[0] + j0 * s0, s0, k, j1 - j0);
          k += j1 - j0;
        });
      });
    });
  }

 private:
  Operand out_;
  DataType dtype_;
  Walk<1> walk_;
  std::uint64_t istart_ = 0, idelta_ = 0;
  double fstart_ = 0, fdelta_ = 0;
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
