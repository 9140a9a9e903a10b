"""Index shapes of GatherElements and Scatter(Elements) (SPEC 3.4, as ONNX): the indices have the
input's dimension count, any size along the axis and at most the input's size off it; size-1
index dimensions do not broadcast. Smaller indices execute (functions and descriptions), but no
DirectML feature level accepts such a description. References here are the SPEC/ONNX examples
and slow loops over every index coordinate, independent of the library."""

import numpy as np
import pytest

import strided as sd
from conftest import index_kernel_variant, random_array, same_bits

INDEX_TYPES = [np.int32, np.int64, np.uint32, np.uint64]
DTYPES = [np.float32, np.float16, np.float64, np.int8, np.uint16, np.int32, np.uint64]
REDUCTIONS = ["none", "add", "mul", "min", "max"]
LEVELS = list(sd.FeatureLevel)


@pytest.fixture(scope="module", autouse=True, params=["plain", "narrowed"])
def narrowing(request):
    """Each test twice: default thresholds, and with every index tensor narrowed and every gather
    result streamed (the kernels' other variants see the smaller shapes too)."""
    with index_kernel_variant(request.param) as mode:
        yield mode


# ---------------------------------------------------------------- reference loops
def _target(c, axis, i, n):
    i = int(i)
    assert -n <= i < n, "the reference only sees valid indices"
    t = list(c)
    t[axis] = i + n if i < 0 else i
    return tuple(t)


def _reduce(acc, u, reduction, dtype):
    """One step in the element type; data here are small integers, so no NaN and no -0.0."""
    a, b = np.array([acc], dtype), np.array([u], dtype)
    with np.errstate(all="ignore"):
        r = {"none": b, "add": a + b, "mul": a * b, "min": np.minimum(a, b), "max": np.maximum(a, b)}[reduction]
    return r.astype(dtype)[0]


def ref_gather_elements(x, idx, axis):
    out = np.empty(idx.shape, x.dtype)
    for c in np.ndindex(*idx.shape):
        out[c] = x[_target(c, axis, idx[c], x.shape[axis])]
    return out


def ref_scatter(x, idx, upd, axis, reduction="none"):
    out = x.copy()
    for c in np.ndindex(*idx.shape):
        t = _target(c, axis, idx[c], x.shape[axis])
        out[t] = _reduce(out[t], upd[c], reduction, x.dtype)
    return out


def _td(a):
    return sd.TensorDesc.from_array(a)


# ---------------------------------------------------------------- SPEC / ONNX examples
def test_onnx_gather_elements_smaller_indices():
    data = np.array([[0, 1, 2], [3, 4, 5]], np.float32)
    idx = np.array([[0, 1]], np.int64)  # sizes {1, 2}: smaller than {2, 3} off axis 0
    assert sd.gather_elements(data, idx, axis=0).tolist() == [[0, 4]]
    out = np.full((1, 2), -1, np.float32)
    assert sd.gather_elements(data, idx, axis=0, out=out) is out and out.tolist() == [[0, 4]]
    assert sd.gather_elements(data.tolist(), [[0, 1]], axis=0).tolist() == [[0, 4]]  # the general path


def test_size_one_index_dimensions_do_not_broadcast():
    x = np.arange(6.0).reshape(2, 3)
    r = sd.gather_elements(x, [[1, 0]], axis=1)
    assert r.shape == (1, 2) and r.tolist() == [[1.0, 0.0]]
    r = sd.gather_elements(x, np.array([[2], [0]]), axis=1)  # (2, 1): one column, not (2, 3)
    assert r.shape == (2, 1) and r.tolist() == [[2.0], [3.0]]
    # numpy broadcasts instead: this is where strided (ONNX) differs from take_along_axis
    assert np.take_along_axis(x, np.array([[1, 0]]), axis=1).shape == (2, 2)
    r = sd.scatter(np.zeros((2, 3)), np.array([[2]]), np.array([[9.0]]), axis=1)
    assert r.tolist() == [[0, 0, 9], [0, 0, 0]]  # the second row is not reached


def test_spec_scatter_smaller_indices():
    x = np.zeros((2, 3), np.float32)
    r = sd.scatter(x, np.array([[1, 0]], np.int32), np.array([[7, 8]], np.float32), axis=0)
    assert r.tolist() == [[0, 8, 0], [7, 0, 0]]
    out = np.full((2, 3), -1, np.float32)
    assert sd.scatter(x, [[1, 0]], [[7, 8]], axis=0, out=out) is out and out.tolist() == [[0, 8, 0], [7, 0, 0]]
    # updates still broadcast to the indices' shape in the function
    assert sd.scatter(x, [[1, 0]], 5, axis=0).tolist() == [[0, 5, 0], [5, 0, 0]]
    # in place: positions not reached keep x's values
    y = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert sd.scatter(y, [[1, 0]], [[7, 8]], axis=0, out=y) is y
    assert y.tolist() == [[0, 8, 2], [7, 4, 5]]


# ---------------------------------------------------------------- random shapes
def _case(rng, ndim, itype):
    """x's shape, an axis, and indices smaller than x off the axis (at least one dimension when
    ndim > 1), of any size along it, negative values included for signed types."""
    shape = tuple(int(s) for s in rng.integers(1, 6, ndim))
    axis = int(rng.integers(0, ndim))
    ishape = [int(rng.integers(1, s + 1)) for s in shape]
    ishape[axis] = int(rng.integers(1, 7))
    off = [d for d in range(ndim) if d != axis and shape[d] > 1]
    if off and all(ishape[d] == shape[d] for d in off):
        d = off[int(rng.integers(0, len(off)))]
        ishape[d] = int(rng.integers(1, shape[d]))
    n = shape[axis]
    lo = -n if np.dtype(itype).kind == "i" else 0
    idx = rng.integers(lo, n, ishape).astype(itype)
    return shape, axis, idx


@pytest.mark.parametrize("itype", INDEX_TYPES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_gather_elements_random_smaller(itype, dtype):
    rng = np.random.default_rng([1, INDEX_TYPES.index(itype), DTYPES.index(dtype)])
    for _ in range(25):
        shape, axis, idx = _case(rng, int(rng.integers(1, 5)), itype)
        x = random_array(rng, shape, dtype)
        want = ref_gather_elements(x, idx, axis)
        assert same_bits(sd.gather_elements(x, idx, axis=axis), want), (shape, axis, idx.shape)
        assert same_bits(sd.gather_elements(x, idx, axis=axis - x.ndim), want)
        # out= a strided view of a bigger array, x transposed (other strides, the tiled walk)
        big = np.zeros(tuple(2 * s for s in idx.shape), dtype)
        out = big[(slice(None, None, 2),) * idx.ndim]
        assert sd.gather_elements(x, idx, axis=axis, out=out) is out and same_bits(out, want)
        xt = np.asfortranarray(x)
        assert same_bits(sd.gather_elements(xt, idx, axis=axis), want)


@pytest.mark.parametrize("itype", INDEX_TYPES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_scatter_random_smaller(itype, dtype):
    rng = np.random.default_rng([2, INDEX_TYPES.index(itype), DTYPES.index(dtype)])
    for _ in range(25):
        shape, axis, idx = _case(rng, int(rng.integers(1, 5)), itype)
        x = random_array(rng, shape, dtype)
        upd = random_array(rng, idx.shape, dtype)
        want = ref_scatter(x, idx, upd, axis)
        assert same_bits(sd.scatter(x, idx, upd, axis=axis), want), (shape, axis, idx.shape)
        big = np.zeros(tuple(2 * s for s in shape), dtype)
        out = big[(slice(1, None, 2),) * len(shape)]
        assert sd.scatter(x, idx, upd, axis=axis, out=out) is out and same_bits(out, want)
        y = np.asfortranarray(x)  # in place, another layout
        assert sd.scatter(y, idx, upd, axis=axis, out=y) is y and same_bits(y, want)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int16, np.uint8, np.int64])
def test_scatter_reductions_smaller(reduction, dtype):
    rng = np.random.default_rng([3, REDUCTIONS.index(reduction), np.dtype(dtype).num])
    for _ in range(20):
        itype = INDEX_TYPES[int(rng.integers(0, 4))]
        shape, axis, idx = _case(rng, int(rng.integers(1, 4)), itype)
        x = rng.integers(0, 6, shape).astype(dtype)  # small integers: exact in every dtype
        upd = rng.integers(0, 6, idx.shape).astype(dtype)
        want = ref_scatter(x, idx, upd, axis, reduction)
        assert same_bits(sd.scatter(x, idx, upd, axis=axis, reduction=reduction), want), (shape, axis, idx.shape)
        y = x.copy()
        sd.scatter(y, idx, upd, axis=axis, reduction=reduction, out=y)
        assert same_bits(y, want)


def test_large_smaller_indices_threads_identical():
    """Axis 0 of a wide array takes the packed-band walk; columns beyond the indices' must still
    receive the input, for any thread count."""
    rng = np.random.default_rng(5)
    x = random_array(rng, (300, 700), np.float32)
    idx = rng.integers(-300, 300, (50, 400)).astype(np.int64)
    upd = random_array(rng, idx.shape, np.float32)
    want_s = ref_scatter(x, idx, upd, 0)
    want_g = ref_gather_elements(x, idx, 0)
    xi = rng.integers(0, 50, x.shape).astype(np.int32)
    ui = rng.integers(0, 50, idx.shape).astype(np.int32)
    want_add = ref_scatter(xi, idx, ui, 0, "add")
    old = sd.get_num_threads()
    try:
        for t in (1, 2, 4):
            sd.set_num_threads(t)
            assert same_bits(sd.scatter(x, idx, upd, axis=0), want_s), t
            assert same_bits(sd.gather_elements(x, idx, axis=0), want_g), t
            y = xi.copy()
            sd.scatter(y, idx, ui, axis=0, reduction="add", out=y)
            assert same_bits(y, want_add), t
            assert same_bits(sd.scatter(xi, idx, ui, axis=0, reduction="add"), want_add), t
    finally:
        sd.set_num_threads(old)


def test_equal_shapes_unchanged():
    rng = np.random.default_rng(9)
    x = random_array(rng, (4, 5, 3), np.float64)
    idx = rng.integers(-5, 5, (4, 7, 3))
    upd = random_array(rng, idx.shape, np.float64)
    assert same_bits(sd.gather_elements(x, idx, axis=1), ref_gather_elements(x, idx, 1))
    assert same_bits(sd.scatter(x, idx, upd, axis=1), ref_scatter(x, idx, upd, 1))


# ---------------------------------------------------------------- errors
def test_bad_shapes_raise_and_write_nothing():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = np.full((1, 4), -1, np.float32)
    with pytest.raises(
        sd.ValidationError,
        match=r"indices\.sizes\[1\]: must be at most input\.sizes\[1\] \(3\) "
        r"off the axis \(0\), got 4",
    ):
        sd.gather_elements(x, np.array([[0, 1, 0, 1]]), axis=0, out=out)
    assert (out == -1).all()
    with pytest.raises(sd.ValidationError, match=r"indices\.sizes\[0\]: must be at most input\.sizes\[0\] \(2\)"):
        sd.gather_elements(x, [[0], [1], [0]], axis=1)
    y = x.copy()
    with pytest.raises(sd.ValidationError, match=r"indices\.sizes\[1\]: must be at most"):
        sd.scatter(y, np.array([[0, 1, 0, 1]]), np.zeros((1, 4), np.float32), axis=0, out=y)
    assert same_bits(y, x)
    with pytest.raises(sd.ValidationError, match="as many dimensions"):
        sd.gather_elements(x, [0, 1], axis=0)
    with pytest.raises(sd.ValidationError, match="as many dimensions"):
        sd.scatter(x, [0, 1], [1.0, 2.0], axis=0)
    with pytest.raises(sd.ValidationError, match="scatter.updates"):
        sd.scatter(x, [[1, 0]], np.zeros((2, 2), np.float32), axis=0)


def test_empty_arrays_follow_the_same_rule():
    x = np.zeros((2, 3), np.float32)
    assert sd.gather_elements(x, np.zeros((0, 2), np.int64), axis=0).shape == (0, 2)
    assert sd.gather_elements(x, np.zeros((1, 0), np.int64), axis=1).shape == (1, 0)
    with pytest.raises(sd.ValidationError, match=r"gather_elements\.indices\.shape\[1\]: must be at most x\.shape"):
        sd.gather_elements(x, np.zeros((0, 4), np.int64), axis=0)
    with pytest.raises(sd.ValidationError, match=r"gather_elements\.indices\.shape\[1\]"):
        sd.gather_elements(np.zeros((2, 0)), np.zeros((1, 1), np.int64), axis=0)
    with pytest.raises(IndexError):  # an empty axis: every index is out of range
        sd.gather_elements(np.zeros((0, 3)), np.zeros((1, 2), np.int64), axis=0)
    # A call that moves no data (Python's check) words a bad index as the library's check does.
    for idx, lo in ((np.array([1, 5], np.int64), -3), (np.array([1, 5], np.uint32), 0)):
        msg = rf"^gather\.indices\[1\] = 5: out of range \[{lo}, 3\) for axis 0$"
        with pytest.raises(IndexError, match=msg):
            sd.gather(np.zeros((3, 0), np.float32), idx, axis=0)  # empty result: checked in Python
        with pytest.raises(IndexError, match=msg):
            sd.gather(np.zeros((3, 2), np.float32), idx, axis=0)  # checked by the library
    assert same_bits(sd.scatter(x + 1, np.zeros((0, 2), np.int64), np.zeros((0, 2), np.float32)), x + 1)
    with pytest.raises(sd.ValidationError, match=r"scatter\.indices\.shape\[1\]"):
        sd.scatter(x, np.zeros((0, 4), np.int64), np.zeros((0, 4), np.float32))


# ---------------------------------------------------------------- descriptions
def _gather_desc(x, idx, axis):
    out = np.full(idx.shape, 9, x.dtype)
    return sd.GatherElementsDesc(_td(x), _td(idx), _td(out), axis), out


def _scatter_desc(x, idx, upd, axis, reduction="none"):
    out = np.full(x.shape, 9, x.dtype)
    return sd.ScatterDesc(_td(x), _td(idx), _td(upd), _td(out), axis, reduction=reduction), out


def test_descriptions_smaller_indices_execute():
    data = np.array([[0, 1, 2], [3, 4, 5]], np.float32)
    idx = np.array([[0, 1]], np.uint32)  # UINT32: valid at every level that has the operator
    d, out = _gather_desc(data, idx, 0)
    d.validate()
    sd.compile(d).execute([data, idx], [out])
    assert out.tolist() == [[0, 4]]

    zeros = np.zeros((2, 3), np.float32)
    s, sout = _scatter_desc(zeros, np.array([[1, 0]], np.uint32), np.array([[7, 8]], np.float32), 0)
    s.validate()
    sd.compile(s).execute([zeros, np.array([[1, 0]], np.uint32), np.array([[7, 8]], np.float32)], [sout])
    assert sout.tolist() == [[0, 8, 0], [7, 0, 0]]


def test_descriptions_smaller_indices_valid_at_no_level():
    data = np.zeros((2, 3), np.float32)
    idx = np.zeros((1, 2), np.uint32)
    upd = np.zeros((1, 2), np.float32)
    g, _ = _gather_desc(data, idx, 0)
    s, _ = _scatter_desc(data, idx, upd, 0)
    for desc, name in ((g, "GatherElementsDesc"), (s, "ScatterDesc")):
        desc.validate()
        desc.validate(None)
        msg = (
            rf"^{name}\.indices\.sizes\[1\]: 2 is smaller than input\.sizes\[1\] \(3\): no DirectML feature level "
            r"accepts it, since DirectML requires indices sizes equal to input sizes off the axis"
        )
        for level in LEVELS:
            assert not desc.is_valid_at(level), (name, level)
            with pytest.raises(sd.ValidationError, match=msg):
                desc.validate(level)
        with pytest.raises(sd.ValidationError, match=msg):
            desc.min_feature_level
    # equal sizes off the axis: the levels of the tables (2-d needs 3_0; 4-d Scatter 2_0)
    full = np.zeros((1, 3), np.uint32)
    assert _gather_desc(data, full, 0)[0].min_feature_level == sd.FeatureLevel.FL_3_0
    assert (
        _scatter_desc(
            np.zeros((1, 1, 2, 3), np.float32), full.reshape(1, 1, 1, 3), np.zeros((1, 1, 1, 3), np.float32), 2
        )[0].min_feature_level
        == sd.FeatureLevel.FL_2_0
    )


def _buf(a, fill=None):
    """a's bytes in a buffer of the description's total_bytes (rounded up to 4), and a's view of it."""
    b = np.zeros(-(-a.nbytes // 4) * 4, np.uint8)
    v = b[: a.nbytes].view(a.dtype).reshape(a.shape)
    v[...] = a if fill is None else fill
    return b, v


@pytest.mark.parametrize("itype", INDEX_TYPES)
def test_descriptions_random_smaller(itype):
    rng = np.random.default_rng([4, INDEX_TYPES.index(itype)])
    for k in range(20):
        dtype = DTYPES[k % len(DTYPES)]
        shape, axis, idx = _case(rng, int(rng.integers(1, 5)), itype)
        x = random_array(rng, shape, dtype)
        upd = random_array(rng, idx.shape, dtype)
        (bx, _), (bi, _), (bu, _) = _buf(x), _buf(idx), _buf(upd)
        g, _ = _gather_desc(x, idx, axis)
        bo, out = _buf(np.empty(idx.shape, dtype), fill=0)
        sd.compile(g).execute([bx, bi], [bo])
        assert same_bits(out, ref_gather_elements(x, idx, axis))
        s, _ = _scatter_desc(x, idx, upd, axis)
        bo, out = _buf(x, fill=0)
        sd.compile(s).execute([bx, bi, bu], [bo])
        assert same_bits(out, ref_scatter(x, idx, upd, axis))
        by, y = _buf(x)  # the output is the input's buffer: in place
        sd.compile(s).execute([by, bi, bu], [by])
        assert same_bits(y, ref_scatter(x, idx, upd, axis))
        red = REDUCTIONS[k % 5]
        xi = rng.integers(0, 5, shape).astype(dtype)
        ui = rng.integers(0, 5, idx.shape).astype(dtype)
        r, _ = _scatter_desc(xi, idx, ui, axis, red)
        bo, out = _buf(xi, fill=0)
        sd.compile(r).execute([_buf(xi)[0], bi, _buf(ui)[0]], [bo])
        assert same_bits(out, ref_scatter(xi, idx, ui, axis, red))


def test_descriptions_padded_output_smaller_indices():
    """An output with a row pitch: the gaps stay as they were, the elements not reached hold the input."""
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    idx = np.array([[2, 0]], np.int64)
    upd = np.array([[-5, -6]], np.int32)
    buf = np.full(3 * 6, 99, np.int32)
    out_desc = sd.TensorDesc("int32", [3, 4], strides=[6, 1])
    s = sd.ScatterDesc(_td(x), _td(idx), _td(upd), out_desc, 0)
    sd.compile(s).execute([x, idx, upd], [buf])
    got = buf.reshape(3, 6)
    assert same_bits(got[:, :4], ref_scatter(x, idx, upd, 0)) and (got[:, 4:] == 99).all()


def test_description_bad_shapes():
    T = lambda sizes, dt="float32": sd.TensorDesc(dt, sizes)  # noqa: E731
    with pytest.raises(
        sd.ValidationError,
        match=r"^GatherElementsDesc\.indices\.sizes\[1\]: must be at most "
        r"input\.sizes\[1\] \(3\) off the axis \(0\), got 4$",
    ):
        sd.GatherElementsDesc(T([3, 3]), T([2, 4], "int32"), T([2, 4]), 0).validate()
    with pytest.raises(
        sd.ValidationError,
        match=r"^ScatterDesc\.indices\.sizes\[0\]: must be at most "
        r"input\.sizes\[0\] \(3\) off the axis \(1\), got 5$",
    ):
        sd.ScatterDesc(T([3, 3]), T([5, 2], "int32"), T([5, 2]), T([3, 3]), 1).validate()
    with pytest.raises(sd.ValidationError, match=r"^ScatterDesc\.indices\.sizes: must have the same dimension count"):
        sd.ScatterDesc(T([3, 3]), T([2], "int32"), T([2]), T([3, 3]), 0).validate()
    with pytest.raises(sd.ValidationError, match=r"^GatherElementsDesc\.indices\.sizes: must have the same dimension"):
        sd.GatherElementsDesc(T([3, 3]), T([1, 1, 2], "int32"), T([1, 1, 2]), 0).validate()
    with pytest.raises(
        sd.ValidationError,
        match=r"^ScatterDesc\.updates\.sizes\[1\]: must equal indices\.sizes\[1\] "
        r"\(2\), got 3$",
    ):
        sd.ScatterDesc(T([3, 3]), T([1, 2], "int32"), T([1, 3]), T([3, 3]), 0).validate()
    with pytest.raises(sd.ValidationError, match=r"^GatherElementsDesc\.output\.sizes\[1\]: must equal indices"):
        sd.GatherElementsDesc(T([3, 3]), T([1, 2], "int32"), T([1, 3]), 0).validate()
    with pytest.raises(sd.ValidationError, match=r"indices\.sizes\[1\]: must be at most"):
        sd.compile(sd.GatherElementsDesc(T([3, 3]), T([2, 4], "int32"), T([2, 4]), 0))
