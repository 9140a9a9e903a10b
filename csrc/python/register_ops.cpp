// The ten operator descriptions as Python classes: the bound types ARE the C++ structs (compile()
// finds them with isinstance), immutable from Python, with validate / is_valid_at /
// min_feature_level, __repr__ and __eq__. Constructors check only types and 64-bit range; every
// rule of SPEC.md is left to validate(), so an invalid description can still be built and asked
// why it is invalid.
#include <cctype>
#include <string>
#include <tuple>
#include <vector>

#include "bindings.hpp"

namespace strided::py {
namespace {

std::string repr_of(pyb::handle h) { return pyb::repr(h).cast<std::string>(); }

TensorDesc to_tensor(pyb::handle h, const std::string& field) {
  if (!pyb::isinstance<TensorDesc>(h))
    throw pyb::type_error(field + ": expected a TensorDesc, got " + repr_of(h));
  return h.cast<const TensorDesc&>();
}

std::vector<TensorDesc> to_tensor_list(pyb::handle h, const std::string& field) {
  if (pyb::isinstance<TensorDesc>(h) || pyb::isinstance<pyb::str>(h) || !pyb::isinstance<pyb::sequence>(h))
    throw pyb::type_error(field + ": expected a sequence of TensorDesc, got " + repr_of(h));
  std::vector<TensorDesc> v;
  std::size_t i = 0;
  for (auto item : pyb::reinterpret_borrow<pyb::sequence>(h)) {
    v.push_back(to_tensor(item, field + "[" + std::to_string(i) + "]"));
    ++i;
  }
  return v;
}

const char* const kReductionNames[] = {"none", "add", "mul", "min", "max"};

ScatterReduction to_reduction(pyb::handle h, const std::string& field) {
  if (!pyb::isinstance<pyb::str>(h))
    throw pyb::type_error(field + ": expected 'none', 'add', 'mul', 'min' or 'max', got " + repr_of(h));
  std::string s = h.cast<std::string>();
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (std::uint32_t r = 0; r < 5; ++r)
    if (s == kReductionNames[r]) return static_cast<ScatterReduction>(r);
  throw ValidationError(field + ": expected 'none', 'add', 'mul', 'min' or 'max', got " + repr_of(h));
}

std::string reduction_str(ScatterReduction r) {
  const auto v = static_cast<std::uint32_t>(r);
  return v < 5 ? kReductionNames[v] : "unknown";
}

// ---------------------------------------------------------------- repr helpers
std::string r(const TensorDesc& t) { return t.to_string(); }
std::string r(std::int64_t v) { return std::to_string(v); }
std::string r(const std::vector<std::int64_t>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}
std::string r(const std::vector<TensorDesc>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i].to_string();
  return s + "]";
}
std::string r(ScatterReduction x) { return "'" + reduction_str(x) + "'"; }

template <class... Pairs>
std::string repr_fields(const char* name, const Pairs&... p) {
  std::string s = std::string(name) + "(";
  bool first = true;
  ((s += (first ? "" : ", ") + std::string(p.first) + "=" + r(p.second), first = false), ...);
  return s + ")";
}
template <class T>
std::pair<const char*, const T&> f(const char* n, const T& v) {
  return {n, v};
}

// Field tuples: one place that lists each struct's fields, for __eq__ and __repr__.
auto fields(const IdentityDesc& d) { return std::tie(d.input, d.output); }
auto fields(const SplitDesc& d) { return std::tie(d.input, d.outputs, d.axis); }
auto fields(const JoinDesc& d) { return std::tie(d.inputs, d.output, d.axis); }
auto fields(const SliceDesc& d) { return std::tie(d.input, d.output, d.offsets, d.sizes, d.strides); }
auto fields(const Slice1Desc& d) { return std::tie(d.input, d.output, d.offsets, d.sizes, d.strides); }
auto fields(const GatherDesc& d) { return std::tie(d.input, d.indices, d.output, d.axis, d.index_dimensions); }
auto fields(const GatherElementsDesc& d) { return std::tie(d.input, d.indices, d.output, d.axis); }
auto fields(const GatherNDDesc& d) {
  return std::tie(d.input, d.indices, d.output, d.input_dimension_count, d.indices_dimension_count,
                  d.batch_dimension_count);
}
auto fields(const ScatterDesc& d) { return std::tie(d.input, d.indices, d.updates, d.output, d.axis, d.reduction); }
auto fields(const ScatterNDDesc& d) {
  return std::tie(d.input, d.indices, d.updates, d.output, d.input_dimension_count, d.indices_dimension_count,
                  d.reduction);
}

std::string repr(const IdentityDesc& d) { return repr_fields("IdentityDesc", f("input", d.input), f("output", d.output)); }
std::string repr(const SplitDesc& d) {
  return repr_fields("SplitDesc", f("input", d.input), f("outputs", d.outputs), f("axis", d.axis));
}
std::string repr(const JoinDesc& d) {
  return repr_fields("JoinDesc", f("inputs", d.inputs), f("output", d.output), f("axis", d.axis));
}
template <class D>
std::string repr_slice(const char* name, const D& d) {
  return repr_fields(name, f("input", d.input), f("output", d.output), f("offsets", d.offsets), f("sizes", d.sizes),
                     f("strides", d.strides));
}
std::string repr(const SliceDesc& d) { return repr_slice("SliceDesc", d); }
std::string repr(const Slice1Desc& d) { return repr_slice("Slice1Desc", d); }
std::string repr(const GatherDesc& d) {
  return repr_fields("GatherDesc", f("input", d.input), f("indices", d.indices), f("output", d.output),
                     f("axis", d.axis), f("index_dimensions", d.index_dimensions));
}
std::string repr(const GatherElementsDesc& d) {
  return repr_fields("GatherElementsDesc", f("input", d.input), f("indices", d.indices), f("output", d.output),
                     f("axis", d.axis));
}
std::string repr(const GatherNDDesc& d) {
  return repr_fields("GatherNDDesc", f("input", d.input), f("indices", d.indices), f("output", d.output),
                     f("input_dimension_count", d.input_dimension_count),
                     f("indices_dimension_count", d.indices_dimension_count),
                     f("batch_dimension_count", d.batch_dimension_count));
}
std::string repr(const ScatterDesc& d) {
  return repr_fields("ScatterDesc", f("input", d.input), f("indices", d.indices), f("updates", d.updates),
                     f("output", d.output), f("axis", d.axis), f("reduction", d.reduction));
}
std::string repr(const ScatterNDDesc& d) {
  return repr_fields("ScatterNDDesc", f("input", d.input), f("indices", d.indices), f("updates", d.updates),
                     f("output", d.output), f("input_dimension_count", d.input_dimension_count),
                     f("indices_dimension_count", d.indices_dimension_count), f("reduction", d.reduction));
}

pyb::tuple tensor_tuple(const std::vector<TensorDesc>& v) {
  pyb::tuple t(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) t[i] = pyb::cast(v[i]);
  return t;
}

// validate / is_valid_at / min_feature_level / __eq__ / __repr__, shared by all ten classes.
template <class D>
pyb::class_<D> common(pyb::module_& m, const char* name, const char* doc) {
  pyb::class_<D> c(m, name, doc);
  c.def(
       "validate",
       [](const D& d, pyb::handle level) {
         const auto l = to_level(level);
         validate(AnyDesc(d), l);
       },
       pyb::arg("feature_level") = pyb::none(),
       "Raise ValidationError (naming the field and the rule) unless the description is valid at "
       "`feature_level` (None: what strided executes, the newest level plus strided's extensions).")
      .def(
          "is_valid_at",
          [](const D& d, pyb::handle level) {
            const auto l = to_level(level);
            try {
              validate(AnyDesc(d), l);
              return true;
            } catch (const ValidationError&) {
              return false;
            }
          },
          pyb::arg("feature_level"), "validate() as a bool.")
      .def_property_readonly(
          "min_feature_level", [](const D& d) { return min_feature_level(AnyDesc(d)); },
          "The lowest DirectML feature level that accepts this description (ValidationError if none).")
      .def("__repr__", [](const D& d) { return repr(d); })
      .def(
          "__eq__",
          [](const D& a, pyb::handle b) -> pyb::object {
            if (!pyb::isinstance<D>(b)) return pyb::reinterpret_borrow<pyb::object>(Py_NotImplemented);
            return pyb::bool_(fields(a) == fields(b.cast<const D&>()));
          },
          pyb::is_operator())
      .def(
          "__ne__",
          [](const D& a, pyb::handle b) -> pyb::object {
            if (!pyb::isinstance<D>(b)) return pyb::reinterpret_borrow<pyb::object>(Py_NotImplemented);
            return pyb::bool_(!(fields(a) == fields(b.cast<const D&>())));
          },
          pyb::is_operator());
  c.attr("__hash__") = pyb::none();  // equality by value; unhashable like other value structs with __eq__
  return c;
}

template <class D>
void tensor_prop(pyb::class_<D>& c, const char* name, TensorDesc D::*member) {
  c.def_property_readonly(name, [member](const D& d) { return d.*member; });
}
template <class D>
void int_prop(pyb::class_<D>& c, const char* name, std::int64_t D::*member) {
  c.def_property_readonly(name, [member](const D& d) { return d.*member; });
}
template <class D>
void ints_prop(pyb::class_<D>& c, const char* name, std::vector<std::int64_t> D::*member) {
  c.def_property_readonly(name, [member](const D& d) { return to_tuple(d.*member); });
}

// SliceDesc and Slice1Desc have the same fields (DirectML's order); only the rules differ.
template <class D>
void bind_slice(pyb::module_& m, const char* name, const char* doc) {
  const std::string n = name;
  auto c = common<D>(m, name, doc);
  c.def(pyb::init([n](pyb::handle input, pyb::handle output, pyb::handle offsets, pyb::handle sizes,
                      pyb::handle strides) {
          return D{to_tensor(input, n + ".input"), to_tensor(output, n + ".output"),
                   to_ints(offsets, (n + ".offsets").c_str()), to_ints(sizes, (n + ".sizes").c_str()),
                   to_ints(strides, (n + ".strides").c_str())};
        }),
        pyb::arg("input"), pyb::arg("output"), pyb::arg("offsets"), pyb::arg("sizes"), pyb::arg("strides"));
  tensor_prop(c, "input", &D::input);
  tensor_prop(c, "output", &D::output);
  ints_prop(c, "offsets", &D::offsets);
  ints_prop(c, "sizes", &D::sizes);
  ints_prop(c, "strides", &D::strides);
}

}  // namespace

void register_ops(pyb::module_& m) {
  using pyb::arg;
  {
    auto c = common<IdentityDesc>(m, "IdentityDesc", "DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC: out[c] = in[c].");
    c.def(pyb::init([](pyb::handle input, pyb::handle output) {
            return IdentityDesc{to_tensor(input, "IdentityDesc.input"), to_tensor(output, "IdentityDesc.output")};
          }),
          arg("input"), arg("output"));
    tensor_prop(c, "input", &IdentityDesc::input);
    tensor_prop(c, "output", &IdentityDesc::output);
  }
  {
    auto c = common<SplitDesc>(m, "SplitDesc", "DML_SPLIT_OPERATOR_DESC: output k gets the input's range along axis.");
    c.def(pyb::init([](pyb::handle input, pyb::handle outputs, pyb::handle axis) {
            return SplitDesc{to_tensor(input, "SplitDesc.input"), to_tensor_list(outputs, "SplitDesc.outputs"),
                             to_int(axis, "SplitDesc.axis")};
          }),
          arg("input"), arg("outputs"), arg("axis"));
    tensor_prop(c, "input", &SplitDesc::input);
    c.def_property_readonly("outputs", [](const SplitDesc& d) { return tensor_tuple(d.outputs); });
    int_prop(c, "axis", &SplitDesc::axis);
  }
  {
    auto c = common<JoinDesc>(m, "JoinDesc", "DML_JOIN_OPERATOR_DESC: the inputs concatenated along axis.");
    c.def(pyb::init([](pyb::handle inputs, pyb::handle output, pyb::handle axis) {
            return JoinDesc{to_tensor_list(inputs, "JoinDesc.inputs"), to_tensor(output, "JoinDesc.output"),
                            to_int(axis, "JoinDesc.axis")};
          }),
          arg("inputs"), arg("output"), arg("axis"));
    c.def_property_readonly("inputs", [](const JoinDesc& d) { return tensor_tuple(d.inputs); });
    tensor_prop(c, "output", &JoinDesc::output);
    int_prop(c, "axis", &JoinDesc::axis);
  }
  bind_slice<SliceDesc>(m, "SliceDesc",
                        "DML_SLICE_OPERATOR_DESC: out[c] = in[offsets + strides*c]; sizes are the output's.");
  bind_slice<Slice1Desc>(m, "Slice1Desc",
                         "DML_SLICE1_OPERATOR_DESC: a window (offsets, sizes) read with signed, non-zero strides.");
  {
    auto c = common<GatherDesc>(m, "GatherDesc", "DML_GATHER_OPERATOR_DESC (numpy take / ONNX Gather).");
    c.def(pyb::init([](pyb::handle input, pyb::handle indices, pyb::handle output, pyb::handle axis,
                       pyb::handle index_dimensions) {
            return GatherDesc{to_tensor(input, "GatherDesc.input"), to_tensor(indices, "GatherDesc.indices"),
                              to_tensor(output, "GatherDesc.output"), to_int(axis, "GatherDesc.axis"),
                              to_int(index_dimensions, "GatherDesc.index_dimensions")};
          }),
          arg("input"), arg("indices"), arg("output"), arg("axis"), arg("index_dimensions"));
    tensor_prop(c, "input", &GatherDesc::input);
    tensor_prop(c, "indices", &GatherDesc::indices);
    tensor_prop(c, "output", &GatherDesc::output);
    int_prop(c, "axis", &GatherDesc::axis);
    int_prop(c, "index_dimensions", &GatherDesc::index_dimensions);
  }
  {
    auto c = common<GatherElementsDesc>(m, "GatherElementsDesc",
                                        "DML_GATHER_ELEMENTS_OPERATOR_DESC (ONNX GatherElements). indices smaller "
                                        "than input off the axis execute (as ONNX; they do not broadcast) but are "
                                        "valid at no DirectML feature level.");
    c.def(pyb::init([](pyb::handle input, pyb::handle indices, pyb::handle output, pyb::handle axis) {
            return GatherElementsDesc{to_tensor(input, "GatherElementsDesc.input"),
                                      to_tensor(indices, "GatherElementsDesc.indices"),
                                      to_tensor(output, "GatherElementsDesc.output"),
                                      to_int(axis, "GatherElementsDesc.axis")};
          }),
          arg("input"), arg("indices"), arg("output"), arg("axis"));
    tensor_prop(c, "input", &GatherElementsDesc::input);
    tensor_prop(c, "indices", &GatherElementsDesc::indices);
    tensor_prop(c, "output", &GatherElementsDesc::output);
    int_prop(c, "axis", &GatherElementsDesc::axis);
  }
  {
    auto c = common<GatherNDDesc>(
        m, "GatherNDDesc", "DML_GATHER_ND_OPERATOR_DESC (batch_dimension_count 0) / DML_GATHER_ND1_OPERATOR_DESC.");
    c.def(pyb::init([](pyb::handle input, pyb::handle indices, pyb::handle output, pyb::handle idc,
                       pyb::handle iic, pyb::handle bdc) {
            return GatherNDDesc{to_tensor(input, "GatherNDDesc.input"), to_tensor(indices, "GatherNDDesc.indices"),
                                to_tensor(output, "GatherNDDesc.output"),
                                to_int(idc, "GatherNDDesc.input_dimension_count"),
                                to_int(iic, "GatherNDDesc.indices_dimension_count"),
                                to_int(bdc, "GatherNDDesc.batch_dimension_count")};
          }),
          arg("input"), arg("indices"), arg("output"), arg("input_dimension_count"), arg("indices_dimension_count"),
          arg("batch_dimension_count") = 0);
    tensor_prop(c, "input", &GatherNDDesc::input);
    tensor_prop(c, "indices", &GatherNDDesc::indices);
    tensor_prop(c, "output", &GatherNDDesc::output);
    int_prop(c, "input_dimension_count", &GatherNDDesc::input_dimension_count);
    int_prop(c, "indices_dimension_count", &GatherNDDesc::indices_dimension_count);
    int_prop(c, "batch_dimension_count", &GatherNDDesc::batch_dimension_count);
  }
  {
    auto c = common<ScatterDesc>(m, "ScatterDesc",
                                 "DML_SCATTER_OPERATOR_DESC (= SCATTER_ELEMENTS). reduction other than 'none', and "
                                 "indices smaller than input off the axis, are strided extensions (ONNX "
                                 "ScatterElements), valid at no DirectML feature level.");
    c.def(pyb::init([](pyb::handle input, pyb::handle indices, pyb::handle updates, pyb::handle output,
                       pyb::handle axis, pyb::handle reduction) {
            return ScatterDesc{to_tensor(input, "ScatterDesc.input"),      to_tensor(indices, "ScatterDesc.indices"),
                               to_tensor(updates, "ScatterDesc.updates"),  to_tensor(output, "ScatterDesc.output"),
                               to_int(axis, "ScatterDesc.axis"), to_reduction(reduction, "ScatterDesc.reduction")};
          }),
          arg("input"), arg("indices"), arg("updates"), arg("output"), arg("axis"), pyb::kw_only(),
          arg("reduction") = "none");
    tensor_prop(c, "input", &ScatterDesc::input);
    tensor_prop(c, "indices", &ScatterDesc::indices);
    tensor_prop(c, "updates", &ScatterDesc::updates);
    tensor_prop(c, "output", &ScatterDesc::output);
    int_prop(c, "axis", &ScatterDesc::axis);
    c.def_property_readonly("reduction", [](const ScatterDesc& d) { return reduction_str(d.reduction); });
    m.attr("ScatterElementsDesc") = c;
  }
  {
    auto c = common<ScatterNDDesc>(m, "ScatterNDDesc",
                                   "DML_SCATTER_ND_OPERATOR_DESC (ONNX ScatterND). reduction other than 'none' is a "
                                   "strided extension, valid at no DirectML feature level.");
    c.def(pyb::init([](pyb::handle input, pyb::handle indices, pyb::handle updates, pyb::handle output,
                       pyb::handle idc, pyb::handle iic, pyb::handle reduction) {
            return ScatterNDDesc{to_tensor(input, "ScatterNDDesc.input"),
                                 to_tensor(indices, "ScatterNDDesc.indices"),
                                 to_tensor(updates, "ScatterNDDesc.updates"),
                                 to_tensor(output, "ScatterNDDesc.output"),
                                 to_int(idc, "ScatterNDDesc.input_dimension_count"),
                                 to_int(iic, "ScatterNDDesc.indices_dimension_count"),
                                 to_reduction(reduction, "ScatterNDDesc.reduction")};
          }),
          arg("input"), arg("indices"), arg("updates"), arg("output"), arg("input_dimension_count"),
          arg("indices_dimension_count"), pyb::kw_only(), arg("reduction") = "none");
    tensor_prop(c, "input", &ScatterNDDesc::input);
    tensor_prop(c, "indices", &ScatterNDDesc::indices);
    tensor_prop(c, "updates", &ScatterNDDesc::updates);
    tensor_prop(c, "output", &ScatterNDDesc::output);
    int_prop(c, "input_dimension_count", &ScatterNDDesc::input_dimension_count);
    int_prop(c, "indices_dimension_count", &ScatterNDDesc::indices_dimension_count);
    c.def_property_readonly("reduction", [](const ScatterNDDesc& d) { return reduction_str(d.reduction); });
  }
}

}  // namespace strided::py
