"""Python conveniences on the C++ enums: DataType.itemsize / .numpy / .from_numpy,
FeatureLevel.parse."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _core

_ITEMSIZE = {
    "FLOAT32": 4, "FLOAT16": 2, "UINT32": 4, "UINT16": 2, "UINT8": 1, "INT32": 4,
    "INT16": 2, "INT8": 1, "FLOAT64": 8, "UINT64": 8, "INT64": 8,
}


def _itemsize(self: Any) -> int:
    return _ITEMSIZE[self.name]


def _numpy(self: Any) -> np.dtype:
    return np.dtype(self.name.lower())


def _from_numpy(cls: Any, dtype_like: Any) -> Any:
    return _core._to_dtype(dtype_like)


def _parse_level(cls: Any, level: Any) -> Any:
    return _core._to_level(level)


def install_enum_helpers() -> None:
    dt = _core.DataType
    dt.itemsize = property(_itemsize)  # type: ignore[attr-defined]
    dt.numpy = property(_numpy)  # type: ignore[attr-defined]
    dt.from_numpy = classmethod(_from_numpy)  # type: ignore[attr-defined]
    _core.FeatureLevel.parse = classmethod(_parse_level)  # type: ignore[attr-defined]
