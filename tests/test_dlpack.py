"""Arrays from other libraries (issue 15, item 2): DLPack exporters (a __dlpack__-only object over
numpy here, torch when installed), bytes and read-only buffers as inputs, out= a writable tensor
written in place (also non-contiguous), and CompiledOperator.execute on tensors with their dtype
checked against the description. numpy is the reference."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import strided as sd


class DLPackOnly:
    """An object with nothing but the DLPack protocol (no __array__, no buffer protocol)."""

    def __init__(self, a: np.ndarray) -> None:
        self._a = a

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self._a.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> Any:
        return self._a.__dlpack_device__()


def test_dlpack_only_inputs() -> None:
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    d = DLPackOnly(x[:, ::2])
    assert (sd.copy(d, out=np.empty((4, 3), np.float32)) == x[:, ::2]).all()
    assert (sd.cast(d, "float16") == x[:, ::2].astype(np.float16)).all()
    assert (sd.tile(d, (2, 1)) == np.tile(x[:, ::2], (2, 1))).all()
    assert (sd.gather(d, DLPackOnly(np.array([3, 0])), axis=0) == x[[3, 0], ::2]).all()
    assert (sd.slice(d, [1, 0], [2, 3], [1, 1]) == x[1:3, ::2]).all()


def test_dlpack_only_out_is_written_in_place() -> None:
    buf = np.zeros((4, 6), np.int32)
    sd.copy(np.arange(12, dtype=np.int32).reshape(4, 3), out=DLPackOnly(buf[:, 1::2]))
    assert (buf[:, 1::2] == np.arange(12).reshape(4, 3)).all() and not buf[:, ::2].any()
    sd.full((4, 3), 7, out=DLPackOnly(buf[:, ::2]))
    assert (buf[:, ::2] == 7).all()


def test_bytes_and_read_only_buffers() -> None:
    assert sd.cast(b"\x01\x02\xff", "int32").tolist() == [1, 2, 255]  # bytes are uint8
    ro = np.arange(6, dtype=np.int16)
    ro.flags.writeable = False
    assert sd.tile(memoryview(ro), (2,)).tolist() == [0, 1, 2, 3, 4, 5] * 2
    with pytest.raises(BufferError, match="out: array is read-only"):
        sd.copy(ro, out=ro)
    with pytest.raises(BufferError, match="read-only"):
        sd.copy(np.zeros(3, np.uint8), out=b"abc")
    with pytest.raises(TypeError, match="out: expected a numpy array, a DLPack tensor"):
        sd.copy(np.zeros(3), out=[0.0, 0.0, 0.0])


def test_execute_takes_dlpack_tensors() -> None:
    op = sd.compile(sd.IdentityDesc(sd.TensorDesc("float32", [2, 3]), sd.TensorDesc("float32", [2, 3])))
    out = np.zeros((2, 3), np.float32)
    op.execute([DLPackOnly(np.arange(6, dtype=np.float32).reshape(2, 3))], [DLPackOnly(out)])
    assert out.ravel().tolist() == list(range(6))
    with pytest.raises(BufferError, match=r"execute.inputs\[0\]: the tensor's dtype float64 differs .* FLOAT32"):
        op.execute([DLPackOnly(np.zeros((2, 3)))], [out])


torch = pytest.importorskip("torch")


def test_torch_inputs_every_function() -> None:
    t = torch.arange(24, dtype=torch.float32).reshape(4, 6)
    x = t.numpy()
    assert (sd.copy(t.T, out=np.empty((6, 4), np.float32)) == x.T).all()
    assert (sd.cast(t, "int8") == x.astype(np.int8)).all()
    assert (
        sd.gather_elements(t, torch.tensor([[1, 0]] * 4), axis=1) == np.take_along_axis(x, np.array([[1, 0]] * 4), 1)
    ).all()
    got = sd.scatter(t, torch.zeros((4, 1), dtype=torch.int64), torch.full((4, 1), -1.0), axis=1)
    ref = x.copy()
    ref[:, 0] = -1
    assert (got == ref).all()
    parts = sd.split(t, [2, 2], axis=0)
    assert (parts[1] == x[2:]).all()
    assert (sd.join([t, t], axis=1) == np.concatenate([x, x], 1)).all()


def test_torch_out_non_contiguous_written_in_place() -> None:
    base = torch.zeros(6, 8, dtype=torch.float32)
    view = base[::2, 1::3]  # non-contiguous, shape (3, 3)
    src = np.arange(9, dtype=np.float32).reshape(3, 3)
    sd.copy(src, out=view)
    assert (base[::2, 1::3].numpy() == src).all() and base.sum().item() == src.sum()
    r = sd.copy(src, out=view)
    assert r is view  # the caller's tensor comes back
    assert sd.cast(np.ones((3, 3), np.int64), "float32", out=view) is view
    assert (base[::2, 1::3] == 1).all()
    assert sd.tile(torch.tensor([[5.0]]), (3, 3), out=view) is view
    assert (base[::2, 1::3] == 5).all()


def test_torch_execute_and_errors() -> None:
    op = sd.compile(sd.CastDesc(sd.TensorDesc("int32", [4]), sd.TensorDesc("float16", [4])))
    o = torch.zeros(4, dtype=torch.float16)
    op.execute([torch.tensor([1, -2, 3, 70000], dtype=torch.int32)], [o])
    assert o.tolist() == [1.0, -2.0, 3.0, float("inf")]
    with pytest.raises(BufferError, match=r"execute.outputs\[0\]: the tensor's dtype float32 differs .* FLOAT16"):
        op.execute([torch.zeros(4, dtype=torch.int32)], [torch.zeros(4)])
    with pytest.raises(BufferError, match="require gradient|requires_grad|grad"):
        sd.copy(torch.ones(3, requires_grad=True), out=np.zeros(3, np.float32))
    with pytest.raises(sd.ValidationError, match="out.*bool"):
        sd.copy(np.ones(3, np.float32), out=torch.zeros(3, dtype=torch.bool))  # not a DirectML type


def test_torch_tensor_kinds() -> None:
    # torch.Tensor itself goes through .numpy() (cheaper than its __dlpack__); subclasses and the
    # tensors .numpy() refuses go through DLPack: the same arrays, the same refusals.
    x = np.arange(6, dtype=np.float32)
    p = torch.nn.Parameter(torch.from_numpy(x.copy()), requires_grad=False)
    assert (sd.copy(p, out=np.zeros(6, np.float32)) == x).all()
    with pytest.raises(BufferError, match=r"^src: cannot use this Tensor through DLPack"):
        sd.copy(torch.ones(3, dtype=torch.bfloat16), out=np.zeros(3, np.float32))
    with pytest.raises(BufferError, match=r"^cast\.x: cannot use this Tensor through DLPack.*grad"):
        sd.cast(torch.ones(3, requires_grad=True), "float16")
    # A lazy negation (the negative bit, e.g. z.conj().imag): torch's DLPack export drops it, so
    # an input is resolved first and an output refused, with nothing written.
    z = torch.tensor([1 + 2j, 3 - 4j])
    neg = z.conj().imag
    assert neg.is_neg()
    assert sd.copy(neg, out=np.zeros(2, np.float32)).tolist() == [-2.0, 4.0]
    assert sd.permute_dims(torch.ones(2, 3)._neg_view(), (1, 0)).tolist() == [[-1.0, -1.0]] * 3
    out = torch.zeros(3)._neg_view()
    with pytest.raises(BufferError, match=r"^out: this tensor has its negative bit set"):
        sd.copy(np.ones(3, np.float32), out=out)
    assert out.resolve_neg().tolist() == [0.0, 0.0, 0.0]
    op = sd.compile(sd.IdentityDesc(sd.TensorDesc("float32", [2]), sd.TensorDesc("float32", [2])))
    o = np.zeros(2, np.float32)
    op.execute([neg], [o])
    assert o.tolist() == [-2.0, 4.0]
