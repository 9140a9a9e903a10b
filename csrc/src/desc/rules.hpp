// The validation rules shared by the operators (SPEC.md sections 3-4), each written once, with
// its message. An operator's own file (ops/<op>.cpp) composes them in its check(); messages
// read "<Desc>.<field>[i]: <rule>". Every index into a vector is guarded by an earlier length
// check and all arithmetic on user values is overflow-safe, so a malformed description always
// ends in ValidationError.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "levels/levels.hpp"
#include "strided/ops.hpp"

namespace strided::detail {

std::string field_at(const std::string& field, std::size_t i);  // "sizes[2]"

/// The fields of a window over `input` read into `output` (Slice1's names; SliceGrad's differ).
struct WindowNames {
  std::string input = "input", output = "output", offsets = "offsets", sizes = "sizes", strides = "strides";
};

class Rules {
 public:
  using i64 = std::int64_t;
  Rules(const char* desc_name, std::optional<FeatureLevel> level) : name_(desc_name), level_(level) {}

  /// Throws ValidationError("<Desc>.<field>: <rule>").
  [[noreturn]] void fail(const std::string& field, const std::string& rule) const;
  const std::optional<FeatureLevel>& level() const { return level_; }

  // ------------------------------------------------------------- structure
  void axis_in_range(const std::string& field, i64 axis, int n) const;
  void count_in_range(const std::string& field, i64 v, i64 lo, i64 hi, const std::string& what) const;
  void same_ndim(const std::string& field, const TensorDesc& t, const std::string& ref_field,
                 const TensorDesc& ref) const;
  void same_dtype(const std::string& field, const TensorDesc& t, const std::string& ref_field,
                  const TensorDesc& ref) const;
  void same_size(const std::string& field, const TensorDesc& t, const std::string& ref_field, const TensorDesc& ref,
                 std::size_t i) const;
  void same_sizes(const std::string& field, const TensorDesc& t, const std::string& ref_field,
                  const TensorDesc& ref) const;
  void one_per_dim(const std::string& field, const std::vector<i64>& v, int n) const;
  /// A scalar field (DML_SCALAR_UNION + ValueDataType) holds a value of `ref`'s dtype (SPEC 1).
  void scalar_dtype(const std::string& field, const Scalar& s, const std::string& ref_field,
                    const TensorDesc& ref) const;
  /// Whether `s` survives FLOAT32 (the older structs' FLOAT value field): cast to FLOAT32 and
  /// back by the Cast rules gives the same bits.
  static bool fits_float32(const Scalar& s);
  void index_dtype(const std::string& field, const TensorDesc& t) const;
  void reduction_known(ScatterReduction r) const;
  /// Dimensions before the trailing `count` must be 1 (DirectML pads lower ranks with 1s).
  void leading_ones(const std::string& field, const TensorDesc& t, i64 count, const std::string& count_field) const;
  /// `expected` right-aligned into t's dimension count (surplus leading entries must be 1).
  void right_aligned(const std::string& field, const TensorDesc& t, const std::vector<i64>& expected) const;
  /// strided's rule: an output's elements never alias (no stride 0 over size > 1, no overlap).
  void output_no_alias(const std::string& field, const TensorDesc& t) const;
  /// Slice/Slice1: output like input (dimension count, dtype), one offset, size and stride per dimension.
  void window_params(const TensorDesc& input, const TensorDesc& output, const std::vector<i64>& offsets,
                     const std::vector<i64>& sizes, const std::vector<i64>& strides,
                     const WindowNames& names = WindowNames{}) const;
  /// Slice1's window (SliceGrad's, mirrored): window_params, then non-zero strides, offsets >= 0,
  /// sizes >= 1, offsets + sizes <= input.sizes and 1 <= output.sizes <= 1 + (sizes - 1) / |strides|.
  void signed_window(const TensorDesc& input, const TensorDesc& output, const std::vector<i64>& offsets,
                     const std::vector<i64>& sizes, const std::vector<i64>& strides,
                     const WindowNames& names = WindowNames{}) const;
  /// `t` has `ref`'s sizes except 1 along `axis` (OneHot's indices, ReverseSubsequences' lengths).
  void sizes_but_axis(const std::string& field, const TensorDesc& t, const std::string& ref_field,
                      const TensorDesc& ref, i64 axis) const;
  /// Split/Join: `many` equal `one` off `axis` and their sizes along it sum to one's.
  void parts_along_axis(const std::string& one_field, const TensorDesc& one, const std::string& many_field,
                        const std::vector<TensorDesc>& many, i64 axis) const;
  /// Element-wise indices along an axis (as ONNX): at most the input's sizes off the axis.
  void elements_indices(const TensorDesc& idx, const TensorDesc& in, i64 axis) const;
  /// Index tuples: the dimension counts, batch dimensions and tuple size k; returns the sizes
  /// indices_m[:-1] + input_m[batch+k:] that the output (gather) or updates (scatter) must have.
  std::vector<i64> tuple_indices(const TensorDesc& input, const TensorDesc& indices, i64 input_dimension_count,
                                 i64 indices_dimension_count, i64 batch) const;

  // ------------------------------------------------------------- feature levels (no-ops without a level)
  struct Named {
    std::string field;
    const TensorDesc* t;
    bool is_index;
  };
  /// Every tensor against `table` at the level; the operator's absence is reported on
  /// `since_field` ("" = the description) as "<since_what> feature level X".
  void level_rules(const LevelTable& table, const std::vector<Named>& tensors, const std::string& since_field = "",
                   const std::string& since_what = "the operator needs") const;
  void level_uint(const std::string& field, const std::vector<i64>& v) const;  // DirectML's UINT arrays
  void level_int(const std::string& field, const std::vector<i64>& v) const;   // DirectML's INT arrays
  /// What strided executes but no level accepts: fails with `rule` whenever a level is given.
  void level_never(const std::string& field, const std::string& rule) const;
  void level_reduction(ScatterReduction r) const;
  void level_elements_indices(const TensorDesc& idx, const TensorDesc& in, i64 axis) const;

 private:
  std::string validating() const;
  const char* name_;
  std::optional<FeatureLevel> level_;
};

/// `tensors` followed (or preceded, `before`) by field[0], field[1], ... of `list`.
std::vector<Rules::Named> with_list(std::vector<Rules::Named> v, const std::string& field,
                                    const std::vector<TensorDesc>& list, bool before);

}  // namespace strided::detail
