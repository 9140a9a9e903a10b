#!/usr/bin/env bash
# Cross builds on this Linux machine, each with its C++ tests run on the target's ABI:
#   mingw    64-bit Windows (mingw-w64, posix threads, OpenMP), tests under wine
#   aarch64  64-bit Arm Linux (gcc-aarch64-linux-gnu, NEON kernels), tests under qemu-user
# scripts/check_cross.sh [mingw|aarch64|all|deps]   (env BUILD_JOBS, default 2; OPT, default the
#   Release flags: CI passes OPT=-O0 for mingw and OPT=-O1 for aarch64, which compile much faster
#   and still run every kernel on the target; the speed of these builds is never measured)
# Installs the Debian packages it needs with apt-get when they are missing (CI runs as root);
# `deps` only installs them (CI does that in the background while the library compiles).
# The toolchain files are cmake/toolchains/*.cmake; the Python module is not cross-built.
set -euo pipefail
cd "$(dirname "$0")/.."
WHICH="${1:-all}"
case "$WHICH" in mingw | aarch64 | all | deps) ;; *) echo "check_cross: unknown target '$WHICH' (mingw, aarch64, all, deps)" >&2; exit 2 ;; esac
JOBS="${BUILD_JOBS:-2}"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
updated=0
need() {  # need <command> <packages...>
  local cmd=$1; shift
  command -v "$cmd" >/dev/null 2>&1 || [ -x "$cmd" ] && return 0
  if [ "$updated" = 0 ]; then $SUDO apt-get update -qq; updated=1; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
deps_mingw() {
  need x86_64-w64-mingw32-g++-posix g++-mingw-w64-x86-64-posix
  need /usr/lib/wine/wine64 wine64
}
deps_aarch64() {
  need aarch64-linux-gnu-g++ g++-aarch64-linux-gnu
  need qemu-aarch64 qemu-user
}
if [ "$WHICH" = deps ]; then
  deps_mingw
  deps_aarch64
  echo "check_cross: toolchains installed"
  exit 0
fi
build() {  # build <name> <toolchain> [cmake args...]
  local dir="build/cross-$1" tc="$2"; shift 2
  cmake -S . -B "$dir" -G Ninja -DCMAKE_TOOLCHAIN_FILE="cmake/toolchains/$tc.cmake" -DCMAKE_BUILD_TYPE=Release \
    ${OPT:+-DCMAKE_CXX_FLAGS_RELEASE="$OPT -DNDEBUG"} -DSTRIDED_BUILD_PYTHON=OFF -DSTRIDED_BUILD_TESTS=ON \
    -DSTRIDED_WERROR=ON "$@" >/dev/null
  cmake --build "$dir" -j"$JOBS"
}

drop_prefix() {
  /usr/lib/wine/wineserver -k >/dev/null 2>&1 || true
  /usr/lib/wine/wineserver -w >/dev/null 2>&1 || true
  local i
  for i in 1 2 3 4 5; do rm -rf "$WINEPREFIX" 2>/dev/null && return 0; sleep 1; done
  echo "check_cross: could not remove the wine prefix $WINEPREFIX (left behind)" >&2
}

if [ "$WHICH" = mingw ] || [ "$WHICH" = all ]; then
  echo "== mingw-w64 (x86_64 Windows), tests under wine"
  deps_mingw
  build mingw mingw-w64-x86_64 -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/lib/wine/wine64
  # The runtime DLLs (libstdc++, libgomp, winpthread) come from the cross compiler's folders.
  gccdir="$(dirname "$(x86_64-w64-mingw32-g++-posix -print-libgcc-file-name)")"
  # The wine prefix lives outside the source tree: its dosdevices/z: links to /, and a tree walk
  # (scikit-build-core's sdist, check_sdist.sh after this in CI) would follow it into everything.
  # Its wineserver outlives the last test by seconds and keeps writing there: stop it before the
  # folder goes (one CI run failed on rm's "Directory not empty"), and never fail on a temp folder.
  if [ -z "${WINEPREFIX:-}" ]; then WINEPREFIX="$(mktemp -d)"; trap drop_prefix EXIT; fi
  export WINEDEBUG=-all WINEPREFIX
  export WINEPATH="$gccdir;/usr/x86_64-w64-mingw32/lib"
  /usr/lib/wine/wine64 cmd /c exit >/dev/null 2>&1 || true  # create the prefix once, before the tests run in parallel
  ctest --test-dir build/cross-mingw --output-on-failure -j"$JOBS"
fi

if [ "$WHICH" = aarch64 ] || [ "$WHICH" = all ]; then
  echo "== aarch64 Linux, tests under qemu-user"
  deps_aarch64
  build aarch64 aarch64-linux-gnu
  ctest --test-dir build/cross-aarch64 --output-on-failure -j"$JOBS"
fi
echo "check_cross: OK ($WHICH)"
