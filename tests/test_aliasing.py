"""SPEC 3.0 rule 3: outputs that share memory are a BufferError before anything is written
(the test is exact, as numpy.shares_memory: interleaved views of one buffer are fine); an
output that overlaps an input gives numpy's answer, as if every input had been read first."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.lib.stride_tricks import as_strided

import strided as sd
from conftest import ALL_DTYPES, team_of


# ---------------------------------------------------------------- outputs that overlap each other
def test_split_into_the_same_array_twice_is_a_buffer_error():
    x = np.arange(12.0).reshape(3, 4)
    a = np.full((3, 2), -1.0)
    with pytest.raises(BufferError, match=r"outputs\[0\] and outputs\[1\].*overlap"):
        sd.split(x, 2, axis=1, out=[a, a])
    assert (a == -1).all()  # nothing written


def test_split_into_overlapping_views_is_a_buffer_error():
    x = np.arange(12.0).reshape(3, 4)
    b = np.full((3, 5), -1.0)
    with pytest.raises(BufferError):
        sd.split(x, 2, axis=1, out=[b[:, 0:2], b[:, 1:3]])
    assert (b == -1).all()
    # A one-element overlap at the very end still counts.
    c = np.full(7, -1.0)
    with pytest.raises(BufferError):
        sd.split(np.arange(8.0), 2, out=[c[0:4], c[3:7]])
    assert (c == -1).all()


def test_split_into_interleaved_views_is_fine():
    x = np.arange(12.0).reshape(3, 4)
    b = np.full((3, 4), -1.0)
    p, q = sd.split(x, 2, axis=1, out=[b[:, ::2], b[:, 1::2]])
    assert p.base is b or p.base is b.base
    np.testing.assert_array_equal(b[:, ::2], x[:, :2])
    np.testing.assert_array_equal(b[:, 1::2], x[:, 2:])


def test_split_outputs_sharing_bytes_of_different_dtypes():
    raw = np.zeros(32, np.uint8)
    f = raw.view(np.float32)  # 8 floats
    g = raw[2:18].view(np.float32)  # 4 floats straddling f's elements 0..4
    with pytest.raises(BufferError):
        sd.split(np.arange(8, dtype=np.float32), [4, 4], out=[f[:4], g])
    assert (raw == 0).all()


def test_many_outputs_are_checked_quickly_and_exactly():
    x = np.arange(4000.0)
    buf = np.full(4000, -1.0)
    outs = [buf[i * 4 : (i + 1) * 4] for i in range(1000)]
    sd.split(x, 1000, out=outs)
    np.testing.assert_array_equal(buf, x)
    outs[500] = buf[1998:2002]  # overlaps outs[499] and itself is shifted
    buf[:] = -1
    with pytest.raises(BufferError):
        sd.split(x, 1000, out=outs)
    assert (buf == -1).all()


@st.composite
def two_views(draw):
    """Two non-self-overlapping strided (rows, cols) float32 views of one 1-D buffer."""
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 5))
    views = []
    for _ in range(2):
        cs = draw(st.integers(1, 3)) * draw(st.sampled_from([1, -1]))
        rs = (abs(cs) * cols + draw(st.integers(0, 4))) * draw(st.sampled_from([1, -1]))
        start = draw(st.integers(0, 40))
        views.append((start, rs, cs))
    return rows, cols, views


@given(two_views())
def test_output_overlap_matches_numpy_shares_memory(case):
    rows, cols, views = case
    buf = np.full(200, -1.0, np.float32)
    outs = []
    for start, rs, cs in views:
        lo = start + min(0, rs * (rows - 1)) + min(0, cs * (cols - 1))
        off = start - lo  # element (0, 0) placed so that the view starts inside the buffer
        outs.append(as_strided(buf[off:], shape=(rows, cols), strides=(rs * 4, cs * 4)))
    x = np.arange(2 * rows * cols, dtype=np.float32).reshape(2 * rows, cols)
    if np.shares_memory(outs[0], outs[1]):
        with pytest.raises(BufferError):
            sd.split(x, 2, axis=0, out=outs)
        assert (buf == -1).all()
    else:
        sd.split(x, 2, axis=0, out=outs)
        np.testing.assert_array_equal(outs[0], x[:rows])
        np.testing.assert_array_equal(outs[1], x[rows:])


def test_compiled_operator_outputs_overlapping_is_a_buffer_error():
    t = sd.TensorDesc("float32", [4, 6])
    h = sd.TensorDesc("float32", [4, 3])
    op = sd.compile(sd.SplitDesc(t, [h, h], axis=1))
    x = np.arange(24, dtype=np.float32)
    buf = bytearray(b"\xff" * 96)
    with pytest.raises(BufferError, match=r"outputs\[0\] and outputs\[1\]"):
        op.execute([x], [buf, buf])
    mv = memoryview(buf)
    with pytest.raises(BufferError):
        op.execute([x], [mv[0:48], mv[44:92]])
    assert buf == bytearray(b"\xff" * 96)
    op.execute([x], [mv[0:48], mv[48:96]])
    got = np.frombuffer(bytes(buf), np.float32)
    np.testing.assert_array_equal(got[:12].reshape(4, 3), x.reshape(4, 6)[:, :3])
    np.testing.assert_array_equal(got[12:].reshape(4, 3), x.reshape(4, 6)[:, 3:])


def test_compiled_operator_interleaved_outputs_are_fine():
    t = sd.TensorDesc("float32", [4, 6])
    h = sd.TensorDesc("float32", [4, 3], [6, 2])  # every other element of rows of 6
    op = sd.compile(sd.SplitDesc(t, [h, h], axis=1))
    x = np.arange(24, dtype=np.float32)
    buf = np.full(25, -1, np.float32)
    op.execute([x], [buf[:24], buf[1:]])
    np.testing.assert_array_equal(buf[:24].reshape(4, 6)[:, ::2], x.reshape(4, 6)[:, :3])
    np.testing.assert_array_equal(buf[1:].reshape(4, 6)[:, ::2], x.reshape(4, 6)[:, 3:])


# ---------------------------------------------------------------- outputs that overlap inputs
# Each case: (name, fn(base) -> result written into a view of base, reference(base_copy)).
# The output is a view of the same buffer as an input, shifted so that they partly overlap;
# the reference computes from copies of the inputs (numpy's "as if read first").
def _shifted(base, n, k):
    return base[k : k + n]


def _cases():
    rng = np.random.default_rng(11)

    def copy(b):
        return sd.copy(b[0:20][::-1], b[5:25])

    def copy_ref(b):
        b[5:25] = b[0:20][::-1].copy()

    def split(b):
        sd.split(b[0:20], [8, 12], out=[b[3:11], b[30:42]])

    def split_ref(b):
        x = b[0:20].copy()
        b[3:11], b[30:42] = x[:8], x[8:]

    def join(b):
        sd.join([b[0:10], b[20:30]], out=b[5:25])

    def join_ref(b):
        b[5:25] = np.concatenate([b[0:10].copy(), b[20:30].copy()])

    def slice_(b):
        sd.slice(b[0:30], [2], [20], [-2], out=b[10:20])

    def slice_ref(b):
        b[10:20] = b[0:30][2:22][::-2].copy()

    idx = rng.integers(0, 20, 12)

    def gather(b):
        sd.gather(b[0:20], idx, out=b[10:22])

    def gather_ref(b):
        b[10:22] = np.take(b[0:20].copy(), idx)

    def gather_elements(b):
        x = b[0:40].reshape(4, 10)
        sd.gather_elements(
            x, idx[:10].reshape(1, 10) % 4 + np.zeros((4, 1), np.int64), axis=0, out=b[7:47].reshape(4, 10)
        )

    def gather_elements_ref(b):
        x = b[0:40].reshape(4, 10).copy()
        i = idx[:10].reshape(1, 10) % 4 + np.zeros((4, 1), np.int64)
        b[7:47] = np.take_along_axis(x, i, 0).reshape(-1)

    def gather_nd(b):
        sd.gather_nd(b[0:40].reshape(10, 4), (idx[:6] % 10).reshape(6, 1), out=b[2:26].reshape(6, 4))

    def gather_nd_ref(b):
        b[2:26] = b[0:40].reshape(10, 4)[idx[:6] % 10].copy().reshape(-1)

    def scatter(b):  # updates overlap the output
        sd.scatter(b[0:20], idx[:8] % 20, b[15:23], out=b[10:30])

    def scatter_ref(b):
        x, u = b[0:20].copy(), b[15:23].copy()
        out = x.copy()
        for i, v in zip(idx[:8] % 20, u):
            out[i] = v
        b[10:30] = out

    def scatter_nd(b):
        sd.scatter_nd(b[0:20], (idx[:8] % 20).reshape(8, 1), b[15:23], out=b[5:25])

    def scatter_nd_ref(b):
        x, u = b[0:20].copy(), b[15:23].copy()
        for i, v in zip(idx[:8] % 20, u):
            x[i] = v
        b[5:25] = x

    return [
        ("copy", copy, copy_ref),
        ("split", split, split_ref),
        ("join", join, join_ref),
        ("slice", slice_, slice_ref),
        ("gather", gather, gather_ref),
        ("gather_elements", gather_elements, gather_elements_ref),
        ("gather_nd", gather_nd, gather_nd_ref),
        ("scatter", scatter, scatter_ref),
        ("scatter_nd", scatter_nd, scatter_nd_ref),
    ]


CASES = _cases()


@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.float16, np.uint64])
@pytest.mark.parametrize(("name", "fn", "ref"), CASES, ids=[c[0] for c in CASES])
def test_output_overlapping_an_input_gives_numpys_answer(name, fn, ref, dtype):
    base = (np.arange(64) * 3 % 61).astype(dtype)
    want = base.copy()
    ref(want)
    fn(base)
    np.testing.assert_array_equal(base, want)


def test_scatter_indices_overlapping_the_output():
    # The indices live in the output's memory: read first, then written over.
    buf = np.zeros(16, np.int64)
    buf[:4] = [3, 1, 2, 0]
    x = np.arange(16, 32, dtype=np.int64)
    idx = buf[:4]
    want = x.copy()
    want[[3, 1, 2, 0]] = [7, 8, 9, 10]
    sd.scatter(x, idx, np.array([7, 8, 9, 10], np.int64), out=buf)
    np.testing.assert_array_equal(buf, want)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_in_place_scatter_and_copy_stay_allowed(dtype):
    x = np.arange(10).astype(dtype)
    want = x.copy()
    want[[2, 5]] = x[[7, 8]]
    sd.scatter(x, np.array([2, 5]), x[[7, 8]].copy(), out=x)
    np.testing.assert_array_equal(x, want)
    y = np.arange(6).astype(dtype)
    sd.copy(y, y)
    np.testing.assert_array_equal(y, np.arange(6).astype(dtype))


# ---------------------------------------------------------------- an output that overlaps itself
def _write_in_order(base_len, shape, strides, offset, values, dtype):
    """Reference: write values (row-major) one element at a time into a fresh buffer laid out
    as the output; a later coordinate overwrites an earlier one."""
    buf = np.zeros(base_len, dtype)
    view = as_strided(buf[offset:], shape=shape, strides=strides)
    for c in np.ndindex(*shape):
        view[c] = values[c]
    return buf


@pytest.mark.parametrize("threads", [1, 2])
def test_copy_into_a_stride_0_output_keeps_the_last_coordinate(threads):
    with team_of(threads):
        x = np.arange(512 * 1024, dtype=np.float32).reshape(512, 1024)
        buf = np.zeros(1024, np.float32)
        out = as_strided(buf, shape=(512, 1024), strides=(0, 4))
        sd.copy(x, out)
        np.testing.assert_array_equal(buf, _write_in_order(1024, (512, 1024), (0, 4), 0, x, np.float32))
        # a stride-0 inner dimension, through slice and split
        buf2 = np.zeros(512, np.float32)
        out2 = as_strided(buf2, shape=(512, 1024), strides=(4, 0))
        sd.slice(x, [0, 0], [512, 1024], [1, 1], out=out2)
        np.testing.assert_array_equal(buf2, x[:, -1])
        buf3 = np.zeros(1024, np.float32)
        sd.split(
            x,
            [500, 12],
            axis=0,
            out=[np.empty((500, 1024), np.float32), as_strided(buf3, shape=(12, 1024), strides=(0, 4))],
        )
        np.testing.assert_array_equal(buf3, x[-1])


def test_output_with_overlapping_strides_is_a_buffer_error():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    buf = np.full(8, -1, np.float32)
    out = as_strided(buf, shape=(3, 4), strides=(4, 4))  # (0, 1) and (1, 0) are one element
    with pytest.raises(BufferError, match=r"outputs\[0\].*overlap each other"):
        sd.copy(x, out)
    assert (buf == -1).all()


@pytest.mark.parametrize("op", ["gather", "gather_elements", "gather_nd", "scatter", "scatter_nd"])
def test_index_operators_refuse_outputs_that_overlap_themselves(op):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    i = np.zeros((3, 4), np.int64)
    buf = np.full(4, -1, np.float32)
    out = as_strided(buf, shape=(3, 4), strides=(0, 4))
    call = {
        "gather": lambda: sd.gather(x, np.array([0, 1, 2]), axis=0, out=out),
        "gather_elements": lambda: sd.gather_elements(x, i, axis=0, out=out),
        "gather_nd": lambda: sd.gather_nd(x, np.array([[0], [1], [2]]), out=out),
        "scatter": lambda: sd.scatter(x, i, x, axis=0, out=out),
        "scatter_nd": lambda: sd.scatter_nd(x, np.array([[0]]), x[:1], out=out),
    }[op]
    with pytest.raises(BufferError, match="overlap each other"):
        call()
    assert (buf == -1).all()
