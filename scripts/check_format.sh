#!/usr/bin/env bash
# Checks that the tree is formatted and lint-clean, with the pinned tools (scripts/format_versions.sh),
# installed with pip into the current Python environment (PYTHON, default python3) when missing:
#   clang-format --dry-run -Werror   every tracked C/C++ file (.clang-format)
#   ruff format --check              every tracked Python file (pyproject.toml [tool.ruff])
#   ruff check                       the same files (lint: pyflakes, pycodestyle, isort, pyupgrade, bugbear)
# Exits 1 when anything would change: run scripts/format.sh, then look at `ruff check` output for
# what the formatter cannot fix. CI runs it after the tests (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "check_format: needs a git checkout (it checks tracked files)" >&2; exit 2; }
# shellcheck source=scripts/format_versions.sh
source scripts/format_versions.sh
format_tools_install
echo "check_format: clang-format $CLANG_FORMAT_VERSION, ruff $RUFF_VERSION"

status=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "== clang-format --dry-run -Werror ($(cxx_files | tr -cd '\0' | wc -c) files)"
if ! cxx_files | xargs -0 -r "$CLANG_FORMAT" --dry-run -Werror >"$log" 2>&1; then
  # (sed -n, not head: a reader that stops early would fail the pipeline under pipefail)
  drift=$(grep -oE '^[^:]+:[0-9]+:[0-9]+: error' "$log" | cut -d: -f1 | sort -u || true)
  n=$(printf '%s\n' "$drift" | grep -c . || true)
  if [[ $n -eq 0 ]]; then
    sed -n '1,20p' "$log"   # not a formatting report: clang-format itself failed
  else
    echo "   $(grep -c ': error' "$log" || true) places in $n files differ from .clang-format:"
    printf '%s\n' "$drift" | sed -n '1,20s/^/     /p'
    [[ $n -le 20 ]] || echo "     ... and $((n - 20)) more"
  fi
  status=1
fi

echo "== ruff format --check ($(py_files | tr -cd '\0' | wc -c) files)"
if ! py_files | xargs -0 -r "${RUFF[@]}" format --check --output-format concise >"$log" 2>&1; then
  sed -n '1,20s/^/   /p' "$log"
  n=$(wc -l <"$log")
  [[ $n -le 20 ]] || echo "   ... ($n lines)"
  status=1
fi

echo "== ruff check"
if ! py_files | xargs -0 -r "${RUFF[@]}" check --output-format concise >"$log" 2>&1; then
  sed -n '1,40s/^/   /p' "$log"
  n=$(wc -l <"$log")
  [[ $n -le 40 ]] || echo "   ... ($n lines)"
  status=1
fi

if [[ $status -ne 0 ]]; then
  echo
  echo "check_format: FAILED: the tree has drifted from the house format; run scripts/format.sh"
  echo "(and fix by hand whatever ruff check still reports), then commit the result."
  exit 1
fi
echo "check_format: OK"
