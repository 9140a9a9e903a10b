// The generic half of the operator registry: validate / min_feature_level / compile for any
// description, and the functional path's build, all dispatched through STRIDED_FOR_EACH_OP to
// the operators' own files (ops/<operator>.cpp). Nothing here names an operator.
#include <algorithm>
#include <cstring>
#include <string>

#include "ops/op.hpp"
#include "strided/compiled.hpp"
#include "view/view.hpp"

namespace strided {
namespace detail {

View view_of(const TensorDesc& t, bool is_output, int buffer) {
  View v;
  v.where = Operand{is_output, buffer, 0};
  v.dtype = t.dtype();
  v.sizes = t.sizes();
  v.strides.resize(t.sizes().size());
  const auto item = static_cast<std::int64_t>(t.itemsize());
  // A size-1 dimension's stride never moves an address, and a TensorDesc may give it any value up
  // to INT64_MAX: scaling that to bytes would overflow, so it becomes 0.
  for (std::size_t i = 0; i < v.strides.size(); ++i) v.strides[i] = t.sizes()[i] == 1 ? 0 : t.strides()[i] * item;
  return v;
}

// ------------------------------------------------------------------ Lowering

std::uint64_t element_slot(const Scalar& v) {
  // The element itself, in its native representation (an n-byte unsigned of the same bits), so
  // a kernel reads it at offset 0 on any byte order.
  std::uint64_t slot = 0;
  const auto put = [&](auto x) { std::memcpy(&slot, &x, sizeof x); };
  switch (itemsize(v.dtype)) {
    case 1: put(static_cast<std::uint8_t>(v.bits)); break;
    case 2: put(static_cast<std::uint16_t>(v.bits)); break;
    case 4: put(static_cast<std::uint32_t>(v.bits)); break;
    default: put(v.bits); break;
  }
  return slot;
}

View Lowering::in(const TensorDesc& t) {
  const int k = static_cast<int>(p.input_bytes.size());
  p.input_dtypes.push_back(t.dtype());
  if (!given_) {
    p.input_bytes.push_back(t.total_bytes());
    return view_of(t, false, k);
  }
  if (static_cast<std::size_t>(k) >= n_in_) throw ValidationError("functional call: too few input arrays");
  p.input_bytes.push_back(0);
  View v = given_in_[k];
  if (!align_right(v, t.ndim())) throw ValidationError("functional call: an input array does not fit its description");
  return v;
}

View Lowering::out(const TensorDesc& t) {
  const int k = static_cast<int>(p.output_bytes.size());
  p.output_dtypes.push_back(t.dtype());
  View v;
  if (!given_) {
    p.output_bytes.push_back(t.total_bytes());
    v = view_of(t, true, k);
  } else {
    if (static_cast<std::size_t>(k) >= n_out_) throw ValidationError("functional call: too few output arrays");
    p.output_bytes.push_back(0);
    v = given_out_[k];
    if (!align_right(v, t.ndim()))
      throw ValidationError("functional call: an output array does not fit its description");
  }
  p.out_regions.push_back(region_of(v));
  // SPEC 3.0 rule 3 within one output: a copy writes a stride-0 dimension's last coordinate (the
  // planner keeps only that one); any other element shared by two coordinates would be a race.
  // Descriptions never get here with such an output (validate's output_no_alias).
  if (given_ && may_overlap_itself(p.out_regions.back(), copy_family_))
    throw BufferError("outputs[" + std::to_string(k) + "]: the output's elements overlap each other (" +
                      (copy_family_ ? "overlapping strides" : "a stride 0 or overlapping strides") +
                      "); every output element needs its own memory");
  return v;
}

std::vector<View> Lowering::ins(const std::vector<TensorDesc>& ts) {
  std::vector<View> v;
  for (const auto& t : ts) v.push_back(in(t));
  return v;
}
std::vector<View> Lowering::outs(const std::vector<TensorDesc>& ts) {
  std::vector<View> v;
  for (const auto& t : ts) v.push_back(out(t));
  return v;
}

void Lowering::copy(const View& in, const View& out) {
  p.steps.push_back(make_copy_step(in, out));
  allow_inplace(in, out);
}

void Lowering::allow_inplace(const View& in, const View& out) {
  if (in.dtype == out.dtype && in.strides == out.strides && in.where.offset == out.where.offset)
    p.inplace_ok.emplace_back(in.where.buffer, out.where.buffer);
}

void Lowering::fill(const View& out, const Scalar& value) {
  View src;
  src.where.is_constant = true;
  src.where.offset = static_cast<std::int64_t>(p.constants.size() * sizeof(std::uint64_t));
  src.dtype = out.dtype;
  src.sizes = out.sizes;
  src.strides.assign(out.sizes.size(), 0);
  p.constants.push_back(element_slot(value.cast(out.dtype)));
  p.steps.push_back(make_copy_step(src, out));
}

void Lowering::own_elements(const View& out) const {
  if (given_ && may_overlap_itself(region_of(out), false))
    throw BufferError("outputs[" + std::to_string(out.where.buffer) +
                      "]: the output's elements overlap each other (a stride 0 or overlapping strides); every output "
                      "element needs its own memory");
}

// ------------------------------------------------------------------ Call

void Call::expect(std::size_t ins, std::size_t outs, std::size_t params) const {
  if ((ins && n_in != ins) || (outs && n_out != outs) || n_prm < params)
    throw ValidationError("functional call: wrong number of arrays or parameters for the operator");
}

namespace {
TensorDesc spec_desc(const ArraySpec& a, int ndim) {
  std::vector<std::int64_t> sizes(static_cast<std::size_t>(std::max(0, ndim - a.ndim)), 1);
  sizes.insert(sizes.end(), a.shape, a.shape + a.ndim);
  return TensorDesc(a.dtype, sizes);
}
}  // namespace

TensorDesc Call::in_desc(std::size_t i, int ndim) const { return spec_desc(in[i], ndim); }
TensorDesc Call::out_desc(std::size_t i, int ndim) const { return spec_desc(out[i], ndim); }
std::vector<TensorDesc> Call::in_descs() const {
  std::vector<TensorDesc> v;
  for (std::size_t i = 0; i < n_in; ++i) v.push_back(in_desc(i));
  return v;
}
std::vector<TensorDesc> Call::out_descs() const {
  std::vector<TensorDesc> v;
  for (std::size_t i = 0; i < n_out; ++i) v.push_back(out_desc(i));
  return v;
}
int Call::max_ndim() const {
  int n = 0;
  for (std::size_t i = 0; i < n_in; ++i) n = std::max(n, in[i].ndim);
  for (std::size_t i = 0; i < n_out; ++i) n = std::max(n, out[i].ndim);
  return n;
}
std::int64_t Call::axis(std::int64_t axis, int ndim, const char* field) {
  if (axis < -ndim || axis >= ndim)
    throw ValidationError(std::string(field) + ": " + std::to_string(axis) + " is out of range for " +
                          std::to_string(ndim) + " dimension(s)");
  return axis < 0 ? axis + ndim : axis;
}

ScatterReduction reduction_code(std::int64_t r, const char* field) {
  if (r < 0 || r > 4) throw ValidationError(std::string(field) + ": unknown reduction code " + std::to_string(r));
  return static_cast<ScatterReduction>(r);
}

bool is_index_code(int code) noexcept {
  bool index = false;
  if (code >= 0 && code < static_cast<int>(std::variant_size_v<AnyDesc>))
    visit_code(code, [&](auto* tag) { index = IsIndexFamily<std::remove_pointer_t<decltype(tag)>>::value; });
  return index;
}

std::shared_ptr<Program> build_call(int code, const Call& call, const View* ins, const View* outs) {
  return visit_code(code, [&](auto* tag) {
    using D = std::remove_pointer_t<decltype(tag)>;
    const D desc = from_call(call, tag);
    validate(AnyDesc(desc));
    auto p = std::make_shared<Program>();
    Lowering lowering(*p, ins, call.n_in, outs, call.n_out, !IsIndexFamily<D>::value);
    lower(lowering, desc);
    order_steps(*p);
    return p;
  });
}

CallShapes call_shapes(int code, const Call& call) {
  return visit_code(code, [&](auto* tag) -> CallShapes {
    if constexpr (IsIndexFamily<std::remove_pointer_t<decltype(tag)>>::value) return call_shapes(call, tag);
    else throw ValidationError("functional call: the operator has no shape rule for calls");
  });
}

}  // namespace detail

// ------------------------------------------------------------------ public entry points

std::string desc_name(const AnyDesc& desc) {
  return std::visit([](const auto& d) { return std::string(std::decay_t<decltype(d)>::name); }, desc);
}

void validate(const AnyDesc& desc, std::optional<FeatureLevel> level) {
  std::visit(
      [&level](const auto& d) {
        const detail::Rules rules(std::decay_t<decltype(d)>::name, level);
        if (level && !is_known_feature_level(static_cast<std::uint32_t>(*level)))
          throw ValidationError(std::string(std::decay_t<decltype(d)>::name) + ": unknown feature level " +
                                std::to_string(static_cast<std::uint32_t>(*level)));
        check(rules, d);
      },
      desc);
}

bool is_valid_at(const AnyDesc& desc, FeatureLevel level) {
  try {
    validate(desc, level);
    return true;
  } catch (const ValidationError&) {
    return false;
  }
}

FeatureLevel min_feature_level(const AnyDesc& desc) {
  validate(desc, std::nullopt);  // a structural error is the reason no level accepts it
  static constexpr FeatureLevel kLevels[] = {
#define STRIDED_X(name, value, str) FeatureLevel::name,
      STRIDED_FOR_EACH_FEATURE_LEVEL(STRIDED_X)
#undef STRIDED_X
  };
  for (FeatureLevel l : kLevels)
    if (is_valid_at(desc, l)) return l;
  validate(desc, kNewestFeatureLevel);  // throws the newest level's reason (extension, size limit)
  throw ValidationError(desc_name(desc) + ": no DirectML feature level accepts this description");
}

CompiledOperator compile(const AnyDesc& desc, CompileOptions options) {
  validate(desc);
  auto p = std::make_shared<detail::Program>();
  p->threads = options.threads;
  detail::Lowering lowering(*p);
  std::visit([&lowering](const auto& d) { lower(lowering, d); }, desc);
  detail::order_steps(*p);
  return CompiledOperator(std::move(p));
}

}  // namespace strided
