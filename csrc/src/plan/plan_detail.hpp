// The copy plan's contents: the canonical loop nest the planner made. Visible to the C++ tests
// (coalescing, flipping, kernel choice); the rest of the library sees only copy_plan.hpp.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/kernels.hpp"
#include "plan/copy_plan.hpp"
#include "plan/nest.hpp"
#include "strided/dtype.hpp"

namespace strided::detail {

struct PlanDim {
  std::int64_t n, ss, ds;  // size, source and destination strides in bytes
};

/// Pointer-free and immutable once made: shared by every thread that runs it.
///   for o in outer (outermost first), for r in [0, n1), for i in [0, n0):
///     dst[dst_off + o.ds.. + r*ds1 + i*ds0] = src[src_off + o.ss.. + r*ss1 + i*ss0]
/// The kernel runs the inner two loops; run_copy walks `outer` (the engine's one loop nest, a
/// Walk of (source, destination) strides, by its Cursor) and splits work across threads.
class CopyPlan {
 public:
  bool empty = false;       // a zero-size dimension: nothing to do
  bool same_strides = false;  // src and dst strides equal everywhere: src == dst is a no-op
  bool stream = false;      // output larger than the cache: non-temporal stores
  KernelKind kind = KernelKind::Contig;
  int wlog = 0;             // log2 of the element width the kernel moves (1, 2, 4, 8 bytes)
  std::int64_t src_off = 0, dst_off = 0;  // bytes added to the base pointers (flipped dimensions)
  PlanDim inner{1, 0, 0};   // n0, ss0, ds0
  PlanDim row{1, 0, 0};     // n1, ss1, ds1
  Walk<2, kMaxPlanLoop> outer;                 // (source, destination) byte strides
  std::int64_t outer_count = 1;  // product of outer sizes
  std::uint64_t bytes = 0;  // bytes written
  DataType from = DataType::UNKNOWN, to = DataType::UNKNOWN;  // the convert family: from != to

  std::size_t width() const noexcept { return std::size_t{1} << wlog; }
  /// "transpose w4 [8192x4096] outer=[]"-style summary for tests and debugging.
  std::string describe() const;
};

const char* kernel_kind_name(KernelKind k) noexcept;

}  // namespace strided::detail
