// SIMD target selection for the copy kernels: chosen once (CPUID, or STRIDED_SIMD to force a
// target), switchable for tests through set_simd().
#pragma once
#ifdef STRIDED_ISA_TU
#error \
    "a per-ISA translation unit (*_avx2.cpp, *_avx512.cpp) must not include this header: its inline functions and templates would be emitted as weak symbols compiled for that ISA (see scripts/check_isa_symbols.sh)"
#endif
#include <atomic>
#include <string>
#include <vector>

#include "kernels/kernels.hpp"

namespace strided::detail {

/// The kernel table in use (one relaxed atomic load).
const KernelTable& active_kernels() noexcept;

/// Targets compiled into this build, best last: "scalar", "avx2", "avx512".
std::vector<std::string> simd_compiled();
/// Compiled targets this CPU can run.
std::vector<std::string> simd_supported();
/// Name of the target in use.
std::string simd_active();
/// Switch target; throws ValidationError when `name` is unknown, not compiled, or not supported
/// by this CPU.
void set_simd(const std::string& name);

/// Which x86 targets this CPU and OS run, from CPUID and XCR0 (the detection used with MSVC;
/// GCC and clang builds use __builtin_cpu_supports, and ctest test_engine compares the two).
/// Both false in a build without the x86 targets.
struct X86Targets {
  bool avx2 = false;
  bool avx512 = false;
};
X86Targets x86_targets_from_cpuid() noexcept;

}  // namespace strided::detail
