// Reference planner: correct and slow. REPLACED by the real engine (see issue 3).
#include <cstring>

#include "plan/copy_plan.hpp"

namespace strided::detail {

class CopyPlan {
 public:
  std::size_t width;
  std::vector<std::int64_t> sizes, src, dst;
};

std::shared_ptr<const CopyPlan> plan_copy(std::size_t width, const std::vector<std::int64_t>& sizes,
                                          const std::vector<std::int64_t>& src_strides,
                                          const std::vector<std::int64_t>& dst_strides) {
  auto p = std::make_shared<CopyPlan>();
  p->width = width;
  p->sizes = sizes;
  p->src = src_strides;
  p->dst = dst_strides;
  return p;
}

void run_copy(const CopyPlan& p, const void* src, void* dst, int /*threads*/) {
  const std::size_t n = p.sizes.size();
  for (auto s : p.sizes)
    if (s == 0) return;
  std::vector<std::int64_t> idx(n, 0);
  const auto* s = static_cast<const std::byte*>(src);
  auto* d = static_cast<std::byte*>(dst);
  while (true) {
    std::int64_t so = 0, doff = 0;
    for (std::size_t k = 0; k < n; ++k) {
      so += idx[k] * p.src[k];
      doff += idx[k] * p.dst[k];
    }
    std::memmove(d + doff, s + so, p.width);
    std::size_t k = n;
    while (k > 0) {
      --k;
      if (++idx[k] < p.sizes[k]) break;
      idx[k] = 0;
      if (k == 0) return;
    }
    if (n == 0) return;
  }
}

std::uint64_t copy_plan_bytes(const CopyPlan& p) noexcept {
  std::uint64_t b = p.width;
  for (auto s : p.sizes) b *= static_cast<std::uint64_t>(s);
  return b;
}

void copy_strided(std::size_t width, const std::vector<std::int64_t>& sizes, const void* src,
                  const std::vector<std::int64_t>& src_strides, void* dst,
                  const std::vector<std::int64_t>& dst_strides, int threads) {
  run_copy(*plan_copy(width, sizes, src_strides, dst_strides), src, dst, threads);
}

}  // namespace strided::detail
