// A minimal C++ test harness for ctest: CHECK(cond), CHECK_EQ(a, b), CHECK_THROWS(expr, Type, "substring").
// Each test file defines `int main()` that calls its tests and returns check::report().
#pragma once
#include <cstdio>
#include <exception>
#include <sstream>
#include <string>

namespace check {
inline int& failures() {
  static int n = 0;
  return n;
}
inline int& passes() {
  static int n = 0;
  return n;
}
inline void fail(const char* file, int line, const std::string& what) {
  ++failures();
  std::fprintf(stderr, "%s:%d: FAILED: %s\n", file, line, what.c_str());
}
inline int report() {
  std::printf("%d passed, %d failed\n", passes(), failures());
  return failures() ? 1 : 0;
}
}  // namespace check

#define CHECK(cond)                              \
  do {                                           \
    if (cond) ++check::passes();                 \
    else check::fail(__FILE__, __LINE__, #cond); \
  } while (0)

#define CHECK_EQ(a, b)                                                                  \
  do {                                                                                  \
    const auto& check_a_ = (a);                                                         \
    const auto& check_b_ = (b);                                                         \
    if (check_a_ == check_b_) {                                                         \
      ++check::passes();                                                                \
    } else {                                                                            \
      std::ostringstream check_os_;                                                     \
      check_os_ << #a << " == " << #b << " (" << check_a_ << " vs " << check_b_ << ")"; \
      check::fail(__FILE__, __LINE__, check_os_.str());                                 \
    }                                                                                   \
  } while (0)

#define CHECK_THROWS(expr, Type, substring)                                                                            \
  do {                                                                                                                 \
    try {                                                                                                              \
      (void)(expr);                                                                                                    \
      check::fail(__FILE__, __LINE__, #expr " did not throw " #Type);                                                  \
    } catch (const Type& check_e_) {                                                                                   \
      if (std::string(check_e_.what()).find(substring) == std::string::npos)                                           \
        check::fail(__FILE__, __LINE__, std::string("message '") + check_e_.what() + "' lacks '" + (substring) + "'"); \
      else ++check::passes();                                                                                          \
    } catch (const std::exception& check_e_) {                                                                         \
      check::fail(__FILE__, __LINE__, std::string(#expr " threw another type: ") + check_e_.what());                   \
    }                                                                                                                  \
  } while (0)
