#include "strided/feature_level.hpp"

#include <cctype>

#include "strided/error.hpp"

namespace strided {

std::string_view feature_level_name(FeatureLevel level) noexcept {
  switch (level) {
#define STRIDED_X(name, value, str) \
  case FeatureLevel::name: return str;
    STRIDED_FOR_EACH_FEATURE_LEVEL(STRIDED_X)
#undef STRIDED_X
  }
  return "unknown";
}

bool is_known_feature_level(std::uint32_t value) noexcept {
  switch (value) {
#define STRIDED_X(name, v, str) case v:
    STRIDED_FOR_EACH_FEATURE_LEVEL(STRIDED_X)
#undef STRIDED_X
    return true;
    default: return false;
  }
}

FeatureLevel parse_feature_level(std::string_view text) {
  std::string s;
  for (char ch : text) s += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  if (s.rfind("FL_", 0) == 0) s = s.substr(3);
  for (char& ch : s)
    if (ch == '.') ch = '_';
#define STRIDED_X(name, value, str) \
  if (s == str) return FeatureLevel::name;
  STRIDED_FOR_EACH_FEATURE_LEVEL(STRIDED_X)
#undef STRIDED_X
  throw ValidationError("feature_level: unknown feature level '" + std::string(text) +
                        "' (expected e.g. '4_1', '4.1' or 'FL_4_1')");
}

}  // namespace strided
