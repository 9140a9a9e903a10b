"""Copy-engine benchmarks (google-benchmark's Python bindings): strided against a parallel memcpy
measured in the same run, numpy, and torch when installed.

    PYTHONPATH=build/<dir>/python python benchmarks/bench_copy.py            # google-benchmark output
    PYTHONPATH=build/<dir>/python python benchmarks/bench_copy.py --table    # + markdown table of medians

--table runs every case --reps times (default 7) with google-benchmark's random interleaving
(repetitions of different cases alternate, so a noisy neighbour hits all of them alike) and
prints median bytes/second and the ratio to a memcpy at the run's thread count. Large cases move 128 MiB
(bytes/second counts the bytes written); outputs are preallocated. Threads: --threads (2).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Callable, Dict, List, Tuple

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # numpy's idle BLAS threads would spin on the cores measured

import numpy as np  # noqa: E402

try:
    import google_benchmark as gb
except ImportError:  # pragma: no cover
    sys.exit("bench_copy.py needs google-benchmark: pip install google-benchmark (the 'bench' extra)")

import _optional  # first: torch before strided (its docstring says why)
import strided as sd
from strided import _core

torch = _optional.torch

MiB = 1 << 20
N = 128 * MiB
_cache: Dict[str, np.ndarray] = {}


def arr(key: str, shape, dtype, fill: bool = True) -> np.ndarray:
    """Arrays shared between cases (128 MiB each), made once, pages touched."""
    k = f"{key}:{shape}:{np.dtype(dtype).str}"
    if k not in _cache:
        a = np.empty(shape, dtype)
        if fill:
            a.reshape(-1).view(np.uint8)[:] = np.arange(a.nbytes, dtype=np.uint64).astype(np.uint8)
        else:
            a.reshape(-1).view(np.uint8)[:] = 0
        _cache[k] = a
    return _cache[k]


# (group, name, bytes written per call, make(): returns the function to time)
CASES: List[Tuple[str, str, int, Callable[[], Callable[[], object]]]] = []


def case(group: str, name: str, nbytes: int = N):
    def deco(make):
        CASES.append((group, name, nbytes, make))
        return make

    return deco


# ------------------------------------------------------------------ references
@case("ref", "memcpy")  # at the run's thread count (--threads)
def _():
    s, d = arr("a", N, np.uint8), arr("o", N, np.uint8, False)
    return lambda: _core._memcpy(d, s, sd.get_num_threads())


@case("ref", "memcpy_1thread")
def _():
    s, d = arr("a", N, np.uint8), arr("o", N, np.uint8, False)
    return lambda: _core._memcpy(d, s, 1)


@case("ref", "memset")
def _():
    d = arr("o", N, np.uint8, False)
    # A non-zero byte: on the machines measured here writing zeros runs about twice as fast as
    # writing anything else (56 vs 31 GB/s), so a zero memset is no reference for real data.
    return lambda: _core._memset(d, 0x5A, sd.get_num_threads())


@case("contig", "strided")
def _():
    s, d = arr("a", N, np.uint8), arr("o", N, np.uint8, False)
    return lambda: sd.copy(s, d)


@case("contig", "numpy")
def _():
    s, d = arr("a", N, np.uint8), arr("o", N, np.uint8, False)
    return lambda: np.copyto(d, s)


# ------------------------------------------------------------------ split / join / slice
def f32(key, shape, fill=True):
    return arr(key, shape, np.float32, fill)


@case("split axis=1 (4096x8192 f32 -> 2)", "strided")
def _():
    a = f32("a", (4096, 8192))
    outs = [f32("o", (2, 4096, 4096), False)[i] for i in range(2)]
    return lambda: sd.split(a, 2, axis=1, out=outs)


@case("split axis=1 (4096x8192 f32 -> 2)", "numpy")
def _():
    a = f32("a", (4096, 8192))
    outs = [f32("o", (2, 4096, 4096), False)[i] for i in range(2)]

    def run():
        for o, p in zip(outs, np.split(a, 2, axis=1)):
            np.copyto(o, p)

    return run


@case("join axis=1 (2 x 4096x4096 f32)", "strided")
def _():
    parts = [f32("a", (2, 4096, 4096))[i] for i in range(2)]
    o = f32("o", (4096, 8192), False)
    return lambda: sd.join(parts, axis=1, out=o)


@case("join axis=1 (2 x 4096x4096 f32)", "numpy")
def _():
    parts = [f32("a", (2, 4096, 4096))[i] for i in range(2)]
    o = f32("o", (4096, 8192), False)
    return lambda: np.concatenate(parts, axis=1, out=o)


@case("slice window (4096x8192 of 4096x9216 f32)", "strided")
def _():
    a = f32("big", (4096, 9216))
    o = f32("o", (4096, 8192), False)
    return lambda: sd.slice(a, [0, 512], [4096, 8192], out=o)


@case("slice window (4096x8192 of 4096x9216 f32)", "numpy")
def _():
    a = f32("big", (4096, 9216))
    o = f32("o", (4096, 8192), False)
    return lambda: np.copyto(o, a[:, 512:8704])


# ------------------------------------------------------------------ fresh outputs (no out=)
# The result is allocated by the call. strided takes results of 4 MiB or more from its result
# pool (recently freed blocks, already mapped); "pool off" rows turn the pool off around the call,
# so the new pages are faulted (and zeroed by the kernel) by whichever worker thread first writes
# them. numpy faults them on one thread.
def _pool_off(fn):
    def run():
        old = _core._result_pool_limit()
        _core._set_result_pool_limit(0)
        try:
            return fn()
        finally:
            _core._set_result_pool_limit(old)

    return run


def _fresh(group, make_sd, make_np):
    case(group, "strided")(make_sd)
    case(group, "strided (pool off)")(lambda: _pool_off(make_sd()))
    case(group, "numpy")(make_np)


def _join_sd():
    parts = [f32("a", (2, 4096, 4096))[i] for i in range(2)]
    return lambda: sd.join(parts, axis=1)


def _join_np():
    parts = [f32("a", (2, 4096, 4096))[i] for i in range(2)]
    return lambda: np.concatenate(parts, axis=1)


def _reverse_sd():
    a = f32("a2", (4096, 8192))
    return lambda: sd.slice(a, (0, 0), a.shape, (1, -1))


def _reverse_np():
    a = f32("a2", (4096, 8192))
    return lambda: a[:, ::-1].copy()


def _transpose_sd():
    t = f32("a2", (4096, 8192)).T
    return lambda: sd.slice(t, (0, 0), t.shape)


def _transpose_np():
    t = f32("a2", (4096, 8192)).T
    return lambda: np.ascontiguousarray(t)


_fresh("fresh join axis=1 (2 x 4096x4096 f32)", _join_sd, _join_np)
_fresh("fresh reverse last axis f32 (4096x8192)", _reverse_sd, _reverse_np)
_fresh("fresh transpose f32 4096x8192", _transpose_sd, _transpose_np)


# ------------------------------------------------------------------ reversal
def _rev(dtype, shape):
    a, o = arr("a", shape, dtype), arr("o", shape, dtype, False)
    return a, o


@case("reverse last axis f32 (4096x8192)", "strided")
def _():
    a, o = _rev(np.float32, (4096, 8192))
    return lambda: sd.slice(a, [0, 0], list(a.shape), [1, -1], out=o)


@case("reverse last axis f32 (4096x8192)", "numpy")
def _():
    a, o = _rev(np.float32, (4096, 8192))
    return lambda: np.copyto(o, a[:, ::-1])


@case("reverse last axis u8 (4096x32768)", "strided")
def _():
    a, o = _rev(np.uint8, (4096, 32768))
    return lambda: sd.slice(a, [0, 0], list(a.shape), [1, -1], out=o)


@case("reverse last axis u8 (4096x32768)", "numpy")
def _():
    a, o = _rev(np.uint8, (4096, 32768))
    return lambda: np.copyto(o, a[:, ::-1])


# ------------------------------------------------------------------ transpose
@case("transpose f32 4096x8192", "strided")
def _():
    a, o = f32("a", (4096, 8192)), f32("o", (8192, 4096), False)
    return lambda: sd.copy(a.T, o)


@case("transpose f32 4096x8192", "numpy")
def _():
    a, o = f32("a", (4096, 8192)), f32("o", (8192, 4096), False)
    return lambda: np.copyto(o, a.T)


if torch is not None:

    @case("transpose f32 4096x8192", "torch")
    def _():
        a, o = torch.from_numpy(f32("a", (4096, 8192))), torch.from_numpy(f32("o", (8192, 4096), False))
        return lambda: o.copy_(a.T)

    @case("reverse last axis f32 (4096x8192)", "torch")
    def _():
        a, o = _rev(np.float32, (4096, 8192))
        ta, to = torch.from_numpy(a), torch.from_numpy(o)
        return lambda: to.copy_(torch.flip(ta, [1]))  # torch has no negative strides: flip allocates

    @case("contig", "torch")
    def _():
        s, d = torch.from_numpy(arr("a", N, np.uint8)), torch.from_numpy(arr("o", N, np.uint8, False))
        return lambda: d.copy_(s)


@case("transpose u8 8192x16384", "strided")
def _():
    a, o = arr("a", (8192, 16384), np.uint8), arr("o", (16384, 8192), np.uint8, False)
    return lambda: sd.copy(a.T, o)


@case("transpose u8 8192x16384", "numpy")
def _():
    a, o = arr("a", (8192, 16384), np.uint8), arr("o", (16384, 8192), np.uint8, False)
    return lambda: np.copyto(o, a.T)


# ------------------------------------------------------------------ cast (the convert family)
# 32M elements. Bytes per call: (bytes read + bytes written) / 2, the memcpy that moves as much,
# so "/ memcpy" is the fraction of the bandwidth bound.
CAST_N = 32 * MiB


def _cast_arrays(src, dst):
    k = f"castsrc:{np.dtype(src).str}"
    if k not in _cache:  # ordinary values (no NaN/denormal bit patterns): -500 .. 499, in quarters
        _cache[k] = ((np.arange(CAST_N, dtype=np.int64) % 4000 - 2000) / 4).astype(src)
    return _cache[k], arr("o", CAST_N, dst, False)


for _src, _dst in ((np.float32, np.float16), (np.float16, np.float32), (np.int32, np.float32), (np.float32, np.int32)):
    _g = f"cast {np.dtype(_src).name}->{np.dtype(_dst).name} (32M)"
    _b = CAST_N * (np.dtype(_src).itemsize + np.dtype(_dst).itemsize) // 2

    @case(_g, "strided", _b)
    def _(src=_src, dst=_dst):
        a, o = _cast_arrays(src, dst)
        return lambda: sd.cast(a, dst, out=o)

    @case(_g, "numpy", _b)
    def _(src=_src, dst=_dst):
        a, o = _cast_arrays(src, dst)
        return lambda: np.copyto(o, a, casting="unsafe")

    if torch is not None:

        @case(_g, "torch", _b)
        def _(src=_src, dst=_dst):
            a, o = _cast_arrays(src, dst)
            ta, to = torch.from_numpy(a), torch.from_numpy(o)
            return lambda: to.copy_(ta)


# Fresh results, as the goal names them: sd.cast(x, dtype) against torch's x.to(dtype)
# and numpy's x.astype(dtype), each allocating its result.
for _src, _dst in ((np.float32, np.float16), (np.float16, np.float32)):
    _g = f"fresh cast {np.dtype(_src).name}->{np.dtype(_dst).name} (32M)"
    _b = CAST_N * (np.dtype(_src).itemsize + np.dtype(_dst).itemsize) // 2

    @case(_g, "strided sd.cast", _b)
    def _(src=_src, dst=_dst):
        a, _o = _cast_arrays(src, dst)
        return lambda: sd.cast(a, dst)

    @case(_g, "numpy astype", _b)
    def _(src=_src, dst=_dst):
        a, _o = _cast_arrays(src, dst)
        return lambda: a.astype(dst)

    if torch is not None:

        @case(_g, "torch .to()", _b)
        def _(src=_src, dst=_dst):
            a, _o = _cast_arrays(src, dst)
            ta, tdst = torch.from_numpy(a), getattr(torch, np.dtype(dst).name)
            return lambda: ta.to(tdst)


# The float16 casts' bound: the same cache lines moved without a float conversion: every other
# uint16 of the float32 source (a plain move: 128 MiB read, 64 MiB written), and the integer
# casts of the same widths (uint32 -> uint16 saturating, uint16 -> uint32).
@case("cast float32->float16 (32M)", "bound: strided copy of every other uint16", CAST_N * 3)
def _():
    a, o = _cast_arrays(np.float32, np.float16)
    return lambda: sd.copy(a.view(np.uint16)[::2], out=o.view(np.uint16))


@case("cast float32->float16 (32M)", "bound: strided cast uint32->uint16", CAST_N * 3)
def _():
    a, o = _cast_arrays(np.float32, np.float16)
    return lambda: sd.cast(a.view(np.uint32), np.uint16, out=o.view(np.uint16))


@case("cast float16->float32 (32M)", "bound: strided cast uint16->uint32", CAST_N * 3)
def _():
    a, o = _cast_arrays(np.float16, np.float32)
    return lambda: sd.cast(a.view(np.uint16), np.uint32, out=o.view(np.uint32))


# ------------------------------------------------------------------ tile (a broadcast view copied)
# x: 2048x4096 float32 (32 MiB) tiled by (2, 2) into 4096x8192 (128 MiB written). Into out=:
# strided against the same broadcast copy spelled in numpy and torch (out viewed as
# (2, 2048, 2, 4096), x as (1, 2048, 1, 4096)); fresh: sd.tile, np.tile and torch's x.repeat.
TILE_G = "tile f32 2048x4096 by (2, 2)"


def _tile_in():
    return f32("tile_x", (2048, 4096))


@case(TILE_G, "strided sd.tile(out=)")
def _():
    x, o = _tile_in(), f32("o", (4096, 8192), False)
    return lambda: sd.tile(x, (2, 2), out=o)


@case(TILE_G, "numpy copyto(out, broadcast view)")
def _():
    x, o = _tile_in(), f32("o", (4096, 8192), False)
    ov, xv = o.reshape(2, 2048, 2, 4096), x.reshape(1, 2048, 1, 4096)
    return lambda: np.copyto(ov, xv)


def _tile_sd():
    x = _tile_in()
    return lambda: sd.tile(x, (2, 2))


def _tile_np():
    x = _tile_in()
    return lambda: np.tile(x, (2, 2))


_fresh(f"fresh {TILE_G}", _tile_sd, _tile_np)

if torch is not None:

    @case(TILE_G, "torch copy_(out, expand view)")
    def _():
        x, o = torch.from_numpy(_tile_in()), torch.from_numpy(f32("o", (4096, 8192), False))
        ov, xv = o.view(2, 2048, 2, 4096), x.view(1, 2048, 1, 4096).expand(2, 2048, 2, 4096)
        return lambda: ov.copy_(xv)

    @case(f"fresh {TILE_G}", "torch x.repeat(2, 2)")
    def _():
        x = torch.from_numpy(_tile_in())
        return lambda: x.repeat(2, 2)


# ------------------------------------------------------------------ depth_to_space / space_to_depth
# A transpose in blocks: depth (4, 128, 128, 128) float32 <-> space (4, 32, 256, 256), 32 MiB
# written, block 2. Into out=: strided (CRD, torch's order, and DCR, DirectML's and ONNX's
# default) against the same 6-d transposed copy spelled in numpy and torch; fresh: sd against
# numpy's reshape/transpose/reshape and torch.nn.functional.pixel_shuffle / pixel_unshuffle (CRD).
D2S_DEPTH, D2S_SPACE, D2S_BYTES = (4, 128, 128, 128), (4, 32, 256, 256), 32 * MiB
D2S_G = "depth_to_space f32 (4,128,128,128) b=2 -> 32 MiB"
S2D_G = "space_to_depth f32 (4,32,256,256) b=2 -> 32 MiB"


def _d2s_in():
    return f32("d2s_depth", D2S_DEPTH)


def _s2d_in():
    return f32("s2d_space", D2S_SPACE)


def _crd_depth_6d(a):  # depth (n, c*4, h, w) as (n, c, h, bh, w, bw), CRD
    return a.reshape(4, 32, 2, 2, 128, 128).transpose(0, 1, 4, 2, 5, 3)


def _space_6d(a):  # space (n, c, h*2, w*2) as (n, c, h, bh, w, bw)
    return a.reshape(4, 32, 128, 2, 128, 2)


for _mode in ("CRD", "DCR"):

    @case(D2S_G, f"strided sd.depth_to_space(out=) {_mode}", D2S_BYTES)
    def _(mode=_mode):
        x, o = _d2s_in(), f32("d2s_o", D2S_SPACE, False)
        return lambda: sd.depth_to_space(x, 2, mode, out=o)

    @case(S2D_G, f"strided sd.space_to_depth(out=) {_mode}", D2S_BYTES)
    def _(mode=_mode):
        x, o = _s2d_in(), f32("s2d_o", D2S_DEPTH, False)
        return lambda: sd.space_to_depth(x, 2, mode, out=o)


@case(D2S_G, "numpy copyto(out 6-d, transposed view) CRD", D2S_BYTES)
def _():
    x, o = _d2s_in(), f32("d2s_o", D2S_SPACE, False)
    xv, ov = _crd_depth_6d(x), _space_6d(o)
    return lambda: np.copyto(ov, xv)


@case(S2D_G, "numpy copyto(out 6-d, transposed view) CRD", D2S_BYTES)
def _():
    x, o = _s2d_in(), f32("s2d_o", D2S_DEPTH, False)
    xv, ov = _space_6d(x), _crd_depth_6d(o)
    return lambda: np.copyto(ov, xv)


def _d2s_sd():
    x = _d2s_in()
    return lambda: sd.depth_to_space(x, 2, "CRD")


def _d2s_np():
    x = _d2s_in()
    return lambda: np.ascontiguousarray(_crd_depth_6d(x)).reshape(D2S_SPACE)


def _s2d_sd():
    x = _s2d_in()
    return lambda: sd.space_to_depth(x, 2, "CRD")


def _s2d_np():
    x = _s2d_in()
    return lambda: np.ascontiguousarray(_space_6d(x).transpose(0, 1, 3, 5, 2, 4)).reshape(D2S_DEPTH)


case(f"fresh {D2S_G} CRD", "strided", D2S_BYTES)(_d2s_sd)
case(f"fresh {D2S_G} CRD", "strided (pool off)", D2S_BYTES)(lambda: _pool_off(_d2s_sd()))
case(f"fresh {D2S_G} CRD", "numpy reshape+transpose+copy", D2S_BYTES)(_d2s_np)
case(f"fresh {S2D_G} CRD", "strided", D2S_BYTES)(_s2d_sd)
case(f"fresh {S2D_G} CRD", "strided (pool off)", D2S_BYTES)(lambda: _pool_off(_s2d_sd()))
case(f"fresh {S2D_G} CRD", "numpy reshape+transpose+copy", D2S_BYTES)(_s2d_np)

if torch is not None:

    @case(D2S_G, "torch copy_(out 6-d, permuted view) CRD", D2S_BYTES)
    def _():
        x, o = torch.from_numpy(_d2s_in()), torch.from_numpy(f32("d2s_o", D2S_SPACE, False))
        xv, ov = x.view(4, 32, 2, 2, 128, 128).permute(0, 1, 4, 2, 5, 3), o.view(4, 32, 128, 2, 128, 2)
        return lambda: ov.copy_(xv)

    @case(S2D_G, "torch copy_(out 6-d, permuted view) CRD", D2S_BYTES)
    def _():
        x, o = torch.from_numpy(_s2d_in()), torch.from_numpy(f32("s2d_o", D2S_DEPTH, False))
        xv, ov = x.view(4, 32, 128, 2, 128, 2), o.view(4, 32, 2, 2, 128, 128).permute(0, 1, 4, 2, 5, 3)
        return lambda: ov.copy_(xv)

    @case(f"fresh {D2S_G} CRD", "torch pixel_shuffle", D2S_BYTES)
    def _():
        x = torch.from_numpy(_d2s_in())
        return lambda: torch.nn.functional.pixel_shuffle(x, 2)

    @case(f"fresh {S2D_G} CRD", "torch pixel_unshuffle", D2S_BYTES)
    def _():
        x = torch.from_numpy(_s2d_in())
        return lambda: torch.nn.functional.pixel_unshuffle(x, 2)


# ------------------------------------------------------------------ unfold / max_unpool
# Unfold (im2col), a 3x3 window with padding 1 over (batch, 64, 56, 56) float32: the result
# (batch, 576, 3136) is 6.9 MiB per image. strided into out= and fresh, against torch's
# nn.functional.unfold (fresh: torch has no out=) and numpy's pad + sliding_window_view + copy.
def _unfold_x(b):
    return f32(f"unfold_x{b}", (b, 64, 56, 56))


for _b in (1, 8):
    _g, _ub = f"unfold f32 (batch {_b}, 64, 56, 56) 3x3 pad 1", _b * 576 * 3136 * 4

    @case(_g, "strided sd.unfold(out=)", _ub)
    def _(b=_b):
        x, o = _unfold_x(b), f32(f"unfold_o{b}", (b, 576, 3136), False)
        return lambda: sd.unfold(x, 3, begin=1, end=1, out=o)

    @case(_g, "strided sd.unfold (fresh)", _ub)
    def _(b=_b):
        x = _unfold_x(b)
        return lambda: sd.unfold(x, 3, begin=1, end=1)

    @case(_g, "numpy pad + sliding_window_view + copy", _ub)
    def _(b=_b):
        x = _unfold_x(b)

        def run():
            w = np.lib.stride_tricks.sliding_window_view(np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1))), (3, 3), (2, 3))
            return np.ascontiguousarray(w.transpose(0, 1, 4, 5, 2, 3)).reshape(b, 576, 3136)

        return run

    if torch is not None:

        @case(_g, "torch F.unfold (fresh)", _ub)
        def _(b=_b):
            x = torch.from_numpy(_unfold_x(b))
            return lambda: torch.nn.functional.unfold(x, 3, padding=1)


# MaxUnpooling after a 2x2 max pool: x (8, 64, 56, 56) float32 with one position per 2x2 window
# of the (8, 64, 112, 112) result (24.5 MiB written, zeros included), int64 indices. torch's
# max_unpool2d takes per-plane indices; numpy: zeros then put.
UNPOOL_G, UNPOOL_OUT, UNPOOL_BYTES = (
    "max_unpool f32 (8,64,56,56) -> (8,64,112,112)",
    (8, 64, 112, 112),
    8 * 64 * 112 * 112 * 4,
)


def _unpool_in():
    if "unpool" not in _cache:
        rng = np.random.default_rng(0)
        h, w = np.meshgrid(np.arange(56), np.arange(56), indexing="ij")
        plane = (2 * h + rng.integers(0, 2, (8, 64, 56, 56))) * 112 + 2 * w + rng.integers(0, 2, (8, 64, 56, 56))
        _cache["unpool"] = plane.astype(np.int64)
    plane = _cache["unpool"]
    flat = plane + (np.arange(8 * 64, dtype=np.int64) * 112 * 112).reshape(8, 64, 1, 1)
    return f32("unpool_x", (8, 64, 56, 56)), flat, plane


@case(UNPOOL_G, "strided sd.max_unpool(out=)", UNPOOL_BYTES)
def _():
    x, flat, _plane = _unpool_in()
    o = f32("unpool_o", UNPOOL_OUT, False)
    return lambda: sd.max_unpool(x, flat, UNPOOL_OUT, out=o)


@case(UNPOOL_G, "strided sd.max_unpool (fresh)", UNPOOL_BYTES)
def _():
    x, flat, _plane = _unpool_in()
    return lambda: sd.max_unpool(x, flat, UNPOOL_OUT)


@case(UNPOOL_G, "numpy zeros + put", UNPOOL_BYTES)
def _():
    x, flat, _plane = _unpool_in()

    def run():
        o = np.zeros(UNPOOL_OUT, np.float32)
        np.put(o, flat, x)
        return o

    return run


# ------------------------------------------------------------------ one_hot, slice_grad, reverse_subsequences
# one_hot: 1M int64 indices (in [0, 32), a few out of range), depth 32, float32 -> 128 MiB written;
# axis -1 (rows of 32) and axis 0 (the depth outermost). numpy: take rows of an identity matrix
# (np.eye(depth)[idx], into out= with np.take) and zeros + put_along_axis; torch: zero_ + scatter_
# into out=, and torch.nn.functional.one_hot (int64: twice the bytes; the row says so).
OH_N, OH_D = 1 << 20, 32
OH_G = "one_hot 1M int64 indices, depth 32, f32 -> 128 MiB"


def _oh_idx():
    k = "oh_idx"
    if k not in _cache:
        _cache[k] = np.random.default_rng(0).integers(-2, OH_D + 2, size=OH_N).astype(np.int64)
    return _cache[k]


_OH_VALUES = np.array([0.0, 1.0], np.float32)


@case(OH_G, "strided sd.one_hot(out=) axis -1")
def _():
    idx, o = _oh_idx(), f32("o", (OH_N, OH_D), False)
    return lambda: sd.one_hot(idx, OH_D, _OH_VALUES, out=o)


@case(OH_G, "strided sd.one_hot(out=) axis 0")
def _():
    idx, o = _oh_idx(), f32("o", (OH_D, OH_N), False)
    return lambda: sd.one_hot(idx, OH_D, _OH_VALUES, axis=0, out=o)


@case(OH_G, "numpy np.take(eye, idx, axis=0, out=)")
def _():
    idx, o = np.clip(_oh_idx(), 0, OH_D - 1), f32("o", (OH_N, OH_D), False)  # take has no all-off row
    eye = np.eye(OH_D, dtype=np.float32)
    return lambda: np.take(eye, idx, axis=0, out=o)


@case(OH_G, "numpy out[...] = 0; put_along_axis")
def _():
    idx, o = np.clip(_oh_idx(), 0, OH_D - 1)[:, None], f32("o", (OH_N, OH_D), False)

    def run():
        o[...] = 0
        np.put_along_axis(o, idx, 1.0, axis=1)

    return run


@case(OH_G, "numpy out[...] = 0; put_along_axis axis 0")
def _():
    idx, o = np.clip(_oh_idx(), 0, OH_D - 1)[None, :], f32("o", (OH_D, OH_N), False)

    def run():
        o[...] = 0
        np.put_along_axis(o, idx, 1.0, axis=0)

    return run


@case(f"fresh {OH_G}", "strided sd.one_hot")
def _():
    idx = _oh_idx()
    return lambda: sd.one_hot(idx, OH_D, _OH_VALUES)


@case(f"fresh {OH_G}", "numpy np.eye(depth)[idx]")
def _():
    idx, eye = np.clip(_oh_idx(), 0, OH_D - 1), np.eye(OH_D, dtype=np.float32)
    return lambda: eye[idx]


if torch is not None:

    @case(OH_G, "torch out.zero_().scatter_(1, idx, 1)")
    def _():
        idx = torch.from_numpy(np.clip(_oh_idx(), 0, OH_D - 1)[:, None].copy())
        o = torch.from_numpy(f32("o", (OH_N, OH_D), False))
        return lambda: o.zero_().scatter_(1, idx, 1.0)

    @case(f"fresh {OH_G}", "torch one_hot (int64 result: 256 MiB)")
    def _():
        idx = torch.from_numpy(np.clip(_oh_idx(), 0, OH_D - 1))
        return lambda: torch.nn.functional.one_hot(idx, OH_D)


# slice_grad: a 4096x4096 float32 gradient into every other column of 4096x8192 (128 MiB written).
SG_G = "slice_grad f32 4096x4096 into 4096x8192, strides (1, 2)"


@case(SG_G, "strided sd.slice_grad(out=)")
def _():
    g, o = f32("sg_g", (4096, 4096)), f32("o", (4096, 8192), False)
    return lambda: sd.slice_grad(g, (4096, 8192), (0, 0), (4096, 8192), (1, 2), out=o)


@case(SG_G, "numpy out[...] = 0; out[:, ::2] = g")
def _():
    g, o = f32("sg_g", (4096, 4096)), f32("o", (4096, 8192), False)

    def run():
        o[...] = 0
        o[:, ::2] = g

    return run


if torch is not None:

    @case(SG_G, "torch out.zero_(); out[:, ::2].copy_(g)")
    def _():
        g, o = torch.from_numpy(f32("sg_g", (4096, 4096))), torch.from_numpy(f32("o", (4096, 8192), False))
        return lambda: o.zero_()[:, ::2].copy_(g)


# reverse_subsequences: 4096x8192 float32 (128 MiB), random lengths, along the last axis (a row
# each) and along the first (time-major, ONNX ReverseSequence's default time_axis=0: lengths per
# batch broadcast over the features; and the worst case, a length per column). numpy: a loop of
# two slice copies per sequence; torch: a gather with the source positions precomputed.
RS_G = "reverse_subsequences f32 4096x8192"


def _rs_lengths(n, m, key):
    if key not in _cache:
        _cache[key] = np.random.default_rng(1).integers(0, m + 1, size=n).astype(np.int64)
    return _cache[key]


@case(RS_G, "strided axis 1 (sequences are rows)")
def _():
    x, o = f32("rs_x", (4096, 8192)), f32("o", (4096, 8192), False)
    lens = _rs_lengths(4096, 8192, "rs_l1")[:, None]
    return lambda: sd.reverse_subsequences(x, lens, 1, out=o)


@case(RS_G, "strided axis 0 as (4096, 16, 512), lengths per batch (16)")
def _():
    x, o = f32("rs_x", (4096, 8192)).reshape(4096, 16, 512), f32("o", (4096, 8192), False).reshape(4096, 16, 512)
    lens = _rs_lengths(16, 4096, "rs_l0")[None, :, None]  # ONNX ReverseSequence: time_axis 0, batch_axis 1
    return lambda: sd.reverse_subsequences(x, lens, 0, out=o)


@case(RS_G, "strided axis 0, a length per column (8192)")
def _():
    x, o = f32("rs_x", (4096, 8192)), f32("o", (4096, 8192), False)
    lens = _rs_lengths(8192, 4096, "rs_l0c")[None, :]
    return lambda: sd.reverse_subsequences(x, lens, 0, out=o)


@case(RS_G, "numpy loop over rows (axis 1)")
def _():
    x, o = f32("rs_x", (4096, 8192)), f32("o", (4096, 8192), False)
    lens = [int(v) for v in _rs_lengths(4096, 8192, "rs_l1")]

    def run():
        for i, n in enumerate(lens):
            o[i, :n] = x[i, n - 1 :: -1] if n else x[i, :0]
            o[i, n:] = x[i, n:]

    return run


if torch is not None:

    @case(UNPOOL_G, "torch F.max_unpool2d (fresh)", UNPOOL_BYTES)
    def _():
        x, _flat, plane = _unpool_in()
        tx, ti = torch.from_numpy(x), torch.from_numpy(plane)
        return lambda: torch.nn.functional.max_unpool2d(tx, ti, 2)

    @case(RS_G, "torch gather(x, 1, precomputed positions) (axis 1)")
    def _():
        x, o = torch.from_numpy(f32("rs_x", (4096, 8192))), torch.from_numpy(f32("o", (4096, 8192), False))
        n = torch.from_numpy(_rs_lengths(4096, 8192, "rs_l1"))[:, None]
        k = torch.arange(8192)[None, :]
        pos = torch.where(k < n, n - 1 - k, k)
        return lambda: torch.gather(x, 1, pos, out=o)


# ------------------------------------------------------------------ broadcast
@case("broadcast row f32 (8192 -> 4096x8192)", "strided")
def _():
    row, o = f32("row", (8192,)), f32("o", (4096, 8192), False)
    return lambda: sd.copy(row, o)


@case("broadcast row f32 (8192 -> 4096x8192)", "numpy")
def _():
    row, o = f32("row", (8192,)), f32("o", (4096, 8192), False)
    return lambda: np.copyto(o, row)


@case("broadcast column f32 (4096x1 -> 4096x8192)", "strided")
def _():
    col, o = f32("col", (4096, 1)), f32("o", (4096, 8192), False)
    return lambda: sd.copy(col, o)


@case("broadcast column f32 (4096x1 -> 4096x8192)", "numpy")
def _():
    col, o = f32("col", (4096, 1)), f32("o", (4096, 8192), False)
    return lambda: np.copyto(o, col)


# ------------------------------------------------------------------ pad
# Three shapes, constant and reflect: an NCHW batch (8, 64, 128, 128) float32 padded by 2 on H
# and W (34 MiB written), a 2-d (4096, 4096) padded by 3 on both sides (64 MiB) and a 1-d 16 Mi
# elements padded by 4096 (64 MiB). Into out= (the bytes written against memcpy), and fresh
# against numpy.pad (and torch.nn.functional.pad, which wants a batch dimension for reflect).
PAD_CASES = [
    ("pad f32 (8,64,128,128) by 2 on H, W", (8, 64, 128, 128), (0, 0, 2, 2)),
    ("pad f32 4096x4096 by 3", (4096, 4096), (3, 3)),
    ("pad f32 16Mi by 4096", (16 * MiB,), (4096,)),
]

for _g, _shape, _p in PAD_CASES:
    _out_shape = tuple(n + 2 * k for n, k in zip(_shape, _p))
    _bytes = int(np.prod(_out_shape)) * 4
    for _mode in ("constant", "reflect"):
        _grp = f"{_g} {_mode}"

        @case(_grp, "strided sd.pad(out=)", _bytes)
        def _(shape=_shape, p=_p, mode=_mode, out_shape=_out_shape):
            x, o = f32(f"pad_x{len(shape)}", shape), f32(f"pad_o{len(shape)}", out_shape, False)
            return lambda: sd.pad(x, p, p, mode, out=o)

        @case(f"fresh {_grp}", "strided sd.pad", _bytes)
        def _(shape=_shape, p=_p, mode=_mode):
            x = f32(f"pad_x{len(shape)}", shape)
            return lambda: sd.pad(x, p, p, mode)

        @case(f"fresh {_grp}", "numpy np.pad", _bytes)
        def _(shape=_shape, p=_p, mode=_mode):
            x = f32(f"pad_x{len(shape)}", shape)
            return lambda: np.pad(x, [(k, k) for k in p], mode)

        if torch is not None and len(_shape) == 4:

            @case(f"fresh {_grp}", "torch F.pad", _bytes)
            def _(shape=_shape, p=_p, mode=_mode):
                x = torch.from_numpy(f32(f"pad_x{len(shape)}", shape))
                tp = tuple(k for q in reversed(p[2:]) for k in (q, q))
                return lambda: torch.nn.functional.pad(x, tp, mode=mode)


# ------------------------------------------------------------------ tiny (the call is the cost)
TINY = 4 * 4 * 4


@case("tiny 4x4 f32 reverse last axis", "strided sd.slice")
def _():
    a = np.arange(16, dtype=np.float32).reshape(4, 4)
    return lambda: sd.slice(a, (0, 0), (4, 4), (1, -1))  # constant tuples, as numpy's a[:, ::-1]


@case("tiny 4x4 f32 reverse last axis", "strided sd.slice, list literals")
def _():
    a = np.arange(16, dtype=np.float32).reshape(4, 4)
    return lambda: sd.slice(a, [0, 0], [4, 4], [1, -1])  # the caller builds three lists per call


@case("tiny 4x4 f32 reverse last axis", "numpy a[:, ::-1].copy()")
def _():
    a = np.arange(16, dtype=np.float32).reshape(4, 4)
    return lambda: a[:, ::-1].copy()


@case("tiny 4x4 f32 reverse last axis", "strided CompiledOperator.execute")
def _():
    t = sd.TensorDesc(sd.DataType.FLOAT32, [4, 4])
    op = sd.compile(sd.Slice1Desc(t, t, [0, 0], [4, 4], [1, -1]))
    a = np.arange(16, dtype=np.float32).reshape(4, 4)
    o = np.empty_like(a)
    ins, outs = [a], [o]
    return lambda: op.execute(ins, outs)


@case("tiny 4x4 f32 split axis=1 in 2", "strided sd.split")
def _():
    a = np.arange(16, dtype=np.float32).reshape(4, 4)
    return lambda: sd.split(a, 2, axis=1)


@case("tiny 4x4 f32 split axis=1 in 2", "numpy split+ascontiguousarray")
def _():
    a = np.arange(16, dtype=np.float32).reshape(4, 4)
    return lambda: [np.ascontiguousarray(p) for p in np.split(a, 2, axis=1)]


@case("tiny 4x4 f32 split axis=1 in 2", "strided CompiledOperator.execute")
def _():
    t = sd.TensorDesc(sd.DataType.FLOAT32, [4, 4])
    h = sd.TensorDesc(sd.DataType.FLOAT32, [4, 2])
    op = sd.compile(sd.SplitDesc(t, [h, h], 1))
    a = np.arange(16, dtype=np.float32).reshape(4, 4)
    ins, outs = [a], [np.empty((4, 2), np.float32), np.empty((4, 2), np.float32)]
    return lambda: op.execute(ins, outs)


# ------------------------------------------------------------------ argwhere, flip, permute_dims
# argwhere of 16M float32 elements, exactly half of them non-zero in a random pattern (8M rows of
# int64 coordinates: bytes/second counts those written); a fresh result per call, as numpy's.
_NZ = 16 * MiB


def _nonzero_input(shape):
    k = f"nz:{shape}"
    if k not in _cache:
        flags = np.random.default_rng(0).permutation(_NZ) < _NZ // 2
        _cache[k] = np.where(flags, np.float32(1.5), np.float32(0)).reshape(shape)
    return _cache[k]


for _shape in [(4096, 4096), (_NZ,)]:
    _group = f"argwhere f32 {'x'.join(map(str, _shape))}, 50% non-zero (int64 result)"
    _bytes = (_NZ // 2) * len(_shape) * 8

    @case(_group, "strided", _bytes)
    def _(shape=_shape):
        a = _nonzero_input(shape)
        return lambda: sd.argwhere(a)

    @case(_group, "numpy", _bytes)
    def _(shape=_shape):
        a = _nonzero_input(shape)
        return lambda: np.argwhere(a)

    if torch is not None:

        @case(_group, "torch", _bytes)
        def _(shape=_shape):
            t = torch.from_numpy(_nonzero_input(shape))
            return lambda: torch.nonzero(t)


# flip and permute_dims materialise a view: numpy's equivalent is np.ascontiguousarray of it.
_fresh(
    "fresh flip both axes f32 4096x8192",
    lambda: (lambda a: lambda: sd.flip(a))(f32("a2", (4096, 8192))),
    lambda: (lambda a: lambda: np.ascontiguousarray(np.flip(a)))(f32("a2", (4096, 8192))),
)
_fresh(
    "fresh permute_dims (1, 0) f32 4096x8192",
    lambda: (lambda a: lambda: sd.permute_dims(a, (1, 0)))(f32("a2", (4096, 8192))),
    lambda: (lambda a: lambda: np.ascontiguousarray(a.transpose(1, 0)))(f32("a2", (4096, 8192))),
)
_fresh(
    "fresh permute_dims (2, 0, 1) f32 512x256x256",
    lambda: (lambda a: lambda: sd.permute_dims(a, (2, 0, 1)))(f32("a3", (512, 256, 256))),
    lambda: (lambda a: lambda: np.ascontiguousarray(a.transpose(2, 0, 1)))(f32("a3", (512, 256, 256))),
)
# ------------------------------------------------------------------ XLA tiled layouts
# f32[1024,1024]{1,0:T(8,128)} (SPEC 5.1, the TPU's float tiling): 4 MiB, a (128,8,8,128)
# permuted copy. Fresh results (as xla.to_physical returns); numpy/torch spell the same
# reshape+transpose+copy; the memcpy row moves the same 4 MiB between preallocated buffers.
XLA_T = "f32[1024,1024]{1,0:T(8,128)}"
XLA_G = f"xla {XLA_T} (4 MiB)"
XLA_BYTES = 4 * MiB


def _xla_x():
    return f32("xla_x", (1024, 1024))


@case(XLA_G, "memcpy 4 MiB (--threads, preallocated)", XLA_BYTES)
def _():
    s, d = arr("xla_m", XLA_BYTES, np.uint8), arr("xla_mo", XLA_BYTES, np.uint8, False)
    return lambda: _core._memcpy(d, s, sd.get_num_threads())


@case(XLA_G, "numpy x.copy() (fresh, untiled)", XLA_BYTES)
def _():
    x = _xla_x()
    return lambda: x.copy()


@case(XLA_G, "strided xla.to_physical", XLA_BYTES)
def _():
    x, shape = _xla_x(), sd.xla.Shape.parse(XLA_T)
    return lambda: sd.xla.to_physical(x, shape)


@case(XLA_G, "strided xla.from_physical", XLA_BYTES)
def _():
    shape = sd.xla.Shape.parse(XLA_T)
    buf = sd.xla.to_physical(_xla_x(), shape)
    return lambda: sd.xla.from_physical(buf, shape)


@case(XLA_G, "numpy reshape+transpose+ascontiguousarray", XLA_BYTES)
def _():
    x = _xla_x()
    return lambda: np.ascontiguousarray(x.reshape(128, 8, 8, 128).transpose(0, 2, 1, 3)).reshape(-1)


# ------------------------------------------------------------------ generate: full, eye, triu, arange
# Writes only (no input read except triu's). "strided" writes a preallocated out=; "fresh" rows
# allocate the result (strided: its result pool), as numpy's np.eye / np.triu / np.arange must.
EYE = (4096, 4096)  # 64 MiB of float32


@case("full f32 (128 MiB)", "strided")
def _():
    o = f32("o", (N // 4,), False)
    return lambda: sd.full(o.shape, 2.5, out=o)


@case("full f32 (128 MiB)", "numpy")
def _():
    o = f32("o", (N // 4,), False)
    return lambda: o.fill(2.5)


@case(f"eye {EYE[0]}x{EYE[1]} f32", "strided", EYE[0] * EYE[1] * 4)
def _():
    o = f32("o", EYE, False)
    return lambda: sd.eye(EYE, out=o)


@case(f"eye {EYE[0]}x{EYE[1]} f32", "strided fresh", EYE[0] * EYE[1] * 4)
def _():
    return lambda: sd.eye(EYE, "float32")


@case(f"eye {EYE[0]}x{EYE[1]} f32", "numpy", EYE[0] * EYE[1] * 4)
def _():
    return lambda: np.eye(*EYE, dtype=np.float32)


@case(f"triu {EYE[0]}x{EYE[1]} f32", "strided", EYE[0] * EYE[1] * 4)
def _():
    a, o = f32("a", EYE), f32("o", EYE, False)
    return lambda: sd.diagonal_fill(EYE, "float32", -(2**31), 0, 0, input=a, out=o)


@case(f"triu {EYE[0]}x{EYE[1]} f32", "strided fresh", EYE[0] * EYE[1] * 4)
def _():
    a = f32("a", EYE)
    return lambda: sd.triu(a)


@case(f"triu {EYE[0]}x{EYE[1]} f32", "numpy", EYE[0] * EYE[1] * 4)
def _():
    a = f32("a", EYE)
    return lambda: np.triu(a)


@case("arange 16M int64", "strided")
def _():
    o = arr("o", (N // 8,), np.int64, False)
    return lambda: sd.fill_sequence(o.shape, 0, 1, out=o)


@case("arange 16M int64", "strided fresh")
def _():
    return lambda: sd.arange(N // 8)


@case("arange 16M int64", "numpy")
def _():
    return lambda: np.arange(N // 8)


@case("arange 16M f32", "strided fresh", N // 2)
def _():
    return lambda: sd.arange(0.0, N // 8 * 0.5, 0.5, dtype="float32")


@case("arange 16M f32", "numpy", N // 2)
def _():
    return lambda: np.arange(0.0, N // 8 * 0.5, 0.5, dtype=np.float32)


# In the cache (256K elements, out=): the arithmetic is the bound, not the memory. float16 goes
# through binary64 and one rounding (SPEC 3.13), eight at a time with F16C where exact.
for _dt in ("float16", "float32", "float64"):
    _G = f"arange 256K {_dt} (in cache)"
    _NB = (1 << 18) * np.dtype(_dt).itemsize

    @case(_G, "strided", _NB)
    def _(dt=_dt):
        o = arr(f"seq_{dt}", (1 << 18,), np.dtype(dt), False)
        return lambda: sd.fill_sequence(o.shape, 0.0, 0.5, out=o)

    @case(_G, "numpy", _NB)
    def _(dt=_dt):
        return lambda: np.arange(0.0, (1 << 18) * 0.5, 0.5, dtype=dt)

    if torch is not None:

        @case(_G, "torch arange(out=)", _NB)
        def _(dt=_dt):
            o = torch.empty(1 << 18, dtype=getattr(torch, dt))
            return lambda: torch.arange(0.0, (1 << 18) * 0.5, 0.5, out=o)


if torch is not None:

    @case(XLA_G, "torch view+permute+contiguous", XLA_BYTES)
    def _():
        x = torch.from_numpy(_xla_x())
        return lambda: x.view(128, 8, 8, 128).permute(0, 2, 1, 3).contiguous().view(-1)

    @case("full f32 (128 MiB)", "torch")
    def _():
        to = torch.from_numpy(f32("o", (N // 4,), False))
        return lambda: to.fill_(2.5)

    @case(f"eye {EYE[0]}x{EYE[1]} f32", "torch", EYE[0] * EYE[1] * 4)
    def _():
        to = torch.from_numpy(f32("o", EYE, False))
        return lambda: torch.eye(*EYE, out=to)

    @case(f"triu {EYE[0]}x{EYE[1]} f32", "torch", EYE[0] * EYE[1] * 4)
    def _():
        ta, to = torch.from_numpy(f32("a", EYE)), torch.from_numpy(f32("o", EYE, False))
        return lambda: torch.triu(ta, out=to)

    @case("arange 16M int64", "torch")
    def _():
        to = torch.from_numpy(arr("o", (N // 8,), np.int64, False))
        return lambda: torch.arange(N // 8, out=to)


# ------------------------------------------------------------------ driver
def register_all(selected: str) -> None:
    for group, name, nbytes, make in CASES:
        full = f"{group} | {name}"
        if selected and not any(s in full for s in selected.split(",")):
            continue
        try:
            make()()  # an older build (benchmarks/ab_suites.py) may not have the function yet
        except AttributeError:
            continue

        def bench(state, make=make, nbytes=nbytes):
            fn = make()
            fn()  # warm: pages faulted, plan cached
            while state:
                fn()
            state.bytes_processed = state.iterations * nbytes

        tiny = group.startswith("tiny")
        opts = gb.option.use_real_time()(bench)
        opts = gb.option.unit(gb.kMicrosecond if tiny else gb.kMillisecond)(opts)
        gb.register(opts, name=full)


def table(path: str) -> str:
    with open(path) as f:
        data = json.load(f)
    med: Dict[str, Tuple[float, float]] = {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name") == "median":
            name = b["run_name"].split("/")[0]  # drop google-benchmark's "/real_time" suffix
            scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[b.get("time_unit", "us")]
            med[name] = (b["real_time"] * scale, b.get("bytes_per_second", 0.0))  # microseconds
    ref = med.get("ref | memcpy", (0.0, 0.0))[1]
    ref1 = med.get("ref | memcpy_1thread", (0.0, 0.0))[1]
    wref = med.get("ref | memset", (0.0, 0.0))[1]
    rows = [
        "| case | implementation | median time | GB/s | / memcpy (run's threads) | / memcpy (1 thr) |",
        "|---|---|---|---|---|---|",
    ]
    for group, name, _nbytes, _ in CASES:
        full = f"{group} | {name}"
        if full not in med:
            continue
        t, bps = med[full]
        if group.startswith("tiny"):
            rows.append(f"| {group} | {name} | {t:.2f} us | | | |")  # the call is the cost
            continue
        ratio = f"{bps / ref:.2f}" if ref else ""
        if group.startswith("broadcast") and wref:
            ratio += f" ({bps / wref:.2f} of memset)"
        ratio1 = f"{bps / ref1:.2f}" if ref1 else ""
        rows.append(f"| {group} | {name} | {t / 1e3:.1f} ms | {bps / 1e9:.2f} | {ratio} | {ratio1} |")
    return "\n".join(rows)


if __name__ == "__main__":
    import _runner

    _runner.main(register_all, table, torch, "0.3s")
