// Internal runtime: thread count resolution, SIMD target selection.
#pragma once
#ifdef STRIDED_ISA_TU
#error \
    "a per-ISA translation unit (*_avx2.cpp, *_avx512.cpp) must not include this header: its inline functions and templates would be emitted as weak symbols compiled for that ISA (see scripts/check_isa_symbols.sh)"
#endif
#include <cstdint>
#include <string>
#include <vector>

namespace strided::detail {

/// Threads to use for an operator compiled with `requested` (0 = global setting).
int resolve_threads(int requested) noexcept;

/// Threads worth using for `bytes` of traffic given `max_threads` (grain-size rule: about
/// 64 KiB of work per thread at least).
int threads_for_bytes(std::uint64_t bytes, int max_threads) noexcept;

}  // namespace strided::detail
