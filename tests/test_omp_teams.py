"""SPEC 3.0 rule 6 under any OpenMP team: OMP_THREAD_LIMIT, OMP_DYNAMIC and a thread count
above the cores must all give the same, correct results (per-part results never assume that
the whole requested team ran). Each environment runs in a child process, since the OpenMP
runtime reads it once at start-up."""

import os
import subprocess
import sys
import textwrap

import pytest

import strided as sd

CHILD = textwrap.dedent(
    """
    import numpy as np
    import strided as sd

    sd.set_num_threads(THREADS)
    rng = np.random.default_rng(3)
    for narrow in (0, 1 << 40):  # narrowing check (private copy) at every size, then never
        sd._core._set_index_narrow_threshold(narrow)
        x = rng.random((256, 1024), dtype=np.float32)
        for axis in (0, 1):
            n = x.shape[axis]
            idx = rng.integers(-n, n, size=x.shape)
            ref = np.take_along_axis(x, np.where(idx < 0, idx + n, idx), axis)
            assert np.array_equal(sd.gather_elements(x, idx, axis=axis), ref), ("gather_elements", axis)
            upd = rng.random(x.shape, dtype=np.float32)
            ref = x.copy()
            np.put_along_axis(ref, np.where(idx < 0, idx + n, idx), upd, axis)
            got = sd.scatter(x, np.where(idx < 0, idx + n, idx), upd, axis=axis)
            # duplicates: the last in row-major order wins; put_along_axis agrees for C order
            assert np.array_equal(got, ref), ("scatter", axis)
            bad = idx.copy()
            bad[200, 1000 % x.shape[1]] = n + 5
            try:
                sd.gather_elements(x, bad, axis=axis)
            except IndexError as e:
                assert "[200, 1000]" in str(e) and str(n + 5) in str(e), str(e)
            else:
                raise AssertionError("no IndexError")
    pts = rng.integers(0, 1024, size=(200000, 2))
    big = rng.random((1024, 1024), dtype=np.float32)
    assert np.array_equal(sd.gather_nd(big, pts), big[pts[:, 0], pts[:, 1]])
    cols = pts[:2000, 0]  # an 8 MiB output (all 200000 made 800 MiB: 5 s a call under ASan)
    assert np.array_equal(sd.gather(big, cols, axis=1), np.take(big, cols, axis=1))
    t = rng.random((64, 256, 256), dtype=np.float32)
    assert np.array_equal(sd.join([t, t[:, ::-1]], axis=2), np.concatenate([t, t[:, ::-1]], axis=2))
    print("ok")
    """
)

ENVS = {
    "thread_limit_1": {"OMP_THREAD_LIMIT": "1"},
    "dynamic": {"OMP_DYNAMIC": "true"},
    "dynamic_limit_2": {"OMP_DYNAMIC": "true", "OMP_THREAD_LIMIT": "2"},
    "nested_off": {"OMP_MAX_ACTIVE_LEVELS": "1", "OMP_DYNAMIC": "false"},
}

pytestmark = pytest.mark.skipif(sd.build_info().get("openmp") in (None, "no"), reason="built without OpenMP")


@pytest.mark.parametrize("threads", [2, 16])
@pytest.mark.parametrize("env", list(ENVS), ids=list(ENVS))
def test_any_team_size_gives_the_same_results(env, threads):
    e = dict(os.environ)
    e.update(ENVS[env])
    r = subprocess.run(
        [sys.executable, "-c", CHILD.replace("THREADS", str(threads))],
        env=e,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-3000:]
