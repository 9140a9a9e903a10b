"""Tile (SPEC 3.7): numpy.tile as the independent reference for every dtype, every compiled SIMD
target and thread count, strides in and out, out=, empty and 0-d arrays, SPEC's example, the
description's rules and feature levels (SPEC 4), compile/execute on buffers, and misuse."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import strided as sd
from conftest import ALL_DTYPES, random_array, same_bits

FL = sd.FeatureLevel


def test_spec_example() -> None:
    x = np.array([[[[1, 2, 3], [4, 5, 6]]]], np.float32)  # {1,1,2,3}
    got = sd.tile(x, (1, 1, 3, 3))
    assert got.shape == (1, 1, 6, 9)
    rows = [[1, 2, 3] * 3, [4, 5, 6] * 3] * 3
    assert got[0, 0].tolist() == rows
    d = sd.TileDesc(sd.TensorDesc("float32", [1, 1, 2, 3]), sd.TensorDesc("float32", [1, 1, 6, 9]), [1, 1, 3, 3])
    d.validate()
    out = np.zeros((1, 1, 6, 9), np.float32)
    sd.compile(d).execute([x], [out])
    assert out[0, 0].tolist() == rows


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize(
    "shape,reps",
    [
        ((7,), (3,)),
        ((1,), (33,)),
        ((3, 5), (2, 1)),
        ((3, 5), (1, 4)),
        ((1, 1, 2, 3), (1, 1, 3, 3)),
        ((2, 1, 3), (2, 5, 2)),
        ((37, 65), (3, 2)),
        ((2, 2, 2, 2, 2, 2, 2, 2), (1, 2, 1, 2, 1, 2, 1, 2)),
    ],
)
def test_every_dtype_matches_numpy(dtype, shape, reps, simd) -> None:
    x = random_array(np.random.default_rng(5), shape, dtype)  # random bits: NaN payloads, -0.0
    got = sd.tile(x, reps)
    assert got.flags.c_contiguous and same_bits(got, np.tile(x, reps))


def test_large_any_thread_count(threads) -> None:
    x = random_array(np.random.default_rng(9), (300, 513), np.float32)
    for reps in [(2, 2), (1, 3), (4, 1)]:
        assert same_bits(sd.tile(x, reps), np.tile(x, reps))
        assert same_bits(sd.tile(x.T, reps), np.tile(x.T, reps))
        assert same_bits(sd.tile(x[::-2, 7::3], reps), np.tile(x[::-2, 7::3], reps))


def test_fresh_results_from_the_result_pool() -> None:
    x = random_array(np.random.default_rng(2), (1024, 1024), np.uint32)  # 4 MiB, results of 8 MiB
    for _ in range(3):  # the second and later results reuse the first one's freed block
        got = sd.tile(x, (2, 1))
        assert got.flags.c_contiguous and got.flags.owndata and got.flags.writeable
        assert same_bits(got, np.tile(x, (2, 1)))
        del got


def test_input_strides() -> None:
    rng = np.random.default_rng(3)
    base = random_array(rng, (20, 30), np.uint16)
    for x in [base[::-3, ::2], base[2:9, 25:3:-4], base.T[::3], np.broadcast_to(base[4], (3, 30))]:
        assert same_bits(sd.tile(x, (2, 3)), np.tile(x, (2, 3)))
    col = np.broadcast_to(base[:, :1], (20, 6))  # stride 0 along the last axis
    assert same_bits(sd.tile(col, (1, 2)), np.tile(col, (1, 2)))
    # Padded NHWC-like input read through a permutation.
    nhwc = random_array(rng, (2, 4, 5, 3), np.int8)
    x = nhwc.transpose(0, 3, 1, 2)
    assert same_bits(sd.tile(x, (1, 2, 1, 3)), np.tile(x, (1, 2, 1, 3)))


def test_out_any_strides() -> None:
    rng = np.random.default_rng(4)
    x = random_array(rng, (5, 6), np.int64)
    want = np.tile(x, (3, 2))
    views = [
        ((20, 16), lambda b: b[:15, 2:14]),  # padded rows
        ((15, 12), lambda b: b[::-1, ::-1]),  # negative strides
        ((12, 15), lambda b: b.T),  # column-major
        ((30, 24), lambda b: b[::2, ::2]),  # every other element
    ]
    for shape, view in views:
        base = np.full(shape, -1, np.int64)
        expect = base.copy()
        view(expect)[...] = want
        out = view(base)
        r = sd.tile(x, (3, 2), out=out)
        assert r is out and same_bits(base, expect)  # out's elements written, nothing else


def test_out_with_stride_zero_keeps_the_last_coordinate() -> None:
    # SPEC 3.0 rule 3: an output's stride-0 dimension ends with its last coordinate's values.
    x = np.array([[1, 2], [3, 4]], np.int32)
    buf = np.zeros(4, np.int32)
    out = np.lib.stride_tricks.as_strided(buf, (4, 4), (0, 4))
    sd.tile(x, (2, 2), out=out)
    assert buf.tolist() == [3, 4, 3, 4]


def test_empty_and_zero_d() -> None:
    for shape, reps in [((0, 3), (2, 2)), ((4, 0), (1, 3)), ((0,), (5,)), ((2, 0, 3), (1, 1, 1))]:
        x = np.zeros(shape, np.float16)
        got = sd.tile(x, reps)
        assert got.shape == np.tile(x, reps).shape and got.dtype == np.float16
        out = np.zeros(got.shape, np.float16)
        assert sd.tile(x, reps, out=out) is out
    # 0-d: no repeats, a 0-d copy, as numpy.tile(x, ()), torch.tile(x, ()) and x.repeat(()) give.
    z = np.float64(-2.5)
    got = sd.tile(z, ())
    assert got.shape == () and got == -2.5 and same_bits(got, np.tile(z, ()))
    out = np.zeros((), np.float64)
    assert sd.tile(np.array(7.0), [], out=out) is out and out == 7.0
    with pytest.raises(
        sd.ValidationError, match=r"^tile\.repeats: must have one value per dimension of x \(0\), got 1"
    ):
        sd.tile(z, (2,))


def test_repeats_forms() -> None:
    x = np.arange(4, dtype=np.uint8)
    want = np.tile(x, 3)
    assert same_bits(sd.tile(x, 3), want)  # a plain int for a 1-d x
    assert same_bits(sd.tile(x, np.int64(3)), want)
    assert same_bits(sd.tile(x, [np.uint8(3)]), want)
    assert same_bits(sd.tile(x, np.array([3])), want)
    assert same_bits(sd.tile([[1, 2]], (2, 1)), np.tile(np.array([[1, 2]]), (2, 1)))


def test_overlapping_and_in_place() -> None:
    buf = np.arange(12, dtype=np.float32)
    x = buf[:6]
    want = np.tile(x.copy(), 2)
    sd.tile(x, (2,), out=buf)  # out overlaps x: as if x were read first
    assert same_bits(buf, want)
    y = np.arange(6, dtype=np.int16).reshape(2, 3)
    assert sd.tile(y, (1, 1), out=y) is y and y.tolist() == [[0, 1, 2], [3, 4, 5]]


def test_misuse_writes_nothing() -> None:
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = np.full((2, 6), 7, np.float32)
    with pytest.raises(sd.ValidationError, match=r"^tile\.repeats\[1\]: repeat must be at least 1, got 0$"):
        sd.tile(x, (1, 0), out=out)
    with pytest.raises(sd.ValidationError, match=r"^tile\.repeats\[0\]: repeat must be at least 1, got -2$"):
        sd.tile(x, (-2, 2), out=out)
    with pytest.raises(
        sd.ValidationError, match=r"^tile\.repeats: must have one value per dimension of x \(2\), got 1$"
    ):
        sd.tile(x, (2,), out=out)
    with pytest.raises(
        sd.ValidationError, match=r"^tile\.repeats: must have one value per dimension of x \(2\), got 3$"
    ):
        sd.tile(x, (1, 2, 1), out=out)
    with pytest.raises(sd.ValidationError, match=r"expected shape \(2, 6\), got \(2, 5\)"):
        sd.tile(x, (1, 2), out=np.zeros((2, 5), np.float32))
    with pytest.raises(sd.ValidationError, match="expected dtype float32, got float64"):
        sd.tile(x, (1, 2), out=np.zeros((2, 6), np.float64))
    ro = np.zeros((2, 6), np.float32)
    ro.flags.writeable = False
    with pytest.raises(BufferError, match="read-only"):
        sd.tile(x, (1, 2), out=ro)
    with pytest.raises(TypeError, match="out: expected a numpy array"):
        sd.tile(x, (1, 2), out=[[0] * 6] * 2)
    with pytest.raises(TypeError, match=r"tile\.repeats\[1\]: expected an integer"):
        sd.tile(x, (1, 2.0), out=out)
    with pytest.raises(TypeError, match=r"tile\.repeats\[0\]: expected an integer"):
        sd.tile(x, (True, 2), out=out)
    with pytest.raises(TypeError, match=r"tile\.repeats: expected an integer"):
        sd.tile(x, "12", out=out)
    with pytest.raises(sd.ValidationError, match="does not fit in 64 bits"):
        sd.tile(x, (1, 2**64), out=out)
    with pytest.raises(sd.ValidationError, match="does not fit in 64 bits"):
        sd.tile(x, (1, 2**62))
    with pytest.raises(TypeError, match="object arrays"):
        sd.tile(np.array([None, 1]), (2,))
    assert (out == 7).all()


@given(
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=5),
    data=st.data(),
)
def test_random_views_match_numpy(shape, data) -> None:
    n = len(shape)
    reps = data.draw(st.lists(st.integers(1, 3), min_size=n, max_size=n))
    steps = data.draw(st.lists(st.sampled_from([1, 2, -1, -2]), min_size=n, max_size=n))
    dtype = data.draw(st.sampled_from(ALL_DTYPES))
    base = random_array(np.random.default_rng(len(shape)), tuple(s * 2 for s in shape), dtype)
    x = base[tuple(slice(None, None, k) for k in steps)][tuple(slice(0, s) for s in shape)]
    want = np.tile(x, reps)
    assert same_bits(sd.tile(x, reps), want)
    out = np.zeros(tuple(2 * s for s in want.shape), dtype)[tuple(slice(None, None, -2) for _ in want.shape)]
    assert same_bits(sd.tile(x, reps, out=out), want)


# ------------------------------------------------------------------ the description


def desc(dtype, sizes, reps, out_sizes=None, out_dtype=None, **kw) -> sd.TileDesc:
    out_sizes = out_sizes or [s * r for s, r in zip(sizes, reps)]
    return sd.TileDesc(sd.TensorDesc(dtype, sizes), sd.TensorDesc(out_dtype or dtype, out_sizes, **kw), reps)


@pytest.mark.parametrize(
    "dtype,sizes,level",
    [
        ("float32", [1, 2, 3, 4], FL.FL_1_0),
        ("float16", [2, 2, 2, 2], FL.FL_1_0),
        ("int8", [1, 2, 3, 4], FL.FL_2_1),
        ("uint32", [1, 1, 1, 4], FL.FL_2_1),
        ("float32", [2, 3], FL.FL_3_1),  # 1-8 dimensions from 3_1
        ("int16", [2, 3, 4, 5, 6], FL.FL_3_1),
        ("uint8", [1, 1, 1, 1, 1, 1, 1, 2], FL.FL_3_1),
        ("int64", [1, 2, 3, 4], FL.FL_4_1),  # 64-bit integers: 10 types from 4_1 (4_0 has 8)
        ("uint64", [5], FL.FL_4_1),
    ],
)
def test_min_feature_level(dtype, sizes, level) -> None:
    d = desc(dtype, sizes, [2] * len(sizes))
    assert d.min_feature_level == level
    assert d.is_valid_at(level) and d.is_valid_at(FL.FL_6_4)
    lower = [lv for lv in FL if lv < level]
    assert not any(d.is_valid_at(lv) for lv in lower)


def test_level_messages() -> None:
    with pytest.raises(sd.ValidationError, match=r"^TileDesc\.input\.dtype: INT8 needs feature level 2_1"):
        desc("int8", [1, 2, 3, 4], [1, 1, 1, 1]).validate("1_0")
    with pytest.raises(sd.ValidationError, match=r"^TileDesc\.input\.sizes: 3 dimensions need feature level 3_1"):
        desc("float32", [2, 3, 4], [1, 1, 1]).validate("3_0")
    with pytest.raises(sd.ValidationError, match=r"^TileDesc\.input\.dtype: INT64 needs feature level 4_1"):
        desc("int64", [2, 3], [1, 1]).validate("4_0")
    # FLOAT64: in no table row; it still executes.
    d = desc("float64", [1, 2, 3, 4], [1, 1, 2, 1])
    d.validate()
    assert not any(d.is_valid_at(lv) for lv in FL)
    with pytest.raises(
        sd.ValidationError, match=r"^TileDesc\.input\.dtype: FLOAT64 is accepted at no DirectML feature level"
    ):
        d.min_feature_level
    x = np.arange(24, dtype=np.float64).reshape(1, 2, 3, 4)
    out = np.zeros((1, 2, 6, 4))
    sd.compile(d).execute([x], [out])
    assert same_bits(out, np.tile(x, (1, 1, 2, 1)))
    # DirectML's limit of 2^32-1 elements per tensor.
    big = desc("uint8", [1, 1, 1, 2**16], [1, 1, 2**16 + 1, 1])
    big.validate()
    with pytest.raises(sd.ValidationError, match=r"^TileDesc\.output\.sizes: 4295032832 elements exceed"):
        big.min_feature_level


def test_description_rules() -> None:
    f = "float32"
    with pytest.raises(sd.ValidationError, match=r"^TileDesc\.repeats\[1\]: repeat must be at least 1, got 0$"):
        desc(f, [2, 3], [1, 0], out_sizes=[2, 3]).validate()
    with pytest.raises(sd.ValidationError, match=r"^TileDesc\.repeats\[0\]: repeat must be at least 1, got -1$"):
        desc(f, [2, 3], [-1, 1], out_sizes=[2, 3]).validate()
    with pytest.raises(
        sd.ValidationError, match=r"^TileDesc\.repeats: must have one value per dimension \(2\), got 3$"
    ):
        sd.TileDesc(sd.TensorDesc(f, [2, 3]), sd.TensorDesc(f, [2, 3]), [1, 1, 1]).validate()
    with pytest.raises(
        sd.ValidationError,
        match=r"^TileDesc\.output\.sizes\[1\]: must equal input\.sizes\[1\] \* repeats\[1\] = 3 \* 3 = 9, got 8$",
    ):
        desc(f, [2, 3], [1, 3], out_sizes=[2, 8]).validate()
    with pytest.raises(sd.ValidationError, match=r"= 3 \* 9223372036854775807 = \(over 64 bits\), got 8$"):
        desc(f, [2, 3], [1, 2**63 - 1], out_sizes=[2, 8]).validate()
    with pytest.raises(sd.ValidationError, match=r"^TileDesc\.output\.sizes: must have the same dimension count"):
        sd.TileDesc(sd.TensorDesc(f, [2, 3]), sd.TensorDesc(f, [1, 2, 6]), [1, 2]).validate()
    with pytest.raises(
        sd.ValidationError, match=r"^TileDesc\.output\.dtype: must equal input\.dtype \(FLOAT32\), got INT32"
    ):
        desc(f, [2, 3], [1, 2], out_dtype="int32").validate()
    with pytest.raises(sd.ValidationError, match=r"^TileDesc\.output\.strides\[0\]: an output must not broadcast"):
        desc(f, [2, 3], [1, 2], strides=[0, 1]).validate()
    # A repeat beyond DirectML's UINT makes an output over DirectML's element limit (reported first).
    with pytest.raises(sd.ValidationError, match=r"^TileDesc\.output\.sizes: 4294967296 elements exceed"):
        desc("uint8", [1], [2**32], out_sizes=[2**32]).validate("4_1")
    d = desc("int16", [2, 3], [2, 1])
    assert d.repeats == (2, 1) and d.input.sizes == (2, 3) and d.output.sizes == (4, 3)
    assert repr(d).startswith("TileDesc(input=TensorDesc(INT16") and "repeats=(2, 1)" in repr(d)
    assert d == desc("int16", [2, 3], [2, 1]) and d != desc("int16", [2, 3], [1, 2])
    assert sd.TileDesc.__doc__.startswith("DML_TILE_OPERATOR_DESC")


def test_compile_execute_buffers() -> None:
    # uint8 {2,3} repeated {2,2}: 6 input bytes -> total_bytes 8 (rounded up to a multiple of 4).
    d = desc("uint8", [2, 3], [2, 2])
    c = sd.compile(d)
    assert c.input_bytes == [8] and c.output_bytes == [24]
    out = bytearray(24)
    c.execute([bytes([1, 2, 3, 4, 5, 6, 0, 0])], [out])
    assert np.frombuffer(out, np.uint8).reshape(4, 6).tolist() == [[1, 2, 3, 1, 2, 3], [4, 5, 6, 4, 5, 6]] * 2
    with pytest.raises(BufferError):
        c.execute([bytes(6)], [bytearray(24)])  # shorter than total_bytes
    with pytest.raises(BufferError):
        c.execute([bytes(8)], [bytes(24)])  # read-only output
    # Padded input rows (stride 4) into a column-major output with padding.
    x = np.arange(1, 9, dtype=np.float16)  # rows [1,2,3], [5,6,7]; 4 and 8 are padding
    ti = sd.TensorDesc("float16", [2, 3], [4, 1])
    to = sd.TensorDesc("float16", [4, 3], [1, 5])  # column-major, column pitch 5
    d = sd.TileDesc(ti, to, [2, 1])
    assert ti.total_bytes == 16 and to.total_bytes == 28
    buf = np.full(14, -1, np.float16)
    sd.compile(d).execute([x], [buf])
    got = np.lib.stride_tricks.as_strided(buf, (4, 3), (2, 10))
    assert got.tolist() == [[1, 2, 3], [5, 6, 7], [1, 2, 3], [5, 6, 7]]
    assert (buf[[4, 9]] == -1).all()  # the output's padding is not written
