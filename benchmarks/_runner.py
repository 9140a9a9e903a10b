"""Shared command line of the benchmark scripts (google-benchmark's Python package).

`python benchmarks/bench_X.py [--table] [--reps N] [--threads T] [--filter S] [google-benchmark flags]`:
with --table, repetitions run interleaved and a markdown table of medians is printed at the end.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from typing import Any, Callable

import google_benchmark as gb
import numpy as np

import strided as sd


def main(register_all: Callable[[str], None], table: Callable[[str], str], torch: Any, min_time: str) -> None:
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("--table", action="store_true", help="print a markdown table of medians at the end")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--filter", default="", help="substrings of 'group | implementation' to run, comma-separated")
    args, rest = ap.parse_known_args()
    sd.set_num_threads(args.threads)
    if torch is not None:
        torch.set_num_threads(args.threads)
    register_all(args.filter)
    argv = [sys.argv[0], *rest]
    out = None
    if args.table:
        fd, out = tempfile.mkstemp(suffix=".json")
        os.close(fd)
        argv += [
            f"--benchmark_out={out}",
            "--benchmark_out_format=json",
            f"--benchmark_repetitions={args.reps}",
            "--benchmark_enable_random_interleaving=true",
            "--benchmark_report_aggregates_only=true",
            f"--benchmark_min_time={min_time}",
        ]
    gb.main(argv)
    if out and os.path.getsize(out) == 0:  # google-benchmark ran nothing (and wrote nothing)
        os.unlink(out)
        sys.exit(f"no benchmark matched --filter {args.filter!r} (substrings of 'group | implementation')")
    if out:
        info = sd.build_info()
        print(
            f"\nstrided {info['version']}, simd {info['simd']}, threads {args.threads}, numpy {np.__version__}"
            + (f", torch {torch.__version__}" if torch is not None else "")
            + f"; medians of {args.reps}\n"
        )
        print(table(out))
        os.unlink(out)
