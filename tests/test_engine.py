"""The copy engine through the public functions (sd.copy, sd.slice, sd.split, sd.join), bit-exact
against numpy, for every dtype, 1 and 2 threads and EVERY SIMD target this CPU runs (highway's
rule: test all compiled targets, not only the best one)."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import strided as sd
from strided import _core
from conftest import team_of

DTYPES = [
    np.float32,
    np.float16,
    np.uint32,
    np.uint16,
    np.uint8,
    np.int32,
    np.int16,
    np.int8,
    np.float64,
    np.uint64,
    np.int64,
]
TARGETS = _core._simd_targets()
SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)


@pytest.fixture(params=TARGETS)
def target(request):
    before = _core._simd()
    _core._set_simd(request.param)
    yield request.param
    _core._set_simd(before)


def bits(a: np.ndarray) -> np.ndarray:
    """The same elements as unsigned integers: compares NaN payloads and -0.0 exactly."""
    return a.view(np.dtype(f"u{a.dtype.itemsize}"))


def random_array(rng: np.random.Generator, shape, dtype) -> np.ndarray:
    n = int(np.prod(shape)) * np.dtype(dtype).itemsize
    return rng.integers(0, 256, size=n, dtype=np.uint8).view(dtype).reshape(shape)


def assert_same(got: np.ndarray, want: np.ndarray) -> None:
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(bits(got), bits(want))


@st.composite
def views(draw, allow_broadcast: bool = True, max_dims: int = 8):
    """(view, parent): a strided view of a random parent array, with padding, negative steps,
    permuted axes and (for sources) broadcast dimensions."""
    nd = draw(st.integers(1, max_dims))
    cap = 4 if nd > 4 else 7
    shape = draw(st.lists(st.integers(0, cap), min_size=nd, max_size=nd))
    dtype = draw(st.sampled_from(DTYPES))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    steps = [draw(st.sampled_from([1, 1, 1, -1, 2, -2])) for _ in range(nd)]
    bcast = [allow_broadcast and draw(st.integers(0, 5)) == 0 for _ in range(nd)]
    pads = [draw(st.integers(0, 2)) for _ in range(nd)]
    perm = draw(st.permutations(range(nd)))
    # parent laid out in the permuted order, big enough for the steps and pads
    pshape = [1 if b else n * abs(s) + p for n, s, b, p in zip(shape, steps, bcast, pads)]
    parent = random_array(rng, [pshape[i] for i in perm], dtype)
    inv = np.argsort(perm)
    v = parent.transpose(inv)
    # build per-dim slices explicitly (numpy's negative-step slicing from the end)
    sl = []
    for n, s, b, ps in zip(shape, steps, bcast, pshape):
        if b:
            sl.append(np.s_[0:1])
        elif s > 0:
            sl.append(np.s_[0 : n * s : s])
        else:
            sl.append(np.s_[ps - 1 :: s] if n else np.s_[0:0])
    v = v[tuple(sl)]
    v = v[tuple(np.s_[:] if b else np.s_[:n] for n, b in zip(shape, bcast))]
    if any(bcast):
        v = np.broadcast_to(v, tuple(shape))
    assert v.shape == tuple(shape), (v.shape, shape)
    return v, parent


@st.composite
def copy_case(draw):
    src, _ = draw(views())
    nd = src.ndim
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    steps = [draw(st.sampled_from([1, 1, -1, 2])) for _ in range(nd)]
    perm = draw(st.permutations(range(nd)))
    pshape = [n * abs(s) + 1 for n, s in zip(src.shape, steps)]
    parent = random_array(rng, [pshape[i] for i in perm], src.dtype)
    v = parent.transpose(np.argsort(perm))
    sl = tuple(np.s_[0 : n * s : s] if s > 0 else np.s_[p - 1 :: s] for n, s, p in zip(src.shape, steps, pshape))
    dst = v[sl][tuple(np.s_[:n] for n in src.shape)]
    assert dst.shape == src.shape
    return src, dst, parent


@SETTINGS
@given(case=copy_case())
def test_copy_random_views(target, threads, case):
    src, dst, parent = case
    want = parent.copy()
    # the same view of the expected parent
    off = dst.__array_interface__["data"][0] - parent.__array_interface__["data"][0]
    want_view = np.lib.stride_tricks.as_strided(want.reshape(-1)[off // want.itemsize :], dst.shape, dst.strides)
    want_view[...] = src
    sd.copy(src, dst)
    np.testing.assert_array_equal(bits(parent), bits(want))  # the view is right, padding untouched


@SETTINGS
@given(data=st.data())
def test_slice_random(target, threads, data):
    x, _ = data.draw(views(allow_broadcast=False))
    offs, sizes, strides, index = [], [], [], []
    for n in x.shape:
        o = data.draw(st.integers(0, n))
        s = data.draw(st.integers(0, n - o))
        t = data.draw(st.sampled_from([1, 2, 3, -1, -2]))
        offs.append(o), sizes.append(s), strides.append(t)
        if t > 0:
            index.append(np.s_[o : o + s : t])
        else:
            index.append(np.s_[o + s - 1 : (o - 1 if o > 0 else None) : t] if s else np.s_[0:0])
    got = sd.slice(x, offs, sizes, strides)
    assert_same(got, x[tuple(index)])


@SETTINGS
@given(data=st.data())
def test_split_join_random(target, threads, data):
    x, _ = data.draw(views(allow_broadcast=False))
    axis = data.draw(st.integers(0, x.ndim - 1))
    n = x.shape[axis]
    cuts = sorted(data.draw(st.lists(st.integers(0, n), min_size=0, max_size=3)))
    sizes = np.diff([0, *cuts, n]).tolist()
    parts = sd.split(x, sizes, axis=axis)
    want = np.split(x, np.cumsum(sizes)[:-1], axis=axis)
    for got, w in zip(parts, want):
        assert_same(got, np.ascontiguousarray(w))
    assert_same(sd.join(parts, axis=axis), np.concatenate(want, axis=axis))
    # join of non-contiguous inputs (the reversed parts)
    rev = [p[..., ::-1] for p in parts]
    assert_same(sd.join(rev, axis=axis), np.concatenate(rev, axis=axis))


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.float64])
def test_transpose_tile_edges(target, dtype):
    rng = np.random.default_rng(7)
    big = random_array(rng, (41, 41), dtype)
    for r in range(1, 41):
        for c in range(1, 41):
            a = big[:r, :c]
            out = np.empty((c, r), dtype)
            sd.copy(a.T, out)
            assert_same(out, a.T.copy())
    # odd sizes with batch dims and a reversed axis
    a = random_array(rng, (3, 37, 29), dtype)
    out = np.empty((3, 29, 37), dtype)
    sd.copy(a.transpose(0, 2, 1)[:, ::-1], out)
    assert_same(out, a.transpose(0, 2, 1)[:, ::-1].copy())


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.float64])
@pytest.mark.parametrize("c", [16, 20, 24, 32, 36, 40, 48, 60, 64, 65, 100])
def test_transpose_crowded_planes(target, threads, dtype, c):
    """NHWC -> NCHW into planes a multiple of 4 KiB apart (they share one L1 set; the planes'
    runs staged in L1: plane_runs's strips, or other paths a window at a time into a buffer,
    of 128 pixels for float16 C = 60), whole and padded planes, pixel counts around the windows, the
    output one element off alignment; and 2-D transposes of 4 KiB source rows (crowded too),
    the source one element into a line."""
    rng = np.random.default_rng(c)
    isz = np.dtype(dtype).itemsize
    cases = [(n, c) for n in (255, 256, 300, 4096 // isz, 2048 + 5)] + [(300, 4096 // isz)] * (c == 16)
    for n, ch in cases:
        pitch = -(-n * isz // 4096) * 4096 // isz  # elements between planes
        x = random_array(rng, (n * ch + 1,), dtype)[1:].reshape(n, ch)
        buf = np.zeros(ch * pitch + 1, dtype)
        out = np.lib.stride_tricks.as_strided(buf[1:], (ch, n), (pitch * isz, isz))
        sd.copy(x.T, out)
        want = np.zeros_like(buf)
        np.lib.stride_tricks.as_strided(want[1:], (ch, n), (pitch * isz, isz))[...] = x.T
        assert_same(buf, want)


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.float64])
@pytest.mark.parametrize("c", [16, 17, 20, 25, 36, 57, 63, 65, 100, 127, 130])
def test_transpose_from_crowded_planes(target, threads, dtype, c):
    """NCHW -> NHWC from planes a multiple of 4 KiB apart (they share one L1 set; a window of
    every plane staged in L1 first, 256 pixels or fewer as C grows), whole and padded planes,
    pixel counts around the windows, the source one element off alignment, the output packed
    and one element off."""
    rng = np.random.default_rng(c)
    isz = np.dtype(dtype).itemsize
    for n in (31, 255, 256, 300, 4096 // isz, 2048 + 5):
        pitch = -(-n * isz // 4096) * 4096 // isz  # elements between planes
        src = random_array(rng, (c * pitch + 1,), dtype)
        x = np.lib.stride_tricks.as_strided(src[1:], (c, n), (pitch * isz, isz))
        for off in (0, 1):
            buf = np.zeros(n * c + off, dtype)
            out = buf[off:].reshape(n, c)
            sd.copy(x.T, out)
            assert_same(out, x.T.copy())


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.float64])
@pytest.mark.parametrize("nt", [1, 2, 3])
def test_transpose_crowded_source_rows(target, dtype, nt):
    """2-D transposes (and NCHW -> NHWC, the same copy) from source rows a multiple of 4 KiB apart
    (their lines share one L1 set), whole rows and rows cut short, into destination rows that
    crowd (packed 1024 or padded to 4 KiB: plane_runs's strips of 256 bytes for float32 and
    float64, windows and strips ending past their last whole one) or not: the thread split by
    source rows in pieces of at least 256 pixels, two or more a thread (counts that leave a
    short last piece, and 3 threads), plane_runs reading ahead; the source one element into a
    line."""
    rng = np.random.default_rng(nt)
    row = 4096 // np.dtype(dtype).itemsize
    with team_of(nt):
        for n in (255, 256, 520, 777, 1000, 1024, 1100, 1600):
            x = random_array(rng, (n * row + 1,), dtype)[1:].reshape(n, row)
            pitch = -(-n // row) * row  # destination rows padded to a multiple of 4 KiB
            for cols in (row, row - 40):
                for out in (np.zeros((cols, n), dtype), np.zeros((cols, pitch), dtype)[:, :n]):
                    sd.copy(x[:, :cols].T, out)
                    assert_same(out, x[:, :cols].T.copy())
        if row == 4096:  # uint8 2048 x 2048 (rows 2 KiB apart; pieces of 512 pixels on 2 threads)
            x = random_array(rng, (2048 * 2048 + 1,), dtype)[1:].reshape(2048, 2048)
            for cols in (2048, 2000):
                out = np.zeros((cols, 2048), dtype)
                sd.copy(x[:, :cols].T, out)
                assert_same(out, x[:, :cols].T.copy())
        # a batch of them (the split's pieces in each)
        x = random_array(rng, (3, 777, row), dtype)
        out = np.zeros((3, row, 777), dtype)
        sd.copy(x.transpose(0, 2, 1), out)
        assert_same(out, x.transpose(0, 2, 1).copy())


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.float64])
@pytest.mark.parametrize("c", [2, 3, 4, 5, 8, 12, 15, 16, 17, 20, 24, 31, 32, 40, 48, 63])
@pytest.mark.parametrize("to_planes", [True, False], ids=["nhwc_to_nchw", "nchw_to_nhwc"])
def test_narrow_transposes(target, dtype, c, to_planes):
    """A few channels (the narrow de-interleave and interleave and their vector kernels; uint8
    and float16 pixels of 17..63 bytes by groups of 16 bytes): every length around the vector
    sizes and the 4 KiB staging chunks, sources starting one pixel in, outputs one element off
    alignment and aligned."""
    rng = np.random.default_rng(c)
    for n in [*range(1, 100), 1000, 4099]:
        x = random_array(rng, (n + 1, c) if to_planes else (c, n + 1), dtype)
        x = x[1:] if to_planes else x[:, 1:]  # n pixels of c channels, or c planes of n
        for off in (0, 1):
            buf = np.zeros(c * n + off + 1, dtype)
            out = buf[off : off + c * n].reshape(x.T.shape)
            sd.copy(x.T, out)
            assert_same(out, x.T.copy())
            assert not buf[:off].any() and buf[-1] == 0


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.float64])
@pytest.mark.parametrize("c", [2, 3, 4, 5, 7, 8, 12, 16, 20, 24, 32, 40, 63])
@pytest.mark.parametrize("to_planes", [True, False], ids=["nhwc_to_nchw", "nchw_to_nhwc"])
def test_narrow_streamed_any_offset(target, dtype, c, to_planes):
    """A few channels with streaming stores forced, into outputs 0, 16, 32 and 48 bytes into a
    line and one element off. NCHW -> NHWC: rows of 32 or 64 bytes from 16 bytes into a line never
    reach a line boundary (float32 C = 8, nChw8c; float16 C = 16; uint8 C = 32; float64 C = 4
    and 8) and are staged in L1 chunks. NHWC -> NCHW (nChw8c -> NCHW; uint8 C = 5..16, 32): planes
    a whole number of lines apart and long enough to stream, and not. Lengths around the vector
    blocks and the chunks."""
    rng = np.random.default_rng(c)
    isz = np.dtype(dtype).itemsize
    lengths = (4096 // isz + 64 // isz, 4096 // isz + 64 // isz + 17, 8192 // isz + 5, 100)
    old = sd._core._stream_threshold()
    sd._core._set_stream_threshold(0)
    try:
        for n in lengths if to_planes else (15, 16, 17, 127, 129, 1000, 4099):
            # n pixels of c channels, or c planes of n, one pixel in
            x = random_array(rng, (n + 1, c), dtype)[1:] if to_planes else random_array(rng, (c, n + 1), dtype)[:, 1:]
            for off in sorted({0, 16 // isz, 32 // isz, 48 // isz, 1}):
                buf = np.zeros(c * n + 64 // isz + off + 1, dtype)
                a = (-buf.ctypes.data) % 64 // isz + off  # `off` elements past a line boundary
                out = buf[a : a + c * n].reshape(x.T.shape)
                sd.copy(x.T, out)
                assert_same(out, x.T.copy())
                assert not buf[:a].any() and not buf[a + c * n :].any()
    finally:
        sd._core._set_stream_threshold(old)


@pytest.mark.skipif(sys.platform == "win32", reason="guard pages by mmap + mprotect (POSIX)")
@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.float64])
@pytest.mark.parametrize("c", [3, 5, 8, 9, 12, 15, 20, 24, 40, 63])
@pytest.mark.parametrize("streamed", [False, True])
def test_narrow_deinterleave_source_ends_at_a_guard_page(target, dtype, c, streamed):
    """Pixels of c elements into planes, the last pixel's last byte before a PROT_NONE page: the
    vector kernels load 16 elements from a pixel's start (uint8 C = 5..15, float32 and float64
    C = 9..15) or
    from a 16-byte group's (uint8 and float16 pixels of 17..63 bytes), and must stop before that
    reads past the source (a read past it ends the process)."""
    from _guard import guarded

    rng = np.random.default_rng(c)
    old = sd._core._stream_threshold()
    sd._core._set_stream_threshold(0 if streamed else old)
    try:
        for n in (64, 65, 127, 128, 1000, 4096 + 64):
            x = guarded((n, c), dtype, at_end=True)
            x[...] = random_array(rng, (n, c), dtype)
            out = np.zeros((c, n), dtype)
            sd.copy(x.T, out)
            assert_same(out, x.T.copy())
    finally:
        sd._core._set_stream_threshold(old)


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32])
def test_narrow_deinterleave_streamed(target, threads, dtype):
    """Three channels into rows above the streaming threshold (16 MiB of output), aligned and not."""
    rng = np.random.default_rng(11)
    n = (17 << 20) // (3 * np.dtype(dtype).itemsize) + 5
    x = random_array(rng, (n, 3), dtype)
    for off in (0, 1):
        buf = np.zeros(3 * n + off, dtype)
        out = buf[off:].reshape(3, n)
        sd.copy(x.T, out)
        assert_same(out, x.T.copy())


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.float64])
@pytest.mark.parametrize("k", [2, 3, 4, 5])
def test_step_gathers(target, dtype, k):
    """x[::k] (the strided gather and its vector forms): every length around the vector sizes and
    the 1 KiB staging chunks, the last element used the source buffer's last (a vector step must
    not read past it), outputs one element off alignment and aligned."""
    rng = np.random.default_rng(k)
    for n in [*range(1, 100), 1000, 4099]:
        base = random_array(rng, ((n - 1) * k + 2,), dtype)
        x = base[1::k]  # n elements, the last at base[-1]
        for off in (0, 1):
            buf = np.zeros(n + off + 1, dtype)
            out = buf[off : off + n]
            sd.copy(x, out)
            assert_same(out, x.copy())
            assert not buf[:off].any() and buf[-1] == 0


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32])
def test_step_gather_streamed(target, threads, dtype):
    """x[:, ::2] with rows above the streaming threshold (16 MiB of output), aligned and not."""
    rng = np.random.default_rng(12)
    cols = (17 << 20) // (64 * np.dtype(dtype).itemsize) + 3
    x = random_array(rng, (64, 2 * cols), dtype)[:, ::2]
    for off in (0, 1):
        buf = np.zeros(x.size + off, dtype)
        out = buf[off:].reshape(x.shape)
        sd.copy(x, out)
        assert_same(out, x.copy())


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.float64])
@pytest.mark.parametrize("c", [16, 24, 40, 64, 128, 256, 512])
def test_planes_streamed_any_alignment(target, threads, dtype, c):
    """NHWC -> NCHW through the panels with streaming stores forced, into outputs starting at every
    element offset within a 64-byte line (the panels first store the columns up to a line
    boundary) and planes whose length is not a multiple of the panel or the line. Source rows
    over 64 bytes are staged in strips, the last strip of a panel shorter (C = 40, 128); long
    ones (C = 128, 256) in panels of at least 4-8 lines of each plane; uint8 C = 512 split by
    columns on two threads."""
    rng = np.random.default_rng(c)
    isz = np.dtype(dtype).itemsize
    old = sd._core._stream_threshold()
    sd._core._set_stream_threshold(0)
    try:
        for hw in (2624, 4096 + 7):  # planes a multiple of 64 bytes apart (the peel), and not
            x = random_array(rng, (hw, c), dtype)
            for off in range(0, 64 // isz + 1, max(1, 16 // isz)):
                buf = np.zeros(c * hw + off + 1, dtype)
                out = buf[off : off + c * hw].reshape(c, hw)
                sd.copy(x.T, out)
                assert_same(out, x.T.copy())
                assert not buf[:off].any() and buf[-1] == 0
    finally:
        sd._core._set_stream_threshold(old)


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.float64])
@pytest.mark.parametrize("c", [96, 128, 192, 256, 320, 500, 512])
def test_transpose_streamed_into_rows_off_the_line(target, threads, dtype, c):
    """NCHW -> NHWC with many channels, streaming stores forced, into outputs that start at every
    element offset within a 64-byte line: the tiles start where the destination's lines do and
    each tile row's last line (a pixel's tail, the next one's head) is tiled from rows copied
    aside; pixel counts just past a tile, not a multiple of a tile (the last tile ends at the
    last pixel), and planes 4 KiB apart (the tiles' four-at-a-time loads); C = 500, rows not
    a whole number of lines, through the panels. The bytes around the output stay untouched."""
    rng = np.random.default_rng(c)
    isz = np.dtype(dtype).itemsize
    old = sd._core._stream_threshold()
    sd._core._set_stream_threshold(0)
    try:
        for hw in (64 // isz + 1, 100, 784, 1000, 4096 // isz):
            x = random_array(rng, (c, hw), dtype)
            for at in (0, 8, 16, 48, 56):  # bytes into a line
                buf = np.zeros(c * hw + 128 // isz, dtype)
                off = ((-buf.ctypes.data) % 64 + at) // isz
                out = buf[off : off + c * hw].reshape(hw, c)
                sd.copy(x.T, out)
                assert_same(out, x.T.copy())
                assert not buf[:off].any() and not buf[off + c * hw :].any()
    finally:
        sd._core._set_stream_threshold(old)


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float32, np.int64])
def test_large_copies(target, threads, dtype):
    rng = np.random.default_rng(3)
    a = random_array(rng, (1031, 2053), dtype)  # ~2-16 MiB: threaded, odd sizes
    out = np.empty((2053, 1031), dtype)
    sd.copy(a.T, out)
    assert_same(out, a.T.copy())
    rev = sd.slice(a, [0, 0], list(a.shape), [1, -1])
    assert_same(rev, a[:, ::-1].copy())
    rev = sd.slice(a, [0, 0], list(a.shape), [-1, 1])
    assert_same(rev, a[::-1].copy())
    every2 = sd.slice(a, [0, 1], [1031, 2052], [1, 2])
    assert_same(every2, a[:, 1::2].copy())
    parts = sd.split(a, [1000, 1053], axis=1)
    assert_same(parts[1], a[:, 1000:].copy())
    assert_same(sd.join(parts, axis=1), a)
    row = random_array(rng, (2053,), dtype)
    out2 = np.empty_like(a)
    sd.copy(row, out2)
    assert_same(out2, np.broadcast_to(row, a.shape).copy())
    col = random_array(rng, (1031, 1), dtype)
    sd.copy(col, out2)
    assert_same(out2, np.broadcast_to(col, a.shape).copy())


@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_streaming_sizes(target, threads, dtype):
    """Outputs above the streaming threshold (16 MiB) at unaligned offsets."""
    rng = np.random.default_rng(5)
    n = (17 << 20) // np.dtype(dtype).itemsize + 3
    buf = random_array(rng, (n + 1,), dtype)
    a = buf[1:]
    out_buf = np.zeros(n + 1, dtype)
    out = out_buf[1:]
    sd.copy(a, out)
    assert_same(out, a)
    sd.copy(a[::-1], out)
    assert_same(out, a[::-1].copy())
    sd.copy(a[:1], out)
    assert_same(out, np.broadcast_to(a[:1], out.shape).copy())
    assert out_buf[0] == 0


@pytest.mark.parametrize("offset", range(0, 64, 4))
def test_streamed_rows_at_every_offset_in_a_line(target, offset):
    """Streamed rows that start anywhere in a cache line (each row's last line shared with the
    next row's first): broadcast rows, a depth_to_space interleave, rows of a 2-d copy. The
    bytes around the output stay untouched."""
    rng = np.random.default_rng(offset)
    old = _core._stream_threshold()
    _core._set_stream_threshold(0)
    try:
        buf = np.zeros(64 * 250 * 4 + 256, np.uint8)
        start = (-buf.ctypes.data) % 64 + offset
        out = buf[start : start + 64 * 250 * 4].view(np.float32).reshape(64, 250)
        row = rng.standard_normal(250).astype(np.float32)
        sd.copy(row, out)
        assert_same(out, np.broadcast_to(row, out.shape).copy())
        x = rng.standard_normal((64, 500)).astype(np.float32)
        sd.copy(x[:, 100:350], out)
        assert_same(out, x[:, 100:350].copy())
        d2s = buf[start : start + 16 * 256 * 4].view(np.float32).reshape(1, 1, 16, 256)
        y = rng.standard_normal((1, 4, 8, 128)).astype(np.float32)
        sd.depth_to_space(y, 2, "DCR", out=d2s)
        want = y.reshape(1, 2, 2, 1, 8, 128).transpose(0, 3, 4, 1, 5, 2).reshape(1, 1, 16, 256)
        assert_same(d2s, want)
        assert not buf[:start].any() and not buf[start + 64 * 250 * 4 :].any()
    finally:
        _core._set_stream_threshold(old)


@pytest.mark.parametrize("offset", range(0, 64, 4))
def test_streamed_kernels_at_every_offset_in_a_line(target, offset):
    """Every streaming kernel, streamed (threshold 0), into rows that start anywhere in a cache
    line: fills of 1-8-byte elements, reversal, step-K gathers, NHWC->NCHW de-interleave and
    panels, conversion, gather_elements along the last axis. Against numpy; the bytes around
    the output stay untouched."""
    rng = np.random.default_rng(100 + offset)
    old = _core._stream_threshold()
    _core._set_stream_threshold(0)

    def check(want, run):
        buf = np.zeros(want.nbytes + 192, np.uint8)
        start = (-buf.ctypes.data) % 64 + 64 + offset
        out = buf[start : start + want.nbytes].view(want.dtype).reshape(want.shape)
        run(out)
        assert_same(out, want)
        assert not buf[:start].any() and not buf[start + want.nbytes :].any()

    try:
        for dt in (np.uint8, np.float16, np.float32, np.float64):
            row = random_array(rng, (250,), dt)
            check(np.broadcast_to(row, (64, 250)).copy(), lambda o, row=row: sd.copy(row, o))
        x = random_array(rng, (64, 250), np.float32)
        check(x[:, ::-1].copy(), lambda o: sd.copy(x[:, ::-1], o))
        for dt, k in ((np.float32, 2), (np.float32, 3), (np.float32, 5), (np.float16, 2), (np.uint8, 4)):
            x = random_array(rng, (64, 250 * k), dt)
            check(x[:, ::k].copy(), lambda o, x=x, k=k: sd.copy(x[:, ::k], o))
        for c in (3, 64):
            x = random_array(rng, (1, 4, 1100 if c == 3 else 25, c), np.float32)
            check(x.transpose(0, 3, 1, 2).copy(), lambda o, x=x: sd.copy(x.transpose(0, 3, 1, 2), o))
        xi = rng.integers(-1000, 1000, (8, 1500), dtype=np.int32)
        check(xi.astype(np.float32), lambda o: sd.cast(xi, np.float32, out=o))
        x = random_array(rng, (64, 300), np.float32)
        for it in (np.int64, np.int32):
            idx = rng.integers(-300, 300, (64, 250)).astype(it)
            check(np.take_along_axis(x, idx % 300, 1), lambda o, idx=idx: sd.gather_elements(x, idx, axis=1, out=o))
    finally:
        _core._set_stream_threshold(old)


@pytest.mark.parametrize("gap", [1, 8, 16, 31, 32, 63, 64, 4095])
def test_copies_a_few_bytes_apart_modulo_4096(target, gap):
    """Contiguous runs whose destination lies `gap` bytes past the source modulo 4096 (1-31: the
    backward copy that works around glibc's slow REP MOVSB there): copies of 2-64 KiB runs,
    rows gathered, the unreversed part of reverse_subsequences, an overlapping copy. Against
    numpy; the bytes around each output stay untouched."""
    rng = np.random.default_rng(gap)
    arena = np.zeros(3 << 20, np.uint8)
    base = (-arena.ctypes.data) % 4096

    def pair(nbytes, dt):
        xb = arena[base + 4096 : base + 4096 + nbytes]
        ob = arena[base + (2 << 20) + gap : base + (2 << 20) + gap + nbytes]
        x, o = xb.view(dt), ob.view(dt)
        x[...] = random_array(rng, x.shape, dt)
        return x, o, base + (2 << 20) + gap

    def untouched(at, nbytes):
        assert not arena[base + (1 << 20) : at].any() and not arena[at + nbytes :].any()
        arena[base + (1 << 20) :] = 0

    for nbytes in (2048, 2048 + 8, 5000, 64 << 10, (64 << 10) + 36):
        x, o, at = pair(nbytes, np.uint8)
        sd.copy(x, o)
        assert_same(o, x.copy())
        untouched(at, nbytes)
    x, o, at = pair(4 * 1024 * 64, np.float32)  # 64 rows of 1024 floats, gathered
    x, o = x.reshape(64, 1024), o.reshape(64, 1024)
    idx = rng.integers(0, 64, 64)
    sd.gather(x, idx, axis=0, out=o)
    assert_same(o, x[idx])
    untouched(at, o.nbytes)
    x, o, at = pair(4 * 8 * 3000, np.float32)  # sequences of 3000, 5 reversed: the rest copied
    x, o = x.reshape(8, 3000), o.reshape(8, 3000)
    sd.reverse_subsequences(x, np.full((8, 1), 5, np.int64), axis=1, out=o)
    want = x.copy()
    want[:, :5] = x[:, 4::-1]
    assert_same(o, want)
    untouched(at, o.nbytes)
    a = random_array(rng, (20000,), np.float32)
    want = a[gap % 7 + 1 :].copy()
    sd.copy(a[gap % 7 + 1 :], a[: a.size - gap % 7 - 1])  # overlapping: through a snapshot
    assert_same(a[: a.size - gap % 7 - 1], want)


def test_special_values_survive(target):
    # quiet and signalling NaNs with payloads, -0.0, infinities, as raw bit patterns
    pats = {
        np.float16: [0x7E01, 0x7D00, 0xFE5A, 0x8000, 0x7C00, 0xFC00, 0x3C00],
        np.float32: [0x7FC00001, 0x7FA00000, 0xFFC12345, 0x80000000, 0x7F800000, 0xFF800000, 0x3F800000],
        np.float64: [
            0x7FF8000000000001,
            0x7FF4000000000000,
            0xFFF8123456789ABC,
            0x8000000000000000,
            0x7FF0000000000000,
            0xFFF0000000000000,
            0x3FF0000000000000,
        ],
    }
    for dtype, p in pats.items():
        u = np.dtype(f"u{np.dtype(dtype).itemsize}")
        b = np.tile(np.array(p, dtype=u), 60).reshape(20, -1).view(dtype)
        assert_same(sd.copy(b.T, np.empty(b.T.shape, b.dtype)), b.T.copy())
        assert_same(sd.slice(b, [0, 0], list(b.shape), [1, -1]), b[:, ::-1].copy())
        assert_same(sd.split(b, 3, axis=1)[1], b[:, 7:14].copy())


def test_overlapping_in_place(target, threads):
    rng = np.random.default_rng(11)
    for shape in [(7,), (300, 301), (1 << 20,)]:
        a = random_array(rng, shape, np.float32)
        before = a.copy()
        sd.copy(a, a)
        assert_same(a, before)
        sd.copy(a[::-1], a)
        want = before[::-1].copy()
        assert_same(a, want)
        if a.ndim == 2:
            b = a[:, :300].copy()
            sd.copy(b.T, b)  # overlapping transpose in place: numpy's result
            c = a[:, :300].copy()
            np.copyto(c, c.T)
            assert_same(b, c)


def test_zero_size_and_scalar(target):
    a = np.empty((3, 0, 4), np.float32)
    assert sd.copy(a, np.empty_like(a)).shape == (3, 0, 4)
    s = np.array(5, np.int64)
    out = np.empty((), np.int64)
    sd.copy(s, out)
    assert out == 5


def test_simd_controls():
    compiled = sd.build_info()["simd_compiled"].split(",")
    assert compiled[0] == "scalar"
    assert set(TARGETS) <= set(compiled)
    assert sd.build_info()["simd"] in TARGETS
    before = _core._simd()
    try:
        for t in TARGETS:
            _core._set_simd(t)
            assert sd.build_info()["simd"] == t
    finally:
        _core._set_simd(before)
    with pytest.raises(sd.ValidationError, match="not a compiled SIMD target"):
        _core._set_simd("sse9")


def test_env_forces_target():
    import os
    import subprocess
    import sys

    env = dict(os.environ, STRIDED_SIMD="scalar")
    code = "import strided as sd; print(sd.build_info()['simd'])"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "scalar"
    env["STRIDED_SIMD"] = "bogus"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == TARGETS[-1]
    assert "STRIDED_SIMD=bogus" in out.stderr


def test_plan_kinds():
    assert _core._plan_describe(4, [8192, 4096], [4, 32768], [16384, 4]).startswith("transpose w4")
    assert _core._plan_describe(1, [100], [-1], [1]).startswith("reverse w1")
    assert _core._plan_describe(4, [10, 10], [0, 0], [40, 4]).startswith("fill w4")
    assert _core._plan_describe(4, [10, 10], [80, 4], [40, 4]).startswith("contig w4")
