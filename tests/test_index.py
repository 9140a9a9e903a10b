"""Index operators (sd.gather, gather_elements, gather_nd, scatter, scatter_nd; SPEC 3.4):
spec examples, bit-exact agreement with slow reference loops written here (row-major duplicate
order, reductions in the element type), determinism over threads and SIMD targets, index
errors that leave the output untouched, and the descriptions through compile()/execute()."""

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import strided as sd
from strided import _core
from conftest import ALL_DTYPES, index_kernel_variant, random_array, run_threads, same_bits, team_of

NATIVE_INDEX = [np.int32, np.int64, np.uint32, np.uint64]
CONVERTED_INDEX = [np.int8, np.int16, np.uint8, np.uint16]
REDUCTIONS = ["none", "add", "mul", "min", "max"]
HYP = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module", autouse=True, params=["plain", "narrowed+streamed"])
def narrowing(request):
    """Every test here runs twice: with the default thresholds (only index tensors of 4 MiB or
    more are narrowed to uint16/uint32 during the check; only gather results of 16 MiB or more
    are written with streaming stores) and with both at 0, so the narrowed kernels and the
    streaming stores see all the shapes, dtypes, reductions and errors below."""
    with index_kernel_variant(request.param) as mode:
        yield mode


# ---------------------------------------------------------------- reference loops
def _combine(acc, u, reduction, dtype):
    """One reduction step in the element type (integers wrap, float16 rounds each step)."""
    dt = np.dtype(dtype)
    a = np.array([acc], dt)
    b = np.array([u], dt)
    if reduction == "none":
        return b[0]
    if reduction == "add":
        with np.errstate(all="ignore"):
            return (a + b)[0]
    if reduction == "mul":
        with np.errstate(all="ignore"):
            return (a * b)[0]
    x, y = a[0], b[0]
    if dt.kind == "f":
        # Documented rule (numpy's scalar minimum/maximum): keep the accumulator when it is NaN
        # or wins the comparison (ties keep it too), else take the update.
        keep = np.isnan(x) or (x <= y if reduction == "min" else x >= y)
    else:
        keep = x <= y if reduction == "min" else x >= y
    return x if keep else y


def _norm(i, size):
    i = int(i)
    assert -size <= i < size
    return i + size if i < 0 else i


def ref_scatter(x, idx, upd, axis, reduction="none"):
    out = x.copy()
    for c in np.ndindex(*idx.shape):
        t = list(c)
        t[axis] = _norm(idx[c], x.shape[axis])
        t = tuple(t)
        out[t] = _combine(out[t], upd[c], reduction, x.dtype)
    return out


def ref_gather_elements(x, idx, axis):
    out = np.empty(idx.shape, x.dtype)
    for c in np.ndindex(*idx.shape):
        t = list(c)
        t[axis] = _norm(idx[c], x.shape[axis])
        out[c] = x[tuple(t)]
    return out


def ref_gather(x, idx, axis):
    out = np.empty(x.shape[:axis] + idx.shape + x.shape[axis + 1 :], x.dtype)
    for o in np.ndindex(*x.shape[:axis]):
        for j in np.ndindex(*idx.shape):
            out[o + j] = x[o + (_norm(idx[j], x.shape[axis]),)]
    return out


def ref_gather_nd(x, idx, b=0):
    L = idx.shape[-1]
    out = np.empty(idx.shape[:-1] + x.shape[b + L :], x.dtype)
    for t in np.ndindex(*idx.shape[:-1]):
        coords = tuple(_norm(idx[t + (k,)], x.shape[b + k]) for k in range(L))
        out[t] = x[t[:b] + coords]
    return out


def ref_scatter_nd(x, idx, upd, reduction="none"):
    out = x.copy()
    L = idx.shape[-1]
    for t in np.ndindex(*idx.shape[:-1]):
        coords = tuple(_norm(idx[t + (k,)], x.shape[k]) for k in range(L))
        for s in np.ndindex(*x.shape[L:]):
            out[coords + s] = _combine(out[coords + s], upd[t + s], reduction, x.dtype)
    return out


# ---------------------------------------------------------------- SPEC.md examples
def test_spec_scatter_1d():
    r = sd.scatter(
        np.array([0, 1, 2, 3, 4], np.float32), np.array([3, 1, 3, 0], np.uint32), np.array([5, 6, 7, 8], np.float32)
    )
    assert r.tolist() == [8, 6, 2, 7, 4]  # 3 is written twice: the later update (7) wins


def test_spec_scatter_2d_axis0():
    r = sd.scatter(
        np.zeros((3, 3), np.float32),
        np.array([[1, 0, 2], [0, 2, 1]], np.uint32),
        np.array([[10, 11, 12], [20, 21, 22]], np.float32),
        axis=0,
    )
    assert r.tolist() == [[20, 11, 0], [10, 0, 22], [0, 21, 12]]


def test_spec_gather_elements():
    x = np.arange(1, 10, dtype=np.float32).reshape(3, 3)
    r = sd.gather_elements(x, np.array([[1, 2, 0], [2, 0, 0]], np.uint32), axis=0)
    assert r.tolist() == [[4, 8, 3], [7, 2, 3]]


def test_spec_gather():
    r = sd.gather(np.array([11, 12, 13, 14], np.float32), np.array([3, 1, 3, 0, 2], np.uint32))
    assert r.tolist() == [14, 12, 14, 11, 13]


def test_spec_gather_nd():
    r = sd.gather_nd(np.array([[0, 1], [2, 3]], np.float32), np.array([[1], [0]], np.uint32))
    assert r.tolist() == [[2, 3], [0, 1]]


def test_spec_scatter_nd():
    r = sd.scatter_nd(
        np.arange(1, 9, dtype=np.float32),
        np.array([[4], [3], [1], [7]], np.uint32),
        np.array([9, 10, 11, 12], np.float32),
    )
    assert r.tolist() == [1, 11, 3, 10, 9, 6, 7, 12]


# ---------------------------------------------------------------- random views
@st.composite
def views(draw, shape, dtype):
    """An array of `shape` with random bits, laid out as a random view (transposed, strided,
    reversed) so kernels see arbitrary byte strides."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    kind = draw(st.sampled_from(["c", "step", "rev", "trans"]))
    if kind == "c" or len(shape) == 0:
        return random_array(rng, shape, dtype)
    if kind == "step":
        big = random_array(rng, tuple(2 * s for s in shape), dtype)
        return big[tuple(slice(None, None, 2) for _ in shape)]
    if kind == "rev":
        return random_array(rng, shape, dtype)[tuple(slice(None, None, -1) for _ in shape)]
    perm = draw(st.permutations(range(len(shape))))
    base = random_array(rng, tuple(shape[p] for p in perm), dtype)
    return base.transpose(np.argsort(perm))


def index_array(rng, shape, size, itype, allow_negative=True):
    it = np.dtype(itype)
    lo = -size if (it.kind == "i" and allow_negative) else 0
    hi = size
    if it.kind == "i":
        info = np.iinfo(it)
        lo = max(lo, int(info.min))
        hi = min(hi, int(info.max) + 1)
    return rng.integers(lo, hi, size=shape).astype(it)


shapes = st.lists(st.integers(1, 4), min_size=1, max_size=4).map(tuple)
dtypes = st.sampled_from(ALL_DTYPES)
itypes = st.sampled_from(NATIVE_INDEX + CONVERTED_INDEX)


@HYP
@given(shape=shapes, data=st.data(), dtype=dtypes, itype=itypes, reduction=st.sampled_from(REDUCTIONS))
def test_scatter_matches_reference(shape, data, dtype, itype, reduction):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    ax = axis % len(shape)
    k = data.draw(st.integers(1, 6))  # often more updates than positions: duplicates
    ishape = shape[:ax] + (k,) + shape[ax + 1 :]
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    x = data.draw(views(shape, dtype))
    upd = data.draw(views(ishape, dtype))
    if np.dtype(dtype).kind == "f" and reduction != "none":
        # NaN payload propagation is checked separately; keep reductions on numbers here
        x = np.nan_to_num(x, nan=1.5)
        upd = np.nan_to_num(upd, nan=-2.5)
    idx = index_array(rng, ishape, shape[ax], itype)
    expect = ref_scatter(x, idx, upd, ax, reduction)
    x_before = x.copy()
    got = sd.scatter(x, idx, upd, axis=axis, reduction=reduction)
    assert same_bits(got, expect)
    assert same_bits(x, x_before)
    # in place, into a strided view of x's copy
    y = data.draw(views(shape, dtype))
    y[...] = x
    r = sd.scatter(y, idx, upd, axis=axis, reduction=reduction, out=y)
    assert r is y and same_bits(y, expect)


@HYP
@given(shape=shapes, data=st.data(), dtype=dtypes, itype=itypes)
def test_gather_elements_matches_reference(shape, data, dtype, itype):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    ax = axis % len(shape)
    k = data.draw(st.integers(1, 6))
    ishape = shape[:ax] + (k,) + shape[ax + 1 :]
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    x = data.draw(views(shape, dtype))
    idx = index_array(rng, ishape, shape[ax], itype)
    got = sd.gather_elements(x, idx, axis=axis)
    assert same_bits(got, ref_gather_elements(x, idx, ax))
    assert same_bits(got, np.take_along_axis(x, idx.astype(np.int64), axis=ax))
    out = data.draw(views(ishape, dtype))
    assert sd.gather_elements(x, idx, axis=axis, out=out) is out
    assert same_bits(out, got)


@HYP
@given(shape=shapes, data=st.data(), dtype=dtypes, itype=itypes)
def test_gather_matches_reference(shape, data, dtype, itype):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    ax = axis % len(shape)
    ishape = data.draw(st.lists(st.integers(1, 4), min_size=0, max_size=3).map(tuple))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    x = data.draw(views(shape, dtype))
    idx = index_array(rng, ishape, shape[ax], itype)
    got = sd.gather(x, idx, axis=axis)
    assert got.shape == x.shape[:ax] + idx.shape + x.shape[ax + 1 :]
    assert same_bits(got, np.take(x, idx.astype(np.int64), axis=ax))
    if idx.ndim:
        assert same_bits(got, ref_gather(x, idx, ax))


@HYP
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=4).map(tuple), data=st.data(), dtype=dtypes, itype=itypes)
def test_gather_nd_matches_reference(shape, data, dtype, itype):
    r = len(shape)
    b = data.draw(st.integers(0, r - 1))
    L = data.draw(st.integers(1, r - b))
    mid = data.draw(st.lists(st.integers(1, 3), min_size=0, max_size=2).map(tuple))
    ishape = shape[:b] + mid + (L,)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    x = data.draw(views(shape, dtype))
    cols = [index_array(rng, ishape[:-1] + (1,), shape[b + c], itype) for c in range(L)]
    idx = np.concatenate(cols, axis=-1)
    got = sd.gather_nd(x, idx, batch_dims=b)
    assert same_bits(got, ref_gather_nd(x, idx, b))


@HYP
@given(shape=shapes, data=st.data(), dtype=dtypes, itype=itypes, reduction=st.sampled_from(REDUCTIONS))
def test_scatter_nd_matches_reference(shape, data, dtype, itype, reduction):
    r = len(shape)
    L = data.draw(st.integers(1, r))
    mid = data.draw(st.lists(st.integers(1, 5), min_size=0, max_size=2).map(tuple))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    x = data.draw(views(shape, dtype))
    upd = data.draw(views(mid + shape[L:], dtype))
    if np.dtype(dtype).kind == "f" and reduction != "none":
        x = np.nan_to_num(x, nan=0.5)
        upd = np.nan_to_num(upd, nan=3.0)
    cols = [index_array(rng, mid + (1,), shape[c], itype) for c in range(L)]
    idx = np.concatenate(cols, axis=-1)
    expect = ref_scatter_nd(x, idx, upd, reduction)
    assert same_bits(sd.scatter_nd(x, idx, upd, reduction=reduction), expect)
    y = x.copy()
    assert sd.scatter_nd(y, idx, upd, reduction=reduction, out=y) is y
    assert same_bits(y, expect)


# ---------------------------------------------------------------- duplicates and reductions
def test_duplicates_last_write_wins():
    x = np.zeros(3, np.int32)
    r = sd.scatter(x, np.array([1, 1, 1, 2, 1]), np.array([10, 20, 30, 40, 50], np.int32))
    assert r.tolist() == [0, 50, 40]
    r = sd.scatter_nd(x, np.array([[2], [2], [0]]), np.array([7, 8, 9], np.int32))
    assert r.tolist() == [9, 0, 8]


def test_reductions_small():
    x = np.array([1, 2, 3], np.int32)
    idx = np.array([0, 0, 2, 0])
    u = np.array([5, -4, 7, 2], np.int32)
    assert sd.scatter(x, idx, u, reduction="add").tolist() == [4, 2, 10]
    assert sd.scatter(x, idx, u, reduction="mul").tolist() == [-40, 2, 21]
    assert sd.scatter(x, idx, u, reduction="min").tolist() == [-4, 2, 3]
    assert sd.scatter(x, idx, u, reduction="max").tolist() == [5, 2, 7]


def test_integer_reductions_wrap():
    x = np.array([250, 2], np.uint8)
    assert sd.scatter(x, np.array([0, 0]), np.array([3, 4], np.uint8), reduction="add").tolist() == [1, 2]
    y = np.array([2**31 - 1], np.int32)
    assert sd.scatter(y, np.array([0]), np.array([1], np.int32), reduction="add").tolist() == [-(2**31)]
    z = np.array([-(2**63)], np.int64)
    assert sd.scatter(z, np.array([0]), np.array([-1], np.int64), reduction="mul").tolist() == [-(2**63)]
    w = np.array([65535], np.uint16)
    assert sd.scatter(w, np.array([0]), np.array([65535], np.uint16), reduction="mul").tolist() == [1]


def test_float16_rounds_each_step():
    # 2048 + 1 + 1 in float16: each step rounds back to 2048 (ties to even); a float32
    # accumulator would give 2050.
    x = np.array([2048], np.float16)
    r = sd.scatter(x, np.array([0, 0]), np.array([1, 1], np.float16), reduction="add")
    assert r.tolist() == [2048.0]
    assert same_bits(r, ref_scatter(x, np.array([0, 0]), np.array([1, 1], np.float16), 0, "add"))


def test_float_min_max_nan_propagates():
    for dt in (np.float16, np.float32, np.float64):
        x = np.array([1.0, np.nan, 5.0], dt)
        idx = np.array([0, 0, 1, 2, 2])
        u = np.array([np.nan, 0.5, 3.0, 7.0, 2.0], dt)
        mn = sd.scatter(x, idx, u, reduction="min")
        mx = sd.scatter(x, idx, u, reduction="max")
        # NaN in the accumulator or the update wins and stays (numpy minimum/maximum)
        assert np.isnan(mn[0]) and np.isnan(mn[1]) and mn[2] == 2.0
        assert np.isnan(mx[0]) and np.isnan(mx[1]) and mx[2] == 7.0
        assert same_bits(mn, ref_scatter(x, idx, u, 0, "min"))
        assert same_bits(mx, ref_scatter(x, idx, u, 0, "max"))
        with np.errstate(invalid="ignore"):
            assert np.array_equal(mn, [np.minimum.reduce([1.0, np.nan, 0.5]), np.nan, 2.0], equal_nan=True)


# ---------------------------------------------------------------- threads and SIMD targets
def _big_cases(rng):
    """Shapes large enough to be split over threads, with many duplicates."""
    x = random_array(rng, (96, 700), np.float32)
    x = np.nan_to_num(x, nan=1.0, posinf=2.0, neginf=-2.0)
    yield "axis0", x, rng.integers(-96, 96, (64, 700)), 0
    yield "axis1", x, rng.integers(0, 700, (96, 900)), 1
    yield "axis0_T", np.ascontiguousarray(x.T).T, rng.integers(0, 96, (40, 700)), 0


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_scatter_threads_identical_and_exact(reduction):
    rng = np.random.default_rng(7)
    with team_of(sd.get_num_threads()):
        for name, x, idx, axis in _big_cases(rng):
            upd = rng.standard_normal(idx.shape).astype(np.float32)
            if reduction == "mul":
                upd = (1 + upd / 64).astype(np.float32)
            results = []
            for t in (1, 2):
                sd.set_num_threads(t)
                results.append(sd.scatter(x, idx, upd, axis=axis, reduction=reduction))
            assert same_bits(results[0], results[1]), name
            if name != "axis1":  # the Python loop is slow; two layouts suffice for exactness
                assert same_bits(results[0], ref_scatter(x, idx, upd, axis, reduction)), name


def test_scatter_nd_threads_identical_and_exact():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((50, 40)).astype(np.float32)
    with team_of(sd.get_num_threads()):
        for idx, upd in (
            (rng.integers(0, 50, (3000, 1)), rng.standard_normal((3000, 40)).astype(np.float32)),  # row slices
            (rng.integers(0, 40, (20000, 2)) % [50, 40], rng.standard_normal(20000).astype(np.float32)),  # elements
        ):
            for reduction in REDUCTIONS:
                res = []
                for t in (1, 2):
                    sd.set_num_threads(t)
                    res.append(sd.scatter_nd(x, idx, upd, reduction=reduction))
                assert same_bits(res[0], res[1]), reduction
            if idx.shape[-1] == 1:
                assert same_bits(res[0], ref_scatter_nd(x, idx, upd, "max"))


def test_gathers_threads_identical():
    rng = np.random.default_rng(11)
    x = random_array(rng, (300, 500), np.float64)
    ge_idx = rng.integers(-300, 300, (400, 500))
    nd_idx = np.stack([np.arange(300) % 300, (7 * np.arange(300)) % 500], -1)
    with team_of(sd.get_num_threads()):
        outs = {}
        for t in (1, 2):
            sd.set_num_threads(t)
            outs[t] = (
                sd.gather_elements(x, ge_idx, axis=0),
                sd.gather(x, np.arange(499, -1, -1), axis=1),
                sd.gather_nd(x, nd_idx),
            )
        for a, b in zip(outs[1], outs[2]):
            assert same_bits(a, b)
        assert same_bits(outs[1][0], np.take_along_axis(x, ge_idx, axis=0))
        assert same_bits(outs[1][1], x[:, ::-1])
        assert same_bits(outs[1][2], x[nd_idx[:, 0], nd_idx[:, 1]])


def _fingerprint():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((64, 300)).astype(np.float32)
    parts = []
    for red in REDUCTIONS:
        parts.append(
            sd.scatter(
                x,
                rng.integers(0, 64, (80, 300)),
                rng.standard_normal((80, 300)).astype(np.float32),
                axis=0,
                reduction=red,
            )
        )
        parts.append(
            sd.scatter(
                x.astype(np.float16),
                rng.integers(0, 300, (64, 500)),
                rng.standard_normal((64, 500)).astype(np.float16),
                axis=1,
                reduction=red,
            )
        )
    parts.append(sd.gather_elements(x, rng.integers(-64, 64, (90, 300)), axis=0))
    return [p.tobytes() for p in parts]


def test_simd_targets_identical():
    targets = _core._simd_targets()
    before = _core._simd()
    old = sd.get_num_threads()
    _core._set_team_watch(False)  # two threads that are two (conftest.team_of)
    try:
        prints = {}
        for t in targets:
            _core._set_simd(t)
            for n in (1, 2):
                sd.set_num_threads(n)
                prints[(t, n)] = _fingerprint()
        first = next(iter(prints.values()))
        for k, v in prints.items():
            assert v == first, k
    finally:
        _core._set_simd(before)
        sd.set_num_threads(old)
        _core._set_team_watch(True)


def test_large_indices_narrowed_by_default_exact():
    """8 MiB of int64 indices: narrowed at the default threshold (uint16 along a short axis,
    uint32 along one longer than 65536), with negative indices; compared with numpy."""
    rng = np.random.default_rng(21)
    x = rng.standard_normal((256, 4096)).astype(np.float32)
    for axis in (0, 1):
        n = x.shape[axis]
        idx = rng.integers(-n, n, x.shape)
        assert idx.nbytes >= 4 << 20
        assert same_bits(sd.gather_elements(x, idx, axis=axis), np.take_along_axis(x, idx, axis=axis))
        perm = np.argsort(rng.random(x.shape), axis=axis)  # no duplicates: put_along_axis agrees
        perm = np.where(rng.random(x.shape) < 0.5, perm - n, perm)  # half of them negative
        upd = rng.standard_normal(x.shape).astype(np.float32)
        want = x.copy()
        np.put_along_axis(want, perm, upd, axis=axis)
        assert same_bits(sd.scatter(x, perm, upd, axis=axis), want)
        y = x.copy()
        assert sd.scatter(y, perm, upd, axis=axis, out=y) is y and same_bits(y, want)
    long = rng.standard_normal((2, 70000)).astype(np.float32)  # axis > 65536: uint32 narrowing
    idx = rng.integers(-70000, 70000, (2, 600000))
    assert same_bits(sd.gather_elements(long, idx, axis=1), np.take_along_axis(long, idx, axis=1))
    idx[1, 599999] = 70000
    out = np.full((2, 600000), 7, np.float32)
    with pytest.raises(
        IndexError, match=r"gather_elements\.indices\[1, 599999\] = 70000: out of range \[-70000, 70000\) for axis 1$"
    ):
        sd.gather_elements(long, idx, axis=1, out=out)
    assert (out == 7).all()


def test_narrowed_indices_in_many_threads():
    """Python threads share one cached plan; each narrows into its own scratch."""
    rng = np.random.default_rng(4)
    x = rng.standard_normal((512, 2048)).astype(np.float32)
    cases = [(rng.integers(0, 512, x.shape), rng.standard_normal(x.shape).astype(np.float32)) for _ in range(4)]
    # np.add.at applies the updates one by one in C order, as ref_scatter does (whose Python loop
    # over a million updates took most of this test's time): the same float32 sums, bit for bit.
    want0 = x.copy()
    np.add.at(want0, (cases[0][0], np.arange(x.shape[1])), cases[0][1])

    def body(k):
        i, u = cases[k]
        for _ in range(5):
            got = sd.scatter(x, i, u, axis=0, reduction="add")
            if k == 0:
                assert same_bits(got, want0)
            assert same_bits(sd.gather_elements(x, i, axis=0), np.take_along_axis(x, i, axis=0))

    run_threads(body, 4)


def test_gather_elements_into_misaligned_out():
    """Outputs whose float32 elements are not 4-byte aligned (a one-byte offset, an odd row
    stride): written with ordinary stores, never streaming ones."""
    rng = np.random.default_rng(9)
    x = rng.standard_normal((64, 64)).astype(np.float32)
    idx = rng.integers(-64, 64, (64, 64))
    want = np.take_along_axis(x, idx, axis=1)
    buf = np.zeros(64 * 64 * 4 + 1, np.uint8)
    shifted = buf[1:].view(np.float32).reshape(64, 64)
    assert not shifted.flags.aligned
    assert sd.gather_elements(x, idx, axis=1, out=shifted) is shifted
    assert same_bits(shifted, want)
    raw = np.zeros(64 * 257, np.uint8)
    odd = np.ndarray((64, 64), np.float32, buffer=raw, strides=(257, 4))  # rows 257 bytes apart
    assert not odd.flags.aligned
    sd.gather_elements(x, idx, axis=1, out=odd)
    assert same_bits(np.array(odd), want)


# ---------------------------------------------------------------- index errors
def _filled(shape, dtype=np.float32):
    return np.full(shape, 7, dtype)


def test_out_of_range_message_and_untouched():
    x = np.zeros((3, 3), np.float32)
    out = _filled((3, 3))
    idx = np.array([[1, 0, 2], [0, 2, 7]])
    with pytest.raises(IndexError, match=r"^scatter\.indices\[1, 2\] = 7: out of range \[-3, 3\) for axis 0$"):
        sd.scatter(x, idx, np.ones((2, 3), np.float32), out=out)
    assert (out == 7).all()


def test_negative_out_of_range_and_first_bad_reported():
    x = np.arange(12, dtype=np.int64).reshape(3, 4)
    idx = np.array([[0, 1, 2, 3], [0, -4, -5, 9], [9, 0, 0, 0]])  # -4 is fine for size 4; -5 is the first bad one
    with pytest.raises(IndexError, match=r"^gather_elements\.indices\[1, 2\] = -5: out of range \[-4, 4\) for axis 1$"):
        sd.gather_elements(x, idx, axis=1)


@pytest.mark.parametrize("itype", NATIVE_INDEX + CONVERTED_INDEX)
def test_errors_every_operator_leave_out_untouched(itype):
    bad = 200 if np.dtype(itype) != np.int8 else 100
    x = np.arange(20, dtype=np.float32).reshape(4, 5)
    cases = [
        ("gather", lambda o: sd.gather(x, np.array([1, bad], itype), axis=1, out=o), (4, 2), "gather.indices[1]"),
        (
            "gather_elements",
            lambda o: sd.gather_elements(x, np.array([[0] * 5, [bad] + [0] * 4], itype), out=o),
            (2, 5),
            "gather_elements.indices[1, 0]",
        ),
        (
            "gather_nd",
            lambda o: sd.gather_nd(x, np.array([[1, 2], [0, bad]], itype), out=o),
            (2,),
            "gather_nd.indices[1, 1]",
        ),
        (
            "scatter",
            lambda o: sd.scatter(x, np.array([[0] * 5, [1, 2, 3, bad, 0]], itype), np.ones((2, 5), np.float32), out=o),
            (4, 5),
            "scatter.indices[1, 3]",
        ),
        (
            "scatter_nd",
            lambda o: sd.scatter_nd(x, np.array([[1], [bad]], itype), np.ones((2, 5), np.float32), out=o),
            (4, 5),
            "scatter_nd.indices[1, 0]",
        ),
    ]
    for name, call, shape, where in cases:
        out = _filled(shape)
        with pytest.raises(IndexError) as e:
            call(out)
        assert str(e.value).startswith(where + f" = {bad}: out of range ["), (name, str(e.value))
        assert (out == 7).all(), name


def test_error_in_place_scatter_leaves_x_untouched():
    x = np.arange(10, dtype=np.float64)
    before = x.copy()
    with pytest.raises(IndexError):
        sd.scatter(x, np.array([0, 1, 10]), np.zeros(3), out=x)
    with pytest.raises(IndexError):
        sd.scatter_nd(x, np.array([[0], [-11]]), np.zeros(2), out=x)
    assert same_bits(x, before)


def test_unsigned_and_64bit_extremes():
    x = np.arange(5, dtype=np.int16)
    with pytest.raises(
        IndexError, match=r"^gather\.indices\[0\] = 18446744073709551615: out of range \[0, 5\) for axis 0$"
    ):
        sd.gather(x, np.array([2**64 - 1], np.uint64))
    with pytest.raises(
        IndexError, match=r"^gather\.indices\[0\] = -9223372036854775808: out of range \[-5, 5\) for axis 0$"
    ):
        sd.gather(x, np.array([-(2**63)], np.int64))
    assert sd.gather(x, np.array([4, 0], np.uint32)).tolist() == [4, 0]


@pytest.mark.parametrize("bad", [2**63, 2**64 - 1, 2**64 - 5])
@pytest.mark.parametrize("n", [40, 70000])  # an axis of 70000: no narrowing to uint16
def test_elements_uint64_beyond_int64(bad, n):
    """uint64 values that read as negative int64 (-1, -5 for an axis of 40 would be in range) are
    out of range for gather_elements and scatter (ScatterElements), fresh or into `out`, dense or tiled."""
    x = np.arange(2 * n, dtype=np.float32).reshape(2, n)
    for axis in (0, 1):
        idx = np.zeros((2, 3) if axis == 1 else (2, n), np.uint64)
        idx[1, 1] = bad
        o = np.full(idx.shape, -7.0, np.float32)
        with pytest.raises(IndexError, match=str(bad)):
            sd.gather_elements(x, idx, axis=axis)
        with pytest.raises(IndexError, match=str(bad)):
            sd.gather_elements(x, idx, axis=axis, out=o)
        assert (o == -7).all()
        t = x.copy()
        with pytest.raises(IndexError, match=str(bad)):
            sd.scatter(t, idx, np.ones(idx.shape, np.float32), axis=axis, reduction="add", out=t)
        assert same_bits(t, x)
        idx[1, 1] = x.shape[axis] - 1  # and in range, the same call works
        want = np.take_along_axis(x, idx.astype(np.int64), axis)
        assert same_bits(sd.gather_elements(x, idx, axis=axis), want)


def test_error_large_parallel_check():
    rng = np.random.default_rng(1)
    x = np.zeros((512, 512), np.float32)
    idx = rng.integers(0, 512, (512, 512))
    idx[300, 17] = 512
    idx[400, 3] = -600
    out = _filled((512, 512))
    with team_of(sd.get_num_threads()):
        for t in (1, 2):
            sd.set_num_threads(t)
            with pytest.raises(
                IndexError, match=r"^scatter\.indices\[300, 17\] = 512: out of range \[-512, 512\) for axis 0$"
            ):
                sd.scatter(x, idx, np.ones((512, 512), np.float32), out=out)
            assert (out == 7).all()


# ---------------------------------------------------------------- arguments
def test_index_dtype_rules():
    x = np.arange(6, dtype=np.float32)
    with pytest.raises(TypeError, match="gather.indices: boolean"):
        sd.gather(x, np.array([True, False]))
    with pytest.raises(TypeError, match="scatter.indices: expected an integer array, got dtype float64"):
        sd.scatter(x, np.array([1.0]), np.array([1.0], np.float32))
    for it in CONVERTED_INDEX:
        assert sd.gather(x, np.array([5, 1], it)).tolist() == [5, 1]
    assert sd.gather(x, [3, -1]).tolist() == [3, 5]  # lists are fine
    big_endian = np.array([2, 4], ">i8")
    assert sd.gather(x, big_endian).tolist() == [2, 4]


def test_gather_elements_indices_do_not_broadcast():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    idx = np.array([[2], [0]])  # shape (2, 1): selects column 0 only (SPEC 3.4), unlike take_along_axis
    assert same_bits(sd.gather_elements(x, idx, axis=0), np.array([[8], [0]], np.float32))


def test_gather_scalar_index_and_negative_axis():
    x = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    assert same_bits(sd.gather(x, np.int64(-1), axis=1), np.take(x, -1, axis=1))
    assert same_bits(sd.gather(x, np.array([[3, 0], [1, 1]]), axis=-1), np.take(x, [[3, 0], [1, 1]], axis=-1))
    out = np.empty((2, 4), np.int32)
    assert sd.gather(x, 2, axis=1, out=out) is out and same_bits(out, x[:, 2])


def test_out_rules():
    x = np.arange(6, dtype=np.float32)
    with pytest.raises(sd.ValidationError, match="out: expected shape"):
        sd.gather(x, [1, 2], out=np.empty(3, np.float32))
    with pytest.raises(sd.ValidationError, match="out: expected dtype"):
        sd.scatter(x, [1], [1.0], out=np.empty(6, np.float64))
    ro = np.empty(6, np.float32)
    ro.flags.writeable = False
    with pytest.raises(BufferError):
        sd.scatter(x, [1], [1.0], out=ro)
    with pytest.raises(TypeError):
        sd.gather_elements(x, [1], out=[0.0])
    with pytest.raises(sd.ValidationError, match="reduction"):
        sd.scatter(x, [1], [1.0], reduction="sum")
    with pytest.raises(sd.ValidationError, match="updates: dtype"):
        sd.scatter(x, [1], np.array([1.0]))


def test_updates_broadcast_and_python_values():
    x = np.zeros((3, 4), np.int16)
    r = sd.scatter(x, np.array([[2, 0, 1, 2]]), 5, axis=0)
    assert r.tolist() == [[0, 5, 0, 0], [0, 0, 5, 0], [5, 0, 0, 5]]
    r = sd.scatter_nd(x, np.array([[1], [2]]), [1, 2, 3, 4])
    assert r.tolist() == [[0, 0, 0, 0], [1, 2, 3, 4], [1, 2, 3, 4]]


def test_updates_overlapping_out():
    x = np.arange(8, dtype=np.float64)
    expect = ref_scatter(x, np.array([0, 1, 2]), x[5:8].copy(), 0)
    r = sd.scatter(x, np.array([0, 1, 2]), x[5:8], out=x)  # updates read from the output itself
    assert r is x and same_bits(x, expect)
    y = np.arange(8, dtype=np.float64)
    expect = ref_scatter(y, np.array([3, 4]), y[::-1][:2].copy(), 0)
    sd.scatter(y[::-1].copy()[::-1], np.array([3, 4]), y[::-1][:2], out=y)
    assert same_bits(y, expect)


def test_empty_arrays():
    x = np.zeros((0, 3), np.float32)
    assert sd.gather(x, np.array([], np.int64), axis=0).shape == (0, 3)
    assert sd.gather(np.zeros((2, 3)), np.zeros((0,), np.int64), axis=1).shape == (2, 0)
    assert sd.gather_elements(np.zeros((2, 3)), np.zeros((2, 0), np.int64), axis=1).shape == (2, 0)
    assert sd.gather_nd(np.zeros((2, 3)), np.zeros((0, 2), np.int64)).shape == (0,)
    y = np.arange(6.0).reshape(2, 3)
    assert same_bits(sd.scatter(y, np.zeros((0, 3), np.int64), np.zeros((0, 3)), axis=0), y)
    assert same_bits(sd.scatter_nd(y, np.zeros((0, 1), np.int64), np.zeros((0, 3))), y)
    assert sd.scatter(x, np.zeros((0, 3), np.int64), np.zeros((0, 3), np.float32)).shape == (0, 3)
    with pytest.raises(IndexError):
        sd.gather(np.zeros((0, 3)), np.array([0]), axis=0)
    with pytest.raises(IndexError):
        sd.gather(np.zeros((2, 0)), np.array([5]), axis=0)


def test_all_dtypes_bit_exact_payloads():
    rng = np.random.default_rng(2)
    for dt in ALL_DTYPES:
        x = random_array(rng, (5, 6), dt)
        u = random_array(rng, (3, 6), dt)
        idx = rng.integers(-5, 5, (3, 6))
        assert same_bits(sd.scatter(x, idx, u), ref_scatter(x, idx, u, 0)), dt
        assert same_bits(sd.gather_elements(x, idx, axis=0), ref_gather_elements(x, idx, 0)), dt


# ---------------------------------------------------------------- descriptions
def _td(a):
    return sd.TensorDesc.from_array(a)


def test_descriptions_compile_execute():
    x = np.array([0, 1, 2, 3, 4], np.float32)
    idx = np.array([3, 1, 3, 0], np.uint32)
    upd = np.array([5, 6, 7, 8], np.float32)
    out = np.zeros(5, np.float32)
    op = sd.compile(sd.ScatterDesc(_td(x), _td(idx), _td(upd), _td(out), 0))
    op.execute([x, idx, upd], [out])
    assert out.tolist() == [8, 6, 2, 7, 4]
    assert sd.ScatterElementsDesc is sd.ScatterDesc

    x3 = np.arange(1, 10, dtype=np.float32).reshape(3, 3)
    i3 = np.array([[1, 2, 0], [2, 0, 0]], np.int64)
    o3 = np.zeros((2, 3), np.float32)
    sd.compile(sd.GatherElementsDesc(_td(x3), _td(i3), _td(o3), 0)).execute([x3, i3], [o3])
    assert o3.tolist() == [[4, 8, 3], [7, 2, 3]]

    g_in = np.array([11, 12, 13, 14], np.float32).reshape(1, 4)
    g_idx = np.array([3, 1, 3, 0, 2], np.int32).reshape(1, 5)
    g_out = np.zeros((1, 5), np.float32)
    sd.compile(sd.GatherDesc(_td(g_in), _td(g_idx), _td(g_out), 1, 1)).execute([g_in, g_idx], [g_out])
    assert g_out.ravel().tolist() == [14, 12, 14, 11, 13]

    n_in = np.array([[0, 1], [2, 3]], np.float32)
    n_idx = np.array([[1], [0]], np.uint32)
    n_out = np.zeros((2, 2), np.float32)
    sd.compile(sd.GatherNDDesc(_td(n_in), _td(n_idx), _td(n_out), 2, 2)).execute([n_in, n_idx], [n_out])
    assert n_out.tolist() == [[2, 3], [0, 1]]

    s_in = np.arange(1, 9, dtype=np.float32).reshape(1, 8)
    s_idx = np.array([[4], [3], [1], [7]], np.uint32)
    s_upd = np.array([9, 10, 11, 12], np.float32).reshape(1, 4)
    s_out = np.zeros((1, 8), np.float32)
    sd.compile(sd.ScatterNDDesc(_td(s_in), _td(s_idx), _td(s_upd), _td(s_out), 1, 2)).execute(
        [s_in, s_idx, s_upd], [s_out]
    )
    assert s_out.ravel().tolist() == [1, 11, 3, 10, 9, 6, 7, 12]


def test_description_index_error_writes_nothing():
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    idx = np.array([[0, 1, 2], [1, 0, 5]], np.int64)
    out = np.full((2, 3), -1, np.int32)
    op = sd.compile(sd.GatherElementsDesc(_td(x), _td(idx), _td(out), 1))
    with pytest.raises(
        IndexError, match=r"^GatherElementsDesc\.indices\[1, 2\] = 5: out of range \[-3, 3\) for axis 1$"
    ):
        op.execute([x, idx], [out])
    assert (out == -1).all()


def test_description_scatter_reduction_and_in_place_buffer():
    x = np.array([1, 2, 3], np.float64)
    idx = np.array([0, 0, 2], np.int32)
    upd = np.array([10, 20, 30], np.float64)
    op = sd.compile(sd.ScatterDesc(_td(x), _td(idx), _td(upd), _td(x), 0, reduction="add"))
    op.execute([x, idx, upd], [x])  # the output is the input's buffer: in place
    assert x.tolist() == [31, 2, 33]


def test_scatter_nd_many_shapes_against_itertools():
    # a 3-d scatter_nd with pairs of coordinates, compared with an explicit loop
    x = np.zeros((3, 4, 2), np.int64)
    idx = np.array(list(itertools.product(range(3), range(4))))[::-1]
    upd = np.arange(24, dtype=np.int64).reshape(12, 2)
    got = sd.scatter_nd(x, idx, upd)
    exp = x.copy()
    for t, (a, b) in enumerate(idx):
        exp[a, b] = upd[t]
    assert same_bits(got, exp)
