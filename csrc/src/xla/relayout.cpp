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

// A strided view: sizes and byte strides over a base pointer.
struct View {
  unsigned char* ptr;
  std::vector<std::int64_t> sizes, strides;
};

std::vector<std::int64_t> row_major_strides(const std::vector<std::int64_t>& sizes, std::int64_t item) {
  std::vector<std::int64_t> st(sizes.size());
  std::int64_t s = item;
  for (std::size_t i = sizes.size(); i-- > 0;) {
    st[i] = s;
    s *= sizes[i];  // within the validated buffer size (or 0 for an empty array)
  }
  return st;
}

// Merges a stage's input dimensions at `*` when the view allows it (a dimension's stride equals
// the next one's extent times its stride; size-1 dimensions fit anywhere). nullopt otherwise.
std::optional<View> merge_view(const View& v, const detail::TileStage& st) {
  View m{v.ptr, {}, {}};
  for (std::size_t i = 0; i < v.sizes.size();) {
    std::size_t j = i;
    while (j + 1 < v.sizes.size() && st.group[j + 1] == st.group[i]) ++j;
    std::int64_t size = v.sizes[j], stride = v.strides[j];
    for (std::size_t k = j; k-- > i;) {
      if (v.sizes[k] == 1) continue;
      if (size == 1) {
        size = v.sizes[k];
        stride = v.strides[k];
        continue;
      }
      if (v.strides[k] != size * stride) return std::nullopt;
      size *= v.sizes[k];
    }
    m.sizes.push_back(size);
    m.strides.push_back(stride);
    i = j + 1;
  }
  return m;
}

// Copies the array between `merged` (a view over a stage's merged dimensions, the logical side)
// and `tiled` (a view over the stage's output): the split of each covered dimension m by its tile
// t as (count, size) pieces, the full tiles and, when t does not divide m, the partial last one.
// to_tiled: merged -> tiled; otherwise tiled -> merged.
void copy_stage(const detail::TileStage& st, std::size_t item, const View& merged, const View& tiled, bool to_tiled) {
  const std::size_t nt = st.tile.size(), first = st.first;
  for (unsigned piece = 0; piece < (1u << nt); ++piece) {  // bit c: the partial tile of dimension c
    std::vector<std::int64_t> sizes, ms, ts;
    std::int64_t moff = 0, toff = 0;
    bool empty = false;
    for (std::size_t i = 0; i < first; ++i) {
      sizes.push_back(merged.sizes[i]);
      ms.push_back(merged.strides[i]);
      ts.push_back(tiled.strides[i]);
    }
    std::vector<std::int64_t> lo_sizes;
    for (std::size_t c = 0; c < nt; ++c) {
      const std::int64_t m = merged.sizes[first + c], t = st.tile[c], full = m / t;
      const bool partial = (piece >> c) & 1u;
      if (partial ? m % t == 0 : full == 0) empty = true;
      sizes.push_back(partial ? 1 : full);
      ms.push_back(merged.strides[first + c] * t);
      ts.push_back(tiled.strides[first + c]);
      lo_sizes.push_back(partial ? m % t : t);
      if (partial) {
        moff += full * t * merged.strides[first + c];
        toff += full * tiled.strides[first + c];
      }
    }
    if (empty) continue;
    for (std::size_t c = 0; c < nt; ++c) {
      sizes.push_back(lo_sizes[c]);
      ms.push_back(merged.strides[first + c]);
      ts.push_back(tiled.strides[first + nt + c]);
    }
    const std::uint64_t n = detail::checked_product(sizes);
    if (n == 0) continue;
    unsigned char* mp = merged.ptr + moff;
    unsigned char* tp = tiled.ptr + toff;
    if (to_tiled) strided::detail::copy_strided(item, sizes, mp, ms, tp, ts, threads_for(n * item));
    else strided::detail::copy_strided(item, sizes, tp, ts, mp, ms, threads_for(n * item));
  }
}

// Writes `pattern` into the partial-tile padding of a stage's output (dense, row-major at
// `out`): for each covered dimension with a partial tile, the box (last count, sizes past the
// end), every other dimension whole. Boxes overlap only in padding.
void fill_stage_padding(const detail::TileStage& st, const std::vector<unsigned char>& pattern, unsigned char* out) {
  const std::size_t item = pattern.size(), nt = st.tile.size();
  const auto strides = row_major_strides(st.out, static_cast<std::int64_t>(item));
  const std::vector<std::int64_t> zero(st.out.size(), 0);
  for (std::size_t c = 0; c < nt; ++c) {
    const std::int64_t m = st.merged[st.first + c], t = st.tile[c];
    if (m % t == 0) continue;
    auto sizes = st.out;
    sizes[st.first + c] = 1;
    sizes[st.first + nt + c] = t - m % t;
    const std::uint64_t n = detail::checked_product(sizes);
    if (n == 0) continue;
    unsigned char* at = out + (m / t) * strides[st.first + c] + (m % t) * strides[st.first + nt + c];
    strided::detail::copy_strided(item, sizes, pattern.data(), zero, at, strides, threads_for(n * item));
  }
}

// `v` with the stage's prepended size-1 dimensions.
View prepended(View v, const detail::TileStage& st) {
  v.sizes.insert(v.sizes.begin(), st.prepend, 1);
  v.strides.insert(v.strides.begin(), st.prepend, 0);
  return v;
}

// The logical view (element (0,...,0) at ptr, byte strides per logical dimension) in physical order.
View physical_view(const Shape& s, unsigned char* ptr, const std::vector<std::int64_t>& strides) {
  View v{ptr, {}, {}};
  for (auto it = s.layout.minor_to_major.rbegin(); it != s.layout.minor_to_major.rend(); ++it) {
    v.sizes.push_back(s.dimensions[static_cast<std::size_t>(*it)]);
    v.strides.push_back(strides[static_cast<std::size_t>(*it)]);
  }
  return v;
}

// A dense row-major array of `sizes` in `store`, zero-initialised (so UNKNOWN_PAD padding that
// moves through a temporary reads as zeros).
View dense(const std::vector<std::int64_t>& sizes, std::size_t item, std::vector<unsigned char>& store) {
  store.assign(static_cast<std::size_t>(detail::checked_product(sizes) * item), 0);
  return View{store.data(), sizes, row_major_strides(sizes, static_cast<std::int64_t>(item))};
}

// dst = src over src's sizes.
void copy_view(const View& src, const View& dst, std::size_t item) {
  const std::uint64_t n = detail::checked_product(src.sizes);
  if (n)
    strided::detail::copy_strided(item, src.sizes, src.ptr, src.strides, dst.ptr, dst.strides, threads_for(n * item));
}

// Logical array (src, byte strides per logical dimension) -> tiled buffer, padding filled.
// Each tile is one stage from a view to a dense row-major result: the buffer for the last, a
// temporary otherwise; a view that cannot merge at `*` is first made dense.
void pack_tiled(const Shape& s, const void* src, const std::vector<std::int64_t>& src_strides, void* dst) {
  const auto stages = detail::tile_stages(s, "pack.shape");
  const std::size_t item = primitive_type_size(s.element_type);
  if (detail::checked_product(s.dimensions) == 0) return;  // then the buffer is empty too
  std::vector<unsigned char> scratch, temps[2];
  View cur = physical_view(s, static_cast<unsigned char*>(const_cast<void*>(src)), src_strides);
  for (std::size_t k = 0; k < stages.size(); ++k) {
    const auto& st = stages[k];
    std::optional<View> merged = merge_view(prepended(cur, st), st);
    if (!merged) {  // only the caller's view can refuse: the temporaries are dense
      const View d = dense(cur.sizes, item, scratch);
      copy_view(cur, d, item);
      merged = merge_view(prepended(d, st), st);
    }
    View out = k + 1 == stages.size() ? View{static_cast<unsigned char*>(dst), st.out,
                                             row_major_strides(st.out, static_cast<std::int64_t>(item))}
                                      : dense(st.out, item, temps[k % 2]);
    copy_stage(st, item, *merged, out, true);
    if (k == 0 && s.layout.padding_value != PaddingValue::UNKNOWN_PAD)  // only the first tile pads
      fill_stage_padding(st, padding_bytes(s.element_type, s.layout.padding_value), out.ptr);
    cur = out;
  }
}

// Tiled buffer -> logical array (dst, byte strides per logical dimension): the stages undone
// from the last, each into a dense temporary but the first, which writes dst (through a dense
// temporary when dst's view cannot merge at `*`).
void unpack_tiled(const Shape& s, const void* src, void* dst, const std::vector<std::int64_t>& dst_strides) {
  const auto stages = detail::tile_stages(s, "unpack.shape");
  const std::size_t item = primitive_type_size(s.element_type);
  if (detail::checked_product(s.dimensions) == 0) return;
  const auto& fin = stages.back().out;
  View cur{static_cast<unsigned char*>(const_cast<void*>(src)), fin,
           row_major_strides(fin, static_cast<std::int64_t>(item))};
  std::vector<unsigned char> scratch, temps[2];
  for (std::size_t k = stages.size(); k-- > 0;) {
    const auto& st = stages[k];
    // The stage's input, where this step writes.
    const View target = k > 0 ? dense(stages[k - 1].out, item, temps[k % 2])
                              : physical_view(s, static_cast<unsigned char*>(dst), dst_strides);
    std::optional<View> merged = merge_view(prepended(target, st), st);
    if (!merged) {  // only dst can refuse: the temporaries are dense
      const View d = dense(target.sizes, item, scratch);
      copy_stage(st, item, *merge_view(prepended(d, st), st), cur, false);
      copy_view(d, target, item);
    } else {
      copy_stage(st, item, *merged, cur, false);
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
  fill_stage_padding(st, padding_bytes(s.element_type, s.layout.padding_value), static_cast<unsigned char*>(buf));
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
      const std::size_t item = primitive_type_size(shape.element_type);
      std::vector<unsigned char> logical;
      const View d = dense(shape.dimensions, item, logical);
      unpack_tiled(shape, buf, d.ptr, d.strides);
      pack_tiled(shape, d.ptr, d.strides, buf);
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
    const std::size_t item = primitive_type_size(src.element_type);
    std::vector<unsigned char> logical;
    const View d = dense(src.dimensions, item, logical);
    unpack_tiled(src, src_buf, d.ptr, d.strides);
    pack_tiled(dst, d.ptr, d.strides, dst_buf);
  }
}

}  // namespace strided::xla
