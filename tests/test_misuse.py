"""Misuse of every public entry point (issue 6): each wrong call raises a typed exception
(sd.ValidationError, IndexError, BufferError, TypeError) whose message names the offending
field, and leaves every output byte as it was (outputs are canary-filled before the call and
compared bit for bit after it).

Cases are rows of CASES: (id, make, exception, needles). `make()` returns (call, outputs); the
call must raise `exception` with every needle in its message; `outputs` (numpy arrays or
bytearrays the call could write) must be byte-identical afterwards. The row count is the number
of misuse cases (test_case_count prints it).
"""

from __future__ import annotations

import numpy as np
import pytest

import strided as sd
from strided import xla

VE = sd.ValidationError
F32, F16, I32, I64, U8 = (
    sd.DataType.FLOAT32,
    sd.DataType.FLOAT16,
    sd.DataType.INT32,
    sd.DataType.INT64,
    sd.DataType.UINT8,
)
CANARY = 0xA5


def canary(shape, dtype=np.float32) -> np.ndarray:
    """An output array whose every byte is CANARY."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape)) * dt.itemsize
    return np.full(n, CANARY, np.uint8).view(dt).reshape(shape)


def cbuf(nbytes: int) -> bytearray:
    return bytearray([CANARY]) * nbytes


def arange(shape, dtype=np.float32) -> np.ndarray:
    return np.arange(int(np.prod(shape))).astype(dtype).reshape(shape)


def T(dtype, sizes, strides=None, **kw):
    return sd.TensorDesc(dtype, sizes, strides, **kw)


def fn(call, *outs):
    """A case maker: the call plus the outputs that must stay untouched."""
    return lambda: (call, list(outs))


def _compiled_case(desc, inputs, outputs):
    op = sd.compile(desc)
    return lambda: op.execute(inputs, outputs)


def execute_case(desc, inputs, outputs):
    """A case maker for compile + execute with the given buffers (outputs canary-checked)."""

    def make():
        outs = [o() if callable(o) else o for o in outputs]
        ins = [i() if callable(i) else i for i in inputs]
        return _compiled_case(desc(), ins, outs), [o for o in outs if isinstance(o, (np.ndarray, bytearray))]

    return make


# ---------------------------------------------------------------- the cases
CASES: list = []


def case(id_, make, exc, *needles):
    CASES.append(pytest.param(make, exc, needles, id=id_))


# --- TensorDesc ------------------------------------------------------------------------------
case("td-dtype-unknown-0", fn(lambda: T(0, [2])), VE, "dtype")
case("td-dtype-12", fn(lambda: T(12, [2])), VE, "dtype")
case("td-dtype-name", fn(lambda: T("float128", [2])), (VE, TypeError), "dtype")
case("td-dtype-object", fn(lambda: T(object, [2])), (VE, TypeError), "dtype")
case("td-dtype-complex", fn(lambda: T(np.complex64, [2])), (VE, TypeError), "dtype")
case("td-sizes-empty", fn(lambda: T(F32, [])), VE, "TensorDesc.sizes")
case("td-sizes-zero", fn(lambda: T(F32, [2, 0])), VE, "TensorDesc.sizes[1]")
case("td-sizes-negative", fn(lambda: T(F32, [-1])), VE, "TensorDesc.sizes[0]")
case("td-sizes-9-dims", fn(lambda: T(F32, [1] * 9)), VE, "TensorDesc.sizes")
case("td-sizes-2**64", fn(lambda: T(F32, [2**64])), (VE, OverflowError), "sizes")
case("td-sizes-2**63", fn(lambda: T(F32, [2**63])), (VE, OverflowError), "sizes")
case("td-sizes-product-overflow", fn(lambda: T(F32, [2**31, 2**31, 2**31])), VE, "TensorDesc.sizes")
case("td-sizes-bytes-overflow", fn(lambda: T(sd.DataType.FLOAT64, [2**62])), VE, "TensorDesc")
case("td-sizes-not-int", fn(lambda: T(F32, [1.5])), TypeError, "sizes")
case("td-sizes-string", fn(lambda: T(F32, "abc")), TypeError, "sizes")
case("td-sizes-none", fn(lambda: T(F32, None)), TypeError, "sizes")
case("td-strides-count", fn(lambda: T(F32, [2, 3], [1])), VE, "TensorDesc.strides")
case("td-strides-negative", fn(lambda: T(F32, [2, 3], [3, -1])), VE, "TensorDesc.strides[1]")
case("td-strides-overflow", fn(lambda: T(F32, [3, 3], [2**62, 2**62])), VE, "TensorDesc")
case("td-strides-int64-max", fn(lambda: T(U8, [2], [2**63 - 1])), VE, "TensorDesc")
case("td-strides-2**64", fn(lambda: T(U8, [2], [2**64])), (VE, OverflowError), "strides")
case("td-total-bytes-small", fn(lambda: T(F32, [2, 3], total_bytes=20)), VE, "TensorDesc.total_bytes")
case("td-total-bytes-negative", fn(lambda: T(F32, [2], total_bytes=-4)), (VE, TypeError, OverflowError), "total_bytes")
case("td-alignment-3", fn(lambda: T(F32, [2], alignment=3)), VE, "TensorDesc.alignment")
case("td-alignment-below-itemsize", fn(lambda: T(F32, [2], alignment=2)), VE, "TensorDesc.alignment")
case("td-alignment-negative", fn(lambda: T(F32, [2], alignment=-8)), (VE, TypeError, OverflowError), "alignment")
case("td-flags-2", fn(lambda: T(F32, [2], flags=2)), VE, "TensorDesc.flags")
case("td-from-array-negative-stride", fn(lambda: sd.TensorDesc.from_array(arange(4)[::-1])), VE, "stride")
case(
    "td-from-array-unaligned-stride",
    fn(
        lambda: sd.TensorDesc.from_array(
            np.zeros(9, np.uint8)[1:].view(np.float32)
            if False
            else np.ndarray((2,), np.float32, np.zeros(12, np.uint8), 0, (6,))
        )
    ),
    VE,
    "stride",
)
case(
    "td-from-array-object",
    fn(lambda: sd.TensorDesc.from_array(np.array([None, 1], dtype=object))),
    (TypeError, VE),
    "dtype",
)
case("td-from-array-9-dims", fn(lambda: sd.TensorDesc.from_array(np.zeros([1] * 9, np.float32))), VE, "")
case("td-from-array-empty", fn(lambda: sd.TensorDesc.from_array(np.zeros((2, 0), np.float32))), VE, "sizes")
case("calc-size-overflow", fn(lambda: sd.calc_buffer_tensor_size(F32, [2**40, 2**40])), VE, "sizes")
case("calc-size-bad-strides", fn(lambda: sd.calc_buffer_tensor_size(F32, [2, 2], [1])), VE, "strides")
case("packed-strides-nhwc-3d", fn(lambda: sd.packed_strides([1, 2, 3], "NHWC")), VE, "NHWC")
case("packed-strides-bad-layout", fn(lambda: sd.packed_strides([1, 2], "XYZ")), VE, "layout")
case("packed-strides-not-permutation", fn(lambda: sd.packed_strides([1, 2], [0, 0])), VE, "")

# --- description validation -------------------------------------------------------------------
X24 = lambda: T(F32, [2, 4])  # noqa: E731
V = lambda d: fn(d.validate)  # noqa: E731


def vcase(id_, make_desc, *needles):
    """validate() and compile() must both reject the description with the same message."""
    case(id_ + "-validate", lambda: (lambda: make_desc().validate(), []), VE, *needles)
    case(id_ + "-compile", lambda: (lambda: sd.compile(make_desc()), []), VE, *needles)


vcase("identity-dtype", lambda: sd.IdentityDesc(X24(), T(I32, [2, 4])), "IdentityDesc", "dtype")
vcase("identity-ndim", lambda: sd.IdentityDesc(X24(), T(F32, [2, 4, 1])), "IdentityDesc", "output")
vcase("identity-sizes", lambda: sd.IdentityDesc(X24(), T(F32, [4, 2])), "IdentityDesc", "sizes")
vcase("identity-output-broadcast", lambda: sd.IdentityDesc(X24(), T(F32, [2, 4], [0, 1])), "IdentityDesc", "output")
vcase("split-axis-high", lambda: sd.SplitDesc(X24(), [X24()], 2), "SplitDesc.axis")
vcase("split-axis-negative", lambda: sd.SplitDesc(X24(), [X24()], -1), "SplitDesc.axis")
vcase("split-axis-huge", lambda: sd.SplitDesc(X24(), [X24()], 2**63 - 1), "SplitDesc.axis")
vcase("split-no-outputs", lambda: sd.SplitDesc(X24(), [], 0), "SplitDesc.outputs")
vcase("split-sum-short", lambda: sd.SplitDesc(X24(), [T(F32, [2, 1]), T(F32, [2, 2])], 1), "SplitDesc")
vcase("split-sum-long", lambda: sd.SplitDesc(X24(), [T(F32, [2, 3]), T(F32, [2, 2])], 1), "SplitDesc")
vcase("split-other-dim", lambda: sd.SplitDesc(X24(), [T(F32, [1, 2]), T(F32, [2, 2])], 1), "SplitDesc.outputs[0]")
vcase("split-dtype", lambda: sd.SplitDesc(X24(), [T(F32, [2, 2]), T(I32, [2, 2])], 1), "SplitDesc.outputs[1]")
vcase("split-ndim", lambda: sd.SplitDesc(X24(), [T(F32, [2, 4, 1])], 0), "SplitDesc.outputs[0]")
vcase(
    "split-output-alias",
    lambda: sd.SplitDesc(X24(), [T(F32, [2, 2], [0, 1]), T(F32, [2, 2])], 1),
    "SplitDesc.outputs[0]",
)
vcase("join-axis", lambda: sd.JoinDesc([X24()], X24(), 5), "JoinDesc.axis")
vcase("join-axis-negative", lambda: sd.JoinDesc([X24()], X24(), -(2**63)), "JoinDesc.axis")
vcase("join-no-inputs", lambda: sd.JoinDesc([], X24(), 0), "JoinDesc.inputs")
vcase("join-sum", lambda: sd.JoinDesc([X24(), X24()], T(F32, [2, 7]), 1), "JoinDesc")
vcase("join-dtype", lambda: sd.JoinDesc([X24(), T(I32, [2, 4])], T(F32, [2, 8]), 1), "JoinDesc.inputs[1]")
vcase("join-other-dim", lambda: sd.JoinDesc([X24(), T(F32, [3, 4])], T(F32, [2, 8]), 1), "JoinDesc.inputs[1]")
vcase("join-output-dtype", lambda: sd.JoinDesc([X24()], T(I32, [2, 4]), 1), "JoinDesc", "dtype")
vcase("slice-offsets-count", lambda: sd.SliceDesc(X24(), T(F32, [1, 1]), [0], [1, 1], [1, 1]), "SliceDesc.offsets")
vcase("slice-sizes-count", lambda: sd.SliceDesc(X24(), T(F32, [1, 1]), [0, 0], [1], [1, 1]), "SliceDesc.sizes")
vcase("slice-strides-count", lambda: sd.SliceDesc(X24(), T(F32, [1, 1]), [0, 0], [1, 1], [1]), "SliceDesc.strides")
vcase("slice-stride-zero", lambda: sd.SliceDesc(X24(), T(F32, [1, 1]), [0, 0], [1, 1], [1, 0]), "SliceDesc.strides[1]")
vcase(
    "slice-stride-negative",
    lambda: sd.SliceDesc(X24(), T(F32, [1, 1]), [0, 0], [1, 1], [1, -1]),
    "SliceDesc.strides[1]",
)
vcase("slice-read-past-end", lambda: sd.SliceDesc(X24(), T(F32, [1, 3]), [0, 1], [1, 3], [1, 2]), "SliceDesc")
vcase(
    "slice-offset-past-end", lambda: sd.SliceDesc(X24(), T(F32, [1, 1]), [0, 4], [1, 1], [1, 1]), "SliceDesc.offsets[1]"
)
vcase(
    "slice-offset-negative",
    lambda: sd.SliceDesc(X24(), T(F32, [1, 1]), [0, -1], [1, 1], [1, 1]),
    "SliceDesc.offsets[1]",
)
vcase("slice-sizes-vs-output", lambda: sd.SliceDesc(X24(), T(F32, [1, 2]), [0, 0], [1, 1], [1, 1]), "SliceDesc")
vcase("slice-offset-overflow", lambda: sd.SliceDesc(X24(), T(F32, [1, 2]), [0, 2**63 - 1], [1, 2], [1, 1]), "SliceDesc")
vcase("slice-stride-overflow", lambda: sd.SliceDesc(X24(), T(F32, [1, 2]), [0, 0], [1, 2], [1, 2**62]), "SliceDesc")
vcase(
    "slice1-stride-zero",
    lambda: sd.Slice1Desc(X24(), T(F32, [1, 1]), [0, 0], [1, 1], [1, 0]),
    "Slice1Desc.strides[1]",
    "0",
)
vcase(
    "slice1-window-past-end", lambda: sd.Slice1Desc(X24(), T(F32, [1, 2]), [0, 3], [1, 2], [1, 1]), "Slice1Desc", "[1]"
)
vcase(
    "slice1-window-size-zero",
    lambda: sd.Slice1Desc(X24(), T(F32, [1, 1]), [0, 0], [1, 0], [1, 1]),
    "Slice1Desc.sizes[1]",
)
vcase(
    "slice1-offset-negative",
    lambda: sd.Slice1Desc(X24(), T(F32, [1, 1]), [0, -1], [1, 1], [1, 1]),
    "Slice1Desc.offsets[1]",
)
vcase(
    "slice1-output-too-big", lambda: sd.Slice1Desc(X24(), T(F32, [1, 3]), [0, 0], [1, 4], [1, 2]), "Slice1Desc", "[1]"
)
vcase(
    "slice1-offset-overflow", lambda: sd.Slice1Desc(X24(), T(F32, [1, 1]), [0, 2**63 - 1], [1, 2], [1, 1]), "Slice1Desc"
)
vcase(
    "slice1-size-overflow", lambda: sd.Slice1Desc(X24(), T(F32, [1, 1]), [0, 1], [1, 2**63 - 1], [1, 1]), "Slice1Desc"
)
vcase("slice1-ndim", lambda: sd.Slice1Desc(X24(), T(F32, [1]), [0], [1], [1]), "Slice1Desc")
vcase("slice1-dtype", lambda: sd.Slice1Desc(X24(), T(I32, [1, 1]), [0, 0], [1, 1], [1, 1]), "Slice1Desc", "dtype")

G_IN = lambda: T(F32, [1, 4])  # noqa: E731
vcase("gather-axis", lambda: sd.GatherDesc(G_IN(), T(I32, [1, 3]), T(F32, [1, 3]), 2, 1), "GatherDesc.axis")
vcase(
    "gather-index-float",
    lambda: sd.GatherDesc(G_IN(), T(F32, [1, 3]), T(F32, [1, 3]), 1, 1),
    "GatherDesc.indices",
    "dtype",
)
vcase(
    "gather-index-int8",
    lambda: sd.GatherDesc(G_IN(), T(sd.DataType.INT8, [1, 3]), T(F32, [1, 3]), 1, 1),
    "GatherDesc.indices",
)
vcase(
    "gather-index-dims",
    lambda: sd.GatherDesc(G_IN(), T(I32, [1, 3]), T(F32, [1, 3]), 1, 3),
    "GatherDesc.index_dimensions",
)
vcase(
    "gather-index-dims-negative",
    lambda: sd.GatherDesc(G_IN(), T(I32, [1, 3]), T(F32, [1, 3]), 1, -1),
    "GatherDesc.index_dimensions",
)
vcase("gather-output-sizes", lambda: sd.GatherDesc(G_IN(), T(I32, [1, 3]), T(F32, [1, 4]), 1, 1), "GatherDesc.output")
vcase(
    "gather-output-dtype",
    lambda: sd.GatherDesc(G_IN(), T(I32, [1, 3]), T(I32, [1, 3]), 1, 1),
    "GatherDesc.output",
    "dtype",
)
vcase("gather-ndim", lambda: sd.GatherDesc(G_IN(), T(I32, [3]), T(F32, [1, 3]), 1, 1), "GatherDesc")
vcase(
    "gather-elements-axis",
    lambda: sd.GatherElementsDesc(G_IN(), T(I64, [1, 2]), T(F32, [1, 2]), -1),
    "GatherElementsDesc.axis",
)
vcase(
    "gather-elements-sizes",
    lambda: sd.GatherElementsDesc(G_IN(), T(I64, [2, 2]), T(F32, [2, 2]), 1),
    "GatherElementsDesc",
)
vcase(
    "gather-elements-output",
    lambda: sd.GatherElementsDesc(G_IN(), T(I64, [1, 2]), T(F32, [1, 3]), 1),
    "GatherElementsDesc.output",
)
vcase(
    "gather-nd-input-dims",
    lambda: sd.GatherNDDesc(T(F32, [2, 2]), T(I64, [2, 1]), T(F32, [2, 2]), 3, 2),
    "GatherNDDesc.input_dimension_count",
)
vcase(
    "gather-nd-indices-dims",
    lambda: sd.GatherNDDesc(T(F32, [2, 2]), T(I64, [2, 1]), T(F32, [2, 2]), 2, 0),
    "GatherNDDesc.indices_dimension_count",
)
vcase(
    "gather-nd-tuple-too-long",
    lambda: sd.GatherNDDesc(T(F32, [2, 2]), T(I64, [1, 3]), T(F32, [1, 1]), 2, 2),
    "GatherNDDesc",
)
vcase(
    "gather-nd-batch",
    lambda: sd.GatherNDDesc(T(F32, [2, 2]), T(I64, [2, 1]), T(F32, [2, 2]), 2, 2, 5),
    "GatherNDDesc.batch_dimension_count",
)
vcase(
    "gather-nd-output",
    lambda: sd.GatherNDDesc(T(F32, [2, 2]), T(I64, [2, 1]), T(F32, [2, 3]), 2, 2),
    "GatherNDDesc.output",
)
S_IN = lambda: T(F32, [3, 3])  # noqa: E731
vcase("scatter-axis", lambda: sd.ScatterDesc(S_IN(), T(I32, [2, 3]), T(F32, [2, 3]), S_IN(), 2), "ScatterDesc.axis")
vcase(
    "scatter-updates-sizes",
    lambda: sd.ScatterDesc(S_IN(), T(I32, [2, 3]), T(F32, [3, 3]), S_IN(), 0),
    "ScatterDesc.updates",
)
vcase(
    "scatter-updates-dtype",
    lambda: sd.ScatterDesc(S_IN(), T(I32, [2, 3]), T(I32, [2, 3]), S_IN(), 0),
    "ScatterDesc.updates",
    "dtype",
)
vcase(
    "scatter-output-sizes",
    lambda: sd.ScatterDesc(S_IN(), T(I32, [2, 3]), T(F32, [2, 3]), T(F32, [3, 4]), 0),
    "ScatterDesc.output",
)
vcase(
    "scatter-indices-big",
    lambda: sd.ScatterDesc(S_IN(), T(I32, [2, 4]), T(F32, [2, 4]), S_IN(), 0),
    "ScatterDesc.indices",
)
vcase(
    "scatter-index-dtype",
    lambda: sd.ScatterDesc(S_IN(), T(F16, [2, 3]), T(F32, [2, 3]), S_IN(), 0),
    "ScatterDesc.indices",
)
vcase(
    "scatter-output-alias",
    lambda: sd.ScatterDesc(S_IN(), T(I32, [2, 3]), T(F32, [2, 3]), T(F32, [3, 3], [0, 1]), 0),
    "ScatterDesc.output",
)
vcase(
    "scatter-nd-dims",
    lambda: sd.ScatterNDDesc(T(F32, [8]), T(I64, [4, 1]), T(F32, [4]), T(F32, [8]), 2, 2),
    "ScatterNDDesc",
)
vcase(
    "scatter-nd-updates",
    lambda: sd.ScatterNDDesc(T(F32, [1, 8]), T(I64, [4, 1]), T(F32, [1, 5]), T(F32, [1, 8]), 2, 2),
    "ScatterNDDesc.updates",
)
case("desc-input-not-tensor", fn(lambda: sd.IdentityDesc([2, 3], X24())), TypeError, "input")
case("desc-outputs-not-sequence", fn(lambda: sd.SplitDesc(X24(), X24(), 0)), TypeError, "outputs")
case("desc-axis-float", fn(lambda: sd.SplitDesc(X24(), [X24()], 1.0)), TypeError, "axis")
case("desc-offsets-strings", fn(lambda: sd.Slice1Desc(X24(), X24(), ["a", 0], [2, 4], [1, 1])), TypeError, "offsets")
case(
    "desc-reduction",
    fn(lambda: sd.ScatterDesc(S_IN(), T(I32, [2, 3]), T(F32, [2, 3]), S_IN(), 0, "xor")),
    (VE, TypeError),
    "reduction",
)
case("validate-bad-level", fn(lambda: sd.IdentityDesc(X24(), X24()).validate(0x1234)), (VE, TypeError), "level")
case(
    "validate-level-too-low", fn(lambda: sd.IdentityDesc(T(F32, [2]), T(F32, [2])).validate("1_0")), VE, "IdentityDesc"
)
case("compile-not-desc", fn(lambda: sd.compile(X24())), TypeError, "desc")
case(
    "compile-threads-negative",
    fn(lambda: sd.compile(sd.IdentityDesc(X24(), X24()), threads=-1)),
    (VE, TypeError),
    "threads",
)

# --- compile + execute with bad buffers ---------------------------------------------------------
ID = lambda: sd.IdentityDesc(X24(), X24())  # noqa: E731
case("exec-inputs-count-0", execute_case(ID, [], [lambda: cbuf(32)]), BufferError, "execute.inputs", "1")
case("exec-inputs-count-2", execute_case(ID, [bytes(32), bytes(32)], [lambda: cbuf(32)]), BufferError, "execute.inputs")
case("exec-outputs-count-0", execute_case(ID, [bytes(32)], []), BufferError, "execute.outputs")
case(
    "exec-outputs-count-2",
    execute_case(ID, [bytes(32)], [lambda: cbuf(32), lambda: cbuf(32)]),
    BufferError,
    "execute.outputs",
)
case("exec-input-short", execute_case(ID, [bytes(31)], [lambda: cbuf(32)]), BufferError, "execute.inputs[0]", "32")
case("exec-input-empty", execute_case(ID, [b""], [lambda: cbuf(32)]), BufferError, "execute.inputs[0]")
case("exec-output-short", execute_case(ID, [bytes(32)], [lambda: cbuf(31)]), BufferError, "execute.outputs[0]", "32")
case("exec-output-readonly-bytes", execute_case(ID, [bytes(32)], [bytes(32)]), BufferError, "execute.outputs[0]")
case(
    "exec-output-readonly-array",
    execute_case(ID, [bytes(32)], [lambda: np.frombuffer(bytes(32), np.uint8)]),
    BufferError,
    "execute.outputs[0]",
)
case(
    "exec-output-readonly-memoryview",
    execute_case(ID, [bytes(32)], [lambda: memoryview(bytes(32))]),
    BufferError,
    "execute.outputs[0]",
)
case("exec-input-none", execute_case(ID, [None], [lambda: cbuf(32)]), TypeError, "execute.inputs[0]")
case("exec-input-int", execute_case(ID, [32], [lambda: cbuf(32)]), TypeError, "execute.inputs[0]")
case("exec-input-list", execute_case(ID, [[0.0] * 8], [lambda: cbuf(32)]), TypeError, "execute.inputs[0]")
case("exec-output-str", execute_case(ID, [bytes(32)], ["x" * 32]), TypeError, "execute.outputs[0]")
case(
    "exec-input-noncontiguous",
    execute_case(ID, [lambda: np.zeros(16, np.float32)[::2]], [lambda: cbuf(32)]),
    BufferError,
    "execute.inputs[0]",
)
case(
    "exec-output-noncontiguous",
    execute_case(ID, [bytes(32)], [lambda: canary(16)[::2]]),
    BufferError,
    "execute.outputs[0]",
)
case(
    "exec-inputs-not-sequence",
    execute_case(ID, lambda: None, [lambda: cbuf(32)])
    if False
    else (lambda: ((lambda op: lambda: op.execute(5, [bytearray(32)]))(sd.compile(ID())), [])),
    TypeError,
    "",
)
case(
    "exec-split-second-output-short",
    execute_case(
        lambda: sd.SplitDesc(X24(), [T(F32, [2, 1]), T(F32, [2, 3])], 1),
        [bytes(32)],
        [lambda: cbuf(8), lambda: cbuf(20)],
    ),
    BufferError,
    "execute.outputs[1]",
)
case(
    "exec-join-second-input-short",
    execute_case(
        lambda: sd.JoinDesc([T(F32, [2, 1]), T(F32, [2, 3])], X24(), 1), [bytes(8), bytes(20)], [lambda: cbuf(32)]
    ),
    BufferError,
    "execute.inputs[1]",
)
case(
    "exec-padded-total-bytes-short",
    execute_case(lambda: sd.IdentityDesc(X24(), T(F32, [2, 4], total_bytes=64)), [bytes(32)], [lambda: cbuf(60)]),
    BufferError,
    "execute.outputs[0]",
    "64",
)


def _idx_bytes(values, dtype=np.int32):
    return np.asarray(values, dtype).tobytes()


GA = lambda: sd.GatherDesc(G_IN(), T(I32, [1, 3]), T(F32, [1, 3]), 1, 1)  # noqa: E731
case(
    "exec-gather-index-high",
    execute_case(GA, [bytes(16), _idx_bytes([0, 4, 1])], [lambda: cbuf(12)]),
    IndexError,
    "indices[1]",
    "4",
)
case(
    "exec-gather-index-low", execute_case(GA, [bytes(16), _idx_bytes([0, 1, -5])], [lambda: cbuf(12)]), IndexError, "-5"
)
case(
    "exec-gather-index-int32-min",
    execute_case(GA, [bytes(16), _idx_bytes([-(2**31), 0, 0])], [lambda: cbuf(12)]),
    IndexError,
    str(-(2**31)),
)
case(
    "exec-gather-index-u64-max",
    execute_case(
        lambda: sd.GatherDesc(G_IN(), T(sd.DataType.UINT64, [1, 3]), T(F32, [1, 3]), 1, 1),
        [bytes(16), _idx_bytes([0, 2**64 - 1, 0], np.uint64)],
        [lambda: cbuf(12)],
    ),
    IndexError,
    str(2**64 - 1),
)
case(
    "exec-gather-index-i64-min",
    execute_case(
        lambda: sd.GatherDesc(G_IN(), T(I64, [1, 3]), T(F32, [1, 3]), 1, 1),
        [bytes(16), _idx_bytes([0, 0, -(2**63)], np.int64)],
        [lambda: cbuf(12)],
    ),
    IndexError,
    str(-(2**63)),
)
case(
    "exec-gather-elements-index",
    execute_case(
        lambda: sd.GatherElementsDesc(T(F32, [3, 3]), T(I64, [2, 3]), T(F32, [2, 3]), 0),
        [bytes(36), _idx_bytes([1, 2, 0, 2, 3, 0], np.int64)],
        [lambda: cbuf(24)],
    ),
    IndexError,
    "[1, 1]",
    "3",
)
case(
    "exec-gather-nd-index",
    execute_case(
        lambda: sd.GatherNDDesc(T(F32, [2, 2]), T(I64, [2, 1]), T(F32, [2, 2]), 2, 2),
        [bytes(16), _idx_bytes([1, 2], np.int64)],
        [lambda: cbuf(16)],
    ),
    IndexError,
    "2",
)
case(
    "exec-scatter-index",
    execute_case(
        lambda: sd.ScatterDesc(S_IN(), T(I32, [2, 3]), T(F32, [2, 3]), S_IN(), 0),
        [bytes(36), _idx_bytes([1, 0, 2, 0, 3, 1]), bytes(24)],
        [lambda: cbuf(36)],
    ),
    IndexError,
    "[1, 1]",
)
case(
    "exec-scatter-index-last",  # a bad index after many good ones: still nothing written
    execute_case(
        lambda: sd.ScatterDesc(T(F32, [64, 64]), T(I32, [64, 64]), T(F32, [64, 64]), T(F32, [64, 64]), 0),
        [
            bytes(64 * 64 * 4),
            np.r_[np.zeros(64 * 64 - 1, np.int32), [64]].astype(np.int32).tobytes(),
            bytes(64 * 64 * 4),
        ],
        [lambda: cbuf(64 * 64 * 4)],
    ),
    IndexError,
    "[63, 63]",
)
case(
    "exec-scatter-nd-index",
    execute_case(
        lambda: sd.ScatterNDDesc(T(F32, [1, 8]), T(I64, [4, 1]), T(F32, [1, 4]), T(F32, [1, 8]), 1, 2),
        [bytes(32), _idx_bytes([4, 3, -9, 7], np.int64), bytes(16)],
        [lambda: cbuf(32)],
    ),
    IndexError,
    "-9",
)


# --- functional API ------------------------------------------------------------------------------
def out_case(id_, call_with_out, out_factory, exc, *needles):
    """A functional call given an `out=` canary array that must stay untouched."""

    def make():
        out = out_factory()
        outs = out if isinstance(out, list) else [out]
        return (lambda: call_with_out(out)), [o for o in outs if isinstance(o, np.ndarray)]

    case(id_, make, exc, *needles)


A = lambda: arange((2, 4))  # noqa: E731
out_case("copy-out-shape", lambda o: sd.copy(A(), o), lambda: canary((4, 2)), VE, "shape")
out_case("copy-out-dtype", lambda o: sd.copy(A(), o), lambda: canary((2, 4), np.int32), VE, "dtype")
out_case(
    "copy-out-readonly",
    lambda o: sd.copy(A(), o),
    lambda: np.lib.stride_tricks.as_strided(canary((2, 4)), writeable=False),
    BufferError,
    "out",
)
out_case(
    "copy-out-broadcast-view",
    lambda o: sd.copy(A(), o),
    lambda: np.broadcast_to(canary((1, 4)), (2, 4)),
    BufferError,
    "out",
)
out_case("copy-out-list", lambda o: sd.copy(A(), o), lambda: [[0.0] * 4] * 2, TypeError, "out")
out_case("copy-out-none", lambda o: sd.copy(A(), o), lambda: None, TypeError, "out")
out_case("copy-src-not-broadcastable", lambda o: sd.copy(arange((3,)), o), lambda: canary((2, 4)), VE, "src")
out_case(
    "copy-src-object",
    lambda o: sd.copy(np.array([[None] * 4] * 2, dtype=object), o),
    lambda: canary((2, 4)),
    TypeError,
    "object",
)
out_case(
    "copy-out-object",
    lambda o: sd.copy(np.zeros((2, 4), object), o),
    lambda: np.full((2, 4), 7, dtype=object),
    TypeError,
    "object",
)
out_case(
    "copy-src-big-endian",
    lambda o: sd.copy(A().astype(">f4"), o),
    lambda: canary((2, 4)),
    (VE, TypeError),
    "byte order",
)
out_case(
    "copy-out-big-endian",
    lambda o: sd.copy(A().astype(">f4"), o),
    lambda: canary((2, 4), ">f4"),
    (VE, TypeError),
    "byte order",
)
out_case(
    "copy-src-complex",
    lambda o: sd.copy(A().astype(np.complex64), o),
    lambda: canary((2, 4), np.complex64),
    (VE, TypeError),
    "complex",
)
out_case(
    "copy-src-bool", lambda o: sd.copy(np.zeros((2, 4), bool), o), lambda: canary((2, 4), bool), (VE, TypeError), "bool"
)
out_case("copy-9-dims", lambda o: sd.copy(np.zeros([1] * 9, np.float32), o), lambda: canary([1] * 9), VE, "8")
out_case("copy-src-string", lambda o: sd.copy("abcd", o), lambda: canary((4,)), (TypeError, VE), "src")
case("copy-missing-out", fn(lambda: sd.copy(A())), TypeError, "out")

out_case(
    "split-sum", lambda o: sd.split(A(), [1, 2], axis=1, out=o), lambda: [canary((2, 1)), canary((2, 2))], VE, "split"
)
out_case(
    "split-count-not-dividing", lambda o: sd.split(A(), 3, axis=1, out=o), lambda: [canary((2, 1))] * 3, VE, "split"
)
out_case("split-count-zero", lambda o: sd.split(A(), 0, axis=1), lambda: [], VE, "split")
out_case("split-negative-part", lambda o: sd.split(A(), [4, -1], axis=1), lambda: [], VE, "split[1]")
out_case("split-axis", lambda o: sd.split(A(), 2, axis=2, out=o), lambda: [canary((2, 2))] * 2, VE, "axis")
out_case("split-axis-huge", lambda o: sd.split(A(), 2, axis=2**70), lambda: [], (VE, OverflowError), "axis")
out_case("split-out-count", lambda o: sd.split(A(), [2, 2], axis=1, out=o), lambda: [canary((2, 2))], VE, "out")
out_case(
    "split-out-shape",
    lambda o: sd.split(A(), [2, 2], axis=1, out=o),
    lambda: [canary((2, 2)), canary((2, 3))],
    VE,
    "out[1]",
)
out_case(
    "split-out-dtype",
    lambda o: sd.split(A(), [2, 2], axis=1, out=o),
    lambda: [canary((2, 2)), canary((2, 2), np.float64)],
    VE,
    "out[1]",
)
out_case(
    "split-out-readonly",
    lambda o: sd.split(A(), [2, 2], axis=1, out=o),
    lambda: [canary((2, 2)), np.lib.stride_tricks.as_strided(canary((2, 2)), writeable=False)],
    BufferError,
    "out",
)
out_case("split-float-sizes", lambda o: sd.split(A(), [2.0, 2.0], axis=1), lambda: [], TypeError, "split")

out_case("join-empty", lambda o: sd.join([], axis=0, out=o), lambda: canary((2, 4)), VE, "arrays")
out_case(
    "join-dtype", lambda o: sd.join([A(), A().astype(np.int32)], axis=0, out=o), lambda: canary((4, 4)), VE, "arrays[1]"
)
out_case("join-shape", lambda o: sd.join([A(), arange((2, 3))], axis=0, out=o), lambda: canary((4, 4)), VE, "arrays[1]")
out_case("join-ndim", lambda o: sd.join([A(), arange((8,))], axis=0, out=o), lambda: canary((4, 4)), VE, "arrays[1]")
out_case("join-axis", lambda o: sd.join([A(), A()], axis=-3, out=o), lambda: canary((4, 4)), VE, "axis")
out_case("join-out-shape", lambda o: sd.join([A(), A()], axis=0, out=o), lambda: canary((4, 5)), VE, "out")
out_case(
    "join-out-readonly",
    lambda o: sd.join([A(), A()], axis=0, out=o),
    lambda: np.lib.stride_tricks.as_strided(canary((4, 4)), writeable=False),
    BufferError,
    "out",
)
out_case("join-not-sequence", lambda o: sd.join(5, axis=0, out=o), lambda: canary((4, 4)), TypeError, "arrays")
out_case(
    "join-object",
    lambda o: sd.join([A(), np.zeros((2, 4), object)], axis=0, out=o),
    lambda: canary((4, 4)),
    TypeError,
    "object",
)

out_case("slice-offsets-count", lambda o: sd.slice(A(), [0], [2, 4], out=o), lambda: canary((2, 4)), VE, "offsets")
out_case(
    "slice-strides-count", lambda o: sd.slice(A(), [0, 0], [2, 4], [1], out=o), lambda: canary((2, 4)), VE, "strides"
)
out_case(
    "slice-stride-zero",
    lambda o: sd.slice(A(), [0, 0], [2, 4], [1, 0], out=o),
    lambda: canary((2, 4)),
    VE,
    "strides[1]",
)
out_case(
    "slice-window-past-end", lambda o: sd.slice(A(), [0, 2], [2, 3], out=o), lambda: canary((2, 3)), VE, "sizes[1]"
)
out_case(
    "slice-offset-negative", lambda o: sd.slice(A(), [0, -1], [2, 1], out=o), lambda: canary((2, 1)), VE, "offsets[1]"
)
out_case("slice-offset-huge", lambda o: sd.slice(A(), [0, 2**63 - 1], [2, 2], out=o), lambda: canary((2, 2)), VE, "[1]")
out_case(
    "slice-offset-2**64",
    lambda o: sd.slice(A(), [0, 2**64], [2, 2], out=o),
    lambda: canary((2, 2)),
    (VE, OverflowError),
    "offsets",
)
out_case("slice-size-zero", lambda o: sd.slice(A(), [0, 0], [2, 0], out=o), lambda: canary((2, 1)), VE, "sizes[1]")
out_case("slice-out-too-big", lambda o: sd.slice(A(), [0, 0], [2, 4], [1, 2], out=o), lambda: canary((2, 3)), VE, "[1]")
out_case("slice-out-ndim", lambda o: sd.slice(A(), [0, 0], [2, 4], out=o), lambda: canary((8,)), VE, "out")
out_case(
    "slice-out-dtype", lambda o: sd.slice(A(), [0, 0], [2, 4], out=o), lambda: canary((2, 4), np.int32), VE, "dtype"
)
out_case(
    "slice-out-readonly",
    lambda o: sd.slice(A(), [0, 0], [2, 4], out=o),
    lambda: np.lib.stride_tricks.as_strided(canary((2, 4)), writeable=False),
    BufferError,
    "out",
)
out_case(
    "slice-offsets-float",
    lambda o: sd.slice(A(), [0.5, 0], [2, 4], out=o),
    lambda: canary((2, 4)),
    TypeError,
    "offsets",
)

X33 = lambda: arange((3, 3))  # noqa: E731
out_case(
    "gather-index-high",
    lambda o: sd.gather(X33(), np.array([0, 3]), axis=1, out=o),
    lambda: canary((3, 2)),
    IndexError,
    "gather.indices[1]",
    "3",
)
out_case(
    "gather-index-low",
    lambda o: sd.gather(X33(), np.array([-4, 0]), axis=0, out=o),
    lambda: canary((2, 3)),
    IndexError,
    "gather.indices[0]",
    "-4",
)
out_case(
    "gather-index-u64",
    lambda o: sd.gather(X33(), np.array([0, 2**64 - 1], np.uint64), out=o),
    lambda: canary((2, 3)),
    IndexError,
    "gather.indices[1]",
)
out_case(
    "gather-index-int8",
    lambda o: sd.gather(X33(), np.array([0, 9], np.int8), out=o),
    lambda: canary((2, 3)),
    IndexError,
    "gather.indices[1]",
    "9",
)
out_case(
    "gather-index-big-endian",
    lambda o: sd.gather(X33(), np.array([0, 5], ">i4"), out=o),
    lambda: canary((2, 3)),
    IndexError,
    "gather.indices[1]",
    "5",
)
out_case(
    "gather-index-float",
    lambda o: sd.gather(X33(), np.array([0.0, 1.0]), out=o),
    lambda: canary((2, 3)),
    TypeError,
    "gather.indices",
)
out_case(
    "gather-index-bool",
    lambda o: sd.gather(X33(), np.array([True, False]), out=o),
    lambda: canary((2, 3)),
    TypeError,
    "gather.indices",
)
out_case(
    "gather-index-object",
    lambda o: sd.gather(X33(), np.array([0, None], object), out=o),
    lambda: canary((2, 3)),
    TypeError,
    "gather.indices",
)
out_case(
    "gather-axis", lambda o: sd.gather(X33(), np.array([0]), axis=2, out=o), lambda: canary((1, 3)), VE, "gather.axis"
)
out_case(
    "gather-axis-float",
    lambda o: sd.gather(X33(), np.array([0]), axis=0.0, out=o),
    lambda: canary((1, 3)),
    TypeError,
    "gather.axis",
)
out_case("gather-out-shape", lambda o: sd.gather(X33(), np.array([0, 1]), out=o), lambda: canary((3, 3)), VE, "out")
out_case(
    "gather-out-readonly",
    lambda o: sd.gather(X33(), np.array([0, 1]), out=o),
    lambda: np.lib.stride_tricks.as_strided(canary((2, 3)), writeable=False),
    BufferError,
    "out",
)
out_case(
    "gather-x-object",
    lambda o: sd.gather(np.zeros((3, 3), object), np.array([0]), out=o),
    lambda: np.full((1, 3), 7, object),
    TypeError,
    "gather.x",
)
out_case(
    "gather-x-big-endian",
    lambda o: sd.gather(X33().astype(">f4"), np.array([0]), out=o),
    lambda: canary((1, 3), ">f4"),
    (VE, TypeError),
    "byte order",
)
out_case(
    "gather-elements-index",
    lambda o: sd.gather_elements(X33(), np.array([[1, 2, 0], [2, 0, 3]]), axis=0, out=o),
    lambda: canary((2, 3)),
    IndexError,
    "gather_elements.indices[1, 2]",
    "3",
)
out_case(
    "gather-elements-shape",
    lambda o: sd.gather_elements(X33(), np.array([[1, 2, 0, 1]]), axis=0, out=o),
    lambda: canary((1, 4)),
    VE,
    "indices",
)
out_case(
    "gather-elements-ndim",
    lambda o: sd.gather_elements(X33(), np.array([1, 2, 0]), axis=0, out=o),
    lambda: canary((3,)),
    VE,
    "gather_elements",
)
out_case(
    "gather-nd-index",
    lambda o: sd.gather_nd(X33(), np.array([[0, 1], [3, 0]]), out=o),
    lambda: canary((2,)),
    IndexError,
    "gather_nd.indices[1, 0]",
    "3",
)
out_case(
    "gather-nd-tuple-too-long",
    lambda o: sd.gather_nd(X33(), np.array([[0, 1, 0]]), out=o),
    lambda: canary((1,)),
    VE,
    "gather_nd",
)
out_case(
    "gather-nd-batch",
    lambda o: sd.gather_nd(X33(), np.array([[0], [1]]), batch_dims=3, out=o),
    lambda: canary((2,)),
    VE,
    "batch_dims",
)
out_case(
    "scatter-index",
    lambda o: sd.scatter(X33(), np.array([[1, 0, 2], [0, 3, 1]]), arange((2, 3)), out=o),
    lambda: canary((3, 3)),
    IndexError,
    "scatter.indices[1, 1]",
    "3",
)
out_case(
    "scatter-index-negative",
    lambda o: sd.scatter(X33(), np.array([[1, 0, -4]]), arange((1, 3)), out=o),
    lambda: canary((3, 3)),
    IndexError,
    "scatter.indices[0, 2]",
    "-4",
)
out_case(
    "scatter-in-place-bad-index",  # out=x: x itself must stay untouched
    lambda o: sd.scatter(o, np.array([[1, 0, 7]]), np.zeros((1, 3), np.float32), out=o),
    lambda: canary((3, 3)),
    IndexError,
    "scatter.indices[0, 2]",
)
out_case(
    "scatter-updates-shape",
    lambda o: sd.scatter(X33(), np.array([[1, 0, 2]]), arange((2, 3)), out=o),
    lambda: canary((3, 3)),
    VE,
    "scatter.updates",
)
out_case(
    "scatter-updates-dtype",
    lambda o: sd.scatter(X33(), np.array([[1, 0, 2]]), arange((1, 3), np.int32), out=o),
    lambda: canary((3, 3)),
    VE,
    "scatter.updates",
)
out_case(
    "scatter-reduction",
    lambda o: sd.scatter(X33(), np.array([[1, 0, 2]]), arange((1, 3)), reduction="xor", out=o),
    lambda: canary((3, 3)),
    VE,
    "scatter.reduction",
)
out_case(
    "scatter-reduction-none-object",
    lambda o: sd.scatter(X33(), np.array([[1, 0, 2]]), arange((1, 3)), reduction=None, out=o),
    lambda: canary((3, 3)),
    TypeError,
    "scatter.reduction",
)
out_case(
    "scatter-axis",
    lambda o: sd.scatter(X33(), np.array([[1, 0, 2]]), arange((1, 3)), axis=-3, out=o),
    lambda: canary((3, 3)),
    VE,
    "scatter.axis",
)
out_case(
    "scatter-out-shape",
    lambda o: sd.scatter(X33(), np.array([[1, 0, 2]]), arange((1, 3)), out=o),
    lambda: canary((3, 4)),
    VE,
    "out",
)
out_case(
    "scatter-nd-index",
    lambda o: sd.scatter_nd(arange((8,)), np.array([[4], [3], [1], [8]]), arange((4,)), out=o),
    lambda: canary((8,)),
    IndexError,
    "scatter_nd.indices[3, 0]",
    "8",
)
out_case(
    "scatter-nd-updates-shape",
    lambda o: sd.scatter_nd(arange((8,)), np.array([[4], [3]]), arange((3,)), out=o),
    lambda: canary((8,)),
    VE,
    "scatter_nd.updates",
)
out_case(
    "scatter-nd-tuple-too-long",
    lambda o: sd.scatter_nd(arange((8,)), np.array([[4, 0]]), arange((1,)), out=o),
    lambda: canary((8,)),
    VE,
    "scatter_nd",
)
out_case(
    "scatter-nd-index-float",
    lambda o: sd.scatter_nd(arange((8,)), np.array([[4.0]]), arange((1,)), out=o),
    lambda: canary((8,)),
    TypeError,
    "scatter_nd.indices",
)

# --- strided.xla ---------------------------------------------------------------------------------
case("xla-type-unknown", fn(lambda: xla.Shape("f128", [2])), (VE, TypeError), "PrimitiveType")
case("xla-type-int", fn(lambda: xla.Shape(99, [2])), (VE, TypeError), "PrimitiveType")
case("xla-dims-negative", fn(lambda: xla.Shape("f32", [2, -1]).validate()), VE, "dimensions[1]")
case("xla-dims-float", fn(lambda: xla.Shape("f32", [2.5])), TypeError, "dimensions")
case(
    "xla-layout-not-permutation",
    fn(lambda: xla.Shape("f32", [2, 3], xla.Layout([0, 0])).validate()),
    VE,
    "minor_to_major",
)
case("xla-layout-rank", fn(lambda: xla.Shape("f32", [2, 3], xla.Layout([0])).validate()), VE, "minor_to_major")
case(
    "xla-layout-out-of-range", fn(lambda: xla.Shape("f32", [2, 3], xla.Layout([0, 5])).validate()), VE, "minor_to_major"
)
case(
    "xla-padded-small",
    fn(lambda: xla.Shape("f32", [2, 3], xla.Layout([1, 0], [2, 2])).validate()),
    VE,
    "padded_dimensions[1]",
)
case(
    "xla-padded-count",
    fn(lambda: xla.Shape("f32", [2, 3], xla.Layout([1, 0], [4])).validate()),
    VE,
    "padded_dimensions",
)
case("xla-padding-invalid", fn(lambda: xla.Layout([1, 0], None, "INVALID_PAD")), (VE, TypeError), "PaddingValue")
case("xla-padding-garbage", fn(lambda: xla.Layout([1, 0], None, "purple")), (VE, TypeError), "PaddingValue")
case("xla-byte-size-overflow", fn(lambda: xla.Shape("f64", [2**40, 2**40]).byte_size), VE, "")
case("xla-parse-garbage", fn(lambda: xla.Shape.parse("f32[2,3")), VE, "")
case("xla-parse-bad-type", fn(lambda: xla.Shape.parse("q7[2]{0}")), VE, "")
case("xla-parse-bad-layout", fn(lambda: xla.Shape.parse("f32[2,3]{0,0}")), VE, "")
case("xla-parse-huge-dim", fn(lambda: xla.Shape.parse("f32[99999999999999999999999]")), VE, "")
case(
    "xla-index-out-of-range",
    fn(lambda: xla.multidimensional_index_to_linear_index(xla.make_shape("f32", [2, 3]), (0, 3))),
    (VE, IndexError),
    "index[1]",
)
case(
    "xla-index-count",
    fn(lambda: xla.multidimensional_index_to_linear_index(xla.make_shape("f32", [2, 3]), (0,))),
    (VE, IndexError),
    "index",
)
case(
    "xla-linear-out-of-range",
    fn(lambda: xla.linear_index_to_multidimensional_index(xla.make_shape("f32", [2, 3]), 6)),
    (VE, IndexError),
    "linear",
)
case(
    "xla-linear-negative",
    fn(lambda: xla.linear_index_to_multidimensional_index(xla.make_shape("f32", [2, 3]), -1)),
    (VE, IndexError),
    "linear",
)
case(
    "xla-bump-out-of-range",
    fn(lambda: xla.bump_indices(xla.make_shape("f32", [2, 3]), (2, 0))),
    (VE, IndexError),
    "index",
)
case(
    "xla-dimension-stride", fn(lambda: xla.dimension_stride(xla.make_shape("f32", [2, 3]), 2)), (VE, IndexError), "dim"
)
case("xla-to-physical-shape", fn(lambda: xla.to_physical(arange((3, 2)), xla.make_shape("f32", [2, 3]))), VE, "x")
case(
    "xla-to-physical-dtype",
    fn(lambda: xla.to_physical(arange((2, 3), np.int32), xla.make_shape("f32", [2, 3]))),
    VE,
    "dtype",
)
case(
    "xla-to-physical-object",
    fn(lambda: xla.to_physical(np.zeros((2, 3), object), xla.make_shape("f32", [2, 3]))),
    (TypeError, VE),
    "",
)
case(
    "xla-from-physical-short",
    fn(lambda: xla.from_physical(bytes(20), xla.make_shape("f32", [2, 3]))),
    BufferError,
    "from_physical.buffer",
)
case(
    "xla-from-physical-padded-short",
    fn(lambda: xla.from_physical(bytes(24), xla.Shape("f32", [2, 3], xla.Layout([1, 0], [2, 4])))),
    BufferError,
    "from_physical.buffer",
)
case(
    "xla-relayout-dims",
    fn(lambda: xla.relayout(bytes(24), xla.make_shape("f32", [2, 3]), xla.make_shape("f32", [3, 2]))),
    VE,
    "",
)
case(
    "xla-relayout-type",
    fn(lambda: xla.relayout(bytes(24), xla.make_shape("f32", [2, 3]), xla.make_shape("s32", [2, 3]))),
    VE,
    "",
)
case(
    "xla-relayout-short",
    fn(
        lambda: xla.relayout(
            bytes(23), xla.make_shape("f32", [2, 3]), xla.make_shape_with_layout("f32", [2, 3], [0, 1])
        )
    ),
    BufferError,
    "buffer",
)
case(
    "xla-relayout-not-buffer",
    fn(lambda: xla.relayout(None, xla.make_shape("f32", [2, 3]), xla.make_shape("f32", [2, 3]))),
    (TypeError, BufferError),
    "buffer",
)


# ---------------------------------------------------------------- edge cases that are valid
@pytest.mark.parametrize("stride", [-(2**63), 2**63 - 1, -(2**62), 2**62, 2**31, -(2**32)])
def test_extreme_slice1_stride_on_a_one_element_window(stride):
    """|stride| beyond any tensor is valid when the window yields one element (max_copied = 1):
    it must execute (no 64-bit overflow when scaled to bytes) and read the window's start."""
    x = arange((2, 4))
    desc = sd.Slice1Desc(X24(), T(F32, [1, 1]), [1, 2], [1, 1], [1, stride])
    desc.validate()
    out = canary((1,))
    sd.compile(desc).execute([x], [out])
    assert out[0] == x[1, 2]


F64 = sd.DataType.FLOAT64


def test_size_one_dimension_with_huge_stride_executes():
    """A size-1 dimension may carry any stride (it never moves an address); scaling 2^62 to bytes
    overflowed int64 (UBSan, found by fuzz_ops). Every operator must compile and run it."""
    x = T(F64, [1, 3], [2**62, 1])
    out = np.zeros(3, np.float64)
    sd.compile(sd.IdentityDesc(x, T(F64, [1, 3]))).execute([np.arange(3.0)], [out])
    assert out.tolist() == [0, 1, 2]
    ge = sd.GatherElementsDesc(T(F64, [1, 3], [2**62, 1]), T(I64, [4, 3]), T(F64, [4, 3]), 0)
    out = np.zeros(12, np.float64)
    sd.compile(ge).execute([np.arange(3.0), np.zeros(12, np.int64)], [out])
    assert out.reshape(4, 3).tolist() == [[0, 1, 2]] * 4


@pytest.mark.parametrize(
    "make",
    [
        lambda: sd.JoinDesc([T(U8, [2, 2], [1, 2**62]), T(U8, [2, 2])], T(U8, [2, 4]), 1),
        lambda: sd.ScatterDesc(
            T(U8, [3, 2], [1, 2**62]), T(I32, [3, 2]), T(U8, [3, 2], [1, 2**62]), T(U8, [3, 2], [1, 2**62]), 1
        ),
        lambda: sd.IdentityDesc(T(U8, [2, 2], [1, 2**62]), T(U8, [2, 2])),
    ],
    ids=["join", "scatter", "identity"],
)
def test_huge_strides_compile_then_refuse_short_buffers(make):
    """Strides near 2^62 bytes are valid descriptions (the tensor fits in 63 bits): compile must
    plan them without overflow, and execute must refuse buffers shorter than total_bytes."""
    op = sd.compile(make())
    ins = [bytes(64)] * op.input_count
    outs = [bytearray([CANARY]) * 64 for _ in range(op.output_count)]
    with pytest.raises(BufferError):
        op.execute(ins, outs)
    assert all(o == bytearray([CANARY]) * 64 for o in outs)


# ---------------------------------------------------------------- the test
def _bytes_of(o) -> bytes:
    if isinstance(o, np.ndarray):
        # through a byte view of the whole base memory region this array covers
        return np.ascontiguousarray(o).view(np.uint8).tobytes() if o.dtype != object else repr(o.tolist()).encode()
    return bytes(o)


@pytest.mark.parametrize("make,exc,needles", CASES)
def test_misuse(make, exc, needles):
    call, outs = make()
    before = [_bytes_of(o) for o in outs]
    with pytest.raises(exc) as info:
        call()
    msg = str(info.value)
    for n in needles:
        assert n in msg, f"message {msg!r} lacks {n!r}"
    if exc is not TypeError and exc is not OverflowError:
        # a typed error of ours, never a bare ValueError/RuntimeError from somewhere else
        assert isinstance(info.value, (sd.ValidationError, IndexError, BufferError, TypeError, OverflowError))
    for o, b in zip(outs, before):
        assert _bytes_of(o) == b, "a failed call wrote to an output"


def test_case_count():
    """The number of misuse cases above (reported in the hardening summary)."""
    assert len(CASES) >= 150
    print(f"misuse cases: {len(CASES)}")
