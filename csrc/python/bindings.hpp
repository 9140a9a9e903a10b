// Shared pieces of the pybind11 module: conversions that every register_<area>.cpp uses.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>

#include "strided/strided.hpp"

namespace strided::py {
namespace pyb = pybind11;

/// DataType from a DataType, an int, a name ("float16"/"FLOAT16"), or a numpy dtype-like.
DataType to_dtype(pyb::handle obj);
/// FeatureLevel from a FeatureLevel, an int, or "4_1" / "4.1"; None -> nullopt.
std::optional<FeatureLevel> to_level(pyb::handle obj);
/// The numpy dtype of a DataType.
pyb::dtype numpy_dtype(DataType t);
/// A Python sequence of ints -> vector (TypeError on anything else).
std::vector<std::int64_t> to_int_vector(pyb::handle seq, const char* field);
/// Tuple of ints.
pyb::tuple to_tuple(const std::vector<std::int64_t>& v);

void register_types(pyb::module_& m);
void register_ops(pyb::module_& m);
void register_exec(pyb::module_& m);
void register_xla(pyb::module_& m);
void register_engine(pyb::module_& m);

}  // namespace strided::py
