// Copy-engine controls for tests and benchmarks: SIMD target switching, plan inspection and
// the memcpy / memset bandwidth references. Private (underscore) names: not part of the API.
#include <cstring>

#include "bindings.hpp"
#include "exec/call.hpp"
#include "index/steps.hpp"
#include "plan/copy_plan.hpp"
#include "plan/plan_detail.hpp"
#include "runtime/runtime.hpp"
#include "runtime/simd.hpp"
#include "util/checked.hpp"

namespace strided::py {

std::size_t result_shape(pyb::handle given, const char* field, const pyb::dtype& dt, std::int64_t* dims,
                         std::uint64_t& bytes) {
  auto too_large = [&](const std::string& why) {
    return ValidationError(std::string(field) + ": the result's shape " + std::string(pyb::str(given)) + why);
  };
  std::size_t n = 0;
  try {
    n = to_ints_into(given, field, dims, kNumpyMaxDims);
  } catch (const ValidationError&) {  // to_int's only one: a size beyond int64
    throw too_large(" does not fit in 64 bits");
  }
  if (n > kNumpyMaxDims)
    throw ValidationError(std::string(field) + ": " + std::to_string(n) + " dimensions, numpy's limit is " +
                          std::to_string(kNumpyMaxDims));
  // numpy's rule: sizes >= 0, and the product of the non-zero sizes and the item size in an intp.
  std::uint64_t used = static_cast<std::uint64_t>(dt.itemsize());
  bytes = used;
  for (std::size_t i = 0; i < n; ++i) {
    if (dims[i] < 0)
      throw ValidationError(std::string(field) + "[" + std::to_string(i) + "]: size must be non-negative, got " +
                            std::to_string(dims[i]));
    if (dims[i] > 0 && (!detail::checked_mul(used, static_cast<std::uint64_t>(dims[i]), used) ||
                        used > static_cast<std::uint64_t>(INT64_MAX)))
      throw too_large(" of " + std::string(pyb::str(dt)) + " needs more than 2**63 - 1 bytes");
    bytes = dims[i] == 0 ? 0 : bytes * static_cast<std::uint64_t>(dims[i]);
  }
  return n;
}

namespace {

pyb::buffer_info writable(pyb::handle h, const char* what) {
  if (!PyObject_CheckBuffer(h.ptr())) throw pyb::type_error(std::string(what) + ": expected a buffer-protocol object");
  try {
    return pyb::reinterpret_borrow<pyb::buffer>(h).request(true);
  } catch (pyb::error_already_set&) {
    throw BufferError(std::string(what) + ": buffer is not writable");
  }
}

std::size_t nbytes(const pyb::buffer_info& b) { return static_cast<std::size_t>(b.size * b.itemsize); }

void check_threads(int threads) {
  if (threads < 1 || threads > 1024)
    throw ValidationError("threads: must be between 1 and 1024, got " + std::to_string(threads));
}

// _empty(shape, dtype, field="shape"): the Python functions' fresh results (sd.tile, sd.full,
// ...), large ones from the result pool as the C++ functions' are. A raw METH_FASTCALL function
// straight onto numpy's C API: pybind11's dispatcher and shape vectors cost 0.25 us, more than
// numpy's own np.empty, in every tiny call.
PyObject* empty_raw(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs < 2 || nargs > 3) {
    PyErr_Format(PyExc_TypeError, "_empty() takes 2 or 3 positional arguments (%zd given)", nargs);
    return nullptr;
  }
  try {
    const char* field = "shape";
    if (nargs == 3 && !(field = PyUnicode_AsUTF8(args[2]))) return nullptr;
    pyb::dtype dt = pyb::isinstance<pyb::dtype>(args[1]) ? pyb::reinterpret_borrow<pyb::dtype>(args[1])
                                                         : numpy_dtype(to_dtype(args[1]));
    std::int64_t dims[kNumpyMaxDims];
    std::uint64_t bytes = 0;
    const auto n = static_cast<int>(result_shape(args[0], field, dt, dims, bytes));
    pyb::ssize_t shape[kNumpyMaxDims];
    for (int i = 0; i < n; ++i) shape[i] = static_cast<pyb::ssize_t>(dims[i]);
    ResultAllocScope pooled(static_cast<std::size_t>(bytes));
    auto& api = pyb::detail::npy_api::get();
    return api.PyArray_NewFromDescr_(api.PyArray_Type_, dt.release().ptr(), n, shape, nullptr, nullptr, 0,
                                     nullptr);  // the descr reference is stolen
  } catch (...) {
    return translate_current_exception();
  }
}

PyMethodDef engine_methods[] = {
    {"_empty", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&empty_raw)), METH_FASTCALL,
     "_empty($module, shape, dtype, field='shape', /)\n--\n\n"
     "A new C-contiguous array, from the result pool when it is large (4 MiB or more); a negative size or a "
     "result beyond 2**63 - 1 bytes is a ValidationError naming `field`."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

void register_engine(pyb::module_& m) {
  add_raw_functions(m, engine_methods);
  m.def("_set_simd", &detail::set_simd, pyb::arg("name"),
        "Switch the copy kernels' SIMD target ('scalar', 'avx2', 'avx512'); for tests.");
  m.def("_simd", &detail::simd_active, "The SIMD target in use.");
  m.def("_simd_targets", &detail::simd_supported, "Compiled SIMD targets this CPU can run, best last.");
  m.def("_simd_compiled", &detail::simd_compiled, "SIMD targets compiled into this build.");
  m.def(
      "_plan_describe",
      [](std::size_t width, const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& src_strides,
         const std::vector<std::int64_t>& dst_strides) {
        return static_cast<const detail::CopyPlan&>(*detail::plan_copy(width, sizes, src_strides, dst_strides))
            .describe();
      },
      pyb::arg("width"), pyb::arg("sizes"), pyb::arg("src_strides"), pyb::arg("dst_strides"),
      "The copy plan for byte strides, as text: kernel kind, width, loop nest.");
  m.def(
      "_set_stream_threshold",
      [](std::uint64_t bytes) {
        // Plans fix their stores when made: cached ones would keep the old threshold's choice.
        detail::set_stream_threshold(bytes);
        detail::clear_plans();
      },
      pyb::arg("bytes"), "Outputs of at least `bytes` use streaming stores; clears the plan cache. For tests.");
  m.def("_stream_threshold", &detail::stream_threshold);
  m.def(
      "_set_index_narrow_threshold",
      [](std::int64_t bytes) {
        detail::index::set_narrow_threshold(bytes);
        detail::clear_plans();  // as above: cached plans keep the choice they were made with
      },
      pyb::arg("bytes"),
      "Element-wise (axis) gather and scatter indices of at least `bytes` are narrowed during the check; clears "
      "the plan cache. For tests.");
  m.def("_index_narrow_threshold", &detail::index::narrow_threshold);
  m.def(
      "_set_index_compact_entries",
      [](bool on) {
        detail::index::set_compact_entries(on);
        detail::clear_plans();
      },
      pyb::arg("on"),
      "Whether scatter_nd files 32-bit offsets where they fit (default True); clears the plan cache. For tests.");
  m.def("_index_compact_entries", &detail::index::compact_entries);
  m.def("_set_result_pool_limit", &set_result_pool_limit, pyb::arg("bytes"),
        "Result pool byte limit (0 turns it off and frees the idle blocks); for benchmarks and tests.");
  m.def("_result_pool_limit", &result_pool_limit);
  m.def("_team_cap", &detail::team_cap,
        "The busy-machine cap on team sizes (1024: uncapped); for benchmarks and diagnostics.");
  m.def("_set_team_watch", &detail::set_team_watch, pyb::arg("on"),
        "Whether the busy-machine watch may cap teams (default True); off, every call gets the threads it "
        "asks for. For tests of the multi-threaded paths.");
  m.def("_team_watch", &detail::team_watch);
  m.def(
      "_memcpy",
      [](pyb::handle dst, pyb::handle src, int threads) {
        check_threads(threads);
        const pyb::buffer_info d = writable(dst, "_memcpy.dst");
        const pyb::buffer_info s = pyb::reinterpret_borrow<pyb::buffer>(src).request(false);
        const std::size_t n = nbytes(d) < nbytes(s) ? nbytes(d) : nbytes(s);
        pyb::gil_scoped_release nogil;
        detail::parallel_memcpy(d.ptr, s.ptr, n, threads);
      },
      pyb::arg("dst"), pyb::arg("src"), pyb::arg("threads") = 1,
      "Reference: memcpy of min(len) bytes split over `threads` threads.");
  m.def(
      "_memset",
      [](pyb::handle dst, int value, int threads) {
        check_threads(threads);
        const pyb::buffer_info d = writable(dst, "_memset.dst");
        pyb::gil_scoped_release nogil;
        detail::parallel_memset(d.ptr, value, nbytes(d), threads);
      },
      pyb::arg("dst"), pyb::arg("value") = 0, pyb::arg("threads") = 1,
      "Reference: memset split over `threads` threads (write bandwidth).");
}

}  // namespace strided::py
