// The view algebra (view/view.hpp) against index arithmetic done by hand: each transform's view
// is read element by element from a buffer holding 0, 1, 2, ... and compared with the values
// numpy's equivalent (slicing, transpose, broadcast_to, reshape, diagonal, sliding windows)
// would give.
#include <cstdint>
#include <numeric>
#include <vector>

#include "check.hpp"
#include "strided/error.hpp"
#include "view/view.hpp"

using namespace strided;
using namespace strided::detail;

namespace {

constexpr std::int64_t F = sizeof(float);

View packed(std::vector<std::int64_t> sizes) {
  View v;
  v.dtype = DataType::FLOAT32;
  v.sizes = sizes;
  v.strides.assign(sizes.size(), F);
  for (std::size_t i = sizes.size(); i-- > 1;) v.strides[i - 1] = v.strides[i] * sizes[i];
  return v;
}

// The view's elements in row-major order of its coordinates (values of an iota buffer).
std::vector<float> read(const View& v) {
  static std::vector<float> buf = [] {
    std::vector<float> b(4096);
    std::iota(b.begin(), b.end(), 0.0f);
    return b;
  }();
  std::vector<float> out;
  std::vector<std::int64_t> c(v.sizes.size(), 0);
  std::int64_t total = 1;
  for (auto s : v.sizes) total *= s;
  for (std::int64_t n = 0; n < total; ++n) {
    std::int64_t off = v.where.offset;
    for (std::size_t i = 0; i < c.size(); ++i) off += c[i] * v.strides[i];
    out.push_back(buf[static_cast<std::size_t>(off / F)]);
    for (std::size_t i = c.size(); i-- > 0;) {
      if (++c[i] < v.sizes[i]) break;
      c[i] = 0;
    }
  }
  return out;
}

float at3(std::int64_t i, std::int64_t j, std::int64_t k) { return static_cast<float>(i * 12 + j * 4 + k); }  // 2x3x4

void narrow_flip_permute() {
  const View x = packed({2, 3, 4});
  std::vector<float> e;
  for (int i = 0; i < 2; ++i)
    for (int j = 1; j < 3; ++j)
      for (int k = 0; k < 4; ++k) e.push_back(at3(i, j, k));
  CHECK(read(narrow(x, 1, 1, 2)) == e);
  e.clear();
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 3; k >= 0; --k) e.push_back(at3(i, j, k));
  CHECK(read(flip(x, 2)) == e);
  e.clear();
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) e.push_back(at3(i, j, k));
  CHECK(read(permute(x, {2, 0, 1})) == e);
  CHECK_THROWS(permute(x, {0, 0, 1}), ValidationError, "not a permutation");
  e.clear();  // x[1, ::-2 from 2, 1:4:2] through subsample
  for (int j = 2; j >= 0; j -= 2)
    for (int k = 1; k < 4; k += 2) e.push_back(at3(1, j, k));
  CHECK(read(subsample(x, {1, 2, 1}, {1, -2, 2}, {1, 2, 2})) == e);
}

void broadcast_split_merge() {
  const View col = packed({3, 1});
  std::vector<float> e;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) e.push_back(static_cast<float>(j));
  CHECK(read(broadcast(col, {2, 3, 4})) == e);
  CHECK_THROWS(broadcast(col, {2, 4}), ValidationError, "broadcast");
  const View x = packed({2, 3, 4});
  const View s = split_dim(x, 2, 2);  // (2, 3, 2, 2): reshape keeps row-major order
  CHECK(s.sizes == (std::vector<std::int64_t>{2, 3, 2, 2}));
  std::vector<float> all(24);
  std::iota(all.begin(), all.end(), 0.0f);
  CHECK(read(s) == all);
  const View m = merge(x, 1);  // (2, 12)
  CHECK(m.sizes == (std::vector<std::int64_t>{2, 12}));
  CHECK(read(m) == all);
  CHECK_THROWS(merge(permute(x, {0, 2, 1}), 1), ValidationError, "not contiguous");
  CHECK_THROWS(split_dim(x, 1, 2), ValidationError, "does not divide");
}

void diagonal_and_windows() {
  const View x = packed({4, 5});  // x[i, j] = 5i + j
  CHECK(read(diagonal(x, 0, 1, 0)) == (std::vector<float>{0, 6, 12, 18}));
  CHECK(read(diagonal(x, 0, 1, 1)) == (std::vector<float>{1, 7, 13, 19}));
  CHECK(read(diagonal(x, 0, 1, -2)) == (std::vector<float>{10, 16}));
  CHECK(read(diagonal(x, 0, 1, 7)).empty());
  const View r = packed({10});
  // windows of 3 elements, dilation 2 (span 5), starting every 2: starts 0, 2, 4
  const View w = windows(r, 0, 3, 2, 2);
  CHECK(w.sizes == (std::vector<std::int64_t>{3, 3}));
  CHECK(read(w) == (std::vector<float>{0, 2, 4, 2, 4, 6, 4, 6, 8}));
  CHECK_THROWS(windows(r, 0, 6, 1, 2), ValidationError, "do not fit");
}

void align() {
  View v = packed({1, 1, 3});
  CHECK(align_right(v, 1) && v.sizes == (std::vector<std::int64_t>{3}));
  CHECK(align_right(v, 3) && v.sizes == (std::vector<std::int64_t>{1, 1, 3}) && v.strides[0] == 0);
  View w = packed({2, 3});
  CHECK(!align_right(w, 1));
}

}  // namespace

int main() {
  narrow_flip_permute();
  broadcast_split_merge();
  diagonal_and_windows();
  align();
  return check::report();
}
