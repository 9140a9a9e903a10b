"""SPEC 3.0 rule 2: indices rewritten by another thread while an operator runs never make it
read or write outside its buffers (the result, and whether the call raises, are unspecified).

Each case runs tests/race_worker.py in a child process: the data arrays sit between guard pages
and a thread flips indices between valid values and values pointing into those guards, so a
kernel that uses an index it did not check at that very read dies with SIGSEGV (and ASan, in
the sanitizer run, reports it). The parent only asks that the child exits cleanly.
"""

import os
import subprocess
import sys

import pytest

WORKER = os.path.join(os.path.dirname(__file__), "race_worker.py")
OPS = ["gather_elements", "scatter", "gather", "gather_nd", "scatter_nd", "max_unpool", "execute"]
SECONDS = os.environ.get("STRIDED_RACE_SECONDS", "2")

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="guard pages through mprotect (Linux)")


# The narrowing check (a private, checked copy of the indices) exists for these two only.
CASES = [(op, "plain") for op in OPS] + [("gather_elements", "narrow"), ("scatter", "narrow")]


@pytest.mark.parametrize(("op", "mode"), CASES)
def test_indices_rewritten_during_call_never_stray(op, mode):
    args = [sys.executable, WORKER, op, SECONDS] + (["narrow"] if mode == "narrow" else [])
    r = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"worker died (rc={r.returncode}):\n{r.stdout}\n{r.stderr[-3000:]}"
    assert r.stdout.startswith("calls="), r.stdout
    calls = int(r.stdout.split()[0].split("=")[1])
    assert calls > 0
