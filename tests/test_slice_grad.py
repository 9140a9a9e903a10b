"""SliceGrad (SPEC 3.11): a numpy reference (zeros with the gradient put at the window's positions,
np.ix_), SPEC's examples, the adjoint identity <slice(x), g> == <x, slice_grad(g)>, torch's
autograd of a slice, every dtype, negative strides, strides in and out, out= (a stride-0 out keeps
the last coordinate), empty and 0-d arrays, misuse writing nothing, the description's rules,
feature levels (SPEC 4) and compile/execute on buffers."""

from __future__ import annotations

import numpy as np
import pytest

import strided as sd
from conftest import ALL_DTYPES, random_array, same_bits

FL = sd.FeatureLevel


def positions(offsets, sizes, strides, counts):
    """The window's coordinates along each dimension (Slice1's walk)."""
    out = []
    for o, z, s, n in zip(offsets, sizes, strides, counts):
        start = o + (z - 1 if s < 0 else 0)
        out.append(start + s * np.arange(n))
    return out


def ref_slice_grad(grad, shape, offsets, sizes, strides) -> np.ndarray:
    g = np.asarray(grad)
    z = np.zeros(shape, g.dtype)
    if g.size:
        z[np.ix_(*positions(offsets, sizes, strides, g.shape))] = g
    return z


def random_window(rng, shape):
    offsets, sizes, strides, counts = [], [], [], []
    for n in shape:
        z = int(rng.integers(1, n + 1))
        o = int(rng.integers(0, n - z + 1))
        s = int(rng.choice([1, 2, 3, -1, -2, -3]))
        most = 1 + (z - 1) // abs(s)
        offsets.append(o)
        sizes.append(z)
        strides.append(s)
        counts.append(int(rng.integers(1, most + 1)))
    return offsets, sizes, strides, tuple(counts)


def test_spec_examples() -> None:
    g = np.array([[1, 3], [9, 11]], np.float32)
    got = sd.slice_grad(g, (4, 4), (0, 0), (3, 3), (2, 2))
    assert got.tolist() == [[1, 0, 3, 0], [0, 0, 0, 0], [9, 0, 11, 0], [0, 0, 0, 0]]
    g = np.array([[14, 16], [6, 8]], np.float32).reshape(1, 1, 2, 2)
    want = [[0, 0, 0, 0], [0, 6, 0, 8], [0, 0, 0, 0], [0, 14, 0, 16]]
    assert sd.slice_grad(g, (1, 1, 4, 4), (0, 0, 0, 1), (1, 1, 4, 3), (1, 1, -2, 2))[0, 0].tolist() == want
    d = sd.SliceGradDesc(
        sd.TensorDesc("float32", [1, 1, 2, 2]),
        sd.TensorDesc("float32", [1, 1, 4, 4]),
        [0, 0, 0, 1],
        [1, 1, 4, 3],
        [1, 1, -2, 2],
    )
    d.validate()
    assert d.min_feature_level == FL.FL_3_0
    out = np.full((1, 1, 4, 4), 5, np.float32)
    sd.compile(d).execute([g], [out])
    assert out[0, 0].tolist() == want
    # The adjoint of SPEC 3.3's slice: slicing the result gives the gradient back.
    assert same_bits(sd.slice(out, (0, 0, 0, 1), (1, 1, 4, 3), (1, 1, -2, 2)), g)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
def test_every_dtype_random_windows(dtype) -> None:
    rng = np.random.default_rng(np.dtype(dtype).num)
    for shape in [(7,), (4, 5), (3, 4, 6), (2, 1, 3, 5), (1, 2, 2, 1, 3, 1, 2, 2)]:
        for _ in range(4):
            offsets, sizes, strides, counts = random_window(rng, shape)
            g = random_array(rng, counts, dtype)  # random bits: NaN payloads, -0.0
            got = sd.slice_grad(g, shape, offsets, sizes, strides)
            assert got.flags.c_contiguous
            assert same_bits(got, ref_slice_grad(g, shape, offsets, sizes, strides)), (shape, offsets, sizes, strides)
            assert same_bits(sd.slice(got, offsets, sizes, strides, out=np.empty_like(g)), g)


def test_adjoint_identity() -> None:
    rng = np.random.default_rng(9)
    for shape in [(9,), (6, 7), (3, 5, 8)]:
        offsets, sizes, strides, counts = random_window(rng, shape)
        x = rng.integers(-50, 50, size=shape).astype(np.int64)
        g = rng.integers(-50, 50, size=counts).astype(np.int64)
        sx = sd.slice(x, offsets, sizes, strides, out=np.empty(counts, np.int64))
        assert int((sx * g).sum()) == int((x * sd.slice_grad(g, shape, offsets, sizes, strides)).sum())


def test_large_any_thread_count(threads) -> None:
    rng = np.random.default_rng(10)
    g = random_array(rng, (150, 200), np.float32)
    for offsets, sizes, strides in [
        ((0, 0), (300, 400), (2, 2)),
        ((0, 3), (300, 400), (-2, 2)),
        ((0, 5), (150, 200), (1, -1)),
    ]:
        got = sd.slice_grad(g, (300, 405), offsets, sizes, strides)
        assert same_bits(got, ref_slice_grad(g, (300, 405), offsets, sizes, strides))


def test_grad_strides() -> None:
    rng = np.random.default_rng(3)
    base = random_array(rng, (12, 14), np.uint16)
    for g in [base[::-3, ::2], base[2:9, 13:3:-4], base.T[::3], np.broadcast_to(base[4, :5], (4, 5))]:
        shape = (2 * g.shape[0] + 1, 3 * g.shape[1])
        args = ((1, 0), (2 * g.shape[0], 3 * g.shape[1]), (-2, 3))
        assert same_bits(sd.slice_grad(g, shape, *args), ref_slice_grad(g, shape, *args))


def test_out_any_strides() -> None:
    rng = np.random.default_rng(4)
    g = random_array(rng, (3, 4), np.int8)
    args = ((1, 0), (5, 8), (2, -2))
    want = ref_slice_grad(g, (6, 9), *args)
    views = [
        ((8, 12), lambda b: b[1:7, 2:11]),
        ((6, 9), lambda b: b[::-1, ::-1]),
        ((9, 6), lambda b: b.T),
        ((12, 18), lambda b: b[::2, ::2]),
    ]
    for shape, view in views:
        base = np.full(shape, -1, np.int8)
        expect = base.copy()
        view(expect)[...] = want
        out = view(base)
        assert sd.slice_grad(g, (6, 9), *args, out=out) is out and same_bits(base, expect)


def test_out_with_stride_zero_keeps_the_last_coordinate() -> None:
    # SPEC 3.0 rule 3: an output's stride-0 dimension ends with its last coordinate's values.
    g = np.array([[1, 2], [3, 4]], np.int32)
    for args in [
        ((0, 0), (4, 4), (3, 3)),
        ((0, 0), (3, 4), (2, 3)),
        ((1, 0), (3, 3), (-2, 2)),
        ((0, 0), (4, 3), (-3, 2)),
    ]:
        want = ref_slice_grad(g, (4, 4), *args)[-1]  # row 3 of the full result
        buf = np.full(4, -1, np.int32)
        out = np.lib.stride_tricks.as_strided(buf, (4, 4), (0, 4))
        sd.slice_grad(g, (4, 4), *args, out=out)
        assert buf.tolist() == want.tolist(), args


def test_torch_autograd() -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(5)
    for dtype in (torch.float32, torch.float64):
        x = torch.zeros((7, 9), dtype=dtype, requires_grad=True)
        y = torch.flip(x[1:6:2, 0:9:4], [0])  # = sd.slice(x, (1, 0), (5, 9), (-2, 4))
        g = torch.from_numpy(rng.standard_normal(tuple(y.shape))).to(dtype)
        y.backward(g)
        assert same_bits(sd.slice_grad(g, (7, 9), (1, 0), (5, 9), (-2, 4)), x.grad.numpy())
    base = torch.full((9, 20), -1.0)
    out = base[1:8, ::2]  # a non-contiguous torch out (7, 10), written in place
    g = torch.arange(6.0).reshape(2, 3)
    want = ref_slice_grad(g.numpy(), (7, 10), (2, 1), (4, 7), (3, 3))
    assert sd.slice_grad(g, (7, 10), (2, 1), (4, 7), (3, 3), out=out) is out and same_bits(out.numpy(), want)
    assert (base[0] == -1).all() and (base[:, 1::2] == -1).all()


def test_empty_and_zero_d() -> None:
    got = sd.slice_grad(np.zeros((0, 2), np.float16), (3, 4), (0, 0), (0, 4), (1, 2))  # empty window: zeros
    assert got.shape == (3, 4) and got.dtype == np.float16 and not got.any()
    out = np.full((3, 4), 7, np.float16)
    assert sd.slice_grad(np.zeros((2, 0), np.float16), (3, 4), (0, 0), (2, 4), (1, 1), out=out) is out
    assert not out.any()
    assert sd.slice_grad(np.zeros((0, 1), np.int8), (0, 4), (0, 0), (0, 1), (1, 1)).shape == (0, 4)
    z = sd.slice_grad(np.float64(-2.5), (), (), (), ())  # 0-d: a copy
    assert z.shape == () and z == -2.5
    out0 = np.zeros((), np.float64)
    assert sd.slice_grad(np.array(4.0), [], [], [], [], out=out0) is out0 and out0 == 4.0


def test_misuse_writes_nothing() -> None:
    g = np.ones((2, 2), np.float32)
    out = np.full((4, 4), 7, np.float32)
    base = dict(input_shape=(4, 4), offsets=(0, 0), sizes=(3, 3), strides=(2, 2))
    cases = [
        (dict(strides=(2, 0)), r"^slice_grad\.strides\[1\]: stride must not be 0$"),
        (dict(offsets=(-1, 0)), r"^slice_grad\.offsets\[0\]: offset must not be negative, got -1$"),
        (dict(sizes=(3, -1)), r"^slice_grad\.sizes\[1\]: window size must not be negative, got -1$"),
        (
            dict(offsets=(0, 2)),
            r"^slice_grad\.offsets\[1\]: the window \(offset 2 \+ size 3\) exceeds input_shape\[1\] \(4\)$",
        ),
        (
            dict(sizes=(3, 2)),
            r"^slice_grad\.grad\.shape\[1\]: must be at most ceil\(sizes\[1\] / \|strides\[1\]\|\) = 1, got 2$",
        ),
        (dict(strides=(2,)), r"^slice_grad\.strides: must have one value per dimension of grad \(2\), got 1$"),
        (
            dict(input_shape=(4, 4, 1)),
            r"^slice_grad\.input_shape: must have one value per dimension of grad \(2\), got 3$",
        ),
        (dict(input_shape=(4, -4)), r"^slice_grad\.input_shape\[1\]: size must be non-negative, got -4$"),
        (dict(input_shape=(4, 5)), r"expected shape \(4, 5\), got \(4, 4\)"),
    ]
    for kw, msg in cases:
        args = dict(base)
        args.update(kw)
        with pytest.raises(sd.ValidationError, match=msg):
            sd.slice_grad(g, **args, out=out)
    with pytest.raises(sd.ValidationError, match="expected dtype float32, got float64"):
        sd.slice_grad(g, **base, out=np.zeros((4, 4)))
    with pytest.raises(TypeError, match=r"slice_grad\.strides\[0\]: expected an integer"):
        sd.slice_grad(g, (4, 4), (0, 0), (3, 3), (2.0, 2), out=out)
    ro = np.zeros((4, 4), np.float32)
    ro.flags.writeable = False
    with pytest.raises(BufferError, match="read-only"):
        sd.slice_grad(g, **base, out=ro)
    assert (out == 7).all()


# ------------------------------------------------------------------ the description


def _desc(gsizes, osizes, offsets, sizes, strides, dtype="float32", out_dtype=None, out_strides=None):
    return sd.SliceGradDesc(
        sd.TensorDesc(dtype, list(gsizes)),
        sd.TensorDesc(out_dtype or dtype, list(osizes), out_strides),
        list(offsets),
        list(sizes),
        list(strides),
    )


@pytest.mark.parametrize(
    "dtype,n,level",
    [
        ("float32", 4, FL.FL_3_0),
        ("int8", 5, FL.FL_3_0),
        ("uint16", 2, FL.FL_3_1),  # 1-8 dimensions from 3_1
        ("int32", 8, FL.FL_3_1),
        ("float64", 4, FL.FL_4_1),  # 64-bit types from 4_1
        ("uint64", 1, FL.FL_4_1),
    ],
)
def test_min_feature_level(dtype, n, level) -> None:
    d = _desc([2] * n, [4] * n, [0] * n, [4] * n, [-2] * n, dtype)
    assert d.min_feature_level == level
    assert d.is_valid_at(level) and d.is_valid_at(FL.FL_6_4)
    assert not any(d.is_valid_at(lv) for lv in FL if lv < level)


def test_level_messages() -> None:
    d = _desc([1, 1, 2, 2], [1, 1, 4, 4], [0, 0, 0, 0], [1, 1, 4, 4], [1, 1, 2, 2])
    with pytest.raises(sd.ValidationError, match=r"^SliceGradDesc: the operator needs feature level 3_0"):
        d.validate("2_1")
    with pytest.raises(
        sd.ValidationError, match=r"^SliceGradDesc\.input_gradient\.sizes: 3 dimensions need feature level 3_1"
    ):
        _desc([1, 2, 2], [1, 4, 4], [0, 0, 0], [1, 4, 4], [1, 2, 2]).validate("3_0")
    with pytest.raises(
        sd.ValidationError, match=r"^SliceGradDesc\.input_gradient\.dtype: INT64 needs feature level 4_1"
    ):
        _desc([2], [4], [0], [4], [2], "int64").validate("4_0")
    with pytest.raises(
        sd.ValidationError, match=r"^SliceGradDesc\.input_window_strides\[0\]: 4294967296 does not fit DirectML's INT"
    ):
        _desc([1], [4], [0], [4], [2**32]).validate("6_4")
    # Over DirectML's 2^32-1 elements: executes, accepted at no level.
    big = _desc([1, 1], [2**16, 2**16 + 1], [0, 0], [1, 1], [1, 1], "uint8")
    big.validate()
    assert not any(big.is_valid_at(lv) for lv in FL)
    with pytest.raises(sd.ValidationError, match=r"^SliceGradDesc\.output_gradient\.sizes: 4295032832 elements exceed"):
        big.min_feature_level


def test_description_rules() -> None:
    N = "SliceGradDesc"
    cases = [
        (_desc([2, 2], [4, 4], [0, 0], [3, 3], [2, 0]), rf"^{N}\.input_window_strides\[1\]: stride must not be 0$"),
        (
            _desc([2, 2], [4, 4], [-1, 0], [3, 3], [2, 2]),
            rf"^{N}\.input_window_offsets\[0\]: offset must not be negative, got -1$",
        ),
        (
            _desc([2, 2], [4, 4], [0, 0], [3, 0], [2, 2]),
            rf"^{N}\.input_window_sizes\[1\]: window size must be at least 1, got 0$",
        ),
        (
            _desc([2, 2], [4, 4], [0, 2], [3, 3], [2, 2]),
            rf"^{N}\.input_window_offsets\[1\]: the window \(offset 2 \+ size 3\) exceeds output_gradient\.sizes\[1\] \(4\)$",
        ),
        (
            _desc([2, 3], [4, 4], [0, 0], [3, 3], [2, 2]),
            rf"^{N}\.input_gradient\.sizes\[1\]: must be at most 1 \+ \(input_window_sizes\[1\] - 1\) / "
            rf"\|input_window_strides\[1\]\| = 2, got 3$",
        ),
        (
            _desc([2, 2], [1, 4, 4], [0, 0], [3, 3], [2, 2]),
            rf"^{N}\.input_gradient\.sizes: must have the same dimension count as output_gradient \(3\), got 2$",
        ),
        (
            _desc([2, 2], [4, 4], [0, 0], [3, 3], [2, 2], out_dtype="int32"),
            rf"^{N}\.input_gradient\.dtype: must equal output_gradient\.dtype \(INT32\), got FLOAT32$",
        ),
        (
            _desc([2, 2], [4, 4], [0], [3, 3], [2, 2]),
            rf"^{N}\.input_window_offsets: must have one value per dimension \(2\), got 1$",
        ),
        (
            _desc([2, 2], [4, 4], [0, 0], [3, 3], [2, 2], out_strides=[0, 1]),
            rf"^{N}\.output_gradient\.strides\[0\]: an output must not broadcast",
        ),
    ]
    for d, msg in cases:
        with pytest.raises(sd.ValidationError, match=msg):
            d.validate()
    d = _desc([2, 2], [4, 4], [0, 0], [3, 3], [2, -2])
    assert d.input_window_strides == (2, -2) and d.output_gradient.sizes == (4, 4)
    assert repr(d).startswith(
        "SliceGradDesc(input_gradient=TensorDesc(FLOAT32"
    ) and "input_window_strides=(2, -2)" in repr(d)
    assert d == _desc([2, 2], [4, 4], [0, 0], [3, 3], [2, -2]) and d != _desc([2, 2], [4, 4], [0, 0], [3, 3], [2, 2])
    assert sd.SliceGradDesc.__doc__.startswith("DML_SLICE_GRAD_OPERATOR_DESC")


def test_compile_execute_buffers() -> None:
    # uint8 gradient {2, 2} packed into a {3, 5} output with a row pitch of 8.
    d = sd.SliceGradDesc(
        sd.TensorDesc("uint8", [2, 2]), sd.TensorDesc("uint8", [3, 5], [8, 1]), [1, 0], [2, 5], [-1, 4]
    )
    c = sd.compile(d)
    assert c.input_bytes == [4] and c.output_bytes == [24]
    out = bytearray(b"\xee" * 24)
    c.execute([bytes([1, 2, 3, 4])], [out])
    got = np.frombuffer(out, np.uint8).reshape(3, 8)
    assert got[:, :5].tolist() == [[0, 0, 0, 0, 0], [3, 0, 0, 0, 4], [1, 0, 0, 0, 2]]
    assert (got[:2, 5:] == 0xEE).all() and (got[2, 5:] == 0xEE).all()  # the padding is not written
    with pytest.raises(BufferError):
        c.execute([bytes(3)], [out])
