"""Index-operator benchmarks (google-benchmark's Python bindings): strided against numpy
(put_along_axis, take_along_axis, take, fancy indexing) and torch (scatter_, scatter_reduce_,
gather, index_select) when installed, in the same run.

    PYTHONPATH=build/<dir>/python python benchmarks/bench_index.py            # google-benchmark output
    PYTHONPATH=build/<dir>/python python benchmarks/bench_index.py --table    # + markdown table of medians

Large cases: float32 2048x4096, random int64 indices (fixed seed), outputs preallocated where
the library allows it, --threads (default 2) for strided and torch. Scatters run in place
(``out=x``, as put_along_axis and torch's scatter_ do); "strided out=" rows scatter into a
separate preallocated output (copy included). --table runs every case --reps times (default 7)
with random interleaving and prints medians and strided's speed-up over each implementation.
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
    sys.exit("bench_index.py needs google-benchmark: pip install google-benchmark (the 'bench' extra)")

import _optional  # first: torch before strided (its docstring says why)
import strided as sd

torch = _optional.torch

R, C = 2048, 4096
_rng = np.random.default_rng(1234)
_cache: Dict[str, object] = {}


def get(key: str, make: Callable[[], object]):
    if key not in _cache:
        _cache[key] = make()
    return _cache[key]


def x32():
    return get("x", lambda: _rng.random((R, C), dtype=np.float32))


def upd32():
    return get("u", lambda: _rng.random((R, C), dtype=np.float32))


def idx_axis0():
    return get("i0", lambda: _rng.integers(0, R, (R, C), dtype=np.int64))


def idx_axis1():
    return get("i1", lambda: _rng.integers(0, C, (R, C), dtype=np.int64))


def out32(key="o"):
    return get(key, lambda: np.zeros((R, C), np.float32))


def tt(a):
    return torch.from_numpy(a)


# (group, implementation, make(): returns the function to time)
CASES: List[Tuple[str, str, Callable[[], Callable[[], object]]]] = []


def case(group: str, name: str):
    def deco(make):
        CASES.append((group, name, make))
        return make

    return deco


# ------------------------------------------------------------------ scatter
G = "scatter axis=0"


@case(G, "strided")
def _():
    x, i, u = out32("s"), idx_axis0(), upd32()
    return lambda: sd.scatter(x, i, u, axis=0, out=x)


@case(G, "strided out=")
def _():
    x, i, u, o = x32(), idx_axis0(), upd32(), out32()
    return lambda: sd.scatter(x, i, u, axis=0, out=o)


@case(G, "numpy put_along_axis")
def _():
    x, i, u = out32("s"), idx_axis0(), upd32()
    return lambda: np.put_along_axis(x, i, u, axis=0)


G = "scatter axis=1"


@case(G, "strided")
def _():
    x, i, u = out32("s"), idx_axis1(), upd32()
    return lambda: sd.scatter(x, i, u, axis=1, out=x)


@case(G, "numpy put_along_axis")
def _():
    x, i, u = out32("s"), idx_axis1(), upd32()
    return lambda: np.put_along_axis(x, i, u, axis=1)


G = "scatter add axis=0"


@case(G, "strided")
def _():
    x, i, u = out32("s"), idx_axis0(), upd32()
    return lambda: sd.scatter(x, i, u, axis=0, reduction="add", out=x)


@case(G, "numpy add.at")
def _():
    x, i, u = out32("s"), idx_axis0(), upd32()
    cols = np.broadcast_to(np.arange(C), (R, C))
    return lambda: np.add.at(x, (i, cols), u)


# ------------------------------------------------------------------ gather_elements
G = "gather_elements axis=0"


@case(G, "strided")
def _():
    x, i, o = x32(), idx_axis0(), out32()
    return lambda: sd.gather_elements(x, i, axis=0, out=o)


@case(G, "numpy take_along_axis")
def _():
    x, i = x32(), idx_axis0()
    return lambda: np.take_along_axis(x, i, axis=0)


G = "gather_elements axis=1"


@case(G, "strided")
def _():
    x, i, o = x32(), idx_axis1(), out32()
    return lambda: sd.gather_elements(x, i, axis=1, out=o)


@case(G, "numpy take_along_axis")
def _():
    x, i = x32(), idx_axis1()
    return lambda: np.take_along_axis(x, i, axis=1)


# ------------------------------------------------------------------ gather (take)
G = "gather rows axis=0 (2048 of 2048)"


def rows():
    return get("rows", lambda: _rng.integers(0, R, R, dtype=np.int64))


def colsel():
    return get("colsel", lambda: _rng.integers(0, C, C, dtype=np.int64))


@case(G, "strided")
def _():
    x, i, o = x32(), rows(), out32()
    return lambda: sd.gather(x, i, axis=0, out=o)


@case(G, "numpy take")
def _():
    x, i, o = x32(), rows(), out32()
    return lambda: np.take(x, i, axis=0, out=o)


@case(G, "numpy x[idx]")
def _():
    x, i = x32(), rows()
    return lambda: x[i]


G = "gather columns axis=1 (4096 of 4096)"


@case(G, "strided")
def _():
    x, i, o = x32(), colsel(), out32()
    return lambda: sd.gather(x, i, axis=1, out=o)


@case(G, "numpy take")
def _():
    x, i, o = x32(), colsel(), out32()
    return lambda: np.take(x, i, axis=1, out=o)


@case(G, "numpy x[:, idx]")
def _():
    x, i = x32(), colsel()
    return lambda: x[:, i]


# ------------------------------------------------------------------ gather_nd
G = "gather_nd 2^22 points (2048x4096 f32)"


def points():
    return get("pts", lambda: np.stack([_rng.integers(0, R, 1 << 22), _rng.integers(0, C, 1 << 22)], -1))


@case(G, "strided")
def _():
    x, p = x32(), points()
    o = get("po", lambda: np.empty(1 << 22, np.float32))
    return lambda: sd.gather_nd(x, p, out=o)


@case(G, "numpy x[i, j]")
def _():
    x, p = x32(), points()
    i, j = np.ascontiguousarray(p[:, 0]), np.ascontiguousarray(p[:, 1])
    return lambda: x[i, j]


if torch is not None:

    @case("scatter axis=0", "torch scatter_")
    def _():
        x, i, u = tt(out32("s")), tt(idx_axis0()), tt(upd32())
        return lambda: x.scatter_(0, i, u)

    @case("scatter axis=1", "torch scatter_")
    def _():
        x, i, u = tt(out32("s")), tt(idx_axis1()), tt(upd32())
        return lambda: x.scatter_(1, i, u)

    @case("scatter add axis=0", "torch scatter_reduce_ sum")
    def _():
        x, i, u = tt(out32("s")), tt(idx_axis0()), tt(upd32())
        return lambda: x.scatter_reduce_(0, i, u, "sum")

    @case("gather_elements axis=0", "torch gather")
    def _():
        x, i, o = tt(x32()), tt(idx_axis0()), tt(out32())
        return lambda: torch.gather(x, 0, i, out=o)

    @case("gather_elements axis=1", "torch gather")
    def _():
        x, i, o = tt(x32()), tt(idx_axis1()), tt(out32())
        return lambda: torch.gather(x, 1, i, out=o)

    @case("gather rows axis=0 (2048 of 2048)", "torch index_select")
    def _():
        x, i, o = tt(x32()), tt(rows()), tt(out32())
        return lambda: torch.index_select(x, 0, i, out=o)

    @case("gather columns axis=1 (4096 of 4096)", "torch index_select")
    def _():
        x, i, o = tt(x32()), tt(colsel()), tt(out32())
        return lambda: torch.index_select(x, 1, i, out=o)


# ------------------------------------------------------------------ tiny (the call is the cost)
def tiny():
    x = np.arange(16, dtype=np.float32).reshape(4, 4)
    i = np.array([[1, 0, 3, 2], [2, 2, 0, 1]], np.int64)
    u = np.ones((2, 4), np.float32)
    return x, i, u


@case("tiny 4x4 scatter axis=0", "strided")
def _():
    x, i, u = tiny()
    return lambda: sd.scatter(x, i, u, axis=0, out=x)


@case("tiny 4x4 scatter axis=0", "numpy put_along_axis")
def _():
    x, i, u = tiny()
    return lambda: np.put_along_axis(x, i, u, axis=0)


@case("tiny 4x4 gather_elements axis=0", "strided")
def _():
    x, i, _u = tiny()
    o = np.empty((2, 4), np.float32)
    return lambda: sd.gather_elements(x, i, axis=0, out=o)


@case("tiny 4x4 gather_elements axis=0", "strided (new result)")
def _():
    x, i, _u = tiny()
    return lambda: sd.gather_elements(x, i, axis=0)


@case("tiny 4x4 gather_elements axis=0", "numpy take_along_axis")
def _():
    x, i, _u = tiny()
    return lambda: np.take_along_axis(x, i, axis=0)


if torch is not None:

    @case("tiny 4x4 scatter axis=0", "torch scatter_")
    def _():
        x, i, u = (tt(a) for a in tiny())
        return lambda: x.scatter_(0, i, u)

    @case("tiny 4x4 gather_elements axis=0", "torch gather")
    def _():
        x, i, _u = (tt(a) for a in tiny())
        return lambda: torch.gather(x, 0, i)


# ------------------------------------------------------------------ driver
def register_all(selected: str) -> None:
    for group, name, make in CASES:
        full = f"{group} | {name}"
        if selected and not any(s in full for s in selected.split(",")):
            continue

        def bench(state, make=make):
            fn = make()
            fn()  # warm: pages faulted, plan cached
            while state:
                fn()

        opts = gb.option.use_real_time()(bench)
        opts = gb.option.unit(gb.kMicrosecond if group.startswith("tiny") else gb.kMillisecond)(opts)
        gb.register(opts, name=full)


def table(path: str) -> str:
    with open(path) as f:
        data = json.load(f)
    med: Dict[str, float] = {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name") == "median":
            name = b["run_name"].split("/")[0]
            scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[b.get("time_unit", "us")]
            med[name] = b["real_time"] * scale  # microseconds
    rows = ["| case | implementation | median | strided is x faster |", "|---|---|---|---|"]
    for group, name, _ in CASES:
        full = f"{group} | {name}"
        if full not in med:
            continue
        t = med[full]
        ref = med.get(f"{group} | strided")
        speed = f"{t / ref:.2f}" if ref and not name.startswith("strided") else ""
        shown = f"{t:.2f} us" if group.startswith("tiny") else f"{t / 1e3:.2f} ms"
        rows.append(f"| {group} | {name} | {shown} | {speed} |")
    return "\n".join(rows)


if __name__ == "__main__":
    import _runner

    _runner.main(register_all, table, torch, "0.2s")
