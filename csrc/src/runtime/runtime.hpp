// Internal runtime: thread count resolution, SIMD target selection.
#pragma once
#ifdef STRIDED_ISA_TU
#error \
    "a per-ISA translation unit (*_avx2.cpp, *_avx512.cpp) must not include this header: its inline functions and templates would be emitted as weak symbols compiled for that ISA (see scripts/check_isa_symbols.sh)"
#endif
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#ifdef STRIDED_HAVE_OPENMP
#include <omp.h>
#endif

namespace strided::detail {

/// Threads to use for an operator compiled with `requested` (0 = global setting).
int resolve_threads(int requested) noexcept;

/// Threads worth using for `bytes` of traffic given `max_threads` (grain-size rule: about
/// 64 KiB of work per thread at least), capped while the machine is busy (TeamWatch).
int threads_for_bytes(std::uint64_t bytes, int max_threads) noexcept;

/// Watches one parallel region of `threads` threads on a possibly busy machine. When the caller
/// (OpenMP's thread 0) had to wait for team-mates more than 100 us and longer than it worked, in
/// two regions in a row (or once for 1 ms), they were not running (other processes held the
/// cores): threads_for_bytes then gives one thread fewer, and after a back-off that doubles while
/// the machine stays busy (20 ms to 1 s) it tries twice the cap for the next 3 calls. Waits
/// count at the region's end and at its start (OpenMP's runtime holds the caller until the
/// previous region's team-mates are back in its pool: one descheduled there costs a time slice).
/// Only speed depends on it: results never depend on the team size. A `cold` region is not
/// judged (team_is_cold).
class TeamWatch {
 public:
  explicit TeamWatch(int threads, bool cold = false) noexcept;
  void caller_started() noexcept;  // thread 0, first thing inside the region
  void caller_done() noexcept;     // thread 0, when it finds no more work
  /// The same, with the share of the region's work units the caller did itself: one that did
  /// nearly all of them worked alone (team-mates absent), whatever its own time slices made of
  /// its work time.
  void caller_done(std::int64_t caller_units, std::int64_t all_units) noexcept;
  void team_arrived() noexcept;  // thread 0, past a barrier after caller_done (a region in phases)
  ~TeamWatch();
  TeamWatch(const TeamWatch&) = delete;
  TeamWatch& operator=(const TeamWatch&) = delete;

 private:
  int threads_;
  std::int64_t start_ns_, started_ns_ = 0, done_ns_ = 0, arrived_ns_ = 0;
  bool alone_ = false, cold_;
};

/// Whether a parallel region of `threads` is the first of a team larger than any this process
/// has run, or comes less than 30 ms after it: the OpenMP runtime starts the new threads in the
/// first, and Linux starts a new thread on its parent's core until a load balance moves it (a
/// VM, 2 threads, 0.1 ms calls: the first region took 1-8 ms, one of the next few up to 8 ms;
/// judged, they capped the team for the next 20 ms of most new processes). The caller passes it
/// to TeamWatch as `cold`.
bool team_is_cold(int threads) noexcept;

/// The engine's one parallel loop: body(i) for every i in [0, count), on up to `threads` threads
/// of one watched region. Thread t first takes the t-th contiguous share of the items, in
/// increasing order: the same share call after call, so what it wrote or read last time is still
/// in its core's cache (first come, first served over all items moved every part between cores
/// between calls). A thread out of work then claims the others' remaining items from their fronts,
/// so a thread descheduled by a busy machine (or never granted by the OpenMP runtime) leaves its
/// items to the others. Results must not depend on which thread runs an item.
template <class F>
void parallel_items(std::int64_t count, int threads, F&& body) {
  if (count <= 0) return;
#ifdef STRIDED_HAVE_OPENMP
  if (threads > count) threads = static_cast<int>(count);  // a thread with no item is only a wait
  if (threads > 1) {
    struct alignas(64) Share {  // one cache line each: owners claim without sharing a line
      std::atomic<std::int64_t> next;
      std::int64_t end;
    };
    constexpr int kOnStack = 16;
    Share stack[kOnStack];
    std::vector<Share> heap(threads > kOnStack ? static_cast<std::size_t>(threads) : 0);
    Share* share = threads > kOnStack ? heap.data() : stack;
    for (int t = 0; t < threads; ++t) {
      share[t].next.store(count * t / threads, std::memory_order_relaxed);
      share[t].end = count * (t + 1) / threads;
    }
    TeamWatch watch(threads, team_is_cold(threads));
#pragma omp parallel num_threads(threads)
    {
      const int me = omp_get_thread_num();
      const bool caller = me == 0;
      if (caller) watch.caller_started();
      std::int64_t mine = 0;
      for (int k = 0; k < threads; ++k) {  // its own share first, then the others' in turn
        Share& s = share[(me + k) % threads];
        for (std::int64_t i = s.next.fetch_add(1, std::memory_order_relaxed); i < s.end;
             i = s.next.fetch_add(1, std::memory_order_relaxed), ++mine)
          body(i);
      }
      if (caller) watch.caller_done(mine, count);
    }
    return;
  }
#else
  (void)threads;
#endif
  for (std::int64_t i = 0; i < count; ++i) body(i);
}

/// [0, total) in `parts` contiguous parts whose bounds are multiples of `align` (except the
/// end): the parts' count (at most `parts`, at least 1 when total > 0) and part p's bounds.
struct Split {
  std::int64_t total, align, units, parts;
  Split(std::int64_t t, std::int64_t a, std::int64_t p) noexcept
      : total(t), align(a < 1 ? 1 : a), units((t + align - 1) / align), parts(std::min(p, units)) {}
  std::int64_t lo(std::int64_t p) const noexcept { return std::min(total, units * p / parts * align); }
  std::int64_t hi(std::int64_t p) const noexcept { return std::min(total, units * (p + 1) / parts * align); }
};

/// Runs body(lo, hi) over [0, total) split into `threads` contiguous parts whose bounds are
/// multiples of `align` (except the end), one per thread (parallel_items).
template <class F>
inline void parallel_ranges(std::int64_t total, int threads, std::int64_t align, F&& body) {
  if (total <= 0) return;
  const Split s(total, align, threads);
  if (s.parts <= 1) {
    body(std::int64_t{0}, total);
    return;
  }
  parallel_items(s.parts, static_cast<int>(s.parts), [&](std::int64_t t) { body(s.lo(t), s.hi(t)); });
}

/// Runs body(part, lo, hi) for `parts` contiguous parts of [0, total) (bounds multiples of
/// `align` except the end), handed out to up to `threads` threads by parallel_items.
/// Results kept per part never depend on the team the OpenMP runtime actually grants
/// (OMP_THREAD_LIMIT, OMP_DYNAMIC, nested regions: any size from 1 up).
template <class F>
inline void parallel_parts(std::int64_t total, int parts, int threads, std::int64_t align, F&& body) {
  if (total <= 0 || parts < 1) return;
  const Split s(total, align, parts);
  parallel_items(s.parts, threads, [&](std::int64_t p) { body(static_cast<int>(p), s.lo(p), s.hi(p)); });
}

/// Tests and diagnostics: the current cap (1024 when not capped); reset lifts it.
int team_cap() noexcept;
void reset_team_cap() noexcept;
/// Tests: with the watch off, every region gets the threads it asks for and none is judged (the
/// multi-threaded paths run multi-threaded however busy the machine: pytest's workers share its
/// cores and capped each other's teams, leaving the split's code untested).
void set_team_watch(bool on) noexcept;
bool team_watch() noexcept;

}  // namespace strided::detail
