#!/usr/bin/env bash
# Static typing checks: mypy --strict (configured in pyproject.toml) over python/strided and
# examples/typed_usage.py, then stubtest comparing the hand-written stubs (python/strided/_core/)
# with the compiled module of the installed package.
#
# Environment: PYTHON  interpreter with strided installed and mypy available (default: python3);
#                      `pip install mypy` into it first if needed.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
echo "== mypy (strict): python/strided, examples/typed_usage.py"
"$PYTHON" -m mypy
echo "== stubtest strided._core (against $("$PYTHON" -c 'import strided; print(strided.__file__)'))"
# From another folder, so `strided` is the installed package (its stubs travel inside it).
ALLOW="$PWD/scripts/stubtest-allowlist.txt"
# --ignore-unused-allowlist: whether pybind11 leaves these artefacts depends on its version.
(cd / && "$PYTHON" -m mypy.stubtest strided._core --allowlist "$ALLOW" --ignore-unused-allowlist)
echo "check_typing: OK"
