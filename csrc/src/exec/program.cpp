#include "exec/program.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "plan/copy_plan.hpp"
#include "runtime/runtime.hpp"
#include "strided/error.hpp"
#include "util/copy.hpp"

namespace strided::detail {
namespace {

class CopyStep final : public Step {
 public:
  CopyStep(const View& s, const View& d)
      : src(s.where), dst(d.where), plan_(plan_convert(s.dtype, d.dtype, d.sizes, s.strides, d.strides)) {
    declare(d, {&s});
  }
  void run(const ExecContext& c) const override { run_copy(*plan_, src.in_ptr(c), dst.out_ptr(c), c.threads); }
  const CopyPlan* plan() const { return plan_.get(); }

  Operand src, dst;

 private:
  std::shared_ptr<const CopyPlan> plan_;
};

bool overlaps(const std::byte* a, std::pair<std::int64_t, std::int64_t> ea, const std::byte* b,
              std::pair<std::int64_t, std::int64_t> eb) {
  if (ea.first >= ea.second || eb.first >= eb.second) return false;
  const auto a0 = reinterpret_cast<std::uintptr_t>(a) + static_cast<std::uintptr_t>(ea.first);
  const auto a1 = reinterpret_cast<std::uintptr_t>(a) + static_cast<std::uintptr_t>(ea.second);
  const auto b0 = reinterpret_cast<std::uintptr_t>(b) + static_cast<std::uintptr_t>(eb.first);
  const auto b1 = reinterpret_cast<std::uintptr_t>(b) + static_cast<std::uintptr_t>(eb.second);
  return a0 < b1 && b0 < a1;
}

/// Throws BufferError when two outputs share a byte (SPEC 3.0 rule 3): threads writing them
/// would race, and which value lands would depend on scheduling. Extents first (sorted, so many
/// outputs cost n log n), the exact test only for extents that meet.
void check_outputs_disjoint(const Program& p, std::byte* const* outputs,
                            const std::pair<std::int64_t, std::int64_t>* out_extent, std::size_t n_out) {
  if (n_out < 2) return;
  struct E {
    std::uintptr_t lo, hi;
    std::size_t o;
  };
  std::vector<E> es;
  es.reserve(n_out);
  for (std::size_t o = 0; o < n_out; ++o) {
    if (out_extent[o].first >= out_extent[o].second) continue;
    const auto base = reinterpret_cast<std::uintptr_t>(outputs[o]);
    es.push_back({base + static_cast<std::uintptr_t>(out_extent[o].first),
                  base + static_cast<std::uintptr_t>(out_extent[o].second), o});
  }
  std::sort(es.begin(), es.end(), [](const E& x, const E& y) { return x.lo < y.lo; });
  std::uintptr_t reach = 0;  // largest end among the extents before i
  for (std::size_t i = 0; i < es.size(); ++i) {
    if (i && es[i].lo < reach) {
      for (std::size_t j = i; j-- > 0;) {
        if (es[j].hi <= es[i].lo) continue;
        const std::size_t a = std::min(es[i].o, es[j].o), b = std::max(es[i].o, es[j].o);
        Overlap r = Overlap::kYes;
        if (a < p.out_regions.size() && b < p.out_regions.size())
          r = region_overlap(outputs[a], p.out_regions[a], outputs[b], p.out_regions[b]);
        if (r == Overlap::kNo) continue;
        throw BufferError("outputs[" + std::to_string(a) + "] and outputs[" + std::to_string(b) + "]: " +
                          (r == Overlap::kYes ? "the outputs overlap in memory (each output needs its own elements)"
                                              : "the outputs may overlap in memory (too costly to prove them "
                                                "disjoint); give each output its own elements"));
      }
    }
    reach = std::max(reach, es[i].hi);
  }
}

}  // namespace

std::unique_ptr<const Step> make_copy_step(const View& src, const View& dst) {
  return std::make_unique<CopyStep>(src, dst);
}

namespace {
constexpr std::size_t kGroup = 16;  // copies per parallel region (run_copies' job list)

// Whether a's bytes and b's (views of one buffer) are proven apart (byte spans first, then the
// exact test).
bool apart(const Region& a, const Region& b) {
  const auto* base = reinterpret_cast<const std::byte*>(std::uintptr_t{1} << 62);  // any common base
  return region_overlap(base, a, base, b, 1 << 12) == Overlap::kNo;
}

// Whether no byte of `a` (touches of output buffers) is proven to meet one of `b`.
bool apart(const std::vector<Touch>& a, const std::vector<Touch>& b) {
  for (const Touch& x : a)
    for (const Touch& y : b)
      if (x.buffer == y.buffer && !apart(x.region, y.region)) return false;
  return true;
}

// Whether step s may run in one region with the steps of g (all of whose pairs are apart): none
// writes what another writes or reads.
bool fits(const Step& s, const std::vector<const Step*>& g) {
  for (const Step* m : g)
    if (!apart(s.writes, m->writes) || !apart(s.reads, m->writes) || !apart(s.writes, m->reads)) return false;
  return true;
}
}  // namespace

void Step::declare(const View& out, std::initializer_list<const View*> ins) {
  writes.push_back(Touch{out.where.buffer, region_of(out)});
  for (const View* v : ins)
    if (v && v->where.is_output) reads.push_back(Touch{v->where.buffer, region_of(*v)});
}

void order_steps(Program& p) {
  p.groups.clear();
  p.copies.clear();
  p.others.clear();
  p.kernels.clear();
  std::vector<const Step*> g;  // the current group (copies or kernel steps; empty: another step)
  bool copies = false;         // which of the two g holds
  for (std::size_t i = 0; i < p.steps.size(); ++i) {
    const Step* s = p.steps[i].get();
    const auto* c = dynamic_cast<const CopyStep*>(s);
    const auto* k = c || s->writes.empty() ? nullptr : dynamic_cast<const KernelStep*>(s);
    if (!((c || k) && !g.empty() && copies == (c != nullptr) && g.size() < kGroup && fits(*s, g))) {
      p.groups.push_back(static_cast<std::uint32_t>(i));
      g.clear();
    }
    if (c || k) g.push_back(s);
    copies = c != nullptr;
    p.copies.push_back(c ? Program::CopyRef{c->plan(), c->src, c->dst} : Program::CopyRef{nullptr, {}, {}});
    p.kernels.push_back(k);
    if (!c) p.others.push_back(static_cast<std::uint32_t>(i));
  }
  p.groups.push_back(static_cast<std::uint32_t>(p.steps.size()));
}

void KernelStep::run(const ExecContext& c) const {
  const KernelStep* self = this;
  run_kernel_steps(&self, 1, c);
}

void run_kernel_steps(const KernelStep* const* steps, std::size_t n, const ExecContext& c) {
  if (n == 1) {  // alone: exactly parallel_ranges over its items
    const KernelStep::Work w = steps[0]->work(c);
    parallel_ranges(w.items, threads_for_bytes(w.bytes, c.threads), w.align,
                    [&](std::int64_t lo, std::int64_t hi) { steps[0]->part(c, lo, hi); });
    return;
  }
  std::vector<Split> splits;
  splits.reserve(n);
  std::uint64_t bytes = 0;
  std::vector<KernelStep::Work> work(n);
  for (std::size_t i = 0; i < n; ++i) {
    work[i] = steps[i]->work(c);
    bytes += work[i].bytes;
  }
  const int nt = threads_for_bytes(bytes, c.threads);
  std::vector<std::int64_t> first(n + 1, 0);  // step i's parts are [first[i], first[i + 1])
  for (std::size_t i = 0; i < n; ++i) {
    splits.emplace_back(std::max<std::int64_t>(work[i].items, 0), work[i].align, nt);
    first[i + 1] = first[i] + splits[i].parts;
  }
  parallel_items(first[n], nt, [&](std::int64_t q) {
    const auto i = static_cast<std::size_t>(std::upper_bound(first.begin(), first.end(), q) - first.begin() - 1);
    const std::int64_t t = q - first[i];
    steps[i]->part(c, splits[i].lo(t), splits[i].hi(t));
  });
}

void run_program(const Program& program, const std::byte* const* inputs,
                 const std::pair<std::int64_t, std::int64_t>* in_extent, std::size_t n_in, std::byte* const* outputs,
                 const std::pair<std::int64_t, std::int64_t>* out_extent, std::size_t n_out) {
  check_outputs_disjoint(program, outputs, out_extent, n_out);
  // An input that overlaps an output (other than an allowed in-place pair) is snapshotted, so
  // the result is what it would be with separate buffers (numpy's rule for overlapping copies).
  // Input pointers, possibly redirected to snapshots; inline for the usual few buffers (a tiny
  // call must not pay for an allocation).
  const std::byte* in_inline[8];
  std::vector<const std::byte*> in_heap;
  const std::byte** in = in_inline;
  if (n_in > 8) {
    in_heap.resize(n_in);
    in = in_heap.data();
  }
  std::copy(inputs, inputs + n_in, in);
  std::vector<std::vector<std::byte>> snapshots;
  for (std::size_t i = 0; i < n_in; ++i) {
    for (std::size_t o = 0; o < n_out; ++o) {
      if (!overlaps(inputs[i], in_extent[i], outputs[o], out_extent[o])) continue;
      bool ok = false;
      for (auto [pi, po] : program.inplace_ok)
        if (static_cast<std::size_t>(pi) == i && static_cast<std::size_t>(po) == o && inputs[i] == outputs[o] &&
            in_extent[i] == out_extent[o])
          ok = true;
      if (ok) continue;
      const std::int64_t lo = in_extent[i].first, hi = in_extent[i].second;
      snapshots.emplace_back(static_cast<std::size_t>(hi - lo));
      copy_bytes(snapshots.back().data(), inputs[i] + lo, static_cast<std::size_t>(hi - lo));
      in[i] = snapshots.back().data() - lo;
      break;
    }
  }
  ExecContext ctx{in,
                  n_in,
                  outputs,
                  n_out,
                  resolve_threads(program.threads),
                  reinterpret_cast<const std::byte*>(program.constants.data())};
  if (program.groups.empty()) {  // not grouped by order_steps(): every step alone, in order
    for (const auto& s : program.steps) s->check(ctx);
    for (const auto& s : program.steps) s->run(ctx);
    return;
  }
  for (const std::uint32_t i : program.others) program.steps[i]->check(ctx);
  CopyJob jobs[kGroup];
  for (std::size_t g = 0; g + 1 < program.groups.size(); ++g) {
    const std::size_t a = program.groups[g], n = program.groups[g + 1] - a;
    const Program::CopyRef* c = program.copies.data() + a;
    if (!c->plan) {
      if (n > 1) run_kernel_steps(program.kernels.data() + a, n, ctx);
      else program.steps[a]->run(ctx);
      continue;
    }
    if (n == 1) {  // the team sized once (threads_for_bytes may grant a probe of the team cap)
      run_copy(*c->plan, c->src.in_ptr(ctx), c->dst.out_ptr(ctx), ctx.threads);
      continue;
    }
    for (std::size_t j = 0; j < n; ++j) jobs[j] = CopyJob{c[j].plan, c[j].src.in_ptr(ctx), c[j].dst.out_ptr(ctx)};
    run_copies(jobs, n, ctx.threads);
  }
}

}  // namespace strided::detail

namespace strided {

CompiledOperator::CompiledOperator(std::shared_ptr<const detail::Program> program) : program_(std::move(program)) {}

std::size_t CompiledOperator::input_count() const noexcept { return program_->input_bytes.size(); }
std::size_t CompiledOperator::output_count() const noexcept { return program_->output_bytes.size(); }
const std::vector<std::uint64_t>& CompiledOperator::input_bytes() const noexcept { return program_->input_bytes; }
const std::vector<std::uint64_t>& CompiledOperator::output_bytes() const noexcept { return program_->output_bytes; }

void CompiledOperator::execute(const std::vector<ConstBuffer>& inputs, const std::vector<Buffer>& outputs) const {
  const auto& p = *program_;
  if (inputs.size() != p.input_bytes.size())
    throw BufferError("execute.inputs: expected " + std::to_string(p.input_bytes.size()) + " input buffer(s), got " +
                      std::to_string(inputs.size()));
  if (outputs.size() != p.output_bytes.size())
    throw BufferError("execute.outputs: expected " + std::to_string(p.output_bytes.size()) + " output buffer(s), got " +
                      std::to_string(outputs.size()));
  std::vector<const std::byte*> in(inputs.size());
  std::vector<std::byte*> out(outputs.size());
  std::vector<std::pair<std::int64_t, std::int64_t>> ie(inputs.size()), oe(outputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].data == nullptr) throw BufferError("execute.inputs[" + std::to_string(i) + "]: buffer is null");
    if (inputs[i].bytes < p.input_bytes[i])
      throw BufferError("execute.inputs[" + std::to_string(i) + "]: buffer has " + std::to_string(inputs[i].bytes) +
                        " bytes, the description needs total_bytes = " + std::to_string(p.input_bytes[i]));
    in[i] = static_cast<const std::byte*>(inputs[i].data);
    ie[i] = {0, static_cast<std::int64_t>(p.input_bytes[i])};
  }
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    if (outputs[o].data == nullptr) throw BufferError("execute.outputs[" + std::to_string(o) + "]: buffer is null");
    if (outputs[o].bytes < p.output_bytes[o])
      throw BufferError("execute.outputs[" + std::to_string(o) + "]: buffer has " + std::to_string(outputs[o].bytes) +
                        " bytes, the description needs total_bytes = " + std::to_string(p.output_bytes[o]));
    out[o] = static_cast<std::byte*>(outputs[o].data);
    oe[o] = {0, static_cast<std::int64_t>(p.output_bytes[o])};
  }
  detail::run_program(p, in.data(), ie.data(), in.size(), out.data(), oe.data(), out.size());
}

}  // namespace strided
