"""The copy-family operators on arrays: copy, split, join, slice, cast, pad, tile, depth_to_space,
space_to_depth.

copy, split, join, slice and cast live in the C++ core (csrc/python/register_functional.cpp) so
that a call on a tiny array costs about what numpy's own copy does: argument checks, output
allocation and the cached plan (keyed by operator, shapes, strides and dtype) never go back to
Python, and the copy itself runs without the GIL. pad, tile, depth_to_space and space_to_depth
are thin layers over the library's functional path.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np

from . import _core
from ._core import cast, copy, join, slice, split

_PAD = _core._op_codes["PaddingDesc"]
_FILL = _core._op_codes["FillValueConstantDesc"]
_TILE = _core._op_codes["TileDesc"]
_D2S = _core._op_codes["DepthToSpaceDesc"]
_S2D = _core._op_codes["SpaceToDepthDesc"]

__all__ = ["cast", "copy", "depth_to_space", "join", "pad", "slice", "space_to_depth", "split", "tile"]


_INT64_MAX = 2**63 - 1


# An int, or a sequence (or 1-d array) of ints, each by the bindings' rule (_core._to_int), as a
# list; errors name field[i]. In C++: checking the items here cost ~0.5 us of every tiny call.
_ints = _core._ints


def _number(value: Any, name: str) -> Any:
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, (str, bytes)) or not isinstance(value, (int, float, np.number, np.bool_, bool)):
        raise TypeError(f"{name}: expected a number or a Scalar, got {type(value).__name__}")
    return value


def _bits(value: Any, dtype: np.dtype, name: str) -> int:
    """The value as a Scalar of ``dtype`` (Cast rules), as the signed 64-bit parameter."""
    if type(value) is int or type(value) is float:  # the common case in one bindings call
        return _core._bits(value, dtype, name)
    s = value if isinstance(value, _core.Scalar) else _core.Scalar(dtype, _number(value, name))
    b = s.cast(dtype).bits
    return b - (1 << 64) if b > _INT64_MAX else b


def _scalar(value: Any, dtype: Any, name: str) -> Any:
    """The value as _core._filled takes it: a Python int or float as it is (converted there), a
    Scalar, or another number as a Scalar of ``dtype`` (Cast rules)."""
    if type(value) is int or type(value) is float or isinstance(value, _core.Scalar):
        return value
    return _core.Scalar(dtype, _number(value, name))


def _array(x: Any, name: str) -> np.ndarray:
    """An input as a numpy array: numpy arrays as they are, DLPack tensors (torch, JAX) and
    buffers (bytes: uint8) without a copy, anything else through numpy.asarray."""
    if type(x) is np.ndarray and not x.dtype.hasobject:
        return x
    try:
        a = _core._as_array(x, name)
    except _core.ValidationError:
        raise
    except (TypeError, ValueError) as e:  # numpy.asarray's refusal (a ragged list, ...)
        raise TypeError(f"{name}: cannot be read as an array: {e}") from e
    if a.dtype.hasobject:
        raise TypeError(f"{name}: object arrays are not supported (dtype {a.dtype})")
    return a


def _out(out: Any, shape: Tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """A caller's ``out=`` (a numpy array, a DLPack tensor such as torch's, or a writable buffer)
    as a numpy array sharing its memory: exactly ``shape`` and ``dtype``, writable."""
    o: np.ndarray = out if isinstance(out, np.ndarray) else _core._as_array(out, "out", True)
    if o.shape != shape:
        raise _core.ValidationError(f"out: expected shape {shape}, got {o.shape}")
    if o.dtype != dtype:
        raise _core.ValidationError(f"out: expected dtype {dtype}, got {o.dtype}")
    if not o.flags.writeable:
        raise BufferError("out: array is read-only")
    return o


def tile(x: Any, repeats: Any, out: Optional[np.ndarray] = None) -> np.ndarray:
    """DirectML Tile: ``x`` repeated ``repeats[i]`` times along each dimension ``i``, so that
    ``result.shape[i] == x.shape[i] * repeats[i]`` and ``result[c] == x[c % x.shape]``.

    ``repeats``: one integer >= 1 per dimension of ``x`` (a plain int for a 1-d ``x``); a 0-d
    ``x`` takes ``()`` and gives a 0-d copy. Stricter than ``numpy.tile``, which pads a short
    ``repeats`` (or ``x``'s shape) with 1s and accepts 0: a wrong count or a repeat below 1 raises
    ValidationError (``"tile.repeats[1]: ..."``). ``x`` may have a dimension of size 0 (an empty
    result). Returns a new C-contiguous array, or ``out`` (any strides, exactly the result's shape
    and ``x``'s dtype).
    """
    a = _array(x, "tile.x")
    reps = _ints(repeats, "tile.repeats")
    if len(reps) != a.ndim:
        raise _core.ValidationError(f"tile.repeats: must have one value per dimension of x ({a.ndim}), got {len(reps)}")
    for i, r in enumerate(reps):
        if r < 1:
            raise _core.ValidationError(f"tile.repeats[{i}]: repeat must be at least 1, got {r}")
    shape = tuple(s * r for s, r in zip(a.shape, reps))
    if out is None:
        res = _core._empty(shape, a.dtype, "tile.repeats")  # the result pool when large
    else:
        res = _out(out, shape, a.dtype)
    if res.size:
        _core._run(_TILE, reps or (1,), (a,), (res,))  # a 0-d x runs as shape (1,)
    return res if out is None else out


def pad(
    x: Any, begin: Any, end: Any, mode: Any = "constant", value: Any = 0, out: Optional[np.ndarray] = None
) -> np.ndarray:
    """DirectML Padding1 (numpy.pad, ONNX Pad): ``x`` placed at ``begin`` in a result of shape
    ``x.shape[i] + begin[i] + end[i]``, the border filled by ``mode``:

    - ``"constant"``: ``value``, converted to ``x``'s dtype by the Cast rules (SPEC 3.5: -1 becomes
      uint8 255, 1e10 float32 1e10, NaN int 0); a ``sd.Scalar`` is cast the same way.
    - ``"edge"``: the nearest edge element; ``"reflect"`` (DirectML REFLECTION): mirrored without
      repeating the edge; ``"symmetric"``: mirrored with the edge repeated; ``"wrap"``: periodic.
      Pads wider than ``x`` fold periodically, as numpy.pad's modes of the same names do.

    ``begin`` / ``end``: one integer >= 0 per dimension of ``x`` (a plain int for a 1-d ``x``; ``()``
    for a 0-d ``x``: a copy). ``mode``: one of those names in any case, a DirectML name
    (``"REFLECTION"``) or a ``PaddingMode``. ValidationError (``"pad.begin[1]: ..."``) for a wrong
    count, a negative pad or an unknown mode; TypeError for a ``value`` that is not a number. As
    numpy.pad, a dimension of size 0 can be padded only in ``"constant"`` mode (the others have no
    element to repeat: ValidationError). Returns a new C-contiguous array, or ``out`` (any strides,
    exactly the result's shape and ``x``'s dtype); nothing is written when it raises.
    """
    a = _array(x, "pad.x")
    m = _core._to_padding_mode(mode, "pad.mode")
    lo, hi = _ints(begin, "pad.begin"), _ints(end, "pad.end")
    for name, v in (("begin", lo), ("end", hi)):
        if len(v) != a.ndim:
            raise _core.ValidationError(f"pad.{name}: must have one value per dimension of x ({a.ndim}), got {len(v)}")
        for i, p in enumerate(v):
            if p < 0:
                raise _core.ValidationError(f"pad.{name}[{i}]: must be non-negative, got {p}")
    if m != _core.PaddingMode.CONSTANT:
        for i, n in enumerate(a.shape):
            if n == 0 and lo[i] + hi[i] > 0:
                raise _core.ValidationError(
                    f"pad.x.shape[{i}]: a dimension of size 0 can only be padded in 'constant' mode, not {m.name}"
                )
    bits = _bits(value, a.dtype, "pad.value")
    shape = tuple(n + b + e for n, b, e in zip(a.shape, lo, hi))
    if out is None:
        res = _core._empty(shape, a.dtype, "pad.end")  # the result pool when large
    else:
        res = _out(out, shape, a.dtype)
    if res.size and a.size:
        _core._run(_PAD, (int(m), bits, *(lo or [0]), *(hi or [0])), (a,), (res,))  # 0-d: shape (1,)
    elif res.size:  # an empty x padded with a constant: only the value
        _core._run(_FILL, (bits,), (), (res,))
    return res if out is None else out


def _block_args(fn: str, x: Any, block_size: Any, mode: Any) -> Tuple[np.ndarray, int, int]:
    """depth_to_space / space_to_depth's common checks: a 4-d x, a block size >= 1 and the order."""
    a = _array(x, f"{fn}.x")
    if a.ndim != 4:
        raise _core.ValidationError(f"{fn}.x: must have 4 dimensions (N, C, H, W), got {a.ndim}")
    b = _core._to_int(block_size, f"{fn}.block_size")
    if b < 1:
        raise _core.ValidationError(f"{fn}.block_size: must be at least 1, got {b}")
    order = int(_core._to_depth_space_order(mode, f"{fn}.mode"))
    return a, b, order


def _block_result(fn: str, a: np.ndarray, shape: Tuple[int, ...], out: Optional[np.ndarray]) -> np.ndarray:
    if out is not None:
        return _out(out, shape, a.dtype)
    return _core._empty(shape, a.dtype, f"{fn}.block_size")  # the result pool when large


def depth_to_space(x: Any, block_size: Any, mode: Any = "DCR", out: Optional[np.ndarray] = None) -> np.ndarray:
    """DirectML DepthToSpace (ONNX DepthToSpace): the channels of a 4-d NCHW ``x`` of shape
    ``(N, C*b*b, H, W)`` moved into ``b x b`` blocks of pixels, giving ``(N, C, H*b, W*b)`` with
    ``b = block_size`` and ``result[n, c, h*b + bh, w*b + bw] = x[n, d, h, w]``, where
    ``d = (bh*b + bw)*C + c`` for ``mode="DCR"`` (depth-column-row, ONNX's default) and
    ``d = (c*b + bh)*b + bw`` for ``"CRD"`` (column-row-depth: ``torch.nn.functional.pixel_shuffle``).

    ``mode``: ``"DCR"`` / ``"CRD"`` (or ``"DEPTH_COLUMN_ROW"`` / ``"COLUMN_ROW_DEPTH"``) in any case, or
    a ``DepthSpaceOrder``. ValidationError (``"depth_to_space.x.shape[1]: ..."``) when ``x`` is not 4-d,
    ``block_size < 1`` or the channels are not divisible by ``b*b``. Empty ``x`` gives an empty result.
    Returns a new C-contiguous array, or ``out`` (any strides, exactly the result's shape and dtype).
    """
    a, b, order = _block_args("depth_to_space", x, block_size, mode)
    n, c, h, w = a.shape
    if c % (b * b):
        raise _core.ValidationError(
            f"depth_to_space.x.shape[1]: must be divisible by block_size * block_size = {b * b}, got {c}"
        )
    res = _block_result("depth_to_space", a, (n, c // (b * b), h * b, w * b), out)
    if res.size:
        _core._run(_D2S, (b, order), (a,), (res,))
    return res if out is None else out


def space_to_depth(x: Any, block_size: Any, mode: Any = "DCR", out: Optional[np.ndarray] = None) -> np.ndarray:
    """DirectML SpaceToDepth (ONNX SpaceToDepth), depth_to_space's inverse: each ``b x b`` block of
    pixels of a 4-d NCHW ``x`` of shape ``(N, C, H*b, W*b)`` moved into channels, giving
    ``(N, C*b*b, H, W)`` with ``result[n, d, h, w] = x[n, c, h*b + bh, w*b + bw]`` and ``d`` as in
    depth_to_space: ``"DCR"`` (ONNX SpaceToDepth) or ``"CRD"`` (``torch.nn.functional.pixel_unshuffle``).

    ValidationError (``"space_to_depth.x.shape[2]: ..."``) when ``x`` is not 4-d, ``block_size < 1``
    or its height or width is not divisible by ``b``. Empty ``x`` gives an empty result. Returns a
    new C-contiguous array, or ``out`` (any strides, exactly the result's shape and dtype).
    """
    a, b, order = _block_args("space_to_depth", x, block_size, mode)
    n, c, h, w = a.shape
    for i in (2, 3):
        if a.shape[i] % b:
            raise _core.ValidationError(
                f"space_to_depth.x.shape[{i}]: must be divisible by block_size ({b}), got {a.shape[i]}"
            )
    res = _block_result("space_to_depth", a, (n, c * b * b, h // b, w // b), out)
    if res.size:
        _core._run(_S2D, (b, order), (a,), (res,))
    return res if out is None else out
