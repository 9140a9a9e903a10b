"""The index operators on arrays: gather, gather_elements, gather_nd, scatter, scatter_nd.

Semantics as ONNX (Gather = numpy ``take``, GatherElements = ``take_along_axis`` without its
broadcasting of indices, GatherND, ScatterElements, ScatterND) with two promises beyond DirectML:

* every index is checked before anything is written: a value outside ``[-size, size)`` raises
  ``IndexError`` naming its position, value and the range allowed (``"scatter.indices[1, 2] = 7:
  out of range [-3, 3) for axis 0"``; a compiled ``ScatterDesc`` says ``"ScatterDesc.indices..."``)
  and leaves ``out`` untouched;
* duplicates are deterministic: the last update in row-major order of the indices wins, and
  ``reduction`` ("add", "mul", "min", "max") combines them in that order, in the element type
  (integers wrap; float16 is rounded back to float16 after each step; float min/max propagate
  NaN as numpy's ``minimum``/``maximum``), bit-identical for any thread count.

Indices of dtype int32/int64/uint32/uint64 are read as they are; other integer dtypes are
converted to int64; bool and float indices are a TypeError.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

import numpy as np

from . import _core
from ._functional import _array
from ._functional import _out as _checked_out

_codes = _core._op_codes  # operator codes by description name (the C++ operator list)
GATHER, GATHER_ELEMENTS = _codes["GatherDesc"], _codes["GatherElementsDesc"]
GATHER_ND, SCATTER, SCATTER_ND = _codes["GatherNDDesc"], _codes["ScatterDesc"], _codes["ScatterNDDesc"]
_REDUCTIONS = {"none": 0, "add": 1, "mul": 2, "min": 3, "max": 4}
_NATIVE_INDEX = frozenset(np.dtype(t) for t in (np.int32, np.int64, np.uint32, np.uint64))
_run = _core._run
_fast = _core._index_fast  # the common case in C++; None means: take the general path below
_ValidationError = _core.ValidationError
_to_int = _core._to_int  # the bindings' one rule for integer arguments (csrc/python/args.cpp)

__all__ = ["gather", "gather_elements", "gather_nd", "scatter", "scatter_nd"]


def _indices(ix: Any, fn: str, arg: str = "indices") -> np.ndarray:
    a = ix if type(ix) is np.ndarray else _core._as_array(ix, f"{fn}.{arg}")
    dt = a.dtype
    if dt in _NATIVE_INDEX:
        return a if dt.isnative else a.astype(dt.newbyteorder("="))
    if dt.kind == "b":
        raise TypeError(f"{fn}.{arg}: boolean {arg} are not supported (use integer positions)")
    if dt.kind not in "iu":
        raise TypeError(f"{fn}.{arg}: expected an integer array, got dtype {dt}")
    return a.astype(np.int64)


def _axis(axis: Any, ndim: int, fn: str) -> int:
    a = _to_int(axis, f"{fn}.axis")
    if not -ndim <= a < ndim:
        raise _ValidationError(f"{fn}.axis: {a} is out of range for {ndim} dimension(s)")
    return a + ndim if a < 0 else a


def _out(out: Any, shape: Tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    return np.empty(shape, dtype=dtype) if out is None else _checked_out(out, shape, dtype)


def _reduction(reduction: Any, fn: str) -> int:
    if not isinstance(reduction, str):
        raise TypeError(f"{fn}.reduction: expected 'none', 'add', 'mul', 'min' or 'max', got {reduction!r}")
    try:
        return _REDUCTIONS[reduction]
    except KeyError:
        raise _ValidationError(
            f"{fn}.reduction: expected one of 'none', 'add', 'mul', 'min', 'max', got {reduction!r}"
        ) from None


def _updates(updates: Any, shape: Tuple[int, ...], dtype: np.dtype, fn: str) -> np.ndarray:
    """Updates of the right dtype, broadcast (without copying) to `shape`."""
    if type(updates) is np.ndarray:
        u = updates
        if u.dtype != dtype:
            raise _ValidationError(f"{fn}.updates: dtype {u.dtype} must equal x's dtype {dtype}")
    else:
        u = _core._as_array(updates, f"{fn}.updates")  # torch tensors and DLPack too
        if u.dtype.hasobject or u.dtype.kind in "USV":  # None, strings: not numbers (no silent NaN)
            raise TypeError(f"{fn}.updates: expected numbers, got {type(updates).__name__} of dtype {u.dtype}")
        if u.dtype != dtype:
            if isinstance(updates, np.ndarray):
                raise _ValidationError(f"{fn}.updates: dtype {u.dtype} must equal x's dtype {dtype}")
            u = np.asarray(updates, dtype=dtype)  # Python scalars and lists take x's dtype
    if u.shape != shape:
        try:
            u = np.broadcast_to(u, shape)
        except ValueError:
            raise _ValidationError(f"{fn}.updates: shape {u.shape} does not broadcast to {shape}") from None
    return u


def _check_range(idx: np.ndarray, bounds: Sequence[int], axes: Sequence[int], name: str, tuples: bool) -> None:
    """Index check for calls that move no data (empty results): same rule and message as the core."""
    if idx.size == 0:
        return
    v = idx.astype(np.int64) if idx.dtype != np.uint64 else idx
    b = np.asarray(bounds, dtype=np.int64)
    if not tuples:
        b = np.broadcast_to(b[0], v.shape)
    else:
        b = np.broadcast_to(b, v.shape)
    if v.dtype == np.uint64:
        bad = v >= b.astype(np.uint64)
    else:
        bad = (v < -b) | (v >= b)
    if bad.any():
        pos = tuple(int(p) for p in np.argwhere(bad)[0])
        comp = pos[-1] if tuples else 0
        lo = 0 if idx.dtype.kind == "u" else -bounds[comp]  # as the library's check: from -size if signed
        raise IndexError(
            f"{name}[{', '.join(map(str, pos))}] = {int(idx[pos])}: out of range [{lo}, {bounds[comp]}) "
            f"for axis {axes[comp]}"
        )


def _elements_shape(idx: np.ndarray, a: np.ndarray, ax: int, fn: str) -> None:
    """GatherElements/ScatterElements index shape for empty calls, which move no data and have no
    description (sizes of 0): the rule of GatherElementsDesc/ScatterDesc, which checks all others."""
    for d, (i, n) in enumerate(zip(idx.shape, a.shape)):
        if d != ax and i > n:
            raise _ValidationError(
                f"{fn}.indices.shape[{d}]: must be at most x.shape[{d}] ({n}) off the axis ({ax}), got {i}"
            )


def gather(x: Any, indices: Any, axis: int = 0, out: Optional[np.ndarray] = None) -> np.ndarray:
    """ONNX Gather / ``numpy.take(x, indices, axis)``.

    The result has shape ``x.shape[:axis] + indices.shape + x.shape[axis+1:]``; a 0-d ``x`` is
    taken as shape (1,), as numpy.take does.
    """
    done = _fast(GATHER, x, indices, None, axis, 0, out)
    if done is not None:
        return done
    a = _array(x, "gather.x")
    if a.ndim == 0:  # numpy.take's rule: a 0-d x is taken as shape (1,) (axis 0 or -1)
        a = a.reshape(1)
    idx = _indices(indices, "gather")
    ax = _axis(axis, a.ndim, "gather")
    shape = a.shape[:ax] + idx.shape + a.shape[ax + 1 :]
    res = _out(out, shape, a.dtype)
    if res.size == 0 or a.size == 0:
        _check_range(idx, (a.shape[ax],), (ax,), "gather.indices", False)
        return res if out is None else out
    if idx.ndim == 0:  # a scalar index: the axis disappears; run it as a 1-element index vector
        _run(GATHER, (ax, 0), (a, idx.reshape(1)), (np.expand_dims(res, ax),))
    else:
        _run(GATHER, (ax, 0), (a, idx), (res,))
    return res if out is None else out


def gather_elements(x: Any, indices: Any, axis: int = 0, out: Optional[np.ndarray] = None) -> np.ndarray:
    """ONNX GatherElements: ``out[c] = x[c with c[axis] = indices[c]]``.

    ``indices`` has as many dimensions as ``x``, any size along ``axis`` and at most ``x``'s size
    off it; the result has its shape. Unlike ``numpy.take_along_axis``, size-1 index dimensions
    do not broadcast: ``gather_elements(np.arange(6.).reshape(2, 3), [[1, 0]], axis=1)`` is
    ``[[1., 0.]]``, of shape (1, 2). A ``GatherElementsDesc`` with such smaller indices executes
    but is valid at no DirectML feature level (DirectML requires equal sizes off the axis).
    """
    done = _fast(GATHER_ELEMENTS, x, indices, None, axis, 0, out)
    if done is not None:
        return done
    a = _array(x, "gather_elements.x")
    idx = _indices(indices, "gather_elements")
    ax = _axis(axis, a.ndim, "gather_elements")
    if idx.ndim != a.ndim:
        raise _ValidationError(f"gather_elements.indices: must have as many dimensions as x ({a.ndim}), got {idx.ndim}")
    res = _out(out, idx.shape, a.dtype)
    if res.size == 0 or a.size == 0:
        _elements_shape(idx, a, ax, "gather_elements")
        _check_range(idx, (a.shape[ax],), (ax,), "gather_elements.indices", False)
        return res if out is None else out
    _run(GATHER_ELEMENTS, (ax, 0), (a, idx), (res,))
    return res if out is None else out


def gather_nd(x: Any, indices: Any, batch_dims: int = 0, out: Optional[np.ndarray] = None) -> np.ndarray:
    """ONNX GatherND: the last dimension of ``indices`` holds coordinates into ``x``'s leading
    dimensions after ``batch_dims`` shared batch dimensions.

    The result has shape ``indices.shape[:-1] + x.shape[batch_dims + indices.shape[-1]:]``.
    """
    done = _fast(GATHER_ND, x, indices, None, batch_dims, 0, out)
    if done is not None:
        return done
    a = _array(x, "gather_nd.x")
    idx = _indices(indices, "gather_nd")
    b = _to_int(batch_dims, "gather_nd.batch_dims")
    r, q = a.ndim, idx.ndim
    if r < 1 or q < 1:
        raise _ValidationError("gather_nd: x and indices need at least one dimension each")
    if not 0 <= b < min(r, q):
        raise _ValidationError(
            f"gather_nd.batch_dims: {b} must be in [0, min(x.ndim, indices.ndim)) = [0, {min(r, q)})"
        )
    L = idx.shape[-1]
    if not 1 <= L <= r - b:
        raise _ValidationError(
            f"gather_nd.indices: the last dimension ({L}) must be between 1 and x.ndim - batch_dims ({r - b})"
        )
    if idx.shape[:b] != a.shape[:b]:
        raise _ValidationError(f"gather_nd.indices: batch dimensions {idx.shape[:b]} must equal x's {a.shape[:b]}")
    shape = idx.shape[:-1] + a.shape[b + L :]
    res = _out(out, shape, a.dtype)
    if res.size == 0 or a.size == 0:
        _check_range(idx, a.shape[b : b + L], tuple(range(b, b + L)), "gather_nd.indices", True)
        return res if out is None else out
    _run(GATHER_ND, (b, 0), (a, idx), (res,))
    return res if out is None else out


def _scatter_prologue(fn: str, x: Any, indices: Any, reduction: Any) -> Tuple[np.ndarray, np.ndarray, int]:
    a = _array(x, f"{fn}.x")
    return a, _indices(indices, fn), _reduction(reduction, fn)


def scatter(
    x: Any, indices: Any, updates: Any, axis: int = 0, reduction: str = "none", out: Optional[np.ndarray] = None
) -> np.ndarray:
    """ONNX ScatterElements (DirectML Scatter): ``out = x``, then for every coordinate ``c`` of
    ``indices`` ``out[c with c[axis] = indices[c]] = updates[c]`` in row-major order (the last
    duplicate wins), or combined with ``reduction``. ``out=x`` scatters in place. ``indices`` has
    as many dimensions as ``x``, any size along ``axis`` and at most ``x``'s size off it (positions
    it does not reach keep ``x``'s values); ``updates`` broadcasts to ``indices.shape``.
    """
    red = _REDUCTIONS.get(reduction, -1) if type(reduction) is str else -1
    if red >= 0:
        done = _fast(SCATTER, x, indices, updates, axis, red, out)
        if done is not None:
            return done
    a, idx, red = _scatter_prologue("scatter", x, indices, reduction)
    ax = _axis(axis, a.ndim, "scatter")
    if idx.ndim != a.ndim:
        raise _ValidationError(f"scatter.indices: must have as many dimensions as x ({a.ndim}), got {idx.ndim}")
    u = _updates(updates, idx.shape, a.dtype, "scatter")
    res = _out(out, a.shape, a.dtype)
    if res.size == 0 or idx.size == 0:
        _elements_shape(idx, a, ax, "scatter")
        _check_range(idx, (a.shape[ax],), (ax,), "scatter.indices", False)
        if res is not a and res.size:
            np.copyto(res, a)
        return res if out is None else out
    _run(SCATTER, (ax, red), (a, idx, u), (res,))
    return res if out is None else out


def scatter_nd(
    x: Any, indices: Any, updates: Any, reduction: str = "none", out: Optional[np.ndarray] = None
) -> np.ndarray:
    """ONNX ScatterND: ``out = x``, then ``out[indices[t]] = updates[t]`` for every index tuple
    ``t`` in row-major order (the last duplicate wins), or combined with ``reduction``.
    ``updates`` broadcasts to ``indices.shape[:-1] + x.shape[indices.shape[-1]:]``.
    """
    red = _REDUCTIONS.get(reduction, -1) if type(reduction) is str else -1
    if red >= 0:
        done = _fast(SCATTER_ND, x, indices, updates, 0, red, out)
        if done is not None:
            return done
    a, idx, red = _scatter_prologue("scatter_nd", x, indices, reduction)
    r, q = a.ndim, idx.ndim
    if r < 1 or q < 1:
        raise _ValidationError("scatter_nd: x and indices need at least one dimension each")
    L = idx.shape[-1]
    if not 1 <= L <= r:
        raise _ValidationError(f"scatter_nd.indices: the last dimension ({L}) must be between 1 and x.ndim ({r})")
    u = _updates(updates, idx.shape[:-1] + a.shape[L:], a.dtype, "scatter_nd")
    res = _out(out, a.shape, a.dtype)
    if res.size == 0 or u.size == 0:
        _check_range(idx, a.shape[:L], tuple(range(L)), "scatter_nd.indices", True)
        if res is not a and res.size:
            np.copyto(res, a)
        return res if out is None else out
    _run(SCATTER_ND, (0, red), (a, idx, u), (res,))
    return res if out is None else out
