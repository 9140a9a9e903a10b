// PLACEHOLDER: index operators are built in issue 4 (owned by the index-operators work).
#include "ops/lower.hpp"
#include "strided/error.hpp"

namespace strided::detail {
namespace {
[[noreturn]] void not_yet(const char* what) {
  throw ValidationError(std::string(what) + ": execution is not yet supported in this build");
}
}  // namespace
void lower_gather(Program&, const View&, const View&, const View&, int, int) { not_yet("GatherDesc"); }
void lower_gather_elements(Program&, const View&, const View&, const View&, int) { not_yet("GatherElementsDesc"); }
void lower_gather_nd(Program&, const View&, const View&, const View&, int, int, int) { not_yet("GatherNDDesc"); }
void lower_scatter(Program&, const View&, const View&, const View&, const View&, int, ScatterReduction) {
  not_yet("ScatterDesc");
}
void lower_scatter_nd(Program&, const View&, const View&, const View&, const View&, int, int, ScatterReduction) {
  not_yet("ScatterNDDesc");
}
}  // namespace strided::detail
