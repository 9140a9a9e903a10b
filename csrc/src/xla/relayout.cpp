// strided::xla data movement: packing, relayout and padding fill, all through the copy engine.
// Padding is written region by region (at most rank strided views, each filled from a single
// element with zero source strides), so no logical element is ever written twice.
// A tiled layout (SPEC 5.1) is, tile by tile, a merge of dimensions at `*`, a split of each
// covered dimension into (tile count, tile size) and a permutation moving the sizes minor: a
// strided view of the tiled buffer, apart from a partial last tile, which is a second piece.
#include <cstring>
#include <limits>
#include <optional>
#include <string>

#include "plan/copy_plan.hpp"
#include "runtime/runtime.hpp"
#include "strided/error.hpp"
#include "strided/xla.hpp"
#include "view/view.hpp"
#include "xla/xla_internal.hpp"

namespace strided::xla {

namespace {

template <class T>
std::vector<unsigned char> bytes_of(T v) {
  std::vector<unsigned char> b(sizeof(T));
  std::memcpy(b.data(), &v, sizeof(T));
  return b;
}

int threads_for(std::uint64_t bytes) {
  return strided::detail::threads_for_bytes(bytes, strided::detail::resolve_threads(0));
}

namespace va = strided::detail;  // the view algebra (view/view.hpp)

// A view of the algebra over a raw buffer: its element (0,...,0) at base + where.offset.
struct Buf {
  unsigned char* base;
  va::View v;
  unsigned char* at() const { return base + v.where.offset; }
};

Buf buf_of(void* base, DataType dt, std::vector<std::int64_t> sizes, std::vector<std::int64_t> strides) {
  Buf b{static_cast<unsigned char*>(base), {}};
  b.v.dtype = dt;
  b.v.sizes = std::move(sizes);
  b.v.strides = std::move(strides);
  return b;
}

std::vector<std::int64_t> row_major_strides(const std::vector<std::int64_t>& sizes, std::int64_t item) {
  std::vector<std::int64_t> st(sizes.size());
  std::int64_t s = item;
  for (std::size_t i = sizes.size(); i-- > 0;) {
    st[i] = s;
    s *= sizes[i];  // within the validated buffer size (or 0 for an empty array)
  }
  return st;
}

// A dense row-major array of `sizes` in `store`, zero-initialised (so UNKNOWN_PAD padding that
// moves through a temporary reads as zeros).
Buf dense(const std::vector<std::int64_t>& sizes, DataType dt, std::vector<unsigned char>& store) {
  const auto item = static_cast<std::int64_t>(itemsize(dt));
  store.assign(static_cast<std::size_t>(detail::checked_product(sizes) * static_cast<std::uint64_t>(item)), 0);
  return buf_of(store.data(), dt, sizes, row_major_strides(sizes, item));
}

// dst = src over src's sizes.
void copy_buf(const Buf& src, const Buf& dst) {
  const std::uint64_t n = detail::checked_product(src.v.sizes);
  if (n == 0) return;
  const std::size_t item = src.v.width();
  strided::detail::copy_strided(item, src.v.sizes, src.at(), src.v.strides, dst.at(), dst.v.strides,
                                threads_for(n * item));
}

// `b` (a stage's input, prepended) with its dimensions merged at `*` (va::merge), when the
// strides allow it; nullopt otherwise. Groups are merged from the last so indices stay valid.
std::optional<Buf> merge_groups(Buf b, const detail::TileStage& st) {
  for (std::size_t k = st.group.size(); k-- > 1;) {
    if (st.group[k - 1] != st.group[k]) continue;
    const auto& v = b.v;  // dimension k holds the already merged more minor part of the group
    const auto a = k - 1;
    if (v.sizes[a] != 1 && v.sizes[k] != 1 && v.strides[a] != v.sizes[k] * v.strides[k]) return std::nullopt;
    b.v = va::merge(b.v, static_cast<int>(a));
  }
  return b;
}

// Copies the array between `merged` (a stage's merged dimensions, the logical side) and
// `tiled` (the stage's output): each covered dimension m is split (split_dim) by its tile t into
// (count, size) and the sizes are permuted minor; the full tiles are one piece and, when t does
// not divide m, the partial last tile of each such dimension another (narrow).
void copy_stage(const detail::TileStage& st, const Buf& merged, const Buf& tiled, bool to_tiled) {
  const std::size_t nt = st.tile.size(), first = st.first;
  std::vector<int> order;  // [uncovered, counts, sizes] from [uncovered, (count, size)...]
  for (std::size_t i = 0; i < first; ++i) order.push_back(static_cast<int>(i));
  for (std::size_t c = 0; c < 2 * nt; ++c)
    order.push_back(static_cast<int>(first + (c < nt ? 2 * c : 2 * (c - nt) + 1)));
  // A dimension with full tiles and a partial one gives two pieces, any other one: at most 39
  // dimensions can give two (each is >= 3 and the validated buffer holds their product).
  std::vector<int> partial(nt, 0), both;
  for (std::size_t c = 0; c < nt; ++c) {
    const std::int64_t m = merged.v.sizes[first + c], tc = st.tile[c];
    if (m == 0) return;
    if (m >= tc && m % tc != 0) both.push_back(static_cast<int>(c));
    partial[c] = m < tc;
  }
  for (std::uint64_t piece = 0; piece < (std::uint64_t{1} << both.size()); ++piece) {
    for (std::size_t b = 0; b < both.size(); ++b) partial[static_cast<std::size_t>(both[b])] = (piece >> b) & 1u;
    va::View m = merged.v, t = tiled.v;
    for (std::size_t c = nt; c-- > 0;) {  // from the last: earlier axes keep their place
      const int axis = static_cast<int>(first + c), count = axis, size = static_cast<int>(first + nt + c);
      const std::int64_t tc = st.tile[c], full = m.sizes[first + c] / tc, rem = m.sizes[first + c] % tc;
      if (partial[c]) {
        m = va::split_dim(va::narrow(m, axis, full * tc, rem), axis, rem);
        t = va::narrow(va::narrow(t, count, full, 1), size, 0, rem);
      } else {
        m = va::split_dim(va::narrow(m, axis, 0, full * tc), axis, tc);
        t = va::narrow(t, count, 0, full);
      }
    }
    const Buf mp{merged.base, va::permute(m, order)}, tp{tiled.base, t};
    if (to_tiled) copy_buf(mp, tp);
    else copy_buf(tp, mp);
  }
}

// Writes `pattern` into the partial-tile padding of a stage's output (dense `out`): for each
// covered dimension with a partial tile, its last count and the sizes past the end, every other
// dimension whole. The boxes overlap only in padding.
void fill_stage_padding(const detail::TileStage& st, const std::vector<unsigned char>& pattern, const Buf& out) {
  const std::size_t item = pattern.size(), nt = st.tile.size();
  for (std::size_t c = 0; c < nt; ++c) {
    const std::int64_t m = st.merged[st.first + c], tc = st.tile[c];
    if (m % tc == 0) continue;
    const va::View v = va::narrow(va::narrow(out.v, static_cast<int>(st.first + c), m / tc, 1),
                                  static_cast<int>(st.first + nt + c), m % tc, tc - m % tc);
    const std::uint64_t n = detail::checked_product(v.sizes);
    if (n == 0) continue;
    const std::vector<std::int64_t> zero(v.sizes.size(), 0);
    strided::detail::copy_strided(item, v.sizes, pattern.data(), zero, out.base + v.where.offset, v.strides,
                                  threads_for(n * item));
  }
}

// The logical array (element (0,...,0) at ptr, byte strides per logical dimension) in physical
// order (major to minor).
Buf physical_view(const Shape& s, const void* ptr, const std::vector<std::int64_t>& strides) {
  const Buf logical = buf_of(const_cast<void*>(ptr), to_data_type(s.element_type), s.dimensions, strides);
  std::vector<int> order;
  for (auto it = s.layout.minor_to_major.rbegin(); it != s.layout.minor_to_major.rend(); ++it)
    order.push_back(static_cast<int>(*it));
  return Buf{logical.base, va::permute(logical.v, order)};
}

// `b` with the stage's leading size-1 dimensions.
Buf prepended(Buf b, const detail::TileStage& st) {
  va::align_right(b.v, b.v.ndim() + static_cast<int>(st.prepend));
  return b;
}

// Logical array (src, byte strides per logical dimension) -> tiled buffer, padding filled.
// Each tile is one stage from a view to a dense row-major result: the buffer for the last, a
// temporary otherwise; a view that cannot merge at `*` is first made dense.
void pack_tiled(const Shape& s, const void* src, const std::vector<std::int64_t>& src_strides, void* dst) {
  const auto stages = detail::tile_stages(s, "pack.shape");
  const DataType dt = to_data_type(s.element_type);
  if (detail::checked_product(s.dimensions) == 0) return;  // then the buffer is empty too
  std::vector<unsigned char> scratch, temps[2];
  Buf cur = physical_view(s, src, src_strides);
  for (std::size_t k = 0; k < stages.size(); ++k) {
    const auto& st = stages[k];
    std::optional<Buf> merged = merge_groups(prepended(cur, st), st);
    if (!merged) {  // only the caller's view can refuse: the temporaries are dense
      const Buf d = dense(cur.v.sizes, dt, scratch);
      copy_buf(cur, d);
      merged = merge_groups(prepended(d, st), st);
    }
    const Buf out = k + 1 == stages.size()
                        ? buf_of(dst, dt, st.out, row_major_strides(st.out, static_cast<std::int64_t>(itemsize(dt))))
                        : dense(st.out, dt, temps[k % 2]);
    copy_stage(st, *merged, out, true);
    if (k == 0 && s.layout.padding_value != PaddingValue::UNKNOWN_PAD)  // only the first tile pads
      fill_stage_padding(st, padding_bytes(s.element_type, s.layout.padding_value), out);
    cur = out;
  }
}

// Tiled buffer -> logical array (dst, byte strides per logical dimension): the stages undone
// from the last, each into a dense temporary but the first, which writes dst (through a dense
// temporary when dst's view cannot merge at `*`).
void unpack_tiled(const Shape& s, const void* src, void* dst, const std::vector<std::int64_t>& dst_strides) {
  const auto stages = detail::tile_stages(s, "unpack.shape");
  const DataType dt = to_data_type(s.element_type);
  if (detail::checked_product(s.dimensions) == 0) return;
  const auto& fin = stages.back().out;
  Buf cur = buf_of(const_cast<void*>(src), dt, fin, row_major_strides(fin, static_cast<std::int64_t>(itemsize(dt))));
  std::vector<unsigned char> scratch, temps[2];
  for (std::size_t k = stages.size(); k-- > 0;) {
    const auto& st = stages[k];
    // The stage's input, where this step writes.
    const Buf target = k > 0 ? dense(stages[k - 1].out, dt, temps[k % 2]) : physical_view(s, dst, dst_strides);
    std::optional<Buf> merged = merge_groups(prepended(target, st), st);
    if (!merged) {  // only dst can refuse: the temporaries are dense
      const Buf d = dense(target.v.sizes, dt, scratch);
      copy_stage(st, *merge_groups(prepended(d, st), st), cur, false);
      copy_buf(d, target);
    } else {
      copy_stage(st, *merged, cur, false);
    }
    cur = target;
  }
}

std::vector<std::int64_t> byte_strides(const Shape& s) {
  auto st = detail::strides_of(s);
  const auto item = static_cast<std::int64_t>(primitive_type_size(s.element_type));
  for (auto& v : st) v *= item;  // validated: within the 63-bit byte size
  return st;
}

void check_buffer(const Shape& s, std::size_t bytes, const std::string& field) {
  const std::uint64_t need = s.byte_size();
  if (bytes < need)
    throw BufferError(field + ": buffer of " + std::to_string(bytes) + " bytes is shorter than the shape's byte size " +
                      std::to_string(need) + " (" + s.to_string() + ")");
}

// The copy engine is given at least one dimension (a scalar is one element of extent 1).
void copy_logical(const Shape& s, const void* src, std::vector<std::int64_t> src_strides, void* dst,
                  std::vector<std::int64_t> dst_strides) {
  std::vector<std::int64_t> sizes = s.dimensions;
  if (sizes.empty()) {
    sizes = {1};
    src_strides = {0};
    dst_strides = {0};
  }
  const std::uint64_t n = detail::checked_product(sizes);
  if (n == 0) return;
  const std::size_t item = primitive_type_size(s.element_type);
  strided::detail::copy_strided(item, sizes, src, src_strides, dst, dst_strides, threads_for(n * item));
}

void fill_padding_unchecked(const Shape& s, void* buf) {
  const Layout& l = s.layout;
  if (!l.has_padding() || l.padding_value == PaddingValue::UNKNOWN_PAD) return;
  const auto pattern = padding_bytes(s.element_type, l.padding_value);
  const std::size_t item = pattern.size();
  const auto dst_strides = byte_strides(s);
  const std::size_t rank = s.dimensions.size();
  const std::vector<std::int64_t> zero(rank, 0);
  // Region d: dims before d within their size, dim d in [size_d, padded_d), dims after d over
  // their whole padded extent. The regions are disjoint and cover exactly the padding.
  for (std::size_t d = 0; d < rank; ++d) {
    if (l.padded_dimensions[d] == s.dimensions[d]) continue;
    std::vector<std::int64_t> sizes(rank);
    for (std::size_t k = 0; k < rank; ++k)
      sizes[k] = k < d ? s.dimensions[k] : k == d ? l.padded_dimensions[d] - s.dimensions[d] : l.padded_dimensions[k];
    const std::uint64_t n = detail::checked_product(sizes);
    if (n == 0) continue;
    auto* at = static_cast<unsigned char*>(buf) + s.dimensions[d] * dst_strides[d];
    strided::detail::copy_strided(item, sizes, pattern.data(), zero, at, dst_strides, threads_for(n * item));
  }
}

void fill_padding_unchecked_tiled(const Shape& s, const detail::TileStage& st, void* buf) {
  const DataType dt = to_data_type(s.element_type);
  fill_stage_padding(st, padding_bytes(s.element_type, s.layout.padding_value),
                     buf_of(buf, dt, st.out, row_major_strides(st.out, static_cast<std::int64_t>(itemsize(dt)))));
}

}  // namespace

std::vector<unsigned char> padding_bytes(PrimitiveType t, PaddingValue v) {
  if (!is_valid_padding_value(v))
    throw ValidationError("padding_bytes.padding_value: " + std::string(padding_value_name(v)) + " is never valid");
  if (v == PaddingValue::UNKNOWN_PAD) return {};
  const bool high = v == PaddingValue::HIGHEST_PAD;
  if (t == PrimitiveType::PRED) return {static_cast<unsigned char>(v == PaddingValue::ONE_PAD || high ? 1 : 0)};
  if (t == PrimitiveType::F16) {  // IEEE binary16 bits: 0, 1.0, -inf, +inf
    const std::uint16_t bits[] = {0, 0x0000, 0x3C00, 0xFC00, 0x7C00};
    return bytes_of(bits[static_cast<int>(v)]);
  }
  return dispatch_dtype(to_data_type(t), [&](auto x) {
    using T = decltype(x);
    using L = std::numeric_limits<T>;
    switch (v) {
      case PaddingValue::ZERO_PAD: return bytes_of(T(0));
      case PaddingValue::ONE_PAD: return bytes_of(T(1));
      default:
        if constexpr (L::has_infinity) return bytes_of(high ? L::infinity() : -L::infinity());
        else return bytes_of(high ? L::max() : L::lowest());
    }
  });
}

void fill_padding(const Shape& shape, void* buf, std::size_t buf_bytes) {
  detail::validate_shape(shape, "fill_padding.shape");
  check_buffer(shape, buf_bytes, "fill_padding.buf");
  if (shape.layout.has_tiles()) {
    if (shape.layout.padding_value == PaddingValue::UNKNOWN_PAD) return;
    const auto stages = detail::tile_stages(shape, "fill_padding.shape");
    if (stages.size() == 1) {
      fill_padding_unchecked_tiled(shape, stages[0], buf);
    } else {  // the padding is scattered by the sub-tiles: unpack and pack again
      std::vector<unsigned char> logical;
      const Buf d = dense(shape.dimensions, to_data_type(shape.element_type), logical);
      unpack_tiled(shape, buf, d.at(), d.v.strides);
      pack_tiled(shape, d.at(), d.v.strides, buf);
    }
    return;
  }
  fill_padding_unchecked(shape, buf);
}

void pack(const Shape& shape, const void* src, const std::vector<std::int64_t>& src_strides_bytes, void* dst,
          std::size_t dst_bytes) {
  detail::validate_shape(shape, "pack.shape");
  if (src_strides_bytes.size() != shape.dimensions.size())
    throw ValidationError("pack.src_strides: must have one stride per dimension (rank " +
                          std::to_string(shape.dimensions.size()) + "), got " +
                          std::to_string(src_strides_bytes.size()));
  check_buffer(shape, dst_bytes, "pack.dst");
  if (shape.layout.has_tiles()) return pack_tiled(shape, src, src_strides_bytes, dst);
  copy_logical(shape, src, src_strides_bytes, dst, byte_strides(shape));
  fill_padding_unchecked(shape, dst);
}

void unpack(const Shape& shape, const void* src, std::size_t src_bytes, void* dst,
            const std::vector<std::int64_t>& dst_strides_bytes) {
  detail::validate_shape(shape, "unpack.shape");
  if (dst_strides_bytes.size() != shape.dimensions.size())
    throw ValidationError("unpack.dst_strides: must have one stride per dimension (rank " +
                          std::to_string(shape.dimensions.size()) + "), got " +
                          std::to_string(dst_strides_bytes.size()));
  check_buffer(shape, src_bytes, "unpack.src");
  if (shape.layout.has_tiles()) return unpack_tiled(shape, src, dst, dst_strides_bytes);
  copy_logical(shape, src, byte_strides(shape), dst, dst_strides_bytes);
}

void check_relayout(const Shape& src, const Shape& dst) {
  detail::validate_shape(src, "relayout.src_shape");
  detail::validate_shape(dst, "relayout.dst_shape");
  if (src.element_type != dst.element_type)
    throw ValidationError("relayout.dst_shape.element_type: " + std::string(primitive_type_name(dst.element_type)) +
                          " differs from the source's " + std::string(primitive_type_name(src.element_type)));
  if (src.dimensions != dst.dimensions)
    throw ValidationError("relayout.dst_shape.dimensions: " + dst.to_string() + " differs from the source's " +
                          src.to_string());
}

void relayout(const Shape& src, const void* src_buf, std::size_t src_bytes, const Shape& dst, void* dst_buf,
              std::size_t dst_bytes) {
  check_relayout(src, dst);
  check_buffer(src, src_bytes, "relayout.src_buf");
  check_buffer(dst, dst_bytes, "relayout.dst_buf");
  const bool st = src.layout.has_tiles(), dt = dst.layout.has_tiles();
  if (!st && !dt) {
    copy_logical(src, src_buf, byte_strides(src), dst_buf, byte_strides(dst));
    fill_padding_unchecked(dst, dst_buf);
  } else if (!st) {
    pack_tiled(dst, src_buf, byte_strides(src), dst_buf);
  } else if (!dt) {
    unpack_tiled(src, src_buf, dst_buf, byte_strides(dst));
    fill_padding_unchecked(dst, dst_buf);
  } else {  // tiled to tiled through a dense logical temporary
    std::vector<unsigned char> logical;
    const Buf d = dense(src.dimensions, to_data_type(src.element_type), logical);
    unpack_tiled(src, src_buf, d.at(), d.v.strides);
    pack_tiled(dst, d.at(), d.v.strides, dst_buf);
  }
}

}  // namespace strided::xla
