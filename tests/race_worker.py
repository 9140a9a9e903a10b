"""Child process of test_races.py: one index operator called in a loop while another thread
rewrites its indices between valid and invalid values (SPEC 3.0 rule 2).

The data arrays sit between PROT_NONE guard pages (mmap + mprotect), and the invalid values
point into those guards, so an index that is checked in one pass and read again in another
makes the kernel touch a guard page and the process dies with SIGSEGV even without ASan.
Prints "calls=N ok=K index_errors=E" and exits 0 when nothing crashed.

    python race_worker.py OP SECONDS [narrow]
"""

from __future__ import annotations

import sys
import threading
import time

import numpy as np

import strided as sd
from _guard import guarded


def main() -> int:
    op, seconds = sys.argv[1], float(sys.argv[2])
    if len(sys.argv) > 3 and sys.argv[3] == "narrow":
        sd._core._set_index_narrow_threshold(0)  # narrow (check + private copy) at every size
    # One kernel thread: on a 2-core machine the flipper then has a core of its own while the
    # kernel runs, so the reads really do race with its writes.
    sd.set_num_threads(1)
    rng = np.random.default_rng(1)
    R, C = 64, 4096  # rows along the indexed axis are R; a row is 16 KiB of float32
    # Two arrays of every operand: one with the data at the start of its mapping, one at the end,
    # so both a too-small (negative) and a too-large index land in a guard.
    lo = guarded((R, C), np.float32, at_end=False)
    hi = guarded((R, C), np.float32, at_end=True)
    lo[...] = rng.random((R, C), dtype=np.float32)
    hi[...] = lo
    good = rng.integers(0, R, size=(R, C)).astype(np.int64)
    idx = good.copy()
    bad_hi, bad_lo = R + 1, -R - 1  # one row past the end / one row before the start
    upd = rng.random((R, C), dtype=np.float32)

    tuples = idx.reshape(-1, 1)[:256]  # row 0 of idx: inside the rewritten band
    nd_upd = np.broadcast_to(upd[0], (256, C))
    compiled: dict[str, sd.CompiledOperator] = {}

    def call(data: np.ndarray) -> None:
        if op == "gather_elements":
            sd.gather_elements(data, idx, axis=0)
        elif op == "scatter":
            sd.scatter(data, idx, upd, axis=0, out=data)
        elif op == "gather":
            sd.gather(data, idx[:, :8], axis=0)
        elif op == "gather_nd":
            sd.gather_nd(data, tuples)
        elif op == "scatter_nd":
            sd.scatter_nd(data, tuples, nd_upd, out=data)
        elif op == "max_unpool":  # positions over an output of R elements at either guard
            flat = data.reshape(-1)
            sd.max_unpool(upd, idx, (R,), out=flat[:R] if data is lo else flat[-R:])
        elif op == "execute":
            if "op" not in compiled:
                desc = sd.GatherElementsDesc(
                    sd.TensorDesc("float32", [R, C]),
                    sd.TensorDesc("int64", [R, C]),
                    sd.TensorDesc("float32", [R, C]),
                    axis=0,
                )
                compiled["op"] = sd.compile(desc)
            compiled["op"].execute([data, idx], [np.empty((R, C), np.float32)])
        else:
            raise SystemExit(f"unknown op {op}")

    stop = threading.Event()

    def flipper() -> None:
        # Flips a few indices spread over the tensor between valid values and values pointing
        # into the guards, as fast as Python can (the kernels run without the GIL meanwhile):
        # whether a read sees the valid or the bad value is a coin toss at every read.
        # (every operator reads some of them: gather reads idx[:, :8], the ND ones idx[0, :256])
        spots = [(0, 3), (5, 6), (0, 200)] + [
            (int(r), int(c)) for r, c in zip(rng.integers(0, R, 3), rng.integers(0, C, 3))
        ]
        bad = [bad_hi if k % 2 == 0 else bad_lo for k in range(len(spots))]
        valid = [int(good[s]) for s in spots]
        flat = idx.reshape(-1)
        where = [r * C + c for r, c in spots]
        while not stop.is_set():
            for k, v in zip(where, bad):  # bad for a short moment ...
                flat[k] = v
            for k, v in zip(where, valid):  # ... valid for longer, so that many checks pass
                flat[k] = v
            for k, v in zip(where, valid):
                flat[k] = v

    t = threading.Thread(target=flipper)
    t.start()
    calls = ok = index_errors = 0
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            for data in (lo, hi):
                calls += 1
                try:
                    call(data)
                    ok += 1
                except IndexError:
                    index_errors += 1
    finally:
        stop.set()
        t.join()
    print(f"calls={calls} ok={ok} index_errors={index_errors}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
