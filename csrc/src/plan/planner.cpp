// The copy planner and executor (DESIGN.md "One idea"): every operator's data movement is a
// strided copy planned here once per compile and run by run_copy on every execute.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>

#include "plan/copy_plan.hpp"
#include "plan/plan_detail.hpp"
#include "runtime/runtime.hpp"
#include "runtime/simd.hpp"
#include "strided/error.hpp"
#include "util/checked.hpp"
#include "util/isa.hpp"
#include "util/l1_sets.hpp"

#if defined(STRIDED_SSE2)
#include <immintrin.h>
#endif

namespace strided::detail {
namespace {

using i64 = std::int64_t;

// Outputs at least this large are written with non-temporal stores: they would not stay in
// the last-level cache anyway, and streaming saves the read-for-ownership of every line.
std::atomic<std::uint64_t> g_stream_bytes{std::uint64_t{16} << 20};

i64 iabs(i64 v) { return v < 0 ? -v : v; }

// Outermost first: larger destination stride outside, then larger source stride.
bool outer_before(const PlanDim& a, const PlanDim& b) {
  if (a.ds != b.ds) return a.ds > b.ds;
  return iabs(a.ss) > iabs(b.ss);
}

}  // namespace

const char* kernel_kind_name(KernelKind k) noexcept {
  switch (k) {
    case KernelKind::Contig: return "contig";
    case KernelKind::Fill: return "fill";
    case KernelKind::Reverse: return "reverse";
    case KernelKind::Gather: return "gather";
    case KernelKind::Generic: return "generic";
    case KernelKind::Transpose: return "transpose";
    default: return "?";
  }
}

std::string CopyPlan::describe() const {
  if (empty) return "empty";
  auto dim = [](const PlanDim& d) {
    return std::to_string(d.n) + ":" + std::to_string(d.ss) + ":" + std::to_string(d.ds);
  };
  std::string s = std::string(kernel_kind_name(kind)) + " w" + std::to_string(width()) + " inner=" + dim(inner) +
                  " row=" + dim(row) + " outer=[";
  for (int i = 0; i < outer.n; ++i) {
    const auto u = static_cast<std::size_t>(i);
    s += (i ? "," : "") + dim(PlanDim{outer.size[u], outer.st[0][u], outer.st[1][u]});
  }
  s += "] off=" + std::to_string(src_off) + ":" + std::to_string(dst_off);
  if (stream) s += " stream";
  if (from != to) s += " convert " + std::string(dtype_enum_name(from)) + "->" + std::string(dtype_enum_name(to));
  return s;
}

namespace {

// Steps 1-2 of every plan. 1. Size-1 dimensions do not move anything; a zero-size one means
// there is nothing to do (returns false). A destination stride 0 writes one element over and
// over: the last coordinate in row-major order is the one that stays (SPEC 3.0 rule 3), so only
// that one is moved. 2. Dimensions the destination walks backwards are flipped: the same set of
// element assignments, visited with increasing destination addresses.
bool collect_dims(const char* who, const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& src_strides,
                  const std::vector<std::int64_t>& dst_strides, CopyPlan& p, std::vector<PlanDim>& dims) {
  if (sizes.size() != src_strides.size() || sizes.size() != dst_strides.size())
    throw ValidationError(std::string(who) + ": sizes, src_strides and dst_strides must have the same length");
  std::uint64_t count = 1;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] < 0)
      throw ValidationError(std::string(who) + ".sizes[" + std::to_string(i) + "]: size must not be negative");
    if (sizes[i] == 0) {
      p.empty = true;
      return false;
    }
    if (!checked_mul(count, static_cast<std::uint64_t>(sizes[i]), count))
      throw ValidationError(std::string(who) + ".sizes: element count overflows");
    if (sizes[i] > 1 && dst_strides[i] == 0) {
      p.src_off += (sizes[i] - 1) * src_strides[i];
      continue;
    }
    if (sizes[i] > 1) dims.push_back(PlanDim{sizes[i], src_strides[i], dst_strides[i]});
  }
  p.same_strides = true;
  for (const auto& d : dims) p.same_strides = p.same_strides && d.ss == d.ds;
  for (auto& d : dims) {
    if (d.ds < 0) {
      p.src_off += (d.n - 1) * d.ss;
      p.dst_off += (d.n - 1) * d.ds;
      d.ss = -d.ss;
      d.ds = -d.ds;
    }
  }
  return true;
}

// Steps 4-5. 4. Order: the destination's fastest dimension innermost (insertion sort: a handful
// of dims). 5. Coalesce a dimension into the one inside it when both operands step over it exactly.
void order_and_coalesce(std::vector<PlanDim>& dims) {
  for (std::size_t i = 1; i < dims.size(); ++i)
    for (std::size_t j = i; j > 0 && outer_before(dims[j], dims[j - 1]); --j) std::swap(dims[j], dims[j - 1]);
  std::vector<PlanDim> merged;  // innermost first while building
  for (std::size_t j = dims.size(); j-- > 0;) {
    const PlanDim& o = dims[j];
    if (!merged.empty()) {
      PlanDim& i = merged.back();
      if (nests(o.ss, i.ss, i.n) && nests(o.ds, i.ds, i.n)) {
        i.n *= o.n;
        continue;
      }
    }
    merged.push_back(o);
  }
  dims.assign(merged.rbegin(), merged.rend());
  if (dims.size() > 64) throw ValidationError("plan: more than 64 dimensions of size > 1");
}

// The loop nest's last dimensions become the kernel's (inner, row); the rest stay outer.
void set_loops(CopyPlan& p, const std::vector<PlanDim>& dims) {
  const std::size_t k = dims.size();
  p.inner = dims[k - 1];
  if (k >= 2) p.row = dims[k - 2];
  for (std::size_t j = 0; j + 2 < k; ++j) {
    p.outer.push(dims[j].n, {dims[j].ss, dims[j].ds});
    p.outer_count *= dims[j].n;
  }
}

}  // namespace

std::shared_ptr<const CopyPlan> plan_copy(std::size_t width, const std::vector<std::int64_t>& sizes,
                                          const std::vector<std::int64_t>& src_strides,
                                          const std::vector<std::int64_t>& dst_strides) {
  if (width == 0) throw ValidationError("plan_copy.width: element width must be at least 1 byte");
  auto p = std::make_shared<CopyPlan>();
  std::vector<PlanDim> dims;
  if (!collect_dims("plan_copy", sizes, src_strides, dst_strides, *p, dims)) return p;
  p->bytes = width;  // bytes moved: dimensions collapsed above move nothing
  for (const auto& d : dims) p->bytes *= static_cast<std::uint64_t>(d.n);

  // 3. Elements the kernels do not know (not 1/2/4/8 bytes) become runs of smaller ones.
  std::size_t w = width;
  if (w != 1 && w != 2 && w != 4 && w != 8) {
    w = width % 8 == 0 ? 8 : width % 4 == 0 ? 4 : width % 2 == 0 ? 2 : 1;
    dims.push_back(PlanDim{static_cast<i64>(width / w), static_cast<i64>(w), static_cast<i64>(w)});
  }
  const auto W = static_cast<i64>(w);
  if (dims.empty()) dims.push_back(PlanDim{1, W, W});

  order_and_coalesce(dims);

  // 6. A short contiguous run (2, 4 or 8 bytes) inside an outer loop is one wider element.
  if (dims.size() >= 2) {
    const PlanDim& in = dims.back();
    const i64 run = in.n * W;
    if (in.ss == W && in.ds == W && (run == 2 || run == 4 || run == 8)) {
      w = static_cast<std::size_t>(run);
      dims.pop_back();
    }
  }
  const auto Wd = static_cast<i64>(w);
  p->wlog = log2_width(w);

  // 7. The inner kernel.
  const std::size_t k = dims.size();
  const PlanDim in = dims.back();
  std::size_t b = k;  // the source's fastest other dimension
  for (std::size_t j = 0; j + 1 < k; ++j)
    if (dims[j].ss != 0 && (b == k || iabs(dims[j].ss) <= iabs(dims[b].ss))) b = j;
  if (b != k && iabs(dims[b].ss) < iabs(in.ss)) {
    // The two operands are fast along different dimensions: a 2-D transpose over (b, inner).
    const PlanDim bd = dims[b];
    dims.erase(dims.begin() + static_cast<std::ptrdiff_t>(b));
    dims.insert(dims.end() - 1, bd);
    p->kind = KernelKind::Transpose;
    // 8. A few planes outside a destination-ordered loop (space_to_depth's block rows): step
    // through them innermost, so the source is read in one sweep instead of one per plane;
    // the destination keeps a few sequential streams (measured 1.5x on (4,32,256,256) b=2).
    const std::size_t m = dims.size();
    if (m >= 4 && dims[m - 4].n <= 16 && iabs(dims[m - 4].ss) < iabs(dims[m - 3].ss))
      std::swap(dims[m - 4], dims[m - 3]);
  } else if (in.ds == Wd) {
    p->kind = in.ss == Wd    ? KernelKind::Contig
              : in.ss == 0   ? KernelKind::Fill
              : in.ss == -Wd ? KernelKind::Reverse
                             : KernelKind::Gather;
  } else {
    p->kind = KernelKind::Generic;
  }

  set_loops(*p, dims);
  // Tiled transposes (both sides of at least 16 elements: the panels and staged blocks, not the
  // narrow interleaves) stream from half the threshold: they write many destination rows or
  // panels at once, and reading each line for ownership competes with their scattered reads
  // (8-12 MiB outputs, float16 and float32, C = 24 and 64: 1.05-1.7x faster streamed on 1 and 2
  // threads; C = 3 ran up to 2x slower streamed).
  const bool tiled = p->kind == KernelKind::Transpose && p->inner.n >= 16 && p->row.n >= 16;
  p->stream =
      p->kind != KernelKind::Generic && p->bytes >= g_stream_bytes.load(std::memory_order_relaxed) / (tiled ? 2 : 1);
  return p;
}

std::shared_ptr<const CopyPlan> plan_convert(DataType from, DataType to, const std::vector<std::int64_t>& sizes,
                                             const std::vector<std::int64_t>& src_strides,
                                             const std::vector<std::int64_t>& dst_strides) {
  if (from == to) return plan_copy(itemsize(from), sizes, src_strides, dst_strides);
  if (!is_valid_dtype(from) || !is_valid_dtype(to)) throw ValidationError("plan_convert: unknown data type");
  auto p = std::make_shared<CopyPlan>();
  p->from = from;
  p->to = to;
  std::vector<PlanDim> dims;
  if (!collect_dims("plan_convert", sizes, src_strides, dst_strides, *p, dims)) return p;
  p->same_strides = false;  // converted in place is never a no-op
  p->bytes = itemsize(to);
  for (const auto& d : dims) p->bytes *= static_cast<std::uint64_t>(d.n);
  const auto ws = static_cast<i64>(itemsize(from)), wd = static_cast<i64>(itemsize(to));
  if (dims.empty()) dims.push_back(PlanDim{1, ws, wd});
  order_and_coalesce(dims);
  p->wlog = log2_width(itemsize(to));
  p->kind = dims.back().ss == ws && dims.back().ds == wd ? KernelKind::Contig : KernelKind::Generic;
  set_loops(*p, dims);
  p->stream = p->bytes >= g_stream_bytes.load(std::memory_order_relaxed) && p->kind == KernelKind::Contig;
  return p;
}

namespace {

// Streaming stores are weakly ordered: publish them before the span's caller goes on (the
// Gather and Transpose kernels leave this to their caller, kernels.hpp).
inline void stream_fence(const CopyPlan& p) {
#if defined(STRIDED_SSE2)
  if (p.stream) _mm_sfence();
#else
  (void)p;
#endif
}

// Runs elements [e0, e1) of the flattened (outer..., row, inner) space. Rows are handed to the
// kernel in batches of whole rows within one outer position; partial rows only at the ends.
void run_span(const CopyPlan& p, CopyKernel kern, const std::byte* s, std::byte* d, i64 e0, i64 e1) {
  const i64 n0 = p.inner.n, n1 = p.row.n;
  const i64 ss0 = p.inner.ss, ds0 = p.inner.ds, ss1 = p.row.ss, ds1 = p.row.ds;
  i64 r = e0 / n0, i = e0 % n0;
  const i64 rend = e1 / n0, iend = e1 % n0;
  // The outer position of row r and its offsets; s and d point at that position's first row.
  Cursor<2, kMaxPlanLoop> c(p.outer, 0);
  i64 i1 = r % n1;
  c.seek(r / n1);
  const std::byte* const s0 = s;
  std::byte* const d0 = d;
  s = s0 + c.off[0];
  d = d0 + c.off[1];
  auto next_outer = [&] {
    c.next();
    s = s0 + c.off[0];
    d = d0 + c.off[1];
  };
  if (i != 0) {  // partial first row
    const i64 stop = r == rend ? iend : n0;
    kern(s + i1 * ss1 + i * ss0, d + i1 * ds1 + i * ds0, 1, ss1, ds1, stop - i, ss0, ds0);
    if (r == rend) return;
    ++r;
    if (++i1 == n1) {
      i1 = 0;
      next_outer();
    }
  }
  while (r < rend) {
    const i64 rows = n1 - i1 < rend - r ? n1 - i1 : rend - r;
    kern(s + i1 * ss1, d + i1 * ds1, rows, ss1, ds1, n0, ss0, ds0);
    r += rows;
    i1 += rows;
    if (i1 == n1) {
      i1 = 0;
      next_outer();
    }
  }
  if (iend > 0) kern(s + i1 * ss1, d + i1 * ds1, 1, ss1, ds1, iend, ss0, ds0);
  stream_fence(p);
}

}  // namespace

namespace {

// A plan bound to its pointers, with its work cut into chunks for the threads.
struct Bound {
  const CopyPlan* p;
  const std::byte* s;
  std::byte* d;
  CopyKernel kern;
  i64 total, g, granules, chunks;
  i64 cols = 0;  // > 0: granules are blocks of `cols` columns of every row (column split)
};

bool bind(const CopyPlan& p, const void* src, void* dst, Bound& b) {
  if (p.empty || (p.same_strides && src == dst)) return false;  // in-place identity: nothing moves
  b.p = &p;
  b.s = static_cast<const std::byte*>(src) + p.src_off;
  b.d = static_cast<std::byte*>(dst) + p.dst_off;
  const KernelTable& t = active_kernels();
  b.kern = p.from == p.to ? t.k[p.stream ? 1 : 0][static_cast<int>(p.kind)][p.wlog]
                          : t.convert[static_cast<int>(p.from)][static_cast<int>(p.to)]
                                     [p.kind == KernelKind::Contig ? (p.stream ? 2 : 1) : 0];
  return true;
}

void run_serial(const Bound& b) {
  const CopyPlan& p = *b.p;
  if (p.outer.n == 0) {
    b.kern(b.s, b.d, p.row.n, p.row.ss, p.row.ds, p.inner.n, p.inner.ss, p.inner.ds);
    stream_fence(p);
  } else run_span(p, b.kern, b.s, b.d, 0, p.outer_count * p.row.n * p.inner.n);
}

// Split granule: whole rows when there are plenty (transposes: bands of 64 rows, one cache
// block), else cache-line-sized pieces of rows.
void set_granules(Bound& b, int nt) {
  const CopyPlan& p = *b.p;
  const i64 rows = p.outer_count * p.row.n;
  b.total = rows * p.inner.n;
  b.g = p.inner.n;
  if (p.kind == KernelKind::Transpose) {
    // Byte transposes: streamed, bands of 256 rows, the staged blocks' edge (bands of 128 went
    // to their micro-tiled edges: 4096 x 4096 uint8 on 2 threads 8.8 -> 16.4 GB/s, 3000 x 4096
    // 10.3 -> 24); into the cache, two line tiles' worth (1000 x 1000 on 2 threads, processes
    // alternated: 64 rows 34.7, 128 56.3, 256 30.9 GB/s).
    const auto n = static_cast<i64>(nt);
    const i64 band = p.wlog != 0 ? 64 : p.stream && rows >= 512 * n ? 256 : rows >= 256 * n ? 128 : 64;
    if (rows >= 128 * static_cast<i64>(nt)) b.g *= band;
    // whole rows of at least 64 KiB: the panel and narrow kernels pay a set-up per call
    // (256 KiB NCHW -> NHWC in 16 pieces ran 3.5x slower on 2 threads than whole on 1)
    const i64 gmin = (((i64{64} << 10) >> p.wlog) + p.inner.n - 1) / p.inner.n * p.inner.n;
    if (b.g < gmin) b.g = gmin;
  } else if (rows < 4 * static_cast<i64>(nt)) {
    b.g = i64{64} >> p.wlog;
  }
  b.granules = (b.total + b.g - 1) / b.g;
  // A transpose onto a few planes (NHWC -> NCHW with C <= 256: the planes are the rows) reads
  // every source line for all planes at once; split by rows, each thread would read them all
  // again (C = 3 ran 2x slower on 2 threads than on 1). Split the columns instead.
  // uint8 streamed, with up to 2 KiB of source pixel (1 KiB where the planes crowd): split by
  // columns too. By rows, each thread's bands of 256 planes read a few lines of every pixel. NHWC
  // -> NCHW on 2 threads, alternated in one process, GB/s: C = 512 / 768 (256 x 256 planes) 10.3
  // / 10.0 -> 23.6 / 21.0 (one thread ran 18.5 at C = 512), C = 384 (295 x 295) 15.1 -> 23.2,
  // (2, 128, 128, 512) 17.0 -> 26.9, C = 2048 (120 x 120) 21.0 -> 24.1. Wider types ran 0.6-1.5x split
  // so, by their source's size against the L3 (bands of 64 planes that the L3 holds between calls
  // ran faster); uint8 C = 2048 from 128 x 128 planes 0.6x, 2-D transposes of 4096 x 4096 0.33x.
  const bool wide =
      p.wlog == 0 && p.stream && p.inner.n >= 4096 && p.row.n <= (rows_per_set(p.row.ds, 16) <= 8 ? 2048 : 1024);
  if (p.kind == KernelKind::Transpose && (p.row.n <= 256 || wide) && p.inner.n >= 128 * static_cast<i64>(nt)) {
    const i64 want = (i64{64} << 10) / (p.row.n << p.wlog);  // ~64 KiB of output per granule
    b.cols = (want < 64 ? 64 : want) / 64 * 64;
    b.granules = p.outer_count * ((p.inner.n + b.cols - 1) / b.cols);
  }
  // Source rows that crowd one L1 set (2-D transposes of 1024 x 1024 float32, 1024 x 2048
  // float16: rows 4 KiB apart), into the cache: split by columns too, so that each call reads its
  // source rows whole, in pieces of at least plane_runs's 256-pixel windows. Bands of 64 planes
  // read 256 bytes of every row per call, and ran at half the speed per thread of whole rows
  // (the hardware's prefetch follows a row only that far, it seems). Processes alternated, 2
  // threads, GB/s (runs an hour apart differed: the dev VM has phases where two threads run no
  // faster than one): 1024 x 1024 float32 24.5 -> 35.2, 26.8 -> 41.4, 23.3 -> 23.2; 1024 x 2048
  // float16 18.4 -> 32.6, 17.8 -> 25.8; the AVX2 kernels 1024 x 1024 float32 14.7 -> 28.2. Not
  // streamed (4096 x 4096 float16 0.8x) nor uint8 onto rows that do not crowd (0.9x). At least
  // two pieces a thread, so that a thread late to start leaves one to the others: with one each
  // (512 x 512 float64, 1000 x 2048 float16; uint8 1024 x 1024 7-17 GB/s against 25), in the
  // machine's slower phases, the calls ran 0.55-0.8x the bands. uint8 where the destination rows
  // crowd as well (both a multiple of 1 KiB apart; plane_runs's windows of 512 pixels, so pieces
  // of 512): 2048 x 2048 on 2 threads 17.0 -> 30.4 GB/s (bands of planes, before, ran the tiles).
  const i64 n0 = p.inner.n, nn = static_cast<i64>(nt);
  const bool bytes = p.wlog == 0, crowd = bytes ? rows_per_set(p.inner.ss, 64) > 8 && rows_per_set(p.row.ds, 64) > 8
                                                : rows_per_set(p.inner.ss, 16) > 8;
  const i64 piece = bytes ? 512 : 256;
  if (p.kind == KernelKind::Transpose && !p.stream && crowd && p.row.n > 256 && n0 >= 2 * piece * nn) {
    const i64 k = std::min(n0 / piece, 16 * nn) / nn * nn, q = i64{64} >> p.wlog;  // q: a line's elements
    b.cols = ((n0 + k - 1) / k + q - 1) / q * q;
    b.granules = p.outer_count * ((n0 + b.cols - 1) / b.cols);
  }
}

/// Granules [g0, g1) of a column split: (outer index, block of columns) pairs, outer-major. The
/// granules of one outer index are adjacent columns: one kernel call (a call pays a set-up: the
/// panels' peel to a line boundary, the narrow kernels' staging).
void run_cols(const Bound& b, i64 g0, i64 g1) {
  const CopyPlan& p = *b.p;
  const i64 per = (p.inner.n + b.cols - 1) / b.cols;
  Cursor<2, kMaxPlanLoop> c(p.outer, 0);
  for (i64 gi = g0, ge; gi < g1; gi = ge) {
    const i64 o = gi / per;
    ge = std::min(g1, (o + 1) * per);
    const i64 c0 = gi % per * b.cols, n = std::min(p.inner.n, (ge - o * per) * b.cols) - c0;
    c.seek(o);
    b.kern(b.s + c0 * p.inner.ss + c.off[0], b.d + c0 * p.inner.ds + c.off[1], p.row.n, p.row.ss, p.row.ds, n,
           p.inner.ss, p.inner.ds);
  }
  stream_fence(p);
}

void run_chunk(const Bound& b, i64 c) {
  auto at = [&](i64 q) { return b.granules / b.chunks * q + b.granules % b.chunks * q / b.chunks; };
  if (b.cols > 0) {
    run_cols(b, at(c), c + 1 == b.chunks ? b.granules : at(c + 1));
    return;
  }
  const i64 e0 = at(c) * b.g, e1 = c + 1 == b.chunks ? b.total : at(c + 1) * b.g;
  if (e0 < e1) run_span(*b.p, b.kern, b.s, b.d, e0, e1 < b.total ? e1 : b.total);
}

// One parallel region over the chunks of all `n` bound copies (parallel_items; the result is
// the same whoever copies a chunk).
void run_parallel(const Bound* bs, const i64* first_chunk, std::size_t n, int nt) {
  parallel_items(first_chunk[n], nt, [&](i64 c) {
    const std::size_t j =
        static_cast<std::size_t>(std::upper_bound(first_chunk, first_chunk + n + 1, c) - first_chunk) - 1;
    run_chunk(bs[j], c - first_chunk[j]);
  });
}

// The bytes that size a plan's team. memcpy-class rows run ~4x faster per byte than strided
// kernels: the same grain in time is 4x the bytes (a 256 KiB copy took 3.4 us on 2 threads, 2.5 us
// on one; a 256 KiB split in 4 took 25 us on 2-16 threads, 14 us on one).
std::uint64_t work_bytes(const CopyPlan& p) {
  const bool cheap = p.from == p.to && (p.kind == KernelKind::Contig || p.kind == KernelKind::Fill);
  return cheap ? p.bytes / 4 : p.bytes;
}

}  // namespace

void run_copy(const CopyPlan& p, const void* src, void* dst, int threads) {
  Bound b;
  if (!bind(p, src, dst, b)) return;
  const int nt = threads > 1 ? threads_for_bytes(work_bytes(p), threads) : 1;
  if (nt <= 1) {  // the common small case: one kernel call, no allocation, no parallel region
    run_serial(b);
    return;
  }
  set_granules(b, nt);
  b.chunks = b.granules < 16 * static_cast<i64>(nt) ? b.granules : 16 * static_cast<i64>(nt);
  const i64 first[2] = {0, b.chunks};
  run_parallel(&b, first, 1, nt);
}

void run_copies(const CopyJob* jobs, std::size_t n, int threads) {
  std::uint64_t bytes = 0, work = 0;
  for (std::size_t j = 0; j < n; ++j) {
    bytes += jobs[j].plan->bytes;
    work += work_bytes(*jobs[j].plan);
  }
  const int nt = threads > 1 ? threads_for_bytes(work, threads) : 1;
  if (nt <= 1 || n == 1) {
    for (std::size_t j = 0; j < n; ++j) run_copy(*jobs[j].plan, jobs[j].src, jobs[j].dst, nt);
    return;
  }
  std::vector<Bound> bs;
  std::vector<i64> first{0};
  bs.reserve(n);
  for (std::size_t j = 0; j < n; ++j) {
    Bound b;
    if (!bind(*jobs[j].plan, jobs[j].src, jobs[j].dst, b)) continue;
    set_granules(b, nt);
    // chunks in proportion to the job's share of the bytes, about 16 per thread in all
    const auto want = static_cast<i64>(16.0 * nt * static_cast<double>(b.p->bytes) / static_cast<double>(bytes)) + 1;
    b.chunks = b.granules < want ? b.granules : want;
    bs.push_back(b);
    first.push_back(first.back() + b.chunks);
  }
  if (!bs.empty()) run_parallel(bs.data(), first.data(), bs.size(), nt);
}

void set_stream_threshold(std::uint64_t bytes) noexcept { g_stream_bytes.store(bytes, std::memory_order_relaxed); }
std::uint64_t stream_threshold() noexcept { return g_stream_bytes.load(std::memory_order_relaxed); }

std::uint64_t copy_plan_bytes(const CopyPlan& p) noexcept { return p.empty ? 0 : p.bytes; }

void copy_strided(std::size_t width, const std::vector<std::int64_t>& sizes, const void* src,
                  const std::vector<std::int64_t>& src_strides, void* dst, const std::vector<std::int64_t>& dst_strides,
                  int threads) {
  run_copy(*plan_copy(width, sizes, src_strides, dst_strides), src, dst, threads);
}

}  // namespace strided::detail
