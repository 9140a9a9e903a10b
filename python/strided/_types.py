"""Python conveniences on the C++ enums: DataType.itemsize / .numpy / .from_numpy,
FeatureLevel.parse, and FeatureLevel's text ("FL_2_1", not the integer 8448)."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _core

_ITEMSIZE = {
    "FLOAT32": 4,
    "FLOAT16": 2,
    "UINT32": 4,
    "UINT16": 2,
    "UINT8": 1,
    "INT32": 4,
    "INT16": 2,
    "INT8": 1,
    "FLOAT64": 8,
    "UINT64": 8,
    "INT64": 8,
}


def _itemsize(self: Any) -> int:
    return _ITEMSIZE[self.name]


_NUMPY: dict[int, np.dtype[Any]] = {}  # DataType value -> numpy dtype, filled by install_enum_helpers


def _numpy(self: Any) -> np.dtype[Any]:
    return _NUMPY[int(self)]  # made once: np.dtype(name) per call cost more than a small cast


def _from_numpy(cls: Any, dtype_like: Any) -> Any:
    return _core._to_dtype(dtype_like)


def _parse_level(cls: Any, level: Any) -> Any:
    if level is None:  # _to_level maps None to "no level" (validate's default); parse needs one
        raise TypeError("feature_level: expected a FeatureLevel, an int or a string like '4_1', got None")
    return _core._to_level(level)


def _level_str(self: Any) -> str:
    # IntEnum's str() is int's on Python 3.11+ ("8448") and "FeatureLevel.FL_2_1" before: a level
    # prints as its name on every version. repr() and int() are unchanged.
    return str(self.name)


def _level_format(self: Any, spec: str) -> str:
    # f"{level}" agrees with str(); a format spec formats the value (f"{level:#x}" == "0x2100").
    return _level_str(self) if not spec else format(int(self), spec)


def install_enum_helpers() -> None:
    # setattr: the stub (_core/__init__.pyi) already declares these as the methods they become.
    dt = _core.DataType
    _NUMPY.update({int(t): np.dtype(str(t.name).lower()) for t in dt})
    setattr(dt, "itemsize", property(_itemsize))
    setattr(dt, "numpy", property(_numpy))
    setattr(dt, "from_numpy", classmethod(_from_numpy))
    fl = _core.FeatureLevel
    setattr(fl, "parse", classmethod(_parse_level))
    setattr(fl, "__str__", _level_str)
    setattr(fl, "__format__", _level_format)
