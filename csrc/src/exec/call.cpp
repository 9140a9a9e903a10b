// The functional path's cache and runner (exec/call.hpp).
#include "exec/call.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "ops/op.hpp"

namespace strided::detail {
namespace {

View view_of_array(const CallArray& x, bool is_output, int idx) {
  View v;
  v.where = Operand{is_output, idx, 0};
  v.dtype = x.dtype;
  v.sizes.assign(x.shape, x.shape + x.ndim);
  v.strides.assign(x.strides, x.strides + x.ndim);
  return v;
}

std::pair<std::int64_t, std::int64_t> extent_of(const CallArray& x) {
  std::int64_t lo = 0, hi = 0;
  for (int i = 0; i < x.ndim; ++i) {
    const std::int64_t span = (x.shape[i] - 1) * x.strides[i];
    (span < 0 ? lo : hi) += span;
  }
  return {lo, hi + static_cast<std::int64_t>(itemsize(x.dtype))};
}

std::uint64_t bytes_of(const CallArray& x) {
  std::uint64_t n = itemsize(x.dtype);
  for (int d = 0; d < x.ndim; ++d) n *= static_cast<std::uint64_t>(x.shape[d]);
  return n;
}

// The operator's description from the arrays' shapes (validated: the rules are about shapes,
// dtypes and parameters), lowered with the arrays' own strides.
std::shared_ptr<const Program> build(int code, const std::int64_t* prm, std::size_t n_prm, const CallArray* ins,
                                     std::size_t n_in, const CallArray* outs, std::size_t n_out) {
  std::vector<ArraySpec> si, so;
  std::vector<View> vi, vo;
  for (std::size_t i = 0; i < n_in; ++i) {
    si.push_back({ins[i].dtype, ins[i].ndim, ins[i].shape});
    vi.push_back(view_of_array(ins[i], false, static_cast<int>(i)));
  }
  for (std::size_t o = 0; o < n_out; ++o) {
    so.push_back({outs[o].dtype, outs[o].ndim, outs[o].shape});
    vo.push_back(view_of_array(outs[o], true, static_cast<int>(o)));
  }
  const Call c{si.data(), si.size(), so.data(), so.size(), prm, n_prm};
  return build_call(code, c, vi.data(), vo.data());
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
  static PlanCache* c = new PlanCache();  // never destroyed: safe at process exit
  return *c;
}

// Releases `unlock` for its lifetime (exception-safe).
class Unlocked {
 public:
  explicit Unlocked(const RunUnlock* u) : u_(u), state_(u && u->release ? u->release() : nullptr) {}
  ~Unlocked() {
    if (u_ && u_->reacquire) u_->reacquire(state_);
  }
  Unlocked(const Unlocked&) = delete;
  Unlocked& operator=(const Unlocked&) = delete;

 private:
  const RunUnlock* u_;
  void* state_;
};

}  // namespace

void call(int code, const std::int64_t* prm, std::size_t n_prm, const CallArray* ins, std::size_t ni,
          const CallArray* outs, std::size_t no, const RunUnlock* unlock) {
  // Descriptions have 1 to 8 dimensions (DirectML): a 0-d array runs as its one element, shape (1,).
  bool scalar = false;
  for (std::size_t i = 0; i < ni; ++i) scalar |= ins[i].ndim == 0;
  for (std::size_t o = 0; o < no; ++o) scalar |= outs[o].ndim == 0;
  if (scalar) {
    std::vector<CallArray> i1(ins, ins + ni), o1(outs, outs + no);
    for (auto* v : {&i1, &o1})
      for (CallArray& x : *v)
        if (x.ndim == 0) {
          x.ndim = 1;
          x.shape[0] = 1;
          x.strides[0] = 0;
        }
    call(code, prm, n_prm, i1.data(), ni, o1.data(), no, unlock);
    return;
  }
  // The key: code, parameters, then dtype/ndim, shape and strides of every array, as raw
  // int64s. Sized first and written with memcpy (one resize, no per-piece capacity checks).
  // This thread's key buffer and last plan, in one thread_local (one TLS lookup per call).
  struct Last {
    std::string key;  // reused: no allocation per call once warm
    std::string last_key;
    std::shared_ptr<const Program> prog;
    std::uint64_t generation = 0;
  };
  thread_local Last tl;
  std::string& key = tl.key;
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
  auto add = [&put](const CallArray& x) {
    const std::int64_t tag = static_cast<std::int64_t>(x.dtype) << 8 | x.ndim;
    put(&tag, 1);
    put(x.shape, static_cast<std::size_t>(x.ndim));
    put(x.strides, static_cast<std::size_t>(x.ndim));
  };
  // The run's pointers and extents are taken in the same pass as the key (a join of 10,000
  // arrays: one pass over 1.5 MB of records instead of two).
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
  std::uint64_t bytes = 0;
  const bool index_family = is_index_code(code);  // the work also scales with indices and updates
  for (std::size_t i = 0; i < ni; ++i) {
    add(ins[i]);
    ip[i] = static_cast<const std::byte*>(ins[i].data);
    ie[i] = extent_of(ins[i]);
    if (index_family) bytes += bytes_of(ins[i]);
  }
  for (std::size_t o = 0; o < no; ++o) {
    add(outs[o]);
    op[o] = static_cast<std::byte*>(outs[o].data);
    oe[o] = extent_of(outs[o]);
    bytes += bytes_of(outs[o]);
  }
  // A loop of same-shape calls hits the thread's last plan without the lock and the hash.
  // A raw pointer: tl.prog keeps the plan alive, and nothing below replaces it (no call
  // back into the caller), so the hit path pays no reference-count traffic.
  const Program* prog = nullptr;
  const std::uint64_t generation = cache().generation();
  if (tl.prog && tl.generation == generation && key == tl.last_key) {
    prog = tl.prog.get();
  } else {
    std::shared_ptr<const Program> p = cache().get(key);
    if (!p) {  // first call for this key: validate and lower
      p = build(code, prm, n_prm, ins, ni, outs, no);
      cache().put(key, p);
    }
    tl.last_key = key;
    tl.prog = std::move(p);
    tl.generation = generation;
    prog = tl.prog.get();
  }
  // Dropping and retaking a lock such as the GIL costs about as much as copying a small tensor:
  // keep it for small calls (they finish in well under a microsecond), release it for real work.
  constexpr std::uint64_t kUnlockBytes = 16 * 1024;
  if (bytes < kUnlockBytes || !unlock) {
    run_program(*prog, ip, ie, ni, op, oe, no);
    return;
  }
  Unlocked unlocked(unlock);
  run_program(*prog, ip, ie, ni, op, oe, no);
}

bool is_empty(const CallArray& a) {
  for (int d = 0; d < a.ndim; ++d)
    if (a.shape[d] == 0) return true;
  return false;
}

namespace {
template <class V>
CallArray to_call_array(const V& v, const char* field) {
  CallArray a;
  const std::string f = field;
  if (!is_valid_dtype(v.dtype)) throw ValidationError(f + ".dtype: not a DirectML data type");
  if (v.sizes.size() > static_cast<std::size_t>(kMaxDims))
    throw ValidationError(f + ": strided supports at most 8 dimensions, got " + std::to_string(v.sizes.size()));
  if (v.strides.size() != v.sizes.size())
    throw ValidationError(f + ".strides: must have one value per dimension (" + std::to_string(v.sizes.size()) +
                          "), got " + std::to_string(v.strides.size()));
  a.dtype = v.dtype;
  a.data = const_cast<void*>(static_cast<const void*>(v.data));
  a.ndim = static_cast<int>(v.sizes.size());
  for (int d = 0; d < a.ndim; ++d) {
    const auto u = static_cast<std::size_t>(d);
    if (v.sizes[u] < 0)
      throw ValidationError(f + ".sizes[" + std::to_string(d) + "]: must not be negative, got " +
                            std::to_string(v.sizes[u]));
    a.shape[d] = v.sizes[u];
    a.strides[d] = v.strides[u];
  }
  if (!a.data && !is_empty(a)) throw BufferError(f + ": data is null");
  return a;
}
}  // namespace

CallArray call_array(const ConstArrayView& v, const char* field) { return to_call_array(v, field); }
CallArray call_array(const ArrayView& v, const char* field) { return to_call_array(v, field); }

std::string shape_str(const std::int64_t* s, int n) {
  std::string r = "(";
  for (int i = 0; i < n; ++i) r += std::to_string(s[i]) + (n == 1 ? "," : (i + 1 < n ? ", " : ""));
  return r + ")";
}

CallArray broadcast_to(const CallArray& s, const CallArray& o) {
  const int on = o.ndim;
  int lead = 0;
  while (s.ndim - lead > on && s.shape[lead] == 1) ++lead;
  const int sn = s.ndim - lead;
  auto no_broadcast = [&]() {
    return ValidationError("src: shape " + shape_str(s.shape, s.ndim) + " does not broadcast to out shape " +
                           shape_str(o.shape, o.ndim));
  };
  if (sn > on) throw no_broadcast();
  CallArray b = s;
  b.ndim = on;
  for (int d = 0; d < on; ++d) {
    const int sd = d - (on - sn);
    const std::int64_t n = o.shape[d];
    b.shape[d] = n;
    if (sd < 0 || s.shape[lead + sd] == 1) b.strides[d] = 0;
    else if (s.shape[lead + sd] == n) b.strides[d] = s.strides[lead + sd];
    else throw no_broadcast();
  }
  return b;
}

void expect_shape(const CallArray& a, const std::vector<std::int64_t>& shape, const char* field) {
  if (static_cast<std::size_t>(a.ndim) != shape.size() || !std::equal(shape.begin(), shape.end(), a.shape))
    throw ValidationError(std::string(field) + ": expected shape " +
                          shape_str(shape.data(), static_cast<int>(shape.size())) + ", got " +
                          shape_str(a.shape, a.ndim));
}

std::vector<CallArray> parts_along_axis(const CallArray& whole, const char* whole_name,
                                        const std::vector<ConstArrayView>& views, const char* field,
                                        std::int64_t axis) {
  std::vector<CallArray> live;
  std::int64_t total = 0;
  for (std::size_t k = 0; k < views.size(); ++k) {
    const std::string f = std::string(field) + "[" + std::to_string(k) + "]";
    const CallArray x = call_array(views[k], f.c_str());
    std::vector<std::int64_t> want(whole.shape, whole.shape + whole.ndim);
    if (x.ndim == whole.ndim) want[static_cast<std::size_t>(axis)] = x.shape[axis];
    expect_shape(x, want, f.c_str());
    total += x.shape[axis];
    if (!is_empty(x)) live.push_back(x);
  }
  if (views.empty() || total != whole.shape[axis])
    throw ValidationError(std::string(field) + ": sizes along axis " + std::to_string(axis) + " sum to " +
                          std::to_string(total) + ", not to " + whole_name + "'s " + std::to_string(whole.shape[axis]));
  return live;
}

void index_call(int code, std::int64_t p, ScatterReduction reduction, const CallArray* ins, std::size_t n_in,
                const CallArray& out) {
  const std::int64_t prm[2] = {p, static_cast<std::int64_t>(reduction)};
  ArraySpec specs[3];
  for (std::size_t i = 0; i < n_in && i < 3; ++i) specs[i] = {ins[i].dtype, ins[i].ndim, ins[i].shape};
  const CallShapes shapes = call_shapes(code, Call{specs, n_in, nullptr, 0, prm, 2});
  expect_shape(out, shapes.out, "out");
  if (n_in > 2) expect_shape(ins[2], shapes.updates, "updates");
  bool empty = is_empty(out);
  for (std::size_t i = 0; i < n_in; ++i) empty |= is_empty(ins[i]);
  if (!empty) return call(code, prm, 2, ins, n_in, &out, 1);
  // A gather whose result is not empty but x is: the indexed axis is empty, so is every index.
  if (n_in == 2 && !is_empty(out) && is_empty(ins[0]))
    throw IndexError("indices: every index is out of range for an empty axis of x");
  if (n_in > 2 && !is_empty(out) && out.data != ins[0].data) {  // a scatter of no indices: out = x
    const std::int64_t none = 0;
    call(op_code<IdentityDesc>(), &none, 0, ins, 1, &out, 1);
  }
}

void clear_plans() { cache().clear(); }
std::size_t plan_count() { return cache().size(); }

}  // namespace strided::detail

namespace strided {
void clear_plan_cache() { detail::clear_plans(); }
std::size_t plan_cache_size() { return detail::plan_count(); }
}  // namespace strided
