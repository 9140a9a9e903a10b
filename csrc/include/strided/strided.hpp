// strided: umbrella header, the whole public API. See README.md (Quickstart (C++), C++) for
// an overview; every function is documented in its own header here.
#pragma once
#include "strided/config.hpp"  // C++17 check first
#include "strided/array.hpp"
#include "strided/compiled.hpp"
#include "strided/dtype.hpp"
#include "strided/error.hpp"
#include "strided/feature_level.hpp"
#include "strided/ops.hpp"
#include "strided/runtime.hpp"
#include "strided/tensor_desc.hpp"
#include "strided/xla.hpp"
