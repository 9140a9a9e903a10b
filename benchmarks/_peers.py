"""Rows of the peer comparison (benchmarks/compare.py): each group is one job done by strided and
by its peers (numpy, torch, ONNX Runtime, oneDNN through C++), with the goals it is held to.

A suite module (benchmarks/peers_<area>.py) declares groups on import:

    g = group("gather_elements last axis f32 2048x4096", nbytes, peers("torch", 1.2))
    @g.impl("strided")
    def _():                      # make(): prepares inputs once, returns the function to time
        ...
        return lambda: sd.gather_elements(x, idx, axis=1, out=o)

``nbytes`` is (bytes read + bytes written) / 2 of one call: a memcpy of ``nbytes`` moves as much,
so "/ memcpy" is the fraction of the bandwidth bound (compare.py adds that memcpy row per group).
Goals: ``peers(names, k)``: the fastest of those peers' medians / strided's >= k;
``memcpy(k)``: memcpy's median / strided's >= k (compare.py also prints strided's speed against a
copy of the same bytes with streamed stores, "memcpy streamed": the bound of a kernel that streams); ``one_thread(k)``: strided on one thread /
strided at the run's thread count >= k (compare.py adds the "strided @1" row). Peers that are not
installed simply have no row; a goal whose peers are all missing prints "n/a".
"""

from __future__ import annotations

import contextlib
import glob
import importlib
import multiprocessing as mp
import os
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterator, List, Tuple

import numpy as np

import _optional  # noqa: F401  (first: torch before strided)
import strided as sd
from strided import _core

Make = Callable[[], Callable[[], object]]


@dataclass(frozen=True)
class Goal:
    kind: str  # "peers" | "memcpy" | "one_thread"
    k: float
    names: Tuple[str, ...] = ()

    def text(self) -> str:
        if self.kind == "peers":
            return f">= {self.k:g}x {'/'.join(self.names)}"
        if self.kind == "memcpy":
            return f">= {self.k:g} of memcpy"
        return f">= {self.k:g}x one thread"


def peers(names: str, k: float) -> Goal:
    """The fastest of ``names`` ("numpy/torch" or "torch") over strided >= k."""
    return Goal("peers", k, tuple(names.split("/")))


def memcpy(k: float) -> Goal:
    return Goal("memcpy", k)


def one_thread(k: float) -> Goal:
    return Goal("one_thread", k)


@dataclass
class Group:
    name: str
    nbytes: int
    goals: Tuple[Goal, ...]
    impls: Dict[str, Make] = field(default_factory=dict)

    def impl(self, name: str) -> Callable[[Make], Make]:
        def deco(make: Make) -> Make:
            self.impls[name] = make
            return make

        return deco


GROUPS: List[Group] = []
BUSY = 0  # compare.py --busy K sets it before loading the suites (goals may depend on it)


def group(name: str, nbytes: int, *goals: Goal) -> Group:
    g = Group(name, nbytes, tuple(goals))
    GROUPS.append(g)
    return g


def load_suites(only: str) -> None:
    """Imports benchmarks/peers_<name>.py for each name in ``only`` (comma-separated; all when empty)."""
    here = os.path.dirname(os.path.abspath(__file__))
    for path in sorted(glob.glob(os.path.join(here, "peers_*.py"))):
        mod = os.path.basename(path)[:-3]
        if not only or any(s in mod for s in only.split(",")):
            importlib.import_module(mod)


def memcpy_make(nbytes: int) -> Make:
    """The reference row: a parallel memcpy of ``nbytes`` at strided's current thread count."""

    def make() -> Callable[[], object]:
        s, d = np.ones(nbytes, np.uint8), np.zeros(nbytes, np.uint8)
        return lambda: _core._memcpy(d, s, sd.get_num_threads())

    return make


def memcpy_streamed_make(nbytes: int) -> Make:
    """The bound of a kernel whose stores stream (bypass the cache): strided's contiguous copy of
    ``nbytes`` with the stream threshold at 0, so it streams at any size. glibc's memcpy streams
    only above its non_temporal_threshold (192 MiB on the 2-core machine): at 12-16 MiB the memcpy
    row's source and destination stay in a 32 MiB last-level cache between calls, and a kernel
    that streams its output cannot keep up with it there; this row says how far from it one can
    get at best (the transposes stream from 8 MiB, planner.cpp)."""

    def make() -> Callable[[], object]:
        s, d = np.ones(nbytes, np.uint8), np.zeros(nbytes, np.uint8)

        def run() -> None:
            old = _core._stream_threshold()
            _core._set_stream_threshold(0)
            try:
                sd.copy(s, out=d)
            finally:
                _core._set_stream_threshold(old)

        return run

    return make


def _spin() -> None:  # pragma: no cover - a child that only burns a core
    while True:
        pass


@contextlib.contextmanager
def busy(k: int) -> Iterator[None]:
    """``k`` processes spinning on a core each while the block runs (a busy machine)."""
    spinners = [mp.Process(target=_spin, daemon=True) for _ in range(k)]
    for p in spinners:
        p.start()
    try:
        yield
    finally:
        for p in spinners:
            p.terminate()
