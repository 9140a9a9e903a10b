"""The result pool (csrc/python/result_pool.cpp): fresh results of 4 MiB or more reuse recently
freed blocks. What must hold: results are right whatever the block held before, they are
ordinary numpy arrays that own their data (resize works), small results and caller arrays are
not pooled, STRIDED_POOL_BYTES=0 turns it off, and threads and fork() are safe."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import strided as sd
from strided import _core
from conftest import run_threads

try:
    from numpy._core.multiarray import get_handler_name
except ImportError:  # numpy 1.x
    from numpy.core.multiarray import get_handler_name  # type: ignore[no-redef]

POOLED = "strided_result_pool"
BIG = (1024, 2048)  # 8 MiB of float32: pooled


def pool_on() -> bool:
    return int(sd.build_info()["result_pool_bytes"]) > 0


pytestmark = pytest.mark.skipif(not pool_on(), reason="the pool is off in this environment (STRIDED_POOL_BYTES=0)")


def test_large_fresh_results_are_pooled_and_own_their_data():
    a = np.arange(np.prod(BIG), dtype=np.float32).reshape(BIG)
    r = sd.join([a, a], axis=1)
    assert get_handler_name(r) == POOLED
    assert r.flags.owndata and r.base is None
    np.testing.assert_array_equal(r, np.concatenate([a, a], axis=1))
    # numpy's resize reallocates through the handler: contents kept, the rest zero-filled
    r.resize((2 * BIG[0], 2 * BIG[1]), refcheck=False)
    flat = np.concatenate([a, a], axis=1).ravel()
    np.testing.assert_array_equal(r.ravel()[: flat.size], flat)
    assert not r.ravel()[flat.size :].any()


def test_small_results_and_out_arrays_are_not_pooled():
    a = np.ones((64, 64), np.float32)
    assert get_handler_name(sd.join([a, a], axis=0)) != POOLED
    out = np.empty((2 * BIG[0], BIG[1]), np.float32)
    big = np.ones(BIG, np.float32)
    assert sd.join([big, big], axis=0, out=out) is out
    assert get_handler_name(out) != POOLED


@pytest.mark.parametrize("op", ["join", "slice", "gather_elements", "scatter", "split", "relayout"])
def test_reused_blocks_give_right_results(op):
    """Each round fills a pooled block with different data, frees it, and checks the next
    result of the same size (which reuses it) against numpy."""
    rng = np.random.default_rng(7)
    for rnd in range(4):
        x = rng.standard_normal(BIG).astype(np.float32) + rnd
        if op == "join":
            got, want = sd.join([x, x[::-1]], axis=0), np.concatenate([x, x[::-1]], axis=0)
        elif op == "slice":
            got, want = sd.slice(x, (0, 0), BIG, (1, -1)), x[:, ::-1]
        elif op == "gather_elements":
            i = rng.integers(0, BIG[0], BIG)
            got, want = sd.gather_elements(x, i, axis=0), np.take_along_axis(x, i, axis=0)
        elif op == "scatter":
            i = np.argsort(rng.random(BIG), axis=1)  # a permutation per row: no duplicates
            u = rng.standard_normal(BIG).astype(np.float32)
            want = x.copy()
            np.put_along_axis(want, i, u, axis=1)
            got = sd.scatter(x, i, u, axis=1)
        elif op == "split":
            got = np.concatenate(sd.split(x.T, 2, axis=0), axis=0)  # two 4 MiB parts
            want = x.T
        else:  # an XLA relayout into a new buffer: every byte of the result is written
            src = sd.xla.make_shape_with_layout(sd.xla.PrimitiveType.F32, list(BIG), [1, 0])
            dst = sd.xla.make_shape_with_layout(sd.xla.PrimitiveType.F32, list(BIG), [0, 1])
            got = sd.xla.from_physical(sd.xla.relayout(x.ravel(), src, dst), dst)
            want = x
        np.testing.assert_array_equal(got, want)
        if op not in ("split", "relayout"):
            assert get_handler_name(got) == POOLED
        del got


def test_unwritten_padding_is_zero_in_a_reused_block():
    """UNKNOWN_PAD leaves padding unwritten: a fresh buffer still shows zeros there, not the
    bytes of the array that used the block before."""
    X = sd.xla
    for _ in range(3):
        junk = sd.join([np.full(BIG, 7.0, np.float32)] * 2, axis=0)  # a pooled block full of 7s
        nbytes = junk.nbytes
        del junk
        layout = X.Layout([1, 0], padded_dimensions=[2 * BIG[0], BIG[1]], padding_value="UNKNOWN_PAD")
        shape = X.Shape(X.PrimitiveType.F32, [2 * BIG[0], BIG[1] - 8], layout)
        assert shape.byte_size == nbytes
        x = np.ones((2 * BIG[0], BIG[1] - 8), np.float32)
        buf = X.to_physical(x, shape)
        phys = buf.reshape(2 * BIG[0], BIG[1])
        np.testing.assert_array_equal(phys[:, : BIG[1] - 8], x)
        assert not phys[:, BIG[1] - 8 :].any()


def test_threads_make_and_drop_pooled_results():
    def body(seed: int) -> None:
        rng = np.random.default_rng(seed)
        for _ in range(10):
            x = rng.standard_normal((512, 2048)).astype(np.float32)
            r = sd.join([x, x, x], axis=0)  # 12 MiB
            np.testing.assert_array_equal(r, np.concatenate([x, x, x], axis=0))

    run_threads(body, 6)


def _run(code: str, **env_extra: str) -> str:
    env = dict(os.environ, **env_extra)
    r = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env, timeout=600
    )
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def test_pool_off_with_zero_limit():
    out = _run(
        f"""
        import numpy as np, strided as sd
        from {get_handler_name.__module__} import get_handler_name
        a = np.ones({BIG}, np.float32)
        print(sd.build_info()["result_pool_bytes"], get_handler_name(sd.join([a, a], axis=0)))
        """,
        STRIDED_POOL_BYTES="0",
    )
    assert out.split() == ["0", "default_allocator"]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork() is POSIX-only")
def test_fork_child_uses_and_frees_pooled_results():
    out = _run(
        f"""
        import os, numpy as np, strided as sd
        a = np.ones({BIG}, np.float32)
        r = sd.join([a, a], axis=0); del r          # an idle block in the parent's pool
        pid = os.fork()
        if pid == 0:
            ok = all(bool((sd.join([a, a * k], axis=0)[{BIG[0]}:] == k).all()) for k in range(5))
            os._exit(0 if ok else 1)
        _, status = os.waitpid(pid, 0)
        r = sd.join([a, a], axis=0)
        print(os.waitstatus_to_exitcode(status), bool((r == 1).all()))
        """
    )
    assert out.split() == ["0", "True"]


def test_limit_knob_turns_pool_off_and_on():
    from strided import _core

    old = _core._result_pool_limit()
    a = np.ones(BIG, np.float32)
    try:
        _core._set_result_pool_limit(0)
        assert sd.build_info()["result_pool_bytes"] == "0"
        r = sd.join([a, a], axis=0)
        assert get_handler_name(r) != POOLED and (r == 1).all()
    finally:
        _core._set_result_pool_limit(old)
    assert get_handler_name(sd.join([a, a], axis=0)) == POOLED


def _fresh(rows: int) -> np.ndarray:
    a = np.ones((rows, 1024), np.float32)  # rows * 4 KiB
    return sd.join([a, a], axis=0)  # rows * 8 KiB, pooled from 4 MiB


def test_a_block_serves_results_up_to_a_quarter_smaller():
    old = _core._result_pool_limit()
    try:
        _core._set_result_pool_limit(0)  # empty the pool, then a fresh one
        _core._set_result_pool_limit(1 << 30)
        r = _fresh(2048)  # 16 MiB
        where = r.ctypes.data
        del r
        s = _fresh(1792)  # 14 MiB: the same block
        assert s.ctypes.data == where and (s == 1).all()
        del s
        t = _fresh(1024)  # 8 MiB: half the block would be wasted, a new one
        assert t.ctypes.data != where and (t == 1).all()
    finally:
        _core._set_result_pool_limit(old)


def test_over_the_limit_the_longest_idle_block_makes_room():
    old = _core._result_pool_limit()
    try:
        _core._set_result_pool_limit(0)
        _core._set_result_pool_limit(40 << 20)  # room for two 16 MiB blocks
        a, b, c = _fresh(2048), _fresh(2048), _fresh(2048)
        pc = c.ctypes.data
        del a  # idle: a
        del b  # idle: a, b
        del c  # over the limit: a, idle longest, is dropped; c is kept
        x, y = _fresh(2048), _fresh(2048)
        assert pc in (x.ctypes.data, y.ctypes.data)
        assert (x == 1).all() and (y == 1).all()
    finally:
        _core._set_result_pool_limit(old)
