"""PLACEHOLDER (owned by the index-operators work): gather / scatter on arrays."""

from __future__ import annotations

from typing import Any


def _todo(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("index operators are not yet supported in this build")


gather = gather_elements = gather_nd = scatter = scatter_nd = _todo
