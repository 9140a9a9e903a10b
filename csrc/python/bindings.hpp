// Shared pieces of the pybind11 module: conversions that every register_<area>.cpp uses.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>

#include "exec/call.hpp"
#include "strided/strided.hpp"

namespace strided::py {
namespace pyb = pybind11;

/// DataType from a DataType, an int, a name ("float16"/"FLOAT16"), or a numpy dtype-like.
DataType to_dtype(pyb::handle obj);
/// FeatureLevel from a FeatureLevel, an int, or "4_1" / "4.1"; None -> nullopt.
std::optional<FeatureLevel> to_level(pyb::handle obj);
/// The numpy dtype of a DataType.
pyb::dtype numpy_dtype(DataType t);
/// Integer arguments, one rule for all (csrc/python/args.cpp): a Python int or anything with __index__
/// (numpy integer scalars, 0-d integer arrays); TypeError naming `field` (with "[i]" when i >= 0) for
/// bool, float, str, None or other arrays; ValidationError beyond int64; __index__'s own exceptions propagate.
std::int64_t to_int(pyb::handle h, const char* field, Py_ssize_t i = -1);
/// to_int for unsigned values (byte counts): also ValidationError when negative or beyond uint64.
std::uint64_t to_uint(pyb::handle h, const char* field);
/// A thread count (to_int, then 1 to 1024: ValidationError outside).
int to_threads(pyb::handle h, const char* field);
/// Whether to_int would take h as an integer (not bool, not an array of 1 or more dimensions).
bool is_int_like(pyb::handle h);
/// A sequence of integers (list, tuple, range, 1-d integer array, ...; a single integer is a sequence
/// of one, as numpy's shapes), items as to_int; TypeError for str, None and other non-sequences.
std::vector<std::int64_t> to_ints(pyb::handle seq, const char* field);
/// The Python functions' integer-list arguments (_core._ints): a sequence (list, tuple, 1-d array)
/// as to_ints, anything else as one to_int ("field: expected an integer" for a str or a float).
pyb::list to_int_list(pyb::handle v, const char* field);
/// to_ints into a caller's array without allocating: returns the count and stores (and checks) only
/// the first `cap` items.
std::size_t to_ints_into(pyb::handle seq, const char* field, std::int64_t* out, std::size_t cap);
/// Axes: an int or a sequence of them (items as to_int_list), negative ones counted from the end,
/// as 0..ndim-1 in the order given; ValidationError naming `field[i]` (`field` for a single int)
/// when one is out of range or repeated. The rule of every function that takes axes.
std::vector<int> to_axes(pyb::handle axis, int ndim, const char* field);
/// A Python number kept exactly (SPEC 1): a bool as INT64 0/1, an int as INT64 (UINT64 from 2^63),
/// a float as FLOAT64; anything else a TypeError naming `field`.
Scalar exact_number(pyb::handle v, const char* field);
/// A scalar field: a Scalar as given, or a number kept exactly (exact_number).
Scalar to_scalar(pyb::handle h, const char* field);
/// numpy's limit on an array's dimensions.
constexpr std::size_t kNumpyMaxDims = 64;
/// A new result's shape by numpy's rule (sizes >= 0; the non-zero sizes times dt's item size within
/// 2**63 - 1 bytes; at most kNumpyMaxDims dimensions) into dims: the count, or a ValidationError
/// naming `field`; the result's byte count in `bytes`.
std::size_t result_shape(pyb::handle shape, const char* field, const pyb::dtype& dt, std::int64_t* dims,
                         std::uint64_t& bytes);
/// Tuple of ints.
pyb::tuple to_tuple(const std::vector<std::int64_t>& v);

/// An array argument of a functional call: dtype, element-0 pointer, shape and BYTE strides (ndim 0
/// for a 0-d array, as numpy); `keep` holds the array alive.
struct Arr : detail::CallArray {
  pyb::object keep;
};
/// Reads an array argument (numpy arrays as they are; anything else through numpy.asarray for
/// inputs). Errors name `field`: TypeError (not an array, object dtype), BufferError (read-only
/// output), ValidationError (dtype without a DirectML type, more than 8 dimensions).
Arr to_arr(pyb::handle h, const std::string& field, bool writable);
/// An array-like as a numpy array, sharing memory where it can: a numpy array as it is; a DLPack
/// exporter on the CPU (torch, JAX) through numpy.from_dlpack (zero copy: an out= tensor is
/// written in place); a buffer-protocol object through a memoryview (bytes: uint8); anything
/// else through numpy.asarray (inputs only). BufferError when DLPack refuses the object.
pyb::array as_array(pyb::handle h, const std::string& field, bool writable);
using detail::is_empty;
/// Validates (first time per key), plans (cached) and runs operator `code` (detail::op_code, the
/// position in STRIDED_FOR_EACH_OP) on arrays with its functional parameters (ops/<op>.cpp from_call);
/// releases the GIL.
/// A 0-d array runs as shape (1,) (descriptions have 1 to 8 dimensions).
void run_arrays(int code, const std::int64_t* params, std::size_t n_params, const Arr* ins, std::size_t n_in,
                const Arr* outs, std::size_t n_out);
inline void run_arrays(int code, const std::vector<std::int64_t>& params, const std::vector<Arr>& ins,
                       const std::vector<Arr>& outs) {
  run_arrays(code, params.data(), params.size(), ins.data(), ins.size(), outs.data(), outs.size());
}

/// Adds plain CPython functions (METH_FASTCALL, for calls where pybind11's dispatcher costs more
/// than the work) to m; `defs` ends with a null entry and must outlive the module.
void add_raw_functions(pyb::module_& m, PyMethodDef* defs);
/// Re-exposes module functions bound by pybind11 (with a "name($module, /, ...)\n--\n\n" text
/// signature in their docstring) as plain builtins of the module, so help() and
/// inspect.signature show them as Python shows its own builtins.
void make_plain(pyb::module_& m, std::initializer_list<const char*> names);
/// Inside a catch block of a raw METH_FASTCALL function: sets the Python error for the
/// exception in flight (pybind11's own exceptions, strided's through translate_strided_error,
/// MemoryError, RuntimeError for anything else) and returns nullptr.
PyObject* translate_current_exception();
/// pybind11's translator for strided::Error and its subclasses (the only one strided registers).
void translate_strided_error(std::exception_ptr p);

/// While alive, new numpy arrays of at least 4 MiB take their memory from strided's result pool
/// (csrc/python/result_pool.cpp); a no-op for smaller sizes or when the pool is off. Hold the GIL.
class ResultAllocScope {
 public:
  explicit ResultAllocScope(std::size_t bytes);
  ~ResultAllocScope();
  ResultAllocScope(const ResultAllocScope&) = delete;
  ResultAllocScope& operator=(const ResultAllocScope&) = delete;

 private:
  PyObject* old_ = nullptr;
};
/// The pool's byte limit (STRIDED_POOL_BYTES); 0 when it is off.
std::size_t result_pool_limit();
/// Changes the limit (0: off; idle blocks beyond the new limit are freed now).
void set_result_pool_limit(std::size_t bytes);

void register_types(pyb::module_& m);
void register_functional(pyb::module_& m);
void register_index(pyb::module_& m);
void register_ops(pyb::module_& m);
void register_scalar(pyb::module_& m);
void register_exec(pyb::module_& m);
void register_xla(pyb::module_& m);
void register_engine(pyb::module_& m);

}  // namespace strided::py
