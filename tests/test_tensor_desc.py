"""TensorDesc and DMLCalcBufferTensorSize (SPEC.md section 2), against the spec's examples and an
independent Python reimplementation of DirectML's formula."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strided as sd

DT = sd.DataType
ITEMSIZE = {
    DT.FLOAT32: 4, DT.FLOAT16: 2, DT.UINT32: 4, DT.UINT16: 2, DT.UINT8: 1, DT.INT32: 4,
    DT.INT16: 2, DT.INT8: 1, DT.FLOAT64: 8, DT.UINT64: 8, DT.INT64: 8,
}  # fmt: skip


def ref_buffer_size(dtype: DT, sizes: list[int], strides: list[int] | None) -> int:
    """DMLCalcBufferTensorSize, as DirectML's helper page writes it."""
    if strides is None:
        elems = math.prod(sizes)
    else:
        elems = sum((s - 1) * t for s, t in zip(sizes, strides)) + 1
    b = elems * ITEMSIZE[dtype]
    return (b + 3) & ~3


# ---------------------------------------------------------------- SPEC.md section 2 examples
def test_spec_size_examples() -> None:
    assert sd.calc_buffer_tensor_size(DT.FLOAT32, [2, 3], [5, 1]) == 32
    assert sd.calc_buffer_tensor_size(DT.FLOAT32, [2, 3], [0, 1]) == 12
    assert sd.calc_buffer_tensor_size(DT.FLOAT16, [3]) == 8
    assert sd.calc_buffer_tensor_size("float16", (3,)) == 8
    assert sd.calc_buffer_tensor_size(np.float32, [2, 3]) == 24


def test_spec_dhw_offset() -> None:
    t = sd.TensorDesc(DT.FLOAT32, [2, 2, 3])
    assert t.strides == (6, 3, 1)
    assert sum(c * s for c, s in zip((1, 0, 1), t.strides)) == 7


def test_spec_nchw_nhwc() -> None:
    assert sd.packed_strides([1, 1, 3, 5]) == (15, 15, 5, 1)
    assert sd.packed_strides([1, 1, 3, 5], "NCHW") == (15, 15, 5, 1)
    assert sd.packed_strides([1, 1, 3, 5], "NHWC") == (15, 1, 5, 1)
    assert sd.packed_strides([2, 3], [1, 0]) == (1, 2)  # column-major as a permutation
    t = sd.TensorDesc("float32", [1, 1, 3, 5], [15, 1, 5, 1])
    assert t.total_bytes == 60


@settings(max_examples=200, deadline=None)
@given(
    dtype=st.sampled_from(list(DT)),
    dims=st.lists(st.tuples(st.integers(1, 9), st.integers(0, 40)), min_size=1, max_size=8),
    with_strides=st.booleans(),
)
def test_buffer_size_matches_reference(dtype: DT, dims: list[tuple[int, int]], with_strides: bool) -> None:
    sizes = [s for s, _ in dims]
    strides = [t for _, t in dims] if with_strides else None
    expect = ref_buffer_size(dtype, sizes, strides)
    assert sd.calc_buffer_tensor_size(dtype, sizes, strides) == expect
    t = sd.TensorDesc(dtype, sizes, strides)
    assert t.total_bytes == expect
    assert t.element_count == math.prod(sizes)
    assert t.ndim == len(sizes)


@pytest.mark.parametrize(
    "sizes, strides, field",
    [
        ([2**40, 2**40], None, "sizes"),
        ([2, 2], [2**62, 1], "strides"),
        ([2**62, 2], None, "sizes"),
        ([3], [2**62], "strides"),
    ],
)
def test_buffer_size_overflow(sizes: list[int], strides: list[int] | None, field: str) -> None:
    with pytest.raises(sd.ValidationError, match=field):
        sd.calc_buffer_tensor_size(DT.FLOAT32, sizes, strides)
    with pytest.raises(sd.ValidationError, match=f"TensorDesc.{field}"):
        sd.TensorDesc(DT.FLOAT32, sizes, strides)


def test_buffer_size_argument_rules() -> None:
    with pytest.raises(sd.ValidationError, match="strides"):
        sd.calc_buffer_tensor_size("float32", [2, 3], [])
    with pytest.raises(sd.ValidationError, match=r"strides\[1\]"):
        sd.calc_buffer_tensor_size("float32", [2, 3], [1, -1])
    with pytest.raises(sd.ValidationError, match=r"sizes\[0\]"):
        sd.calc_buffer_tensor_size("float32", [0, 3])
    with pytest.raises(sd.ValidationError, match="sizes"):
        sd.calc_buffer_tensor_size("float32", [])


# ---------------------------------------------------------------- constructor rules
@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (dict(dtype=0, sizes=[2]), sd.ValidationError, "dtype"),
        (dict(dtype=12, sizes=[2]), sd.ValidationError, "dtype"),
        (dict(dtype="complex", sizes=[2]), sd.ValidationError, "dtype"),
        (dict(dtype=np.bool_, sizes=[2]), sd.ValidationError, "dtype"),
        (dict(dtype=object(), sizes=[2]), TypeError, "dtype"),
        (dict(dtype="float32", sizes=[]), sd.ValidationError, r"TensorDesc\.sizes: must have 1 to 8"),
        (dict(dtype="float32", sizes=[1] * 9), sd.ValidationError, r"TensorDesc\.sizes: must have 1 to 8"),
        (dict(dtype="float32", sizes=[2, 0]), sd.ValidationError, r"TensorDesc\.sizes\[1\]"),
        (dict(dtype="float32", sizes=[2, -3]), sd.ValidationError, r"TensorDesc\.sizes\[1\]"),
        (dict(dtype="float32", sizes=[2**64]), sd.ValidationError, r"TensorDesc\.sizes\[0\]"),
        (dict(dtype="float32", sizes=[2.0]), TypeError, r"TensorDesc\.sizes\[0\]"),
        (dict(dtype="float32", sizes="ab"), TypeError, r"TensorDesc\.sizes"),
        (dict(dtype="float32", sizes=[2, 3], strides=[1]), sd.ValidationError, r"TensorDesc\.strides"),
        (dict(dtype="float32", sizes=[2, 3], strides=[]), sd.ValidationError, r"TensorDesc\.strides"),
        (dict(dtype="float32", sizes=[2, 3], strides=[3, -1]), sd.ValidationError, r"TensorDesc\.strides\[1\]"),
        (dict(dtype="float32", sizes=[2, 3], total_bytes=20), sd.ValidationError, r"TensorDesc\.total_bytes"),
        (dict(dtype="float32", sizes=[2, 3], total_bytes=0), sd.ValidationError, r"TensorDesc\.total_bytes"),
        (dict(dtype="float32", sizes=[2, 3], total_bytes=-4), sd.ValidationError, r"TensorDesc\.total_bytes"),
        (dict(dtype="float32", sizes=[2, 3], total_bytes=2**63), sd.ValidationError, r"TensorDesc\.total_bytes"),
        (dict(dtype="float32", sizes=[2, 3], total_bytes="24"), TypeError, r"TensorDesc\.total_bytes"),
        (dict(dtype="float32", sizes=[2, 3], alignment=2), sd.ValidationError, r"TensorDesc\.alignment"),
        (dict(dtype="float32", sizes=[2, 3], alignment=12), sd.ValidationError, r"TensorDesc\.alignment"),
        (dict(dtype="float32", sizes=[2, 3], alignment=-1), sd.ValidationError, r"TensorDesc\.alignment"),
        (dict(dtype="float32", sizes=[2, 3], flags=2), sd.ValidationError, r"TensorDesc\.flags"),
    ],
)
def test_constructor_rules(kwargs: dict, exc: type, match: str) -> None:
    with pytest.raises(exc, match=match):
        sd.TensorDesc(**kwargs)


def test_constructor_accepts() -> None:
    t = sd.TensorDesc("float16", [2, 3], total_bytes=100, alignment=16, flags=1)
    assert (t.dtype, t.sizes, t.strides, t.total_bytes, t.alignment, t.flags) == (
        DT.FLOAT16, (2, 3), (3, 1), 100, 16, 1,
    )  # fmt: skip
    assert isinstance(t.dtype, DT)
    assert sd.TensorDesc("float32", [2, 3], alignment=4).alignment == 4
    assert sd.TensorDesc(DT.UINT8, [8]).total_bytes == 8
    assert sd.TensorDesc(DT.UINT8, [5]).total_bytes == 8  # rounded up to 4
    assert sd.TensorDesc("FLOAT64", [1] * 8).ndim == 8
    assert sd.TensorDesc(np.dtype("int16"), (np.int64(3),)).sizes == (3,)


# ---------------------------------------------------------------- value semantics
def test_immutable_hashable_equal() -> None:
    a = sd.TensorDesc("float32", [2, 3])
    b = sd.TensorDesc("float32", [2, 3], [3, 1])
    c = sd.TensorDesc("float32", [2, 3], [4, 1])
    assert a == b and hash(a) == hash(b)
    assert a != c
    assert a != sd.TensorDesc("float32", [2, 3], total_bytes=28)
    assert a != sd.TensorDesc("int32", [2, 3])
    assert a != "not a desc"
    assert len({a, b, c}) == 2
    for attr in ("dtype", "sizes", "strides", "total_bytes", "alignment", "flags"):
        with pytest.raises(AttributeError):
            setattr(a, attr, 1)
    assert pickle.loads(pickle.dumps(c)) == c


def test_repr() -> None:
    r = repr(sd.TensorDesc("float32", [2, 3]))
    assert r.startswith("TensorDesc(FLOAT32")
    assert "{2,3}" in r and "{3,1}" in r and "24" in r


def test_packed_and_broadcast() -> None:
    assert sd.TensorDesc("float32", [2, 3]).is_packed
    assert sd.TensorDesc("float32", [1, 3], [7, 1]).is_packed  # a size-1 dimension's stride is free
    assert not sd.TensorDesc("float32", [2, 3], [5, 1]).is_packed  # padded
    assert not sd.TensorDesc("float32", [2, 3], [1, 2]).is_packed  # column-major
    assert not sd.TensorDesc("float32", [2, 3]).is_broadcast
    assert sd.TensorDesc("float32", [2, 3], [0, 1]).is_broadcast
    assert not sd.TensorDesc("float32", [1, 3], [0, 1]).is_broadcast
    big = sd.TensorDesc("uint8", [2**31, 2**32], [0, 0])  # element count beyond int64
    assert big.is_broadcast and not big.is_packed
    assert big.element_count == 2**63


# ---------------------------------------------------------------- from_array
def test_from_array() -> None:
    a = np.zeros((3, 4), np.float32)
    assert sd.TensorDesc.from_array(a) == sd.TensorDesc("float32", [3, 4])
    t = sd.TensorDesc.from_array(a.T)
    assert (t.sizes, t.strides) == ((4, 3), (1, 4))
    t = sd.TensorDesc.from_array(a[:, ::2])
    assert (t.sizes, t.strides) == ((3, 2), (4, 2))
    t = sd.TensorDesc.from_array(np.broadcast_to(np.zeros(4, np.int16), (5, 4)))
    assert (t.dtype, t.strides, t.is_broadcast) == (DT.INT16, (0, 1), True)
    assert sd.TensorDesc.from_array(np.zeros((1, 4), np.uint8)) == sd.TensorDesc("uint8", [1, 4])
    assert sd.TensorDesc.from_array(np.zeros(4, np.float64)[::-1][:1]).sizes == (1,)  # size 1: stride unused


def test_from_array_rejects() -> None:
    with pytest.raises(sd.ValidationError, match="negative"):
        sd.TensorDesc.from_array(np.zeros(4, np.float32)[::-1])
    odd = np.lib.stride_tricks.as_strided(np.zeros(10, np.float32), shape=(3,), strides=(6,))
    with pytest.raises(sd.ValidationError, match="multiple"):
        sd.TensorDesc.from_array(odd)
    with pytest.raises(sd.ValidationError, match="0-d"):
        sd.TensorDesc.from_array(np.ones((), np.float32))
    with pytest.raises(sd.ValidationError):
        sd.TensorDesc.from_array(np.zeros((2, 0), np.float32))
    with pytest.raises(sd.ValidationError, match="dtype"):
        sd.TensorDesc.from_array(np.zeros(3, np.complex64))
