// The operator registry's contract. Every operator of STRIDED_FOR_EACH_OP (strided/ops.hpp) has
// one file, ops/<operator>.cpp, that defines the functions declared here for its description:
//   check(rules, desc)      its validation rules and feature-level table (desc/rules.hpp)
//   lower(lowering, desc)   its steps over views (compile and the functional path alike)
//   from_call(call, tag)    its description from a functional call's arrays and parameters
//   call_shapes(call, tag)  (index family) the result's shape and the updates' expected shape
// and nothing about an operator lives in the generic code (ops/registry.cpp, the bindings).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <variant>
#include <vector>

#include "desc/rules.hpp"
#include "exec/program.hpp"
#include "strided/error.hpp"
#include "strided/ops.hpp"

namespace strided::detail {

/// Views of a description's tensors, in the order lower() asks for them: made from the
/// TensorDescs (compile), or the caller's arrays padded with leading size-1 dimensions to the
/// description's dimension count (functional path). Records buffer sizes and write regions.
class Lowering {
 public:
  explicit Lowering(Program& program) : p(program) {}
  /// Functional path: `ins` / `outs` are the arrays' views; `copy_family` lets an output have
  /// stride-0 dimensions (a copy keeps the last coordinate; anything else would race).
  Lowering(Program& program, const View* ins, std::size_t n_in, const View* outs, std::size_t n_out, bool copy_family)
      : p(program), given_in_(ins), given_out_(outs), n_in_(n_in), n_out_(n_out), given_(true),
        copy_family_(copy_family) {}
  View in(const TensorDesc& t);
  View out(const TensorDesc& t);
  std::vector<View> ins(const std::vector<TensorDesc>& ts);
  std::vector<View> outs(const std::vector<TensorDesc>& ts);
  /// A copy (converting when the dtypes differ) of view `in` to `out`; identical views of the
  /// same dtype may be the very same memory (in place).
  void copy(const View& in, const View& out);
  /// Lets `in` be the very same memory as `out` at execute time when the views are identical
  /// (in-place use); any other overlap gets `in` snapshotted first.
  void allow_inplace(const View& in, const View& out);
  /// `out` filled with `value`, converted to out's dtype by the Cast rules: a copy from a
  /// stride-0 view of a constant the program owns.
  void fill(const View& out, const Scalar& value);
  /// BufferError unless `out` (a view from out()) gives every element its own memory: a step
  /// other than a copy writes elements in parallel, so the functional path's stride-0 outputs,
  /// which copies allow (last coordinate wins), would race there.
  void own_elements(const View& out) const;
  /// The name that errors found while the program runs (a bad index) start with: the
  /// description's on a compiled operator ("GatherDesc"), the function's on a functional call
  /// ("gather"), as validation's messages do.
  std::string name(const char* desc, const char* call) const { return given_ ? call : desc; }

  Program& p;

 private:
  const View* given_in_ = nullptr;
  const View* given_out_ = nullptr;
  std::size_t n_in_ = 0, n_out_ = 0;
  bool given_ = false, copy_family_ = false;
};

/// A Scalar as an 8-byte slot holding the element at offset 0 (native byte order): what a
/// kernel reads as a constant operand.
std::uint64_t element_slot(const Scalar& value);

/// An array of a functional call: dtype and shape (its strides only matter to lowering).
struct ArraySpec {
  DataType dtype = DataType::UNKNOWN;
  int ndim = 0;
  const std::int64_t* shape = nullptr;
};

/// A functional call: arrays and the operator's integer parameters (index family: the Python
/// function's (axis or batch_dims, reduction); copy family: see each from_call).
struct Call {
  const ArraySpec* in = nullptr;
  std::size_t n_in = 0;
  const ArraySpec* out = nullptr;
  std::size_t n_out = 0;
  const std::int64_t* prm = nullptr;
  std::size_t n_prm = 0;

  /// ValidationError unless the counts fit (0 = any number of arrays).
  void expect(std::size_t ins, std::size_t outs, std::size_t params) const;
  /// Packed description of in[i] / out[i], with leading 1s up to `ndim` dimensions.
  TensorDesc in_desc(std::size_t i, int ndim = 0) const;
  TensorDesc out_desc(std::size_t i, int ndim = 0) const;
  std::vector<TensorDesc> in_descs() const;
  std::vector<TensorDesc> out_descs() const;
  /// The largest dimension count among the arrays.
  int max_ndim() const;
  /// `axis` of an array of `ndim` dimensions, negative counted from the end; ValidationError
  /// "<field>: ..." when out of range.
  static std::int64_t axis(std::int64_t axis, int ndim, const char* field);
};

/// What a functional call of an index operator produces: the result's shape and, for scatters,
/// the shape updates must have (before broadcasting).
struct CallShapes {
  std::vector<std::int64_t> out;
  std::vector<std::int64_t> updates;
};

/// Reduction code of a functional call (0-4); ValidationError naming `field` otherwise.
ScatterReduction reduction_code(std::int64_t r, const char* field);

#define STRIDED_OP_HOOKS_copy(Name)
#define STRIDED_OP_HOOKS_index(Name) CallShapes call_shapes(const Call& call, const Name##Desc*);
#define STRIDED_X(Name, family)                              \
  void check(const Rules& rules, const Name##Desc& desc);    \
  void lower(Lowering& lowering, const Name##Desc& desc);    \
  Name##Desc from_call(const Call& call, const Name##Desc*); \
  STRIDED_OP_HOOKS_##family(Name)
STRIDED_FOR_EACH_OP(STRIDED_X)
#undef STRIDED_X

/// The operator code of description type D: its position in STRIDED_FOR_EACH_OP.
template <class D, std::size_t I = 0>
constexpr int op_code() {
  if constexpr (std::is_same_v<D, std::variant_alternative_t<I, AnyDesc>>) return static_cast<int>(I);
  else return op_code<D, I + 1>();
}

/// Whether description type D belongs to the index family.
template <class D>
struct IsIndexFamily;
#define STRIDED_FAMILY_copy false
#define STRIDED_FAMILY_index true
#define STRIDED_X(Name, family) \
  template <>                   \
  struct IsIndexFamily<Name##Desc> : std::bool_constant<STRIDED_FAMILY_##family> {};
STRIDED_FOR_EACH_OP(STRIDED_X)
#undef STRIDED_X

/// Calls f(static_cast<D*>(nullptr)) for the description type of operator `code`.
template <class F, std::size_t I = 0>
decltype(auto) visit_code(int code, F&& f) {
  if constexpr (I + 1 < std::variant_size_v<AnyDesc>) {
    if (code != static_cast<int>(I)) return visit_code<F, I + 1>(code, std::forward<F>(f));
  } else if (code != static_cast<int>(I)) {
    throw ValidationError("unknown operator code " + std::to_string(code));
  }
  return f(static_cast<std::variant_alternative_t<I, AnyDesc>*>(nullptr));
}

/// Whether operator `code` is of the index family (false for an unknown code).
bool is_index_code(int code) noexcept;

/// The functional path: validates the description from_call() makes (ValidationError) and
/// lowers it with the arrays' views.
std::shared_ptr<Program> build_call(int code, const Call& call, const View* ins, const View* outs);
/// call_shapes() of an index operator; ValidationError for a copy operator or a call that does
/// not fit the operator.
CallShapes call_shapes(int code, const Call& call);

/// View of a TensorDesc in buffer `buffer` (byte strides, offset 0).
View view_of(const TensorDesc& t, bool is_output, int buffer);

}  // namespace strided::detail
