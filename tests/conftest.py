import contextlib
import os
import sys
import threading

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

import strided as sd
from strided import _core

# STRIDED_NO_TORCH=1 makes `import torch` fail, so torch's tests skip (the sanitizer run: torch's
# own libraries are not built for ASan's preloaded runtime).
if os.environ.get("STRIDED_NO_TORCH"):
    sys.modules["torch"] = None  # type: ignore[assignment]

# Shared, noisy CI machines: no per-example deadline, no "too slow" health check. The sanitizer
# run (scripts/run_sanitizers.sh) selects the short "sanitize" profile.
settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("sanitize", parent=settings.get_profile("default"), max_examples=25)
settings.load_profile(os.environ.get("STRIDED_HYPOTHESIS_PROFILE", "default"))

ALL_DTYPES = [
    np.float32,
    np.float16,
    np.uint32,
    np.uint16,
    np.uint8,
    np.int32,
    np.int16,
    np.int8,
    np.float64,
    np.uint64,
    np.int64,
]


def random_array(rng: np.random.Generator, shape, dtype) -> np.ndarray:
    """Random bits of the given dtype (so NaN payloads and -0.0 appear for floats)."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape)) * dt.itemsize
    return rng.integers(0, 256, size=n, dtype=np.uint8).view(dt).reshape(shape)


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Bit-exact equality (NaN payloads and signed zeros compared as bits)."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    u = np.dtype(f"u{a.dtype.itemsize}")
    return bool(np.array_equal(np.ascontiguousarray(a).view(u), np.ascontiguousarray(b).view(u)))


@pytest.fixture(params=_core._simd_targets())
def simd(request):
    """Runs the test once per compiled SIMD target this CPU supports."""
    before = _core._simd()
    _core._set_simd(request.param)
    yield request.param
    _core._set_simd(before)


@contextlib.contextmanager
def team_of(n):
    """``n`` threads for every call, the busy-machine watch off: pytest's workers share the
    cores, and the watch would cap the team (to one thread) whenever they crowd each other,
    leaving the multi-threaded paths untested."""
    old, watch = sd.get_num_threads(), _core._team_watch()
    sd.set_num_threads(n)
    _core._set_team_watch(False)
    try:
        yield n
    finally:
        _core._set_team_watch(watch)
        sd.set_num_threads(old)


@pytest.fixture(params=[1, 2], ids=["1thread", "2threads"])
def threads(request):
    with team_of(request.param):
        yield request.param


def run_threads(fn, n=8):
    """Run fn(i) in n threads started together; re-raise the first failure."""
    errors: list[BaseException] = []
    barrier = threading.Barrier(n)

    def body(i):
        try:
            barrier.wait()
            fn(i)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    ts = [threading.Thread(target=body, args=(i,)) for i in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(120)
    assert not any(t.is_alive() for t in ts), "a thread hung"
    if errors:
        raise errors[0]


@contextlib.contextmanager
def index_kernel_variant(mode: str):
    """'plain': the default thresholds (only index tensors of 4 MiB or more are narrowed to
    uint16/uint32 during the check; only gather results of 16 MiB or more are streamed);
    'narrowed': both at 0, so the narrowed kernels and the streaming stores see every case."""
    core = sd._core
    old_n, old_s = core._index_narrow_threshold(), core._stream_threshold()
    forced = mode != "plain"
    core._set_index_narrow_threshold(0 if forced else old_n)
    core._set_stream_threshold(0 if forced else old_s)
    try:
        yield mode
    finally:
        core._set_index_narrow_threshold(old_n)
        core._set_stream_threshold(old_s)
