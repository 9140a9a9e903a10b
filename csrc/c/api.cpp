// The strided_* functions of strided/directml.h: every one catches everything, so no C++
// exception crosses into C; a failure leaves its message in a per-thread buffer.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include <strided/compiled.hpp>
#include <strided/error.hpp>
#include <strided/runtime.hpp>

#include "convert.hpp"

struct strided_operator {
  strided::CompiledOperator op;
};

namespace {

using strided::FeatureLevel;

// Fixed storage: recording a message never allocates, so it works when memory has run out.
thread_local char t_message[4096];

void set_message(const char* text) noexcept {
  const std::size_t n = std::min(std::strlen(text), sizeof t_message - 1);
  std::memcpy(t_message, text, n);
  t_message[n] = '\0';
}

template <class F>
strided_status guarded(F&& f) noexcept {
  try {
    f();
    t_message[0] = '\0';
    return STRIDED_OK;
  } catch (const strided::ValidationError& e) {
    set_message(e.what());
    return STRIDED_VALIDATION_ERROR;
  } catch (const strided::IndexError& e) {
    set_message(e.what());
    return STRIDED_INDEX_ERROR;
  } catch (const strided::BufferError& e) {
    set_message(e.what());
    return STRIDED_BUFFER_ERROR;
  } catch (const std::bad_alloc&) {
    set_message("out of memory");
    return STRIDED_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    set_message(e.what());
    return STRIDED_INTERNAL_ERROR;
  } catch (...) {
    set_message("internal error: unknown exception");
    return STRIDED_INTERNAL_ERROR;
  }
}

std::string level_text(FeatureLevel l) { return "FL_" + std::string(strided::feature_level_name(l)); }

/// The C++ check, then the level at which DirectML introduced the struct (a *1 struct is newer
/// than the C++ description alone says).
void validate_at(const strided::c_api::Converted& c, FeatureLevel level) {
  strided::validate(c.desc, level);
  if (level < c.introduced)
    throw strided::ValidationError("DML_OPERATOR_DESC.Type: this operator type needs feature level " +
                                   level_text(c.introduced) + " or newer, got " + level_text(level));
}

}  // namespace

extern "C" {

strided_status strided_validate(const DML_OPERATOR_DESC* op, DML_FEATURE_LEVEL level) {
  return guarded([&] {
    const auto c = strided::c_api::convert(op);
    if (static_cast<std::uint32_t>(level) == 0) strided::validate(c.desc);
    else validate_at(c, static_cast<FeatureLevel>(level));
  });
}

strided_status strided_min_feature_level(const DML_OPERATOR_DESC* op, DML_FEATURE_LEVEL* level) {
  return guarded([&] {
    if (level == nullptr) throw strided::ValidationError("strided_min_feature_level.level: must not be NULL");
    const auto c = strided::c_api::convert(op);
    const FeatureLevel l = std::max(strided::min_feature_level(c.desc), c.introduced);
    *level = static_cast<DML_FEATURE_LEVEL>(static_cast<std::uint32_t>(l));
  });
}

strided_status strided_compile(const DML_OPERATOR_DESC* op, const strided_compile_options* opts,
                               strided_operator** compiled) {
  return guarded([&] {
    if (compiled == nullptr) throw strided::ValidationError("strided_compile.compiled: must not be NULL");
    *compiled = nullptr;
    strided::CompileOptions options;
    if (opts != nullptr) {
      if (opts->threads < 0 || opts->threads > 1024)
        throw strided::ValidationError("strided_compile_options.threads: must be 0..1024, got " +
                                       std::to_string(opts->threads));
      options.threads = opts->threads;
    }
    *compiled = new strided_operator{strided::compile(strided::c_api::convert(op).desc, options)};
  });
}

strided_status strided_execute(const strided_operator* compiled, const strided_buffer* inputs, size_t input_count,
                               const strided_buffer* outputs, size_t output_count) {
  return guarded([&] {
    if (compiled == nullptr) throw strided::BufferError("strided_execute.compiled: must not be NULL");
    if (input_count > 0 && inputs == nullptr)
      throw strided::BufferError("strided_execute.inputs: NULL with input_count " + std::to_string(input_count));
    if (output_count > 0 && outputs == nullptr)
      throw strided::BufferError("strided_execute.outputs: NULL with output_count " + std::to_string(output_count));
    // A size beyond size_t (32-bit hosts) is as good as the largest one.
    const auto bytes = [](std::uint64_t n) { return static_cast<std::size_t>(std::min<std::uint64_t>(n, SIZE_MAX)); };
    std::vector<strided::ConstBuffer> in(input_count);
    for (std::size_t i = 0; i < input_count; ++i) in[i] = {inputs[i].data, bytes(inputs[i].size_in_bytes)};
    std::vector<strided::Buffer> out(output_count);
    for (std::size_t i = 0; i < output_count; ++i) out[i] = {outputs[i].data, bytes(outputs[i].size_in_bytes)};
    compiled->op.execute(in, out);
  });
}

void strided_release(strided_operator* compiled) { delete compiled; }

const char* strided_last_error(void) { return t_message; }

const char* strided_version(void) { return strided::version(); }

}  // extern "C"
