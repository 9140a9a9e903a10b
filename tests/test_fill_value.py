"""Scalar (SPEC 1: DML_SCALAR_UNION + its type, numbers converted by the Cast rules) and
FillValueConstant (SPEC 3.13) with sd.full: numpy as the independent reference, SPEC's example,
every dtype, strided out=, empty and 0-d results, the description's rules and feature levels."""

from __future__ import annotations

import struct

import numpy as np
import pytest

import strided as sd
from strided import _core
from conftest import ALL_DTYPES, same_bits

FL = sd.FeatureLevel


# ---------------------------------------------------------------- Scalar


CAST_CASES = [
    ("uint8", -2, 254),  # SPEC 1: an int exactly, modulo 2^bits
    ("uint8", 300.7, 255),  # a float as FLOAT64, then float -> int saturates
    ("uint8", -1.0, 0),
    ("int32", 3e9, 2**31 - 1),
    ("int32", float("nan"), 0),
    ("int32", -2.7, -2),
    ("int8", 2**64 - 1, -1),  # UINT64 max -> low bits
    ("int64", -(2**63), -(2**63)),
    ("uint64", 2**64 - 1, 2**64 - 1),
    ("float16", 65519.0, 65504.0),
    ("float16", 65520, float("inf")),  # an int is rounded once, exactly (SPEC 3.5)
    ("float32", 16777217, 16777216.0),
    ("int16", True, 1),
]


@pytest.mark.parametrize("dtype,value,expect", CAST_CASES)
def test_scalar_converts_by_the_cast_rules(dtype, value, expect) -> None:
    s = sd.Scalar(dtype, value)
    assert s.dtype == sd.DataType.from_numpy(dtype)
    assert s.value == expect and type(s.value) is type(expect)


@pytest.mark.parametrize("dtype,value,expect", CAST_CASES)
def test_full_converts_numbers_as_scalar_does(dtype, value, expect) -> None:
    # full's Python int / float path converts in one bindings call (_core._bits), others through
    # Scalar: the same rule either way, and the result's bits are numpy's for the expected value.
    got = sd.full((3,), value, dtype)
    assert same_bits(got, np.full((3,), expect, dtype))
    u = np.array(expect, dtype).view(f"u{np.dtype(dtype).itemsize}").item()  # the union's bits, zero-extended
    assert _core._bits(value, dtype, "v") == (u - 2**64 if u >= 2**63 else u)  # as the signed parameter


def test_scalar_bits_are_the_unions() -> None:
    assert sd.Scalar("float32", 1.5).bits == struct.unpack("<I", struct.pack("<f", 1.5))[0]
    assert sd.Scalar("float16", 1.0).bits == 0x3C00  # FLOAT16 in UInt16 (SPEC 1)
    assert sd.Scalar("float64", -0.0).bits == 1 << 63
    assert sd.Scalar("int16", -1).bits == 0xFFFF
    assert sd.Scalar.from_bits("float16", 0xFFFF_3C00) == sd.Scalar("float16", 1.0)  # high bytes ignored
    assert sd.Scalar.from_bits("float32", 0x7F800001).cast("float16").bits == 0x7E00  # SPEC 3.5 NaN rule
    assert sd.Scalar("int8", 1) == sd.Scalar("int8", 257) and hash(sd.Scalar("int8", 1)) == hash(sd.Scalar("int8", 257))
    assert sd.Scalar("int8", 1) != sd.Scalar("uint8", 1)
    assert repr(sd.Scalar("uint8", -2)) == "Scalar(UINT8, 254)"
    assert repr(sd.Scalar("float32", 0.5)) == "Scalar(FLOAT32, 0.5)"


def test_scalar_misuse() -> None:
    with pytest.raises(sd.ValidationError, match="Scalar.value: integer .* does not fit in 64 bits"):
        sd.Scalar("int64", 2**64)
    with pytest.raises(TypeError, match="Scalar.value"):
        sd.Scalar("int64", "3")
    with pytest.raises((TypeError, ValueError)):
        sd.Scalar("bool", 1)


# ---------------------------------------------------------------- FillValueConstant


def test_spec_example() -> None:
    d = sd.FillValueConstantDesc(sd.TensorDesc("float32", [1, 1, 2, 4]), 13.0)
    d.validate()
    assert d.value == sd.Scalar("float32", 13.0) and d.min_feature_level == FL.FL_2_1
    out = np.zeros((1, 1, 2, 4), np.float32)
    sd.compile(d).execute([], [out])
    assert (out == 13.0).all()


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
def test_full_every_dtype(dtype, simd) -> None:
    for value in [0, 1, -1, 100, 2.5, -0.0]:
        got = sd.full((3, 37), value, dtype)
        ref = np.empty((3, 37), dtype)
        ref[...] = sd.Scalar(dtype, value).value  # the Cast rules' value, set by numpy
        assert got.dtype == np.dtype(dtype) and got.flags.c_contiguous and same_bits(got, ref)


def test_full_keeps_bits() -> None:
    nan = sd.Scalar.from_bits("float32", 0xFFC0_1234)
    got = sd.full((5,), nan)
    assert got.dtype == np.float32 and (got.view(np.uint32) == 0xFFC01234).all()
    assert (sd.full((4,), -0.0, "float64").view(np.uint64) == 1 << 63).all()


def test_full_defaults_and_shapes(threads) -> None:
    assert sd.full((2, 2), 3).dtype == np.int64 and sd.full((2,), 3.0).dtype == np.float64
    assert sd.full(4, 1.0).shape == (4,)
    z = sd.full((), 7, "int16")
    assert z.shape == () and z == 7
    assert sd.full((3, 0, 2), 1.0).shape == (3, 0, 2)
    big = sd.full((1025, 4099), -3, "int32")  # several threads, streaming stores
    assert (big == -3).all()


def test_full_out_any_strides() -> None:
    base = np.zeros((6, 8), np.float32)
    view = base[::-2, 1::3]
    assert sd.full(view.shape, 7, out=view) is view
    ref = np.zeros((6, 8), np.float32)
    ref[::-2, 1::3] = 7
    assert same_bits(base, ref)
    t = np.zeros((4, 5), np.uint16).T
    sd.full((5, 4), 9, out=t)
    assert (t == 9).all()


def test_full_misuse_writes_nothing() -> None:
    out = np.zeros((2, 3), np.float32)
    with pytest.raises(sd.ValidationError, match="out: expected shape"):
        sd.full((3, 2), 1.0, out=out)
    with pytest.raises(sd.ValidationError, match="out: expected dtype"):
        sd.full((2, 3), 1.0, "float64", out=out)
    with pytest.raises(sd.ValidationError, match=r"full.shape\[1\]: size must be non-negative"):
        sd.full((2, -1), 1.0)
    with pytest.raises(TypeError, match="full.value"):
        sd.full((2,), "x", "float32")
    with pytest.raises(sd.ValidationError, match="bool"):
        sd.full((2,), True)
    assert not out.any()
    with pytest.raises(sd.ValidationError):
        sd.full((2, 3), 1.0, "bool")
    with pytest.raises(sd.ValidationError, match="full.shape: strided supports at most 8 dimensions, got 9"):
        sd.full((1,) * 9, 1.0)
    with pytest.raises(sd.ValidationError, match="full.shape: .* does not fit in 64 bits"):
        sd.full((2**70,), 1.0)
    with pytest.raises(sd.ValidationError, match="full.value: integer .* does not fit in 64 bits"):
        sd.full((2,), 2**70, "float32")


def test_full_value_kinds() -> None:
    # numpy scalars, bools, 0-d arrays and Scalars take the Cast rules as Python numbers do
    for value in (np.float32(2.5), np.int8(-3), np.uint64(2**63 + 5), np.array(7.25), True, 2**63 + 5):
        for dtype in ("float16", "int8", "uint64"):
            ref = sd.Scalar(dtype, value.item() if isinstance(value, (np.generic, np.ndarray)) else value)
            got = sd.full((3,), value, dtype)
            assert got.dtype == np.dtype(dtype) and (got.view(f"u{got.itemsize}") == ref.bits).all(), (value, dtype)
    s = sd.Scalar("int16", -2)
    assert sd.full((2,), s).dtype == np.int16 and (sd.full((2,), s, np.uint8) == 254).all()


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
def test_dtype_given_as_a_scalar_type(dtype) -> None:
    # numpy's scalar types (matched by identity) and their other spellings name the same type
    t = np.dtype(dtype)
    for spelling in (t.type, t, t.name):
        assert sd.full((2,), 1, spelling).dtype == t
        assert sd.cast(np.ones(3, np.float64), spelling).dtype == t
    assert sd.full((2,), 1, np.longlong).dtype == np.dtype(np.longlong)
    assert sd.full((2,), 1, float).dtype == np.float64 and sd.full((2,), 1, int).dtype == np.dtype(int)
    with pytest.raises(sd.ValidationError, match="bool"):
        sd.full((2,), 1, np.bool_)
    with pytest.raises(TypeError, match="dtype"):
        sd.full((2,), 1, object())


def test_description_rules_and_levels() -> None:
    t = sd.TensorDesc
    with pytest.raises(
        sd.ValidationError, match=r"FillValueConstantDesc.value.dtype: must equal output.dtype \(FLOAT16\)"
    ):
        sd.FillValueConstantDesc(t("float16", [2, 4]), sd.Scalar("float32", 1)).validate()
    with pytest.raises(sd.ValidationError, match="FillValueConstantDesc.output"):
        sd.FillValueConstantDesc(t("float32", [2, 4], [0, 1]), 1.0).validate()  # aliasing output
    assert sd.FillValueConstantDesc(t("float16", [2, 4]), -1).value == sd.Scalar("float16", -1.0)
    assert sd.FillValueConstantDesc(t("uint8", [2, 4]), -1).value.value == 255  # converted at construction
    lv = lambda dt, sizes: sd.FillValueConstantDesc(t(dt, sizes), 1).min_feature_level  # noqa: E731
    assert lv("int8", [1, 1, 2, 4]) == FL.FL_2_1
    assert lv("int8", [2, 4]) == FL.FL_4_0  # 1-8 dimensions from 4_0
    assert lv("float64", [1, 1, 2, 4]) == FL.FL_4_1
    assert lv("int64", [8]) == FL.FL_4_1
    d = sd.FillValueConstantDesc(t("float32", [1, 1, 1, 8]), 2.0)
    assert d.is_valid_at("2_1") and not d.is_valid_at("2_0")
    assert d == sd.FillValueConstantDesc(t("float32", [1, 1, 1, 8]), sd.Scalar("float32", 2))
    assert "value=Scalar(FLOAT32, 2)" in repr(d)
