// PLACEHOLDER: strided.xla (owned by the XLA work).
#include "bindings.hpp"
namespace strided::py {
void register_xla(pyb::module_&) {}
}  // namespace strided::py
