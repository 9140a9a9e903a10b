// Run-time choice of the kernels' SIMD target (DESIGN.md: per-ISA translation units behind a
// function-pointer table, picked once; highway: never build for the host CPU only, test every target).
#include "runtime/simd.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "strided/error.hpp"

#if defined(STRIDED_HAVE_X86_SIMD) && defined(_MSC_VER)
#include <immintrin.h>  // _xgetbv
#include <intrin.h>     // __cpuidex
#elif defined(STRIDED_HAVE_X86_SIMD) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#endif

namespace strided::detail {

#if defined(STRIDED_HAVE_X86_SIMD)
// CPUID and XCR0 read directly: what MSVC offers (it has no __builtin_cpu_supports). A target
// needs every extension its translation unit is compiled for (CMakeLists.txt: AVX2 + FMA + BMI
// + BMI2 + F16C; AVX-512 F/BW/VL/DQ on top) and the OS saving the registers (XCR0: YMM for AVX2;
// opmask, ZMM_Hi256 and Hi16_ZMM for AVX-512).
X86Targets x86_targets_from_cpuid() noexcept {
  std::uint32_t r1[4] = {}, r7[4] = {};  // eax, ebx, ecx, edx
  std::uint64_t xcr0 = 0;
#if defined(_MSC_VER)
  int r[4];
  __cpuidex(r, 0, 0);
  const std::uint32_t max_leaf = static_cast<std::uint32_t>(r[0]);
  __cpuidex(r, 1, 0);
  for (int i = 0; i < 4; ++i) r1[i] = static_cast<std::uint32_t>(r[i]);
  if (max_leaf >= 7) {
    __cpuidex(r, 7, 0);
    for (int i = 0; i < 4; ++i) r7[i] = static_cast<std::uint32_t>(r[i]);
  }
  if (r1[2] & (1u << 27)) xcr0 = _xgetbv(0);  // OSXSAVE: XGETBV is available
#else
  const std::uint32_t max_leaf = __get_cpuid_max(0, nullptr);
  __cpuid_count(1, 0, r1[0], r1[1], r1[2], r1[3]);
  if (max_leaf >= 7) __cpuid_count(7, 0, r7[0], r7[1], r7[2], r7[3]);
  if (r1[2] & (1u << 27)) {
    std::uint32_t lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));  // _xgetbv needs -mxsave
    xcr0 = (std::uint64_t{hi} << 32) | lo;
  }
#endif
  const auto bit = [](std::uint32_t reg, int b) { return ((reg >> b) & 1u) != 0; };
  const bool ymm = (xcr0 & 0x6) == 0x6, zmm = (xcr0 & 0xE6) == 0xE6;
  X86Targets t;
  t.avx2 = ymm && bit(r1[2], 28) && bit(r1[2], 12) && bit(r1[2], 29) &&  // AVX, FMA, F16C
           bit(r7[1], 5) && bit(r7[1], 3) && bit(r7[1], 8);               // AVX2, BMI, BMI2
  t.avx512 = t.avx2 && zmm && bit(r7[1], 16) && bit(r7[1], 30) &&  // AVX512F, BW
             bit(r7[1], 31) && bit(r7[1], 17);                     // VL, DQ
  return t;
}
#else
X86Targets x86_targets_from_cpuid() noexcept { return {}; }
#endif

namespace {

struct Target {
  const char* name;
  const KernelTable& (*table)() noexcept;
  bool (*supported)() noexcept;
};

bool always() noexcept { return true; }
#if defined(STRIDED_HAVE_X86_SIMD) && defined(_MSC_VER)
bool has_avx2() noexcept {
  static const bool yes = x86_targets_from_cpuid().avx2;
  return yes;
}
[[maybe_unused]] bool has_avx512() noexcept {  // unused without STRIDED_HAVE_AVX512
  static const bool yes = x86_targets_from_cpuid().avx512;
  return yes;
}
#elif defined(STRIDED_HAVE_X86_SIMD)
bool has_avx2() noexcept {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2");
}
[[maybe_unused]] bool has_avx512() noexcept {  // unused without STRIDED_HAVE_AVX512
  __builtin_cpu_init();  // libgcc also checks that the OS saves the ZMM state (XCR0)
  return has_avx2() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
}
#endif

const Target kTargets[] = {
    {"scalar", &kernels_scalar, &always},
#if defined(STRIDED_HAVE_NEON)
    {"neon", &kernels_neon, &always},
#endif
#if defined(STRIDED_HAVE_X86_SIMD)
    {"avx2", &kernels_avx2, &has_avx2},
#if defined(STRIDED_HAVE_AVX512)
    {"avx512", &kernels_avx512, &has_avx512},
#endif
#endif
};

const Target* find(const std::string& name) {
  for (const auto& t : kTargets)
    if (name == t.name) return &t;
  return nullptr;
}

const KernelTable* initial() noexcept {
  const Target* best = &kTargets[0];
  for (const auto& t : kTargets)
    if (t.supported()) best = &t;
  if (const char* env = std::getenv("STRIDED_SIMD")) {
    const std::string want(env);
    const Target* t = find(want);
    if (!want.empty() && want != "auto") {
      if (t == nullptr)
        std::fprintf(stderr, "strided: STRIDED_SIMD=%s is not a compiled target; using %s\n", env, best->name);
      else if (!t->supported())
        std::fprintf(stderr, "strided: STRIDED_SIMD=%s is not supported by this CPU; using %s\n", env, best->name);
      else best = t;
    }
  }
  return &best->table();
}

std::atomic<const KernelTable*>& active() {
  static std::atomic<const KernelTable*> a{initial()};
  return a;
}

}  // namespace

const KernelTable& active_kernels() noexcept { return *active().load(std::memory_order_relaxed); }

std::vector<std::string> simd_compiled() {
  std::vector<std::string> v;
  for (const auto& t : kTargets) v.emplace_back(t.name);
  return v;
}

std::vector<std::string> simd_supported() {
  std::vector<std::string> v;
  for (const auto& t : kTargets)
    if (t.supported()) v.emplace_back(t.name);
  return v;
}

std::string simd_active() { return active_kernels().name; }

void set_simd(const std::string& name) {
  const Target* t = find(name);
  if (t == nullptr) {
    std::string known;
    for (const auto& k : kTargets) known += (known.empty() ? "" : ", ") + std::string(k.name);
    throw ValidationError("set_simd.name: '" + name + "' is not a compiled SIMD target (compiled: " + known + ")");
  }
  if (!t->supported()) throw ValidationError("set_simd.name: this CPU does not support the '" + name + "' target");
  active().store(&t->table(), std::memory_order_relaxed);
}

}  // namespace strided::detail
