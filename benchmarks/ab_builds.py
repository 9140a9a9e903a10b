"""A/B of two builds of strided, interleaved: each round runs one child process per build,
alternating, and each child prints the median of N timed calls per case.

    python benchmarks/ab_builds.py OLD_BUILD/python NEW_BUILD/python [--suite index|scatter|layout|pad|steps]
        [--rounds 3] [--reps 9]

index: float32 2048x4096 with random int64 indices (fixed seed), outputs preallocated (the
bench_index.py arrays). scatter: scatter along either axis with int64 and int32 indices, plain
and reduced (add, max), and scatter_nd with 4096-float rows, same arrays. layout: step-2 slices and NHWC -> NCHW transposes into numpy's own
allocations (the compare.py layout rows' cases). Both on 2 threads. pad: reflect, edge and
constant pads by 2 on the last two dimensions, into 34 and 33 MiB outputs (streamed) and cached
ones, on 1 and 2 threads. steps: the engine's kernel steps (sequence, band, one-hot, reverse
subsequences, take, pad and unfold rows), a broadcast copy and two tiny calls, on 2 threads. Use it to check that a kernel change costs nothing, or what it gains;
compare.py holds strided against memcpy and the peers.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

INDEX = r"""
import sys, time
import numpy as np
import strided as sd
sd.set_num_threads(2)
R, C = 2048, 4096
rng = np.random.default_rng(1234)
x = rng.random((R, C), dtype=np.float32); u = rng.random((R, C), dtype=np.float32)
i0 = rng.integers(0, R, (R, C)); i1 = rng.integers(0, C, (R, C))
out = np.empty_like(x)
pts = rng.integers(0, 2048, (1 << 20, 2))
cases = {
    "gather_elements axis 1": lambda: sd.gather_elements(x, i1, axis=1, out=out),
    "gather_elements axis 0": lambda: sd.gather_elements(x, i0, axis=0, out=out),
    "scatter axis 1": lambda: sd.scatter(out, i1, u, axis=1, out=out),
    "scatter axis 0": lambda: sd.scatter(out, i0, u, axis=0, out=out),
    "gather_nd 1M points": lambda: sd.gather_nd(x, pts),
    "gather 1024 rows": lambda: sd.gather(x, i0[0, :1024], axis=0),
}
"""

LAYOUT = r"""
import sys, time
import numpy as np
import strided as sd
sd.set_num_threads(2)
rng = np.random.default_rng(1234)
cases = {}
for dt, shape in ((np.float32, (4096, 8192)), (np.float16, (4096, 8192)), (np.uint8, (4096, 16384))):
    x = (rng.random(shape) * 200).astype(dt)
    o = np.empty((shape[0], shape[1] // 2), dt)
    cases[f"{np.dtype(dt).name} {shape}[:, ::2]"] = lambda x=x, o=o: sd.copy(x[:, ::2], out=o)
for dt, shape in ((np.float32, (8, 64, 128, 128)), (np.float32, (16, 64, 128, 128)), (np.float16, (16, 64, 128, 128)),
                  (np.float32, (4, 24, 256, 256)), (np.float16, (4, 24, 256, 256))):
    n, c, h, w = shape
    x = rng.random((n, h, w, c), dtype=np.float32).astype(dt)
    o = np.empty(shape, dt)
    cases[f"NHWC->NCHW {np.dtype(dt).name} {shape}"] = lambda x=x, o=o: sd.copy(x.transpose(0, 3, 1, 2), out=o)
"""

PAD = r"""
import sys, time
import numpy as np
import strided as sd
rng = np.random.default_rng(1234)
cases = {}
for shape in ((8, 64, 128, 128), (4, 32, 256, 256), (4, 64, 64, 64), (64, 100, 100)):
    x = rng.random(shape, dtype=np.float32)
    p = (0,) * (len(shape) - 2) + (2, 2)
    o = np.empty(shape[:-2] + (shape[-2] + 4, shape[-1] + 4), np.float32)
    for mode in ("reflect", "edge", "constant"):
        for t in (1, 2):
            def f(x=x, p=p, o=o, mode=mode, t=t):
                sd.set_num_threads(t)
                sd.pad(x, p, p, mode, out=o)
            cases[f"pad {shape} by 2 {mode}, {t} thread{'s' if t > 1 else ''} ({o.nbytes >> 20} MiB)"] = f
"""

STEPS = r"""
import sys, time
import numpy as np
import strided as sd
sd.set_num_threads(2)
rng = np.random.default_rng(1234)
x = rng.random((4096, 8192), dtype=np.float32)
o = np.empty_like(x)
sq = rng.random((4096, 4096), dtype=np.float32)
osq = np.empty_like(sq)
lens = rng.integers(0, 4097, (1, 8192))
i1m = rng.integers(0, 32, 1 << 20)
o1h = np.empty((1 << 20, 32), np.float32)
rows = rng.integers(0, 4096, 1024)
og = np.empty((1024, 8192), np.float32)
a64 = np.empty(1 << 24, np.int64)
u = rng.random((1, 64, 56, 56), dtype=np.float32)
ou = np.empty((1, 64 * 9, 56 * 56), np.float32)
p4 = rng.random((8, 64, 128, 128), dtype=np.float32)
op4 = np.empty((8, 64, 132, 132), np.float32)
t4 = rng.random((4, 4), dtype=np.float32)
ot4 = np.empty_like(t4)
ti = rng.integers(0, 4, (4, 4))
cases = {
    "fill_sequence 16M int64": lambda: sd.fill_sequence(a64.shape, 0, 1, out=a64),
    "triu 4096x4096 (fresh)": lambda: sd.triu(sq),
    "eye 4096x4096": lambda: sd.eye((4096, 4096), dtype=np.float32, out=osq),
    "one_hot 1M depth 32": lambda: sd.one_hot(i1m, 32, np.array([0, 1], np.float32), out=o1h),
    "reverse_subsequences axis 0": lambda: sd.reverse_subsequences(x, lens, axis=0, out=o),
    "gather 1024 rows of 8192": lambda: sd.gather(x, rows, axis=0, out=og),
    "pad (8,64,128,128) by 2 reflect": lambda: sd.pad(p4, (0, 0, 2, 2), (0, 0, 2, 2), "reflect", out=op4),
    "unfold (1,64,56,56) 3x3 pad 1": lambda: sd.unfold(u, (3, 3), begin=1, end=1, out=ou),
    "broadcast row 8192 -> 4096x8192": lambda: sd.copy(np.broadcast_to(x[0], x.shape), out=o),
    "tiny 4x4 reverse, 1000 calls": lambda: [sd.copy(t4[:, ::-1], out=ot4) for _ in range(1000)],
    "tiny 4x4 gather_elements, 1000 calls": lambda: [sd.gather_elements(t4, ti, axis=0, out=ot4) for _ in range(1000)],
}
"""

SCATTER = r"""
import sys, time
import numpy as np
import strided as sd
sd.set_num_threads(2)
R, C = 2048, 4096
rng = np.random.default_rng(1234)
x = rng.random((R, C), dtype=np.float32); u = rng.random((R, C), dtype=np.float32)
out = np.empty_like(x)
cases = {}
for dt in (np.int64, np.int32):
    i0 = rng.integers(0, R, (R, C)).astype(dt); i1 = rng.integers(0, C, (R, C)).astype(dt)
    for r in ("none", "add", "max"):
        cases[f"scatter {r} axis 1, {np.dtype(dt).name}"] = lambda i1=i1, r=r: sd.scatter(out, i1, u, axis=1, reduction=r, out=out)
        cases[f"scatter {r} axis 0, {np.dtype(dt).name}"] = lambda i0=i0, r=r: sd.scatter(out, i0, u, axis=0, reduction=r, out=out)
uq = rng.random((512, 4096), dtype=np.float32)
rows = rng.integers(0, R, (512, 1))
for r in ("none", "add"):
    cases[f"scatter_nd {r}, 512 rows of 4096"] = lambda r=r: sd.scatter_nd(out, rows, uq, reduction=r, out=out)
"""

# Each suite fills `cases`; the child then prints each case's median of argv[1] timed calls.
TIMING = r"""
for name, f in cases.items():
    f()
    ts = []
    for _ in range(int(sys.argv[1])):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    print(f"{name}\t{sorted(ts)[len(ts) // 2] * 1e3:.2f}")
"""

SUITES = {
    name: code + TIMING
    for name, code in (
        ("index", INDEX),
        ("scatter", SCATTER),
        ("layout", LAYOUT),
        ("pad", PAD),
        ("steps", STEPS),
    )
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--suite", choices=tuple(SUITES), default="index")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--reps", type=int, default=9)
    a = ap.parse_args()
    rows: dict[str, list[str]] = {}
    for _ in range(a.rounds):
        for path in (a.old, a.new):
            env = dict(os.environ, PYTHONPATH=path)
            r = subprocess.run(
                [sys.executable, "-c", SUITES[a.suite], str(a.reps)],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            for line in r.stdout.splitlines():
                name, ms = line.split("\t")
                rows.setdefault(name, []).append(ms)
    print("| case (ms, medians) | " + " | ".join(f"old / new, round {k + 1}" for k in range(a.rounds)) + " |")
    print("|---" * (a.rounds + 1) + "|")
    for name, v in rows.items():
        print(f"| {name} | " + " | ".join(f"{v[2 * k]} / {v[2 * k + 1]}" for k in range(a.rounds)) + " |")


if __name__ == "__main__":
    main()
