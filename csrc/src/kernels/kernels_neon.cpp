// The copy kernels compiled for the neon target (AArch64; see kernels_impl.hpp).
#define STRIDED_KNS k_neon
#define STRIDED_KERNELS_NEON 1
#include "kernels/kernels_impl.hpp"

namespace strided::detail {
const KernelTable& kernels_neon() noexcept {
  static const KernelTable t = k_neon::make_table("neon");
  return t;
}
}  // namespace strided::detail
