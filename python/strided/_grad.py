"""one_hot, reverse_subsequences and slice_grad on arrays (SPEC 3.9-3.11): thin layers over the
library's functional path (strided/array.hpp). Each checks its arguments (errors name them:
``"slice_grad.strides[1]: ..."``), makes or checks the result and runs the operator's description
(OneHotDesc, ReverseSubsequencesDesc, SliceGradDesc)."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from . import _core
from ._functional import _array, _ints
from ._generate import _result
from ._index import _indices

_ONE_HOT = _core._op_codes["OneHotDesc"]
_REVERSE = _core._op_codes["ReverseSubsequencesDesc"]
_SLICE_GRAD = _core._op_codes["SliceGradDesc"]
_ValidationError = _core.ValidationError
# one_hot's default values, read once: converting the tuple cost 0.8 us of every call.
_OFF_ON = (0, 1)
_OFF_ON_ARRAY = np.array(_OFF_ON)
_OFF_ON_ARRAY.flags.writeable = False

__all__ = ["one_hot", "reverse_subsequences", "slice_grad"]


def one_hot(
    indices: Any, depth: Any, values: Any = _OFF_ON, axis: Any = -1, out: Optional[np.ndarray] = None
) -> np.ndarray:
    """ONNX OneHot (DirectML OneHot): the result has ``indices.ndim + 1`` dimensions, the new one
    of size ``depth`` inserted at ``axis`` (in ``[-(r+1), r]``, r = ``indices.ndim``), and holds
    ``on`` where the coordinate along it equals the index (a negative index counts from the end)
    and ``off`` elsewhere: an index outside ``[-depth, depth)`` gives an all-off sequence (no error).

    ``values``: ``[off, on]``, two numbers or an array of 2 elements, whose dtype (numpy's rule for
    a list: int64 or float64) is the result's. ``indices``: any integer array (int32, int64,
    uint32, uint64 read as they are, others converted). ``depth`` >= 0; 0 or empty indices give an
    empty result. Equals ``numpy.eye(depth)[indices]`` for ``axis=-1`` and in-range indices, and
    ``torch.nn.functional.one_hot(indices, depth)`` for the default values. Returns a new
    C-contiguous array, or ``out`` (any strides, exactly the result's shape and dtype; stride-0
    dimensions are refused, BufferError).
    """
    idx = _indices(indices, "one_hot")
    d = _core._to_int(depth, "one_hot.depth")
    if d < 0:
        raise _ValidationError(f"one_hot.depth: must be non-negative, got {d}")
    if values is _OFF_ON:
        v = _OFF_ON_ARRAY
    else:
        v = values if isinstance(values, np.ndarray) else _core._as_array(values, "one_hot.values")
    if v.dtype.hasobject or v.dtype.kind in "USV":
        raise TypeError(f"one_hot.values: expected two numbers [off, on], got dtype {v.dtype}")
    if v.size != 2:
        raise _ValidationError(f"one_hot.values: must hold 2 values [off, on], got shape {v.shape}")
    dt = _core._numpy_dtype(v.dtype)  # ValidationError for non-DirectML types
    r = idx.ndim
    if r + 1 > 8:
        raise _ValidationError(f"one_hot.indices: at most 7 dimensions (the result has one more), got {r}")
    a = _core._to_int(axis, "one_hot.axis")
    if not -(r + 1) <= a <= r:
        raise _ValidationError(f"one_hot.axis: {a} is out of range for a result of {r + 1} dimension(s)")
    ax = a + r + 1 if a < 0 else a
    shape = idx.shape[:ax] + (d,) + idx.shape[ax:]
    res = _result(shape, dt, out, "one_hot.depth")
    if res.size:
        # the indices with a size-1 axis at ax (a view; numpy.expand_dims cost 1.4 us)
        _core._run(_ONE_HOT, (ax, d), (idx[(slice(None),) * ax + (None,)], v.reshape(2)), (res,))
    return res if out is None else out


def reverse_subsequences(x: Any, lengths: Any, axis: Any, out: Optional[np.ndarray] = None) -> np.ndarray:
    """DirectML ReverseSubsequences (ONNX ReverseSequence with the lengths placed on the batch
    axis): along ``axis``, the first ``L = min(length, x.shape[axis])`` elements of each sequence
    reversed and the rest copied, ``L`` read from ``lengths`` broadcast (numpy's rules) to
    ``x.shape`` with 1 at ``axis``. Lengths 0 and 1 copy; lengths beyond the axis reverse all of it.

    ``lengths``: any integer array (uint32, uint64, int32, int64 read as they are, others
    converted); a negative length raises IndexError naming its position in the broadcast lengths
    (``"reverse_subsequences.lengths[0, 2]: length -1 is negative"``), with nothing written. Returns
    a new C-contiguous array of ``x``'s shape, or ``out`` (any strides, exactly ``x``'s shape and
    dtype; stride-0 dimensions are refused, BufferError).
    """
    a = _array(x, "reverse_subsequences.x")
    lens = _indices(lengths, "reverse_subsequences", "lengths")
    n = a.ndim
    ax = _core._to_int(axis, "reverse_subsequences.axis")
    if not -n <= ax < n:
        raise _ValidationError(f"reverse_subsequences.axis: {ax} is out of range for {n} dimension(s)")
    ax = ax + n if ax < 0 else ax
    lshape = a.shape[:ax] + (1,) + a.shape[ax + 1 :]
    try:
        lb = np.broadcast_to(lens, lshape)
    except ValueError:
        raise _ValidationError(
            f"reverse_subsequences.lengths: shape {lens.shape} does not broadcast to {lshape}"
        ) from None
    res = _result(a.shape, a.dtype, out, "reverse_subsequences.x")
    if a.size:
        _core._run(_REVERSE, (ax,), (a, lb), (res,))
    elif lb.size and lb.dtype.kind == "i" and (lb < 0).any():  # nothing moves; the lengths still count
        pos = tuple(int(p) for p in np.argwhere(lb < 0)[0])
        raise IndexError(f"reverse_subsequences.lengths[{', '.join(map(str, pos))}]: length {int(lb[pos])} is negative")
    return res if out is None else out


def slice_grad(
    grad: Any, input_shape: Any, offsets: Any, sizes: Any, strides: Any, out: Optional[np.ndarray] = None
) -> np.ndarray:
    """DirectML SliceGrad, the adjoint of ``sd.slice`` with the same window: an array of
    ``input_shape`` that is zero except at the window's positions, which receive ``grad``:
    ``result[start + strides * c] = grad[c]`` with ``start = offsets + (strides < 0 ? sizes - 1 : 0)``
    (so ``sd.slice(sd.slice_grad(g, s, o, z, t), o, z, t) == g`` and the result is what autograd
    gives for a slice). ``offsets``, ``sizes`` (>= 0) and ``strides`` (non-zero, negative walks the
    window backwards): one per dimension, the window inside ``input_shape``; ``grad.shape[i]`` at
    most ``ceil(sizes[i] / |strides[i]|)`` (an empty ``grad`` gives zeros). A 0-d ``grad`` takes
    ``()`` for everything and gives a copy. Returns a new C-contiguous array, or ``out`` (any
    strides, exactly ``input_shape`` and ``grad``'s dtype).
    """
    g = _array(grad, "slice_grad.grad")
    n = g.ndim
    prm = []
    for name, v in (("input_shape", input_shape), ("offsets", offsets), ("sizes", sizes), ("strides", strides)):
        vals = _ints(v, f"slice_grad.{name}")
        if len(vals) != n:
            raise _ValidationError(
                f"slice_grad.{name}: must have one value per dimension of grad ({n}), got {len(vals)}"
            )
        prm.append(vals)
    shape_l, offs, szs, strs = prm
    shape = tuple(shape_l)
    for i in range(n):
        if shape_l[i] < 0:
            raise _ValidationError(f"slice_grad.input_shape[{i}]: size must be non-negative, got {shape_l[i]}")
        if strs[i] == 0:
            raise _ValidationError(f"slice_grad.strides[{i}]: stride must not be 0")
        if offs[i] < 0:
            raise _ValidationError(f"slice_grad.offsets[{i}]: offset must not be negative, got {offs[i]}")
        if szs[i] < 0:
            raise _ValidationError(f"slice_grad.sizes[{i}]: window size must not be negative, got {szs[i]}")
        if offs[i] + szs[i] > shape_l[i]:
            raise _ValidationError(
                f"slice_grad.offsets[{i}]: the window (offset {offs[i]} + size {szs[i]}) exceeds "
                f"input_shape[{i}] ({shape_l[i]})"
            )
        most = -(-szs[i] // abs(strs[i]))
        if g.shape[i] > most:
            raise _ValidationError(
                f"slice_grad.grad.shape[{i}]: must be at most ceil(sizes[{i}] / |strides[{i}]|) = {most}, "
                f"got {g.shape[i]}"
            )
    res = _result(shape, g.dtype, out, "slice_grad.input_shape")
    if not res.size:
        return res if out is None else out
    if not g.size:
        res[...] = 0
    elif n == 0:
        _core._run(_SLICE_GRAD, (0, 1, 1), (g,), (res,))  # a 0-d call runs as shape (1,)
    else:
        _core._run(_SLICE_GRAD, (*offs, *szs, *strs), (g,), (res,))
    return res if out is None else out
