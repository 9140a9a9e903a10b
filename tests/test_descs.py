"""The ten description classes as Python objects: constructors (API.md names and order), read-only
fields, repr, equality, level arguments, and argument errors that name the field."""

from __future__ import annotations

import numpy as np
import pytest

import strided as sd

FL = sd.FeatureLevel


def T(sizes: list[int], dtype: str = "float32", strides: list[int] | None = None) -> sd.TensorDesc:
    return sd.TensorDesc(dtype, sizes, strides)


X44 = T([1, 1, 4, 4])
O22 = T([1, 1, 2, 2])
IDX = T([1, 1, 2, 4], "uint32")


def all_descs() -> list:
    return [
        sd.IdentityDesc(X44, X44),
        sd.SplitDesc(T([1, 1, 6, 2]), [T([1, 1, 2, 2]), T([1, 1, 4, 2])], 2),
        sd.JoinDesc([T([1, 1, 2, 3]), T([1, 1, 2, 4])], T([1, 1, 2, 7]), 3),
        sd.SliceDesc(X44, T([1, 1, 3, 2]), [0, 0, 1, 2], [1, 1, 3, 2], [1, 1, 1, 1]),
        sd.Slice1Desc(X44, O22, [0, 0, 0, 1], [1, 1, 4, 3], [1, 1, -2, 2]),
        sd.GatherDesc(T([4]), T([5], "uint32"), T([5]), 0, 1),
        sd.GatherElementsDesc(T([3, 3]), T([2, 3], "uint32"), T([2, 3]), 0),
        sd.GatherNDDesc(T([2, 2]), T([2, 1], "uint32"), T([2, 2]), 2, 2),
        sd.ScatterDesc(X44, IDX, T([1, 1, 2, 4]), X44, 2),
        sd.ScatterNDDesc(T([1, 8]), T([4, 1], "uint32"), T([1, 4]), T([1, 8]), 1, 2),
    ]


@pytest.mark.parametrize("d", all_descs(), ids=lambda d: type(d).__name__)
def test_valid_examples_and_common_api(d) -> None:
    d.validate()
    d.validate(None)
    assert d.is_valid_at(FL.FL_4_1)
    lvl = d.min_feature_level
    assert isinstance(lvl, FL)
    assert d.is_valid_at(lvl)
    r = repr(d)
    assert r.startswith(type(d).__name__ + "(")
    assert eval(r.split("(")[0], {**vars(sd)}) is type(d)
    assert d == d and not (d != d)
    assert d != 3
    with pytest.raises(TypeError):
        hash(d)


def test_keyword_and_positional_constructors() -> None:
    a = sd.Slice1Desc(X44, O22, [0, 0, 0, 1], [1, 1, 4, 3], [1, 1, 2, 2])
    b = sd.Slice1Desc(input=X44, output=O22, offsets=(0, 0, 0, 1), sizes=(1, 1, 4, 3), strides=(1, 1, 2, 2))
    assert a == b
    assert a != sd.Slice1Desc(X44, O22, [0, 0, 0, 1], [1, 1, 4, 3], [1, 1, -2, 2])
    assert sd.SplitDesc(input=X44, outputs=[X44], axis=0) == sd.SplitDesc(X44, [X44], 0)
    assert sd.JoinDesc(inputs=(X44,), output=X44, axis=1).inputs == (X44,)
    g = sd.GatherDesc(input=T([4]), indices=T([5], "int64"), output=T([5]), axis=0, index_dimensions=1)
    assert (g.axis, g.index_dimensions, g.indices.dtype) == (0, 1, sd.DataType.INT64)
    ge = sd.GatherElementsDesc(input=X44, indices=IDX, output=T([1, 1, 2, 4]), axis=2)
    assert ge.output.sizes == (1, 1, 2, 4)
    nd = sd.GatherNDDesc(input=X44, indices=IDX, output=X44, input_dimension_count=4, indices_dimension_count=3)
    assert (nd.input_dimension_count, nd.indices_dimension_count, nd.batch_dimension_count) == (4, 3, 0)
    nd1 = sd.GatherNDDesc(X44, IDX, X44, 4, 3, 1)
    assert nd1.batch_dimension_count == 1 and nd1 != nd
    s = sd.ScatterDesc(input=X44, indices=IDX, updates=IDX, output=X44, axis=2, reduction="max")
    assert (s.axis, s.reduction, s.updates) == (2, "max", IDX)
    assert sd.ScatterDesc(X44, IDX, IDX, X44, 2).reduction == "none"
    assert s != sd.ScatterDesc(X44, IDX, IDX, X44, 2)
    snd = sd.ScatterNDDesc(X44, IDX, IDX, X44, input_dimension_count=4, indices_dimension_count=3, reduction="MUL")
    assert snd.reduction == "mul"
    with pytest.raises(TypeError):
        sd.ScatterDesc(X44, IDX, IDX, X44, 2, "add")  # reduction is keyword-only
    with pytest.raises(TypeError):
        sd.ScatterNDDesc(X44, IDX, IDX, X44, 4, 3, "add")
    assert sd.ScatterElementsDesc is sd.ScatterDesc


def test_fields_are_read_only_tuples() -> None:
    d = sd.Slice1Desc(X44, O22, [0, 0, 0, 1], [1, 1, 4, 3], [1, 1, -2, 2])
    assert d.offsets == (0, 0, 0, 1) and isinstance(d.offsets, tuple)
    assert d.sizes == (1, 1, 4, 3) and d.strides == (1, 1, -2, 2)
    assert d.input == X44 and d.output == O22
    for field in ("input", "output", "offsets", "sizes", "strides"):
        with pytest.raises(AttributeError):
            setattr(d, field, getattr(d, field))
    sp = sd.SplitDesc(X44, [X44, O22], 0)
    assert sp.outputs == (X44, O22) and isinstance(sp.outputs, tuple)
    with pytest.raises(AttributeError):
        sp.axis = 1


def test_repr_shows_fields() -> None:
    r = repr(sd.Slice1Desc(X44, O22, [0, 0, 0, 1], [1, 1, 4, 3], [1, 1, -2, 2]))
    assert "offsets=(0, 0, 0, 1)" in r and "strides=(1, 1, -2, 2)" in r and "input=TensorDesc(FLOAT32" in r
    assert "reduction='add'" in repr(sd.ScatterDesc(X44, IDX, IDX, X44, 2, reduction="add"))
    assert "batch_dimension_count=1" in repr(sd.GatherNDDesc(X44, IDX, X44, 4, 3, 1))


@pytest.mark.parametrize("level", [FL.FL_2_1, 0x2100, "2_1", "2.1", "FL_2_1", np.uint32(0x2100)])
def test_level_forms(level) -> None:
    d = sd.Slice1Desc(X44, O22, [0, 0, 0, 1], [1, 1, 4, 3], [1, 1, -2, 2])
    d.validate(level)
    d.validate(feature_level=level)
    assert d.is_valid_at(level)
    assert d.min_feature_level == FL.FL_2_1


def test_level_prints_as_its_name() -> None:
    # IntEnum's str() is int's on Python 3.11+: print(op.min_feature_level) showed 8448.
    lvl = sd.Slice1Desc(X44, O22, [0, 0, 0, 1], [1, 1, 4, 3], [1, 1, -2, 2]).min_feature_level
    assert str(lvl) == "FL_2_1" and f"{lvl}" == "FL_2_1" and "{}".format(lvl) == "FL_2_1"  # noqa: UP032 (str.format is under test)
    assert all(str(m) == m.name for m in FL)
    # Still DirectML's integers: value, int(), ordering, numeric format specs, repr, round trip.
    assert isinstance(lvl, int) and lvl == 0x2100 and int(lvl) == 8448 and FL.FL_1_0 < lvl < FL.FL_6_4
    assert f"{lvl:#x}" == "0x2100" and f"{lvl:d}" == "8448"
    assert repr(lvl) == "<FeatureLevel.FL_2_1: 8448>"
    assert FL.parse(str(lvl)) is lvl


@pytest.mark.parametrize(
    "level, exc",
    [
        (0x1234, sd.ValidationError),
        ("9_9", sd.ValidationError),
        (-1, sd.ValidationError),
        (2.1, TypeError),
        (True, TypeError),
    ],
)
def test_bad_levels(level, exc) -> None:
    d = sd.IdentityDesc(X44, X44)
    with pytest.raises(exc):
        d.validate(level)
    with pytest.raises(exc):
        d.is_valid_at(level)


def test_level_failure_message() -> None:
    d = sd.Slice1Desc(X44, O22, [0, 0, 0, 1], [1, 1, 4, 3], [1, 1, -2, 2])
    with pytest.raises(
        sd.ValidationError, match=r"^Slice1Desc: the operator needs feature level 2_1 \(validating at 1_0\)"
    ):
        d.validate("1_0")
    assert not d.is_valid_at("1_0")
    g = sd.GatherDesc(T([4], "int64"), T([5], "uint32"), T([5], "int64"), 0, 1)
    with pytest.raises(
        sd.ValidationError, match=r"^GatherDesc\.input\.dtype: INT64 needs feature level 4_1 \(validating at 3_0\)$"
    ):
        g.validate("3_0")
    assert g.min_feature_level == FL.FL_4_1


@pytest.mark.parametrize(
    "make, exc, field",
    [
        (lambda: sd.IdentityDesc(X44, "x"), TypeError, "IdentityDesc.output"),
        (lambda: sd.IdentityDesc(np.zeros(3), X44), TypeError, "IdentityDesc.input"),
        (lambda: sd.SplitDesc(X44, X44, 0), TypeError, "SplitDesc.outputs"),
        (lambda: sd.SplitDesc(X44, [X44, 3], 0), TypeError, r"SplitDesc.outputs\[1\]"),
        (lambda: sd.SplitDesc(X44, [X44], 2**64), sd.ValidationError, "SplitDesc.axis"),
        (lambda: sd.SplitDesc(X44, [X44], 1.0), TypeError, "SplitDesc.axis"),
        (lambda: sd.SplitDesc(X44, [X44], None), TypeError, "SplitDesc.axis"),
        (lambda: sd.JoinDesc("ab", X44, 0), TypeError, "JoinDesc.inputs"),
        (lambda: sd.JoinDesc([X44], X44, "0"), TypeError, "JoinDesc.axis"),
        (
            lambda: sd.SliceDesc(X44, O22, [0, 0, 0, 2**63], [1, 1, 2, 2], [1, 1, 1, 1]),
            sd.ValidationError,
            r"SliceDesc.offsets\[3\]",
        ),
        (
            lambda: sd.SliceDesc(X44, O22, [0, 0, 0, 0.5], [1, 1, 2, 2], [1, 1, 1, 1]),
            TypeError,
            r"SliceDesc.offsets\[3\]",
        ),
        (lambda: sd.Slice1Desc(X44, O22, [0, 0, 0, 0], [1, 1, 2, 2], None), TypeError, "Slice1Desc.strides"),
        (
            lambda: sd.Slice1Desc(X44, O22, [0, 0, 0, 0], [1, 1, 2, 2], [1, 1, 1, -(2**63) - 1]),
            sd.ValidationError,
            r"Slice1Desc.strides\[3\]",
        ),
        (lambda: sd.GatherDesc(X44, IDX, X44, 0, 2**100), sd.ValidationError, "GatherDesc.index_dimensions"),
        (lambda: sd.GatherElementsDesc(X44, IDX, X44, []), TypeError, "GatherElementsDesc.axis"),
        (lambda: sd.GatherNDDesc(X44, IDX, X44, 4, 3, 1.5), TypeError, "GatherNDDesc.batch_dimension_count"),
        (lambda: sd.GatherNDDesc(X44, IDX, X44, -(2**70), 3), sd.ValidationError, "GatherNDDesc.input_dimension_count"),
        (lambda: sd.ScatterDesc(X44, IDX, IDX, X44, 0, reduction="sum"), sd.ValidationError, "ScatterDesc.reduction"),
        (lambda: sd.ScatterDesc(X44, IDX, IDX, X44, 0, reduction=1), TypeError, "ScatterDesc.reduction"),
        (
            lambda: sd.ScatterNDDesc(X44, IDX, IDX, X44, 4, 2**64),
            sd.ValidationError,
            "ScatterNDDesc.indices_dimension_count",
        ),
    ],
)
def test_argument_errors_name_the_field(make, exc, field) -> None:
    with pytest.raises(exc, match=field):
        make()


def test_negative_ints_are_validation_errors() -> None:
    for d, field in [
        (sd.SplitDesc(X44, [X44], -1), "SplitDesc.axis: -1 is out of range for 4 dimensions"),
        (sd.GatherDesc(X44, IDX, X44, 0, -1), "GatherDesc.index_dimensions"),
        (sd.GatherNDDesc(X44, IDX, X44, 4, 3, -1), "GatherNDDesc.batch_dimension_count"),
        (sd.Slice1Desc(X44, O22, [0, 0, -1, 0], [1, 1, 2, 2], [1, 1, 1, 1]), r"Slice1Desc.offsets\[2\]"),
        (sd.SliceDesc(X44, O22, [0, 0, 0, 0], [1, 1, 2, 2], [1, 1, -1, 1]), r"SliceDesc.strides\[2\]"),
    ]:
        with pytest.raises(sd.ValidationError, match=field):
            d.validate()
        with pytest.raises(sd.ValidationError, match=field):
            d.min_feature_level
        assert not d.is_valid_at("6_4")


def test_reduction_is_strided_only() -> None:
    d = sd.ScatterDesc(X44, IDX, T([1, 1, 2, 4]), X44, 2, reduction="add")
    d.validate()
    assert not d.is_valid_at("6_4")
    with pytest.raises(sd.ValidationError, match="ScatterDesc.reduction: ADD is a strided extension.*no DirectML"):
        d.min_feature_level
    with pytest.raises(sd.ValidationError, match="ScatterNDDesc.reduction"):
        sd.ScatterNDDesc(T([1, 8]), T([4, 1], "uint32"), T([1, 4]), T([1, 8]), 1, 2, reduction="min").validate("4_1")


def test_compile_accepts_bound_classes() -> None:
    c = sd.compile(sd.IdentityDesc(T([2, 3]), T([2, 3], strides=[1, 2])))
    src = np.arange(6, dtype=np.float32)
    dst = np.zeros(6, np.float32)
    c.execute([src], [dst])
    np.testing.assert_array_equal(dst, src.reshape(2, 3).T.ravel())
    with pytest.raises(sd.ValidationError, match="IdentityDesc.output.sizes"):
        sd.compile(sd.IdentityDesc(T([2, 3]), T([3, 2])))
    with pytest.raises(sd.ValidationError, match=r"IdentityDesc.output.strides\[0\]"):
        sd.compile(sd.IdentityDesc(T([2, 3]), T([2, 3], strides=[0, 1])))
