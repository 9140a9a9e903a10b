// MaxUnpooling's scatter (index/steps.hpp FlatScatterGeom): out[p] = in[c] for p = idx[c], a
// row-major position over all of out. Each thread owns a range of positions and walks every
// index in row-major order, writing those in its range: duplicates resolve to the last in that
// order whatever the thread count, and a value is tested at the very read that uses it.
#include "index/steps.hpp"

namespace strided::detail::index {
namespace {

using FlatScatterFn = void (*)(const FlatScatterGeom&, const std::byte* idx, const std::byte* in, std::byte* out,
                               std::int64_t lo, std::int64_t hi);

template <class I, std::size_t W>
void flat_scatter_part(const FlatScatterGeom& g, const std::byte* idx, const std::byte* in, std::byte* out,
                       std::int64_t lo, std::int64_t hi) {
  using T = uint_of_t<W>;
  const auto ulo = static_cast<std::uint64_t>(lo), uhi = static_cast<std::uint64_t>(hi);  // hi <= M
  const std::int64_t si = g.items.inner_st(0), sx = g.items.inner_st(1);
  for_runs(g.items, 0, g.items.count(), [&](const std::array<std::int64_t, 2>& off, std::int64_t j0, std::int64_t j1) {
    const std::byte* ip = idx + off[0];
    const std::byte* xp = in + off[1];
    for (std::int64_t j = j0; j < j1; ++j) {
      // Out of range here only when another thread changed the index after the check: skipped.
      const std::uint64_t p = index_pos(load<I>(ip + j * si), g.M);
      if (p < ulo || p >= uhi) continue;
      std::int64_t dst = 0;
      if (g.n == 1) {
        dst = static_cast<std::int64_t>(p) * g.out_st[0];
      } else {
        std::uint64_t r = p;
        for (int d = g.n - 1; d >= 0; --d) {
          const auto ud = static_cast<std::size_t>(d);
          const auto sz = static_cast<std::uint64_t>(g.out_size[ud]);
          dst += static_cast<std::int64_t>(r % sz) * g.out_st[ud];
          r /= sz;
        }
      }
      store<T>(out + dst, load<T>(xp + j * sx));
    }
  });
}

class FlatScatterStep final : public Step {
 public:
  FlatScatterStep(const FlatScatterGeom& g, FlatScatterFn fn, IndexCheckSpec check)
      : g_(g), fn_(fn), check_(std::move(check)) {}
  void check(const ExecContext& c) const override { check_indices(check_, c); }
  void run(const ExecContext& c) const override {
    const std::byte* idx = g_.idx.in_ptr(c);
    const std::byte* in = g_.in.in_ptr(c);
    std::byte* out = g_.out.out_ptr(c);
    const auto items = static_cast<std::uint64_t>(g_.items.count());
    const int nt = threads_for_bytes(items * (itemsize(g_.idx_dtype) + 2 * itemsize(g_.dtype)), c.threads);
    parallel_ranges(g_.M, nt, 64, [&](std::int64_t lo, std::int64_t hi) { fn_(g_, idx, in, out, lo, hi); });
  }

 private:
  FlatScatterGeom g_;
  FlatScatterFn fn_;
  IndexCheckSpec check_;
};

}  // namespace

std::unique_ptr<const Step> make_flat_scatter_step(const FlatScatterGeom& g, IndexCheckSpec check) {
  const FlatScatterFn fn = dispatch_index(g.idx_dtype, [&](auto itag) {
    using I = decltype(itag);
    return dispatch_width(itemsize(g.dtype),
                          [](auto w) -> FlatScatterFn { return &flat_scatter_part<I, decltype(w)::value>; });
  });
  return std::make_unique<FlatScatterStep>(g, fn, std::move(check));
}

}  // namespace strided::detail::index
