// Element access, written once: an unaligned, aliasing-safe load or store of one element (a
// memcpy of its bytes: buffers handed to the library may be misaligned, and bits move exactly,
// NaN payloads and -0.0 included). Always inlined (util/isa.hpp says why). ISA-safe (like
// cast.hpp): internal linkage, so each per-ISA kernel table and the baseline code compile their
// own copy.
#pragma once
#include <cstddef>
#include <cstring>

#include "util/isa.hpp"

namespace strided::detail::elem {
namespace {

template <class T>
STRIDED_ALWAYS_INLINE T load(const std::byte* p) noexcept {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <class T>
STRIDED_ALWAYS_INLINE void store(std::byte* p, T v) noexcept {
  std::memcpy(p, &v, sizeof(T));
}

}  // namespace
}  // namespace strided::detail::elem
