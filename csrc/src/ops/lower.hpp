// Lowering: an operator over strided views -> steps of a Program. Used both by compile() (views
// made from TensorDescs) and by the functional API (views of numpy arrays, signed strides), so
// each operator's semantics are written once. Callers validate before lowering.
#pragma once
#include <cstdint>
#include <vector>

#include "exec/program.hpp"
#include "strided/ops.hpp"

namespace strided::detail {

/// View of a TensorDesc in buffer `buffer` (byte strides, offset 0).
View view_of(const TensorDesc& t, bool is_output, int buffer);

void lower_identity(Program& p, const View& in, const View& out);
void lower_split(Program& p, const View& in, const std::vector<View>& outs, int axis);
void lower_join(Program& p, const std::vector<View>& ins, const View& out, int axis);
/// Slice (v1): out[c] = in[offsets + strides*c], strides >= 1.
void lower_slice(Program& p, const View& in, const View& out, const std::vector<std::int64_t>& offsets,
                 const std::vector<std::int64_t>& strides);
/// Slice1: window offsets/sizes, signed non-zero strides.
void lower_slice1(Program& p, const View& in, const View& out, const std::vector<std::int64_t>& offsets,
                  const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& strides);

// Index operators (ops/lower_index.cpp). All take views of equal dimension count as the
// descriptions do; `indices` of INT32/INT64/UINT32/UINT64.
void lower_gather(Program& p, const View& in, const View& idx, const View& out, int axis, int index_dimensions);
void lower_gather_elements(Program& p, const View& in, const View& idx, const View& out, int axis);
void lower_gather_nd(Program& p, const View& in, const View& idx, const View& out, int input_dimension_count,
                     int indices_dimension_count, int batch_dimension_count);
void lower_scatter(Program& p, const View& in, const View& idx, const View& upd, const View& out, int axis,
                   ScatterReduction reduction);
void lower_scatter_nd(Program& p, const View& in, const View& idx, const View& upd, const View& out,
                      int input_dimension_count, int indices_dimension_count, ScatterReduction reduction);

}  // namespace strided::detail
