#!/usr/bin/env bash
# The many-core half of the peer table (issue 14), as one unattended run on a machine where nothing
# can be installed: builds the module with what is there (cmake, a C++ compiler, pybind11, numpy,
# torch), then writes each table to $OUT (default ./many_core_out):
#   tests.txt     first, the build's own checks there: compiler warnings, ctest, the whole pytest
#                 suite (on an AVX-512 machine the only run of the AVX-512 kernels' tests when the
#                 development machine has none; sessions 16-25 never ran them)
#   blocked.txt   C++ rows: NCHW <-> nChw16c/8c, strided vs oneDNN's reorder, memcpy, 1..N threads
#                 (needs a bench_copy built with oneDNN: BENCH_DIR=dir holding bench_copy and lib/)
#   scaling.md    benchmarks/scaling.py over the layout and index groups at 1..N threads
#   threads.md    the small-call rows (256 KiB - 4 MiB) at 1..N threads
#   busy.md       the same with N spinning processes: strided's default against one thread
#   copy13.md     bench_copy.py's operator rows (pad, tile, one_hot, eye, cast...) at N threads
# Each step has its own time limit so that one slow step cannot take the others' time.
#   bash benchmarks/many_core.sh    (WHEELS=dir installs google-benchmark from wheels there;
#   STEPS=tests,blocked,scaling,threads,busy,copy13 picks steps; SWEEP=1,2,16 the thread counts;
#   FILTER13=... bench_copy.py's filter for the copy13 step; SCALE_FILTER=... scaling.py's group
#   filter for the scaling step; REPS=5 the repetitions)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/many_core_out}
mkdir -p "$OUT"
N=$(nproc)
SWEEP=${SWEEP:-$(python3 -c "n=$N; print(','.join(str(t) for t in sorted({1, n, *(t for t in (2, 4, 8, 16, 32) if t < n)})))")}
STEPS=${STEPS:-tests,blocked,scaling,threads,busy,copy13}
REPS=${REPS:-5}
FILTER13=${FILTER13:-ref | memcpy,cast,tile f32,depth_to_space,one_hot,pad f32,eye,full,unfold,arange,triu,slice_grad,reverse_sub}
SCALE_FILTER=${SCALE_FILTER:-}
# numpy's OpenBLAS starts a spinning thread per core at import: 10-14% of all samples in
# 4-second processes on 16 cores (session 13's profiles), taken from the threads measured.
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
want() { [[ ",$STEPS," == *",$1,"* ]]; }
T0=$(date +%s)
step() { echo "=== [$(( $(date +%s) - T0 ))s] $*"; }

step "machine"
{ lscpu | grep -E 'Model name|^CPU\(s\)|Thread|Socket|NUMA node\(s\)|L3'; free -g | head -2; g++ --version | head -1
  python3 -c "import numpy, torch; print('numpy', numpy.__version__, 'torch', torch.__version__)"; } 2>&1 | tee "$OUT/machine.txt"

if [ -n "${BENCH_DIR:-}" ] && want blocked; then
  step "C++ blocked layouts vs oneDNN at $SWEEP threads"
  STRIDED_BENCH_THREADS=$SWEEP LD_LIBRARY_PATH=$BENCH_DIR/lib timeout 120 "$BENCH_DIR/bench_copy" \
    --benchmark_filter='memcpy|blocked' --benchmark_repetitions=3 --benchmark_enable_random_interleaving=true \
    --benchmark_report_aggregates_only=true --benchmark_min_time=0.1 2>&1 | grep -v '_mean\|_stddev\|_cv' | tee "$OUT/blocked.txt"
fi

step "build"
GEN=(); command -v ninja >/dev/null && GEN=(-G Ninja)
TESTS=OFF; want tests && TESTS=ON
timeout 300 cmake -S . -B build/many "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DSTRIDED_BUILD_TESTS=$TESTS \
  -DPython_EXECUTABLE="$(command -v python3)" >"$OUT/build.log" 2>&1 &&
  timeout 400 cmake --build build/many -j"$N" >>"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
export PYTHONPATH=$PWD/build/many/python
if [ -n "${WHEELS:-}" ]; then
  python3 -m pip install -q --no-index --no-deps --target /tmp/gbsite "$WHEELS"/*.whl && export PYTHONPATH=$PYTHONPATH:/tmp/gbsite
fi
export PYTHONUNBUFFERED=1
python3 -c "import strided as sd; print(sd.build_info())" | tee -a "$OUT/machine.txt"

if want tests; then
step "tests: warnings, ctest, pytest (simd $(python3 -c 'import strided as sd; print(sd.build_info()["simd"])'))"
{ echo "compiler warnings: $(grep -c 'warning:' "$OUT/build.log")"
  timeout 200 ctest --test-dir build/many -j"$N" --timeout 150 2>&1 | tail -3
  # xdist workers: half the cores (each test's own threads use the rest)
  timeout 400 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n $(( (N + 1) / 2 )) --tb=short tests 2>&1 | tail -25
} >"$OUT/tests.txt" 2>&1
grep -E 'warnings:|tests passed|passed|failed|^FAILED|^ERROR' "$OUT/tests.txt"
fi

if [ -n "${DIAG:-}" ]; then  # a one-off script of the session's own
  step "diagnostics: $DIAG"
  timeout 200 python3 "$DIAG" 2>&1 | tee "$OUT/diag.txt"
fi

if want scaling; then
step "layout and index groups at $SWEEP threads"
timeout 300 python3 benchmarks/scaling.py --threads "$SWEEP" --reps "$REPS" --suites layout,index \
  --filter "$SCALE_FILTER" >"$OUT/scaling.md" 2>&1
tail -45 "$OUT/scaling.md"
fi

if want threads; then
step "small calls at $SWEEP threads"
timeout 120 python3 benchmarks/scaling.py --threads "$SWEEP" --reps "$REPS" --suites threads >"$OUT/threads.md" 2>&1
grep -A9 '^| threads' "$OUT/threads.md" | grep '^| [0-9]'
fi

if want busy; then
step "small calls with $N spinning processes: 1 and $N threads"
timeout 120 python3 benchmarks/scaling.py --threads "1,$N" --reps "$REPS" --suites threads --busy "$N" >"$OUT/busy.md" 2>&1
grep -A4 '^| threads' "$OUT/busy.md" | grep '^| [0-9]'
fi

if want copy13; then
step "operator rows (issue 13) at $N threads"
timeout 240 python3 benchmarks/bench_copy.py --table --threads "$N" --reps "$REPS" --filter "$FILTER13" >"$OUT/copy13.md" 2>&1
grep '^|' "$OUT/copy13.md" | tail -60
fi
step "done"
