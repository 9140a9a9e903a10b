// A main() for compilers without libFuzzer (gcc): runs LLVMFuzzerTestOneInput on each file or
// directory of files named on the command line, so the seed corpus and any crash reproducer can
// be replayed in the sanitizer build (ctest runs the generated seeds this way).
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {
int run_file(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  return 1;
}
}  // namespace

int main(int argc, char** argv) {
  int n = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path p(argv[i]);
    if (std::filesystem::is_directory(p)) {
      for (const auto& e : std::filesystem::directory_iterator(p))
        if (e.is_regular_file()) n += run_file(e.path());
    } else {
      n += run_file(p);
    }
  }
  std::printf("replayed %d input(s)\n", n);
  return 0;
}
