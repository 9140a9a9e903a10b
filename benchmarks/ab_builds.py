"""A/B of two builds of strided on the index operators, interleaved: each round runs one child
process per build, alternating, and each child prints the median of N timed calls per case.

    python benchmarks/ab_builds.py OLD_BUILD/python NEW_BUILD/python [--rounds 3] [--reps 9]

Cases: float32 2048x4096 with random int64 indices (fixed seed), 2 threads, outputs
preallocated (the bench_index.py arrays). Use it to check that a change to the kernels costs
nothing; bench_index.py compares against numpy and torch.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

CHILD = r"""
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
for name, f in cases.items():
    f()
    ts = []
    for _ in range(int(sys.argv[1])):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    print(f"{name}\t{sorted(ts)[len(ts) // 2] * 1e3:.2f}")
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--reps", type=int, default=9)
    a = ap.parse_args()
    rows: dict[str, list[str]] = {}
    for _ in range(a.rounds):
        for path in (a.old, a.new):
            env = dict(os.environ, PYTHONPATH=path)
            r = subprocess.run(
                [sys.executable, "-c", CHILD, str(a.reps)], env=env, capture_output=True, text=True, check=True
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
