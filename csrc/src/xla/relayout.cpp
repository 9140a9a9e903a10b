// strided::xla data movement: packing, relayout and padding fill, all through the copy engine.
// Padding is written region by region (at most rank strided views, each filled from a single
// element with zero source strides), so no logical element is ever written twice.
#include <cstring>
#include <limits>
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
  copy_logical(shape, src, src_strides_bytes, dst, byte_strides(shape));
  fill_padding_unchecked(shape, dst);
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
  copy_logical(src, src_buf, byte_strides(src), dst_buf, byte_strides(dst));
  fill_padding_unchecked(dst, dst_buf);
}

}  // namespace strided::xla
