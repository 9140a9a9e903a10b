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
  // The axis-index family's entries are the avx2 table's: compiled for AVX-512 they ran ~6%
  // slower (an axis gather into out= by 8M int64 indices, one thread, Zen 5).
  static const KernelTable t = [] {
    KernelTable k = k_avx512::make_table("avx512");
    const KernelTable& a = kernels_avx2();
    for (int i = 0; i < kDtypeSlots; ++i) {
      k.minmax[i] = a.minmax[i];
      k.narrow[i][0] = a.narrow[i][0];
      k.narrow[i][1] = a.narrow[i][1];
    }
    k.gather_line[0] = a.gather_line[0];
    k.gather_line[1] = a.gather_line[1];
    k.gather_line_u16 = a.gather_line_u16;
    return k;
  }();
  return t;
}
}  // namespace strided::detail
