"""Thread scaling of the peer table's groups (benchmarks/peers_*.py): strided, a memcpy of the same
bytes and torch at each thread count, numpy and ONNX Runtime once, all interleaved in one run.

    PYTHONPATH=build/<dir>/python python benchmarks/scaling.py [--threads 1,2,4,8,16] [--reps 5]
        [--suites layout,index] [--filter S] [--min-time 0.05]

Needs only numpy (torch and onnxruntime when installed), not google-benchmark, so it runs on a
machine where nothing can be installed. Each measurement times back-to-back calls for at least
--min-time seconds; the order of all (group, implementation, threads) measurements is shuffled in
every repetition, and the table quotes medians. Per group it prints, for each thread count:
strided's time, memcpy's, strided as a fraction of memcpy, strided's speed-up over its own one
thread run, and torch at the same thread count. The summary checks issue 14's many-core goals:
transposes/relayouts >= 0.6 of memcpy at the largest thread count and monotone (no thread count
more than 5% slower than a smaller one), scatter_nd >= 6x from 1 thread to the largest count.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from typing import Callable, Dict, List, Tuple

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # numpy's idle BLAS threads would spin on the cores measured

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _optional  # noqa: E402  # first: torch before strided (its docstring says why)
import _peers  # noqa: E402
import strided as sd  # noqa: E402

torch = _optional.torch

Key = Tuple[str, str, int]  # group, implementation, threads (0: the implementation's own default)
_THREADED = ("strided", "memcpy", "torch")


def _set_threads(t: int) -> None:
    sd.set_num_threads(t)
    if torch is not None:
        torch.set_num_threads(t)


def _fmt(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.1f} us"


def _time(fn: Callable[[], object], min_time: float) -> float:
    """Seconds per call: back-to-back calls for at least min_time (after one warm call)."""
    fn()
    n, t0 = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        dt = time.perf_counter() - t0
        if dt >= min_time:
            return dt / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    cpus = os.cpu_count() or 1
    sweep = sorted({1, *(t for t in (2, 4, 8, 16, 32, 64) if t < cpus), cpus})
    ap.add_argument("--threads", default=",".join(map(str, sweep)), help="thread counts, comma-separated")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--suites", default="layout,index", help="peers_<name>.py modules (default layout,index)")
    ap.add_argument("--filter", default="", help="substrings of group names, comma-separated")
    ap.add_argument("--min-time", type=float, default=0.05, help="seconds per measurement")
    ap.add_argument("--busy", type=int, default=0, help="processes spinning on a core each during the run")
    args = ap.parse_args()
    counts = [int(t) for t in args.threads.split(",")]
    _peers.BUSY = args.busy
    _peers.load_suites(args.suites)
    with _peers.busy(args.busy):
        _run(args, counts)


def _run(args: argparse.Namespace, counts: List[int]) -> None:
    cpus = os.cpu_count() or 1
    groups = [g for g in _peers.GROUPS if not args.filter or any(s in g.name for s in args.filter.split(","))]

    fns: Dict[Tuple[str, str], Callable[[], object]] = {}
    keys: List[Key] = []
    for g in groups:
        impls = dict(g.impls)
        impls["memcpy"] = _peers.memcpy_make(g.nbytes)
        for name, make in impls.items():
            fns[(g.name, name)] = make()
            keys += [(g.name, name, t) for t in (counts if name in _THREADED else [0])]
    times: Dict[Key, List[float]] = {k: [] for k in keys}
    rng = random.Random(1)
    t_start = time.perf_counter()
    for rep in range(args.reps):
        order = keys[:]
        rng.shuffle(order)
        for k in order:
            _set_threads(k[2] or max(counts))
            times[k].append(_time(fns[k[:2]], args.min_time))
        print(f"repetition {rep + 1}/{args.reps} done ({time.perf_counter() - t_start:.0f} s)", flush=True)
    med = {k: statistics.median(v) for k, v in times.items()}

    info = sd.build_info()
    print(
        f"\nstrided {info['version']}, simd {info['simd']}, {cpus} CPUs, numpy {np.__version__}"
        + (f", torch {torch.__version__}" if torch is not None else "")
        + (f", {args.busy} spinning processes (a busy machine)" if args.busy else "")
        + f"; medians of {args.reps}\n"
    )
    summary = ["| group | check | value | met |", "|---|---|---|---|"]
    top = max(counts)
    for g in groups:
        print(f"### {g.name}\n")
        print("| threads | strided | memcpy | strided / memcpy | speed-up vs 1 thread | torch | torch / strided |")
        print("|---|---|---|---|---|---|---|")
        s = {t: med[(g.name, "strided", t)] for t in counts if (g.name, "strided", t) in med}
        for t in counts:
            m = med[(g.name, "memcpy", t)]
            tt = med.get((g.name, "torch", t))
            print(
                f"| {t} | {_fmt(s[t])} | {_fmt(m)} | {m / s[t]:.2f} | {s[counts[0]] / s[t]:.2f} | "
                + (f"{_fmt(tt)} | {tt / s[t]:.2f} |" if tt is not None else "| |")
            )
        once = [(n, med[(g.name, n, 0)]) for n in g.impls if (g.name, n, 0) in med]
        if once:
            print(
                f"\nthe other rows, at {top} threads where they take a count: "
                + ", ".join(f"{n} {_fmt(v)} ({v / s[top]:.2f}x strided@{top})" for n, v in once)
            )
        print()
        worst = max(s[b] / s[a] for i, a in enumerate(counts) for b in counts[i + 1 :])
        if any(goal.kind == "memcpy" for goal in g.goals):
            r = med[(g.name, "memcpy", top)] / s[top]
            summary.append(
                f"| {g.name} | >= 0.6 of memcpy at {top} threads | {r:.2f} | {'yes' if r >= 0.6 else 'NO'} |"
            )
            summary.append(
                f"| {g.name} | monotone (worst later/earlier time <= 1.05) | {worst:.2f} | {'yes' if worst <= 1.05 else 'NO'} |"
            )
        if g.name.startswith("scatter_nd"):
            r = s[counts[0]] / s[top]
            summary.append(
                f"| {g.name} | >= 6x from {counts[0]} to {top} threads | {r:.2f} | {'yes' if r >= 6 else 'NO'} |"
            )
        tt = med.get((g.name, "torch", top))
        if tt is not None:
            summary.append(f"| {g.name} | torch / strided at {top} threads | {tt / s[top]:.2f} | |")
    print("\n".join(summary))


if __name__ == "__main__":
    main()
