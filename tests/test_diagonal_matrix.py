"""DiagonalMatrix / DiagonalMatrix1 (SPEC 3.12) with sd.eye, sd.eye_like, sd.diagonal_fill,
sd.triu, sd.tril, sd.trilu: SPEC's examples (6.3: the band holds the value 7), a Python loop of
SPEC's band rule, numpy eye/triu/tril, ONNX EyeLike/Trilu, every dtype, input strides, strided
out= (numpy and torch, in place), empty results, misuse writing nothing, the description's rules
(an optional input), feature levels (v0 or v1 by the fields used) and compile/execute with 0 or
1 inputs."""

from __future__ import annotations

import numpy as np
import pytest

import strided as sd
from conftest import ALL_DTYPES, random_array, same_bits

FL = sd.FeatureLevel
T = sd.TensorDesc
I32_MIN, I32_MAX = -(2**31), 2**31 - 1
DTYPE_IDS = [np.dtype(t).name for t in ALL_DTYPES]
SPEC_I = np.array([[4, 7, 3, 7, 9], [1, 2, 8, 6, 9], [9, 4, 1, 8, 7], [4, 3, 4, 2, 4]], np.float32)


def band_reference(shape, dtype, begin, end, value, inp=None) -> np.ndarray:
    """SPEC 3.12's rule, one element at a time: fill = (end >= begin) ^ (t >= begin) ^ (t < end)."""
    out = np.zeros(shape, dtype) if inp is None else np.array(inp, copy=True)
    v = np.array(sd.Scalar(dtype, value).value).astype(dtype)  # the Cast rules' value
    rows, cols = shape[-2:]
    for r in range(rows):
        for c in range(cols):
            t = c - r
            if (end >= begin) ^ (t >= begin) ^ (t < end):
                out[..., r, c] = v
    return out


# ---------------------------------------------------------------- SPEC's examples


@pytest.mark.parametrize(
    "sizes,begin,end,value,want",
    [
        ([3, 3], 0, 1, 1, np.eye(3)),
        ([3, 3], 1, 2, 1, [[0, 1, 0], [0, 0, 1], [0, 0, 0]]),  # Offset 1
        ([3, 2], -1, 0, 1, [[0, 0], [1, 0], [0, 1]]),  # Offset -1
        ([3, 2], -3, -2, 1, np.zeros((3, 2))),  # Offset -3
        ([4, 5], 0, 3, 7, [[7, 7, 7, 0, 0], [0, 7, 7, 7, 0], [0, 0, 7, 7, 7], [0, 0, 0, 7, 7]]),  # SPEC 6.3: 7s
    ],
)
def test_spec_examples_without_input(sizes, begin, end, value, want) -> None:
    d = sd.DiagonalMatrixDesc(T("float32", sizes), value, begin, end)
    assert d.input is None
    out = np.full(sizes, -1, np.float32)
    sd.compile(d).execute([], [out])  # no inputs
    assert same_bits(out, np.asarray(want, np.float32))


@pytest.mark.parametrize(
    "begin,end,want",
    [
        (I32_MIN, 1, [[0, 7, 3, 7, 9], [0, 0, 8, 6, 9], [0, 0, 0, 8, 7], [0, 0, 0, 0, 4]]),  # strict upper kept
        (1, 0, [[4, 0, 0, 0, 0], [0, 2, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 2, 0]]),  # diagonal kept
    ],
)
def test_spec_examples_with_input(begin, end, want) -> None:
    d = sd.DiagonalMatrixDesc(T("float32", [4, 5]), 0, begin, end, T("float32", [4, 5]))
    assert d.input == T("float32", [4, 5])
    out = np.full((4, 5), -1, np.float32)
    sd.compile(d).execute([SPEC_I], [out])
    assert same_bits(out, np.asarray(want, np.float32))
    assert same_bits(sd.diagonal_fill((4, 5), "float32", begin, end, 0, input=SPEC_I), np.asarray(want, np.float32))


# ---------------------------------------------------------------- eye, eye_like


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=DTYPE_IDS)
def test_eye_every_dtype(dtype, simd) -> None:
    for shape in [(3, 5), (5, 3), (4, 4)]:
        for k in range(-5, 6):
            got = sd.eye(shape, dtype, k)
            assert got.flags.c_contiguous and same_bits(got, np.eye(*shape, k=k, dtype=dtype)), (shape, k)
    batched = sd.eye((2, 3, 4), dtype, 1, value=-2)
    assert same_bits(batched, band_reference((2, 3, 4), dtype, 1, 2, -2))


def test_eye_defaults_values_and_large(threads) -> None:
    assert same_bits(sd.eye(3), np.eye(3)) and sd.eye(3).dtype == np.float64  # numpy's default dtype
    assert same_bits(sd.eye((2, 2), "uint8", value=-1), np.eye(2, dtype=np.uint8) * 255)  # Cast rules
    assert same_bits(sd.eye((3, 3), "int32", k=10**12), np.zeros((3, 3), np.int32))  # any k
    assert same_bits(sd.eye((3, 3), "int32", k=-(10**12)), np.zeros((3, 3), np.int32))
    big = sd.eye((1031, 1029), "float32", k=-3)  # several threads, streaming fill
    assert same_bits(big, np.eye(1031, 1029, k=-3, dtype=np.float32))


def test_eye_like_and_onnx_eyelike() -> None:
    x = np.zeros((3, 5), np.int16)
    assert same_bits(sd.eye_like(x), np.eye(3, 5, dtype=np.int16))
    assert same_bits(sd.eye_like(x, k=2, dtype="float32"), np.eye(3, 5, k=2, dtype=np.float32))
    onnx = pytest.importorskip("onnx")
    from onnx import helper
    from onnx.reference import ReferenceEvaluator

    for k in (-2, 0, 1):
        node = helper.make_node("EyeLike", ["x"], ["y"], k=k)
        g = helper.make_graph(
            [node],
            "eyelike",
            [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [4, 3])],
            [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [4, 3])],
        )
        (want,) = ReferenceEvaluator(helper.make_model(g)).run(None, {"x": np.ones((4, 3), np.float32)})
        assert same_bits(sd.eye_like(np.ones((4, 3), np.float32), k=k), want)


def test_eye_out_any_strides() -> None:
    base = np.full((7, 9), 5, np.float32)
    view = base[::-2, 1::2]  # (4, 4), negative and padded strides
    assert sd.eye(view.shape, k=1, out=view) is view
    ref = np.full((7, 9), 5, np.float32)
    ref[::-2, 1::2] = np.eye(4, k=1)
    assert same_bits(base, ref)
    t = np.zeros((5, 4), np.int64).T  # column-major
    sd.eye((4, 5), out=t)
    assert same_bits(np.ascontiguousarray(t), np.eye(4, 5, dtype=np.int64))


# ---------------------------------------------------------------- diagonal_fill: the band rule


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=DTYPE_IDS)
def test_band_rule_every_dtype(dtype) -> None:
    rng = np.random.default_rng(3)
    x = random_array(rng, (2, 4, 6), dtype)  # random bits: NaN payloads outside the band survive
    pairs = [(0, 1), (-1, 2), (2, -1), (3, 3), (-10, 10), (10, -10), (I32_MIN, 0), (1, I32_MAX), (I32_MAX, I32_MIN)]
    for begin, end in pairs:
        got = sd.diagonal_fill(x.shape, dtype, begin, end, 3, input=x)
        assert same_bits(got, band_reference(x.shape, dtype, begin, end, 3, x)), (begin, end)
        got0 = sd.diagonal_fill((4, 6), dtype, begin, end, 1)
        assert same_bits(got0, band_reference((4, 6), dtype, begin, end, 1)), (begin, end)


def test_band_input_strides_and_out(threads) -> None:
    rng = np.random.default_rng(5)
    base = random_array(rng, (9, 14), np.float32)
    for x in [base[::-2, 1::3], base[::2, ::-1][:, :5], np.broadcast_to(base[0, :7], (6, 7)), base[1:7, 2:9].T]:
        want = band_reference(x.shape, np.float32, -1, 2, 0.5, x)
        assert same_bits(sd.diagonal_fill(x.shape, "float32", -1, 2, 0.5, input=x), want)
        out_base = np.zeros((x.shape[0] * 2, x.shape[1] + 3), np.float32)
        out = out_base[::-2, 3:]
        assert sd.diagonal_fill(x.shape, None, -1, 2, 0.5, input=x, out=out) is out
        assert same_bits(out, want) and not out_base[::-2, :3].any() and not out_base[-2::-2].any()
    big = random_array(rng, (3, 257, 300), np.uint16)
    assert same_bits(
        sd.diagonal_fill(big.shape, "uint16", 5, -7, 9, input=big), band_reference(big.shape, np.uint16, 5, -7, 9, big)
    )


def test_in_place() -> None:
    rng = np.random.default_rng(7)
    x = random_array(rng, (5, 6), np.int32)
    want = np.triu(x)
    assert sd.diagonal_fill(x.shape, "int32", I32_MIN, 0, 0, input=x, out=x) is x
    assert same_bits(x, want)
    y = random_array(rng, (6, 6), np.int8)
    want = band_reference(y.shape, np.int8, 0, 1, 9, y)
    sd.diagonal_fill(y.shape, "int8", 0, 1, 9, input=y[:, :], out=y)  # a second view of the same memory
    assert same_bits(y, want)


def test_torch_in_place_and_out() -> None:
    torch = pytest.importorskip("torch")
    x = torch.arange(30, dtype=torch.float32).reshape(5, 6)
    assert sd.diagonal_fill((5, 6), "float32", I32_MIN, 1, 0, input=x, out=x) is x  # torch.triu(., 1) in place
    assert torch.equal(x, torch.triu(torch.arange(30, dtype=torch.float32).reshape(5, 6), 1))
    base = torch.full((4, 10), -1, dtype=torch.int64)
    view = base[:, ::2]  # non-contiguous (4, 5)
    assert sd.eye((4, 5), "int64", k=1, out=view) is view
    assert torch.equal(view, torch.from_numpy(np.eye(4, 5, k=1, dtype=np.int64)))
    assert (base[:, 1::2] == -1).all()
    t = torch.arange(24, dtype=torch.float64).reshape(2, 3, 4)
    assert torch.equal(torch.from_numpy(sd.tril(t, -1)), torch.tril(t, -1))  # a tensor as input
    bad = torch.zeros(1, 3, dtype=torch.float32).expand(3, 3)  # writable, stride 0: would race
    with pytest.raises(BufferError, match="overlap"):
        sd.eye((3, 3), "float32", out=bad)
    assert not bad.any()


# ---------------------------------------------------------------- triu, tril, trilu


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=DTYPE_IDS)
def test_triu_tril_every_dtype(dtype) -> None:
    rng = np.random.default_rng(11)
    x = random_array(rng, (2, 5, 7), dtype)
    for k in [*range(-7, 9), 10**12, -(10**12)]:
        assert same_bits(sd.triu(x, k), np.triu(x, k)), k
        assert same_bits(sd.tril(x, k), np.tril(x, k)), k
        assert same_bits(sd.trilu(x, k, upper=False), np.tril(x, k))
    assert same_bits(sd.trilu(x[0]), np.triu(x[0]))


def test_triu_strided_inputs() -> None:
    rng = np.random.default_rng(13)
    base = random_array(rng, (10, 12), np.float64)
    for x in [base[::-1], base[::3, ::-2], np.broadcast_to(base[:1], (4, 12)), base.T]:
        assert same_bits(sd.triu(x, 1), np.triu(x, 1)) and same_bits(sd.tril(x, -2), np.tril(x, -2))


def test_onnx_trilu() -> None:
    onnx = pytest.importorskip("onnx")
    from onnx import helper
    from onnx.reference import ReferenceEvaluator

    x = np.arange(1, 25, dtype=np.int64).reshape(2, 3, 4)
    for upper in (0, 1):
        for k in (-1, 0, 2):
            node = helper.make_node("Trilu", ["x", "k"], ["y"], upper=upper)
            g = helper.make_graph(
                [node],
                "trilu",
                [
                    helper.make_tensor_value_info("x", onnx.TensorProto.INT64, [2, 3, 4]),
                    helper.make_tensor_value_info("k", onnx.TensorProto.INT64, []),
                ],
                [helper.make_tensor_value_info("y", onnx.TensorProto.INT64, [2, 3, 4])],
            )
            (want,) = ReferenceEvaluator(helper.make_model(g)).run(None, {"x": x, "k": np.array(k, np.int64)})
            assert same_bits(sd.trilu(x, k, upper=bool(upper)), want)


# ---------------------------------------------------------------- empty results and misuse


def test_empty() -> None:
    assert sd.eye((0, 3)).shape == (0, 3) and sd.eye((2, 0, 3), "int8").shape == (2, 0, 3)
    assert sd.triu(np.zeros((0, 4), np.float32)).shape == (0, 4)
    assert sd.tril(np.zeros((3, 4, 0), np.uint8), 1).shape == (3, 4, 0)
    assert sd.diagonal_fill((4, 0), "int16", 0, 1, input=np.zeros((4, 0), np.int16)).shape == (4, 0)
    out = np.zeros((0, 5), np.float32)
    assert sd.eye((0, 5), out=out) is out


def test_misuse_writes_nothing() -> None:
    out = np.zeros((3, 4), np.float32)
    x = np.ones((3, 4), np.float32)
    with pytest.raises(sd.ValidationError, match="eye.shape: needs at least 2 dimensions"):
        sd.eye((4,))
    with pytest.raises(sd.ValidationError, match=r"eye.shape\[0\]: size must be non-negative"):
        sd.eye((-1, 3))
    with pytest.raises(sd.ValidationError, match="out: expected shape"):
        sd.eye((4, 3), out=out)
    with pytest.raises(sd.ValidationError, match="out: expected dtype"):
        sd.eye((3, 4), "float64", out=out)
    with pytest.raises(sd.ValidationError, match="diagonal_fill.begin: must fit a 32-bit signed INT"):
        sd.diagonal_fill((3, 4), "float32", 2**31, 0, out=out)
    with pytest.raises(sd.ValidationError, match="diagonal_fill.end: must fit a 32-bit signed INT"):
        sd.diagonal_fill((3, 4), "float32", 0, -(2**31) - 1, out=out)
    with pytest.raises(sd.ValidationError, match="diagonal_fill.input: expected shape"):
        sd.diagonal_fill((3, 4), "float32", 0, 1, input=x.T, out=out)
    with pytest.raises(sd.ValidationError, match="diagonal_fill.input: expected dtype"):
        sd.diagonal_fill((3, 4), "float32", 0, 1, input=x.astype(np.float64), out=out)
    with pytest.raises(TypeError, match="diagonal_fill.value"):
        sd.diagonal_fill((3, 4), "float32", 0, 1, value="1", out=out)
    with pytest.raises(sd.ValidationError, match="triu.x: needs at least 2 dimensions"):
        sd.triu(np.ones(4))
    with pytest.raises(sd.ValidationError, match="tril.x: needs at least 2 dimensions"):
        sd.tril(np.float32(1))
    with pytest.raises(BufferError, match="read-only"):
        sd.eye((3, 4), out=np.broadcast_to(out, (3, 4)))
    assert not out.any()


# ---------------------------------------------------------------- the description


def test_description_rules() -> None:
    D = sd.DiagonalMatrixDesc
    with pytest.raises(sd.ValidationError, match=r"DiagonalMatrixDesc.output.sizes: 1 is out of range: must be 2 to 8"):
        D(T("float32", [4]), 1, 0, 1).validate()
    with pytest.raises(sd.ValidationError, match=r"DiagonalMatrixDesc.value.dtype: must equal output.dtype"):
        D(T("float32", [2, 2]), sd.Scalar("int32", 1), 0, 1).validate()
    with pytest.raises(
        sd.ValidationError, match="DiagonalMatrixDesc.diagonal_fill_begin: must fit a 32-bit signed INT"
    ):
        D(T("float32", [2, 2]), 1, -(2**31) - 1, 1).validate()
    with pytest.raises(sd.ValidationError, match="DiagonalMatrixDesc.diagonal_fill_end: must fit a 32-bit signed INT"):
        D(T("float32", [2, 2]), 1, 0, 2**31).validate()
    with pytest.raises(sd.ValidationError, match=r"DiagonalMatrixDesc.input.dtype: must equal output.dtype"):
        D(T("float32", [2, 2]), 1, 0, 1, T("float16", [2, 2])).validate()
    with pytest.raises(sd.ValidationError, match=r"DiagonalMatrixDesc.input.sizes"):
        D(T("float32", [2, 2]), 1, 0, 1, T("float32", [2, 3])).validate()
    with pytest.raises(sd.ValidationError, match="DiagonalMatrixDesc.output"):
        D(T("float32", [2, 2], [0, 1]), 1, 0, 1).validate()  # aliasing output
    with pytest.raises(TypeError, match="DiagonalMatrixDesc.input"):
        D(T("float32", [2, 2]), 1, 0, 1, "x")
    d = D(T("uint8", [2, 2]), -1, 0, 1)
    assert d.value == sd.Scalar("uint8", 255) and d.input is None  # converted at construction
    assert d == D(T("uint8", [2, 2]), sd.Scalar("uint8", 255), 0, 1, None)
    assert d != D(T("uint8", [2, 2]), 255, 0, 1, T("uint8", [2, 2]))
    assert repr(d).endswith("diagonal_fill_begin=0, diagonal_fill_end=1, input=None)")
    assert "input=TensorDesc(UINT8" in repr(D(T("uint8", [2, 2]), 1, 0, 1, input=T("uint8", [2, 2])))


def test_levels_v0_or_v1() -> None:
    D = sd.DiagonalMatrixDesc
    assert D(T("float32", [1, 1, 3, 3]), 1.0, 2, 3).min_feature_level == FL.FL_2_0  # DIAGONAL_MATRIX, 4 FH
    assert D(T("int8", [1, 1, 3, 3]), 1, 0, 1).min_feature_level == FL.FL_2_1  # 8 types
    assert D(T("float32", [3, 3]), 1, -1, 0).min_feature_level == FL.FL_4_0  # 2-4 dimensions
    assert D(T("int64", [3, 3]), 1, 0, 1).min_feature_level == FL.FL_5_1  # 64-bit types
    band = D(T("float32", [1, 1, 3, 3]), 1, 0, 2)  # end != begin + 1: DIAGONAL_MATRIX1 only
    assert band.min_feature_level == FL.FL_5_1
    with pytest.raises(sd.ValidationError, match=r"DiagonalMatrixDesc.diagonal_fill_end: .*DIAGONAL_MATRIX1.*5_1"):
        band.validate("5_0")
    inp = D(T("float32", [3, 3]), 0, 0, 1, T("float32", [3, 3]))
    assert inp.min_feature_level == FL.FL_5_1 and not inp.is_valid_at("5_0") and inp.is_valid_at("6_4")
    with pytest.raises(sd.ValidationError, match=r"DiagonalMatrixDesc.input: .*DIAGONAL_MATRIX1"):
        inp.validate("4_1")
    big = D(T("int32", [3, 3]), 2**24 + 1, 0, 1)  # FLOAT32 cannot hold the value: v1
    assert big.min_feature_level == FL.FL_5_1
    with pytest.raises(sd.ValidationError, match=r"DiagonalMatrixDesc.value: .*FLOAT32"):
        big.validate("4_0")
    assert D(T("int32", [3, 3]), 2**24, 0, 1).min_feature_level == FL.FL_4_0
    assert not D(T("float32", [1, 1, 3, 3]), 1, 0, 1).is_valid_at("1_0")


def test_no_level_accepts_five_dimensions_but_it_executes() -> None:
    d = sd.DiagonalMatrixDesc(T("float32", [2, 1, 1, 3, 3]), 1, 0, 1)
    d.validate()
    with pytest.raises(sd.ValidationError, match="DiagonalMatrixDesc.output.sizes: 5 dimensions"):
        d.min_feature_level
    assert not any(d.is_valid_at(level) for level in FL)
    out = np.zeros((2, 1, 1, 3, 3), np.float32)
    sd.compile(d).execute([], [out])
    assert same_bits(out, np.broadcast_to(np.eye(3, dtype=np.float32), out.shape).copy())


def test_compile_execute_raw_buffers() -> None:
    desc = T("int16", [3, 4], [5, 1])  # padded rows
    d = sd.DiagonalMatrixDesc(desc, 9, 1, -1, desc)  # all but t = -1
    x = np.arange(desc.total_bytes // 2, dtype=np.int16)
    buf = bytearray(desc.total_bytes)
    op = sd.compile(d)
    op.execute([x.tobytes()], [buf])
    got = np.frombuffer(buf, np.int16)
    view = np.lib.stride_tricks.as_strided(x, (3, 4), (10, 2))
    want = np.zeros_like(got)
    np.lib.stride_tricks.as_strided(want, (3, 4), (10, 2))[...] = band_reference((3, 4), np.int16, 1, -1, 9, view)
    assert same_bits(got, want)
    with pytest.raises(BufferError):
        op.execute([], [buf])  # the input is missing: nothing written
    e = sd.compile(sd.DiagonalMatrixDesc(T("float32", [2, 3]), 1, 0, 1))
    out = bytearray(24)
    e.execute([], [out])
    assert same_bits(np.frombuffer(out, np.float32).reshape(2, 3), np.eye(2, 3, dtype=np.float32))


def test_streaming_stores_path() -> None:
    """Outputs over the stream threshold (lowered here) take the kernels' non-temporal variants."""
    old = sd._core._stream_threshold()
    sd._core._set_stream_threshold(0)
    try:
        rng = np.random.default_rng(17)
        for dtype in ALL_DTYPES:
            x = random_array(rng, (3, 37, 41), dtype)
            assert same_bits(sd.eye(x.shape, dtype, k=2), band_reference(x.shape, dtype, 2, 3, 1))
            assert same_bits(sd.triu(x, -3), np.triu(x, -3)) and same_bits(
                sd.tril(x[:, ::-1], 4), np.tril(x[:, ::-1], 4)
            )
            base = np.zeros((3, 37, 90), dtype)
            sd.diagonal_fill(x.shape, dtype, 5, -2, 7, input=x, out=base[:, :, 1::2][:, :, :41])
            assert same_bits(base[:, :, 1::2][:, :, :41], band_reference(x.shape, dtype, 5, -2, 7, x))
    finally:
        sd._core._set_stream_threshold(old)
