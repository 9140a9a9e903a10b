// Execution rules of SPEC 3.0 through the C++ API: indices rewritten by another thread during
// execute() (rule 2: never a read or write outside the buffers; ASan reports one in the
// sanitizer run), any OpenMP team (nested regions: rule 6), outputs that overlap (rule 3).
#include <atomic>
#include <cstdint>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#ifdef STRIDED_HAVE_OPENMP
#include <omp.h>
#endif

#include "check.hpp"
#include "index/steps.hpp"
#include "strided/strided.hpp"

using namespace strided;

namespace {

constexpr std::int64_t R = 64, C = 2048;

ConstBuffer cb(const void* p, std::size_t n) { return ConstBuffer{p, n}; }

// A thread flips a few indices between valid values and values one row past either end while
// gather_elements / scatter run; the calls may raise IndexError or succeed, nothing else.
void race(bool scatter, bool narrow) {
  detail::index::set_narrow_threshold(narrow ? 0 : std::int64_t{1} << 40);
  std::vector<float> x(R * C), upd(R * C, 1.0f), out(R * C);
  std::vector<std::int64_t> idx(R * C);
  std::mt19937_64 rng(5);
  for (auto& v : x) v = static_cast<float>(rng() % 1000);
  for (auto& v : idx) v = static_cast<std::int64_t>(rng() % R);
  const TensorDesc tf(DataType::FLOAT32, {R, C}), ti(DataType::INT64, {R, C});
  const CompiledOperator op =
      scatter ? compile(ScatterDesc{tf, ti, tf, tf, 0}) : compile(GatherElementsDesc{tf, ti, tf, 0});
  std::atomic<bool> stop{false};
  volatile std::int64_t* vi = idx.data();  // the flipper's writes are not optimised away
  std::thread flipper([&] {
    const std::int64_t spots[] = {3, 7 * C + 11, 40 * C + 100, R * C - 1};
    while (!stop.load(std::memory_order_relaxed))
      for (int k = 0; k < 2; ++k)
        for (std::int64_t s : spots) vi[s] = k == 0 ? (s % 2 ? R + 1 : -R - 1) : s % R;
  });
  int ok = 0, errors = 0;
  for (int it = 0; it < 100; ++it) {
    try {
      if (scatter)
        op.execute({cb(x.data(), x.size() * 4), cb(idx.data(), idx.size() * 8), cb(upd.data(), upd.size() * 4)},
                   {Buffer{out.data(), out.size() * 4}});
      else
        op.execute({cb(x.data(), x.size() * 4), cb(idx.data(), idx.size() * 8)}, {Buffer{out.data(), out.size() * 4}});
      ++ok;
    } catch (const IndexError&) {
      ++errors;
    }
  }
  stop = true;
  flipper.join();
  CHECK(ok + errors == 100);
  detail::index::set_narrow_threshold(std::int64_t{4} << 20);
}

// gather_elements with narrowing forced, run from inside a parallel region: nested regions get
// a team of one whatever the operator asks for.
void nested_teams() {
#ifdef STRIDED_HAVE_OPENMP
  detail::index::set_narrow_threshold(0);
  std::vector<float> x(R * C);
  std::vector<std::int64_t> idx(R * C);
  for (std::int64_t i = 0; i < R * C; ++i) {
    x[static_cast<std::size_t>(i)] = static_cast<float>(i);
    idx[static_cast<std::size_t>(i)] = (i * 7919) % R;
  }
  const TensorDesc tf(DataType::FLOAT32, {R, C}), ti(DataType::INT64, {R, C});
  const CompiledOperator op = compile(GatherElementsDesc{tf, ti, tf, 0}, CompileOptions{4});
  std::atomic<int> good{0}, ran{0};
#pragma omp parallel num_threads(2)
  {
    ++ran;
    std::vector<float> out(R * C);
    op.execute({cb(x.data(), x.size() * 4), cb(idx.data(), idx.size() * 8)}, {Buffer{out.data(), out.size() * 4}});
    bool same = true;
    for (std::int64_t i = 0; i < R * C; ++i)
      same = same && out[static_cast<std::size_t>(i)] ==
                         x[static_cast<std::size_t>(idx[static_cast<std::size_t>(i)] * C + i % C)];
    good += same;
  }
  CHECK(ran.load() >= 1);
  CHECK_EQ(good.load(), ran.load());
  detail::index::set_narrow_threshold(std::int64_t{4} << 20);
#endif
}

// Two outputs that share bytes are a BufferError before anything is written; interleaved
// outputs that share none are fine.
void overlapping_outputs() {
  const TensorDesc in(DataType::FLOAT32, {4, 6});
  std::vector<float> x(24), buf(48, -1.0f);
  for (int i = 0; i < 24; ++i) x[static_cast<std::size_t>(i)] = static_cast<float>(i);
  const SplitDesc d{in, {TensorDesc(DataType::FLOAT32, {4, 3}), TensorDesc(DataType::FLOAT32, {4, 3})}, 1};
  const CompiledOperator op = compile(d);
  CHECK_THROWS(op.execute({cb(x.data(), 96)}, {Buffer{buf.data(), 48}, Buffer{buf.data(), 48}}), BufferError,
               "outputs[0] and outputs[1]");
  CHECK_THROWS(op.execute({cb(x.data(), 96)}, {Buffer{buf.data(), 48}, Buffer{buf.data() + 11, 48}}), BufferError,
               "overlap");
  CHECK(buf[0] == -1.0f && buf[11] == -1.0f);  // nothing written
  op.execute({cb(x.data(), 96)}, {Buffer{buf.data(), 48}, Buffer{buf.data() + 12, 48}});
  CHECK(buf[0] == 0.0f && buf[12] == 3.0f && buf[23] == 23.0f);
  // Interleaved: output k at element k of rows of 2 (strides {6, 2}): no shared element.
  const TensorDesc pad(DataType::FLOAT32, {4, 3}, {6, 2});
  const CompiledOperator il = compile(SplitDesc{in, {pad, pad}, 1});
  std::vector<float> ib(25, -1.0f);
  il.execute({cb(x.data(), 96)}, {Buffer{ib.data(), 96}, Buffer{ib.data() + 1, 96}});
  CHECK(ib[0] == 0.0f && ib[1] == 3.0f && ib[2] == 1.0f && ib[3] == 4.0f && ib[23] == 23.0f);
}

}  // namespace

int main() {
  race(false, false);
  race(false, true);
  race(true, false);
  race(true, true);
  nested_teams();
  overlapping_outputs();
  return check::report();
}
