// The busy-machine cap (runtime.hpp's TeamWatch): two regions in a row whose caller waited far
// longer than it worked cap the team (one alone may be team-mates waking from sleep); once the
// back-off has passed, the next 3 calls get one more thread; a region that goes well at that
// size lifts the cap. Time is simulated with sleeps far above the thresholds (100 us, 20 ms).
#include <chrono>
#include <cstdio>

#include "check.hpp"
#include "runtime/runtime.hpp"

using namespace strided::detail;

namespace {

constexpr std::uint64_t kBig = std::uint64_t{1} << 30;  // bytes: every thread is worth it

using Clock = std::chrono::steady_clock;

// Waits by the clock TeamWatch reads (sleep_for may return early or late: wine's rounds to
// whole milliseconds).
void spin_for(std::chrono::microseconds us) {
  const auto t0 = Clock::now();
  while (Clock::now() - t0 < us) {
  }
}

void sleep_ms(int ms) { spin_for(std::chrono::milliseconds(ms)); }

// The clock's step: where it is coarser than the 100 us threshold, waits under 1 ms cannot be
// made, and only the lost-time-slice rule (1 ms) is tested.
bool fine_clock() {
  const auto t0 = Clock::now();
  auto t1 = t0;
  while ((t1 = Clock::now()) == t0) {
  }
  return t1 - t0 < std::chrono::microseconds(50);
}

// The caller waits ~0.3 ms for team-mates after working ~0 ms; false when the sleep overslept
// past 0.9 ms (a loaded machine), which would make it a lost time slice.
bool late(int threads) {
  const auto t0 = std::chrono::steady_clock::now();
  {
    TeamWatch w(threads);
    w.caller_done();
    spin_for(std::chrono::microseconds(300));
  }
  return std::chrono::steady_clock::now() - t0 < std::chrono::microseconds(900);
}

void very_late(int threads) {  // a lost time slice
  TeamWatch w(threads);
  w.caller_done();
  sleep_ms(2);
}

// A region whose team-mates arrived as soon as the caller finished its 2 ms of work. Its times
// are taken by adjacent calls (caller_started, team_arrived), not at the destructor: on a loaded
// machine (CI's AArch64 tests under qemu-user) a pause of 100 us before the destructor made a
// region with no work "late", which capped the team in the middle of the test.
void good(int threads) {
  TeamWatch w(threads);
  w.caller_started();
  sleep_ms(2);
  w.caller_done();
  w.team_arrived();
}

void late_teams_cap_then_probe() {
  bool exact = false;  // every late() stayed short: retried when the machine overslept
  for (int attempt = 0; attempt < 20 && !exact; ++attempt) {
    reset_team_cap();
    CHECK_EQ(threads_for_bytes(kBig, 4), 4);
    exact = late(4);
    if (!exact) continue;
    CHECK_EQ(team_cap(), 1024);  // one short late region: team-mates may have been asleep
    good(4);
    exact = late(4);
    if (!exact) continue;
    // Not in a row. On a loaded machine (AArch64 under qemu beside CI's other lane) good() itself
    // was once judged late and capped the team here: retried like an overslept late(); a rule that
    // never resets still fails every attempt.
    exact = team_cap() == 1024;
    if (!exact) continue;
    exact = late(4);
  }
  CHECK(exact);
  CHECK_EQ(team_cap(), 3);
  CHECK_EQ(threads_for_bytes(kBig, 4), 3);
  CHECK_EQ(threads_for_bytes(kBig, 2), 2);  // below the cap: untouched
  CHECK_EQ(threads_for_bytes(1000, 4), 1);  // the grain rule still applies
  sleep_ms(30);                             // past the first back-off (20 ms)
  CHECK_EQ(threads_for_bytes(kBig, 4), 4);  // the probe: 3 calls ...
  CHECK_EQ(threads_for_bytes(kBig, 4), 4);
  CHECK_EQ(threads_for_bytes(kBig, 4), 4);
  CHECK_EQ(threads_for_bytes(kBig, 4), 3);  // ... then the cap again
  good(4);                                  // a region of the probe went well
  CHECK_EQ(team_cap(), 4);
}

void probes_double_the_cap() {
  reset_team_cap();
  very_late(2);  // a lost time slice: capped at 1
  CHECK_EQ(team_cap(), 1);
  for (const int want : {2, 4, 8, 16}) {
    sleep_ms(30);                                // past the back-off (20 ms after a good probe)
    CHECK_EQ(threads_for_bytes(kBig, 16), want);  // twice the cap, at most what the call wants
    good(want);
    CHECK_EQ(team_cap(), want);
  }
}

void a_lost_time_slice_caps_at_once() {
  reset_team_cap();
  very_late(2);
  CHECK_EQ(team_cap(), 1);
}

void a_caller_alone_is_late_whatever_its_work_time() {
  reset_team_cap();
  for (int i = 0; i < 2; ++i) {
    TeamWatch w(2);
    spin_for(std::chrono::microseconds(500));  // its own work, time-sliced
    w.caller_done(32, 32);                                        // ... all of it
    spin_for(std::chrono::microseconds(300));
  }
  CHECK_EQ(team_cap(), 1);
  // Half the chunks: the team worked, so a wait shorter than the work is no lateness. Retried
  // when the OS preempted the wait for longer than the work (a loaded CI runner under the
  // sanitizers once made it a late region: the cap then read 2, not 1024).
  bool clean = false;
  for (int attempt = 0; attempt < 50 && !clean; ++attempt) {
    reset_team_cap();
    clean = true;
    for (int i = 0; i < 2; ++i) {
      const auto t0 = Clock::now();
      {
        TeamWatch w(2);
        sleep_ms(3);
        w.caller_done(16, 32);
        spin_for(std::chrono::microseconds(300));
      }
      clean = clean && Clock::now() - t0 < std::chrono::microseconds(5500);
    }
  }
  if (clean) CHECK_EQ(team_cap(), 1024);
  else std::printf("test_team: 50 preempted attempts, the half-team case was not checked\n");
}

void stays_busy_backs_off() {
  reset_team_cap();
  for (int i = 0; i < 8; ++i) very_late(2);  // eight caps: the back-off doubles up to 1 s
  CHECK_EQ(team_cap(), 1);
  sleep_ms(30);
  CHECK_EQ(threads_for_bytes(kBig, 2), 1);  // the back-off is now 1 s
  reset_team_cap();
  CHECK_EQ(threads_for_bytes(kBig, 2), 2);
}

void busy_work_is_not_late() {
  reset_team_cap();
  for (int i = 0; i < 2; ++i) {
    TeamWatch w(2);
    sleep_ms(3);  // the caller worked 3 ms, then waited ~0
    w.caller_done();
  }
  CHECK_EQ(team_cap(), 1024);
  for (int i = 0; i < 2; ++i) very_late(1);  // one thread: nothing to watch
  CHECK_EQ(team_cap(), 1024);
}

void phases_watch_the_first_barrier() {
  reset_team_cap();
  for (int i = 0; i < 2; ++i) {
    TeamWatch w(2);
    w.caller_done();
    sleep_ms(2);  // waited at the phases' barrier
    w.team_arrived();
    sleep_ms(5);  // the second phase is work, not waiting
  }
  CHECK_EQ(team_cap(), 1);
  reset_team_cap();
  for (int i = 0; i < 2; ++i) {
    TeamWatch w(2);
    sleep_ms(3);
    w.caller_done();
    w.team_arrived();  // no wait at the barrier
    sleep_ms(5);
  }
  CHECK_EQ(team_cap(), 1024);
}

// A team larger than any before is cold for 30 ms: its lateness (the OpenMP runtime starting
// threads, Linux moving them off their parent's core) caps nothing. Sizes above any a real
// region of this process could have run.
void a_new_team_is_not_judged() {
  reset_team_cap();
  const auto t0 = Clock::now();
  CHECK(team_is_cold(64));  // the first region of 64 threads
  {
    TeamWatch w(64, true);
    w.caller_done();
    sleep_ms(2);  // a lost time slice, were it judged
  }
  CHECK_EQ(team_cap(), 1024);
  if (Clock::now() - t0 < std::chrono::milliseconds(25)) {  // (a loaded machine may have slept longer)
    CHECK(team_is_cold(64));                                // within 30 ms of it
    CHECK(team_is_cold(32));                                // any team then
  }
  sleep_ms(40);
  CHECK(!team_is_cold(64));
  CHECK(!team_is_cold(2));
  CHECK(team_is_cold(65));  // one more thread: started anew
  sleep_ms(40);
  CHECK(!team_is_cold(65));
  very_late(64);  // warm teams are judged as before
  CHECK_EQ(team_cap(), 63);
}

}  // namespace

int main() {
  if (fine_clock()) {
    late_teams_cap_then_probe();
    a_caller_alone_is_late_whatever_its_work_time();
  } else {
    std::printf("steady_clock is coarser than 50 us here: the sub-millisecond rules are not tested\n");
  }
  a_lost_time_slice_caps_at_once();
  probes_double_the_cap();
  stays_busy_backs_off();
  busy_work_is_not_late();
  phases_watch_the_first_barrier();
  a_new_team_is_not_judged();
  return check::report();
}
