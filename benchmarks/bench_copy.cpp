// Copy-engine benchmarks in C++ (google-benchmark; built with -DSTRIDED_BUILD_BENCHMARKS=ON when
// the library is found). Same cases as bench_copy.py, without Python in the way: a parallel
// memcpy reference and the engine's plans run directly. Bytes/second counts bytes written.
//   build/<dir>/bench_copy --benchmark_enable_random_interleaving=true --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "plan/copy_plan.hpp"
#include "runtime/simd.hpp"

namespace {

using strided::detail::CopyPlan;
using V = std::vector<std::int64_t>;
constexpr std::int64_t kBytes = std::int64_t{128} << 20;
constexpr int kThreads = 2;

struct Buffers {
  std::vector<unsigned char> a, o;
  Buffers() : a(static_cast<std::size_t>(kBytes)), o(static_cast<std::size_t>(kBytes)) {
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<unsigned char>(i * 31);
    std::memset(o.data(), 0, o.size());
  }
};
Buffers& buffers() {
  static Buffers b;
  return b;
}

void BM_memcpy(benchmark::State& state) {
  auto& b = buffers();
  const int threads = static_cast<int>(state.range(0));
  for (auto _ : state) strided::detail::parallel_memcpy(b.o.data(), b.a.data(), b.o.size(), threads);
  state.SetBytesProcessed(state.iterations() * kBytes);
}
BENCHMARK(BM_memcpy)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_memset(benchmark::State& state) {
  auto& b = buffers();
  for (auto _ : state) strided::detail::parallel_memset(b.o.data(), 0, b.o.size(), kThreads);
  state.SetBytesProcessed(state.iterations() * kBytes);
}
BENCHMARK(BM_memset)->UseRealTime()->Unit(benchmark::kMillisecond);

// One engine case: a plan over (sizes, byte strides) with the source at byte offset `soff`.
void run_case(benchmark::State& state, std::size_t w, const V& sizes, const V& ss, const V& ds, std::int64_t soff,
              std::int64_t bytes) {
  auto& b = buffers();
  const auto plan = strided::detail::plan_copy(w, sizes, ss, ds);
  for (auto _ : state) strided::detail::run_copy(*plan, b.a.data() + soff, b.o.data(), kThreads);
  state.SetBytesProcessed(state.iterations() * bytes);
}

void BM_contig(benchmark::State& s) { run_case(s, 1, {kBytes}, {1}, {1}, 0, kBytes); }
// split of a 4096 x 8192 float32 along axis 1: one half (rows of 16 KiB out of 32 KiB)
void BM_split_half(benchmark::State& s) { run_case(s, 4, {4096, 4096}, {32768, 4}, {16384, 4}, 0, kBytes / 2); }
// slice with contiguous inner runs: 4096 x 7680 window of a 4096 x 8192 float32
void BM_slice_window(benchmark::State& s) {
  run_case(s, 4, {4096, 7680}, {32768, 4}, {30720, 4}, 1024, 4096LL * 7680 * 4);
}
void BM_reverse_f32(benchmark::State& s) { run_case(s, 4, {4096, 8192}, {32768, -4}, {32768, 4}, 32764, kBytes); }
void BM_reverse_u8(benchmark::State& s) { run_case(s, 1, {4096, 32768}, {32768, -1}, {32768, 1}, 32767, kBytes); }
void BM_transpose_f32(benchmark::State& s) { run_case(s, 4, {8192, 4096}, {4, 32768}, {16384, 4}, 0, kBytes); }
void BM_transpose_u8(benchmark::State& s) { run_case(s, 1, {16384, 8192}, {1, 16384}, {8192, 1}, 0, kBytes); }
void BM_transpose_f64(benchmark::State& s) { run_case(s, 8, {4096, 4096}, {8, 32768}, {32768, 8}, 0, kBytes); }
void BM_broadcast_row(benchmark::State& s) { run_case(s, 4, {4096, 8192}, {0, 4}, {32768, 4}, 0, kBytes); }
void BM_broadcast_col(benchmark::State& s) { run_case(s, 4, {4096, 8192}, {4, 0}, {32768, 4}, 0, kBytes); }
void BM_gather_stride2(benchmark::State& s) { run_case(s, 4, {kBytes / 8}, {8}, {4}, 0, kBytes / 2); }
BENCHMARK(BM_contig)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_split_half)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_slice_window)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_reverse_f32)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_reverse_u8)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_transpose_f32)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_transpose_u8)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_transpose_f64)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_broadcast_row)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_broadcast_col)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_gather_stride2)->UseRealTime()->Unit(benchmark::kMillisecond);

// Tiny: the cost of run_copy itself on a 4x4 float32 reversal (plan made once).
void BM_tiny_reverse_4x4(benchmark::State& state) {
  float a[16], o[16];
  for (int i = 0; i < 16; ++i) a[i] = static_cast<float>(i);
  const auto plan = strided::detail::plan_copy(4, {4, 4}, {16, -4}, {16, 4});
  for (auto _ : state) {
    strided::detail::run_copy(*plan, a + 3, o, kThreads);
    benchmark::DoNotOptimize(o);
  }
}
BENCHMARK(BM_tiny_reverse_4x4);

void BM_plan_4d(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(strided::detail::plan_copy(4, {2, 3, 4, 5}, {240, 80, 4, 16}, {240, 80, 20, 4}));
}
BENCHMARK(BM_plan_4d);

}  // namespace
