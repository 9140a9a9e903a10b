"""ReverseSubsequences (SPEC 3.10): a slow Python reference loop (bit-exact, every dtype and
lengths type), SPEC's examples, ONNX's ReverseSequence (reference evaluator) and torch.flip per
sequence, strides in and out, out=, empty arrays, negative lengths and other misuse writing
nothing, the description's rules, feature levels (SPEC 4), compile/execute on buffers and lengths
rewritten by another thread."""

from __future__ import annotations

import numpy as np
import pytest

import strided as sd
from conftest import ALL_DTYPES, random_array, run_threads, same_bits

FL = sd.FeatureLevel
LENGTH_TYPES = [np.uint32, np.uint64, np.int32, np.int64]


def ref_reverse(x, lengths, axis) -> np.ndarray:
    x = np.asarray(x)
    axis %= x.ndim
    m = x.shape[axis]
    lshape = x.shape[:axis] + (1,) + x.shape[axis + 1 :]
    L = np.moveaxis(np.broadcast_to(np.asarray(lengths), lshape), axis, -1)
    xm = np.moveaxis(x, axis, -1)
    out = xm.copy()
    for idx in np.ndindex(xm.shape[:-1]):
        n = min(int(L[idx + (0,)]), m)
        out[idx][:n] = xm[idx][:n][::-1]
    return np.ascontiguousarray(np.moveaxis(out, -1, axis))


def test_spec_examples() -> None:
    x = np.arange(1, 13, dtype=np.float32).reshape(1, 1, 3, 4)
    cases = [
        ([2, 4, 3], (1, 1, 3, 1), 3, [[2, 1, 3, 4], [8, 7, 6, 5], [11, 10, 9, 12]]),
        ([2, 3, 1, 0], (1, 1, 1, 4), 2, [[5, 10, 3, 4], [1, 6, 7, 8], [9, 2, 11, 12]]),
        ([9, 0, 1], (1, 1, 3, 1), 3, [[4, 3, 2, 1], [5, 6, 7, 8], [9, 10, 11, 12]]),
    ]
    for lengths, lsizes, axis, want in cases:
        lens = np.array(lengths, np.uint32).reshape(lsizes)
        assert sd.reverse_subsequences(x, lens, axis)[0, 0].tolist() == want
        d = sd.ReverseSubsequencesDesc(
            sd.TensorDesc("float32", [1, 1, 3, 4]),
            sd.TensorDesc("uint32", list(lsizes)),
            sd.TensorDesc("float32", [1, 1, 3, 4]),
            axis,
        )
        assert d.min_feature_level == FL.FL_2_1
        out = np.full((1, 1, 3, 4), -1, np.float32)
        sd.compile(d).execute([x, lens], [out])
        assert out[0, 0].tolist() == want


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
def test_every_dtype_and_lengths_type(dtype) -> None:
    rng = np.random.default_rng(np.dtype(dtype).num)
    for ltype in LENGTH_TYPES + [np.uint8, np.int16]:  # the last two are converted to int64
        for shape in [(7,), (3, 5), (2, 3, 4), (1, 2, 1, 3, 5)]:
            x = random_array(rng, shape, dtype)  # random bits: NaN payloads, -0.0
            for axis in range(-len(shape), len(shape)):
                lshape = list(shape)
                lshape[axis] = 1
                lens = rng.integers(0, shape[axis] + 3, size=lshape).astype(ltype)
                got = sd.reverse_subsequences(x, lens, axis)
                assert got.flags.c_contiguous and same_bits(got, ref_reverse(x, lens, axis)), (ltype, shape, axis)


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_large_any_thread_count(axis, threads) -> None:
    rng = np.random.default_rng(12)
    x = random_array(rng, (40, 300, 33), np.float32)
    lshape = [40, 300, 33]
    lshape[axis] = 1
    lens = rng.integers(0, x.shape[axis] + 5, size=lshape).astype(np.int64)
    assert same_bits(sd.reverse_subsequences(x, lens, axis), ref_reverse(x, lens, axis))
    xt = x.transpose(2, 0, 1)[:, ::-1]  # the axis order in memory differs from the logical one
    lt = np.moveaxis(lens, 2, 0)[:, ::-1]
    assert same_bits(sd.reverse_subsequences(xt, lt, (axis + 1) % 3), ref_reverse(xt, lt, (axis + 1) % 3))


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.int64])
@pytest.mark.parametrize("shape", [(70, 1000), (3000, 37), (70000, 3)])
def test_a_length_per_sequence_along_rows(dtype, shape, threads) -> None:
    # The axis varies slower than the sequences and every sequence has its own length: the
    # banded path (a packed copy of a band of sequences), and in place beyond 65536 rows.
    rng = np.random.default_rng(13)
    x = random_array(rng, shape, dtype)
    lens = rng.integers(0, shape[0] + 3, size=(1, shape[1])).astype(np.int64)
    assert same_bits(sd.reverse_subsequences(x, lens, 0), ref_reverse(x, lens, 0))
    xs, ls = x[:, ::-2], lens[:, ::-2]  # sequences a negative stride apart
    assert same_bits(sd.reverse_subsequences(xs, ls, 0), ref_reverse(xs, ls, 0))


def test_extreme_lengths() -> None:
    x = np.arange(12, dtype=np.int16).reshape(3, 4)
    for ltype in LENGTH_TYPES:
        info = np.iinfo(ltype)
        lens = np.array([[info.max], [0], [max(info.min, 0)]], ltype)
        assert same_bits(sd.reverse_subsequences(x, lens, 1), ref_reverse(x, lens.astype(object).clip(0, 4), 1))
    lens = np.array([[2**64 - 1], [2**63], [1]], np.uint64)  # not negative: every one clamps to the axis
    assert sd.reverse_subsequences(x, lens, 1).tolist() == [[3, 2, 1, 0], [7, 6, 5, 4], [8, 9, 10, 11]]


def test_lengths_broadcast() -> None:
    rng = np.random.default_rng(2)
    x = random_array(rng, (4, 6, 5), np.uint8)
    for lens, axis in [
        (3, 1),
        (np.array([1, 2, 3, 4, 5]), 1),
        (np.array([2, 0, 6, 1]).reshape(4, 1, 1), 2),
        ([[[4]]], 0),
    ]:
        want = ref_reverse(x, lens, axis)
        assert same_bits(sd.reverse_subsequences(x, lens, axis), want)
    with pytest.raises(
        sd.ValidationError, match=r"^reverse_subsequences\.lengths: shape \(4,\) does not broadcast to \(4, 1, 5\)$"
    ):
        sd.reverse_subsequences(x, np.array([1, 2, 3, 4]), 1)


def test_input_strides() -> None:
    rng = np.random.default_rng(3)
    base = random_array(rng, (20, 30), np.float64)
    lbase = rng.integers(0, 40, size=(60, 120)).astype(np.uint32)
    for x in [base[::-3, ::2], base[2:9, 25:3:-4], base.T[::3], np.broadcast_to(base[4], (3, 30))]:
        for axis in (0, 1):
            lshape = list(x.shape)
            lshape[axis] = 1
            lens = lbase[::-1, ::3][: lshape[0], : lshape[1]]  # strided lengths
            assert same_bits(sd.reverse_subsequences(x, lens, axis), ref_reverse(x, lens, axis))
    col = np.broadcast_to(base[:, :1], (20, 6))  # stride 0 along the reversed axis
    assert same_bits(sd.reverse_subsequences(col, 4, 1), ref_reverse(col, 4, 1))


def test_out_any_strides() -> None:
    rng = np.random.default_rng(4)
    x = random_array(rng, (5, 6), np.int32)
    lens = rng.integers(0, 7, size=(1, 6)).astype(np.int64)
    want = ref_reverse(x, lens, 0)
    views = [
        ((7, 9), lambda b: b[1:6, 2:8]),
        ((5, 6), lambda b: b[::-1, ::-1]),
        ((6, 5), lambda b: b.T),
        ((10, 12), lambda b: b[::2, ::2]),
    ]
    for shape, view in views:
        base = np.full(shape, -1, np.int32)
        expect = base.copy()
        view(expect)[...] = want
        out = view(base)
        assert sd.reverse_subsequences(x, lens, 0, out=out) is out and same_bits(base, expect)


def test_out_overlapping_input_and_stride_zero() -> None:
    x = np.arange(10, dtype=np.int64)
    want = ref_reverse(x, [7], 0)
    assert sd.reverse_subsequences(x, [7], 0, out=x) is x and same_bits(x, want)  # in place
    buf = np.arange(12, dtype=np.float32)
    sd.reverse_subsequences(buf[:8], [5], 0, out=buf[4:])  # out overlaps x: as if x were read first
    assert buf.tolist() == [0, 1, 2, 3, 4, 3, 2, 1, 0, 5, 6, 7]
    b = np.full(4, 9, np.int64)
    with pytest.raises(BufferError, match="overlap each other"):
        sd.reverse_subsequences(np.ones((3, 4), np.int64), 2, 1, out=np.lib.stride_tricks.as_strided(b, (3, 4), (0, 8)))
    assert (b == 9).all()


def test_torch_flip_per_sequence() -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(5)
    x = torch.from_numpy(random_array(rng, (6, 9, 4), np.float32))
    lens = rng.integers(0, 10, size=(6, 1, 4))
    want = x.clone()
    for i in range(6):
        for k in range(4):
            n = int(lens[i, 0, k])
            want[i, :n, k] = torch.flip(x[i, :n, k], [0])
    assert same_bits(sd.reverse_subsequences(x, torch.from_numpy(lens), 1), want.numpy())
    base = torch.full((6, 12, 8), -1.0)
    out = base[:, 1:10, ::2]  # non-contiguous torch out, written in place
    assert sd.reverse_subsequences(x, lens, 1, out=out) is out and same_bits(out.numpy(), want.numpy())
    assert (base[:, 0] == -1).all() and (base[:, :, 1::2] == -1).all()


def test_onnx_reverse_sequence() -> None:
    onnx = pytest.importorskip("onnx")
    from onnx.reference import ReferenceEvaluator

    rng = np.random.default_rng(6)
    for time_axis, batch_axis, shape in [(0, 1, (4, 4)), (1, 0, (4, 4)), (0, 1, (5, 3, 2)), (1, 0, (3, 6, 2))]:
        x = random_array(rng, shape, np.float32)
        seq = rng.integers(0, shape[time_axis] + 1, size=shape[batch_axis]).astype(np.int64)
        node = onnx.helper.make_node("ReverseSequence", ["x", "l"], ["y"], time_axis=time_axis, batch_axis=batch_axis)
        (want,) = ReferenceEvaluator(node).run(None, {"x": x, "l": seq})
        lshape = [1] * len(shape)
        lshape[batch_axis] = shape[batch_axis]
        assert same_bits(sd.reverse_subsequences(x, seq.reshape(lshape), time_axis), want)


def test_empty_arrays() -> None:
    for shape, axis in [((0, 3), 1), ((4, 0), 1), ((4, 0), 0), ((2, 0, 3), 2)]:
        x = np.zeros(shape, np.float16)
        lshape = list(shape)
        lshape[axis] = 1
        got = sd.reverse_subsequences(x, np.ones(lshape, np.int32), axis)
        assert got.shape == shape and got.dtype == np.float16
        out = np.zeros(shape, np.float16)
        assert sd.reverse_subsequences(x, np.ones(lshape, np.int32), axis, out=out) is out
    # An empty axis with lengths left: a negative one still raises.
    with pytest.raises(IndexError, match=r"^reverse_subsequences\.lengths\[2, 0\]: length -1 is negative$"):
        sd.reverse_subsequences(np.zeros((3, 0)), np.array([[0], [1], [-1]]), 1)


def test_misuse_writes_nothing() -> None:
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    out = np.full((3, 4), 7, np.float32)
    with pytest.raises(IndexError, match=r"^reverse_subsequences\.lengths\[1, 0\]: length -2 is negative$"):
        sd.reverse_subsequences(x, np.array([[1], [-2], [-3]], np.int32), 1, out=out)
    with pytest.raises(IndexError, match=r"^reverse_subsequences\.lengths\[0, 2\]: length -1 is negative$"):
        sd.reverse_subsequences(x, np.array([1, 2, -1, 0], np.int8), 0, out=out)  # converted, then broadcast
    with pytest.raises(sd.ValidationError, match=r"^reverse_subsequences\.axis: 2 is out of range for 2"):
        sd.reverse_subsequences(x, 1, 2, out=out)
    with pytest.raises(sd.ValidationError, match=r"^reverse_subsequences\.axis: -3 is out of range"):
        sd.reverse_subsequences(x, 1, -3, out=out)
    with pytest.raises(sd.ValidationError, match=r"^reverse_subsequences\.axis: 0 is out of range for 0"):
        sd.reverse_subsequences(np.float32(1), 1, 0)
    with pytest.raises(sd.ValidationError, match=r"expected shape \(3, 4\), got \(4, 3\)"):
        sd.reverse_subsequences(x, 1, 0, out=np.zeros((4, 3), np.float32))
    with pytest.raises(sd.ValidationError, match="expected dtype float32, got float64"):
        sd.reverse_subsequences(x, 1, 0, out=np.zeros((3, 4)))
    with pytest.raises(TypeError, match=r"reverse_subsequences\.lengths: expected an integer array, got dtype float"):
        sd.reverse_subsequences(x, 1.5, 0, out=out)
    with pytest.raises(TypeError, match=r"reverse_subsequences\.lengths: boolean lengths"):
        sd.reverse_subsequences(x, True, 0, out=out)
    with pytest.raises(TypeError, match=r"reverse_subsequences\.axis: expected an integer"):
        sd.reverse_subsequences(x, 1, 0.0, out=out)
    ro = np.zeros((3, 4), np.float32)
    ro.flags.writeable = False
    with pytest.raises(BufferError, match="read-only"):
        sd.reverse_subsequences(x, 1, 0, out=ro)
    assert (out == 7).all()


def test_lengths_rewritten_by_another_thread() -> None:
    """SPEC 3.0 rule 2: whatever another thread writes to the lengths (negative, huge), no read
    leaves the input: every sequence of the result is a permutation of the input's."""
    rng = np.random.default_rng(7)
    x = np.arange(64 * 300, dtype=np.int32).reshape(64, 300)
    xt = np.ascontiguousarray(x.T)  # sequences along axis 0
    lens = rng.integers(0, 300, size=(64, 1)).astype(np.int64)
    lens_t = np.ascontiguousarray(lens.T)
    stop = []

    def body(i: int) -> None:
        if i == 0:
            r = np.random.default_rng(1)
            for _ in range(300):
                v = r.integers(-(2**62), 2**62, size=64)
                lens[:, 0] = v
                lens_t[0] = v
            stop.append(1)
        else:
            while not stop:
                try:
                    if i == 1:
                        got, want = sd.reverse_subsequences(x, lens, 1), np.sort(x, axis=1)
                    else:
                        got, want = sd.reverse_subsequences(xt, lens_t, 0), np.sort(xt, axis=0)
                except IndexError:
                    continue  # a negative length seen by the check: nothing written
                assert (np.sort(got, axis=i % 2) == want).all()

    run_threads(body, 3)


# ------------------------------------------------------------------ the description


def _desc(sizes, lsizes, axis, dtype="float32", ltype="uint32", out_sizes=None, out_dtype=None, **kw):
    return sd.ReverseSubsequencesDesc(
        sd.TensorDesc(dtype, list(sizes)),
        sd.TensorDesc(ltype, list(lsizes)),
        sd.TensorDesc(out_dtype or dtype, list(out_sizes or sizes), **kw),
        axis,
    )


@pytest.mark.parametrize(
    "dtype,ltype,n,level",
    [
        ("float32", "uint32", 4, FL.FL_2_1),
        ("int8", "uint32", 4, FL.FL_2_1),
        ("float16", "uint32", 5, FL.FL_3_0),  # 5 dimensions from 3_0
        ("uint16", "uint32", 2, FL.FL_4_0),  # 1-8 from 4_0
        ("int32", "uint32", 8, FL.FL_4_0),
        ("float64", "uint32", 4, FL.FL_5_0),  # 64-bit data from 5_0
        ("float32", "uint64", 4, FL.FL_5_0),  # UINT64 lengths from 5_0
        ("int64", "uint64", 1, FL.FL_5_0),
    ],
)
def test_min_feature_level(dtype, ltype, n, level) -> None:
    sizes = [3] * n
    d = _desc(sizes, sizes[:-1] + [1], n - 1, dtype, ltype)
    assert d.min_feature_level == level
    assert d.is_valid_at(level) and d.is_valid_at(FL.FL_6_4)
    assert not any(d.is_valid_at(lv) for lv in FL if lv < level)


def test_level_messages() -> None:
    d = _desc([1, 1, 3, 4], [1, 1, 3, 1], 3)
    with pytest.raises(sd.ValidationError, match=r"^ReverseSubsequencesDesc: the operator needs feature level 2_1"):
        d.validate("2_0")
    with pytest.raises(
        sd.ValidationError, match=r"^ReverseSubsequencesDesc\.input\.sizes: 3 dimensions need feature level 4_0"
    ):
        _desc([1, 3, 4], [1, 3, 1], 2).validate("3_1")
    with pytest.raises(
        sd.ValidationError, match=r"^ReverseSubsequencesDesc\.sequence_lengths\.dtype: UINT64 needs feature level 5_0"
    ):
        _desc([1, 1, 3, 4], [1, 1, 3, 1], 3, ltype="uint64").validate("4_1")
    # Signed lengths (strided's extension): they execute, but no level accepts them.
    for lt in ("int32", "int64"):
        s = _desc([1, 1, 3, 4], [1, 1, 3, 1], 3, ltype=lt)
        s.validate()
        assert not any(s.is_valid_at(lv) for lv in FL)
        with pytest.raises(
            sd.ValidationError,
            match=rf"^ReverseSubsequencesDesc\.sequence_lengths\.dtype: {lt.upper()} is accepted at no DirectML feature level",
        ):
            s.min_feature_level
        x = np.arange(12, dtype=np.float32).reshape(1, 1, 3, 4)
        out = np.zeros_like(x)
        sd.compile(s).execute([x, np.array([2, 4, 3], lt)], [out])
        assert out[0, 0].tolist() == [[1, 0, 2, 3], [7, 6, 5, 4], [10, 9, 8, 11]]
        with pytest.raises(
            IndexError, match=r"^ReverseSubsequencesDesc\.sequence_lengths\[0, 0, 2, 0\]: length -3 is negative$"
        ):
            sd.compile(s).execute([x, np.array([2, 4, -3], lt)], [out])
        assert out[0, 0].tolist() == [[1, 0, 2, 3], [7, 6, 5, 4], [10, 9, 8, 11]]  # untouched


def test_description_rules() -> None:
    N = "ReverseSubsequencesDesc"
    cases = [
        (_desc([3, 4], [3, 1], 2), rf"^{N}\.axis: 2 is out of range for 2 dimensions"),
        (_desc([3, 4], [1, 3, 1], 1), rf"^{N}\.sequence_lengths\.sizes: must have the same dimension count as input"),
        (_desc([3, 4], [3, 1], 1, out_sizes=[1, 3, 4]), rf"^{N}\.output\.sizes: must have the same dimension count"),
        (_desc([3, 4], [3, 1], 1, out_dtype="int32"), rf"^{N}\.output\.dtype: must equal input\.dtype \(FLOAT32\)"),
        (_desc([3, 4], [3, 1], 1, out_sizes=[3, 5]), rf"^{N}\.output\.sizes\[1\]: must equal input\.sizes\[1\] \(4\)"),
        (
            _desc([3, 4], [3, 1], 1, ltype="uint16"),
            rf"^{N}\.sequence_lengths\.dtype: lengths must be UINT32, UINT64, INT32 or INT64, got UINT16$",
        ),
        (_desc([3, 4], [3, 4], 1), rf"^{N}\.sequence_lengths\.sizes\[1\]: must be 1 along the axis \(1\), got 4$"),
        (_desc([3, 4], [2, 1], 1), rf"^{N}\.sequence_lengths\.sizes\[0\]: must equal input\.sizes\[0\] \(3\), got 2$"),
        (_desc([3, 4], [3, 1], 1, strides=[1, 0]), rf"^{N}\.output\.strides\[1\]: an output must not broadcast"),
    ]
    for d, msg in cases:
        with pytest.raises(sd.ValidationError, match=msg):
            d.validate()
    d = _desc([3, 4], [3, 1], 1)
    assert d.axis == 1 and d.sequence_lengths.sizes == (3, 1)
    assert repr(d).startswith("ReverseSubsequencesDesc(input=TensorDesc(FLOAT32") and "axis=1" in repr(d)
    assert d == _desc([3, 4], [3, 1], 1) and d != _desc([3, 4], [1, 4], 0)
    assert sd.ReverseSubsequencesDesc.__doc__.startswith("DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC")


def test_compile_execute_buffers() -> None:
    # int8 {2, 5} with a row pitch of 8, lengths {2, 1} packed, out column-major.
    ti = sd.TensorDesc("int8", [2, 5], [8, 1])
    tl = sd.TensorDesc("uint32", [2, 1])
    to = sd.TensorDesc("int8", [2, 5], [1, 3])
    c = sd.compile(sd.ReverseSubsequencesDesc(ti, tl, to, 1))
    assert c.input_bytes == [16, 8] and c.output_bytes == [16]
    x = np.array([1, 2, 3, 4, 5, 0, 0, 0, 6, 7, 8, 9, 10, 0, 0, 0], np.int8)
    out = bytearray(b"\xee" * 16)
    c.execute([x, np.array([3, 7], np.uint32)], [out])
    got = np.lib.stride_tricks.as_strided(np.frombuffer(out, np.int8), (2, 5), (1, 3))
    assert got.tolist() == [[3, 2, 1, 4, 5], [10, 9, 8, 7, 6]]
    assert out[2] == 0xEE and out[14:] == b"\xee\xee"  # padding untouched
    with pytest.raises(BufferError):
        c.execute([x, bytes(4)], [out])
