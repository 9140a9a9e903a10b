"""PLACEHOLDER (owned by the validation work): the ten description classes and compile()."""

from __future__ import annotations

from typing import Any

from . import _core

IdentityDesc: Any = None
SplitDesc: Any = None
JoinDesc: Any = None
SliceDesc: Any = None
Slice1Desc: Any = None
GatherDesc: Any = None
GatherElementsDesc: Any = None
GatherNDDesc: Any = None
ScatterDesc: Any = None
ScatterElementsDesc: Any = None
ScatterNDDesc: Any = None


def compile(desc: Any, *, threads: int | None = None) -> _core.CompiledOperator:
    """Validate a description and plan its execution."""
    return _core.compile(desc, threads=threads)
