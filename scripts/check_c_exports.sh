#!/usr/bin/env bash
# ctest c_exports: the shared library strided_c defines (exports) the C API's functions and
# nothing else (no C++ symbol of the static library or of the C++ runtime's templates).
# Usage: check_c_exports.sh <libstrided_c.so>        Environment: NM (default: nm)
set -euo pipefail
NM=${NM:-nm}
lib=$1
syms=$("$NM" -D --defined-only "$lib" | awk 'NF >= 3 {print $3}')
others=$(grep -v '^strided_' <<<"$syms" || true)
if [[ -n "$others" ]]; then
  echo "strided_c exports more than strided_*:"
  echo "$others"
  exit 1
fi
expected="strided_compile strided_execute strided_last_error strided_min_feature_level strided_release strided_validate strided_version"
got=$(sort <<<"$syms" | tr '\n' ' ' | sed 's/ $//')
if [[ "$got" != "$expected" ]]; then
  echo "strided_c exports: $got"
  echo "expected:          $expected"
  exit 1
fi
echo "strided_c exports exactly: $got"
