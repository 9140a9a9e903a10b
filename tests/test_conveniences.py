"""ONNX-only Compress and CenterCropPad (SPEC 3.15) and the array-API conveniences flip,
permute_dims, broadcast_to, concat: numpy (compress, flip, transpose, broadcast_to, concatenate,
slicing + pad) and ONNX's own node cases as references, every dtype, input strides, out=, empty
and 0-d arrays, misuse writing nothing."""

from __future__ import annotations

import importlib
from typing import Any, List, Tuple

import numpy as np
import pytest

import strided as sd
from conftest import ALL_DTYPES, random_array, same_bits

DT_IDS = lambda t: np.dtype(t).name  # noqa: E731


def onnx_cases(module: str, cls: str) -> List[Tuple[Any, list, list, str]]:
    """ONNX's node test cases of one operator: its export functions, with `expect` captured."""
    pytest.importorskip("onnx")
    m = importlib.import_module(f"onnx.backend.test.case.node.{module}")
    got: List[Tuple[Any, list, list, str]] = []
    m.expect = lambda node, inputs, outputs, name, **kw: got.append((node, inputs, outputs, name))  # type: ignore[attr-defined]
    c = getattr(m, cls)
    for name in dir(c):
        if name.startswith("export"):
            getattr(c, name)()
    assert got
    return got


def attr(node: Any, name: str) -> Any:
    import onnx

    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return None


# ---------------------------------------------------------------- compress


def test_compress_spec_examples() -> None:
    a = np.array([[1, 2], [3, 4], [5, 6]])
    assert sd.compress(a, [0, 1], axis=0).tolist() == [[3, 4]]
    assert sd.compress(a, [False, True, True], axis=0).tolist() == [[3, 4], [5, 6]]
    assert sd.compress(a, [False, True], axis=1).tolist() == [[2], [4], [6]]
    assert sd.compress(a, [False, True]).tolist() == [2]
    assert sd.compress(a, [1, 0, 1, 1]).tolist() == [1, 3, 4]


def test_compress_onnx_cases() -> None:
    for node, inputs, outputs, name in onnx_cases("compress", "Compress"):
        if inputs[0].dtype.name == "bfloat16":
            continue  # not a DirectML type
        got = sd.compress(inputs[0], inputs[1], axis=attr(node, "axis"))
        assert same_bits(got, outputs[0]), name


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=DT_IDS)
def test_compress_every_dtype_matches_numpy(dtype) -> None:
    rng = np.random.default_rng(3)
    x = random_array(rng, (4, 6, 5), dtype)
    for axis in (None, 0, 1, 2, -1):
        n = x.size if axis is None else x.shape[axis]
        for cond in [rng.random(n) > 0.5, rng.random(n - 1) > 0.3, np.ones(n, bool), np.zeros(n, bool)]:
            assert same_bits(sd.compress(x, cond, axis=axis), np.compress(cond, x, axis=axis))


def test_compress_condition_forms_and_strides() -> None:
    rng = np.random.default_rng(4)
    x = random_array(rng, (7, 9), np.float32)
    conds = [
        np.array([0, 2, 0, -1, 0, 0, 5], np.int8),
        np.array([0.0, -0.0, np.nan, 1.5, 0, 0, 2], np.float32),  # NaN true, -0.0 false
        np.array([True, False, True, False, False, False, True, False, False]),  # longer, false beyond
        (rng.random(20) > 0.5)[::-3],
        [1, 0, 1],
    ]
    for cond in conds:
        assert same_bits(sd.compress(x, cond, axis=0), np.compress(np.asarray(cond) != 0, x, axis=0))
    for v in [x[::-2, 1::3], x.T, np.broadcast_to(x[2], (5, 9))]:
        c = rng.random(v.shape[1]) > 0.4
        assert same_bits(sd.compress(v, c, axis=1), np.compress(c, v, axis=1))
        c = rng.random(v.size) > 0.4
        assert same_bits(sd.compress(v, c), np.compress(c, v))


def test_compress_out_empty_and_zero_d() -> None:
    x = np.arange(24, dtype=np.int16).reshape(4, 6)
    cond = [1, 0, 1, 1, 0, 1]
    base = np.full((8, 9), -1, np.int16)
    out = base[::2, 1::2].T[::-1, :4]  # (4, 4): transposed, reversed, padded
    assert sd.compress(x, cond, axis=1, out=out) is out and (out == np.compress(cond, x, axis=1)).all()
    assert (base[1::2] == -1).all() and (base[:, ::2] == -1).all()  # nothing outside out written
    assert sd.compress(np.zeros((0, 3)), [1, 1], axis=1).shape == (0, 2)
    assert sd.compress(x, [], axis=1).shape == (4, 0)
    assert sd.compress(x, [0, 0], axis=0).shape == (0, 6)
    assert sd.compress(np.array(5.0), [1]).tolist() == [5.0]
    assert sd.compress(np.array(5.0), [0]).shape == (0,)
    torch = pytest.importorskip("torch")
    t = torch.full((5, 4), -1, dtype=torch.int16).T[:, :4]  # non-contiguous, written in place
    assert sd.compress(x, cond, axis=1, out=t) is t
    assert (t.numpy() == np.compress(cond, x, axis=1)).all()
    assert (sd.compress(torch.from_numpy(x), cond, axis=1) == np.compress(cond, x, axis=1)).all()


def test_compress_misuse_writes_nothing() -> None:
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    out = np.full((1, 2), 7, np.float32)
    with pytest.raises(IndexError, match=r"^compress\.condition: entry 3 is true, beyond axis 0 of size 3"):
        sd.compress(x, [0, 0, 0, 1], axis=0, out=out)
    with pytest.raises(IndexError):
        sd.compress(x, np.ones(7, bool))
    with pytest.raises(sd.ValidationError, match=r"^compress\.condition: must be 1-d, got 2"):
        sd.compress(x, [[1, 0]], axis=0, out=out)
    with pytest.raises(sd.ValidationError, match=r"^compress\.axis: 2 is out of range for 2 dimension"):
        sd.compress(x, [1], axis=2)
    with pytest.raises(sd.ValidationError, match=r"^out: expected shape \(2, 2\), got \(1, 2\)"):
        sd.compress(x, [1, 0, 1], axis=0, out=out)
    with pytest.raises(sd.ValidationError, match=r"^out: expected dtype"):
        sd.compress(x, [1], axis=0, out=np.zeros((1, 2), np.float64))
    with pytest.raises(sd.ValidationError):
        sd.compress(np.ones(3, np.complex64), [1])
    assert (out == 7).all()


# ---------------------------------------------------------------- center_crop_pad


def crop_pad_reference(x: np.ndarray, shape, axes=None) -> np.ndarray:
    """Slicing and numpy.pad, following ONNX's description."""
    axes = list(range(x.ndim)) if axes is None else [a % x.ndim for a in axes]
    index = [slice(None)] * x.ndim
    pads = [(0, 0)] * x.ndim
    for a, t in zip(axes, shape):
        m = x.shape[a]
        if t < m:
            index[a] = slice((m - t) // 2, (m - t) // 2 + t)
        elif t > m:
            pads[a] = ((t - m) // 2, t - m - (t - m) // 2)
    return np.pad(x[tuple(index)], pads)


def test_center_crop_pad_spec_examples() -> None:
    x = np.arange(1, 16).reshape(3, 5)
    assert sd.center_crop_pad(x, [4, 2]).tolist() == [[2, 3], [7, 8], [12, 13], [0, 0]]
    assert sd.center_crop_pad(x, [5, 6]).tolist() == [
        [0, 0, 0, 0, 0, 0],
        [1, 2, 3, 4, 5, 0],
        [6, 7, 8, 9, 10, 0],
        [11, 12, 13, 14, 15, 0],
        [0, 0, 0, 0, 0, 0],
    ]
    y = np.random.default_rng(1).standard_normal((20, 10, 3)).astype(np.float32)
    assert same_bits(sd.center_crop_pad(y, [10, 7, 3]), y[5:15, 1:8, :])
    z = np.random.default_rng(2).standard_normal((3, 20, 8)).astype(np.float32)
    got = sd.center_crop_pad(z, [10, 9], axes=[1, 2])
    assert got.shape == (3, 10, 9) and same_bits(got[:, :, :8], z[:, 5:15, :]) and not got[:, :, 8].any()


def test_center_crop_pad_onnx_cases() -> None:
    for node, inputs, outputs, name in onnx_cases("center_crop_pad", "CenterCropPad"):
        got = sd.center_crop_pad(inputs[0], inputs[1], axes=attr(node, "axes"))
        assert same_bits(got, outputs[0]), name


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=DT_IDS)
def test_center_crop_pad_every_dtype(dtype) -> None:
    x = random_array(np.random.default_rng(5), (5, 6, 3), dtype)
    for shape, axes in [([3, 9, 3], None), ([6, 6, 1], None), ([8, 2], [0, 2]), ([4], [-2]), ([0, 6, 3], None)]:
        assert same_bits(sd.center_crop_pad(x, shape, axes), crop_pad_reference(x, shape, axes))


def test_center_crop_pad_strides_empty_zero_d() -> None:
    rng = np.random.default_rng(6)
    base = random_array(rng, (9, 12), np.uint16)
    for x in [base[::-2, 1::3], base.T, np.broadcast_to(base[3], (4, 12))]:
        for shape in [(3, 3), (7, 8), (x.shape[0], 1), (2, 13)]:
            assert same_bits(sd.center_crop_pad(x, shape), crop_pad_reference(x, shape))
    e = np.zeros((3, 0), np.float32)
    assert sd.center_crop_pad(e, [2, 4]).tolist() == [[0] * 4] * 2
    assert sd.center_crop_pad(np.array(4.5), []).tolist() == 4.5
    torch = pytest.importorskip("torch")
    t = torch.arange(1, 16).reshape(3, 5)
    assert sd.center_crop_pad(t, [4, 2]).tolist() == [[2, 3], [7, 8], [12, 13], [0, 0]]


def test_center_crop_pad_misuse() -> None:
    x = np.ones((3, 5))
    with pytest.raises(sd.ValidationError, match=r"^center_crop_pad\.axes\[1\]: axis 0 is repeated"):
        sd.center_crop_pad(x, [2, 2], axes=[0, -2])
    with pytest.raises(sd.ValidationError, match=r"^center_crop_pad\.shape\[1\]: target must be non-negative, got -1"):
        sd.center_crop_pad(x, [2, -1])
    with pytest.raises(
        sd.ValidationError, match=r"^center_crop_pad\.shape: must have one target per axis \(2\), got 1"
    ):
        sd.center_crop_pad(x, [2])
    with pytest.raises(sd.ValidationError, match=r"^center_crop_pad\.axes\[0\]: 2 is out of range"):
        sd.center_crop_pad(x, [2], axes=[2])
    with pytest.raises(TypeError):
        sd.center_crop_pad(x, [2.5, 1])


# ---------------------------------------------------------------- flip, permute_dims, broadcast_to, concat


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=DT_IDS)
def test_conveniences_every_dtype(dtype) -> None:
    rng = np.random.default_rng(9)
    x = random_array(rng, (3, 4, 5), dtype)
    for axis in [None, 0, -1, (0, 2), [1]]:
        got = sd.flip(x, axis)
        assert got.flags.c_contiguous and same_bits(got, np.flip(x, axis))
    for axes in [(2, 0, 1), (0, 1, 2), (-1, -2, -3)]:
        got = sd.permute_dims(x, axes)
        assert got.flags.c_contiguous and same_bits(got, np.transpose(x, axes))
    row = x[1, 2]
    got = sd.broadcast_to(row, (2, 3, 5))
    assert got.flags.c_contiguous and same_bits(got, np.broadcast_to(row, (2, 3, 5)))
    y = random_array(rng, (3, 2, 5), dtype)
    assert same_bits(sd.concat([x, y], axis=1), np.concatenate([x, y], axis=1))
    assert same_bits(sd.concat([x, y], axis=None), np.concatenate([x, y], axis=None))


def test_conveniences_strides_empty_zero_d() -> None:
    rng = np.random.default_rng(10)
    base = random_array(rng, (8, 10, 6), np.float32)
    for x in [base[::-2, 1::3], base.transpose(2, 0, 1), np.broadcast_to(base[0, 0], (3, 4, 6))]:
        assert same_bits(sd.flip(x, 1), np.flip(x, 1))
        assert same_bits(sd.permute_dims(x, (1, 2, 0)), np.ascontiguousarray(x.transpose(1, 2, 0)))
        assert same_bits(sd.broadcast_to(x[:, :1], (2,) + x.shape), np.broadcast_to(x[:, :1], (2,) + x.shape))
        assert same_bits(sd.concat([x, x[::-1]], axis=None), np.concatenate([x, x[::-1]], axis=None))
    e = np.zeros((0, 3), np.int8)
    assert sd.flip(e).shape == (0, 3) and sd.permute_dims(e, (1, 0)).shape == (3, 0)
    assert sd.broadcast_to(e, (2, 0, 3)).shape == (2, 0, 3) and sd.broadcast_to(np.ones(1), (0,)).shape == (0,)
    assert sd.concat([e, e]).shape == (0, 3)
    s = np.array(3.5)
    assert sd.flip(s).tolist() == 3.5 and sd.permute_dims(s, ()).tolist() == 3.5
    assert sd.broadcast_to(s, (2, 2)).tolist() == [[3.5, 3.5]] * 2 and sd.broadcast_to(s, ()).shape == ()
    torch = pytest.importorskip("torch")
    t = torch.arange(12.0).reshape(3, 4)
    assert (sd.flip(t, 0) == torch.flip(t, [0]).numpy()).all()
    assert (sd.permute_dims(t, (1, 0)) == t.permute(1, 0).numpy()).all()
    assert (sd.broadcast_to(t[0], (2, 4)) == t[0].expand(2, 4).numpy()).all()


def test_conveniences_misuse() -> None:
    x = np.ones((2, 3))
    with pytest.raises(sd.ValidationError, match=r"^flip\.axis: 2 is out of range for 2 dimension"):
        sd.flip(x, 2)
    with pytest.raises(sd.ValidationError, match=r"^flip\.axis\[1\]: axis 0 is repeated"):
        sd.flip(x, (0, -2))
    with pytest.raises(sd.ValidationError, match=r"^permute_dims\.axes\[1\]: axis 0 is repeated"):
        sd.permute_dims(x, (0, 0))
    with pytest.raises(sd.ValidationError, match=r"^permute_dims\.axes: must be a permutation of 2 dimension"):
        sd.permute_dims(x, (0,))
    with pytest.raises(sd.ValidationError, match=r"^permute_dims\.axes\[2\]: 2 is out of range for 2 dimension"):
        sd.permute_dims(x, (0, 1, 2))
    with pytest.raises(sd.ValidationError, match=r"^permute_dims\.axes\[0\]: -3 is out of range for 2 dimension"):
        sd.permute_dims(x, [-3, 0])
    with pytest.raises(TypeError, match=r"^permute_dims\.axes\[1\]: expected an integer, got 1\.0"):
        sd.permute_dims(x, (0, 1.0))
    with pytest.raises(sd.ValidationError, match=r"^permute_dims\.x: strided supports at most 8 dimensions"):
        sd.permute_dims(np.zeros((1,) * 9), tuple(range(9)))
    assert sd.permute_dims(np.arange(3), 0).tolist() == [0, 1, 2]  # a single int: the 1-d permutation
    assert sd.permute_dims(x=[[1, 2]], axes=np.array([1, 0])).tolist() == [[1], [2]]  # array-likes, keywords
    with pytest.raises(TypeError, match=r"missing required argument 'axes'"):
        sd.permute_dims(x)  # type: ignore[call-arg]
    with pytest.raises(sd.ValidationError, match=r"^broadcast_to\.shape: x of shape \(2, 3\) does not broadcast"):
        sd.broadcast_to(x, (2, 4))
    with pytest.raises(sd.ValidationError, match=r"^broadcast_to\.shape: .* does not broadcast"):
        sd.broadcast_to(x, (3,))
    with pytest.raises(sd.ValidationError, match=r"^broadcast_to\.shape\[0\]: size must be non-negative"):
        sd.broadcast_to(x, (-1, 3))
    with pytest.raises(sd.ValidationError):
        sd.concat([x, np.ones((2, 3), np.float32)])  # no promotion
    with pytest.raises(sd.ValidationError):
        sd.concat([x, np.ones((3, 3))], axis=1)
    with pytest.raises(TypeError):
        sd.flip(x, 0.5)
