"""README.md is executable documentation: every ```python block runs (each in a fresh namespace,
in file order; blocks written as ``>>>`` sessions run as doctests, their output compared), a
``print(...)  # text`` line must print exactly ``text``, the C++ quickstart compiles, and what
the ```bash blocks name (scripts, files, CMake options, ``python -m strided`` flags, pip
requirements) exists. Skips when the README is not beside the tests (an installed package)."""

from __future__ import annotations

import builtins
import doctest
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, NamedTuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
pytestmark = pytest.mark.skipif(not README.is_file(), reason="README.md is not beside the tests")


class Block(NamedTuple):
    lang: str
    line: int  # line of the first line of code (1-based)
    text: str


def blocks() -> List[Block]:
    """Fenced code blocks of README.md, indented ones (inside list items) dedented."""
    if not README.is_file():
        return []
    out: List[Block] = []
    lines = README.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)```(\w*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        indent, lang = len(m.group(1)), m.group(2)
        j = i + 1
        body: List[str] = []
        while j < len(lines) and lines[j].strip() != "```":
            body.append(lines[j][indent:] if lines[j][:indent].strip() == "" else lines[j])
            j += 1
        assert j < len(lines), f"README.md:{i + 1}: unclosed code block"
        out.append(Block(lang, i + 2, "\n".join(body) + "\n"))
        i = j + 1
    return out


BLOCKS = blocks()
PYTHON = [b for b in BLOCKS if b.lang == "python"]
BASH = [b for b in BLOCKS if b.lang == "bash"]
CPP = [b for b in BLOCKS if b.lang == "cpp"]
PRINT_WITH_COMMENT = re.compile(r"^\s*print\(.*\)\s*#\s?(.*?)\s*$")


def test_readme_has_blocks() -> None:
    assert len(PYTHON) >= 4 and BASH and CPP
    assert {b.lang for b in BLOCKS} <= {"python", "bash", "cpp", "cmake", "c"}, "a block without a known language"


@pytest.mark.parametrize("block", PYTHON, ids=[f"README.md:{b.line}" for b in PYTHON])
def test_python_block_runs(block: Block, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if "plot_layout" in block.text:
        pytest.importorskip("matplotlib", reason="plot_layout needs matplotlib")
    monkeypatch.chdir(tmp_path)  # files a block writes (plot_layout(path=...)) land here
    name = f"README.md:{block.line}"
    if re.search(r"^>>> ", block.text, re.M):
        test = doctest.DocTestParser().get_doctest(block.text, {}, name, str(README), block.line - 1)
        report = io.StringIO()
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test, out=report.write)
        assert runner.failures == 0, report.getvalue()
        return
    source = block.text.splitlines()
    printed: List[str] = []

    def checking_print(*args: Any, **kwargs: Any) -> None:
        # A line `print(x)  # text` promises that it prints `text`.
        frame = sys._getframe(1)
        buf = io.StringIO()
        builtins.print(*args, **{**kwargs, "file": buf})
        builtins.print(buf.getvalue(), end="")
        if frame.f_code.co_filename == name:
            m = PRINT_WITH_COMMENT.match(source[frame.f_lineno - 1])
            if m:
                got = buf.getvalue().rstrip("\n")
                assert got == m.group(1), (
                    f"{name}+{frame.f_lineno - 1}: prints {got!r}, the comment says {m.group(1)!r}"
                )
                printed.append(got)

    namespace: Dict[str, Any] = {"__name__": "__readme__", "print": checking_print}
    exec(compile(block.text, name, "exec"), namespace)
    assert len(printed) == sum(bool(PRINT_WITH_COMMENT.match(ln)) for ln in source)
    # Files a block saves (plot_layout(path=...)) are written and not empty.
    for f in re.findall(r"path=\"([^\"]+)\"", block.text):
        assert (tmp_path / f).is_file() and (tmp_path / f).stat().st_size > 0, f


def test_feature_level_print_comment() -> None:
    # The quickstart's `print(op.min_feature_level)` comment says what is printed (not 8448).
    lines = [ln for b in PYTHON for ln in b.text.splitlines() if ln.startswith("print(op.min_feature_level)")]
    assert lines and all(ln.rstrip().endswith("# FL_2_1") for ln in lines)


# ---------------------------------------------------------------- install: from the source, not PyPI


def pip_requirements(command: str) -> List[str]:
    """The requirement arguments of a `pip install ...` command line ([] when it is not one)."""
    m = re.search(r"pip install (.*)", command)
    if not m:
        return []
    try:
        words = shlex.split(m.group(1).split("#")[0])
    except ValueError:
        words = m.group(1).split()
    return [w for w in words if not w.startswith("-") and "=" not in w.split("[")[0]]


def test_install_is_from_the_source() -> None:
    text = README.read_text(encoding="utf-8")
    assert "not published on PyPI" in text
    bash = [ln for b in BASH for ln in b.text.splitlines()]
    assert any(pip_requirements(ln) and pip_requirements(ln)[0].startswith(".") for ln in bash), (
        "the README's install commands must install the clone (pip install .)"
    )
    # No command installs strided by name from an index, in a block or in running text.
    commands = bash + re.findall(r"`([^`]*pip install[^`]*)`", text)
    for cmd in commands:
        for req in pip_requirements(cmd):
            if re.fullmatch(r"strided(\[[\w,]+\])?", req):
                line = next(ln for ln in text.splitlines() if cmd in ln)
                assert "not published on PyPI" in line, f"README promises an index install: {cmd!r}"


# ---------------------------------------------------------------- what the bash blocks name exists


def test_named_files_exist() -> None:
    text = README.read_text(encoding="utf-8")
    named = set(re.findall(r"\b((?:scripts|benchmarks|examples|tests|docs)/[\w./-]*\w)", text))
    assert "scripts/check_consumer.sh" in named
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert not missing, missing


def test_named_cmake_options_exist() -> None:
    text = README.read_text(encoding="utf-8")
    cmake = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    options = set(re.findall(r"option\((STRIDED_\w+)", cmake))
    named = set(re.findall(r"-D(STRIDED_\w+)=", text)) | set(re.findall(r"\b(STRIDED_\w+)=\w+ pip install", text))
    assert "STRIDED_BUILD_TESTS" in named
    assert named <= options, sorted(named - options)


def test_developer_commands_build_the_tests() -> None:
    # `ctest --test-dir B` in a block runs tests that the block's own configure asked for.
    for b in BASH:
        for d in re.findall(r"ctest --test-dir (\S+)", b.text):
            configure = [ln for ln in b.text.splitlines() if re.search(rf"cmake -S \S+ -B {re.escape(d)}\b", ln)]
            assert configure and all("-DSTRIDED_BUILD_TESTS=ON" in ln for ln in configure), b.text


def test_python_m_strided_flags_exist() -> None:
    text = README.read_text(encoding="utf-8")
    flags = set(re.findall(r"python -m strided (--[\w-]+)", text))
    assert flags
    out = subprocess.run(
        [sys.executable, "-m", "strided", "--help"],
        capture_output=True,
        text=True,
        check=True,
        cwd=os.path.dirname(os.path.dirname(__import__("strided").__file__)),
    ).stdout
    assert all(f in out for f in flags), (flags, out)


# ---------------------------------------------------------------- the C++ quickstart compiles

CXX = next((c for c in (os.environ.get("CXX", ""), "g++", "clang++", "c++") if c and shutil.which(c)), None)


@pytest.mark.parametrize("block", CPP, ids=[f"README.md:{b.line}" for b in CPP])
def test_cpp_block_compiles(block: Block, tmp_path: Path) -> None:
    include = ROOT / "csrc" / "include"
    if CXX is None or not include.is_dir():
        pytest.skip("needs a C++ compiler and the source tree (csrc/include)")
    assert "int main(" in block.text, "a C++ snippet is a whole program a reader can copy"
    src = tmp_path / "readme.cpp"
    src.write_text(block.text, encoding="utf-8")
    r = subprocess.run(
        [CXX, "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", f"-I{include}", str(src)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr


CC = next((c for c in (os.environ.get("CC", ""), "cc", "gcc", "clang") if c and shutil.which(c)), None)
C_BLOCKS = [b for b in BLOCKS if b.lang == "c"]


@pytest.mark.parametrize("block", C_BLOCKS, ids=[f"README.md:{b.line}" for b in C_BLOCKS])
def test_c_block_compiles(block: Block, tmp_path: Path) -> None:
    """The C snippet is a C99 program against strided/directml.h (scripts/check_consumer.sh links
    and runs the C example from an installed prefix)."""
    include = ROOT / "csrc" / "include"
    if CC is None or not include.is_dir():
        pytest.skip("needs a C compiler and the source tree (csrc/include)")
    assert "int main(" in block.text, "a C snippet is a whole program a reader can copy"
    src = tmp_path / "readme.c"
    src.write_text(block.text, encoding="utf-8")
    r = subprocess.run(
        [CC, "-std=c99", "-pedantic", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", f"-I{include}", str(src)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
