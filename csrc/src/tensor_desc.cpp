#include "strided/tensor_desc.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <limits>

#include "strided/error.hpp"
#include "util/checked.hpp"

namespace strided {
namespace {

using detail::checked_add;
using detail::checked_mul;

[[noreturn]] void fail(const std::string& field, const std::string& rule) {
  throw ValidationError("TensorDesc." + field + ": " + rule);
}

void check_sizes(const std::vector<std::int64_t>& sizes, const char* owner) {
  const std::string o = owner;
  if (sizes.empty() || sizes.size() > static_cast<std::size_t>(kMaxDims))
    throw ValidationError(o + ".sizes: must have 1 to 8 dimensions, got " + std::to_string(sizes.size()));
  for (std::size_t i = 0; i < sizes.size(); ++i)
    if (sizes[i] < 1)
      throw ValidationError(o + ".sizes[" + std::to_string(i) + "]: size must be at least 1, got " +
                            std::to_string(sizes[i]));
}

// Minimum implied bytes before rounding; throws on overflow. Keeps results within int64 so
// that every byte offset the engine computes later is representable as a signed number.
std::uint64_t implied_bytes(DataType dtype, const std::vector<std::int64_t>& sizes,
                            const std::vector<std::int64_t>& strides, const char* owner) {
  const std::string o = owner;
  const std::uint64_t item = itemsize(dtype);
  std::uint64_t elems = 0;
  if (strides.empty()) {
    elems = 1;
    for (auto s : sizes)
      if (!checked_mul(elems, static_cast<std::uint64_t>(s), elems))
        throw ValidationError(o + ".sizes: element count overflows 64 bits");
  } else {
    std::uint64_t last = 0;  // dot(sizes - 1, strides)
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      std::uint64_t term = 0;
      if (!checked_mul(static_cast<std::uint64_t>(sizes[i] - 1), static_cast<std::uint64_t>(strides[i]), term) ||
          !checked_add(last, term, last))
        throw ValidationError(o + ".strides: the tensor's extent overflows 64 bits");
    }
    if (!checked_add(last, 1, elems)) throw ValidationError(o + ".strides: the tensor's extent overflows 64 bits");
  }
  std::uint64_t bytes = 0;
  if (!checked_mul(elems, item, bytes) || !checked_add(bytes, 3, bytes) ||
      bytes > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    throw ValidationError(o + (strides.empty() ? ".sizes" : ".strides") +
                          ": the tensor's size in bytes overflows 63 bits");
  return bytes & ~std::uint64_t{3};
}

}  // namespace

std::uint64_t calc_buffer_tensor_size(DataType dtype, const std::vector<std::int64_t>& sizes,
                                      const std::vector<std::int64_t>& strides) {
  if (!is_valid_dtype(dtype))
    throw ValidationError("calc_buffer_tensor_size.dtype: unknown data type " +
                          std::to_string(static_cast<unsigned>(dtype)));
  check_sizes(sizes, "calc_buffer_tensor_size");
  if (!strides.empty()) {
    if (strides.size() != sizes.size())
      throw ValidationError("calc_buffer_tensor_size.strides: must have one stride per dimension (" +
                            std::to_string(sizes.size()) + "), got " + std::to_string(strides.size()));
    for (std::size_t i = 0; i < strides.size(); ++i)
      if (strides[i] < 0)
        throw ValidationError("calc_buffer_tensor_size.strides[" + std::to_string(i) +
                              "]: stride must not be negative, got " + std::to_string(strides[i]));
  }
  return implied_bytes(dtype, sizes, strides, "calc_buffer_tensor_size");
}

std::vector<std::int64_t> packed_strides(const std::vector<std::int64_t>& sizes,
                                         const std::vector<int>& major_to_minor) {
  const std::size_t n = sizes.size();
  if (major_to_minor.size() != n)
    throw ValidationError("packed_strides.layout: a permutation must list every dimension once (" + std::to_string(n) +
                          " dimensions), got " + std::to_string(major_to_minor.size()));
  std::vector<bool> seen(n, false);
  for (int d : major_to_minor) {
    if (d < 0 || static_cast<std::size_t>(d) >= n || seen[static_cast<std::size_t>(d)])
      throw ValidationError("packed_strides.layout: not a permutation of 0.." + std::to_string(n ? n - 1 : 0));
    seen[static_cast<std::size_t>(d)] = true;
  }
  for (std::size_t i = 0; i < n; ++i)
    if (sizes[i] < 0)
      throw ValidationError("packed_strides.sizes[" + std::to_string(i) + "]: size must not be negative, got " +
                            std::to_string(sizes[i]));
  std::vector<std::int64_t> strides(n, 0);
  std::uint64_t running = 1;
  for (std::size_t k = n; k-- > 0;) {
    const auto d = static_cast<std::size_t>(major_to_minor[k]);
    strides[d] = static_cast<std::int64_t>(running);
    if (!checked_mul(running, static_cast<std::uint64_t>(std::max<std::int64_t>(sizes[d], 1)), running) ||
        running > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      throw ValidationError("packed_strides.sizes: element count overflows 63 bits");
  }
  return strides;
}

std::vector<std::int64_t> packed_strides(const std::vector<std::int64_t>& sizes, const std::string& layout) {
  std::string l;
  for (char ch : layout) l += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  const int n = static_cast<int>(sizes.size());
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
  if (l == "NCHW" || l == "NCDHW" || l == "ROW_MAJOR") {
    // identity order
  } else if (l == "NHWC" || l == "NDHWC") {
    if (n != 4 && n != 5)
      throw ValidationError("packed_strides.layout: NHWC needs 4 or 5 dimensions, got " + std::to_string(n));
    // major to minor: N, spatial dims..., C
    order.clear();
    order.push_back(0);
    for (int d = 2; d < n; ++d) order.push_back(d);
    order.push_back(1);
  } else {
    throw ValidationError("packed_strides.layout: unknown layout '" + layout +
                          "' (expected 'NCHW', 'NHWC' or a permutation of dimensions)");
  }
  return packed_strides(sizes, order);
}

TensorDesc::TensorDesc(DataType dtype, std::vector<std::int64_t> sizes, std::vector<std::int64_t> strides,
                       std::uint64_t total_bytes, std::uint32_t alignment, TensorFlags flags)
    : dtype_(dtype), sizes_(std::move(sizes)), has_strides_(!strides.empty()), total_bytes_(total_bytes),
      alignment_(alignment), flags_(flags) {
  if (!is_valid_dtype(dtype_)) fail("dtype", "unknown data type " + std::to_string(static_cast<unsigned>(dtype_)));
  check_sizes(sizes_, "TensorDesc");
  if (has_strides_) {
    if (strides.size() != sizes_.size())
      fail("strides", "must have one stride per dimension (" + std::to_string(sizes_.size()) + "), got " +
                          std::to_string(strides.size()));
    for (std::size_t i = 0; i < strides.size(); ++i)
      if (strides[i] < 0)
        fail("strides[" + std::to_string(i) + "]", "stride must not be negative, got " + std::to_string(strides[i]));
  }
  min_bytes_ = implied_bytes(dtype_, sizes_, strides, "TensorDesc");
  element_count_ = 1;
  for (auto s : sizes_)
    if (!checked_mul(element_count_, static_cast<std::uint64_t>(s), element_count_))
      fail("sizes", "element count overflows 64 bits");
  strides_ = has_strides_ ? std::move(strides) : packed_strides(sizes_, "NCHW");
  if (total_bytes_ == 0) total_bytes_ = min_bytes_;
  if (total_bytes_ < min_bytes_)
    fail("total_bytes",
         std::to_string(total_bytes_) + " is less than the minimum implied size " + std::to_string(min_bytes_));
  if (total_bytes_ > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    fail("total_bytes", "must fit in 63 bits");
  const std::uint32_t item = static_cast<std::uint32_t>(strided::itemsize(dtype_));
  if (alignment_ != 0 && ((alignment_ & (alignment_ - 1)) != 0 || alignment_ < item))
    fail("alignment", "must be 0 or a power of two no smaller than the element size (" + std::to_string(item) +
                          "), got " + std::to_string(alignment_));
  const auto f = static_cast<std::uint32_t>(flags_);
  if (f > 1) fail("flags", "must be NONE (0) or OWNED_BY_DML (1), got " + std::to_string(f));
}

bool TensorDesc::is_packed() const noexcept {
  // Unsigned and overflow-checked: a broadcast tensor's element count may exceed int64. Once the
  // packed stride no longer fits, only size-1 dimensions may follow.
  std::uint64_t expect = 1;
  bool overflowed = false;
  for (std::size_t k = sizes_.size(); k-- > 0;) {
    if (sizes_[k] != 1 && (overflowed || static_cast<std::uint64_t>(strides_[k]) != expect)) return false;
    if (!checked_mul(expect, static_cast<std::uint64_t>(sizes_[k]), expect)) overflowed = true;
  }
  return true;
}

bool TensorDesc::is_broadcast() const noexcept {
  for (std::size_t i = 0; i < sizes_.size(); ++i)
    if (sizes_[i] > 1 && strides_[i] == 0) return true;
  return false;
}

std::string TensorDesc::to_string() const {
  auto list = [](const std::vector<std::int64_t>& v) {
    std::string s = "{";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s + "}";
  };
  std::string s = "TensorDesc(" + std::string(dtype_enum_name(dtype_)) + ", sizes=" + list(sizes_) +
                  ", strides=" + list(strides_) + ", total_bytes=" + std::to_string(total_bytes_);
  if (alignment_) s += ", alignment=" + std::to_string(alignment_);
  if (flags_ != TensorFlags::NONE) s += ", flags=" + std::to_string(static_cast<unsigned>(flags_));
  return s + ")";
}

bool operator==(const TensorDesc& a, const TensorDesc& b) noexcept {
  return a.dtype_ == b.dtype_ && a.sizes_ == b.sizes_ && a.strides_ == b.strides_ && a.total_bytes_ == b.total_bytes_ &&
         a.alignment_ == b.alignment_ && a.flags_ == b.flags_;
}

std::size_t TensorDesc::hash() const noexcept {
  std::size_t h = std::hash<unsigned>()(static_cast<unsigned>(dtype_));
  auto mix = [&h](std::uint64_t v) {
    h ^= std::hash<std::uint64_t>()(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  };
  for (auto s : sizes_) mix(static_cast<std::uint64_t>(s));
  for (auto s : strides_) mix(static_cast<std::uint64_t>(s));
  mix(total_bytes_);
  mix(alignment_);
  mix(static_cast<std::uint64_t>(flags_));
  return h;
}

}  // namespace strided
