// NCHW -> NHWC with strided's C++ API: describe both layouts, validate, compile once, execute,
// check against a plain loop; then show a rejected description and its message.
#include <strided/strided.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  using namespace strided;
  const std::int64_t N = 2, C = 3, H = 4, W = 5;
  const std::vector<std::int64_t> sizes{N, C, H, W};

  TensorDesc nchw(DataType::FLOAT32, sizes);                                  // packed row-major
  TensorDesc nhwc(DataType::FLOAT32, sizes, packed_strides(sizes, "NHWC"));  // channels last
  IdentityDesc op{nchw, nhwc};
  validate(op);
  std::printf("strided %s: Identity valid from feature level %s\n", version(),
              std::string(feature_level_name(min_feature_level(op))).c_str());

  std::vector<float> in(static_cast<std::size_t>(N * C * H * W)), out(in.size(), -1.f);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  CompiledOperator c = compile(op);  // validation and planning happen here, once
  c.execute({ConstBuffer{in.data(), in.size() * sizeof(float)}}, {Buffer{out.data(), out.size() * sizeof(float)}});

  int wrong = 0;
  for (std::int64_t n = 0; n < N; ++n)
    for (std::int64_t ch = 0; ch < C; ++ch)
      for (std::int64_t h = 0; h < H; ++h)
        for (std::int64_t w = 0; w < W; ++w)
          if (out[static_cast<std::size_t>(((n * H + h) * W + w) * C + ch)] !=
              in[static_cast<std::size_t>(((n * C + ch) * H + h) * W + w)])
            ++wrong;
  std::printf("NHWC copy: %s\n", wrong ? "WRONG" : "matches the reference loop");

  try {  // Split's output sizes must add up to the input's along the axis.
    validate(SplitDesc{nchw, {TensorDesc(DataType::FLOAT32, {N, 1, H, W})}, 1});
  } catch (const ValidationError& e) {
    std::printf("rejected: %s\n", e.what());
  }
  return wrong ? 1 : 0;
}
