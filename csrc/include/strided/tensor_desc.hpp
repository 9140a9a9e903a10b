// strided: DirectML's buffer tensor description (DML_BUFFER_TENSOR_DESC), SPEC.md section 2.
#pragma once
#include "strided/config.hpp"  // C++17 check first
#include <cstdint>
#include <string>
#include <vector>

#include "strided/dtype.hpp"

namespace strided {

/// Most dimensions a description may have (DirectML: DML_TENSOR_DIMENSION_COUNT_MAX1).
inline constexpr int kMaxDims = 8;

/// DML_TENSOR_FLAGS. OWNED_BY_DML is meant for inputs (as in DirectML); it is kept for
/// fidelity and changes no result.
enum class TensorFlags : std::uint32_t { NONE = 0, OWNED_BY_DML = 1 };

/// Minimum buffer size in bytes (DMLCalcBufferTensorSize): prod(sizes)*itemsize without
/// strides, (dot(sizes-1, strides)+1)*itemsize with them, rounded up to a multiple of 4.
/// Throws ValidationError (field "sizes"/"strides") on a bad dtype, size, stride or overflow.
std::uint64_t calc_buffer_tensor_size(DataType dtype, const std::vector<std::int64_t>& sizes,
                                      const std::vector<std::int64_t>& strides = {});

/// Packed strides (in elements) for `sizes`. `layout` is "NCHW" (row-major, any dimension
/// count), "NHWC" (channel last; 4-d and 5-d only). Example: sizes {1,1,3,5} -> NCHW
/// {15,15,5,1}, NHWC {15,1,5,1}. Throws ValidationError on a negative size, overflow, an
/// unknown layout name, or "NHWC" with other than 4 or 5 dimensions.
std::vector<std::int64_t> packed_strides(const std::vector<std::int64_t>& sizes, const std::string& layout = "NCHW");
/// Packed strides for the dimension order `major_to_minor` (a permutation of 0..n-1, most
/// major first: {0,1,2,3} is NCHW, {0,2,3,1} is NHWC). Throws ValidationError when it is not a
/// permutation of 0..sizes.size()-1, on a negative size, or on overflow.
std::vector<std::int64_t> packed_strides(const std::vector<std::int64_t>& sizes,
                                         const std::vector<int>& major_to_minor);

/// An immutable, validated description of how a logical N-d tensor lies in a flat buffer.
/// Every constructed TensorDesc obeys SPEC.md section 2: 1..8 dimensions, sizes >= 1,
/// non-negative strides (in elements), total_bytes >= the minimum implied size, alignment 0 or a
/// power of two >= itemsize, flags 0 or 1; all arithmetic 64-bit and overflow-checked.
class TensorDesc {
 public:
  /// Throws ValidationError naming "TensorDesc.<field>" and the rule.
  /// `strides` empty = packed row-major; `total_bytes` 0 = the minimum implied size.
  TensorDesc(DataType dtype, std::vector<std::int64_t> sizes, std::vector<std::int64_t> strides = {},
             std::uint64_t total_bytes = 0, std::uint32_t alignment = 0, TensorFlags flags = TensorFlags::NONE);

  // Accessors never throw.
  DataType dtype() const noexcept { return dtype_; }
  const std::vector<std::int64_t>& sizes() const noexcept { return sizes_; }
  /// Always the effective strides (packed ones when none were given).
  const std::vector<std::int64_t>& strides() const noexcept { return strides_; }
  /// True when strides were given explicitly (DirectML: Strides != nullptr).
  bool has_strides() const noexcept { return has_strides_; }
  std::uint64_t total_bytes() const noexcept { return total_bytes_; }
  std::uint32_t alignment() const noexcept { return alignment_; }
  TensorFlags flags() const noexcept { return flags_; }
  int ndim() const noexcept { return static_cast<int>(sizes_.size()); }
  std::uint64_t element_count() const noexcept { return element_count_; }
  std::size_t itemsize() const noexcept { return strided::itemsize(dtype_); }
  /// Minimum implied size in bytes (calc_buffer_tensor_size of this description).
  std::uint64_t min_bytes() const noexcept { return min_bytes_; }
  /// Strides equal the packed row-major ones (size-1 dimensions may have any stride).
  bool is_packed() const noexcept;
  /// Some dimension of size > 1 has stride 0.
  bool is_broadcast() const noexcept;
  /// "TensorDesc(FLOAT32, sizes={2,3}, strides={3,1}, total_bytes=24)" (Python's repr too).
  std::string to_string() const;

  /// Equal when dtype, sizes, effective strides, total_bytes, alignment and flags are equal (so
  /// explicit packed strides equal absent ones). hash() agrees with ==.
  friend bool operator==(const TensorDesc& a, const TensorDesc& b) noexcept;
  friend bool operator!=(const TensorDesc& a, const TensorDesc& b) noexcept { return !(a == b); }
  std::size_t hash() const noexcept;

 private:
  DataType dtype_;
  std::vector<std::int64_t> sizes_;
  std::vector<std::int64_t> strides_;
  bool has_strides_;
  std::uint64_t total_bytes_;
  std::uint32_t alignment_;
  TensorFlags flags_;
  std::uint64_t element_count_;
  std::uint64_t min_bytes_;
};

}  // namespace strided
