"""The index operators' multi-threaded paths of issue 14 (goal 2), against loop references:
scatter_nd's bucketing pass (tuples checked and filed per target region in one read, applied per
region in tuple order), for every element width, reduction, duplicates, negative indices,
strided operands, and out-of-range indices (typed error, output untouched); bit-identical
results for 1-4 threads."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import strided as sd
from conftest import ALL_DTYPES, random_array, same_bits

REDUCTIONS = ["none", "add", "mul", "min", "max"]
THREADS = (1, 2, 3, 4)


@pytest.fixture
def threads():
    old = sd.get_num_threads()
    yield
    sd.set_num_threads(old)


@pytest.fixture(params=["compact", "wide"])
def entries(request):
    """scatter_nd files each tuple's target and updates offsets as 32-bit values where every
    offset fits (the default), else as 64-bit ones: both paths, the wide one forced (plans made
    while it is set take it)."""
    core = sd._core
    old = core._index_compact_entries()
    core._set_index_compact_entries(request.param == "compact")
    yield
    core._set_index_compact_entries(old)


def _step(acc: np.ndarray, u: np.ndarray, reduction: str) -> np.ndarray:
    """One reduction step in the element type (arrays of one dtype; numpy's rules, which the
    library documents: integers wrap, float16 rounds each step, float min/max keep NaN)."""
    with np.errstate(all="ignore"):
        if reduction == "none":
            return u.copy()
        if reduction == "add":
            return acc + u
        if reduction == "mul":
            return acc * u
        if acc.dtype.kind == "f":
            keep = np.isnan(acc) | ((acc <= u) if reduction == "min" else (acc >= u))
        else:
            keep = (acc <= u) if reduction == "min" else (acc >= u)
        return np.where(keep, acc, u)


def ref_scatter_nd_loop(x, idx, upd, reduction):
    """Serial loop over the tuples in row-major order."""
    out = x.copy()
    L = idx.shape[-1]
    flat_i = idx.reshape(-1, L)
    flat_u = upd.reshape((flat_i.shape[0],) + x.shape[L:])
    for t in range(flat_i.shape[0]):
        key = tuple(int(v) + (x.shape[k] if int(v) < 0 else 0) for k, v in enumerate(flat_i[t]))
        out[key] = _step(np.asarray(out[key]), np.asarray(flat_u[t]), reduction)
    return out


def ref_scatter_nd(x, idx, upd, reduction):
    """The serial loop's result in fewer numpy steps: tuples naming different targets commute,
    so round r applies every target's r-th tuple (in row-major order) at once, with the same
    element step. As many rounds as the most repeated target has tuples."""
    L = idx.shape[-1]
    flat_i = idx.reshape(-1, L).astype(np.int64)
    n = flat_i.shape[0]
    if L == 0 or n == 0:
        return ref_scatter_nd_loop(x, idx, upd, reduction)
    out = x.copy()
    flat_u = upd.reshape((n,) + x.shape[L:])
    flat_i = np.where(flat_i < 0, flat_i + np.array(x.shape[:L], np.int64), flat_i)
    order = np.argsort(np.ravel_multi_index(tuple(flat_i.T), x.shape[:L]), kind="stable")
    first = np.r_[True, (np.diff(flat_i[order], axis=0) != 0).any(axis=1)]
    rank = np.arange(n) - np.maximum.accumulate(np.where(first, np.arange(n), 0))
    for r in range(int(rank.max()) + 1):
        sel = order[rank == r]
        key = tuple(flat_i[sel].T)
        out[key] = _step(out[key], flat_u[sel], reduction)
    return out


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_ref_scatter_nd_rounds_match_the_loop(reduction):
    """The rounds reference above against the plain loop (elements and rows, duplicates,
    negative indices, NaN and signed zeros among float updates; bit-exact but for NaN payloads)."""
    rng = np.random.default_rng(5)
    for dtype in (np.int8, np.uint64, np.float16, np.float64):
        for shape, L in (((7, 5), 2), ((9, 4), 1), ((3, 4, 5), 2)):
            x = random_array(rng, shape, dtype)
            idx = np.stack([rng.integers(-shape[k], shape[k], 200) for k in range(L)], -1)
            upd = random_array(rng, (200,) + shape[L:], dtype)
            if np.dtype(dtype).kind == "f":
                upd.flat[::7] = np.nan
                upd.flat[1::7] = -0.0
                upd.flat[2::7] = 0.0
            got, want = ref_scatter_nd(x, idx, upd, reduction), ref_scatter_nd_loop(x, idx, upd, reduction)
            assert same_or_nan(got, want)  # NaN payloads: numpy's vector and scalar adds may differ


def same_or_nan(a: np.ndarray, b: np.ndarray) -> bool:
    """Bit-exact except that a NaN matches any NaN (numpy's vector add may pick the other
    operand's NaN payload; thread counts are still compared bit for bit)."""
    if a.dtype.kind != "f":
        return same_bits(a, b)
    na, nb = np.isnan(a), np.isnan(b)
    return bool((na == nb).all()) and same_bits(np.where(na, 0, a).astype(a.dtype), np.where(nb, 0, b).astype(b.dtype))


def _all_threads(fn):
    res = []
    for t in THREADS:
        sd.set_num_threads(t)
        res.append(fn())
    for r in res[1:]:
        assert same_bits(res[0], r)
    return res[0]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_scatter_nd_elements_buckets(dtype, reduction, threads, entries):
    rng = np.random.default_rng(1)
    x = random_array(rng, (60, 50), dtype)
    if np.dtype(dtype).kind == "f":
        x = np.nan_to_num(x, nan=1.0, posinf=2.0, neginf=-2.0).astype(dtype)
    idx = np.stack([rng.integers(-60, 60, 12000), rng.integers(-50, 50, 12000)], -1)  # many duplicates
    upd = random_array(rng, (12000,), dtype)
    got = _all_threads(lambda: sd.scatter_nd(x, idx, upd, reduction=reduction))
    assert same_or_nan(got, ref_scatter_nd(x, idx, upd, reduction))

    def in_place():
        y = x.copy()
        sd.scatter_nd(y, idx, upd, reduction=reduction, out=y)
        return y

    assert same_bits(_all_threads(in_place), got)


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.float64])
@pytest.mark.parametrize("itype", [np.int32, np.int64, np.uint32, np.uint64])
def test_scatter_nd_rows_buckets(dtype, itype, threads, entries):
    rng = np.random.default_rng(2)
    x = random_array(rng, (300, 64), dtype)
    idx = rng.integers(0, 300, (4000, 1)).astype(itype)
    upd = random_array(rng, (4000, 64), dtype)
    got = _all_threads(lambda: sd.scatter_nd(x, idx, upd))
    assert same_bits(got, ref_scatter_nd(x, idx, upd, "none"))


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.float64])
@pytest.mark.parametrize("cols", [64, 50, 200])
def test_scatter_nd_rows_streamed(dtype, cols, stream_mode):
    """Plain row writes streamed (threshold 0): the rows' whole cache lines bypass the cache,
    their edge lines are stored normally. Rows of 50..1600 bytes, outputs shifted off the line
    by one element and by 16 bytes, duplicates (the later row wins), every thread count."""
    rng = np.random.default_rng(21)
    x = random_array(rng, (300, cols), dtype)
    idx = rng.integers(-300, 300, (4000, 1))
    upd = random_array(rng, (4000, cols), dtype)
    want = ref_scatter_nd(x, idx, upd, "none")
    assert same_bits(_all_threads(lambda: sd.scatter_nd(x, idx, upd)), want)
    w = np.dtype(dtype).itemsize
    for shift in (0, w, 16):
        buf = np.zeros(x.nbytes + 64, np.uint8)

        def in_place(shift=shift, buf=buf):
            y = buf[shift : shift + x.nbytes].view(dtype).reshape(x.shape)
            y[...] = x
            sd.scatter_nd(y, idx, upd, out=y)
            return y.copy()

        assert same_bits(_all_threads(in_place), want)
        assert (buf[:shift] == 0).all() and (buf[shift + x.nbytes :] == 0).all()


@pytest.mark.parametrize("dtype", [np.int8, np.float16, np.float32, np.float64])
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_scatter_nd_large_slices(dtype, reduction, threads):
    """Slices of 1024+ elements take the walk (each thread owns a part of every slice), with a
    constant-stride loop for dense slices: dense and reversed slices, duplicates, every thread
    count bit-identical, against the loop reference."""
    rng = np.random.default_rng(8)
    x = random_array(rng, (40, 1536), dtype)
    if np.dtype(dtype).kind == "f":
        x = np.nan_to_num(x, nan=1.0, posinf=2.0, neginf=-2.0).astype(dtype)
    idx = rng.integers(-40, 40, (90, 1))  # duplicates: combined in tuple order
    upd = random_array(rng, (90, 1536), dtype)
    if np.dtype(dtype).kind == "f":
        upd = np.nan_to_num(upd, nan=3.0, posinf=2.0, neginf=-2.0).astype(dtype)
    for xs, us in ((x, upd), (x[:, ::-1], upd[:, ::-2].repeat(2, axis=1)[:, :1536])):
        got = _all_threads(lambda xs=xs, us=us: sd.scatter_nd(xs, idx, us, reduction=reduction))
        assert same_or_nan(got, ref_scatter_nd(xs, idx, us, reduction))


@pytest.mark.parametrize("reduction", ["none", "add"])
def test_scatter_nd_strided_operands(reduction, threads, entries):
    rng = np.random.default_rng(3)
    base = rng.standard_normal((80, 40, 6)).astype(np.float32)
    x = base[:, ::2, ::-2]  # non-contiguous target, slices of 3 with a negative stride
    idx = np.asfortranarray(np.stack([rng.integers(-80, 80, 5000), rng.integers(0, 20, 5000)], -1))
    upd = rng.standard_normal((5000, 6)).astype(np.float32)[:, ::2]
    got = _all_threads(lambda: sd.scatter_nd(x, idx, upd, reduction=reduction))
    assert same_bits(got, ref_scatter_nd(x, idx, upd, reduction))
    # in place into a strided view of a bigger array
    for t in THREADS:
        sd.set_num_threads(t)
        b2 = base.copy()
        sd.scatter_nd(b2[:, ::2, ::-2], idx, upd, reduction=reduction, out=b2[:, ::2, ::-2])
        assert same_bits(b2[:, ::2, ::-2], got)
        assert same_bits(b2[:, 1::2], base[:, 1::2])


@pytest.mark.parametrize("bad_at", [0, 7777, 11999])
def test_scatter_nd_bad_index_writes_nothing(bad_at, threads, entries):
    rng = np.random.default_rng(4)
    x = rng.standard_normal((60, 50)).astype(np.float32)
    idx = np.stack([rng.integers(0, 60, 12000), rng.integers(0, 50, 12000)], -1)
    idx[bad_at, 1] = 50
    if bad_at < 11999:
        idx[-1, 0] = -61  # a later bad one: the first is named
    upd = rng.standard_normal(12000).astype(np.float32)
    for t in THREADS:
        sd.set_num_threads(t)
        out = np.full((60, 50), 7.0, np.float32)
        with pytest.raises(
            IndexError, match=rf"^scatter_nd\.indices\[{bad_at}, 1\] = 50: out of range \[-50, 50\) for axis 1$"
        ):
            sd.scatter_nd(x, idx, upd, out=out)
        assert (out == 7.0).all()
        with pytest.raises(IndexError, match=rf"scatter_nd.indices\[{bad_at}, 1\]"):
            sd.scatter_nd(out, idx, upd, out=out)  # in place: filed and applied in one team
        assert (out == 7.0).all()


# ---------------------------------------------------------------- join of many arrays
def test_join_many_small_arrays_fast_read():
    rng = np.random.default_rng(5)
    base = rng.standard_normal((12000, 3)).astype(np.float32)
    xs = [base[i, ::-1][:2] if i % 3 == 0 else base[i] for i in range(10000)]  # strided and plain
    xs[17] = list(base[17])  # not an array: the general reader
    xs[18] = base[18].astype(np.dtype(np.float32, metadata={"m": 1}))  # another dtype object, same dtype
    got = sd.join(xs, axis=0)
    assert same_bits(got, np.concatenate([np.asarray(x, np.float32) for x in xs]))
    out = np.zeros(got.shape, np.float32)
    assert sd.join(xs, out=out) is out and same_bits(out, got)
    assert same_bits(sd.join(tuple(xs)), got)


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.float64])
def test_join_many_axis1_and_empty(dtype):
    rng = np.random.default_rng(6)
    xs = [random_array(rng, (3, int(rng.integers(0, 4))), dtype) for _ in range(3000)]
    assert same_bits(sd.join(xs, axis=1), np.concatenate(xs, axis=1))
    assert same_bits(sd.join(xs, axis=-1), np.concatenate(xs, axis=1))


def test_join_many_errors_name_the_array():
    xs = [np.ones(4, np.float32) for _ in range(500)]
    bad = list(xs)
    bad[321] = np.ones(4, np.float64)
    with pytest.raises(sd.ValidationError, match=r"arrays\[321\]: dtype float64 differs"):
        sd.join(bad)
    bad = list(xs)
    bad[99] = np.ones((4, 1), np.float32)
    with pytest.raises(sd.ValidationError, match=r"arrays\[99\]: shape"):
        sd.join(bad)
    bad = list(xs)
    bad[250] = np.ones(4, ">f4")
    with pytest.raises(sd.ValidationError, match=r"arrays\[250\]\.dtype: non-native byte order"):
        sd.join(bad)
    bad = list(xs)
    bad[7] = np.ones((), np.float32)
    with pytest.raises(sd.ValidationError, match=r"arrays\[7\]: zero-dimensional"):
        sd.join(bad)
    out = np.full(2000, 5.0, np.float32)
    with pytest.raises(sd.ValidationError):
        sd.join(xs[:499], out=out)
    assert (out == 5.0).all()


def test_join_nested_in_array_conversion():
    """An input whose conversion calls join again (on the same thread) gets a scratch of its own."""

    class Inner:
        def __array__(self, dtype=None, copy=None):
            return sd.join([np.full(2, 3.0, np.float32)] * 50)

    xs = [np.zeros(2, np.float32)] * 20 + [Inner()] + [np.ones(2, np.float32)] * 20
    want = np.concatenate([np.zeros(40, np.float32), np.full(100, 3.0, np.float32), np.ones(40, np.float32)])
    assert same_bits(sd.join(xs), want)


def test_join_threads_identical(threads):
    rng = np.random.default_rng(8)
    xs = [rng.standard_normal(int(rng.integers(1, 300))).astype(np.float32) for _ in range(2000)]
    got = _all_threads(lambda: sd.join(xs))
    assert same_bits(got, np.concatenate(xs))


# ---------------------------------------------------------------- gather_elements, new result
# A new result (no out=) lets the last-axis gather check each index at its one read (the result
# is dropped on failure); with out= every index is checked before the first write.
@pytest.fixture(params=["plain", "streamed"])
def stream_mode(request):
    core = sd._core
    old = core._stream_threshold()
    core._set_stream_threshold(0 if request.param == "streamed" else old)
    yield request.param
    core._set_stream_threshold(old)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("itype", [np.int32, np.int64, np.uint32, np.uint64])
def test_gather_elements_new_result_last_axis(dtype, itype, stream_mode, threads):
    rng = np.random.default_rng(9)
    x = random_array(rng, (300, 257), dtype)
    lo = -257 if np.dtype(itype).kind == "i" else 0
    idx = rng.integers(lo, 257, (300, 500)).astype(itype)
    want = np.take_along_axis(x, idx.astype(np.int64) % 257, axis=1)
    got = _all_threads(lambda: sd.gather_elements(x, idx, axis=1))
    assert same_bits(got, want)
    out = np.empty_like(want)
    assert same_bits(sd.gather_elements(x, idx, axis=1, out=out), want)
    # 3-d, last axis; and a strided x / indices (the checking-first kernels)
    x3 = random_array(rng, (4, 30, 65), dtype)
    i3 = rng.integers(0, 65, (4, 30, 70)).astype(itype)
    assert same_bits(sd.gather_elements(x3, i3, axis=2), np.take_along_axis(x3, i3.astype(np.int64), axis=2))
    assert same_bits(
        sd.gather_elements(x3[:, ::2, ::-1], i3[:, ::2, ::3], axis=2),
        np.take_along_axis(x3[:, ::2, ::-1], i3[:, ::2, ::3].astype(np.int64), axis=2),
    )


# (150, 300) and (200, 460): past the first pieces of a line (long lines run in pieces, the
# next line's prefetches spread between them).
@pytest.mark.parametrize("where", [(0, 0), (123, 45), (150, 300), (200, 460), (299, 499)])
def test_gather_elements_new_result_bad_index(where, stream_mode, threads):
    rng = np.random.default_rng(10)
    x = rng.standard_normal((300, 257)).astype(np.float32)
    idx = rng.integers(-257, 257, (300, 500))
    idx[where] = 257
    idx[299, 499] = -258 if where != (299, 499) else 257  # a later bad one: the first is named
    for t in THREADS:
        sd.set_num_threads(t)
        msg = rf"^gather_elements\.indices\[{where[0]}, {where[1]}\] = 257: out of range \[-257, 257\) for axis 1$"
        with pytest.raises(IndexError, match=msg):
            sd.gather_elements(x, idx, axis=1)
        out = np.full((300, 500), 3.0, np.float32)
        with pytest.raises(IndexError, match=msg):
            sd.gather_elements(x, idx, axis=1, out=out)
        assert (out == 3.0).all()
        idx2 = idx.copy()
        idx2[where] = 0
        idx2[299, 499] = 0
        assert same_bits(sd.gather_elements(x, idx2, axis=1), np.take_along_axis(x, idx2, axis=1))


# ---------------------------------------------------------------- gather_nd, new result
def ref_gather_nd(x, idx, batch_dims=0):
    """Loop reference: out[b, t] = x[b, idx[b, t, :]] (numpy indexing per tuple)."""
    L = idx.shape[-1]
    bshape = idx.shape[:batch_dims]
    tshape = idx.shape[batch_dims:-1]
    out = np.empty(bshape + tshape + x.shape[batch_dims + L :], x.dtype)
    for b in np.ndindex(*bshape):
        for t in np.ndindex(*tshape):
            key = tuple(int(v) for v in idx[b + t])
            out[b + t] = x[b + key]
    return out


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("itype", [np.int32, np.int64, np.uint32, np.uint64])
def test_gather_nd_new_result(dtype, itype, threads):
    rng = np.random.default_rng(11)
    x = random_array(rng, (40, 30, 5), dtype)
    signed = np.dtype(itype).kind == "i"
    pts = np.stack([rng.integers(-40 if signed else 0, 40, 6000), rng.integers(-30 if signed else 0, 30, 6000)], -1)
    pts = pts.astype(itype)
    got = _all_threads(lambda: sd.gather_nd(x, pts))
    assert same_bits(got, ref_gather_nd(x, pts.astype(np.int64)))
    assert same_bits(sd.gather_nd(x, pts, out=np.empty_like(got)), got)
    one = rng.integers(0, 40, (700, 1)).astype(itype)  # row slices
    assert same_bits(_all_threads(lambda: sd.gather_nd(x, one)), x[one[:, 0].astype(np.int64)])
    bt = rng.integers(0, 30, (40, 9, 1)).astype(itype)  # batch_dims=1
    assert same_bits(sd.gather_nd(x, bt, batch_dims=1), ref_gather_nd(x, bt.astype(np.int64), 1))
    strided_pts = np.asfortranarray(pts)[::2]
    assert same_bits(sd.gather_nd(x[:, ::-1], strided_pts), ref_gather_nd(x[:, ::-1], strided_pts.astype(np.int64)))


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.float64])
@pytest.mark.parametrize("count", [1, 31, 32, 33, 64, 1000])
def test_gather_far_rows_in_blocks(dtype, count, threads):
    """sd.gather from an axis spanning more than 1 MiB reads its indices a block ahead (32,
    prefetched): counts around the block size, single elements and slices, a reversed source,
    negative indices, an outer dimension (the ring restarts per row), against numpy.take."""
    rng = np.random.default_rng(21)
    n = (1 << 21) // np.dtype(dtype).itemsize + 3  # just over 2 MiB along the axis
    x = random_array(rng, (n,), dtype)
    idx = rng.integers(-n, n, count)
    for t in THREADS:
        sd.set_num_threads(t)
        assert same_bits(sd.gather(x, idx, axis=0), np.take(x, idx))
        assert same_bits(sd.gather(x[::-1], idx, axis=0), np.take(x[::-1], idx))
    rows = random_array(rng, (n // 4, 4), dtype)  # slices of 4 elements
    ridx = rng.integers(-(n // 4), n // 4, count)
    batch = random_array(rng, (2, n // 8, 3), dtype)  # an outer dimension and slices of 3
    bidx = rng.integers(0, n // 8, (count, 2))
    for t in THREADS:
        sd.set_num_threads(t)
        assert same_bits(sd.gather(rows, ridx, axis=0), np.take(rows, ridx, axis=0))
        assert same_bits(sd.gather(batch, bidx, axis=1), np.take(batch, bidx, axis=1))


@pytest.mark.parametrize("where", [(0, 0), (2500, 1), (5999, 1)])
def test_gather_nd_new_result_bad_index(where, threads):
    rng = np.random.default_rng(12)
    x = rng.standard_normal((40, 30)).astype(np.float32)
    pts = np.stack([rng.integers(-40, 40, 6000), rng.integers(-30, 30, 6000)], -1)
    bound = 40 if where[1] == 0 else 30
    pts[where] = -bound - 1
    if where != (5999, 1):
        pts[5999, 1] = 30  # a later bad one: the first is named
    msg = rf"^gather_nd\.indices\[{where[0]}, {where[1]}\] = {-bound - 1}: out of range \[{-bound}, {bound}\) for axis {where[1]}$"
    for t in THREADS:
        sd.set_num_threads(t)
        with pytest.raises(IndexError, match=msg):
            sd.gather_nd(x, pts)
        out = np.full(6000, 4.0, np.float32)
        with pytest.raises(IndexError, match=msg):
            sd.gather_nd(x, pts, out=out)
        assert (out == 4.0).all()


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint32, np.float64, np.uint16, np.uint8])
@pytest.mark.parametrize("k", [1, 15, 16, 17, 37, 500])
def test_gather_elements_out_narrowed_lines(dtype, k, stream_mode, threads):
    """out= with the indices narrowed to uint16 during the check (threshold 0): the narrowed
    dense-line kernels (AVX2 gathers of 8 for 4-byte elements), every line length around 8/16,
    misaligned outputs."""
    core = sd._core
    old = core._index_narrow_threshold()
    core._set_index_narrow_threshold(0)
    try:
        rng = np.random.default_rng(13)
        x = random_array(rng, (64, 300), dtype)
        idx = rng.integers(-300, 300, (64, k))
        want = np.take_along_axis(x, idx % 300, axis=1)
        for t in THREADS:
            sd.set_num_threads(t)
            buf = np.zeros(64 * k * np.dtype(dtype).itemsize + 8, np.uint8)
            for shift in (0, np.dtype(dtype).itemsize):  # aligned and shifted by one element
                out = buf[shift : shift + want.nbytes].view(dtype).reshape(want.shape)
                sd.gather_elements(x, idx, axis=1, out=out)
                assert same_bits(out, want)
                assert same_bits(sd.gather_elements(x, idx.astype(np.int32), axis=1), want)
    finally:
        core._set_index_narrow_threshold(old)


def test_gather_elements_simd_targets_identical(threads):
    """The AVX2 line kernels and the scalar ones give the same bits (new result and out=)."""
    core = sd._core
    rng = np.random.default_rng(14)
    x = random_array(rng, (50, 1000), np.float32)
    idx = rng.integers(-1000, 1000, (50, 777))
    want = np.take_along_axis(x, idx % 1000, axis=1)
    before, old_n = core._simd(), core._index_narrow_threshold()
    try:
        for narrow in (old_n, 0):
            core._set_index_narrow_threshold(narrow)
            for target in core._simd_targets():
                core._set_simd(target)
                for t in (1, 2):
                    sd.set_num_threads(t)
                    assert same_bits(sd.gather_elements(x, idx, axis=1), want), target
                    assert same_bits(sd.gather_elements(x, idx.astype(np.int32), axis=1), want), target
                    assert same_bits(sd.gather_elements(x, idx, axis=1, out=np.empty_like(want)), want), target
                    bad = idx.copy()
                    bad[20, 500] = 1000
                    with pytest.raises(IndexError, match=r"^gather_elements\.indices\[20, 500\] = 1000: out of range"):
                        sd.gather_elements(x, bad, axis=1)
    finally:
        core._set_simd(before)
        core._set_index_narrow_threshold(old_n)


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.float64])
@pytest.mark.parametrize("far", [False, True])
def test_gather_short_rows_inline(dtype, far, threads):
    """sd.gather of packed rows of up to 64 bytes copies each row with one or two fixed-size
    moves (overlapping when the size is not a power of two): every row width from 2 to 72 bytes'
    worth of elements, from a table in the cache and one over 1 MiB (the prefetching path), into
    a fresh result and into out= views whose neighbours must stay untouched, against numpy.take."""
    rng = np.random.default_rng(22)
    size = np.dtype(dtype).itemsize
    for q in range(2, 73 // size + 1):
        rows = ((3 << 20) if far else (64 << 10)) // (q * size)
        table = random_array(rng, (rows, q), dtype)
        idx = rng.integers(-rows, rows, 333)
        want = np.take(table, idx, axis=0)
        for t in (1, 2):
            sd.set_num_threads(t)
            assert same_bits(sd.gather(table, idx, axis=0), want), q
            buf = random_array(rng, (len(idx) + 2, q + 2), dtype)
            keep = buf.copy()
            sd.gather(table, idx, axis=0, out=buf[1:-1, 1:-1])
            assert same_bits(buf[1:-1, 1:-1], want), q
            keep[1:-1, 1:-1] = want
            assert same_bits(buf, keep), q


@pytest.mark.parametrize("dtype", [np.uint8, np.float32, np.float64])
def test_gather_far_long_rows(dtype, threads, stream_mode):
    """sd.gather of rows over 64 bytes from a table over 1 MiB: each row's lines (up to 512 bytes)
    prefetched 8 rows ahead, and (streamed) the whole lines of rows of 128+ bytes streamed. Rows
    of 65 to 2000 bytes, dense and every other element, index counts around the block of 8, into
    a new result and into out= shifted off the line by one element and by 16 bytes, neighbours
    untouched, against numpy.take."""
    rng = np.random.default_rng(23)
    size = np.dtype(dtype).itemsize
    for nbytes in (65, 128, 200, 512, 520, 2000):
        q = -(-nbytes // size)
        table = random_array(rng, ((3 << 20) // (q * size), q), dtype)
        for view in (table, table[:, ::2]):
            for n in (7, 8, 9, 333):
                idx = rng.integers(-len(view), len(view), n)
                want = np.take(view, idx, axis=0)
                for t in (1, 2):
                    sd.set_num_threads(t)
                    assert same_bits(sd.gather(view, idx, axis=0), want), (nbytes, n)
                    # Shifts from a line; thresholds: the fixture's, and (streamed) the output's
                    # size (then only rows of whole lines stream, rows with edge lines are stored
                    # plainly).
                    thrs = (None, want.nbytes) if stream_mode == "streamed" else (None,)
                    for shift, thr in itertools.product((0, size, 16), thrs):
                        buf = np.zeros(want.nbytes + 128, np.uint8)
                        at = (-buf.ctypes.data) % 64 + shift
                        out = buf[at : at + want.nbytes].view(dtype).reshape(want.shape)
                        old = sd._core._stream_threshold()
                        if thr is not None:
                            sd._core._set_stream_threshold(thr)
                        try:
                            sd.gather(view, idx, axis=0, out=out)
                        finally:
                            sd._core._set_stream_threshold(old)
                        assert same_bits(out, want), (nbytes, n, shift, thr)
                        assert not buf[:at].any() and not buf[at + want.nbytes :].any()
