"""OneHot (SPEC 3.9): a numpy reference written here (bit-exact, every dtype and index type),
SPEC's examples in both forms, torch's one_hot and ONNX's reference evaluator, strides in and out,
out=, empty and 0-d indices, misuse writing nothing, the description's rules, feature levels
(SPEC 4) and compile/execute on buffers."""

from __future__ import annotations

import numpy as np
import pytest

import strided as sd
from conftest import ALL_DTYPES, random_array, run_threads, same_bits

FL = sd.FeatureLevel
INDEX_TYPES = [np.int32, np.int64, np.uint32, np.uint64]


def ref_one_hot(indices, depth, values, axis=-1) -> np.ndarray:
    """ONNX OneHot by numpy broadcasting, bit-exact on the values (compared as unsigned bits)."""
    idx = np.asarray(indices)
    v = np.asarray(values).reshape(2)
    r = idx.ndim
    ax = axis + r + 1 if axis < 0 else axis
    if idx.dtype.kind == "u":
        valid = idx.astype(np.uint64) < np.uint64(depth)
        pos = np.where(valid, idx, 0).astype(np.int64)
    else:
        i = idx.astype(np.int64)
        pos = np.where(i < 0, i + depth, i)
        valid = (pos >= 0) & (pos < depth)
    ks = np.arange(depth).reshape((depth,) + (1,) * (r - ax))
    hit = (np.expand_dims(pos, ax) == ks) & np.expand_dims(valid, ax)
    u = np.dtype(f"u{v.dtype.itemsize}")
    bits = v.view(u)
    return np.where(hit, bits[1], bits[0]).astype(u).view(v.dtype)


# ------------------------------------------------------------------ SPEC's examples


def test_spec_function_examples() -> None:
    got = sd.one_hot([[0, 2], [-1, 5]], 3)
    assert got.dtype == np.int64 and got.tolist() == [[[1, 0, 0], [0, 0, 1]], [[0, 0, 1], [0, 0, 0]]]
    got = sd.one_hot([[0, 2], [-1, 5]], 3, axis=0)
    assert got.shape == (3, 2, 2) and got.tolist() == [[[1, 0], [0, 0]], [[0, 0], [0, 0]], [[0, 1], [1, 0]]]
    got = sd.one_hot([1, -4, 2], 3, values=(-1.0, 5.0), axis=0)
    assert got.dtype == np.float64 and got.tolist() == [[-1, -1, -1], [5, -1, -1], [-1, -1, 5]]


def _desc(idx_sizes, axis, values_sizes=(1, 1, 1, 2), idx_dtype="uint32", dtype="float32", out=(1, 1, 3, 4)):
    return sd.OneHotDesc(
        sd.TensorDesc(idx_dtype, list(idx_sizes)),
        sd.TensorDesc(dtype, list(values_sizes)),
        sd.TensorDesc(dtype, list(out)),
        axis,
    )


@pytest.mark.parametrize(
    "idx,idx_sizes,idx_dtype,axis,values,values_sizes,want",
    [
        ([0, 3, 2], (1, 1, 3, 1), np.uint32, 3, [0, 1], (1, 1, 1, 2), [[1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]]),
        ([0, 2, 1, 0], (1, 1, 1, 4), np.uint32, 2, [0, 1], (1, 1, 1, 2), [[1, 0, 0, 1], [0, 0, 1, 0], [0, 1, 0, 0]]),
        ([0, 3, 2], (1, 1, 3, 1), np.uint32, 3, [4, 2, 9], (1, 1, 3, 1), [[2, 4, 4, 4], [4, 4, 4, 2], [4, 4, 2, 4]]),
        ([-3, 100, 3], (1, 1, 3, 1), np.int32, 3, [0, 1], (1, 1, 1, 2), [[0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]]),
    ],
)
def test_spec_description_examples(idx, idx_sizes, idx_dtype, axis, values, values_sizes, want) -> None:
    d = _desc(idx_sizes, axis, values_sizes, np.dtype(idx_dtype).name)
    d.validate()
    out = np.full((1, 1, 3, 4), -7, np.float32)
    sd.compile(d).execute([np.array(idx, idx_dtype), np.array(values, np.float32)], [out])
    assert out[0, 0].tolist() == want
    # The function gives the same with the indices' own shape (no size-1 axis dimension).
    fn_idx = np.array(idx, idx_dtype).reshape([s for i, s in enumerate(idx_sizes) if i != axis])
    got = sd.one_hot(fn_idx, 4 if axis == 3 else 3, np.array(values[:2], np.float32), axis=axis)
    assert got[0, 0].tolist() == want


# ------------------------------------------------------------------ against the reference


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
def test_every_dtype_and_index_type(dtype, simd) -> None:
    """Every element width and index type through the one-hot kernel of every SIMD target."""
    rng = np.random.default_rng(np.dtype(dtype).num)
    values = random_array(rng, (2,), dtype)  # random bits: NaN payloads, -0.0
    for itype in INDEX_TYPES + [np.int8, np.uint16]:  # the last two are converted to int64
        for shape, depth in [((), 5), ((7,), 4), ((3, 5), 6), ((2, 3, 4), 3), ((1, 1, 2, 1, 3), 2)]:
            lo = 0 if np.dtype(itype).kind == "u" else -depth - 2
            idx = rng.integers(lo, depth + 2, size=shape).astype(itype)
            for axis in range(-len(shape) - 1, len(shape) + 1):
                got = sd.one_hot(idx, depth, values, axis=axis)
                assert got.flags.c_contiguous
                assert same_bits(got, ref_one_hot(idx, depth, values, axis)), (itype, shape, axis)


def test_misaligned_and_column_major_out(threads) -> None:
    rng = np.random.default_rng(6)
    idx = rng.integers(-9, 9, size=(33, 70)).astype(np.int64)
    for dtype in (np.float32, np.int64, np.uint16):
        values = random_array(rng, (2,), dtype)
        for axis in (-1, 0, 1):
            want = ref_one_hot(idx, 7, values, axis)
            raw = np.zeros(want.nbytes + 1, np.uint8)[1:].view(dtype).reshape(want.shape)  # misaligned
            assert same_bits(sd.one_hot(idx, 7, values, axis=axis, out=raw), want)
            t = np.zeros(want.shape[::-1], dtype).T  # column-major
            assert same_bits(sd.one_hot(idx, 7, values, axis=axis, out=t), want)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_streamed(axis, threads, simd) -> None:
    """Outputs over the stream threshold (lowered to 0 here) assemble dense blocks in a buffer
    and stream them: blocks cut short at a thread's range, depths from 1 to wider than a
    buffer's block, every element width, outputs aligned and not, and a non-dense out=; the
    kernel of every SIMD target."""
    rng = np.random.default_rng(12)
    old = sd._core._stream_threshold()
    sd._core._set_stream_threshold(0)
    try:
        for shape, depth in (((300, 129), 37), ((5000,), 1), ((7, 3001), 3), ((10, 13), 20000)):
            idx = rng.integers(-depth - 2, depth + 2, size=shape).astype(np.int64)
            for dtype in (np.uint8, np.float16, np.float32, np.int64):
                values = random_array(rng, (2,), dtype)
                want = ref_one_hot(idx, depth, values, axis)
                assert same_bits(sd.one_hot(idx, depth, values, axis=axis), want)
                raw = np.zeros(want.nbytes + 1, np.uint8)[1:].view(dtype).reshape(want.shape)
                assert same_bits(sd.one_hot(idx, depth, values, axis=axis, out=raw), want)
                t = np.zeros(want.shape[::-1], dtype).T
                assert same_bits(sd.one_hot(idx, depth, values, axis=axis, out=t), want)
    finally:
        sd._core._set_stream_threshold(old)


def test_index_extremes() -> None:
    for itype in INDEX_TYPES:
        info = np.iinfo(itype)
        idx = np.array([info.min, info.max, 0, 1, info.max - 1, info.min + 1], itype)
        assert same_bits(sd.one_hot(idx, 3), ref_one_hot(idx, 3, (0, 1)))
    # uint64 values above 2^63 are not negative indices.
    idx = np.array([2**64 - 1, 2**63, 2], np.uint64)
    assert sd.one_hot(idx, 3).tolist() == [[0, 0, 0], [0, 0, 0], [0, 0, 1]]


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_large_any_thread_count(axis, threads) -> None:
    rng = np.random.default_rng(11)
    idx = rng.integers(-40, 40, size=(300, 129)).astype(np.int32)
    for values in [np.array([0.5, -2.0], np.float32), np.array([3, 9], np.uint8), np.array([1, 2], np.int64)]:
        got = sd.one_hot(idx, 37, values, axis=axis)
        assert same_bits(got, ref_one_hot(idx, 37, values, axis))


def test_input_strides() -> None:
    rng = np.random.default_rng(3)
    base = rng.integers(-5, 9, size=(12, 20)).astype(np.int64)
    for idx in [base[::-3, ::2], base[2:9, 19:3:-4], base.T[::3], np.broadcast_to(base[4], (3, 20)), base[:, :1]]:
        for axis in (0, 1, 2, -2):
            assert same_bits(sd.one_hot(idx, 7, axis=axis), ref_one_hot(idx, 7, (0, 1), axis))
    vbase = np.array([9.0, 1.0, -4.0, 7.0], np.float16)
    for values in [vbase[::-2], vbase[1:3], vbase.reshape(2, 2)[:, 1], vbase[[2, 2]]]:
        assert same_bits(sd.one_hot(base, 7, values), ref_one_hot(base, 7, values))


def test_out_any_strides() -> None:
    rng = np.random.default_rng(4)
    idx = rng.integers(-6, 6, size=(5, 6)).astype(np.int32)
    want = ref_one_hot(idx, 5, np.array([2, -3], np.int16), 1)  # (5, 5, 6)
    views = [
        ((7, 5, 9), lambda b: b[1:6, :, 2:8]),  # padded
        ((5, 5, 6), lambda b: b[::-1, :, ::-1]),  # negative strides
        ((6, 5, 5), lambda b: b.transpose(2, 1, 0)),  # column-major
        ((10, 10, 12), lambda b: b[::2, 1::2, ::2]),  # every other element
    ]
    for shape, view in views:
        base = np.full(shape, -1, np.int16)
        expect = base.copy()
        view(expect)[...] = want
        out = view(base)
        r = sd.one_hot(idx, 5, np.array([2, -3], np.int16), axis=1, out=out)
        assert r is out and same_bits(base, expect)  # out's elements written, nothing else


def test_out_with_stride_zero_is_refused() -> None:
    buf = np.full(4, 7, np.int64)
    out = np.lib.stride_tricks.as_strided(buf, (3, 4), (0, 8))
    with pytest.raises(BufferError, match="overlap each other"):
        sd.one_hot([0, 1, 2], 4, out=out)
    assert (buf == 7).all()


def test_torch() -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(5)
    idx = rng.integers(0, 10, size=(4, 7))
    want = torch.nn.functional.one_hot(torch.from_numpy(idx), 10).numpy()
    assert same_bits(sd.one_hot(idx, 10), want)
    assert same_bits(sd.one_hot(torch.from_numpy(idx), 10), want)  # a tensor as input
    # A non-contiguous torch out written in place.
    base = torch.full((4, 12, 14), -1, dtype=torch.int64)
    out = base[:, 1:11, ::2].transpose(1, 2)  # (4, 7, 10)
    r = sd.one_hot(torch.from_numpy(idx), 10, out=out)
    assert r is out and same_bits(out.numpy(), want)
    assert (base[:, 0] == -1).all() and (base[:, :, 1::2] == -1).all()


@pytest.mark.parametrize(
    "indices,depth,axis,values",
    [  # ONNX's node tests (onnx/backend/test/case/node/onehot.py), float indices as integers
        (np.array([0, 7, 8], np.int64), 12, -1, np.array([2, 5], np.int32)),
        (np.array([[1, 9], [2, 4]], np.int64), 10, 1, np.array([1, 3], np.float32)),
        (np.array([0, -7, -8], np.int64), 10, 1, np.array([1, 3], np.float32)),
        (np.array([5, -6, -1], np.int64), 5, 1, np.array([1, 3], np.float32)),
        (np.array([[1, 9], [2, 4]], np.int64), 10, -2, np.array([1, 3], np.float32)),
        (np.array([[3, -1, 0], [12, -13, 2]], np.int32), 4, 0, np.array([-1.5, 2.5], np.float64)),
    ],
)
def test_onnx_reference_evaluator(indices, depth, axis, values) -> None:
    onnx = pytest.importorskip("onnx")
    from onnx.reference import ReferenceEvaluator

    node = onnx.helper.make_node("OneHot", ["indices", "depth", "values"], ["y"], axis=axis)
    (want,) = ReferenceEvaluator(node).run(None, {"indices": indices, "depth": np.array(depth), "values": values})
    got = sd.one_hot(indices, depth, values, axis=axis)
    assert got.dtype == want.dtype and same_bits(got, want)


def test_empty_and_zero_d() -> None:
    assert sd.one_hot(np.zeros((0, 3), np.int32), 4).shape == (0, 3, 4)
    assert sd.one_hot(np.zeros((2, 3), np.int32), 0, axis=1).shape == (2, 0, 3)
    assert sd.one_hot(np.array([], np.uint32), 5, values=(1.0, 2.0)).shape == (0, 5)
    out = np.zeros((0, 3, 4), np.int64)
    assert sd.one_hot(np.zeros((0, 3), np.int64), 4, out=out) is out
    got = sd.one_hot(np.int64(2), 4)  # 0-d indices: a 1-d result
    assert got.shape == (4,) and got.tolist() == [0, 0, 1, 0]
    assert sd.one_hot(np.array(-1), 3, axis=0).tolist() == [0, 0, 1]


def test_misuse_writes_nothing() -> None:
    idx = np.array([[0, 1], [2, 3]], np.int64)
    out = np.full((2, 2, 4), 7, np.int64)
    cases = [
        (sd.ValidationError, r"^one_hot\.depth: must be non-negative, got -1$", dict(depth=-1)),
        (
            sd.ValidationError,
            r"^one_hot\.values: must hold 2 values \[off, on\], got shape \(3,\)$",
            dict(values=(0, 1, 2)),
        ),
        (sd.ValidationError, r"^one_hot\.axis: 3 is out of range for a result of 3 dimension\(s\)$", dict(axis=3)),
        (sd.ValidationError, r"^one_hot\.axis: -4 is out of range", dict(axis=-4)),
        (sd.ValidationError, r"expected shape \(2, 2, 5\), got \(2, 2, 4\)", dict(depth=5)),
        (sd.ValidationError, "expected dtype float64, got int64", dict(values=(0.0, 1.0))),
        (sd.ValidationError, "bool", dict(values=np.array([False, True]))),
        (sd.ValidationError, "complex", dict(values=np.array([0, 1j]))),
        (TypeError, r"one_hot\.values: expected two numbers", dict(values=("a", "b"))),
        (TypeError, r"one_hot\.depth: expected an integer", dict(depth=4.0)),
        (TypeError, r"one_hot\.axis: expected an integer", dict(axis="1")),
    ]
    for exc, msg, kw in cases:
        args = dict(indices=idx, depth=4, values=(0, 1), axis=-1, out=out)
        args.update(kw)
        with pytest.raises(exc, match=msg):
            sd.one_hot(**args)
    with pytest.raises(TypeError, match=r"one_hot\.indices: boolean indices"):
        sd.one_hot(np.array([[True, False]] * 2), 4, out=out)
    with pytest.raises(TypeError, match=r"one_hot\.indices: expected an integer array, got dtype float32"):
        sd.one_hot(idx.astype(np.float32), 4, out=out)
    with pytest.raises(sd.ValidationError, match=r"one_hot\.indices: at most 7 dimensions"):
        sd.one_hot(np.zeros((1,) * 8, np.int64), 2)
    ro = np.zeros((2, 2, 4), np.int64)
    ro.flags.writeable = False
    with pytest.raises(BufferError, match="read-only"):
        sd.one_hot(idx, 4, out=ro)
    assert (out == 7).all()


def test_races_never_leave_the_output() -> None:
    """Another thread rewrites the indices while one_hot runs: any values, never a crash, and
    each sequence holds at most one 'on' (the index is read once)."""
    rng = np.random.default_rng(8)
    idx = rng.integers(0, 64, size=(64, 512)).astype(np.int32)
    stop = []

    def body(i: int) -> None:
        if i == 0:
            r = np.random.default_rng(1)
            for _ in range(200):
                idx[...] = r.integers(-(2**31), 2**31 - 1, size=idx.shape, dtype=np.int64).astype(np.int32)
            stop.append(1)
        else:
            while not stop:
                got = sd.one_hot(idx, 64, np.array([0, 1], np.uint8), axis=i % 2)
                assert (got.sum(axis=i % 2) <= 1).all()

    run_threads(body, 3)


# ------------------------------------------------------------------ the description


@pytest.mark.parametrize(
    "dtype,itype,n,level",
    [
        ("float32", "uint32", 4, FL.FL_2_0),
        ("float16", "uint32", 4, FL.FL_2_0),
        ("int8", "uint32", 4, FL.FL_2_1),
        ("uint32", "uint32", 4, FL.FL_2_1),
        ("float32", "int32", 4, FL.FL_3_0),  # signed or 64-bit indices from 3_0
        ("float32", "uint64", 4, FL.FL_3_0),
        ("float32", "uint32", 2, FL.FL_3_0),  # 1-8 dimensions from 3_0
        ("int16", "int64", 8, FL.FL_3_0),
        ("float64", "uint32", 4, FL.FL_4_1),  # 64-bit values from 4_1
        ("int64", "int32", 1, FL.FL_4_1),
    ],
)
def test_min_feature_level(dtype, itype, n, level) -> None:
    sizes = [2] * n
    d = sd.OneHotDesc(
        sd.TensorDesc(itype, sizes[:-1] + [1]),
        sd.TensorDesc(dtype, [1] * (n - 1) + [2]),
        sd.TensorDesc(dtype, sizes),
        n - 1,
    )
    assert d.min_feature_level == level
    assert d.is_valid_at(level) and d.is_valid_at(FL.FL_6_4)
    assert not any(d.is_valid_at(lv) for lv in FL if lv < level)


def test_level_messages() -> None:
    with pytest.raises(sd.ValidationError, match=r"^OneHotDesc: the operator needs feature level 2_0"):
        _desc((1, 1, 3, 1), 3).validate("1_0")
    with pytest.raises(sd.ValidationError, match=r"^OneHotDesc\.values\.dtype: INT8 needs feature level 2_1"):
        _desc((1, 1, 3, 1), 3, dtype="int8").validate("2_0")
    with pytest.raises(sd.ValidationError, match=r"^OneHotDesc\.indices\.dtype: INT64 indices need feature level 3_0"):
        _desc((1, 1, 3, 1), 3, idx_dtype="int64").validate("2_1")
    with pytest.raises(sd.ValidationError, match=r"^OneHotDesc\.values\.sizes: 3 dimensions need feature level 3_0"):
        _desc((1, 3, 1), 2, values_sizes=(1, 1, 2), out=(1, 3, 4)).validate("2_1")
    with pytest.raises(sd.ValidationError, match=r"^OneHotDesc\.values\.dtype: UINT64 needs feature level 4_1"):
        _desc((1, 1, 3, 1), 3, dtype="uint64").validate("4_0")
    # Over DirectML's 2^32-1 elements: executes, accepted at no level.
    d = _desc((1, 1, 2**16, 1), 3, dtype="uint8", out=(1, 1, 2**16, 2**16 + 1))
    d.validate()
    assert not any(d.is_valid_at(lv) for lv in FL)
    with pytest.raises(sd.ValidationError, match=r"^OneHotDesc\.output\.sizes: 4295032832 elements exceed"):
        d.min_feature_level


def test_description_rules() -> None:
    T = sd.TensorDesc
    f, u = "float32", "uint32"
    cases = [
        (sd.OneHotDesc(T(u, [3, 1]), T(f, [1, 2]), T(f, [3, 4]), 2), r"^OneHotDesc\.axis: 2 is out of range for 2"),
        (sd.OneHotDesc(T(u, [3, 1]), T(f, [1, 2]), T(f, [3, 4]), -1), r"^OneHotDesc\.axis: -1 is out of range"),
        (
            sd.OneHotDesc(T(u, [1, 3, 1]), T(f, [1, 2]), T(f, [3, 4]), 1),
            r"^OneHotDesc\.indices\.sizes: must have the same dimension count as output \(2\), got 3$",
        ),
        (
            sd.OneHotDesc(T(u, [3, 1]), T(f, [2]), T(f, [3, 4]), 1),
            r"^OneHotDesc\.values\.sizes: must have the same dimension count as output \(2\), got 1$",
        ),
        (
            sd.OneHotDesc(T("int16", [3, 1]), T(f, [1, 2]), T(f, [3, 4]), 1),
            r"^OneHotDesc\.indices\.dtype: indices must be INT32, INT64, UINT32 or UINT64, got INT16$",
        ),
        (
            sd.OneHotDesc(T(u, [3, 1]), T("float16", [1, 2]), T(f, [3, 4]), 1),
            r"^OneHotDesc\.values\.dtype: must equal output\.dtype \(FLOAT32\), got FLOAT16$",
        ),
        (
            sd.OneHotDesc(T(u, [3, 2]), T(f, [1, 2]), T(f, [3, 4]), 1),
            r"^OneHotDesc\.indices\.sizes\[1\]: must be 1 along the axis \(1\), got 2$",
        ),
        (
            sd.OneHotDesc(T(u, [2, 1]), T(f, [1, 2]), T(f, [3, 4]), 1),
            r"^OneHotDesc\.indices\.sizes\[0\]: must equal output\.sizes\[0\] \(3\), got 2$",
        ),
        (
            sd.OneHotDesc(T(u, [3, 1]), T(f, [1, 1]), T(f, [3, 4]), 1),
            r"^OneHotDesc\.values\.sizes: must hold at least 2 elements \(off, on\), got 1$",
        ),
        (
            sd.OneHotDesc(T(u, [3, 1]), T(f, [1, 2]), T(f, [3, 4], [0, 1]), 1),
            r"^OneHotDesc\.output\.strides\[0\]: an output must not broadcast",
        ),
    ]
    for d, msg in cases:
        with pytest.raises(sd.ValidationError, match=msg):
            d.validate()
        assert not any(d.is_valid_at(lv) for lv in FL)
    d = sd.OneHotDesc(T(u, [3, 1]), T(f, [1, 2]), T(f, [3, 4]), 1)
    assert d.axis == 1 and d.values.sizes == (1, 2) and d.indices.dtype == sd.DataType.UINT32
    assert repr(d).startswith("OneHotDesc(indices=TensorDesc(UINT32") and "axis=1" in repr(d)
    assert d == sd.OneHotDesc(T(u, [3, 1]), T(f, [1, 2]), T(f, [3, 4]), 1) and d != _desc((1, 1, 3, 1), 3)
    assert sd.OneHotDesc.__doc__.startswith("DML_ONE_HOT_OPERATOR_DESC")


def test_compile_execute_buffers() -> None:
    # uint16 out {3, 5} column-major with a pitch of 4, int64 indices with padding, values {2,2}
    # (off = [0,0], on = [0,1] in row-major order).
    ti = sd.TensorDesc("int64", [3, 1], [2, 1])  # every other int64
    tv = sd.TensorDesc("uint16", [2, 2])
    to = sd.TensorDesc("uint16", [3, 5], [1, 4])
    d = sd.OneHotDesc(ti, tv, to, 1)
    c = sd.compile(d)
    assert c.input_bytes == [40, 8] and c.output_bytes == [40]
    out = np.full(20, 0xFFFF, np.uint16)
    c.execute([np.array([4, -1, -2, -1, 9], np.int64), np.array([11, 22, 33, 44], np.uint16)], [out])
    got = np.lib.stride_tricks.as_strided(out, (3, 5), (2, 8))
    assert got.tolist() == [[11, 11, 11, 11, 22], [11, 11, 11, 22, 11], [11, 11, 11, 11, 11]]
    assert (out[[3, 7, 11, 15, 19]] == 0xFFFF).all()  # the padding is not written
    with pytest.raises(BufferError):
        c.execute([bytes(39), bytes(8)], [bytearray(40)])
