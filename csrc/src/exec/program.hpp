// A compiled operator's program: a list of steps over the operator's buffers. Lowering
// (ops/<operator>.cpp) builds it once at compile time; execute() only checks buffers and runs it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "exec/overlap.hpp"
#include "strided/compiled.hpp"
#include "strided/dtype.hpp"

namespace strided::detail {

class CopyPlan;  // plan/copy_plan.hpp

/// Base pointers handed to steps: element-0-relative pointers for views are computed by the
/// steps themselves from Operand offsets.
struct ExecContext {
  const std::byte* const* inputs;
  std::size_t input_count;
  std::byte* const* outputs;
  std::size_t output_count;
  int threads;                   // >= 1
  const std::byte* constants;    // the program's constant pool (Program::constants)
};

/// Where a view lives: which buffer, and the byte offset of its element (0,...,0) from that
/// buffer's pointer (may be negative when the functional API hands element-0 pointers of arrays
/// with negative strides; the buffer pointer is then element 0 and offsets are 0).
/// A constant (a pad or fill value) is an operand too: `is_constant`, `offset` = its byte offset
/// in the program's constant pool, read through stride-0 views.
struct Operand {
  bool is_output = false;
  int buffer = 0;
  std::int64_t offset = 0;
  bool is_constant = false;

  const std::byte* in_ptr(const ExecContext& c) const {
    if (is_constant) return c.constants + offset;
    return (is_output ? c.outputs[buffer] : c.inputs[buffer]) + offset;
  }
  std::byte* out_ptr(const ExecContext& c) const { return c.outputs[buffer] + offset; }
};

/// A strided view: dtype, sizes and signed BYTE strides, located by an Operand.
struct View {
  Operand where;
  DataType dtype = DataType::UNKNOWN;
  std::vector<std::int64_t> sizes;
  std::vector<std::int64_t> strides;  // bytes
  int ndim() const { return static_cast<int>(sizes.size()); }
  std::size_t width() const { return itemsize(dtype); }
};

/// Bytes of output buffer `buffer` that a step writes or reads.
struct Touch {
  int buffer = 0;
  Region region;
};

class Step {
 public:
  virtual ~Step() = default;
  /// Reads inputs only and throws (IndexError) before anything is written; executor calls
  /// check() on every step before run() on any step.
  virtual void check(const ExecContext&) const {}
  virtual void run(const ExecContext&) const = 0;

  /// The declared regions: the output bytes the step writes, and the output bytes it reads
  /// (inputs that overlap an output are snapshotted before any step runs, and constants never
  /// change, so only outputs count). order_steps() runs a step beside others only when it
  /// declares a write and every pair of members is proven apart.
  std::vector<Touch> writes, reads;

 protected:
  /// Declares view `out` written and each output view among `ins` read.
  void declare(const View& out, std::initializer_list<const View*> ins);
};

/// The engine's kernel step over K operands: one output view and any number of views of inputs,
/// outputs or constants, of any element widths, declared at construction (their regions are
/// the step's). The engine runs its kernel in parts of [0, work().items) split at multiples of
/// work().align, claimed through parallel_items by a team sized by work().bytes; kernel steps
/// whose regions order_steps() proves apart share one parallel region (run_kernel_steps).
class KernelStep : public Step {
 public:
  struct Work {
    std::int64_t items = 0, align = 1;
    std::uint64_t bytes = 0;  // moved: sizes the team (threads_for_bytes)
  };
  /// This call's work (an in-place call may move fewer bytes).
  virtual Work work(const ExecContext&) const = 0;
  /// Items [lo, hi) on the calling thread; a part that streams ends with its store fence.
  virtual void part(const ExecContext&, std::int64_t lo, std::int64_t hi) const = 0;
  void run(const ExecContext& c) const final;

 protected:
  KernelStep(const View& out, std::initializer_list<const View*> ins) { declare(out, ins); }
};

/// Runs `n` kernel steps, whose declared regions are apart, in one parallel region: each step's
/// items in up to a team's count of parts, all parts claimed through parallel_items.
void run_kernel_steps(const KernelStep* const* steps, std::size_t n, const ExecContext& c);

struct Program {
  std::vector<std::unique_ptr<const Step>> steps;
  std::vector<std::uint64_t> input_bytes;   // required lengths (descriptions' total_bytes)
  std::vector<std::uint64_t> output_bytes;
  std::vector<DataType> input_dtypes;   // each buffer's element type (the description's)
  std::vector<DataType> output_dtypes;
  int threads = 0;  // 0 = global setting at execute time
  /// (input, output) pairs that may be the very same memory (in-place Identity-like use with
  /// identical views); any other overlap of an input with an output makes execute() snapshot
  /// that input first.
  std::vector<std::pair<int, int>> inplace_ok;
  /// What each output view writes (by output buffer), for the exact output-overlap test; an
  /// output without one is taken to write its whole extent.
  std::vector<Region> out_regions;
  /// The constants that steps read (8 bytes each, aligned for every dtype).
  std::vector<std::uint64_t> constants;
  /// The steps in groups that run together, [groups[g], groups[g + 1]): set by order_steps().
  std::vector<std::uint32_t> groups;
  /// Set by order_steps() too: per step, its copy's plan and operands (plan null: not a copy),
  /// and the steps that are not copies (only those have a check()). Read in place, a program
  /// of many small copies (a join of 10,000 arrays) would chase a pointer per step and plan.
  struct CopyRef {
    const CopyPlan* plan;
    Operand src, dst;
  };
  std::vector<CopyRef> copies;
  std::vector<std::uint32_t> others;
  /// Per step, the step as a kernel step (null: not one), for groups of kernel steps.
  std::vector<const KernelStep*> kernels;
};

/// Groups the steps for execution, in their order: consecutive copy steps, or consecutive kernel
/// steps, share one parallel region when each writes bytes of the outputs that no other member
/// writes or reads (their declared regions; exec/overlap proves them apart, and a pair it cannot
/// prove apart is ordered). Any other step runs alone. Lowerings therefore never order steps
/// themselves: a fill and a copy into the same window, or a copy that reads what an earlier one
/// wrote, land in successive groups.
void order_steps(Program& program);

/// The bytes `v` touches, relative to its buffer pointer.
inline Region region_of(const View& v) { return Region{v.where.offset, v.width(), v.sizes, v.strides}; }

/// Runs `program` on raw pointers: checks overlap (BufferError when two outputs share a byte,
/// before anything is written; snapshotting inputs that overlap outputs),
/// runs every step's check(), then every step's run(). `in_extent` / `out_extent` give each
/// buffer's accessed byte range [lo, hi) relative to its pointer (for the overlap test).
void run_program(const Program& program, const std::byte* const* inputs,
                 const std::pair<std::int64_t, std::int64_t>* in_extent, std::size_t n_in, std::byte* const* outputs,
                 const std::pair<std::int64_t, std::int64_t>* out_extent, std::size_t n_out);

/// A step that copies one view to another through the copy engine, converting the elements
/// (SPEC 3.5) when the views' dtypes differ.
std::unique_ptr<const Step> make_copy_step(const View& src, const View& dst);

}  // namespace strided::detail
