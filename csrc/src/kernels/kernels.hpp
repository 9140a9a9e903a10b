// The copy engine's inner kernels, one table per SIMD target (DESIGN.md: PyTorch's per-ISA
// translation units behind a function-pointer table). Every kernel is a 2-D loop, PyTorch style:
//   for r in [0, n1): for i in [0, n0): dst[r*ds1 + i*ds0] = src[r*ss1 + i*ss0]
// over elements of W bytes (W = 1, 2, 4, 8: the table's last index is log2 W). Strides are bytes.
// Each kind states what it assumes about the strides; the planner only picks a kind whose
// assumptions hold.
#pragma once
#include <cstddef>
#include <cstdint>

namespace strided::detail {

using CopyKernel = void (*)(const std::byte* s, std::byte* d, std::int64_t n1, std::int64_t ss1, std::int64_t ds1,
                            std::int64_t n0, std::int64_t ss0, std::int64_t ds0);

enum class KernelKind : std::uint8_t {
  Contig,     // ss0 == ds0 == W: rows are memcpy-class runs
  Fill,       // ss0 == 0, ds0 == W: broadcast one element along the row
  Reverse,    // ss0 == -W, ds0 == W
  Gather,     // ds0 == W, any ss0 (small-stride gather)
  Generic,    // any strides
  Transpose,  // 2-D tiled transpose; SIMD micro-tiles when ss1 == W and ds0 == W
  Count
};
constexpr int kKernelKinds = static_cast<int>(KernelKind::Count);
/// A table's last index for elements of w bytes (1, 2, 4, 8).
constexpr int log2_width(std::size_t w) { return w == 1 ? 0 : w == 2 ? 1 : w == 4 ? 2 : 3; }

/// The convert family's kernels: the same 2-D loop, reading elements of one DataType and writing
/// them converted to another by SPEC 3.5's rules (elem/cast.hpp). [0]: any strides; [1]: both
/// operands contiguous along the inner loop (ss0, ds0 = their widths), vectorised where it pays;
/// [2]: [1] with streaming stores (no fence: the planner fences after the span).
constexpr int kDtypeSlots = 12;  // DataType values 1..11 (0 unused)

/// A writer of output bytes in address order, each 64-byte line written once and whole (streamed
/// when `stream`): runs copied from a source and, between them, the pattern (constant padding) or
/// nothing (other pad modes, whose border rows later steps write). In one pass, a line shared by
/// a margin and its row is never stored twice (separate fill and copy steps stored it twice, the
/// second time after the streamed rows had evicted it: 20% of the pad's time). Lines the range
/// [lo, hi) shares with its neighbours get byte-exact ordinary stores.
struct LineWriter {
  alignas(64) std::byte pattern[128];  // pattern[j]: the fill byte at any address = j (mod 64), twice
  alignas(64) std::byte line[64];     // the line being assembled (bytes [max(line start, lo), at))
  std::byte* at;                      // the next byte to write; lo <= at <= hi
  std::byte* lo;
  std::byte* hi;
  bool stream;
  bool fill_gaps;  // write the pattern between runs (else leave those bytes alone)
};
/// Per-row margins of elements read from the row's own source (pad modes other than CONSTANT):
/// left[j] / right[j] are byte offsets from the row's source start of the elements written just
/// before / after its copied run.
struct RowMargins {
  std::int64_t width, n_left, n_right;
  const std::int64_t* left;
  const std::int64_t* right;
};
/// Rows r < n1: up to d + r*ds1 - (left margin) the pattern or nothing, then the left margin, `nb`
/// bytes copied from s + r*ss1 and the right margin (clipped to [at, hi); rows in increasing
/// address order). `mg` may be null (no margins). Returns early once at == hi.
using RowsKernel = void (*)(LineWriter& w, const std::byte* s, std::int64_t n1, std::int64_t ss1, std::byte* d,
                            std::int64_t ds1, std::int64_t nb, const RowMargins* mg);
/// Up to hi the pattern (or nothing), the last line stored, and a fence when streamed.
using FinishKernel = void (*)(LineWriter& w);

/// The generate family: SPEC 3.13's sequence, element k = start + k * delta (integers: modulo
/// 2^64, then the type's low bits; floats: fl64(fl64(k * delta) + start), then one conversion by
/// SPEC 3.5's rules). Computed from k, never accumulated, so that the result is the same however
/// the elements are split between calls.
struct SequenceParams {
  std::uint64_t istart, idelta;
  double fstart, fdelta;
};
/// Elements k0 .. k0 + n - 1 (k0 + n <= 2^53) at d, d + ds, ... (ds bytes apart).
using SequenceKernel = void (*)(std::byte* d, std::int64_t ds, std::int64_t k0, std::int64_t n,
                                const SequenceParams& p);

/// The generate family's one-hot (OneHot): `n` lines, line j's index (of the kernel's index type)
/// at idx + j*ji and its D elements (of the kernel's width) at out + j*jo + k*ax; every element
/// `off`, the one at the index's position `on` (negative indices count from D; an index out of
/// range, or rewritten by another thread meanwhile, leaves the line all off: an index chooses a
/// value, never an address). Each index is read once; a block of lines is filled in the output's
/// memory order (`axis_inner`: the axis varies faster than the lines), then its 'on' elements are
/// written while it is in cache. `stream`: dense blocks are assembled in a 64 KiB buffer and
/// streamed out (in place, every output line would first be read for ownership), fenced.
struct OneHotParams {
  std::int64_t D, ax, ji, jo;
  std::uint64_t off, on;  // each element's bytes at the start of its 8-byte slot
  bool axis_inner, stream;
};
using OneHotKernel = void (*)(const std::byte* idx, std::byte* out, std::int64_t n, const OneHotParams& p);

/// The axis-index family. MinMaxKernel folds the n contiguous index values at p (of the table
/// slot's index type I) into *mn / *mx (I values). NarrowKernel writes them normalised (negative
/// values count from the end) to dst as uint16 / uint32 and returns whether every value was in
/// range for an axis of `bound` elements. GatherLineKernel: out[k] = in[idx[k]] for k < K and
/// 4-byte elements, each index normalised and tested at its read (a bad one reads position 0),
/// returning whether all were in [-N, N); the int32 form needs N < 2^31; `stream`: non-temporal
/// stores. GatherLineU16Kernel: the same from trusted uint16 positions (a narrowed check's).
using MinMaxKernel = void (*)(const std::byte* p, std::int64_t n, void* mn, void* mx) noexcept;
using NarrowKernel = bool (*)(const std::byte* p, std::int64_t n, std::int64_t bound, void* dst) noexcept;
using GatherLineKernel = bool (*)(const std::byte* idx, const std::byte* in, std::byte* out, std::int64_t K,
                                  std::int64_t N, bool stream) noexcept;
using GatherLineU16Kernel = void (*)(const std::byte* idx, const std::byte* in, std::byte* out, std::int64_t K,
                                     bool stream) noexcept;

struct KernelTable {
  const char* name;
  // [streaming stores?][kind][log2 width]. Streaming (non-temporal) variants are for outputs
  // larger than the cache; they fall back to ordinary stores where alignment does not allow.
  // Streaming Gather and Transpose do not fence (an sfence per call costs more than a small
  // call's copy): whoever calls them fences before the output is used (the planner's run_span).
  CopyKernel k[2][kKernelKinds][4];
  // [from DataType][to DataType][0: any strides, 1: contiguous inner loop, 2: the same streamed];
  // null for equal types (a plain copy).
  CopyKernel convert[kDtypeSlots][kDtypeSlots][3];
  // The axis-index family (kernels/index_kernels.hpp), by index DataType (INT32, INT64, UINT32,
  // UINT64): min/max and narrowing passes; dense line gathers of 4-byte elements, null where
  // the target has none faster than index/elements.cpp's loops ([0] int32, [1] int64).
  MinMaxKernel minmax[kDtypeSlots];
  NarrowKernel narrow[kDtypeSlots][2];  // [index DataType][0: to uint16, 1: to uint32]
  GatherLineKernel gather_line[2];
  GatherLineU16Kernel gather_line_u16;
  RowsKernel rows;  // LineWriter's two operations
  FinishKernel finish;
  SequenceKernel sequence[kDtypeSlots];  // [DataType]
  OneHotKernel one_hot[kDtypeSlots][4];  // [index DataType: INT32, INT64, UINT32, UINT64][log2 width]
};

const KernelTable& kernels_scalar() noexcept;
#if defined(STRIDED_HAVE_NEON)
const KernelTable& kernels_neon() noexcept;
#endif
#if defined(STRIDED_HAVE_X86_SIMD)
const KernelTable& kernels_avx2() noexcept;
const KernelTable& kernels_avx512() noexcept;
#endif

}  // namespace strided::detail
