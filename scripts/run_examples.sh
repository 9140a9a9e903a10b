#!/usr/bin/env bash
# Runs every example: the Python ones with an interpreter that has strided installed, then the C++
# one built against that installation's C++ package (`python -m strided --cmake-dir`), as a user
# would. Each example checks its own results (assert / exit code).
#
# Environment: PYTHON  interpreter with strided installed (default: python3)
#              WORK    scratch folder (default: a new temporary one, removed at exit)
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [[ -z "${WORK:-}" ]]; then
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
fi
for ex in examples/quickstart.py examples/nchw_to_nhwc.py examples/image_pipeline.py examples/xla_layouts.py examples/typed_usage.py; do
  echo "== $ex"
  # Run from the scratch folder so `import strided` finds the installed package, not the sources.
  (cd "$WORK" && MPLBACKEND=Agg "$PYTHON" "$OLDPWD/$ex")
done

echo "== examples/cpp (find_package(strided) from the installed wheel)"
GEN=()
command -v ninja >/dev/null && GEN=(-G Ninja)
cmake -S examples/cpp -B "$WORK/cpp" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release \
  -Dstrided_DIR="$("$PYTHON" -m strided --cmake-dir)" >"$WORK/cpp.log" 2>&1 || { cat "$WORK/cpp.log"; exit 1; }
cmake --build "$WORK/cpp" >>"$WORK/cpp.log" 2>&1 || { cat "$WORK/cpp.log"; exit 1; }
"$WORK/cpp/nchw_to_nhwc"
echo "run_examples: OK"
