// compile / CompiledOperator.execute, and the functional entry point `_run` that the Python
// functions (sd.copy, sd.split, ..., sd.scatter) call with numpy arrays.
#include <mutex>
#include <string>
#include <unordered_map>

#include "bindings.hpp"
#include "exec/program.hpp"
#include "ops/lower.hpp"

namespace strided::py {
namespace {

using detail::Program;
using detail::View;

// ---------------------------------------------------------------- compile / execute
template <std::size_t I = 0>
AnyDesc to_any_desc_impl(pyb::handle h) {
  if constexpr (I == std::variant_size_v<AnyDesc>) {
    throw pyb::type_error("compile.desc: expected an operator description (IdentityDesc, ..., ScatterNDDesc), got " +
                          pyb::repr(h).cast<std::string>());
  } else {
    using D = std::variant_alternative_t<I, AnyDesc>;
    if (pyb::isinstance<D>(h)) return AnyDesc(h.cast<const D&>());
    return to_any_desc_impl<I + 1>(h);
  }
}
AnyDesc to_any_desc(pyb::handle h) { return to_any_desc_impl(h); }

void execute_py(const CompiledOperator& op, const pyb::sequence& inputs, const pyb::sequence& outputs) {
  const std::size_t ni = pyb::len(inputs), no = pyb::len(outputs);
  if (ni != op.input_count())
    throw BufferError("execute.inputs: expected " + std::to_string(op.input_count()) + " input buffer(s), got " +
                      std::to_string(ni));
  if (no != op.output_count())
    throw BufferError("execute.outputs: expected " + std::to_string(op.output_count()) + " output buffer(s), got " +
                      std::to_string(no));
  // Buffer views are held here, outside the GIL-free scope, so Python objects die with the GIL held.
  std::vector<pyb::buffer_info> in_info, out_info;
  std::vector<ConstBuffer> in;
  std::vector<Buffer> out;
  for (std::size_t i = 0; i < ni; ++i) {
    pyb::handle h = inputs[i];
    if (!PyObject_CheckBuffer(h.ptr()))
      throw pyb::type_error("execute.inputs[" + std::to_string(i) + "]: expected a buffer-protocol object, got " +
                            pyb::repr(h).cast<std::string>());
    in_info.push_back(pyb::reinterpret_borrow<pyb::buffer>(h).request(false));
    const auto& b = in_info.back();
    in.push_back(ConstBuffer{b.ptr, static_cast<std::size_t>(b.size * b.itemsize)});
  }
  for (std::size_t o = 0; o < no; ++o) {
    pyb::handle h = outputs[o];
    if (!PyObject_CheckBuffer(h.ptr()))
      throw pyb::type_error("execute.outputs[" + std::to_string(o) + "]: expected a writable buffer-protocol object, got " +
                            pyb::repr(h).cast<std::string>());
    try {
      out_info.push_back(pyb::reinterpret_borrow<pyb::buffer>(h).request(true));
    } catch (pyb::error_already_set&) {
      throw BufferError("execute.outputs[" + std::to_string(o) + "]: buffer is not writable");
    }
    const auto& b = out_info.back();
    out.push_back(Buffer{b.ptr, static_cast<std::size_t>(b.size * b.itemsize)});
  }
  pyb::gil_scoped_release nogil;
  op.execute(in, out);
}

// ---------------------------------------------------------------- functional path
enum Code : int { IDENTITY = 0, SPLIT, JOIN, SLICE1, GATHER, GATHER_ELEMENTS, GATHER_ND, SCATTER, SCATTER_ND };

struct Arr {
  pyb::array a;
  DataType dtype;
};

TensorDesc shape_desc(const Arr& x) {
  std::vector<std::int64_t> sizes(x.a.shape(), x.a.shape() + x.a.ndim());
  return TensorDesc(x.dtype, sizes);
}

View view_of_array(const Arr& x, bool is_output, int idx) {
  View v;
  v.where = detail::Operand{is_output, idx, 0};
  v.dtype = x.dtype;
  v.sizes.assign(x.a.shape(), x.a.shape() + x.a.ndim());
  v.strides.assign(x.a.strides(), x.a.strides() + x.a.ndim());
  return v;
}

std::pair<std::int64_t, std::int64_t> extent_of(const Arr& x) {
  std::int64_t lo = 0, hi = 0;
  for (pyb::ssize_t i = 0; i < x.a.ndim(); ++i) {
    const std::int64_t span = (x.a.shape(i) - 1) * x.a.strides(i);
    (span < 0 ? lo : hi) += span;
  }
  return {lo, hi + static_cast<std::int64_t>(itemsize(x.dtype))};
}

ScatterReduction reduction_of(std::int64_t r) {
  if (r < 0 || r > 4) throw ValidationError("reduction: unknown reduction code " + std::to_string(r));
  return static_cast<ScatterReduction>(r);
}

// Validate with packed descriptions of the same shapes (the rules are about shapes, dtypes and
// parameters), then lower with the arrays' own strides.
std::shared_ptr<Program> build(int code, const std::vector<std::int64_t>& prm, const std::vector<Arr>& ins,
                               const std::vector<Arr>& outs) {
  auto p = std::make_shared<Program>();
  std::vector<View> vi, vo;
  for (std::size_t i = 0; i < ins.size(); ++i) vi.push_back(view_of_array(ins[i], false, static_cast<int>(i)));
  for (std::size_t o = 0; o < outs.size(); ++o) vo.push_back(view_of_array(outs[o], true, static_cast<int>(o)));
  auto need = [&](std::size_t n_in, std::size_t n_out, std::size_t n_prm) {
    if ((n_in && ins.size() != n_in) || (n_out && outs.size() != n_out) || prm.size() < n_prm)
      throw ValidationError("_run: wrong operand or parameter count for operator code " + std::to_string(code));
  };
  switch (code) {
    case IDENTITY:
      need(1, 1, 0);
      validate(IdentityDesc{shape_desc(ins[0]), shape_desc(outs[0])});
      detail::lower_identity(*p, vi[0], vo[0]);
      break;
    case SPLIT: {
      need(1, 0, 1);
      std::vector<TensorDesc> od;
      for (const auto& o : outs) od.push_back(shape_desc(o));
      validate(SplitDesc{shape_desc(ins[0]), od, prm[0]});
      detail::lower_split(*p, vi[0], vo, static_cast<int>(prm[0]));
      break;
    }
    case JOIN: {
      need(0, 1, 1);
      std::vector<TensorDesc> id;
      for (const auto& i : ins) id.push_back(shape_desc(i));
      validate(JoinDesc{id, shape_desc(outs[0]), prm[0]});
      detail::lower_join(*p, vi, vo[0], static_cast<int>(prm[0]));
      break;
    }
    case SLICE1: {
      need(1, 1, 0);
      const std::size_t n = static_cast<std::size_t>(ins[0].a.ndim());
      if (prm.size() != 3 * n) throw ValidationError("slice: offsets, sizes and strides need one value per dimension");
      std::vector<std::int64_t> off(prm.begin(), prm.begin() + static_cast<long>(n)),
          sz(prm.begin() + static_cast<long>(n), prm.begin() + static_cast<long>(2 * n)),
          st(prm.begin() + static_cast<long>(2 * n), prm.end());
      validate(Slice1Desc{shape_desc(ins[0]), shape_desc(outs[0]), off, sz, st});
      detail::lower_slice1(*p, vi[0], vo[0], off, sz, st);
      break;
    }
    case GATHER:
      need(2, 1, 2);
      validate(GatherDesc{shape_desc(ins[0]), shape_desc(ins[1]), shape_desc(outs[0]), prm[0], prm[1]});
      detail::lower_gather(*p, vi[0], vi[1], vo[0], static_cast<int>(prm[0]), static_cast<int>(prm[1]));
      break;
    case GATHER_ELEMENTS:
      need(2, 1, 1);
      validate(GatherElementsDesc{shape_desc(ins[0]), shape_desc(ins[1]), shape_desc(outs[0]), prm[0]});
      detail::lower_gather_elements(*p, vi[0], vi[1], vo[0], static_cast<int>(prm[0]));
      break;
    case GATHER_ND:
      need(2, 1, 3);
      validate(GatherNDDesc{shape_desc(ins[0]), shape_desc(ins[1]), shape_desc(outs[0]), prm[0], prm[1], prm[2]});
      detail::lower_gather_nd(*p, vi[0], vi[1], vo[0], static_cast<int>(prm[0]), static_cast<int>(prm[1]),
                              static_cast<int>(prm[2]));
      break;
    case SCATTER: {
      need(3, 1, 2);
      const auto red = reduction_of(prm[1]);
      validate(ScatterDesc{shape_desc(ins[0]), shape_desc(ins[1]), shape_desc(ins[2]), shape_desc(outs[0]), prm[0], red});
      detail::lower_scatter(*p, vi[0], vi[1], vi[2], vo[0], static_cast<int>(prm[0]), red);
      break;
    }
    case SCATTER_ND: {
      need(3, 1, 3);
      const auto red = reduction_of(prm[2]);
      validate(ScatterNDDesc{shape_desc(ins[0]), shape_desc(ins[1]), shape_desc(ins[2]), shape_desc(outs[0]), prm[0],
                             prm[1], red});
      detail::lower_scatter_nd(*p, vi[0], vi[1], vi[2], vo[0], static_cast<int>(prm[0]), static_cast<int>(prm[1]),
                               red);
      break;
    }
    default:
      throw ValidationError("_run: unknown operator code " + std::to_string(code));
  }
  p->input_bytes.assign(ins.size(), 0);
  p->output_bytes.assign(outs.size(), 0);
  return p;
}

// Compiled plans keyed by (operator, parameters, dtypes, shapes, strides): a loop of same-shape
// calls plans once. Bounded: cleared when full (plans are small; a workload rarely cycles
// through more shapes than this).
class PlanCache {
 public:
  std::shared_ptr<const Program> get(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(key);
    return it == map_.end() ? nullptr : it->second;
  }
  void put(const std::string& key, std::shared_ptr<const Program> p) {
    std::lock_guard<std::mutex> lock(mu_);
    if (map_.size() >= 512) map_.clear();
    map_.emplace(key, std::move(p));
  }
  void clear() {
    std::lock_guard<std::mutex> lock(mu_);
    map_.clear();
  }
  std::size_t size() {
    std::lock_guard<std::mutex> lock(mu_);
    return map_.size();
  }

 private:
  std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<const Program>> map_;
};

PlanCache& cache() {
  static PlanCache* c = new PlanCache();  // never destroyed: safe at interpreter exit
  return *c;
}

void append(std::string& key, std::int64_t v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); }

Arr to_arr(pyb::handle h, const char* what, std::size_t i, bool writable) {
  if (!pyb::isinstance<pyb::array>(h))
    throw pyb::type_error(std::string(what) + "[" + std::to_string(i) + "]: expected a numpy array");
  auto a = pyb::reinterpret_borrow<pyb::array>(h);
  if (writable && !a.writeable())
    throw BufferError(std::string(what) + "[" + std::to_string(i) + "]: output array is read-only");
  return Arr{a, to_dtype(a.dtype())};
}

void run_functional(int code, const std::vector<std::int64_t>& prm, const pyb::sequence& inputs,
                    const pyb::sequence& outputs) {
  std::vector<Arr> ins, outs;
  std::string key;
  append(key, code);
  append(key, static_cast<std::int64_t>(prm.size()));
  for (auto v : prm) append(key, v);
  auto add = [&](const Arr& x) {
    append(key, static_cast<std::int64_t>(x.dtype));
    append(key, x.a.ndim());
    for (pyb::ssize_t d = 0; d < x.a.ndim(); ++d) {
      append(key, x.a.shape(d));
      append(key, x.a.strides(d));
    }
  };
  const std::size_t ni = pyb::len(inputs), no = pyb::len(outputs);
  append(key, static_cast<std::int64_t>(ni));
  for (std::size_t i = 0; i < ni; ++i) {
    ins.push_back(to_arr(inputs[i], "inputs", i, false));
    add(ins.back());
  }
  for (std::size_t o = 0; o < no; ++o) {
    outs.push_back(to_arr(outputs[o], "outputs", o, true));
    add(outs.back());
  }
  std::shared_ptr<const Program> prog = cache().get(key);
  if (!prog) {
    prog = build(code, prm, ins, outs);
    cache().put(key, prog);
  }
  std::vector<const std::byte*> ip(ni);
  std::vector<std::byte*> op(no);
  std::vector<std::pair<std::int64_t, std::int64_t>> ie(ni), oe(no);
  for (std::size_t i = 0; i < ni; ++i) {
    ip[i] = static_cast<const std::byte*>(ins[i].a.data());
    ie[i] = extent_of(ins[i]);
  }
  for (std::size_t o = 0; o < no; ++o) {
    op[o] = static_cast<std::byte*>(outs[o].a.mutable_data());
    oe[o] = extent_of(outs[o]);
  }
  pyb::gil_scoped_release nogil;
  detail::run_program(*prog, ip.data(), ie.data(), ni, op.data(), oe.data(), no);
}

}  // namespace

void register_exec(pyb::module_& m) {
  pyb::class_<CompiledOperator>(m, "CompiledOperator",
                                "An execution plan made by compile(); execute() is thread-safe and releases the GIL.")
      .def("execute", &execute_py, pyb::arg("inputs"), pyb::arg("outputs"),
           "Run on buffer-protocol objects: inputs in the description's order, outputs writable.")
      .def_property_readonly("input_count", &CompiledOperator::input_count)
      .def_property_readonly("output_count", &CompiledOperator::output_count)
      .def_property_readonly("input_bytes", [](const CompiledOperator& c) { return c.input_bytes(); })
      .def_property_readonly("output_bytes", [](const CompiledOperator& c) { return c.output_bytes(); })
      .def("__repr__", [](const CompiledOperator& c) {
        return "<CompiledOperator inputs=" + std::to_string(c.input_count()) +
               " outputs=" + std::to_string(c.output_count()) + ">";
      });
  m.def(
      "compile",
      [](pyb::handle desc_obj, pyb::object threads) {
        const AnyDesc desc = to_any_desc(desc_obj);
        CompileOptions o;
        if (!threads.is_none()) {
          const long t = threads.cast<long>();
          if (t < 1 || t > 1024) throw ValidationError("compile.threads: must be between 1 and 1024, got " + std::to_string(t));
          o.threads = static_cast<int>(t);
        }
        return compile(desc, o);
      },
      pyb::arg("desc"), pyb::kw_only(), pyb::arg("threads") = pyb::none(),
      "Validate a description and plan its execution.");
  m.def("_run", &run_functional, pyb::arg("code"), pyb::arg("params"), pyb::arg("inputs"), pyb::arg("outputs"));
  m.def("_plan_cache_clear", []() { cache().clear(); });
  m.def("_plan_cache_size", []() { return cache().size(); });
}

}  // namespace strided::py
