// Copy-engine benchmarks in C++ (google-benchmark; built with -DSTRIDED_BUILD_BENCHMARKS=ON when
// the library is found). Same cases as bench_copy.py, without Python in the way: a parallel
// memcpy reference and the engine's plans run directly. Bytes/second counts bytes written.
//   build/<dir>/bench_copy --benchmark_enable_random_interleaving=true --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "plan/copy_plan.hpp"
#include "runtime/simd.hpp"

#if defined(STRIDED_BENCH_DNNL)
#include <omp.h>

#include <oneapi/dnnl/dnnl.hpp>
#endif

namespace {

using strided::detail::CopyPlan;
using V = std::vector<std::int64_t>;
constexpr std::int64_t kBytes = std::int64_t{128} << 20;
constexpr int kThreads = 2;

// Thread counts of the memcpy and blocked-layout rows: STRIDED_BENCH_THREADS="1,2,16" (for a
// many-core machine), else 2 and 1.
std::vector<int> thread_counts() {
  std::vector<int> t;
  if (const char* e = std::getenv("STRIDED_BENCH_THREADS"))
    for (const char* p = e; *p;) {
      char* end = nullptr;
      const long v = std::strtol(p, &end, 10);
      if (end == p) break;
      if (v > 0) t.push_back(static_cast<int>(v));
      p = *end == ',' ? end + 1 : end;
    }
  return t.empty() ? std::vector<int>{kThreads, 1} : t;
}

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
void thread_args(benchmark::internal::Benchmark* b) {
  for (const int t : thread_counts()) b->Arg(t);
  b->UseRealTime()->Unit(benchmark::kMillisecond);
}
BENCHMARK(BM_memcpy)->Apply(thread_args);

void BM_memset(benchmark::State& state) {
  auto& b = buffers();
  for (auto _ : state) strided::detail::parallel_memset(b.o.data(), 0, b.o.size(), kThreads);
  state.SetBytesProcessed(state.iterations() * kBytes);
}
BENCHMARK(BM_memset)->UseRealTime()->Unit(benchmark::kMillisecond);

// One engine case: a plan over (sizes, byte strides) with the source at byte offset `soff`.
void run_case(benchmark::State& state, std::size_t w, const V& sizes, const V& ss, const V& ds, std::int64_t soff,
              std::int64_t bytes, int threads = kThreads) {
  auto& b = buffers();
  const auto plan = strided::detail::plan_copy(w, sizes, ss, ds);
  for (auto _ : state) strided::detail::run_copy(*plan, b.a.data() + soff, b.o.data(), threads);
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

// ---- blocked layouts (issue 14): NCHW <-> nChw16c / nChw8c of an (8, 64, 128, 128) float32,
// 32 MiB, strided's plan beside oneDNN's reorder (same shape and thread count) where oneDNN was
// found at configure time (STRIDED_BENCH_DNNL). Arguments: block (16, 8), threads (2, and 1: on
// a loaded machine the 2-thread rows can wait out other processes' time slices).
constexpr std::int64_t kN = 8, kC = 64, kH = 128, kW = 128, kHW = kH * kW, kLayoutBytes = kN * kC * kHW * 4;

// (n, C/cb, h*w, cb) in both layouts: byte strides of NCHW and of nChw<cb>c.
V nchw_strides(std::int64_t cb) { return {kC * kHW * 4, cb * kHW * 4, 4, kHW * 4}; }
V blocked_strides(std::int64_t cb) { return {kC * kHW * 4, kHW * cb * 4, cb * 4, 4}; }
V blocked_sizes(std::int64_t cb) { return {kN, kC / cb, kHW, cb}; }

void BM_to_blocked(benchmark::State& s) {
  const std::int64_t cb = s.range(0);
  run_case(s, 4, blocked_sizes(cb), nchw_strides(cb), blocked_strides(cb), 0, kLayoutBytes,
           static_cast<int>(s.range(1)));
}
void BM_from_blocked(benchmark::State& s) {
  const std::int64_t cb = s.range(0);
  run_case(s, 4, blocked_sizes(cb), blocked_strides(cb), nchw_strides(cb), 0, kLayoutBytes,
           static_cast<int>(s.range(1)));
}
void layout_args(benchmark::internal::Benchmark* b) {
  for (const int t : thread_counts())
    for (const int cb : {16, 8}) b->Args({cb, t});
  b->ArgNames({"block", "threads"})->UseRealTime()->Unit(benchmark::kMillisecond);
}
BENCHMARK(BM_to_blocked)->Apply(layout_args);
BENCHMARK(BM_from_blocked)->Apply(layout_args);

#if defined(STRIDED_BENCH_DNNL)
// oneDNN's reorder between the same buffers (its OpenMP team set to the same thread count).
void dnnl_reorder(benchmark::State& state, bool to_blocked) {
  using tag = dnnl::memory::format_tag;
  auto& b = buffers();
  omp_set_num_threads(static_cast<int>(state.range(1)));
  const tag blocked = state.range(0) == 16 ? tag::nChw16c : tag::nChw8c;
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream st(eng);
  const dnnl::memory::dims dims{kN, kC, kH, kW};
  const dnnl::memory::desc nchw(dims, dnnl::memory::data_type::f32, tag::nchw);
  const dnnl::memory::desc blk(dims, dnnl::memory::data_type::f32, blocked);
  dnnl::memory src(to_blocked ? nchw : blk, eng, b.a.data()), dst(to_blocked ? blk : nchw, eng, b.o.data());
  dnnl::reorder r(src, dst);
  for (auto _ : state) {
    r.execute(st, src, dst);
    st.wait();
  }
  state.SetBytesProcessed(state.iterations() * kLayoutBytes);
}
void BM_dnnl_to_blocked(benchmark::State& s) { dnnl_reorder(s, true); }
void BM_dnnl_from_blocked(benchmark::State& s) { dnnl_reorder(s, false); }
BENCHMARK(BM_dnnl_to_blocked)->Apply(layout_args);
BENCHMARK(BM_dnnl_from_blocked)->Apply(layout_args);
#endif

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
