// strided._core.xla: the binding of strided::xla (python/strided/xla.py re-exports it).
// Every rule lives in the C++ library; this file only converts arguments and owns numpy arrays.
#include <pybind11/native_enum.h>

#include <cstring>

#include "bindings.hpp"
#include "xla/xla_internal.hpp"

namespace strided::py {
namespace {

namespace x = strided::xla;

x::PrimitiveType to_ptype(pyb::handle obj) {
  if (pyb::isinstance<pyb::str>(obj)) return x::parse_primitive_type(obj.cast<std::string>());
  if (is_int_like(obj)) {
    const std::int64_t v = to_int(obj, "element_type");
    const auto t = static_cast<x::PrimitiveType>(v);
    if (v < 0 || v > 1000 || !x::is_valid_primitive_type(t))
      throw ValidationError("PrimitiveType: invalid primitive type " + std::to_string(v));
    return t;
  }
  throw pyb::type_error("element_type: expected a PrimitiveType or a name like 'f32', got " +
                        pyb::repr(obj).cast<std::string>());
}

x::PaddingValue to_pad(pyb::handle obj) {
  if (pyb::isinstance<pyb::str>(obj)) return x::parse_padding_value(obj.cast<std::string>());
  if (is_int_like(obj)) {
    const std::int64_t v = to_int(obj, "padding_value");
    const auto p = static_cast<x::PaddingValue>(v);
    if (v < 0 || v > 1000 || !x::is_valid_padding_value(p))
      throw ValidationError("PaddingValue: invalid padding value " + std::to_string(v) +
                            (v == 0 ? " (INVALID_PAD is never valid)" : ""));
    return p;
  }
  throw pyb::type_error("padding_value: expected a PaddingValue or a name like 'ZERO_PAD', got " +
                        pyb::repr(obj).cast<std::string>());
}

/// Tiles: a sequence of tuples of ints or "*" (XLA's combine-dimension entry).
std::vector<std::vector<std::int64_t>> to_tiles(pyb::handle tiles) {
  if (tiles.is_none()) return {};
  if (pyb::isinstance<pyb::str>(tiles) || !pyb::isinstance<pyb::sequence>(tiles))
    throw pyb::type_error("Layout.tiles: expected a sequence of tiles (tuples of ints or '*'), got " +
                          pyb::repr(tiles).cast<std::string>());
  std::vector<std::vector<std::int64_t>> r;
  const auto seq = pyb::reinterpret_borrow<pyb::sequence>(tiles);
  for (std::size_t i = 0; i < seq.size(); ++i) {
    const pyb::object t = seq[i];
    const std::string field = "Layout.tiles[" + std::to_string(i) + "]";
    if (pyb::isinstance<pyb::str>(t) || !pyb::isinstance<pyb::sequence>(t))
      throw pyb::type_error(field + ": expected a tuple of ints or '*', got " + pyb::repr(t).cast<std::string>());
    std::vector<std::int64_t> v;
    const auto ts = pyb::reinterpret_borrow<pyb::sequence>(t);
    for (std::size_t j = 0; j < ts.size(); ++j) {
      const pyb::object e = ts[j];
      if (pyb::isinstance<pyb::str>(e)) {
        if (e.cast<std::string>() != "*")
          throw ValidationError(field + "[" + std::to_string(j) + "]: expected a size or '*', got '" +
                                e.cast<std::string>() + "'");
        v.push_back(x::kCombineDimension);
      } else {
        v.push_back(to_int(e, (field + "[" + std::to_string(j) + "]").c_str()));
      }
    }
    r.push_back(std::move(v));
  }
  return r;
}

pyb::tuple tiles_tuple(const x::Layout& l) {
  pyb::list r;
  for (const auto& t : l.tiles) {
    pyb::list e;
    for (auto v : t) {
      if (v == x::kCombineDimension) e.append("*");
      else e.append(v);
    }
    r.append(pyb::tuple(e));
  }
  return pyb::tuple(r);
}

x::Layout make_layout(pyb::handle m2m, pyb::handle padded, pyb::handle pad, pyb::handle tiles, pyb::handle bits) {
  return x::Layout(to_ints(m2m, "Layout.minor_to_major"),
                   padded.is_none() ? std::vector<std::int64_t>{} : to_ints(padded, "Layout.padded_dimensions"),
                   to_pad(pad), to_tiles(tiles), to_int(bits, "Layout.element_size_in_bits"));
}

x::Shape make_shape_py(pyb::handle type, pyb::handle dims, pyb::handle layout) {
  const auto t = to_ptype(type);
  auto d = to_ints(dims, "Shape.dimensions");
  if (layout.is_none()) return x::Shape(t, std::move(d));
  if (pyb::isinstance<x::Layout>(layout)) return x::Shape(t, std::move(d), layout.cast<x::Layout>());
  // A bare sequence is taken as minor_to_major.
  return x::Shape(t, std::move(d), x::Layout(to_ints(layout, "Shape.layout")));
}

/// A Shape, or its text form.
x::Shape to_shape(pyb::handle obj, const char* field) {
  if (pyb::isinstance<x::Shape>(obj)) return obj.cast<x::Shape>();
  if (pyb::isinstance<pyb::str>(obj)) return x::Shape::parse(obj.cast<std::string>());
  throw pyb::type_error(std::string(field) + ": expected an xla.Shape or its text form, got " +
                        pyb::repr(obj).cast<std::string>());
}

pyb::dtype numpy_dtype_of(x::PrimitiveType t) {
  if (t == x::PrimitiveType::PRED) return pyb::dtype("bool");
  return numpy_dtype(x::to_data_type(t));
}

std::string py_list(const std::vector<std::int64_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string layout_repr(const x::Layout& l) {
  std::string s = "Layout(" + py_list(l.minor_to_major);
  if (l.has_padding()) s += ", padded_dimensions=" + py_list(l.padded_dimensions);
  if (l.padding_value != x::PaddingValue::ZERO_PAD)
    s += ", padding_value='" + std::string(x::padding_value_name(l.padding_value)) + "'";
  if (l.has_tiles()) s += ", tiles=" + pyb::repr(tiles_tuple(l)).cast<std::string>();
  if (l.element_size_in_bits != 0) s += ", element_size_in_bits=" + std::to_string(l.element_size_in_bits);
  return s + ")";
}

std::string shape_repr(const x::Shape& s) {
  std::string r = "Shape('" + std::string(x::primitive_type_name(s.element_type)) + "', " + py_list(s.dimensions);
  if (s.layout != x::default_layout(s.rank())) r += ", " + layout_repr(s.layout);
  return r + ")";
}

/// A C-contiguous Py_buffer held for the duration of a call (released with the GIL held).
class PyBuf {
 public:
  PyBuf(pyb::handle h, bool writable, const std::string& field) {
    if (!PyObject_CheckBuffer(h.ptr()))
      throw pyb::type_error(field + ": expected a buffer-protocol object (bytes, bytearray, numpy array, ...), got " +
                            pyb::repr(h).cast<std::string>());
    if (PyObject_GetBuffer(h.ptr(), &view_, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) != 0) {
      PyErr_Clear();
      throw BufferError(field +
                        (writable ? ": must be a writable C-contiguous buffer" : ": must be a C-contiguous buffer"));
    }
  }
  ~PyBuf() { PyBuffer_Release(&view_); }
  PyBuf(const PyBuf&) = delete;
  PyBuf& operator=(const PyBuf&) = delete;
  void* ptr() const { return view_.buf; }
  std::size_t bytes() const { return static_cast<std::size_t>(view_.len); }

 private:
  Py_buffer view_{};
};

/// A new 1-d buffer of `s`'s physical length; zero-filled when padding is left unwritten, so a
/// fresh result never exposes uninitialised memory.
pyb::array new_buffer(const x::Shape& s) {
  const auto n = static_cast<pyb::ssize_t>(s.physical_element_count());
  ResultAllocScope pooled(static_cast<std::size_t>(s.byte_size()));
  pyb::array out(numpy_dtype_of(s.element_type), std::vector<pyb::ssize_t>{n});
  if ((s.layout.has_padding() || s.layout.has_tiles()) && s.layout.padding_value == x::PaddingValue::UNKNOWN_PAD)
    std::memset(out.mutable_data(), 0, static_cast<std::size_t>(out.nbytes()));
  return out;
}

pyb::array to_physical(pyb::handle xobj, pyb::handle shape_obj) {
  const x::Shape s = to_shape(shape_obj, "to_physical.shape");
  x::detail::validate_shape(s, "to_physical.shape");
  const pyb::dtype dt = numpy_dtype_of(s.element_type);
  pyb::array a;
  if (pyb::isinstance<pyb::array>(xobj)) {
    a = pyb::reinterpret_borrow<pyb::array>(xobj);
    if (!a.dtype().attr("__eq__")(dt).cast<bool>())
      throw ValidationError("to_physical.x: dtype " + pyb::str(a.dtype()).cast<std::string>() + " does not match " +
                            std::string(x::primitive_type_name(s.element_type)) + " (numpy " +
                            pyb::str(dt).cast<std::string>() + ")");
  } else {
    a = pyb::module_::import("numpy").attr("asarray")(xobj, dt);
  }
  std::vector<std::int64_t> shp(a.shape(), a.shape() + a.ndim());
  if (shp != s.dimensions)
    throw ValidationError("to_physical.x: shape " + py_list(shp) + " does not match the shape's dimensions " +
                          py_list(s.dimensions));
  std::vector<std::int64_t> st(a.strides(), a.strides() + a.ndim());
  pyb::array out = new_buffer(s);
  void* dst = out.mutable_data();
  const auto dst_bytes = static_cast<std::size_t>(out.nbytes());
  {
    pyb::gil_scoped_release nogil;
    x::pack(s, a.data(), st, dst, dst_bytes);
  }
  return out;
}

pyb::object from_physical(pyb::handle buffer, pyb::handle shape_obj) {
  const x::Shape s = to_shape(shape_obj, "from_physical.shape");
  x::detail::validate_shape(s, "from_physical.shape");
  const std::uint64_t need = s.byte_size();
  {
    const PyBuf b(buffer, false, "from_physical.buffer");
    if (b.bytes() < need)
      throw BufferError("from_physical.buffer: buffer of " + std::to_string(b.bytes()) +
                        " bytes is shorter than the shape's byte size " + std::to_string(need) + " (" + s.to_string() +
                        ")");
  }
  if (s.layout.has_tiles()) {  // no strided view exists: a copy
    ResultAllocScope pooled(static_cast<std::size_t>(s.element_count() * x::primitive_type_size(s.element_type)));
    pyb::array out(numpy_dtype_of(s.element_type), std::vector<pyb::ssize_t>(s.dimensions.begin(), s.dimensions.end()));
    std::vector<std::int64_t> ost(out.strides(), out.strides() + out.ndim());
    void* dst = out.mutable_data();
    const PyBuf b(buffer, false, "from_physical.buffer");
    {
      pyb::gil_scoped_release nogil;
      x::unpack(s, b.ptr(), b.bytes(), dst, ost);
    }
    return pyb::object(std::move(out));  // array -> object: a move in every C++ mode, no warning
  }
  auto st = s.strides();
  const auto item = static_cast<std::int64_t>(x::primitive_type_size(s.element_type));
  for (auto& v : st) v *= item;
  // numpy keeps `buffer` alive as the view's base and inherits its writability.
  return pyb::module_::import("numpy").attr("ndarray")(to_tuple(s.dimensions), numpy_dtype_of(s.element_type), buffer,
                                                       0, to_tuple(st));
}

pyb::array relayout_py(pyb::handle buffer, pyb::handle src_obj, pyb::handle dst_obj) {
  const x::Shape src = to_shape(src_obj, "relayout.src_shape");
  const x::Shape dst = to_shape(dst_obj, "relayout.dst_shape");
  x::check_relayout(src, dst);  // before allocating the output
  pyb::array out = new_buffer(dst);
  void* out_ptr = out.mutable_data();
  const auto out_bytes = static_cast<std::size_t>(out.nbytes());
  const PyBuf in(buffer, false, "relayout.buffer");
  {
    pyb::gil_scoped_release nogil;
    x::relayout(src, in.ptr(), in.bytes(), dst, out_ptr, out_bytes);
  }
  return out;
}

}  // namespace

void register_xla(pyb::module_& parent) {
  pyb::module_ m = parent.def_submodule("xla", "XLA shapes and layouts (use strided.xla).");

  auto pt = pyb::native_enum<x::PrimitiveType>(m, "PrimitiveType", "enum.IntEnum",
                                               "XLA's PrimitiveType (values as in xla_data.proto).");
#define STRIDED_X(nm, val, bytes, dt) pt.value(#nm, x::PrimitiveType::nm);
  STRIDED_FOR_EACH_XLA_TYPE(STRIDED_X)
#undef STRIDED_X
  pt.finalize();

  pyb::native_enum<x::PaddingValue>(m, "PaddingValue", "enum.IntEnum",
                                    "XLA's PaddingValue (values as in xla_data.proto; INVALID_PAD is never valid).")
      .value("ZERO_PAD", x::PaddingValue::ZERO_PAD)
      .value("ONE_PAD", x::PaddingValue::ONE_PAD)
      .value("LOWEST_PAD", x::PaddingValue::LOWEST_PAD)
      .value("HIGHEST_PAD", x::PaddingValue::HIGHEST_PAD)
      .value("UNKNOWN_PAD", x::PaddingValue::UNKNOWN_PAD)
      .finalize();

  m.def("_to_primitive_type", &to_ptype, pyb::arg("obj"),
        "Normalise a type-like ('f32', 'F32', 11) to a PrimitiveType.");
  m.def("_to_padding_value", &to_pad, pyb::arg("obj"), "Normalise 'zero_pad' etc. to a PaddingValue.");
  m.def(
      "numpy_dtype", [](pyb::handle t) { return numpy_dtype_of(to_ptype(t)); }, pyb::arg("element_type"),
      "The numpy dtype of an element type (PRED is numpy bool).");

  pyb::class_<x::Layout>(m, "Layout",
                         "XLA's Layout: minor_to_major (most minor first), optional padded_dimensions and the "
                         "padding_value written to padding. Immutable; checked against a Shape by Shape.validate().")
      .def(pyb::init(&make_layout), pyb::arg("minor_to_major"), pyb::arg("padded_dimensions") = pyb::none(),
           pyb::arg("padding_value") = "ZERO_PAD", pyb::arg("tiles") = pyb::tuple(),
           pyb::arg("element_size_in_bits") = 0)
      .def_property_readonly("minor_to_major", [](const x::Layout& l) { return to_tuple(l.minor_to_major); })
      .def_property_readonly("padded_dimensions",
                             [](const x::Layout& l) -> pyb::object {
                               if (!l.has_padding()) return pyb::none();
                               return to_tuple(l.padded_dimensions);
                             })
      .def_property_readonly("padding_value", [](const x::Layout& l) { return l.padding_value; })
      .def_property_readonly("tiles", &tiles_tuple, "The tiles (SPEC 5.1), each a tuple of sizes or '*'.")
      .def_property_readonly(
          "element_size_in_bits", [](const x::Layout& l) { return l.element_size_in_bits; },
          "0 or the element type's natural size in bits (text E(bits)).")
      .def("__str__", &x::Layout::to_string)
      .def("__repr__", &layout_repr)
      .def("__eq__", [](const x::Layout& a,
                        pyb::object b) { return pyb::isinstance<x::Layout>(b) && a == b.cast<const x::Layout&>(); })
      .def("__hash__", &x::Layout::hash)
      .def(pyb::pickle(
          [](const x::Layout& l) {
            return pyb::make_tuple(to_tuple(l.minor_to_major),
                                   l.has_padding() ? pyb::object(to_tuple(l.padded_dimensions))
                                                   : pyb::object(pyb::none()),
                                   static_cast<int>(l.padding_value), tiles_tuple(l), l.element_size_in_bits);
          },
          [](const pyb::tuple& t) { return make_layout(t[0], t[1], t[2], t[3], t[4]); }));

  pyb::class_<x::Shape>(m, "Shape",
                        "XLA's array Shape: element type, dimensions, layout (None = the default descending layout). "
                        "Immutable. Constructing does not validate; validate() checks XLA's rules and every "
                        "computation validates first.")
      .def(pyb::init(&make_shape_py), pyb::arg("element_type"), pyb::arg("dimensions"),
           pyb::arg("layout") = pyb::none())
      .def_static(
          "parse", [](const std::string& text) { return x::Shape::parse(text); }, pyb::arg("text"),
          "Parse 'f32[2,3]{0,1}' (the layout may be omitted: default). The result is validated.")
      .def_property_readonly("element_type", [](const x::Shape& s) { return s.element_type; })
      .def_property_readonly("dimensions", [](const x::Shape& s) { return to_tuple(s.dimensions); })
      .def_property_readonly("layout", [](const x::Shape& s) { return s.layout; })
      .def_property_readonly("rank", &x::Shape::rank)
      .def_property_readonly("element_count", &x::Shape::element_count, "Logical elements.")
      .def_property_readonly("physical_element_count", &x::Shape::physical_element_count,
                             "Elements in the buffer, padding included.")
      .def_property_readonly("byte_size", &x::Shape::byte_size,
                             "Bytes of the buffer, padding included (XLA's ShapeUtil::ArraySize for tiles).")
      .def_property_readonly(
          "physical_dimensions", [](const x::Shape& s) { return to_tuple(s.physical_dimensions()); },
          "Bounds of the physical array, major to minor (for tiles: tile counts then tile sizes).")
      .def_property_readonly(
          "strides", [](const x::Shape& s) { return to_tuple(s.strides()); },
          "Physical stride of every dimension, in elements (ValidationError for a tiled layout).")
      .def_property_readonly(
          "dtype", [](const x::Shape& s) { return numpy_dtype_of(s.element_type); },
          "The numpy dtype of the element type (PRED is numpy bool).")
      .def("validate", &x::Shape::validate, "Raise ValidationError naming the field and rule if XLA's rules fail.")
      .def("tensor_desc", &x::Shape::tensor_desc, "The DirectML TensorDesc of this layout (padded strides).")
      .def("__str__", &x::Shape::to_string)
      .def("__repr__", &shape_repr)
      .def("__eq__", [](const x::Shape& a,
                        pyb::object b) { return pyb::isinstance<x::Shape>(b) && a == b.cast<const x::Shape&>(); })
      .def("__hash__", &x::Shape::hash)
      .def(pyb::pickle(
          [](const x::Shape& s) {
            return pyb::make_tuple(static_cast<int>(s.element_type), to_tuple(s.dimensions), s.layout);
          },
          [](const pyb::tuple& t) { return make_shape_py(t[0], t[1], t[2]); }));

  m.def(
      "make_shape",
      [](pyb::handle t, pyb::handle dims) {
        return x::make_shape(to_ptype(t), to_ints(dims, "make_shape.dimensions"));
      },
      pyb::arg("element_type"), pyb::arg("dimensions"), "ShapeUtil::MakeShape: the default layout; validated.");
  m.def(
      "make_shape_with_layout",
      [](pyb::handle t, pyb::handle dims, pyb::handle m2m) {
        return x::make_shape_with_layout(to_ptype(t), to_ints(dims, "make_shape_with_layout.dimensions"),
                                         to_ints(m2m, "make_shape_with_layout.minor_to_major"));
      },
      pyb::arg("element_type"), pyb::arg("dimensions"), pyb::arg("minor_to_major"),
      "ShapeUtil::MakeShapeWithLayout; validated.");
  m.def(
      "default_layout", [](pyb::handle rank) { return x::default_layout(to_int(rank, "default_layout.rank")); },
      pyb::arg("rank"), "{rank-1, ..., 0}: row-major.");
  m.def(
      "make_layout_from_major_to_minor",
      [](pyb::handle order) {
        return x::make_layout_from_major_to_minor(to_ints(order, "make_layout_from_major_to_minor.major_to_minor"));
      },
      pyb::arg("major_to_minor"), "The layout whose minor_to_major is the given order reversed.");
  m.def(
      "multidimensional_index_to_linear_index",
      [](pyb::handle s, pyb::handle index) {
        return x::multidimensional_index_to_linear_index(to_shape(s, "multidimensional_index_to_linear_index.shape"),
                                                         to_ints(index,
                                                                 "multidimensional_index_to_linear_index.index"));
      },
      pyb::arg("shape"), pyb::arg("index"), "The element offset of a logical index in the buffer (padding-aware).");
  m.def(
      "linear_index_to_multidimensional_index",
      [](pyb::handle s, pyb::handle linear) {
        return to_tuple(x::linear_index_to_multidimensional_index(
            to_shape(s, "linear_index_to_multidimensional_index.shape"),
            to_int(linear, "linear_index_to_multidimensional_index.linear_index")));
      },
      pyb::arg("shape"), pyb::arg("linear_index"),
      "The logical index at an element offset; ValidationError outside the buffer, IndexError in padding.");
  m.def(
      "bump_indices",
      [](pyb::handle s, pyb::handle index) -> pyb::object {
        auto r = x::bump_indices(to_shape(s, "bump_indices.shape"), to_ints(index, "bump_indices.index"));
        if (!r) return pyb::none();
        return to_tuple(*r);
      },
      pyb::arg("shape"), pyb::arg("index"), "The next index in row-major logical order, or None after the last.");
  m.def(
      "dimension_stride",
      [](pyb::handle s, pyb::handle dim) {
        return x::dimension_stride(to_shape(s, "dimension_stride.shape"), to_int(dim, "dimension_stride.dim"));
      },
      pyb::arg("shape"), pyb::arg("dim"),
      "Physical stride of a dimension, in elements (ValidationError for a dimension a tile covers).");
  m.def("to_physical", &to_physical, pyb::arg("x"), pyb::arg("shape"),
        "A new 1-d numpy buffer holding x in the shape's layout, padding filled with its padding value "
        "(UNKNOWN_PAD: zeros).");
  m.def("from_physical", &from_physical, pyb::arg("buffer"), pyb::arg("shape"),
        "A zero-copy numpy view of the logical array in a buffer laid out as `shape` (a copy for tiles).");
  m.def("relayout", &relayout_py, pyb::arg("buffer"), pyb::arg("src_shape"), pyb::arg("dst_shape"),
        "A new 1-d numpy buffer holding the array of `buffer` (laid out as src_shape) in dst_shape's layout.");
}

}  // namespace strided::py
