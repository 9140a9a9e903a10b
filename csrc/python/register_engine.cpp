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

}  // namespace

void register_engine(pyb::module_& m) {
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
  m.def(
      "_empty",
      [](const std::vector<pyb::ssize_t>& shape, const pyb::dtype& dtype) {
        // Functions written in Python (sd.tile) make their fresh results here, so that large
        // ones come from the result pool as those of the C++ functions (sd.join, ...) do.
        std::uint64_t bytes = static_cast<std::uint64_t>(dtype.itemsize());
        for (const pyb::ssize_t n : shape)
          if (n < 0 || !detail::checked_mul(bytes, static_cast<std::uint64_t>(n), bytes)) bytes = 0;
        ResultAllocScope pooled(static_cast<std::size_t>(bytes));
        return pyb::array(dtype, shape);
      },
      pyb::arg("shape"), pyb::arg("dtype"),
      "A new C-contiguous array, from the result pool when it is large (4 MiB or more).");
  m.def("_team_cap", &detail::team_cap,
        "The busy-machine cap on team sizes (1024: uncapped); for benchmarks and diagnostics.");
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
