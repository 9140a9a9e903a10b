"""DepthToSpace and SpaceToDepth (SPEC 3.8): an independent numpy reference (reshape/transpose,
checked against SPEC's formula element by element), SPEC's examples, every dtype, every compiled
SIMD target, strides in and out, out=, empty arrays, the round trip, torch's pixel_shuffle /
pixel_unshuffle (CRD), the descriptions' rules and feature levels (SPEC 4: DCR from 1_0, CRD
only with the *1 structs from 2_1), compile/execute on buffers, and misuse writing nothing."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strided as sd
from conftest import ALL_DTYPES, random_array, same_bits

FL = sd.FeatureLevel
MODES = ["DCR", "CRD"]


# ------------------------------------------------------------------ the reference


def ref_d2s(x: np.ndarray, b: int, mode: str) -> np.ndarray:
    """depth {N, C*b*b, H, W} -> space {N, C, H*b, W*b}: the channels as (bh, bw, c) for DCR,
    (c, bh, bw) for CRD, moved next to the rows and columns they fill."""
    n, cbb, h, w = x.shape
    c = cbb // (b * b)
    if mode == "DCR":
        return x.reshape(n, b, b, c, h, w).transpose(0, 3, 4, 1, 5, 2).reshape(n, c, h * b, w * b)
    return x.reshape(n, c, b, b, h, w).transpose(0, 1, 4, 2, 5, 3).reshape(n, c, h * b, w * b)


def ref_s2d(x: np.ndarray, b: int, mode: str) -> np.ndarray:
    n, c, hb, wb = x.shape
    h, w = hb // b, wb // b
    y = x.reshape(n, c, h, b, w, b)  # (n, c, h, bh, w, bw)
    if mode == "DCR":
        return y.transpose(0, 3, 5, 1, 2, 4).reshape(n, b * b * c, h, w)
    return y.transpose(0, 1, 3, 5, 2, 4).reshape(n, c * b * b, h, w)


def test_reference_is_spec_formula() -> None:
    # space[n, c, h*b + bh, w*b + bw] = depth[n, d, h, w]; DCR d = (bh*b + bw)*C + c, CRD (c*b + bh)*b + bw.
    n, c, h, w, b = 2, 3, 2, 4, 3
    depth = np.arange(n * c * b * b * h * w).reshape(n, c * b * b, h, w)
    for mode in MODES:
        space = ref_d2s(depth, b, mode)
        for i, cc, hh, bh, ww, bw in itertools.product(range(n), range(c), range(h), range(b), range(w), range(b)):
            d = (bh * b + bw) * c + cc if mode == "DCR" else (cc * b + bh) * b + bw
            assert space[i, cc, hh * b + bh, ww * b + bw] == depth[i, d, hh, ww]
        assert np.array_equal(ref_s2d(space, b, mode), depth)


# ------------------------------------------------------------------ SPEC's examples


def test_spec_examples() -> None:
    depth = np.arange(1, 9, dtype=np.float32).reshape(1, 8, 1, 1)
    dcr = [[[1, 3], [5, 7]], [[2, 4], [6, 8]]]
    crd = [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]
    assert sd.depth_to_space(depth, 2).tolist() == [dcr]  # DCR is the default
    assert sd.depth_to_space(depth, 2, "CRD").tolist() == [crd]
    assert same_bits(sd.space_to_depth(np.array([dcr], np.float32), 2), depth)
    assert same_bits(sd.space_to_depth(np.array([crd], np.float32), 2, mode="crd"), depth)
    # The pages' UINT32 example: depth {1,8,2,3}, depth[0,d,h,w] = 9d + 3h + w, block 2 -> {1,2,4,6}.
    d, h, w = np.meshgrid(np.arange(8), np.arange(2), np.arange(3), indexing="ij")
    x = (9 * d + 3 * h + w).astype(np.uint32)[None]
    got = sd.depth_to_space(x, 2, "DCR")
    assert got.shape == (1, 2, 4, 6) and got.dtype == np.uint32
    assert got[0, 0, :2].tolist() == [[0, 18, 1, 19, 2, 20], [36, 54, 37, 55, 38, 56]]
    got = sd.depth_to_space(x, 2, "CRD")
    assert got[0, 0, :2].tolist() == [[0, 9, 1, 10, 2, 11], [18, 27, 19, 28, 20, 29]]
    for mode in MODES:  # SpaceToDepth maps each back; the descriptions agree with the functions
        space = sd.depth_to_space(x, 2, mode)
        assert same_bits(space, ref_d2s(x, 2, mode)) and same_bits(sd.space_to_depth(space, 2, mode), x)
        td, ts = sd.TensorDesc("uint32", [1, 8, 2, 3]), sd.TensorDesc("uint32", [1, 2, 4, 6])
        out = np.zeros((1, 2, 4, 6), np.uint32)
        sd.compile(sd.DepthToSpaceDesc(td, ts, 2, mode)).execute([x], [out])
        assert same_bits(out, space)
        back = np.zeros_like(x)
        sd.compile(sd.SpaceToDepthDesc(ts, td, 2, order=mode)).execute([out], [back])
        assert same_bits(back, x)


# ------------------------------------------------------------------ functions on arrays

CASES = [  # (depth shape, block size)
    ((1, 4, 1, 1), 2),
    ((2, 8, 3, 5), 2),
    ((1, 18, 4, 3), 3),
    ((3, 2, 5, 7), 1),
    ((1, 16, 2, 33), 4),
]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
def test_every_dtype_matches_numpy(dtype) -> None:
    rng = np.random.default_rng(5)
    for (shape, b), mode in itertools.product(CASES, MODES):
        x = random_array(rng, shape, dtype)  # random bits: NaN payloads, -0.0
        got = sd.depth_to_space(x, b, mode)
        assert got.flags.c_contiguous and same_bits(got, ref_d2s(x, b, mode))
        back = sd.space_to_depth(got, b, mode)
        assert back.flags.c_contiguous and same_bits(back, x) and same_bits(back, ref_s2d(got, b, mode))


def test_every_simd_target(simd) -> None:
    # Each element width (1, 2, 4, 8 bytes) through the compiled kernels, including a row long
    # enough for the vector loops.
    rng = np.random.default_rng(11)
    for dtype, (shape, b) in itertools.product([np.uint8, np.float16, np.float32, np.int64], CASES[1:]):
        x = random_array(rng, shape, dtype)
        for mode in MODES:
            space = sd.depth_to_space(x, b, mode)
            assert same_bits(space, ref_d2s(x, b, mode)) and same_bits(sd.space_to_depth(space, b, mode), x)
    x = random_array(rng, (2, 16, 40, 70), np.float32)
    for mode in MODES:
        assert same_bits(sd.depth_to_space(x, 4, mode), ref_d2s(x, 4, mode))
        assert same_bits(sd.space_to_depth(x, 2, mode), ref_s2d(x, 2, mode))


def test_large_any_thread_count(threads) -> None:
    x = random_array(np.random.default_rng(9), (2, 32, 96, 128), np.float32)  # 3 MiB
    for mode, b in itertools.product(MODES, [2, 4]):
        assert same_bits(sd.depth_to_space(x, b, mode), ref_d2s(x, b, mode))
        assert same_bits(sd.space_to_depth(x, b, mode), ref_s2d(x, b, mode))


def test_fresh_results_from_the_result_pool() -> None:
    x = random_array(np.random.default_rng(2), (1, 16, 256, 512), np.uint16)  # 4 MiB results
    for _ in range(2):
        got = sd.depth_to_space(x, 2)
        assert got.flags.c_contiguous and got.flags.owndata and got.flags.writeable
        assert same_bits(got, ref_d2s(x, 2, "DCR"))
        del got


def test_input_strides() -> None:
    rng = np.random.default_rng(3)
    base = random_array(rng, (3, 16, 12, 12), np.int16)
    views = [
        base[:, :, ::-1, ::2],  # negative and step-2 strides
        base[::-2, 8:, 3:9, ::-1],
        base.transpose(0, 1, 3, 2),  # a transposed H and W
        random_array(rng, (2, 6, 4, 8), np.int16).transpose(0, 3, 1, 2),  # NHWC memory read as NCHW
        np.broadcast_to(base[:1, :, :1], (2, 16, 4, 12)),  # stride 0 over N and H
    ]
    for x, mode in itertools.product(views, MODES):
        assert same_bits(sd.depth_to_space(x, 2, mode), ref_d2s(x, 2, mode))
        assert same_bits(sd.space_to_depth(x, 2, mode), ref_s2d(x, 2, mode))


def test_out_any_strides() -> None:
    rng = np.random.default_rng(4)
    x = random_array(rng, (2, 8, 3, 4), np.float64)  # -> space (2, 2, 6, 8)
    views = [
        ((2, 2, 9, 12), lambda o: o[:, :, 1:7, 2:10]),  # padded rows
        ((2, 2, 6, 8), lambda o: o[::-1, :, ::-1, ::-1]),  # negative strides
        ((2, 8, 6, 2), lambda o: o.transpose(0, 3, 2, 1)),  # channels last
        ((4, 2, 12, 16), lambda o: o[::2, :, ::2, ::2]),  # every other element
    ]
    for (shape, view), mode in itertools.product(views, MODES):
        want = ref_d2s(x, 2, mode)
        base = np.full(shape, -1.0)
        expect = base.copy()
        view(expect)[...] = want
        out = view(base)
        assert sd.depth_to_space(x, 2, mode, out=out) is out and same_bits(base, expect)  # nothing else written
        back = np.full((2, 16, 4, 3), -1.0)
        out = back.transpose(0, 1, 3, 2)[:, ::-2]  # (2, 8, 3, 4) with negative, non-unit strides
        assert sd.space_to_depth(want, 2, mode, out=out) is out and same_bits(out, x)
        assert (back[:, 0::2] == -1).all()


def test_out_with_stride_zero_keeps_the_last_coordinate() -> None:
    # SPEC 3.0 rule 3: an output's stride-0 dimension ends with its last coordinate's values.
    x = np.arange(8, dtype=np.int32).reshape(2, 4, 1, 1)
    buf = np.zeros(4, np.int32)
    out = np.lib.stride_tricks.as_strided(buf, (2, 1, 2, 2), (0, 0, 8, 4))
    sd.depth_to_space(x, 2, out=out)
    assert buf.tolist() == [4, 5, 6, 7]


@settings(max_examples=60)
@given(
    n=st.integers(1, 3),
    c=st.integers(1, 4),
    h=st.integers(1, 4),
    w=st.integers(1, 4),
    b=st.integers(1, 3),
    mode=st.sampled_from(["DCR", "CRD", "dcr", sd.DepthSpaceOrder.CRD, 0, 1]),
    dtype=st.sampled_from(ALL_DTYPES),
    flip=st.booleans(),
)
def test_round_trip(n, c, h, w, b, mode, dtype, flip) -> None:
    x = random_array(np.random.default_rng(n * 100 + c * 10 + h), (n, c * b * b, h, w), dtype)
    if flip:
        x = x[:, ::-1, :, ::-1]
    name = {0: "DCR", 1: "CRD"}.get(mode, mode) if not isinstance(mode, str) else mode.upper()
    space = sd.depth_to_space(x, b, mode)
    assert same_bits(space, ref_d2s(x, b, name))
    assert same_bits(sd.space_to_depth(space, b, mode), x)
    assert same_bits(sd.depth_to_space(sd.space_to_depth(space, b, mode), b, mode), space)


def test_torch_pixel_shuffle_is_crd() -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(8)
    for shape, b in [((2, 12, 3, 5), 2), ((1, 27, 4, 2), 3), ((1, 3, 2, 2), 1)]:
        x = random_array(rng, shape, np.float32)
        want = torch.nn.functional.pixel_shuffle(torch.from_numpy(x), b).numpy()
        assert same_bits(sd.depth_to_space(x, b, "CRD"), want)
        assert same_bits(sd.depth_to_space(torch.from_numpy(x), b, "CRD"), want)  # a tensor as input
        back = torch.nn.functional.pixel_unshuffle(torch.from_numpy(want), b).numpy()
        assert same_bits(sd.space_to_depth(want, b, "CRD"), back) and same_bits(back, x)
    # out= a non-contiguous tensor: written in place and returned.
    x = torch.from_numpy(random_array(rng, (2, 12, 3, 5), np.float32))
    base = torch.full((2, 3, 7, 20), -1.0)
    out = base[:, :, 1:, ::2]  # (2, 3, 6, 10)
    assert sd.depth_to_space(x, 2, "CRD", out=out) is out
    assert same_bits(out.numpy(), torch.nn.functional.pixel_shuffle(x, 2).numpy())
    assert (base[:, :, 0] == -1).all() and (base[:, :, :, 1::2] == -1).all()
    back = torch.full((2, 12, 3, 10), -1.0)[:, :, :, 1::2]  # (2, 12, 3, 5)
    assert sd.space_to_depth(out, 2, sd.DepthSpaceOrder.CRD, out=back) is back
    assert same_bits(back.numpy(), x.numpy())


def test_mode_forms() -> None:
    x = np.arange(16, dtype=np.uint8).reshape(1, 4, 2, 2)
    dcr, crd = ref_d2s(x, 2, "DCR"), ref_d2s(x, 2, "CRD")
    for mode in ["DCR", "dcr", "Dcr", "depth_column_row", "DEPTH_COLUMN_ROW", sd.DepthSpaceOrder.DCR, 0, np.int64(0)]:
        assert same_bits(sd.depth_to_space(x, 2, mode), dcr), mode
    for mode in ["CRD", "crd", "column_row_depth", sd.DepthSpaceOrder.COLUMN_ROW_DEPTH, 1, np.uint8(1)]:
        assert same_bits(sd.depth_to_space(x, 2, mode), crd), mode
    assert same_bits(sd.depth_to_space(x, np.int32(2)), dcr)
    as_list = sd.depth_to_space(x.tolist(), 2)  # anything numpy.asarray takes
    assert same_bits(as_list, ref_d2s(np.array(x.tolist()), 2, "DCR"))
    order = sd.DepthSpaceOrder
    assert order.DCR is order.DEPTH_COLUMN_ROW and order.CRD is order.COLUMN_ROW_DEPTH
    assert (int(order.DCR), int(order.CRD)) == (0, 1) and [m.name for m in order] == [
        "DEPTH_COLUMN_ROW",
        "COLUMN_ROW_DEPTH",
    ]


def test_block_size_one_copies_and_runs_in_place() -> None:
    x = random_array(np.random.default_rng(6), (2, 3, 4, 5), np.float16)
    for mode in MODES:
        assert same_bits(sd.depth_to_space(x, 1, mode), x) and same_bits(sd.space_to_depth(x, 1, mode), x)
    y = x.copy()
    assert sd.depth_to_space(y, 1, out=y) is y and same_bits(y, x)
    assert sd.space_to_depth(y, 1, "CRD", out=y) is y and same_bits(y, x)


def test_overlapping_out_reads_x_first() -> None:
    buf = np.arange(32, dtype=np.int32)
    x = buf[:16].reshape(1, 4, 2, 2)
    for mode in MODES:
        want = ref_d2s(x.copy(), 2, mode)
        out = buf[:16].reshape(1, 1, 4, 4)  # the same memory as x, another view
        sd.depth_to_space(x, 2, mode, out=out)
        assert same_bits(out, want)
        buf[:16] = np.arange(16)
        out = buf[16:].reshape(1, 1, 4, 4)
        sd.depth_to_space(buf[8:24].reshape(1, 4, 2, 2), 2, mode, out=out)  # half overlapping
        assert same_bits(out, ref_d2s(np.arange(8, 24, dtype=np.int32).reshape(1, 4, 2, 2), 2, mode))
        buf[:] = np.arange(32)


def test_empty() -> None:
    for shape, b in [((0, 8, 2, 2), 2), ((1, 0, 2, 3), 2), ((2, 4, 0, 3), 2), ((1, 9, 2, 0), 3)]:
        x = np.zeros(shape, np.float32)
        for mode in MODES:
            got = sd.depth_to_space(x, b, mode)
            assert got.shape == ref_d2s(x, b, mode).shape and got.dtype == np.float32
            out = np.zeros(got.shape, np.float32)
            assert sd.depth_to_space(x, b, mode, out=out) is out
            back = sd.space_to_depth(got, b, mode)
            assert back.shape == shape
    # The rules still hold for empty arrays.
    with pytest.raises(sd.ValidationError, match=r"^depth_to_space\.x\.shape\[1\]: must be divisible"):
        sd.depth_to_space(np.zeros((0, 6, 2, 2)), 2)
    with pytest.raises(sd.ValidationError, match=r"^space_to_depth\.x\.shape\[3\]: must be divisible"):
        sd.space_to_depth(np.zeros((1, 0, 2, 3)), 2)


def test_misuse_writes_nothing() -> None:
    x = np.arange(32, dtype=np.float32).reshape(1, 8, 2, 2)
    out = np.full((1, 2, 4, 4), 7, np.float32)
    d2s, s2d = sd.depth_to_space, sd.space_to_depth
    cases = [
        (lambda: d2s(x, 0, out=out), sd.ValidationError, r"^depth_to_space\.block_size: must be at least 1, got 0$"),
        (lambda: s2d(x, -2), sd.ValidationError, r"^space_to_depth\.block_size: must be at least 1, got -2$"),
        (lambda: d2s(x, 3, out=out), sd.ValidationError, r"^depth_to_space\.x\.shape\[1\]: must be divisible by "),
        (lambda: d2s(x[0], 2), sd.ValidationError, r"^depth_to_space\.x: must have 4 dimensions \(N, C, H, W\), got 3"),
        (lambda: s2d(x[None], 2), sd.ValidationError, r"^space_to_depth\.x: must have 4 dimensions"),
        (lambda: s2d(x[:, :, :, :1], 2), sd.ValidationError, r"^space_to_depth\.x\.shape\[3\]: .* \(2\), got 1$"),
        (lambda: d2s(x, 2, "CDR", out=out), sd.ValidationError, r"^depth_to_space\.mode: unknown order 'CDR'"),
        (lambda: d2s(x, 2, 2, out=out), sd.ValidationError, r"^depth_to_space\.mode: unknown order 2"),
        (lambda: d2s(x, 2, None, out=out), TypeError, r"^depth_to_space\.mode: expected a DepthSpaceOrder"),
        (lambda: s2d(x, 2, True), TypeError, r"^space_to_depth\.mode: expected a DepthSpaceOrder"),
        (lambda: d2s(x, 2.0, out=out), TypeError, r"^depth_to_space\.block_size: expected an integer"),
        (lambda: d2s(x, 2**64, out=out), sd.ValidationError, r"^depth_to_space\.block_size: .*64 bits"),
        (lambda: d2s(x, 2, out=np.zeros((1, 2, 4, 5), np.float32)), sd.ValidationError, r"expected shape"),
        (lambda: d2s(x, 2, out=np.zeros((1, 2, 4, 4), np.float64)), sd.ValidationError, "expected dtype float32"),
        (lambda: d2s(x, 2, out=[[0] * 4] * 4), TypeError, "out: expected a numpy array"),
        (lambda: d2s(np.array([[[[None]]]]), 1), TypeError, "object arrays"),
    ]
    for fn, exc, msg in cases:
        with pytest.raises(exc, match=msg):
            fn()
        assert (out == 7).all()
    ro = np.zeros((1, 2, 4, 4), np.float32)
    ro.flags.writeable = False
    with pytest.raises(BufferError, match="read-only"):
        d2s(x, 2, out=ro)
    # A result dimension beyond 64 bits: 2^40 channels * 2^12 * 2^12 (x is empty: numpy bounds its
    # non-zero sizes' product, so only SpaceToDepth's channels can overflow).
    with pytest.raises(sd.ValidationError, match=r"^space_to_depth\.block_size: the result's shape .* 64 bits"):
        s2d(np.zeros((1, 2**40, 0, 2**12), np.uint8), 2**12)


# ------------------------------------------------------------------ the descriptions


def t(dtype, sizes, **kw) -> sd.TensorDesc:
    return sd.TensorDesc(dtype, sizes, **kw)


def d2s_desc(dtype="float32", depth=(1, 8, 2, 3), b=2, order="DCR", out_sizes=None, out_dtype=None, **kw):
    n, c, h, w = depth
    out_sizes = out_sizes or [n, c // (b * b), h * b, w * b]
    return sd.DepthToSpaceDesc(t(dtype, list(depth)), t(out_dtype or dtype, out_sizes, **kw), b, order)


def s2d_desc(dtype="float32", space=(1, 2, 4, 6), b=2, order="DCR", out_sizes=None, out_dtype=None, **kw):
    n, c, h, w = space
    out_sizes = out_sizes or [n, c * b * b, h // b, w // b]
    return sd.SpaceToDepthDesc(t(dtype, list(space)), t(out_dtype or dtype, out_sizes, **kw), b, order)


def test_description_fields() -> None:
    d = d2s_desc("int16", order="crd")
    assert d.block_size == 2 and d.order is sd.DepthSpaceOrder.CRD and d.output.sizes == (1, 2, 4, 6)
    assert repr(d).startswith("DepthToSpaceDesc(input=TensorDesc(INT16") and "block_size=2, order='CRD')" in repr(d)
    default = sd.SpaceToDepthDesc(t("float32", [1, 1, 2, 2]), t("float32", [1, 4, 1, 1]), 2)
    assert default.order is sd.DepthSpaceOrder.DEPTH_COLUMN_ROW and "order='DCR'" in repr(default)
    assert d == d2s_desc("int16", order=1) and d != d2s_desc("int16") and d != s2d_desc("int16", order=1)
    kw = sd.DepthToSpaceDesc(input=d.input, output=d.output, block_size=2, order=sd.DepthSpaceOrder.CRD)
    assert kw == d
    assert sd.DepthToSpaceDesc.__doc__.startswith("DML_DEPTH_TO_SPACE_OPERATOR_DESC")
    assert sd.SpaceToDepthDesc.__doc__.startswith("DML_SPACE_TO_DEPTH_OPERATOR_DESC")
    with pytest.raises(sd.ValidationError, match=r"^DepthToSpaceDesc\.order: unknown order 'RCD'"):
        d2s_desc(order="RCD")
    with pytest.raises(sd.ValidationError, match=r"^SpaceToDepthDesc\.order: unknown order -1"):
        s2d_desc(order=-1)
    with pytest.raises(TypeError, match=r"^SpaceToDepthDesc\.order: expected a DepthSpaceOrder"):
        s2d_desc(order=1.0)
    with pytest.raises(TypeError, match=r"DepthToSpaceDesc\.block_size"):
        sd.DepthToSpaceDesc(d.input, d.output, "2")


def test_description_rules() -> None:
    f = "float32"
    D, S = sd.DepthToSpaceDesc, sd.SpaceToDepthDesc
    cases = [
        (D(t(f, [8, 2, 3]), t(f, [1, 2, 4, 6]), 2), r"^DepthToSpaceDesc\.input\.sizes: must have 4 dimensions"),
        (D(t(f, [1, 8, 2, 3]), t(f, [1, 1, 2, 4, 6]), 2), r"^DepthToSpaceDesc\.output\.sizes: must have 4 dim.*got 5$"),
        (
            d2s_desc(out_dtype="int32"),
            r"^DepthToSpaceDesc\.output\.dtype: must equal input\.dtype \(FLOAT32\), got INT32$",
        ),
        (d2s_desc(b=0, out_sizes=[1, 8, 2, 3]), r"^DepthToSpaceDesc\.block_size: must be at least 1, got 0$"),
        (s2d_desc(b=-3, out_sizes=[1, 2, 4, 6]), r"^SpaceToDepthDesc\.block_size: must be at least 1, got -3$"),
        (
            d2s_desc(depth=(1, 6, 2, 3), out_sizes=[1, 1, 4, 6]),
            r"^DepthToSpaceDesc\.input\.sizes\[1\]: must be div.* = 4, got 6$",
        ),
        (
            d2s_desc(b=2**32, out_sizes=[1, 1, 4, 6]),
            r"^DepthToSpaceDesc\.input\.sizes\[1\]: .* = \(over 64 bits\), got 8$",
        ),
        (
            d2s_desc(out_sizes=[2, 2, 4, 6]),
            r"^DepthToSpaceDesc\.output\.sizes\[0\]: must equal input\.sizes\[0\] \(1\), got 2$",
        ),
        (
            d2s_desc(out_sizes=[1, 4, 4, 6]),
            r"^DepthToSpaceDesc\.output\.sizes\[1\]: must equal input\.sizes\[1\] / \(block_size \* block_size\) = "
            r"8 / 4 = 2, got 4$",
        ),
        (
            d2s_desc(out_sizes=[1, 2, 4, 5]),
            r"^DepthToSpaceDesc\.output\.sizes\[3\]: must equal input\.sizes\[3\] \* block_size = 3 \* 2 = 6, got 5$",
        ),
        (d2s_desc(strides=[0, 0, 6, 1]), r"^DepthToSpaceDesc\.output\.strides\[1\]: an output must not broadcast"),
        (
            S(t(f, [1, 2, 4]), t(f, [1, 8, 2, 3]), 2),
            r"^SpaceToDepthDesc\.input\.sizes: must have 4 dimensions .*got 3$",
        ),
        (
            s2d_desc(space=(1, 2, 5, 6), out_sizes=[1, 8, 2, 3]),
            r"^SpaceToDepthDesc\.input\.sizes\[2\]: must be divisible by block_size \(2\), got 5$",
        ),
        (
            s2d_desc(space=(1, 2, 4, 7), out_sizes=[1, 8, 2, 3]),
            r"^SpaceToDepthDesc\.input\.sizes\[3\]: must be divisible",
        ),
        (s2d_desc(out_sizes=[1, 8, 2, 3], out_dtype="float16"), r"^SpaceToDepthDesc\.output\.dtype: must equal"),
        (s2d_desc(out_sizes=[3, 8, 2, 3]), r"^SpaceToDepthDesc\.output\.sizes\[0\]: must equal input\.sizes\[0\]"),
        (
            s2d_desc(out_sizes=[1, 4, 2, 3]),
            r"^SpaceToDepthDesc\.output\.sizes\[1\]: must equal input\.sizes\[1\] \* block_size \* block_size = "
            r"2 \* 2 \* 2 = 8, got 4$",
        ),
        (
            s2d_desc(out_sizes=[1, 8, 4, 3]),
            r"^SpaceToDepthDesc\.output\.sizes\[2\]: must equal input\.sizes\[2\] / block_size = 4 / 2 = 2, got 4$",
        ),
        (s2d_desc(order="crd", strides=[24, 3, 3, 1]), r"^SpaceToDepthDesc\.output\.strides\[2\]: stride 3 overlaps"),
    ]
    for d, msg in cases:
        with pytest.raises(sd.ValidationError, match=msg):
            d.validate()
        assert not d.is_valid_at(FL.FL_6_4)
        with pytest.raises(sd.ValidationError, match=msg):  # the structural reason, also for the level
            d.min_feature_level
    d2s_desc(b=1, out_sizes=[1, 8, 2, 3]).validate()
    s2d_desc(space=(2, 3, 6, 9), b=3).validate()


@pytest.mark.parametrize(
    "make,dtype,order,level",
    [
        (d2s_desc, "float32", "DCR", FL.FL_1_0),
        (s2d_desc, "float16", "DCR", FL.FL_1_0),
        (d2s_desc, "int8", "DCR", FL.FL_2_1),  # 8 types from 2_1 (2_0: FLOAT32/FLOAT16)
        (s2d_desc, "uint32", "DCR", FL.FL_2_1),
        (d2s_desc, "float32", "CRD", FL.FL_2_1),  # CRD: the *1 structs, from 2_1
        (s2d_desc, "float16", "CRD", FL.FL_2_1),
        (d2s_desc, "uint16", "CRD", FL.FL_2_1),
        (d2s_desc, "int64", "DCR", FL.FL_5_0),  # 64-bit types from 5_0 (4_1: 8 types)
        (s2d_desc, "uint64", "CRD", FL.FL_5_0),
        (s2d_desc, "float64", "DCR", FL.FL_5_0),
    ],
)
def test_min_feature_level(make, dtype, order, level) -> None:
    d = make(dtype, order=order)
    assert d.min_feature_level == level
    assert d.is_valid_at(level) and d.is_valid_at(FL.FL_6_4)
    assert not any(d.is_valid_at(lv) for lv in FL if lv < level)


def test_level_messages() -> None:
    with pytest.raises(
        sd.ValidationError,
        match=r"^DepthToSpaceDesc\.order: COLUMN_ROW_DEPTH \(CRD\) needs DML_DEPTH_TO_SPACE1_OPERATOR_DESC of "
        r"feature level 2_1 \(validating at 2_0\)$",
    ):
        d2s_desc(order="CRD").validate("2_0")
    with pytest.raises(sd.ValidationError, match=r"^SpaceToDepthDesc\.order: .*DML_SPACE_TO_DEPTH1_OPERATOR_DESC"):
        s2d_desc(order="CRD").validate(FL.FL_1_0)
    with pytest.raises(sd.ValidationError, match=r"^DepthToSpaceDesc\.input\.dtype: INT8 needs feature level 2_1"):
        d2s_desc("int8").validate("2_0")
    with pytest.raises(sd.ValidationError, match=r"^SpaceToDepthDesc\.input\.dtype: INT64 needs feature level 5_0"):
        s2d_desc("int64", order="CRD").validate("4_1")
    # DirectML's limit of 2^32-1 elements per tensor: executes, but no level accepts it.
    big = d2s_desc("uint8", depth=(1, 4, 2**16, 2**15))
    big.validate()
    assert not any(big.is_valid_at(lv) for lv in FL)
    with pytest.raises(sd.ValidationError, match=r"^DepthToSpaceDesc\.input\.sizes: 8589934592 elements exceed"):
        big.min_feature_level


def test_compile_execute_buffers() -> None:
    # uint8 depth {1,4,1,3} -> space {1,1,2,6}: 12 bytes each.
    d = d2s_desc("uint8", depth=(1, 4, 1, 3))
    c = sd.compile(d)
    assert c.input_bytes == [12] and c.output_bytes == [12]
    out = bytearray(12)
    c.execute([bytes(range(12))], [out])
    assert list(out) == [0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11]
    with pytest.raises(BufferError):
        c.execute([bytes(8)], [bytearray(12)])  # shorter than total_bytes
    with pytest.raises(BufferError):
        c.execute([bytes(12)], [bytes(12)])  # read-only output
    # An NHWC input (channels innermost) into a padded space output (row pitch 7), CRD.
    rng = np.random.default_rng(12)
    nhwc = random_array(rng, (1, 2, 3, 8), np.float32)  # H=2, W=3, C=8
    ti = t("float32", [1, 8, 2, 3], strides=[48, 1, 24, 8])
    to = t("float32", [1, 2, 4, 6], strides=[28 * 2, 28, 7, 1])
    buf = np.full(56, -1, np.float32)
    sd.compile(sd.DepthToSpaceDesc(ti, to, 2, "CRD")).execute([nhwc], [buf])
    got = np.lib.stride_tricks.as_strided(buf, (1, 2, 4, 6), (224, 112, 28, 4))
    assert same_bits(got, ref_d2s(nhwc.transpose(0, 3, 1, 2), 2, "CRD"))
    assert (buf.reshape(8, 7)[:, 6] == -1).all()  # the padding is not written
    # And back: the padded space buffer into an NHWC depth buffer.
    back = np.zeros(48, np.float32)
    sd.compile(sd.SpaceToDepthDesc(to, ti, 2, "CRD")).execute([buf], [back])
    assert same_bits(back.reshape(1, 2, 3, 8), nhwc)
