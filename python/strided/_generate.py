"""The generate family's array functions (SPEC 3.12-3.13): results made from values, not from
an input array. Thin wrappers over the library's functional path (strided/array.hpp): each
checks its arguments, makes or checks the result and runs the operator's description."""

from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np

from . import _core
from ._functional import _INT64_MAX, _bits, _ints, _out

_FILL_CONSTANT = _core._op_codes["FillValueConstantDesc"]

__all__ = ["full"]


def _shape(shape: Any, name: str) -> Tuple[int, ...]:
    dims = tuple(_ints(shape, name)) if not (isinstance(shape, tuple) and not shape) else ()
    for i, s in enumerate(dims):
        if s < 0:
            raise _core.ValidationError(f"{name}[{i}]: size must be non-negative, got {s}")
    return dims


def _dtype_for(value: Any, dtype: Any, out: Optional[np.ndarray], name: str) -> np.dtype:
    """``dtype`` if given, else ``out``'s, else a Scalar's, else numpy's default for the number."""
    if dtype is not None:
        return np.dtype(_core.DataType(_core._to_dtype(dtype)).numpy)
    if isinstance(out, np.ndarray):
        return out.dtype
    if isinstance(value, _core.Scalar):
        return np.dtype(value.dtype.numpy)
    if isinstance(value, (bool, np.bool_)):
        raise _core.ValidationError(f"{name}.dtype: bool is not a DirectML type; give dtype")
    return np.dtype(np.int64) if isinstance(value, (int, np.integer)) else np.dtype(np.float64)


def _as_out(out: Any) -> Optional[np.ndarray]:
    """``out=`` as a numpy array (a DLPack tensor or buffer shares its memory), or None."""
    return out if out is None or isinstance(out, np.ndarray) else _core._as_array(out, "out", True)


def _result(shape: Tuple[int, ...], dtype: np.dtype, out: Any, name: str) -> np.ndarray:
    if out is not None:
        return _out(out, shape, dtype)
    try:
        return _core._empty(shape, dtype)  # the result pool when large
    except OverflowError:
        raise _core.ValidationError(f"{name}: the result's shape {shape} does not fit in 64 bits") from None


def full(shape: Any, value: Any, dtype: Any = None, out: Optional[np.ndarray] = None) -> np.ndarray:
    """DirectML FillValueConstant (ONNX ConstantOfShape, ``numpy.full``): an array of ``shape``
    with every element ``value``.

    ``value``: a number, converted to ``dtype`` by the Cast rules (SPEC 3.5: ``-1`` -> UINT8 255,
    ``1e6`` -> FLOAT16 inf, ``2.7`` -> INT32 2), or a ``Scalar`` (converted the same way).
    ``dtype``: a DataType, numpy dtype-like or name; by default ``out``'s dtype, a Scalar's, or
    int64 / float64 for an int / float (numpy's rule). Returns a new C-contiguous array, or
    ``out`` (any strides, exactly ``shape`` and ``dtype``). A size-0 dimension gives an empty
    result; ``shape=()`` a 0-d array.
    """
    dims = _shape(shape, "full.shape")
    o = _as_out(out)
    dt = _dtype_for(value, dtype, o, "full")
    bits = _bits(value, dt, "full.value")
    res = _result(dims, dt, o, "full.shape")
    if res.size:
        _core._run(_FILL_CONSTANT, (bits,), (), (res,))
    return res if out is None else out
