// The copy kernels compiled for the scalar target (see kernels_impl.hpp).
#define STRIDED_KNS k_scalar
#include "kernels/kernels_impl.hpp"

namespace strided::detail {
const KernelTable& kernels_scalar() noexcept {
  static const KernelTable t = k_scalar::make_table("scalar");
  return t;
}
}  // namespace strided::detail
