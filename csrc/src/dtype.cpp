#include "strided/dtype.hpp"

#include <cctype>
#include <string>

namespace strided {

DataType parse_dtype(std::string_view name) {
  std::string lower;
  for (char ch : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
#define STRIDED_X(nm, value, bytes, str, type) \
  if (lower == str) return DataType::nm;
  STRIDED_FOR_EACH_DTYPE(STRIDED_X)
#undef STRIDED_X
  throw ValidationError("dtype: unknown data type name '" + std::string(name) + "'");
}

}  // namespace strided
