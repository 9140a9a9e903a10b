"""MaxUnpooling (SPEC 3.14.2, ONNX MaxUnpool): a Python loop as the independent reference for
every dtype and index dtype, torch's max_unpool2d on max_pool2d's indices when torch is
installed, SPEC's examples, strides in and out, out= (numpy views, torch tensors in place),
empty arrays, bad indices raising IndexError with nothing written, the description's rules,
levels (SPEC 4) and compile/execute."""

from __future__ import annotations

import numpy as np
import pytest

import strided as sd
from conftest import ALL_DTYPES, random_array, same_bits

FL = sd.FeatureLevel
INDEX_DTYPES = [np.int32, np.int64, np.uint32, np.uint64]


def ref_unpool(x, idx, shape):
    """Zeros, then each value at its row-major position, in row-major order of idx (last wins)."""
    out = np.zeros(int(np.prod(shape, dtype=np.int64)), x.dtype)
    m = out.size
    for c in np.ndindex(*x.shape):
        p = int(idx[c])
        out[p + m if p < 0 else p] = x[c]
    return out.reshape(shape)


def positions(rng, x_shape, out_shape, dtype=np.int64, unique=True):
    m, k = int(np.prod(out_shape)), int(np.prod(x_shape))
    p = rng.choice(m, size=k, replace=not unique)
    return p.astype(dtype).reshape(x_shape)


def test_spec_examples() -> None:
    x = np.array([[[[5, 6], [7, 8]]]], np.float32)
    idx = np.array([[[[1, 3], [8, 15]]]], np.uint32)
    got = sd.max_unpool(x, idx, (1, 1, 4, 4))
    assert got[0, 0].tolist() == [[0, 5, 0, 6], [0, 0, 0, 0], [7, 0, 0, 0], [0, 0, 0, 8]]
    x2 = np.array([1, 2, 3, 4], np.float16).reshape(1, 2, 1, 2)
    idx2 = np.array([0, 3, 5, 6], np.uint64).reshape(1, 2, 1, 2)
    got = sd.max_unpool(x2, idx2, (1, 2, 2, 2))
    assert got[0].tolist() == [[[1, 0], [0, 2]], [[0, 3], [4, 0]]]
    d = sd.MaxUnpoolingDesc(
        sd.TensorDesc("float32", [1, 1, 2, 2]),
        sd.TensorDesc("uint32", [1, 1, 2, 2]),
        sd.TensorDesc("float32", [1, 1, 4, 4]),
    )
    assert d.min_feature_level == FL.FL_2_0
    out = np.full((1, 1, 4, 4), 9, np.float32)  # the zeros are written too
    sd.compile(d).execute([x, idx.tobytes()], [out])
    assert out[0, 0].tolist() == [[0, 5, 0, 6], [0, 0, 0, 0], [7, 0, 0, 0], [0, 0, 0, 8]]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("idx_dtype", INDEX_DTYPES, ids=lambda t: np.dtype(t).name)
def test_every_dtype(dtype, idx_dtype) -> None:
    rng = np.random.default_rng(1)
    x = random_array(rng, (2, 3, 4, 5), dtype)  # random bits: NaN payloads, -0.0 kept
    idx = positions(rng, x.shape, (2, 3, 8, 10), idx_dtype)
    assert same_bits(sd.max_unpool(x, idx, (2, 3, 8, 10)), ref_unpool(x, idx, (2, 3, 8, 10)))


def test_duplicates_negative_and_other_shapes(simd, threads) -> None:
    rng = np.random.default_rng(2)
    x = random_array(rng, (3, 4, 50), np.int32)
    idx = positions(rng, x.shape, (7, 100), np.int64, unique=False)  # many duplicates: the last wins
    idx[::2] -= 700  # negative positions count from the end
    assert same_bits(sd.max_unpool(x, idx, (7, 100)), ref_unpool(x, idx, (7, 100)))
    assert same_bits(sd.max_unpool(x, idx, 700), ref_unpool(x, idx, (700,)))  # an int: 1-d
    small = np.full((600,), 5, np.int64)  # every value to position 5: the last one stays
    assert sd.max_unpool(np.arange(600, dtype=np.int16), small, (2, 5))[1, 0] == 599
    z = sd.max_unpool(np.float64(2.5), np.int32(-1), (3,))  # 0-d x and indices
    assert z.tolist() == [0, 0, 2.5]


def test_against_torch() -> None:
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    g = torch.Generator().manual_seed(3)
    for dtype, shape, k in [(torch.float32, (2, 3, 8, 8), 2), (torch.float64, (3, 2, 9, 7), 3)]:
        t = torch.randn(shape, generator=g, dtype=dtype)
        y, ind = F.max_pool2d(t, k, return_indices=True)
        want = F.max_unpool2d(y, ind, k, output_size=shape[2:])
        n, c, h, w = shape
        flat = ind + (torch.arange(n * c) * h * w).reshape(n, c, 1, 1)  # torch counts per plane
        got = sd.max_unpool(y.numpy(), flat.numpy(), shape)
        assert same_bits(got, want.numpy())
        # torch tensors in, a non-contiguous torch out written in place.
        out = torch.full((w, h, c, n), -1, dtype=dtype).permute(3, 2, 1, 0)
        assert sd.max_unpool(y, flat, shape, out=out) is out
        assert torch.equal(out, want)


def test_input_strides_and_out_any_strides() -> None:
    rng = np.random.default_rng(4)
    base = random_array(rng, (4, 6, 8), np.uint16)
    ibase = positions(rng, (4, 6, 8), (12, 20), np.uint32)
    for sl in [np.s_[::-1, ::2, 1::3], np.s_[1:3, ::-2, ::-1], np.s_[:, 2, :]]:
        x, idx = base[sl], ibase[sl]
        assert same_bits(sd.max_unpool(x, idx, (12, 20)), ref_unpool(x, idx, (12, 20)))
    x, idx = base.transpose(2, 0, 1), ibase.transpose(2, 0, 1)
    assert same_bits(sd.max_unpool(x, idx, (12, 20)), ref_unpool(x, idx, (12, 20)))
    want = ref_unpool(base, ibase, (12, 20))
    for shape, view in [
        ((20, 12), lambda b: b.T),
        ((14, 25), lambda b: b[1:13, 2:22]),
        ((24, 40), lambda b: b[::-2, ::2]),
    ]:
        buf = np.full(shape, 3, np.uint16)
        expect = buf.copy()
        view(expect)[...] = want
        out = view(buf)
        assert sd.max_unpool(base, ibase, (12, 20), out=out) is out and same_bits(buf, expect)


def test_empty_arrays() -> None:
    x = np.zeros((0, 3), np.float32)
    got = sd.max_unpool(x, np.zeros((0, 3), np.int64), (2, 2))
    assert got.shape == (2, 2) and not got.any()  # nothing to scatter: zeros
    out = np.full((2, 2), 4, np.float32)
    assert sd.max_unpool(x, np.zeros((0, 3), np.int64), (2, 2), out=out) is out and not out.any()
    assert sd.max_unpool(x, np.zeros((0, 3), np.int64), (0, 5)).shape == (0, 5)
    with pytest.raises(IndexError, match="out of range for an empty output"):
        sd.max_unpool(np.ones((2,), np.float32), np.zeros((2,), np.int64), (3, 0))


def test_bad_indices_write_nothing() -> None:
    x = np.arange(1, 7, dtype=np.float32).reshape(1, 1, 2, 3)
    out = np.full((1, 1, 4, 4), 7, np.float32)
    for idx, msg in [
        (
            [[0, 1, 2], [3, 16, 5]],
            r"^max_unpool\.indices\[0, 0, 1, 1\] = 16: out of range \[-16, 16\) for axis 0$",
        ),
        ([[0, -17, 2], [3, 4, 99]], r"^max_unpool\.indices\[0, 0, 0, 1\] = -17: out of range \[-16, 16\)"),
    ]:
        with pytest.raises(IndexError, match=msg):
            sd.max_unpool(x, np.array(idx, np.int64).reshape(1, 1, 2, 3), (1, 1, 4, 4), out=out)
    with pytest.raises(
        IndexError, match=r"^max_unpool\.indices\[0, 0, 1, 2\] = 4294967295: out of range \[0, 16\) for axis 0$"
    ):
        sd.max_unpool(x, np.array([0, 1, 2, 3, 4, 2**32 - 1], np.uint32).reshape(1, 1, 2, 3), (1, 1, 4, 4), out=out)
    with pytest.raises(sd.ValidationError, match=r"^max_unpool\.indices: shape \(1, 1, 3, 2\) must equal x's shape"):
        sd.max_unpool(x, np.zeros((1, 1, 3, 2), np.int64), (1, 1, 4, 4), out=out)
    with pytest.raises(sd.ValidationError, match=r"^max_unpool\.output_shape\[1\]: must not be negative"):
        sd.max_unpool(x, np.zeros((1, 1, 2, 3), np.int64), (1, -1, 4, 4))
    with pytest.raises(sd.ValidationError, match=r"^out: expected shape \(1, 1, 4, 4\), got \(1, 1, 4, 5\)"):
        sd.max_unpool(x, np.zeros((1, 1, 2, 3), np.int64), (1, 1, 4, 4), out=np.zeros((1, 1, 4, 5), np.float32))
    with pytest.raises(sd.ValidationError, match="expected dtype float32, got float64"):
        sd.max_unpool(x, np.zeros((1, 1, 2, 3), np.int64), (1, 1, 4, 4), out=np.zeros((1, 1, 4, 4)))
    with pytest.raises(TypeError, match=r"max_unpool\.indices: expected an integer array"):
        sd.max_unpool(x, np.zeros((1, 1, 2, 3), np.float32), (1, 1, 4, 4), out=out)
    assert (out == 7).all()
    # A compiled operator: the same IndexError, nothing written.
    d = sd.MaxUnpoolingDesc(
        sd.TensorDesc("float32", [1, 1, 2, 3]),
        sd.TensorDesc("int64", [1, 1, 2, 3]),
        sd.TensorDesc("float32", [1, 1, 4, 4]),
    )
    with pytest.raises(IndexError, match=r"^MaxUnpoolingDesc\.indices\[0, 0, 1, 1\] = 16: out of range \[-16, 16\)"):
        sd.compile(d).execute([x, np.array([0, 1, 2, 3, 16, 5], np.int64)], [out])
    assert (out == 7).all()


# ------------------------------------------------------------------ the description


def desc(dtype="float32", idx="uint32", sizes=(1, 2, 2, 2), out=(1, 2, 4, 4), out_dtype=None, idx_sizes=None):
    return sd.MaxUnpoolingDesc(
        sd.TensorDesc(dtype, list(sizes)),
        sd.TensorDesc(idx, list(idx_sizes or sizes)),
        sd.TensorDesc(out_dtype or dtype, list(out)),
    )


@pytest.mark.parametrize(
    "kw,level",
    [
        (dict(), FL.FL_2_0),
        (dict(dtype="float16"), FL.FL_2_0),
        (dict(dtype="int8"), FL.FL_5_0),
        (dict(dtype="uint64"), FL.FL_5_0),
        (dict(idx="uint64"), FL.FL_5_0),
        (dict(dtype="int16", idx="uint64"), FL.FL_5_0),
    ],
)
def test_min_feature_level(kw, level) -> None:
    d = desc(**kw)
    assert d.min_feature_level == level
    assert d.is_valid_at(level) and d.is_valid_at(FL.FL_6_4)
    assert not any(d.is_valid_at(lv) for lv in FL if lv < level)


def test_no_level_but_executes() -> None:
    for d, msg in [
        (desc(dtype="float64"), r"^MaxUnpoolingDesc\.input\.dtype: FLOAT64 is accepted at no DirectML feature level"),
        (desc(idx="int64"), r"^MaxUnpoolingDesc\.indices\.dtype: INT64 is accepted at no DirectML feature level"),
        (desc(idx="int32"), r"^MaxUnpoolingDesc\.indices\.dtype: INT32 is accepted at no"),
        (desc(sizes=(2, 2, 2), out=(2, 4, 4)), r"^MaxUnpoolingDesc\.input\.sizes: 3 dimensions"),
    ]:
        d.validate()
        assert not any(d.is_valid_at(lv) for lv in FL)
        with pytest.raises(sd.ValidationError, match=msg):
            d.min_feature_level
    x = np.array([1.5, 2.5], np.float64).reshape(1, 1, 1, 2)
    d = sd.MaxUnpoolingDesc(
        sd.TensorDesc("float64", [1, 1, 1, 2]),
        sd.TensorDesc("int32", [1, 1, 1, 2]),
        sd.TensorDesc("float64", [1, 1, 2, 2]),
    )
    out = np.full((1, 1, 2, 2), 9.0)
    sd.compile(d).execute([x, np.array([3, -4], np.int32)], [out])
    assert out.ravel().tolist() == [2.5, 0, 0, 1.5]


def test_level_messages_and_rules() -> None:
    with pytest.raises(sd.ValidationError, match=r"^MaxUnpoolingDesc\.input\.dtype: INT8 needs feature level 5_0"):
        desc(dtype="int8").validate(FL.FL_4_1)
    with pytest.raises(sd.ValidationError, match=r"^MaxUnpoolingDesc\.indices\.dtype: UINT64 needs feature level 5_0"):
        desc(idx="uint64").validate(FL.FL_4_1)
    with pytest.raises(sd.ValidationError, match=r"^MaxUnpoolingDesc: .*feature level 2_0"):
        desc().validate(FL.FL_1_0)
    for d, msg in [
        (desc(idx="float32"), r"^MaxUnpoolingDesc\.indices\.dtype: indices must be INT32, INT64, UINT32 or UINT64"),
        (desc(idx_sizes=(1, 2, 2, 1)), r"^MaxUnpoolingDesc\.indices\.sizes\[3\]"),
        (desc(out_dtype="float16"), r"^MaxUnpoolingDesc\.output\.dtype"),
    ]:
        with pytest.raises(sd.ValidationError, match=msg):
            d.validate()
    strided_out = sd.MaxUnpoolingDesc(
        sd.TensorDesc("float32", [1, 1, 1, 2]),
        sd.TensorDesc("uint32", [1, 1, 1, 2]),
        sd.TensorDesc("float32", [1, 1, 2, 2], [8, 8, 1, 2]),
    )  # column-major
    out = np.full(4, 7, np.float32)
    sd.compile(strided_out).execute([np.array([5, 6], np.float32), np.array([1, 2], np.uint32)], [out])
    assert out.tolist() == [0, 6, 5, 0]  # row-major positions 1 (0, 1) and 2 (1, 0), column-major memory


def test_output_stride_near_2_62_compiles() -> None:
    # Regression (fuzz): merging the output's dimensions multiplied a size by a valid stride near
    # 2^62 (signed overflow: UBSan reports it at compile time; builds without it wrapped).
    s = 3461016863464560640
    out = sd.TensorDesc("uint8", [2, 3], [1, s])
    d = sd.MaxUnpoolingDesc(sd.TensorDesc("uint8", [2, 3]), sd.TensorDesc("uint32", [2, 3]), out)
    d.validate()
    assert sd.compile(d).output_bytes == [out.total_bytes] and out.total_bytes > 2 * s
