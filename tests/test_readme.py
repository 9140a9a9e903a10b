"""What README.md tells a newcomer: installing from the source (strided is not on PyPI). Skips
when the README is not beside the tests (an installed package)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import List, NamedTuple

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
BASH = [b for b in BLOCKS if b.lang == "bash"]


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
    assert any(pip_requirements(ln) and pip_requirements(ln)[0].startswith(".") for ln in bash), \
        "the README's install commands must install the clone (pip install .)"
    # No command installs strided by name from an index, in a block or in running text.
    commands = bash + re.findall(r"`([^`]*pip install[^`]*)`", text)
    for cmd in commands:
        for req in pip_requirements(cmd):
            if re.fullmatch(r"strided(\[[\w,]+\])?", req):
                line = next(ln for ln in text.splitlines() if cmd in ln)
                assert "not published on PyPI" in line, f"README promises an index install: {cmd!r}"
