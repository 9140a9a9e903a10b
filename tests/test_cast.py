"""Cast (SPEC 3.5): every pair of the eleven types against an independent numpy reference of the
rules, the SPEC's test vectors bit for bit, every compiled SIMD target, strides, out=, the
description's feature levels, and misuse."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import strided as sd
from conftest import ALL_DTYPES, same_bits

FLOATS = {np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)}


def edge_values(dt: np.dtype, rng: np.random.Generator, n: int = 301) -> np.ndarray:
    """Random values of `dt` with every type's limits, and for floats the values around the
    integer types' limits, halfway cases, inf, NaN, -0 and subnormals."""
    if dt in FLOATS:
        special = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.5,
            2.5,
            -2.5,
            2.7,
            -2.7,
            np.inf,
            -np.inf,
            np.nan,
            -np.nan,
            127.5,
            128.0,
            -128.5,
            -129.0,
            255.9,
            256.0,
            32767.9,
            32768.0,
            -32769.0,
            65504.0,
            65519.0,
            65520.0,
            2.0**31 - 128,
            2.0**31,
            -(2.0**31),
            -(2.0**31) - 256,
            2.0**32,
            2.0**63,
            -(2.0**63),
            2.0**64,
            1e30,
            -1e30,
            5.96e-8,
            2.0**-25,
            3 * 2.0**-26,
            1e-40,
            -1e-45,
            1 + 2.0**-11,
        ]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = np.array(special, dtype=np.float64).astype(dt)
            r = (rng.standard_normal(n) * rng.choice([1, 100, 1e4, 1e9, 1e20], n)).astype(dt)
        return np.concatenate([v, r])
    info = np.iinfo(dt)
    special = np.array([info.min, info.max, 0, 1, info.max - 1, info.min + 1], dtype=dt)
    r = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    return np.concatenate([special, r])


def reference(x: np.ndarray, to: np.dtype) -> np.ndarray:
    """SPEC 3.5 in numpy: float->float and int->float through numpy's own (IEEE, round to nearest
    even) conversions, float->int truncated and saturated here, int->int through numpy's
    wrapping astype."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if x.dtype == to:
            return x.copy()
        if to in FLOATS:
            return x.astype(to)
        if x.dtype in FLOATS:
            info = np.iinfo(to)
            f = x.astype(np.float64)
            t = np.trunc(np.nan_to_num(f, nan=0.0, posinf=np.inf, neginf=-np.inf))
            out = np.empty(x.shape, dtype=to)
            lo, hi = float(info.min), float(info.max) + 1.0  # both exact powers of two (or 0)
            small, big = t <= lo, t >= hi
            mid = ~(small | big)
            out[small] = info.min
            out[big] = info.max
            out[mid] = t[mid].astype(to)
            out[np.isnan(f)] = 0
            return out
        return x.astype(to)


def same_values(got: np.ndarray, want: np.ndarray) -> bool:
    """Equal bits, except that NaNs only need the same sign (payload rules are tested apart)."""
    if got.dtype in FLOATS:
        nan = np.isnan(want)
        if not np.array_equal(np.isnan(got), nan):
            return False
        if not np.array_equal(np.signbit(got[nan]), np.signbit(want[nan])):
            return False
        return same_bits(got[~nan], want[~nan])
    return same_bits(got, want)


@pytest.mark.parametrize("src", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("dst", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
def test_every_pair_matches_the_rules(src, dst, simd) -> None:
    rng = np.random.default_rng(1234)
    x = edge_values(np.dtype(src), rng)
    got = sd.cast(x, dst)
    assert got.dtype == np.dtype(dst) and got.shape == x.shape
    want = reference(x, np.dtype(dst))
    bad = [(a, b, c) for a, b, c in zip(x, got, want) if not same_values(np.array([b]), np.array([c]))]
    assert same_values(got, want), bad[:5]


@pytest.mark.parametrize("src", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("dst", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
def test_every_pair_streamed(src, dst, simd) -> None:
    """Outputs over the stream threshold (lowered to 0 here) convert through an L1 block and
    streaming stores: runs of several blocks plus a head and a tail, at aligned and unaligned
    output offsets; the bytes around the output stay untouched."""
    rng = np.random.default_rng(99)
    x = np.tile(edge_values(np.dtype(src), rng), 17)[:5000]
    want = reference(x, np.dtype(dst))
    isz = np.dtype(dst).itemsize
    old = sd._core._stream_threshold()
    sd._core._set_stream_threshold(0)
    try:
        for offset in (0, isz, 3 * isz, 1):
            buf = np.full(want.nbytes + 128, 0xEE, np.uint8)
            out = buf[64 + offset : 64 + offset + want.nbytes].view(dst)
            sd.cast(x, dst, out=out)
            assert same_values(out, want), offset
            assert (buf[: 64 + offset] == 0xEE).all() and (buf[64 + offset + want.nbytes :] == 0xEE).all()
    finally:
        sd._core._set_stream_threshold(old)


@pytest.mark.parametrize(
    "case",
    [
        (np.float32, [-2.7, -2.5, -0.5, 0.5, 2.5, 2.7], np.int32, [-2, -2, 0, 0, 2, 2]),
        (
            np.float32,
            [np.nan, np.inf, -np.inf, 3e9, -3e9],
            np.int32,
            [0, 2147483647, -2147483648, 2147483647, -2147483648],
        ),
        (np.float32, [-1.0, 300.7], np.uint8, [0, 255]),
        (
            np.float32,
            [65504, 65519, 65520, 1 + 2**-11, 1 + 3 * 2**-11, 2**-25, 3 * 2**-26],
            np.float16,
            [65504, 65504, np.inf, 1.0, 1.001953125, 0.0, 2**-24],
        ),
        (np.float64, [1 + 2**-11 + 2**-40], np.float16, [1.0009765625]),
        (np.int32, [16777217, 16777219], np.float32, [16777216, 16777220]),
        (np.int64, [2**62 + 2**38 + 1], np.float32, [2.0**62 + 2**39]),
        (np.int32, [65519, 65520], np.float16, [65504, np.inf]),
        (np.int16, [200, -1, 300], np.int8, [-56, -1, 44]),
        (np.int32, [-1], np.uint8, [255]),
        (np.uint32, [4294967295], np.int32, [-1]),
        (np.int64, [2**40 + 5], np.int32, [5]),
    ],
    ids=lambda c: f"{np.dtype(c[0]).name}->{np.dtype(c[2]).name}",
)
def test_spec_vectors(case, simd) -> None:
    src, values, dst, want = case
    for n in (1, 19):  # a short tail and runs long enough for the vector paths
        x = np.array(values * n, dtype=src)
        got = sd.cast(x, dst)
        assert np.array_equal(got.astype(np.float64), np.array(want * n, dtype=np.float64)), got


@pytest.mark.parametrize("n", [1, 37])
def test_nan_bits(n: int, simd) -> None:
    x = np.array([0x7F800001, 0xFF800001, 0x7FC00000, 0x7FBFFFFF] * n, np.uint32).view(np.float32)
    got = sd.cast(x, np.float16).view(np.uint16)
    assert [hex(v) for v in got[:4]] == ["0x7e00", "0xfe00", "0x7e00", "0x7fff"]
    h = np.array([0x7C01, 0xFC01, 0x7E00, 0x7DFF] * n, np.uint16).view(np.float16)
    got32 = sd.cast(h, np.float32).view(np.uint32)
    assert [hex(v) for v in got32[:4]] == ["0x7fc02000", "0xffc02000", "0x7fc00000", "0x7fffe000"]
    got64 = sd.cast(h, np.float64).view(np.uint64)
    assert [hex(v) for v in got64[:4]] == [
        "0x7ff8040000000000",
        "0xfff8040000000000",
        "0x7ff8000000000000",
        "0x7ffffc0000000000",
    ]


def test_strides_out_and_empty(threads) -> None:
    rng = np.random.default_rng(7)
    base = rng.standard_normal((40, 64)).astype(np.float32) * 1000
    x = base[::-3, 5::2]  # negative and padded strides
    out = np.zeros((x.shape[0], x.shape[1] * 2), np.int16)[:, ::2]
    r = sd.cast(x, np.int16, out=out)
    assert r is out and same_bits(out, reference(x, np.dtype(np.int16)))
    row = rng.standard_normal(8).astype(np.float32)
    b = np.broadcast_to(row, (5, 8))  # stride 0
    assert same_bits(sd.cast(b, np.float16), b.astype(np.float16))
    big = rng.standard_normal((512, 1024)).astype(np.float32)  # large enough for several threads
    assert same_bits(sd.cast(big, np.float16), big.astype(np.float16))
    assert same_bits(sd.cast(big.T, np.float64), big.T.astype(np.float64))
    assert sd.cast(np.zeros((0, 3), np.float32), np.int8).shape == (0, 3)
    z = sd.cast(np.float64(2.5), np.int32)
    assert z.shape == () and z == 2
    assert same_bits(sd.cast([1, 2, 3], "float16"), np.array([1, 2, 3], np.float16))


def test_misuse_writes_nothing() -> None:
    x = np.arange(6, dtype=np.float32)
    with pytest.raises(sd.ValidationError, match="dtype"):
        sd.cast(x, np.bool_)
    with pytest.raises((sd.ValidationError, TypeError)):
        sd.cast(x, np.complex64)
    out = np.full(6, 7, np.int32)
    with pytest.raises(sd.ValidationError, match="expected dtype int32, got int64"):
        sd.cast(x, np.int32, out=np.zeros(6, np.int64))
    with pytest.raises(sd.ValidationError, match=r"expected shape \(6,\)"):
        sd.cast(x, np.int32, out=np.zeros(5, np.int32))
    ro = np.zeros(6, np.int32)
    ro.flags.writeable = False
    with pytest.raises(BufferError):
        sd.cast(x, np.int32, out=ro)
    with pytest.raises(TypeError):
        sd.cast(np.array([None]), np.int32)
    with pytest.raises(TypeError, match=r"missing required argument 'dtype'"):
        sd.cast(x)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'dtyp'"):
        sd.cast(x, dtyp=np.int32)  # type: ignore[call-arg]
    assert (out == 7).all()


def test_out_with_strides_and_keywords() -> None:
    x = np.arange(6, dtype=np.float32) - 2.5
    wide = np.full((6, 2), 99, np.int16)
    res = sd.cast(x=x, dtype="int16", out=wide[::-1, 1])
    assert res.base is not None and (wide[::-1, 1] == x.astype(np.int16)).all() and (wide[:, 0] == 99).all()


def test_description_levels_and_execute() -> None:
    def desc(src, dst, sizes):
        return sd.CastDesc(sd.TensorDesc(src, sizes), sd.TensorDesc(dst, sizes))

    assert desc("float32", "float16", [1, 2, 3, 4]).min_feature_level == sd.FeatureLevel.FL_1_0
    assert desc("float32", "int32", [1, 2, 3, 4]).min_feature_level == sd.FeatureLevel.FL_3_0
    assert desc("float32", "int64", [1, 2, 3, 4]).min_feature_level == sd.FeatureLevel.FL_3_0
    assert desc("float32", "float64", [1, 2, 3, 4]).min_feature_level == sd.FeatureLevel.FL_4_1
    assert desc("float32", "float16", [2, 3]).min_feature_level == sd.FeatureLevel.FL_3_1
    assert not desc("int8", "uint8", [2, 3]).is_valid_at(sd.FeatureLevel.FL_3_0)
    with pytest.raises(sd.ValidationError, match=r"^CastDesc\.output\.sizes\[1\]: must equal input\.sizes\[1\]"):
        sd.CastDesc(sd.TensorDesc("float32", [2, 3]), sd.TensorDesc("int32", [2, 4])).validate()
    with pytest.raises(sd.ValidationError, match=r"^CastDesc\.output\.strides\[0\]: an output must not broadcast"):
        sd.CastDesc(sd.TensorDesc("float32", [2, 3]), sd.TensorDesc("int32", [2, 3], strides=[0, 1])).validate()
    d = desc("float64", "uint8", [2, 3])
    x = np.array([[-1, 0.5, 255.5], [256, np.nan, 3.9]])
    buf = np.zeros(8, np.uint8)  # total_bytes rounds up to a multiple of 4 (DMLCalcBufferTensorSize)
    sd.compile(d).execute([x], [buf])
    assert buf[:6].reshape(2, 3).tolist() == [[0, 0, 255], [255, 0, 3]]
    assert repr(d).startswith("CastDesc(input=TensorDesc(FLOAT64")
