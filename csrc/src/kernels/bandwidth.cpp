// Bandwidth references for the benchmarks (not used by the engine itself).
#include <cstring>

#include "plan/copy_plan.hpp"

#ifdef STRIDED_HAVE_OPENMP
#include <omp.h>
#endif

namespace strided::detail {
namespace {
template <class F> void split_bytes(std::size_t bytes, int threads, F f) {
#ifdef STRIDED_HAVE_OPENMP
  if (threads > 1) {
#pragma omp parallel num_threads(threads)
    {
      const std::size_t t = static_cast<std::size_t>(omp_get_thread_num());
      const std::size_t n = static_cast<std::size_t>(omp_get_num_threads());
      const std::size_t lo = bytes / n * t / 64 * 64, hi = t + 1 == n ? bytes : bytes / n * (t + 1) / 64 * 64;
      f(lo, hi);
    }
    return;
  }
#else
  (void)threads;
#endif
  f(std::size_t{0}, bytes);
}
}  // namespace

void parallel_memcpy(void* dst, const void* src, std::size_t bytes, int threads) {
  split_bytes(bytes, threads, [&](std::size_t lo, std::size_t hi) {
    std::memcpy(static_cast<char*>(dst) + lo, static_cast<const char*>(src) + lo, hi - lo);
  });
}

void parallel_memset(void* dst, int value, std::size_t bytes, int threads) {
  split_bytes(bytes, threads,
              [&](std::size_t lo, std::size_t hi) { std::memset(static_cast<char*>(dst) + lo, value, hi - lo); });
}

}  // namespace strided::detail
