// PLACEHOLDER: the ten description classes (owned by the validation work).
#include "bindings.hpp"
namespace strided::py {
void register_ops(pyb::module_&) {}
}  // namespace strided::py
