"""The copy operators on arrays: copy, split, join, slice.

Each call normalises its arguments, allocates C-contiguous outputs when `out` is not given,
and hands the arrays to the C++ core (`_core._run`), which validates with the operator's
DirectML rules, plans once per (operator, shapes, strides, dtype) and runs without the GIL.
"""

from __future__ import annotations

import builtins
import operator
from typing import Any, List, Optional, Sequence, Union

import numpy as np

from . import _core

IDENTITY, SPLIT, JOIN, SLICE1 = 0, 1, 2, 3


def _as_array(x: Any, name: str) -> np.ndarray:
    if isinstance(x, np.ndarray):
        a = x
    else:
        try:
            a = np.asarray(x)
        except Exception as e:  # pragma: no cover - numpy's own message is clear
            raise TypeError(f"{name}: cannot be read as an array: {e}") from e
    if a.dtype.hasobject:
        raise TypeError(f"{name}: object arrays are not supported (dtype {a.dtype})")
    return a


def _check_out(out: Any, shape: tuple, dtype: np.dtype, name: str = "out") -> np.ndarray:
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{name}: expected a numpy array, got {type(out).__name__}")
    if out.shape != tuple(shape):
        raise _core.ValidationError(f"{name}: expected shape {tuple(shape)}, got {out.shape}")
    if out.dtype != dtype:
        raise _core.ValidationError(f"{name}: expected dtype {dtype}, got {out.dtype}")
    if not out.flags.writeable:
        raise BufferError(f"{name}: array is read-only")
    return out


def _norm_axis(axis: Any, ndim: int, name: str = "axis") -> int:
    try:
        a = operator.index(axis)
    except TypeError:
        raise TypeError(f"{name}: expected an integer, got {axis!r}") from None
    if not -ndim <= a < ndim:
        raise _core.ValidationError(f"{name}: {a} is out of range for {ndim} dimension(s)")
    return a + ndim if a < 0 else a


def _atleast_1d(a: np.ndarray) -> np.ndarray:
    return a.reshape(1) if a.ndim == 0 else a


def copy(src: Any, out: np.ndarray) -> np.ndarray:
    """Identity: ``out[...] = src`` with ``src`` broadcast to ``out.shape`` by numpy's rules.

    Bit-exact for every dtype (NaN payloads, -0.0). Overlapping ``src`` and ``out`` give the
    result numpy gives. Returns ``out``.
    """
    a = _as_array(src, "src")
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out: expected a numpy array, got {type(out).__name__}")
    if a.dtype != out.dtype:
        raise _core.ValidationError(f"out: dtype {out.dtype} differs from src dtype {a.dtype} (copy never converts)")
    if not out.flags.writeable:
        raise BufferError("out: array is read-only")
    if a.shape != out.shape:
        try:
            a = np.broadcast_to(a, out.shape)
        except ValueError:
            raise _core.ValidationError(f"src: shape {a.shape} does not broadcast to out shape {out.shape}") from None
    if out.size == 0:
        return out
    _core._run(IDENTITY, (), (_atleast_1d(a),), (_atleast_1d(out),))
    return out


def split(x: Any, split: Union[int, Sequence[int]], axis: int = 0, out: Optional[Sequence[np.ndarray]] = None) -> List[np.ndarray]:
    """Split ``x`` along ``axis`` into parts (DirectML Split / ONNX Split / torch.split sizes).

    ``split`` is a number of equal parts or a sequence of part sizes summing to
    ``x.shape[axis]`` (sizes, not numpy's cut points).
    """
    a = _atleast_1d(_as_array(x, "x"))
    ax = _norm_axis(axis, a.ndim)
    n = a.shape[ax]
    if isinstance(split, (int, np.integer)) and not isinstance(split, bool):
        parts = int(split)
        if parts < 1:
            raise _core.ValidationError(f"split: the number of parts must be at least 1, got {parts}")
        if n % parts:
            raise _core.ValidationError(f"split: axis {ax} of size {n} does not divide into {parts} equal parts")
        sizes = [n // parts] * parts
    else:
        try:
            sizes = [operator.index(s) for s in split]
        except TypeError:
            raise TypeError(f"split: expected an int or a sequence of ints, got {split!r}") from None
        if not sizes:
            raise _core.ValidationError("split: needs at least one part size")
        for i, s in enumerate(sizes):
            if s < 0:
                raise _core.ValidationError(f"split[{i}]: part size must not be negative, got {s}")
        if builtins.sum(sizes) != n:
            raise _core.ValidationError(f"split: part sizes {sizes} sum to {builtins.sum(sizes)}, not to axis {ax} size {n}")
    shapes = [a.shape[:ax] + (s,) + a.shape[ax + 1:] for s in sizes]
    if out is None:
        outs = [np.empty(s, dtype=a.dtype) for s in shapes]
    else:
        outs = list(out)
        if len(outs) != len(sizes):
            raise _core.ValidationError(f"out: expected {len(sizes)} arrays, got {len(outs)}")
        for i, (o, s) in enumerate(zip(outs, shapes)):
            _check_out(o, s, a.dtype, f"out[{i}]")
    live = [o for o in outs if o.size]
    if live and a.size:
        _core._run(SPLIT, (ax,), (a,), live)
    return outs


def join(arrays: Sequence[Any], axis: int = 0, out: Optional[np.ndarray] = None) -> np.ndarray:
    """Concatenate ``arrays`` along ``axis`` (DirectML Join / numpy.concatenate)."""
    arrs = [_atleast_1d(_as_array(x, f"arrays[{i}]")) for i, x in enumerate(arrays)]
    if not arrs:
        raise _core.ValidationError("arrays: needs at least one array")
    first = arrs[0]
    ax = _norm_axis(axis, first.ndim)
    for i, x in enumerate(arrs[1:], 1):
        if x.dtype != first.dtype:
            raise _core.ValidationError(f"arrays[{i}]: dtype {x.dtype} differs from arrays[0] dtype {first.dtype}")
        if x.ndim != first.ndim or x.shape[:ax] + x.shape[ax + 1:] != first.shape[:ax] + first.shape[ax + 1:]:
            raise _core.ValidationError(
                f"arrays[{i}]: shape {x.shape} must equal arrays[0] shape {first.shape} except along axis {ax}")
    total = builtins.sum(x.shape[ax] for x in arrs)
    shape = first.shape[:ax] + (total,) + first.shape[ax + 1:]
    res = np.empty(shape, dtype=first.dtype) if out is None else _check_out(out, shape, first.dtype)
    live = [x for x in arrs if x.size]
    if live and res.size:
        _core._run(JOIN, (ax,), live, (res,))
    return res


def slice(x: Any, offsets: Sequence[int], sizes: Sequence[int], strides: Optional[Sequence[int]] = None,
          out: Optional[np.ndarray] = None) -> np.ndarray:
    """DirectML Slice1: read the window ``offsets``/``sizes`` of ``x`` with signed ``strides``.

    A negative stride walks the window backwards from its far end. The result has
    ``1 + (sizes[i] - 1) // abs(strides[i])`` elements per dimension unless ``out`` is given.
    """
    a = _atleast_1d(_as_array(x, "x"))
    off = [operator.index(v) for v in offsets]
    siz = [operator.index(v) for v in sizes]
    st = [1] * a.ndim if strides is None else [operator.index(v) for v in strides]
    for name, v in (("offsets", off), ("sizes", siz), ("strides", st)):
        if len(v) != a.ndim:
            raise _core.ValidationError(f"Slice1Desc.{name}: must have one value per input dimension ({a.ndim}), got {len(v)}")
    for i, s in enumerate(st):
        if s == 0:
            raise _core.ValidationError(f"Slice1Desc.strides[{i}]: stride must not be 0")
    shape = tuple(0 if s <= 0 else 1 + (s - 1) // abs(t) for s, t in zip(siz, st))
    if out is not None:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"out: expected a numpy array, got {type(out).__name__}")
        _check_out(out, out.shape, a.dtype)
        if out.ndim != a.ndim:
            raise _core.ValidationError(f"out: must have {a.ndim} dimensions, got {out.ndim}")
        res = out
    else:
        res = np.empty(shape, dtype=a.dtype)
    if res.size == 0 or a.size == 0:
        for i, (o, s, n) in enumerate(zip(off, siz, a.shape)):
            if o < 0 or s < 0 or o + s > n:
                raise _core.ValidationError(f"Slice1Desc.sizes[{i}]: window [{o}, {o + s}) exceeds input size {n}")
        return res
    _core._run(SLICE1, tuple(off) + tuple(siz) + tuple(st), (a,), (_atleast_1d(res),))
    return res
