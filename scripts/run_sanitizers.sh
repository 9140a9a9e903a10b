#!/usr/bin/env bash
# Build with clang, ASan + UBSan (STRIDED_SANITIZE=ON) and the libFuzzer target, and run the C++
# tests (ctest, the fuzzer's seed corpus among them) and the Python suite against that build; fail
# on any test failure or any sanitizer report. scripts/run_fuzz.sh then fuzzes from the same build
# (BUILD_DIR=build/asan), so CI compiles the sanitized library once.
#   scripts/run_sanitizers.sh [pytest args...]     (env BUILD_DIR, default build/asan; BUILD_JOBS;
#   BUILT_FLAG: a file to create once the build is done, for CI to start the fuzzer beside the tests)
# The Python interpreter is not sanitized, so clang's ASan runtime is LD_PRELOADed and leak detection is off
# for it (CPython's own allocations would be reported); ctest runs with leak detection on.
# STRIDED_HYPOTHESIS_PROFILE=sanitize (read by the test files) keeps hypothesis runs short.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${BUILD_DIR:-build/asan}"
LOGDIR="$BUILD/sanitizer-logs"
start=$(date +%s)

# shellcheck source=scripts/clang_env.sh
source scripts/clang_env.sh
echo "run_sanitizers: $($CXX_BIN --version | head -1)"
# -O1 -g1 (line tables for the reports): compiles much faster than RelWithDebInfo and is what
# the sanitizers' own docs recommend for useful stacks (and libFuzzer's for fuzzing).
# The AVX-512 kernels only where this CPU runs them: elsewhere they cost a minute of sanitized
# compile and no test reaches them.
avx512=OFF
grep -qw avx512bw /proc/cpuinfo 2>/dev/null && avx512=ON
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_CXX_COMPILER="$CXX_BIN" -DCMAKE_C_COMPILER="$CC_BIN" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DSTRIDED_AVX512=$avx512 \
  -DSTRIDED_SANITIZE=ON -DSTRIDED_WERROR=ON -DSTRIDED_BUILD_TESTS=ON -DSTRIDED_BUILD_FUZZERS=ON >/dev/null
cmake --build "$BUILD" -j"${BUILD_JOBS:-2}"
built=$(date +%s)
[ -n "${BUILT_FLAG:-}" ] && touch "$BUILT_FLAG"
rm -rf "$LOGDIR" && mkdir -p "$LOGDIR"
LOGDIR=$(cd "$LOGDIR" && pwd)  # absolute: the runtimes' log_path (BUILD_DIR may be either)

# log_path: reports land in files even when a test swallows stderr; halt on the first UBSan
# finding (the build already uses -fno-sanitize-recover=undefined).
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:log_path=$LOGDIR/asan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$LOGDIR/ubsan"
status=0
ctest --test-dir "$BUILD" --output-on-failure -j2 2>&1 | tee "$LOGDIR/ctest.log" || status=1
ctest_done=$(date +%s)

# clang's shared ASan runtime (UBSan's handlers included): its name has the architecture in
# clang <= 14's layout and not in the per-target layout of later versions.
preload="$($CXX_BIN -print-file-name="libclang_rt.asan-$(uname -m).so")"
[ -f "$preload" ] || preload="$($CXX_BIN -print-file-name=libclang_rt.asan.so)"
[ -f "$preload" ] || { echo "run_sanitizers: clang's shared ASan runtime not found ($preload)" >&2; exit 1; }
# Python: no leak detection (the interpreter's own); ODR checks off (pybind11 + numpy modules).
# With pytest-xdist installed the suite runs on PYTEST_WORKERS processes (default 2; CI installs
# it): most of its time is single-threaded interpreter and ASan work, so two workers nearly halve it.
# A sanitizer abort kills a worker, which xdist reports as a failed test.
par=()
python -c "import xdist" 2>/dev/null && par=(-n "${PYTEST_WORKERS:-2}" -p no:benchmark)
# Tests that only run the system's compilers and CMake on the headers (no sanitized code loads):
# the plain suite runs them.
skip=(--ignore=tests/test_build_config.py --deselect=tests/test_readme.py::test_cpp_block_compiles)
ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:detect_odr_violation=0:log_path=$LOGDIR/asan" \
STRIDED_HYPOTHESIS_PROFILE="${STRIDED_HYPOTHESIS_PROFILE:-sanitize}" STRIDED_NO_TORCH=1 \
PYTHONPATH="$BUILD/python" LD_PRELOAD="$preload" \
  python -m pytest -q -p no:cacheprovider "${par[@]}" tests "${skip[@]}" "$@" 2>&1 | tee "$LOGDIR/pytest.log" || status=1
done_t=$(date +%s)

reports=$(cat "$LOGDIR"/asan* "$LOGDIR"/ubsan* "$LOGDIR"/*.log 2>/dev/null |
  grep -cE "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:" || true)
echo "run_sanitizers: build $((built - start))s, ctest $((ctest_done - built))s, pytest $((done_t - ctest_done))s;" \
  "sanitizer reports: $reports"
if [ "$reports" -ne 0 ]; then
  grep -hE -A12 "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:" "$LOGDIR"/asan* "$LOGDIR"/ubsan* \
    "$LOGDIR"/*.log 2>/dev/null | head -80 >&2
  status=1
elif [ "$status" -ne 0 ]; then
  # A halt with no report in the logs (seen with UBSan's log_path): say so, and how to see it.
  echo "run_sanitizers: a test run failed without a logged report; rerun the failing test with" \
    "LD_PRELOAD=$preload and without log_path to see the sanitizer's message (tail of pytest.log:)" >&2
  tail -5 "$LOGDIR/pytest.log" >&2
fi
exit $status
