// compile / CompiledOperator.execute, and the functional entry point `_run` that the Python
// functions (sd.copy, sd.split, ..., sd.scatter) call with numpy arrays.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <type_traits>
#include <unordered_map>

#include "bindings.hpp"
#include "exec/program.hpp"

namespace strided::py {
namespace {

using detail::Program;
using detail::View;

// ---------------------------------------------------------------- compile / execute
template <std::size_t I = 0>
AnyDesc to_any_desc_impl(pyb::handle h) {
  if constexpr (I == std::variant_size_v<AnyDesc>) {
    using First = std::variant_alternative_t<0, AnyDesc>;
    using Last = std::variant_alternative_t<I - 1, AnyDesc>;
    throw pyb::type_error(std::string("compile.desc: expected an operator description (") + First::name + ", ..., " +
                          Last::name + "), got " + pyb::repr(h).cast<std::string>());
  } else {
    using D = std::variant_alternative_t<I, AnyDesc>;
    if (pyb::isinstance<D>(h)) return AnyDesc(h.cast<const D&>());
    return to_any_desc_impl<I + 1>(h);
  }
}
AnyDesc to_any_desc(pyb::handle h) { return to_any_desc_impl(h); }

// Py_buffer views released on scope exit (with the GIL held: they are released after the
// GIL-free region ends).
struct BufferViews {
  std::vector<Py_buffer> views;
  ~BufferViews() {
    for (auto& v : views) PyBuffer_Release(&v);
  }
};

// A list of buffers; one buffer alone (bytes, a numpy array: sequences too) is a TypeError, not
// a list of its items.
pyb::sequence buffer_list(pyb::handle h, const char* field) {
  if (PyObject_CheckBuffer(h.ptr()) || PyUnicode_Check(h.ptr()) || !PySequence_Check(h.ptr()))
    throw pyb::type_error(std::string(field) + ": expected a sequence of buffer-protocol objects, got " +
                          std::string(pyb::str(pyb::type::of(h).attr("__name__"))) +
                          (PyObject_CheckBuffer(h.ptr()) ? " (put a single buffer in a list)" : ""));
  return pyb::reinterpret_borrow<pyb::sequence>(h);
}

void execute_py(const CompiledOperator& op, pyb::handle inputs_obj, pyb::handle outputs_obj) {
  const pyb::sequence inputs = buffer_list(inputs_obj, "execute.inputs");
  const pyb::sequence outputs = buffer_list(outputs_obj, "execute.outputs");
  const std::size_t ni = pyb::len(inputs), no = pyb::len(outputs);
  if (ni != op.input_count())
    throw BufferError("execute.inputs: expected " + std::to_string(op.input_count()) + " input buffer(s), got " +
                      std::to_string(ni));
  if (no != op.output_count())
    throw BufferError("execute.outputs: expected " + std::to_string(op.output_count()) + " output buffer(s), got " +
                      std::to_string(no));
  BufferViews held;
  held.views.reserve(ni + no);
  std::vector<ConstBuffer> in(ni);
  std::vector<Buffer> out(no);
  std::vector<pyb::object> from_dlpack;  // arrays made from DLPack tensors, alive until execution ends
  const auto& prog = op.program();
  auto request = [&](pyb::handle h, bool writable, const char* what, std::size_t i) {
    const std::string field = std::string("execute.") + what + "[" + std::to_string(i) + "]";
    if (!PyObject_CheckBuffer(h.ptr()) && pyb::hasattr(h, "__dlpack__")) {
      // A torch / JAX tensor: its memory through numpy.from_dlpack, its dtype checked (a tensor
      // knows its element type; bytes-like buffers are taken as raw bytes).
      pyb::array a = as_array(h, field, writable);
      const DataType want = (writable ? prog.output_dtypes : prog.input_dtypes)[i];
      DataType got = DataType::UNKNOWN;
      try {
        got = to_dtype(a.dtype());
      } catch (const ValidationError&) {
      }
      if (got != want)
        throw BufferError(field + ": the tensor's dtype " + std::string(pyb::str(a.dtype())) +
                          " differs from the description's " + std::string(dtype_enum_name(want)));
      from_dlpack.push_back(a);
      h = a;
    }
    if (!PyObject_CheckBuffer(h.ptr()))
      throw pyb::type_error(std::string("execute.") + what + "[" + std::to_string(i) + "]: expected a " +
                            (writable ? "writable " : "") + "buffer-protocol object, got " +
                            std::string(pyb::str(pyb::type::of(h).attr("__name__"))));
    Py_buffer view;
    // Contiguous bytes are what a description addresses; a strided numpy view is refused here.
    if (PyObject_GetBuffer(h.ptr(), &view, writable ? PyBUF_WRITABLE : PyBUF_SIMPLE) != 0) {
      PyErr_Clear();
      throw BufferError(std::string("execute.") + what + "[" + std::to_string(i) + "]: " +
                        (writable ? "buffer is not writable or not contiguous"
                                  : "buffer is not contiguous (pass a C-contiguous array or bytes)"));
    }
    held.views.push_back(view);
    return view;
  };
  std::uint64_t bytes = 0;
  for (std::size_t i = 0; i < ni; ++i) {
    const Py_buffer v = request(inputs[i], false, "inputs", i);
    in[i] = ConstBuffer{v.buf, static_cast<std::size_t>(v.len)};
  }
  for (std::size_t o = 0; o < no; ++o) {
    const Py_buffer v = request(outputs[o], true, "outputs", o);
    out[o] = Buffer{v.buf, static_cast<std::size_t>(v.len)};
    bytes += op.output_bytes()[o];
  }
  // Keep the GIL for tiny runs (releasing it costs more than the copy); release it for real work.
  if (bytes < 16 * 1024 && op.program().steps.size() <= 2) {
    op.execute(in, out);
    return;
  }
  pyb::gil_scoped_release nogil;
  op.execute(in, out);
}

}  // namespace

namespace {
// Whether p's type is torch.Tensor, found by name and module (torch is never imported here);
// remembered once seen.
bool is_torch_tensor(PyObject* p) {
  static PyTypeObject* tensor = nullptr;
  PyTypeObject* t = Py_TYPE(p);
  if (t == tensor) return true;
  if (tensor || std::strcmp(t->tp_name, "Tensor") != 0 || !t->tp_dict) return false;
  PyObject* mod = PyDict_GetItemString(t->tp_dict, "__module__");  // borrowed
  if (!mod || !PyUnicode_Check(mod) || PyUnicode_CompareWithASCIIString(mod, "torch") != 0) return false;
  tensor = t;
  Py_INCREF(t);  // kept for the life of the process
  return true;
}
}  // namespace

pyb::array as_array(pyb::handle h, const std::string& field, bool writable) {
  if (pyb::isinstance<pyb::array>(h)) return pyb::reinterpret_borrow<pyb::array>(h);
  // Never destroyed: a static py::object's destructor would run after the interpreter is gone.
  static const pyb::module_& np = *new pyb::module_(pyb::module_::import("numpy"));
  static const pyb::object& asarray = *new pyb::object(np.attr("asarray"));
  // Lists, tuples and numbers have neither DLPack nor a buffer: straight to numpy.asarray (the
  // failed __dlpack__ lookup and the attribute fetch cost 0.7 us of a call on [True, False]).
  PyObject* p = h.ptr();
  if (!writable && (PyList_CheckExact(p) || PyTuple_CheckExact(p) || PyLong_CheckExact(p) || PyFloat_CheckExact(p)))
    return asarray(h);
  if (is_torch_tensor(p)) {
    // A torch.Tensor (exactly; subclasses such as nn.Parameter keep DLPack): .numpy() shares its
    // memory as DLPack does, at a third of the cost (torch's __dlpack__ is Python code: 1.8 ->
    // 0.5 us a tensor). What it refuses (requires grad, a conjugate or negative bit, bfloat16,
    // another device) goes the DLPack way below, whose refusal names the field.
    PyObject* r = PyObject_CallMethod(p, "numpy", nullptr);
    if (r && pyb::isinstance<pyb::array>(r)) return pyb::reinterpret_steal<pyb::array>(r);
    Py_XDECREF(r);
    PyErr_Clear();
  }
  if (pyb::hasattr(h, "__dlpack__")) {
    // torch's DLPack export ignores a tensor's negative bit (a lazy negation, such as
    // z.conj().imag): its values would be read unnegated. An input is resolved (a copy); an
    // output cannot be written through it.
    if (pyb::hasattr(h, "is_neg") && pyb::cast<bool>(h.attr("is_neg")())) {
      if (writable)
        throw BufferError(field + ": this tensor has its negative bit set (a lazy negation, such as z.conj().imag) "
                                  "and cannot be written in place; write into a tensor without it");
      return as_array(h.attr("resolve_neg")(), field, writable);
    }
    try {
      return np.attr("from_dlpack")(h);
    } catch (pyb::error_already_set& e) {
      // A GPU tensor, one that requires grad, an unsupported dtype (bool, complex): the exporter's reason.
      throw BufferError(field + ": cannot use this " + std::string(pyb::str(pyb::type::of(h).attr("__name__"))) +
                        " through DLPack (" + std::string(pyb::str(e.value())) + ")");
    }
  }
  if (PyObject_CheckBuffer(h.ptr()))
    return np.attr("asarray")(pyb::memoryview(pyb::reinterpret_borrow<pyb::object>(h)));  // bytes: uint8
  if (writable)
    throw pyb::type_error(field + ": expected a numpy array, a DLPack tensor (torch, JAX) or a writable buffer, got " +
                          std::string(pyb::str(pyb::type::of(h).attr("__name__"))));
  return asarray(h);
}

Arr to_arr(pyb::handle h, const std::string& field, bool writable) {
  Arr x;
  x.keep = as_array(h, field, writable);
  auto a = pyb::reinterpret_borrow<pyb::array>(x.keep);
  if (a.dtype().kind() == 'O')
    throw pyb::type_error(field + ": object arrays are not supported (dtype " + std::string(pyb::str(a.dtype())) + ")");
  if (writable && !a.writeable()) throw BufferError(field + ": array is read-only");
  try {
    x.dtype = to_dtype(a.dtype());
  } catch (const ValidationError& e) {
    throw ValidationError(field + "." + e.what());
  }
  const auto nd = a.ndim();
  if (nd > kMaxDims)
    throw ValidationError(field + ": strided supports at most 8 dimensions, got " + std::to_string(nd));
  x.data = writable ? a.mutable_data() : const_cast<void*>(a.data());
  x.ndim = static_cast<int>(nd);  // 0 for a 0-d array: shape () (run_arrays gives it one dimension)
  for (int d = 0; d < x.ndim; ++d) {
    x.shape[d] = a.shape(d);
    x.strides[d] = a.strides(d);
  }
  return x;
}

void run_arrays(int code, const std::int64_t* prm, std::size_t n_prm, const Arr* ins, std::size_t ni, const Arr* outs,
                std::size_t no) {
  // The library's call takes plain CallArrays: copy the slices (a few hundred bytes).
  // Raw storage, copied into only as far as used: value-initialising two arrays of eight
  // CallArrays (2.4 KB of zeros) cost a quarter of a 4x4 copy.
  static_assert(std::is_trivially_copyable_v<detail::CallArray> && std::is_trivially_destructible_v<detail::CallArray>);
  constexpr std::size_t kInline = 8;
  alignas(detail::CallArray) unsigned char in_s[kInline * sizeof(detail::CallArray)];
  alignas(detail::CallArray) unsigned char out_s[kInline * sizeof(detail::CallArray)];
  std::vector<detail::CallArray> in_v, out_v;
  auto* ci = reinterpret_cast<detail::CallArray*>(in_s);
  auto* co = reinterpret_cast<detail::CallArray*>(out_s);
  if (ni > kInline) {
    in_v.resize(ni);
    ci = in_v.data();
  }
  if (no > kInline) {
    out_v.resize(no);
    co = out_v.data();
  }
  for (std::size_t i = 0; i < ni; ++i) new (&ci[i]) detail::CallArray(ins[i]);
  for (std::size_t o = 0; o < no; ++o) new (&co[o]) detail::CallArray(outs[o]);
  static const detail::RunUnlock gil{[]() -> void* { return PyEval_SaveThread(); },
                                     [](void* s) { PyEval_RestoreThread(static_cast<PyThreadState*>(s)); }};
  detail::call(code, prm, n_prm, ci, ni, co, no, &gil);
}

namespace {

// The arrays of one of _run's sequences: up to kInline without allocating.
struct RunArrays {
  static constexpr std::size_t kInline = 4;
  Arr inline_[kInline];
  std::vector<Arr> more;
  Arr* p = inline_;
  std::size_t n = 0;
  RunArrays(pyb::handle seq, const char* what, bool writable) {
    pyb::object fast = pyb::reinterpret_steal<pyb::object>(PySequence_Fast(seq.ptr(), "expected a sequence"));
    if (!fast) throw pyb::error_already_set();
    n = static_cast<std::size_t>(PySequence_Fast_GET_SIZE(fast.ptr()));
    if (n > kInline) {
      more.resize(n);
      p = more.data();
    }
    static const std::string names[2][kInline] = {{"inputs[0]", "inputs[1]", "inputs[2]", "inputs[3]"},
                                                  {"outputs[0]", "outputs[1]", "outputs[2]", "outputs[3]"}};
    for (std::size_t i = 0; i < n; ++i)
      p[i] = to_arr(PySequence_Fast_GET_ITEM(fast.ptr(), i),
                    i < kInline ? names[writable][i] : std::string(what) + "[" + std::to_string(i) + "]", writable);
  }
};

// _run(code, params, inputs, outputs): the Python functions' way into the functional path (sd.cast,
// sd.full, ...). A raw METH_FASTCALL function: pybind11's dispatcher, argument vectors and field
// strings cost ~0.25 us of every tiny call.
PyObject* run_raw(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 4) {
    PyErr_Format(PyExc_TypeError, "_run() takes 4 positional arguments (%zd given)", nargs);
    return nullptr;
  }
  try {
    const std::int64_t code = to_int(args[0], "code");
    constexpr std::size_t kParams = 64;
    std::int64_t small[kParams];
    std::vector<std::int64_t> big;
    const std::int64_t* prm = small;
    const std::size_t n_prm = to_ints_into(args[1], "params", small, kParams);
    if (n_prm > kParams) {
      big.resize(n_prm);
      to_ints_into(args[1], "params", big.data(), n_prm);
      prm = big.data();
    }
    const RunArrays ins(args[2], "inputs", false), outs(args[3], "outputs", true);
    run_arrays(static_cast<int>(code), prm, n_prm, ins.p, ins.n, outs.p, outs.n);
    Py_RETURN_NONE;
  } catch (...) {
    return translate_current_exception();
  }
}

PyMethodDef exec_methods[] = {
    {"_run", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&run_raw)), METH_FASTCALL,
     "_run($module, code, params, inputs, outputs, /)\n--\n\n"
     "Run operator `code` (_op_codes) with its integer parameters on numpy arrays."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

void register_exec(pyb::module_& m) {
  pyb::options plain;  // plain text signatures for inspect.signature and help()
  plain.disable_function_signatures();
  pyb::class_<CompiledOperator>(m, "CompiledOperator",
                                "An execution plan made by compile(); execute() is thread-safe and releases the GIL.")
      .def("execute", &execute_py, pyb::arg("inputs"), pyb::arg("outputs"),
           "execute(self, inputs, outputs)\n--\n\n"
           "Run on buffer-protocol objects or CPU DLPack tensors (torch): inputs in the description's order, "
           "outputs writable.")
      .def_property_readonly("input_count", &CompiledOperator::input_count)
      .def_property_readonly("output_count", &CompiledOperator::output_count)
      .def_property_readonly("input_bytes", [](const CompiledOperator& c) { return c.input_bytes(); })
      .def_property_readonly("output_bytes", [](const CompiledOperator& c) { return c.output_bytes(); })
      .def("__repr__", [](const CompiledOperator& c) {
        return "<CompiledOperator inputs=" + std::to_string(c.input_count()) +
               " outputs=" + std::to_string(c.output_count()) + ">";
      });
  m.def(
      "compile",
      [](pyb::handle desc_obj, pyb::object threads) {
        const AnyDesc desc = to_any_desc(desc_obj);
        CompileOptions o;
        if (!threads.is_none()) o.threads = to_threads(threads, "compile.threads");
        return compile(desc, o);
      },
      pyb::arg("desc"), pyb::kw_only(), pyb::arg("threads") = pyb::none(),
      "compile($module, /, desc, *, threads=None)\n--\n\n"
      "Validate a description and plan its execution; returns a CompiledOperator (thread-safe execute()).");
  m.def(
      "_as_array", [](pyb::handle h, const std::string& field, bool writable) { return as_array(h, field, writable); },
      pyb::arg("obj"), pyb::arg("field"), pyb::arg("writable") = false,
      "An array-like as a numpy array sharing its memory where it can (numpy, DLPack, buffers).");
  add_raw_functions(m, exec_methods);
  m.def("_plan_cache_clear", &detail::clear_plans);
  m.def("_plan_cache_size", &detail::plan_count);
}

}  // namespace strided::py
