"""sd.copy / sd.split / sd.join / sd.slice on numpy arrays: spec examples, numpy agreement,
argument rules and errors."""

import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strided as sd
from conftest import ALL_DTYPES, random_array, same_bits

SPEC_IN = np.arange(1, 17, dtype=np.float32).reshape(1, 1, 4, 4)


# ---------------------------------------------------------------- SPEC.md examples
def test_spec_split_axis2():
    x = np.arange(1, 13, dtype=np.float32).reshape(1, 1, 6, 2)
    a, b, c = sd.split(x, [2, 1, 3], axis=2)
    assert a.tolist() == [[[[1, 2], [3, 4]]]]
    assert b.tolist() == [[[[5, 6]]]]
    assert c.tolist() == [[[[7, 8], [9, 10], [11, 12]]]]


def test_spec_split_axis3_odd_even_columns():
    x = np.arange(1, 13, dtype=np.float32).reshape(1, 1, 6, 2)
    odd, even = sd.split(x, 2, axis=3)
    assert odd.ravel().tolist() == [1, 3, 5, 7, 9, 11]
    assert even.ravel().tolist() == [2, 4, 6, 8, 10, 12]


def test_spec_join():
    a = np.array([[1, 2, 3], [4, 5, 6]], np.int32).reshape(1, 1, 2, 3)
    b = np.array([[7, 8, 9, 10], [11, 12, 13, 14]], np.int32).reshape(1, 1, 2, 4)
    r = sd.join([a, b], axis=3)
    assert r.shape == (1, 1, 2, 7)
    assert r[0, 0].tolist() == [[1, 2, 3, 7, 8, 9, 10], [4, 5, 6, 11, 12, 13, 14]]


@pytest.mark.parametrize(
    "strides,expected",
    [
        ([1, 1, 2, 2], [[2, 4], [10, 12]]),
        ([1, 1, -2, 2], [[14, 16], [6, 8]]),
    ],
)
def test_spec_slice1(strides, expected):
    r = sd.slice(SPEC_IN, [0, 0, 0, 1], [1, 1, 4, 3], strides)
    assert r.shape == (1, 1, 2, 2)
    assert r[0, 0].tolist() == expected


def test_slice_default_strides_and_out():
    out = np.zeros((1, 1, 3, 2), np.float32)
    r = sd.slice(SPEC_IN, [0, 0, 1, 2], [1, 1, 3, 2], out=out)
    assert r is out
    assert out[0, 0].tolist() == [[7, 8], [11, 12], [15, 16]]


def test_slice_out_smaller_than_max_copied():
    # Slice1 allows 1 <= out.sizes[i] <= max_copied[i]
    out = np.zeros((1, 1, 1, 2), np.float32)
    sd.slice(SPEC_IN, [0, 0, 0, 1], [1, 1, 4, 3], [1, 1, 2, 2], out=out)
    assert out[0, 0].tolist() == [[2, 4]]


# ---------------------------------------------------------------- numpy agreement
def _slice_ref(x, offsets, sizes, strides):
    idx = []
    for o, s, t in zip(offsets, sizes, strides):
        if t > 0:
            idx.append(np.s_[o : o + s : t])
        else:
            stop = o - 1 if o > 0 else None
            idx.append(np.s_[o + s - 1 : stop : t])
    return x[tuple(idx)]


@st.composite
def slice_case(draw):
    nd = draw(st.integers(1, 4))
    shape = tuple(draw(st.lists(st.integers(1, 6), min_size=nd, max_size=nd)))
    offsets, sizes, strides = [], [], []
    for n in shape:
        o = draw(st.integers(0, n - 1))
        s = draw(st.integers(1, n - o))
        t = draw(st.integers(1, 3)) * draw(st.sampled_from([1, -1]))
        offsets.append(o)
        sizes.append(s)
        strides.append(t)
    dtype = draw(st.sampled_from(ALL_DTYPES))
    seed = draw(st.integers(0, 2**32 - 1))
    return shape, offsets, sizes, strides, dtype, seed


@settings(max_examples=150, deadline=None)
@given(slice_case())
def test_slice_matches_numpy(case):
    shape, offsets, sizes, strides, dtype, seed = case
    x = random_array(np.random.default_rng(seed), shape, dtype)
    r = sd.slice(x, offsets, sizes, strides)
    assert same_bits(r, _slice_ref(x, offsets, sizes, strides))


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 4).flatmap(
        lambda nd: st.tuples(
            st.lists(st.integers(1, 5), min_size=nd, max_size=nd),
            st.integers(0, nd - 1),
            st.lists(st.integers(0, 3), min_size=1, max_size=4),
            st.sampled_from(ALL_DTYPES),
            st.integers(0, 2**31),
        )
    )
)
def test_split_join_match_numpy(case):
    shape, axis, parts, dtype, seed = case
    rng = np.random.default_rng(seed)
    pieces = [random_array(rng, tuple(shape[:axis]) + (p,) + tuple(shape[axis + 1 :]), dtype) for p in parts]
    joined = sd.join(pieces, axis=axis)
    assert same_bits(joined, np.concatenate(pieces, axis=axis))
    back = sd.split(joined, parts, axis=axis - len(shape))  # negative axis
    for got, want in zip(back, pieces):
        assert same_bits(got, want)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_copy_any_strides_bit_exact(dtype, threads):
    rng = np.random.default_rng(1)
    base = random_array(rng, (9, 10, 11), dtype)
    views = [base, base[::-1], base[:, ::2, 1:], base.transpose(2, 0, 1), base[::-2, ::-3, ::2].swapaxes(0, 2)]
    for v in views:
        out = np.empty(v.shape, dtype)
        assert sd.copy(v, out) is out
        assert same_bits(out, v)
        # and into a strided destination
        big = np.zeros((v.shape[0] * 2,) + v.shape[1:], dtype)
        sd.copy(v, big[::2])
        assert same_bits(big[::2], v)


def test_copy_nan_payload_and_negative_zero():
    bits = np.array([0x7FC00001, 0xFFC12345, 0x80000000, 0x7F800001], np.uint32)
    x = bits.view(np.float32)
    out = np.empty_like(x)
    sd.copy(x, out)
    assert out.view(np.uint32).tolist() == bits.tolist()


def test_copy_broadcast():
    out = np.empty((3, 4, 5), np.int16)
    sd.copy(np.arange(5, dtype=np.int16), out)
    assert (out == np.arange(5)).all()
    sd.copy(np.int16(7), out)
    assert (out == 7).all()
    with pytest.raises(sd.ValidationError, match="broadcast"):
        sd.copy(np.zeros(4, np.int16), out)


def test_copy_zero_dim_and_empty():
    out = np.empty((), np.float64)
    sd.copy(np.float64(2.5), out)
    assert out == 2.5
    e = np.empty((0, 3), np.float32)
    assert sd.copy(np.empty((0, 3), np.float32), e) is e
    assert sd.split(np.empty((4, 0)), 2, axis=0)[0].shape == (2, 0)
    assert sd.join([np.empty((0, 2)), np.ones((1, 2))]).tolist() == [[1, 1]]
    assert sd.split(np.arange(4), [4, 0])[1].shape == (0,)


def test_overlapping_copies_match_numpy():
    a = np.arange(100, dtype=np.int32)
    expect = a[::-1].copy()
    sd.copy(a[::-1], a)
    assert (a == expect).all()
    b = np.arange(100, dtype=np.int64)
    expect = b.copy()
    expect[10:] = b[:90]
    sd.copy(b[:90], b[10:])
    assert (b == expect).all()
    c = np.arange(12.0).reshape(3, 4)
    ref = c.copy()
    sd.copy(c, c)  # same buffer, same strides: in place
    assert (c == ref).all()


# ---------------------------------------------------------------- argument rules
def test_copy_errors():
    with pytest.raises(sd.ValidationError, match="dtype"):
        sd.copy(np.zeros(3, np.float32), np.zeros(3, np.float64))
    ro = np.zeros(3)
    ro.flags.writeable = False
    with pytest.raises(BufferError):
        sd.copy(np.ones(3), ro)
    with pytest.raises(TypeError):
        sd.copy(np.ones(3), [0, 0, 0])
    with pytest.raises(TypeError, match="object"):
        sd.copy(np.array([object()] * 3), np.zeros(3))
    with pytest.raises(sd.ValidationError, match="byte order|dtype"):
        sd.copy(np.ones(3, ">f4"), np.zeros(3, ">f4"))


def test_split_errors():
    x = np.zeros((4, 6))
    with pytest.raises(sd.ValidationError, match="equal parts"):
        sd.split(x, 4, axis=1)
    with pytest.raises(sd.ValidationError, match="sum"):
        sd.split(x, [1, 2], axis=0)
    with pytest.raises(sd.ValidationError, match="axis"):
        sd.split(x, 2, axis=2)
    with pytest.raises(sd.ValidationError, match=r"out\[1\]"):
        sd.split(x, 2, axis=0, out=[np.empty((2, 6)), np.empty((2, 5))])


def test_split_out_any_strides():
    x = np.arange(24.0).reshape(4, 6)
    outs = [np.zeros((6, 4)).T[:, :3], np.zeros((4, 3))]
    res = sd.split(x, 2, axis=1, out=outs)
    assert res[0] is outs[0]
    assert (outs[0] == x[:, :3]).all() and (outs[1] == x[:, 3:]).all()


def test_join_errors():
    with pytest.raises(sd.ValidationError, match=r"arrays\[1\]"):
        sd.join([np.zeros((2, 3)), np.zeros((2, 4))], axis=0)
    with pytest.raises(sd.ValidationError, match="dtype"):
        sd.join([np.zeros(2, np.float32), np.zeros(2, np.float64)])
    with pytest.raises(sd.ValidationError, match="at least one"):
        sd.join([])


def test_slice_errors():
    x = np.zeros((4, 4))
    with pytest.raises(sd.ValidationError, match=r"strides\[1\]: stride must not be 0"):
        sd.slice(x, [0, 0], [4, 4], [1, 0])
    with pytest.raises(sd.ValidationError):
        sd.slice(x, [0, 3], [4, 2])  # window past the end
    with pytest.raises(sd.ValidationError):
        sd.slice(x, [0], [4])  # one value per dimension


def test_plan_cache_reuses_plans():
    sd._core._plan_cache_clear()
    x = np.arange(64, dtype=np.float32).reshape(8, 8)
    for _ in range(50):
        sd.slice(x, [0, 0], [8, 8], [1, -1])
    assert sd._core._plan_cache_size() == 1


def test_functions_release_gil_and_are_thread_safe():
    x = np.arange(200_000, dtype=np.float64).reshape(400, 500)
    errors = []

    def work():
        try:
            for _ in range(20):
                out = np.empty((500, 400))
                sd.copy(x.T, out)
                if not (out == x.T).all():
                    errors.append("mismatch")
        except Exception as e:  # pragma: no cover
            errors.append(repr(e))

    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert errors == []
