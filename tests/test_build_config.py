"""What a C++ user of the source tree meets: the public headers (self-contained, C++17 with one clear
message for older modes, no comments pointing outside the project) and what a plain CMake
configure builds (the library, not the tests).

These tests need the source tree (csrc/, CMakeLists.txt) and a C++ compiler or CMake; they skip
when run against an installation without them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import List

import pytest

ROOT = Path(__file__).resolve().parent.parent
INCLUDE = ROOT / "csrc" / "include"
HEADERS = sorted(p.name for p in (INCLUDE / "strided").glob("*.hpp")) if INCLUDE.is_dir() else []
NEEDS_CXX17 = "strided needs C++17 or newer (-std=c++17)"

needs_source = pytest.mark.skipif(
    not (ROOT / "CMakeLists.txt").is_file() or not HEADERS,
    reason="needs the source tree (CMakeLists.txt, csrc/include)",
)


def compilers() -> List[str]:
    """The C++ compilers to try: $CXX, g++ and clang++, those that exist (GCC/clang-style flags)."""
    found: List[str] = []
    for name in [os.environ.get("CXX", ""), "g++", "clang++"]:
        path = shutil.which(name) if name else None
        if path and os.path.realpath(path) not in [os.path.realpath(p) for p in found]:
            found.append(path)
    return found


COMPILERS = compilers()
needs_cxx = pytest.mark.skipif(not COMPILERS, reason="no C++ compiler (g++, clang++ or $CXX) found")


def compile_header(cxx: str, header: str, std: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    src = tmp_path / f"use_{header.replace('.', '_')}_{std}.cpp"
    src.write_text(f"#include <strided/{header}>\nint main() {{ return 0; }}\n", encoding="utf-8")
    return subprocess.run(
        [cxx, f"-std={std}", "-fsyntax-only", f"-I{INCLUDE}", str(src)], capture_output=True, text=True, timeout=300
    )


@needs_source
@needs_cxx
@pytest.mark.parametrize("cxx", COMPILERS, ids=[Path(c).name for c in COMPILERS])
def test_cxx14_gets_one_clear_message(cxx: str, tmp_path: Path) -> None:
    # Before: 19 (g++) / 21 (clang++) errors from std::optional, string_view, inline variables...
    for header in HEADERS:
        r = compile_header(cxx, header, "c++14", tmp_path)
        assert r.returncode != 0, f"{header} compiled as C++14"
        out = r.stderr
        assert NEEDS_CXX17 in out, f"{header}: no clear message in\n{out}"
        errors = [ln for ln in out.splitlines() if re.search(r"\berror:", ln)]  # diagnostics, not echoed source
        # The #error itself, then the include that stops the compilation: nothing else.
        assert len(errors) <= 2 and all("config.hpp" in ln for ln in errors), f"{header}:\n{out}"


@needs_source
@needs_cxx
@pytest.mark.parametrize("cxx", COMPILERS, ids=[Path(c).name for c in COMPILERS])
def test_every_public_header_compiles_alone_as_cxx17(cxx: str, tmp_path: Path) -> None:
    for header in HEADERS:
        r = compile_header(cxx, header, "c++17", tmp_path)
        assert r.returncode == 0, f"{header}:\n{r.stderr}"


@needs_source
def test_public_headers_include_the_check_first() -> None:
    for header in HEADERS:
        if header == "config.hpp":
            continue
        lines = (INCLUDE / "strided" / header).read_text(encoding="utf-8").splitlines()
        includes = [ln for ln in lines if ln.startswith("#include")]
        assert includes and includes[0].startswith('#include "strided/config.hpp"'), header


@needs_source
def test_no_reference_outside_the_project() -> None:
    # Installed headers and the docs a user reads name only the project's own files.
    bad = re.compile(r"\.\./shared|/work/|shared/(API|DESIGN|SPEC)\.md")
    files = [INCLUDE / "strided" / h for h in HEADERS] + [ROOT / "README.md"]
    hits = [
        f"{f.relative_to(ROOT)}:{i}: {ln.strip()}"
        for f in files
        for i, ln in enumerate(f.read_text(encoding="utf-8").splitlines(), 1)
        if bad.search(ln)
    ]
    assert not hits, "\n".join(hits)


# ---------------------------------------------------------------- what a plain CMake build builds

CMAKE = shutil.which("cmake")
needs_cmake = pytest.mark.skipif(CMAKE is None, reason="cmake not found")


def configure(src: Path, build: Path, *args: str) -> str:
    """Configure only (no build); returns CMakeCache.txt."""
    gen = ["-G", "Ninja"] if shutil.which("ninja") else []
    r = subprocess.run(
        [str(CMAKE), "-S", str(src), "-B", str(build), *gen, "-DSTRIDED_BUILD_PYTHON=OFF", *args],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    return (build / "CMakeCache.txt").read_text(encoding="utf-8")


def cache_bool(cache: str, name: str) -> bool:
    m = re.search(rf"^{name}:BOOL=(\w+)$", cache, re.M)
    assert m, f"{name} not in the cache"
    return m.group(1).upper() in ("ON", "1", "TRUE", "YES")


def ctest_names(build: Path) -> List[str]:
    r = subprocess.run(
        [str(Path(str(CMAKE)).with_name("ctest")), "--test-dir", str(build), "-N"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return re.findall(r"Test\s+#\d+:\s+(\S+)", r.stdout)


@needs_source
@needs_cmake
def test_plain_configure_builds_no_tests(tmp_path: Path) -> None:
    # `cmake -S . -B b && cmake --build b && cmake --install b`: the library and its package only.
    cache = configure(ROOT, tmp_path / "plain")
    assert not cache_bool(cache, "STRIDED_BUILD_TESTS")
    # ctest in that build fails and says how to get the tests (instead of "No tests were found").
    assert ctest_names(tmp_path / "plain") == ["strided_tests_not_built"]
    text = (tmp_path / "plain" / "strided_tests_not_built.cmake").read_text(encoding="utf-8")
    assert "-DSTRIDED_BUILD_TESTS=ON" in text
    # Asked for: -DSTRIDED_BUILD_TESTS=ON, or CTest's BUILD_TESTING=ON at the top level.
    for flag in ["-DSTRIDED_BUILD_TESTS=ON", "-DBUILD_TESTING=ON"]:
        build = tmp_path / flag.strip("-D").split("=")[0]
        assert cache_bool(configure(ROOT, build, flag), "STRIDED_BUILD_TESTS")
        assert "test_engine" in ctest_names(build)


@needs_source
@needs_cmake
def test_subproject_builds_no_tests(tmp_path: Path) -> None:
    # A parent that enables its own testing (include(CTest): BUILD_TESTING=ON) does not get ours.
    parent = tmp_path / "parent"
    parent.mkdir()
    (parent / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.18)\nproject(parent LANGUAGES CXX)\ninclude(CTest)\n"
        f'add_subdirectory("{ROOT.as_posix()}" strided)\n',
        encoding="utf-8",
    )
    cache = configure(parent, tmp_path / "build")
    assert cache_bool(cache, "BUILD_TESTING")
    assert not cache_bool(cache, "STRIDED_BUILD_TESTS")
    assert ctest_names(tmp_path / "build") == []


# ---------------------------------------------------------------- a build without OpenMP

RUNTIME_CPP = ROOT / "csrc" / "src" / "runtime" / "runtime.cpp"

# The runtime's thread setting compiled as STRIDED_OPENMP=OFF compiles it (no -fopenmp, no
# STRIDED_HAVE_OPENMP), linked with stand-ins for the SIMD registry, which is not under test.
# Cheap (one file) and the real source: a whole OFF build of the library takes minutes.
NO_OPENMP_MAIN = r"""
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "strided/error.hpp"
#include "strided/runtime.hpp"
#include "runtime/runtime.hpp"
namespace strided::detail {
std::vector<std::string> simd_compiled() { return {"scalar"}; }
std::string simd_active() { return "scalar"; }
}  // namespace strided::detail
#define CHECK(c) do { if (!(c)) { std::printf("FAILED line %d: %s\n", __LINE__, #c); return 1; } } while (0)
int main() {
  using namespace strided;
  CHECK(get_num_threads() == 1);                  // STRIDED_NUM_THREADS=4 in the environment
  set_num_threads(4);                             // accepted: portable scripts run unchanged
  CHECK(get_num_threads() == 1);                  // ... and the truth is told
  CHECK(detail::resolve_threads(0) == 1);
  CHECK(detail::resolve_threads(8) == 1);         // compile(desc, threads=8)
  for (int bad : {0, -1, 1025}) {                 // misuse is still an error, as with OpenMP
    bool thrown = false;
    try { set_num_threads(bad); } catch (const ValidationError& e) {
      thrown = std::string(e.what()).find("set_num_threads.n: must be between 1 and 1024") == 0;
    }
    CHECK(thrown);
  }
  auto info = build_info();
  CHECK(info["openmp"] == "no");
  CHECK(info["max_threads"] == "1");
  CHECK(info["num_threads"] == "1");
  std::printf("ok\n");
  return 0;
}
"""


@needs_source
@needs_cxx
def test_without_openmp_one_thread_is_reported(tmp_path: Path) -> None:
    cxx = COMPILERS[0]
    main = tmp_path / "main.cpp"
    main.write_text(NO_OPENMP_MAIN, encoding="utf-8")
    exe = tmp_path / "no_openmp"
    r = subprocess.run(
        [cxx, "-std=c++17", "-O0", "-Wall", "-Werror", f"-I{INCLUDE}", f"-I{ROOT / 'csrc' / 'src'}",
         str(main), str(RUNTIME_CPP), "-o", str(exe), "-pthread"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    r = subprocess.run(
        [str(exe)], capture_output=True, text=True, timeout=60, env={**os.environ, "STRIDED_NUM_THREADS": "4"}
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr


# ---------------------------------------------------------------- the wheel configuration

PYPROJECT = ROOT / "pyproject.toml"
WHEELS_YML = ROOT / ".github" / "workflows" / "wheels.yml"


@pytest.mark.skipif(not WHEELS_YML.is_file(), reason="needs the source tree (.github/workflows/wheels.yml)")
def test_cibuildwheel_configuration() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    cfg = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["cibuildwheel"]
    # The test command names test files that exist (a renamed file would make it test nothing).
    named = re.findall(r"\{project\}/(tests/[\w/]+\.py)", cfg["test-command"])
    assert named and all((ROOT / n).is_file() for n in named), named
    # Every architecture the configuration builds has a native runner in the workflow.
    archs = {a for plat in ("linux", "macos", "windows") for a in cfg[plat]["archs"]}
    assert archs == {"x86_64", "aarch64", "arm64", "AMD64"}
    assert set(re.findall(r"arch: (\w+)", WHEELS_YML.read_text(encoding="utf-8"))) == archs
    # macOS wheels are single-threaded (README, Platforms), overrides included.
    envs = [cfg["macos"]["environment"]] + [
        o["environment"] for o in cfg.get("overrides", []) if "macos" in o["select"] and "environment" in o
    ]
    assert envs and all(e["STRIDED_OPENMP"] == "OFF" for e in envs)
    assert {"pp*", "*-musllinux_*"} <= set(cfg["skip"].split())
