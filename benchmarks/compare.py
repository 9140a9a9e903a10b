"""The whole peer table: every group of benchmarks/peers_*.py, strided against numpy, torch,
ONNX Runtime (where installed) and a memcpy of the same bytes (and, for the memcpy goals, a copy
whose stores stream: the bound of a kernel that streams its output), interleaved in one run, with
each group's goals and whether the medians meet them.

    PYTHONPATH=build/<dir>/python python benchmarks/compare.py --table [--threads 2] [--reps 7]
        [--filter S] [--busy K]

--busy K starts K processes that spin on a core each for the whole run (the "busy machine" rows
of the goals: strided's default against strided on one thread under the same load).
Without --table it is google-benchmark's own output. The C++ oneDNN rows are in
benchmarks/bench_copy.cpp (built with -DSTRIDED_BUILD_BENCHMARKS=ON).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Callable, Dict, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # numpy's idle BLAS threads would spin on the cores measured

try:
    import google_benchmark as gb
except ImportError:  # pragma: no cover
    sys.exit("compare.py needs google-benchmark: pip install google-benchmark (the 'bench' extra)")

import _optional  # first: torch before strided (its docstring says why)
import _peers
import strided as sd
import _runner

torch = _optional.torch


def _one_thread(make: Callable[[], Callable[[], object]]) -> Callable[[], Callable[[], object]]:
    def make1() -> Callable[[], object]:
        f = make()

        def run() -> None:
            t = sd.get_num_threads()
            sd.set_num_threads(1)
            try:
                f()
            finally:
                sd.set_num_threads(t)

        return run

    return make1


def _rows() -> List[Tuple[_peers.Group, str, Callable[[], Callable[[], object]]]]:
    rows = []
    for g in _peers.GROUPS:
        impls = dict(g.impls)
        if any(goal.kind == "memcpy" for goal in g.goals):
            impls["memcpy"] = _peers.memcpy_make(g.nbytes)
            impls["memcpy streamed"] = _peers.memcpy_streamed_make(g.nbytes)
        if any(goal.kind == "one_thread" for goal in g.goals) and "strided" in impls:
            impls["strided @1"] = _one_thread(impls["strided"])
        rows += [(g, name, make) for name, make in impls.items()]
    return rows


def register_all(selected: str) -> None:
    for g, name, make in _rows():
        full = f"{g.name} | {name}"
        if selected and not any(s in full for s in selected.split(",")):
            continue

        def bench(state, make=make, nbytes=g.nbytes):
            fn = make()
            fn()  # warm: pages faulted, plan cached
            while state:
                fn()
            state.bytes_processed = state.iterations * nbytes

        opts = gb.option.use_real_time()(bench)
        opts = gb.option.unit(gb.kMillisecond if g.nbytes >= (1 << 20) else gb.kMicrosecond)(opts)
        gb.register(opts, name=full)


def _goal_ratio(goal: _peers.Goal, t: Dict[str, float]) -> Optional[float]:
    s = t.get("strided")
    if s is None:
        return None
    if goal.kind == "peers":
        have = [t[n] for n in goal.names if n in t]
        return min(have) / s if have else None
    other = t.get("memcpy" if goal.kind == "memcpy" else "strided @1")
    return other / s if other is not None else None


def table(path: str) -> str:
    with open(path) as f:
        data = json.load(f)
    med: Dict[str, float] = {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name") == "median":
            scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[b.get("time_unit", "us")]
            med[b["run_name"].split("/")[0]] = b["real_time"] * scale  # microseconds
    lines = [
        "| group | implementation | median | GB/s | strided's speed-up |",
        "|---|---|---|---|---|",
    ]
    # "of streamed": strided against a copy of the same bytes whose stores stream (_peers.py,
    # memcpy_streamed_make), for the memcpy goals: where glibc's memcpy runs from the cache
    # (12-16 MiB here), the goal can sit above what any kernel that streams its output reaches.
    goals = ["", "| group | goal | ratio | met | of streamed |", "|---|---|---|---|---|"]
    met = total = 0
    for g in _peers.GROUPS:
        t = {
            name: med[f"{g.name} | {name}"]
            for name in list(g.impls) + ["memcpy", "memcpy streamed", "strided @1"]
            if f"{g.name} | {name}" in med
        }
        if not t:
            continue
        for name, us in t.items():
            unit = f"{us / 1e3:.2f} ms" if us >= 1e3 else f"{us:.1f} us"
            up = f"{us / t['strided']:.2f}x" if "strided" in t and name != "strided" else ""
            lines.append(f"| {g.name} | {name} | {unit} | {g.nbytes / us / 1e3:.2f} | {up} |")
        for goal in g.goals:
            r = _goal_ratio(goal, t)
            ok = r is not None and r >= goal.k
            total += r is not None
            met += ok
            st = t.get("memcpy streamed") if goal.kind == "memcpy" else None
            of_st = f"{st / t['strided']:.2f}" if st is not None and "strided" in t else ""
            goals.append(
                f"| {g.name} | {goal.text()} | {'n/a' if r is None else f'{r:.2f}'} | {'yes' if ok else 'NO' if r is not None else ''} | {of_st} |"
            )
    goals.append(f"\n{met} of {total} measured goals met.")
    return "\n".join(lines + goals)


def main() -> None:
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("--busy", type=int, default=0, help="processes spinning on a core each during the run")
    ap.add_argument("--suites", default="", help="peers_<name>.py modules to load, comma-separated (default all)")
    args, rest = ap.parse_known_args()
    sys.argv = [sys.argv[0], *rest]
    _peers.BUSY = args.busy
    _peers.load_suites(args.suites)
    if args.busy:
        print(f"{args.busy} spinning processes started (a busy machine)")
    with _peers.busy(args.busy):
        _runner.main(register_all, table, torch, "0.2s")


if __name__ == "__main__":
    main()
