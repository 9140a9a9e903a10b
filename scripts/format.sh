#!/usr/bin/env bash
# Formats the whole tree with the pinned tools (scripts/format_versions.sh), installed with pip into
# the current Python environment (PYTHON, default python3) when missing:
#   clang-format -i                  every tracked C/C++ file (.clang-format)
#   ruff check --fix-only --select I every tracked Python file: import order (isort rules)
#   ruff format                      every tracked Python file (pyproject.toml [tool.ruff])
# Then review `git diff` and commit; scripts/check_format.sh (CI) checks the same.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "format: needs a git checkout (it formats tracked files)" >&2; exit 2; }
# shellcheck source=scripts/format_versions.sh
source scripts/format_versions.sh
format_tools_install

echo "== clang-format $CLANG_FORMAT_VERSION -i"
cxx_files | xargs -0 -r "$CLANG_FORMAT" -i
echo "== ruff $RUFF_VERSION: import order, then format"
py_files | xargs -0 -r "${RUFF[@]}" check --fix-only --select I --quiet
py_files | xargs -0 -r "${RUFF[@]}" format --quiet
echo "format: done; $(git diff --shortstat || true)"
