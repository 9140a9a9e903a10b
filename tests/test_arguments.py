"""Argument types of every public function and constructor, one rule for all (csrc/python/args.cpp):

* an integer is a Python int or anything with ``__index__``: numpy integer scalars and 0-d integer
  arrays work wherever an int does; a sequence of integers may also be a 1-d integer array (or a
  list of numpy integers), and a single integer counts as a sequence of one (numpy's shapes);
* bool (numpy refuses it as a size or index), floats, strings, None, complex numbers and arrays of
  another shape or dtype are a TypeError naming the argument;
* an integer beyond int64 is a ValueError (sd.ValidationError), as numpy's shapes
  (``np.empty(2**70)``: "Maximum allowed dimension exceeded"), naming the argument;
* negative sizes and counts are a ValueError (sd.ValidationError) naming the argument;
* an exception raised by an argument's own ``__index__`` propagates unchanged (the same object).

Each slot below is one integer (or integer-sequence) argument of one public call: `call(v)` makes
the call with `v` in that slot. Every value kind is tried in every slot, and results are compared
with the call made with plain Python ints (or with numpy).
"""

from __future__ import annotations

import operator
from typing import Any, Callable, NamedTuple

import numpy as np
import pytest

import strided as sd
from strided import xla

VE = sd.ValidationError
F32 = sd.DataType.FLOAT32


def T(sizes, strides=None, **kw):
    return sd.TensorDesc(F32, sizes, strides, **kw)


class Idx:
    """A user type with __index__ (as operator.index accepts)."""

    def __init__(self, v: int) -> None:
        self.v = v

    def __index__(self) -> int:
        return self.v


class Boom(Exception):
    pass


class Raises:
    """__index__ raises: the very exception object must reach the caller."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    def __index__(self) -> int:
        raise self.exc


class Slot(NamedTuple):
    call: Callable[[Any], Any]
    base: Any  # a valid value (int, or list of ints)
    field: str  # what the error message must name
    none_ok: bool = False  # None is a valid value here (a default)
    str_ok: bool = False  # strings are valid here (names: dtypes, levels, layouts)
    negative: str = ""  # "VE": a negative value is refused when called; "" no rule tested here
    dtype_like: bool = False  # numpy scalars are dtype-likes here (np.dtype(np.float32(2)) is float32)
    seq_ok: bool = False  # a sequence is valid here too (split: a count or sizes)


def _norm(r: Any) -> Any:
    """Comparable form of a result."""
    if isinstance(r, np.ndarray):
        return ("array", r.shape, r.dtype.str, r.tobytes())
    if isinstance(r, (list, tuple)):
        return [_norm(x) for x in r]
    if isinstance(r, sd.CompiledOperator):
        return repr(r)
    return r


X24 = np.arange(8, dtype=np.float32).reshape(2, 4)
X33 = np.arange(9, dtype=np.float32).reshape(3, 3)
I23 = np.array([[0, 2, 1], [1, 0, 2]])
ID = sd.IdentityDesc(T([2, 4]), T([2, 4]))
SH = xla.make_shape("f32", [2, 3])


def _set_threads(v: Any) -> int:
    old = sd.get_num_threads()
    try:
        sd.set_num_threads(v)
        return sd.get_num_threads()
    finally:
        sd.set_num_threads(old)


def _execute(threads: Any) -> np.ndarray:
    out = np.zeros(8, np.float32)
    sd.compile(ID, threads=threads).execute([X24], [out])
    return out


# ---------------------------------------------------------------- integer slots
INT_SLOTS = {
    # runtime, compile
    "set_num_threads.n": Slot(_set_threads, 2, "set_num_threads.n", negative="VE"),
    "compile.threads": Slot(_execute, 2, "compile.threads", none_ok=True, negative="VE"),
    # TensorDesc
    "TensorDesc.dtype": Slot(lambda v: sd.TensorDesc(v, [2]), 1, "dtype", str_ok=True, dtype_like=True),
    "TensorDesc.total_bytes": Slot(
        lambda v: T([2, 4], total_bytes=v), 64, "TensorDesc.total_bytes", none_ok=True, negative="VE"
    ),
    "TensorDesc.alignment": Slot(lambda v: T([2, 4], alignment=v), 16, "TensorDesc.alignment", negative="VE"),
    "TensorDesc.flags": Slot(lambda v: T([2, 4], flags=v), 1, "TensorDesc.flags", negative="VE"),
    "calc_buffer_tensor_size.dtype": Slot(
        lambda v: sd.calc_buffer_tensor_size(v, [2, 3]), 9, "dtype", str_ok=True, dtype_like=True
    ),
    "DataType.from_numpy": Slot(lambda v: sd.DataType.from_numpy(v), 11, "dtype", str_ok=True, dtype_like=True),
    "FeatureLevel.parse": Slot(lambda v: sd.FeatureLevel.parse(v), 0x4100, "feature_level", str_ok=True),
    "validate.feature_level": Slot(lambda v: ID.validate(v), 0x4100, "feature_level", none_ok=True, str_ok=True),
    "is_valid_at.feature_level": Slot(lambda v: ID.is_valid_at(v), 0x2000, "feature_level", none_ok=True, str_ok=True),
    # descriptions
    "SplitDesc.axis": Slot(lambda v: sd.SplitDesc(T([2, 4]), [T([2, 4])], v), 1, "SplitDesc.axis"),
    "JoinDesc.axis": Slot(lambda v: sd.JoinDesc([T([2, 4])], T([2, 4]), v), 1, "JoinDesc.axis"),
    "GatherDesc.axis": Slot(lambda v: sd.GatherDesc(T([1, 4]), T([1, 3]), T([1, 3]), v, 1), 1, "GatherDesc.axis"),
    "GatherDesc.index_dimensions": Slot(
        lambda v: sd.GatherDesc(T([1, 4]), T([1, 3]), T([1, 3]), 1, v), 1, "GatherDesc.index_dimensions"
    ),
    "GatherElementsDesc.axis": Slot(
        lambda v: sd.GatherElementsDesc(T([2, 2]), T([2, 2]), T([2, 2]), v), 1, "GatherElementsDesc.axis"
    ),
    "GatherNDDesc.input_dimension_count": Slot(
        lambda v: sd.GatherNDDesc(T([2, 2]), T([2, 1]), T([2, 2]), v, 2), 2, "GatherNDDesc.input_dimension_count"
    ),
    "GatherNDDesc.indices_dimension_count": Slot(
        lambda v: sd.GatherNDDesc(T([2, 2]), T([2, 1]), T([2, 2]), 2, v), 2, "GatherNDDesc.indices_dimension_count"
    ),
    "GatherNDDesc.batch_dimension_count": Slot(
        lambda v: sd.GatherNDDesc(T([2, 2]), T([2, 1]), T([2, 2]), 2, 2, v), 0, "GatherNDDesc.batch_dimension_count"
    ),
    "ScatterDesc.axis": Slot(
        lambda v: sd.ScatterDesc(T([3, 3]), T([2, 3]), T([2, 3]), T([3, 3]), v), 0, "ScatterDesc.axis"
    ),
    "ScatterNDDesc.input_dimension_count": Slot(
        lambda v: sd.ScatterNDDesc(T([1, 8]), T([4, 1]), T([1, 4]), T([1, 8]), v, 2),
        2,
        "ScatterNDDesc.input_dimension_count",
    ),
    "ScatterNDDesc.indices_dimension_count": Slot(
        lambda v: sd.ScatterNDDesc(T([1, 8]), T([4, 1]), T([1, 4]), T([1, 8]), 2, v),
        2,
        "ScatterNDDesc.indices_dimension_count",
    ),
    # functions on arrays
    "split.split": Slot(lambda v: sd.split(X24, v, axis=1), 2, "split", negative="VE", seq_ok=True),
    "split.axis": Slot(lambda v: sd.split(X24, 2, axis=v), 1, "axis"),
    "join.axis": Slot(lambda v: sd.join([X24, X24], axis=v), 1, "axis"),
    "gather.axis": Slot(lambda v: sd.gather(X33, np.array([0, 2]), axis=v), 1, "gather.axis"),
    "gather_elements.axis": Slot(lambda v: sd.gather_elements(X33, I23, axis=v), 0, "gather_elements.axis"),
    "gather_nd.batch_dims": Slot(
        lambda v: sd.gather_nd(X33, np.array([[1], [2], [0]]), batch_dims=v), 1, "gather_nd.batch_dims"
    ),
    "scatter.axis": Slot(lambda v: sd.scatter(X33, I23, np.ones((2, 3), np.float32), axis=v), 0, "scatter.axis"),
    # layout drawings
    "TensorDesc.describe.max_cells": Slot(lambda v: T([2, 3]).describe(max_cells=v), 4, "max_cells"),
    "xla.Shape.describe.width": Slot(lambda v: SH.describe(width=v), 40, "width"),
    # strided.xla
    "xla.Shape.element_type": Slot(lambda v: xla.Shape(v, [2, 3]), 11, "element_type", str_ok=True),
    "xla.make_shape.element_type": Slot(lambda v: xla.make_shape(v, [2, 3]), 4, "element_type", str_ok=True),
    "xla.numpy_dtype": Slot(lambda v: xla.numpy_dtype(v), 12, "element_type", str_ok=True),
    "xla.Layout.padding_value": Slot(lambda v: xla.Layout([1, 0], None, v), 2, "padding_value", str_ok=True),
    "xla.default_layout.rank": Slot(lambda v: xla.default_layout(v), 3, "default_layout.rank"),
    "xla.linear_index_to_multidimensional_index": Slot(
        lambda v: xla.linear_index_to_multidimensional_index(SH, v), 4, "linear_index"
    ),
    "xla.dimension_stride.dim": Slot(lambda v: xla.dimension_stride(SH, v), 0, "dimension_stride.dim"),
}

# Values an int slot must take as its base value b, with the same result.
GOOD_INTS = {
    "np.int64": np.int64,
    "np.int32": np.int32,
    "np.uint64": np.uint64,
    "np.intp": np.intp,
    "np.uint16": np.uint16,
    "0-d int64 array": lambda b: np.array(b, np.int64),
    "0-d uint8 array": lambda b: np.array(b, np.uint8) if b < 256 else np.array(b, np.uint64),
    "__index__": Idx,
}
# Values of the wrong type: TypeError naming the field.
BAD_INTS = {
    "True": True,
    "False": False,
    "np.True_": np.True_,
    "0-d bool array": np.array(True),
    "float": 2.0,
    "np.float64": np.float64(2.0),
    "np.float32": np.float32(2.0),
    "0-d float array": np.array(2.0),
    "complex": 2j,
    "1-d int array": np.array([2]),
    "2-d int array": np.array([[2]]),
    "list": [2],
    "object": object(),
    "None": None,
    "str": "2",
    "bytes": b"2",
}


def _int_cases(kinds, skip: Callable[[Slot, str], bool] = lambda s, k: False):
    return [
        pytest.param(name, kid, id=f"{name}-{kid}")
        for name, slot in INT_SLOTS.items()
        for kid in kinds
        if not skip(slot, kid)
    ]


@pytest.mark.parametrize("slot_name,kind", _int_cases(GOOD_INTS))
def test_int_slot_accepts_numpy_integers(slot_name, kind):
    slot = INT_SLOTS[slot_name]
    assert _norm(slot.call(GOOD_INTS[kind](slot.base))) == _norm(slot.call(slot.base))


def _bad_skip(slot: Slot, kid: str) -> bool:
    return (
        (kid == "None" and slot.none_ok)
        or (kid in ("str", "bytes") and slot.str_ok)
        or (kid.startswith("np.") and slot.dtype_like)
        or (kid in ("list", "1-d int array") and slot.seq_ok)
    )


@pytest.mark.parametrize("slot_name,kind", _int_cases(BAD_INTS, _bad_skip))
def test_int_slot_refuses_wrong_types(slot_name, kind):
    slot = INT_SLOTS[slot_name]
    with pytest.raises(TypeError) as info:
        slot.call(BAD_INTS[kind])
    assert slot.field in str(info.value)


@pytest.mark.parametrize("slot_name", list(INT_SLOTS))
@pytest.mark.parametrize("big", [2**64, 2**70, -(2**70)], ids=["2**64", "2**70", "-2**70"])
@pytest.mark.parametrize("wrap", [int, Idx], ids=["int", "__index__"])
def test_int_slot_huge_is_value_error(slot_name, big, wrap):
    slot = INT_SLOTS[slot_name]
    with pytest.raises(VE) as info:
        slot.call(wrap(big))
    assert isinstance(info.value, ValueError)
    assert slot.field in str(info.value)


@pytest.mark.parametrize("slot_name", list(INT_SLOTS))
@pytest.mark.parametrize(
    "exc",
    [Boom("boom"), TypeError("inner type error"), OverflowError("inner overflow")],
    ids=["custom", "TypeError", "OverflowError"],
)
def test_int_slot_index_exception_propagates_unchanged(slot_name, exc):
    with pytest.raises(type(exc)) as info:
        INT_SLOTS[slot_name].call(Raises(exc))
    assert info.value is exc


@pytest.mark.parametrize("slot_name", [n for n, s in INT_SLOTS.items() if s.negative])
@pytest.mark.parametrize("neg", [-1, np.int64(-3)], ids=["-1", "np.int64(-3)"])
def test_int_slot_negative_is_value_error(slot_name, neg):
    slot = INT_SLOTS[slot_name]
    with pytest.raises(VE) as info:
        slot.call(neg)
    assert slot.field in str(info.value)


def test_known_threads_defects():
    """The reported ones: threads of the wrong type is a TypeError, out of range a ValueError."""
    with pytest.raises(TypeError, match="compile.threads"):
        sd.compile(ID, threads="2")
    with pytest.raises(TypeError, match="compile.threads"):
        sd.compile(ID, threads=1.5)
    with pytest.raises(ValueError, match="compile.threads"):
        sd.compile(ID, threads=2**70)
    with pytest.raises(ValueError, match="compile.threads"):
        sd.compile(ID, threads=0)
    with pytest.raises(ValueError, match="set_num_threads.n"):
        sd.set_num_threads(2**31)


# ---------------------------------------------------------------- integer-sequence slots
SEQ_SLOTS = {
    "TensorDesc.sizes": Slot(lambda v: T(v), [2, 3], "TensorDesc.sizes", negative="VE"),
    "TensorDesc.strides": Slot(lambda v: T([2, 3], v), [4, 1], "TensorDesc.strides", none_ok=True, negative="VE"),
    "calc_buffer_tensor_size.sizes": Slot(
        lambda v: sd.calc_buffer_tensor_size(F32, v), [2, 3], "calc_buffer_tensor_size.sizes", negative="VE"
    ),
    "calc_buffer_tensor_size.strides": Slot(
        lambda v: sd.calc_buffer_tensor_size(F32, [2, 3], v),
        [5, 1],
        "calc_buffer_tensor_size.strides",
        none_ok=True,
        negative="VE",
    ),
    "packed_strides.sizes": Slot(lambda v: sd.packed_strides(v), [2, 3, 4], "packed_strides.sizes", negative="VE"),
    "packed_strides.layout": Slot(
        lambda v: sd.packed_strides([2, 3, 4], v), [2, 0, 1], "packed_strides.layout", str_ok=True
    ),
    "SliceDesc.offsets": Slot(
        lambda v: sd.SliceDesc(T([2, 4]), T([1, 2]), v, [1, 2], [1, 2]), [1, 0], "SliceDesc.offsets"
    ),
    "SliceDesc.sizes": Slot(lambda v: sd.SliceDesc(T([2, 4]), T([1, 2]), [1, 0], v, [1, 2]), [1, 2], "SliceDesc.sizes"),
    "Slice1Desc.strides": Slot(
        lambda v: sd.Slice1Desc(T([2, 4]), T([1, 2]), [1, 0], [1, 4], v), [1, 2], "Slice1Desc.strides"
    ),
    "slice.offsets": Slot(lambda v: sd.slice(X24, v, [1, 3]), [1, 1], "offsets"),
    "slice.sizes": Slot(lambda v: sd.slice(X24, [0, 1], v), [2, 3], "sizes", negative="VE"),
    "slice.strides": Slot(lambda v: sd.slice(X24, [0, 0], [2, 4], v), [1, 2], "strides", none_ok=True),
    "split.sizes": Slot(lambda v: sd.split(X24, v, axis=1), [1, 3], "split", negative="VE"),
    "xla.Layout.minor_to_major": Slot(lambda v: xla.Layout(v), [0, 1], "Layout.minor_to_major"),
    "xla.Layout.padded_dimensions": Slot(
        lambda v: xla.Layout([1, 0], v), [4, 4], "Layout.padded_dimensions", none_ok=True
    ),
    "xla.Shape.dimensions": Slot(lambda v: xla.Shape("f32", v), [2, 3], "Shape.dimensions"),
    "xla.Shape.layout": Slot(lambda v: xla.Shape("f32", [2, 3], v), [0, 1], "Shape.layout", none_ok=True),
    "xla.make_shape.dimensions": Slot(
        lambda v: xla.make_shape("f32", v), [2, 3], "make_shape.dimensions", negative="VE"
    ),
    "xla.make_shape_with_layout.dimensions": Slot(
        lambda v: xla.make_shape_with_layout("f32", v, [0, 1]),
        [2, 3],
        "make_shape_with_layout.dimensions",
        negative="VE",
    ),
    "xla.make_shape_with_layout.minor_to_major": Slot(
        lambda v: xla.make_shape_with_layout("f32", [2, 3], v), [0, 1], "make_shape_with_layout.minor_to_major"
    ),
    "xla.make_layout_from_major_to_minor": Slot(
        lambda v: xla.make_layout_from_major_to_minor(v), [0, 1], "make_layout_from_major_to_minor.major_to_minor"
    ),
    "xla.multidimensional_index_to_linear_index": Slot(
        lambda v: xla.multidimensional_index_to_linear_index(SH, v),
        [1, 2],
        "multidimensional_index_to_linear_index.index",
    ),
    "xla.bump_indices": Slot(lambda v: xla.bump_indices(SH, v), [0, 2], "bump_indices.index"),
}

GOOD_SEQS = {
    "tuple": tuple,
    "int64 array": lambda b: np.array(b, np.int64),
    "int32 array": lambda b: np.array(b, np.int32),
    "uint8 array": lambda b: np.array(b, np.uint8),
    "intp array view": lambda b: np.array([b, b], np.intp)[1],
    "list of np.int64": lambda b: [np.int64(v) for v in b],
    "list of np.uint32": lambda b: [np.uint32(v) for v in b],
    "list of 0-d arrays": lambda b: [np.array(v) for v in b],
    "list of __index__": lambda b: [Idx(v) for v in b],
    "range": lambda b: range(b[0], b[0] + 1) if len(b) == 1 else b,
}
BAD_SEQS = {
    "None": None,
    "str": "23",
    "bytes": b"\x02\x03",
    "bool": True,
    "float": 2.0,
    "float list": [2.0, 3.0],
    "bool list": [True, False],
    "np.bool_ list": [np.True_, np.False_],
    "str list": ["2", "3"],
    "None in list": [2, None],
    "float array": np.array([2.0, 3.0]),
    "bool array": np.array([True, False]),
    "2-d array": np.array([[2, 3]]),
    "nested list": [[2], [3]],
    "dict": {2: 3},
    "set": {2, 3},
    "generator": (i for i in (2, 3)),
}


def _seq_cases(kinds, skip: Callable[[Slot, str], bool] = lambda s, k: False):
    return [
        pytest.param(name, kid, id=f"{name}-{kid}")
        for name, slot in SEQ_SLOTS.items()
        for kid in kinds
        if not skip(slot, kid)
    ]


@pytest.mark.parametrize("slot_name,kind", _seq_cases(GOOD_SEQS))
def test_sequence_slot_accepts_numpy_integers(slot_name, kind):
    slot = SEQ_SLOTS[slot_name]
    assert _norm(slot.call(GOOD_SEQS[kind](slot.base))) == _norm(slot.call(slot.base))


@pytest.mark.parametrize("slot_name,kind", _seq_cases(BAD_SEQS, _bad_skip))
def test_sequence_slot_refuses_wrong_types(slot_name, kind):
    slot = SEQ_SLOTS[slot_name]
    with pytest.raises(TypeError) as info:
        slot.call(BAD_SEQS[kind])
    assert slot.field in str(info.value)


@pytest.mark.parametrize("slot_name", list(SEQ_SLOTS))
@pytest.mark.parametrize("big", [2**64, -(2**70)], ids=["2**64", "-2**70"])
def test_sequence_slot_huge_item_is_value_error(slot_name, big):
    slot = SEQ_SLOTS[slot_name]
    v = list(slot.base)
    v[-1] = big
    with pytest.raises(VE) as info:
        slot.call(v)
    assert f"{slot.field}[{len(v) - 1}]" in str(info.value)


@pytest.mark.parametrize("slot_name", list(SEQ_SLOTS))
def test_sequence_slot_index_exception_propagates_unchanged(slot_name):
    slot = SEQ_SLOTS[slot_name]
    exc = TypeError("from __index__")
    with pytest.raises(TypeError) as info:
        slot.call([slot.base[0], Raises(exc)])
    assert info.value is exc


@pytest.mark.parametrize("slot_name", [n for n, s in SEQ_SLOTS.items() if s.negative])
def test_sequence_slot_negative_is_value_error(slot_name):
    slot = SEQ_SLOTS[slot_name]
    v = list(slot.base)
    v[0] = -1
    with pytest.raises(VE) as info:
        slot.call(v)
    assert slot.field in str(info.value)


@pytest.mark.parametrize("slot_name", ["TensorDesc.sizes", "packed_strides.sizes", "xla.make_shape.dimensions"])
def test_single_integer_is_a_sequence_of_one(slot_name):
    """numpy's shape rule (np.zeros(3) == np.zeros((3,))), numpy integers included; bool is refused."""
    slot = SEQ_SLOTS[slot_name]
    ref = _norm(slot.call([3]))
    for v in (3, np.int64(3), np.array(3), Idx(3)):
        assert _norm(slot.call(v)) == ref
    with pytest.raises(TypeError):
        slot.call(True)


# ---------------------------------------------------------------- split's count-or-sizes argument
@pytest.mark.parametrize(
    "parts",
    [
        np.array([1, 3]),
        np.array([1, 3], np.uint8),
        [np.int64(1), np.int32(3)],
        (1, 3),
        np.array([4]),
        np.int64(2),
        np.array(2),
        np.uint8(4),
        Idx(2),
    ],
    ids=[
        "int64-array",
        "uint8-array",
        "np-int-list",
        "tuple",
        "one-size-array",
        "np.int64-count",
        "0-d-count",
        "np.uint8-count",
        "__index__-count",
    ],
)
def test_split_count_or_sizes_from_numpy(parts):
    """Sizes (a sequence) and counts (an integer) in numpy's types split as the Python ints do;
    the reference is numpy's split at the cut points the sizes imply."""
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    p = operator_index_or_list(parts)
    cuts = list(np.cumsum(p)[:-1]) if isinstance(p, list) else p
    ref = np.split(x, cuts, axis=1)
    got = sd.split(x, parts, axis=1)
    assert [g.tolist() for g in got] == [r.tolist() for r in ref]


def operator_index_or_list(v: Any) -> Any:
    if (isinstance(v, np.ndarray) and v.ndim == 1) or isinstance(v, (list, tuple)):
        return [operator.index(i) for i in v]
    return operator.index(v)


# ---------------------------------------------------------------- None / wrong types for arrays and objects
ARRAY_CALLS = {
    "copy.src": (lambda v: sd.copy(v, np.zeros(3, np.float32)), "src"),
    "copy.out": (lambda v: sd.copy(np.zeros(3, np.float32), v), "out"),
    "split.x": (lambda v: sd.split(v, 1), "x"),
    "split.out": (lambda v: sd.split(X24, 2, out=v), "out"),
    "join.arrays": (lambda v: sd.join(v), "arrays"),
    "join.arrays[1]": (lambda v: sd.join([X24, v]), "arrays[1]"),
    "join.out": (lambda v: sd.join([X24], out=v), "out"),
    "slice.x": (lambda v: sd.slice(v, [0], [1]), "x"),
    "slice.out": (lambda v: sd.slice(X24, [0, 0], [1, 1], out=v), "out"),
    "gather.x": (lambda v: sd.gather(v, np.array([0])), "gather.x"),
    "gather.indices": (lambda v: sd.gather(X33, v), "gather.indices"),
    "gather.out": (lambda v: sd.gather(X33, np.array([0]), out=v), "out"),
    "gather_elements.x": (lambda v: sd.gather_elements(v, I23), "gather_elements.x"),
    "gather_elements.indices": (lambda v: sd.gather_elements(X33, v), "gather_elements.indices"),
    "gather_nd.x": (lambda v: sd.gather_nd(v, np.array([[0]])), "gather_nd.x"),
    "gather_nd.indices": (lambda v: sd.gather_nd(X33, v), "gather_nd.indices"),
    "scatter.x": (lambda v: sd.scatter(v, I23, np.ones((2, 3), np.float32)), "scatter.x"),
    "scatter.indices": (lambda v: sd.scatter(X33, v, np.ones((2, 3), np.float32)), "scatter.indices"),
    "scatter.updates": (lambda v: sd.scatter(X33, I23, v), "scatter.updates"),
    "scatter.reduction": (
        lambda v: sd.scatter(X33, I23, np.ones((2, 3), np.float32), reduction=v),
        "scatter.reduction",
    ),
    "scatter_nd.updates": (lambda v: sd.scatter_nd(X33, np.array([[0]]), v), "scatter_nd.updates"),
    "scatter_nd.reduction": (
        lambda v: sd.scatter_nd(X33, np.array([[0]]), np.ones((1, 3), np.float32), reduction=v),
        "scatter_nd.reduction",
    ),
    "execute.inputs": (lambda v: sd.compile(ID).execute(v, [bytearray(32)]), "execute.inputs"),
    "execute.outputs": (lambda v: sd.compile(ID).execute([bytes(32)], v), "execute.outputs"),
    "execute.inputs[0]": (lambda v: sd.compile(ID).execute([v], [bytearray(32)]), "execute.inputs[0]"),
    "compile.desc": (lambda v: sd.compile(v), "desc"),
    "IdentityDesc.input": (lambda v: sd.IdentityDesc(v, T([2])), "IdentityDesc.input"),
    "SplitDesc.outputs": (lambda v: sd.SplitDesc(T([2]), v, 0), "SplitDesc.outputs"),
    "ScatterDesc.reduction": (
        lambda v: sd.ScatterDesc(T([3, 3]), T([2, 3]), T([2, 3]), T([3, 3]), 0, reduction=v),
        "ScatterDesc.reduction",
    ),
    "xla.to_physical.shape": (lambda v: xla.to_physical(np.zeros((2, 3), np.float32), v), "to_physical.shape"),
    "xla.from_physical.buffer": (lambda v: xla.from_physical(v, SH), "from_physical.buffer"),
    "xla.index.shape": (lambda v: xla.multidimensional_index_to_linear_index(v, [0, 0]), "shape"),
}


WRONG_OBJECTS = {"None": None, "int": 5, "float": 2.5, "object": object()}


def _wrong_object_valid(name: str, kind: str) -> bool:
    """Where the value is valid: out=None is the default; a Python number is a 0-d array (an
    integer a 0-d index array, as numpy.take) where an array is taken."""
    if kind == "None":
        return name.endswith(".out") and not name.startswith("copy")
    numbers_are_arrays = (
        "copy.src",
        "split.x",
        "slice.x",
        "join.arrays[1]",
        "gather.x",
        "gather_elements.x",
        "gather_nd.x",
        "scatter.x",
        "scatter.updates",
        "scatter_nd.updates",
    )
    if kind in ("int", "float") and name in numbers_are_arrays:
        return True
    return kind == "int" and name.endswith(".indices")


@pytest.mark.parametrize(
    "name,kind",
    [pytest.param(n, k, id=f"{n}-{k}") for n in ARRAY_CALLS for k in WRONG_OBJECTS if not _wrong_object_valid(n, k)],
)
def test_none_and_wrong_objects_are_type_errors(name, kind):
    call, field = ARRAY_CALLS[name]
    with pytest.raises(TypeError) as info:
        call(WRONG_OBJECTS[kind])
    assert field in str(info.value)


@pytest.mark.parametrize("value", ["1.5", "abc"])
@pytest.mark.parametrize(
    "fn",
    [
        lambda v: sd.scatter(X33, I23, v),
        lambda v: sd.scatter_nd(X33, np.array([[0]]), v),
    ],
    ids=["scatter", "scatter_nd"],
)
def test_string_updates_are_type_errors(fn, value):
    """numpy would parse "1.5" into a float; strided takes numbers only (no silent parse, no NaN)."""
    with pytest.raises(TypeError, match="updates"):
        fn(value)


# Results numpy cannot hold (more than 2**63 - 1 bytes, or a size beyond int64): a ValidationError
# naming the argument that made them so large, before anything is allocated (numpy's own error,
# "array is too big", named none). numpy's rule: the non-zero sizes count even beside a zero.
_X22 = np.ones((2, 2), np.float32)
TOO_LARGE = {
    "full": (
        lambda: sd.full((2**62, 4), 1.0),
        r"^full\.shape: the result's shape \(4611686018427387904, 4\) of float64 needs more than 2\*\*63 - 1 bytes",
    ),
    "full with a 0": (lambda: sd.full((0, 2**62, 4), 1.0), r"^full\.shape: .* needs more than"),
    "eye": (lambda: sd.eye((2**62, 2**62), np.float32), r"^eye\.shape: .* of float32 needs more than"),
    "tile bytes": (lambda: sd.tile(_X22, (2**61, 2**61)), r"^tile\.repeats: .* needs more than"),
    "tile size": (
        lambda: sd.tile(_X22, (2**62, 1)),
        r"^tile\.repeats: the result's shape \(9223372036854775808, 2\) does not fit in 64 bits",
    ),
    "pad": (lambda: sd.pad(np.ones(2), [0], [2**62]), r"^pad\.end: .* needs more than"),
    "broadcast_to": (lambda: sd.broadcast_to(np.ones(1), (2**62,)), r"^broadcast_to\.shape: .* needs more than"),
    "max_unpool": (
        lambda: sd.max_unpool(np.ones(1, np.float32), np.zeros(1, np.int64), (2**40, 2**40)),
        r"^max_unpool\.output_shape: .* needs more than",
    ),
}


@pytest.mark.parametrize("case", list(TOO_LARGE))
def test_too_large_results_name_the_argument(case):
    call, message = TOO_LARGE[case]
    with pytest.raises(VE, match=message):
        call()
    with pytest.raises(ValueError):  # what numpy raises for the same shape
        np.empty((2**62, 4))
