// Run-time choice of the kernels' SIMD target (DESIGN.md: per-ISA translation units behind a
// function-pointer table, picked once; highway: never build for the host CPU only, test every target).
#include "runtime/simd.hpp"

#include <cstdio>
#include <cstdlib>

#include "strided/error.hpp"

namespace strided::detail {
namespace {

struct Target {
  const char* name;
  const KernelTable& (*table)() noexcept;
  bool (*supported)() noexcept;
};

bool always() noexcept { return true; }
#if defined(STRIDED_HAVE_X86_SIMD)
bool has_avx2() noexcept {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2");
}
bool has_avx512() noexcept {
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
    {"avx512", &kernels_avx512, &has_avx512},
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
