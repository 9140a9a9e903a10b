// Fast entry of the index functions (python/strided/_index.py): the common call (numpy arrays,
// an int32/int64/uint32/uint64 index array, exact shapes, nothing empty) is checked, its output
// allocated and run here without going back to Python, so a call on a tiny array costs a small
// fraction of numpy's take_along_axis / put_along_axis. Anything else returns None and the
// Python wrapper takes the general path (conversions, broadcasting updates, empty arrays, and the
// error messages for bad arguments). Shape rules of the descriptions are left to validate().
#include "bindings.hpp"

namespace strided::py {
namespace {

// A numpy array argument as the fast path accepts it, or false.
bool fast_arr(pyb::handle h, Arr& out) {
  if (!pyb::isinstance<pyb::array>(h)) return false;
  auto a = pyb::reinterpret_borrow<pyb::array>(h);
  const auto nd = a.ndim();
  if (nd < 1 || nd > kMaxDims || a.dtype().kind() == 'O') return false;
  for (pyb::ssize_t d = 0; d < nd; ++d)
    if (a.shape(d) == 0) return false;
  try {
    out = to_arr(h, "x", false);
  } catch (const std::exception&) {
    return false;  // not a DirectML type (or another oddity): the general path names it
  }
  return true;
}

bool is_index_type(DataType t) {
  return t == DataType::INT32 || t == DataType::INT64 || t == DataType::UINT32 || t == DataType::UINT64;
}

bool small_int(pyb::handle h, std::int64_t& v) {
  if (!PyLong_CheckExact(h.ptr())) return false;
  int overflow = 0;
  v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
  return overflow == 0;
}

bool same_shape(const Arr& a, const std::vector<std::int64_t>& shape) {
  if (static_cast<std::size_t>(a.ndim) != shape.size()) return false;
  for (int d = 0; d < a.ndim; ++d)
    if (a.shape[d] != shape[static_cast<std::size_t>(d)]) return false;
  return true;
}

// The output: the caller's (exact shape, dtype, writable) or a new C-contiguous array.
bool output(pyb::handle out, const Arr& like, const std::vector<std::int64_t>& shape, pyb::object& res, Arr& o) {
  if (out.is_none()) {
    std::size_t nbytes = itemsize(like.dtype);
    for (const auto s : shape) nbytes *= static_cast<std::size_t>(s < 0 ? 0 : s);
    ResultAllocScope pooled(nbytes);
    pyb::array r(pyb::reinterpret_borrow<pyb::array>(like.keep).dtype(),
                 std::vector<pyb::ssize_t>(shape.begin(), shape.end()));
    res = r;
    o = to_arr(r, "out", true);
    return true;
  }
  if (!pyb::isinstance<pyb::array>(out)) return false;
  auto a = pyb::reinterpret_borrow<pyb::array>(out);
  if (!a.writeable() || static_cast<std::size_t>(a.ndim()) != shape.size()) return false;
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (a.shape(static_cast<pyb::ssize_t>(d)) != shape[d]) return false;
  o = to_arr(out, "out", true);
  if (o.dtype != like.dtype) return false;
  res = pyb::reinterpret_borrow<pyb::object>(out);
  return true;
}

// code: GATHER, GATHER_ELEMENTS, GATHER_ND, SCATTER, SCATTER_ND; p: axis (batch_dims for
// GATHER_ND); red: reduction code (scatters).
pyb::object index_fast(int code, pyb::handle x, pyb::handle indices, pyb::handle updates, pyb::handle p,
                       std::int64_t red, pyb::handle out) {
  const pyb::object none = pyb::none();
  Arr a, i, u, o;
  std::int64_t ax = 0;
  if (!fast_arr(x, a) || !fast_arr(indices, i) || !is_index_type(i.dtype) || !small_int(p, ax)) return none;
  const int n = a.ndim;
  if (pyb::reinterpret_borrow<pyb::array>(indices).ndim() == 0) return none;
  std::vector<std::int64_t> shape, prm;
  const bool nd_op = code == GATHER_ND || code == SCATTER_ND;
  if (!nd_op) {
    if (ax < -n || ax >= n) return none;
    if (ax < 0) ax += n;
  }
  switch (code) {
    case GATHER:
      shape.assign(a.shape, a.shape + ax);
      shape.insert(shape.end(), i.shape, i.shape + i.ndim);
      shape.insert(shape.end(), a.shape + ax + 1, a.shape + n);
      prm = {ax, i.ndim};
      break;
    case GATHER_ELEMENTS:
    case SCATTER:
      if (i.ndim != n) return none;  // the sizes off the axis: validate()'s rule, in run_arrays
      shape.assign(code == SCATTER ? a.shape : i.shape, (code == SCATTER ? a.shape : i.shape) + n);
      prm = code == SCATTER ? std::vector<std::int64_t>{ax, red} : std::vector<std::int64_t>{ax};
      break;
    case GATHER_ND: {
      const std::int64_t b = ax, L = i.shape[i.ndim - 1];
      if (b < 0 || b >= std::min(n, i.ndim) || L < 1 || L > n - b) return none;
      for (std::int64_t d = 0; d < b; ++d)
        if (i.shape[d] != a.shape[d]) return none;
      shape.assign(i.shape, i.shape + i.ndim - 1);
      shape.insert(shape.end(), a.shape + b + L, a.shape + n);
      prm = {n, i.ndim, b};
      break;
    }
    case SCATTER_ND: {
      const std::int64_t L = i.shape[i.ndim - 1];
      if (L < 1 || L > n) return none;
      shape.assign(a.shape, a.shape + n);
      prm = {n, i.ndim, red};
      break;
    }
    default:
      return none;
  }
  if (code == SCATTER || code == SCATTER_ND) {
    if (!fast_arr(updates, u) || u.dtype != a.dtype) return none;
    std::vector<std::int64_t> us(i.shape, i.shape + i.ndim);
    if (code == SCATTER_ND) {
      us.pop_back();
      us.insert(us.end(), a.shape + i.shape[i.ndim - 1], a.shape + n);
    }
    if (us.empty() || !same_shape(u, us)) return none;  // 0-d updates: the general path
  }
  if (shape.empty()) return none;  // 0-d results: the general path
  pyb::object res;
  if (!output(out, a, shape, res, o)) return none;
  if (code == SCATTER || code == SCATTER_ND)
    run_arrays(code, prm, {a, i, u}, {o});
  else
    run_arrays(code, prm, {a, i}, {o});
  return res;
}

// Registered as a raw METH_FASTCALL function: pybind11's dispatcher costs more than a 4x4
// scatter itself.
PyObject* index_fast_raw(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 7) {
    PyErr_Format(PyExc_TypeError, "_index_fast() takes 7 positional arguments (%zd given)", nargs);
    return nullptr;
  }
  try {
    const long code = PyLong_AsLong(args[0]);
    const long long red = PyLong_AsLongLong(args[5]);
    if ((code == -1 || red == -1) && PyErr_Occurred()) return nullptr;
    return index_fast(static_cast<int>(code), args[1], args[2], args[3], args[4], red, args[6]).release().ptr();
  } catch (...) {
    return translate_current_exception();
  }
}

PyMethodDef index_methods[] = {
    {"_index_fast", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&index_fast_raw)), METH_FASTCALL,
     "_index_fast($module, code, x, indices, updates, p, reduction, out, /)\n--\n\n"
     "Common-case entry of the index functions; returns None when the general path must run."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

void register_index(pyb::module_& m) {
  add_raw_functions(m, index_methods);
}

}  // namespace strided::py
