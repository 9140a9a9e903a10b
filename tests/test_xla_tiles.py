"""XLA tiled layouts (SPEC.md section 5.1) against SPEC's worked examples and an independent
reference written here: SPEC's ``linear(e, d, t)`` applied tile by tile with numpy index arrays
(``*`` merges a dimension into the next more minor one, each covered dimension becomes
(count, size), sizes move minor), and the physical buffer built element by element from it."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

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
PADS = ["ZERO_PAD", "ONE_PAD", "LOWEST_PAD", "HIGHEST_PAD", "UNKNOWN_PAD"]


# ---------------------------------------------------------------- the independent reference
def ref_tiled(index, dims, m2m, tiles):
    """(physical index, physical bounds) of a logical index (arrays allowed) under the tiles."""
    e = [np.asarray(index[d], dtype=np.int64) for d in reversed(m2m)]
    b = [int(dims[d]) for d in reversed(m2m)]
    for t in tiles:
        k = len(t)
        if k > len(b):  # missing major dimensions count as size 1
            e = [np.zeros_like(e[0]) if e else np.int64(0)] * (k - len(b)) + e
            b = [1] * (k - len(b)) + b
        ue, ub = e[: len(b) - k], b[: len(b) - k]
        ce, cb, ct = [], [], []
        acc_e, acc_b = np.int64(0), 1
        for j, tj in enumerate(t):
            acc_e = acc_e * b[len(b) - k + j] + e[len(b) - k + j]
            acc_b *= b[len(b) - k + j]
            if tj == "*":
                continue
            ce.append(acc_e)
            cb.append(acc_b)
            ct.append(tj)
            acc_e, acc_b = np.int64(0), 1
        e = ue + [x // t_ for x, t_ in zip(ce, ct)] + [x % t_ for x, t_ in zip(ce, ct)]
        b = ub + [-(-x // t_) for x, t_ in zip(cb, ct)] + ct
    return e, b


def ref_linear(index, dims, m2m, tiles):
    e, b = ref_tiled(index, dims, m2m, tiles)
    lin = np.int64(0)
    for x, n in zip(e, b):  # row-major over the physical bounds
        lin = lin * n + x
    return lin


def ref_size(dims, m2m, tiles):
    return math.prod(ref_tiled([0] * len(dims), dims, m2m, tiles)[1])


def ref_stride(dims, m2m, tiles, d):
    """SPEC 5.1's dimension_stride: None for a dimension some tile covers."""
    pos, rank = list(reversed(m2m)).index(d), len(dims)
    for t in tiles:
        lead = max(0, len(t) - rank)
        pos, rank = pos + lead, rank + lead
        if pos >= rank - len(t):
            return None
        rank += len(t) - t.count("*")  # uncovered dimensions stay in front
    bounds = ref_tiled([0] * len(dims), dims, m2m, tiles)[1]
    return math.prod(bounds[pos + 1 :])


def pad_value(t, pad):
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


def ref_physical(x, m2m, tiles, fill):
    buf = np.full(ref_size(x.shape, m2m, tiles), fill, dtype=x.dtype)
    if x.ndim == 0:
        buf[ref_linear([], (), m2m, tiles)] = x
    elif x.size:
        idx = np.indices(x.shape).reshape(x.ndim, -1)
        buf[ref_linear(list(idx), x.shape, m2m, tiles)] = x.reshape(-1)
    return buf


def sample(t, dims, rng):
    dt = np.dtype(TYPES[t])
    if dt == np.bool_:
        return rng.integers(0, 2, size=dims).astype(bool)
    if dt.kind == "f":
        return (rng.standard_normal(size=dims) * 100).astype(dt)
    info = np.iinfo(dt)
    return rng.integers(max(info.min, -1000), min(info.max, 1000), size=dims, endpoint=True).astype(dt)


def tiles_text(tiles):
    return "".join("(" + ",".join(str(v) for v in t) + ")" for t in tiles)


def shape_of(t, dims, m2m, tiles, pad="ZERO_PAD"):
    return xla.Shape(t, dims, xla.Layout(m2m, padding_value=pad, tiles=tiles))


# (dims, minor_to_major, tiles): partial tiles, sub-tiles, '*', tiles longer than the rank.
CASES = [
    ([3, 5], [1, 0], [(2, 2)]),
    ([4, 8], [1, 0], [(2, 4), (2, 1)]),
    ([2, 3, 4], [0, 1, 2], [(512,)]),
    ([5, 3, 5], [2, 1, 0], [(2, 2)]),
    ([3, 7], [0, 1], [(4, 2)]),
    ([2, 3, 10], [2, 1, 0], [(2, "*", 4)]),
    ([2, 3, 5, 6], [3, 2, 1, 0], [(2, "*", "*", 4)]),
    ([2, 7, 8, 11, 10], [4, 3, 2, 1, 0], [("*", "*", 2, "*", 3)]),
    ([5], [0], [(2, 3)]),
    ([6, 6], [0, 1], [(4, 4), (2, 2)]),
    ([3, 9], [1, 0], [(2, 8), (2, 4), (1, 2)]),
    ([4, 6], [1, 0], [(4, 6), ("*", 6)]),
    ([7, 5, 3], [1, 2, 0], [(3,)]),
]


# ---------------------------------------------------------------- SPEC 5.1's worked examples
def test_spec_example_3x5_t22():
    s = xla.Shape.parse("f32[3,5]{1,0:T(2,2)}")
    assert xla.multidimensional_index_to_linear_index(s, (2, 3)) == 17
    rows = [[xla.multidimensional_index_to_linear_index(s, (r, c)) for c in range(5)] for r in range(3)]
    assert rows == [[0, 1, 4, 5, 8], [2, 3, 6, 7, 10], [12, 13, 16, 17, 20]]
    assert s.byte_size == 96 == 4 * 6 * 4
    assert xla.linear_index_to_multidimensional_index(s, 17) == (2, 3)


def test_spec_example_interleaved_subtile():
    s = xla.Shape.parse("f32[4,8]{1,0:T(2,4)(2,1)}")
    for r in range(4):
        for c in range(8):
            want = ((r // 2) * 2 + c // 4) * 8 + (c % 4) * 2 + r % 2
            assert xla.multidimensional_index_to_linear_index(s, (r, c)) == want
    rows = [[xla.multidimensional_index_to_linear_index(s, (r, c)) for c in range(8)] for r in range(4)]
    assert rows[0] == list(range(0, 16, 2)) and rows[1] == list(range(1, 16, 2))
    assert rows[2] == list(range(16, 32, 2)) and rows[3] == list(range(17, 32, 2))
    x = np.arange(32, dtype=np.float32).reshape(4, 8)
    buf = xla.to_physical(x, s)
    np.testing.assert_array_equal(buf[rows[1]], x[1])


def test_spec_example_t512_and_stride():
    s = xla.Shape.parse("f32[2,3,4]{0,1,2:T(512)}")
    assert s.byte_size == 24576 == 512 * 3 * 4 * 4
    assert xla.multidimensional_index_to_linear_index(s, (1, 2, 3)) == 5633
    assert xla.dimension_stride("f32[5,3,5]{2,1,0:T(2,2)}", 0) == 24


def test_spec_example_star_merge():
    star = shape_of("f32", [2, 7, 8, 11, 10], [4, 3, 2, 1, 0], [("*", "*", 2, "*", 3)])
    flat = xla.Shape.parse("f32[112,110]{1,0:T(2,3)}")
    assert star.byte_size == flat.byte_size == 112 * 111 * 4
    idx = np.indices((2, 7, 8, 11, 10)).reshape(5, -1).T
    for e in idx[::97]:
        merged = ((e[0] * 7 + e[1]) * 8 + e[2], e[3] * 10 + e[4])
        assert xla.multidimensional_index_to_linear_index(star, tuple(e)) == xla.multidimensional_index_to_linear_index(
            flat, merged
        )
    x = np.random.default_rng(0).standard_normal((2, 7, 8, 11, 10)).astype(np.float32)
    np.testing.assert_array_equal(xla.to_physical(x, star), xla.to_physical(x.reshape(112, 110), flat))


# ---------------------------------------------------------------- the text form
ROUND_TRIP = [
    "f32[2,3,4]{0,1,2:T(512)}",
    "f32[3,5]{1,0:T(2,2)}",
    "pred[8,8,8]{0,2,1:T(8,128)}",
    "f16[2,3,4]{1,2,0:T(16,256)(2,1)}",
    "f16[2,3,1004]{2,1,0:T(2,*,128)}",
    "f32[8,2,3,1004]{3,2,1,0:T(2,*,*,128)}",
    "f32[]{:T(256)}",
    "f32[3,5]{1,0:T(2,2)E(32)}",
    "pred[8]{0:E(8)}",
    "u16[4,4]{0,1:T(2,2)(1,2)E(16)}",
]


@pytest.mark.parametrize("text", ROUND_TRIP)
def test_text_round_trip(text):
    s = xla.Shape.parse(text)
    assert str(s) == text
    assert xla.Shape.parse(str(s)) == s
    assert pickle.loads(pickle.dumps(s)) == s
    assert eval(repr(s), {"Shape": xla.Shape, "Layout": xla.Layout}) == s


def test_text_fields():
    s = xla.Shape.parse("f32[8,2,3,1004]{3,2,1,0:T(2,*,*,128)}")
    assert s.layout.tiles == ((2, "*", "*", 128),)
    assert s.layout.element_size_in_bits == 0
    assert s == shape_of("f32", [8, 2, 3, 1004], [3, 2, 1, 0], [(2, "*", "*", 128)])
    assert hash(s) == hash(shape_of("f32", [8, 2, 3, 1004], [3, 2, 1, 0], [(2, "*", "*", 128)]))
    assert s != xla.Shape.parse("f32[8,2,3,1004]{3,2,1,0:T(2,*,*,64)}")
    assert xla.Shape.parse("f32[3,5]{1,0:T(2,2)E(32)}").layout.element_size_in_bits == 32
    assert xla.Shape.parse(" f32[3, 5] { 1 , 0 : T( 2 , 2 ) ( 1 , 1 ) } ") == shape_of(
        "f32", [3, 5], [1, 0], [(2, 2), (1, 1)]
    )
    assert str(xla.Shape.parse("f32[]")) == "f32[]"


@pytest.mark.parametrize(
    "text, match",
    [
        ("pred[8,8,8]{0,2,1:T(8,128)E(32)}", r"element_size_in_bits: must be 0 or pred's natural 8, got 32"),
        ("f32[3,5]{1,0:E(16)}", r"element_size_in_bits: must be 0 or f32's natural 32"),
        ("f32[3,5]{1,0:S(1)}", r"layout attribute 'S' is not supported"),
        ("f32[3,5]{1,0:T(2,2)S(1)}", r"layout attribute 'S' is not supported"),
        ("f32[3,5]{1,0:E(32)T(2,2)}", r"layout attribute 'T' is not supported"),
        ("f32[3,5]{1,0:T(2,0)}", r"tiles\[0\]\[1\]: tile size must be positive or '\*', got 0"),
        ("f32[3,5]{1,0:T(2,*)}", r"tiles\[0\]\[1\]: '\*' must be followed"),
        ("f32[3,5]{1,0:T()}", r"expected a tile size or '\*'"),
        ("f32[3,5]{1,0:T}", r"expected '\(' after T"),
        ("f32[3,5]{1,0:T(2,2}", r"expected '\)'"),
        ("f32[3,5]{1,0:T(a)}", r"expected a tile size"),
        ("f32[3,5]{1,0:T(2,-2)}", r"expected a tile size"),
        ("f32[4,8]{1,0:T(2,4)(3,1)}", r"tiles\[1\]: tile size 3 does not divide the dimension 2"),
        ("f32[3,5]{1,0:T(2,2)", r"expected '\}'"),
        ("f32[3,5]{1:T(2,2)}", r"minor_to_major: must have one entry per dimension"),
        ("f32[3,5]{1,0:T(99999999999999999999)}", r"63 bits"),
    ],
)
def test_text_rejected(text, match):
    with pytest.raises(sd.ValidationError, match=match):
        xla.Shape.parse(text)


# ---------------------------------------------------------------- construction rules
def test_layout_rules():
    with pytest.raises(sd.ValidationError, match=r"Shape\.layout\.tiles: a layout has padded_dimensions or tiles"):
        xla.Shape("f32", [3, 5], xla.Layout([1, 0], padded_dimensions=[4, 6], tiles=[(2, 2)])).validate()
    with pytest.raises(sd.ValidationError, match=r"tiles\[0\]\[0\]: tile size must be positive or '\*', got 0"):
        shape_of("f32", [3, 5], [1, 0], [(0, 2)]).validate()
    with pytest.raises(sd.ValidationError, match=r"tiles\[0\]\[1\]: tile size must be positive or '\*', got -1"):
        shape_of("f32", [3, 5], [1, 0], [(2, -1)]).validate()
    with pytest.raises(sd.ValidationError, match=r"tiles\[1\]: tile size 4 does not divide the dimension 2"):
        shape_of("f32", [4, 8], [1, 0], [(2, 4), (4, 1)]).validate()
    with pytest.raises(sd.ValidationError, match=r"tiles\[0\]: a tile has at least one entry"):
        shape_of("f32", [4, 8], [1, 0], [()]).validate()
    with pytest.raises(sd.ValidationError, match=r"Layout\.tiles\[0\]\[0\]: expected a size or '\*', got 'x'"):
        xla.Layout([1, 0], tiles=[("x", 2)])
    with pytest.raises(TypeError, match=r"Layout\.tiles: expected a sequence of tiles"):
        xla.Layout([1, 0], tiles="T(2,2)")
    with pytest.raises(TypeError, match=r"Layout\.tiles\[0\]: expected a tuple"):
        xla.Layout([1, 0], tiles=[2])
    with pytest.raises(sd.ValidationError, match=r"element_size_in_bits: must be 0 or pred's natural 8, got 32"):
        xla.Shape("pred", [8], xla.Layout([0], element_size_in_bits=32)).validate()
    # Every computation validates first.
    bad = shape_of("f32", [3, 5], [1, 0], [(0, 2)])
    for fn in (
        lambda: bad.byte_size,
        lambda: xla.multidimensional_index_to_linear_index(bad, (0, 0)),
        lambda: xla.to_physical(np.zeros((3, 5), np.float32), bad),
        lambda: xla.relayout(np.zeros(15, np.float32), "f32[3,5]", bad),
    ):
        with pytest.raises(sd.ValidationError, match="tile size must be positive"):
            fn()


def test_no_single_stride():
    s = xla.Shape.parse("f32[5,3,5]{2,1,0:T(2,2)}")
    with pytest.raises(sd.ValidationError, match=r"dimension_stride\.dim: dimension 1 .* covered by tile 0"):
        xla.dimension_stride(s, 1)
    with pytest.raises(sd.ValidationError, match=r"dimension_stride\.dim: dimension 2 .* covered by tile 0"):
        xla.dimension_stride(s, 2)
    with pytest.raises(sd.ValidationError, match=r"Shape\.strides: .* is tiled"):
        _ = s.strides
    with pytest.raises(sd.ValidationError, match=r"Shape\.tensor_desc: .* is tiled"):
        s.tensor_desc()
    # A later tile can cover a dimension the first one does not.
    with pytest.raises(sd.ValidationError, match="covered by tile 1"):
        xla.dimension_stride(shape_of("f32", [4, 4, 4], [2, 1, 0], [(2,), (2, 2, 2)]), 1)
    assert xla.dimension_stride(shape_of("f32", [4, 4, 4], [2, 1, 0], [(2,), (2, 2, 2)]), 0) == 16


# ---------------------------------------------------------------- index functions vs the reference
@pytest.mark.parametrize("dims, m2m, tiles", CASES)
def test_index_functions(dims, m2m, tiles):
    s = shape_of("f32", dims, m2m, tiles)
    total = ref_size(dims, m2m, tiles)
    assert s.physical_element_count == total
    assert s.byte_size == 4 * total
    assert math.prod(s.physical_dimensions) == total
    idx = np.indices(dims).reshape(len(dims), -1)
    want = ref_linear(list(idx), dims, m2m, tiles)
    step = max(1, idx.shape[1] // 300)
    seen = set()
    for j in range(0, idx.shape[1], step):
        e = tuple(int(v) for v in idx[:, j])
        lin = xla.multidimensional_index_to_linear_index(s, e)
        assert lin == want[j], (e, lin, want[j])
        assert xla.linear_index_to_multidimensional_index(s, lin) == e
        seen.add(lin)
    # Every position that no element maps to is padding (IndexError); beyond the buffer, not.
    data = set(int(v) for v in want)
    assert len(data) == idx.shape[1]  # the reference is injective
    for lin in range(0, total, max(1, total // 300)):
        if lin not in data:
            with pytest.raises(IndexError, match="padding of a partial tile"):
                xla.linear_index_to_multidimensional_index(s, lin)
    with pytest.raises(sd.ValidationError, match="outside the buffer"):
        xla.linear_index_to_multidimensional_index(s, total)
    with pytest.raises(sd.ValidationError, match="outside the buffer"):
        xla.linear_index_to_multidimensional_index(s, -1)
    # dimension_stride of a dimension no tile covers: the product of the physical bounds after it.
    for d in range(len(dims)):
        want_stride = ref_stride(dims, m2m, tiles, d)
        if want_stride is None:
            with pytest.raises(sd.ValidationError, match="has no single stride"):
                xla.dimension_stride(s, d)
        else:
            assert xla.dimension_stride(s, d) == want_stride


def test_bump_indices_ignores_tiles():
    s = xla.Shape.parse("f32[2,3]{0,1:T(2,2)}")
    assert xla.bump_indices(s, (0, 2)) == (1, 0)
    assert xla.bump_indices(s, (1, 2)) is None


# ---------------------------------------------------------------- data movement vs the reference
@pytest.mark.parametrize("t", list(TYPES))
@pytest.mark.parametrize("pad", PADS)
def test_to_physical_types_and_pads(t, pad):
    rng = np.random.default_rng(len(t) * 7 + len(pad))
    for dims, m2m, tiles in ([3, 5], [1, 0], [(2, 2)]), ([3, 2, 5], [0, 2, 1], [(2, "*", 4), (2, 2)]):
        x = sample(t, dims, rng)
        s = shape_of(t, dims, m2m, tiles, pad)
        buf = xla.to_physical(x, s)
        assert buf.dtype == np.dtype(TYPES[t]) and buf.shape == (s.physical_element_count,)
        np.testing.assert_array_equal(buf, ref_physical(x, m2m, tiles, pad_value(t, pad)))
        back = xla.from_physical(buf, s)
        np.testing.assert_array_equal(back, x)
        assert back.dtype == x.dtype
        assert not np.shares_memory(back, buf)  # a copy for tiles


@pytest.mark.parametrize("dims, m2m, tiles", CASES)
def test_round_trips(dims, m2m, tiles):
    rng = np.random.default_rng(sum(dims))
    x = sample("s32", dims, rng)
    s = shape_of("s32", dims, m2m, tiles, "HIGHEST_PAD")
    buf = xla.to_physical(x, s)
    np.testing.assert_array_equal(buf, ref_physical(x, m2m, tiles, np.int32(2**31 - 1)))
    np.testing.assert_array_equal(xla.from_physical(buf, s), x)
    np.testing.assert_array_equal(xla.from_physical(buf.tobytes(), s), x)  # any buffer object
    # relayout: tiled -> row-major, -> column-major padded, -> another tiling, and back.
    row = xla.make_shape("s32", dims)
    np.testing.assert_array_equal(xla.relayout(buf, s, row), x.ravel())
    np.testing.assert_array_equal(xla.relayout(x.ravel(), row, s), buf)
    rev = list(reversed(m2m))
    padded = xla.Shape("s32", dims, xla.Layout(rev, [d + 1 for d in dims], "ONE_PAD"))
    via = xla.relayout(buf, s, padded)
    np.testing.assert_array_equal(via, xla.to_physical(x, padded))
    np.testing.assert_array_equal(xla.relayout(via, padded, s), buf)
    other = shape_of("s32", dims, rev, [(3,) * min(2, len(dims))], "LOWEST_PAD")
    o = xla.relayout(buf, s, other)
    np.testing.assert_array_equal(o, ref_physical(x, rev, [(3,) * min(2, len(dims))], np.int32(-(2**31))))
    np.testing.assert_array_equal(xla.relayout(o, other, s), buf)


def test_input_strides():
    rng = np.random.default_rng(5)
    base = sample("f64", [8, 12], rng)
    s = shape_of("f64", [4, 5], [0, 1], [(3, 2)], "ONE_PAD")
    for x in (base[::2, 1:11:2], base[::-2, ::-2][:4, :5], base.T[:5, :4].T, np.broadcast_to(base[0, :5], (4, 5))):
        assert x.shape == (4, 5)
        np.testing.assert_array_equal(
            xla.to_physical(x, s), ref_physical(np.ascontiguousarray(x), [0, 1], [(3, 2)], 1.0)
        )
    # '*' over a view that cannot merge its dimensions (goes through a dense temporary).
    st = shape_of("f64", [4, 5, 3], [2, 1, 0], [("*", 4)])
    x = base[:4, ::-1][:, :5, None] * np.ones(3)[None, None, :]
    x = x.transpose(0, 1, 2)[:, :, ::-1]
    np.testing.assert_array_equal(
        xla.to_physical(x, st), ref_physical(np.ascontiguousarray(x), [2, 1, 0], [("*", 4)], 0.0)
    )
    y = np.asfortranarray(x)
    np.testing.assert_array_equal(xla.to_physical(y, st), ref_physical(x, [2, 1, 0], [("*", 4)], 0.0))


def test_empty_and_scalar():
    s = xla.Shape.parse("f32[0,5]{1,0:T(2,2)}")
    assert s.byte_size == 0
    assert xla.to_physical(np.zeros((0, 5), np.float32), s).shape == (0,)
    assert xla.from_physical(b"", s).shape == (0, 5)
    assert xla.relayout(np.zeros(0, np.float32), s, "f32[0,5]").shape == (0,)
    sc = xla.Shape.parse("f32[]{:T(256)}")
    assert sc.byte_size == 1024 and sc.physical_dimensions == (1, 256)
    buf = xla.to_physical(np.float32(7.5), xla.Shape("f32", [], xla.Layout([], None, "ONE_PAD", [(256,)])))
    assert buf[0] == 7.5 and (buf[1:] == 1).all() and buf.shape == (256,)
    assert xla.from_physical(buf, sc).shape == () and float(xla.from_physical(buf, sc)) == 7.5
    assert xla.multidimensional_index_to_linear_index(sc, ()) == 0
    with pytest.raises(IndexError):
        xla.linear_index_to_multidimensional_index(sc, 1)


def test_buffer_errors():
    s = xla.Shape.parse("f32[3,5]{1,0:T(2,2)}")
    with pytest.raises(BufferError, match=r"from_physical\.buffer: buffer of 92 bytes is shorter than .* 96"):
        xla.from_physical(np.zeros(23, np.float32), s)
    with pytest.raises(BufferError, match=r"relayout\.src_buf"):
        xla.relayout(np.zeros(23, np.float32), s, "f32[3,5]")
    with pytest.raises(sd.ValidationError, match=r"to_physical\.x: shape \[5, 3\]"):
        xla.to_physical(np.zeros((5, 3), np.float32), s)
    with pytest.raises(sd.ValidationError, match=r"relayout\.dst_shape\.dimensions"):
        xla.relayout(np.zeros(24, np.float32), s, "f32[5,3]{1,0:T(2,2)}")


def test_describe_tiled():
    text = xla.Shape.parse("f32[3,5]{1,0:T(2,2)}").describe()
    assert "24 elements hold 15 logical elements" in text


def _random_layout(rng):
    rank = int(rng.integers(0, 4))
    dims = [int(rng.integers(1, 6)) for _ in range(rank)]
    m2m = [int(v) for v in rng.permutation(rank)]
    k = int(rng.integers(1, rank + 2))
    first = tuple("*" if j < k - 1 and rng.random() < 0.3 else int(rng.integers(1, 5)) for j in range(k))
    tiles = [first]
    if rng.random() < 0.5:  # a sub-tile dividing the first tile's sizes (its last dimensions)
        sizes = [t for t in first if t != "*"]
        j = int(rng.integers(1, len(sizes) + 1))
        tiles.append(tuple(int(rng.choice([d for d in range(1, s + 1) if s % d == 0])) for s in sizes[-j:]))
    return dims, m2m, tiles


def test_random_layouts_against_reference():
    rng = np.random.default_rng(1234)
    for _ in range(150):
        dims, m2m, tiles = _random_layout(rng)
        s = shape_of("u16", dims, m2m, tiles, "ONE_PAD")
        text = f"u16[{','.join(map(str, dims))}]{{{','.join(map(str, m2m))}:T{tiles_text(tiles)}}}"
        assert str(s) == text and xla.Shape.parse(text) == shape_of("u16", dims, m2m, tiles)  # no padding text
        assert s.physical_element_count == ref_size(dims, m2m, tiles)
        x = sample("u16", dims, rng)
        buf = xla.to_physical(x, s)
        np.testing.assert_array_equal(buf, ref_physical(x, m2m, tiles, np.uint16(1)), err_msg=text)
        np.testing.assert_array_equal(xla.from_physical(buf, s), x, err_msg=text)
        # relayout to another random layout of the same dimensions (tiled or not) and back
        m2 = [int(v) for v in rng.permutation(len(dims))]
        t2 = [tuple(int(v) for v in rng.integers(1, 5, size=int(rng.integers(1, 3))))] if rng.random() < 0.7 else []
        other = shape_of("u16", dims, m2, t2, "HIGHEST_PAD")
        o = xla.relayout(buf, s, other)
        np.testing.assert_array_equal(o, ref_physical(x, m2, t2, np.uint16(65535)) if t2 else xla.to_physical(x, other))
        np.testing.assert_array_equal(xla.relayout(o, other, s), buf, err_msg=f"{text} {other}")
        for e in np.ndindex(*dims):
            lin = ref_linear(list(e), dims, m2m, tiles)
            assert xla.multidimensional_index_to_linear_index(s, e) == lin, text
            assert xla.linear_index_to_multidimensional_index(s, int(lin)) == tuple(e), text


def test_long_tiles_and_overflow():
    # A tile longer than 32 entries (the pieces are counted per dimension with a partial tile).
    s = xla.Shape.parse("f32[3,2]{1,0:T(" + ",".join(["1"] * 40) + ",2)}")
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    assert s.byte_size == 24
    np.testing.assert_array_equal(xla.to_physical(x, s), x.ravel())
    np.testing.assert_array_equal(xla.from_physical(xla.to_physical(x, s), s), x)
    for text in ("f32[3]{0:T(9223372036854775807)}", "f32[3,5]{1,0:T(" + ",".join(["3"] * 40) + ",2)}"):
        with pytest.raises(sd.ValidationError, match="overflows 63 bits"):
            xla.Shape.parse(text)
