// strided: threads, SIMD targets and build information.
#pragma once
#include <map>
#include <string>

namespace strided {

/// Library version, "0.1.0".
const char* version() noexcept;
/// Threads used by execute when an operator was compiled with threads = 0. n >= 1; throws
/// ValidationError otherwise. Default: STRIDED_NUM_THREADS, else the OpenMP default.
void set_num_threads(int n);
int get_num_threads() noexcept;
/// Key/value facts: version, compiler, openmp, simd_compiled (comma list), simd (in use),
/// num_threads, max_threads.
std::map<std::string, std::string> build_info();

}  // namespace strided
