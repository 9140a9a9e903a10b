// strided: compiling a description into an execution plan and running it on buffers.
#pragma once
#include "strided/config.hpp"  // C++17 check first
#include <cstddef>
#include <memory>
#include <vector>

#include "strided/ops.hpp"

namespace strided {

/// A read-only buffer: `bytes` must be at least the description's total_bytes. The caller keeps
/// the memory alive and unchanged for the duration of execute().
struct ConstBuffer {
  const void* data;
  std::size_t bytes;
};
/// A writable buffer: `bytes` must be at least the description's total_bytes. An output may
/// be written anywhere inside its total_bytes (padding included), never outside.
struct Buffer {
  void* data;
  std::size_t bytes;
};

/// Options for compile().
struct CompileOptions {
  /// Threads for this operator; 0 = the global setting (set_num_threads) at each execute.
  int threads = 0;
};

namespace detail {
struct Program;
}

/// An immutable execution plan. Copyable (shares the plan); execute() is thread-safe.
class CompiledOperator {
 public:
  /// Made by compile(); wraps an internal plan (not part of the stable API).
  explicit CompiledOperator(std::shared_ptr<const detail::Program> program);
  /// Runs the operator. `inputs` in the struct's order (input, indices, updates or the Join
  /// inputs), `outputs` likewise. Throws BufferError on a wrong count, a null pointer or a
  /// buffer shorter than its description's total_bytes; IndexError when an index is out of
  /// range. On any error no output byte has been written.
  void execute(const std::vector<ConstBuffer>& inputs, const std::vector<Buffer>& outputs) const;
  /// Number of input / output buffers execute() expects. Never throw.
  std::size_t input_count() const noexcept;
  std::size_t output_count() const noexcept;
  /// total_bytes each input / output buffer must have at least, in execute()'s order.
  const std::vector<std::uint64_t>& input_bytes() const noexcept;
  const std::vector<std::uint64_t>& output_bytes() const noexcept;
  /// The internal plan (for strided's own tests and benchmarks; not a stable API).
  const detail::Program& program() const noexcept { return *program_; }

 private:
  std::shared_ptr<const detail::Program> program_;
};

/// Validates `desc` (at no particular level; see validate()) and plans its execution. All
/// checking and planning happens here, once; execute() then only checks buffers. Throws
/// ValidationError exactly as validate(desc) does; nothing else (beyond std::bad_alloc).
CompiledOperator compile(const AnyDesc& desc, CompileOptions options = {});

}  // namespace strided
