"""strided.xla against XLA's published behaviour (seed 004, SPEC.md section 5) and an independent
numpy reference: the physical buffer is built with numpy pad + transpose + ravel, linear indices
with numpy's ravel_multi_index over the padded extents in major-to-minor order."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strided as sd
from strided import xla

TYPES = {
    "pred": np.bool_,
    "s8": np.int8,
    "s16": np.int16,
    "s32": np.int32,
    "s64": np.int64,
    "u8": np.uint8,
    "u16": np.uint16,
    "u32": np.uint32,
    "u64": np.uint64,
    "f16": np.float16,
    "f32": np.float32,
    "f64": np.float64,
}
SIZES = {
    "pred": 1,
    "s8": 1,
    "s16": 2,
    "s32": 4,
    "s64": 8,
    "u8": 1,
    "u16": 2,
    "u32": 4,
    "u64": 8,
    "f16": 2,
    "f32": 4,
    "f64": 8,
}
PADS = ["ZERO_PAD", "ONE_PAD", "LOWEST_PAD", "HIGHEST_PAD", "UNKNOWN_PAD"]


# ---------------------------------------------------------------- the independent reference
def pad_value(t: str, pad: str):
    dt = np.dtype(TYPES[t])
    if pad in ("ZERO_PAD", "UNKNOWN_PAD"):  # UNKNOWN: to_physical zero-fills
        return dt.type(0)
    if pad == "ONE_PAD":
        return dt.type(1)
    if dt == np.bool_:
        return np.bool_(pad == "HIGHEST_PAD")
    if dt.kind == "f":
        return dt.type(-np.inf if pad == "LOWEST_PAD" else np.inf)
    info = np.iinfo(dt)
    return dt.type(info.min if pad == "LOWEST_PAD" else info.max)


def ref_physical(x: np.ndarray, m2m, padded, fill) -> np.ndarray:
    padded = list(padded) if padded else list(x.shape)
    full = np.full(padded, fill, dtype=x.dtype)
    full[tuple(slice(0, d) for d in x.shape)] = x
    return np.ascontiguousarray(np.transpose(full, list(reversed(m2m)))).ravel()


def ref_linear(index, m2m, padded) -> int:
    major = list(reversed(m2m))
    return int(np.ravel_multi_index(tuple(index[d] for d in major), tuple(padded[d] for d in major)))


def sample(t: str, dims, rng) -> np.ndarray:
    dt = np.dtype(TYPES[t])
    if dt == np.bool_:
        return rng.integers(0, 2, size=dims).astype(bool)
    if dt.kind == "f":
        return (rng.standard_normal(size=dims) * 100).astype(dt)
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max, size=dims, dtype=dt, endpoint=True)


@st.composite
def layouts(draw, min_dim=0, max_rank=4):
    rank = draw(st.integers(0, max_rank))
    dims = draw(st.lists(st.integers(min_dim, 4), min_size=rank, max_size=rank))
    m2m = draw(st.permutations(list(range(rank))))
    padded = None
    if draw(st.booleans()):
        padded = [d + draw(st.integers(0, 2)) for d in dims]
    return dims, list(m2m), padded


# ---------------------------------------------------------------- XLA's published behaviour
def test_index_util_published_examples():
    col = xla.Shape("f32", [10, 20], xla.Layout([0, 1]))
    row = xla.make_shape("F32", [10, 20])
    assert xla.multidimensional_index_to_linear_index(col, (3, 5)) == 53
    assert xla.multidimensional_index_to_linear_index(row, (3, 5)) == 65
    assert xla.linear_index_to_multidimensional_index(col, 53) == (3, 5)
    assert xla.linear_index_to_multidimensional_index(row, 65) == (3, 5)
    s = xla.Shape.parse("F32[5,8,10,4]{3,2,1,0}")
    assert xla.dimension_stride(s, 1) == 40
    assert [xla.dimension_stride(s, d) for d in range(4)] == [320, 40, 4, 1]


def test_spec_padded_example():
    # f32[2,3] padded [3,5], minor_to_major {0,1}: a d 0 b e 0 c f 0 0 0 0 0 0 0
    a, b, c, d, e, f = 1, 2, 3, 4, 5, 6
    x = np.array([[a, b, c], [d, e, f]], dtype=np.float32)
    s = xla.Shape("f32", [2, 3], xla.Layout([0, 1], padded_dimensions=[3, 5]))
    phys = xla.to_physical(x, s)
    assert phys.dtype == np.float32 and phys.shape == (15,)
    assert phys.tolist() == [a, d, 0, b, e, 0, c, f, 0, 0, 0, 0, 0, 0, 0]
    assert s.byte_size == 60 and s.element_count == 6 and s.physical_element_count == 15
    assert s.strides == (1, 3)
    # the seed's column-major and row-major examples without padding
    assert xla.to_physical(x, "f32[2,3]{0,1}").tolist() == [a, d, b, e, c, f]
    assert xla.to_physical(x, "f32[2,3]{1,0}").tolist() == [a, b, c, d, e, f]


# ---------------------------------------------------------------- types, text, validation
def test_enums_and_strings():
    assert issubclass(xla.PrimitiveType, int)
    assert [t.name for t in xla.PrimitiveType] == [n.upper() for n in TYPES]
    assert xla.PrimitiveType.PRED == 1 and xla.PrimitiveType.F32 == 11
    assert [p.name for p in xla.PaddingValue] == PADS
    for t in TYPES:
        for spelled in (t, t.upper()):
            assert xla.Shape(spelled, [2]).element_type == xla.PrimitiveType[t.upper()]
        assert xla.Shape(t, [3]).byte_size == 3 * SIZES[t]
        assert xla.Shape(t, [3]).dtype == np.dtype(TYPES[t])
    for p in PADS:
        for spelled in (p, p.lower()):
            assert xla.Layout([0], [2], spelled).padding_value == xla.PaddingValue[p]
    assert xla.Layout([0], [2], xla.PaddingValue.ONE_PAD).padding_value == xla.PaddingValue.ONE_PAD
    with pytest.raises(sd.ValidationError, match="f128"):
        xla.Shape("f128", [2])
    with pytest.raises(sd.ValidationError, match="INVALID_PAD"):
        xla.Layout([0], None, 0)
    with pytest.raises(sd.ValidationError):
        xla.Layout([0], None, "invalid_pad")


@pytest.mark.parametrize(
    "text", ["f32[2,3]{0,1}", "f32[2,3]{1,0}", "pred[]", "s8[0,4]{0,1}", "u64[1,2,3,4]{2,0,3,1}", "f16[7]{0}"]
)
def test_parse_str_round_trip(text):
    s = xla.Shape.parse(text)
    assert str(s) == text
    assert xla.Shape.parse(str(s)) == s


def test_text_form():
    assert str(xla.make_shape("f32", [2, 3])) == "f32[2,3]{1,0}"  # default layout printed
    assert str(xla.Shape("F64", [])) == "f64[]"
    assert xla.Shape.parse("F32[2,3]") == xla.make_shape("f32", [2, 3])
    assert xla.Shape.parse(" s16 [ 2 , 3 ] { 0 , 1 } ") == xla.make_shape_with_layout("s16", [2, 3], [0, 1])
    padded = xla.Shape("f32", [2, 3], xla.Layout([0, 1], [3, 5]))
    assert str(padded) == "f32[2,3]{0,1}" and str(padded.layout) == "{0,1}"  # padding has no text form
    for bad in ["f32[2,3", "f32(2)", "f32[2,3]{0,1", "f32[2,3]{0,1}x", "[2]", "f32[a]", "f32[2,-1]"]:
        with pytest.raises(sd.ValidationError, match="Shape.parse"):
            xla.Shape.parse(bad)
    with pytest.raises(sd.ValidationError, match="Shape.layout.minor_to_major"):
        xla.Shape.parse("f32[2,3]{1,1}")


def test_validate_rules():
    ok = xla.Shape("f32", [2, 3], xla.Layout([0, 1], [2, 3]))
    ok.validate()
    cases = [
        (xla.Shape("f32", [2, 3], [0]), r"Shape\.layout\.minor_to_major: must have one entry per dimension"),
        (xla.Shape("f32", [2, 3], [0, 2]), r"Shape\.layout\.minor_to_major\[1\]: 2 is not a dimension"),
        (xla.Shape("f32", [2, 3], [1, 1]), r"Shape\.layout\.minor_to_major: not a permutation"),
        (xla.Shape("f32", [2, -1]), r"Shape\.dimensions\[1\]: must be >= 0"),
        (
            xla.Shape("f32", [2, 3], xla.Layout([1, 0], [2])),
            r"Shape\.layout\.padded_dimensions: must have one entry per dimension",
        ),
        (
            xla.Shape("f32", [2, 3], xla.Layout([1, 0], [2, 2])),
            r"Shape\.layout\.padded_dimensions\[1\]: 2 is less than the dimension 3",
        ),
        (xla.Shape("f64", [2**40, 2**21]), r"Shape\.dimensions: the buffer size overflows"),
        (xla.Shape("f32", [2**62, 2]), r"overflows"),
    ]
    for shape, msg in cases:
        with pytest.raises(sd.ValidationError, match=msg):
            shape.validate()
        with pytest.raises(ValueError, match=msg):  # every computation validates first
            shape.byte_size
    xla.Shape("f32", [2**62, 0]).validate()  # an empty array overflows nothing
    assert xla.Shape("f32", [2**62, 0]).byte_size == 0
    with pytest.raises(sd.ValidationError, match="make_shape_with_layout.layout.minor_to_major"):
        xla.make_shape_with_layout("f32", [2, 3], [0, 0])
    with pytest.raises(sd.ValidationError, match=r"make_shape\.dimensions\[0\]"):
        xla.make_shape("f32", [-2])
    with pytest.raises(TypeError):
        xla.Shape("f32", ["a"])


def test_layout_helpers_and_value_semantics():
    assert xla.default_layout(3) == xla.Layout([2, 1, 0])
    assert xla.default_layout(0).minor_to_major == ()
    assert xla.make_layout_from_major_to_minor([0, 2, 1]).minor_to_major == (1, 2, 0)
    with pytest.raises(sd.ValidationError, match="make_layout_from_major_to_minor.major_to_minor"):
        xla.make_layout_from_major_to_minor([0, 0])
    lay = xla.Layout([0, 1], padded_dimensions=[3, 5], padding_value="one_pad")
    assert lay.minor_to_major == (0, 1) and lay.padded_dimensions == (3, 5)
    assert xla.Layout([0, 1]).padded_dimensions is None
    s = xla.Shape("f32", [2, 3], lay)
    assert s.rank == 2 and s.dimensions == (2, 3) and s.layout == lay
    assert s.element_type is xla.PrimitiveType.F32
    same = xla.Shape(xla.PrimitiveType.F32, (2, 3), xla.Layout((0, 1), (3, 5), xla.PaddingValue.ONE_PAD))
    assert s == same and hash(s) == hash(same) and len({s, same}) == 1
    assert s != xla.Shape("f32", [2, 3], xla.Layout([0, 1], [3, 5]))  # padding value differs
    assert s != "f32[2,3]{0,1}"
    ns = {"Shape": xla.Shape, "Layout": xla.Layout}
    for obj in (s, xla.make_shape("u8", [4]), xla.Shape("pred", []), lay):
        assert eval(repr(obj), ns) == obj
        assert pickle.loads(pickle.dumps(obj)) == obj
    assert xla.Shape("f32", [2, 3], None) == xla.make_shape("f32", [2, 3])


def test_tensor_desc():
    s = xla.Shape("f32", [2, 3], xla.Layout([0, 1], [3, 5]))
    d = s.tensor_desc()
    assert isinstance(d, sd.TensorDesc)
    assert d.dtype == sd.DataType.FLOAT32 and d.sizes == (2, 3) and d.strides == (1, 3)
    assert d.total_bytes == 60
    expect = {
        "pred": "UINT8",
        "s8": "INT8",
        "s16": "INT16",
        "s32": "INT32",
        "s64": "INT64",
        "u8": "UINT8",
        "u16": "UINT16",
        "u32": "UINT32",
        "u64": "UINT64",
        "f16": "FLOAT16",
        "f32": "FLOAT32",
        "f64": "FLOAT64",
    }
    for t, name in expect.items():
        assert xla.make_shape(t, [4]).tensor_desc().dtype == sd.DataType[name]
    assert xla.Shape.parse("f32[]").tensor_desc().sizes == (1,)
    assert xla.Shape.parse("u8[3]").tensor_desc().total_bytes == 4  # DirectML's minimum (rounded to 4)
    with pytest.raises(sd.ValidationError, match=r"dimensions\[1\] is 0"):
        xla.make_shape("f32", [2, 0]).tensor_desc()
    with pytest.raises(sd.ValidationError, match="8 dimensions"):
        xla.make_shape("f32", [1] * 9).tensor_desc()


def test_index_errors():
    s = xla.Shape("f32", [2, 3], xla.Layout([0, 1], [3, 5]))
    with pytest.raises(sd.ValidationError, match=r"multidimensional_index_to_linear_index\.index: must have one"):
        xla.multidimensional_index_to_linear_index(s, (1,))
    with pytest.raises(sd.ValidationError, match=r"index\[1\]: 3 is out of range \[0, 3\)"):
        xla.multidimensional_index_to_linear_index(s, (1, 3))
    with pytest.raises(sd.ValidationError, match="outside the buffer"):
        xla.linear_index_to_multidimensional_index(s, 15)
    with pytest.raises(sd.ValidationError, match="outside the buffer"):
        xla.linear_index_to_multidimensional_index(s, -1)
    with pytest.raises(IndexError, match="padding"):
        xla.linear_index_to_multidimensional_index(s, 2)  # row 2 of the 3 padded rows
    with pytest.raises(sd.ValidationError, match=r"bump_indices\.index\[0\]"):
        xla.bump_indices(s, (2, 0))
    with pytest.raises(sd.ValidationError, match=r"dimension_stride\.dim: 2 is out of range"):
        xla.dimension_stride(s, 2)
    assert xla.bump_indices("f32[]", ()) is None
    assert xla.multidimensional_index_to_linear_index("f32[]", ()) == 0


# ---------------------------------------------------------------- padding values and data movement
@pytest.mark.parametrize("t", list(TYPES))
@pytest.mark.parametrize("pad", PADS)
def test_each_padding_value(t, pad):
    rng = np.random.default_rng(7)
    x = sample(t, (3, 2, 4), rng)
    m2m, padded = [1, 0, 2], [4, 3, 6]
    s = xla.Shape(t, [3, 2, 4], xla.Layout(m2m, padded, pad))
    got = xla.to_physical(x, s)
    want = ref_physical(x, m2m, padded, pad_value(t, pad))
    assert got.dtype == np.dtype(TYPES[t]) and got.shape == (72,)
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))  # bit-exact
    np.testing.assert_array_equal(xla.from_physical(got, s), x)
    # relayout into the padded layout from a packed buffer fills the same padding
    np.testing.assert_array_equal(
        xla.relayout(x.tobytes(), xla.make_shape(t, [3, 2, 4]), s).view(np.uint8), want.view(np.uint8)
    )


def test_float_bits_survive():
    bits = np.array([0x7E01, 0x8000, 0xFC00, 0x0001, 0x3C00, 0x7C00], dtype=np.uint16)
    x = bits.view(np.float16).reshape(2, 3)
    s = xla.Shape("f16", [2, 3], xla.Layout([0, 1], [2, 4], "HIGHEST_PAD"))
    phys = xla.to_physical(x, s)
    assert phys.view(np.uint16).tolist() == [0x7E01, 0x0001, 0x8000, 0x3C00, 0xFC00, 0x7C00, 0x7C00, 0x7C00]
    back = xla.relayout(phys, s, "f16[2,3]")
    assert back.view(np.uint16).tolist() == bits.tolist()


def test_to_physical_inputs():
    s = xla.Shape("s32", [3, 4], [0, 1])
    base = np.arange(24, dtype=np.int32).reshape(6, 4)
    x = base[::-2]  # negative, non-contiguous strides
    np.testing.assert_array_equal(xla.to_physical(x, s), ref_physical(x, [0, 1], None, 0))
    np.testing.assert_array_equal(xla.to_physical(x.tolist(), s), ref_physical(x, [0, 1], None, 0))
    with pytest.raises(sd.ValidationError, match=r"to_physical\.x: dtype int64 does not match s32"):
        xla.to_physical(x.astype(np.int64), s)
    with pytest.raises(sd.ValidationError, match=r"to_physical\.x: shape \[4, 3\]"):
        xla.to_physical(x.T, s)
    with pytest.raises(sd.ValidationError, match="to_physical.x: dtype"):
        xla.to_physical(np.zeros(3, np.uint8), "pred[3]")  # PRED is numpy bool
    assert xla.to_physical(np.array([True, False]), "pred[2]").dtype == np.bool_
    assert xla.to_physical(np.float32(2.5), "f32[]").tolist() == [2.5]
    assert xla.to_physical(
        np.zeros((0, 3), np.float32), xla.Shape("f32", [0, 3], xla.Layout([1, 0], [1, 3], "ONE_PAD"))
    ).tolist() == [1, 1, 1]


def test_from_physical_is_a_view():
    s = xla.Shape("f32", [2, 3], xla.Layout([0, 1], [3, 5]))
    buf = bytearray(60)
    v = xla.from_physical(buf, s)
    assert v.shape == (2, 3) and v.strides == (4, 12) and v.flags.writeable
    v[1, 2] = 7.0
    assert np.frombuffer(buf, np.float32)[xla.multidimensional_index_to_linear_index(s, (1, 2))] == 7.0
    assert not xla.from_physical(bytes(60), s).flags.writeable
    phys = np.zeros(15, np.float32)
    assert np.shares_memory(xla.from_physical(phys, s), phys)
    with pytest.raises(BufferError, match="from_physical.buffer: buffer of 56 bytes is shorter than"):
        xla.from_physical(bytearray(56), s)
    with pytest.raises(BufferError, match="C-contiguous"):
        xla.from_physical(np.zeros(30, np.float32)[::2], s)
    with pytest.raises(TypeError, match="from_physical.buffer"):
        xla.from_physical([0.0] * 15, s)
    assert xla.from_physical(b"", "f32[0,3]").shape == (0, 3)


def test_relayout_errors():
    buf = np.zeros(6, np.float32)
    with pytest.raises(sd.ValidationError, match=r"relayout\.dst_shape\.element_type: s32 differs"):
        xla.relayout(buf, "f32[2,3]", "s32[2,3]")
    with pytest.raises(sd.ValidationError, match=r"relayout\.dst_shape\.dimensions"):
        xla.relayout(buf, "f32[2,3]", "f32[3,2]")
    with pytest.raises(sd.ValidationError, match=r"relayout\.src_shape\.layout\.minor_to_major"):
        xla.relayout(buf, xla.Shape("f32", [2, 3], [0]), "f32[2,3]")
    with pytest.raises(BufferError, match="shorter than the shape's byte size 24"):
        xla.relayout(buf[:5], "f32[2,3]", "f32[2,3]{0,1}")


# ---------------------------------------------------------------- property-based round trips
@settings(max_examples=80, deadline=None)
@given(layouts(), st.data())
def test_linear_multidimensional_round_trip(lay, data):
    dims, m2m, padded = lay
    s = xla.Shape("f32", dims, xla.Layout(m2m, padded))
    ext = padded or dims
    for idx in np.ndindex(*dims):
        lin = xla.multidimensional_index_to_linear_index(s, idx)
        assert lin == ref_linear(idx, m2m, ext)
        assert xla.linear_index_to_multidimensional_index(s, lin) == tuple(idx)
    assert s.strides == tuple(xla.dimension_stride(s, d) for d in range(len(dims)))
    total = int(np.prod(ext))
    assert s.physical_element_count == total and s.byte_size == 4 * total
    if total:  # every physical offset is a logical element or lies in the padding
        lin = data.draw(st.integers(0, total - 1))
        major = list(reversed(m2m))
        coords = np.unravel_index(lin, tuple(ext[d] for d in major))
        idx = [0] * len(dims)
        for d, c in zip(major, coords):
            idx[d] = int(c)
        if all(i < n for i, n in zip(idx, dims)):
            assert xla.linear_index_to_multidimensional_index(s, lin) == tuple(idx)
        else:
            with pytest.raises(IndexError, match="padding"):
                xla.linear_index_to_multidimensional_index(s, lin)


@settings(max_examples=60, deadline=None)
@given(layouts(min_dim=1))
def test_bump_indices_walks_row_major(lay):
    dims, m2m, padded = lay
    s = xla.Shape("s8", dims, xla.Layout(m2m, padded))
    walk = [tuple([0] * len(dims))]
    while (nxt := xla.bump_indices(s, walk[-1])) is not None:
        walk.append(nxt)
    assert walk == list(np.ndindex(*dims))


@settings(max_examples=80, deadline=None)
@given(layouts(), st.sampled_from(list(TYPES)), st.sampled_from(PADS), st.integers(0, 2**32 - 1))
def test_to_physical_from_physical_round_trip(lay, t, pad, seed):
    dims, m2m, padded = lay
    x = sample(t, dims, np.random.default_rng(seed))
    s = xla.Shape(t, dims, xla.Layout(m2m, padded, pad))
    phys = xla.to_physical(x, s)
    want = ref_physical(x, m2m, padded, pad_value(t, pad))
    np.testing.assert_array_equal(phys.view(np.uint8), want.view(np.uint8))
    back = xla.from_physical(phys, s)
    assert back.shape == x.shape and back.dtype == x.dtype
    np.testing.assert_array_equal(back, x)


@settings(max_examples=80, deadline=None)
@given(
    layouts(),
    st.permutations([0, 1, 2, 3]),
    st.lists(st.integers(0, 2), min_size=4, max_size=4),
    st.sampled_from(["f32", "s16", "u8", "f64", "pred"]),
    st.sampled_from(PADS),
    st.integers(0, 2**32 - 1),
)
def test_relayout_matches_numpy(lay, perm, extra, t, pad, seed):
    dims, m2m, padded = lay
    rank = len(dims)
    dst_m2m = [p for p in perm if p < rank]
    dst_padded = [d + e for d, e in zip(dims, extra)]
    x = sample(t, dims, np.random.default_rng(seed))
    src = xla.Shape(t, dims, xla.Layout(m2m, padded, "HIGHEST_PAD"))
    dst = xla.Shape(t, dims, xla.Layout(dst_m2m, dst_padded, pad))
    src_buf = ref_physical(x, m2m, padded, pad_value(t, "HIGHEST_PAD"))
    got = xla.relayout(src_buf, src, dst)
    want = ref_physical(x, dst_m2m, dst_padded, pad_value(t, pad))
    assert got.dtype == np.dtype(TYPES[t]) and got.shape == want.shape
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))
    # and back into the source layout
    np.testing.assert_array_equal(xla.relayout(got, dst, src).view(np.uint8), src_buf.view(np.uint8))


@settings(max_examples=60, deadline=None)
@given(layouts(), st.sampled_from(list(TYPES)))
def test_parse_str_round_trip_random(lay, t):
    dims, m2m, _ = lay
    s = xla.Shape(t, dims, m2m)
    assert xla.Shape.parse(str(s)) == s
    assert xla.Shape.parse(str(s).upper()) == s


def test_relayout_from_many_threads():
    # The copies run without the GIL; concurrent calls must not interfere.
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(3)
    x = rng.standard_normal((64, 48, 5)).astype(np.float32)
    src = xla.make_shape("f32", x.shape)
    dsts = [
        xla.Shape("f32", x.shape, xla.Layout(list(p), [65, 50, 5 + i % 2], PADS[i % 4]))
        for i, p in enumerate([(0, 1, 2), (2, 1, 0), (1, 0, 2), (0, 2, 1)] * 4)
    ]
    with ThreadPoolExecutor(4) as ex:
        results = list(ex.map(lambda d: xla.relayout(x, src, d), dsts))
    for d, got in zip(dsts, results):
        lay = d.layout
        want = ref_physical(x, lay.minor_to_major, lay.padded_dimensions, pad_value("f32", lay.padding_value.name))
        np.testing.assert_array_equal(got, want)
