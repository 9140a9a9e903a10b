// region_overlap (exec/overlap.hpp) against brute force: every byte of both views listed; and
// order_steps (exec/program.hpp), which groups a program's copies and kernel steps by those
// proofs, against the same brute force; and programs of kernel steps run in groups
// (run_kernel_steps) against the steps applied one by one.
#include <cstdint>
#include <cstring>
#include <random>
#include <set>
#include <vector>

#include "check.hpp"
#include "exec/overlap.hpp"
#include "exec/program.hpp"

using namespace strided::detail;

namespace {

std::set<std::int64_t> bytes_of(const Region& r) {
  std::set<std::int64_t> s;
  std::vector<std::int64_t> c(r.sizes.size(), 0);
  for (const auto n : r.sizes)
    if (n == 0) return s;
  for (;;) {
    std::int64_t off = r.offset;
    for (std::size_t d = 0; d < c.size(); ++d) off += c[d] * r.strides[d];
    for (std::size_t b = 0; b < r.width; ++b) s.insert(off + static_cast<std::int64_t>(b));
    std::size_t d = c.size();
    for (; d-- > 0;) {
      if (++c[d] < r.sizes[d]) break;
      c[d] = 0;
    }
    if (d == static_cast<std::size_t>(-1)) break;
  }
  return s;
}

bool brute(const Region& a, const Region& b) {
  const auto sa = bytes_of(a), sb = bytes_of(b);
  for (const auto x : sa)
    if (sb.count(x)) return true;
  return false;
}

void test_known_cases() {
  std::vector<std::byte> buf(4096);
  const std::byte* p = buf.data() + 2048;
  // a[:, ::2] and a[:, 1::2] of a 16x32 float32 array: interleaved, disjoint.
  Region even{0, 4, {16, 16}, {128, 8}}, odd{4, 4, {16, 16}, {128, 8}};
  CHECK(region_overlap(p, even, p, odd) == Overlap::kNo);
  CHECK(region_overlap(p, even, p, even) == Overlap::kYes);
  // Shifted by one byte: the elements straddle.
  Region odd1{3, 4, {16, 16}, {128, 8}};
  CHECK(region_overlap(p, even, p, odd1) == Overlap::kYes);
  // Reversed view (negative strides) of the same elements.
  Region rev{15 * 128 + 15 * 8, 4, {16, 16}, {-128, -8}};
  CHECK(region_overlap(p, even, p, rev) == Overlap::kYes);
  // Separate buffers never overlap; an empty view never overlaps.
  std::vector<std::byte> other(4096);
  CHECK(region_overlap(p, even, other.data(), even) == Overlap::kNo);
  Region empty{0, 4, {0, 16}, {128, 8}};
  CHECK(region_overlap(p, empty, p, even) == Overlap::kNo);
  // A tiny work budget gives up rather than guessing.
  Region col{0, 4, {1000}, {4 * 1001}}, col2{4 * 1000, 4, {1000}, {4 * 999}};
  CHECK(region_overlap(p, col, p, col2, 1) == Overlap::kUnknown);
}

void test_random_against_brute_force() {
  std::mt19937_64 rng(7);
  std::vector<std::byte> buf(1 << 16);
  const std::byte* p = buf.data() + (1 << 15);
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  int disagreements = 0, unknown = 0, yes = 0;
  for (int it = 0; it < 3000; ++it) {
    Region r[2];
    for (auto& v : r) {
      const int nd = static_cast<int>(pick(1, 3));
      v.width = static_cast<std::size_t>(std::int64_t{1} << pick(0, 3));
      v.offset = pick(-64, 64);
      for (int d = 0; d < nd; ++d) {
        v.sizes.push_back(pick(1, 6));
        v.strides.push_back(pick(-40, 40));
      }
    }
    const Overlap got = region_overlap(p, r[0], p, r[1]);
    if (got == Overlap::kUnknown) {
      ++unknown;
      continue;
    }
    const bool want = brute(r[0], r[1]);
    yes += want;
    if ((got == Overlap::kYes) != want) ++disagreements;
  }
  CHECK_EQ(disagreements, 0);
  CHECK_EQ(unknown, 0);  // small views are always decided
  CHECK(yes > 300);      // both answers were exercised
}

// ------------------------------------------------------------------ order_steps

constexpr std::int64_t F = 4;  // float32

View view(bool output, int buffer, std::int64_t offset, std::vector<std::int64_t> sizes,
          std::vector<std::int64_t> strides) {
  View v;
  v.where = Operand{output, buffer, offset * F};
  v.dtype = strided::DataType::FLOAT32;
  v.sizes = std::move(sizes);
  for (auto st : strides) v.strides.push_back(st * F);
  return v;
}
View out(std::int64_t offset, std::vector<std::int64_t> sizes, std::vector<std::int64_t> strides, int buffer = 0) {
  return view(true, buffer, offset, std::move(sizes), std::move(strides));
}
View in(std::vector<std::int64_t> sizes) {  // a packed input of that shape
  std::vector<std::int64_t> st(sizes.size(), 1);
  for (std::size_t i = sizes.size(); i-- > 1;) st[i - 1] = st[i] * sizes[i];
  return view(false, 0, 0, sizes, st);
}
View constant(std::vector<std::int64_t> sizes) {
  View v = view(false, 0, 0, sizes, std::vector<std::int64_t>(sizes.size(), 0));
  v.where.is_constant = true;
  return v;
}

struct Nop final : Step {
  void run(const ExecContext&) const override {}
};

std::vector<std::uint32_t> groups_of(std::vector<std::unique_ptr<const Step>> steps) {
  Program p;
  p.steps = std::move(steps);
  order_steps(p);
  return p.groups;
}

template <class... S> std::vector<std::unique_ptr<const Step>> list(S... s) {
  std::vector<std::unique_ptr<const Step>> v;
  (v.push_back(std::move(s)), ...);
  return v;
}

std::string str(const std::vector<std::uint32_t>& g) {
  std::string s;
  for (auto x : g) s += std::to_string(x) + " ";
  return s;
}

void test_order_known() {
  // a 4x8 output, rows 8 apart
  // two row blocks from inputs: one group
  CHECK_EQ(str(groups_of(list(make_copy_step(in({2, 8}), out(0, {2, 8}, {8, 1})),
                              make_copy_step(in({2, 8}), out(16, {2, 8}, {8, 1}))))),
           "0 2 ");
  // a fill of the whole output, then a copy into a window of it: ordered
  CHECK_EQ(str(groups_of(list(make_copy_step(constant({4, 8}), out(0, {4, 8}, {8, 1})),
                              make_copy_step(in({2, 2}), out(9, {2, 2}, {8, 1}))))),
           "0 1 2 ");
  // even and odd columns never share a byte
  CHECK_EQ(str(groups_of(list(make_copy_step(in({4, 4}), out(0, {4, 4}, {8, 2})),
                              make_copy_step(in({4, 4}), out(1, {4, 4}, {8, 2}))))),
           "0 2 ");
  // the same bytes of two different outputs: apart (execute proves outputs disjoint)
  CHECK_EQ(str(groups_of(list(make_copy_step(in({4, 8}), out(0, {4, 8}, {8, 1}, 0)),
                              make_copy_step(in({4, 8}), out(0, {4, 8}, {8, 1}, 1))))),
           "0 2 ");
  // 40 one-column copies: groups of at most 16
  std::vector<std::unique_ptr<const Step>> cols;
  for (int c = 0; c < 40; ++c) cols.push_back(make_copy_step(in({4, 1}), out(c, {4, 1}, {40, 1})));
  CHECK_EQ(str(groups_of(std::move(cols))), "0 16 32 40 ");
  // border rows copied from rows written before (a pad's slabs): after them, and together
  CHECK_EQ(str(groups_of(list(make_copy_step(in({2, 8}), out(8, {2, 8}, {8, 1})),
                              make_copy_step(out(8, {1, 8}, {8, 1}), out(0, {1, 8}, {8, 1})),
                              make_copy_step(out(16, {1, 8}, {8, 1}), out(24, {1, 8}, {8, 1}))))),
           "0 1 3 ");
  // a copy that overwrites what a member of its group reads: ordered
  CHECK_EQ(str(groups_of(list(make_copy_step(out(8, {1, 8}, {8, 1}), out(0, {1, 8}, {8, 1})),
                              make_copy_step(in({1, 8}), out(8, {1, 8}, {8, 1}))))),
           "0 1 2 ");
  // any other step runs alone
  CHECK_EQ(str(groups_of(list(make_copy_step(in({1, 8}), out(0, {1, 8}, {8, 1})),
                              make_copy_step(in({1, 8}), out(8, {1, 8}, {8, 1})), std::make_unique<Nop>(),
                              make_copy_step(in({1, 8}), out(16, {1, 8}, {8, 1}))))),
           "0 2 3 4 ");
}

// Random copies within a 48-float output (some reading it): in every group no byte written by
// one member is written or read by another, and each group ends only where the next copy meets
// a member (or the group is full): the grouping is exact, not merely safe.
void test_order_random() {
  std::mt19937_64 rng(7);
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  auto random_view = [&]() {
    const int nd = static_cast<int>(pick(1, 2));
    std::vector<std::int64_t> sizes, strides;
    std::int64_t lo = 0, hi = 0;
    for (int d = 0; d < nd; ++d) {
      sizes.push_back(pick(1, 4));
      strides.push_back(pick(-7, 7));
      const std::int64_t reach = strides.back() * (sizes.back() - 1);
      (reach < 0 ? lo : hi) += reach;
    }
    return out(pick(-lo, 47 - hi), sizes, strides);
  };
  auto bytes = [](const View& v) {
    std::set<std::int64_t> s;
    for (auto b : bytes_of(region_of(v))) s.insert(b);
    return s;
  };
  auto meet = [](const std::set<std::int64_t>& a, const std::set<std::int64_t>& b) {
    for (auto x : a)
      if (b.count(x)) return true;
    return false;
  };
  int bad = 0, joined = 0, split = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int n = static_cast<int>(pick(2, 20));
    std::vector<std::unique_ptr<const Step>> steps;
    std::vector<std::set<std::int64_t>> w, r;  // each step's written bytes, and output bytes read
    for (int k = 0; k < n; ++k) {
      const View d = random_view();
      const bool reads_out = pick(0, 3) == 0;
      const View s = reads_out ? random_view() : in(d.sizes);
      if (reads_out && s.sizes != d.sizes) {
        --k;
        continue;
      }
      steps.push_back(make_copy_step(s, d));
      w.push_back(bytes(d));
      r.push_back(reads_out ? bytes(s) : std::set<std::int64_t>{});
    }
    const auto g = groups_of(std::move(steps));
    for (std::size_t q = 0; q + 1 < g.size(); ++q) {
      for (auto i = g[q]; i < g[q + 1]; ++i)
        for (auto j = g[q]; j < g[q + 1]; ++j)
          if (i != j && (meet(w[i], w[j]) || meet(r[i], w[j]))) ++bad;
      if (q + 2 < g.size()) {  // why did group q end?
        const auto next = g[q + 1];
        bool conflict = g[q + 1] - g[q] == 16;
        for (auto i = g[q]; i < next; ++i)
          conflict = conflict || meet(w[i], w[next]) || meet(r[i], w[next]) || meet(r[next], w[i]);
        if (!conflict) ++bad;
        ++split;
      }
      joined += static_cast<int>(g[q + 1] - g[q] > 1);
    }
  }
  CHECK_EQ(bad, 0);
  CHECK(joined > 100);  // both outcomes were exercised
  CHECK(split > 100);
}

// A kernel step for the tests: dst[c] = (src ? src[c] : 0) + add for every coordinate c, float32
// views of one shape (src in the output or absent). Its work claims a large byte count, so that
// every group runs on a team of every thread asked for.
struct AddStep final : KernelStep {
  AddStep(const View& d, const View* s, float a) : KernelStep(d, {s}), dst(d), src(s ? *s : View{}), add(a) {}
  Work work(const ExecContext&) const override { return {count(), 1, std::uint64_t{1} << 30}; }
  void part(const ExecContext& c, std::int64_t lo, std::int64_t hi) const override {
    std::byte* o = c.outputs[dst.where.buffer];
    for (std::int64_t k = lo; k < hi; ++k) {
      float v = add, x = 0;
      if (!src.sizes.empty() || src.where.is_output) {
        std::memcpy(&x, o + at(src, k), 4);
        v += x;
      }
      std::memcpy(o + at(dst, k), &v, 4);
    }
  }
  std::int64_t count() const {
    std::int64_t n = 1;
    for (auto x : dst.sizes) n *= x;
    return n;
  }
  // The byte offset of row-major element k of v (of dst's shape) from the buffer.
  std::int64_t at(const View& v, std::int64_t k) const {
    std::int64_t off = v.where.offset;
    for (std::size_t d = dst.sizes.size(); d-- > 0;) {
      off += k % dst.sizes[d] * v.strides[d];
      k /= dst.sizes[d];
    }
    return off;
  }
  View dst, src;
  float add;
};

std::unique_ptr<const Step> add_step(const View& d, float a = 1) { return std::make_unique<AddStep>(d, nullptr, a); }
std::unique_ptr<const Step> add_step(const View& d, const View& s, float a = 1) {
  return std::make_unique<AddStep>(d, &s, a);
}

void test_order_kernel_steps() {
  // two kernel steps into the two halves of a 4x8 output: one group
  CHECK_EQ(str(groups_of(list(add_step(out(0, {2, 8}, {8, 1})), add_step(out(16, {2, 8}, {8, 1}))))), "0 2 ");
  // into overlapping windows: ordered
  CHECK_EQ(str(groups_of(list(add_step(out(0, {2, 8}, {8, 1})), add_step(out(8, {2, 8}, {8, 1}))))), "0 1 2 ");
  // one reads what the other writes: ordered, whichever comes first
  CHECK_EQ(str(groups_of(list(add_step(out(0, {1, 8}, {8, 1})),
                              add_step(out(8, {1, 8}, {8, 1}), out(0, {1, 8}, {8, 1}))))),
           "0 1 2 ");
  CHECK_EQ(str(groups_of(list(add_step(out(8, {1, 8}, {8, 1}), out(0, {1, 8}, {8, 1})),
                              add_step(out(0, {1, 8}, {8, 1}))))),
           "0 1 2 ");
  // even and odd columns, and two output buffers: apart
  CHECK_EQ(str(groups_of(list(add_step(out(0, {4, 4}, {8, 2})), add_step(out(1, {4, 4}, {8, 2})),
                              add_step(out(0, {4, 8}, {8, 1}, 1))))),
           "0 3 ");
  // a copy beside a kernel step: separate groups (each kind runs its own way)
  CHECK_EQ(str(groups_of(list(make_copy_step(in({1, 8}), out(0, {1, 8}, {8, 1})), add_step(out(8, {1, 8}, {8, 1})),
                              add_step(out(16, {1, 8}, {8, 1})), make_copy_step(in({1, 8}), out(24, {1, 8}, {8, 1}))))),
           "0 1 3 4 ");
  // a step that declares no write runs alone
  CHECK_EQ(str(groups_of(list(add_step(out(0, {1, 8}, {8, 1})), std::make_unique<Nop>(),
                              add_step(out(8, {1, 8}, {8, 1}))))),
           "0 1 2 3 ");
}

// Random programs of kernel steps over a 48-float output, some reading it, run on 1 and 4
// threads: the output equals the steps applied one by one, in order, and some groups held
// several steps.
void test_kernel_groups_run() {
  std::mt19937_64 rng(11);
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  auto random_view = [&](const std::vector<std::int64_t>& sizes) {
    std::vector<std::int64_t> strides;
    std::int64_t lo = 0, hi = 0;
    for (auto n : sizes) {
      strides.push_back(pick(-5, 5));  // reach at most 40 of the 48 floats
      const std::int64_t reach = strides.back() * (n - 1);
      (reach < 0 ? lo : hi) += reach;
    }
    return out(pick(-lo, 47 - hi), sizes, strides);
  };
  auto bytes = [](const View& v) { return bytes_of(region_of(v)); };
  int mismatches = 0, grouped = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<std::unique_ptr<const Step>> steps;
    std::vector<const AddStep*> order;
    const int n = static_cast<int>(pick(2, 12));
    while (static_cast<int>(steps.size()) < n) {
      std::vector<std::int64_t> sizes;
      for (int d = static_cast<int>(pick(1, 2)); d > 0; --d) sizes.push_back(pick(1, 5));
      const View d = random_view(sizes);
      std::int64_t count = 1;
      for (auto x : sizes) count *= x;
      if (static_cast<std::int64_t>(bytes(d).size()) != 4 * count) continue;  // every element its own bytes
      const bool reads = pick(0, 2) == 0;
      const View s = reads ? random_view(sizes) : View{};
      if (reads) {  // a step's source apart from its own destination (elements in any order)
        bool meet = false;
        const auto bd = bytes(d);
        for (auto b : bytes(s)) meet = meet || bd.count(b);
        if (meet) continue;
      }
      auto st = std::make_unique<AddStep>(d, reads ? &s : nullptr, static_cast<float>(pick(1, 9)));
      order.push_back(st.get());
      steps.push_back(std::move(st));
    }
    std::vector<float> expect(48);
    for (std::size_t i = 0; i < 48; ++i) expect[i] = static_cast<float>(i);
    for (const AddStep* a : order)  // one by one
      for (std::int64_t k = 0; k < a->count(); ++k)
        expect[static_cast<std::size_t>(a->at(a->dst, k) / 4)] =
            a->add + (a->src.where.is_output ? expect[static_cast<std::size_t>(a->at(a->src, k) / 4)] : 0.f);
    Program p;
    p.steps = std::move(steps);
    p.output_bytes = {48 * 4};
    order_steps(p);
    for (std::size_t g = 0; g + 1 < p.groups.size(); ++g) grouped += p.groups[g + 1] - p.groups[g] > 1;
    for (const int threads : {1, 4}) {
      p.threads = threads;
      std::vector<float> buf(48);
      for (std::size_t i = 0; i < 48; ++i) buf[i] = static_cast<float>(i);
      std::byte* outs[1] = {reinterpret_cast<std::byte*>(buf.data())};
      const std::pair<std::int64_t, std::int64_t> ext[1] = {{0, 48 * 4}};
      run_program(p, nullptr, nullptr, 0, outs, ext, 1);
      mismatches += buf != expect;
    }
  }
  CHECK_EQ(mismatches, 0);
  CHECK(grouped > 50);
}
}  // namespace

int main() {
  test_known_cases();
  test_random_against_brute_force();
  test_order_known();
  test_order_random();
  test_order_kernel_steps();
  test_kernel_groups_run();
  return check::report();
}
