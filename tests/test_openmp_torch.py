"""strided and torch in one process: two OpenMP users, each with a libgomp of its own on disk.

The Linux wheel carries libgomp under a hashed name (strided.libs/libgomp-<hash>.so, auditwheel);
torch's wheel carries torch/lib/libgomp.so.1 and loads it RTLD_GLOBAL (libtorch_global_deps). What
the dynamic loader then does, checked here in a fresh interpreter for each import order:

- torch first: strided's OpenMP calls bind to torch's libgomp (the global scope comes before the
  module's own dependencies), so the process has one OpenMP runtime and one thread pool; strided's
  copy is mapped but unused. Probe: torch.set_num_threads(k) sets the nthreads ICV of torch's
  runtime, and strided's omp_get_max_threads() (build_info()["max_threads"]) then says k.
- strided first (wheel): two runtimes, two pools; each works, the set_num_threads of one does not
  touch the other. A developer build or an sdist install links the system's libgomp.so.1, whose
  soname torch's libraries then find already loaded: one runtime in both orders.

In every order: threaded calls of both libraries, alternating and at the same time from two Python
threads, give the right results, and nothing crashes. scripts/check_wheel.sh runs this against the
installed wheel; it skips where torch is not installed or strided was built without OpenMP.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import strided as sd

pytestmark = [
    pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs torch"),
    pytest.mark.skipif(sd.build_info()["openmp"] == "no", reason="strided built without OpenMP"),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/maps"),
]


def _glibc() -> bool:
    try:
        return bool(os.confstr("CS_GNU_LIBC_VERSION"))
    except (AttributeError, ValueError, OSError):
        return False


GLIBC = _glibc()

CHILD = r"""
import json, os, sys, threading
first = sys.argv[1]
if first == "torch":
    import torch
    import strided as sd
else:
    import strided as sd
    import torch
import numpy as np

def gomp():
    return sorted({line.split()[-1] for line in open("/proc/self/maps") if "libgomp" in line.split()[-1]})

r = {"gomp": gomp(), "start_tasks": len(os.listdir("/proc/self/task"))}
# Which runtime answers strided's omp_get_max_threads? Set torch's nthreads ICV to another value.
before = int(sd.build_info()["max_threads"])
r["probe"] = before + 1
torch.set_num_threads(before + 1)
r["sd_max_threads_before"] = before
r["sd_max_threads_after"] = int(sd.build_info()["max_threads"])
sd.set_num_threads(2)
torch.set_num_threads(2)
# The set_num_threads of one library leaves the other's alone.
sd.set_num_threads(1)
r["torch_threads_after_sd_1"] = torch.get_num_threads()
torch.set_num_threads(1)
sd.set_num_threads(2)
r["sd_threads_after_torch_1"] = sd.get_num_threads()
torch.set_num_threads(2)

n = 2048  # 16 MiB of float32: far above strided's grain (and torch's), so both use their threads
x = np.arange(n * n, dtype=np.float32).reshape(n, n)
out = np.empty_like(x)
big = torch.arange(n * n, dtype=torch.float32).reshape(n, n)
m = 384
a = torch.arange(m * m, dtype=torch.float32).reshape(m, m) / (m * m)
b = torch.eye(m) * 2

def strided_calls(k):
    for _ in range(k):
        out.fill(-1)
        sd.copy(x.T, out)
        assert np.array_equal(out, x.T)

def torch_calls(k):
    for _ in range(k):
        assert torch.equal(a @ b, a * 2)                              # GEMM
        assert torch.equal(big.mul(2).add_(1)[-1, -3:], big[-1, -3:] * 2 + 1)   # parallel_for
        assert int(big.sum(dtype=torch.float64)) == (n * n) * (n * n - 1) // 2  # parallel reduction

errors = []

def run(f, k):
    try:
        f(k)
    except BaseException as e:
        errors.append(repr(e))

# Alternating on the main thread, then both at once from two Python threads (both release the GIL).
for _ in range(3):
    run(strided_calls, 1)
    run(torch_calls, 1)
ts = [threading.Thread(target=run, args=(strided_calls, 8)), threading.Thread(target=run, args=(torch_calls, 4))]
for t in ts:
    t.start()
for t in ts:
    t.join()
r["errors"] = errors
r["end_tasks"] = len(os.listdir("/proc/self/task"))
r["gomp_end"] = gomp()
print(json.dumps(r))
"""


def _vendored_libgomp() -> bool:
    """A repaired wheel: libgomp under a hashed name in strided.libs beside the package."""
    libs = Path(sd.__file__).resolve().parent.parent / "strided.libs"
    return any(libs.glob("libgomp*.so*"))


def _omp_bindings(ld_debug_dir: Path) -> set:
    """The libraries that strided._core's OpenMP symbols were bound to (glibc's LD_DEBUG=bindings)."""
    pattern = re.compile(r"binding file (\S*/_core\.[^ ]*) \[\d+\] to (\S+) \[\d+\]: normal symbol `(GOMP_|omp_)")
    found = set()
    for f in ld_debug_dir.iterdir():
        for line in f.read_text(errors="replace").splitlines():
            m = pattern.search(line)
            if m and "/strided/" in m[1]:
                found.add(os.path.realpath(m[2]))
    return found


@pytest.mark.parametrize("first", ["torch", "strided"])
def test_strided_and_torch_threads_in_one_process(first: str, tmp_path: Path) -> None:
    env = dict(os.environ, LD_DEBUG="bindings", LD_DEBUG_OUTPUT=str(tmp_path / "ld"))
    r = subprocess.run([sys.executable, "-c", CHILD, first], capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, f"child ({first} first) failed, rc {r.returncode}:\n{r.stdout}\n{r.stderr[-4000:]}"
    res = json.loads(r.stdout.strip().splitlines()[-1])
    bound = _omp_bindings(tmp_path)
    res["strided_omp_bound_to"] = sorted(bound)
    print(f"{first} first: {res}")  # shown with -rA / -s: the evidence behind the module docstring
    # Every OpenMP entry point of strided._core resolves into ONE libgomp: a mix (GOMP_parallel
    # from one copy, the loop functions from another) would break the teams.
    if GLIBC:  # musl has no LD_DEBUG
        assert len(bound) == 1, bound
    assert res["errors"] == []
    assert res["gomp"] == res["gomp_end"], "a libgomp was loaded late, during the calls"
    assert res["torch_threads_after_sd_1"] == 2
    assert res["sd_threads_after_torch_1"] == 2
    vendored = _vendored_libgomp()
    torch_gomp = [p for p in res["gomp"] if "/torch/" in p]
    assert len(torch_gomp) <= 1
    if vendored:
        ours = [p for p in res["gomp"] if "/strided.libs/" in p]
        assert len(ours) == 1 and len(res["gomp"]) == 2, res["gomp"]
    if first == "torch" and torch_gomp:
        assert not GLIBC or "/torch/" in next(iter(bound)), bound
        # One runtime: strided's omp_get_max_threads is torch's, which torch.set_num_threads set.
        assert res["sd_max_threads_after"] == res["probe"]
    elif first == "strided" and vendored:
        assert not GLIBC or "/strided.libs/" in next(iter(bound)), bound
        # Two runtimes: torch's setting does not reach strided's.
        assert res["sd_max_threads_after"] == res["sd_max_threads_before"]
