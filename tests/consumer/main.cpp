// Uses strided through find_package: validates and runs SPEC.md's Slice1 and Scatter examples,
// runs a copy large enough for two threads (the static library's OpenMP, found again by the
// package config, at work), and checks that a bad description throws ValidationError.
// Exit code 0 = all good.
#include <strided/strided.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

using namespace strided;

static int failures = 0;
#define EXPECT(cond)                                        \
  do {                                                      \
    if (!(cond)) {                                          \
      std::fprintf(stderr, "consumer: FAILED %s\n", #cond); \
      ++failures;                                           \
    }                                                       \
  } while (0)

int main() {
  std::printf("strided %s\n", version());

  // Slice1: input {1,1,4,4} = 1..16, offsets {0,0,0,1}, sizes {1,1,4,3}, strides {1,1,-2,2}.
  TensorDesc x(DataType::FLOAT32, {1, 1, 4, 4});
  TensorDesc y(DataType::FLOAT32, {1, 1, 2, 2});
  Slice1Desc slice{x, y, {0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, -2, 2}};
  validate(slice);
  EXPECT(min_feature_level(slice) == FeatureLevel::FL_2_1);
  std::vector<float> in(16), out(4, 0.f);
  for (int i = 0; i < 16; ++i) in[static_cast<std::size_t>(i)] = static_cast<float>(i + 1);
  compile(slice).execute({ConstBuffer{in.data(), in.size() * sizeof(float)}},
                         {Buffer{out.data(), out.size() * sizeof(float)}});
  EXPECT((out == std::vector<float>{14, 16, 6, 8}));

  // Scatter: in [0,1,2,3,4], idx [3,1,3,0], upd [5,6,7,8] -> [8,6,2,7,4] (last write wins).
  TensorDesc data(DataType::FLOAT32, {5});
  TensorDesc idx(DataType::INT32, {4});
  TensorDesc upd(DataType::FLOAT32, {4});
  ScatterDesc scatter{data, idx, upd, data, 0};
  validate(scatter);
  std::vector<float> sin{0, 1, 2, 3, 4}, supd{5, 6, 7, 8}, sout(5, -1.f);
  std::vector<std::int32_t> sidx{3, 1, 3, 0};
  compile(scatter).execute({ConstBuffer{sin.data(), 20}, ConstBuffer{sidx.data(), 16}, ConstBuffer{supd.data(), 16}},
                           {Buffer{sout.data(), 20}});
  EXPECT((sout == std::vector<float>{8, 6, 2, 7, 4}));

  // 16 MiB through Slice1 (every element, stride 1) on two threads, whatever set_num_threads says.
  {
    const std::int64_t n = 2048;
    TensorDesc big(DataType::FLOAT32, {1, 1, n, n});
    std::vector<float> bin(static_cast<std::size_t>(n * n)), bout(bin.size(), -1.f);
    for (std::size_t i = 0; i < bin.size(); ++i) bin[i] = static_cast<float>(i);
    CompileOptions two;
    two.threads = 2;
    compile(Slice1Desc{big, big, {0, 0, 0, 0}, {1, 1, n, n}, {1, 1, 1, 1}}, two)
        .execute({ConstBuffer{bin.data(), bin.size() * sizeof(float)}},
                 {Buffer{bout.data(), bout.size() * sizeof(float)}});
    EXPECT(bout == bin);
    std::printf("openmp %s, max_threads %s\n", build_info()["openmp"].c_str(), build_info()["max_threads"].c_str());
  }

  // A bad description: a zero Slice1 stride.
  bool threw = false;
  try {
    validate(Slice1Desc{x, y, {0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, 0, 2}});
  } catch (const ValidationError& e) {
    threw = true;
    std::printf("rejected as expected: %s\n", e.what());
  }
  EXPECT(threw);

  std::printf(failures ? "consumer: FAILED\n" : "consumer: OK\n");
  return failures ? 1 : 0;
}
