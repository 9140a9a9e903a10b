// The copy engine's internal interface: one planner and one executor that every operator's
// data movement goes through (DESIGN.md "One idea"). A plan is pointer-free, immutable and
// shareable between threads; pointers come at run time.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "strided/dtype.hpp"

namespace strided::detail {

class CopyPlan;  // defined by the planner (plan/planner.cpp)

/// Plans dst[c] = src[c] for every coordinate c of `sizes` (any count of dimensions, sizes may
/// be 0), for elements of `width` bytes (1, 2, 4, 8; other widths are handled as byte runs).
/// Strides are in BYTES and may be negative or zero (a zero source stride broadcasts; a zero
/// destination stride over a dimension of size > 1 is the caller's bug: last write wins).
/// The caller guarantees src and dst do not overlap, or are the same memory with the same strides.
std::shared_ptr<const CopyPlan> plan_copy(std::size_t width, const std::vector<std::int64_t>& sizes,
                                          const std::vector<std::int64_t>& src_strides,
                                          const std::vector<std::int64_t>& dst_strides);

/// Plans dst[c] = convert(src[c]) from elements of type `from` to `to` by SPEC 3.5's rules (the
/// convert family of kernels; plan_copy when the types are equal). Strides in bytes, as plan_copy.
std::shared_ptr<const CopyPlan> plan_convert(DataType from, DataType to, const std::vector<std::int64_t>& sizes,
                                             const std::vector<std::int64_t>& src_strides,
                                             const std::vector<std::int64_t>& dst_strides);

/// Runs a plan. `src` / `dst` point at element (0,...,0) of each view. `threads` >= 1.
void run_copy(const CopyPlan& plan, const void* src, void* dst, int threads);

/// Several independent copies (no job reads what another writes; destinations disjoint), e.g.
/// the parts of a split or join: one parallel region for all, work shared out by bytes.
struct CopyJob {
  const CopyPlan* plan;
  const void* src;
  void* dst;
};
void run_copies(const CopyJob* jobs, std::size_t n, int threads);

/// Bytes the plan reads/writes (for the threading grain and for reporting).
std::uint64_t copy_plan_bytes(const CopyPlan& plan) noexcept;

/// One-shot convenience: plan and run.
void copy_strided(std::size_t width, const std::vector<std::int64_t>& sizes, const void* src,
                  const std::vector<std::int64_t>& src_strides, void* dst, const std::vector<std::int64_t>& dst_strides,
                  int threads);

/// Outputs of at least this many bytes get non-temporal stores (plans made afterwards).
void set_stream_threshold(std::uint64_t bytes) noexcept;
std::uint64_t stream_threshold() noexcept;

/// Reference points for the benchmarks: memcpy / memset split evenly over `threads` threads
/// (one OpenMP region), the bandwidth every copy is measured against.
void parallel_memcpy(void* dst, const void* src, std::size_t bytes, int threads);
void parallel_memset(void* dst, int value, std::size_t bytes, int threads);

}  // namespace strided::detail
