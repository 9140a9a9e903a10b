"""0-d arrays in every function on arrays (SPEC 3.0 rule 4): a 0-d array is an array of shape ()
as in numpy, never a hidden shape (1,). Results of 0-d inputs are 0-d wherever the function keeps
shapes, `slice` of a 0-d array with empty offsets/sizes/strides is a copy, and where numpy raises
for 0-d (np.concatenate, np.split) strided raises sd.ValidationError (a ValueError) naming the
argument. numpy is the reference throughout."""

from __future__ import annotations

import numpy as np
import pytest

import strided as sd
from strided import xla
from conftest import ALL_DTYPES, same_bits

VE = sd.ValidationError


def zero_d(value=3, dtype=np.float32) -> np.ndarray:
    return np.array(value, dtype=dtype).reshape(())


def scalar_views(dtype=np.float32):
    """0-d arrays of several origins: a fresh one, an element view of a strided array, a read-only
    broadcast source, a numpy scalar (converted by numpy.asarray)."""
    base = np.arange(12).astype(dtype).reshape(3, 4)
    ro = np.array(7, dtype=dtype)
    ro.flags.writeable = False
    return [
        pytest.param(zero_d(5, dtype), id="fresh"),
        pytest.param(base[:, ::-2][1, 1], id="numpy-scalar"),
        pytest.param(base[1, 2, ...], id="view"),
        pytest.param(ro, id="read-only"),
    ]


# ---------------------------------------------------------------- copy
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_copy_0d_to_0d_all_dtypes(dtype):
    src = np.frombuffer(bytes(range(1, 1 + np.dtype(dtype).itemsize)), dtype).reshape(())
    out = np.zeros((), dtype)
    assert sd.copy(src, out) is out
    ref = np.zeros((), dtype)
    np.copyto(ref, src)
    assert out.shape == () and same_bits(out, ref)


@pytest.mark.parametrize("src", scalar_views())
def test_copy_0d_sources(src):
    out = np.zeros((), np.float32)
    sd.copy(src, out)
    assert out.shape == () and out == np.asarray(src)


@pytest.mark.parametrize(
    "src_shape,out_shape",
    [
        ((), ()),
        ((), (3,)),
        ((), (2, 3)),
        ((1,), ()),
        ((1, 1), ()),
        ((1, 1, 1), (1,)),
        ((1, 3), (3,)),
        ((1, 1, 2, 3), (2, 3)),
        ((1, 1), (4, 1)),
    ],
)
def test_copy_broadcasts_as_np_copyto(src_shape, out_shape):
    """np.copyto's rule: align right, size-1 dims broadcast, and leading size-1 dims of src beyond
    out's count are dropped (so (1,) and (1, 1) copy into a 0-d out)."""
    src = (np.arange(int(np.prod(src_shape))) + 1).astype(np.float32).reshape(src_shape)
    out, ref = np.zeros(out_shape, np.float32), np.zeros(out_shape, np.float32)
    np.copyto(ref, src)
    assert sd.copy(src, out) is out
    assert out.shape == out_shape and np.array_equal(out, ref)


@pytest.mark.parametrize("src_shape,out_shape", [((2,), ()), ((2, 1), ()), ((3,), (1,)), ((2, 1), (1,))])
def test_copy_not_broadcastable_raises_like_numpy(src_shape, out_shape):
    src = np.ones(src_shape, np.float32)
    out = np.full(out_shape, 9, np.float32)
    with pytest.raises(ValueError):
        np.copyto(np.zeros(out_shape, np.float32), src)
    with pytest.raises(VE, match="src"):
        sd.copy(src, out)
    assert (out == 9).all()


def test_copy_0d_dtype_mismatch():
    with pytest.raises(VE, match="out"):
        sd.copy(zero_d(), np.zeros((), np.float64))


# ---------------------------------------------------------------- slice
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("strides", [None, [], ()], ids=["no-strides", "list", "tuple"])
def test_slice_0d_is_a_copy(dtype, strides):
    x = np.frombuffer(bytes(range(7, 7 + np.dtype(dtype).itemsize)), dtype).reshape(())
    r = sd.slice(x, [], (), strides)
    assert isinstance(r, np.ndarray) and r.shape == () and r.dtype == x.dtype
    assert same_bits(r, x[...].copy())
    assert not np.shares_memory(r, x)


@pytest.mark.parametrize("x", scalar_views())
def test_slice_0d_sources_and_out(x):
    out = np.zeros((), np.float32)
    assert sd.slice(x, [], [], [], out=out) is out
    assert out == np.asarray(x)


@pytest.mark.parametrize(
    "offsets,sizes,strides,field",
    [
        ([0], [], [], "offsets"),
        ([], [1], [], "sizes"),
        ([], [], [1], "strides"),
        ([0], [1], [1], "offsets"),
    ],
)
def test_slice_0d_wrong_lengths_name_the_field(offsets, sizes, strides, field):
    with pytest.raises(VE, match=rf"Slice1Desc\.{field}: .*\(0\), got 1"):
        sd.slice(zero_d(), offsets, sizes, strides)


@pytest.mark.parametrize("out_shape", [(1,), (1, 1)])
def test_slice_0d_out_must_be_0d(out_shape):
    out = np.full(out_shape, 9, np.float32)
    with pytest.raises(VE, match="out"):
        sd.slice(zero_d(), [], [], [], out=out)
    assert (out == 9).all()


def test_slice_1d_to_one_element_keeps_one_dimension():
    """The contrast: a 1-d window of one element stays 1-d (shape (1,)), as x[1:2] in numpy."""
    x = np.arange(4, dtype=np.float32)
    assert sd.slice(x, [1], [1], [1]).shape == x[1:2].shape == (1,)


# ---------------------------------------------------------------- split / join
@pytest.mark.parametrize("parts", [1, [1], 2, []])
@pytest.mark.parametrize("axis", [0, -1])
def test_split_0d_raises_like_numpy(parts, axis):
    with pytest.raises(Exception):  # noqa: B017 numpy: IndexError (no axis); strided: a ValueError naming x
        np.split(zero_d(), parts, axis=axis)
    with pytest.raises(VE, match=r"^x: .*0-d"):
        sd.split(zero_d(), parts, axis=axis)


@pytest.mark.parametrize(
    "arrays,bad",
    [
        ([zero_d(1), zero_d(2)], 0),
        ([zero_d(1)], 0),
        ([np.ones(2, np.float32), zero_d(2)], 1),
        ([np.ones(2, np.float32), np.ones(1, np.float32), zero_d(2)], 2),
    ],
    ids=["two-0d", "one-0d", "1d-then-0d", "third"],
)
def test_join_0d_raises_like_numpy(arrays, bad):
    with pytest.raises(ValueError):  # "zero-dimensional ..." or a dimension-count mismatch
        np.concatenate(arrays)
    out = np.full(9, 7, np.float32)
    with pytest.raises(VE, match=rf"^arrays\[{bad}\]: zero-dimensional arrays cannot be concatenated"):
        sd.join(arrays, out=out[: len(arrays)])
    assert (out == 7).all()


def test_concat_of_one_element_arrays_is_fine():
    a, b = np.ones(1, np.float32), np.zeros(1, np.float32)
    assert np.array_equal(sd.join([a, b]), np.concatenate([a, b]))


# ---------------------------------------------------------------- gather family
X34 = np.arange(12, dtype=np.float32).reshape(3, 4)
INDEX_DTYPES = [np.int32, np.int64, np.uint32, np.uint64, np.int8, np.uint16]


@pytest.mark.parametrize("idx_dtype", INDEX_DTYPES)
@pytest.mark.parametrize(
    "x,axis", [(X34, 0), (X34, 1), (X34, -1), (np.arange(5.0), 0)], ids=["2d-0", "2d-1", "2d-neg", "1d"]
)
def test_gather_0d_indices_is_numpy_take(x, axis, idx_dtype):
    idx = np.array(2, idx_dtype)
    ref = np.take(x, idx, axis=axis)
    r = sd.gather(x, idx, axis=axis)
    assert r.shape == ref.shape and np.array_equal(r, ref)
    out = np.zeros(ref.shape, x.dtype)
    assert sd.gather(x, idx, axis=axis, out=out) is out and np.array_equal(out, ref)


def test_gather_python_int_index_is_0d():
    assert sd.gather(np.arange(5.0), 3).shape == np.take(np.arange(5.0), 3, axis=0).shape == ()
    assert sd.gather(X34, -1, axis=1).tolist() == np.take(X34, -1, axis=1).tolist()


def test_gather_0d_index_out_of_range():
    out = np.full((), 9, np.float32)
    with pytest.raises(IndexError, match="gather.indices"):
        sd.gather(np.arange(3, dtype=np.float32), np.array(3), out=out)
    assert out == 9


@pytest.mark.parametrize("idx", [np.array([0, 0]), np.array(0), np.array([[-1]]), 0], ids=["1d", "0d", "2d", "int"])
@pytest.mark.parametrize("axis", [0, -1])
def test_gather_0d_x_is_numpy_take(idx, axis):
    """numpy.take takes a 0-d array as shape (1,) (axis 0 or -1): the result has the indices' shape."""
    x = zero_d(4)
    ref = np.take(x, idx, axis=axis)
    r = sd.gather(x, idx, axis=axis)
    assert r.shape == ref.shape and np.array_equal(r, ref)
    out = np.zeros(ref.shape, np.float32)
    assert sd.gather(x, idx, axis=axis, out=out) is out and np.array_equal(out, ref)


@pytest.mark.parametrize("idx,axis,exc", [(np.array([1]), 0, IndexError), (np.array([0]), 1, VE)])
def test_gather_0d_x_errors_like_numpy_take(idx, axis, exc):
    with pytest.raises(IndexError if exc is IndexError else ValueError):
        np.take(zero_d(), idx, axis=axis)
    with pytest.raises(exc, match="gather"):
        sd.gather(zero_d(), idx, axis=axis)


@pytest.mark.parametrize(
    "fn,ref",
    [
        (lambda x: sd.gather_elements(x, np.array(0)), lambda x: np.take_along_axis(x, np.array(0), axis=0)),
        (lambda x: sd.scatter(x, np.array(0), zero_d()), lambda x: np.put_along_axis(x, np.array(0), 1, axis=0)),
    ],
    ids=["gather_elements", "scatter"],
)
def test_elements_functions_refuse_0d_x(fn, ref):
    """numpy: take_along_axis/put_along_axis on a 0-d array raise AxisError (a ValueError);
    strided raises ValidationError naming the axis."""
    with pytest.raises(ValueError):
        ref(zero_d())
    with pytest.raises(VE, match="axis"):
        fn(zero_d())


@pytest.mark.parametrize(
    "fn",
    [
        lambda x, i: sd.gather_elements(x, i),
        lambda x, i: sd.scatter(x, i, np.float32(1)),
    ],
    ids=["gather_elements", "scatter"],
)
def test_elements_0d_indices_against_1d_x(fn):
    """take_along_axis: indices need x's dimension count; a 0-d index for a 1-d x is refused."""
    x = np.arange(3, dtype=np.float32)
    with pytest.raises(ValueError):
        np.take_along_axis(x, np.array(1), axis=0)
    with pytest.raises(VE, match="indices"):
        fn(x, np.array(1))


@pytest.mark.parametrize(
    "fn",
    [
        lambda x, i: sd.gather_nd(x, i),
        lambda x, i: sd.scatter_nd(x, i, np.float32(1)),
    ],
    ids=["gather_nd", "scatter_nd"],
)
@pytest.mark.parametrize("x_0d", [True, False])
def test_nd_functions_refuse_0d_operands(fn, x_0d):
    """ONNX GatherND/ScatterND need data and indices of rank >= 1."""
    x, i = (zero_d(), np.array([0])) if x_0d else (np.arange(3, dtype=np.float32), np.array(0))
    with pytest.raises(VE):
        fn(x, i)


def test_gather_nd_full_coordinate_gives_0d():
    idx = np.array([1, 2])
    r = sd.gather_nd(X34, idx)
    assert r.shape == () and r == X34[1, 2]
    out = np.zeros((), np.float32)
    assert sd.gather_nd(X34, idx, out=out) is out and out == X34[1, 2]


def test_gather_nd_batched_full_coordinates():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    idx = np.array([[1, 2], [0, 3]])
    r = sd.gather_nd(x, idx, batch_dims=1)
    assert r.tolist() == [x[0, 1, 2], x[1, 0, 3]]


@pytest.mark.parametrize("reduction", ["none", "add", "max"])
def test_scatter_0d_updates_broadcast(reduction):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    idx = np.array([[1, 0, 1]])
    r = sd.scatter(x, idx, zero_d(10), axis=0, reduction=reduction)
    ref = x.copy()
    ufunc = {"none": None, "add": np.add, "max": np.maximum}[reduction]
    for j, i in enumerate(idx[0]):
        ref[i, j] = 10 if ufunc is None else ufunc(ref[i, j], 10)
    assert np.array_equal(r, ref)


def test_scatter_nd_0d_updates_for_a_full_coordinate():
    """indices (L,) with L = x.ndim address one element: updates has shape () (ONNX ScatterND)."""
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    r = sd.scatter_nd(x, np.array([[1, 2]]), np.array([7], np.float32))
    ref = x.copy()
    ref[1, 2] = 7
    assert np.array_equal(r, ref)
    r = sd.scatter_nd(np.arange(3, dtype=np.float32), np.array([1]), zero_d(9))
    assert r.tolist() == [0, 9, 2]


def test_scatter_in_place_on_0d_updates():
    x = np.arange(4, dtype=np.float32)
    sd.scatter(x, np.array([2]), zero_d(8), out=x)
    assert x.tolist() == [0, 1, 8, 3]


# ---------------------------------------------------------------- xla helpers that take arrays
@pytest.mark.parametrize("x", scalar_views())
def test_xla_rank0_round_trip(x):
    s = xla.make_shape("f32", [])
    buf = xla.to_physical(x, s)
    assert buf.shape == (1,) and buf[0] == np.asarray(x)
    back = xla.from_physical(buf, s)
    assert back.shape == () and back == np.asarray(x)
    assert xla.relayout(buf, s, s).tolist() == [float(np.asarray(x))]


def test_xla_to_physical_0d_into_rank1_shape_is_refused():
    with pytest.raises(VE, match="to_physical.x"):
        xla.to_physical(zero_d(), xla.make_shape("f32", [1]))


def test_xla_rank0_index_functions():
    s = xla.make_shape("f32", [])
    assert xla.multidimensional_index_to_linear_index(s, ()) == 0
    assert xla.linear_index_to_multidimensional_index(s, 0) == ()
    assert xla.bump_indices(s, ()) is None


# ---------------------------------------------------------------- descriptions stay DirectML's
def test_descriptions_still_need_one_dimension():
    """Rule 4's last sentence: descriptions follow DirectML (1 to 8 dimensions)."""
    with pytest.raises(VE, match="0-d"):
        sd.TensorDesc.from_array(zero_d())
    with pytest.raises(VE, match="TensorDesc.sizes"):
        sd.TensorDesc("float32", [])


def test_0d_calls_reuse_plans():
    """A 0-d call plans like its (1,) form; repeated calls hit the cache (no growth per call)."""
    sd.slice(zero_d(), [], [], [])
    before = sd._core._plan_cache_size()
    for _ in range(5):
        sd.slice(zero_d(), [], [], [])
        sd.copy(zero_d(), np.zeros((), np.float32))
    assert sd._core._plan_cache_size() <= before + 1
