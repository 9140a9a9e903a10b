"""NonzeroCoordinates (SPEC 3.14.1) and sd.argwhere: numpy.argwhere (and torch.nonzero, ONNX's
NonZero node case) as independent references for every dtype, thread count and input strides,
SPEC's examples, empty and 0-d arrays, misuse, the description's rules and feature levels
(SPEC 4), and compile/execute on buffers."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import strided as sd
from conftest import ALL_DTYPES, random_array

FL = sd.FeatureLevel
U32 = "uint32"


def sparse(rng: np.random.Generator, shape, dtype, density=0.5) -> np.ndarray:
    """Random bits (NaN payloads, -0.0, +0.0 among them for floats) with about 1 - density zeros."""
    x = random_array(rng, shape, dtype).copy()
    x[rng.random(shape) >= density] = 0
    return x


def desc(in_dtype, in_sizes, coord_sizes, count_sizes=(1,), count_dtype=U32, coord_dtype=U32, coord_strides=None):
    return sd.NonzeroCoordinatesDesc(
        sd.TensorDesc(in_dtype, list(in_sizes)),
        sd.TensorDesc(count_dtype, list(count_sizes)),
        sd.TensorDesc(coord_dtype, list(coord_sizes), coord_strides),
    )


def test_spec_examples() -> None:
    x = np.array([[[[1, 0, 0, 2], [-0.0, 3.5, 0, -5.2]]]], np.float32)
    count = np.zeros((1, 1, 1, 1), np.uint32)
    coords = np.full((1, 1, 8, 3), 7, np.uint32)  # rows past the count are written as zeros
    sd.compile(desc("float32", [1, 1, 2, 4], [1, 1, 8, 3], [1, 1, 1, 1])).execute([x], [count, coords])
    assert int(count[0, 0, 0, 0]) == 4
    assert coords[0, 0].tolist() == [[0, 0, 0], [0, 0, 3], [0, 1, 1], [0, 1, 3]] + [[0, 0, 0]] * 4
    y = np.array([0, np.nan, -0.0, 2], np.float32)
    count = np.zeros(1, np.uint32)
    coords = np.full((4, 1), 9, np.uint32)
    sd.compile(desc("float32", [4], [4, 1])).execute([y], [count, coords])
    assert int(count[0]) == 2 and coords[:, 0].tolist() == [1, 3, 0, 0]
    assert sd.argwhere(x).tolist() == [[0, 0, 0, 0], [0, 0, 0, 3], [0, 0, 1, 1], [0, 0, 1, 3]]
    assert sd.argwhere(y).tolist() == [[1], [3]]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("shape", [(1,), (7,), (64,), (65,), (3, 5), (2, 1, 3, 1, 70), (2,) * 8])
def test_every_dtype_matches_numpy(dtype, shape) -> None:
    x = sparse(np.random.default_rng(7), shape, dtype)
    got = sd.argwhere(x)
    assert got.dtype == np.int64 and got.flags.c_contiguous
    np.testing.assert_array_equal(got, np.argwhere(x))


def test_signed_zeros_and_nan_every_float() -> None:
    for dt, neg in [(np.float16, 0x8000), (np.float32, 0x80000000), (np.float64, 1 << 63)]:
        u = np.dtype(f"u{np.dtype(dt).itemsize}")
        bits = np.array([0, neg, neg | 1, 1, 0, neg], u)  # +0, -0, -tiny, +tiny, +0, -0
        x = bits.view(dt)
        assert sd.argwhere(x)[:, 0].tolist() == [2, 3]
        assert sd.argwhere(np.array([np.nan, 0, -np.nan, np.inf], dt))[:, 0].tolist() == [0, 2, 3]


@pytest.mark.parametrize("dtype", ["int32", "uint32", "uint64", "int16", "uint8"])
def test_result_dtypes(dtype) -> None:
    x = sparse(np.random.default_rng(3), (6, 40), np.int8)
    got = sd.argwhere(x, dtype=dtype)
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(got, np.argwhere(x))


def test_large_any_thread_count(threads) -> None:
    # Several parts of whole 64-element words: counts and prefixes across part boundaries.
    rng = np.random.default_rng(11)
    for density in (0.5, 0.001, 1.0):
        x = sparse(rng, (600, 517), np.float32, density)
        np.testing.assert_array_equal(sd.argwhere(x), np.argwhere(x))
        np.testing.assert_array_equal(sd.argwhere(x[::-1, ::3]), np.argwhere(x[::-1, ::3]))
    z = np.zeros((3, 200_000), np.uint8)
    z[2, -1] = z[0, 0] = 1
    assert sd.argwhere(z).tolist() == [[0, 0], [2, 199_999]]


def test_input_strides_and_bool() -> None:
    rng = np.random.default_rng(5)
    base = sparse(rng, (20, 30), np.int16)
    for x in [base[::-3, ::2], base[2:9, 25:3:-4], base.T, np.broadcast_to(base[4], (3, 30)), base[:, :1]]:
        np.testing.assert_array_equal(sd.argwhere(x), np.argwhere(x))
    nhwc = sparse(rng, (2, 4, 5, 3), np.float16)
    x = nhwc.transpose(0, 3, 1, 2)
    np.testing.assert_array_equal(sd.argwhere(x), np.argwhere(x))
    b = rng.random((9, 13)) > 0.4
    np.testing.assert_array_equal(sd.argwhere(b), np.argwhere(b))
    np.testing.assert_array_equal(sd.argwhere(b[:, ::-2]), np.argwhere(b[:, ::-2]))


def test_empty_and_zero_d() -> None:
    for x in [np.zeros((0,), np.float32), np.ones((3, 0, 2), np.int8), np.zeros((4, 5), np.uint16)]:
        got = sd.argwhere(x)
        assert got.shape == np.argwhere(x).shape and got.dtype == np.int64
    for v in [np.float32(2.5), np.float32(0), np.float64(np.nan), np.float16(-0.0), np.int64(-3)]:
        x = np.asarray(v)
        got = sd.argwhere(x)
        assert got.shape == np.argwhere(x).shape  # (1, 0) or (0, 0)


def test_torch_and_onnx_references() -> None:
    rng = np.random.default_rng(8)
    x = sparse(rng, (5, 6, 7), np.float32)
    m = importlib.import_module("onnx.backend.test.case.node.nonzero")
    cases = []
    m.expect = lambda node, inputs, outputs, name, **kw: cases.append((inputs, outputs))  # type: ignore[attr-defined]
    m.NonZero.export()
    for inputs, outputs in cases:
        np.testing.assert_array_equal(sd.argwhere(inputs[0]).T, outputs[0])  # ONNX: [ndim, count]
    torch = pytest.importorskip("torch")
    t = torch.from_numpy(x)
    np.testing.assert_array_equal(sd.argwhere(t), torch.nonzero(t).numpy())
    np.testing.assert_array_equal(sd.argwhere(t.transpose(0, 2)), torch.nonzero(t.transpose(0, 2)).numpy())


def test_misuse() -> None:
    x = np.ones((300, 2), np.float32)
    with pytest.raises(sd.ValidationError, match=r"^argwhere\.dtype: coordinates need an integer type"):
        sd.argwhere(x, dtype="float32")
    with pytest.raises(sd.ValidationError, match=r"^argwhere\.dtype: int8 cannot hold coordinate 299"):
        sd.argwhere(x, dtype="int8")
    assert sd.argwhere(x[:128], dtype="int8").dtype == np.int8  # 127 fits
    with pytest.raises(sd.ValidationError):
        sd.argwhere(x, dtype="complex64")
    with pytest.raises(sd.ValidationError):
        sd.argwhere(np.ones(3, np.complex64))
    with pytest.raises(TypeError):
        sd.argwhere(np.array([object()]))


def test_description_rules() -> None:
    f = "float32"
    desc(f, [2, 3], [6, 2]).validate()
    with pytest.raises(
        sd.ValidationError, match=r"^NonzeroCoordinatesDesc\.output_count\.dtype: must be UINT32, got INT32"
    ):
        desc(f, [2, 3], [6, 2], count_dtype="int32").validate()
    with pytest.raises(sd.ValidationError, match=r"^NonzeroCoordinatesDesc\.output_count\.sizes: every size must be 1"):
        desc(f, [2, 3], [6, 2], count_sizes=[1, 2]).validate()
    with pytest.raises(
        sd.ValidationError, match=r"^NonzeroCoordinatesDesc\.output_coordinates\.dtype: must be UINT32, got INT64"
    ):
        desc(f, [2, 3], [6, 2], coord_dtype="int64").validate()
    with pytest.raises(
        sd.ValidationError, match=r"^NonzeroCoordinatesDesc\.output_coordinates\.sizes: must have at least 2 dimensions"
    ):
        desc(f, [6], [6]).validate()
    with pytest.raises(
        sd.ValidationError, match=r"^NonzeroCoordinatesDesc\.output_coordinates\.sizes\[0\]: leading sizes must be 1"
    ):
        desc(f, [2, 3], [2, 6, 2]).validate()
    with pytest.raises(
        sd.ValidationError,
        match=r"^NonzeroCoordinatesDesc\.output_coordinates\.sizes\[0\]: must equal the input's element count 6, got 5",
    ):
        desc(f, [2, 3], [5, 2]).validate()
    with pytest.raises(
        sd.ValidationError, match=r"sizes\[1\]: N must be between .* = 2 and its dimension count 2, got 3"
    ):
        desc(f, [2, 3], [6, 3]).validate()
    # N at least the effective rank (leading size-1 dimensions not counted), at least 1.
    with pytest.raises(sd.ValidationError, match=r"sizes\[1\]: N must be between max\(1, .*\) = 2 and .* 4, got 1"):
        desc(f, [1, 1, 2, 3], [6, 1]).validate()
    desc(f, [1, 1, 2, 3], [6, 2]).validate()
    desc(f, [1, 1, 1, 1], [1, 1]).validate()
    with pytest.raises(
        sd.ValidationError, match=r"^NonzeroCoordinatesDesc\.output_coordinates\.strides\[0\]: an output"
    ):
        desc(f, [2, 3], [6, 2], coord_strides=[0, 1]).validate()
    d = desc("int8", [2, 3], [6, 2])
    assert d.input.sizes == (2, 3) and d.output_count.sizes == (1,) and d.output_coordinates.sizes == (6, 2)
    assert repr(d).startswith("NonzeroCoordinatesDesc(input=TensorDesc(INT8")
    assert d == desc("int8", [2, 3], [6, 2]) and d != desc("int8", [2, 3], [6, 1])
    # The UINT32 count must hold every element (strided executes other tensors beyond 2^32-1).
    with pytest.raises(sd.ValidationError, match=r"^NonzeroCoordinatesDesc\.input\.sizes: more than 2\^32-1 elements"):
        desc("uint8", [2**32], [2**32, 1]).validate()
    assert sd.NonzeroCoordinatesDesc.__doc__.startswith("DML_NONZERO_COORDINATES_OPERATOR_DESC")


@pytest.mark.parametrize(
    "in_dtype,in_sizes,count_sizes,coord_sizes,level",
    [
        ("float32", [1, 1, 2, 4], [1, 1, 1, 1], [1, 1, 8, 3], FL.FL_3_0),  # all three 4-d
        ("int8", [1, 2, 3, 4, 5], [1, 1, 1, 1], [1, 1, 1, 120, 5], FL.FL_3_0),
        ("float16", [2, 4], [1], [8, 2], FL.FL_4_0),  # 1-8 / 1-8 / 2-8 from 4_0
        ("uint16", [2, 4], [1, 1, 1, 1], [1, 1, 8, 2], FL.FL_4_0),
        ("uint32", [2, 2, 2, 2, 2, 2, 2, 2], [1], [256, 8], FL.FL_4_0),
    ],
)
def test_min_feature_level(in_dtype, in_sizes, count_sizes, coord_sizes, level) -> None:
    d = desc(in_dtype, in_sizes, coord_sizes, count_sizes)
    assert d.min_feature_level == level
    assert d.is_valid_at(level) and d.is_valid_at(FL.FL_6_4)
    assert not any(d.is_valid_at(lv) for lv in FL if lv < level)


def test_level_messages() -> None:
    with pytest.raises(sd.ValidationError, match=r"needs feature level 3_0"):
        desc("float32", [1, 1, 2, 4], [1, 1, 8, 3], [1, 1, 1, 1]).validate("2_1")
    with pytest.raises(
        sd.ValidationError, match=r"^NonzeroCoordinatesDesc\.input\.sizes: 2 dimensions need feature level"
    ):
        desc("float32", [2, 4], [1, 1, 8, 2], [1, 1, 1, 1]).validate("3_1")
    with pytest.raises(
        sd.ValidationError, match=r"^NonzeroCoordinatesDesc\.output_count\.sizes: 1 dimensions need feature level"
    ):
        desc("float32", [1, 1, 2, 4], [1, 1, 8, 2], [1]).validate("3_1")
    # A 64-bit input: in no table row (4_0 and later: "as 4_0", 8 types); it still executes.
    for dt in ["float64", "int64", "uint64"]:
        d = desc(dt, [1, 1, 2, 3], [1, 1, 6, 2], [1, 1, 1, 1])
        d.validate()
        assert not any(d.is_valid_at(lv) for lv in FL)
        with pytest.raises(
            sd.ValidationError, match=r"^NonzeroCoordinatesDesc\.input\.dtype: .* no DirectML feature level"
        ):
            d.min_feature_level
        x = np.array([[[[0, 5, 0], [7, 0, 1]]]], dt)
        count, coords = np.zeros(1, np.uint32), np.zeros((6, 2), np.uint32)
        sd.compile(d).execute([x], [count, coords])
        assert int(count[0]) == 3 and coords.tolist() == [[0, 1], [1, 0], [1, 2], [0, 0], [0, 0], [0, 0]]


def test_compile_execute_buffers() -> None:
    d = desc("uint8", [2, 3], [6, 2])
    c = sd.compile(d)
    assert c.input_bytes == [8] and c.output_bytes == [4, 48]
    count, coords = bytearray(4), bytearray(48)
    c.execute([bytes([0, 9, 0, 4, 0, 1, 0, 0])], [count, coords])
    assert np.frombuffer(count, np.uint32).tolist() == [3]
    assert np.frombuffer(coords, np.uint32).reshape(6, 2).tolist() == [[0, 1], [1, 0], [1, 2], [0, 0], [0, 0], [0, 0]]
    with pytest.raises(BufferError):
        c.execute([bytes(6)], [bytearray(4), bytearray(48)])  # shorter than total_bytes
    with pytest.raises(BufferError):
        c.execute([bytes(8)], [bytearray(4), bytes(48)])  # read-only output
    # A strided input and column-major, padded coordinates: the padding is not written.
    rng = np.random.default_rng(4)
    x = sparse(rng, (4, 7), np.int32)
    ti = sd.TensorDesc("int32", [4, 3], [7, 2])  # x[:, ::2][:, :3] through strides
    to = sd.TensorDesc(U32, [12, 2], [1, 13])  # column-major, column pitch 13
    d = sd.NonzeroCoordinatesDesc(ti, sd.TensorDesc(U32, [1]), to)
    buf = np.full(26, 99, np.uint32)
    count = np.zeros(1, np.uint32)
    sd.compile(d).execute([x], [count, buf])
    want = np.argwhere(x[:, 0:6:2])
    k = int(count[0])
    got = np.lib.stride_tricks.as_strided(buf, (12, 2), (4, 52))
    assert k == len(want) and (got[:k] == want).all() and (got[k:] == 0).all()
    assert buf[12] == 99 and buf[25] == 99


def test_many_threads_same_compiled() -> None:
    from conftest import run_threads

    d = desc("float32", [300, 300], [90000, 2])
    c = sd.compile(d)
    xs = [sparse(np.random.default_rng(i), (300, 300), np.float32) for i in range(4)]

    def body(i: int) -> None:
        x = xs[i % 4]
        count, coords = np.zeros(1, np.uint32), np.zeros((90000, 2), np.uint32)
        c.execute([x], [count, coords])
        want = np.argwhere(x)
        assert int(count[0]) == len(want) and (coords[: len(want)] == want).all() and not coords[len(want) :].any()

    run_threads(body, 4)


def test_output_overlapping_the_input_reads_the_input_first() -> None:
    d = desc("uint32", [4], [4, 1])
    c = sd.compile(d)
    buf = np.array([0, 5, 0, 7, 9, 9, 9, 9], np.uint32)
    count = np.zeros(1, np.uint32)
    c.execute([buf[:4]], [count, buf[:4].reshape(4, 1)])  # coordinates written over the input itself
    assert int(count[0]) == 2 and buf.tolist() == [1, 3, 0, 0, 9, 9, 9, 9]
    with pytest.raises(BufferError):
        c.execute([buf[:4]], [buf[4:5], buf[4:8].reshape(4, 1)])  # the two outputs share memory
    assert buf[4:].tolist() == [9, 9, 9, 9]
