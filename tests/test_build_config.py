"""What a C++ user of the source tree meets: the public headers (self-contained, C++17 with one clear
message for older modes, no comments pointing outside the project).

These tests need the source tree (csrc/, CMakeLists.txt) and a C++ compiler; they skip when run
against an installation without them.
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

needs_source = pytest.mark.skipif(not (ROOT / "CMakeLists.txt").is_file() or not HEADERS,
                                  reason="needs the source tree (CMakeLists.txt, csrc/include)")


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
    return subprocess.run([cxx, f"-std={std}", "-fsyntax-only", f"-I{INCLUDE}", str(src)],
                          capture_output=True, text=True, timeout=300)


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
    hits = [f"{f.relative_to(ROOT)}:{i}: {ln.strip()}" for f in files
            for i, ln in enumerate(f.read_text(encoding="utf-8").splitlines(), 1) if bad.search(ln)]
    assert not hits, "\n".join(hits)
