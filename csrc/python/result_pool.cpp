// Large result arrays (fresh outputs, no out=) come from a small pool of recently freed blocks.
// A new multi-MiB array from the system costs a page fault and a kernel-zeroed page per 4 KiB
// (per 2 MiB with huge pages): on the machines measured that zeroing took as long as the copy
// itself. A loop that makes and drops same-size results (the common case: one result per call)
// gets its previous block back instead, already mapped. The pool is a numpy memory handler
// (NEP 49), so results are ordinary arrays that own their data; numpy hands the block back when
// the array dies. Bounded: STRIDED_POOL_BYTES (default 256 MiB, 0 disables) of idle blocks at
// most, and a block idle for more than two seconds is released at the next pool operation.
#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#include <sys/mman.h>
#define STRIDED_POOL_ATFORK 1
#endif
#ifdef _WIN32
#include <malloc.h>
#endif

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "bindings.hpp"

namespace strided::py {
namespace {

constexpr std::size_t kMinBytes = std::size_t{4} << 20;  // smaller results: numpy's own allocator
constexpr std::size_t kAlign = std::size_t{2} << 20;     // huge-page aligned, size rounded alike
constexpr double kIdleSeconds = 2.0;

using Clock = std::chrono::steady_clock;

// Pool blocks are aligned; MSVC's CRT has no aligned_alloc and needs its own matching free.
void* block_alloc(std::size_t cap) {
#ifdef _WIN32
  return _aligned_malloc(cap, kAlign);
#else
  return std::aligned_alloc(kAlign, cap);
#endif
}
void block_free(void* p) {
#ifdef _WIN32
  _aligned_free(p);
#else
  std::free(p);
#endif
}

struct Idle {
  void* p;
  std::size_t cap;
  Clock::time_point since;
};

struct Pool {
  std::mutex mu;
  std::unordered_map<void*, std::size_t> live;  // blocks handed out: pointer -> capacity
  std::vector<Idle> idle;
  std::size_t idle_bytes = 0;
  std::atomic<std::size_t> limit{0};
};

Pool& pool() {
  static Pool* p = [] {
    auto* q = new Pool;  // never destroyed: arrays may outlive module teardown
    q->limit = std::size_t{256} << 20;
    if (const char* e = std::getenv("STRIDED_POOL_BYTES")) {
      char* end = nullptr;
      const unsigned long long v = std::strtoull(e, &end, 10);
      if (end != e && *end == '\0') q->limit = static_cast<std::size_t>(v);
    }
#ifdef STRIDED_POOL_ATFORK
    // A child forked while another thread held the lock would find it locked forever.
    pthread_atfork([] { pool().mu.lock(); }, [] { pool().mu.unlock(); }, [] { pool().mu.unlock(); });
#endif
    return q;
  }();
  return *p;
}

std::size_t round_cap(std::size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

/// Frees idle blocks older than kIdleSeconds (lock held); returns them for freeing outside it.
void expire(Pool& P, Clock::time_point now, std::vector<void*>& drop) {
  for (std::size_t i = 0; i < P.idle.size();) {
    if (std::chrono::duration<double>(now - P.idle[i].since).count() > kIdleSeconds) {
      drop.push_back(P.idle[i].p);
      P.idle_bytes -= P.idle[i].cap;
      P.idle[i] = P.idle.back();
      P.idle.pop_back();
    } else {
      ++i;
    }
  }
}

void* pool_malloc(void*, std::size_t size) {
  if (size < kMinBytes) return std::malloc(size);
  Pool& P = pool();
  const std::size_t cap = round_cap(size);
  std::vector<void*> drop;
  void* p = nullptr;
  std::size_t got = cap;  // the block's capacity
  {
    std::lock_guard<std::mutex> lock(P.mu);
    expire(P, Clock::now(), drop);
    // The smallest idle block that holds the result and wastes at most a quarter of it: the
    // sizes of a program's results vary a little (a pad, a crop) far more often than not.
    std::size_t best = P.idle.size();
    for (std::size_t i = 0; i < P.idle.size(); ++i)
      if (P.idle[i].cap >= cap && P.idle[i].cap - cap <= cap / 4 &&
          (best == P.idle.size() || P.idle[i].cap < P.idle[best].cap))
        best = i;
    if (best < P.idle.size()) {
      p = P.idle[best].p;
      got = P.idle[best].cap;
      P.idle_bytes -= got;
      P.idle[best] = P.idle.back();
      P.idle.pop_back();
    }
  }
  for (void* d : drop) block_free(d);
  if (!p) {
    p = block_alloc(cap);
    if (!p) return nullptr;
#ifdef MADV_HUGEPAGE
    madvise(p, cap, MADV_HUGEPAGE);  // advice only: failure is harmless
#endif
  }
  std::lock_guard<std::mutex> lock(P.mu);
  P.live.emplace(p, got);
  return p;
}

void* pool_calloc(void* ctx, std::size_t nelem, std::size_t elsize) {
  if (elsize && nelem > SIZE_MAX / elsize) return nullptr;
  const std::size_t n = nelem * elsize;
  if (n < kMinBytes) return std::calloc(nelem, elsize);
  void* p = pool_malloc(ctx, n);
  if (p) std::memset(p, 0, n);
  return p;
}

void pool_free(void*, void* ptr, std::size_t) {
  if (!ptr) return;
  Pool& P = pool();
  std::vector<void*> drop;
  bool small = false;
  {
    std::lock_guard<std::mutex> lock(P.mu);
    const auto it = P.live.find(ptr);
    if (it == P.live.end()) {
      small = true;  // a block from malloc
    } else {
      const std::size_t cap = it->second;
      P.live.erase(it);
      const auto now = Clock::now();
      expire(P, now, drop);
      // Over the limit: the blocks idle longest make room (a program's working sizes change;
      // the newest block is the likeliest to be asked for again).
      while (P.idle_bytes + cap > P.limit.load() && !P.idle.empty()) {
        std::size_t oldest = 0;
        for (std::size_t i = 1; i < P.idle.size(); ++i)
          if (P.idle[i].since < P.idle[oldest].since) oldest = i;
        drop.push_back(P.idle[oldest].p);
        P.idle_bytes -= P.idle[oldest].cap;
        P.idle[oldest] = P.idle.back();
        P.idle.pop_back();
      }
      if (P.idle_bytes + cap <= P.limit.load()) {
        P.idle.push_back({ptr, cap, now});
        P.idle_bytes += cap;
      } else {
        drop.push_back(ptr);
      }
    }
  }
  if (small) std::free(ptr);
  for (void* d : drop) block_free(d);
}

void* pool_realloc(void* ctx, void* ptr, std::size_t new_size) {
  std::size_t cap = 0;
  if (ptr) {
    Pool& P = pool();
    std::lock_guard<std::mutex> lock(P.mu);
    const auto it = P.live.find(ptr);
    if (it != P.live.end()) cap = it->second;
  }
  if (cap == 0) return std::realloc(ptr, new_size);  // not a pooled block
  void* q = pool_malloc(ctx, new_size);
  if (!q) return nullptr;
  std::memcpy(q, ptr, std::min(cap, new_size));
  pool_free(ctx, ptr, cap);
  return q;
}

// Layout of numpy's PyDataMem_Handler (numpy/ndarraytypes.h, version 1), declared here because
// the module is built without numpy's headers (pybind11 reaches numpy through its C-API table).
struct MemAllocator {
  void* ctx;
  void* (*malloc)(void*, std::size_t);
  void* (*calloc)(void*, std::size_t, std::size_t);
  void* (*realloc)(void*, void*, std::size_t);
  void (*free)(void*, void*, std::size_t);
};
struct MemHandler {
  char name[127];
  std::uint8_t version;
  MemAllocator allocator;
};
MemHandler g_handler = {"strided_result_pool", 1, {nullptr, pool_malloc, pool_calloc, pool_realloc, pool_free}};

using SetHandlerFn = PyObject* (*)(PyObject*);
using GetHandlerFn = PyObject* (*)();

struct Api {
  SetHandlerFn set = nullptr;
  PyObject* capsule = nullptr;  // our handler, kept alive for good
};

/// numpy's PyDataMem_SetHandler/GetHandler (C-API slots 304/305, numpy >= 1.22), checked by a
/// round trip; the pool stays off when anything does not match.
const Api& api() {
  static const Api a = []() -> Api {
    Api r;
    try {
      auto np = pyb::module_::import("numpy");
      const int major = std::stoi(pyb::str(np.attr("__version__")).cast<std::string>());
      auto mod = pyb::module_::import(major >= 2 ? "numpy._core._multiarray_umath" : "numpy.core._multiarray_umath");
      pyb::object cap = mod.attr("_ARRAY_API");
      void** table = static_cast<void**>(PyCapsule_GetPointer(cap.ptr(), nullptr));
      if (!table) {
        PyErr_Clear();
        return r;
      }
      auto set = reinterpret_cast<SetHandlerFn>(table[304]);
      auto get = reinterpret_cast<GetHandlerFn>(table[305]);
      PyObject* ours = PyCapsule_New(&g_handler, "mem_handler", nullptr);
      if (!ours) {
        PyErr_Clear();
        return r;
      }
      PyObject* old = set(ours);
      if (!old) {
        PyErr_Clear();
        Py_DECREF(ours);
        return r;
      }
      PyObject* now = get();
      const bool ok = now == ours;
      Py_XDECREF(now);
      PyObject* back = set(old);
      Py_XDECREF(back);
      Py_DECREF(old);
      if (!ok) {
        Py_DECREF(ours);
        return r;
      }
      r.set = set;
      r.capsule = ours;
    } catch (const std::exception&) {
      PyErr_Clear();
    }
    return r;
  }();
  return a;
}

}  // namespace

ResultAllocScope::ResultAllocScope(std::size_t bytes) {
  if (bytes < kMinBytes || pool().limit.load() == 0) return;
  const Api& a = api();
  if (!a.set) return;
  old_ = a.set(a.capsule);
  if (!old_) PyErr_Clear();
}

ResultAllocScope::~ResultAllocScope() {
  if (!old_) return;
  PyObject* ours = api().set(old_);
  if (ours) Py_DECREF(ours);
  else PyErr_Clear();
  Py_DECREF(old_);
}

std::size_t result_pool_limit() { return api().set ? pool().limit.load() : 0; }

void set_result_pool_limit(std::size_t bytes) {
  Pool& P = pool();
  std::vector<void*> drop;
  {
    std::lock_guard<std::mutex> lock(P.mu);
    P.limit.store(bytes);
    while (P.idle_bytes > bytes && !P.idle.empty()) {  // shrink to the new limit now
      drop.push_back(P.idle.back().p);
      P.idle_bytes -= P.idle.back().cap;
      P.idle.pop_back();
    }
  }
  for (void* d : drop) block_free(d);
}

}  // namespace strided::py
