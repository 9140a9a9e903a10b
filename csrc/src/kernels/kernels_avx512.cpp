// The copy kernels compiled for the avx512 target (see kernels_impl.hpp).
#define STRIDED_KNS k_avx512
#if defined(__GNUC__) && !defined(__clang__)
// GCC 12's AVX-512 headers start some intrinsics from _mm512_undefined_*(), which its own
// -Wuninitialized flags (a known false positive); nothing here reads uninitialised data.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "kernels/kernels_impl.hpp"

namespace strided::detail {
const KernelTable& kernels_avx512() noexcept {
  static const KernelTable t = k_avx512::make_table("avx512");
  return t;
}
}  // namespace strided::detail
