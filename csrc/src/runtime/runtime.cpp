#include "runtime/runtime.hpp"
#include "runtime/simd.hpp"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <string>

#include "strided/error.hpp"
#include "strided/runtime.hpp"

#ifdef STRIDED_HAVE_OPENMP
#include <omp.h>
#endif
#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#define STRIDED_HAVE_ATFORK 1
#endif

#ifndef STRIDED_VERSION
#define STRIDED_VERSION "0.0.0"
#endif

namespace strided {
namespace {

int default_threads() noexcept {
  if (const char* env = std::getenv("STRIDED_NUM_THREADS")) {
    char* end = nullptr;
    const long v = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && v >= 1 && v <= 1024) return static_cast<int>(v);
  }
#ifdef STRIDED_HAVE_OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

// Without OpenMP nothing runs in parallel: execute uses one thread, and get_num_threads() says so
// whatever was set (set_num_threads still checks its argument, so a script that sets threads runs
// unchanged, and behaves the same on misuse, on every build: the macOS wheels are such a build).
#ifdef STRIDED_HAVE_OPENMP
constexpr bool kParallel = true;
#else
constexpr bool kParallel = false;
#endif

std::atomic<int>& thread_setting() {
  static std::atomic<int> n{default_threads()};
  return n;
}

// OpenMP runtimes (GNU libgomp among them) hang in a forked child whose parent had started a
// thread pool, and no call in the child can repair the pool. A child of fork() therefore runs
// single-threaded for good: set_num_threads() there is accepted but has no effect.
std::atomic<bool> g_forked_child{false};
#ifdef STRIDED_HAVE_ATFORK
void on_fork_child() { g_forked_child.store(true, std::memory_order_relaxed); }
const bool g_atfork_registered = [] {
  pthread_atfork(nullptr, nullptr, &on_fork_child);
  return true;
}();
#endif

}  // namespace

const char* version() noexcept { return STRIDED_VERSION; }

void set_num_threads(int n) {
  if (n < 1 || n > 1024)
    throw ValidationError("set_num_threads.n: must be between 1 and 1024, got " + std::to_string(n));
  thread_setting().store(n, std::memory_order_relaxed);
}

int get_num_threads() noexcept {
  if (!kParallel || g_forked_child.load(std::memory_order_relaxed)) return 1;
  return thread_setting().load(std::memory_order_relaxed);
}

namespace detail {

int resolve_threads(int requested) noexcept {
  if (!kParallel || g_forked_child.load(std::memory_order_relaxed)) return 1;
  return requested > 0 ? requested : get_num_threads();
}

namespace {
constexpr int kUncapped = 1024;
constexpr std::int64_t kLateNs = 100'000;       // a warm wake-up is ~10 us, a cold one 100-300 us in a VM
constexpr std::int64_t kVeryLateNs = 1'000'000;  // a lost time slice: never a wake-up
constexpr std::int64_t kMinBackoffNs = 20'000'000, kMaxBackoffNs = 1'000'000'000;
constexpr int kProbeCalls = 3;
constexpr std::int64_t kColdNs = 30'000'000;  // team_is_cold: the scheduler spreads new threads
std::atomic<int> g_cap{kUncapped}, g_streak{0}, g_grants{0};
std::atomic<bool> g_watch{true};
std::atomic<std::int64_t> g_probe_at{0}, g_backoff{kMinBackoffNs};

std::int64_t now_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The team for a region that would use `want` threads: the cap, or twice the cap for the next 3
// calls once a probe is due (the first region may meet team-mates asleep after a pause; the next
// ones judge). The probe re-arms itself a back-off later. Doubling, not one more: after a burst
// of load on 16 cores the team is whole again after 4 good probes, not 15.
int capped(int want) noexcept {
  if (!g_watch.load(std::memory_order_relaxed)) return want;
  const int cap = g_cap.load(std::memory_order_relaxed);
  if (want <= cap) return want;
  std::int64_t at = g_probe_at.load(std::memory_order_relaxed);
  const std::int64_t now = now_ns();
  if (now >= at && g_probe_at.compare_exchange_strong(at, now + g_backoff.load(std::memory_order_relaxed)))
    g_grants.store(kProbeCalls, std::memory_order_relaxed);
  const int probe = 2 * cap < want ? 2 * cap : want;
  return g_grants.load(std::memory_order_relaxed) > 0 && g_grants.fetch_sub(1, std::memory_order_relaxed) > 0 ? probe
                                                                                                              : cap;
}
}  // namespace

int threads_for_bytes(std::uint64_t bytes, int max_threads) noexcept {
  constexpr std::uint64_t kGrain = 64 * 1024;  // below this a thread costs more than it saves
  if (max_threads <= 1 || bytes < 2 * kGrain) return 1;
  const std::uint64_t by_grain = bytes / kGrain;
  return capped(static_cast<int>(by_grain < static_cast<std::uint64_t>(max_threads) ? by_grain : max_threads));
}

TeamWatch::TeamWatch(int threads, bool cold) noexcept
    : threads_(threads), start_ns_(threads > 1 ? now_ns() : 0), cold_(cold) {}

bool team_is_cold(int threads) noexcept {
  static std::atomic<int> most{1};
  static std::atomic<std::int64_t> grown_ns{0};
  const std::int64_t now = now_ns();
  int m = most.load(std::memory_order_relaxed);
  while (threads > m)
    if (most.compare_exchange_weak(m, threads, std::memory_order_relaxed)) {
      grown_ns.store(now, std::memory_order_relaxed);
      return true;
    }
  return now - grown_ns.load(std::memory_order_relaxed) < kColdNs;
}

void TeamWatch::caller_started() noexcept {
  if (threads_ > 1) started_ns_ = now_ns();
}

void TeamWatch::caller_done() noexcept {
  if (threads_ > 1) done_ns_ = now_ns();
}

void TeamWatch::caller_done(std::int64_t caller_units, std::int64_t all_units) noexcept {
  caller_done();
  alone_ = all_units >= 4 && caller_units * 10 >= all_units * 9;
}

void TeamWatch::team_arrived() noexcept {
  if (threads_ > 1) arrived_ns_ = now_ns();
}

// Two late regions in a row cap the team, or one that waited a millisecond or more: a shorter
// wait alone is most often team-mates woken from sleep after a pause between calls (100-300 us
// in a VM), which the next region does not pay.
TeamWatch::~TeamWatch() {
  if (threads_ <= 1 || done_ns_ == 0 || cold_ || !g_watch.load(std::memory_order_relaxed)) return;
  const std::int64_t begun = started_ns_ ? started_ns_ : start_ns_, end = arrived_ns_ ? arrived_ns_ : now_ns();
  const std::int64_t work = done_ns_ - begun, wait = (end - done_ns_) + (begun - start_ns_);
  if (wait > kLateNs && (wait > work || alone_)) {  // team-mates were not running
    if (g_streak.fetch_add(1, std::memory_order_relaxed) + 1 < 2 && wait < kVeryLateNs) return;
    g_streak.store(0, std::memory_order_relaxed);
    const int cur = g_cap.load(std::memory_order_relaxed);
    const int cap = threads_ - 1 < cur ? threads_ - 1 : cur;
    g_cap.store(cap < 1 ? 1 : cap, std::memory_order_relaxed);
    const std::int64_t b = g_backoff.load(std::memory_order_relaxed);
    g_backoff.store(b * 2 < kMaxBackoffNs ? b * 2 : kMaxBackoffNs, std::memory_order_relaxed);
    g_probe_at.store(end + b, std::memory_order_relaxed);
    g_grants.store(0, std::memory_order_relaxed);
    return;
  }
  g_streak.store(0, std::memory_order_relaxed);
  if (threads_ > g_cap.load(std::memory_order_relaxed)) {  // a probe went well: keep climbing
    g_cap.store(threads_, std::memory_order_relaxed);
    g_backoff.store(kMinBackoffNs, std::memory_order_relaxed);
    g_probe_at.store(end + kMinBackoffNs, std::memory_order_relaxed);
    g_grants.store(0, std::memory_order_relaxed);
  }
}

int team_cap() noexcept { return g_cap.load(std::memory_order_relaxed); }
void set_team_watch(bool on) noexcept { g_watch.store(on, std::memory_order_relaxed); }
bool team_watch() noexcept { return g_watch.load(std::memory_order_relaxed); }

void reset_team_cap() noexcept {
  g_cap.store(kUncapped, std::memory_order_relaxed);
  g_streak.store(0, std::memory_order_relaxed);
  g_grants.store(0, std::memory_order_relaxed);
  g_backoff.store(kMinBackoffNs, std::memory_order_relaxed);
  g_probe_at.store(0, std::memory_order_relaxed);
}

}  // namespace detail
}  // namespace strided

namespace strided {
std::map<std::string, std::string> build_info() {
  std::map<std::string, std::string> info;
  info["version"] = version();
#if defined(__clang__)
  info["compiler"] = std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  info["compiler"] = std::string("gcc ") + __VERSION__;
#elif defined(_MSC_VER)
  info["compiler"] = "msvc " + std::to_string(_MSC_VER);
#else
  info["compiler"] = "unknown";
#endif
#ifdef STRIDED_HAVE_OPENMP
  info["openmp"] = std::to_string(_OPENMP);
  info["max_threads"] = std::to_string(omp_get_max_threads());
#else
  info["openmp"] = "no";
  info["max_threads"] = "1";
#endif
  info["num_threads"] = std::to_string(get_num_threads());
  info["simd_compiled"] = [] {
    std::string c;
    for (const auto& t : detail::simd_compiled()) c += (c.empty() ? "" : ",") + t;
    return c;
  }();
  info["simd"] = detail::simd_active();
  return info;
}
}  // namespace strided
