// Internals shared by the strided::xla translation units.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "strided/xla.hpp"

namespace strided::xla::detail {

/// ValidationError "<field>[i]: ..." unless `p` is a permutation of 0..p.size()-1.
void check_permutation(const std::vector<std::int64_t>& p, const std::string& field);
/// Product of non-negative extents (0 if any is 0); ValidationError beyond 63 bits.
std::uint64_t checked_product(const std::vector<std::int64_t>& v);
/// Shape::validate with the error messages prefixed by `name` ("relayout.src_shape").
void validate_shape(const Shape& s, const std::string& name);
/// Physical strides in elements of a VALIDATED, untiled shape.
std::vector<std::int64_t> strides_of(const Shape& s);

/// The dimensions in physical order (major to minor).
std::vector<std::int64_t> physical_order_dims(const Shape& s);

/// One tile applied to bounds `in` (SPEC 5.1): `prepend` leading 1s make the tile fit, dims
/// [0, first) pass through, the covered ones are merged at `*` into `merged` (group[i]: the merged
/// dimension that input dimension i joins), and each covered merged dimension m (with tile t)
/// becomes a count ceil(m/t) and a size t: out = [merged[0, first), counts..., sizes...].
struct TileStage {
  std::size_t prepend = 0;
  std::vector<std::int64_t> in;  // after prepending
  std::vector<std::int64_t> merged;
  std::vector<std::size_t> group;
  std::size_t first = 0;
  std::vector<std::int64_t> tile;  // one per covered merged dimension
  std::vector<std::int64_t> out;
};
/// The stages of a shape's tiles (empty without tiles). Checks the tile rules (errors named
/// "<name>.layout.tiles[i]...") and that every bound fits in 63 bits.
std::vector<TileStage> tile_stages(const Shape& s, const std::string& name);

}  // namespace strided::xla::detail
