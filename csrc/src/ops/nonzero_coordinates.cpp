// NonzeroCoordinates (DML_NONZERO_COORDINATES_OPERATOR_DESC, SPEC 3.14.1) and strided::argwhere.
// A step of its own, in two phases. Scan: the input is read exactly once, in parallel parts of
// whole 64-element words, into a bit mask (bit q: element q in row-major order is non-zero) and
// a count per part. Write: each part's coordinates go to the rows from its prefix sum on, read
// from the mask. The mask is the only record of the input, so the rows written always agree with
// the count and stay inside the output whatever another thread does to the input (SPEC 3.0 rule
// 2); argwhere allocates its exact [K, ndim] result between the two phases.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>

#include "util/bits.hpp"
#if defined(STRIDED_SSE2)
#include <emmintrin.h>
#endif

#include "exec/call.hpp"
#include "exec/overlap.hpp"
#include "index/common.hpp"
#include "ops/op.hpp"
#include "plan/nest.hpp"
#include "runtime/runtime.hpp"

namespace strided::detail {
namespace {
using index::load;
using index::store;

// SPEC 4: from 3_0 all three tensors 4-5 dimensions (input 8 types, outputs UINT32); from 4_0 the
// input 1-8, the count 1-8, the coordinates 2-8 dimensions. No level takes a 64-bit input.
constexpr std::uint64_t kU32 = dtype_bit(DataType::UINT32);
constexpr std::array<LevelRow, 2> kInputTable{
    {{FeatureLevel::FL_3_0, 4, 5, kEightTypes}, {FeatureLevel::FL_4_0, 1, 8, kEightTypes}}};
constexpr std::array<LevelRow, 2> kCountTable{{{FeatureLevel::FL_3_0, 4, 5, kU32}, {FeatureLevel::FL_4_0, 1, 8, kU32}}};
constexpr std::array<LevelRow, 2> kCoordTable{{{FeatureLevel::FL_3_0, 4, 5, kU32}, {FeatureLevel::FL_4_0, 2, 8, kU32}}};

constexpr std::int64_t kWord = 64;

/// The input in row-major order: element-0 pointer, dtype, a loop nest (coalesced: same order).
struct Source {
  const std::byte* base = nullptr;
  DataType dtype = DataType::UNKNOWN;
  Walk<1> walk;
  std::int64_t total = 0;
};

/// The scan's result: the mask and, per part, the row of its first non-zero (first[parts] = K).
struct Scan {
  std::vector<std::uint64_t> mask;
  std::vector<std::int64_t> first;
  int parts = 1;
  int threads = 1;
};

Source source_of(const std::byte* base, DataType dtype, const std::int64_t* sizes, const std::int64_t* strides, int n) {
  Source s{base, dtype, {}, 1};
  for (int i = 0; i < n; ++i) {
    s.walk.push(sizes[i], {strides[i]});
    s.total *= sizes[i];
  }
  if (n == 0) s.walk.push(1, {0});
  s.walk.coalesce();
  return s;
}

// Non-zero test on the bits: floats ignore the sign (+0.0 and -0.0 are zero; NaN is not).
template <class U>
constexpr U keep_bits(DataType t) {
  const bool is_float = t == DataType::FLOAT16 || t == DataType::FLOAT32 || t == DataType::FLOAT64;
  return is_float ? static_cast<U>(std::numeric_limits<U>::max() >> 1) : std::numeric_limits<U>::max();
}

// The non-zero bits of 64 contiguous elements at p (SSE2, x86-64's baseline: compare with zero
// and movemask; elsewhere a plain loop).
template <class U>
std::uint64_t word_of(const std::byte* p, U keep) {
#if defined(STRIDED_SSE2)
  constexpr int kLanes = 16 / static_cast<int>(sizeof(U));
  __m128i k;
  if constexpr (sizeof(U) == 1) k = _mm_set1_epi8(static_cast<char>(keep));
  else if constexpr (sizeof(U) == 2) k = _mm_set1_epi16(static_cast<short>(keep));
  else if constexpr (sizeof(U) == 4) k = _mm_set1_epi32(static_cast<int>(keep));
  else k = _mm_set1_epi64x(static_cast<long long>(keep));
  const __m128i zero = _mm_setzero_si128();
  const auto zeros = [&](int i) {  // all-ones lanes where element is zero (after the keep mask)
    const __m128i v = _mm_and_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p) + i), k);
    if constexpr (sizeof(U) == 1) return _mm_cmpeq_epi8(v, zero);
    else if constexpr (sizeof(U) == 2) return _mm_cmpeq_epi16(v, zero);
    else if constexpr (sizeof(U) == 4) return _mm_cmpeq_epi32(v, zero);
    else {  // a 64-bit lane is zero when both its halves are
      const __m128i h = _mm_cmpeq_epi32(v, zero);
      return _mm_and_si128(h, _mm_shuffle_epi32(h, _MM_SHUFFLE(2, 3, 0, 1)));
    }
  };
  std::uint64_t z = 0;
  for (int i = 0; i < kWord / kLanes; ++i) {
    std::uint64_t bits;
    if constexpr (sizeof(U) == 1) bits = static_cast<std::uint32_t>(_mm_movemask_epi8(zeros(i)));
    else if constexpr (sizeof(U) == 2)
      bits = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_packs_epi16(zeros(i), zero)));
    else if constexpr (sizeof(U) == 4) bits = static_cast<std::uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(zeros(i))));
    else bits = static_cast<std::uint32_t>(_mm_movemask_pd(_mm_castsi128_pd(zeros(i))));
    z |= bits << (i * kLanes);
  }
  return ~z;
#else
  std::uint64_t word = 0;
  for (int b = 0; b < kWord; ++b) word |= static_cast<std::uint64_t>((load<U>(p + b * sizeof(U)) & keep) != 0) << b;
  return word;
#endif
}

// Mask words of positions [lo, hi) (lo a multiple of 64); returns their count of set bits.
template <class U>
std::int64_t scan_part(const Source& s, std::int64_t lo, std::int64_t hi, std::uint64_t* mask) {
  const U keep = keep_bits<U>(s.dtype);
  const std::int64_t st = s.walk.inner_st(0);
  std::int64_t q = lo, count = 0;
  std::uint64_t word = 0;
  const auto flush = [&](std::int64_t at) {
    mask[at / kWord] = word;
    count += popcount64(word);
    word = 0;
  };
  for_runs(s.walk, lo, hi, [&](const std::array<std::int64_t, 1>& off, std::int64_t j0, std::int64_t j1) {
    const std::byte* p = s.base + off[0] + j0 * st;
    std::int64_t j = j0;
    // Whole words of a contiguous run: 64 tests packed without a data-dependent branch.
    if (st == static_cast<std::int64_t>(sizeof(U)) && q % kWord == 0) {
      for (; j + kWord <= j1; j += kWord, q += kWord, p += kWord * st) {
        word = word_of<U>(p, keep);
        flush(q);
      }
    }
    for (; j < j1; ++j, ++q, p += st) {
      word |= static_cast<std::uint64_t>((load<U>(p) & keep) != 0) << (q % kWord);
      if (q % kWord == kWord - 1) flush(q);
    }
  });
  if (q % kWord) flush(q);
  return count;
}

int part_count(std::int64_t total, int threads) {
  if (threads <= 1) return 1;
  return static_cast<int>(std::clamp<std::int64_t>(total / (std::int64_t{1} << 16), 1, 8 * threads));
}

Scan scan(const Source& s, int max_threads) {
  Scan r;
  r.mask.assign(static_cast<std::size_t>((s.total + kWord - 1) / kWord), 0);
  r.threads = threads_for_bytes(static_cast<std::uint64_t>(s.total) * itemsize(s.dtype), max_threads);
  r.parts = part_count(s.total, r.threads);
  std::vector<std::int64_t> counts(static_cast<std::size_t>(r.parts), 0);
  parallel_parts(s.total, r.parts, r.threads, kWord, [&](int p, std::int64_t lo, std::int64_t hi) {
    std::int64_t& k = counts[static_cast<std::size_t>(p)];
    switch (itemsize(s.dtype)) {
      case 1: k = scan_part<std::uint8_t>(s, lo, hi, r.mask.data()); break;
      case 2: k = scan_part<std::uint16_t>(s, lo, hi, r.mask.data()); break;
      case 4: k = scan_part<std::uint32_t>(s, lo, hi, r.mask.data()); break;
      default: k = scan_part<std::uint64_t>(s, lo, hi, r.mask.data()); break;
    }
  });
  r.first.assign(static_cast<std::size_t>(r.parts) + 1, 0);
  for (std::size_t p = 0; p < counts.size(); ++p) r.first[p + 1] = r.first[p] + counts[p];
  return r;
}

/// Where the coordinates go: rows of `cols` values (the last `cols` of `n` coordinates).
struct Target {
  std::byte* base = nullptr;
  DataType dtype = DataType::UNKNOWN;
  std::int64_t row_st = 0, col_st = 0;  // bytes
  int cols = 0;
};

template <class T>
void write_part(const Scan& sc, const std::int64_t* shape, int n, const Target& t, int p, std::int64_t lo,
                std::int64_t hi) {
  std::int64_t c[kMaxDims] = {}, prev = lo;
  for (int i = n - 1; i >= 0; --i) {  // coordinates of position lo
    c[i] = prev % shape[i];
    prev /= shape[i];
  }
  prev = lo;
  std::byte* row = t.base + sc.first[static_cast<std::size_t>(p)] * t.row_st;
  for (std::int64_t w = lo / kWord; w < (hi + kWord - 1) / kWord; ++w) {
    for (std::uint64_t bits = sc.mask[static_cast<std::size_t>(w)]; bits; bits &= bits - 1) {
      const std::int64_t q = w * kWord + ctz64(bits);
      if (n > 0) {  // advance the coordinates by q - prev, carrying through the dimensions
        std::int64_t carry = q - prev;
        for (int i = n - 1; i >= 0; --i) {
          c[i] += carry;
          if (c[i] < shape[i]) break;
          carry = c[i] / shape[i];
          c[i] %= shape[i];
        }
      }
      prev = q;
      for (int k = 0; k < t.cols; ++k) store<T>(row + k * t.col_st, static_cast<T>(c[n - t.cols + k]));
      row += t.row_st;
    }
  }
}

template <class T>
void write_rows(const Scan& sc, std::int64_t total, const std::int64_t* shape, int n, const Target& t,
                std::int64_t zero_rows_to) {
  parallel_parts(total, sc.parts, sc.threads, kWord,
                 [&](int p, std::int64_t lo, std::int64_t hi) { write_part<T>(sc, shape, n, t, p, lo, hi); });
  const std::int64_t K = sc.first.back();
  parallel_ranges(zero_rows_to - K, sc.threads, 1, [&](std::int64_t lo, std::int64_t hi) {
    for (std::int64_t j = K + lo; j < K + hi; ++j)
      for (int k = 0; k < t.cols; ++k) store<T>(t.base + j * t.row_st + k * t.col_st, T{0});
  });
}

/// The coordinates in t's integer dtype (rows [K, zero_rows_to) zeroed).
void write(const Scan& sc, std::int64_t total, const std::int64_t* shape, int n, const Target& t,
           std::int64_t zero_rows_to) {
  switch (t.dtype) {
    case DataType::UINT8: return write_rows<std::uint8_t>(sc, total, shape, n, t, zero_rows_to);
    case DataType::INT8: return write_rows<std::int8_t>(sc, total, shape, n, t, zero_rows_to);
    case DataType::UINT16: return write_rows<std::uint16_t>(sc, total, shape, n, t, zero_rows_to);
    case DataType::INT16: return write_rows<std::int16_t>(sc, total, shape, n, t, zero_rows_to);
    case DataType::UINT32: return write_rows<std::uint32_t>(sc, total, shape, n, t, zero_rows_to);
    case DataType::INT32: return write_rows<std::int32_t>(sc, total, shape, n, t, zero_rows_to);
    case DataType::UINT64: return write_rows<std::uint64_t>(sc, total, shape, n, t, zero_rows_to);
    case DataType::INT64: return write_rows<std::int64_t>(sc, total, shape, n, t, zero_rows_to);
    default: throw ValidationError("coordinates: not an integer dtype");  // callers check first
  }
}

class NonzeroStep final : public Step {
 public:
  NonzeroStep(const View& in, const View& count, const View& coords)
      : in_(in.where), count_(count.where), coords_(coords.where), dtype_(in.dtype), sizes_(in.sizes),
        strides_(in.strides) {
    const int m = coords.ndim();
    target_ = Target{nullptr, coords.dtype, coords.strides[static_cast<std::size_t>(m - 2)],
                     coords.strides[static_cast<std::size_t>(m - 1)],
                     static_cast<int>(coords.sizes[static_cast<std::size_t>(m - 1)])};
    rows_ = coords.sizes[static_cast<std::size_t>(m - 2)];
  }
  void run(const ExecContext& c) const override {
    const Source s = source_of(in_.in_ptr(c), dtype_, sizes_.data(), strides_.data(), static_cast<int>(sizes_.size()));
    const Scan sc = scan(s, c.threads);
    store<std::uint32_t>(count_.out_ptr(c), static_cast<std::uint32_t>(sc.first.back()));
    Target t = target_;
    t.base = coords_.out_ptr(c);
    write(sc, s.total, sizes_.data(), static_cast<int>(sizes_.size()), t, rows_);
  }

 private:
  Operand in_, count_, coords_;
  DataType dtype_;
  std::vector<std::int64_t> sizes_, strides_;
  Target target_;
  std::int64_t rows_ = 0;
};

}  // namespace

void check(const Rules& r, const NonzeroCoordinatesDesc& d) {
  const auto s = [](auto v) { return std::to_string(v); };
  const TensorDesc &in = d.input, &cnt = d.output_count, &co = d.output_coordinates;
  if (cnt.dtype() != DataType::UINT32)
    r.fail("output_count.dtype", "must be UINT32, got " + std::string(dtype_enum_name(cnt.dtype())));
  if (cnt.element_count() != 1) r.fail("output_count.sizes", "every size must be 1");
  if (co.dtype() != DataType::UINT32)
    r.fail("output_coordinates.dtype", "must be UINT32, got " + std::string(dtype_enum_name(co.dtype())));
  const int n = in.ndim(), m = co.ndim();
  if (m < 2) r.fail("output_coordinates.sizes", "must have at least 2 dimensions {..., M, N}, got " + s(m));
  for (int i = 0; i + 2 < m; ++i)
    if (co.sizes()[static_cast<std::size_t>(i)] != 1)
      r.fail(field_at("output_coordinates.sizes", static_cast<std::size_t>(i)), "leading sizes must be 1");
  const std::int64_t rows = co.sizes()[static_cast<std::size_t>(m - 2)],
                     cols = co.sizes()[static_cast<std::size_t>(m - 1)];
  if (static_cast<std::uint64_t>(rows) != in.element_count())
    r.fail(field_at("output_coordinates.sizes", static_cast<std::size_t>(m - 2)),
           "must equal the input's element count " + s(in.element_count()) + ", got " + s(rows));
  int lead = 0;  // the effective rank r: n without leading size-1 dimensions
  while (lead < n && in.sizes()[static_cast<std::size_t>(lead)] == 1) ++lead;
  const int eff = std::max(1, n - lead);
  if (cols < eff || cols > n)
    r.fail(field_at("output_coordinates.sizes", static_cast<std::size_t>(m - 1)),
           "N must be between max(1, the input's effective rank) = " + s(eff) + " and its dimension count " + s(n) +
               ", got " + s(cols));
  if (in.element_count() > std::numeric_limits<std::uint32_t>::max())
    r.fail("input.sizes", "more than 2^32-1 elements: the UINT32 count cannot hold them");
  r.output_no_alias("output_count", cnt);
  r.output_no_alias("output_coordinates", co);
  r.level_rules(kInputTable, {{"input", &in, false}});
  r.level_rules(kCountTable, {{"output_count", &cnt, false}});
  r.level_rules(kCoordTable, {{"output_coordinates", &co, false}});
}

void lower(Lowering& l, const NonzeroCoordinatesDesc& d) {
  const View in = l.in(d.input), count = l.out(d.output_count), coords = l.out(d.output_coordinates);
  // Rows are written in parallel: every one needs its own memory (a functional call's arrays).
  if (may_overlap_itself(region_of(coords), false))
    throw BufferError("output_coordinates: the output's elements overlap each other");
  l.p.steps.push_back(std::make_unique<NonzeroStep>(in, count, coords));
}

// Call: one input, two outputs (count, coordinates); no parameters.
NonzeroCoordinatesDesc from_call(const Call& c, const NonzeroCoordinatesDesc*) {
  c.expect(1, 2, 0);
  return {c.in_desc(0), c.out_desc(0), c.out_desc(1)};
}

}  // namespace strided::detail

namespace strided {

std::int64_t argwhere(const ConstArrayView& x, const std::function<ArrayView(std::int64_t)>& allocate) {
  const detail::CallArray a = detail::call_array(x, "x");
  const detail::Source s =
      detail::source_of(static_cast<const std::byte*>(a.data), a.dtype, a.shape, a.strides, a.ndim);
  detail::Scan sc;
  if (s.total > 0) sc = detail::scan(s, detail::resolve_threads(0));
  else sc.first.assign(1, 0);
  const std::int64_t K = sc.first.back();
  const detail::CallArray o = detail::call_array(allocate(K), "out");
  detail::expect_shape(o, {K, a.ndim}, "out");
  if (is_float_dtype(o.dtype))
    throw ValidationError("out.dtype: coordinates need an integer dtype, got " + std::string(dtype_enum_name(o.dtype)));
  // Every coordinate must fit, whatever the data: the largest is max(shape) - 1.
  const std::int64_t largest = a.ndim ? *std::max_element(a.shape, a.shape + a.ndim) - 1 : 0;
  const int bits = static_cast<int>(itemsize(o.dtype)) * 8 - (is_signed_int_dtype(o.dtype) ? 1 : 0);
  if (bits < 63 && largest >= (std::int64_t{1} << bits))
    throw ValidationError("out.dtype: " + std::string(dtype_enum_name(o.dtype)) + " cannot hold coordinate " +
                          std::to_string(largest));
  if (K == 0 || a.ndim == 0) return K;
  const detail::Target t{static_cast<std::byte*>(o.data), o.dtype, o.strides[0], o.strides[1], a.ndim};
  detail::write(sc, s.total, a.shape, a.ndim, t, K);
  return K;
}

std::vector<std::int64_t> argwhere(const ConstArrayView& x) {
  std::vector<std::int64_t> rows;
  const std::int64_t n = static_cast<std::int64_t>(x.sizes.size());
  argwhere(x, [&](std::int64_t k) {
    rows.resize(static_cast<std::size_t>(k * n));
    return ArrayView{DataType::INT64, rows.data(), {k, n}, {n * 8, 8}};
  });
  return rows;
}

}  // namespace strided
