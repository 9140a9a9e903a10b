// Integer arguments: the one rule every binding uses for an int or a sequence of ints (sizes,
// strides, offsets, axes, counts, thread counts, XLA dimensions and indices, ...).
//
// Accepted: Python ints and anything with __index__ (numpy integer scalars, 0-d integer arrays);
// for sequences also 1-d integer arrays. bool is refused (numpy refuses it as a size or index),
// and so are floats, strings and None: TypeError naming the field. A value beyond int64 is a
// ValidationError (a ValueError, as numpy's "Maximum allowed dimension exceeded"). An exception
// raised inside an argument's own __index__ propagates unchanged.
#include <string>

#include "bindings.hpp"

namespace strided::py {
namespace {

// Field names are only formatted when something is wrong: the happy path allocates nothing.
std::string field_at(const char* field, Py_ssize_t i) {
  return i < 0 ? std::string(field) : std::string(field) + "[" + std::to_string(i) + "]";
}

std::string what_is(pyb::handle h) {
  if (pyb::isinstance<pyb::array>(h)) {
    const auto a = pyb::reinterpret_borrow<pyb::array>(h);
    return "a " + std::to_string(a.ndim()) + "-d array of dtype " + std::string(pyb::str(a.dtype()));
  }
  return std::string(pyb::repr(h));
}

// The Python int of an integer argument (a new reference), after the type checks above.
pyb::object index_of(pyb::handle h, const char* field, Py_ssize_t i) {
  bool ok = !PyBool_Check(h.ptr()) && PyIndex_Check(h.ptr());
  if (ok && pyb::isinstance<pyb::array>(h)) {  // ndarray has __index__ for any shape and dtype
    const auto a = pyb::reinterpret_borrow<pyb::array>(h);
    const char kind = a.dtype().kind();
    ok = a.ndim() == 0 && (kind == 'i' || kind == 'u');
  }
  if (!ok) throw pyb::type_error(field_at(field, i) + ": expected an integer, got " + what_is(h));
  PyObject* v = PyNumber_Index(h.ptr());
  if (!v) throw pyb::error_already_set();  // the argument's own exception, unchanged
  return pyb::reinterpret_steal<pyb::object>(v);
}

std::int64_t int64_of(pyb::handle v, const char* field, Py_ssize_t i) {
  int overflow = 0;
  const long long r = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (overflow)
    throw ValidationError(field_at(field, i) + ": " + std::string(pyb::str(v)) + " does not fit in 64 bits");
  if (r == -1 && PyErr_Occurred()) throw pyb::error_already_set();
  return r;
}

bool is_int_sequence(pyb::handle h) {
  if (pyb::isinstance<pyb::array>(h)) return pyb::reinterpret_borrow<pyb::array>(h).ndim() == 1;
  return PySequence_Check(h.ptr()) && !PyUnicode_Check(h.ptr()) && !PyBytes_Check(h.ptr()) &&
         !PyByteArray_Check(h.ptr());
}

}  // namespace

std::int64_t to_int(pyb::handle h, const char* field, Py_ssize_t i) {
  if (PyLong_CheckExact(h.ptr())) return int64_of(h, field, i);  // the common case, no allocation
  return int64_of(index_of(h, field, i), field, i);
}

std::uint64_t to_uint(pyb::handle h, const char* field) {
  const pyb::object v = PyLong_CheckExact(h.ptr()) ? pyb::reinterpret_borrow<pyb::object>(h) : index_of(h, field, -1);
  const int sign = PyObject_RichCompareBool(v.ptr(), pyb::int_(0).ptr(), Py_LT);
  if (sign < 0) throw pyb::error_already_set();
  if (sign) throw ValidationError(std::string(field) + ": must not be negative, got " + std::string(pyb::str(v)));
  const unsigned long long r = PyLong_AsUnsignedLongLong(v.ptr());
  if (r == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();  // only OverflowError is possible here: v is a non-negative int
    throw ValidationError(std::string(field) + ": " + std::string(pyb::str(v)) + " does not fit in 64 bits");
  }
  return r;
}

bool is_int_like(pyb::handle h) {
  if (PyLong_CheckExact(h.ptr())) return true;
  if (PyBool_Check(h.ptr()) || !PyIndex_Check(h.ptr())) return false;
  return !pyb::isinstance<pyb::array>(h) || pyb::reinterpret_borrow<pyb::array>(h).ndim() == 0;
}

int to_threads(pyb::handle h, const char* field) {
  const std::int64_t v = to_int(h, field);
  // The library's own bound (set_num_threads); checked here too because compile's option has none.
  if (v < 1 || v > 1024)
    throw ValidationError(std::string(field) + ": must be between 1 and 1024, got " + std::to_string(v));
  return static_cast<int>(v);
}

std::size_t to_ints_into(pyb::handle seq, const char* field, std::int64_t* out, std::size_t cap) {
  if (!is_int_sequence(seq)) {
    // A single integer is a sequence of one, as numpy's shape arguments (np.zeros(3)).
    if (is_int_like(seq)) {
      if (cap) out[0] = to_int(seq, field);
      return 1;
    }
    throw pyb::type_error(std::string(field) + ": expected a sequence of integers, got " + what_is(seq));
  }
  pyb::object fast = pyb::reinterpret_steal<pyb::object>(PySequence_Fast(seq.ptr(), "expected a sequence"));
  if (!fast) throw pyb::error_already_set();
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast.ptr());
  PyObject** items = PySequence_Fast_ITEMS(fast.ptr());
  for (Py_ssize_t i = 0; i < n && static_cast<std::size_t>(i) < cap; ++i) out[i] = to_int(items[i], field, i);
  return static_cast<std::size_t>(n);
}

pyb::list to_int_list(pyb::handle v, const char* field) {
  if (!is_int_sequence(v)) {  // "field: expected an integer" for anything else, as to_int says
    pyb::list one(1);
    PyList_SET_ITEM(one.ptr(), 0, PyLong_FromLongLong(to_int(v, field)));
    return one;
  }
  pyb::object fast = pyb::reinterpret_steal<pyb::object>(PySequence_Fast(v.ptr(), "expected a sequence"));
  if (!fast) throw pyb::error_already_set();
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast.ptr());
  PyObject** items = PySequence_Fast_ITEMS(fast.ptr());
  pyb::list res(n);
  for (Py_ssize_t i = 0; i < n; ++i) {
    const std::int64_t x = to_int(items[i], field, i);
    PyObject* o = PyLong_CheckExact(items[i]) ? (Py_INCREF(items[i]), items[i]) : PyLong_FromLongLong(x);
    if (!o) throw pyb::error_already_set();
    PyList_SET_ITEM(res.ptr(), i, o);
  }
  return res;
}

std::vector<int> to_axes(pyb::handle axis, int ndim, const char* field) {
  // Items as to_int_list reads them: a sequence item by item ("field[i]"), anything else as one int.
  const bool one = !is_int_sequence(axis);
  pyb::object fast;
  Py_ssize_t n = 1;
  PyObject** items = nullptr;
  if (!one) {
    fast = pyb::reinterpret_steal<pyb::object>(PySequence_Fast(axis.ptr(), "expected a sequence"));
    if (!fast) throw pyb::error_already_set();
    n = PySequence_Fast_GET_SIZE(fast.ptr());
    items = PySequence_Fast_ITEMS(fast.ptr());
  }
  std::vector<int> res;
  res.reserve(static_cast<std::size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    const Py_ssize_t at = one ? -1 : i;
    const std::int64_t a = to_int(one ? axis.ptr() : items[i], field, at);
    if (a < -ndim || a >= ndim)
      throw ValidationError(field_at(field, at) + ": " + std::to_string(a) + " is out of range for " +
                            std::to_string(ndim) + " dimension(s)");
    const int k = static_cast<int>(a < 0 ? a + ndim : a);
    for (const int seen : res)
      if (seen == k) throw ValidationError(field_at(field, at) + ": axis " + std::to_string(k) + " is repeated");
    res.push_back(k);
  }
  return res;
}

std::vector<std::int64_t> to_ints(pyb::handle seq, const char* field) {
  std::vector<std::int64_t> v(kMaxDims);
  const std::size_t n = to_ints_into(seq, field, v.data(), v.size());
  v.resize(n);
  if (n > kMaxDims) to_ints_into(seq, field, v.data(), n);
  return v;
}

}  // namespace strided::py
