// The view algebra (view/view.hpp).
#include "view/view.hpp"

#include <algorithm>
#include <string>

#include "strided/error.hpp"

namespace strided::detail {
namespace {
std::size_t u(int axis) { return static_cast<std::size_t>(axis); }
[[noreturn]] void bad(const char* what) { throw ValidationError(std::string("internal view algebra: ") + what); }
}  // namespace

View narrow(View v, int axis, std::int64_t start, std::int64_t n) {
  v.where.offset += start * v.strides[u(axis)];
  v.sizes[u(axis)] = n;
  return v;
}

View subsample(View v, const std::vector<std::int64_t>& start, const std::vector<std::int64_t>& step,
               const std::vector<std::int64_t>& sizes) {
  for (std::size_t i = 0; i < v.sizes.size(); ++i) {
    v.where.offset += start[i] * v.strides[i];
    v.strides[i] = sizes[i] == 1 ? 0 : v.strides[i] * step[i];
  }
  v.sizes = sizes;
  return v;
}

View flip(View v, int axis) {
  v.where.offset += (v.sizes[u(axis)] - 1) * v.strides[u(axis)];
  v.strides[u(axis)] = -v.strides[u(axis)];
  return v;
}

View permute(const View& v, const std::vector<int>& order) {
  if (order.size() != v.sizes.size()) bad("permute needs one axis per dimension");
  View r = v;
  std::vector<bool> seen(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (order[i] < 0 || u(order[i]) >= order.size() || seen[u(order[i])]) bad("permute order is not a permutation");
    seen[u(order[i])] = true;
    r.sizes[i] = v.sizes[u(order[i])];
    r.strides[i] = v.strides[u(order[i])];
  }
  return r;
}

View broadcast(const View& v, const std::vector<std::int64_t>& sizes) {
  if (sizes.size() < v.sizes.size()) bad("broadcast to fewer dimensions");
  View r = v;
  const std::size_t lead = sizes.size() - v.sizes.size();
  r.sizes = sizes;
  r.strides.assign(sizes.size(), 0);
  for (std::size_t i = 0; i < v.sizes.size(); ++i) {
    if (v.sizes[i] == sizes[lead + i]) r.strides[lead + i] = v.sizes[i] == 1 ? 0 : v.strides[i];
    else if (v.sizes[i] != 1) bad("broadcast of a dimension that is neither 1 nor the target size");
  }
  return r;
}

View split_dim(View v, int axis, std::int64_t inner) {
  const std::int64_t n = v.sizes[u(axis)];
  if (inner < 1 || n % inner) bad("split_dim size does not divide");
  const std::int64_t st = v.strides[u(axis)];
  v.sizes[u(axis)] = n / inner;
  v.strides[u(axis)] = st * inner;
  v.sizes.insert(v.sizes.begin() + axis + 1, inner);
  v.strides.insert(v.strides.begin() + axis + 1, st);
  return v;
}

View merge(View v, int axis) {
  const std::size_t a = u(axis), b = a + 1;
  if (b >= v.sizes.size()) bad("merge past the last dimension");
  std::int64_t st = v.strides[b];
  if (v.sizes[b] == 1) st = v.strides[a];
  else if (v.sizes[a] != 1 && v.strides[a] != v.sizes[b] * v.strides[b])
    bad("merge of dimensions that are not contiguous");
  v.sizes[a] *= v.sizes[b];
  v.strides[a] = st;
  v.sizes.erase(v.sizes.begin() + static_cast<std::ptrdiff_t>(b));
  v.strides.erase(v.strides.begin() + static_cast<std::ptrdiff_t>(b));
  return v;
}

View diagonal(View v, int a, int b, std::int64_t k) {
  if (a == b) bad("diagonal of one dimension");
  const std::int64_t na = v.sizes[u(a)], nb = v.sizes[u(b)];
  const std::int64_t ra = k >= 0 ? 0 : -k, rb = k >= 0 ? k : 0;  // the first element (ra, rb)
  const std::int64_t len = std::max<std::int64_t>(0, std::min(na - ra, nb - rb));
  v.where.offset += ra * v.strides[u(a)] + rb * v.strides[u(b)];
  v.sizes[u(a)] = len;
  v.strides[u(a)] += v.strides[u(b)];
  v.sizes.erase(v.sizes.begin() + b);
  v.strides.erase(v.strides.begin() + b);
  return v;
}

View windows(View v, int axis, std::int64_t size, std::int64_t step, std::int64_t dilation) {
  const std::int64_t n = v.sizes[u(axis)], span = (size - 1) * dilation + 1;
  if (size < 1 || step < 1 || dilation < 1 || span > n) bad("windows do not fit the dimension");
  const std::int64_t st = v.strides[u(axis)];
  v.sizes[u(axis)] = 1 + (n - span) / step;
  v.strides[u(axis)] = st * step;
  v.sizes.push_back(size);
  v.strides.push_back(st * dilation);
  return v;
}

bool align_right(View& v, int rank) {
  const int n = v.ndim();
  if (rank < 0) return false;
  if (n > rank) {
    for (int d = 0; d < n - rank; ++d)
      if (v.sizes[u(d)] != 1) return false;
    v.sizes.erase(v.sizes.begin(), v.sizes.begin() + (n - rank));
    v.strides.erase(v.strides.begin(), v.strides.begin() + (n - rank));
  } else if (n < rank) {
    v.sizes.insert(v.sizes.begin(), u(rank - n), 1);
    v.strides.insert(v.strides.begin(), u(rank - n), 0);
  }
  return true;
}

}  // namespace strided::detail
