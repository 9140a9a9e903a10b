"""The copy-family operators on arrays: copy, split, join, slice, cast.

copy, split, join and slice live in the C++ core (csrc/python/register_functional.cpp) so that a
call on a tiny array costs about what numpy's own copy does: argument checks, output allocation
and the cached plan (keyed by operator, shapes, strides and dtype) never go back to Python, and
the copy itself runs without the GIL. cast is a thin layer over the library's functional path.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from . import _core
from ._core import copy, join, slice, split

_CAST = _core._op_codes["CastDesc"]

__all__ = ["cast", "copy", "join", "slice", "split"]


def _array(x: Any, name: str) -> np.ndarray:
    if type(x) is np.ndarray and not x.dtype.hasobject:
        return x
    a = np.asarray(x)
    if a.dtype.hasobject:
        raise TypeError(f"{name}: object arrays are not supported (dtype {a.dtype})")
    return a


def cast(x: Any, dtype: Any, out: Optional[np.ndarray] = None) -> np.ndarray:
    """DirectML Cast: ``x`` converted to ``dtype`` by SPEC 3.5's rules, for any pair of the eleven
    DirectML types (float16/32/64, int8-64, uint8-64).

    Unlike numpy's ``astype``, every value has a defined result: float -> int truncates toward
    zero and saturates (NaN -> 0, +-inf and out-of-range values -> the type's max / min);
    int -> int keeps the low bits (modulo 2^bits); float -> narrower float and int -> float round
    to nearest even, once, from the exact value (overflow -> +-inf); NaNs stay NaN (quiet, sign
    and payload's high bits kept). ``dtype``: a numpy dtype-like, a ``DataType`` or a name; bool
    and complex are not DirectML types (ValidationError). Returns a new C-contiguous array of
    ``x``'s shape, or ``out`` (any strides, exactly that shape and dtype).
    """
    a = _array(x, "cast.x")
    target = _core.DataType(_core._to_dtype(dtype)).numpy
    if out is None:
        res = np.empty(a.shape, dtype=target)
    else:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"out: expected a numpy array, got {type(out).__name__}")
        if out.shape != a.shape:
            raise _core.ValidationError(f"out: expected shape {a.shape}, got {out.shape}")
        if out.dtype != target:
            raise _core.ValidationError(f"out: expected dtype {target}, got {out.dtype}")
        if not out.flags.writeable:
            raise BufferError("out: array is read-only")
        res = out
    if res.size:
        _core._run(_CAST, (), (a,), (res,))
    return res
