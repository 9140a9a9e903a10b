"""Layout rows of compare.py (issue 14 goal 3, issue 13's depth_to_space row): transposes and
relayouts of 12-64 MiB, and of 1-6 MiB that stay in the cache, at the run's thread count, held to
a fraction of a memcpy of the same bytes.
Narrow planes (C = 2, 3) are the interleave / de-interleave kernels; C = 64 the tiled transpose;
C = 24 the panels with 16x16 and 8x8 tiles; uint8 C = 24 and float16 C = 12 the groups' kernels."""

from __future__ import annotations

import numpy as np

import _optional  # first: torch before strided (its docstring says why)
import strided as sd
from _peers import group, memcpy

torch = _optional.torch

_rng = np.random.default_rng(11)


def _rand(shape, dt):
    return _rng.random(shape, dtype=np.float32).astype(dt)


def _add(name, nbytes, goal, make_x, out_shape, dt, view):
    """One group: out[...] = view(x) by strided (sd.copy), numpy (copyto) and torch (copy_)."""
    g = group(name, nbytes, goal)

    @g.impl("strided")
    def _():
        x, o = make_x(), np.empty(out_shape, dt)
        return lambda: sd.copy(view(x), out=o)

    @g.impl("numpy")
    def _():
        x, o = make_x(), np.empty(out_shape, dt)
        return lambda: np.copyto(o, view(x))

    if torch is not None:

        @g.impl("torch")
        def _():
            x, o = make_x(), np.empty(out_shape, dt)
            xt, ot = torch.from_numpy(x), torch.from_numpy(o)
            return lambda: ot.copy_(view(xt))

    return g


def _perm(a, axes):
    return a.permute(*axes) if torch is not None and isinstance(a, torch.Tensor) else a.transpose(axes)


for dt, dname in ((np.float32, "f32"), (np.float16, "f16")):
    isz = np.dtype(dt).itemsize
    # C = 24: not a multiple of the 16-wide float32 micro-tile (16x16 plus 8x8 tiles on AVX-512)
    # (16, 64, 128, 128) float32: 64 MiB, where the memcpy reference leaves the last-level cache too
    shapes = ((1, 3, 1024, 1024), (1, 3, 2048, 2048), (4, 64, 128, 128), (8, 64, 128, 128), (4, 24, 256, 256))
    for shape in shapes + ((16, 64, 128, 128),):
        nb = int(np.prod(shape)) * isz
        if not 12 << 20 <= nb <= 64 << 20 or (nb > 32 << 20 and dt != np.float32):
            continue
        n, c, h, w = shape
        label = f"{dname} {shape} {nb >> 20} MiB"
        _add(
            f"NCHW->NHWC {label}",
            nb,
            memcpy(0.8),
            lambda s=shape, d=dt: _rand(s, d),
            (n, h, w, c),
            dt,
            lambda a: _perm(a, (0, 2, 3, 1)),
        )
        _add(
            f"NHWC->NCHW {label}",
            nb,
            memcpy(0.8),
            lambda s=(n, h, w, c), d=dt: _rand(s, d),
            shape,
            dt,
            lambda a: _perm(a, (0, 3, 1, 2)),
        )

# Into the cache (1-6 MiB: line tiles in blocks, the uint8 line tiles, the narrow kernels for an
# image's 3 channels), against memcpy of the same bytes (itself in the cache) and the peers.
_CACHED = (
    ("transpose f32 1000x1000", (1000, 1000), np.float32, (1, 0)),
    ("transpose f16 1000x1000", (1000, 1000), np.float16, (1, 0)),
    ("transpose u8 2000x2000", (2000, 2000), np.uint8, (1, 0)),
    ("NHWC->NCHW f32 (1, 56, 56, 256)", (1, 56, 56, 256), np.float32, (0, 3, 1, 2)),
    ("NCHW->NHWC f16 (1, 512, 28, 28)", (1, 512, 28, 28), np.float16, (0, 2, 3, 1)),
    ("NCHW->NHWC u8 (4, 64, 56, 56)", (4, 64, 56, 56), np.uint8, (0, 2, 3, 1)),
    ("NHWC->NCHW u8 (4, 56, 56, 64)", (4, 56, 56, 64), np.uint8, (0, 3, 1, 2)),
    ("HWC->CHW u8 image (1080, 1920, 3)", (1080, 1920, 3), np.uint8, (2, 0, 1)),
    # pixels that are not whole 16-byte lanes (the groups' kernels): 24 bytes, 12 half floats
    ("NCHW->NHWC u8 (16, 24, 56, 56)", (16, 24, 56, 56), np.uint8, (0, 2, 3, 1)),
    ("NHWC->NCHW u8 (16, 56, 56, 24)", (16, 56, 56, 24), np.uint8, (0, 3, 1, 2)),
    ("NCHW->NHWC f16 (4, 12, 112, 112)", (4, 12, 112, 112), np.float16, (0, 2, 3, 1)),
    ("NHWC->NCHW f16 (4, 112, 112, 12)", (4, 112, 112, 12), np.float16, (0, 3, 1, 2)),
    # planes a multiple of 4 KiB apart, which crowd into one L1 set (plane_runs)
    ("NHWC->NCHW f32 (1, 128, 128, 16)", (1, 128, 128, 16), np.float32, (0, 3, 1, 2)),
    ("NHWC->NCHW f16 (4, 64, 64, 64)", (4, 64, 64, 64), np.float16, (0, 3, 1, 2)),
    ("transpose f32 1024x1024", (1024, 1024), np.float32, (1, 0)),
)
for _name, _shape, _dt, _axes in _CACHED:
    _nb = int(np.prod(_shape)) * np.dtype(_dt).itemsize
    _add(
        f"{_name} {_nb / (1 << 20):.1f} MiB",
        _nb,
        memcpy(0.8),
        lambda s=_shape, d=_dt: _rand(s, d),
        tuple(_shape[a] for a in _axes),
        _dt,
        lambda a, ax=_axes: _perm(a, ax),
    )

# depth_to_space DCR (DirectML's default), block 2: the output's rows interleave 2 input planes.
_D2S = group("depth_to_space f32 (4,128,128,128) b=2 DCR -> 32 MiB", 32 << 20, memcpy(0.8))


@_D2S.impl("strided")
def _():
    x, o = _rand((4, 128, 128, 128), np.float32), np.empty((4, 32, 256, 256), np.float32)
    return lambda: sd.depth_to_space(x, 2, "DCR", out=o)


@_D2S.impl("numpy")
def _():
    x, o = _rand((4, 128, 128, 128), np.float32), np.empty((4, 32, 256, 256), np.float32)
    xv, ov = x.reshape(4, 2, 2, 32, 128, 128).transpose(0, 3, 4, 1, 5, 2), o.reshape(4, 32, 128, 2, 128, 2)
    return lambda: np.copyto(ov, xv)


if torch is not None:

    @_D2S.impl("torch")
    def _():
        x, o = _rand((4, 128, 128, 128), np.float32), np.empty((4, 32, 256, 256), np.float32)
        xt, ot = torch.from_numpy(x), torch.from_numpy(o)
        xv, ov = xt.reshape(4, 2, 2, 32, 128, 128).permute(0, 3, 4, 1, 5, 2), ot.reshape(4, 32, 128, 2, 128, 2)
        return lambda: ov.copy_(xv)


# x[:, ::2] of 4096x8192 f32 into a contiguous 4096x4096: every line of x is read (128 MiB) and
# 64 MiB written, so the memcpy moves as many bytes: nbytes = (128 + 64) / 2 MiB (counting only
# the elements used, 64 MiB, the bound would be 2/3 of memcpy, under the goal). Until
# 2026-11-28 this row said 32 MiB and used 48 MiB, half the bytes: it read 0.60-0.70.
_add(
    "slice x[:, ::2] f32 4096x8192 -> 64 MiB",
    96 << 20,
    memcpy(0.7),
    lambda: _rand((4096, 8192), np.float32),
    (4096, 4096),
    np.float32,
    lambda a: a[:, ::2],
)
