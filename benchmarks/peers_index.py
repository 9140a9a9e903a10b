"""Index rows of compare.py (issue 14, goal 2: the index operators at the run's thread count):
gather_elements / scatter along the last axis, scatter_nd (rows and single elements),
gather_nd from 256 KiB up, and join of many small arrays; against numpy, torch and ONNX Runtime
(a one-node model, intra_op_num_threads as strided's thread count)."""

from __future__ import annotations

from typing import Dict, List

import numpy as np

import _optional  # first: torch before strided (its docstring says why)
import strided as sd
from _peers import group, one_thread, peers

TensorProto = _optional.TensorProto
helper = _optional.helper
ort = _optional.ort
torch = _optional.torch

_rng = np.random.default_rng(14)
_cache: Dict[str, object] = {}


def _get(key: str, make):
    if key not in _cache:
        _cache[key] = make()
    return _cache[key]


def _tt(a: np.ndarray):
    return torch.from_numpy(a)


_ONNX = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.int64): TensorProto.INT64} if ort else {}


def _ort(op: str, inputs: List[np.ndarray], out_shape, attrs=None):
    """A one-node ONNX model of `op` over `inputs` (named i0, i1, ...), run with the thread count
    strided uses; returns the function that runs it."""
    names = [f"i{k}" for k in range(len(inputs))]
    node = helper.make_node(op, names, ["y"], **(attrs or {}))
    vin = [helper.make_tensor_value_info(n, _ONNX[a.dtype], list(a.shape)) for n, a in zip(names, inputs)]
    vout = [helper.make_tensor_value_info("y", _ONNX[inputs[0].dtype], list(out_shape))]
    model = helper.make_model(helper.make_graph([node], op, vin, vout), opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    so = ort.SessionOptions()
    so.intra_op_num_threads = sd.get_num_threads()
    so.inter_op_num_threads = 1
    # Its pool's threads otherwise spin for a while after each run, on the cores the next rows
    # measure: strided's scatter_nd of 64-float rows ran 0.45 ms alone and 0.60-0.81 ms right
    # after an ORT row (2 threads), 0.75 ms in the interleaved suite.
    so.add_session_config_entry("session.intra_op.allow_spinning", "0")
    s = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    feed = dict(zip(names, inputs))
    return lambda: s.run(None, feed)


# ------------------------------------------------------------------ gather_elements, scatter: last axis
R, C = 2048, 4096
_NB = R * C * (4 + 8 + 4) // 2  # f32 data, int64 indices, f32 result


def _x():
    return _get("x", lambda: _rng.random((R, C), dtype=np.float32))


def _i():
    return _get("i", lambda: _rng.integers(0, C, (R, C), dtype=np.int64))


def _u():
    return _get("u", lambda: _rng.random((R, C), dtype=np.float32))


def _o(key):
    return _get(key, lambda: np.zeros((R, C), np.float32))


g = group(f"gather_elements last axis f32 {R}x{C} int64", _NB, peers("torch", 1.2))


@g.impl("strided")
def _():  # a new result (from strided's result pool): each index checked at its one read
    x, i = _x(), _i()
    return lambda: sd.gather_elements(x, i, axis=1)


@g.impl("strided out=")
def _():  # the caller's array: every index checked (and narrowed) before the first write
    x, i, o = _x(), _i(), _o("o")
    return lambda: sd.gather_elements(x, i, axis=1, out=o)


@g.impl("numpy")
def _():
    x, i = _x(), _i()
    return lambda: np.take_along_axis(x, i, axis=1)


if torch is not None:

    @g.impl("torch")
    def _():
        x, i, o = _tt(_x()), _tt(_i()), _tt(_o("o"))
        return lambda: torch.gather(x, 1, i, out=o)


if ort is not None:

    @g.impl("onnxruntime")
    def _():
        return _ort("GatherElements", [_x(), _i()], (R, C), {"axis": 1})


g = group(f"scatter last axis f32 {R}x{C} int64", _NB + R * C * 2, peers("torch", 1.0))


@g.impl("strided")
def _():
    x, i, u = _o("s"), _i(), _u()
    return lambda: sd.scatter(x, i, u, axis=1, out=x)


@g.impl("numpy")
def _():
    x, i, u = _o("s"), _i(), _u()
    return lambda: np.put_along_axis(x, i, u, axis=1)


if torch is not None:

    @g.impl("torch")
    def _():
        x, i, u = _tt(_o("s")), _tt(_i()), _tt(_u())
        return lambda: x.scatter_(1, i, u)


if ort is not None:

    @g.impl("onnxruntime")
    def _():  # not in place: ONNX Runtime returns a new tensor (a copy of x first)
        return _ort("ScatterElements", [_o("s"), _i(), _u()], (R, C), {"axis": 1})


# ------------------------------------------------------------------ scatter_nd
def _scatter_nd_group(label: str, shape, n: int, L: int, nbytes: int) -> None:
    g = group(f"scatter_nd {label}", nbytes, peers("torch", 1.5), one_thread(1.6))
    key = f"snd{label}"

    def data():
        def make():
            x = np.zeros(shape, np.float32)
            idx = np.stack([_rng.integers(0, shape[k], n) for k in range(L)], -1).astype(np.int64)
            upd = _rng.random((n,) + tuple(shape[L:]), dtype=np.float32)
            return x, idx, upd

        return _get(key, make)

    @g.impl("strided")
    def _():
        x, idx, upd = data()
        return lambda: sd.scatter_nd(x, idx, upd, out=x)

    @g.impl("numpy")
    def _():
        x, idx, upd = data()
        cols = tuple(np.ascontiguousarray(idx[:, k]) for k in range(L))

        def run():
            x[cols] = upd

        return run

    if torch is not None:

        @g.impl("torch")
        def _():
            x, idx, upd = data()
            xt, ut = _tt(x), _tt(upd)
            cols = tuple(_tt(np.ascontiguousarray(idx[:, k])) for k in range(L))
            return lambda: xt.index_put_(cols, ut)

    if ort is not None:

        @g.impl("onnxruntime")
        def _():
            x, idx, upd = data()
            return _ort("ScatterND", [x, idx, upd], shape)


# 2^15 rows of 64 floats into (2^16, 64); 2^21 single elements into 4096x4096.
_scatter_nd_group("64-float rows 32768 into 65536x64 f32", (65536, 64), 1 << 15, 1, (1 << 15) * (8 + 64 * 4 * 2) // 2)
_scatter_nd_group("2M elements into 4096x4096 f32", (4096, 4096), 1 << 21, 2, (1 << 21) * (16 + 4 * 2) // 2)


# ------------------------------------------------------------------ gather_nd
for label, n in (("256 KiB", 1 << 16), ("1 MiB", 1 << 18), ("4 MiB", 1 << 20), ("16 MiB", 1 << 22)):
    g = group(f"gather_nd {label} f32 points from 2048x4096", n * (16 + 4 + 4) // 2, peers("numpy/torch", 1.2))

    def pts(n=n):
        return _get(f"pts{n}", lambda: np.stack([_rng.integers(0, R, n), _rng.integers(0, C, n)], -1))

    @g.impl("strided")
    def _(pts=pts):  # a new result, as numpy's and torch's: each tuple checked at its one read
        x, p = _x(), pts()
        return lambda: sd.gather_nd(x, p)

    @g.impl("strided out=")
    def _(n=n, pts=pts):  # the caller's array: every tuple checked before the first write
        x, p, o = _x(), pts(), np.empty(n, np.float32)
        return lambda: sd.gather_nd(x, p, out=o)

    @g.impl("numpy")
    def _(pts=pts):
        x, p = _x(), pts()
        i, j = np.ascontiguousarray(p[:, 0]), np.ascontiguousarray(p[:, 1])
        return lambda: x[i, j]

    if torch is not None:

        @g.impl("torch")
        def _(pts=pts):
            x, p = _tt(_x()), pts()
            i, j = _tt(np.ascontiguousarray(p[:, 0])), _tt(np.ascontiguousarray(p[:, 1]))
            return lambda: x[i, j]

    if ort is not None:

        @g.impl("onnxruntime")
        def _(n=n, pts=pts):
            return _ort("GatherND", [_x(), pts()], (n,))


# ------------------------------------------------------------------ gather (take) of rows
# 4M random rows of 4 float32 from a 64 MiB table (an embedding lookup with a tiny width): every
# read misses the cache; strided reads the indices a block ahead and prefetches the rows. And
# 128K random rows of 64 float32 (256 bytes, four lines each) from a 16 MiB table: no goal set by
# the issue, held to parity with the best peer.
for _TN, _TR, _TW, _k in ((1 << 22, 1 << 22, 4, 1.2), (1 << 17, 1 << 16, 64, 1.0)):
    g = group(
        f"gather {_TN >> 10}K rows of {_TW} f32 from {_TR * _TW * 4 >> 20} MiB".replace("4096K", "4M"),
        _TN * (8 + 2 * 4 * _TW) // 2,
        peers("numpy/torch", _k),
    )

    def _table(_TR=_TR, _TW=_TW):
        return _get(f"table{_TW}", lambda: _rng.random((_TR, _TW), dtype=np.float32))

    def _rows(_TN=_TN, _TR=_TR):
        return _get(f"rows{_TN}", lambda: _rng.integers(0, _TR, _TN))

    @g.impl("strided")
    def _(_table=_table, _rows=_rows, _TN=_TN, _TW=_TW):
        t, i, o = _table(), _rows(), np.empty((_TN, _TW), np.float32)
        return lambda: sd.gather(t, i, axis=0, out=o)

    @g.impl("numpy")
    def _(_table=_table, _rows=_rows, _TN=_TN, _TW=_TW):
        t, i, o = _table(), _rows(), np.empty((_TN, _TW), np.float32)
        return lambda: np.take(t, i, axis=0, out=o)

    if torch is not None:

        @g.impl("torch")
        def _(_table=_table, _rows=_rows, _TN=_TN, _TW=_TW):
            t, i, o = _tt(_table()), _tt(_rows()), torch.empty((_TN, _TW))
            return lambda: torch.index_select(t, 0, i, out=o)

    if ort is not None:

        @g.impl("onnxruntime")
        def _(_table=_table, _rows=_rows, _TN=_TN, _TW=_TW):
            return _ort("Gather", [_table(), _rows()], (_TN, _TW), {"axis": 0})


# ------------------------------------------------------------------ join of many small arrays
_NJ = 10000
g = group(f"join {_NJ} arrays of 16 f32", _NJ * 16 * 4, peers("numpy", 1.0))


def _parts():
    return _get("parts", lambda: [_rng.random(16, dtype=np.float32) for _ in range(_NJ)])


@g.impl("strided")
def _():
    xs, o = _parts(), np.empty(_NJ * 16, np.float32)
    return lambda: sd.join(xs, axis=0, out=o)


@g.impl("numpy")
def _():
    xs, o = _parts(), np.empty(_NJ * 16, np.float32)
    return lambda: np.concatenate(xs, out=o)


if torch is not None:

    @g.impl("torch")
    def _():
        xs, o = [_tt(a) for a in _parts()], torch.empty(_NJ * 16)
        return lambda: torch.cat(xs, out=o)

# ONNX Runtime's Concat over 10,000 graph inputs is left out: feeding that many inputs measures
# its input binding, not the concatenation.
