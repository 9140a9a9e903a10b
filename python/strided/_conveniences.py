"""NonzeroCoordinates as ``argwhere``, ONNX's Compress and CenterCropPad (no DirectML struct,
SPEC 3.15), and the array-API conveniences ``flip``, ``permute_dims``, ``broadcast_to`` and
``concat``.

Each is built on the engine, never on a numpy copy: argwhere is the NonzeroCoordinates step
(``_core._argwhere``: the input read once, the result made once the count is known); compress
is a gather of the positions argwhere finds in the condition; permute_dims is the core's (C++,
register_functional.cpp: a tiny call costs what numpy's does); center_crop_pad, flip and
broadcast_to copy a view of ``x`` (numpy's views: negative, permuted or zero
strides) into a new array with the Identity copy, center_crop_pad after a fill of its padding.
"""

from __future__ import annotations

import functools
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from . import _core
from ._core import permute_dims
from ._functional import _array, _ints, _out, join
from ._generate import full
from ._index import gather

__all__ = ["argwhere", "broadcast_to", "center_crop_pad", "compress", "concat", "flip", "permute_dims"]


def _nonzero_source(a: np.ndarray) -> np.ndarray:
    """bool has no DirectML type: its bytes (0 / 1) are read as uint8, the same non-zero test."""
    return a.view(np.uint8) if a.dtype == np.bool_ else a


def _axes(axis: Any, ndim: int, name: str) -> List[int]:
    """Axes (an int or a sequence), negative counted from the end; ValidationError naming
    ``name[i]`` when out of range or repeated (the rule is the core's: _core._axes)."""
    res: List[int] = _core._axes(axis, ndim, name)
    return res


def _materialise(view: np.ndarray) -> np.ndarray:
    """A new C-contiguous copy of a numpy view, through the engine's Identity copy."""
    res = _core._empty(view.shape, view.dtype)
    if res.size:
        _core.copy(view, res)
    return res


def argwhere(x: Any, dtype: Any = "int64") -> np.ndarray:
    """DirectML NonzeroCoordinates as ``numpy.argwhere``: the coordinates of ``x``'s non-zero
    elements in row-major order, a ``[count, x.ndim]`` array of ``dtype``.

    +0.0 and -0.0 are zero, NaN is not (SPEC 3.14.1); bool arrays are read as 0 / 1. ``x`` is read
    once (any strides). ``dtype``: any integer type that holds ``x``'s largest coordinate
    (``max(x.shape) - 1``), else ValidationError (``"argwhere.dtype: ..."``). A 0-d ``x`` gives
    shape ``(1, 0)`` or ``(0, 0)``, an empty ``x`` ``(0, x.ndim)``, as numpy does.
    """
    a = _nonzero_source(_array(x, "argwhere.x"))
    try:
        t, name, top = _coordinate_type(dtype)
    except TypeError:  # an unhashable dtype-like: not cached
        t, name, top = _coordinate_type.__wrapped__(dtype)
    largest = max(a.shape, default=1) - 1
    if largest > top:
        raise _core.ValidationError(f"argwhere.dtype: {name} cannot hold coordinate {largest}")
    res: np.ndarray = _core._argwhere(a, t)
    return res


@functools.lru_cache(maxsize=64)
def _coordinate_type(dtype: Any) -> Tuple[_core.DataType, str, int]:
    """argwhere's dtype: (DataType, numpy name, largest value); cached, as reading a dtype-like
    (DataType, numpy.iinfo) cost 1.2 us of every call."""
    t = _core.DataType(_core._to_dtype(dtype))
    if np.dtype(t.numpy).kind not in "iu":
        raise _core.ValidationError(f"argwhere.dtype: coordinates need an integer type, got {t.numpy}")
    return t, str(t.numpy), int(np.iinfo(t.numpy).max)


def compress(x: Any, condition: Any, axis: Optional[int] = None, out: Optional[np.ndarray] = None) -> np.ndarray:
    """``numpy.compress`` / ONNX Compress: the positions along ``axis`` whose ``condition`` is
    true, in order (``axis=None``: of ``x`` flattened row-major, a 1-d result).

    ``condition`` is 1-d, bool or numbers (non-zero is true, NaN included). A condition shorter
    than the axis counts as false beyond its end; a true entry beyond the axis raises IndexError
    (as numpy), with nothing written. Returns a new C-contiguous array, or ``out`` (any strides,
    exactly the result's shape and ``x``'s dtype).
    """
    a = _array(x, "compress.x")
    c = _nonzero_source(_array(condition, "compress.condition"))
    if c.ndim != 1:
        raise _core.ValidationError(f"compress.condition: must be 1-d, got {c.ndim} dimensions")
    if axis is None:
        a = (a if a.flags.c_contiguous else _materialise(a)).reshape(-1)
        ax = 0
    else:
        ax = _axes(axis, a.ndim, "compress.axis")[0]
    positions = _core._argwhere(c, _core.DataType.INT64)[:, 0]
    size = a.shape[ax]
    if positions.size and positions[-1] >= size:
        raise IndexError(f"compress.condition: entry {positions[-1]} is true, beyond axis {ax} of size {size}")
    shape = a.shape[:ax] + (positions.size,) + a.shape[ax + 1 :]
    if out is not None:
        _out(out, shape, a.dtype)
    if positions.size == 0 or a.size == 0:
        return _core._empty(shape, a.dtype) if out is None else out
    res: np.ndarray = gather(a, positions, axis=ax, out=out)
    return res


def center_crop_pad(x: Any, shape: Any, axes: Optional[Sequence[int]] = None) -> np.ndarray:
    """ONNX CenterCropPad (opset 18): each listed axis of size ``m`` cropped or zero-padded to its
    target ``t``, centred: ``t < m`` keeps ``[(m-t)//2, (m-t)//2 + t)``, ``t > m`` places ``x`` at
    ``(t-m)//2`` in zeros (an odd difference: the extra element is cut from, or the extra zero
    added at, the end).

    ``axes``: default all dimensions (then one target per dimension); negative allowed; a repeated
    axis is a ValidationError. Targets must be >= 0. Returns a new C-contiguous array.
    """
    a = _array(x, "center_crop_pad.x")
    targets = _ints(shape, "center_crop_pad.shape")
    ax = list(range(a.ndim)) if axes is None else _axes(axes, a.ndim, "center_crop_pad.axes")
    if len(targets) != len(ax):
        raise _core.ValidationError(
            f"center_crop_pad.shape: must have one target per axis ({len(ax)}), got {len(targets)}"
        )
    out_shape = list(a.shape)
    src: List[slice] = [slice(None)] * a.ndim
    dst: List[slice] = [slice(None)] * a.ndim
    padded = False
    for i, (d, t) in enumerate(zip(ax, targets)):
        if t < 0:
            raise _core.ValidationError(f"center_crop_pad.shape[{i}]: target must be non-negative, got {t}")
        m = a.shape[d]
        out_shape[d] = t
        if t < m:
            src[d] = slice((m - t) // 2, (m - t) // 2 + t)
        elif t > m:
            dst[d] = slice((t - m) // 2, (t - m) // 2 + m)
            padded = True
    res = _core._empty(tuple(out_shape), a.dtype, "center_crop_pad.shape")
    if res.size:
        if padded:
            full(res.shape, 0, res.dtype, out=res)
        inner = res[tuple(dst)] if dst else res  # (a 0-d array indexed by () is a scalar, not a view)
        if inner.size:
            _core.copy(a[tuple(src)] if src else a, inner)
    return res


def flip(x: Any, axis: Any = None) -> np.ndarray:
    """``numpy.flip`` / the array API's ``flip``, materialised: the elements reversed along
    ``axis`` (an int or a sequence; None: every axis). A new C-contiguous array."""
    a = _array(x, "flip.x")
    ax = range(a.ndim) if axis is None else _axes(axis, a.ndim, "flip.axis")
    index: List[slice] = [slice(None)] * a.ndim
    for d in ax:
        index[d] = slice(None, None, -1)
    return _materialise(a[tuple(index)])


def broadcast_to(x: Any, shape: Any) -> np.ndarray:
    """``numpy.broadcast_to`` materialised (numpy's rules: ``x``'s shape aligned right, each size
    equal or 1). A new C-contiguous array."""
    a = _array(x, "broadcast_to.x")
    target: Tuple[int, ...] = tuple(_ints(shape, "broadcast_to.shape"))
    for i, s in enumerate(target):
        if s < 0:
            raise _core.ValidationError(f"broadcast_to.shape[{i}]: size must be non-negative, got {s}")
    lead = len(target) - a.ndim
    if lead < 0 or any(m not in (1, target[lead + i]) for i, m in enumerate(a.shape)):
        raise _core.ValidationError(f"broadcast_to.shape: x of shape {a.shape} does not broadcast to {target}")
    res = _core._empty(target, a.dtype, "broadcast_to.shape")
    if res.size:
        _core.copy(a, res)
    return res


def concat(arrays: Sequence[Any], axis: Optional[int] = 0) -> np.ndarray:
    """The array API's ``concat`` (``numpy.concatenate``): ``join``; ``axis=None`` joins the arrays
    flattened row-major. Same dtype throughout (no promotion). A new C-contiguous array."""
    if axis is None:
        flat = []
        for i, x in enumerate(arrays):
            a = _array(x, f"concat.arrays[{i}]")
            flat.append((a if a.flags.c_contiguous else _materialise(a)).reshape(-1))
        return join(flat, 0)
    res: np.ndarray = join(arrays, axis)
    return res
