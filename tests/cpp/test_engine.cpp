// Copy engine: the planner's canonical form (size-1 dims, flipping, ordering, coalescing, kernel
// choice) and every kernel of every SIMD target this CPU runs, against a slow reference loop.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "plan/copy_plan.hpp"
#include "plan/plan_detail.hpp"
#include "runtime/runtime.hpp"
#include "runtime/simd.hpp"
#include "strided/error.hpp"

using namespace strided::detail;
using V = std::vector<std::int64_t>;

namespace {

const CopyPlan& P(const std::shared_ptr<const CopyPlan>& p) { return *p; }

// The reference: one element at a time, in index order.
void ref_rec(std::size_t w, const V& sizes, std::size_t k, const std::byte* s, const V& ss, std::byte* d, const V& ds) {
  if (k == sizes.size()) {
    std::memcpy(d, s, w);
    return;
  }
  for (std::int64_t i = 0; i < sizes[k]; ++i) ref_rec(w, sizes, k + 1, s + i * ss[k], ss, d + i * ds[k], ds);
}
void ref_copy(std::size_t w, const V& sizes, const std::byte* s, const V& ss, std::byte* d, const V& ds) {
  ref_rec(w, sizes, 0, s, ss, d, ds);
}

void test_planner() {
  // Contiguous 3-D coalesces to one run.
  auto p = plan_copy(4, {2, 3, 4}, {48, 16, 4}, {48, 16, 4});
  CHECK(P(p).kind == KernelKind::Contig);
  CHECK_EQ(P(p).inner.n, 24);
  CHECK_EQ(P(p).row.n, 1);
  CHECK_EQ(P(p).outer.n, 0);
  CHECK(P(p).same_strides);
  // Size-1 dims vanish (their strides are irrelevant).
  p = plan_copy(4, {1, 5, 1}, {999, 4, -7}, {0, 4, 3});
  CHECK(P(p).kind == KernelKind::Contig);
  CHECK_EQ(P(p).inner.n, 5);
  // A negative destination stride is flipped and the base offsets moved.
  p = plan_copy(4, {5}, {4}, {-4});
  CHECK(P(p).kind == KernelKind::Reverse);
  CHECK_EQ(P(p).src_off, 16);
  CHECK_EQ(P(p).dst_off, -16);
  CHECK_EQ(P(p).inner.ss, -4);
  CHECK_EQ(P(p).inner.ds, 4);
  // Both negative: flipped into a plain contiguous copy.
  p = plan_copy(2, {3, 7}, {-14, -2}, {-14, -2});
  CHECK(P(p).kind == KernelKind::Contig);
  CHECK_EQ(P(p).inner.n, 21);
  CHECK_EQ(P(p).src_off, -40);
  CHECK_EQ(P(p).dst_off, -40);
  // Dimensions sorted by destination stride: a permuted contiguous destination coalesces.
  p = plan_copy(1, {4, 3}, {1, 4}, {1, 4});
  CHECK(P(p).kind == KernelKind::Contig);
  CHECK_EQ(P(p).inner.n, 12);
  // Broadcast of a scalar, of a row.
  p = plan_copy(8, {6, 9}, {0, 0}, {72, 8});
  CHECK(P(p).kind == KernelKind::Fill);
  CHECK_EQ(P(p).inner.n, 54);
  p = plan_copy(8, {6, 9}, {0, 8}, {72, 8});
  CHECK(P(p).kind == KernelKind::Contig);
  CHECK_EQ(P(p).row.ss, 0);
  // Transpose: the source is fast along the destination's slow dimension.
  p = plan_copy(4, {8, 16}, {4, 32}, {64, 4});
  CHECK(P(p).kind == KernelKind::Transpose);
  CHECK_EQ(P(p).inner.n, 16);
  CHECK_EQ(P(p).row.n, 8);
  CHECK_EQ(P(p).row.ss, 4);
  // Transpose with a batch dimension: the source's fast dim moves next to the inner one.
  p = plan_copy(4, {3, 8, 16}, {512, 4, 32}, {512, 64, 4});
  CHECK(P(p).kind == KernelKind::Transpose);
  CHECK_EQ(P(p).outer.n, 1);
  CHECK_EQ(P(p).row.ss, 4);
  // Gather: strided source, contiguous destination.
  p = plan_copy(4, {10}, {12}, {4});
  CHECK(P(p).kind == KernelKind::Gather);
  // A short contiguous run becomes one wider element (2 x float32 -> 8 bytes).
  p = plan_copy(4, {100, 2}, {16, 4}, {8, 4});
  CHECK(P(p).kind == KernelKind::Gather);
  CHECK_EQ(P(p).width(), std::size_t{8});
  CHECK_EQ(P(p).inner.n, 100);
  // Strided destination: the generic loop.
  p = plan_copy(4, {10}, {4}, {8});
  CHECK(P(p).kind == KernelKind::Generic);
  // Widths the kernels do not know are byte runs of a smaller power of two.
  p = plan_copy(16, {10}, {16}, {16});
  CHECK(P(p).kind == KernelKind::Contig);
  CHECK_EQ(P(p).width(), std::size_t{8});
  CHECK_EQ(P(p).inner.n, 20);
  p = plan_copy(3, {10}, {6}, {3});
  CHECK_EQ(P(p).width(), std::size_t{1});
  // Empty and 0-d.
  CHECK(P(plan_copy(4, {3, 0, 2}, {0, 0, 0}, {0, 0, 0})).empty);
  CHECK_EQ(copy_plan_bytes(P(plan_copy(4, {3, 0, 2}, {0, 0, 0}, {0, 0, 0}))), std::uint64_t{0});
  p = plan_copy(8, {}, {}, {});
  CHECK(P(p).kind == KernelKind::Contig);
  CHECK_EQ(P(p).inner.n, 1);
  CHECK_EQ(copy_plan_bytes(P(p)), std::uint64_t{8});
  // Misuse is an error, not a crash.
  CHECK_THROWS(plan_copy(4, {2, 2}, {4}, {4, 8}), strided::ValidationError, "same length");
  CHECK_THROWS(plan_copy(0, {2}, {4}, {4}), strided::ValidationError, "width");
  CHECK_THROWS(plan_copy(4, {-1}, {4}, {4}), strided::ValidationError, "negative");
}

void test_zero_dst_stride() {
  // Rejected by validation upstream; the engine must still stay in bounds (last write wins).
  std::vector<std::uint32_t> src{1, 2, 3, 4, 5}, dst{0, 0};
  copy_strided(4, {5}, src.data(), {4}, dst.data(), {0}, 1);
  CHECK_EQ(dst[0], 5u);
  CHECK_EQ(dst[1], 0u);
  copy_strided(4, {5, 2}, src.data(), {4, 0}, dst.data(), {0, 4}, 2);
  CHECK_EQ(dst[1], 5u);
}

// A random view over a buffer: a permuted, padded, sometimes reversed/broadcast layout.
struct RandView {
  V strides;
  std::int64_t offset = 0;  // byte offset of element 0
  std::size_t bytes = 0;    // buffer size needed
};

RandView random_view(std::mt19937_64& rng, const V& sizes, std::int64_t w, bool allow_zero) {
  const std::size_t n = sizes.size();
  std::vector<std::size_t> perm(n);
  for (std::size_t i = 0; i < n; ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  RandView v;
  v.strides.assign(n, 0);
  std::int64_t step = w * (rng() % 4 == 0 ? 1 + static_cast<std::int64_t>(rng() % 3) : 1);
  for (std::size_t k = n; k-- > 0;) {  // perm.back() is the fastest dimension
    const std::size_t d = perm[k];
    if (allow_zero && rng() % 6 == 0) {
      v.strides[d] = 0;
      continue;
    }
    v.strides[d] = step;
    step *= sizes[d] + (rng() % 4 == 0 ? static_cast<std::int64_t>(rng() % 3) : 0);
    if (step == 0) step = w;
  }
  std::int64_t lo = 0, hi = 0;
  for (std::size_t d = 0; d < n; ++d) {
    if (rng() % 4 == 0) v.strides[d] = -v.strides[d];
    const std::int64_t span = (sizes[d] > 0 ? sizes[d] - 1 : 0) * v.strides[d];
    (span < 0 ? lo : hi) += span;
  }
  v.offset = -lo;
  v.bytes = static_cast<std::size_t>(hi - lo + w);
  return v;
}

int run_random_cases(std::mt19937_64& rng, int cases) {
  int bad = 0;
  const std::size_t widths[] = {1, 2, 4, 8, 3, 16};
  for (int c = 0; c < cases; ++c) {
    const std::size_t w = widths[rng() % 6];
    const std::size_t nd = rng() % 6;
    V sizes(nd);
    for (auto& s : sizes) s = rng() % 10 == 0 ? 0 : static_cast<std::int64_t>(1 + rng() % (rng() % 3 == 0 ? 40 : 6));
    const RandView sv = random_view(rng, sizes, static_cast<std::int64_t>(w), true);
    const RandView dv = random_view(rng, sizes, static_cast<std::int64_t>(w), false);
    std::vector<std::byte> src(sv.bytes), a(dv.bytes), b(dv.bytes);
    for (auto& x : src) x = static_cast<std::byte>(rng());
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = b[i] = static_cast<std::byte>(i * 7);
    const int threads = 1 + static_cast<int>(rng() % 2);
    copy_strided(w, sizes, src.data() + sv.offset, sv.strides, a.data() + dv.offset, dv.strides, threads);
    ref_copy(w, sizes, src.data() + sv.offset, sv.strides, b.data() + dv.offset, dv.strides);
    if (a != b) {
      ++bad;
      std::string what = "w=" + std::to_string(w) + " sizes=";
      for (auto s : sizes) what += std::to_string(s) + ",";
      what += " plan: " + P(plan_copy(w, sizes, sv.strides, dv.strides)).describe();
      check::fail(__FILE__, __LINE__, what);
      if (bad > 5) break;
    }
  }
  return bad;
}

// Big cases reach the threaded split, the streaming stores and whole micro-tiles. The stream
// threshold is lowered to 1 MiB for them, so that a few MiB reach the streaming kernels (at the
// default 16 MiB these copies took most of this test's time, 81 s under qemu-user).
constexpr std::int64_t kStream = std::int64_t{1} << 20;

void big_case(std::size_t w, const V& sizes, const V& ss, const V& ds, std::size_t src_bytes, std::size_t dst_bytes,
              std::int64_t soff, std::int64_t doff, bool stream) {
  std::vector<std::byte> src(src_bytes), a(dst_bytes), b(dst_bytes);
  std::mt19937_64 rng(42);
  for (auto& x : src) x = static_cast<std::byte>(rng());
  ref_copy(w, sizes, src.data() + soff, ss, b.data() + doff, ds);
  const bool planned_stream = plan_copy(w, sizes, ss, ds)->stream;
  CHECK_EQ(planned_stream, stream);  // the path this case is for
  for (const std::string& t : simd_supported()) {
    set_simd(t);
    for (int threads : {1, 2}) {
      std::fill(a.begin(), a.end(), std::byte{0});
      copy_strided(w, sizes, src.data() + soff, ss, a.data() + doff, ds, threads);
      if (a == b) ++check::passes();
      else
        check::fail(__FILE__, __LINE__,
                    "big case, target " + t + ", threads " + std::to_string(threads) + ": " +
                        P(plan_copy(w, sizes, ss, ds)).describe());
    }
  }
}

void test_big() {
  const std::uint64_t old = stream_threshold();
  set_stream_threshold(static_cast<std::uint64_t>(kStream));
  for (std::int64_t w : {1, 2, 4, 8}) {
    const auto W = static_cast<std::size_t>(w);
    // transpose (R x C source, C x R destination), sizes not multiples of the tiles; streamed
    // for w >= 4 (tiled transposes stream from half the threshold)
    const std::int64_t R = 303, C = 517;
    const auto rc = static_cast<std::size_t>(R * C * w);
    big_case(W, {C, R}, {w, C * w}, {R * w, w}, rc, rc, 0, 0, w >= 4);
    // a streaming transpose, destination at an odd offset
    const std::int64_t n = w == 1 ? 1205 : w == 2 ? 853 : w == 4 ? 603 : 427;
    const auto nn = static_cast<std::size_t>(n * n * w);
    big_case(W, {n, n}, {w, n * w}, {n * w, w}, nn, nn + 64, 0, w, true);
    // streaming reversal / contiguous / broadcast, and a gather (not streamed), unaligned starts
    const std::int64_t m = (kStream + kStream / 16) / w + 3;
    const auto mb = static_cast<std::size_t>(m * w + 64);
    big_case(W, {m}, {-w}, {w}, mb, mb, (m - 1) * w + w, w, true);
    big_case(W, {m}, {w}, {w}, mb, mb, w, 3 * w, true);
    big_case(W, {m}, {0}, {w}, mb, mb, 0, w, true);
    big_case(W, {m / 2}, {2 * w}, {w}, mb, mb, 0, w, false);
    // rows of a split (contiguous runs in an outer loop); streamed for w = 8 only
    big_case(W, {750, 250}, {500 * w, w}, {250 * w, w}, static_cast<std::size_t>(750 * 500 * w),
             static_cast<std::size_t>(750 * 250 * w), 0, 0, w == 8);
  }
  set_stream_threshold(old);
}

// Transposes with a narrow side of C elements (NCHW <-> NHWC with C channels: the interleave and
// de-interleave kernels, fixed and run-time counts, on every target this CPU runs, NEON under
// qemu-user), n pixels around the vector blocks, the output one element past an aligned start.
void test_narrow_once() {
  for (std::int64_t w : {1, 2, 4, 8}) {
    for (std::int64_t c : {3, 5, 8, 9, 12, 15, 16, 17, 20, 24, 31, 33, 36, 40, 48, 63}) {
      for (std::int64_t n : {1, 15, 16, 17, 63, 64, 65, 129, 1000}) {
        const auto W = static_cast<std::size_t>(w), bytes = static_cast<std::size_t>(n * c * w);
        std::vector<std::byte> src(bytes), a(bytes + 2 * W), b(bytes + 2 * W);
        std::mt19937_64 rng(static_cast<std::uint64_t>(w * 1000 + c));
        for (auto& x : src) x = static_cast<std::byte>(rng());
        for (bool to_planes : {false, true}) {
          // to_planes: pixels (n x c) into planes (c x n); else planes into pixels
          const V sizes = to_planes ? V{c, n} : V{n, c};
          const V ss = to_planes ? V{w, c * w} : V{w, n * w};
          const V ds = to_planes ? V{n * w, w} : V{c * w, w};
          std::fill(b.begin(), b.end(), std::byte{0});
          ref_copy(W, sizes, src.data(), ss, b.data() + W, ds);
          for (const std::string& t : simd_supported()) {
            set_simd(t);
            std::fill(a.begin(), a.end(), std::byte{0});
            copy_strided(W, sizes, src.data(), ss, a.data() + W, ds, 1);
            if (a == b) ++check::passes();
            else
              check::fail(__FILE__, __LINE__,
                          "narrow, target " + t + ", w " + std::to_string(w) + ", c " + std::to_string(c) + ", n " +
                              std::to_string(n) + (to_planes ? ", to planes" : ", to pixels"));
          }
        }
      }
    }
  }
}

// test_narrow_once stored normally, then with every output streamed.
void test_narrow() {
  const std::uint64_t old = stream_threshold();
  for (std::uint64_t threshold : {old, std::uint64_t{0}}) {
    set_stream_threshold(threshold);
    test_narrow_once();
  }
  set_stream_threshold(old);
}

// Pixels into planes a multiple of 4 KiB apart (plane_runs: planes that crowd into one L1 set),
// with channel counts past the tile edge and pixel counts past the runs' windows, the planes
// padded (the padding must stay as it was), the output one element past an aligned start; and
// pixel rows of 4 KiB (a 2-D transpose whose source rows crowd too: the strips start on a source
// line), the source 0, 1 and 16 bytes' worth of elements into a line.
void test_crowded_planes() {
  const std::int64_t counts[4][4] = {{64, 80, 128, 4096}, {32, 40, 64, 2048}, {16, 24, 40, 1024}, {16, 20, 32, 512}};
  for (int k = 0; k < 4; ++k) {
    const std::int64_t w = std::int64_t{1} << k;
    for (std::int64_t c : counts[k]) {
      for (std::int64_t n : {255, 256, 300, 1000, 2048}) {
        if (c * w == 4096 && n > 300) continue;  // (2-D: a few sizes are enough)
        const std::int64_t pitch = (n * w + 4095) / 4096 * 4096;  // bytes between planes
        const auto W = static_cast<std::size_t>(w), bytes = static_cast<std::size_t>(n * c * w);
        const auto out = static_cast<std::size_t>(c * pitch + 2 * w);
        std::vector<std::byte> src(bytes + 64), a(out), b(out);
        std::mt19937_64 rng(static_cast<std::uint64_t>(w * 1000 + c + n));
        for (auto& x : src) x = static_cast<std::byte>(rng());
        const V sizes{c, n}, ss{w, c * w}, ds{pitch, w};
        for (std::int64_t soff : {std::int64_t{0}, w, std::int64_t{16}}) {
          if (soff == 16 && c * w != 4096) continue;
          const std::byte* sp = src.data() + (64 - reinterpret_cast<std::uintptr_t>(src.data()) % 64) % 64 + soff;
          if (sp + bytes > src.data() + src.size()) sp -= 64;
          for (std::size_t i = 0; i < out; ++i) b[i] = static_cast<std::byte>(i * 7);
          ref_copy(W, sizes, sp, ss, b.data() + W, ds);
          for (const std::string& t : simd_supported()) {
            set_simd(t);
            for (int threads : {1, 2}) {
              for (std::size_t i = 0; i < out; ++i) a[i] = static_cast<std::byte>(i * 7);
              copy_strided(W, sizes, sp, ss, a.data() + W, ds, threads);
              if (a == b) ++check::passes();
              else
                check::fail(__FILE__, __LINE__,
                            "crowded planes, target " + t + ", w " + std::to_string(w) + ", c " + std::to_string(c) +
                                ", n " + std::to_string(n) + ", source offset " + std::to_string(soff) + ", threads " +
                                std::to_string(threads));
            }
          }
        }
      }
    }
  }
}

// The CPUID/XCR0 detection (MSVC's) agrees with the compiler's (__builtin_cpu_supports, used by
// this GCC/clang build) on this machine.
void test_cpu_detection() {
  const auto has = [](const std::vector<std::string>& v, const char* name) {
    return std::find(v.begin(), v.end(), name) != v.end();
  };
  const X86Targets t = x86_targets_from_cpuid();
  if (has(simd_compiled(), "avx2")) {
    CHECK_EQ(t.avx2, has(simd_supported(), "avx2"));
    if (has(simd_compiled(), "avx512")) CHECK_EQ(t.avx512, has(simd_supported(), "avx512"));  // STRIDED_AVX512
    std::printf("cpuid: avx2 %d, avx512 %d\n", int(t.avx2), int(t.avx512));
  } else {
    CHECK(!t.avx2 && !t.avx512);
  }
}

}  // namespace

int main() {
  // Teams of the size asked for, however busy the machine (ctest runs tests side by side, and the
  // busy-machine watch would cap them to one thread).
  set_team_watch(false);
  test_cpu_detection();
  test_planner();
  test_zero_dst_stride();
  for (const std::string& t : simd_supported()) {
    set_simd(t);
    std::mt19937_64 rng(1234);
    std::printf("target %s: %d random cases mismatched\n", t.c_str(), run_random_cases(rng, 3000));
  }
  test_big();
  test_narrow();
  test_crowded_planes();
  CHECK_THROWS(set_simd("nope"), strided::ValidationError, "not a compiled SIMD target");
  return check::report();
}
