// The operator descriptions as Python classes, generated from STRIDED_FOR_EACH_OP and each
// struct's fields() (strided/ops.hpp): the bound types ARE the C++ structs (compile() finds them
// with isinstance), immutable from Python, with validate / is_valid_at / min_feature_level,
// __repr__ and __eq__. Constructors check only types and 64-bit range; every rule of SPEC.md is
// left to validate(), so an invalid description can still be built and asked why it is invalid.
#include <pybind11/native_enum.h>

#include <cctype>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "ops/op.hpp"

namespace strided::py {
namespace {
std::string repr_of(pyb::handle h) { return pyb::repr(h).cast<std::string>(); }
}  // namespace

// A Python number kept exactly (SPEC 1): a bool as INT64 0/1, an int as INT64 (UINT64 from 2^63),
// a float as FLOAT64; anything else a TypeError naming `field`.
Scalar exact_number(pyb::handle v, const char* field) {
  if (PyFloat_CheckExact(v.ptr())) return Scalar::from_double(DataType::FLOAT64, PyFloat_AS_DOUBLE(v.ptr()));
  if (PyBool_Check(v.ptr())) return Scalar::from_int(DataType::INT64, v.ptr() == Py_True ? 1 : 0);
  if (PyIndex_Check(v.ptr()) && !pyb::isinstance<pyb::array>(v)) {
    const auto i = pyb::reinterpret_steal<pyb::int_>(PyNumber_Index(v.ptr()));
    if (!i) throw pyb::error_already_set();
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
    if (overflow == 0) return Scalar::from_int(DataType::INT64, x);
    if (overflow > 0) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(i.ptr());
      if (!PyErr_Occurred()) return Scalar::from_uint(DataType::UINT64, u);
      PyErr_Clear();
    }
    throw ValidationError(std::string(field) + ": integer " + repr_of(v) + " does not fit in 64 bits");
  }
  if (PyFloat_Check(v.ptr()) || PyObject_HasAttrString(v.ptr(), "__float__")) {
    const double d = PyFloat_AsDouble(v.ptr());
    if (d == -1.0 && PyErr_Occurred()) throw pyb::error_already_set();
    return Scalar::from_double(DataType::FLOAT64, d);
  }
  throw pyb::type_error(std::string(field) + ": expected a number or a Scalar, got " + repr_of(v));
}

// A scalar field: a Scalar as given, or a number kept exactly until the description's output
// dtype is known (adopt_number).
Scalar to_scalar(pyb::handle h, const char* field) {
  if (pyb::isinstance<Scalar>(h)) return h.cast<const Scalar&>();
  return exact_number(h, field);
}

namespace {

TensorDesc to_tensor(pyb::handle h, const std::string& field) {
  if (!pyb::isinstance<TensorDesc>(h)) throw pyb::type_error(field + ": expected a TensorDesc, got " + repr_of(h));
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

// DML_DEPTH_SPACE_ORDER from a DepthSpaceOrder (or any integer 0 / 1) or a name in any case:
// "DCR" / "DEPTH_COLUMN_ROW", "CRD" / "COLUMN_ROW_DEPTH". TypeError for another type,
// ValidationError for another value, both naming `field`.
const char* const kOrderNames[2][2] = {{"DCR", "DEPTH_COLUMN_ROW"}, {"CRD", "COLUMN_ROW_DEPTH"}};
constexpr const char* kOrderExpected = "(expected 'DCR' = DEPTH_COLUMN_ROW = 0 or 'CRD' = COLUMN_ROW_DEPTH = 1)";

DepthSpaceOrder to_order(pyb::handle h, const std::string& field) {
  if (pyb::isinstance<pyb::str>(h)) {
    std::string v = h.cast<std::string>();
    for (char& ch : v) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    for (std::uint32_t o = 0; o < 2; ++o)
      if (v == kOrderNames[o][0] || v == kOrderNames[o][1]) return static_cast<DepthSpaceOrder>(o);
    throw ValidationError(field + ": unknown order " + repr_of(h) + " " + kOrderExpected);
  }
  if (is_int_like(h)) {
    const std::int64_t v = to_int(h, field.c_str());
    if (v == 0 || v == 1) return static_cast<DepthSpaceOrder>(v);
    throw ValidationError(field + ": unknown order " + std::to_string(v) + " " + kOrderExpected);
  }
  throw pyb::type_error(field + ": expected a DepthSpaceOrder, 0, 1, 'DCR' or 'CRD', got " + repr_of(h));
}

std::string order_str(DepthSpaceOrder o) {
  const auto v = static_cast<std::uint32_t>(o);
  return v < 2 ? kOrderNames[v][0] : "unknown (" + std::to_string(v) + ")";
}

// DML_PADDING_MODE from a PaddingMode (or any integer 0-4) or a name in any case, numpy.pad's
// "reflect" too. TypeError for another type, ValidationError for another value, naming `field`.
const char* const kModeNames[5] = {"CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC", "WRAP"};
constexpr const char* kModeExpected =
    "(expected 'constant', 'edge', 'reflect' (REFLECTION), 'symmetric' or 'wrap', or a PaddingMode 0-4)";

PaddingMode to_padding_mode(pyb::handle h, const std::string& field) {
  if (pyb::isinstance<pyb::str>(h)) {
    std::string v = h.cast<std::string>();
    for (char& ch : v) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    if (v == "REFLECT") return PaddingMode::REFLECTION;
    for (std::uint32_t k = 0; k < 5; ++k)
      if (v == kModeNames[k]) return static_cast<PaddingMode>(k);
    throw ValidationError(field + ": unknown mode " + repr_of(h) + " " + kModeExpected);
  }
  if (is_int_like(h)) {
    const std::int64_t v = to_int(h, field.c_str());
    if (v >= 0 && v <= 4) return static_cast<PaddingMode>(v);
    throw ValidationError(field + ": unknown mode " + std::to_string(v) + " " + kModeExpected);
  }
  throw pyb::type_error(field + ": expected a PaddingMode, 0-4 or a mode name such as 'reflect', got " + repr_of(h));
}

std::string mode_str(PaddingMode x) {
  const auto v = static_cast<std::uint32_t>(x);
  return v < 5 ? kModeNames[v] : "unknown (" + std::to_string(v) + ")";
}

pyb::object scalar_value(const Scalar& s) {
  if (!is_valid_dtype(s.dtype)) return pyb::none();
  if (is_float_dtype(s.dtype)) return pyb::float_(s.to_double());
  const std::uint64_t b = s.value_bits();
  if (!is_signed_int_dtype(s.dtype)) return pyb::int_(b);
  const unsigned shift = 64 - 8 * static_cast<unsigned>(itemsize(s.dtype));
  return pyb::int_(static_cast<std::int64_t>(b << shift) >> shift);  // sign-extended
}

std::string scalar_repr(const Scalar& s) {
  if (!is_valid_dtype(s.dtype)) return "Scalar(UNKNOWN)";
  std::string t = s.to_string();
  return "Scalar(" + t.replace(t.find(' '), 1, ", ") + ")";
}

template <class D, class = void>
struct has_alias : std::false_type {};
template <class D>
struct has_alias<D, std::void_t<decltype(D::alias)>> : std::true_type {};

// ---------------------------------------------------------------- field kinds
// Each field type of the descriptions: from Python (type checks only), to Python, and its repr.
TensorDesc from_py(pyb::handle h, const std::string& f, const TensorDesc*) { return to_tensor(h, f); }
std::vector<TensorDesc> from_py(pyb::handle h, const std::string& f, const std::vector<TensorDesc>*) {
  return to_tensor_list(h, f);
}
std::int64_t from_py(pyb::handle h, const std::string& f, const std::int64_t*) { return to_int(h, f.c_str()); }
std::vector<std::int64_t> from_py(pyb::handle h, const std::string& f, const std::vector<std::int64_t>*) {
  return to_ints(h, f.c_str());
}
ScatterReduction from_py(pyb::handle h, const std::string& f, const ScatterReduction*) { return to_reduction(h, f); }
Scalar from_py(pyb::handle h, const std::string& f, const Scalar*) { return to_scalar(h, f.c_str()); }
DepthSpaceOrder from_py(pyb::handle h, const std::string& f, const DepthSpaceOrder*) { return to_order(h, f); }
PaddingMode from_py(pyb::handle h, const std::string& f, const PaddingMode*) { return to_padding_mode(h, f); }
std::optional<TensorDesc> from_py(pyb::handle h, const std::string& f, const std::optional<TensorDesc>*) {
  if (h.is_none()) return std::nullopt;  // an absent optional tensor (DirectML's NULL)
  return to_tensor(h, f);
}

pyb::object to_py(const TensorDesc& t) { return pyb::cast(t); }
pyb::object to_py(std::int64_t v) { return pyb::int_(v); }
pyb::object to_py(const std::vector<std::int64_t>& v) { return to_tuple(v); }
pyb::object to_py(const std::vector<TensorDesc>& v) {
  pyb::tuple t(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) t[i] = pyb::cast(v[i]);
  return pyb::object(std::move(t));
}
pyb::object to_py(ScatterReduction x) { return pyb::str(reduction_str(x)); }
pyb::object to_py(const Scalar& x) { return pyb::cast(x); }
pyb::object to_py(const std::optional<TensorDesc>& t) { return t ? pyb::cast(*t) : pyb::none(); }
pyb::object to_py(DepthSpaceOrder x) {  // the IntEnum member (a C++-made unknown value as its int)
  if (static_cast<std::uint32_t>(x) < 2) return pyb::cast(x);
  return pyb::int_(static_cast<std::uint32_t>(x));
}
pyb::object to_py(PaddingMode x) {
  if (static_cast<std::uint32_t>(x) < 5) return pyb::cast(x);
  return pyb::int_(static_cast<std::uint32_t>(x));
}

// The field's kind for the generated stubs (scripts/gen_stubs.py).
const char* kind_of(const TensorDesc*) { return "tensor"; }
const char* kind_of(const std::vector<TensorDesc>*) { return "tensors"; }
const char* kind_of(const std::int64_t*) { return "int"; }
const char* kind_of(const std::vector<std::int64_t>*) { return "ints"; }
const char* kind_of(const ScatterReduction*) { return "str"; }
const char* kind_of(const Scalar*) { return "scalar"; }
const char* kind_of(const DepthSpaceOrder*) { return "order"; }
const char* kind_of(const PaddingMode*) { return "mode"; }
const char* kind_of(const std::optional<TensorDesc>*) { return "tensor?"; }

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
std::string r(const Scalar& x) { return scalar_repr(x); }
std::string r(DepthSpaceOrder x) { return "'" + order_str(x) + "'"; }
std::string r(PaddingMode x) { return "'" + mode_str(x) + "'"; }
std::string r(const std::optional<TensorDesc>& t) { return t ? t->to_string() : "None"; }

// ---------------------------------------------------------------- one class per description
template <class D>
std::string repr(const D& d) {
  std::string s = std::string(D::name) + "(";
  bool first = true;
  std::apply(
      [&](const auto&... f) {
        ((s += (first ? "" : ", ") + std::string(f.name) + "=" + r(d.*(f.member)), first = false), ...);
      },
      D::fields());
  return s + ")";
}

template <class D>
bool equal(const D& a, const D& b) {
  return std::apply([&](const auto&... f) { return ((a.*(f.member) == b.*(f.member)) && ...); }, D::fields());
}

template <class D, class T>
T read_field(pyb::handle h, const DescField<D, T>& f) {
  return from_py(h, std::string(D::name) + "." + f.name, static_cast<const T*>(nullptr));
}

template <class D, class = void>
struct has_output : std::false_type {};
template <class D>
struct has_output<D, std::void_t<decltype(std::declval<D>().output.dtype())>> : std::true_type {};

// SPEC 1: a number given for a scalar field becomes a value of the description's output dtype
// by the Cast rules (a Scalar given as such keeps its dtype, which validate() checks).
template <class D, class T>
void adopt_number(D& d, const DescField<D, T>& f, pyb::handle h) {
  if constexpr (std::is_same_v<T, Scalar> && has_output<D>::value)
    if (!pyb::isinstance<Scalar>(h)) d.*(f.member) = (d.*(f.member)).cast(d.output.dtype());
}

template <class D, class T>
T default_of(const DescField<D, T>&) {
  return T{};
}

// Field I as a Python argument: required, or defaulting to its type's zero (0, NONE).
template <class D, std::size_t I>
auto arg_for() {
  constexpr auto f = std::get<I>(D::fields());
  if constexpr (f.use == FieldUse::Required) return pyb::arg(f.name);
  else return pyb::arg_v(f.name, to_py(default_of(f)));
}

template <class D>
constexpr std::size_t keyword_only_count() {
  return std::apply([](const auto&... f) { return ((f.use == FieldUse::KeywordOnly ? 1u : 0u) + ... + 0u); },
                    D::fields());
}

template <class D, class T>
pyb::object default_py(const DescField<D, T>& f);

// A default as a text signature shows it: a Python literal (an enum member by its name, which
// the constructors accept, not its repr "<DepthSpaceOrder.DCR: 0>").
std::string default_text(const pyb::object& v) {
  if (PyLong_Check(v.ptr()) && pyb::hasattr(v, "name")) return repr_of(v.attr("name"));
  return repr_of(v);
}

// __init__(self, <fields in DirectML's order>[, *, <keyword-only fields>]): keyword-only fields
// come last in every description, so positional ones are 0..P-1.
template <class D, std::size_t... I, std::size_t... P, std::size_t... K>
void bind_init(pyb::class_<D>& c, std::index_sequence<I...>, std::index_sequence<P...>, std::index_sequence<K...>) {
  auto make = [](decltype((void)I, pyb::handle())... h) {
    constexpr auto fs = D::fields();
    D d{read_field(h, std::get<I>(fs))...};  // braces: converted in field order
    (adopt_number(d, std::get<I>(fs), h), ...);
    return d;
  };
  // A plain text signature for inspect.signature and help(): "__init__(self, input, ...)".
  std::string sig = "__init__(self";
  bool kw = false;
  std::apply(
      [&](const auto&... f) {
        ((sig += std::string(f.use == FieldUse::KeywordOnly && !std::exchange(kw, true) ? ", *" : "") + ", " + f.name +
                 (f.use == FieldUse::Required ? "" : "=" + default_text(default_py(f)))),
         ...);
      },
      D::fields());
  sig += ")\n--\n\n";
  pyb::options plain;
  plain.disable_function_signatures();
  if constexpr (sizeof...(K) == 0) c.def(pyb::init(make), arg_for<D, P>()..., sig.c_str());
  else c.def(pyb::init(make), arg_for<D, P>()..., pyb::kw_only(), arg_for<D, sizeof...(P) + K>()..., sig.c_str());
}

template <class D, class T>
const char* field_kind(const DescField<D, T>&) {
  return kind_of(static_cast<const T*>(nullptr));
}

template <class D, class T>
pyb::object default_py(const DescField<D, T>& f) {
  if constexpr (std::is_default_constructible_v<T>)
    if (f.use != FieldUse::Required) return to_py(T{});
  return pyb::none();
}

// [(field, kind, use, default or None)] for the generated stubs.
template <class D>
pyb::list field_info() {
  pyb::list out;
  std::apply(
      [&out](const auto&... f) {
        ((out.append(pyb::make_tuple(f.name, field_kind(f),
                                     f.use == FieldUse::Required   ? "required"
                                     : f.use == FieldUse::Optional ? "optional"
                                                                   : "keyword",
                                     default_py(f)))),
         ...);
      },
      D::fields());
  return out;
}

template <class D>
void bind_desc(pyb::module_& m) {
  pyb::class_<D> c(m, D::name, D::doc);
  constexpr std::size_t n = std::tuple_size_v<decltype(D::fields())>;
  constexpr std::size_t kw = keyword_only_count<D>();
  bind_init<D>(c, std::make_index_sequence<n>(), std::make_index_sequence<n - kw>(), std::make_index_sequence<kw>());
  std::apply(
      [&c](const auto&... f) {
        (c.def_property_readonly(f.name, [m = f.member](const D& d) { return to_py(d.*m); }), ...);
      },
      D::fields());
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
            return pyb::bool_(equal(a, b.cast<const D&>()));
          },
          pyb::is_operator())
      .def(
          "__ne__",
          [](const D& a, pyb::handle b) -> pyb::object {
            if (!pyb::isinstance<D>(b)) return pyb::reinterpret_borrow<pyb::object>(Py_NotImplemented);
            return pyb::bool_(!equal(a, b.cast<const D&>()));
          },
          pyb::is_operator());
  c.attr("__hash__") = pyb::none();  // equality by value; unhashable like other value structs with __eq__
  if constexpr (has_alias<D>::value) {
    m.attr(D::alias) = c;
    c.attr("_alias") = D::alias;
  }
}

}  // namespace

void register_ops(pyb::module_& m) {
  // The enum of the descriptions' `order` fields, before the classes (their defaults are members).
  pyb::native_enum<DepthSpaceOrder>(m, "DepthSpaceOrder", "enum.IntEnum",
                                    "DirectML's DML_DEPTH_SPACE_ORDER: how SpaceToDepth/DepthToSpace number "
                                    "channels (SPEC 3.8); DCR and CRD are aliases.")
      .value("DEPTH_COLUMN_ROW", DepthSpaceOrder::DEPTH_COLUMN_ROW)
      .value("COLUMN_ROW_DEPTH", DepthSpaceOrder::COLUMN_ROW_DEPTH)
      .value("DCR", DepthSpaceOrder::DEPTH_COLUMN_ROW)
      .value("CRD", DepthSpaceOrder::COLUMN_ROW_DEPTH)
      .finalize();
  m.def(
      "_to_depth_space_order", [](pyb::handle o, const std::string& field) { return to_order(o, field); },
      pyb::arg("value"), pyb::arg("field"),
      "A DepthSpaceOrder from a member, 0 / 1 or a name in any case ('dcr', 'COLUMN_ROW_DEPTH'); errors name field.");
  pyb::native_enum<PaddingMode>(m, "PaddingMode", "enum.IntEnum",
                                "DirectML's DML_PADDING_MODE: what Padding writes outside the input (SPEC 3.6).")
      .value("CONSTANT", PaddingMode::CONSTANT)
      .value("EDGE", PaddingMode::EDGE)
      .value("REFLECTION", PaddingMode::REFLECTION)
      .value("SYMMETRIC", PaddingMode::SYMMETRIC)
      .value("WRAP", PaddingMode::WRAP)
      .finalize();
  m.def(
      "_to_padding_mode", [](pyb::handle o, const std::string& field) { return to_padding_mode(o, field); },
      pyb::arg("value"), pyb::arg("field"),
      "A PaddingMode from a member, 0-4 or a name in any case (numpy.pad's 'reflect' too); errors name field.");
  pyb::dict codes, fields;
#define STRIDED_X(Name, family) \
  bind_desc<Name##Desc>(m);     \
  codes[pyb::str(Name##Desc::name)] = detail::op_code<Name##Desc>();
  STRIDED_FOR_EACH_OP(STRIDED_X)
#undef STRIDED_X
  m.attr("_op_codes") = codes;  // the functional entry points' operator codes, by description name
#define STRIDED_X(Name, family) fields[pyb::str(Name##Desc::name)] = field_info<Name##Desc>();
  STRIDED_FOR_EACH_OP(STRIDED_X)
#undef STRIDED_X
  m.attr("_desc_fields") = fields;  // [(field, kind, use, default)] per description: scripts/gen_stubs.py
}

void register_scalar(pyb::module_& m) {
  // _functional._bits' fast path for a Python int or float: Scalar(dtype, value).bits in one call
  // (1.1 -> 0.2 us per value), as the signed 64-bit parameter that _run takes.
  m.def(
      "_bits",
      [](pyb::handle value, pyb::handle dtype, const std::string& field) {
        return static_cast<std::int64_t>(exact_number(value, field.c_str()).cast(to_dtype(dtype)).value_bits());
      },
      pyb::arg("value"), pyb::arg("dtype"), pyb::arg("field"),
      "A number converted to dtype by the Cast rules, its union's bits as a signed 64-bit integer.");
  pyb::options plain;  // text signatures (inspect.signature, help())
  plain.disable_function_signatures();
  pyb::class_<Scalar>(m, "Scalar",
                      "A value of one data type: DirectML's DML_SCALAR_UNION with its DML_TENSOR_DATA_TYPE. "
                      "Scalar(dtype, value) converts a Python number to dtype by the Cast rules (SPEC 3.5: "
                      "-2 -> UINT8 254, 300.7 -> UINT8 255, 1e6 -> FLOAT16 inf).")
      .def(pyb::init([](pyb::handle dtype, pyb::handle value) {
             return exact_number(value, "Scalar.value").cast(to_dtype(dtype));
           }),
           pyb::arg("dtype"), pyb::arg("value"), "__init__(self, dtype, value)\n--\n\n")
      .def_static(
          "from_bits",
          [](pyb::handle dtype, pyb::handle bits) { return Scalar{to_dtype(dtype), to_uint(bits, "Scalar.bits")}; },
          pyb::arg("dtype"), pyb::arg("bits"),
          "from_bits(dtype, bits)\n--\n\n"
          "The Scalar whose union holds `bits` (FLOAT16: the binary16 pattern); bytes above the dtype's size are "
          "ignored.")
      .def_readonly("dtype", &Scalar::dtype)
      .def_property_readonly("value", &scalar_value, "The value as a Python float (float dtypes) or int.")
      .def_property_readonly(
          "bits", [](const Scalar& s) { return s.value_bits(); },
          "The union's bits: the value's little-endian bytes as an unsigned integer (FLOAT16: binary16).")
      .def(
          "cast", [](const Scalar& s, pyb::handle dtype) { return s.cast(to_dtype(dtype)); }, pyb::arg("dtype"),
          "cast(self, dtype)\n--\n\nThis value converted to `dtype` by the Cast rules.")
      .def("__repr__", &scalar_repr)
      .def("__eq__",
           [](const Scalar& a, pyb::handle b) { return pyb::isinstance<Scalar>(b) && a == b.cast<const Scalar&>(); })
      .def("__hash__",
           [](const Scalar& s) { return pyb::hash(pyb::make_tuple(static_cast<int>(s.dtype), s.value_bits())); });
}

}  // namespace strided::py
