"""NCHW <-> NHWC over a range of channel counts, per SIMD target, into planes that crowd one L1
set (64 x 64: planes 8-16 KiB apart) and planes that do not (60 x 60): the sweep that finds the
channel counts a kernel path leaves slow. One thread, about 1 MiB a call (in the cache; `--mib
32`: past the stream threshold, where many channels mean as many source or destination streams),
GB/s, medians; every output checked against numpy.

    python benchmarks/channel_sweep.py [--dtype float16] [--dir l2c|c2l] [--channels 2-64]
        [--sides 64,60] [--targets avx2,avx512] [--mib 1] [--calls 60] [--reps 3]

l2c: NHWC -> NCHW (pixels into planes); c2l: NCHW -> NHWC. No memcpy ratio: the rows compare
channel counts and targets with each other; benchmarks/compare.py holds the goals.
"""

from __future__ import annotations

import argparse
import time
from typing import List

import numpy as np

import strided as sd
from strided import _core


def _channels(spec: str) -> List[int]:
    out: List[int] = []
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        out += list(range(int(lo), int(hi or lo) + 1))
    return out


def _rate(dtype: np.dtype, direction: str, side: int, c: int, mib: float, calls: int, reps: int) -> float:
    n = max(1, int(mib * (1 << 20)) // (c * side * side * dtype.itemsize))
    shape, axes = ((n, side, side, c), (0, 3, 1, 2)) if direction == "l2c" else ((n, c, side, side), (0, 2, 3, 1))
    x = (np.arange(np.prod(shape)) % 251).astype(dtype).reshape(shape)
    out = np.empty(tuple(shape[a] for a in axes), dtype)
    sd.copy(x.transpose(axes), out=out)
    np.testing.assert_array_equal(out, x.transpose(axes))
    rates = []
    for _ in range(reps):
        ts = []
        for _ in range(calls):
            t = time.perf_counter()
            sd.copy(x.transpose(axes), out=out)
            ts.append(time.perf_counter() - t)
        rates.append(x.nbytes / float(np.median(ts)) / 1e9)
    return float(np.median(rates))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--dir", default="l2c", choices=("l2c", "c2l"))
    ap.add_argument("--channels", default="2-16,20,24,28,32,36,40,48,56,64")
    ap.add_argument("--sides", default="64,60")
    ap.add_argument("--targets", default="", help="SIMD targets, comma-separated (default: every compiled one)")
    ap.add_argument("--mib", type=float, default=1.0, help="bytes a call, MiB (default 1: in the cache)")
    ap.add_argument("--calls", type=int, default=60)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    dtype = np.dtype(args.dtype)
    targets = args.targets.split(",") if args.targets else [t for t in _core._simd_targets() if t != "scalar"]
    channels = _channels(args.channels)
    sides = [int(s) for s in args.sides.split(",")]
    sd.set_num_threads(1)
    print(f"{dtype.name} {args.dir}, {args.mib:g} MiB a call, one thread, GB/s; columns: C")
    print("| target | planes | " + " | ".join(str(c) for c in channels) + " |")
    print("|---|---|" + "---|" * len(channels))
    for target in targets:
        _core._set_simd(target)
        for side in sides:
            row = [f"{_rate(dtype, args.dir, side, c, args.mib, args.calls, args.reps):.0f}" for c in channels]
            print(f"| {target} | {side} x {side} | " + " | ".join(row) + " |")
    _core._set_simd(sd.build_info()["simd"])


if __name__ == "__main__":
    main()
