"""validate / is_valid_at / min_feature_level against SPEC.md sections 3-4 and DirectML's pages:
the spec's examples, one failing case per rule (the message must name the field), the
feature-level table reimplemented here from SPEC.md, and random descriptions that may only pass
or raise ValidationError."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strided as sd

FL = sd.FeatureLevel
DT = sd.DataType


def T(sizes, dtype="float32", strides=None) -> sd.TensorDesc:
    return sd.TensorDesc(dtype, list(sizes), strides)


def U(sizes) -> sd.TensorDesc:
    return T(sizes, "uint32")


def fails(desc, pattern: str, level=None) -> None:
    with pytest.raises(sd.ValidationError, match=pattern):
        desc.validate(level)


# ================================================================ SPEC.md examples are valid
X44 = T([1, 1, 4, 4])

SPEC_EXAMPLES = [
    # Split {1,1,6,2}: axis 2 into 2,1,3; axis 3 into 1+1.
    sd.SplitDesc(T([1, 1, 6, 2]), [T([1, 1, 2, 2]), T([1, 1, 1, 2]), T([1, 1, 3, 2])], 2),
    sd.SplitDesc(T([1, 1, 6, 2]), [T([1, 1, 6, 1]), T([1, 1, 6, 1])], 3),
    sd.SplitDesc(T([1, 1, 6, 2]), [T([1, 1, 6, 2])], 1),  # one output: a plain copy
    sd.JoinDesc([T([1, 1, 2, 3]), T([1, 1, 2, 4])], T([1, 1, 2, 7]), 3),
    sd.Slice1Desc(X44, T([1, 1, 2, 2]), [0, 0, 0, 1], [1, 1, 4, 3], [1, 1, 2, 2]),
    sd.Slice1Desc(X44, T([1, 1, 2, 2]), [0, 0, 0, 1], [1, 1, 4, 3], [1, 1, -2, 2]),
    sd.SliceDesc(X44, T([1, 1, 3, 2]), [0, 0, 1, 2], [1, 1, 3, 2], [1, 1, 1, 1]),
    sd.SliceDesc(X44, T([1, 1, 2, 2]), [0, 0, 1, 0], [1, 1, 2, 2], [1, 1, 2, 3]),
    sd.ScatterDesc(T([5]), U([4]), T([4]), T([5]), 0),
    sd.ScatterDesc(T([3, 3]), U([2, 3]), T([2, 3]), T([3, 3]), 0),
    sd.GatherElementsDesc(T([3, 3]), U([2, 3]), T([2, 3]), 0),
    sd.GatherDesc(T([4]), U([5]), T([5]), 0, 1),
    sd.GatherNDDesc(T([2, 2]), U([2, 1]), T([2, 2]), 2, 2, 0),
    sd.ScatterNDDesc(T([1, 8]), U([4, 1]), T([1, 4]), T([1, 8]), 1, 2),
    # DirectML's GatherND page ({3,4,5,6,7} by {1,1,1,2,3}) and GatherND1 example 2.
    sd.GatherNDDesc(T([3, 4, 5, 6, 7]), U([1, 1, 1, 2, 3]), T([1, 1, 2, 6, 7]), 5, 3),
    sd.GatherNDDesc(T([1, 3, 2, 2]), U([1, 3, 2, 2]), T([1, 1, 3, 2]), 3, 3, 1),
    # Identity: NCHW -> NHWC, broadcast input, padded output, in-place.
    sd.IdentityDesc(T([1, 2, 3, 5]), T([1, 2, 3, 5], strides=sd.packed_strides([1, 2, 3, 5], "NHWC"))),
    sd.IdentityDesc(T([4, 3], strides=[0, 1]), T([4, 3])),
    sd.IdentityDesc(T([2, 3], strides=[5, 1]), T([2, 3], strides=[8, 1])),
]


@pytest.mark.parametrize("d", SPEC_EXAMPLES, ids=lambda d: type(d).__name__)
def test_spec_examples_valid(d) -> None:
    d.validate()
    d.validate("6_4")


def test_min_feature_level_examples() -> None:
    # API.md: the Slice1 example is FL_2_1.
    assert sd.Slice1Desc(X44, T([1, 1, 2, 2]), [0, 0, 0, 1], [1, 1, 4, 3], [1, 1, -2, 2]).min_feature_level == FL.FL_2_1
    assert SPEC_EXAMPLES[0].min_feature_level == FL.FL_1_0  # 4-d FLOAT32 split
    assert SPEC_EXAMPLES[3].min_feature_level == FL.FL_1_0  # 4-d join
    assert SPEC_EXAMPLES[8].min_feature_level == FL.FL_3_0  # 1-d scatter
    assert SPEC_EXAMPLES[11].min_feature_level == FL.FL_3_0  # 1-d gather
    assert SPEC_EXAMPLES[15].min_feature_level == FL.FL_3_0  # GatherND1
    assert sd.ScatterDesc(X44, U([1, 1, 2, 4]), T([1, 1, 2, 4]), X44, 2).min_feature_level == FL.FL_2_0
    assert sd.ScatterDesc(X44, T([1, 1, 2, 4], "int32"), T([1, 1, 2, 4]), X44, 2).min_feature_level == FL.FL_3_0
    assert sd.GatherNDDesc(X44, U([1, 1, 2, 1]), T([1, 1, 2, 4]), 2, 2).min_feature_level == FL.FL_2_1
    assert sd.IdentityDesc(T([2, 3, 4]), T([2, 3, 4])).min_feature_level == FL.FL_3_0
    assert sd.JoinDesc([T([6])], T([6]), 0).min_feature_level == FL.FL_3_1
    assert sd.JoinDesc([T([1, 1, 1, 1, 6])], T([1, 1, 1, 1, 6]), 4).min_feature_level == FL.FL_3_0
    assert sd.IdentityDesc(T([1, 1, 1, 6], "int8"), T([1, 1, 1, 6], "int8")).min_feature_level == FL.FL_2_1
    assert sd.IdentityDesc(T([6], "float64"), T([6], "float64")).min_feature_level == FL.FL_4_1


# ================================================================ one rule at a time
A = T([2, 3])
IN = T([1, 1, 6, 2])
O22 = T([1, 1, 2, 2])

RULES = [
    # ---- Identity
    (sd.IdentityDesc(A, T([2, 4])), r"^IdentityDesc\.output\.sizes\[1\]: must equal input\.sizes\[1\] \(3\), got 4$"),
    (sd.IdentityDesc(A, T([2, 3], "int32")), r"^IdentityDesc\.output\.dtype: must equal input\.dtype \(FLOAT32\)"),
    (sd.IdentityDesc(A, T([1, 2, 3])), r"^IdentityDesc\.output\.sizes: must have the same dimension count"),
    (
        sd.IdentityDesc(A, T([2, 3], strides=[0, 1])),
        r"^IdentityDesc\.output\.strides\[0\]: an output must not broadcast",
    ),
    (sd.IdentityDesc(A, T([2, 3], strides=[2, 1])), r"^IdentityDesc\.output\.strides\[0\]: stride 2 overlaps"),
    (sd.IdentityDesc(A, T([2, 3], strides=[1, 1])), r"^IdentityDesc\.output\.strides\[\d\]: stride 1 overlaps"),
    # ---- Split
    (sd.SplitDesc(IN, [], 2), r"^SplitDesc\.outputs: must have at least one"),
    (sd.SplitDesc(IN, [IN], 4), r"^SplitDesc\.axis: 4 is out of range for 4 dimensions$"),
    (sd.SplitDesc(IN, [IN], -1), r"^SplitDesc\.axis: -1 is out of range for 4 dimensions$"),
    (
        sd.SplitDesc(IN, [T([1, 1, 2, 2]), T([1, 1, 4, 3])], 2),
        r"^SplitDesc\.outputs\[1\]\.sizes\[3\]: must equal input\.sizes\[3\] \(2\), got 3$",
    ),
    (
        sd.SplitDesc(IN, [T([1, 1, 2, 2]), T([1, 1, 3, 2])], 2),
        r"^SplitDesc\.outputs: sizes along axis 2 sum to 5, but input\.sizes\[2\] is 6$",
    ),
    (sd.SplitDesc(IN, [T([1, 1, 2, 2]), T([1, 1, 5, 2])], 2), r"^SplitDesc\.outputs: sizes along axis 2 sum to 7"),
    (
        sd.SplitDesc(IN, [T([1, 6, 2])], 1),
        r"^SplitDesc\.outputs\[0\]\.sizes: must have the same dimension count as input \(4\), got 3$",
    ),
    (sd.SplitDesc(IN, [T([1, 1, 6, 2], "int8")], 2), r"^SplitDesc\.outputs\[0\]\.dtype"),
    (sd.SplitDesc(IN, [T([1, 1, 6, 2], strides=[0, 0, 0, 1])], 2), r"^SplitDesc\.outputs\[0\]\.strides\[2\]"),
    # ---- Join
    (sd.JoinDesc([], T([1, 1, 2, 7]), 3), r"^JoinDesc\.inputs: must have at least one"),
    (sd.JoinDesc([T([1, 1, 2, 7])], T([1, 1, 2, 7]), 4), r"^JoinDesc\.axis: 4 is out of range for 4 dimensions$"),
    (
        sd.JoinDesc([T([1, 1, 2, 3]), T([1, 1, 2, 3])], T([1, 1, 2, 7]), 3),
        r"^JoinDesc\.inputs: sizes along axis 3 sum to 6, but output\.sizes\[3\] is 7$",
    ),
    (
        sd.JoinDesc([T([1, 1, 2, 3]), T([1, 1, 3, 4])], T([1, 1, 2, 7]), 3),
        r"^JoinDesc\.inputs\[1\]\.sizes\[2\]: must equal output\.sizes\[2\] \(2\), got 3$",
    ),
    (
        sd.JoinDesc([T([1, 1, 2, 3]), T([1, 2, 4])], T([1, 1, 2, 7]), 3),
        r"^JoinDesc\.inputs\[1\]\.sizes: must have the same dimension count",
    ),
    (sd.JoinDesc([T([1, 1, 2, 3]), T([1, 1, 2, 4], "uint8")], T([1, 1, 2, 7]), 3), r"^JoinDesc\.inputs\[1\]\.dtype"),
    (sd.JoinDesc([T([1, 1, 2, 7])], T([1, 1, 2, 7], strides=[14, 14, 1, 1]), 3), r"^JoinDesc\.output\.strides\[\d\]"),
    # ---- Slice1
    (
        sd.Slice1Desc(X44, O22, [0, 0, 0, 1], [1, 1, 4, 3], [1, 1, 0, 2]),
        r"^Slice1Desc\.strides\[2\]: stride must not be 0$",
    ),
    (
        sd.Slice1Desc(X44, O22, [0, 0, 1], [1, 1, 4, 3], [1, 1, 2, 2]),
        r"^Slice1Desc\.offsets: must have one value per dimension \(4\), got 3$",
    ),
    (
        sd.Slice1Desc(X44, O22, [0, 0, 0, 1], [1, 1, 4, 3, 1], [1, 1, 2, 2]),
        r"^Slice1Desc\.sizes: must have one value per dimension",
    ),
    (
        sd.Slice1Desc(X44, O22, [0, 0, 0, 1], [1, 1, 4, 3], []),
        r"^Slice1Desc\.strides: must have one value per dimension",
    ),
    (
        sd.Slice1Desc(X44, O22, [0, 0, -1, 1], [1, 1, 4, 3], [1, 1, 2, 2]),
        r"^Slice1Desc\.offsets\[2\]: offset must not be negative",
    ),
    (
        sd.Slice1Desc(X44, O22, [0, 0, 0, 1], [1, 1, 0, 3], [1, 1, 2, 2]),
        r"^Slice1Desc\.sizes\[2\]: window size must be at least 1",
    ),
    (
        sd.Slice1Desc(X44, O22, [0, 0, 1, 1], [1, 1, 4, 3], [1, 1, 2, 2]),
        r"^Slice1Desc\.offsets\[2\]: the window \(offset 1 \+ size 4\) exceeds input\.sizes\[2\] \(4\)$",
    ),
    (sd.Slice1Desc(X44, O22, [0, 0, 0, 0], [1, 1, 5, 3], [1, 1, 2, 2]), r"^Slice1Desc\.offsets\[2\]: the window"),
    (
        sd.Slice1Desc(X44, T([1, 1, 3, 2]), [0, 0, 0, 1], [1, 1, 4, 3], [1, 1, -2, 2]),
        r"^Slice1Desc\.output\.sizes\[2\]: must be at most 1 \+ \(sizes\[2\] - 1\) / \|strides\[2\]\| = 2, got 3$",
    ),
    (
        sd.Slice1Desc(X44, T([1, 1, 2, 2], "int32"), [0, 0, 0, 1], [1, 1, 4, 3], [1, 1, 2, 2]),
        r"^Slice1Desc\.output\.dtype",
    ),
    (
        sd.Slice1Desc(X44, T([1, 2, 2]), [0, 0, 1], [1, 4, 3], [1, 2, 2]),
        r"^Slice1Desc\.output\.sizes: must have the same dimension count",
    ),
    (sd.Slice1Desc(X44, O22, [0, 0, 2**63 - 1, 1], [1, 1, 4, 3], [1, 1, -(2**63), 2]), r"^Slice1Desc\.offsets\[2\]"),
    # ---- Slice (v1)
    (
        sd.SliceDesc(X44, O22, [0, 0, 1, 0], [1, 1, 2, 2], [1, 1, 0, 3]),
        r"^SliceDesc\.strides\[2\]: stride must be at least 1, got 0$",
    ),
    (
        sd.SliceDesc(X44, O22, [0, 0, 1, 0], [1, 1, 2, 2], [1, 1, -1, 3]),
        r"^SliceDesc\.strides\[2\]: stride must be at least 1",
    ),
    (
        sd.SliceDesc(X44, O22, [0, 0, 1, -1], [1, 1, 2, 2], [1, 1, 1, 1]),
        r"^SliceDesc\.offsets\[3\]: offset must not be negative",
    ),
    (
        sd.SliceDesc(X44, O22, [0, 0, 1, 0], [1, 1, 2, 3], [1, 1, 1, 1]),
        r"^SliceDesc\.sizes\[3\]: must equal output\.sizes\[3\] \(2\), got 3$",
    ),
    (
        sd.SliceDesc(X44, O22, [0, 0, 4, 0], [1, 1, 2, 2], [1, 1, 1, 1]),
        r"^SliceDesc\.offsets\[2\]: offset 4 is outside",
    ),
    (
        sd.SliceDesc(X44, O22, [0, 0, 1, 0], [1, 1, 2, 2], [1, 1, 2, 4]),
        r"^SliceDesc\.sizes\[3\]: the slice reads past the input",
    ),
    (
        sd.SliceDesc(X44, O22, [0, 0, 1, 0], [1, 1, 2, 2], [1, 1, 2**62, 1]),
        r"^SliceDesc\.sizes\[2\]: the slice reads past",
    ),
    (
        sd.SliceDesc(X44, O22, [0, 0], [1, 1, 2, 2], [1, 1, 1, 1]),
        r"^SliceDesc\.offsets: must have one value per dimension",
    ),
    # ---- Scatter
    (
        sd.ScatterDesc(T([3, 3]), T([2, 3]), T([2, 3]), T([3, 3]), 0),
        r"^ScatterDesc\.indices\.dtype: indices must be INT32, INT64, UINT32 or UINT64, got FLOAT32$",
    ),
    (sd.ScatterDesc(T([3, 3]), T([2, 3], "int16"), T([2, 3]), T([3, 3]), 0), r"^ScatterDesc\.indices\.dtype"),
    (
        sd.ScatterDesc(T([3, 3]), U([2, 4]), T([2, 4]), T([3, 3]), 0),
        r"^ScatterDesc\.indices\.sizes\[1\]: must be at most input\.sizes\[1\] \(3\) off the axis \(0\), got 4$",
    ),
    (
        sd.ScatterDesc(T([3, 3]), U([2, 3]), T([3, 3]), T([3, 3]), 0),
        r"^ScatterDesc\.updates\.sizes\[0\]: must equal indices\.sizes\[0\] \(2\), got 3$",
    ),
    (
        sd.ScatterDesc(T([3, 3]), U([2, 3]), T([2, 3]), T([3, 2]), 0),
        r"^ScatterDesc\.output\.sizes\[1\]: must equal input\.sizes\[1\]",
    ),
    (
        sd.ScatterDesc(T([3, 3]), U([2, 3]), T([2, 3]), T([3, 3]), 2),
        r"^ScatterDesc\.axis: 2 is out of range for 2 dimensions$",
    ),
    (
        sd.ScatterDesc(T([3, 3]), U([2, 3]), T([2, 3], "int32"), T([3, 3]), 0),
        r"^ScatterDesc\.updates\.dtype: must equal input\.dtype",
    ),
    (sd.ScatterDesc(T([3, 3]), U([2, 3]), T([2, 3]), T([3, 3], "float16"), 0), r"^ScatterDesc\.output\.dtype"),
    (
        sd.ScatterDesc(T([3, 3]), U([3]), T([2, 3]), T([3, 3]), 0),
        r"^ScatterDesc\.indices\.sizes: must have the same dimension count",
    ),
    (sd.ScatterDesc(T([3, 3]), U([2, 3]), T([2, 3]), T([3, 3], strides=[1, 1]), 0), r"^ScatterDesc\.output\.strides"),
    # ---- GatherElements
    (
        sd.GatherElementsDesc(T([3, 3]), U([2, 4]), T([2, 4]), 0),
        r"^GatherElementsDesc\.indices\.sizes\[1\]: must be at most input\.sizes\[1\]",
    ),
    (
        sd.GatherElementsDesc(T([3, 3]), U([2, 3]), T([3, 3]), 0),
        r"^GatherElementsDesc\.output\.sizes\[0\]: must equal indices\.sizes\[0\] \(2\), got 3$",
    ),
    (
        sd.GatherElementsDesc(T([3, 3]), U([2, 3]), T([2, 3]), 5),
        r"^GatherElementsDesc\.axis: 5 is out of range for 2 dimensions$",
    ),
    (sd.GatherElementsDesc(T([3, 3]), T([2, 3], "float64"), T([2, 3]), 0), r"^GatherElementsDesc\.indices\.dtype"),
    (sd.GatherElementsDesc(T([3, 3]), U([2, 3]), T([2, 3], "int8"), 0), r"^GatherElementsDesc\.output\.dtype"),
    # ---- Gather
    (
        sd.GatherDesc(T([4]), U([5]), T([4]), 0, 1),
        r"^GatherDesc\.output\.sizes\[0\]: must be 5 \(expected sizes \{5\}\), got 4$",
    ),
    (sd.GatherDesc(T([4]), U([5]), T([5]), 0, 2), r"^GatherDesc\.index_dimensions: 2 is out of range: must be 0 to 1"),
    (sd.GatherDesc(T([4]), U([5]), T([5]), 0, -1), r"^GatherDesc\.index_dimensions: -1 is out of range"),
    (sd.GatherDesc(T([4]), U([5]), T([5]), 1, 1), r"^GatherDesc\.axis: 1 is out of range for 1 dimensions$"),
    (
        sd.GatherDesc(T([3, 4]), U([2, 5]), T([3, 5]), 1, 1),
        r"^GatherDesc\.indices\.sizes\[0\]: must be 1: only the last index_dimensions = 1",
    ),
    (
        sd.GatherDesc(T([2, 3, 4]), U([1, 2, 5]), T([3, 2, 5]), 2, 2),
        r"^GatherDesc\.output\.sizes: the expected sizes \{2,3,2,5\} need 4 dimensions but the tensor has 3$",
    ),
    (sd.GatherDesc(T([4]), U([5]), T([5], "int32"), 0, 1), r"^GatherDesc\.output\.dtype"),
    (sd.GatherDesc(T([4]), T([5], "uint8"), T([5]), 0, 1), r"^GatherDesc\.indices\.dtype"),
    # ---- GatherND
    (
        sd.GatherNDDesc(T([2, 2]), U([2, 3]), T([2, 2]), 2, 2),
        r"^GatherNDDesc\.indices\.sizes\[1\]: the index tuple size must be at most input_dimension_count - batch_dimension_count \(2\), got 3$",
    ),
    (
        sd.GatherNDDesc(T([2, 2]), U([2, 1]), T([2, 2]), 3, 2),
        r"^GatherNDDesc\.input_dimension_count: 3 is out of range: must be 1 to 2",
    ),
    (
        sd.GatherNDDesc(T([2, 2]), U([2, 1]), T([2, 2]), 0, 2),
        r"^GatherNDDesc\.input_dimension_count: 0 is out of range",
    ),
    (
        sd.GatherNDDesc(T([2, 2]), U([2, 1]), T([2, 2]), 2, 3),
        r"^GatherNDDesc\.indices_dimension_count: 3 is out of range",
    ),
    (
        sd.GatherNDDesc(T([2, 2]), U([2, 1]), T([2, 2]), 2, 2, 2),
        r"^GatherNDDesc\.batch_dimension_count: must be less than input_dimension_count \(2\), got 2$",
    ),
    (
        sd.GatherNDDesc(T([2, 2]), U([2, 1]), T([2, 2]), 2, 1, 1),
        r"^GatherNDDesc\.batch_dimension_count: must be less than indices_dimension_count \(1\)",
    ),
    (
        sd.GatherNDDesc(T([2, 2]), U([2, 1]), T([2, 2]), 2, 2, -1),
        r"^GatherNDDesc\.batch_dimension_count: must not be negative",
    ),
    (
        sd.GatherNDDesc(T([2, 2]), U([2, 1]), T([2, 2]), 1, 2),
        r"^GatherNDDesc\.input\.sizes\[0\]: must be 1: only the last input_dimension_count = 1",
    ),
    (sd.GatherNDDesc(T([2, 2]), U([2, 1]), T([2, 3]), 2, 2), r"^GatherNDDesc\.output\.sizes\[1\]: must be 2"),
    (
        sd.GatherNDDesc(T([1, 3, 2, 2]), U([1, 4, 2, 2]), T([1, 1, 4, 2]), 3, 3, 1),
        r"^GatherNDDesc\.indices\.sizes\[1\]: batch dimension 0 must equal input\.sizes\[1\] \(3\), got 4$",
    ),
    (
        sd.GatherNDDesc(T([1, 3, 2, 2]), U([1, 3, 2, 3]), T([1, 1, 3, 2]), 3, 3, 1),
        r"^GatherNDDesc\.indices\.sizes\[3\]: the index tuple size must be at most",
    ),
    (sd.GatherNDDesc(T([2, 2]), T([2, 1], "float32"), T([2, 2]), 2, 2), r"^GatherNDDesc\.indices\.dtype"),
    (sd.GatherNDDesc(T([2, 2]), U([2, 1]), T([2, 2], "int32"), 2, 2), r"^GatherNDDesc\.output\.dtype"),
    # ---- ScatterND
    (
        sd.ScatterNDDesc(T([1, 8]), U([4, 1]), T([1, 5]), T([1, 8]), 1, 2),
        r"^ScatterNDDesc\.updates\.sizes\[1\]: must be 4 \(expected sizes \{1,4\}\), got 5$",
    ),
    (
        sd.ScatterNDDesc(T([1, 8]), U([4, 1]), T([1, 4]), T([1, 7]), 1, 2),
        r"^ScatterNDDesc\.output\.sizes\[1\]: must equal input\.sizes\[1\]",
    ),
    (
        sd.ScatterNDDesc(T([1, 8]), U([4, 2]), T([1, 4]), T([1, 8]), 1, 2),
        r"^ScatterNDDesc\.indices\.sizes\[1\]: the index tuple size",
    ),
    (sd.ScatterNDDesc(T([1, 8]), U([4, 1]), T([1, 4], "int32"), T([1, 8]), 1, 2), r"^ScatterNDDesc\.updates\.dtype"),
    (sd.ScatterNDDesc(T([1, 8]), U([4, 1]), T([1, 4]), T([1, 8]), 1, 0), r"^ScatterNDDesc\.indices_dimension_count"),
    (sd.ScatterNDDesc(T([1, 8]), U([4, 1]), T([1, 4]), T([1, 8]), 1, 2, reduction="add"), None),  # valid
]


@pytest.mark.parametrize(
    "desc, pattern", RULES, ids=lambda x: type(x).__name__ if not isinstance(x, (str, type(None))) else ""
)
def test_rule(desc, pattern) -> None:
    if pattern is None:
        desc.validate()
        return
    fails(desc, pattern)
    # The same structural reason at every DirectML level, and from min_feature_level.
    fails(desc, pattern, "6_4")
    fails(desc, pattern, "1_0")
    with pytest.raises(sd.ValidationError, match=pattern):
        desc.min_feature_level
    assert not desc.is_valid_at("4_1")


def test_output_alias_rule_accepts_layouts() -> None:
    for strides in ([3, 1], [1, 2], [5, 1], [1, 4], [4, 1]):
        sd.IdentityDesc(A, T([2, 3], strides=strides)).validate()
    sd.IdentityDesc(T([1, 3]), T([1, 3], strides=[0, 1])).validate()  # size-1 dims may have stride 0
    sd.IdentityDesc(T([2, 3, 2]), T([2, 3, 2], strides=sd.packed_strides([2, 3, 2], [2, 0, 1]))).validate()
    fails(sd.IdentityDesc(T([2, 3, 2]), T([2, 3, 2], strides=[6, 1, 2])), r"output\.strides\[\d\]: stride \d overlaps")


# ================================================================ the feature-level table
ALL = set(DT)
EIGHT = ALL - {DT.FLOAT64, DT.UINT64, DT.INT64}
SIX = {DT.FLOAT32, DT.FLOAT16, DT.INT32, DT.INT16, DT.UINT32, DT.UINT16}
F32_16 = {DT.FLOAT32, DT.FLOAT16}
D18, D45, D4 = set(range(1, 9)), {4, 5}, {4}

# SPEC.md section 4, column by column: 1_0, 2_0, 2_1, 3_0, 3_1 (also 4_0), 4_1 (and later).
TABLE = {
    "identity": [(D45, F32_16), (D45, F32_16), (D45, EIGHT), (D18, EIGHT), (D18, EIGHT), (D18, ALL)],
    "split": [(D4, SIX), (D4, SIX), (D4, EIGHT), (D18, EIGHT), (D18, EIGHT), (D18, ALL)],
    "join": [(D4, SIX), (D4, SIX), (D4, EIGHT), (D45, EIGHT), (D18, EIGHT), (D18, ALL)],
    "slice": [(D45, SIX), (D45, SIX), (D45, EIGHT), (D18, EIGHT), (D18, EIGHT), (D18, ALL)],
    "slice1": [None, None, (D45, EIGHT), (D18, EIGHT), (D18, EIGHT), (D18, ALL)],
    "scatter": [None, (D4, F32_16), (D4, EIGHT), (D18, EIGHT), (D18, EIGHT), (D18, ALL)],
    "gather": [(D4, F32_16), (D4, F32_16), (D4, EIGHT), (D18, EIGHT), (D18, EIGHT), (D18, ALL)],
    "gather_elements": [None, None, (D4, EIGHT), (D18, EIGHT), (D18, EIGHT), (D18, ALL)],
    "gather_nd": [None, None, (D4, EIGHT), (D18, EIGHT), (D18, EIGHT), (D18, ALL)],
    "scatter_nd": [None, None, (D4, EIGHT), (D18, EIGHT), (D18, EIGHT), (D18, ALL)],
    "gather_nd1": [None, None, None, (D18, EIGHT), (D18, EIGHT), (D18, ALL)],
}
LEVELS = list(FL)


def column(level: FL) -> int:
    order = [FL.FL_1_0, FL.FL_2_0, FL.FL_2_1, FL.FL_3_0, FL.FL_3_1, FL.FL_4_1]
    return max(i for i, lv in enumerate(order) if level >= lv)


def expected_valid(op: str, level: FL, n: int, dtype: DT, index_dtype: DT = DT.UINT32) -> bool:
    cell = TABLE[op][column(level)]
    if cell is None:
        return False
    dims, types = cell
    if op in ("identity", "split", "join", "slice", "slice1"):
        index_ok = True
    else:
        index_ok = index_dtype == DT.UINT32 or level >= FL.FL_3_0
    return n in dims and dtype in types and index_ok


def make(op: str, n: int, dt: DT, it: DT = DT.UINT32):
    """A description valid at level None with n dimensions, data type dt and index type it."""
    one = [1] * (n - 1)
    t = lambda last, d=dt: T(one + [last], d)  # noqa: E731
    i = lambda last: T(one + [last], it)  # noqa: E731
    if op == "identity":
        return sd.IdentityDesc(t(3), t(3))
    if op == "split":
        return sd.SplitDesc(t(4), [t(1), t(3)], n - 1)
    if op == "join":
        return sd.JoinDesc([t(1), t(3)], t(4), n - 1)
    if op == "slice":
        return sd.SliceDesc(t(4), t(2), [0] * n, one + [2], [1] * (n - 1) + [2])
    if op == "slice1":
        return sd.Slice1Desc(t(4), t(2), [0] * n, one + [4], [1] * (n - 1) + [-2])
    if op == "scatter":
        return sd.ScatterDesc(t(3), i(2), t(2), t(3), n - 1)
    if op == "gather":
        return sd.GatherDesc(t(3), i(2), t(2), n - 1, 1)
    if op == "gather_elements":
        return sd.GatherElementsDesc(t(3), i(2), t(2), n - 1)
    if op == "gather_nd":
        return sd.GatherNDDesc(t(3), i(1), t(1), 1, 1)
    if op == "scatter_nd":
        return sd.ScatterNDDesc(t(3), i(1), t(1), t(3), 1, 1)
    if op == "gather_nd1":
        two = [1] * (n - 2)
        return sd.GatherNDDesc(T(two + [2, 3], dt), T(two + [2, 1], it), T(one + [2], dt), 2, 2, 1)
    raise AssertionError(op)


@pytest.mark.parametrize("op", list(TABLE))
def test_feature_level_table(op: str) -> None:
    for n in range(2 if op == "gather_nd1" else 1, 9):
        for dt in DT:
            d = make(op, n, dt)
            d.validate()  # every combination executes in strided
            got = [d.is_valid_at(lv) for lv in LEVELS]
            want = [expected_valid(op, lv, n, dt) for lv in LEVELS]
            assert got == want, (op, n, dt.name, [lv.name for lv, g, w in zip(LEVELS, got, want) if g != w])
            lowest = next(lv for lv, ok in zip(LEVELS, want) if ok)  # 4_1 accepts everything here
            assert d.min_feature_level == lowest, (op, n, dt.name)


@pytest.mark.parametrize("op", ["scatter", "gather", "gather_elements", "gather_nd", "scatter_nd", "gather_nd1"])
@pytest.mark.parametrize("it", [DT.INT32, DT.INT64, DT.UINT64, DT.UINT32])
def test_index_types_by_level(op: str, it: DT) -> None:
    d = make(op, 4, DT.FLOAT32, it)
    for lv in LEVELS:
        assert d.is_valid_at(lv) == expected_valid(op, lv, 4, DT.FLOAT32, it), (op, it.name, lv.name)
    if it != DT.UINT32 and op != "gather_nd1":
        fails(d, rf"\.indices\.dtype: {it.name} indices need feature level 3_0 \(validating at 2_1\)$", "2_1")


@pytest.mark.parametrize(
    "d, level, pattern",
    [
        (
            make("identity", 3, DT.FLOAT32),
            "2_1",
            r"^IdentityDesc\.input\.sizes: 3 dimensions need feature level 3_0 \(validating at 2_1\)$",
        ),
        (
            make("join", 3, DT.FLOAT32),
            "3_0",
            r"^JoinDesc\.inputs\[0\]\.sizes: 3 dimensions need feature level 3_1 \(validating at 3_0\)$",
        ),
        (
            make("split", 4, DT.INT8),
            "1_0",
            r"^SplitDesc\.input\.dtype: INT8 needs feature level 2_1 \(validating at 1_0\)$",
        ),
        (
            make("gather", 4, DT.INT64),
            "3_0",
            r"^GatherDesc\.input\.dtype: INT64 needs feature level 4_1 \(validating at 3_0\)$",
        ),
        (
            make("scatter", 4, DT.FLOAT32),
            "1_0",
            r"^ScatterDesc: the operator needs feature level 2_0 \(validating at 1_0\)$",
        ),
        (
            make("gather_nd1", 4, DT.FLOAT32),
            "2_1",
            r"^GatherNDDesc\.batch_dimension_count: batch dimensions \(GATHER_ND1\) need feature level 3_0",
        ),
        (make("slice1", 4, DT.FLOAT32), "2_0", r"^Slice1Desc: the operator needs feature level 2_1"),
        (
            sd.Slice1Desc(T([8]), T([1]), [0], [8], [2**40]),
            "4_1",
            r"^Slice1Desc\.strides\[0\]: 1099511627776 does not fit DirectML's INT",
        ),
        (
            sd.SliceDesc(T([8]), T([1]), [0], [1], [2**40]),
            "4_1",
            r"^SliceDesc\.strides\[0\]: 1099511627776 does not fit DirectML's UINT",
        ),
        (
            sd.IdentityDesc(T([2], strides=[2**33]), T([2])),
            "4_1",
            r"^IdentityDesc\.input\.strides\[0\]: stride 8589934592 does not fit DirectML's UINT",
        ),
    ],
)
def test_level_messages(d, level, pattern) -> None:
    d.validate()
    fails(d, pattern, level)


def test_large_tensors_execute_but_no_level_accepts_them() -> None:
    big_in = T([2**33], "uint8", strides=[0])
    d = sd.IdentityDesc(big_in, T([2**33], "uint8"))
    d.validate()
    for lv in LEVELS:
        assert not d.is_valid_at(lv)
    with pytest.raises(
        sd.ValidationError,
        match=r"^IdentityDesc\.input\.sizes: 8589934592 elements exceed DirectML's limit of 4294967295",
    ):
        d.min_feature_level
    ok = sd.IdentityDesc(T([2**32 - 1], "uint8", strides=[0]), T([2**32 - 1], "uint8"))  # exactly the limit
    assert ok.min_feature_level == FL.FL_3_0


def test_reductions_are_strided_extensions() -> None:
    for red in ("add", "mul", "min", "max"):
        for d in (
            sd.ScatterDesc(X44, U([1, 1, 2, 4]), T([1, 1, 2, 4]), X44, 2, reduction=red),
            sd.ScatterNDDesc(T([1, 8]), U([4, 1]), T([1, 4]), T([1, 8]), 1, 2, reduction=red),
        ):
            d.validate()
            assert not any(d.is_valid_at(lv) for lv in LEVELS)
            with pytest.raises(
                sd.ValidationError,
                match=rf"\.reduction: {red.upper()} is a strided extension.*no DirectML feature level",
            ):
                d.min_feature_level


# ================================================================ random descriptions
small = st.integers(1, 4)
weird = st.one_of(st.integers(-3, 6), st.sampled_from([2**31, 2**32, 2**62, 2**63 - 1, -(2**63)]))


@st.composite
def tensors(draw, ndim=None):
    n = draw(st.integers(1, 5)) if ndim is None else ndim
    sizes = draw(st.lists(small, min_size=n, max_size=n))
    dtype = draw(st.sampled_from([DT.FLOAT32, DT.UINT32, DT.INT64, DT.INT32, DT.FLOAT16, DT.UINT8]))
    strides = draw(st.none() | st.lists(st.integers(0, 8), min_size=n, max_size=n))
    return T(sizes, dtype, strides)


vec = st.lists(weird, max_size=5)


@st.composite
def descs(draw):
    t = tensors()
    kind = draw(st.integers(0, 9))
    red = draw(st.sampled_from(["none", "add", "max"]))
    if kind == 0:
        return sd.IdentityDesc(draw(t), draw(t))
    if kind == 1:
        return sd.SplitDesc(draw(t), draw(st.lists(t, max_size=3)), draw(weird))
    if kind == 2:
        return sd.JoinDesc(draw(st.lists(t, max_size=3)), draw(t), draw(weird))
    if kind == 3:
        return sd.SliceDesc(draw(t), draw(t), draw(vec), draw(vec), draw(vec))
    if kind == 4:
        return sd.Slice1Desc(draw(t), draw(t), draw(vec), draw(vec), draw(vec))
    if kind == 5:
        return sd.GatherDesc(draw(t), draw(t), draw(t), draw(weird), draw(weird))
    if kind == 6:
        return sd.GatherElementsDesc(draw(t), draw(t), draw(t), draw(weird))
    if kind == 7:
        return sd.GatherNDDesc(draw(t), draw(t), draw(t), draw(weird), draw(weird), draw(weird))
    if kind == 8:
        return sd.ScatterDesc(draw(t), draw(t), draw(t), draw(t), draw(weird), reduction=red)
    return sd.ScatterNDDesc(draw(t), draw(t), draw(t), draw(t), draw(weird), draw(weird), reduction=red)


@settings(max_examples=400, deadline=None)
@given(d=descs(), level=st.sampled_from([None, *LEVELS]))
def test_random_descriptions_pass_or_raise(d, level) -> None:
    name = type(d).__name__
    try:
        d.validate(level)
        valid = True
    except sd.ValidationError as e:
        assert re.match(rf"^{name}[.:]", str(e)), str(e)
        valid = False
    if level is not None:
        assert d.is_valid_at(level) == valid
    try:
        lowest = d.min_feature_level
        assert d.is_valid_at(lowest)
        assert not any(d.is_valid_at(lv) for lv in LEVELS if lv < lowest)
    except sd.ValidationError as e:
        assert re.match(rf"^{name}[.:]", str(e)), str(e)
        assert not any(d.is_valid_at(lv) for lv in LEVELS)


# Valid Slice1 windows drawn at random must pass; breaking one rule must fail on that field.
@st.composite
def slice1_case(draw):
    n = draw(st.integers(1, 5))
    ins, offs, sizes, strides, outs = [], [], [], [], []
    for _ in range(n):
        size_in = draw(st.integers(1, 9))
        off = draw(st.integers(0, size_in - 1))
        win = draw(st.integers(1, size_in - off))
        stride = draw(st.integers(1, 4)) * draw(st.sampled_from([1, -1]))
        out = draw(st.integers(1, 1 + (win - 1) // abs(stride)))
        ins.append(size_in), offs.append(off), sizes.append(win), strides.append(stride), outs.append(out)
    return ins, offs, sizes, strides, outs, draw(st.integers(0, n - 1)), draw(st.integers(0, 3))


@settings(max_examples=200, deadline=None)
@given(case=slice1_case())
def test_slice1_random_windows(case) -> None:
    ins, offs, sizes, strides, outs, i, how = case
    sd.Slice1Desc(T(ins), T(outs), offs, sizes, strides).validate()
    if how == 0:
        strides[i] = 0
        field = rf"strides\[{i}\]"
    elif how == 1:
        offs[i] = ins[i] - sizes[i] + 1
        field = rf"offsets\[{i}\]"
    elif how == 2:
        outs[i] = 1 + (sizes[i] - 1) // abs(strides[i]) + 1
        field = rf"output\.sizes\[{i}\]"
    else:
        sizes[i] = 0
        field = rf"sizes\[{i}\]"
    fails(sd.Slice1Desc(T(ins), T(outs), offs, sizes, strides), rf"^Slice1Desc\.{field}: ")


@settings(max_examples=150, deadline=None)
@given(
    parts=st.lists(st.integers(1, 5), min_size=1, max_size=4),
    rest=st.lists(st.integers(1, 3), min_size=0, max_size=3),
    data=st.data(),
)
def test_split_join_random(parts, rest, data) -> None:
    n = len(rest) + 1
    axis = data.draw(st.integers(0, n - 1))
    shape = lambda k: rest[:axis] + [k] + rest[axis:]  # noqa: E731
    whole, pieces = T(shape(sum(parts))), [T(shape(p)) for p in parts]
    sd.SplitDesc(whole, pieces, axis).validate()
    sd.JoinDesc(pieces, whole, axis).validate()
    wrong = T(shape(sum(parts) + 1))
    fails(sd.SplitDesc(wrong, pieces, axis), rf"^SplitDesc\.outputs: sizes along axis {axis} sum to {sum(parts)}")
    fails(sd.JoinDesc(pieces, wrong, axis), rf"^JoinDesc\.inputs: sizes along axis {axis} sum to {sum(parts)}")
