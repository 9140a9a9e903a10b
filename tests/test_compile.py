"""compile() + CompiledOperator.execute() on buffers for the copy descriptions (Identity, Split,
Join, Slice, Slice1): SPEC.md examples, buffer rules, threads."""

import threading

import numpy as np
import pytest

import strided as sd

F32 = sd.DataType.FLOAT32


def spec_input():
    return np.arange(1, 17, dtype=np.float32)


def test_slice1_spec_example():
    x = sd.TensorDesc(F32, [1, 1, 4, 4])
    y = sd.TensorDesc(F32, [1, 1, 2, 2])
    op = sd.compile(sd.Slice1Desc(x, y, [0, 0, 0, 1], [1, 1, 4, 3], [1, 1, -2, 2]))
    out = np.zeros(4, np.float32)
    op.execute([spec_input()], [out])
    assert out.tolist() == [14, 16, 6, 8]


@pytest.mark.parametrize(
    "offsets,sizes,strides,expected",
    [
        ([0, 0, 1, 2], [1, 1, 3, 2], [1, 1, 1, 1], [7, 8, 11, 12, 15, 16]),
        ([0, 0, 1, 0], [1, 1, 2, 2], [1, 1, 2, 3], [5, 8, 13, 16]),
    ],
)
def test_slice_v1_spec_examples(offsets, sizes, strides, expected):
    x = sd.TensorDesc(F32, [1, 1, 4, 4])
    y = sd.TensorDesc(F32, sizes)
    op = sd.compile(sd.SliceDesc(x, y, offsets, sizes, strides))
    out = np.zeros(len(expected), np.float32)
    op.execute([spec_input()], [out])
    assert out.tolist() == expected


def test_split_and_join_spec_examples():
    x = sd.TensorDesc(F32, [1, 1, 6, 2])
    outs = [sd.TensorDesc(F32, [1, 1, n, 2]) for n in (2, 1, 3)]
    op = sd.compile(sd.SplitDesc(x, outs, 2))
    bufs = [np.zeros(4, np.float32), np.zeros(2, np.float32), np.zeros(6, np.float32)]
    op.execute([np.arange(1, 13, dtype=np.float32)], bufs)
    assert [b.tolist() for b in bufs] == [[1, 2, 3, 4], [5, 6], [7, 8, 9, 10, 11, 12]]

    a = sd.TensorDesc(sd.DataType.INT32, [1, 1, 2, 3])
    b = sd.TensorDesc(sd.DataType.INT32, [1, 1, 2, 4])
    y = sd.TensorDesc(sd.DataType.INT32, [1, 1, 2, 7])
    join = sd.compile(sd.JoinDesc([a, b], y, 3))
    out = np.zeros(14, np.int32)
    join.execute([np.arange(1, 7, dtype=np.int32), np.arange(7, 15, dtype=np.int32)], [out])
    assert out.reshape(2, 7).tolist() == [[1, 2, 3, 7, 8, 9, 10], [4, 5, 6, 11, 12, 13, 14]]


def test_identity_nchw_to_nhwc_padded_and_broadcast():
    n, c, h, w = 2, 3, 4, 5
    x = np.arange(n * c * h * w, dtype=np.float32).reshape(n, c, h, w)
    nchw = sd.TensorDesc(F32, [n, c, h, w])
    nhwc = sd.TensorDesc(F32, [n, c, h, w], sd.packed_strides([n, c, h, w], "NHWC"))
    out = np.zeros(x.size, np.float32)
    sd.compile(sd.IdentityDesc(nchw, nhwc)).execute([x], [out])
    assert (out.reshape(n, h, w, c) == x.transpose(0, 2, 3, 1)).all()

    # padded rows: row pitch 8 for a 3x5 tensor; padding untouched
    padded = sd.TensorDesc(F32, [3, 5], [8, 1])
    assert padded.total_bytes == sd.calc_buffer_tensor_size(F32, [3, 5], [8, 1]) == (2 * 8 + 4 + 1) * 4
    buf = np.full(padded.total_bytes // 4, -1, np.float32)
    sd.compile(sd.IdentityDesc(sd.TensorDesc(F32, [3, 5]), padded)).execute([np.arange(15, dtype=np.float32)], [buf])
    assert buf[:21].tolist() == [0, 1, 2, 3, 4, -1, -1, -1, 5, 6, 7, 8, 9, -1, -1, -1, 10, 11, 12, 13, 14]

    # broadcast materialisation: a {3} row repeated 4 times (input stride 0)
    row = sd.TensorDesc(F32, [4, 3], [0, 1])
    out = np.zeros(12, np.float32)
    sd.compile(sd.IdentityDesc(row, sd.TensorDesc(F32, [4, 3]))).execute([np.array([1, 2, 3], np.float32)], [out])
    assert out.reshape(4, 3).tolist() == [[1, 2, 3]] * 4


def test_identity_in_place_same_buffer():
    d = sd.TensorDesc(sd.DataType.INT16, [8, 8])
    buf = np.arange(64, dtype=np.int16)
    sd.compile(sd.IdentityDesc(d, d)).execute([buf], [buf])
    assert (buf == np.arange(64)).all()


def test_overlapping_buffers_give_separate_buffer_result():
    # input and output are the same memory but the output is the transpose: snapshot semantics
    d_in = sd.TensorDesc(F32, [4, 4])
    d_out = sd.TensorDesc(F32, [4, 4], [1, 4])
    buf = np.arange(16, dtype=np.float32)
    expect = np.arange(16, dtype=np.float32).reshape(4, 4).T.ravel()
    sd.compile(sd.IdentityDesc(d_in, d_out)).execute([buf], [buf])
    assert buf.tolist() == expect.tolist()


def test_execute_buffer_rules():
    d = sd.TensorDesc(F32, [3])  # 12 bytes
    op = sd.compile(sd.IdentityDesc(d, d))
    with pytest.raises(BufferError, match=r"execute.inputs\[0\].*total_bytes = 12"):
        op.execute([bytes(8)], [bytearray(12)])
    with pytest.raises(BufferError, match=r"outputs\[0\]"):
        op.execute([bytes(12)], [bytearray(4)])
    with pytest.raises(BufferError, match="expected 1 input"):
        op.execute([], [bytearray(12)])
    with pytest.raises(BufferError, match="expected 1 output"):
        op.execute([bytes(12)], [bytearray(12), bytearray(12)])
    with pytest.raises(BufferError, match="not writable"):
        op.execute([bytes(12)], [bytes(12)])
    with pytest.raises(TypeError):
        op.execute([12], [bytearray(12)])
    # a failed call writes nothing
    out = bytearray(b"\x07" * 12)
    with pytest.raises(BufferError):
        op.execute([bytes(8)], [out])
    assert out == bytearray(b"\x07" * 12)
    # bytes, bytearray, memoryview and arrays all work
    src = np.array([1.5, -0.0, np.nan], np.float32)
    for dst in (bytearray(12), memoryview(bytearray(12)), np.zeros(3, np.float32)):
        op.execute([memoryview(src.tobytes())], [dst])
        assert bytes(dst) == src.tobytes()


def test_compile_rejects_invalid_and_non_descriptions():
    x = sd.TensorDesc(F32, [4])
    with pytest.raises(sd.ValidationError, match="Slice1Desc.strides"):
        sd.compile(sd.Slice1Desc(x, x, [0], [4], [0]))
    with pytest.raises(TypeError):
        sd.compile("not a description")
    with pytest.raises(sd.ValidationError, match="threads"):
        sd.compile(sd.IdentityDesc(x, x), threads=0)


def test_one_operator_many_threads():
    d_in = sd.TensorDesc(sd.DataType.FLOAT64, [256, 512])
    d_out = sd.TensorDesc(sd.DataType.FLOAT64, [256, 512], [1, 256])  # transpose
    op = sd.compile(sd.IdentityDesc(d_in, d_out), threads=2)
    x = np.random.default_rng(0).standard_normal(256 * 512)
    expect = x.reshape(256, 512).T.ravel()
    errors = []

    def work():
        out = np.empty_like(x)
        for _ in range(10):
            out[:] = 0
            op.execute([x], [out])
            if not np.array_equal(out, expect):
                errors.append("mismatch")

    ts = [threading.Thread(target=work) for _ in range(6)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert errors == []
