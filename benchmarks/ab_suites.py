"""Every benchmark suite of this folder on two builds, interleaved: each round runs each suite
once per build, alternating, and the table gives each row's median over the rounds of
google-benchmark's per-run medians, and new / old. Rows of the peers (numpy, torch, memcpy) are
the same code in both builds: their ratios show the machine's noise.

    python benchmarks/ab_suites.py OLD_BUILD/python NEW_BUILD/python [--rounds 3] [--reps 3]
                                   [--suites bench_copy.py bench_index.py] [--filter TEXT]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from typing import Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))


def run(suite: str, path: str, reps: int, flt: str) -> Dict[str, float]:
    cmd = [
        sys.executable,
        os.path.join(HERE, suite),
        "--benchmark_format=json",
        f"--benchmark_repetitions={reps}",
        "--benchmark_report_aggregates_only=true",
        "--benchmark_min_time=0.2s",
    ]
    if flt:
        cmd += ["--filter", flt]
    r = subprocess.run(cmd, env=dict(os.environ, PYTHONPATH=path), capture_output=True, text=True, check=True)
    data = json.loads(r.stdout[r.stdout.index("{") :])
    out = {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name") == "median":
            scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[b.get("time_unit", "us")]
            out[f"{suite[6:-3]}: {b['run_name'].split('/')[0]}"] = b["real_time"] * scale
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--suites", nargs="+", default=["bench_copy.py", "bench_index.py"])
    ap.add_argument("--filter", default="")
    a = ap.parse_args()
    times: Dict[str, Dict[str, List[float]]] = {}
    for rnd in range(a.rounds):
        for suite in a.suites:
            for label, path in (("old", a.old), ("new", a.new)) if rnd % 2 == 0 else (("new", a.new), ("old", a.old)):
                for name, t in run(suite, path, a.reps, a.filter).items():
                    times.setdefault(name, {"old": [], "new": []})[label].append(t)
        print(f"round {rnd + 1} of {a.rounds} done", file=sys.stderr, flush=True)
    print("| row | old (us, median) | new (us, median) | new / old |")
    print("|---|---|---|---|")
    for name, t in times.items():
        if t["old"] and t["new"]:
            o, n = statistics.median(t["old"]), statistics.median(t["new"])
            print(f"| {name} | {o:.2f} | {n:.2f} | {n / o:.3f} |")


if __name__ == "__main__":
    main()
