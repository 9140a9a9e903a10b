"""Per-call time of tiny calls (8x8 float32 and the like): strided's Python layer and the
library's fixed costs against numpy's nearest equivalent, in the same process.

    python benchmarks/small_calls.py [--calls N] [--reps R]

Each row: the median over R repetitions of N calls, in microseconds per call, and strided / numpy
(below 1: strided is faster). No memcpy ratio: these calls move a few hundred bytes; the time is
argument checks, the cached plan's lookup and the result's allocation.
"""

from __future__ import annotations

import argparse
import time
from typing import Callable, Dict, Optional, Tuple

import numpy as np

import strided as sd

x = np.arange(64, dtype=np.float32).reshape(8, 8)
x4 = np.arange(64, dtype=np.float32).reshape(1, 4, 4, 4)
i1 = np.array([1, 3, 5], np.int64)
ie = np.zeros((8, 8), np.int64)
ind = np.array([[1, 2], [3, 4]], np.int64)
u = np.ones((8, 8), np.float32)
out = np.empty((8, 8), np.float32)
oh = np.array([0, 2, 1], np.int64)
mask = [True, False] * 4

Case = Tuple[Callable[[], object], Optional[Callable[[], object]]]
CASES: Dict[str, Case] = {
    "cast to np.float16": (lambda: sd.cast(x, np.float16), lambda: x.astype(np.float16)),
    "cast to 'int32'": (lambda: sd.cast(x, "int32"), lambda: x.astype("int32")),
    "copy out=": (lambda: sd.copy(x, out), lambda: np.copyto(out, x)),
    "slice step 2": (lambda: sd.slice(x, [0, 0], [4, 4], [2, 2]), lambda: x[0:8:2, 0:8:2].copy()),
    "split in 2": (lambda: sd.split(x, [4, 4], axis=1), lambda: np.split(x, 2, axis=1)),
    "concat 2": (lambda: sd.concat([x, x], axis=1), lambda: np.concatenate([x, x], axis=1)),
    "gather 3 columns": (lambda: sd.gather(x, i1, axis=1), lambda: np.take(x, i1, axis=1)),
    "gather_elements": (lambda: sd.gather_elements(x, ie, axis=1), lambda: np.take_along_axis(x, ie, 1)),
    "gather_nd 2 points": (lambda: sd.gather_nd(x, ind), lambda: x[ind[:, 0], ind[:, 1]]),
    "scatter": (lambda: sd.scatter(x, ie, u, axis=1), lambda: np.put_along_axis(x.copy(), ie, u, 1)),
    "tile 2x2": (lambda: sd.tile(x, (2, 2)), lambda: np.tile(x, (2, 2))),
    "pad 1": (lambda: sd.pad(x, [1, 1], [1, 1]), lambda: np.pad(x, 1)),
    "flip": (lambda: sd.flip(x, 1), lambda: np.flip(x, 1).copy()),
    "permute_dims": (lambda: sd.permute_dims(x, (1, 0)), lambda: np.ascontiguousarray(x.T)),
    "broadcast_to": (lambda: sd.broadcast_to(x[:1], (8, 8)), lambda: np.broadcast_to(x[:1], (8, 8)).copy()),
    "tril": (lambda: sd.tril(x), lambda: np.tril(x)),
    "full": (lambda: sd.full((8, 8), 3.0, np.float32), lambda: np.full((8, 8), 3.0, np.float32)),
    "eye": (lambda: sd.eye((8, 8), np.float32), lambda: np.eye(8, dtype=np.float32)),
    "arange 64": (lambda: sd.arange(0, 64, 1, np.float32), lambda: np.arange(0, 64, 1, np.float32)),
    "one_hot depth 4": (lambda: sd.one_hot(oh, 4), lambda: np.eye(4, dtype=np.float32)[oh]),
    "argwhere": (lambda: sd.argwhere(x), lambda: np.argwhere(x)),
    "compress": (lambda: sd.compress(x, mask, axis=1), lambda: np.compress(mask, x, axis=1)),
    "depth_to_space 2": (lambda: sd.depth_to_space(x4, 2), None),
    "unfold 2x2": (lambda: sd.unfold(x4, (2, 2)), None),
    "TensorDesc.from_array": (lambda: sd.TensorDesc.from_array(x), None),
}


def per_call_us(f: Callable[[], object], calls: int, reps: int) -> float:
    for _ in range(calls // 4):
        f()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(calls):
            f()
        times.append((time.perf_counter() - t) / calls * 1e6)
    return sorted(times)[reps // 2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--reps", type=int, default=7)
    args = ap.parse_args()
    print(f"{'call':24s} {'strided us':>10s} {'numpy us':>9s} {'ratio':>6s}")
    for name, (ours, theirs) in CASES.items():
        a = per_call_us(ours, args.calls, args.reps)
        if theirs is None:
            print(f"{name:24s} {a:10.2f} {'-':>9s} {'-':>6s}")
            continue
        b = per_call_us(theirs, args.calls, args.reps)
        print(f"{name:24s} {a:10.2f} {b:9.2f} {a / b:6.2f}")


if __name__ == "__main__":
    main()
