"""The pooling-related data movements: unfold (DirectML Unfold, im2col) and max_unpool (DirectML
MaxUnpooling, ONNX MaxUnpool)."""

from __future__ import annotations

import collections.abc as abc  # isinstance: typing's aliases check slower
import math
from typing import Any, List, Optional, Tuple

import numpy as np

from . import _core
from ._functional import _array, _ints, _out
from ._index import _indices

_UNFOLD = _core._op_codes["UnfoldDesc"]
_MAX_UNPOOL = _core._op_codes["MaxUnpoolingDesc"]
_ValidationError = _core.ValidationError

__all__ = ["max_unpool", "unfold"]


def _per_dim(v: Any, d: int, field: str, least: int) -> List[int]:
    """One value per spatial dimension: a scalar applies to all of them (torch's rule)."""
    vals = _ints(v, field)
    scalar = not (
        isinstance(v, np.ndarray) and v.ndim > 0 or isinstance(v, abc.Sequence) and not isinstance(v, (str, bytes))
    )
    if scalar:
        vals = vals * d
    elif len(vals) != d:
        raise _ValidationError(f"{field}: must have one value per spatial dimension of x ({d}), got {len(vals)}")
    for i, k in enumerate(vals):
        if k < least:
            what = "must not be negative" if least == 0 else f"must be at least {least}"
            raise _ValidationError(f"{field}[{i}]: {what}, got {k}")
    return vals


def unfold(
    x: Any,
    window: Any,
    strides: Any = 1,
    dilations: Any = 1,
    begin: Any = 0,
    end: Any = 0,
    out: Optional[np.ndarray] = None,
) -> np.ndarray:
    """DirectML Unfold (im2col), ``torch.nn.functional.unfold`` with separate begin/end padding.

    ``x`` is ``[N, C, S_0, ..., S_{D-1}]`` with 1 to 6 spatial dimensions. ``window``,
    ``strides`` (>= 1), ``dilations`` (>= 1), ``begin`` and ``end`` (zero padding before and
    after, >= 0) each take one value per spatial dimension, or one int for all of them (as
    torch's ``kernel_size``, ``stride``, ``dilation``, ``padding``). The result is
    ``[N, C*K, L]`` with ``K = prod(window)`` and ``L = prod(B_d)``,
    ``B_d = (S_d + begin_d + end_d - dilations_d*(window_d - 1) - 1) // strides_d + 1``:
    ``result[n, c*K + w, l] = x[n, c, b*strides - begin + w*dilations]`` for window offset ``w``
    and window position ``b`` (both row-major), 0 in the padding. A dilated window larger than
    the padded input raises ValidationError (``"unfold.window[0]: ..."``). Returns a new
    C-contiguous array, or ``out`` (any strides, exactly the result's shape and ``x``'s dtype).
    """
    a = _array(x, "unfold.x")
    if not 3 <= a.ndim <= 8:
        raise _ValidationError(f"unfold.x: must have 3 to 8 dimensions (N, C and 1 to 6 spatial), got {a.ndim}")
    d = a.ndim - 2
    win = _per_dim(window, d, "unfold.window", 1)
    st = _per_dim(strides, d, "unfold.strides", 1)
    dil = _per_dim(dilations, d, "unfold.dilations", 1)
    lo = _per_dim(begin, d, "unfold.begin", 0)
    hi = _per_dim(end, d, "unfold.end", 0)
    blocks = []
    for i in range(d):
        padded, span = a.shape[2 + i] + lo[i] + hi[i], dil[i] * (win[i] - 1) + 1
        if span > padded:
            raise _ValidationError(
                f"unfold.window[{i}]: the dilated window dilations[{i}] * (window - 1) + 1 = {span} is larger than "
                f"the padded input {a.shape[2 + i]} + {lo[i]} + {hi[i]} = {padded}"
            )
        blocks.append((padded - span) // st[i] + 1)
    shape = (a.shape[0], a.shape[1] * math.prod(win), math.prod(blocks))
    if out is None:
        res = _core._empty(shape, a.dtype, "unfold.window")
    else:
        res = _out(out, shape, a.dtype)
    if res.size and a.size:
        _core._run(_UNFOLD, (*win, *st, *dil, *lo, *hi), (a,), (res,))
    elif res.size:  # an empty spatial dimension inside padding: every position reads zeros
        res[...] = 0
    return res if out is None else out


def _shape(v: Any, field: str) -> Tuple[int, ...]:
    dims = tuple(_ints(v, field))
    for i, s in enumerate(dims):
        if s < 0:
            raise _ValidationError(f"{field}[{i}]: must not be negative, got {s}")
    return dims


def max_unpool(x: Any, indices: Any, output_shape: Any, out: Optional[np.ndarray] = None) -> np.ndarray:
    """DirectML MaxUnpooling (ONNX MaxUnpool): zeros of ``output_shape``, then
    ``result.flat[indices[c]] = x[c]`` for every coordinate ``c`` of ``x``.

    Positions count row-major over the whole result (as ONNX; torch's ``max_unpool2d`` counts
    within each ``N, C`` plane: add ``(n*C + c) * H*W`` to its indices). ``indices`` has ``x``'s
    shape, any integer dtype; each must be in ``[-M, M)``, ``M = prod(output_shape)`` (negative
    counts from the end), else IndexError naming the first bad one with nothing written.
    Duplicates: the last in row-major order of ``indices`` wins. ``output_shape``: any shape (an
    int for 1-d). Returns a new C-contiguous array, or ``out`` (any strides, exactly
    ``output_shape`` and ``x``'s dtype).
    """
    a = _array(x, "max_unpool.x")
    idx = _indices(indices, "max_unpool")
    if idx.shape != a.shape:
        raise _ValidationError(f"max_unpool.indices: shape {idx.shape} must equal x's shape {a.shape}")
    shape = _shape(output_shape, "max_unpool.output_shape")
    res = _core._empty(shape, a.dtype, "max_unpool.output_shape") if out is None else _out(out, shape, a.dtype)
    if a.size and res.size:
        _core._run(_MAX_UNPOOL, (), (a, idx), (res,))
    elif a.size:
        raise IndexError("max_unpool.indices: every index is out of range for an empty output")
    elif res.size:
        res[...] = 0
    return res if out is None else out
