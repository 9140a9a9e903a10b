"""The ten DirectML operator descriptions (compile once, execute many) and compile().

The classes are the C++ structs bound in ``_core`` (``compile`` recognises them by type). Each
has read-only fields named after DirectML's in snake case, ``validate(feature_level=None)``,
``is_valid_at(level)``, the ``min_feature_level`` property, ``__repr__`` and ``__eq__``.
"""

from __future__ import annotations

from typing import Union

from . import _core

IdentityDesc = _core.IdentityDesc
SplitDesc = _core.SplitDesc
JoinDesc = _core.JoinDesc
SliceDesc = _core.SliceDesc
Slice1Desc = _core.Slice1Desc
GatherDesc = _core.GatherDesc
GatherElementsDesc = _core.GatherElementsDesc
GatherNDDesc = _core.GatherNDDesc
ScatterDesc = _core.ScatterDesc
ScatterElementsDesc = _core.ScatterDesc  # DirectML's better name for the same operator
ScatterNDDesc = _core.ScatterNDDesc

AnyDesc = Union[
    IdentityDesc,
    SplitDesc,
    JoinDesc,
    SliceDesc,
    Slice1Desc,
    GatherDesc,
    GatherElementsDesc,
    GatherNDDesc,
    ScatterDesc,
    ScatterNDDesc,
]


def compile(desc: AnyDesc, *, threads: int | None = None) -> _core.CompiledOperator:
    """Validate a description and plan its execution (``threads``: None = the global setting)."""
    return _core.compile(desc, threads=threads)


__all__ = [
    "GatherDesc",
    "GatherElementsDesc",
    "GatherNDDesc",
    "IdentityDesc",
    "JoinDesc",
    "ScatterDesc",
    "ScatterElementsDesc",
    "ScatterNDDesc",
    "Slice1Desc",
    "SliceDesc",
    "SplitDesc",
    "compile",
]
