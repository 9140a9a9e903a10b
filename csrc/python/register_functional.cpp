// The copy operators on arrays (sd.copy, sd.split, sd.join, sd.slice, sd.cast, sd.permute_dims),
// written here in C++ so that a call on a tiny array costs about what numpy's own copy costs:
// argument checks, output allocation and the cached plan all happen without going back to Python.
#include <string>

#include <array>
#include <optional>
#include <stdexcept>

#include "bindings.hpp"
#include "ops/op.hpp"

namespace strided::py {
namespace {

constexpr int kIdentity = detail::op_code<IdentityDesc>();
constexpr int kSplit = detail::op_code<SplitDesc>();
constexpr int kJoin = detail::op_code<JoinDesc>();
constexpr int kSlice1 = detail::op_code<Slice1Desc>();
constexpr int kCast = detail::op_code<CastDesc>();

using detail::shape_str;
std::string shape_str(const pyb::array& a) {
  std::vector<std::int64_t> s(a.shape(), a.shape() + a.ndim());
  return shape_str(s.data(), static_cast<int>(a.ndim()));
}

int norm_axis(pyb::handle axis, int ndim, const char* field = "axis") {
  const std::int64_t a = to_int(axis, field);
  if (a < -ndim || a >= ndim)
    throw ValidationError(std::string(field) + ": " + std::to_string(a) + " is out of range for " +
                          std::to_string(ndim) + " dimension(s)");
  return static_cast<int>(a < 0 ? a + ndim : a);
}

std::size_t nbytes_of(const Arr& proto, const std::int64_t* shape, std::size_t n) {
  std::size_t b = itemsize(proto.dtype);
  for (std::size_t i = 0; i < n; ++i) b *= static_cast<std::size_t>(shape[i] < 0 ? 0 : shape[i]);
  return b;
}

pyb::array empty_like_shape(const Arr& proto, const std::vector<std::int64_t>& shape) {
  ResultAllocScope pooled(nbytes_of(proto, shape.data(), shape.size()));
  return pyb::array(pyb::reinterpret_borrow<pyb::array>(proto.keep).dtype(),
                    std::vector<pyb::ssize_t>(shape.begin(), shape.end()));
}

// Checks a caller's out= array: numpy array, exact shape and dtype, writable.
Arr check_out(pyb::handle out, const Arr& like, const std::vector<std::int64_t>& shape, const std::string& field) {
  const pyb::array a = as_array(out, field, true);
  std::vector<std::int64_t> got(a.shape(), a.shape() + a.ndim());
  if (got != shape)
    throw ValidationError(field + ": expected shape " + shape_str(shape.data(), static_cast<int>(shape.size())) +
                          ", got " + shape_str(a));
  Arr o = to_arr(a, field, true);
  if (o.dtype != like.dtype)
    throw ValidationError(field + ": expected dtype " + std::string(dtype_name(like.dtype)) + ", got " +
                          std::string(dtype_name(o.dtype)));
  return o;
}

std::vector<std::int64_t> shape_of(const pyb::array& a) { return {a.shape(), a.shape() + a.ndim()}; }

// A new C-contiguous array of `dt` (DataType t) and shape[0..n), from the result pool when large,
// straight through numpy's C API (pybind11's array constructor builds shape and stride vectors);
// `o` describes it (a new writable array: to_arr's checks hold without running them).
pyb::object new_result(pyb::dtype dt, DataType t, const std::int64_t* shape, int n, Arr& o) {
  pyb::ssize_t dims[kMaxDims];
  std::size_t bytes = static_cast<std::size_t>(dt.itemsize());
  for (int i = 0; i < n; ++i) {
    dims[i] = static_cast<pyb::ssize_t>(shape[i]);
    bytes *= static_cast<std::size_t>(shape[i]);
  }
  ResultAllocScope pooled(bytes);
  auto& api = pyb::detail::npy_api::get();
  auto res = pyb::reinterpret_steal<pyb::object>(api.PyArray_NewFromDescr_(api.PyArray_Type_, dt.release().ptr(), n,
                                                                           dims, nullptr, nullptr, 0, nullptr));
  if (!res) throw pyb::error_already_set();  // the descr reference was stolen either way
  auto ra = pyb::reinterpret_borrow<pyb::array>(res);
  o.keep = res;
  o.dtype = t;
  o.data = ra.mutable_data();
  o.ndim = n;
  for (int i = 0; i < n; ++i) {
    o.shape[i] = shape[i];
    o.strides[i] = ra.strides(i);
  }
  return res;
}

// ---------------------------------------------------------------- copy
pyb::object copy(pyb::handle src, pyb::handle out) {
  Arr s = to_arr(src, "src", false);
  Arr o = to_arr(out, "out", true);
  if (s.dtype != o.dtype)
    throw ValidationError("out: dtype " + std::string(dtype_name(o.dtype)) + " differs from src dtype " +
                          std::string(dtype_name(s.dtype)) + " (copy never converts)");
  // numpy broadcasting (np.copyto), the library's rule.
  Arr b;
  static_cast<detail::CallArray&>(b) = detail::broadcast_to(s, o);
  if (!is_empty(o)) run_arrays(kIdentity, nullptr, 0, &b, 1, &o, 1);
  return pyb::reinterpret_borrow<pyb::object>(out);
}

// ---------------------------------------------------------------- cast
pyb::object cast(pyb::handle x, pyb::handle dtype, pyb::handle out) {
  const Arr a = to_arr(x, "cast.x", false);
  const DataType t = to_dtype(dtype);
  pyb::object res;
  Arr o;
  if (out.is_none()) {
    res = new_result(numpy_dtype(t), t, a.shape, a.ndim, o);
  } else {
    Arr like;
    like.dtype = t;
    o = check_out(out, like, {a.shape, a.shape + a.ndim}, "out");
    res = pyb::reinterpret_borrow<pyb::object>(out);
  }
  if (!is_empty(a)) run_arrays(kCast, nullptr, 0, &a, 1, &o, 1);
  return res;
}

// ---------------------------------------------------------------- permute_dims
pyb::object permute_dims(pyb::handle x, pyb::handle axes) {
  const Arr a = to_arr(x, "permute_dims.x", false);
  const std::vector<int> perm = to_axes(axes, a.ndim, "permute_dims.axes");
  if (perm.size() != static_cast<std::size_t>(a.ndim))
    throw ValidationError("permute_dims.axes: must be a permutation of " + std::to_string(a.ndim) +
                          " dimension(s), got " + std::to_string(perm.size()) + " axes");
  Arr v = a;  // the transposed view
  for (int i = 0; i < a.ndim; ++i) {
    v.shape[i] = a.shape[perm[static_cast<std::size_t>(i)]];
    v.strides[i] = a.strides[perm[static_cast<std::size_t>(i)]];
  }
  Arr o;
  pyb::object res = new_result(pyb::reinterpret_borrow<pyb::array>(a.keep).dtype(), a.dtype, v.shape, v.ndim, o);
  if (!is_empty(v)) run_arrays(kIdentity, nullptr, 0, &v, 1, &o, 1);
  return res;
}

// ---------------------------------------------------------------- slice
pyb::object slice(pyb::handle x, pyb::handle offsets, pyb::handle sizes, pyb::handle strides, pyb::handle out) {
  Arr a = to_arr(x, "x", false);
  const int n = a.ndim;
  const auto un = static_cast<std::size_t>(n);
  // prm = offsets ++ sizes ++ strides, as Slice1's from_call expects; n <= kMaxDims.
  std::int64_t prm[3 * kMaxDims];
  std::int64_t* off = prm;
  std::int64_t* siz = prm + un;
  std::int64_t* st = prm + 2 * un;
  const char* names[] = {"offsets", "sizes", "strides"};
  std::size_t counts[3] = {to_ints_into(offsets, "Slice1Desc.offsets", off, un),
                           to_ints_into(sizes, "Slice1Desc.sizes", siz, un), un};
  if (strides.is_none()) std::fill(st, st + un, 1);
  else counts[2] = to_ints_into(strides, "Slice1Desc.strides", st, un);
  for (int k = 0; k < 3; ++k)
    if (counts[k] != un)
      throw ValidationError(std::string("Slice1Desc.") + names[k] + ": must have one value per input dimension (" +
                            std::to_string(n) + "), got " + std::to_string(counts[k]));
  pyb::ssize_t shape[kMaxDims];
  for (int i = 0; i < n; ++i) {
    if (st[i] == 0) throw ValidationError("Slice1Desc.strides[" + std::to_string(i) + "]: stride must not be 0");
    if (st[i] == INT64_MIN) throw ValidationError("Slice1Desc.strides[" + std::to_string(i) + "]: stride out of range");
    shape[i] = siz[i] <= 0 ? 0 : 1 + (siz[i] - 1) / (st[i] < 0 ? -st[i] : st[i]);
  }
  pyb::object res;
  Arr o;
  if (out.is_none()) {
    std::int64_t shape64[kMaxDims];
    for (int i = 0; i < n; ++i) shape64[i] = shape[i];
    res = new_result(pyb::reinterpret_borrow<pyb::array>(a.keep).dtype(), a.dtype, shape64, n, o);
  } else {
    const pyb::array oa = as_array(out, "out", true);
    o = check_out(oa, a, shape_of(oa), "out");
    if (o.ndim != n)
      throw ValidationError("out: must have " + std::to_string(n) + " dimensions, got " + std::to_string(o.ndim));
    res = pyb::reinterpret_borrow<pyb::object>(out);
  }
  if (is_empty(a) || is_empty(o)) {
    for (int i = 0; i < n; ++i)
      if (off[i] < 0 || siz[i] < 0 || off[i] > a.shape[i] - siz[i])
        throw ValidationError("Slice1Desc.sizes[" + std::to_string(i) + "]: window [" + std::to_string(off[i]) + ", " +
                              std::to_string(off[i] + siz[i]) + ") exceeds input size " + std::to_string(a.shape[i]));
    return res;
  }
  if (n == 0)  // a 0-d array: empty offsets, sizes and strides; the slice is a copy
    run_arrays(kIdentity, nullptr, 0, &a, 1, &o, 1);
  else run_arrays(kSlice1, prm, 3 * un, &a, 1, &o, 1);
  return res;
}

// ---------------------------------------------------------------- split / join
pyb::list split(pyb::handle x, pyb::handle parts, pyb::handle axis, pyb::handle out) {
  Arr a = to_arr(x, "x", false);
  if (a.ndim == 0) throw ValidationError("x: a 0-d array cannot be split (it has no axis)");
  const int ax = norm_axis(axis, a.ndim);
  const std::int64_t n = a.shape[ax];
  std::vector<std::int64_t> sizes;
  if (is_int_like(parts)) {
    const std::int64_t k = to_int(parts, "split");
    if (k < 1) throw ValidationError("split: the number of parts must be at least 1, got " + std::to_string(k));
    if (n % k)
      throw ValidationError("split: axis " + std::to_string(ax) + " of size " + std::to_string(n) +
                            " does not divide into " + std::to_string(k) + " equal parts");
    if (k > 1'000'000) throw ValidationError("split: too many parts (" + std::to_string(k) + ")");
    sizes.assign(static_cast<std::size_t>(k), n / k);
  } else {
    sizes = to_ints(parts, "split");
    if (sizes.empty()) throw ValidationError("split: needs at least one part size");
    std::int64_t total = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      if (sizes[i] < 0)
        throw ValidationError("split[" + std::to_string(i) + "]: part size must not be negative, got " +
                              std::to_string(sizes[i]));
      if (sizes[i] > n) throw ValidationError("split[" + std::to_string(i) + "]: part size exceeds the axis size");
      total += sizes[i];
    }
    if (total != n)
      throw ValidationError("split: part sizes sum to " + std::to_string(total) + ", not to axis " +
                            std::to_string(ax) + " size " + std::to_string(n));
  }
  std::vector<std::int64_t> shape(a.shape, a.shape + a.ndim);
  pyb::list result;
  std::vector<Arr> live;
  std::vector<pyb::handle> outs;
  if (!out.is_none()) {
    if (PyUnicode_Check(out.ptr()) || !PySequence_Check(out.ptr()))
      throw pyb::type_error("out: expected a sequence of numpy arrays");
    const auto seq = pyb::reinterpret_borrow<pyb::sequence>(out);
    if (pyb::len(seq) != sizes.size())
      throw ValidationError("out: expected " + std::to_string(sizes.size()) + " arrays, got " +
                            std::to_string(pyb::len(seq)));
    for (std::size_t k = 0; k < sizes.size(); ++k) outs.push_back(seq[k]);
  }
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    shape[static_cast<std::size_t>(ax)] = sizes[k];
    const std::string field = "out[" + std::to_string(k) + "]";
    Arr o;
    if (out.is_none()) {
      pyb::object arr = empty_like_shape(a, shape);
      o = to_arr(arr, field, true);
      result.append(arr);
    } else {
      o = check_out(outs[k], a, shape, field);
      result.append(outs[k]);
    }
    if (!is_empty(o)) live.push_back(o);
  }
  if (!live.empty() && !is_empty(a)) run_arrays(kSplit, {ax}, {a}, live);
  return result;
}

// join's per-array state, reused between calls of a thread: 10,000 small arrays must not cost
// megabytes of fresh temporaries per call (heap growth, then page faults after each trim).
struct JoinScratch {
  std::vector<detail::CallArray> ins;
  std::vector<PyObject*> keep;  // owned references: the arrays outlive the call (the GIL is released)
  bool busy = false;  // a nested join (numpy.asarray calling back) uses its own
};

class JoinLease {
 public:
  JoinLease() : s_(tls().busy ? own_ : tls()) { s_.busy = true; }
  ~JoinLease() {
    for (PyObject* o : s_.keep) Py_DECREF(o);
    s_.keep.clear();
    s_.ins.clear();
    s_.busy = false;
  }
  JoinLease(const JoinLease&) = delete;
  JoinLease& operator=(const JoinLease&) = delete;
  JoinScratch& operator*() { return s_; }

 private:
  static JoinScratch& tls() {
    thread_local JoinScratch s;
    return s;
  }
  JoinScratch own_;
  JoinScratch& s_;
};

pyb::object join(pyb::handle arrays, pyb::handle axis, pyb::handle out) {
  if (PyUnicode_Check(arrays.ptr()) || !PySequence_Check(arrays.ptr()))
    throw pyb::type_error("arrays: expected a sequence of arrays");
  const auto seq = pyb::reinterpret_steal<pyb::object>(PySequence_Fast(arrays.ptr(), "arrays: expected a sequence"));
  if (!seq) throw pyb::error_already_set();
  const auto count = static_cast<std::size_t>(PySequence_Fast_GET_SIZE(seq.ptr()));
  if (count == 0) throw ValidationError("arrays: needs at least one array");
  JoinLease lease;
  JoinScratch& s = *lease;
  s.ins.reserve(count);
  s.keep.reserve(count);
  // Arrays of the first one's exact type and dtype object are read straight from numpy's
  // struct (what to_arr would find, without its per-array checks); the rest go through to_arr.
  // Each array is checked against the first as it is read (one pass over the arrays' records:
  // 10,000 of them are 1.5 MB).
  PyTypeObject* type0 = nullptr;
  PyObject* descr0 = nullptr;
  int ax = 0;
  std::int64_t total = 0;
  for (std::size_t i = 0; i < count; ++i) {
    PyObject* h = PySequence_Fast_GET_ITEM(seq.ptr(), static_cast<Py_ssize_t>(i));
    const auto* px = pyb::detail::array_proxy(h);
    if (type0 && Py_TYPE(h) == type0 && px->descr == descr0 && px->nd >= 1 && px->nd <= kMaxDims) {
      s.ins.push_back(s.ins[0]);  // reserved: no reallocation
      detail::CallArray& c = s.ins.back();
      c.data = px->data;
      c.ndim = px->nd;
      for (int d = 0; d < c.ndim; ++d) {
        c.shape[d] = px->dimensions[d];
        c.strides[d] = px->strides[d];
      }
      Py_INCREF(h);
      s.keep.push_back(h);
    } else {
      Arr a = to_arr(h, "arrays[" + std::to_string(i) + "]", false);
      if (a.ndim == 0)  // numpy's rule (np.concatenate)
        throw ValidationError("arrays[" + std::to_string(i) + "]: zero-dimensional arrays cannot be concatenated");
      s.ins.push_back(a);
      if (i == 0 && a.keep.ptr() == h) {  // a numpy array taken as it is
        type0 = Py_TYPE(h);
        descr0 = pyb::detail::array_proxy(h)->descr;
      }
      s.keep.push_back(a.keep.release().ptr());
    }
    const detail::CallArray& first = s.ins[0];
    const detail::CallArray& x = s.ins[i];
    if (i == 0) ax = norm_axis(axis, first.ndim);
    if (x.dtype != first.dtype)
      throw ValidationError("arrays[" + std::to_string(i) + "]: dtype " + std::string(dtype_name(x.dtype)) +
                            " differs from arrays[0] dtype " + std::string(dtype_name(first.dtype)));
    bool ok = x.ndim == first.ndim;
    for (int d = 0; ok && d < x.ndim; ++d) ok = d == ax || x.shape[d] == first.shape[d];
    if (!ok)
      throw ValidationError("arrays[" + std::to_string(i) + "]: shape " + shape_str(x.shape, x.ndim) +
                            " must equal arrays[0] shape " + shape_str(first.shape, first.ndim) +
                            " except along axis " + std::to_string(ax));
    total += x.shape[ax];
  }
  const detail::CallArray& first = s.ins[0];
  std::vector<std::int64_t> shape(first.shape, first.shape + first.ndim);
  shape[static_cast<std::size_t>(ax)] = total;
  Arr like;
  static_cast<detail::CallArray&>(like) = first;
  like.keep = pyb::reinterpret_borrow<pyb::object>(s.keep[0]);
  pyb::object res;
  Arr o;
  if (out.is_none()) {
    res = empty_like_shape(like, shape);
    o = to_arr(res, "out", true);
  } else {
    o = check_out(out, like, shape, "out");
    res = pyb::reinterpret_borrow<pyb::object>(out);
  }
  // Empty inputs are left out (descriptions have no 0 sizes), in place.
  std::size_t n = 0;
  for (std::size_t i = 0; i < count; ++i)
    if (!is_empty(s.ins[i])) {
      if (n != i) s.ins[n] = s.ins[i];
      ++n;
    }
  if (n == 0 || is_empty(o)) return res;
  static const detail::RunUnlock gil{[]() -> void* { return PyEval_SaveThread(); },
                                     [](void* t) { PyEval_RestoreThread(static_cast<PyThreadState*>(t)); }};
  const std::int64_t prm = ax;
  const detail::CallArray oc = o;
  detail::call(kJoin, &prm, 1, s.ins.data(), n, &oc, 1, &gil);
  return res;
}

// sd.copy, sd.slice, sd.cast and sd.permute_dims are registered as plain METH_FASTCALL functions:
// pybind11's generic dispatcher allocates per call, which is most of the cost of a 4x4 copy.
// Errors still go through translate_current_exception (register_types.cpp).

// Binds positional + keyword arguments to `names` (n of them, the first `required` required);
// unset optional ones stay nullptr.
bool bind_args(const char* fn, const char* const* names, int n, int required, PyObject* const* args, Py_ssize_t nargs,
               PyObject* kwnames, PyObject** out) {
  if (nargs > n) {
    PyErr_Format(PyExc_TypeError, "%s() takes at most %d arguments (%zd given)", fn, n, nargs);
    return false;
  }
  for (int i = 0; i < n; ++i) out[i] = i < nargs ? args[i] : nullptr;
  if (kwnames) {
    const Py_ssize_t nk = PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t k = 0; k < nk; ++k) {
      PyObject* key = PyTuple_GET_ITEM(kwnames, k);
      int i = 0;
      while (i < n && PyUnicode_CompareWithASCIIString(key, names[i]) != 0) ++i;
      if (i == n) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fn, key);
        return false;
      }
      if (out[i]) {
        PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fn, names[i]);
        return false;
      }
      out[i] = args[nargs + k];
    }
  }
  for (int i = 0; i < required; ++i)
    if (!out[i]) {
      PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'", fn, names[i]);
      return false;
    }
  return true;
}

PyObject* copy_fast(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const names[] = {"src", "out"};
  PyObject* a[2];
  if (!bind_args("copy", names, 2, 2, args, nargs, kwnames, a)) return nullptr;
  try {
    return copy(a[0], a[1]).release().ptr();
  } catch (...) {
    return translate_current_exception();
  }
}

PyObject* slice_fast(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const names[] = {"x", "offsets", "sizes", "strides", "out"};
  PyObject* a[5];
  if (!bind_args("slice", names, 5, 3, args, nargs, kwnames, a)) return nullptr;
  try {
    return slice(a[0], a[1], a[2], a[3] ? pyb::handle(a[3]) : pyb::handle(Py_None),
                 a[4] ? pyb::handle(a[4]) : pyb::handle(Py_None))
        .release()
        .ptr();
  } catch (...) {
    return translate_current_exception();
  }
}

PyObject* cast_fast(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const names[] = {"x", "dtype", "out"};
  PyObject* a[3];
  if (!bind_args("cast", names, 3, 2, args, nargs, kwnames, a)) return nullptr;
  try {
    return cast(a[0], a[1], a[2] ? pyb::handle(a[2]) : pyb::handle(Py_None)).release().ptr();
  } catch (...) {
    return translate_current_exception();
  }
}

PyObject* permute_dims_fast(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const names[] = {"x", "axes"};
  PyObject* a[2];
  if (!bind_args("permute_dims", names, 2, 2, args, nargs, kwnames, a)) return nullptr;
  try {
    return permute_dims(a[0], a[1]).release().ptr();
  } catch (...) {
    return translate_current_exception();
  }
}

// _axes(axis, ndim, field): to_axes for the Python functions, as a list.
PyObject* axes_raw(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 3) {
    PyErr_Format(PyExc_TypeError, "_axes() takes 3 positional arguments (%zd given)", nargs);
    return nullptr;
  }
  try {
    const char* field = PyUnicode_AsUTF8(args[2]);
    if (!field) return nullptr;
    const std::int64_t ndim = to_int(args[1], "ndim");
    if (ndim < 0 || ndim > 64) throw ValidationError("ndim: must be between 0 and 64, got " + std::to_string(ndim));
    const std::vector<int> axes = to_axes(args[0], static_cast<int>(ndim), field);
    pyb::list res(axes.size());
    for (std::size_t i = 0; i < axes.size(); ++i)
      PyList_SET_ITEM(res.ptr(), static_cast<Py_ssize_t>(i), PyLong_FromLong(axes[i]));
    return res.release().ptr();
  } catch (...) {
    return translate_current_exception();
  }
}

// ---------------------------------------------------------------- argwhere
// strided::argwhere with the result made (from the result pool) once the count is known; the
// scan and the writing run without the GIL from 64 KiB (below, releasing it and taking it back
// for the result cost more than the scan: 8x8 float32 1.1 -> 0.4 us).
pyb::object argwhere(pyb::handle x, pyb::handle dtype) {
  const Arr a = to_arr(x, "x", false);
  const DataType t = to_dtype(dtype);
  const pyb::dtype dt = numpy_dtype(t);
  const ConstArrayView v{a.dtype, a.data, {a.shape, a.shape + a.ndim}, {a.strides, a.strides + a.ndim}};
  std::size_t bytes = itemsize(a.dtype);
  for (int d = 0; d < a.ndim; ++d) bytes *= static_cast<std::size_t>(a.shape[d]);
  const bool release = bytes >= (std::size_t{64} << 10);
  pyb::object res;
  std::optional<pyb::gil_scoped_release> nogil;
  if (release) nogil.emplace();
  strided::argwhere(v, [&](std::int64_t k) {
    std::optional<pyb::gil_scoped_acquire> gil;
    if (release) gil.emplace();
    const std::int64_t shape[2] = {k, a.ndim};
    Arr o;
    res = new_result(dt, t, shape, 2, o);
    return ArrayView{t, o.data, {k, a.ndim}, {o.strides[0], o.strides[1]}};
  });
  return res;
}

PyObject* argwhere_raw(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 2) {
    PyErr_Format(PyExc_TypeError, "_argwhere() takes 2 positional arguments (%zd given)", nargs);
    return nullptr;
  }
  try {
    return argwhere(args[0], args[1]).release().ptr();
  } catch (...) {
    return translate_current_exception();
  }
}

// _filled(code, shape, dtype, values, fields): a new array of `shape` and `dtype` written by
// operator `code` (FillValueConstant, FillValueSequence) whose parameters are `values` (numbers or
// Scalars) converted to dtype by the Cast rules; errors name fields[i] (values[i]) and fields[-1]
// (the shape). sd.full, sd.fill_sequence and sd.arange in one call, where dtype conversion, each
// value's bits, the allocation and _run were a call each.
PyObject* filled_raw(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 5) {
    PyErr_Format(PyExc_TypeError, "_filled() takes 5 positional arguments (%zd given)", nargs);
    return nullptr;
  }
  try {
    const auto code = static_cast<int>(to_int(args[0], "code"));
    const DataType t = to_dtype(args[2]);
    if (!PyTuple_Check(args[3]) || !PyTuple_Check(args[4]) ||
        PyTuple_GET_SIZE(args[4]) != PyTuple_GET_SIZE(args[3]) + 1)
      throw pyb::type_error("_filled: values and fields must be tuples, fields one longer");
    const auto field = [&](Py_ssize_t i) {
      const char* f = PyUnicode_AsUTF8(PyTuple_GET_ITEM(args[4], i));
      if (!f) throw pyb::error_already_set();
      return f;
    };
    constexpr Py_ssize_t kValues = 4;
    const Py_ssize_t nv = PyTuple_GET_SIZE(args[3]);
    if (nv > kValues) throw pyb::type_error("_filled: at most 4 values");
    std::int64_t prm[kValues];
    for (Py_ssize_t i = 0; i < nv; ++i)
      prm[i] = static_cast<std::int64_t>(to_scalar(PyTuple_GET_ITEM(args[3], i), field(i)).cast(t).value_bits());
    const char* sf = field(nv);
    pyb::dtype dt = numpy_dtype(t);
    std::int64_t dims[kNumpyMaxDims];
    std::uint64_t bytes = 0;
    const std::size_t n = result_shape(args[1], sf, dt, dims, bytes);
    if (n > static_cast<std::size_t>(kMaxDims))
      throw ValidationError(std::string(sf) + ": strided supports at most " + std::to_string(kMaxDims) +
                            " dimensions, got " + std::to_string(n));
    Arr o;
    pyb::object res = new_result(std::move(dt), t, dims, static_cast<int>(n), o);
    if (!is_empty(o)) run_arrays(code, prm, static_cast<std::size_t>(nv), nullptr, 0, &o, 1);
    return res.release().ptr();
  } catch (...) {
    return translate_current_exception();
  }
}

PyMethodDef fast_methods[] = {
    {"copy", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&copy_fast)), METH_FASTCALL | METH_KEYWORDS,
     "copy($module, /, src, out)\n--\n\n"
     "Identity: out[...] = src, with src broadcast to out.shape by numpy's rules.\n\n"
     "Bit-exact for every dtype (NaN payloads and -0.0 survive); any strides on both sides; overlapping\n"
     "src and out give numpy's result. out must be a writable numpy array of exactly src's dtype.\n"
     "Returns out."},
    {"slice", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&slice_fast)), METH_FASTCALL | METH_KEYWORDS,
     "slice($module, /, x, offsets, sizes, strides=None, out=None)\n--\n\n"
     "DirectML Slice1: read the window offsets/sizes of x with signed, non-zero strides.\n\n"
     "A negative stride walks the window backwards from its far end. The result has\n"
     "1 + (sizes[i] - 1) // abs(strides[i]) elements per dimension, or out's shape when out is given\n"
     "(1 <= out.shape[i] <= that). Returns a new C-contiguous array or out."},
    {"cast", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&cast_fast)), METH_FASTCALL | METH_KEYWORDS,
     "cast($module, /, x, dtype, out=None)\n--\n\n"
     "DirectML Cast: ``x`` converted to ``dtype`` by SPEC 3.5's rules, for any pair of the eleven\n"
     "DirectML types (float16/32/64, int8-64, uint8-64).\n\n"
     "Unlike numpy's ``astype``, every value has a defined result: float -> int truncates toward\n"
     "zero and saturates (NaN -> 0, +-inf and out-of-range values -> the type's max / min);\n"
     "int -> int keeps the low bits (modulo 2^bits); float -> narrower float and int -> float round\n"
     "to nearest even, once, from the exact value (overflow -> +-inf); NaNs stay NaN (quiet, sign\n"
     "and payload's high bits kept). ``dtype``: a numpy dtype-like, a ``DataType`` or a name; bool\n"
     "and complex are not DirectML types (ValidationError). Returns a new C-contiguous array of\n"
     "``x``'s shape, or ``out`` (any strides, exactly that shape and dtype)."},
    {"permute_dims", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&permute_dims_fast)),
     METH_FASTCALL | METH_KEYWORDS,
     "permute_dims($module, /, x, axes)\n--\n\n"
     "The array API's ``permute_dims`` (``numpy.transpose`` materialised): dimension ``i`` of the\n"
     "result is ``x``'s dimension ``axes[i]``; ``axes`` a permutation of ``0..x.ndim-1`` (negative\n"
     "allowed). A new C-contiguous array."},
    {"_argwhere", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&argwhere_raw)), METH_FASTCALL,
     "_argwhere($module, x, dtype, /)\n--\n\n"
     "DirectML NonzeroCoordinates as numpy.argwhere: [count, x.ndim] coordinates of the non-zero elements "
     "(row-major) in the integer dtype; sd.argwhere is the public form."},
    {"_filled", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&filled_raw)), METH_FASTCALL,
     "_filled($module, code, shape, dtype, values, fields, /)\n--\n\n"
     "A new array of shape and dtype written by operator `code` (FillValueConstant, FillValueSequence) with "
     "`values` (numbers or Scalars) converted to dtype as its parameters; errors name fields[i] and, for the "
     "shape, fields[-1]."},
    {"_axes", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&axes_raw)), METH_FASTCALL,
     "_axes($module, axis, ndim, field, /)\n--\n\n"
     "Axes (an int or a sequence; negative counted from the end) as a list of 0..ndim-1; a ValidationError "
     "naming field[i] when one is out of range or repeated. The Python functions' axis rule."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

void add_raw_functions(pyb::module_& m, PyMethodDef* defs) {
  for (PyMethodDef* def = defs; def->ml_name; ++def) {
    pyb::object fn = pyb::reinterpret_steal<pyb::object>(PyCFunction_NewEx(def, m.ptr(), m.attr("__name__").ptr()));
    if (!fn) throw pyb::error_already_set();
    m.add_object(def->ml_name, fn);
  }
}

namespace {
// Module-level pybind11 functions re-exposed as plain builtins of the module: pybind11 binds
// them to a function-record capsule, so help() said "method of pybind11_detail_function_record
// instance". Each slot forwards the call (vectorcall) to the pybind11 function it replaced.
constexpr int kPlainSlots = 16;
PyObject* g_plain_target[kPlainSlots];
PyMethodDef g_plain_def[kPlainSlots + 1];
std::string g_plain_doc[kPlainSlots];

template <int I>
PyObject* forward_plain(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return PyObject_Vectorcall(g_plain_target[I], args, static_cast<std::size_t>(nargs), kwnames);
}
template <int... I>
constexpr std::array<PyObject* (*)(PyObject*, PyObject* const*, Py_ssize_t, PyObject*), sizeof...(I)> forwarders(
    std::integer_sequence<int, I...>) {
  return {&forward_plain<I>...};
}
}  // namespace

void make_plain(pyb::module_& m, std::initializer_list<const char*> names) {
  static constexpr auto fwd = forwarders(std::make_integer_sequence<int, kPlainSlots>());
  static int used = 0;
  for (const char* name : names) {
    if (used == kPlainSlots) throw std::logic_error("make_plain: raise kPlainSlots");
    const int i = used++;
    pyb::object f = m.attr(name);
    g_plain_target[i] = f.release().ptr();  // kept for the life of the process, like the module
    // __doc__ and __text_signature__ come split from the docstring "name(...)\n--\n\n...": rejoined.
    const pyb::handle t(g_plain_target[i]);
    g_plain_doc[i] = std::string(name) + pyb::str(t.attr("__text_signature__")).cast<std::string>() + "\n--\n\n" +
                     pyb::str(t.attr("__doc__")).cast<std::string>();
    g_plain_def[i] = {name,
                      reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fwd[static_cast<std::size_t>(i)])),
                      METH_FASTCALL | METH_KEYWORDS, g_plain_doc[i].c_str()};
    pyb::object fn =
        pyb::reinterpret_steal<pyb::object>(PyCFunction_NewEx(&g_plain_def[i], m.ptr(), m.attr("__name__").ptr()));
    if (!fn) throw pyb::error_already_set();
    m.attr(name) = fn;
  }
}

void register_functional(pyb::module_& m) {
  add_raw_functions(m, fast_methods);
  // Plain text signatures (inspect.signature, help()) instead of pybind11's typed ones.
  pyb::options plain;
  plain.disable_function_signatures();
  m.def("split", &split, pyb::arg("x"), pyb::arg("split"), pyb::arg("axis") = 0, pyb::arg("out") = pyb::none(),
        "split($module, /, x, split, axis=0, out=None)\n--\n\n"
        "DirectML Split: cut x along axis into parts.\n\n"
        "split is a number of equal parts or a sequence of part SIZES summing to x.shape[axis] (as DirectML,\n"
        "ONNX and torch.split; not numpy's cut points). out: a sequence of arrays of the parts' shapes.\n"
        "Returns a list of arrays.");
  m.def("join", &join, pyb::arg("arrays"), pyb::arg("axis") = 0, pyb::arg("out") = pyb::none(),
        "join($module, /, arrays, axis=0, out=None)\n--\n\n"
        "DirectML Join: concatenate arrays along axis (numpy.concatenate). Returns a new array or out.");
}

}  // namespace strided::py
