// strided: umbrella header. See README.md and ../shared/API.md for the surface.
#pragma once
#include "strided/compiled.hpp"
#include "strided/dtype.hpp"
#include "strided/error.hpp"
#include "strided/feature_level.hpp"
#include "strided/ops.hpp"
#include "strided/runtime.hpp"
#include "strided/tensor_desc.hpp"
#include "strided/xla.hpp"
