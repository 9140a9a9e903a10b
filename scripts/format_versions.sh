# shellcheck shell=bash
# The one place that pins the formatters (sourced by scripts/format.sh and scripts/check_format.sh).
# .pre-commit-config.yaml must repeat them as its `rev:` values (v<version>): change both together.
CLANG_FORMAT_VERSION=19.1.7   # pip install clang-format==19.1.7 (pre-commit: mirrors-clang-format v19.1.7)
RUFF_VERSION=0.16.4           # pip install ruff==0.16.4 (pre-commit: ruff-pre-commit v0.16.4)

# format_tools_install: installs the pinned clang-format and ruff into $PYTHON's environment (pip;
# skipped when already there) and sets CLANG_FORMAT (the binary) and RUFF (a command array).
format_tools_install() {
  local pkg want have
  for pkg in "clang-format==$CLANG_FORMAT_VERSION" "ruff==$RUFF_VERSION"; do
    want=${pkg#*==}
    have=$("$PYTHON" -m pip show "${pkg%%==*}" 2>/dev/null | sed -n 's/^Version: //p' || true)
    if [[ "$have" != "$want" ]]; then
      echo "== pip install $pkg (into $("$PYTHON" -c 'import sys; print(sys.prefix)'))"
      "$PYTHON" -m pip install -q --disable-pip-version-check "$pkg" ||
        { echo "could not install $pkg with $PYTHON -m pip" >&2; return 1; }
    fi
  done
  # The clang-format wheel ships the binary inside the package (and a console script wrapper).
  CLANG_FORMAT=$("$PYTHON" -c 'import os, clang_format; print(os.path.join(os.path.dirname(clang_format.__file__), "data", "bin", "clang-format"))')
  [[ -x "$CLANG_FORMAT" ]] || { echo "clang-format binary not found at $CLANG_FORMAT" >&2; return 1; }
  RUFF=("$PYTHON" -m ruff)
  local v
  v=$("$CLANG_FORMAT" --version)
  [[ "$v" == *"version $CLANG_FORMAT_VERSION"* ]] || { echo "expected clang-format $CLANG_FORMAT_VERSION, got: $v" >&2; return 1; }
  v=$("${RUFF[@]}" --version)
  [[ "$v" == "ruff $RUFF_VERSION" ]] || { echo "expected ruff $RUFF_VERSION, got: $v" >&2; return 1; }
}

# Tracked files, NUL-separated, for xargs -0.
cxx_files() { git ls-files -z -- '*.c' '*.cc' '*.cpp' '*.cxx' '*.h' '*.hh' '*.hpp' '*.hxx'; }
py_files() { git ls-files -z -- '*.py' '*.pyi'; }
