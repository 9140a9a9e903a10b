// strided: threads, SIMD targets and build information.
#pragma once
#include "strided/config.hpp"  // C++17 check first
#include <map>
#include <string>

namespace strided {

/// Library version, "0.1.0" (the Python package's __version__). Never throws.
const char* version() noexcept;
/// Threads used by execute when an operator was compiled with threads = 0 (process-wide; read
/// at each execute). Throws ValidationError unless 1 <= n <= 1024. Default: the environment
/// variable STRIDED_NUM_THREADS (an integer 1..1024; anything else is ignored), else the OpenMP
/// default (1 in a build without OpenMP). In a child of fork() execution is single-threaded for
/// good, whatever is set there: OpenMP thread pools do not survive fork, and re-entering one hangs.
/// A build without OpenMP (STRIDED_OPENMP=OFF, build_info()["openmp"] == "no") checks n the same
/// way and then runs on one thread: the call is portable, get_num_threads() tells the truth.
void set_num_threads(int n);
/// The threads execute will use: the setting; 1 in a child of fork() and in a build without
/// OpenMP (whatever was set). Never throws.
int get_num_threads() noexcept;
/// Key/value facts, all values strings: version, compiler, openmp (the _OPENMP date or "no"),
/// max_threads, num_threads, simd_compiled (comma list of the kernel targets built in, e.g.
/// "scalar,avx2,avx512"), simd (the target in use: the best the CPU supports, or the one forced
/// by the environment variable STRIDED_SIMD). Throws only std::bad_alloc.
std::map<std::string, std::string> build_info();

}  // namespace strided
