// The functional path: operator calls on arrays instead of descriptions. A call is keyed by
// (operator, parameters, dtypes, shapes, strides); its Program is built once (the operator's
// from_call -> validate -> lower, ops/registry.cpp) and kept in a thread-safe cache. Used by
// strided/array.hpp and by the Python module.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "strided/array.hpp"
#include "strided/tensor_desc.hpp"

namespace strided::detail {

/// An array of a call: like ArrayView, in fixed storage (no allocation per call).
struct CallArray {
  DataType dtype = DataType::UNKNOWN;
  void* data = nullptr;
  int ndim = 0;
  std::int64_t shape[kMaxDims] = {};
  std::int64_t strides[kMaxDims] = {};
};

/// Lets the caller drop a lock around the run of a large call (Python's GIL).
struct RunUnlock {
  void* (*release)() = nullptr;
  void (*reacquire)(void*) = nullptr;
};

/// Validates (first time per key), plans (cached) and runs operator `code` (op_code) on
/// non-empty arrays with its functional parameters (ops/<operator>.cpp, from_call). A 0-d array
/// runs as shape (1,). `unlock` (optional) is released while calls of at least 16 KiB run.
void call(int code, const std::int64_t* prm, std::size_t n_prm, const CallArray* ins, std::size_t n_in,
          const CallArray* outs, std::size_t n_out, const RunUnlock* unlock = nullptr);

bool is_empty(const CallArray& a);
/// ValidationError naming `field` unless the view has 0-8 dimensions, one stride per size,
/// non-negative sizes and a DirectML dtype.
CallArray call_array(const ConstArrayView& v, const char* field);
CallArray call_array(const ArrayView& v, const char* field);
/// `src` broadcast to `out`'s shape by numpy's rules (np.copyto): leading size-1 dimensions
/// beyond out's count dropped, then aligned right, size-1 or missing dimensions given stride 0.
/// ValidationError "src: shape (..) does not broadcast to out shape (..)".
CallArray broadcast_to(const CallArray& src, const CallArray& out);
/// "(2, 3)", numpy's spelling of a shape.
std::string shape_str(const std::int64_t* shape, int ndim);

/// ValidationError "<field>: expected shape (..), got (..)" unless `a` has exactly `shape`.
void expect_shape(const CallArray& a, const std::vector<std::int64_t>& shape, const char* field);
/// Split/Join's arrays: `views` (named field[k]) must equal `whole`'s shape off `axis` and sum to
/// it along it; returns the non-empty ones.
std::vector<CallArray> parts_along_axis(const CallArray& whole, const char* whole_name,
                                        const std::vector<ConstArrayView>& views, const char* field, std::int64_t axis);
/// The index family's array functions (strided/array.hpp): `ins` are x, indices[, updates];
/// checks the result's shape (call_shapes), then runs. A call with an empty array moves nothing
/// and reads no index (a scatter still copies x to out); a gather with a non-empty result from
/// an empty x raises IndexError (every index is out of range of the empty axis).
void index_call(int code, std::int64_t p, ScatterReduction reduction, const CallArray* ins, std::size_t n_in,
                const CallArray& out);

void clear_plans();
std::size_t plan_count();

}  // namespace strided::detail
