// strided/directml.h included after DirectML.h uses DirectML's own definitions. DirectML.h exists
// only on Windows; this stand-in declares what the strided_* functions name, the way DirectML.h
// does (its guard DIRECTML_H, C++ `struct` / `enum` without typedefs).
#define DIRECTML_H
enum DML_FEATURE_LEVEL { DML_FEATURE_LEVEL_1_0 = 0x1000, DML_FEATURE_LEVEL_2_1 = 0x2100 };
enum DML_OPERATOR_TYPE { DML_OPERATOR_INVALID, DML_OPERATOR_ELEMENT_WISE_IDENTITY };
struct DML_OPERATOR_DESC {
  DML_OPERATOR_TYPE Type;
  const void* Desc;
};

#include <strided/directml.h>

#include <type_traits>

#include "check.hpp"

// The header defined none of DirectML's types itself: these would be redefinitions otherwise.
struct DML_TENSOR_DESC {
  int only_the_stand_in_has_this;
};
struct DML_SLICE1_OPERATOR_DESC {
  int only_the_stand_in_has_this;
};
enum DML_TENSOR_DATA_TYPE { DML_TENSOR_DATA_TYPE_UNKNOWN };

static_assert(
    std::is_same_v<decltype(&strided_validate), strided_status (*)(const DML_OPERATOR_DESC*, DML_FEATURE_LEVEL)>);
static_assert(std::is_same_v<decltype(&strided_min_feature_level),
                             strided_status (*)(const DML_OPERATOR_DESC*, DML_FEATURE_LEVEL*)>);
static_assert(
    std::is_same_v<decltype(&strided_compile),
                   strided_status (*)(const DML_OPERATOR_DESC*, const strided_compile_options*, strided_operator**)>);

int main() {
  const DML_OPERATOR_DESC op{DML_OPERATOR_ELEMENT_WISE_IDENTITY, nullptr};
  CHECK(op.Type == DML_OPERATOR_ELEMENT_WISE_IDENTITY);
  CHECK(STRIDED_OK == 0 && STRIDED_INTERNAL_ERROR == 5);
  return check::report();
}
