// The axis-index kernel family: steps that move data chosen by index tensors. The index
// operators' files (ops/<operator>.cpp) turn views into these geometries (loop nests with byte
// strides, pointer-free, built once per plan); the steps check every index value in check() and
// move data in run(), reading each index once.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "exec/program.hpp"
#include "index/common.hpp"
#include "strided/ops.hpp"

namespace strided::detail::index {

/// Which index values to check and how to name a bad one.
struct IndexCheckSpec {
  std::string name;                 // "ScatterDesc.indices" (compiled) or "scatter.indices" (a call)
  Operand where;                    // the indices tensor
  DataType dtype = DataType::UNKNOWN;
  std::vector<std::int64_t> sizes;  // the indices view (positions are reported in it)
  std::vector<std::int64_t> strides;
  int skip_leading = 0;             // leading size-1 padding dimensions left out of messages
  int comp_dim = -1;                // dimension holding coordinate tuples (tuple indices), or -1
  std::vector<std::int64_t> bound;  // valid range per component: [-bound, bound) or [0, bound)
  std::vector<int> axis;            // the axis each component indexes (for the message)
};

/// Throws IndexError naming the first (row-major) bad index when any value is out of range.
void check_indices(const IndexCheckSpec& spec, const ExecContext& c);

/// check_indices for a C-contiguous indices view of `count` values with one bound, which also
/// writes them, normalised (negative values counted from the end), to dst as uint16 (`width`
/// 2) or uint32 (4) in memory order: the operator then reads 2-4x fewer index bytes.
void check_and_narrow(const IndexCheckSpec& spec, const ExecContext& c, std::int64_t count, int width, std::byte* dst);
/// Indices of at least this many bytes are narrowed (see ElementsGeom); a knob for tests.
void set_narrow_threshold(std::int64_t bytes) noexcept;
std::int64_t narrow_threshold() noexcept;

/// Gather or scatter along one axis (element-wise indices): a line per non-axis position of the indices.
struct ElementsGeom {
  // Operands: 0 indices, 1 data (updates for scatter, output for gather), 2 target (output for
  // scatter, input for gather), 3 source (scatter's input, copied to the output first).
  Walk<4> lines;               // the non-axis dimensions
  std::int64_t K = 0;          // indices' size along the axis
  std::int64_t N = 0;          // target's size along the axis (the index range)
  std::array<std::int64_t, 4> ax{};  // byte strides along the axis
  std::int64_t tile = 1;       // lines processed together (axis-outer layouts); 1 = line by line
  bool pack = false;           // tiles go through a packed per-thread copy of the target band
  std::array<Operand, 4> where{};
  DataType dtype = DataType::UNKNOWN;
  DataType idx_dtype = DataType::UNKNOWN;
  bool same_view = false;      // scatter: input and output views identical (in place when same memory)
};
std::unique_ptr<const Step> make_axis_scatter_step(const ElementsGeom& g, ScatterReduction r, IndexCheckSpec check);
std::unique_ptr<const Step> make_axis_gather_step(const ElementsGeom& g, IndexCheckSpec check);

/// Take along an axis (numpy take): out[o, j, q] = in[o, idx[j], q].
struct TakeGeom {
  Walk<2> outer;  // in[:axis]: (in, out)
  Walk<2> index;  // the index dimensions: (idx, out)
  Walk<2> inner;  // in[axis+1:]: (in, out)
  std::int64_t N = 0, a_in = 0;
  Operand in, idx, out;
  DataType dtype = DataType::UNKNOWN;
  DataType idx_dtype = DataType::UNKNOWN;
};
/// `out`, `in` and `idx`: the operands' views, for the step's declared regions.
std::unique_ptr<const Step> make_take_step(const TakeGeom& g, IndexCheckSpec check, const View& out, const View& in,
                                           const View& idx);

/// Gather by index tuples: out[t, s] = in[batch(t), idx[t, :], s].
struct TupleGatherGeom {
  Walk<3> tuples;  // indices' dimensions but the last: (idx, out, in); in strides only on batch dimensions
  int L = 0;
  std::int64_t comp_st = 0;  // indices' byte stride along the last dimension
  std::array<std::int64_t, kMaxLoop> bound{}, in_st{};
  Walk<2> slice;   // in[batch+L:]: (in, out)
  Operand in, idx, out;
  DataType dtype = DataType::UNKNOWN;
  DataType idx_dtype = DataType::UNKNOWN;
};
std::unique_ptr<const Step> make_tuple_gather_step(const TupleGatherGeom& g, IndexCheckSpec check);

/// Scatter by index tuples: out = in; out[idx[t, :], s] (op)= upd[t, s] in row-major order of t.
struct TupleScatterGeom {
  Walk<2> tuples;  // (idx, upd)
  int L = 0;
  std::int64_t comp_st = 0;
  std::array<std::int64_t, kMaxLoop> bound{}, out_st{}, lin_st{};  // lin_st: row-major target numbering
  std::int64_t targets = 0;  // product of bound[0..L)
  Walk<2> slice;   // out[L:]: (upd, out)
  Operand in, idx, upd, out;
  DataType dtype = DataType::UNKNOWN;
  DataType idx_dtype = DataType::UNKNOWN;
};
/// `copy` copies the input to the output first; skipped when `same_view` and the input is the
/// output's memory (in place).
std::unique_ptr<const Step> make_tuple_scatter_step(const TupleScatterGeom& g, ScatterReduction r, IndexCheckSpec check,
                                                    std::unique_ptr<const Step> copy, bool same_view);
/// Whether tuple scatters file 32-bit offsets where every offset fits (the default); off, plans
/// made afterwards take the 64-bit path (a knob for tests).
void set_compact_entries(bool on) noexcept;
bool compact_entries() noexcept;

/// Scatter by positions over a whole tensor (MaxUnpooling): out[idx[c]] = in[c], the position
/// row-major over out's sizes (negative values counted from the end); the zeros come from an
/// earlier step. Duplicates: the last in row-major order of the indices wins.
struct FlatScatterGeom {
  Walk<2> items;      // the input's dimensions: (idx, in)
  std::int64_t M = 0;  // out's element count: positions in [-M, M)
  int n = 0;           // out's dimensions (contiguous neighbours merged), outermost first
  std::array<std::int64_t, kMaxLoop> out_size{}, out_st{};
  Operand in, idx, out;
  DataType dtype = DataType::UNKNOWN;
  DataType idx_dtype = DataType::UNKNOWN;
};
std::unique_ptr<const Step> make_flat_scatter_step(const FlatScatterGeom& g, IndexCheckSpec check);

// ---------------------------------------------------------------- helpers for lowerings (index/lowering.cpp)

/// The check of the indices view `idx`, its errors naming `name` ("scatter.indices").
IndexCheckSpec check_spec(std::string name, const View& idx);
/// check_spec for index tuples: the last of idx's trailing `q` dimensions holds the L = bound.size()
/// components, component k indexing axis first_axis + k of size bound[k].
IndexCheckSpec tuple_check_spec(std::string name, const View& idx, int q, const std::int64_t* bound, int L,
                                int first_axis);
/// Lines processed together (ElementsGeom::tile, ::pack) for an element width.
void choose_tile(ElementsGeom& g, std::size_t width);
/// Same sizes, strides and offset (possibly the same memory at run time).
bool same_view(const View& a, const View& b);
/// Whether element-wise indices cover `in` off the axis (equal sizes; validation made them no larger).
bool covers_off_axis(const View& in, const View& idx, int axis);
/// out = in, skipped at run time when `same_view` and the output is the input's memory.
std::unique_ptr<const Step> make_copy_unless_in_place(const View& in, const View& out, bool same_view);
/// `v` with `rank` dimensions (view/view.hpp align_right); validation guarantees it fits.
View aligned(View v, int rank);

/// Calls f(I{}) with I the C++ type of an indices dtype (INT32, INT64, UINT32, UINT64).
template <class F>
decltype(auto) dispatch_index(DataType t, F&& f) {
  switch (t) {
    case DataType::INT32: return f(std::int32_t{});
    case DataType::INT64: return f(std::int64_t{});
    case DataType::UINT32: return f(std::uint32_t{});
    default: return f(std::uint64_t{});  // lowering admits only the four index types
  }
}

/// Calls f(W) with std::integral_constant<std::size_t, W> for element width W in {1, 2, 4, 8}.
template <class F>
decltype(auto) dispatch_width(std::size_t w, F&& f) {
  switch (w) {
    case 1: return f(std::integral_constant<std::size_t, 1>{});
    case 2: return f(std::integral_constant<std::size_t, 2>{});
    case 4: return f(std::integral_constant<std::size_t, 4>{});
    default: return f(std::integral_constant<std::size_t, 8>{});
  }
}

/// Calls f(Op{}) with the reduction op for dtype `t` (storage types by width where the
/// arithmetic does not depend on signedness).
template <class F>
decltype(auto) dispatch_reduction(ScatterReduction r, DataType t, F&& f) {
  using namespace std;
  switch (r) {
    case ScatterReduction::NONE:
      return dispatch_width(itemsize(t), [&](auto w) { return f(OpNone<uint_of_t<decltype(w)::value>>{}); });
    case ScatterReduction::ADD:
    case ScatterReduction::MUL: {
      const bool add = r == ScatterReduction::ADD;
      switch (t) {
        case DataType::FLOAT16: return add ? f(OpHalfAdd{}) : f(OpHalfMul{});
        case DataType::FLOAT32: return add ? f(OpAdd<float>{}) : f(OpMul<float>{});
        case DataType::FLOAT64: return add ? f(OpAdd<double>{}) : f(OpMul<double>{});
        default:
          return dispatch_width(itemsize(t), [&](auto w) {
            using U = uint_of_t<decltype(w)::value>;
            return add ? f(OpAdd<U>{}) : f(OpMul<U>{});
          });
      }
    }
    default: {
      const bool mn = r == ScatterReduction::MIN;
      auto pick = [&](auto tag) {
        using T = decltype(tag);
        return mn ? f(OpMin<T>{}) : f(OpMax<T>{});
      };
      switch (t) {
        case DataType::FLOAT16: return mn ? f(OpHalfMin{}) : f(OpHalfMax{});
        case DataType::FLOAT32: return pick(float{});
        case DataType::FLOAT64: return pick(double{});
        case DataType::INT8: return pick(int8_t{});
        case DataType::INT16: return pick(int16_t{});
        case DataType::INT32: return pick(int32_t{});
        case DataType::INT64: return pick(int64_t{});
        case DataType::UINT8: return pick(uint8_t{});
        case DataType::UINT16: return pick(uint16_t{});
        case DataType::UINT32: return pick(uint32_t{});
        default: return pick(uint64_t{});
      }
    }
  }
}

}  // namespace strided::detail::index
