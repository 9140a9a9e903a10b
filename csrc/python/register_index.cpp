// Fast entry of the index functions (python/strided/_index.py): the common call (numpy arrays,
// an int32/int64/uint32/uint64 index array, exact shapes, nothing empty) is checked, its output
// allocated and run here without going back to Python, so a call on a tiny array costs a small
// fraction of numpy's take_along_axis / put_along_axis. Anything else returns None and the
// Python wrapper takes the general path (conversions, broadcasting updates, empty arrays, and the
// error messages for bad arguments). Shape rules of the descriptions are left to validate().
#include "bindings.hpp"
#include "index/fresh.hpp"
#include "ops/op.hpp"

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

// code: an index operator's code; p, red: its functional parameters (axis or batch_dims, and the
// reduction code); updates: None for gathers. The result's shape and the updates' shape come
// from the operator's own file (call_shapes); a call that does not fit returns None.
pyb::object index_fast(int code, pyb::handle x, pyb::handle indices, pyb::handle updates, pyb::handle p,
                       std::int64_t red, pyb::handle out) {
  const pyb::object none = pyb::none();
  Arr a, i, u, o;
  std::int64_t prm[2] = {0, red};
  if (!detail::is_index_code(code) || !fast_arr(x, a) || !fast_arr(indices, i) || !is_index_type(i.dtype) ||
      !small_int(p, prm[0]))
    return none;
  const bool scatter = !updates.is_none();
  if (scatter && (!fast_arr(updates, u) || u.dtype != a.dtype)) return none;
  const detail::ArraySpec specs[3] = {
      {a.dtype, a.ndim, a.shape}, {i.dtype, i.ndim, i.shape}, {u.dtype, u.ndim, u.shape}};
  detail::CallShapes shapes;
  try {
    shapes = detail::call_shapes(code, detail::Call{specs, scatter ? 3u : 2u, nullptr, 0, prm, 2});
  } catch (const ValidationError&) {
    return none;  // the general path names the problem
  }
  if (scatter && (shapes.updates.empty() || !same_shape(u, shapes.updates))) return none;  // broadcasting: general path
  if (shapes.out.empty()) return none;  // 0-d results: the general path
  pyb::object res;
  if (!output(out, a, shapes.out, res, o)) return none;
  const Arr ins[3] = {std::move(a), std::move(i), std::move(u)};
  if (out.is_none()) {  // a new result, dropped if the call fails: see index/fresh.hpp
    detail::index::FreshOutputScope fresh;
    run_arrays(code, prm, 2, ins, scatter ? 3 : 2, &o, 1);
  } else {
    run_arrays(code, prm, 2, ins, scatter ? 3 : 2, &o, 1);
  }
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

void register_index(pyb::module_& m) { add_raw_functions(m, index_methods); }

}  // namespace strided::py
