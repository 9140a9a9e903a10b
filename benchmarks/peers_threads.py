"""Threading rows of compare.py (issue: default settings never slower than one thread, within
1.5x of one thread when every core is busy, 256 KiB-1 MiB calls at least as fast as numpy)."""

from __future__ import annotations

import numpy as np

import _optional  # first: torch before strided (its docstring says why)
import strided as sd
from _peers import BUSY, group, one_thread, peers

torch = _optional.torch

_rng = np.random.default_rng(7)
# The busy-machine goal: strided's default within 1.5x of one thread (>= 1/1.5 of its speed).
_T = one_thread(1 / 1.5 if BUSY else 1.0)


_cache: dict = {}


def _shared(key, make):
    """One set of arrays per row, shared by strided, its one-thread run and the peers: each is
    timed on the same memory (arrays of their own differed by where they lay: numpy's and
    strided's copies, both memcpy-bound on one core, read 0.80-1.00 of each other)."""
    if key not in _cache:
        _cache[key] = make()
    return _cache[key]


def _nchw(n: int, c: int, h: int, w: int, dt=np.float32):
    return _shared(("nchw", n, c, h, w, dt), lambda: (_rng.random((n, c, h, w)).astype(dt), np.empty((n, h, w, c), dt)))


def _split_arrays(n: int):
    return _shared(
        ("split", n),
        lambda: (
            _rng.random((64, n // 64)).astype(np.float32),
            [np.empty((64, n // 256), np.float32) for _ in range(4)],
        ),
    )


def _copy_arrays(n: int):
    return _shared(("copy", n), lambda: (_rng.random(n).astype(np.float32), np.empty(n, np.float32)))


for label, shape in (("256 KiB", (1, 64, 32, 32)), ("1 MiB", (1, 64, 64, 64)), ("4 MiB", (1, 64, 128, 128))):
    nb = int(np.prod(shape)) * 4
    g = group(f"NCHW->NHWC f32 {label} {shape}", nb, _T, peers("numpy", 1.0))

    @g.impl("strided")
    def _(shape=shape):
        x, o = _nchw(*shape)
        return lambda: sd.copy(x.transpose(0, 2, 3, 1), out=o)

    @g.impl("numpy")
    def _(shape=shape):
        x, o = _nchw(*shape)
        return lambda: np.copyto(o, x.transpose(0, 2, 3, 1))

    if torch is not None:

        @g.impl("torch")
        def _(shape=shape):
            x, o = _nchw(*shape)
            xt, ot = torch.from_numpy(x), torch.from_numpy(o)
            return lambda: ot.copy_(xt.permute(0, 2, 3, 1))


for label, n in (("256 KiB", 1 << 16), ("1 MiB", 1 << 18), ("4 MiB", 1 << 20)):
    g = group(f"split f32 {label} in 4 along axis 1", n * 4, _T, peers("numpy", 1.0))

    @g.impl("strided")
    def _(n=n):
        x, outs = _split_arrays(n)
        return lambda: sd.split(x, 4, axis=1, out=outs)

    @g.impl("numpy")
    def _(n=n):
        x, outs = _split_arrays(n)
        return lambda: [np.copyto(o, p) for o, p in zip(outs, np.split(x, 4, axis=1))]

    g = group(f"copy f32 {label}", n * 4, _T, peers("numpy", 1.0))

    @g.impl("strided")
    def _(n=n):
        x, o = _copy_arrays(n)
        return lambda: sd.copy(x, out=o)

    @g.impl("numpy")
    def _(n=n):
        x, o = _copy_arrays(n)
        return lambda: np.copyto(o, x)
