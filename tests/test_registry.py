"""The operator registry: every operator of the C++ list (STRIDED_FOR_EACH_OP) reaches every
surface generated or written from it, so adding an operator cannot leave one behind."""

from __future__ import annotations

import pathlib
import re

import pytest

import strided as sd
from strided import _core

ROOT = pathlib.Path(__file__).resolve().parents[1]
NAMES = sorted(_core._op_codes, key=_core._op_codes.get)


def test_codes_are_the_list_positions() -> None:
    assert sorted(_core._op_codes.values()) == list(range(len(NAMES)))
    assert len(NAMES) >= 10 and all(n.endswith("Desc") for n in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_exported_documented_and_stubbed(name: str) -> None:
    cls = getattr(sd, name)
    assert cls is getattr(_core, name) and name in sd.__all__
    assert cls.__doc__ and cls.__doc__.startswith("DML_"), "the class doc names DirectML's struct"
    stub = (ROOT / "python/strided/_core/__init__.pyi").read_text()
    assert re.search(rf"^class {name}\(_Desc\):", stub, re.M), "a stub class in _core/__init__.pyi"
    readme = (ROOT / "README.md").read_text()
    assert f"`{name}`" in readme, "a row in README.md's operator table"
    src = ROOT / "csrc/src/ops" / (re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name[: -len("Desc")]).lower() + ".cpp")
    assert src.exists(), f"its registry file {src.relative_to(ROOT)}"


def test_scatter_alias() -> None:
    assert sd.ScatterElementsDesc is sd.ScatterDesc


def test_generated_stubs_are_current() -> None:
    """The description classes of _core/__init__.pyi are generated (scripts/gen_stubs.py)."""
    script = ROOT / "scripts/gen_stubs.py"
    if not script.exists():
        pytest.skip("needs the source tree (scripts/gen_stubs.py)")
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_stubs", script)
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    text = (ROOT / "python/strided/_core/__init__.pyi").read_text()
    assert gen.generated() in text, "python/strided/_core/__init__.pyi is not current: run scripts/gen_stubs.py"
