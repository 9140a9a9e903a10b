// Steps that write their output in address order through the kernel table's line writer
// (kernels/kernels.hpp LineWriter): padding's rows and unfold's rows.
#pragma once
#include <algorithm>
#include <cstdint>

#include "kernels/kernels.hpp"
#include "plan/copy_plan.hpp"
#include "runtime/runtime.hpp"
#include "runtime/simd.hpp"

namespace strided::detail {

/// Writes the `bytes` at `dst` on up to `threads` threads: the range is split on 64-byte lines
/// of the address space, and part(w) writes the runs that meet [w.lo, w.hi) in increasing address
/// order through the kernel table's rows(); then finish() fills up to w.hi with the pattern (the
/// `width`-byte element `value` repeated from dst) when `fill`, and stores the last line.
template <class F>
void write_lines(std::byte* dst, std::int64_t bytes, std::uint64_t value, std::int64_t width, bool fill, int threads,
                 F&& part) {
  const auto o0 = reinterpret_cast<std::uintptr_t>(dst);
  const std::uintptr_t base = o0 & ~std::uintptr_t{63};
  const auto total = static_cast<std::int64_t>(o0 - base) + bytes;
  const bool stream = static_cast<std::uint64_t>(bytes) >= stream_threshold();
  parallel_ranges(total, threads, 64, [&](std::int64_t lo, std::int64_t hi) {
    LineWriter w;
    for (unsigned j = 0; j < 128; ++j) {  // the value's byte for every address mod 64 (twice)
      const auto b = (j + 64 - (o0 & 63)) % static_cast<unsigned>(width);
      w.pattern[j] = static_cast<std::byte>(value >> (8 * b));
    }
    w.lo = w.at = reinterpret_cast<std::byte*>(std::max(base + static_cast<std::uintptr_t>(lo), o0));
    w.hi = reinterpret_cast<std::byte*>(base + static_cast<std::uintptr_t>(hi));
    w.stream = stream;
    w.fill_gaps = fill;
    part(w);
    active_kernels().finish(w);
  });
}

}  // namespace strided::detail
