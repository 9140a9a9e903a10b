// DataType, FeatureLevel, TensorDesc, the exceptions and the runtime controls.
#include <pybind11/native_enum.h>

#include "bindings.hpp"
#include "util/checked.hpp"

namespace strided::py {

namespace {

/// A native-order numpy dtype's DirectML type from its kind and item size (no strings, no
/// attribute lookups): every functional call comes through here.
std::optional<DataType> native_dtype(const pyb::dtype& d) {
  const char order = d.byteorder();
  if (!(order == '=' || order == '|' || order == (PY_LITTLE_ENDIAN ? '<' : '>'))) return std::nullopt;
  const char kind = d.kind();
  const auto size = d.itemsize();
  if (kind == 'f' && size == 2) return DataType::FLOAT16;
  if (kind == 'f' && size == 4) return DataType::FLOAT32;
  if (kind == 'f' && size == 8) return DataType::FLOAT64;
  if (kind == 'i' && size == 1) return DataType::INT8;
  if (kind == 'i' && size == 2) return DataType::INT16;
  if (kind == 'i' && size == 4) return DataType::INT32;
  if (kind == 'i' && size == 8) return DataType::INT64;
  if (kind == 'u' && size == 1) return DataType::UINT8;
  if (kind == 'u' && size == 2) return DataType::UINT16;
  if (kind == 'u' && size == 4) return DataType::UINT32;
  if (kind == 'u' && size == 8) return DataType::UINT64;
  return std::nullopt;
}

}  // namespace

DataType to_dtype(pyb::handle obj) {
  if (obj.is_none()) throw pyb::type_error("dtype: expected a DataType, a numpy dtype or a type name, got None");
  if (pyb::isinstance<pyb::str>(obj)) return parse_dtype(obj.cast<std::string>());
  if (PyType_Check(obj.ptr())) {
    // numpy's scalar types (np.float32) by identity: numpy.dtype(np.float32) cost 0.16 us of
    // every tiny call that names its dtype so. Others (float, np.longlong) go through numpy.dtype.
    constexpr int n = kDataTypeCount + 1;
    static PyObject* const* const types = [] {
      auto* p = new PyObject*[n]();  // never freed, as numpy_dtype's table
      for (int i = 1; i < n; ++i)
        p[i] = pyb::object(numpy_dtype(static_cast<DataType>(i)).attr("type")).release().ptr();
      return p;
    }();
    for (int i = 1; i < n; ++i)
      if (types[i] == obj.ptr()) return static_cast<DataType>(i);
  }
  if (is_int_like(obj)) {
    // DataType members are ints too (IntEnum); so are numpy integers.
    const std::int64_t v = to_int(obj, "dtype");
    if (v < 0 || v > 255 || !is_valid_dtype(static_cast<DataType>(v)))
      throw ValidationError("dtype: unknown data type " + std::to_string(v));
    return static_cast<DataType>(v);
  }
  pyb::dtype d;
  if (pyb::isinstance<pyb::dtype>(obj)) {
    d = pyb::reinterpret_borrow<pyb::dtype>(obj);
  } else {
    // A scalar type (np.float16, float) or anything numpy.dtype takes; numpy.dtype looked up once
    // (an import per call cost more than the rest of a small cast).
    static const pyb::object& np_dtype = *new pyb::object(pyb::module_::import("numpy").attr("dtype"));
    try {
      d = pyb::reinterpret_steal<pyb::dtype>(np_dtype(obj).release());
    } catch (pyb::error_already_set&) {
      throw pyb::type_error("dtype: expected a DataType, a numpy dtype or a type name, got " +
                            pyb::repr(obj).cast<std::string>());
    }
  }
  if (const auto t = native_dtype(d)) return *t;
  if (!d.attr("isnative").cast<bool>())
    throw ValidationError("dtype: non-native byte order " + pyb::str(d).cast<std::string>() +
                          " is not supported; use arr.astype(arr.dtype.newbyteorder('='))");
  const std::string kind = pyb::str(d.attr("name")).cast<std::string>();
  try {
    return parse_dtype(kind);
  } catch (const ValidationError&) {
    throw ValidationError("dtype: numpy dtype " + kind + " has no DirectML data type");
  }
}

std::optional<FeatureLevel> to_level(pyb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  if (pyb::isinstance<pyb::str>(obj)) return parse_feature_level(obj.cast<std::string>());
  // Any integer (also numpy's) but bool; FeatureLevel members are ints (IntEnum).
  if (is_int_like(obj)) {
    const std::int64_t v = to_int(obj, "feature_level");
    if (v < 0 || v > 0xffffffffLL || !is_known_feature_level(static_cast<std::uint32_t>(v)))
      throw ValidationError("feature_level: unknown feature level " + std::to_string(v));
    return static_cast<FeatureLevel>(v);
  }
  throw pyb::type_error("feature_level: expected a FeatureLevel, an int or a string like '4_1', got " +
                        pyb::repr(obj).cast<std::string>());
}

pyb::dtype numpy_dtype(DataType t) {
  // Made once per type (numpy parses the name): results of small calls are made per call.
  constexpr int n = kDataTypeCount + 1;  // DataType values 1..11
  static pyb::dtype* const table = [] {
    auto* p = new pyb::dtype[n];  // never freed: the interpreter may outlive statics
    for (int i = 1; i < n; ++i) p[i] = pyb::dtype(std::string(dtype_name(static_cast<DataType>(i))));
    return p;
  }();
  const auto i = static_cast<std::uint32_t>(t);
  if (i == 0 || i >= static_cast<std::uint32_t>(n)) return pyb::dtype(std::string(dtype_name(t)));  // numpy's error
  return table[i];
}

pyb::tuple to_tuple(const std::vector<std::int64_t>& v) {
  pyb::tuple t(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) t[i] = pyb::int_(v[i]);
  return t;
}

namespace {

TensorDesc make_desc(pyb::handle dtype, pyb::handle sizes, pyb::handle strides, pyb::handle total_bytes,
                     pyb::handle alignment, pyb::handle flags) {
  const DataType t = to_dtype(dtype);
  auto sz = to_ints(sizes, "TensorDesc.sizes");
  std::vector<std::int64_t> st;
  if (!strides.is_none()) {
    st = to_ints(strides, "TensorDesc.strides");
    if (st.empty() && !sz.empty())
      throw ValidationError("TensorDesc.strides: must have one stride per dimension (" + std::to_string(sz.size()) +
                            "), got 0");
  }
  std::uint64_t tb = total_bytes.is_none() ? 0 : to_uint(total_bytes, "TensorDesc.total_bytes");
  if (!total_bytes.is_none() && tb == 0) throw ValidationError("TensorDesc.total_bytes: must be positive, got 0");
  const std::uint64_t al = to_uint(alignment, "TensorDesc.alignment");
  if (al > 0xffffffffu) throw ValidationError("TensorDesc.alignment: value does not fit in 32 bits");
  const std::uint64_t fl = to_uint(flags, "TensorDesc.flags");
  if (fl > 1)
    throw ValidationError("TensorDesc.flags: must be NONE (0) or OWNED_BY_DML (1), got " + std::to_string(fl));
  return TensorDesc(t, std::move(sz), std::move(st), tb, static_cast<std::uint32_t>(al), static_cast<TensorFlags>(fl));
}

TensorDesc desc_from_array(const pyb::array& a) {
  const DataType t = to_dtype(a.dtype());
  const auto item = static_cast<std::int64_t>(itemsize(t));
  if (a.ndim() == 0)
    throw ValidationError("TensorDesc.from_array: a 0-d array has no DirectML description; reshape it to (1,)");
  const auto n = static_cast<std::size_t>(a.ndim());
  std::vector<std::int64_t> sizes(n), strides(n);
  for (std::size_t i = n; i-- > 0;) {
    const auto d = static_cast<pyb::ssize_t>(i);
    sizes[i] = a.shape(d);
    if (a.shape(d) == 1) {
      // A size-1 dimension's stride is never used (numpy may hold anything there, even a
      // negative value): give it the packed continuation so a C-contiguous array's description
      // equals the packed one.
      std::uint64_t next = 1;
      if (i + 1 < n && (!detail::checked_mul(static_cast<std::uint64_t>(strides[i + 1]),
                                             static_cast<std::uint64_t>(sizes[i + 1]), next) ||
                        next > static_cast<std::uint64_t>(INT64_MAX)))
        next = 0;
      strides[i] = static_cast<std::int64_t>(next);
      continue;
    }
    const std::int64_t s = a.strides(d);
    if (s < 0)
      throw ValidationError("TensorDesc.from_array: strides[" + std::to_string(i) +
                            "] is negative; DirectML strides are non-negative (copy the array first)");
    if (s % item != 0)
      throw ValidationError("TensorDesc.from_array: strides[" + std::to_string(i) + "] = " + std::to_string(s) +
                            " bytes is not a multiple of the element size " + std::to_string(item));
    strides[i] = s / item;
  }
  return TensorDesc(t, sizes, strides);
}

pyb::object& validation_error_type() {
  static pyb::object* t = new pyb::object();  // never destroyed: used until interpreter exit
  return *t;
}

}  // namespace

// The one place where strided's C++ errors become Python exceptions (registered with pybind11
// through its public API, and called by the raw METH_FASTCALL functions).
void translate_strided_error(std::exception_ptr p) {
  try {
    if (p) std::rethrow_exception(p);
  } catch (const ValidationError& e) {
    PyErr_SetString(validation_error_type().ptr(), e.what());
  } catch (const IndexError& e) {
    PyErr_SetString(PyExc_IndexError, e.what());
  } catch (const BufferError& e) {
    PyErr_SetString(PyExc_BufferError, e.what());
  } catch (const Error& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
}

PyObject* translate_current_exception() {
  try {
    throw;
  } catch (pyb::error_already_set& e) {
    e.restore();
  } catch (const pyb::builtin_exception& e) {
    e.set_error();
  } catch (const Error&) {
    translate_strided_error(std::current_exception());
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

namespace {
// _ints(value, field): the Python functions' integer lists (shapes, repeats, pads, axes) by the
// bindings' one rule. Raw METH_FASTCALL: checking each item in Python cost ~0.5 us per call.
PyObject* ints_raw(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 2) {
    PyErr_Format(PyExc_TypeError, "_ints() takes 2 positional arguments (%zd given)", nargs);
    return nullptr;
  }
  try {
    const char* field = PyUnicode_AsUTF8(args[1]);
    return field ? to_int_list(args[0], field).release().ptr() : nullptr;
  } catch (...) {
    return translate_current_exception();
  }
}

PyMethodDef types_methods[] = {
    {"_ints", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&ints_raw)), METH_FASTCALL,
     "_ints($module, value, field, /)\n--\n\n"
     "A list of integers: a sequence (or 1-d integer array) item by item, anything else as one integer, each by "
     "the bindings' one rule (TypeError / ValidationError naming field[i])."},
    {nullptr, nullptr, 0, nullptr}};
}  // namespace

void register_types(pyb::module_& m) {
  add_raw_functions(m, types_methods);
  // Exceptions: ValidationError is a ValueError; IndexError and BufferError map to builtins.
  validation_error_type() = pyb::exception<ValidationError>(m, "ValidationError", PyExc_ValueError);
  pyb::register_exception_translator(&translate_strided_error);

  auto dt = pyb::native_enum<DataType>(m, "DataType", "enum.IntEnum",
                                       "DirectML's DML_TENSOR_DATA_TYPE (values are DirectML's).");
#define STRIDED_X(nm, val, bytes, str, type) dt.value(#nm, DataType::nm);
  STRIDED_FOR_EACH_DTYPE(STRIDED_X)
#undef STRIDED_X
  dt.finalize();

  auto fl = pyb::native_enum<FeatureLevel>(m, "FeatureLevel", "enum.IntEnum",
                                           "DirectML's DML_FEATURE_LEVEL (values are DirectML's).");
#define STRIDED_X(nm, val, str) fl.value(#nm, FeatureLevel::nm);
  STRIDED_FOR_EACH_FEATURE_LEVEL(STRIDED_X)
#undef STRIDED_X
  fl.finalize();

  m.def("_to_dtype", [](pyb::handle o) { return to_dtype(o); }, "Normalise a dtype-like to a DataType.");
  // The functional wrappers want the numpy dtype: returning the DataType (an IntEnum member made
  // per call) and reading its .numpy cost 0.5 us more than this, in every tiny call.
  m.def(
      "_numpy_dtype", [](pyb::handle o) { return numpy_dtype(to_dtype(o)); },
      "The numpy dtype of a dtype-like's DataType (the errors of _to_dtype).");
  m.def("_to_level", [](pyb::handle o) { return to_level(o); }, "Normalise a level-like to a FeatureLevel.");
  m.def(
      "_to_int", [](pyb::handle o, const std::string& field) { return to_int(o, field.c_str()); }, pyb::arg("value"),
      pyb::arg("field"), "An integer argument by the bindings' one rule (python/strided/_index.py uses it).");

  pyb::options plain_init;  // "__init__(self, ...)" text signatures (inspect.signature, help())
  plain_init.disable_function_signatures();
  pyb::class_<TensorDesc>(m, "TensorDesc", "DirectML's DML_BUFFER_TENSOR_DESC: how a tensor lies in a buffer.")
      .def(pyb::init(&make_desc), pyb::arg("dtype"), pyb::arg("sizes"), pyb::arg("strides") = pyb::none(),
           pyb::kw_only(), pyb::arg("total_bytes") = pyb::none(), pyb::arg("alignment") = 0, pyb::arg("flags") = 0,
           "__init__(self, dtype, sizes, strides=None, *, total_bytes=None, alignment=0, flags=0)\n--\n\n"
           "dtype: a DataType, numpy dtype or name; sizes: the dimensions; strides: in elements (default "
           "packed, row-major); total_bytes: the buffer's size (default DMLCalcBufferTensorSize).")
      .def_static("from_array", &desc_from_array, pyb::arg("array"),
                  "Describe a numpy array's own memory (its strides must be non-negative multiples of the "
                  "item size).")
      .def_property_readonly("dtype", &TensorDesc::dtype)
      .def_property_readonly("sizes", [](const TensorDesc& d) { return to_tuple(d.sizes()); })
      .def_property_readonly("strides", [](const TensorDesc& d) { return to_tuple(d.strides()); })
      .def_property_readonly("has_strides", &TensorDesc::has_strides)
      .def_property_readonly("total_bytes", &TensorDesc::total_bytes)
      .def_property_readonly("alignment", &TensorDesc::alignment)
      .def_property_readonly("flags", [](const TensorDesc& d) { return static_cast<unsigned>(d.flags()); })
      .def_property_readonly("ndim", &TensorDesc::ndim)
      .def_property_readonly("element_count", &TensorDesc::element_count)
      .def_property_readonly("is_packed", &TensorDesc::is_packed)
      .def_property_readonly("is_broadcast", &TensorDesc::is_broadcast)
      .def("__repr__", &TensorDesc::to_string)
      .def("__eq__", [](const TensorDesc& a,
                        pyb::object b) { return pyb::isinstance<TensorDesc>(b) && a == b.cast<const TensorDesc&>(); })
      .def("__hash__", &TensorDesc::hash)
      .def(pyb::pickle(
          [](const TensorDesc& d) {
            return pyb::make_tuple(static_cast<int>(d.dtype()), to_tuple(d.sizes()),
                                   d.has_strides() ? pyb::object(to_tuple(d.strides())) : pyb::object(pyb::none()),
                                   d.total_bytes(), d.alignment(), static_cast<unsigned>(d.flags()));
          },
          [](const pyb::tuple& t) { return make_desc(t[0], t[1], t[2], t[3], t[4], t[5]); }));

  // Plain text signatures (inspect.signature, help()) instead of pybind11's typed ones.
  pyb::options plain;
  plain.disable_function_signatures();
  m.def(
      "calc_buffer_tensor_size",
      [](pyb::handle dtype, pyb::handle sizes, pyb::handle strides) {
        auto sz = to_ints(sizes, "calc_buffer_tensor_size.sizes");
        std::vector<std::int64_t> st;
        if (!strides.is_none()) {
          st = to_ints(strides, "calc_buffer_tensor_size.strides");
          // An empty sequence is not "no strides" (that is None): it has the wrong length.
          if (st.empty() && !sz.empty())
            throw ValidationError("calc_buffer_tensor_size.strides: must have one stride per dimension (" +
                                  std::to_string(sz.size()) + "), got 0");
        }
        return calc_buffer_tensor_size(to_dtype(dtype), sz, st);
      },
      pyb::arg("dtype"), pyb::arg("sizes"), pyb::arg("strides") = pyb::none(),
      "calc_buffer_tensor_size($module, /, dtype, sizes, strides=None)\n--\n\n"
      "DMLCalcBufferTensorSize: minimum buffer bytes, rounded up to a multiple of 4.");
  m.def(
      "packed_strides",
      [](pyb::handle sizes, pyb::handle layout) {
        auto sz = to_ints(sizes, "packed_strides.sizes");
        if (pyb::isinstance<pyb::str>(layout)) return to_tuple(packed_strides(sz, layout.cast<std::string>()));
        std::vector<int> order;
        for (auto v : to_ints(layout, "packed_strides.layout")) {
          if (v < -1000 || v > 1000) throw ValidationError("packed_strides.layout: not a permutation");
          order.push_back(static_cast<int>(v));
        }
        return to_tuple(packed_strides(sz, order));
      },
      pyb::arg("sizes"), pyb::arg("layout") = "NCHW",
      "packed_strides($module, /, sizes, layout='NCHW')\n--\n\n"
      "Packed strides (elements) for 'NCHW', 'NHWC' or a permutation listed major to minor.");

  m.def("version", []() { return std::string(version()); }, "version($module, /)\n--\n\nThe library's version.");
  m.def(
      "set_num_threads", [](pyb::handle n) { set_num_threads(to_threads(n, "set_num_threads.n")); }, pyb::arg("n"),
      "set_num_threads($module, /, n)\n--\n\n"
      "Threads used by execute for operators compiled without threads= (1 to 1024; process-wide). "
      "Checked but without effect in a build without OpenMP (build_info()['openmp'] == 'no').");
  m.def("get_num_threads", &get_num_threads,
        "get_num_threads($module, /)\n--\n\nThreads execute uses by default (set_num_threads, else OpenMP's; "
        "1 without OpenMP).");
  m.def(
      "build_info",
      []() {
        pyb::dict d;
        for (const auto& [k, v] : build_info()) d[pyb::str(k)] = pyb::str(v);
        d["result_pool_bytes"] = pyb::str(std::to_string(result_pool_limit()));  // Python results only
        return d;
      },
      "build_info($module, /)\n--\n\nHow this library was built: version, compiler, OpenMP, SIMD targets.");
}

}  // namespace strided::py
