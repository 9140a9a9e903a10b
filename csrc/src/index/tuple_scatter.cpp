// ScatterND: out = in, then every index tuple's slice of updates is written (or combined) in
// row-major order of the tuples. Threads never share an output element: with large slices each
// thread owns a part of every slice; otherwise each thread owns a range of target positions
// and walks all tuples in order, skipping those aimed elsewhere. Either way duplicates are
// combined by one thread in order, whatever the thread count.
#include "index/steps.hpp"

namespace strided::detail::index {
namespace {

using TupleScatterFn = void (*)(const TupleScatterGeom&, const std::byte* idx, const std::byte* upd, std::byte* out,
                                std::int64_t tlo, std::int64_t thi, std::int64_t slo, std::int64_t shi);

template <class I, class Op>
void tuple_scatter_part(const TupleScatterGeom& g, const std::byte* idx, const std::byte* upd, std::byte* out,
                        std::int64_t tlo, std::int64_t thi, std::int64_t slo, std::int64_t shi) {
  using T = typename Op::type;
  const std::int64_t Q = g.slice.count();
  const bool whole = slo == 0 && shi == Q;
  const std::int64_t su = g.slice.inner_st(0), so = g.slice.inner_st(1);
  for_runs(g.tuples, 0, g.tuples.count(),
           [&](const std::array<std::int64_t, 2>& off, std::int64_t j0, std::int64_t j1) {
             for (std::int64_t j = j0; j < j1; ++j) {
               const std::byte* x = idx + off[0] + j * g.tuples.inner_st(0);
               std::int64_t dst = 0, lin = 0;
               bool bad = false;
               for (int c = 0; c < g.L; ++c) {
                 const auto uc = static_cast<std::size_t>(c);
                 const std::uint64_t p = index_pos(load<I>(x + c * g.comp_st), g.bound[uc]);
                 if (p >= static_cast<std::uint64_t>(g.bound[uc])) {
                   bad = true;
                   break;
                 }
                 const auto t = static_cast<std::int64_t>(p);
                 dst += t * g.out_st[uc];
                 lin += t * g.lin_st[uc];
               }
      // A tuple changed by another thread after the check is skipped (never written astray).
               if (bad || lin < tlo || lin >= thi) continue;
               const std::byte* u = upd + off[1] + j * g.tuples.inner_st(1);
               std::byte* o = out + dst;
               if (whole && Q == 1) {
                 store<T>(o, Op::apply(load<T>(o), load<T>(u)));
                 continue;
               }
               for_runs(g.slice, slo, shi, [&](const std::array<std::int64_t, 2>& s, std::int64_t a, std::int64_t b) {
                 const std::byte* us = u + s[0];
                 std::byte* os = o + s[1];
                 for (std::int64_t e = a; e < b; ++e)
                   store<T>(os + e * so, Op::apply(load<T>(os + e * so), load<T>(us + e * su)));
               });
             }
           });
}

class TupleScatterStep final : public Step {
 public:
  TupleScatterStep(const TupleScatterGeom& g, TupleScatterFn fn, IndexCheckSpec check, std::unique_ptr<const Step> copy,
                   bool same_view)
      : g_(g), fn_(fn), check_(std::move(check)), same_view_(same_view), copy_(std::move(copy)) {}
  void check(const ExecContext& c) const override { check_indices(check_, c); }
  void run(const ExecContext& c) const override {
    const std::byte* idx = g_.idx.in_ptr(c);
    const std::byte* upd = g_.upd.in_ptr(c);
    std::byte* out = g_.out.out_ptr(c);
    if (!(same_view_ && g_.in.in_ptr(c) == out)) copy_->run(c);
    const std::int64_t tuples = g_.tuples.count(), Q = g_.slice.count();
    const std::uint64_t bytes =
        static_cast<std::uint64_t>(tuples) * (static_cast<std::uint64_t>(g_.L) * itemsize(g_.idx_dtype) +
                                              2 * itemsize(g_.dtype) * static_cast<std::uint64_t>(Q));
    const int nt = threads_for_bytes(bytes, c.threads);
    if (nt > 1 && Q >= 1024) {
      parallel_ranges(Q, nt, 64,
                      [&](std::int64_t lo, std::int64_t hi) { fn_(g_, idx, upd, out, 0, g_.targets, lo, hi); });
    } else {
      parallel_ranges(g_.targets, nt, 1,
                      [&](std::int64_t lo, std::int64_t hi) { fn_(g_, idx, upd, out, lo, hi, 0, Q); });
    }
  }

 private:
  TupleScatterGeom g_;
  TupleScatterFn fn_;
  IndexCheckSpec check_;
  bool same_view_;
  std::unique_ptr<const Step> copy_;
};

}  // namespace

std::unique_ptr<const Step> make_tuple_scatter_step(const TupleScatterGeom& g, ScatterReduction r, IndexCheckSpec check,
                                                    std::unique_ptr<const Step> copy, bool same_view) {
  const TupleScatterFn fn = dispatch_index(g.idx_dtype, [&](auto itag) {
    using I = decltype(itag);
    return dispatch_reduction(r, g.dtype,
                              [&](auto op) -> TupleScatterFn { return &tuple_scatter_part<I, decltype(op)>; });
  });
  return std::make_unique<TupleScatterStep>(g, fn, std::move(check), std::move(copy), same_view);
}

}  // namespace strided::detail::index
