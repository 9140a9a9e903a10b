// Exact overlap of two strided views (numpy.shares_memory's question), with bounded work.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace strided::detail {

/// The bytes a view touches: element (0,...,0) at `offset` bytes from its buffer pointer,
/// `width`-byte elements, signed byte strides.
struct Region {
  std::int64_t offset = 0;
  std::size_t width = 1;
  std::vector<std::int64_t> sizes;
  std::vector<std::int64_t> strides;
};

enum class Overlap { kNo, kYes, kUnknown };

/// Whether some byte of view a (at buffer pointer pa) is also a byte of view b. Solves
/// a0 + sum(sa_i x_i) + u == b0 + sum(sb_j y_j) + v over the views' bounds exactly (a bounded
/// Diophantine search, pruned by the reachable range and by divisibility); kUnknown when that
/// needs more than `max_work` steps or an intermediate would overflow. Views of one buffer that
/// interleave without sharing a byte (a[:, ::2] and a[:, 1::2]) are kNo after a few steps.
Overlap region_overlap(const std::byte* pa, const Region& a, const std::byte* pb, const Region& b,
                       std::int64_t max_work = std::int64_t{1} << 16) noexcept;

/// Whether two different coordinates of view r may share a byte. Conservative (the dimensions
/// sorted by stride must each step past everything the smaller ones reach, as every packed,
/// padded or permuted layout does). A stride-0 dimension (size > 1) counts as overlapping
/// unless `zero_strides_ok` (copies keep the last coordinate of such a dimension).
bool may_overlap_itself(const Region& r, bool zero_strides_ok) noexcept;

}  // namespace strided::detail
