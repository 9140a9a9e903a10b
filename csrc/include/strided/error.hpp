// strided: the exception hierarchy. Messages name the description, the field and the rule,
// e.g. "Slice1Desc.strides[2]: stride must not be 0"; Python sees the same text.
#pragma once
#include "strided/config.hpp"  // C++17 check first
#include <stdexcept>
#include <string>

namespace strided {

/// Base of every exception strided throws (apart from std::bad_alloc when memory runs out).
/// Catch strided::Error to handle all of them; what() is the message described above.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A description, argument or shape breaks a rule of SPEC.md (Python: sd.ValidationError, a ValueError).
class ValidationError : public Error {
 public:
  using Error::Error;
};

/// An index tensor holds a value outside [-size, size) (Python: IndexError). Thrown by
/// CompiledOperator::execute before any output byte is written; the message names the first
/// bad index and its position.
class IndexError : public Error {
 public:
  using Error::Error;
};

/// A buffer is missing, too short, read-only or of the wrong count (Python: BufferError).
/// Thrown by CompiledOperator::execute before anything is read or written.
class BufferError : public Error {
 public:
  using Error::Error;
};

}  // namespace strided
