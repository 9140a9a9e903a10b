// PLACEHOLDER: the validation rules of SPEC.md sections 3-4 (owned by the validation work).
#include "strided/error.hpp"
#include "strided/ops.hpp"

namespace strided {

std::string desc_name(const AnyDesc& desc) {
  static const char* names[] = {"IdentityDesc", "SplitDesc",          "JoinDesc",     "SliceDesc",   "Slice1Desc",
                                "GatherDesc",   "GatherElementsDesc", "GatherNDDesc", "ScatterDesc", "ScatterNDDesc"};
  return names[desc.index()];
}

void validate(const AnyDesc&, std::optional<FeatureLevel>) {}
bool is_valid_at(const AnyDesc& desc, FeatureLevel level) {
  try {
    validate(desc, level);
    return true;
  } catch (const ValidationError&) {
    return false;
  }
}
FeatureLevel min_feature_level(const AnyDesc&) { return FeatureLevel::FL_1_0; }

}  // namespace strided
