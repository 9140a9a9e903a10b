// compile(): validate a description, make views of its tensors and lower it to a Program.
#include <type_traits>

#include "ops/lower.hpp"
#include "strided/compiled.hpp"

namespace strided {
namespace {

using detail::Program;
using detail::View;
using detail::view_of;

struct Builder {
  Program& p;
  View in(const TensorDesc& t) {
    p.input_bytes.push_back(t.total_bytes());
    return view_of(t, false, static_cast<int>(p.input_bytes.size() - 1));
  }
  View out(const TensorDesc& t) {
    p.output_bytes.push_back(t.total_bytes());
    View v = view_of(t, true, static_cast<int>(p.output_bytes.size() - 1));
    p.out_regions.push_back(detail::region_of(v));
    return v;
  }
};

void lower_desc(Program& p, const AnyDesc& any) {
  Builder b{p};
  std::visit(
      [&](const auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<D, IdentityDesc>) {
          auto i = b.in(d.input);
          detail::lower_identity(p, i, b.out(d.output));
        } else if constexpr (std::is_same_v<D, SplitDesc>) {
          auto i = b.in(d.input);
          std::vector<View> outs;
          for (const auto& t : d.outputs) outs.push_back(b.out(t));
          detail::lower_split(p, i, outs, static_cast<int>(d.axis));
        } else if constexpr (std::is_same_v<D, JoinDesc>) {
          std::vector<View> ins;
          for (const auto& t : d.inputs) ins.push_back(b.in(t));
          detail::lower_join(p, ins, b.out(d.output), static_cast<int>(d.axis));
        } else if constexpr (std::is_same_v<D, SliceDesc>) {
          auto i = b.in(d.input);
          detail::lower_slice(p, i, b.out(d.output), d.offsets, d.strides);
        } else if constexpr (std::is_same_v<D, Slice1Desc>) {
          auto i = b.in(d.input);
          detail::lower_slice1(p, i, b.out(d.output), d.offsets, d.sizes, d.strides);
        } else if constexpr (std::is_same_v<D, GatherDesc>) {
          auto i = b.in(d.input);
          auto x = b.in(d.indices);
          detail::lower_gather(p, i, x, b.out(d.output), static_cast<int>(d.axis),
                               static_cast<int>(d.index_dimensions));
        } else if constexpr (std::is_same_v<D, GatherElementsDesc>) {
          auto i = b.in(d.input);
          auto x = b.in(d.indices);
          detail::lower_gather_elements(p, i, x, b.out(d.output), static_cast<int>(d.axis));
        } else if constexpr (std::is_same_v<D, GatherNDDesc>) {
          auto i = b.in(d.input);
          auto x = b.in(d.indices);
          detail::lower_gather_nd(p, i, x, b.out(d.output), static_cast<int>(d.input_dimension_count),
                                  static_cast<int>(d.indices_dimension_count),
                                  static_cast<int>(d.batch_dimension_count));
        } else if constexpr (std::is_same_v<D, ScatterDesc>) {
          auto i = b.in(d.input);
          auto x = b.in(d.indices);
          auto u = b.in(d.updates);
          detail::lower_scatter(p, i, x, u, b.out(d.output), static_cast<int>(d.axis), d.reduction);
        } else if constexpr (std::is_same_v<D, ScatterNDDesc>) {
          auto i = b.in(d.input);
          auto x = b.in(d.indices);
          auto u = b.in(d.updates);
          detail::lower_scatter_nd(p, i, x, u, b.out(d.output), static_cast<int>(d.input_dimension_count),
                                   static_cast<int>(d.indices_dimension_count), d.reduction);
        }
      },
      any);
}

}  // namespace

CompiledOperator compile(const AnyDesc& desc, CompileOptions options) {
  validate(desc);
  auto p = std::make_shared<Program>();
  p->threads = options.threads;
  lower_desc(*p, desc);
  return CompiledOperator(std::move(p));
}

}  // namespace strided
