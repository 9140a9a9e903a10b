// strided::xla: types, Layout, Shape (validation, text form, sizes, strides) and IndexUtil.
#include <cctype>
#include <limits>
#include <string>

#include "strided/error.hpp"
#include "strided/xla.hpp"
#include "util/checked.hpp"
#include "xla/xla_internal.hpp"

namespace strided::xla {

namespace {
constexpr std::uint64_t kMax63 = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

std::string upper(std::string_view s) {
  std::string r;
  for (char ch : s) r += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return r;
}

std::string list(const std::vector<std::int64_t>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

void mix(std::size_t& h, std::uint64_t v) noexcept {
  h ^= static_cast<std::size_t>(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
}
}  // namespace

// ---------------------------------------------------------------- types
std::size_t primitive_type_size(PrimitiveType t) noexcept {
  switch (t) {
#define STRIDED_X(nm, val, bytes, dt) \
  case PrimitiveType::nm: return bytes;
    STRIDED_FOR_EACH_XLA_TYPE(STRIDED_X)
#undef STRIDED_X
    default: return 0;
  }
}

bool is_valid_primitive_type(PrimitiveType t) noexcept { return primitive_type_size(t) != 0; }

std::string_view primitive_type_name(PrimitiveType t) noexcept {
  switch (t) {
    case PrimitiveType::PRED: return "pred";
    case PrimitiveType::S8: return "s8";
    case PrimitiveType::S16: return "s16";
    case PrimitiveType::S32: return "s32";
    case PrimitiveType::S64: return "s64";
    case PrimitiveType::U8: return "u8";
    case PrimitiveType::U16: return "u16";
    case PrimitiveType::U32: return "u32";
    case PrimitiveType::U64: return "u64";
    case PrimitiveType::F16: return "f16";
    case PrimitiveType::F32: return "f32";
    case PrimitiveType::F64: return "f64";
    default: return "invalid";
  }
}

PrimitiveType parse_primitive_type(std::string_view name) {
  const std::string u = upper(name);
#define STRIDED_X(nm, val, bytes, dt) \
  if (u == #nm) return PrimitiveType::nm;
  STRIDED_FOR_EACH_XLA_TYPE(STRIDED_X)
#undef STRIDED_X
  throw ValidationError("PrimitiveType: unknown primitive type '" + std::string(name) +
                        "' (expected one of pred, s8, s16, s32, s64, u8, u16, u32, u64, f16, f32, f64)");
}

DataType to_data_type(PrimitiveType t) {
  switch (t) {
#define STRIDED_X(nm, val, bytes, dt) \
  case PrimitiveType::nm: return DataType::dt;
    STRIDED_FOR_EACH_XLA_TYPE(STRIDED_X)
#undef STRIDED_X
    default: throw ValidationError("PrimitiveType: invalid primitive type " + std::to_string(static_cast<int>(t)));
  }
}

bool is_valid_padding_value(PaddingValue v) noexcept {
  return static_cast<int>(v) >= static_cast<int>(PaddingValue::ZERO_PAD) &&
         static_cast<int>(v) <= static_cast<int>(PaddingValue::UNKNOWN_PAD);
}

std::string_view padding_value_name(PaddingValue v) noexcept {
  switch (v) {
    case PaddingValue::ZERO_PAD: return "ZERO_PAD";
    case PaddingValue::ONE_PAD: return "ONE_PAD";
    case PaddingValue::LOWEST_PAD: return "LOWEST_PAD";
    case PaddingValue::HIGHEST_PAD: return "HIGHEST_PAD";
    case PaddingValue::UNKNOWN_PAD: return "UNKNOWN_PAD";
    default: return "INVALID_PAD";
  }
}

PaddingValue parse_padding_value(std::string_view name) {
  const std::string u = upper(name);
  for (int v = 1; v <= 5; ++v)
    if (u == padding_value_name(static_cast<PaddingValue>(v))) return static_cast<PaddingValue>(v);
  throw ValidationError("PaddingValue: unknown padding value '" + std::string(name) +
                        "' (expected ZERO_PAD, ONE_PAD, LOWEST_PAD, HIGHEST_PAD or UNKNOWN_PAD)");
}

// ---------------------------------------------------------------- Layout
std::string Layout::to_string() const {
  std::string s = "{" + list(minor_to_major);
  if (has_tiles() || element_size_in_bits != 0) {
    s += ":";
    if (has_tiles()) s += "T";
    for (const auto& t : tiles) {
      s += "(";
      for (std::size_t i = 0; i < t.size(); ++i)
        s += (i ? "," : "") + (t[i] == kCombineDimension ? std::string("*") : std::to_string(t[i]));
      s += ")";
    }
    if (element_size_in_bits != 0) s += "E(" + std::to_string(element_size_in_bits) + ")";
  }
  return s + "}";
}

std::size_t Layout::hash() const noexcept {
  std::size_t h = minor_to_major.size();
  for (auto v : minor_to_major) mix(h, static_cast<std::uint64_t>(v));
  mix(h, padded_dimensions.size());
  for (auto v : padded_dimensions) mix(h, static_cast<std::uint64_t>(v));
  mix(h, static_cast<std::uint64_t>(padding_value));
  mix(h, tiles.size());
  for (const auto& t : tiles) {
    mix(h, t.size());
    for (auto v : t) mix(h, static_cast<std::uint64_t>(v));
  }
  mix(h, static_cast<std::uint64_t>(element_size_in_bits));
  return h;
}

Layout default_layout(std::int64_t rank) {
  if (rank < 0) throw ValidationError("default_layout.rank: must be >= 0, got " + std::to_string(rank));
  if (rank > (1 << 20))
    throw ValidationError("default_layout.rank: " + std::to_string(rank) + " is unreasonably large");
  Layout l;
  for (std::int64_t d = rank - 1; d >= 0; --d) l.minor_to_major.push_back(d);
  return l;
}

Layout make_layout_from_major_to_minor(const std::vector<std::int64_t>& major_to_minor) {
  detail::check_permutation(major_to_minor, "make_layout_from_major_to_minor.major_to_minor");
  return Layout(std::vector<std::int64_t>(major_to_minor.rbegin(), major_to_minor.rend()));
}

// ---------------------------------------------------------------- Shape
Shape::Shape(PrimitiveType t, std::vector<std::int64_t> dims)
    : element_type(t), dimensions(std::move(dims)),
      layout(default_layout(static_cast<std::int64_t>(dimensions.size()))) {}

Shape::Shape(PrimitiveType t, std::vector<std::int64_t> dims, Layout l)
    : element_type(t), dimensions(std::move(dims)), layout(std::move(l)) {}

void Shape::validate() const { detail::validate_shape(*this, "Shape"); }

std::vector<std::int64_t> Shape::padded_extents() const {
  return layout.has_padding() ? layout.padded_dimensions : dimensions;
}

std::uint64_t Shape::element_count() const {
  validate();
  return detail::checked_product(dimensions);
}

std::uint64_t Shape::physical_element_count() const {
  validate();
  return detail::checked_product(physical_dimensions());
}

std::vector<std::int64_t> Shape::physical_dimensions() const {
  validate();
  const auto stages = detail::tile_stages(*this, "Shape");
  if (!stages.empty()) return stages.back().out;
  std::vector<std::int64_t> p;
  const auto ext = padded_extents();
  for (auto it = layout.minor_to_major.rbegin(); it != layout.minor_to_major.rend(); ++it)
    p.push_back(ext[static_cast<std::size_t>(*it)]);
  return p;
}

std::uint64_t Shape::byte_size() const { return physical_element_count() * primitive_type_size(element_type); }

std::vector<std::int64_t> Shape::strides() const {
  validate();
  if (layout.has_tiles())
    throw ValidationError("Shape.strides: " + to_string() + " is tiled; a tiled dimension has no single stride");
  return detail::strides_of(*this);
}

TensorDesc Shape::tensor_desc() const {
  validate();
  if (dimensions.size() > static_cast<std::size_t>(kMaxDims))
    throw ValidationError("Shape.tensor_desc: rank " + std::to_string(dimensions.size()) + " exceeds DirectML's " +
                          std::to_string(kMaxDims) + " dimensions");
  for (std::size_t i = 0; i < dimensions.size(); ++i)
    if (dimensions[i] == 0)
      throw ValidationError("Shape.tensor_desc: dimensions[" + std::to_string(i) +
                            "] is 0; a DirectML tensor has every size >= 1");
  if (layout.has_tiles())
    throw ValidationError("Shape.tensor_desc: " + to_string() + " is tiled, not a strided tensor");
  const DataType dt = to_data_type(element_type);
  std::vector<std::int64_t> sizes = dimensions, st = detail::strides_of(*this);
  if (sizes.empty()) {  // a scalar is DirectML's one-element tensor
    sizes = {1};
    st = {1};
  }
  const std::uint64_t min = calc_buffer_tensor_size(dt, sizes, st);
  const std::uint64_t bytes = byte_size();
  return TensorDesc(dt, sizes, st, bytes > min ? bytes : min);
}

std::string Shape::to_string() const {
  std::string s = std::string(primitive_type_name(element_type)) + "[" + list(dimensions) + "]";
  if (!dimensions.empty() || layout.has_tiles() || layout.element_size_in_bits != 0) s += layout.to_string();
  return s;
}

std::size_t Shape::hash() const noexcept {
  std::size_t h = static_cast<std::size_t>(element_type);
  mix(h, dimensions.size());
  for (auto v : dimensions) mix(h, static_cast<std::uint64_t>(v));
  mix(h, layout.hash());
  return h;
}

namespace {
class Parser {
 public:
  explicit Parser(std::string_view t) : text_(t) {}

  Shape run() {
    skip();
    std::size_t start = pos_;
    while (pos_ < text_.size() && std::isalnum(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    if (start == pos_) fail("expected an element type");
    Shape s;
    s.element_type = parse_primitive_type(text_.substr(start, pos_ - start));
    s.dimensions = int_list('[', ']', "a dimension");
    skip();
    if (pos_ < text_.size() && text_[pos_] == '{') s.layout = layout();
    else s.layout = default_layout(static_cast<std::int64_t>(s.dimensions.size()));
    skip();
    if (pos_ != text_.size()) fail("unexpected text after the shape");
    return s;
  }

 private:
  void skip() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw ValidationError("Shape.parse: " + what + " at offset " + std::to_string(pos_) + " in '" + std::string(text_) +
                          "'");
  }
  bool peek(char c) {
    skip();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  // "{" minor_to_major [":" ["T" ("(" entry,... ")")+] ["E(" bits ")"]] "}"
  Layout layout() {
    expect('{');
    Layout l;
    if (!peek('}') && !peek(':')) l.minor_to_major = ints_until("a dimension number", ':', '}');
    if (peek(':')) {
      ++pos_;
      if (peek('T')) {
        ++pos_;
        if (!peek('(')) fail("expected '(' after T");
        while (peek('(')) {
          ++pos_;
          std::vector<std::int64_t> t;
          while (true) {
            if (peek('*')) {
              ++pos_;
              t.push_back(kCombineDimension);
            } else {
              t.push_back(number("a tile size or '*'"));
            }
            if (peek(',')) {
              ++pos_;
              continue;
            }
            expect(')');
            break;
          }
          l.tiles.push_back(std::move(t));
        }
      }
      if (peek('E')) {
        ++pos_;
        expect('(');
        l.element_size_in_bits = number("an element size in bits");
        expect(')');
      }
      if (!peek('}')) {
        if (pos_ < text_.size())
          fail(std::string("layout attribute '") + text_[pos_] +
               "' is not supported (only T(...) tiles then E(bits); memory space S, ... are not)");
        fail("expected '}'");
      }
    }
    expect('}');
    return l;
  }
  std::int64_t number(const char* what) {
    skip();
    if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_])))
      fail(std::string("expected ") + what);
    std::uint64_t n = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      if (!strided::detail::checked_mul(n, 10, n) ||
          !strided::detail::checked_add(n, static_cast<std::uint64_t>(text_[pos_] - '0'), n) || n > kMax63)
        fail("number does not fit in 63 bits");
      ++pos_;
    }
    return static_cast<std::int64_t>(n);
  }
  // Comma-separated numbers up to (not consuming) `stop1` or `stop2`.
  std::vector<std::int64_t> ints_until(const char* what, char stop1, char stop2) {
    std::vector<std::int64_t> v;
    while (true) {
      v.push_back(number(what));
      if (peek(',')) {
        ++pos_;
        continue;
      }
      if (peek(stop1) || peek(stop2)) return v;
      fail(std::string("expected ',' or '") + stop2 + "'");
    }
  }
  void expect(char c) {
    skip();
    if (pos_ >= text_.size() || text_[pos_] != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  std::vector<std::int64_t> int_list(char open, char close, const char* what) {
    expect(open);
    std::vector<std::int64_t> v;
    skip();
    if (pos_ < text_.size() && text_[pos_] == close) {
      ++pos_;
      return v;
    }
    while (true) {
      v.push_back(number(what));
      skip();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      expect(close);
      return v;
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};
}  // namespace

Shape Shape::parse(std::string_view text) {
  Shape s = Parser(text).run();
  s.validate();
  return s;
}

Shape make_shape(PrimitiveType t, const std::vector<std::int64_t>& dims) {
  Shape s(t, dims, default_layout(static_cast<std::int64_t>(dims.size())));
  detail::validate_shape(s, "make_shape");
  return s;
}

Shape make_shape_with_layout(PrimitiveType t, const std::vector<std::int64_t>& dims,
                             const std::vector<std::int64_t>& minor_to_major) {
  Shape s(t, dims, Layout(minor_to_major));
  detail::validate_shape(s, "make_shape_with_layout");
  return s;
}

// ---------------------------------------------------------------- IndexUtil
namespace {
void check_index(const Shape& s, const std::vector<std::int64_t>& index, const char* fn) {
  if (index.size() != s.dimensions.size())
    throw ValidationError(std::string(fn) + ".index: must have one entry per dimension (rank " +
                          std::to_string(s.dimensions.size()) + "), got " + std::to_string(index.size()));
  for (std::size_t i = 0; i < index.size(); ++i)
    if (index[i] < 0 || index[i] >= s.dimensions[i])
      throw ValidationError(std::string(fn) + ".index[" + std::to_string(i) + "]: " + std::to_string(index[i]) +
                            " is out of range [0, " + std::to_string(s.dimensions[i]) + ")");
}

// Row-major offset of `e` in `bounds` (fits: bounded by the validated buffer size).
std::int64_t row_major(const std::vector<std::int64_t>& e, const std::vector<std::int64_t>& bounds) {
  std::int64_t r = 0;
  for (std::size_t i = 0; i < e.size(); ++i) r = r * bounds[i] + e[i];
  return r;
}

// SPEC 5.1's linear(e, d, t), one stage at a time: e (physical order) -> index in the final bounds.
std::vector<std::int64_t> apply_tiles(const std::vector<detail::TileStage>& stages, std::vector<std::int64_t> e) {
  for (const auto& st : stages) {
    e.insert(e.begin(), st.prepend, 0);
    std::vector<std::int64_t> m(st.merged.size(), 0);
    for (std::size_t i = 0; i < e.size(); ++i) m[st.group[i]] = m[st.group[i]] * st.in[i] + e[i];
    const std::size_t nt = st.tile.size();
    e.assign(m.begin(), m.begin() + static_cast<std::ptrdiff_t>(st.first));
    for (std::size_t c = 0; c < nt; ++c) e.push_back(m[st.first + c] / st.tile[c]);
    for (std::size_t c = 0; c < nt; ++c) e.push_back(m[st.first + c] % st.tile[c]);
  }
  return e;
}
}  // namespace

std::int64_t multidimensional_index_to_linear_index(const Shape& shape, const std::vector<std::int64_t>& index) {
  shape.validate();
  check_index(shape, index, "multidimensional_index_to_linear_index");
  if (shape.layout.has_tiles()) {
    const auto stages = detail::tile_stages(shape, "multidimensional_index_to_linear_index.shape");
    std::vector<std::int64_t> e;
    for (auto it = shape.layout.minor_to_major.rbegin(); it != shape.layout.minor_to_major.rend(); ++it)
      e.push_back(index[static_cast<std::size_t>(*it)]);
    return row_major(apply_tiles(stages, std::move(e)), stages.back().out);
  }
  const auto st = detail::strides_of(shape);
  std::int64_t linear = 0;  // < physical element count, which validate() bounded by 63 bits
  for (std::size_t d = 0; d < index.size(); ++d) linear += index[d] * st[d];
  return linear;
}

std::vector<std::int64_t> linear_index_to_multidimensional_index(const Shape& shape, std::int64_t linear) {
  shape.validate();
  const std::uint64_t total = shape.physical_element_count();
  if (linear < 0 || static_cast<std::uint64_t>(linear) >= total)
    throw ValidationError("linear_index_to_multidimensional_index.linear_index: " + std::to_string(linear) +
                          " is outside the buffer [0, " + std::to_string(total) + ")");
  if (shape.layout.has_tiles()) {
    const auto stages = detail::tile_stages(shape, "linear_index_to_multidimensional_index.shape");
    std::vector<std::int64_t> o = stages.back().out, e(o.size());
    std::int64_t rem = linear;
    for (std::size_t i = o.size(); i-- > 0;) {
      e[i] = rem % o[i];
      rem /= o[i];
    }
    for (auto st = stages.rbegin(); st != stages.rend(); ++st) {  // undo each tile
      const std::size_t nt = st->tile.size();
      std::vector<std::int64_t> m(e.begin(), e.begin() + static_cast<std::ptrdiff_t>(st->first));
      for (std::size_t c = 0; c < nt; ++c) {
        m.push_back(e[st->first + c] * st->tile[c] + e[st->first + nt + c]);
        if (m.back() >= st->merged[st->first + c])
          throw IndexError("linear_index_to_multidimensional_index.linear_index: " + std::to_string(linear) +
                           " lies in the padding of a partial tile");
      }
      std::vector<std::int64_t> in(st->in.size());
      for (std::size_t i = in.size(); i-- > 0;) {
        in[i] = m[st->group[i]] % st->in[i];
        m[st->group[i]] /= st->in[i];
      }
      e.assign(in.begin() + static_cast<std::ptrdiff_t>(st->prepend), in.end());
    }
    std::vector<std::int64_t> index(shape.dimensions.size());
    const auto& m2m = shape.layout.minor_to_major;
    for (std::size_t p = 0; p < e.size(); ++p) index[static_cast<std::size_t>(m2m[m2m.size() - 1 - p])] = e[p];
    return index;
  }
  const auto st = detail::strides_of(shape);  // all >= 1: no extent is 0 when total > 0
  std::vector<std::int64_t> index(shape.dimensions.size());
  std::int64_t rem = linear;
  for (auto it = shape.layout.minor_to_major.rbegin(); it != shape.layout.minor_to_major.rend(); ++it) {
    const auto d = static_cast<std::size_t>(*it);
    index[d] = rem / st[d];
    rem %= st[d];
  }
  for (std::size_t d = 0; d < index.size(); ++d)
    if (index[d] >= shape.dimensions[d])
      throw IndexError("linear_index_to_multidimensional_index.linear_index: " + std::to_string(linear) +
                       " lies in the padding (dimension " + std::to_string(d) + " index " + std::to_string(index[d]) +
                       " >= its size " + std::to_string(shape.dimensions[d]) + ")");
  return index;
}

std::optional<std::vector<std::int64_t>> bump_indices(const Shape& shape, const std::vector<std::int64_t>& index) {
  shape.validate();
  check_index(shape, index, "bump_indices");
  std::vector<std::int64_t> next = index;
  for (std::size_t d = next.size(); d-- > 0;) {
    if (++next[d] < shape.dimensions[d]) return next;
    next[d] = 0;
  }
  return std::nullopt;
}

std::int64_t dimension_stride(const Shape& shape, std::int64_t dim) {
  shape.validate();
  if (dim < 0 || dim >= shape.rank())
    throw ValidationError("dimension_stride.dim: " + std::to_string(dim) + " is out of range [0, " +
                          std::to_string(shape.rank()) + ")");
  if (shape.layout.has_tiles()) {
    // The dimension's position in physical order, followed through the tiles: uncovered
    // dimensions stay at the front, so its stride is the product of the bounds after it.
    const auto stages = detail::tile_stages(shape, "dimension_stride.shape");
    const auto& m2m = shape.layout.minor_to_major;
    std::size_t p = 0;
    while (m2m[m2m.size() - 1 - p] != dim) ++p;
    for (std::size_t k = 0; k < stages.size(); ++k) {
      p += stages[k].prepend;
      if (p >= stages[k].in.size() - shape.layout.tiles[k].size())
        throw ValidationError("dimension_stride.dim: dimension " + std::to_string(dim) + " of " + shape.to_string() +
                              " is covered by tile " + std::to_string(k) + " and has no single stride");
    }
    const auto& out = stages.back().out;
    std::int64_t stride = 1;
    for (std::size_t i = p + 1; i < out.size(); ++i) stride *= out[i];
    return stride;
  }
  return detail::strides_of(shape)[static_cast<std::size_t>(dim)];
}

// ---------------------------------------------------------------- internals
namespace detail {

void check_permutation(const std::vector<std::int64_t>& p, const std::string& field) {
  std::vector<bool> seen(p.size(), false);
  for (std::size_t i = 0; i < p.size(); ++i) {
    const std::int64_t v = p[i];
    if (v < 0 || static_cast<std::uint64_t>(v) >= p.size())
      throw ValidationError(field + "[" + std::to_string(i) + "]: " + std::to_string(v) +
                            " is not a dimension number in [0, " + std::to_string(p.size()) + ")");
    if (seen[static_cast<std::size_t>(v)])
      throw ValidationError(field + ": not a permutation of 0.." + std::to_string(p.size() - 1) + " (dimension " +
                            std::to_string(v) + " appears twice)");
    seen[static_cast<std::size_t>(v)] = true;
  }
}

std::uint64_t checked_product(const std::vector<std::int64_t>& v) {
  for (auto x : v)
    if (x == 0) return 0;
  std::uint64_t r = 1;
  for (auto x : v)
    if (!strided::detail::checked_mul(r, static_cast<std::uint64_t>(x), r) || r > kMax63)
      throw ValidationError("Shape: element count overflows 63 bits");
  return r;
}

void validate_shape(const Shape& s, const std::string& name) {
  if (!is_valid_primitive_type(s.element_type))
    throw ValidationError(name + ".element_type: invalid primitive type " +
                          std::to_string(static_cast<int>(s.element_type)));
  const std::size_t rank = s.dimensions.size();
  for (std::size_t i = 0; i < rank; ++i)
    if (s.dimensions[i] < 0)
      throw ValidationError(name + ".dimensions[" + std::to_string(i) + "]: must be >= 0, got " +
                            std::to_string(s.dimensions[i]));
  const Layout& l = s.layout;
  if (l.minor_to_major.size() != rank)
    throw ValidationError(name + ".layout.minor_to_major: must have one entry per dimension (rank " +
                          std::to_string(rank) + "), got " + std::to_string(l.minor_to_major.size()));
  check_permutation(l.minor_to_major, name + ".layout.minor_to_major");
  if (l.has_padding()) {
    if (l.padded_dimensions.size() != rank)
      throw ValidationError(name + ".layout.padded_dimensions: must have one entry per dimension (rank " +
                            std::to_string(rank) + "), got " + std::to_string(l.padded_dimensions.size()));
    for (std::size_t i = 0; i < rank; ++i)
      if (l.padded_dimensions[i] < s.dimensions[i])
        throw ValidationError(name + ".layout.padded_dimensions[" + std::to_string(i) +
                              "]: " + std::to_string(l.padded_dimensions[i]) + " is less than the dimension " +
                              std::to_string(s.dimensions[i]));
  }
  if (!is_valid_padding_value(l.padding_value))
    throw ValidationError(name + ".layout.padding_value: " +
                          (l.padding_value == PaddingValue::INVALID_PAD
                               ? std::string("INVALID_PAD is never valid")
                               : "unknown padding value " + std::to_string(static_cast<int>(l.padding_value))));
  const std::uint64_t item = primitive_type_size(s.element_type);
  if (l.element_size_in_bits != 0 && static_cast<std::uint64_t>(l.element_size_in_bits) != 8 * item)
    throw ValidationError(name + ".layout.element_size_in_bits: must be 0 or " +
                          std::string(primitive_type_name(s.element_type)) + "'s natural " + std::to_string(8 * item) +
                          ", got " + std::to_string(l.element_size_in_bits) + " (sub-byte types are out of scope)");
  if (l.has_tiles()) {
    if (l.has_padding())
      throw ValidationError(name + ".layout.tiles: a layout has padded_dimensions or tiles, not both");
    const auto stages = tile_stages(s, name);
    std::uint64_t bytes = 0;
    if (!strided::detail::checked_mul(checked_product(stages.back().out), item, bytes) || bytes > kMax63)
      throw ValidationError(name + ".dimensions: the buffer size overflows 63 bits");
    return;
  }
  // Strides (elements) and the byte size must fit in 63 bits, so byte offsets never wrap.
  const auto ext = s.padded_extents();
  std::uint64_t stride = 1, bytes = 0;
  bool ok = true;
  for (auto d : l.minor_to_major) {
    ok = ok &&
         strided::detail::checked_mul(stride, static_cast<std::uint64_t>(ext[static_cast<std::size_t>(d)]), stride);
    if (stride == 0) break;  // an empty buffer: nothing beyond is ever addressed
  }
  ok = ok && strided::detail::checked_mul(stride, item, bytes) && bytes <= kMax63;
  if (!ok) throw ValidationError(name + ".dimensions: the buffer size overflows 63 bits");
}

std::vector<std::int64_t> physical_order_dims(const Shape& s) {
  std::vector<std::int64_t> p;
  for (auto it = s.layout.minor_to_major.rbegin(); it != s.layout.minor_to_major.rend(); ++it)
    p.push_back(s.dimensions[static_cast<std::size_t>(*it)]);
  return p;
}

std::vector<TileStage> tile_stages(const Shape& s, const std::string& name) {
  std::vector<TileStage> stages;
  std::vector<std::int64_t> bounds = physical_order_dims(s);
  const auto overflow = [&] { return ValidationError(name + ".dimensions: the tiled buffer size overflows 63 bits"); };
  for (std::size_t k = 0; k < s.layout.tiles.size(); ++k) {
    const auto& t = s.layout.tiles[k];
    const std::string field = name + ".layout.tiles[" + std::to_string(k) + "]";
    if (t.empty()) throw ValidationError(field + ": a tile has at least one entry");
    for (std::size_t j = 0; j < t.size(); ++j)
      if (t[j] <= 0 && t[j] != kCombineDimension)
        throw ValidationError(field + "[" + std::to_string(j) + "]: tile size must be positive or '*', got " +
                              std::to_string(t[j]));
    if (t.back() == kCombineDimension)
      throw ValidationError(field + "[" + std::to_string(t.size() - 1) +
                            "]: '*' must be followed by a more minor entry to combine with");
    TileStage st;
    st.prepend = t.size() > bounds.size() ? t.size() - bounds.size() : 0;
    st.in.assign(st.prepend, 1);
    st.in.insert(st.in.end(), bounds.begin(), bounds.end());
    st.first = st.in.size() - t.size();
    st.merged.assign(st.in.begin(), st.in.begin() + static_cast<std::ptrdiff_t>(st.first));
    for (std::size_t i = 0; i < st.first; ++i) st.group.push_back(i);
    std::uint64_t acc = 1;
    for (std::size_t j = 0; j < t.size(); ++j) {
      st.group.push_back(st.merged.size());
      if (!strided::detail::checked_mul(acc, static_cast<std::uint64_t>(st.in[st.first + j]), acc) || acc > kMax63)
        throw overflow();
      if (t[j] == kCombineDimension) continue;
      st.merged.push_back(static_cast<std::int64_t>(acc));
      st.tile.push_back(t[j]);
      acc = 1;
    }
    st.out.assign(st.merged.begin(), st.merged.begin() + static_cast<std::ptrdiff_t>(st.first));
    for (std::size_t c = 0; c < st.tile.size(); ++c) {
      const std::int64_t m = st.merged[st.first + c], tc = st.tile[c];
      if (k > 0 && m % tc != 0)  // XLA assumes sub-tiles never pad
        throw ValidationError(field + ": tile size " + std::to_string(tc) + " does not divide the dimension " +
                              std::to_string(m) + " it covers (every tile after the first must divide)");
      st.out.push_back(m / tc + (m % tc != 0));
    }
    st.out.insert(st.out.end(), st.tile.begin(), st.tile.end());
    std::uint64_t total = 1;  // every bound and the element count within 63 bits
    for (auto v : st.out)
      if (!strided::detail::checked_mul(total, static_cast<std::uint64_t>(v), total)) throw overflow();
    if (total > kMax63) throw overflow();
    bounds = st.out;
    stages.push_back(std::move(st));
  }
  return stages;
}

std::vector<std::int64_t> strides_of(const Shape& s) {
  const auto ext = s.padded_extents();
  std::vector<std::int64_t> st(s.dimensions.size(), 0);
  std::int64_t stride = 1;
  for (auto d : s.layout.minor_to_major) {
    const auto i = static_cast<std::size_t>(d);
    st[i] = stride;
    stride *= ext[i];  // validated: the running product fits until it becomes 0
  }
  return st;
}

}  // namespace detail
}  // namespace strided::xla
