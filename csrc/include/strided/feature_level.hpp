// strided: DirectML feature levels (DML_FEATURE_LEVEL values).
#pragma once
#include "strided/config.hpp"  // C++17 check first
#include <cstdint>
#include <string>
#include <string_view>

namespace strided {

// X(NAME, DML_FEATURE_LEVEL value, text). Values are DirectML's: they are API, keep them.
#define STRIDED_FOR_EACH_FEATURE_LEVEL(X) \
  X(FL_1_0, 0x1000, "1_0")                \
  X(FL_2_0, 0x2000, "2_0")                \
  X(FL_2_1, 0x2100, "2_1")                \
  X(FL_3_0, 0x3000, "3_0")                \
  X(FL_3_1, 0x3100, "3_1")                \
  X(FL_4_0, 0x4000, "4_0")                \
  X(FL_4_1, 0x4100, "4_1")                \
  X(FL_5_0, 0x5000, "5_0")                \
  X(FL_5_1, 0x5100, "5_1")                \
  X(FL_5_2, 0x5200, "5_2")                \
  X(FL_6_0, 0x6000, "6_0")                \
  X(FL_6_1, 0x6100, "6_1")                \
  X(FL_6_2, 0x6200, "6_2")                \
  X(FL_6_3, 0x6300, "6_3")                \
  X(FL_6_4, 0x6400, "6_4")

/// DML_FEATURE_LEVEL: a version of DirectML's operator set (SPEC.md section 4). Ordered: a
/// larger value is a newer level. Used with validate(), is_valid_at() and min_feature_level().
enum class FeatureLevel : std::uint32_t {
#define STRIDED_X(name, value, str) name = value,
  STRIDED_FOR_EACH_FEATURE_LEVEL(STRIDED_X)
#undef STRIDED_X
};

/// The newest level; what strided executes at.
inline constexpr FeatureLevel kNewestFeatureLevel = FeatureLevel::FL_6_4;

/// "4_1" for FL_4_1; "unknown" for a value that is not a level. Never throws.
std::string_view feature_level_name(FeatureLevel level) noexcept;
/// True when `value` is one of DirectML's levels (0x4100 yes, 0x4200 no). Never throws.
bool is_known_feature_level(std::uint32_t value) noexcept;
/// Parses "4_1", "4.1" or "FL_4_1". Throws ValidationError naming the text for anything
/// else (an unknown level such as "4_2" included).
FeatureLevel parse_feature_level(std::string_view text);

}  // namespace strided
