// The busy-machine cap (runtime.hpp's TeamWatch): a region whose caller waited far longer than it
// worked caps the team; a probe after the back-off asks for one more thread; a probe that goes
// well lifts the cap. Time is simulated with sleeps far above the thresholds (100 us, 20 ms).
#include <chrono>
#include <thread>

#include "check.hpp"
#include "runtime/runtime.hpp"

using namespace strided::detail;

namespace {

constexpr std::uint64_t kBig = std::uint64_t{1} << 30;  // bytes: every thread is worth it

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

void late_team_caps_then_probes() {
  reset_team_cap();
  CHECK_EQ(threads_for_bytes(kBig, 4), 4);
  {
    TeamWatch w(4);
    w.caller_done();
    sleep_ms(2);  // the caller waits 2 ms for team-mates after working ~0 ms
  }
  CHECK_EQ(team_cap(), 3);
  CHECK_EQ(threads_for_bytes(kBig, 4), 3);
  CHECK_EQ(threads_for_bytes(kBig, 2), 2);  // below the cap: untouched
  CHECK_EQ(threads_for_bytes(1000, 4), 1);  // the grain rule still applies
  sleep_ms(30);                             // past the first back-off (20 ms)
  CHECK_EQ(threads_for_bytes(kBig, 4), 4);  // one probe ...
  CHECK_EQ(threads_for_bytes(kBig, 4), 3);  // ... for one caller only
  {
    TeamWatch w(4);  // the probe's region goes well
    w.caller_done();
  }
  CHECK_EQ(team_cap(), 4);
}

void stays_busy_backs_off() {
  reset_team_cap();
  for (int i = 0; i < 3; ++i) {  // every probe is late again: the back-off doubles (20, 40, 80 ms)
    TeamWatch w(2);
    w.caller_done();
    sleep_ms(1);
  }
  CHECK_EQ(team_cap(), 1);
  sleep_ms(30);
  CHECK_EQ(threads_for_bytes(kBig, 2), 1);  // the back-off is now longer than 30 ms
  reset_team_cap();
  CHECK_EQ(threads_for_bytes(kBig, 2), 2);
}

void busy_work_is_not_late() {
  reset_team_cap();
  {
    TeamWatch w(2);
    sleep_ms(3);  // the caller worked 3 ms, then waited ~0
    w.caller_done();
  }
  CHECK_EQ(team_cap(), 1024);
  {
    TeamWatch w(1);  // one thread: nothing to watch
    w.caller_done();
    sleep_ms(1);
  }
  CHECK_EQ(team_cap(), 1024);
}

void phases_watch_the_first_barrier() {
  reset_team_cap();
  {
    TeamWatch w(2);
    w.caller_done();
    sleep_ms(2);  // waited at the phases' barrier
    w.team_arrived();
    sleep_ms(5);  // the second phase is work, not waiting
  }
  CHECK_EQ(team_cap(), 1);
  reset_team_cap();
  {
    TeamWatch w(2);
    sleep_ms(3);
    w.caller_done();
    w.team_arrived();  // no wait at the barrier
    sleep_ms(5);
  }
  CHECK_EQ(team_cap(), 1024);
}

}  // namespace

int main() {
  phases_watch_the_first_barrier();
  late_team_caps_then_probes();
  stays_busy_backs_off();
  busy_work_is_not_late();
  return check::report();
}
