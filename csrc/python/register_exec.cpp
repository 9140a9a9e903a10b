// compile / CompiledOperator.execute, and the functional entry point `_run` that the Python
// functions (sd.copy, sd.split, ..., sd.scatter) call with numpy arrays.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

#include "bindings.hpp"
#include "exec/program.hpp"
#include "ops/op.hpp"

namespace strided::py {
namespace {

using detail::Program;
using detail::View;

// ---------------------------------------------------------------- compile / execute
template <std::size_t I = 0>
AnyDesc to_any_desc_impl(pyb::handle h) {
  if constexpr (I == std::variant_size_v<AnyDesc>) {
    using First = std::variant_alternative_t<0, AnyDesc>;
    using Last = std::variant_alternative_t<I - 1, AnyDesc>;
    throw pyb::type_error(std::string("compile.desc: expected an operator description (") + First::name + ", ..., " +
                          Last::name + "), got " + pyb::repr(h).cast<std::string>());
  } else {
    using D = std::variant_alternative_t<I, AnyDesc>;
    if (pyb::isinstance<D>(h)) return AnyDesc(h.cast<const D&>());
    return to_any_desc_impl<I + 1>(h);
  }
}
AnyDesc to_any_desc(pyb::handle h) { return to_any_desc_impl(h); }

// Py_buffer views released on scope exit (with the GIL held: they are released after the
// GIL-free region ends).
struct BufferViews {
  std::vector<Py_buffer> views;
  ~BufferViews() {
    for (auto& v : views) PyBuffer_Release(&v);
  }
};

// A list of buffers; one buffer alone (bytes, a numpy array: sequences too) is a TypeError, not
// a list of its items.
pyb::sequence buffer_list(pyb::handle h, const char* field) {
  if (PyObject_CheckBuffer(h.ptr()) || PyUnicode_Check(h.ptr()) || !PySequence_Check(h.ptr()))
    throw pyb::type_error(std::string(field) + ": expected a sequence of buffer-protocol objects, got " +
                          std::string(pyb::str(pyb::type::of(h).attr("__name__"))) +
                          (PyObject_CheckBuffer(h.ptr()) ? " (put a single buffer in a list)" : ""));
  return pyb::reinterpret_borrow<pyb::sequence>(h);
}

void execute_py(const CompiledOperator& op, pyb::handle inputs_obj, pyb::handle outputs_obj) {
  const pyb::sequence inputs = buffer_list(inputs_obj, "execute.inputs");
  const pyb::sequence outputs = buffer_list(outputs_obj, "execute.outputs");
  const std::size_t ni = pyb::len(inputs), no = pyb::len(outputs);
  if (ni != op.input_count())
    throw BufferError("execute.inputs: expected " + std::to_string(op.input_count()) + " input buffer(s), got " +
                      std::to_string(ni));
  if (no != op.output_count())
    throw BufferError("execute.outputs: expected " + std::to_string(op.output_count()) + " output buffer(s), got " +
                      std::to_string(no));
  BufferViews held;
  held.views.reserve(ni + no);
  std::vector<ConstBuffer> in(ni);
  std::vector<Buffer> out(no);
  auto request = [&](pyb::handle h, bool writable, const char* what, std::size_t i) {
    if (!PyObject_CheckBuffer(h.ptr()))
      throw pyb::type_error(std::string("execute.") + what + "[" + std::to_string(i) + "]: expected a " +
                            (writable ? "writable " : "") + "buffer-protocol object, got " +
                            std::string(pyb::str(pyb::type::of(h).attr("__name__"))));
    Py_buffer view;
    // Contiguous bytes are what a description addresses; a strided numpy view is refused here.
    if (PyObject_GetBuffer(h.ptr(), &view, writable ? PyBUF_WRITABLE : PyBUF_SIMPLE) != 0) {
      PyErr_Clear();
      throw BufferError(std::string("execute.") + what + "[" + std::to_string(i) + "]: " +
                        (writable ? "buffer is not writable or not contiguous"
                                  : "buffer is not contiguous (pass a C-contiguous array or bytes)"));
    }
    held.views.push_back(view);
    return view;
  };
  std::uint64_t bytes = 0;
  for (std::size_t i = 0; i < ni; ++i) {
    const Py_buffer v = request(inputs[i], false, "inputs", i);
    in[i] = ConstBuffer{v.buf, static_cast<std::size_t>(v.len)};
  }
  for (std::size_t o = 0; o < no; ++o) {
    const Py_buffer v = request(outputs[o], true, "outputs", o);
    out[o] = Buffer{v.buf, static_cast<std::size_t>(v.len)};
    bytes += op.output_bytes()[o];
  }
  // Keep the GIL for tiny runs (releasing it costs more than the copy); release it for real work.
  if (bytes < 16 * 1024 && op.program().steps.size() <= 2) {
    op.execute(in, out);
    return;
  }
  pyb::gil_scoped_release nogil;
  op.execute(in, out);
}

// ---------------------------------------------------------------- functional path

View view_of_array(const Arr& x, bool is_output, int idx) {
  View v;
  v.where = detail::Operand{is_output, idx, 0};
  v.dtype = x.dtype;
  v.sizes.assign(x.shape, x.shape + x.ndim);
  v.strides.assign(x.strides, x.strides + x.ndim);
  return v;
}

std::pair<std::int64_t, std::int64_t> extent_of(const Arr& x) {
  std::int64_t lo = 0, hi = 0;
  for (int i = 0; i < x.ndim; ++i) {
    const std::int64_t span = (x.shape[i] - 1) * x.strides[i];
    (span < 0 ? lo : hi) += span;
  }
  return {lo, hi + static_cast<std::int64_t>(itemsize(x.dtype))};
}

// The operator's description from the arrays' shapes (validated: the rules are about shapes,
// dtypes and parameters), lowered with the arrays' own strides.
std::shared_ptr<Program> build(int code, const std::vector<std::int64_t>& prm, const std::vector<Arr>& ins,
                               const std::vector<Arr>& outs) {
  std::vector<detail::ArraySpec> si, so;
  std::vector<View> vi, vo;
  for (std::size_t i = 0; i < ins.size(); ++i) {
    si.push_back({ins[i].dtype, ins[i].ndim, ins[i].shape});
    vi.push_back(view_of_array(ins[i], false, static_cast<int>(i)));
  }
  for (std::size_t o = 0; o < outs.size(); ++o) {
    so.push_back({outs[o].dtype, outs[o].ndim, outs[o].shape});
    vo.push_back(view_of_array(outs[o], true, static_cast<int>(o)));
  }
  const detail::Call call{si.data(), si.size(), so.data(), so.size(), prm.data(), prm.size()};
  return detail::build_call(code, call, vi.data(), vo.data());
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
    if (map_.size() >= 512) {
      map_.clear();
      generation_.fetch_add(1, std::memory_order_relaxed);
    }
    map_.emplace(key, std::move(p));
  }
  void clear() {
    std::lock_guard<std::mutex> lock(mu_);
    map_.clear();
    generation_.fetch_add(1, std::memory_order_relaxed);
  }
  /// Bumped whenever entries are dropped, so per-thread shortcuts (below) notice.
  std::uint64_t generation() const { return generation_.load(std::memory_order_relaxed); }
  std::size_t size() {
    std::lock_guard<std::mutex> lock(mu_);
    return map_.size();
  }

 private:
  std::mutex mu_;
  std::atomic<std::uint64_t> generation_{0};
  std::unordered_map<std::string, std::shared_ptr<const Program>> map_;
};

PlanCache& cache() {
  static PlanCache* c = new PlanCache();  // never destroyed: safe at interpreter exit
  return *c;
}

}  // namespace

Arr to_arr(pyb::handle h, const std::string& field, bool writable) {
  Arr x;
  if (pyb::isinstance<pyb::array>(h)) {
    x.keep = pyb::reinterpret_borrow<pyb::object>(h);
  } else {
    if (writable) throw pyb::type_error(field + ": expected a numpy array, got " + std::string(pyb::str(pyb::type::of(h).attr("__name__"))));
    x.keep = pyb::module_::import("numpy").attr("asarray")(h);
  }
  auto a = pyb::reinterpret_borrow<pyb::array>(x.keep);
  if (a.dtype().kind() == 'O')
    throw pyb::type_error(field + ": object arrays are not supported (dtype " + std::string(pyb::str(a.dtype())) + ")");
  if (writable && !a.writeable()) throw BufferError(field + ": array is read-only");
  try {
    x.dtype = to_dtype(a.dtype());
  } catch (const ValidationError& e) {
    throw ValidationError(field + "." + e.what());
  }
  const auto nd = a.ndim();
  if (nd > kMaxDims)
    throw ValidationError(field + ": strided supports at most 8 dimensions, got " + std::to_string(nd));
  x.data = writable ? a.mutable_data() : const_cast<void*>(a.data());
  x.ndim = static_cast<int>(nd);  // 0 for a 0-d array: shape () (run_arrays gives it one dimension)
  for (int d = 0; d < x.ndim; ++d) {
    x.shape[d] = a.shape(d);
    x.strides[d] = a.strides(d);
  }
  return x;
}

bool is_empty(const Arr& x) {
  for (int d = 0; d < x.ndim; ++d)
    if (x.shape[d] == 0) return true;
  return false;
}

void run_arrays(int code, const std::int64_t* prm, std::size_t n_prm, const Arr* ins, std::size_t ni,
                const Arr* outs, std::size_t no) {
  // Descriptions have 1 to 8 dimensions (DirectML): a 0-d array runs as its one element, shape (1,).
  bool scalar = false;
  for (std::size_t i = 0; i < ni; ++i) scalar |= ins[i].ndim == 0;
  for (std::size_t o = 0; o < no; ++o) scalar |= outs[o].ndim == 0;
  if (scalar) {
    std::vector<Arr> i1(ins, ins + ni), o1(outs, outs + no);
    for (auto* v : {&i1, &o1})
      for (Arr& x : *v)
        if (x.ndim == 0) {
          x.ndim = 1;
          x.shape[0] = 1;
          x.strides[0] = 0;
        }
    run_arrays(code, prm, n_prm, i1.data(), ni, o1.data(), no);
    return;
  }
  // The key: code, parameters, then dtype/ndim, shape and strides of every array, as raw
  // int64s. Sized first and written with memcpy (one resize, no per-piece capacity checks).
  thread_local std::string key;  // reused: no allocation per call once warm
  std::size_t words = 3 + n_prm;
  for (std::size_t i = 0; i < ni; ++i) words += 1 + 2 * static_cast<std::size_t>(ins[i].ndim);
  for (std::size_t o = 0; o < no; ++o) words += 1 + 2 * static_cast<std::size_t>(outs[o].ndim);
  key.resize(words * sizeof(std::int64_t));
  char* w = &key[0];
  auto put = [&w](const void* p, std::size_t n) {
    if (n == 0) return;  // p may be null (no parameters): memcpy must not see it
    std::memcpy(w, p, n * sizeof(std::int64_t));
    w += n * sizeof(std::int64_t);
  };
  const std::int64_t head[2] = {code, static_cast<std::int64_t>(n_prm)};
  put(head, 2);
  put(prm, n_prm);
  const auto count = static_cast<std::int64_t>(ni);
  put(&count, 1);
  auto add = [&put](const Arr& x) {
    const std::int64_t tag = static_cast<std::int64_t>(x.dtype) << 8 | x.ndim;
    put(&tag, 1);
    put(x.shape, static_cast<std::size_t>(x.ndim));
    put(x.strides, static_cast<std::size_t>(x.ndim));
  };
  for (std::size_t i = 0; i < ni; ++i) add(ins[i]);
  for (std::size_t o = 0; o < no; ++o) add(outs[o]);
  // A loop of same-shape calls hits the thread's last plan without the lock and the hash.
  thread_local std::string last_key;
  thread_local std::shared_ptr<const Program> last_prog;
  thread_local std::uint64_t last_generation = 0;
  // A raw pointer: last_prog keeps the plan alive, and nothing below replaces it (no call
  // back into Python), so the hit path pays no reference-count traffic.
  const Program* prog = nullptr;
  const std::uint64_t generation = cache().generation();
  if (last_prog && last_generation == generation && key == last_key) {
    prog = last_prog.get();
  } else {
    std::shared_ptr<const Program> p = cache().get(key);
    if (!p) {  // first call for this key: validate and lower (vectors are fine here)
      p = build(code, std::vector<std::int64_t>(prm, prm + n_prm), std::vector<Arr>(ins, ins + ni),
                std::vector<Arr>(outs, outs + no));
      cache().put(key, p);
    }
    last_key = key;
    last_prog = std::move(p);
    last_generation = generation;
    prog = last_prog.get();
  }
  constexpr std::size_t kInline = 8;
  const std::byte* ip_s[kInline];
  std::byte* op_s[kInline];
  std::pair<std::int64_t, std::int64_t> ie_s[kInline], oe_s[kInline];
  std::vector<const std::byte*> ip_v;
  std::vector<std::byte*> op_v;
  std::vector<std::pair<std::int64_t, std::int64_t>> ie_v, oe_v;
  const std::byte** ip = ip_s;
  std::byte** op = op_s;
  auto* ie = ie_s;
  auto* oe = oe_s;
  if (ni > kInline) {
    ip_v.resize(ni);
    ie_v.resize(ni);
    ip = ip_v.data();
    ie = ie_v.data();
  }
  if (no > kInline) {
    op_v.resize(no);
    oe_v.resize(no);
    op = op_v.data();
    oe = oe_v.data();
  }
  for (std::size_t i = 0; i < ni; ++i) {
    ip[i] = static_cast<const std::byte*>(ins[i].data);
    ie[i] = extent_of(ins[i]);
  }
  std::uint64_t bytes = 0;
  for (std::size_t o = 0; o < no; ++o) {
    op[o] = static_cast<std::byte*>(outs[o].data);
    oe[o] = extent_of(outs[o]);
    std::uint64_t n = itemsize(outs[o].dtype);
    for (int d = 0; d < outs[o].ndim; ++d) n *= static_cast<std::uint64_t>(outs[o].shape[d]);
    bytes += n;
  }
  // Dropping and retaking the GIL costs about as much as copying a small tensor: keep it for
  // small calls (they finish in well under a microsecond), release it for real work.
  constexpr std::uint64_t kReleaseGilBytes = 16 * 1024;
  if (detail::is_index_code(code))  // index operators: the work also scales with indices and updates
    for (std::size_t i = 0; i < ni; ++i) {
      std::uint64_t n = itemsize(ins[i].dtype);
      for (int d = 0; d < ins[i].ndim; ++d) n *= static_cast<std::uint64_t>(ins[i].shape[d]);
      bytes += n;
    }
  if (bytes < kReleaseGilBytes) {
    detail::run_program(*prog, ip, ie, ni, op, oe, no);
    return;
  }
  pyb::gil_scoped_release nogil;
  detail::run_program(*prog, ip, ie, ni, op, oe, no);
}

namespace {

void run_functional(int code, const std::vector<std::int64_t>& prm, const pyb::sequence& inputs,
                    const pyb::sequence& outputs) {
  std::vector<Arr> ins, outs;
  for (std::size_t i = 0; i < pyb::len(inputs); ++i)
    ins.push_back(to_arr(inputs[i], "inputs[" + std::to_string(i) + "]", false));
  for (std::size_t o = 0; o < pyb::len(outputs); ++o)
    outs.push_back(to_arr(outputs[o], "outputs[" + std::to_string(o) + "]", true));
  run_arrays(code, prm, ins, outs);
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
        if (!threads.is_none()) o.threads = to_threads(threads, "compile.threads");
        return compile(desc, o);
      },
      pyb::arg("desc"), pyb::kw_only(), pyb::arg("threads") = pyb::none(),
      "Validate a description and plan its execution.");
  m.def("_run", &run_functional, pyb::arg("code"), pyb::arg("params"), pyb::arg("inputs"), pyb::arg("outputs"));
  m.def("_plan_cache_clear", []() { cache().clear(); });
  m.def("_plan_cache_size", []() { return cache().size(); });
}

}  // namespace strided::py
