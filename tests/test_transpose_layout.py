"""Transposes and relayouts under every compiled SIMD target (the copy engine's narrow
interleave / de-interleave kernels, the short-side panels, stride-K gathers), against numpy:
narrow sides 1..17, all element widths, odd shapes, negative strides, both directions."""

from __future__ import annotations

import numpy as np
import pytest

import strided as sd
from strided import _core

DTYPES = (np.uint8, np.float16, np.float32, np.float64)  # 1, 2, 4, 8 bytes
_rng = np.random.default_rng(3)


def _data(shape, dt):
    # distinct bit patterns (a float view of random integers: NaN payloads must survive too)
    a = _rng.integers(0, 256, size=int(np.prod(shape)) * np.dtype(dt).itemsize, dtype=np.uint8)
    return a.view(dt).reshape(shape)


def _check(view):
    out = np.empty(view.shape, view.dtype)
    sd.copy(view, out=out)
    assert out.tobytes() == np.ascontiguousarray(view).tobytes()


def _check_at(view, at, *why):
    """sd.copy(view) into an output starting `at` bytes past a 64-byte line boundary, with guard
    bytes on both sides that must stay untouched."""
    raw = np.full(view.nbytes + 256, 0xA5, np.uint8)
    lo = (-raw.ctypes.data) % 64 + 64 + at
    out = raw[lo : lo + view.nbytes].view(view.dtype).reshape(view.shape)
    sd.copy(view, out=out)
    assert out.tobytes() == np.ascontiguousarray(view).tobytes(), why
    assert (raw[:lo] == 0xA5).all() and (raw[lo + view.nbytes :] == 0xA5).all(), why


@pytest.mark.parametrize("dt", DTYPES)
def test_narrow_both_directions(simd, threads, dt):
    for c in range(1, 18):
        for hw in (1, 7, 64, 333, 1031):
            x = _data((2, c, hw), dt)
            _check(x.transpose(0, 2, 1))  # interleave: c planes -> rows of c
            y = np.ascontiguousarray(x.transpose(0, 2, 1))
            _check(y.transpose(0, 2, 1))  # de-interleave
            _check(y[:, ::-1].transpose(0, 2, 1))  # negative strides
            _check(x[:, ::-1, ::-1].transpose(0, 2, 1))


@pytest.mark.parametrize("dt", DTYPES)
def test_short_side_panels(simd, threads, dt):
    # NCHW <-> NHWC with C = 16..256: the panel kernels (C = 24, 40, 56: 16x16 and 8x8 tiles for
    # 4-byte elements on AVX-512); odd H*W leave a remainder; H*W = 64, 256: both sides are panel
    # sides, the shorter one is taken
    for c in (16, 24, 32, 40, 48, 56, 64, 128, 256):
        for hw in (5, 64, 67, 256, 1000):
            x = _data((2, c, hw), dt)
            _check(x.transpose(0, 2, 1))
            _check(np.ascontiguousarray(x.transpose(0, 2, 1)).transpose(0, 2, 1))
            _check(x[:, :, 1:].transpose(0, 2, 1))  # an odd offset: unaligned rows


@pytest.mark.parametrize("dt", DTYPES)
def test_strided_gather_rows(simd, threads, dt):
    x = _data((5, 2000), dt)
    for k in (2, 3, 4, 5):
        _check(x[:, ::k])
        _check(x[:, 1::k])
        _check(x[::-1, ::-k])
        _check(x.reshape(-1)[3::k])


@pytest.mark.parametrize("dt", (np.float32, np.uint16))
def test_depth_space_blocks(simd, threads, dt):
    # depth_to_space / space_to_depth: block-interleaved rows, the outer loop order swap
    for b in (2, 3, 4):
        x = _data((2, 3 * b * b, 9, 70), dt)
        n, c, h, w = x.shape
        ref = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2).reshape(n, c // (b * b), h * b, w * b)
        assert np.array_equal(sd.depth_to_space(x, b, "DCR").view(np.uint8), ref.view(np.uint8))
        back = sd.space_to_depth(ref, b, "DCR")
        assert np.array_equal(back.view(np.uint8), x.view(np.uint8))


def test_large_streamed(simd):
    # above the streaming threshold: the non-temporal paths and their fences
    before = _core._stream_threshold()
    _core._set_stream_threshold(1 << 12)
    try:
        x = _data((1, 3, 300, 301), np.float32)
        _check(x.transpose(0, 2, 3, 1))
        _check(np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2))
        y = _data((2, 64, 40, 41), np.float16)
        _check(y.transpose(0, 2, 3, 1))
        _check(np.ascontiguousarray(y.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2))
        z = _data((300, 1000), np.float32)
        _check(z[:, ::2])
        b = _data((2, 64, 33, 32), np.float32)  # NCHW -> nChw16c: rows of one micro-tile
        _check(b.reshape(2, 4, 16, -1).transpose(0, 1, 3, 2))
        _check(b.reshape(2, 4, 16, -1)[:, :, :, 1:].transpose(0, 1, 3, 2))
    finally:
        _core._set_stream_threshold(before)


@pytest.mark.parametrize("streamed", [False, True], ids=["cached", "streamed"])
def test_rows_of_micro_tiles(simd, threads, streamed):
    # NCHW -> NHWC with rows of 1..8 line micro-tiles (tiled straight from the planes on AVX-512),
    # a ragged last block of rows, reversed planes; outputs 64-byte aligned (streamed whole) and
    # not (streamed shifted through a ring of span buffers, the partial lines carried across
    # spans), with guard bytes on both sides; few spans (fewer than the ring) and many.
    before = _core._stream_threshold()
    _core._set_stream_threshold(1 << 12 if streamed else 1 << 62)
    try:
        for dt, cs in (
            (np.float16, (24, 32, 40, 48, 64, 96, 256, 288)),  # 32x32 tiles of 2-byte elements; 8x8 past them
            (np.float32, (16, 24, 32, 40, 48, 120, 128, 144)),  # 24, 40, 120: 8x8 tiles past the line tiles
            (np.float64, (8, 24, 64, 72)),
            (np.uint8, (64, 128, 192, 512)),  # 64x64 byte tiles
        ):
            for c in cs:
                for shape in ((2, c, 37, 29), (1, c, 5, 13)):
                    x = _data(shape, dt)
                    for v in (x.transpose(0, 2, 3, 1), x[:, ::-1].transpose(0, 2, 3, 1)):
                        _check(v)
                        for at in (0, np.dtype(dt).itemsize, 16, 40, 1):
                            _check_at(v, at, dt, c, shape)
    finally:
        _core._set_stream_threshold(before)


@pytest.mark.parametrize("streamed", [False, True], ids=["cached", "streamed"])
@pytest.mark.parametrize("dt", DTYPES)
def test_line_blocks_into_cache(simd, threads, dt, streamed):
    # 2-D transposes into the cache (AVX-512: line micro-tiles in blocks of 4 x 4, the rows and
    # columns past the last whole tile as one more tile overlapping it; AVX2 its micro-tiles):
    # sides of one tile, one past it, several blocks with remainders; source rows wider than the
    # transposed columns; outputs at line offsets, with guard bytes. Streamed: the calls that no
    # streaming path takes (sides not a multiple of a tile) take the same blocks.
    per_line = 64 // np.dtype(dt).itemsize
    before = _core._stream_threshold()
    _core._set_stream_threshold(1 << 12 if streamed else 1 << 62)
    try:
        _line_blocks_cases(dt, per_line)
    finally:
        _core._set_stream_threshold(before)


def _line_blocks_cases(dt, per_line):
    for rows in (per_line, per_line + 1, 9 * per_line + 5):
        for cols in (per_line, 2 * per_line - 1, 5 * per_line + 3):
            x = _data((rows, cols + 7), dt)
            for v in (np.ascontiguousarray(x[:, :cols]).T, x[:, :cols].T, x[::-1, :cols].T):
                for at in (0, 16, 40):
                    _check_at(v, at, rows, cols)
    # Source rows 4 KiB apart (1- and 2-byte elements: four tiles' lines loaded in turn), whole
    # blocks of 4 tiles and a ragged last block.
    if np.dtype(dt).itemsize <= 2:
        x = _data((9 * per_line + 5, 4096 // np.dtype(dt).itemsize), dt)
        for cols in (4 * per_line, 7 * per_line + 3, 9 * per_line + 3):
            for at in (0, 16):
                _check_at(x[:, :cols].T, at, cols)


@pytest.mark.parametrize("streamed", [False, True], ids=["cached", "streamed"])
def test_rows_of_line_tiles_from_crowded_planes(simd, threads, streamed):
    # NCHW -> NHWC from 1- and 2-byte planes a multiple of 4 KiB apart (AVX-512: four line tiles
    # loaded together, staged in L1): every plane group, whole visits of 4 tile rows and the rows
    # past them, planes used in part (rows short of the stride), sources starting inside a line
    # (the first pixels peeled), outputs 64-byte aligned and not, with guard bytes.
    before = _core._stream_threshold()
    _core._set_stream_threshold(1 << 12 if streamed else 1 << 62)
    try:
        for dt, cs in ((np.uint8, (64, 128, 320, 512)), (np.float16, (32, 64, 96, 128))):
            isz = np.dtype(dt).itemsize
            plane = 4096 // isz
            for c in cs:
                for hw in (plane, plane - 37, 300):
                    for src_at in (0, isz, 16):
                        raw = _data((c * plane * isz + 128,), np.uint8)
                        lo = (-raw.ctypes.data) % 64 + src_at
                        planes = raw[lo : lo + c * plane * isz].view(dt).reshape(c, plane)[:, :hw]
                        for at in (0, 16, isz):
                            _check_at(planes.T, at, dt, c, hw, src_at)
                        _check_at(planes[::-1].T, 16, dt, c, hw, src_at, "reversed planes")
    finally:
        _core._set_stream_threshold(before)


@pytest.mark.parametrize("dt", DTYPES)
def test_streamed_panels_to_planes(simd, threads, dt):
    # NHWC -> NCHW streamed (the panel kernel's next panel prefetched while its rows are
    # written): several panels and a narrower last one, a remainder under a tile, rows that end
    # the source exactly; planes a whole number of lines long (2112 elements: float16 C = 24, 32
    # go straight into the planes' lines, the pixels before the first line boundary and past
    # the last 32 element by element); outputs 64-byte aligned and not, with guard bytes on both
    # sides.
    before = _core._stream_threshold()
    _core._set_stream_threshold(1 << 12)
    try:
        for c in (16, 24, 32, 64, 128, 256):
            for hw in (3001, 1024 // np.dtype(dt).itemsize * 3 + 8, 2112):
                v = _data((hw, c), dt).T  # (c, hw): rows of c packed source elements -> c planes
                for at in (0, np.dtype(dt).itemsize, 16):
                    _check_at(v, at, c, hw)
    finally:
        _core._set_stream_threshold(before)


@pytest.mark.parametrize("dt", DTYPES)
def test_streamed_tiles_into_lines(simd, threads, dt):
    # Streamed transposes into destination rows of whole lines, tiled straight into them on
    # AVX-512 (float16 with 24 source columns or a multiple of 32 up to 96 or from 512, float32
    # with a multiple of 16 over 256): short source rows (NHWC -> NCHW) in blocks of 512 rows,
    # 32 columns at a time; long ones (2-D) in
    # blocks of rows by 1 KiB, ragged last blocks both ways; a source row stride wider than its
    # columns; one tile of rows and many; outputs at line offsets (the rows before the first line
    # and past the last tile stored), with guard bytes. The other widths take their own paths.
    per_line = 64 // np.dtype(dt).itemsize
    before = _core._stream_threshold()
    _core._set_stream_threshold(1 << 12)
    try:
        for cols in (24, 64, 288, 512, 1056):
            for rows in (per_line, 17 * per_line):
                x = _data((rows, cols + 8), dt)
                for v in (np.ascontiguousarray(x[:, :cols]).T, x[:, :cols].T):
                    for at in (0, np.dtype(dt).itemsize, 16):
                        _check_at(v, at, cols, rows)
    finally:
        _core._set_stream_threshold(before)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("streamed", [False, True])
def test_planes_to_rows_misaligned_source(simd, threads, dt, streamed):
    # NCHW -> NHWC with planes a multiple of 64 bytes apart, from a source starting at any
    # element offset into a line (the line micro-tiles peel the pixels before the first whole
    # source line): fewer pixels than the peel, a tile's worth, many with a remainder; outputs
    # 64-byte aligned and not, with guard bytes on both sides.
    isz = np.dtype(dt).itemsize
    before = _core._stream_threshold()
    _core._set_stream_threshold(0 if streamed else 1 << 40)
    try:
        for c in (16, 24, 32, 40, 64, 128, 256):
            for hw in (64 // isz * 2 + 3, 64 // isz * 40 + 5):
                hw_pad = -(-hw * isz // 64) * 64 // isz  # a plane stride of whole lines
                for src_at in (isz, 16, 64 - isz):
                    raw_in = _data((c * hw_pad * isz + 128,), np.uint8)
                    lo_in = (-raw_in.ctypes.data) % 64 + src_at
                    planes = raw_in[lo_in : lo_in + c * hw_pad * isz].view(dt).reshape(c, hw_pad)[:, :hw]
                    v = planes.T  # (hw, c): c planes -> rows of c elements
                    for out_at in (0, 16):
                        _check_at(v, out_at, c, hw, src_at)
    finally:
        _core._set_stream_threshold(before)


@pytest.mark.parametrize("dt", DTYPES)
def test_pixels_to_few_planes_misaligned_source(simd, threads, dt):
    # NHWC -> NCHW with H*W a multiple of a line's elements (up to 8 lines' worth) and C of one or
    # two lines: the line micro-tiles from the planes side, whose first rows (channels) up to a
    # source line are peeled; with C below that peel plus a tile row, the rest is one more tile
    # row ending at C. Sources at every element offset into a line, batch 1 and 3.
    # Channels used of a wider pixel (c of cw): the pixels stay whole lines apart with any c.
    isz = np.dtype(dt).itemsize
    per_line = 64 // isz
    for c, cw in ((per_line, per_line), (per_line + per_line // 4, 2 * per_line), (2 * per_line, 2 * per_line)):
        for hw in (per_line, 4 * per_line, 8 * per_line):
            for n in (1, 3):
                for src_at in range(0, 64, isz if isz > 2 else 16):
                    raw_in = _data((n * hw * cw * isz + 128,), np.uint8)
                    lo_in = (-raw_in.ctypes.data) % 64 + src_at
                    x = raw_in[lo_in : lo_in + n * hw * cw * isz].view(dt).reshape(n, hw, cw)[:, :, :c]
                    for out_at in (0, 16):
                        _check_at(x.transpose(0, 2, 1), out_at, c, hw, n, src_at)


@pytest.mark.parametrize("dt", DTYPES)
def test_parallel_splits(simd, threads, dt):
    # Large enough for several threads: NHWC -> NCHW onto a few planes splits its columns (every
    # plane of a column block together), with a batch (outer index) or without, ragged last
    # blocks; NCHW -> NHWC splits rows of at least 64 KiB.
    for n, c, hw in (
        (1, 3, 300 * 301),
        (3, 7, 40000),
        (2, 64, 4099),
        (1, 200, 1500),
        (1, 32, 3001),
        (1, 48, 2500),
        (2, 80, 1100),
    ):
        x = _data((n, hw, c), dt)
        _check(x.transpose(0, 2, 1))
        _check(x[:, ::-1].transpose(0, 2, 1))
        _check(_data((n, c, hw), dt).transpose(0, 2, 1))
