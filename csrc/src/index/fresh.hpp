// A promise from the caller of a functional call: its outputs are fresh arrays that nobody else
// can see, dropped when the call fails. Index steps may then check each index at the very read
// that uses it and fail after writing (the output is discarded), instead of checking all
// indices before the first write (elements.cpp: gather_elements reads its indices once).
#pragma once

namespace strided::detail::index {

/// While alive, calls made by this thread have fresh outputs (restored on destruction).
class FreshOutputScope {
 public:
  FreshOutputScope() noexcept;
  ~FreshOutputScope();
  FreshOutputScope(const FreshOutputScope&) = delete;
  FreshOutputScope& operator=(const FreshOutputScope&) = delete;

 private:
  bool old_;
};
/// Whether the current thread's call has fresh outputs.
bool fresh_outputs() noexcept;

}  // namespace strided::detail::index
