"""The generate family's array functions (SPEC 3.12-3.13): results made from values, not from
an input array. Thin wrappers over the library's functional path (strided/array.hpp): each
checks its arguments, makes or checks the result and runs the operator's description."""

from __future__ import annotations

import math
from typing import Any, Optional, Tuple

import numpy as np

from . import _core
from ._functional import _array, _bits, _ints, _number, _out, _scalar

_FILL_CONSTANT = _core._op_codes["FillValueConstantDesc"]
_FILL_SEQUENCE = _core._op_codes["FillValueSequenceDesc"]
_DIAGONAL = _core._op_codes["DiagonalMatrixDesc"]
_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1
_INT64, _FLOAT64 = np.dtype(np.int64), np.dtype(np.float64)
_INTEGER = (int, np.integer)
# _core._filled's error fields: each value's, then the shape's
_FULL_FIELDS = ("full.value", "full.shape")
_SEQUENCE_FIELDS = ("fill_sequence.start", "fill_sequence.delta", "fill_sequence.shape")
_ARANGE_FIELDS = ("arange.start", "arange.step", "arange")

__all__ = ["arange", "diagonal_fill", "eye", "eye_like", "fill_sequence", "full", "tril", "trilu", "triu"]


def _shape(shape: Any, name: str) -> Tuple[int, ...]:
    dims = tuple(_ints(shape, name))
    if dims and min(dims) < 0:
        i = next(i for i, s in enumerate(dims) if s < 0)
        raise _core.ValidationError(f"{name}[{i}]: size must be non-negative, got {dims[i]}")
    return dims


def _dtype_for(value: Any, dtype: Any, out: Optional[np.ndarray], name: str) -> np.dtype:
    """``dtype`` if given, else ``out``'s, else a Scalar's, else numpy's default for the number."""
    if dtype is not None:
        return _core._numpy_dtype(dtype)
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
    return _core._empty(shape, dtype, name)  # the result pool when large


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
    o = _as_out(out)
    dt = _dtype_for(value, dtype, o, "full")
    if o is None:  # a new result: checks, allocation and filling in one call
        return _core._filled(_FILL_CONSTANT, shape, dt, (_scalar(value, dt, "full.value"),), _FULL_FIELDS)
    bits = _bits(value, dt, "full.value")
    res = _out(o, _shape(shape, "full.shape"), dt)
    if res.size:
        _core._run(_FILL_CONSTANT, (bits,), (), (res,))
    return out if out is not None else res  # the caller's own object (a DLPack tensor stays one)


def fill_sequence(
    shape: Any, start: Any, delta: Any, dtype: Any = None, out: Optional[np.ndarray] = None
) -> np.ndarray:
    """DirectML FillValueSequence: an array of ``shape`` whose element of row-major index ``k``
    is ``start + k * delta`` (``out``'s strides do not change ``k``).

    ``start``, ``delta``: numbers or ``Scalar``s, converted to ``dtype`` by the Cast rules (SPEC
    3.5) before use. Integers wrap modulo 2**bits (UINT8 start 10, delta -2 -> 10, 8, 6, ...);
    floats are computed in binary64, ``fl64(fl64(k * delta) + start)``, and rounded once to
    ``dtype`` (SPEC 3.13). ``dtype``: by default ``out``'s, else float64 when either value is a
    float, else int64. Returns a new C-contiguous array, or ``out`` (any strides, exactly
    ``shape`` and ``dtype``). A size-0 dimension gives an empty result; ``shape=()`` a 0-d
    array holding ``start``.
    """
    o = _as_out(out)
    dims = shape if o is None else _shape(shape, "fill_sequence.shape")  # _empty checks it as _shape
    either = delta if isinstance(delta, (float, np.floating)) and not isinstance(start, _core.Scalar) else start
    dt = _dtype_for(either, dtype, o, "fill_sequence")
    res = _sequence(dims, dt, start, delta, o, _SEQUENCE_FIELDS)
    return res if out is None else out


def _sequence(
    dims: Any, dt: Any, start: Any, delta: Any, o: Optional[np.ndarray], fields: Tuple[str, str, str]
) -> np.ndarray:
    """fill_sequence once its arguments are checked (arange's way in, without checking twice);
    errors name fields (start, delta, shape)."""
    if o is None:  # a new result: checks (the shape's too), allocation and filling in one call
        values = (_scalar(start, dt, fields[0]), _scalar(delta, dt, fields[1]))
        return _core._filled(_FILL_SEQUENCE, dims, dt, values, fields)
    params = (_bits(start, dt, "fill_sequence.start"), _bits(delta, dt, "fill_sequence.delta"))
    res = _out(o, dims, dt)
    if res.size:
        _core._run(_FILL_SEQUENCE, params, (), (res,))
    return res


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: Any = None) -> np.ndarray:
    """``numpy.arange`` / ONNX Range on FillValueSequence: ``start, start + step, ...`` up to,
    not including, ``stop``; ``arange(n)`` counts from 0.

    The length is ``max(0, ceil((stop - start) / step))``: exact for integers, in float64 as
    numpy computes it otherwise. ``dtype``: by default numpy's (from the
    three values: int64 for ints, float64 when one is a float of any width). The values follow SPEC 3.13:
    ``start`` and ``step`` converted to ``dtype`` by the Cast rules, then ``start + k * step``
    (integers wrapping, floats in binary64 rounded once). ``step`` 0 raises ValidationError.
    """
    if stop is None:
        start, stop = 0, start
    if type(start) is int and type(stop) is int and type(step) is int:  # the common case, in short
        if step == 0:
            raise _core.ValidationError("arange.step: must not be 0")
        dt = _INT64 if dtype is None else dtype  # _filled checks it
        n = -((start - stop) // step)
        return _core._filled(_FILL_SEQUENCE, (n if n > 0 else 0,), dt, (start, step), _ARANGE_FIELDS)
    vals: Any = (_number(start, "arange.start"), _number(stop, "arange.stop"), _number(step, "arange.step"))
    ints = isinstance(vals[0], _INTEGER) and isinstance(vals[1], _INTEGER) and isinstance(vals[2], _INTEGER)
    if dtype is not None:
        dt = _core._numpy_dtype(dtype)
    elif ints:  # numpy's arange: float64 when a value is a float (of any width), else int64
        dt = _INT64
    else:
        if any(isinstance(v, (complex, np.complexfloating)) for v in vals):
            raise _core.ValidationError("arange.dtype: complex values are not a DirectML type")
        dt = _FLOAT64 if any(isinstance(v, (float, np.floating)) for v in vals) else _INT64
    if ints:  # exact: ceil(a / b) = -((-a) // b)
        a, b, c = int(vals[0]), int(vals[1]), int(vals[2])
        if c == 0:
            raise _core.ValidationError("arange.step: must not be 0")
        n = max(0, -((a - b) // c))
    else:
        if float(vals[2]) == 0:
            raise _core.ValidationError("arange.step: must not be 0")
        q = (float(vals[1]) - float(vals[0])) / float(vals[2])
        if not math.isfinite(q):
            raise _core.ValidationError(f"arange: the length (stop - start) / step = {q} is not finite")
        n = max(0, math.ceil(q))
    return _sequence((n,), dt, vals[0], vals[2], None, _ARANGE_FIELDS)


def _matrix_shape(shape: Any, name: str) -> Tuple[int, ...]:
    dims = (int(shape),) * 2 if isinstance(shape, (int, np.integer)) else _shape(shape, name)
    if len(dims) < 2:
        raise _core.ValidationError(f"{name}: needs at least 2 dimensions (rows, columns), got {len(dims)}")
    return dims


def _band_k(k: Any, dims: Tuple[int, ...], name: str) -> int:
    """``k`` clamped to [-rows, columns], where the band's result stops changing, so that any
    ``k`` fits DirectML's 32-bit INT fields."""
    kk = _core._to_int(k, name)
    if -dims[-2] <= kk <= dims[-1] and _INT32_MIN < kk < _INT32_MAX:  # the common case: as it is
        return kk
    return max(-dims[-2], _INT32_MIN + 1, min(kk, dims[-1], _INT32_MAX - 1))


def _band(
    name: str, dims: Tuple[int, ...], dt: np.dtype, value: Any, begin: int, end: int, a: Any, out: Optional[np.ndarray]
) -> np.ndarray:
    bits = _bits(value, dt, f"{name}.value")
    if out is None and a is None and _core._result_pool_limit() == 0:
        # Without the result pool, calloc's untouched zero pages (numpy.eye's way) beat writing
        # zeros into fresh pages: only the pages the band crosses are faulted in.
        try:
            a = res = np.zeros(dims, dt)
        except (ValueError, MemoryError):
            raise _core.ValidationError(f"{name}.shape: the result's shape {dims} does not fit in memory") from None
    else:
        # A pooled block is written whole (zeros streamed past the cache, then the band): 1.1 ms
        # for 4096x4096 float32 here vs 3.6 ms for calloc's pages, whose first-touch faults on
        # every page the band crosses cost more than writing the zeros.
        res = _result(dims, dt, _as_out(out), f"{name}.shape")
    if res.size:
        _core._run(_DIAGONAL, (bits, begin, end), () if a is None else (a,), (res,))
    return res if out is None else out


def _float_default(dtype: Any, out: Any) -> np.dtype:
    """``dtype`` if given, else ``out``'s, else float64 (numpy.eye's default)."""
    o = _as_out(out)
    return _dtype_for(0.0, dtype, o, "eye") if dtype is not None or o is not None else np.dtype(np.float64)


def eye(shape: Any, dtype: Any = None, k: Any = 0, value: Any = 1, out: Optional[np.ndarray] = None) -> np.ndarray:
    """DirectML DiagonalMatrix (``numpy.eye``): ``value`` on diagonal ``k`` (``column - row ==
    k``; positive above the main diagonal) of the last two dimensions, 0 elsewhere; earlier
    dimensions are batches, each the same matrix.

    ``shape``: at least 2 dimensions, or an int ``n`` for ``(n, n)``. ``dtype``: by default
    ``out``'s, else float64. ``value``: a number or Scalar, converted to ``dtype`` by the Cast
    rules. Returns a new C-contiguous array, or ``out`` (any strides, exactly ``shape`` and
    ``dtype``).
    """
    dims = _matrix_shape(shape, "eye.shape")
    kk = _band_k(k, dims, "eye.k")
    return _band("eye", dims, _float_default(dtype, out), value, kk, kk + 1, None, out)


def eye_like(x: Any, k: Any = 0, dtype: Any = None) -> np.ndarray:
    """ONNX EyeLike: ``eye(x.shape, dtype or x.dtype, k)`` (x's values are not read; x has at
    least 2 dimensions, ONNX's 2 or batches of them)."""
    a = _array(x, "eye_like.x")
    dims = _matrix_shape(a.shape, "eye_like.x.shape")
    return eye(dims, a.dtype if dtype is None else dtype, k)


def diagonal_fill(
    shape: Any,
    dtype: Any,
    begin: Any,
    end: Any,
    value: Any = 1,
    input: Any = None,  # noqa: A002 - DirectML's field name
    out: Optional[np.ndarray] = None,
) -> np.ndarray:
    """DirectML DiagonalMatrix1 over the last two dimensions (earlier ones are batches): with
    ``t = column - row``, ``value`` where ``begin <= t < end`` (when ``begin > end``: everywhere
    but ``end <= t < begin``; ``begin == end`` fills nothing), elsewhere ``input`` or 0.

    ``begin``, ``end``: 32-bit signed ints (SPEC 3.12). ``dtype``: None takes ``input``'s,
    ``out``'s or float64. ``input``: an array of ``shape`` and ``dtype`` (any strides; may be
    ``out`` itself). Returns a new C-contiguous array, or ``out``.
    """
    dims = _matrix_shape(shape, "diagonal_fill.shape")
    a = None if input is None else _array(input, "diagonal_fill.input")
    dt = a.dtype if dtype is None and a is not None else _float_default(dtype, out)
    b = _core._to_int(begin, "diagonal_fill.begin")
    e = _core._to_int(end, "diagonal_fill.end")
    for n, v in (("begin", b), ("end", e)):
        if not _INT32_MIN <= v <= _INT32_MAX:
            raise _core.ValidationError(f"diagonal_fill.{n}: must fit a 32-bit signed INT, got {v}")
    if a is not None and a.shape != dims:
        raise _core.ValidationError(f"diagonal_fill.input: expected shape {dims}, got {a.shape}")
    if a is not None and a.dtype != dt:
        raise _core.ValidationError(f"diagonal_fill.input: expected dtype {dt}, got {a.dtype}")
    return _band("diagonal_fill", dims, dt, value, b, e, a, out)


def trilu(x: Any, k: Any = 0, upper: bool = True) -> np.ndarray:
    """ONNX Trilu: ``triu(x, k)`` when ``upper``, else ``tril(x, k)``."""
    name = "triu" if upper else "tril"
    a = _array(x, f"{name}.x")
    if a.ndim < 2:
        raise _core.ValidationError(f"{name}.x: needs at least 2 dimensions (rows, columns), got {a.ndim}")
    kk = _band_k(k, a.shape, f"{name}.k")
    # triu zeroes t = col - row < k; tril zeroes t >= k + 1 (SPEC 3.12)
    begin, end = (_INT32_MIN, kk) if upper else (kk + 1, _INT32_MAX)
    return _band(name, a.shape, a.dtype, 0, begin, end, a, None)


def triu(x: Any, k: Any = 0) -> np.ndarray:
    """``numpy.triu`` (DiagonalMatrix1 with x as input): x with the elements below diagonal k
    (``column - row < k``) of its last two dimensions set to 0; a new array."""
    return trilu(x, k, True)


def tril(x: Any, k: Any = 0) -> np.ndarray:
    """``numpy.tril``: x with the elements above diagonal k (``column - row > k``) set to 0."""
    return trilu(x, k, False)
