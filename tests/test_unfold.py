"""Unfold (SPEC 3.14.3, im2col): a plain Python loop over window offsets and positions as the
independent reference for every dtype (and torch.nn.functional.unfold when torch is installed),
SPEC's examples, strides in and out, out= (numpy views, torch tensors in place), empty arrays,
misuse writing nothing, the description's rules, levels (SPEC 4: 6_4 only) and compile/execute."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import strided as sd
from conftest import ALL_DTYPES, random_array, same_bits

FL = sd.FeatureLevel


def ref_unfold(x, window, strides, dilations, begin, end):
    """SPEC 3.14.3's formula, one (window offset, position) pair at a time, all N and C at once."""
    n, c, spatial = x.shape[0], x.shape[1], x.shape[2:]
    d = len(spatial)
    blocks = [(spatial[i] + begin[i] + end[i] - dilations[i] * (window[i] - 1) - 1) // strides[i] + 1 for i in range(d)]
    k = int(np.prod(window))
    out = np.zeros((n, c * k, int(np.prod(blocks))), x.dtype)
    for wi, w in enumerate(itertools.product(*[range(s) for s in window])):
        for li, b in enumerate(itertools.product(*[range(s) for s in blocks])):
            p = [b[i] * strides[i] - begin[i] + w[i] * dilations[i] for i in range(d)]
            if all(0 <= p[i] < spatial[i] for i in range(d)):
                out[:, wi::k, li] = x[(slice(None), slice(None), *p)]
    return out


def per_dim(v, d):
    return list(v) if isinstance(v, (list, tuple)) else [v] * d


def check(x, window, strides=1, dilations=1, begin=0, end=0, **kw):
    d = x.ndim - 2
    want = ref_unfold(
        x, per_dim(window, d), per_dim(strides, d), per_dim(dilations, d), per_dim(begin, d), per_dim(end, d)
    )
    got = sd.unfold(x, window, strides, dilations, begin, end, **kw)
    assert same_bits(got, want), (x.shape, window, strides, dilations, begin, end)
    return got


def test_spec_examples() -> None:
    x = np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5)
    got = sd.unfold(x, (3, 3))
    assert got.shape == (1, 9, 9)
    assert got[0, 0].tolist() == [0, 1, 2, 5, 6, 7, 10, 11, 12]
    assert got[0, 8].tolist() == [12, 13, 14, 17, 18, 19, 22, 23, 24]
    got = sd.unfold(x, (3, 3), begin=(1, 0), end=(1, 0))
    assert got.shape == (1, 9, 15)
    assert got[0, 0].tolist() == [0, 0, 0, 0, 1, 2, 5, 6, 7, 10, 11, 12, 15, 16, 17]
    assert got[0, 8].tolist() == [7, 8, 9, 12, 13, 14, 17, 18, 19, 22, 23, 24, 0, 0, 0]
    y = np.arange(1, 11, dtype=np.int32).reshape(1, 2, 5)
    got = sd.unfold(y, 2, strides=2, dilations=2, begin=1, end=0)
    assert got.tolist() == [[[0, 2], [2, 4], [0, 7], [7, 9]]]
    # The description and compile/execute on raw buffers.
    d = sd.UnfoldDesc(
        sd.TensorDesc("float32", [1, 1, 5, 5]),
        sd.TensorDesc("float32", [1, 9, 15]),
        [3, 3],
        [1, 1],
        [1, 1],
        [1, 0],
        [1, 0],
    )
    d.validate()
    out = bytearray(9 * 15 * 4)
    sd.compile(d).execute([x.tobytes()], [out])
    r = np.frombuffer(out, np.float32).reshape(9, 15)
    assert r[0].tolist() == [0, 0, 0, 0, 1, 2, 5, 6, 7, 10, 11, 12, 15, 16, 17]
    assert same_bits(r[None], ref_unfold(x, [3, 3], [1, 1], [1, 1], [1, 0], [1, 0]))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
def test_every_dtype(dtype) -> None:
    rng = np.random.default_rng(1)
    x = random_array(rng, (2, 3, 6, 7), dtype)  # random bits: NaN payloads, -0.0 kept
    check(x, (3, 2), strides=(2, 1), dilations=(1, 2), begin=(1, 2), end=(2, 0))
    check(x[:, :, ::-1, ::2], 2, begin=1, end=1)
    check(random_array(rng, (1, 2, 9), dtype), 3, strides=2, dilations=2, begin=2, end=1)


@pytest.mark.parametrize(
    "shape,window,strides,dilations,begin,end",
    [
        ((1, 1, 5, 5), (3, 3), 1, 1, 0, 0),
        ((2, 3, 8, 9), (3, 3), 1, 1, 1, 1),
        ((2, 3, 8, 9), (2, 3), (2, 3), (2, 1), (0, 3), (4, 1)),
        ((1, 2, 4, 4), (1, 1), 1, 1, 0, 0),  # K = 1: a copy
        ((1, 2, 4, 4), (4, 4), 1, 1, 0, 0),  # one position
        ((1, 2, 3, 3), (2, 2), 5, 1, 4, 4),  # windows entirely in the padding
        ((1, 1, 2, 2), (3, 3), 1, 3, 3, 3),  # dilation larger than the input
        ((2, 2, 3, 4, 5), (2, 3, 2), (1, 2, 1), (1, 1, 2), (1, 0, 2), (0, 2, 1)),  # 3-d
        ((1, 1, 2, 2, 2, 2, 2, 2), 2, 1, 1, (0, 1, 0, 1, 0, 0), 0),  # 6 spatial dimensions
        ((3, 2, 17), 4, 3, 2, 5, 2),  # 1-d
    ],
)
def test_shapes_match_the_reference(shape, window, strides, dilations, begin, end, simd) -> None:
    x = random_array(np.random.default_rng(len(shape)), shape, np.int16)
    check(x, window, strides, dilations, begin, end)


@given(data=st.data())
def test_random_parameters_match_the_reference(data) -> None:
    d = data.draw(st.integers(1, 3))
    shape = [data.draw(st.integers(1, 2)), data.draw(st.integers(1, 3))] + data.draw(
        st.lists(st.integers(1, 6), min_size=d, max_size=d)
    )
    window = data.draw(st.lists(st.integers(1, 4), min_size=d, max_size=d))
    strides = data.draw(st.lists(st.integers(1, 4), min_size=d, max_size=d))
    dilations = data.draw(st.lists(st.integers(1, 3), min_size=d, max_size=d))
    begin = data.draw(st.lists(st.integers(0, 5), min_size=d, max_size=d))
    end = data.draw(st.lists(st.integers(0, 5), min_size=d, max_size=d))
    for i in range(d):  # grow the padding until the dilated window fits
        end[i] += max(0, dilations[i] * (window[i] - 1) + 1 - (shape[2 + i] + begin[i] + end[i]))
    x = random_array(np.random.default_rng(d), tuple(shape), np.uint8)
    if data.draw(st.booleans()):
        x = x[..., ::-1]
    check(x, window, strides, dilations, begin, end)


def test_any_thread_count(threads) -> None:
    x = random_array(np.random.default_rng(7), (2, 16, 30, 31), np.float32)
    check(x, (3, 3), begin=1, end=1)
    check(x, (5, 3), strides=(2, 1), dilations=(1, 3), begin=(2, 0), end=(2, 4))


def test_against_torch() -> None:
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    rng = np.random.default_rng(2)
    for dtype in (np.float32, np.float64):
        x = rng.standard_normal((3, 4, 11, 13)).astype(dtype)
        for kw in [
            dict(kernel_size=3),
            dict(kernel_size=3, padding=1),
            dict(kernel_size=(2, 3), stride=(2, 1), dilation=(1, 2), padding=(1, 2)),
            dict(kernel_size=(3, 1), stride=3, dilation=2, padding=0),
        ]:
            want = F.unfold(torch.from_numpy(x), **kw).numpy()
            got = sd.unfold(
                x,
                kw["kernel_size"],
                kw.get("stride", 1),
                kw.get("dilation", 1),
                kw.get("padding", 0),
                kw.get("padding", 0),
            )
            assert same_bits(got, want), kw
    # A torch tensor as x and as a non-contiguous out=, written in place.
    t = torch.from_numpy(rng.standard_normal((2, 3, 7, 6)).astype(np.float32))
    out = torch.empty((63, 18, 2)).permute(2, 1, 0)  # (2, 18, 63), N innermost in memory
    r = sd.unfold(t, (2, 3), end=(2, 3), begin=(1, 0), out=out)
    assert r is out
    want = F.unfold(F.pad(t, (0, 3, 1, 2)), (2, 3))
    assert torch.equal(out, want)


def test_input_strides() -> None:
    rng = np.random.default_rng(3)
    base = random_array(rng, (3, 4, 10, 12), np.uint8)
    for x in [
        base[:, ::-1, ::2, 1::3],
        base.transpose(0, 1, 3, 2),
        base[::2, 1:3, 7:1:-2],
        np.broadcast_to(base[:1, :1], (2, 3, 10, 12)),  # stride 0 over N and C
        base.transpose(0, 2, 3, 1)[..., 0:3].transpose(0, 3, 1, 2),  # NHWC memory
    ]:
        check(x, (3, 2), strides=(1, 2), begin=(1, 1), end=(0, 2))


def test_out_any_strides() -> None:
    rng = np.random.default_rng(4)
    x = random_array(rng, (2, 3, 5, 6), np.int64)
    want = ref_unfold(x, [2, 2], [1, 2], [1, 1], [1, 0], [0, 1])  # (2, 12, 15)
    views = [
        ((2, 15, 17), lambda b: b[:, 1:13, 2:]),  # padded
        ((2, 12, 15), lambda b: b[::-1, ::-1, ::-1]),  # negative strides
        ((15, 12, 2), lambda b: b.transpose(2, 1, 0)),  # N innermost in memory
        ((4, 24, 30), lambda b: b[::2, ::2, ::2]),
    ]
    for shape, view in views:
        buf = np.full(shape, -1, np.int64)
        expect = buf.copy()
        view(expect)[...] = want
        out = view(buf)
        r = sd.unfold(x, 2, strides=(1, 2), begin=(1, 0), end=(0, 1), out=out)
        assert r is out and same_bits(buf, expect)  # out's elements written, nothing else


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.float64], ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("streamed", [False, True], ids=["cached", "streamed"])
def test_packed_rows_in_address_order(dtype, streamed, simd) -> None:
    """Into a row-major packed result or out= (rows of unit-stride windows), unfold writes the
    output in address order, each row's run with its zeros: 1-d to 3-d, windows partly and wholly
    in the padding, an out= shifted by one element between sentinels, 1-4 threads, streamed."""
    core = sd._core
    old_t, old_s = sd.get_num_threads(), core._stream_threshold()
    if streamed:
        core._set_stream_threshold(0)
    try:
        rng = np.random.default_rng(11)
        cases = [
            ((2, 5, 40, 37), (3, 3), 1, 1, 1, 1),
            ((2, 8, 64, 61), (3, 3), 1, 1, 1, 1),  # 0.56-4.5 MiB: parts on several threads
            ((1, 3, 23, 29), (5, 2), (2, 1), (2, 3), (3, 0), (4, 6)),  # strided rows, dilated
            ((2, 2, 70), 7, 1, 2, 9, 3),  # 1-d, offsets whose box is empty
            ((1, 2, 6, 7, 9), (2, 3, 3), (1, 2, 1), 1, (1, 0, 2), (0, 1, 2)),  # 3-d
            ((1, 1, 3, 3), (2, 2), 1, 1, 5, 5),  # mostly padding
        ]
        w = np.dtype(dtype).itemsize
        for shape, window, strides, dilations, begin, end in cases:
            x = random_array(rng, shape, dtype)
            d = x.ndim - 2
            want = ref_unfold(
                x, per_dim(window, d), per_dim(strides, d), per_dim(dilations, d), per_dim(begin, d), per_dim(end, d)
            )
            for t in (1, 2, 3, 4):
                sd.set_num_threads(t)
                assert same_bits(sd.unfold(x, window, strides, dilations, begin, end), want)
                buf = np.full(want.nbytes + 3 * w, 0xA5, np.uint8)
                out = buf[w : w + want.nbytes].view(dtype).reshape(want.shape)
                assert sd.unfold(x, window, strides, dilations, begin, end, out=out) is out
                assert same_bits(out, want)
                assert (buf[:w] == 0xA5).all() and (buf[w + want.nbytes :] == 0xA5).all()
    finally:
        sd.set_num_threads(old_t)
        core._set_stream_threshold(old_s)


def test_empty_arrays() -> None:
    for shape, window, want_shape in [((0, 3, 5, 5), 3, (0, 27, 9)), ((2, 0, 5, 5), 3, (2, 0, 9))]:
        x = np.zeros(shape, np.float16)
        got = sd.unfold(x, window)
        assert got.shape == want_shape and got.dtype == np.float16
        out = np.zeros(want_shape, np.float16)
        assert sd.unfold(x, window, out=out) is out
    # An empty spatial dimension inside padding: every position is padding.
    x = np.zeros((2, 3, 0, 4), np.int8)
    got = sd.unfold(x, (1, 2), begin=(1, 0), end=(1, 0))
    assert got.shape == (2, 6, 6) and not got.any()
    out = np.full((2, 6, 6), 5, np.int8)
    assert sd.unfold(x, (1, 2), begin=(1, 0), end=(1, 0), out=out) is out and not out.any()
    with pytest.raises(sd.ValidationError, match=r"^unfold\.window\[0\]: the dilated window"):
        sd.unfold(x, (1, 2))


def test_misuse_writes_nothing() -> None:
    x = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
    out = np.full((2, 27, 6), 7, np.float32)
    cases = [
        (
            dict(window=(5, 3)),
            r"^unfold\.window\[0\]: the dilated window dilations\[0\] \* \(window - 1\) \+ 1 = 5 "
            r"is larger than the padded input 4 \+ 0 \+ 0 = 4$",
        ),
        (dict(window=3, dilations=(1, 3)), r"^unfold\.window\[1\]: the dilated window .* = 7 is larger"),
        (dict(window=3, strides=(1, 0)), r"^unfold\.strides\[1\]: must be at least 1, got 0$"),
        (dict(window=3, dilations=0), r"^unfold\.dilations\[0\]: must be at least 1, got 0$"),
        (dict(window=(3, 0)), r"^unfold\.window\[1\]: must be at least 1, got 0$"),
        (dict(window=3, begin=-1), r"^unfold\.begin\[0\]: must not be negative, got -1$"),
        (dict(window=3, end=(0, -2)), r"^unfold\.end\[1\]: must not be negative, got -2$"),
        (dict(window=(3, 3, 3)), r"^unfold\.window: must have one value per spatial dimension of x \(2\), got 3$"),
        (dict(window=3, strides=(1,)), r"^unfold\.strides: must have one value per spatial dimension"),
        (dict(window=2), r"^out: expected shape \(2, 12, 12\), got \(2, 27, 6\)$"),
    ]
    for kw, msg in cases:
        with pytest.raises(sd.ValidationError, match=msg):
            sd.unfold(x, out=out, **kw)
    with pytest.raises(sd.ValidationError, match="expected dtype float32, got float64"):
        sd.unfold(x, 3, out=np.zeros((2, 27, 6), np.float64))
    with pytest.raises(sd.ValidationError, match=r"^unfold\.x: must have 3 to 8 dimensions"):
        sd.unfold(x[0, 0], 3)
    with pytest.raises(TypeError, match=r"unfold\.window\[1\]: expected an integer"):
        sd.unfold(x, (3, 2.5), out=out)
    ro = np.zeros((2, 27, 6), np.float32)
    ro.flags.writeable = False
    with pytest.raises(BufferError, match="read-only"):
        sd.unfold(x, 3, out=ro)
    shared = np.lib.stride_tricks.as_strided(out, (2, 27, 6), (out.strides[0], out.strides[1], 0))  # stride 0
    with pytest.raises(BufferError, match="overlap each other"):
        sd.unfold(x, 3, out=shared)
    assert (out == 7).all()
    sd.unfold(x, 3, out=out)
    assert same_bits(out, ref_unfold(x, [3, 3], [1, 1], [1, 1], [0, 0], [0, 0]))


# ------------------------------------------------------------------ the description


def desc(
    sizes,
    window,
    strides=None,
    dilations=None,
    begin=None,
    end=None,
    dtype="float32",
    out_sizes=None,
    out_dtype=None,
    **kw,
) -> sd.UnfoldDesc:
    d = len(window)
    strides, dilations = strides or [1] * d, dilations or [1] * d
    begin, end = begin or [0] * d, end or [0] * d
    if out_sizes is None:
        blocks = [
            (sizes[2 + i] + begin[i] + end[i] - dilations[i] * (window[i] - 1) - 1) // strides[i] + 1 for i in range(d)
        ]
        out_sizes = [sizes[0], sizes[1] * int(np.prod(window)), int(np.prod(blocks))]
    return sd.UnfoldDesc(
        sd.TensorDesc(dtype, sizes),
        sd.TensorDesc(out_dtype or dtype, out_sizes, **kw),
        window,
        strides,
        dilations,
        begin,
        end,
    )


def test_rules() -> None:
    desc([1, 1, 5, 5], [3, 3]).validate()
    desc([1, 1, 5, 5], [3, 3], out_sizes=[1, 1, 1, 9, 9]).validate()  # leading 1s
    bad = [
        (
            desc([1, 1, 5, 5], [3, 3], out_sizes=[1, 9, 8]),
            r"^UnfoldDesc\.output\.sizes\[2\]: must be 9 \(expected sizes \{1,9,9\}\), got 8$",
        ),
        (desc([1, 1, 5, 5], [3, 3], out_sizes=[9, 9]), r"^UnfoldDesc\.output\.sizes: must have at least 3"),
        (desc([1, 1, 5, 5], [3, 3], out_dtype="float16"), r"^UnfoldDesc\.output\.dtype"),
        (desc([1, 1, 5, 5], [6, 3], out_sizes=[1, 18, 3]), r"^UnfoldDesc\.window_sizes\[0\]: the dilated window"),
        (desc([1, 1, 5, 5], [3, 3], strides=[1, 0], out_sizes=[1, 9, 9]), r"^UnfoldDesc\.strides\[1\]: stride must"),
        (desc([1, 1, 5, 5], [3, 3], dilations=[0, 1], out_sizes=[1, 9, 9]), r"^UnfoldDesc\.dilations\[0\]:"),
        (desc([1, 1, 5, 5], [3, 3], begin=[-1, 0], out_sizes=[1, 9, 9]), r"^UnfoldDesc\.start_padding\[0\]: padding"),
        (desc([1, 1, 5, 5], [0, 3], out_sizes=[1, 9, 9]), r"^UnfoldDesc\.window_sizes\[0\]: window size must be at"),
        (
            desc([1, 1, 5], [3, 3], out_sizes=[1, 9, 9]),
            r"^UnfoldDesc\.input\.sizes: must have 2 \+ len\(window_sizes\)",
        ),
        (
            sd.UnfoldDesc(sd.TensorDesc("float32", [1, 1, 5]), sd.TensorDesc("float32", [1, 1, 5]), [], [], [], [], []),
            r"^UnfoldDesc\.window_sizes: must have 1 to 6 values",
        ),
        (
            sd.UnfoldDesc(
                sd.TensorDesc("float32", [1, 1, 5, 5]),
                sd.TensorDesc("float32", [1, 9, 9]),
                [3, 3],
                [1],
                [1, 1],
                [0, 0],
                [0, 0],
            ),
            r"^UnfoldDesc\.strides: must have one value per spatial dimension",
        ),
        (
            desc([1, 1, 5, 5], [3, 3], strides=[1, 2**62], dilations=[1, 2**62], out_sizes=[1, 9, 3]),
            r"^UnfoldDesc\.window_sizes\[1\]: the dilated window",
        ),
    ]
    for d, msg in bad:
        with pytest.raises(sd.ValidationError, match=msg):
            d.validate()
        assert not d.is_valid_at(FL.FL_6_4)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
def test_levels(dtype) -> None:
    d = desc([2, 3, 4, 5], [2, 2], dtype=np.dtype(dtype).name)
    assert d.min_feature_level == FL.FL_6_4
    assert d.is_valid_at(FL.FL_6_4) and not any(d.is_valid_at(lv) for lv in FL if lv < FL.FL_6_4)
    with pytest.raises(sd.ValidationError, match=r"^UnfoldDesc: .*feature level 6_4"):
        d.validate(FL.FL_6_3)


def test_level_limits() -> None:
    desc([1, 1, 1, 1, 1, 1, 1, 3], [1, 1, 1, 1, 1, 2]).validate(FL.FL_6_4)  # 8 dimensions: 6 spatial
    # A stride over DirectML's UINT executes but no level accepts it.
    d = desc([1, 1, 3], [2], strides=[2**32])
    d.validate()
    with pytest.raises(sd.ValidationError, match=r"^UnfoldDesc\.strides\[0\]: 4294967296 does not fit"):
        d.min_feature_level
    assert not any(d.is_valid_at(lv) for lv in FL)


def test_compile_execute_strided_buffers() -> None:
    rng = np.random.default_rng(8)
    x = random_array(rng, (2, 3, 6, 5), np.uint16)
    want = ref_unfold(x, [3, 2], [2, 1], [1, 2], [1, 0], [1, 2])  # (2, 18, 3*5)
    xt = np.ascontiguousarray(x.transpose(0, 2, 3, 1))  # NHWC memory, described by strides
    in_desc = sd.TensorDesc("uint16", [2, 3, 6, 5], strides=[90, 1, 15, 3])
    out_desc = sd.TensorDesc("uint16", [2, 18, 15], strides=[1, 2 * 15, 2])  # N innermost
    d = sd.UnfoldDesc(in_desc, out_desc, [3, 2], [2, 1], [1, 2], [1, 0], [1, 2])
    assert d.min_feature_level == FL.FL_6_4
    buf = np.zeros(2 * 18 * 15, np.uint16)
    sd.compile(d).execute([xt], [buf])
    got = np.lib.stride_tricks.as_strided(buf, (2, 18, 15), (2, 60, 4))
    assert same_bits(got, want)


def test_cpp_reference_independent_of_torch() -> None:
    # The numpy loop agrees with SPEC's examples, so the dtype tests do not lean on torch.
    x = np.arange(25, dtype=np.int64).reshape(1, 1, 5, 5)
    r = ref_unfold(x, [3, 3], [1, 1], [1, 1], [1, 0], [1, 0])
    assert r[0, 8].tolist() == [7, 8, 9, 12, 13, 14, 17, 18, 19, 22, 23, 24, 0, 0, 0]
