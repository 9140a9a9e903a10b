"""FillValueSequence (SPEC 3.13) with sd.fill_sequence and sd.arange: SPEC's examples and its
arithmetic rule (integers modulo 2^bits, floats in binary64 rounded once) against an independent
reference (Python integers; numpy float64 products and sums), numpy.arange and ONNX Range, every
dtype, strided out= (numpy and torch), empty and 0-d results, misuse writing nothing, the
description's rules, feature levels and compile/execute on raw buffers."""

from __future__ import annotations

import math

import numpy as np
import pytest

import strided as sd
from conftest import ALL_DTYPES, same_bits

FL = sd.FeatureLevel
T = sd.TensorDesc


def reference(shape, start, delta, dtype) -> np.ndarray:
    """SPEC 3.13's rule, computed apart from strided: the values converted to dtype first (the Cast
    rules, as sd.Scalar gives them), then start + k*delta per row-major k."""
    dt = np.dtype(dtype)
    n = math.prod(shape)
    s, d = sd.Scalar(dt, start).value, sd.Scalar(dt, delta).value
    if dt.kind in "iu":
        bits = 8 * dt.itemsize
        vals = [(s + k * d) % 2**bits for k in range(n)]
        return np.array(vals, dtype=f"u{dt.itemsize}").view(dt).reshape(shape)
    prod = np.arange(n, dtype=np.float64) * np.float64(d)  # binary64 product, then sum: no FMA
    return (prod + np.float64(s)).astype(dt).reshape(shape)


# ---------------------------------------------------------------- SPEC's examples


def test_spec_examples_through_descriptions() -> None:
    cases = [
        (T("float32", [1, 1, 1, 3]), 3, 2, np.array([3, 5, 7], np.float32).reshape(1, 1, 1, 3)),
        (T("uint8", [1, 1, 2, 2]), 10, -2, np.array([[10, 8], [6, 4]], np.uint8).reshape(1, 1, 2, 2)),  # SPEC 6.10
        (T("int8", [2, 3]), 120, 5, np.array([[120, 125, -126], [-121, -116, -111]], np.int8)),
    ]
    for desc, start, delta, want in cases:
        d = sd.FillValueSequenceDesc(desc, start, delta)
        d.validate()
        buf = np.zeros(desc.total_bytes, np.uint8)  # sizes rounded up to 4 bytes (SPEC 2)
        sd.compile(d).execute([], [buf])  # no inputs
        assert same_bits(buf[: want.nbytes].view(want.dtype).reshape(want.shape), want)
    assert sd.FillValueSequenceDesc(T("uint8", [2]), 10, -2).value_delta == sd.Scalar("uint8", 254)


def test_spec_float_rounding_is_once_from_binary64() -> None:
    got = sd.fill_sequence((8,), 0, np.float32(0.1), "float32")
    assert got[7] == np.float32(0.699999988)
    acc = np.float32(0)
    for _ in range(7):
        acc = np.float32(acc + np.float32(0.1))
    assert acc == np.float32(0.70000005) and got[7] != acc  # float32 accumulation differs


# ---------------------------------------------------------------- values, dtypes, shapes


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
def test_every_dtype(dtype) -> None:
    for start, delta in [(0, 1), (3, 2), (-5, 3), (100, -7), (250, 3), (2.5, 0.1), (-1e3, 33.3), (7, 0)]:
        got = sd.fill_sequence((3, 37), start, delta, dtype)
        want = reference((3, 37), start, delta, dtype)
        assert got.dtype == np.dtype(dtype) and got.flags.c_contiguous and same_bits(got, want), (start, delta)


def test_wraps_and_rounds() -> None:
    assert same_bits(
        sd.fill_sequence((4,), 2**63 - 2, 1, "int64"), np.array([2**63 - 2, 2**63 - 1, -(2**63), -(2**63) + 1])
    )
    assert same_bits(sd.fill_sequence((3,), 65530, 4, "uint16"), np.array([65530, 65534, 2], np.uint16))
    f16 = sd.fill_sequence((5,), 2040, 3, "float16")  # 2043 and 2049 are not float16: nearest even
    assert same_bits(f16, np.array([2040, 2043, 2046, 2049, 2052], np.float64).astype(np.float16))
    assert np.isinf(sd.fill_sequence((2,), 65504, 100, "float16")[1])  # overflow -> inf (SPEC 3.5)


def test_defaults_shapes_and_threads(threads) -> None:
    assert sd.fill_sequence((3,), 1, 2).dtype == np.int64
    assert sd.fill_sequence((3,), 1, 0.5).dtype == np.float64
    assert sd.fill_sequence((3,), 1.0, 2).dtype == np.float64
    z = sd.fill_sequence((), 7, 3, "int16")
    assert z.shape == () and z == 7
    assert sd.fill_sequence((3, 0, 2), 1, 1, "float32").shape == (3, 0, 2)
    big = sd.fill_sequence((1025, 4099), -3, 2, "int32")  # several threads
    assert same_bits(big, (np.arange(1025 * 4099, dtype=np.int64) * 2 - 3).astype(np.int32).reshape(1025, 4099))
    bigf = sd.fill_sequence((300_001,), 0.5, 0.25, "float64")
    assert same_bits(bigf, np.arange(300_001) * 0.25 + 0.5)


def test_out_any_strides_k_is_logical() -> None:
    base = np.zeros((6, 8), np.float32)
    view = base[::-2, 1::3]
    assert sd.fill_sequence(view.shape, 1, 1, out=view) is view
    ref = np.zeros((6, 8), np.float32)
    ref[::-2, 1::3] = np.arange(1, 10, dtype=np.float32).reshape(3, 3)  # row-major over the view
    assert same_bits(base, ref)
    t = np.zeros((4, 5), np.uint16).T
    sd.fill_sequence((5, 4), 0, 1, out=t)
    assert same_bits(np.ascontiguousarray(t), np.arange(20, dtype=np.uint16).reshape(5, 4))


def test_torch_out_in_place() -> None:
    torch = pytest.importorskip("torch")
    base = torch.zeros(4, 9, dtype=torch.int64)
    view = base[:, ::2]  # non-contiguous
    assert sd.fill_sequence((4, 5), 10, 3, out=view) is view
    assert torch.equal(view, torch.arange(10, 70, 3).reshape(4, 5))
    assert torch.equal(base[:, 1::2], torch.zeros(4, 4, dtype=torch.int64))
    bad = torch.zeros(1, dtype=torch.float32).expand(4)  # writable, stride 0
    with pytest.raises(BufferError, match="overlap"):
        sd.fill_sequence((4,), 1, 1, out=bad)
    assert bad[0] == 0


def test_misuse_writes_nothing() -> None:
    out = np.zeros((2, 3), np.float32)
    with pytest.raises(sd.ValidationError, match="out: expected shape"):
        sd.fill_sequence((3, 2), 1.0, 1.0, out=out)
    with pytest.raises(sd.ValidationError, match="out: expected dtype"):
        sd.fill_sequence((2, 3), 1.0, 1.0, "float64", out=out)
    with pytest.raises(sd.ValidationError, match=r"fill_sequence.shape\[1\]: size must be non-negative"):
        sd.fill_sequence((2, -1), 1, 1)
    with pytest.raises(TypeError, match="fill_sequence.delta"):
        sd.fill_sequence((2,), 1, "x", "float32")
    with pytest.raises(BufferError, match="read-only"):
        sd.fill_sequence((2, 3), 1, 1, out=np.broadcast_to(out, (2, 3)))
    assert not out.any()
    with pytest.raises((sd.ValidationError, TypeError, ValueError)):
        sd.fill_sequence((2, 3), 1, 1, "bool")
    with pytest.raises(sd.ValidationError, match="fill_sequence.shape: strided supports at most 8 dimensions"):
        sd.fill_sequence((1,) * 9, 0, 1)
    with pytest.raises(TypeError, match="fill_sequence.start"):
        sd.fill_sequence((2,), None, 1)


# ---------------------------------------------------------------- arange (numpy arange, ONNX Range)


@pytest.mark.parametrize(
    "args,kw",
    [
        ((10,), {}),
        ((2, 11, 3), {}),
        ((10, 0, -3), {}),
        ((5, 2), {}),  # empty
        ((0, 1, 0.125), {}),
        ((1.5, -2.0, -0.25), {}),
        ((0, 10, 2), {"dtype": "float32"}),
        ((-3, 300, 7), {"dtype": "int16"}),
        ((0.0, 5.0), {"dtype": "float16"}),
        ((np.float32(0), np.float32(2), np.float32(0.5)), {}),
    ],
)
def test_arange_matches_numpy(args, kw) -> None:
    got, want = sd.arange(*args, **kw), np.arange(*args, **kw)
    assert got.dtype == want.dtype and same_bits(got, want)


def test_arange_follows_spec_rule_and_length() -> None:
    got = sd.arange(0.3, 1.2, 0.1)  # length ceil(0.9 / 0.1) in float64, as numpy
    assert len(got) == len(np.arange(0.3, 1.2, 0.1))
    assert same_bits(got, reference((len(got),), 0.3, 0.1, np.float64))
    assert len(sd.arange(0, 2**40, 2**38)) == 4 and len(sd.arange(-(2**62), 2**62, 2**61)) == 4  # exact ints
    f32 = sd.arange(0, 1, 0.1, dtype="float32")  # start and step rounded to float32 first (SPEC 3.13)
    assert same_bits(f32, reference((10,), 0, 0.1, np.float32))


def test_arange_misuse() -> None:
    with pytest.raises(sd.ValidationError, match="arange.step: must not be 0"):
        sd.arange(0, 5, 0)
    with pytest.raises(sd.ValidationError, match="arange.step: must not be 0"):
        sd.arange(0.0, 5.0, 0.0)
    with pytest.raises(sd.ValidationError, match="not finite"):
        sd.arange(0, float("inf"))
    with pytest.raises(TypeError, match="arange.stop"):
        sd.arange(0, "5")
    with pytest.raises(sd.ValidationError, match="arange: the result's shape .* does not fit"):
        sd.arange(2**70)  # numpy: "Maximum allowed size exceeded"
    with pytest.raises(sd.ValidationError, match="arange: the result's shape .* does not fit"):
        sd.arange(0.0, 2.0**70)
    with pytest.raises(sd.ValidationError, match="dtype: unknown data type name 'bool'"):
        sd.arange(3, dtype="bool")


def test_onnx_range_node() -> None:
    onnx = pytest.importorskip("onnx")
    from onnx import helper
    from onnx.reference import ReferenceEvaluator

    node = helper.make_node("Range", ["start", "limit", "delta"], ["out"])
    for start, limit, delta, dt in [(1, 10, 3, np.int32), (10, 4, -3, np.int64), (0.5, 3.0, 0.5, np.float32)]:
        g = helper.make_graph(
            [node],
            "range",
            [
                helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(np.dtype(dt)), [])
                for n in ("start", "limit", "delta")
            ],
            [helper.make_tensor_value_info("out", helper.np_dtype_to_tensor_dtype(np.dtype(dt)), None)],
        )
        feeds = {"start": np.array(start, dt), "limit": np.array(limit, dt), "delta": np.array(delta, dt)}
        (want,) = ReferenceEvaluator(helper.make_model(g)).run(None, feeds)
        assert same_bits(sd.arange(start, limit, delta, dtype=dt), want)
    assert onnx is not None


# ---------------------------------------------------------------- the description


def test_description_rules_and_levels() -> None:
    with pytest.raises(sd.ValidationError, match=r"FillValueSequenceDesc.value_start.dtype: must equal output.dtype"):
        sd.FillValueSequenceDesc(T("float16", [2, 4]), sd.Scalar("float32", 1), 1).validate()
    with pytest.raises(sd.ValidationError, match=r"FillValueSequenceDesc.value_delta.dtype: must equal output.dtype"):
        sd.FillValueSequenceDesc(T("int8", [2, 4]), 1, sd.Scalar("int16", 1)).validate()
    with pytest.raises(sd.ValidationError, match="FillValueSequenceDesc.output"):
        sd.FillValueSequenceDesc(T("float32", [2, 4], [0, 1]), 1.0, 1.0).validate()  # aliasing output
    lv = lambda dt, sizes: sd.FillValueSequenceDesc(T(dt, sizes), 1, 1).min_feature_level  # noqa: E731
    assert lv("int8", [1, 1, 2, 4]) == FL.FL_2_1
    assert lv("float32", [2, 4]) == FL.FL_4_0  # 1-8 dimensions from 4_0
    assert lv("int64", [8]) == FL.FL_5_0  # "10t" from 5_0 (4_1 is still 8 types)
    assert lv("uint64", [1, 1, 2, 4]) == FL.FL_5_0
    d = sd.FillValueSequenceDesc(T("float64", [1, 1, 2, 4]), 1.0, 0.5)  # FLOAT64: no table lists it
    d.validate()
    with pytest.raises(sd.ValidationError, match="FLOAT64"):
        d.min_feature_level
    assert not any(d.is_valid_at(level) for level in FL)
    out = np.zeros(8, np.float64)
    sd.compile(d).execute([], [out])  # still executes
    assert same_bits(out, np.arange(8) * 0.5 + 1.0)
    e = sd.FillValueSequenceDesc(T("float32", [1, 1, 1, 8]), 2.0, 1.0)
    assert e.is_valid_at("2_1") and not e.is_valid_at("2_0")
    assert e == sd.FillValueSequenceDesc(T("float32", [1, 1, 1, 8]), sd.Scalar("float32", 2), sd.Scalar("float32", 1))
    assert "value_start=Scalar(FLOAT32, 2), value_delta=Scalar(FLOAT32, 1)" in repr(e)


def test_compile_execute_raw_padded_buffer() -> None:
    d = sd.FillValueSequenceDesc(T("int16", [3, 4], [6, 1]), -4, 3)  # padded rows
    buf = bytearray(d.output.total_bytes)
    sd.compile(d).execute([], [buf])
    got = np.frombuffer(buf, np.int16)
    want = np.zeros(len(got), np.int16)
    for r in range(3):
        want[6 * r : 6 * r + 4] = np.arange(4) * 3 + 12 * r - 4
    assert same_bits(got, want)
    with pytest.raises(BufferError):
        sd.compile(d).execute([], [bytearray(4)])  # too short: nothing written


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64], ids=lambda t: np.dtype(t).name)
def test_float_sequences_every_simd_target(dtype, simd, threads) -> None:
    """The sequence kernel of every SIMD target: one rounding from binary64 (no FMA in any target),
    float16 eight at a time where narrowing to float32 is exact and one at a time where it is not
    (a value just above a float16 midpoint that float32 would round onto it, NaN, overflow), runs
    of every length around 8, contiguous and strided outputs."""
    # float16 operands whose binary64 sums float32 rounds onto a float16 midpoint (6 of the
    # first 100): float16 -> float32 -> float16 would round twice
    trap = (-7.152557373046875e-07, -0.31640625, 100)
    cases = [(0, 1, 1000), (0.5, 0.25, 77), (2.5, 0.1, 1001), (1e-4, 1, 3000), (65000, 16, 64), trap]
    cases += [(-3, -0.5, n) for n in (1, 7, 8, 9, 15, 16, 17)]
    cases += [(np.nan, 1, 20), (-np.inf, 2, 12)]
    for start, delta, n in cases:
        with np.errstate(over="ignore", invalid="ignore"):
            want = reference((n,), start, delta, dtype)
        assert same_bits(sd.fill_sequence((n,), start, delta, dtype), want), (start, delta, n)
        out = np.full(2 * n, 7, dtype)
        sd.fill_sequence((n,), start, delta, dtype, out=out[::2])
        assert same_bits(out[::2], want) and (out[1::2] == 7).all(), (start, delta, n)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
def test_streaming_block_path(dtype, simd, threads) -> None:
    """Contiguous outputs over the stream threshold (lowered here) are made in blocks and streamed
    (the line writer: outputs at any alignment, parts cut anywhere; guard bytes stay untouched)."""
    old = sd._core._stream_threshold()
    sd._core._set_stream_threshold(0)
    try:
        for shape, start, delta in [((20001,), 5, 3), ((7, 3001), -1.5, 0.25)]:
            want = reference(shape, start, delta, dtype)
            assert same_bits(sd.fill_sequence(shape, start, delta, dtype), want)
            for offset in (1, 8, 24):
                buf = np.full(want.nbytes + 128, 0xEE, np.uint8)
                out = buf[64 + offset : 64 + offset + want.nbytes].view(want.dtype).reshape(shape)
                sd.fill_sequence(shape, start, delta, dtype, out=out)
                assert same_bits(out, want), offset
                assert (buf[: 64 + offset] == 0xEE).all() and (buf[64 + offset + want.nbytes :] == 0xEE).all()
    finally:
        sd._core._set_stream_threshold(old)
