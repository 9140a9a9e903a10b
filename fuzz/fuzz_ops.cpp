// libFuzzer target for the security boundary: bytes -> a description (any operator, valid or
// not) -> validate -> compile -> execute on buffers sized from the description.
// Properties checked (a violation aborts, which libFuzzer reports as a crash):
//  * only strided::Error escapes (ValidationError from TensorDesc/validate/compile, IndexError /
//    BufferError from execute); compile() rejects exactly what validate() rejects;
//  * no byte outside [0, total_bytes) of any buffer is read or written: each buffer sits between
//    guard zones that ASan poisons (reads and writes caught) and that hold canary bytes (writes
//    caught without ASan too);
//  * inputs are never written; a failed execute leaves every output byte as it was;
//  * outputs equal a slow reference loop (element by element) for Identity, Slice, Slice1, Split,
//    Join, Tile, SpaceToDepth, DepthToSpace, FillValueConstant, Padding (all modes), SliceGrad,
//    Unfold, DiagonalMatrix, and (from the indices executed) OneHot, ReverseSubsequences and
//    MaxUnpooling, NonzeroCoordinates, FillValueSequence (integer types);
//  * two outputs placed in one buffer (some byte shift apart) give BufferError exactly when
//    their elements share a byte (SPEC 3.0 rule 3), and are correct otherwise;
//  * indices rewritten by another thread during execute never move an access out of bounds
//    (rule 2), and any thread count / OpenMP team works (scripts/run_fuzz.sh sets OMP_DYNAMIC).
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <thread>
#include <type_traits>
#include <variant>
#include <vector>

#include "strided/strided.hpp"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STRIDED_FUZZ_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define STRIDED_FUZZ_ASAN 1
#endif
#ifdef STRIDED_FUZZ_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

using namespace strided;

namespace {

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "strided fuzz: property violated: %s\n", what);
  std::abort();
}

// Reads the fuzz input; past its end every read yields 0 (so any prefix is a complete case).
class Reader {
 public:
  Reader(const std::uint8_t* d, std::size_t n) : d_(d), n_(n) {}
  std::uint8_t byte() { return pos_ < n_ ? d_[pos_++] : 0; }
  std::uint64_t raw64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | byte();
    return v;
  }
  // Mostly small values; sometimes a boundary value or 64 raw bits (overflow hunting).
  std::int64_t small(int lo, int span) {
    const std::uint8_t s = byte();
    if (s < 232) return lo + s % span;
    switch (s) {
      case 232: return 0;
      case 233: return -1;
      case 234: return INT64_MAX;
      case 235: return INT64_MIN;
      case 236: return (std::int64_t{1} << 32) - 1;
      case 237: return std::int64_t{1} << 32;
      case 238: return std::int64_t{1} << 62;
      case 239: return 8;
      case 240: return 9;
      default: return static_cast<std::int64_t>(raw64());
    }
  }
  std::size_t left() const { return pos_ < n_ ? n_ - pos_ : 0; }

 private:
  const std::uint8_t* d_;
  std::size_t n_;
  std::size_t pos_ = 0;
};

constexpr DataType kIndexTypes[] = {DataType::INT32, DataType::INT64, DataType::UINT32, DataType::UINT64};

DataType read_dtype(Reader& r) {
  const std::uint8_t b = r.byte();
  return b == 255 ? static_cast<DataType>(r.byte()) : static_cast<DataType>(b % 12);  // 0 = UNKNOWN
}

// A tensor description: either "like" a template (same dtype/sizes; new strides) or free.
TensorDesc read_tensor(Reader& r, const TensorDesc* like, bool index_tensor = false) {
  const std::uint8_t mode = r.byte();
  DataType dt;
  std::vector<std::int64_t> sizes;
  if (like != nullptr && mode % 4 != 3) {
    dt = like->dtype();
    sizes = like->sizes();
    if (mode % 4 == 2 && !sizes.empty()) {  // perturb one size
      const std::size_t k = r.byte() % sizes.size();
      sizes[k] = r.small(1, 4);
    }
  } else {
    dt = index_tensor ? kIndexTypes[r.byte() % 4] : read_dtype(r);
    if (index_tensor && r.byte() == 255) dt = read_dtype(r);
    const int nd = static_cast<int>(r.byte() % 10);  // 0 and 9 are invalid
    for (int i = 0; i < nd; ++i) sizes.push_back(r.small(1, 4));
  }
  if (index_tensor && like != nullptr && mode % 8 == 4) dt = kIndexTypes[r.byte() % 4];
  std::vector<std::int64_t> strides;
  const std::uint8_t sm = r.byte();
  if (sm % 3 == 1) {  // random small strides, 0 broadcasts
    for (std::size_t i = 0; i < sizes.size(); ++i) strides.push_back(r.small(0, 7));
  } else if (sm % 3 == 2 && !sizes.empty()) {  // a permuted / padded packed layout
    std::vector<int> order(sizes.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[r.byte() % i]);
    std::int64_t s = 1 + r.byte() % 2;
    strides.assign(sizes.size(), 0);
    for (std::size_t i = order.size(); i-- > 0;) {
      strides[static_cast<std::size_t>(order[i])] = s;
      s *= std::max<std::int64_t>(1, std::min<std::int64_t>(sizes[static_cast<std::size_t>(order[i])], 64));
    }
  }
  const std::uint8_t tb = r.byte();
  std::uint64_t total = 0;
  if (tb >= 250) total = r.raw64();
  else if (tb >= 200) total = tb - 200u;  // may be below the minimum
  std::uint32_t align = 0;
  const std::uint8_t al = r.byte();
  if (al >= 240) align = 1u << (al % 8);
  else if (al >= 236) align = al;
  const std::uint8_t fl = r.byte();
  const auto flags = static_cast<TensorFlags>(fl >= 250 ? fl % 4 : 0);
  if (total == 0 && tb < 200 && tb % 5 == 0) {  // padded total_bytes: slack after the minimum
    try {
      total = calc_buffer_tensor_size(dt, sizes, strides) + 4u * (tb % 7);
    } catch (const ValidationError&) {
    }
  }
  return TensorDesc(dt, sizes, strides, total, align, flags);
}

std::vector<std::int64_t> read_params(Reader& r, std::size_t n, int lo, int span) {
  std::vector<std::int64_t> v;
  const std::uint8_t b = r.byte();
  if (b >= 250) n = b % 10;  // a wrong count
  for (std::size_t i = 0; i < n; ++i) v.push_back(r.small(lo, span));
  return v;
}

// A tensor of the given dtype and sizes: packed half the time, else read_tensor's variations of
// it (other strides, padded total_bytes, sometimes a perturbed size or a free tensor).
TensorDesc read_shaped(Reader& r, DataType dt, const std::vector<std::int64_t>& sizes) {
  TensorDesc t(dt, sizes);
  return r.byte() % 2 ? t : read_tensor(r, &t);
}

// A DiagonalMatrix bound: small, sometimes INT32's extremes or (invalid) beyond them.
std::int64_t read_bound(Reader& r) {
  const std::uint8_t b = r.byte();
  if (b == 250) return INT32_MIN;
  if (b == 251) return INT32_MAX;
  if (b == 252) return std::int64_t{INT32_MAX} + 1;
  return r.small(-4, 9);
}

Scalar read_scalar(Reader& r, DataType like) {
  std::uint64_t bits = 0;
  for (int k = 0; k < 8; ++k) bits = bits << 8 | r.byte();
  return Scalar{r.byte() % 8 ? like : DataType::FLOAT64, bits};  // sometimes a mismatched dtype
}

bool all_within(const std::vector<std::int64_t>& v, std::int64_t lo, std::int64_t hi) {
  return std::all_of(v.begin(), v.end(), [&](std::int64_t x) { return lo <= x && x <= hi; });
}

AnyDesc read_desc(Reader& r) {
  // Seeds' first byte below 200 keeps fuzz/make_corpus.py's numbering (op % 10); 200 and above
  // reach the operators added after it.
  const std::uint8_t pick = r.byte();
  const int op = pick < 200 ? pick % 10 : 10 + (pick - 200) % 14;
  TensorDesc in = read_tensor(r, nullptr);
  const std::size_t nd = static_cast<std::size_t>(in.ndim());
  const bool modest = all_within(in.sizes(), 0, 1 << 20);  // derived sizes cannot overflow
  switch (op) {
    case 0: return IdentityDesc{in, read_tensor(r, &in)};
    case 1: {
      const std::int64_t axis = r.small(0, static_cast<int>(nd));
      std::vector<TensorDesc> outs;
      const int n = 1 + r.byte() % 4;
      for (int k = 0; k < n; ++k) outs.push_back(read_tensor(r, &in));
      return SplitDesc{in, outs, axis};
    }
    case 2: {
      const std::int64_t axis = r.small(0, static_cast<int>(nd));
      std::vector<TensorDesc> ins{in};
      const int n = r.byte() % 4;
      for (int k = 0; k < n; ++k) ins.push_back(read_tensor(r, &in));
      return JoinDesc{ins, read_tensor(r, &in), axis};
    }
    case 3:
    case 4: {
      TensorDesc out = read_tensor(r, &in);
      auto offsets = read_params(r, nd, 0, 3);
      auto sizes = read_params(r, nd, 1, 4);
      auto strides = read_params(r, nd, op == 3 ? 1 : -3, op == 3 ? 3 : 7);
      if (op == 3) return SliceDesc{in, out, offsets, sizes, strides};
      return Slice1Desc{in, out, offsets, sizes, strides};
    }
    case 5: {
      TensorDesc idx = read_tensor(r, &in, true);
      TensorDesc out = read_tensor(r, &in);
      const std::int64_t axis = r.small(0, static_cast<int>(nd));
      return GatherDesc{in, idx, out, axis, r.small(0, static_cast<int>(nd) + 1)};
    }
    case 6: {
      TensorDesc idx = read_tensor(r, &in, true);
      TensorDesc out = read_tensor(r, &idx);
      if (out.dtype() != in.dtype() && r.byte() % 2)
        out = TensorDesc(in.dtype(), out.sizes(), out.has_strides() ? out.strides() : std::vector<std::int64_t>{});
      return GatherElementsDesc{in, idx, out, r.small(0, static_cast<int>(nd))};
    }
    case 7: {
      TensorDesc idx = read_tensor(r, &in, true);
      TensorDesc out = read_tensor(r, &in);
      const std::int64_t a = r.small(1, static_cast<int>(nd) + 1), b = r.small(1, static_cast<int>(nd) + 1);
      return GatherNDDesc{in, idx, out, a, b, r.small(0, 2)};
    }
    case 8: {
      TensorDesc idx = read_tensor(r, &in, true);
      TensorDesc upd = read_tensor(r, &idx);
      if (upd.dtype() != in.dtype() && r.byte() % 2) upd = TensorDesc(in.dtype(), upd.sizes());
      TensorDesc out = read_tensor(r, &in);
      return ScatterDesc{
          in, idx, upd, out, r.small(0, static_cast<int>(nd)), static_cast<ScatterReduction>(r.byte() % 6)};
    }
    case 10: return CastDesc{in, read_tensor(r, &in)};
    case 11: {
      TensorDesc out = read_tensor(r, &in);
      auto reps = read_params(r, nd, 0, 4);
      // mostly a matching (packed) output; `modest` and the bound keep the products from overflowing
      if (reps.size() == nd && modest && all_within(reps, 0, 1 << 20) && r.byte() % 2) {
        std::vector<std::int64_t> sizes = in.sizes();
        for (std::size_t i = 0; i < nd; ++i) sizes[i] *= std::max<std::int64_t>(reps[i], 1);
        out = TensorDesc(in.dtype(), sizes);
      }
      return TileDesc{in, out, reps};
    }
    case 12: {  // the description's only tensor is the output; its value's bits from the input
      std::uint64_t bits = 0;
      for (int k = 0; k < 8; ++k) bits = bits << 8 | r.byte();
      const DataType dt = r.byte() % 8 ? in.dtype() : DataType::FLOAT64;  // sometimes a mismatched dtype
      return FillValueConstantDesc{in, Scalar{dt, bits}};
    }
    case 13:
    case 14: {  // a packed output of the matching shape most of the time
      const std::int64_t b = r.small(0, 4);
      const auto order = static_cast<DepthSpaceOrder>(r.byte() % 3);  // 2: not an order
      TensorDesc out = read_tensor(r, &in);
      if (nd == 4 && b > 0 && b <= 64 && modest && r.byte() % 4) {  // (bounds: no overflow below)
        std::vector<std::int64_t> s = in.sizes();
        if (op == 13) {  // SpaceToDepth
          s[1] *= b * b;
          s[2] /= b;
          s[3] /= b;
        } else {
          s[1] /= b * b;
          s[2] *= b;
          s[3] *= b;
        }
        if (s[1] > 0 && s[2] > 0 && s[3] > 0) out = TensorDesc(in.dtype(), s);
      }
      if (op == 13) return SpaceToDepthDesc{in, out, b, order};
      return DepthToSpaceDesc{in, out, b, order};
    }
    case 9: {
      TensorDesc idx = read_tensor(r, &in, true);
      TensorDesc upd = read_tensor(r, &in);
      TensorDesc out = read_tensor(r, &in);
      const std::int64_t a = r.small(1, static_cast<int>(nd) + 1), b = r.small(1, static_cast<int>(nd) + 1);
      return ScatterNDDesc{in, idx, upd, out, a, b, static_cast<ScatterReduction>(r.byte() % 6)};
    }
    case 15: {  // Padding: pads often wider than the dimension (sizes 1-4, pads 0-6; 0-2 past 4
      // dimensions, where wide pads on every one make outputs of millions of elements: slow to check)
      const auto mode = static_cast<PaddingMode>(r.byte() % 6);  // 5: not a mode
      const int span = nd <= 4 ? 7 : 3;
      auto start = read_params(r, nd, 0, span), end = read_params(r, nd, 0, span);
      const Scalar value = read_scalar(r, in.dtype());
      TensorDesc out = read_tensor(r, &in);
      if (modest && start.size() == nd && end.size() == nd && all_within(start, 0, 64) && all_within(end, 0, 64) &&
          r.byte() % 4) {
        std::vector<std::int64_t> s = in.sizes();
        for (std::size_t i = 0; i < nd; ++i) s[i] += start[i] + end[i];
        out = read_shaped(r, in.dtype(), s);
      }
      return PaddingDesc{in, out, mode, value, start, end};
    }
    case 16: {  // OneHot: `in` is the output; indices of its sizes but 1 on the axis
      const std::int64_t axis = r.small(0, static_cast<int>(nd));
      TensorDesc idx = read_tensor(r, &in, true);
      if (axis >= 0 && static_cast<std::size_t>(axis) < nd && r.byte() % 4) {
        std::vector<std::int64_t> s = in.sizes();
        s[static_cast<std::size_t>(axis)] = 1;
        idx = read_shaped(r, kIndexTypes[r.byte() % 4], s);
      }
      std::vector<std::int64_t> vs(std::max<std::size_t>(nd, 1), 1);  // {1,..,1, 1 to 3}: off, on (and more)
      vs.back() = r.small(1, 3);
      TensorDesc values = r.byte() % 4 ? read_shaped(r, in.dtype(), vs) : read_tensor(r, nullptr);
      return OneHotDesc{idx, values, in, axis};
    }
    case 17: {  // ReverseSubsequences: lengths of the input's sizes but 1 on the axis
      const std::int64_t axis = r.small(0, static_cast<int>(nd));
      TensorDesc len = read_tensor(r, &in, true);
      if (axis >= 0 && static_cast<std::size_t>(axis) < nd && r.byte() % 4) {
        std::vector<std::int64_t> s = in.sizes();
        s[static_cast<std::size_t>(axis)] = 1;
        len = read_shaped(r, kIndexTypes[r.byte() % 4], s);
      }
      return ReverseSubsequencesDesc{in, len, read_tensor(r, &in), axis};
    }
    case 18: {  // SliceGrad: `in` is the output gradient (Slice1's input); the gradient mostly fits
      auto offsets = read_params(r, nd, 0, 3), sizes = read_params(r, nd, 1, 4), strides = read_params(r, nd, -3, 7);
      TensorDesc grad = read_tensor(r, &in);
      if (sizes.size() == nd && strides.size() == nd && all_within(sizes, 1, 64) && all_within(strides, -8, 8) &&
          r.byte() % 4) {
        std::vector<std::int64_t> g(nd);
        for (std::size_t i = 0; i < nd; ++i) {
          const std::int64_t a = strides[i] < 0 ? -strides[i] : std::max<std::int64_t>(strides[i], 1);
          g[i] = (sizes[i] + a - 1) / a;
        }
        grad = read_shaped(r, in.dtype(), g);
      }
      return SliceGradDesc{grad, in, offsets, sizes, strides};
    }
    case 19: {  // DiagonalMatrix: `in` is the output; an input (DiagonalMatrix1's) half the time
      const Scalar value = read_scalar(r, in.dtype());
      const std::int64_t begin = read_bound(r), end = read_bound(r);
      std::optional<TensorDesc> input;
      if (r.byte() % 2) input = read_tensor(r, &in);
      return DiagonalMatrixDesc{in, value, begin, end, input};
    }
    case 20: {  // FillValueSequence: `in` is the output
      const Scalar start = read_scalar(r, in.dtype()), delta = read_scalar(r, in.dtype());
      return FillValueSequenceDesc{in, start, delta};
    }
    case 21: {  // NonzeroCoordinates: UINT32 outputs {1,..,1} and {1,..,1, M, N} most of the time
      TensorDesc count =
          r.byte() % 4 ? read_shaped(r, DataType::UINT32, std::vector<std::int64_t>(nd, 1)) : read_tensor(r, nullptr);
      TensorDesc coords = read_tensor(r, nullptr);
      const std::size_t m = 2 + r.byte() % 3;
      if (r.byte() % 4) {
        std::vector<std::int64_t> s(m, 1);
        s[m - 2] = static_cast<std::int64_t>(in.element_count());
        s[m - 1] = 1 + static_cast<std::int64_t>(r.byte() % std::max<std::size_t>(nd, 1));
        coords = read_shaped(r, DataType::UINT32, s);
      }
      return NonzeroCoordinatesDesc{in, count, coords};
    }
    case 22: {  // MaxUnpooling: indices of the input's sizes; an output of 1-2x its sizes
      TensorDesc idx = r.byte() % 4 ? read_shaped(r, kIndexTypes[r.byte() % 4], in.sizes()) : read_tensor(r, &in, true);
      TensorDesc out = read_tensor(r, &in);
      if (modest && r.byte() % 2) {
        std::vector<std::int64_t> s = in.sizes();
        for (auto& v : s) v *= 1 + r.byte() % 2;
        out = read_shaped(r, in.dtype(), s);
      }
      return MaxUnpoolingDesc{in, idx, out};
    }
    case 23: {  // Unfold: `in` is {N, C, S...}; D = nd - 2 values each; the output mostly fits
      const std::size_t D = nd >= 2 ? nd - 2 : 0;
      auto window = read_params(r, D, 1, 3), strides = read_params(r, D, 1, 3), dil = read_params(r, D, 1, 2);
      auto start = read_params(r, D, 0, 3), end = read_params(r, D, 0, 3);
      TensorDesc out = read_tensor(r, &in);
      const bool small = all_within(window, 1, 8) && all_within(strides, 1, 8) && all_within(dil, 1, 8) &&
                         all_within(start, 0, 8) && all_within(end, 0, 8);
      if (D >= 1 && modest && small && window.size() == D && strides.size() == D && dil.size() == D &&
          start.size() == D && end.size() == D && r.byte() % 4) {
        std::int64_t K = 1, L = 1;
        for (std::size_t d = 0; d < D; ++d) {
          K *= window[d];
          const std::int64_t span = in.sizes()[d + 2] + start[d] + end[d] - dil[d] * (window[d] - 1) - 1;
          L = std::min<std::int64_t>(L * (span < 0 ? 0 : span / strides[d] + 1), std::int64_t{1} << 40);
        }
        if (L > 0) {
          std::vector<std::int64_t> s(r.byte() % 3, 1);  // leading 1s
          s.insert(s.end(), {in.sizes()[0], in.sizes()[1] * K, L});
          out = read_shaped(r, in.dtype(), s);
        }
      }
      return UnfoldDesc{in, out, window, strides, dil, start, end};
    }
    default: return IdentityDesc{in, in};  // not reached
  }
}

// A buffer of `bytes` between two guard zones (poisoned under ASan, canary-filled always).
constexpr std::size_t kGuard = 64;
constexpr std::uint8_t kCanary = 0xA5;
struct Guarded {
  std::vector<std::uint8_t> mem;
  std::size_t bytes;
  explicit Guarded(std::size_t n) : mem(n + 2 * kGuard, kCanary), bytes(n) {
    POISON(mem.data(), kGuard);
    POISON(mem.data() + kGuard + n, kGuard);
  }
  ~Guarded() { UNPOISON(mem.data(), mem.size()); }
  Guarded(const Guarded&) = delete;
  Guarded& operator=(const Guarded&) = delete;
  std::uint8_t* data() { return mem.data() + kGuard; }
  bool guards_intact() {
    UNPOISON(mem.data(), mem.size());
    bool ok = true;
    for (std::size_t i = 0; i < kGuard; ++i) ok = ok && mem[i] == kCanary && mem[kGuard + bytes + i] == kCanary;
    POISON(mem.data(), kGuard);
    POISON(mem.data() + kGuard + bytes, kGuard);
    return ok;
  }
};

// Element byte offsets of a description, in row-major logical order.
std::vector<std::uint64_t> element_offsets(const TensorDesc& t) {
  std::vector<std::uint64_t> offs;
  offs.reserve(t.element_count());
  std::vector<std::int64_t> c(t.sizes().size(), 0);
  for (std::uint64_t n = 0; n < t.element_count(); ++n) {
    std::uint64_t o = 0;
    for (std::size_t d = 0; d < c.size(); ++d) o += static_cast<std::uint64_t>(c[d] * t.strides()[d]);
    offs.push_back(o * t.itemsize());
    for (std::size_t d = c.size(); d-- > 0;) {
      if (++c[d] < t.sizes()[d]) break;
      c[d] = 0;
    }
  }
  return offs;
}

bool has_duplicates(std::vector<std::uint64_t> v) {
  std::sort(v.begin(), v.end());
  return std::adjacent_find(v.begin(), v.end()) != v.end();
}

// Reference for the copy operators: for each output element (row-major), the source byte offset
// in which input. Returns false when the operator has no reference here.
// `input` kConst: the bytes at `offset` of `consts` (zeros at 0, a description's value at 8).
struct Src {
  std::size_t input;
  std::uint64_t offset;
};
constexpr std::size_t kConst = SIZE_MAX;
// An index element as int64 (UINT64 values above INT64_MAX saturate: out of range anyway).
std::int64_t index_at(DataType dt, const std::uint8_t* p) {
  switch (dt) {
    case DataType::INT32: {
      std::int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case DataType::UINT32: {
      std::uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case DataType::UINT64: {
      std::uint64_t v;
      std::memcpy(&v, p, 8);
      return v > static_cast<std::uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(v);
    }
    default: {
      std::int64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }
  }
}

// `bufs`: the inputs' bytes (the index operators' references read their indices there).
bool reference_sources(const AnyDesc& any, std::vector<std::vector<Src>>& per_output, std::vector<std::uint8_t>& consts,
                       const std::vector<std::vector<std::uint8_t>>& bufs) {
  consts.assign(16, 0);
  const auto set_value = [&consts](const Scalar& v) {
    const std::uint64_t bits = v.value_bits();  // the low itemsize bytes (little-endian hosts)
    std::memcpy(consts.data() + 8, &bits, 8);
  };
  auto coords_of = [](const TensorDesc& t, std::uint64_t n) {
    std::vector<std::int64_t> c(t.sizes().size());
    for (std::size_t d = c.size(); d-- > 0;) {
      c[d] = static_cast<std::int64_t>(n % static_cast<std::uint64_t>(t.sizes()[d]));
      n /= static_cast<std::uint64_t>(t.sizes()[d]);
    }
    return c;
  };
  auto at = [](const TensorDesc& t, const std::vector<std::int64_t>& c) {
    std::int64_t o = 0;
    for (std::size_t d = 0; d < c.size(); ++d) o += c[d] * t.strides()[d];
    return static_cast<std::uint64_t>(o) * t.itemsize();
  };
  if (const auto* d = std::get_if<IdentityDesc>(&any)) {
    per_output.resize(1);
    for (std::uint64_t n = 0; n < d->output.element_count(); ++n)
      per_output[0].push_back({0, at(d->input, coords_of(d->output, n))});
    return true;
  }
  if (const auto* d = std::get_if<SliceDesc>(&any)) {
    per_output.resize(1);
    for (std::uint64_t n = 0; n < d->output.element_count(); ++n) {
      auto c = coords_of(d->output, n);
      for (std::size_t i = 0; i < c.size(); ++i) c[i] = d->offsets[i] + d->strides[i] * c[i];
      per_output[0].push_back({0, at(d->input, c)});
    }
    return true;
  }
  if (const auto* d = std::get_if<Slice1Desc>(&any)) {
    per_output.resize(1);
    for (std::uint64_t n = 0; n < d->output.element_count(); ++n) {
      auto c = coords_of(d->output, n);
      for (std::size_t i = 0; i < c.size(); ++i)
        c[i] = d->offsets[i] + (d->strides[i] < 0 ? d->sizes[i] - 1 : 0) + d->strides[i] * c[i];
      per_output[0].push_back({0, at(d->input, c)});
    }
    return true;
  }
  if (const auto* d = std::get_if<TileDesc>(&any)) {
    per_output.resize(1);
    for (std::uint64_t n = 0; n < d->output.element_count(); ++n) {
      auto c = coords_of(d->output, n);
      for (std::size_t i = 0; i < c.size(); ++i) c[i] %= d->input.sizes()[i];
      per_output[0].push_back({0, at(d->input, c)});
    }
    return true;
  }
  // SPEC 3.8: space[n, c, h*b + bh, w*b + bw] = depth[n, d, h, w], d by the order.
  const auto depth_index = [](DepthSpaceOrder o, std::int64_t b, std::int64_t C, std::int64_t c, std::int64_t bh,
                              std::int64_t bw) {
    return o == DepthSpaceOrder::DEPTH_COLUMN_ROW ? (bh * b + bw) * C + c : (c * b + bh) * b + bw;
  };
  if (const auto* d = std::get_if<DepthToSpaceDesc>(&any)) {
    per_output.resize(1);
    const std::int64_t b = d->block_size, C = d->output.sizes()[1];
    for (std::uint64_t n = 0; n < d->output.element_count(); ++n) {
      const auto c = coords_of(d->output, n);
      const std::vector<std::int64_t> src{c[0], depth_index(d->order, b, C, c[1], c[2] % b, c[3] % b), c[2] / b,
                                          c[3] / b};
      per_output[0].push_back({0, at(d->input, src)});
    }
    return true;
  }
  if (const auto* d = std::get_if<SpaceToDepthDesc>(&any)) {
    per_output.resize(1);
    const std::int64_t b = d->block_size, C = d->input.sizes()[1];
    for (std::uint64_t n = 0; n < d->output.element_count(); ++n) {
      const auto c = coords_of(d->output, n);
      std::int64_t ch = 0, bh = 0, bw = 0;  // invert depth_index
      if (d->order == DepthSpaceOrder::DEPTH_COLUMN_ROW) {
        ch = c[1] % C;
        bh = c[1] / C / b;
        bw = c[1] / C % b;
      } else {
        ch = c[1] / (b * b);
        bh = c[1] / b % b;
        bw = c[1] % b;
      }
      per_output[0].push_back({0, at(d->input, {c[0], ch, c[2] * b + bh, c[3] * b + bw})});
    }
    return true;
  }
  // SPEC 3.6: j = c - start; CONSTANT outside: the value; the other modes fold j into [0, m).
  if (const auto* d = std::get_if<PaddingDesc>(&any)) {
    per_output.resize(1);
    set_value(d->padding_value);
    const auto mod = [](std::int64_t a, std::int64_t p) { return (a % p + p) % p; };
    for (std::uint64_t n = 0; n < d->output.element_count(); ++n) {
      auto c = coords_of(d->output, n);
      bool inside = true;
      for (std::size_t i = 0; i < c.size(); ++i) {
        const std::int64_t j = c[i] - d->start_padding[i], m = d->input.sizes()[i];
        inside = inside && 0 <= j && j < m;
        if (m == 0) {  // an empty input: only CONSTANT has values to write (else a validation gap)
          c[i] = 0;
          continue;
        }
        switch (d->padding_mode) {
          case PaddingMode::EDGE: c[i] = std::clamp<std::int64_t>(j, 0, m - 1); break;
          case PaddingMode::REFLECTION: {
            const std::int64_t p = 2 * (m - 1), k = m == 1 ? 0 : mod(j, p);
            c[i] = k < m ? k : p - k;
            break;
          }
          case PaddingMode::SYMMETRIC: {
            const std::int64_t k = mod(j, 2 * m);
            c[i] = k < m ? k : 2 * m - 1 - k;
            break;
          }
          default: c[i] = mod(j, m);  // WRAP; CONSTANT uses it only inside
        }
      }
      if (d->padding_mode == PaddingMode::CONSTANT && !inside) per_output[0].push_back({kConst, 8});
      else per_output[0].push_back({0, at(d->input, c)});
    }
    return true;
  }
  // SPEC 3.11: zeros, then out[start + strides * c] = grad[c].
  if (const auto* d = std::get_if<SliceGradDesc>(&any)) {
    const TensorDesc &g = d->input_gradient, &o = d->output_gradient;
    per_output.assign(1, std::vector<Src>(o.element_count(), Src{kConst, 0}));
    for (std::uint64_t n = 0; n < g.element_count(); ++n) {
      const auto c = coords_of(g, n);
      std::uint64_t lin = 0;  // the output element's row-major index
      for (std::size_t i = 0; i < c.size(); ++i) {
        const std::int64_t st = d->input_window_strides[i];
        const std::int64_t p = d->input_window_offsets[i] + (st < 0 ? d->input_window_sizes[i] - 1 : 0) + st * c[i];
        lin = lin * static_cast<std::uint64_t>(o.sizes()[i]) + static_cast<std::uint64_t>(p);
      }
      if (lin >= per_output[0].size()) fail("SliceGrad window outside the output (validation gap)");
      per_output[0][lin] = {0, at(g, c)};
    }
    return true;
  }
  // SPEC 3.14.3: out[.., n, c*K + w, l] = in[n, c, b*stride - start + w*dilation], 0 in the padding.
  if (const auto* d = std::get_if<UnfoldDesc>(&any)) {
    per_output.resize(1);
    const std::size_t D = d->window_sizes.size();
    std::int64_t K = 1;
    std::vector<std::int64_t> B(D);
    for (std::size_t i = 0; i < D; ++i) {
      K *= d->window_sizes[i];
      B[i] = (d->input.sizes()[i + 2] + d->start_padding[i] + d->end_padding[i] -
              d->dilations[i] * (d->window_sizes[i] - 1) - 1) /
                 d->strides[i] +
             1;
    }
    for (std::uint64_t n = 0; n < d->output.element_count(); ++n) {
      const auto c = coords_of(d->output, n);
      const std::size_t r = c.size();
      std::int64_t w = c[r - 2] % K, l = c[r - 1];
      std::vector<std::int64_t> src(D + 2);
      src[0] = c[r - 3];
      src[1] = c[r - 2] / K;
      bool inside = true;
      for (std::size_t i = D; i-- > 0;) {  // row-major: the last dimension varies fastest
        const std::int64_t wi = w % d->window_sizes[i], bi = l % B[i];
        w /= d->window_sizes[i];
        l /= B[i];
        const std::int64_t p = bi * d->strides[i] - d->start_padding[i] + wi * d->dilations[i];
        inside = inside && 0 <= p && p < d->input.sizes()[i + 2];
        src[i + 2] = p;
      }
      per_output[0].push_back(inside ? Src{0, at(d->input, src)} : Src{kConst, 0});
    }
    return true;
  }
  // SPEC 3.12: t = column - row; fill = (end >= begin) ^ (t >= begin) ^ (t < end).
  if (const auto* d = std::get_if<DiagonalMatrixDesc>(&any)) {
    per_output.resize(1);
    set_value(d->value);
    const std::int64_t b = d->diagonal_fill_begin, e = d->diagonal_fill_end;
    for (std::uint64_t n = 0; n < d->output.element_count(); ++n) {
      const auto c = coords_of(d->output, n);
      const std::int64_t t = c[c.size() - 1] - c[c.size() - 2];
      if ((e >= b) ^ (t >= b) ^ (t < e)) per_output[0].push_back({kConst, 8});
      else if (d->input) per_output[0].push_back({0, at(*d->input, c)});
      else per_output[0].push_back({kConst, 0});
    }
    return true;
  }
  if (const auto* d = std::get_if<FillValueConstantDesc>(&any)) {
    set_value(d->value);
    per_output.assign(1, std::vector<Src>(d->output.element_count(), Src{kConst, 8}));
    return true;
  }
  // SPEC 3.9: out[c] = c[axis] == i ? on : off, i = idx[c with c[axis] = 0] (+ size when negative).
  const auto index = [&bufs, &at](std::size_t input, const TensorDesc& t, const std::vector<std::int64_t>& c) {
    const std::uint64_t o = at(t, c);
    if (o + t.itemsize() > bufs[input].size()) fail("reference read out of the indices (validation gap)");
    return index_at(t.dtype(), bufs[input].data() + o);
  };
  if (const auto* d = std::get_if<OneHotDesc>(&any)) {
    per_output.resize(1);
    const auto axis = static_cast<std::size_t>(d->axis);
    const std::uint64_t off = at(d->values, coords_of(d->values, 0)), on = at(d->values, coords_of(d->values, 1));
    for (std::uint64_t n = 0; n < d->output.element_count(); ++n) {
      auto c = coords_of(d->output, n);
      const std::int64_t k = c[axis];
      c[axis] = 0;
      std::int64_t i = index(0, d->indices, c);
      if (i < 0) i += d->output.sizes()[axis];
      per_output[0].push_back({1, k == i ? on : off});
    }
    return true;
  }
  // SPEC 3.10: L = min(length, m); out[c] = c[axis] < L ? in[c with c[axis] = L - 1 - c[axis]] : in[c].
  if (const auto* d = std::get_if<ReverseSubsequencesDesc>(&any)) {
    per_output.resize(1);
    const auto axis = static_cast<std::size_t>(d->axis);
    for (std::uint64_t n = 0; n < d->output.element_count(); ++n) {
      auto c = coords_of(d->output, n);
      const std::int64_t k = c[axis];
      c[axis] = 0;
      const std::int64_t len = index(1, d->sequence_lengths, c);
      if (len < 0) fail("ReverseSubsequences executed a negative length");
      const std::int64_t L = std::min(len, d->input.sizes()[axis]);
      c[axis] = k < L ? L - 1 - k : k;
      per_output[0].push_back({0, at(d->input, c)});
    }
    return true;
  }
  // SPEC 3.14.2: zeros, then out[row-major position idx[c] (+ M when negative)] = in[c], the last wins.
  if (const auto* d = std::get_if<MaxUnpoolingDesc>(&any)) {
    const std::uint64_t M = d->output.element_count();
    per_output.assign(1, std::vector<Src>(M, Src{kConst, 0}));
    for (std::uint64_t n = 0; n < d->input.element_count(); ++n) {
      const auto c = coords_of(d->input, n);
      std::int64_t p = index(1, d->indices, c);
      if (p < 0) p += static_cast<std::int64_t>(M);
      if (p < 0 || static_cast<std::uint64_t>(p) >= M) fail("MaxUnpooling executed an index out of range");
      per_output[0][static_cast<std::uint64_t>(p)] = {0, at(d->input, c)};
    }
    return true;
  }
  // SPEC 3.13, integer types: (start + k * delta) mod 2^bits, k the row-major index.
  if (const auto* d = std::get_if<FillValueSequenceDesc>(&any)) {
    if (is_float_dtype(d->output.dtype())) return false;
    per_output.resize(1);
    const std::uint64_t a = d->value_start.value_bits(), b = d->value_delta.value_bits();
    for (std::uint64_t n = 0; n < d->output.element_count(); ++n) {
      const std::uint64_t v = a + n * b;  // the low bytes are the value modulo 2^bits
      per_output[0].push_back({kConst, consts.size()});
      consts.insert(consts.end(), reinterpret_cast<const std::uint8_t*>(&v),
                    reinterpret_cast<const std::uint8_t*>(&v) + 8);
    }
    return true;
  }
  // SPEC 3.14.1: K = the non-zero count (+-0.0 are zero); row j < K the last N coordinates of the
  // j-th non-zero element (row-major), rows j >= K zeros.
  if (const auto* d = std::get_if<NonzeroCoordinatesDesc>(&any)) {
    const TensorDesc& in = d->input;
    const std::size_t w = in.itemsize();
    const std::uint64_t M = in.element_count();
    const auto N = static_cast<std::size_t>(d->output_coordinates.sizes().back());
    std::vector<std::uint32_t> rows(M * N, 0);
    std::uint32_t K = 0;
    for (std::uint64_t n = 0; n < M; ++n) {
      const auto c = coords_of(in, n);
      std::uint8_t e[8] = {};
      const std::uint64_t o = at(in, c);
      if (o + w > bufs[0].size()) fail("reference read out of the input (validation gap)");
      std::memcpy(e, bufs[0].data() + o, w);
      if (is_float_dtype(in.dtype())) e[w - 1] &= 0x7F;  // the sign bit: -0.0 is zero
      if (std::all_of(e, e + w, [](std::uint8_t x) { return x == 0; })) continue;
      for (std::size_t k = 0; k < N; ++k) rows[K * N + k] = static_cast<std::uint32_t>(c[c.size() - N + k]);
      ++K;
    }
    per_output.resize(2);
    const auto put = [&consts](std::uint32_t v) {
      const std::uint64_t o = consts.size();
      consts.insert(consts.end(), reinterpret_cast<const std::uint8_t*>(&v),
                    reinterpret_cast<const std::uint8_t*>(&v) + 4);
      return Src{kConst, o};
    };
    per_output[0].push_back(put(K));
    for (const std::uint32_t v : rows) per_output[1].push_back(put(v));
    return true;
  }
  if (const auto* d = std::get_if<SplitDesc>(&any)) {
    const auto axis = static_cast<std::size_t>(d->axis);
    std::int64_t base = 0;
    per_output.resize(d->outputs.size());
    for (std::size_t k = 0; k < d->outputs.size(); ++k) {
      for (std::uint64_t n = 0; n < d->outputs[k].element_count(); ++n) {
        auto c = coords_of(d->outputs[k], n);
        c[axis] += base;
        per_output[k].push_back({0, at(d->input, c)});
      }
      base += d->outputs[k].sizes()[axis];
    }
    return true;
  }
  if (const auto* d = std::get_if<JoinDesc>(&any)) {
    const auto axis = static_cast<std::size_t>(d->axis);
    per_output.resize(1);
    for (std::uint64_t n = 0; n < d->output.element_count(); ++n) {
      auto c = coords_of(d->output, n);
      std::size_t k = 0;
      while (c[axis] >= d->inputs[k].sizes()[axis]) c[axis] -= d->inputs[k++].sizes()[axis];
      per_output[0].push_back({k, at(d->inputs[k], c)});
    }
    return true;
  }
  return false;
}

std::vector<const TensorDesc*> outputs_of(const AnyDesc& any) {
  return std::visit(
      [](const auto& d) -> std::vector<const TensorDesc*> {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<D, SplitDesc>) {
          std::vector<const TensorDesc*> v;
          for (const auto& t : d.outputs) v.push_back(&t);
          return v;
        } else if constexpr (std::is_same_v<D, NonzeroCoordinatesDesc>) {
          return {&d.output_count, &d.output_coordinates};
        } else if constexpr (std::is_same_v<D, SliceGradDesc>) {
          return {&d.output_gradient};
        } else {
          return {&d.output};
        }
      },
      any);
}

// Fill an index buffer with small in-range-ish values of its dtype (so some index cases run).
void fill_small_indices(std::uint8_t* p, std::size_t bytes, DataType dt, Reader& r) {
  const std::size_t w = itemsize(dt);
  const bool is_signed = dt == DataType::INT32 || dt == DataType::INT64;
  for (std::size_t o = 0; o + w <= bytes; o += w) {
    std::int64_t v = r.byte() % 4;
    if (is_signed && r.byte() % 4 == 0) v = -v - 1;
    if (w == 4) {
      const auto x = static_cast<std::uint32_t>(v);
      std::memcpy(p + o, &x, 4);
    } else {
      std::memcpy(p + o, &v, 8);
    }
  }
}

constexpr std::uint64_t kMaxBufferBytes = std::uint64_t{1} << 24;  // larger cases are skipped

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Reader r(data, size);
  std::optional<AnyDesc> desc;
  try {
    desc.emplace(read_desc(r));
  } catch (const ValidationError&) {
    return 0;  // a bad TensorDesc: rejected at construction, as it must be
  }
  // Every query must either answer or throw ValidationError.
  bool valid = true;
  static const bool verbose = std::getenv("STRIDED_FUZZ_VERBOSE") != nullptr;
  try {
    validate(*desc);
  } catch (const ValidationError& e) {
    valid = false;
    if (verbose) std::fprintf(stderr, "%s: invalid: %s\n", desc_name(*desc).c_str(), e.what());
  }
  if (valid && verbose) std::fprintf(stderr, "%s: valid\n", desc_name(*desc).c_str());
  try {
    (void)min_feature_level(*desc);
  } catch (const ValidationError&) {
  }
  (void)is_valid_at(*desc, FeatureLevel::FL_2_1);
  std::optional<CompiledOperator> op;
  try {
    op.emplace(compile(*desc, CompileOptions{1 + r.byte() % 4}));
  } catch (const ValidationError&) {
    if (valid) fail("compile() threw ValidationError on a description validate() accepts");
    return 0;
  }
  if (!valid) fail("compile() accepted a description validate() rejects");

  // Buffers sized from the description; skip cases too large to execute quickly.
  // (Saturating: four buffers near 2^62 bytes each wrapped a plain sum past the cap.)
  std::uint64_t total = 0;
  auto add = [&total](std::uint64_t b) {
    total = b > kMaxBufferBytes || total + b > kMaxBufferBytes ? kMaxBufferBytes + 1 : total + b;
  };
  for (auto b : op->input_bytes()) add(b);
  for (auto b : op->output_bytes()) add(b);
  if (verbose) std::fprintf(stderr, "  buffers: %llu bytes\n", static_cast<unsigned long long>(total));
  if (total > kMaxBufferBytes) return 0;

  const std::uint8_t mode = r.byte();
  const bool small_indices = mode % 2 == 0;
  std::vector<std::unique_ptr<Guarded>> ins, outs;
  std::vector<ConstBuffer> in_bufs;
  std::vector<Buffer> out_bufs;
  for (std::size_t i = 0; i < op->input_count(); ++i) {
    ins.push_back(std::make_unique<Guarded>(op->input_bytes()[i]));
    auto* p = ins.back()->data();
    for (std::size_t k = 0; k < op->input_bytes()[i]; ++k) p[k] = static_cast<std::uint8_t>(k * 131 + i * 7 + 1);
    in_bufs.push_back({p, op->input_bytes()[i]});
  }
  // The index operators' indices (lengths for ReverseSubsequences): input 1, OneHot's input 0.
  std::size_t ii = 1;
  const TensorDesc* idx = std::visit(
      [&ii](const auto& d) -> const TensorDesc* {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<D, GatherDesc> || std::is_same_v<D, GatherElementsDesc> ||
                      std::is_same_v<D, GatherNDDesc> || std::is_same_v<D, ScatterDesc> ||
                      std::is_same_v<D, ScatterNDDesc> || std::is_same_v<D, MaxUnpoolingDesc>)
          return &d.indices;
        else if constexpr (std::is_same_v<D, OneHotDesc>) {
          ii = 0;
          return &d.indices;
        } else if constexpr (std::is_same_v<D, ReverseSubsequencesDesc>) return &d.sequence_lengths;
        else return nullptr;
      },
      *desc);
  if (idx != nullptr) {
    if (small_indices) fill_small_indices(ins[ii]->data(), op->input_bytes()[ii], idx->dtype(), r);
    else
      for (std::size_t k = 0; k < op->input_bytes()[ii]; ++k) ins[ii]->data()[k] = r.byte();
  }
  // NonzeroCoordinates: often an input with many zero bytes (so zero elements occur).
  if (std::holds_alternative<NonzeroCoordinatesDesc>(*desc) && mode % 4 == 2)
    for (std::size_t k = 0; k < op->input_bytes()[0]; ++k) ins[0]->data()[k] = r.byte() % 3 ? 0 : r.byte();
  std::vector<std::vector<std::uint8_t>> in_copy;
  for (std::size_t i = 0; i < ins.size(); ++i)
    in_copy.emplace_back(ins[i]->data(), ins[i]->data() + op->input_bytes()[i]);
  // Sometimes outputs 0 and 1 share one buffer, output 1 `shift` bytes in (rule 3).
  const bool alias = mode % 16 == 11 && op->output_count() >= 2;
  std::uint64_t shift = 0;
  std::vector<std::uint8_t*> out_ptr;
  for (std::size_t o = 0; o < op->output_count(); ++o) {
    const std::uint64_t n = op->output_bytes()[o];
    if (alias && o == 0) {
      shift = static_cast<std::uint64_t>(r.small(0, 64)) % (n + 1);
      outs.push_back(std::make_unique<Guarded>(std::max(n, shift + op->output_bytes()[1])));
    } else if (alias && o == 1) {
      out_bufs.push_back({outs[0]->data() + shift, n});
      out_ptr.push_back(outs[0]->data() + shift);
      continue;
    } else {
      outs.push_back(std::make_unique<Guarded>(n));
    }
    out_bufs.push_back({outs.back()->data(), n});
    out_ptr.push_back(outs.back()->data());
  }
  bool expect_alias_error = false;
  if (alias) {  // do outputs 0 and 1 share a byte? (sorted element intervals, two pointers)
    const auto outs_d = outputs_of(*desc);
    auto a0 = element_offsets(*outs_d[0]), a1 = element_offsets(*outs_d[1]);
    std::sort(a0.begin(), a0.end());
    std::sort(a1.begin(), a1.end());
    const std::uint64_t w0 = outs_d[0]->itemsize(), w1 = outs_d[1]->itemsize();
    for (std::size_t i = 0, j = 0; i < a0.size() && j < a1.size() && !expect_alias_error;) {
      const std::uint64_t lo0 = a0[i], lo1 = a1[j] + shift;
      if (lo0 < lo1 + w1 && lo1 < lo0 + w0) expect_alias_error = true;
      else if (lo0 < lo1) ++i;
      else ++j;
    }
  }
  // Sometimes another thread rewrites the indices with random bytes during execute (rule 2).
  const bool race = mode % 16 == 9 && idx != nullptr && op->input_bytes()[ii] > 0;
  // Sometimes a misuse: one buffer too short, or a wrong count; execute must refuse it.
  bool expect_buffer_error = false;
  if (mode % 16 == 1 && !in_bufs.empty() && in_bufs[0].bytes > 0) {
    in_bufs[0].bytes -= 1;
    expect_buffer_error = true;
  } else if (mode % 16 == 3 && out_bufs[0].bytes > 0) {
    out_bufs[0].bytes -= 1;
    expect_buffer_error = true;
  } else if (mode % 16 == 5) {
    out_bufs.push_back(out_bufs[0]);
    expect_buffer_error = true;
  } else if (mode % 16 == 7) {  // a null buffer (an output's when the operator has no input)
    if (in_bufs.empty()) out_bufs[0].data = nullptr;
    else in_bufs[0].data = nullptr;
    expect_buffer_error = true;
  }

  bool ok = true;
  std::atomic<bool> stop{false};
  std::thread flipper;
  if (race) {
    std::uint8_t* ib = ins[ii]->data();
    const std::uint64_t n = op->input_bytes()[ii];
    const std::uint64_t seed = r.raw64() | 1;
    flipper = std::thread([ib, n, seed, &stop] {
      std::uint64_t x = seed;
      volatile std::uint8_t* v = ib;
      while (!stop.load(std::memory_order_relaxed)) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        v[(x >> 33) % n] = static_cast<std::uint8_t>(x >> 56);
      }
    });
  }
  try {
    op->execute(in_bufs, out_bufs);
  } catch (const BufferError& e) {
    if (!expect_buffer_error && !expect_alias_error) fail("BufferError on buffers of exactly total_bytes");
    if (expect_alias_error && std::strstr(e.what(), "overlap") == nullptr) fail("alias BufferError without 'overlap'");
    ok = false;
  } catch (const IndexError&) {
    ok = false;
  }
  if (race) {
    stop = true;
    flipper.join();
  }
  if (ok && expect_buffer_error) fail("execute accepted a short / missing buffer or a wrong count");
  if (ok && expect_alias_error) fail("execute accepted outputs that share bytes");

  for (auto& g : ins)
    if (!g->guards_intact()) fail("write before/after an input buffer");
  for (auto& g : outs)
    if (!g->guards_intact()) fail("write before/after an output buffer");
  for (std::size_t i = 0; i < ins.size(); ++i)
    if (!(race && i == ii) && std::memcmp(in_copy[i].data(), ins[i]->data(), in_copy[i].size()) != 0)
      fail("an input was modified");
  if (!ok) {
    for (auto& g : outs)
      for (std::size_t k = 0; k < g->bytes; ++k)
        if (g->data()[k] != kCanary) fail("a failed execute wrote to an output");
    return 0;
  }
  std::vector<std::vector<Src>> ref;
  std::vector<std::uint8_t> consts;
  if (!race && reference_sources(*desc, ref, consts, in_copy)) {
    const auto outs_d = outputs_of(*desc);
    for (std::size_t o = 0; o < ref.size(); ++o) {
      const auto offs = element_offsets(*outs_d[o]);
      if (has_duplicates(offs)) continue;  // aliased output elements: no single expected value
      const std::size_t w = outs_d[o]->itemsize();
      for (std::size_t n = 0; n < offs.size(); ++n) {
        const Src s = ref[o][n];
        const auto& src = s.input == kConst ? consts : in_copy[s.input];
        if (s.offset + w > src.size()) fail("reference read out of the input (validation gap)");
        if (std::memcmp(out_ptr[o] + offs[n], src.data() + s.offset, w) != 0)
          fail("output differs from the reference loop");
      }
    }
  }
  return 0;
}
