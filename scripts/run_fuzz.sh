#!/usr/bin/env bash
# Fuzz the C++ validate -> compile -> execute path with libFuzzer + ASan + UBSan: a fixed number
# of inputs (FUZZ_RUNS, default 120000: about 40 s on a quiet 2-core machine) from the seed
# corpus, with generous limits so that a busy machine slows the run down instead of failing it
# (per-input timeout 300 s, total cap FUZZ_MAX_SECONDS, default 600 s, after which libFuzzer stops
# cleanly). Exit non-zero on any crash, sanitizer report or property violation (fuzz/fuzz_ops.cpp).
#   scripts/run_fuzz.sh [runs]      (env FUZZ_RUNS, FUZZ_MAX_SECONDS, BUILD_JOBS, BUILD_DIR;
#   FUZZ_NO_BUILD=1: use the reused build as it is, for CI, whose tests run from it meanwhile)
# OMP_DYNAMIC / OMP_THREAD_LIMIT make the OpenMP runtime hand out teams smaller than asked for,
# so the fuzzer also covers "any team size" (SPEC 3.0 rule 6).
# Installs clang + the libFuzzer runtime with apt-get when clang++ is missing (scripts/clang_env.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-${FUZZ_RUNS:-120000}}"
MAX_SECONDS="${FUZZ_MAX_SECONDS:-600}"
BUILD="${BUILD_DIR:-build/fuzz}"

# shellcheck source=scripts/clang_env.sh
source scripts/clang_env.sh
echo "run_fuzz: $($CXX_BIN --version | head -1), ${RUNS} inputs (cap ${MAX_SECONDS}s)"

# A build folder that scripts/run_sanitizers.sh configured (clang, sanitizers, fuzzers) is used
# as it is: CI fuzzes from build/asan, whose library is already compiled.
if grep -qs '^STRIDED_BUILD_FUZZERS:BOOL=ON' "$BUILD/CMakeCache.txt" && grep -qs '^STRIDED_SANITIZE:BOOL=ON' "$BUILD/CMakeCache.txt" &&
   grep -qs 'CMAKE_CXX_COMPILER_ID "Clang"' "$BUILD"/CMakeFiles/*/CMakeCXXCompiler.cmake; then
  echo "run_fuzz: reusing the sanitized build in $BUILD"
else
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$CXX_BIN" \
    -DCMAKE_C_COMPILER="$CC_BIN" -DSTRIDED_SANITIZE=ON -DSTRIDED_BUILD_FUZZERS=ON \
    -DSTRIDED_BUILD_PYTHON=OFF -DSTRIDED_BUILD_TESTS=OFF -DSTRIDED_WERROR=ON >/dev/null
fi
if [ "${FUZZ_NO_BUILD:-0}" = 1 ] && [ -x "$BUILD/fuzz/fuzz_ops" ]; then
  echo "run_fuzz: FUZZ_NO_BUILD=1: $BUILD/fuzz/fuzz_ops as built"
else
  cmake --build "$BUILD" -j"${BUILD_JOBS:-2}" --target fuzz_ops fuzz_corpus
fi

mkdir -p "$BUILD/fuzz/work_corpus" "$BUILD/fuzz/artifacts"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:halt_on_error=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
log="$BUILD/fuzz/fuzz.log"
set +e
OMP_DYNAMIC=true OMP_THREAD_LIMIT=3 \
"$BUILD/fuzz/fuzz_ops" -runs="$RUNS" -max_total_time="$MAX_SECONDS" -max_len=512 -timeout=300 -rss_limit_mb=4096 \
  -print_final_stats=1 -artifact_prefix="$BUILD/fuzz/artifacts/" \
  "$BUILD/fuzz/work_corpus" "$BUILD/fuzz/corpus" 2>&1 | tee "$log" | grep -E "^#[0-9]+ +(INITED|DONE)|stat::|ERROR|runtime error|property violated" 
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -ne 0 ] || grep -qE "ERROR: (AddressSanitizer|libFuzzer|LeakSanitizer)|runtime error|property violated" "$log"; then
  echo "run_fuzz: FAILED (rc=$rc); reproducers in $BUILD/fuzz/artifacts/, log $log" >&2
  tail -40 "$log" >&2
  exit 1
fi
echo "run_fuzz: OK, $(sed -n 's/^stat::number_of_executed_units: *//p' "$log") inputs (asked for ${RUNS}), corpus $(ls "$BUILD/fuzz/work_corpus" | wc -l) files"
