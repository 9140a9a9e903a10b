// The copy kernels compiled for the avx2 target (see kernels_impl.hpp).
#define STRIDED_KNS k_avx2
#include "kernels/kernels_impl.hpp"

namespace strided::detail {
const KernelTable& kernels_avx2() noexcept {
  static const KernelTable t = k_avx2::make_table("avx2");
  return t;
}
}  // namespace strided::detail
