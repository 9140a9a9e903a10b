"""Padding / Padding1 (SPEC 3.6): numpy.pad as the independent reference (its constant, edge,
reflect, symmetric and wrap modes are SPEC's for every width), SPEC's examples, every dtype, SIMD
target and thread count, pads wider than the input, strides in and out, out= (numpy views, a torch
tensor in place), empty and 0-d arrays, ONNX Pad through onnx's reference evaluator, the
description's rules and feature levels (SPEC 4's rows and gates), compile/execute on buffers, and
misuse writing nothing."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import strided as sd
from conftest import ALL_DTYPES, random_array, same_bits

FL = sd.FeatureLevel
MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]


def np_pad(x, lo, hi, mode, value=0):
    kw = {"constant_values": value} if mode == "constant" else {}
    return np.pad(x, list(zip(lo, hi)), mode, **kw)


# ------------------------------------------------------------------ SPEC's examples


@pytest.mark.parametrize(
    "mode,want",
    [
        ("constant", [9, 9, 1, 2, 3, 4, 9, 9, 9, 9]),
        ("edge", [1, 1, 1, 2, 3, 4, 4, 4, 4, 4]),
        ("reflect", [3, 2, 1, 2, 3, 4, 3, 2, 1, 2]),
        ("symmetric", [2, 1, 1, 2, 3, 4, 4, 3, 2, 1]),
        ("wrap", [3, 4, 1, 2, 3, 4, 1, 2, 3, 4]),
    ],
)
def test_spec_1d_examples(mode, want) -> None:
    x = np.array([1, 2, 3, 4], np.float32)
    assert sd.pad(x, [2], [4], mode, 9).tolist() == want
    m = sd.PaddingMode[{"reflect": "REFLECTION"}.get(mode, mode.upper())]
    d = sd.PaddingDesc(sd.TensorDesc("float32", [4]), sd.TensorDesc("float32", [10]), m, 9, [2], [4])
    out = np.zeros(10, np.float32)
    sd.compile(d).execute([x], [out])
    assert out.tolist() == want


@pytest.mark.parametrize(
    "mode,rows",
    [
        ("edge", [0, 0, 1, 2, 3, 3, 3, 3]),
        ("reflect", [1, 0, 1, 2, 3, 2, 1, 0]),
        ("symmetric", [0, 0, 1, 2, 3, 3, 2, 1]),
        ("wrap", [3, 0, 1, 2, 3, 0, 1, 2]),
    ],
)
def test_spec_page_example(mode, rows) -> None:
    # {1,1,4,4}, start {0,0,1,2}, end {0,0,3,4} -> {1,1,8,10}: output row r is input row s(r),
    # padded along the row as the 1-d example.
    x = np.array([[[[1, 2, 3, 4], [5, 6, 7, 8], [1, 2, 3, 4], [5, 6, 7, 8]]]], np.float32)
    got = sd.pad(x, [0, 0, 1, 2], [0, 0, 3, 4], mode)
    assert got.shape == (1, 1, 8, 10)
    for r, s in enumerate(rows):
        assert got[0, 0, r].tolist() == sd.pad(x[0, 0, s], [2], [4], mode).tolist()
    if mode == "reflect":
        assert got[0, 0, 0].tolist() == [7, 6, 5, 6, 7, 8, 7, 6, 5, 6]
    assert same_bits(got, np_pad(x, [0, 0, 1, 2], [0, 0, 3, 4], mode))


# ------------------------------------------------------------------ against numpy.pad


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("mode", MODES)
def test_every_dtype_matches_numpy(dtype, mode, simd) -> None:
    x = random_array(np.random.default_rng(5), (3, 4, 5), dtype)  # random bits: NaN payloads, -0.0
    for lo, hi in [((0, 1, 2), (1, 0, 3)), ((2, 3, 4), (3, 4, 5)), ((0, 0, 0), (0, 0, 1))]:
        got = sd.pad(x, lo, hi, mode, 7)
        assert got.flags.c_contiguous and same_bits(got, np_pad(x, lo, hi, mode, np.array(7).astype(dtype)))


@pytest.mark.parametrize("mode", MODES)
def test_wide_pads_fold_periodically(mode) -> None:
    rng = np.random.default_rng(1)
    for m in [1, 2, 3, 5]:
        x = rng.integers(0, 100, m).astype(np.int16)
        for lo, hi in [(0, 17), (17, 0), (m, m), (m + 1, 2 * m + 3), (3 * m - 1, 7 * m + 2), (40, 41)]:
            assert same_bits(sd.pad(x, [lo], [hi], mode, -1), np_pad(x, [lo], [hi], mode, -1)), (m, lo, hi)
    x = rng.integers(0, 100, (2, 3, 2)).astype(np.uint8)
    for lo, hi in [((5, 7, 9), (9, 7, 5)), ((1, 0, 13), (0, 11, 0))]:
        assert same_bits(sd.pad(x, lo, hi, mode), np_pad(x, lo, hi, mode))


def test_huge_pads_take_a_bounded_number_of_steps() -> None:
    # A pad of 10^6 on a dimension of 1 or 2 elements: a handful of copies, not 10^6.
    one = np.array([[5], [6]], np.float32)
    for mode in MODES:
        got = sd.pad(one, [0, 10**6], [0, 10**6], mode)
        assert got.shape == (2, 2 * 10**6 + 1) and same_bits(got, np_pad(one, [0, 10**6], [0, 10**6], mode))
    two = np.array([1, 2], np.int8)
    for mode in ["reflect", "symmetric", "wrap"]:
        assert same_bits(sd.pad(two, [10**6 + 1], [10**6], mode), np_pad(two, [10**6 + 1], [10**6], mode))
    d = sd.PaddingDesc(
        sd.TensorDesc("int8", [2]), sd.TensorDesc("int8", [2 * 10**9]), "wrap", 0, [10**9 - 1], [10**9 - 1]
    )
    d.validate()
    sd.compile(d)  # lowering stays small (no buffer of 2 GB is needed to compile)


def test_wide_outer_pads_both_paths() -> None:
    # Border rows along outer dimensions come from a table of source rows in the one-pass step
    # while the table is small (here 60000 entries); beyond it (80000) from copy steps.
    x = np.arange(2 * 3 * 64, dtype=np.int8).reshape(2, 3, 64)
    for mode in MODES:
        for k in (30000, 40000):
            lo, hi = (k, 1, 3), (k, 2, 0)
            assert same_bits(sd.pad(x, lo, hi, mode), np_pad(x, lo, hi, mode)), (mode, k)


def test_large_any_thread_count(threads) -> None:
    x = random_array(np.random.default_rng(9), (6, 70, 90), np.float32)
    for mode in MODES:
        for lo, hi in [((0, 2, 2), (0, 2, 2)), ((1, 3, 0), (2, 0, 5))]:
            assert same_bits(sd.pad(x, lo, hi, mode), np_pad(x, lo, hi, mode))
            assert same_bits(sd.pad(x[::-1, 3::2, ::-3], lo, hi, mode), np_pad(x[::-1, 3::2, ::-3], lo, hi, mode))


# Into a packed output, padding is one pass in address order (a line writer assembling each
# 64-byte line once; other modes read border rows from their source rows): every mode and
# element width, outputs at every alignment (even one that is not a multiple of the element's width), rows that a thread's
# range cuts anywhere, pads on outer dimensions only (rows merged), interior size 1, margins
# wider than the input, reversed outer strides; guard bytes around the output stay untouched.
ROW_CASES = [
    ((1000,), (3,), (5,)),
    ((37, 61), (2, 1), (3, 0)),
    ((5, 7, 33), (1, 0, 0), (2, 0, 0)),
    ((4, 1, 130), (0, 2, 0), (0, 3, 0)),
    ((3, 200), (0, 70), (0, 1)),
    ((2, 3, 5, 40), (1, 2, 0, 3), (0, 1, 2, 0)),
    ((6, 20), (0, 50), (1, 45)),  # margins wider than the rows (periodic sources)
    ((300, 400), (1, 5), (2, 3)),  # every thread count; float64 rows longer than k_rows' 2 KiB buffer
    ((3, 2, 70), (7, 5, 0), (8, 3, 0)),  # outer pads wider than their dimensions (periodic source rows)
    ((1, 4, 2, 64), (2, 0, 3, 1), (1, 2, 4, 2)),  # outer dimension of size 1; pads around a block of 2 rows
]


@pytest.mark.parametrize("streamed", [False, True], ids=["cached", "streamed"])
def test_rows_any_alignment(simd, threads, streamed) -> None:
    rng = np.random.default_rng(21)
    old = sd._core._stream_threshold()
    sd._core._set_stream_threshold(0 if streamed else 1 << 62)
    try:
        for shape, lo, hi in ROW_CASES:
            for dtype in (np.int8, np.float16, np.float32, np.float64):
                x = random_array(rng, shape, dtype)
                value = np.array(-3, dtype).item() if np.dtype(dtype).kind == "f" else 5
                for mode in MODES:
                    want = np_pad(x, lo, hi, mode, value)
                    for offset in (0, 1, 3, 17, 63):
                        buf = np.full(want.nbytes + 128, 0xEE, np.uint8)
                        out = buf[64 + offset : 64 + offset + want.nbytes].view(dtype).reshape(want.shape)
                        sd.pad(x, lo, hi, mode, value, out=out)
                        assert same_bits(out, want), (shape, dtype, mode, offset)
                        assert (buf[: 64 + offset] == 0xEE).all() and (buf[64 + offset + want.nbytes :] == 0xEE).all()
                    flipped = x[::-1]  # rows still contiguous: the same path, reading backwards
                    assert same_bits(sd.pad(flipped, lo, hi, mode, value), np_pad(flipped, lo, hi, mode, value))
    finally:
        sd._core._set_stream_threshold(old)


def test_input_strides() -> None:
    rng = np.random.default_rng(3)
    base = random_array(rng, (20, 30), np.uint16)
    views = [base[::-3, ::2], base[2:9, 25:3:-4], base.T[::3], np.broadcast_to(base[4], (3, 30))]
    views.append(np.broadcast_to(base[:, :1], (20, 6)))  # stride 0 along the last axis
    views.append(random_array(rng, (2, 4, 5, 3), np.int8).transpose(0, 3, 1, 2)[..., :4])  # NHWC, padded
    for x in views:
        lo, hi = [1] * x.ndim, [3] * x.ndim
        for mode in MODES:
            assert same_bits(sd.pad(x, lo, hi, mode, 11), np_pad(x, lo, hi, mode, 11))


def test_value_conversion() -> None:
    # The value takes x's dtype by the Cast rules (SPEC 3.5), not numpy's.
    x = np.zeros(2, np.uint8)
    assert sd.pad(x, [1], [1], value=-2).tolist() == [254, 0, 0, 254]  # int: modulo 2^8
    assert sd.pad(x, [1], [0], value=300.7).tolist() == [255, 0, 0]  # float: saturates
    assert sd.pad(x, [1], [0], value=float("nan")).tolist() == [0, 0, 0]
    assert sd.pad(x, [1], [0], value=True).tolist() == [1, 0, 0]
    assert sd.pad(x, [0], [1], value=np.float64(-1e300)).tolist() == [0, 0, 0]
    assert sd.pad(x, [0], [1], value=sd.Scalar("float32", 7.9)).tolist() == [0, 0, 7]
    f = sd.pad(np.zeros(1, np.float16), [1], [0], value=1e10)
    assert np.isinf(f[0]) and f[0] > 0
    h = sd.pad(np.zeros(1, np.float32), [1], [0], value=0.1)
    assert h[0] == np.float32(0.1)
    i = sd.pad(np.zeros(1, np.int64), [1], [0], value=2**64 - 1)
    assert i[0] == -1
    assert sd.pad(np.arange(3.0), [1], [1], "edge", value=5).tolist() == [0, 0, 1, 2, 2]  # unused


def test_modes_forms() -> None:
    x = np.arange(4, dtype=np.int32)
    want = np_pad(x, [2], [3], "reflect")
    for m in ["reflect", "REFLECT", "Reflection", sd.PaddingMode.REFLECTION, 2, np.int64(2)]:
        assert same_bits(sd.pad(x, [2], [3], m), want)
    assert same_bits(sd.pad(x, 2, 3, "wrap"), np_pad(x, [2], [3], "wrap"))  # plain ints for a 1-d x
    assert same_bits(sd.pad(x, np.array([2]), (np.uint8(3),), "edge"), np_pad(x, [2], [3], "edge"))
    assert [int(m) for m in sd.PaddingMode] == [0, 1, 2, 3, 4]
    assert [m.name for m in sd.PaddingMode] == ["CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC", "WRAP"]


def test_out_any_strides() -> None:
    rng = np.random.default_rng(4)
    x = random_array(rng, (5, 6), np.int64)
    for mode in MODES:
        want = np_pad(x, [1, 2], [3, 0], mode, 3)  # (9, 8)
        views = [
            ((12, 11), lambda b: b[:9, 2:10]),  # padded rows
            ((9, 8), lambda b: b[::-1, ::-1]),  # negative strides
            ((8, 9), lambda b: b.T),  # column-major
            ((18, 16), lambda b: b[::2, ::2]),  # every other element
        ]
        for shape, view in views:
            base = np.full(shape, -1, np.int64)
            expect = base.copy()
            view(expect)[...] = want
            out = view(base)
            r = sd.pad(x, [1, 2], [3, 0], mode, 3, out=out)
            assert r is out and same_bits(base, expect)  # out's elements written, nothing else


def test_out_torch_in_place() -> None:
    torch = pytest.importorskip("torch")
    x = torch.arange(24, dtype=torch.float32).reshape(2, 3, 4)
    base = torch.full((2, 9, 12), -1.0)
    out = base.transpose(1, 2)[:, 1:8, 2:7]
    assert not out.is_contiguous() and out.shape == (2, 7, 5)
    r = sd.pad(x, [0, 2, 1], [0, 2, 0], "reflect", out=out)
    assert r is out
    want = torch.nn.functional.pad(x.unsqueeze(0), (1, 0, 2, 2), mode="reflect")[0]
    assert torch.equal(out, want)
    assert (base.transpose(1, 2)[:, 0] == -1).all() and (base.transpose(1, 2)[:, 8:] == -1).all()
    # torch's constant / replicate / circular modes agree too.
    for ours, theirs in [("constant", "constant"), ("edge", "replicate"), ("wrap", "circular")]:
        got = torch.from_numpy(sd.pad(x, [0, 1, 3], [0, 2, 1], ours))
        assert torch.equal(got, torch.nn.functional.pad(x.unsqueeze(0), (3, 1, 1, 2), mode=theirs)[0])


def test_out_with_stride_zero_is_refused() -> None:
    x = np.array([[1, 2], [3, 4]], np.int32)
    buf = np.zeros(6, np.int32)
    out = np.lib.stride_tricks.as_strided(buf, (4, 6), (0, 4))
    with pytest.raises(BufferError, match="stride 0 along dimension 0"):
        sd.pad(x, [1, 2], [1, 2], "edge", out=out)
    assert (buf == 0).all()


def test_overlapping_and_in_place() -> None:
    buf = np.arange(12, dtype=np.float32)
    x = buf[3:9]
    want = np.pad(x.copy(), (2, 4), "symmetric")
    sd.pad(x, [2], [4], "symmetric", out=buf)  # out overlaps x: as if x were read first
    assert same_bits(buf, want)
    y = np.arange(6, dtype=np.int16).reshape(2, 3)
    assert sd.pad(y, [0, 0], [0, 0], "wrap", out=y) is y and y.tolist() == [[0, 1, 2], [3, 4, 5]]


def test_empty_and_zero_d() -> None:
    # numpy.pad's rule: an empty dimension can be padded with a constant only; padding another
    # dimension of an empty array gives an empty result in every mode.
    for mode in MODES:
        for shape, lo, hi in [((0, 3), (0, 1), (0, 2)), ((2, 0), (1, 0), (3, 0)), ((0,), (0,), (0,))]:
            x = np.zeros(shape, np.float16)
            got = sd.pad(x, lo, hi, mode)
            assert got.shape == np_pad(x, lo, hi, mode).shape and got.dtype == np.float16
            out = np.zeros(got.shape, np.float16)
            assert sd.pad(x, lo, hi, mode, out=out) is out
    got = sd.pad(np.zeros((0, 3), np.int32), [1, 0], [2, 1], value=-5)  # an empty x, a full result
    assert got.tolist() == [[-5] * 4] * 3
    out = np.zeros((3, 4), np.int32)[::-1]
    assert sd.pad(np.zeros((0, 3), np.int32), [1, 0], [2, 1], value=-5, out=out) is out and (out == -5).all()
    for mode in MODES[1:]:
        x = np.zeros((0, 3), np.float32)
        with pytest.raises(ValueError):
            np_pad(x, [1, 0], [0, 0], mode)
        out = np.full((1, 3), 8, np.float32)
        with pytest.raises(
            sd.ValidationError, match=r"^pad\.x\.shape\[0\]: a dimension of size 0 can only be padded in 'constant'"
        ):
            sd.pad(x, [1, 0], [0, 0], mode, out=out)
        assert (out == 8).all()
    # 0-d: no pads, a 0-d copy (numpy.pad(x, ()) too).
    z = np.float64(-2.5)
    for mode in MODES:
        got = sd.pad(z, (), (), mode)
        assert got.shape == () and same_bits(got, np.pad(np.array(z), 0, mode))
    out = np.zeros((), np.float64)
    assert sd.pad(np.array(7.0), [], [], out=out) is out and out == 7.0
    with pytest.raises(sd.ValidationError, match=r"^pad\.begin: must have one value per dimension of x \(0\), got 1"):
        sd.pad(z, (2,), (1,))


def test_misuse_writes_nothing() -> None:
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = np.full((4, 5), 7, np.float32)
    cases = [
        (
            (x, [1, 1], [1], "edge"),
            sd.ValidationError,
            r"^pad\.end: must have one value per dimension of x \(2\), got 1$",
        ),
        ((x, [1, 1, 0], [1, 1], "edge"), sd.ValidationError, r"^pad\.begin: must have one value per dimension"),
        ((x, [1, -1], [1, 3], "edge"), sd.ValidationError, r"^pad\.begin\[1\]: must be non-negative, got -1$"),
        ((x, [1, 1], [-2, 1], "edge"), sd.ValidationError, r"^pad\.end\[0\]: must be non-negative, got -2$"),
        ((x, [1, 1], [1, 1], "mirror"), sd.ValidationError, r"^pad\.mode: unknown mode 'mirror'"),
        ((x, [1, 1], [1, 1], 5), sd.ValidationError, r"^pad\.mode: unknown mode 5"),
        ((x, [1, 1], [1, 1], None), TypeError, r"^pad\.mode: expected a PaddingMode"),
        ((x, [1, 1], [1, 1], "constant", "7"), TypeError, r"^pad\.value: expected a number or a Scalar, got str"),
        ((x, [1, 1], [1, 1], "constant", [1]), TypeError, r"^pad\.value: expected a number"),
        ((x, [1, 1.5], [1, 1], "edge"), TypeError, r"pad\.begin\[1\]: expected an integer"),
        ((x, [1, 1], [1, 2**64], "edge"), sd.ValidationError, r"does not fit in 64 bits"),
    ]
    for args, err, msg in cases:
        with pytest.raises(err, match=msg):
            sd.pad(*args, out=out)
    with pytest.raises(sd.ValidationError, match=r"expected shape \(4, 6\), got \(4, 5\)"):
        sd.pad(x, [1, 1], [1, 2], out=out)
    with pytest.raises(sd.ValidationError, match="expected dtype float32, got float64"):
        sd.pad(x, [1, 1], [1, 1], out=np.zeros((4, 5), np.float64))
    ro = np.zeros((4, 5), np.float32)
    ro.flags.writeable = False
    with pytest.raises(BufferError, match="read-only"):
        sd.pad(x, [1, 1], [1, 1], out=ro)
    with pytest.raises(sd.ValidationError, match="does not fit in 64 bits"):
        sd.pad(x, [1, 2**62], [1, 2**62])
    assert (out == 7).all() and (ro == 0).all()


@given(
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=4),
    data=st.data(),
)
def test_random_views_match_numpy(shape, data) -> None:
    n = len(shape)
    lo = data.draw(st.lists(st.integers(0, 9), min_size=n, max_size=n))
    hi = data.draw(st.lists(st.integers(0, 9), min_size=n, max_size=n))
    steps = data.draw(st.lists(st.sampled_from([1, 2, -1, -2]), min_size=n, max_size=n))
    dtype = data.draw(st.sampled_from(ALL_DTYPES))
    mode = data.draw(st.sampled_from(MODES))
    base = random_array(np.random.default_rng(len(shape)), tuple(s * 2 for s in shape), dtype)
    x = base[tuple(slice(None, None, k) for k in steps)][tuple(slice(0, s) for s in shape)]
    want = np_pad(x, lo, hi, mode, np.array(3).astype(dtype))
    assert same_bits(sd.pad(x, lo, hi, mode, 3), want)
    out = np.zeros(tuple(2 * s for s in want.shape), dtype)[tuple(slice(None, None, -2) for _ in want.shape)]
    assert same_bits(sd.pad(x, lo, hi, mode, 3, out=out), want)


def test_onnx_pad_reference() -> None:
    onnx = pytest.importorskip("onnx")
    from onnx import helper
    from onnx.reference import ReferenceEvaluator

    rng = np.random.default_rng(6)
    x = rng.standard_normal((1, 3, 4, 5)).astype(np.float32)
    for mode, ours in [("constant", "constant"), ("reflect", "reflect"), ("edge", "edge"), ("wrap", "wrap")]:
        pads = np.array([0, 0, 1, 3, 0, 0, 2, 4], np.int64)  # ONNX: all begins, then all ends
        node = helper.make_node("Pad", ["x", "pads", "value"], ["y"], mode=mode)
        graph = helper.make_graph(
            [node],
            "pad",
            [
                helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, x.shape),
                helper.make_tensor_value_info("pads", onnx.TensorProto.INT64, [8]),
                helper.make_tensor_value_info("value", onnx.TensorProto.FLOAT, []),
            ],
            [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)],
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
        (want,) = ReferenceEvaluator(model).run(None, {"x": x, "pads": pads, "value": np.float32(1.5)})
        assert same_bits(sd.pad(x, pads[:4], pads[4:], ours, 1.5), want), mode


# ------------------------------------------------------------------ the description


def desc(dtype, sizes, lo, hi, mode="constant", value=0, out_sizes=None, out_dtype=None, **kw) -> sd.PaddingDesc:
    out_sizes = out_sizes or [s + a + b for s, a, b in zip(sizes, lo, hi)]
    out = sd.TensorDesc(out_dtype or dtype, out_sizes, **kw)
    return sd.PaddingDesc(sd.TensorDesc(dtype, sizes), out, mode, value, lo, hi)


@pytest.mark.parametrize(
    "dtype,sizes,mode,value,level",
    [
        ("float32", [1, 2, 3, 4], "constant", 0, FL.FL_1_0),
        ("float16", [1, 2, 3, 4, 5], "reflect", 0, FL.FL_1_0),
        ("float32", [1, 1, 3, 4], "edge", 0, FL.FL_1_0),
        ("int8", [1, 2, 3, 4], "constant", -3, FL.FL_2_1),
        ("uint32", [1, 1, 1, 4], "reflect", 0, FL.FL_2_1),
        ("float32", [1, 2, 3, 4], "symmetric", 0, FL.FL_3_0),  # SYMMETRIC's gate
        ("float32", [3, 4], "constant", 0, FL.FL_3_1),  # 1-8 dimensions from 3_1
        ("int16", [3, 4], "symmetric", 0, FL.FL_3_1),
        ("uint8", [1, 1, 1, 1, 1, 1, 1, 2], "edge", 0, FL.FL_3_1),
        ("int64", [1, 2, 3, 4], "edge", 0, FL.FL_5_0),  # 64-bit types from 5_0
        ("float64", [3], "constant", 0.5, FL.FL_5_0),
        ("float32", [1, 2, 3, 4], "constant", float("inf"), FL.FL_1_0),
        ("uint32", [1, 2, 3, 4], "constant", 2**24 + 1, FL.FL_5_0),  # FLOAT32 cannot hold it: PADDING1
        ("int32", [1, 2, 3, 4], "reflect", 2**24 + 1, FL.FL_2_1),  # unused by REFLECTION: PADDING
        ("float64", [1, 2, 3, 4], "constant", 0.1, FL.FL_5_0),
        ("float32", [1, 2, 3, 4], "wrap", 0, FL.FL_6_4),  # WRAP's gate
        ("int8", [2], "wrap", 0, FL.FL_6_4),
    ],
)
def test_min_feature_level(dtype, sizes, mode, value, level) -> None:
    d = desc(dtype, sizes, [1] * len(sizes), [2] * len(sizes), mode, value)
    assert d.min_feature_level == level
    assert d.is_valid_at(level) and d.is_valid_at(FL.FL_6_4)
    assert not any(d.is_valid_at(lv) for lv in FL if lv < level)


def test_level_messages() -> None:
    with pytest.raises(sd.ValidationError, match=r"^PaddingDesc\.input\.dtype: INT8 needs feature level 2_1"):
        desc("int8", [1, 2, 3, 4], [0] * 4, [1] * 4).validate("1_0")
    with pytest.raises(sd.ValidationError, match=r"^PaddingDesc\.input\.sizes: 3 dimensions need feature level 3_1"):
        desc("float32", [2, 3, 4], [0] * 3, [1] * 3).validate("3_0")
    with pytest.raises(sd.ValidationError, match=r"^PaddingDesc\.padding_mode: SYMMETRIC needs feature level 3_0"):
        desc("float32", [1, 2, 3, 4], [0] * 4, [1] * 4, "symmetric").validate("2_1")
    with pytest.raises(sd.ValidationError, match=r"^PaddingDesc\.padding_mode: WRAP needs feature level 6_4"):
        desc("float32", [1, 2, 3, 4], [0] * 4, [1] * 4, "wrap").validate("6_3")
    with pytest.raises(
        sd.ValidationError,
        match=r"^PaddingDesc\.padding_value: a value FLOAT32 does not hold needs DML_PADDING1_OPERATOR_DESC of "
        r"feature level 5_0 \(validating at 4_1\)",
    ):
        desc("int32", [1, 2, 3, 4], [0] * 4, [1] * 4, "constant", 2**24 + 1).validate("4_1")
    # A pad beyond DirectML's UINT: the output is over DirectML's element limit (reported first).
    with pytest.raises(sd.ValidationError, match=r"^PaddingDesc\.output\.sizes: 4294967297 elements exceed"):
        desc("uint8", [1, 1], [0, 2**32], [0, 0]).validate("6_4")
    with pytest.raises(sd.ValidationError, match=r"^PaddingDesc\.output\.sizes: 4295032832 elements exceed"):
        desc("uint8", [1, 2**16], [2**16, 0], [0, 0]).min_feature_level
    # Every type is in a row from 5_0, so no description is refused at every level for its type;
    # one over DirectML's element limit is (it still executes).
    d = desc("uint8", [1, 2**16], [2**16, 0], [0, 0])
    assert not any(d.is_valid_at(lv) for lv in FL)


def test_description_rules() -> None:
    f = "float32"
    cases = [
        (lambda: desc(f, [2, 3], [1, -1], [0, 3]), r"^PaddingDesc\.start_padding\[1\]: must be non-negative, got -1$"),
        (
            lambda: desc(f, [2, 3], [1, 1], [-1, 3], out_sizes=[2, 7]),
            r"^PaddingDesc\.end_padding\[0\]: must be non-negative",
        ),
        (
            lambda: sd.PaddingDesc(sd.TensorDesc(f, [2, 3]), sd.TensorDesc(f, [3, 4]), 0, 0, [1], [0, 1]),
            r"^PaddingDesc\.start_padding: must have one value per dimension \(2\), got 1$",
        ),
        (
            lambda: sd.PaddingDesc(sd.TensorDesc(f, [2, 3]), sd.TensorDesc(f, [3, 4]), 0, 0, [1, 1], [0, 0, 0]),
            r"^PaddingDesc\.end_padding: must have one value per dimension \(2\), got 3$",
        ),
        (
            lambda: desc(f, [2, 3], [1, 2], [0, 3], out_sizes=[3, 7]),
            r"^PaddingDesc\.output\.sizes\[1\]: must equal input\.sizes\[1\] \+ start_padding\[1\] \+ "
            r"end_padding\[1\] = 3 \+ 2 \+ 3 = 8, got 7$",
        ),
        (lambda: desc(f, [2, 3], [1, 2**63 - 1], [0, 3], out_sizes=[3, 7]), r"= \(over 64 bits\), got 7$"),
        (
            lambda: sd.PaddingDesc(sd.TensorDesc(f, [2, 3]), sd.TensorDesc(f, [1, 2, 3]), 0, 0, [0, 0], [0, 0]),
            r"^PaddingDesc\.output\.sizes: must have the same dimension count",
        ),
        (
            lambda: desc(f, [2, 3], [0, 1], [0, 0], out_dtype="int32"),
            r"^PaddingDesc\.output\.dtype: must equal input\.dtype \(FLOAT32\), got INT32",
        ),
        (
            lambda: desc(f, [2, 3], [0, 1], [0, 0], value=sd.Scalar("float16", 1)),
            r"^PaddingDesc\.padding_value\.dtype: must equal output\.dtype \(FLOAT32\), got FLOAT16",
        ),
        (
            lambda: desc(f, [2, 3], [0, 1], [0, 0], strides=[0, 1]),
            r"^PaddingDesc\.output\.strides\[0\]: an output must not broadcast",
        ),
    ]
    for make, msg in cases:
        with pytest.raises(sd.ValidationError, match=msg):
            make().validate()
    with pytest.raises(sd.ValidationError, match=r"^PaddingDesc\.padding_mode: unknown mode 7"):
        desc(f, [2, 3], [0, 1], [0, 0], mode=7)
    with pytest.raises(TypeError, match=r"^PaddingDesc\.padding_mode: expected a PaddingMode"):
        desc(f, [2, 3], [0, 1], [0, 0], mode=1.0)
    d = desc("int16", [2, 3], [1, 0], [0, 2], "reflect", -1)
    assert d.padding_mode is sd.PaddingMode.REFLECTION and d.padding_value == sd.Scalar("int16", -1)
    assert d.start_padding == (1, 0) and d.end_padding == (0, 2) and d.output.sizes == (3, 5)
    assert repr(d).startswith("PaddingDesc(input=TensorDesc(INT16") and "padding_mode='REFLECTION'" in repr(d)
    assert d == desc("int16", [2, 3], [1, 0], [0, 2], 2, -1) and d != desc("int16", [2, 3], [1, 0], [0, 2], "edge", -1)
    assert desc("uint8", [2], [1], [0], value=-1).padding_value == sd.Scalar("uint8", 255)  # Cast rules
    assert sd.PaddingDesc.__doc__.startswith("DML_PADDING1_OPERATOR_DESC")


def test_compile_execute_buffers() -> None:
    # uint8 {2,3} padded by 1 on every side, WRAP: 6 input bytes -> total_bytes 8.
    d = desc("uint8", [2, 3], [1, 1], [1, 1], "wrap")
    c = sd.compile(d)
    assert c.input_bytes == [8] and c.output_bytes == [20]
    out = bytearray(20)
    c.execute([bytes([1, 2, 3, 4, 5, 6, 0, 0])], [out])
    want = np.pad(np.array([[1, 2, 3], [4, 5, 6]], np.uint8), 1, "wrap")
    assert np.frombuffer(out, np.uint8).reshape(4, 5).tolist() == want.tolist()
    with pytest.raises(BufferError):
        c.execute([bytes(6)], [bytearray(20)])  # shorter than total_bytes
    with pytest.raises(BufferError):
        c.execute([bytes(8)], [bytes(20)])  # read-only output
    # Padded input rows (stride 4) into a column-major output with padding, CONSTANT and SYMMETRIC.
    x = np.arange(1, 9, dtype=np.float16)  # rows [1,2,3], [5,6,7]; 4 and 8 are padding
    ti = sd.TensorDesc("float16", [2, 3], [4, 1])
    to = sd.TensorDesc("float16", [3, 5], [1, 4])  # column-major, column pitch 4
    for mode, value in [("constant", -0.5), ("symmetric", 0)]:
        d = sd.PaddingDesc(ti, to, mode, value, [0, 1], [1, 1])
        buf = np.full(20, -1, np.float16)
        sd.compile(d).execute([x], [buf])
        got = np.lib.stride_tricks.as_strided(buf, (3, 5), (2, 8))
        xv = np.array([[1, 2, 3], [5, 6, 7]], np.float16)
        assert same_bits(got.copy(), np_pad(xv, [0, 1], [1, 1], mode, np.float16(value)))
        assert (buf[3::4] == -1).all()  # the output's padding is not written
