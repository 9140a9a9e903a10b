// strided: the check every public header makes first. strided's API is C++17 (std::optional,
// std::string_view, std::variant, inline variables); an older language mode gets this one
// message and stops, instead of a cascade of errors from the headers that follow.
#pragma once

#if defined(_MSVC_LANG)  // MSVC keeps __cplusplus at 199711L unless /Zc:__cplusplus is given
#define STRIDED_CPLUSPLUS _MSVC_LANG
#else
#define STRIDED_CPLUSPLUS __cplusplus
#endif

#if STRIDED_CPLUSPLUS < 201703L
#error "strided needs C++17 or newer (-std=c++17)"
// GCC and clang go on after #error; a missing include is fatal and ends the compilation here.
#include <strided: stopping, C++17 or newer is required>
#endif
