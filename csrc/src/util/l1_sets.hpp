// The L1 geometry the kernels and the planner's thread split assume (64 sets of 64-byte lines,
// the x86-64 and Apple/ARM norm from 32 to 48 KiB). Internal linkage: per-ISA translation units
// include it (scripts/check_isa_symbols.sh).
#pragma once
#include <cstdint>

namespace strided::detail {
namespace {

// The most of `rows` rows (lines) `st` bytes apart that share one L1 set, counted: a stride a
// few bytes off a multiple of 4 KiB crowds the rows as much as the multiple does, though its gcd
// with 4 KiB is small (NHWC -> NCHW float16 (1, 90, 91, 64), planes 16380 bytes apart: the
// blocks ran 11.9 GB/s on one thread, the panels 24.6).
inline std::int64_t rows_per_set(std::int64_t st, std::int64_t rows) {  // rows <= 255
  unsigned char n[64] = {};
  std::int64_t most = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    const unsigned char k = ++n[((r * st) >> 6) & 63];
    if (k > most) most = k;
  }
  return most;
}

}  // namespace
}  // namespace strided::detail
