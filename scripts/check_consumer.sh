#!/usr/bin/env bash
# Proves that a C++ program can embed strided the way README.md says, twice:
#  (a) from a prefix installed by a plain CMake build of this repository
#      (cmake -S . -B B && cmake --build B && cmake --install B --prefix P); the same build runs
#      the C++ and C unit tests (tests/cpp, tests/c) with ctest; then the C example
#      (examples/c) is built from that prefix as a C-only CMake project (find_package +
#      strided::strided_c) and with a plain `cc $(pkg-config --cflags --libs strided)`, and run;
#  (b) from the C++ package inside the installed wheel (`python -m strided --cmake-dir`).
# Each time tests/consumer is configured with find_package(strided CONFIG REQUIRED), built and run.
#
# Usage: scripts/check_consumer.sh [a|b|all]        (default: all)
# Environment: PYTHON  interpreter with strided installed from a wheel/sdist, for (b) (default: python3)
#              WORK    scratch folder (default: a new temporary one, removed at exit)
#              BUILD   the plain CMake build's folder for (a) (default: $WORK/build). .ci/run puts it at
#                      the depth of the install's build/<wheel tag>, so ccache's relative paths match
#              JOBS    build parallelism (default: 2)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WHICH=${1:-all}
PYTHON=${PYTHON:-python3}
JOBS=${JOBS:-2}
if [[ -z "${WORK:-}" ]]; then
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
fi
BUILD=${BUILD:-$WORK/build}
GEN=()
command -v ninja >/dev/null && GEN=(-G Ninja)

build_consumer() {  # $1 = label, rest = CMake arguments that locate strided
  local label=$1; shift
  local dir="$WORK/consumer-$label"
  echo "== consumer ($label): configure, build, run"
  cmake -S tests/consumer -B "$dir" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release "$@" >"$dir.log" 2>&1 || { cat "$dir.log"; return 1; }
  cmake --build "$dir" -j "$JOBS" >>"$dir.log" 2>&1 || { cat "$dir.log"; return 1; }
  "$dir/consumer"
}

if [[ $WHICH == a || $WHICH == all ]]; then
  echo "== (a) plain CMake build + ctest + install"
  # The Python module is a separate concern (pip builds it); leave it out of the C++ package build.
  # On Linux with _FORTIFY_SOURCE=3, as Ubuntu 24.04's and Fedora's compilers build by default:
  # ctest inlined_accessors then checks that the element accessors stay inlined there too.
  FORTIFY=()
  [[ $(uname -s) == Linux ]] && FORTIFY=(-DCMAKE_CXX_FLAGS=-D_FORTIFY_SOURCE=3)
  cmake -S . -B "$BUILD" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DSTRIDED_BUILD_PYTHON=OFF \
    -DSTRIDED_BUILD_TESTS=ON -DSTRIDED_WERROR="${STRIDED_WERROR:-OFF}" "${FORTIFY[@]}" >"$WORK/configure.log" 2>&1 \
    || { cat "$WORK/configure.log"; exit 1; }
  cmake --build "$BUILD" -j "$JOBS" >"$WORK/build.log" 2>&1 || { tail -n 60 "$WORK/build.log"; exit 1; }
  ctest --test-dir "$BUILD" --output-on-failure -j "$JOBS"
  cmake --install "$BUILD" --prefix "$WORK/prefix" >/dev/null
  for f in include/strided/strided.hpp include/strided/ops.hpp; do
    [[ -f "$WORK/prefix/$f" ]] || { echo "missing $f in the installed prefix"; exit 1; }
  done
  cfg=$(find "$WORK/prefix" -name strided-config.cmake | head -n1)
  [[ -n "$cfg" && -f "$(dirname "$cfg")/strided-config-version.cmake" ]] \
    || { echo "strided-config.cmake / strided-config-version.cmake not installed"; exit 1; }
  build_consumer prefix -DCMAKE_PREFIX_PATH="$WORK/prefix"

  echo "== C, find_package: examples/c as a C-only CMake project (strided::strided_c)"
  cmake -S examples/c -B "$WORK/c-cmake" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$WORK/prefix" \
    >"$WORK/c-cmake.log" 2>&1 || { cat "$WORK/c-cmake.log"; exit 1; }
  cmake --build "$WORK/c-cmake" >>"$WORK/c-cmake.log" 2>&1 || { cat "$WORK/c-cmake.log"; exit 1; }
  "$WORK/c-cmake/nchw_to_nhwc"

  echo "== C, pkg-config: cc \$(pkg-config --cflags --libs strided)"
  pc=$(find "$WORK/prefix" -name strided.pc | head -n1)
  [[ -n "$pc" ]] || { echo "strided.pc not installed"; exit 1; }
  export PKG_CONFIG_PATH="$(dirname "$pc")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  ${CC:-cc} -std=c99 -pedantic -Wall -Wextra -Werror examples/c/nchw_to_nhwc.c \
    $(pkg-config --cflags --libs strided) -Wl,-rpath,"$(pkg-config --variable=libdir strided)" \
    -o "$WORK/nchw_to_nhwc_pc"
  "$WORK/nchw_to_nhwc_pc"
fi

if [[ $WHICH == b || $WHICH == all ]]; then
  echo "== (b) the wheel's C++ package ($PYTHON -m strided --cmake-dir)"
  CMAKE_DIR=$("$PYTHON" -m strided --cmake-dir)
  echo "   $CMAKE_DIR"
  # Configure from outside the source tree's influence: only strided_DIR locates the package.
  build_consumer wheel -Dstrided_DIR="$CMAKE_DIR"
fi
echo "check_consumer: OK"
