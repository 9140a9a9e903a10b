// strided._core: the thin binding over the C++ library (one register_<area>.cpp per area).
#include "bindings.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "strided's C++ core; use the `strided` package, not this module.";
  strided::py::register_types(m);
  strided::py::register_scalar(m);
  strided::py::register_ops(m);
  strided::py::register_exec(m);
  strided::py::register_functional(m);
  strided::py::register_index(m);
  strided::py::register_xla(m);
  strided::py::register_engine(m);
  strided::py::make_plain(m, {"split", "join", "compile", "calc_buffer_tensor_size", "packed_strides", "version",
                              "set_num_threads", "get_num_threads", "build_info"});
}
