// The view algebra (view/view.hpp).
#include "view/view.hpp"

namespace strided::detail {

bool align_right(View& v, int rank) {
  const int n = v.ndim();
  if (rank < 0) return false;
  if (n > rank) {
    for (int d = 0; d < n - rank; ++d)
      if (v.sizes[static_cast<std::size_t>(d)] != 1) return false;
    v.sizes.erase(v.sizes.begin(), v.sizes.begin() + (n - rank));
    v.strides.erase(v.strides.begin(), v.strides.begin() + (n - rank));
  } else if (n < rank) {
    v.sizes.insert(v.sizes.begin(), static_cast<std::size_t>(rank - n), 1);
    v.strides.insert(v.strides.begin(), static_cast<std::size_t>(rank - n), 0);
  }
  return true;
}

}  // namespace strided::detail
