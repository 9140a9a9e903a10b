"""strided: a fast CPU engine for tensor data movement.

DirectML's buffer-tensor model (sizes + strides) and its data-movement operators, validated
against DirectML's rules and feature levels, plus XLA shapes and layouts. See README.md.
"""

from __future__ import annotations

from . import _core
from ._core import (
    CompiledOperator,
    DataType,
    DepthSpaceOrder,
    FeatureLevel,
    PaddingMode,
    Scalar,
    TensorDesc,
    ValidationError,
    build_info,
    calc_buffer_tensor_size,
    compile,
    get_num_threads,
    packed_strides,
    set_num_threads,
)

# The operator descriptions: classes generated in C++ from the operator list (strided/ops.hpp);
# each has read-only fields named after DirectML's in snake case, validate(feature_level=None),
# is_valid_at(level), the min_feature_level property, __repr__ and __eq__.
from ._core import (
    CastDesc,
    DepthToSpaceDesc,
    DiagonalMatrixDesc,
    FillValueConstantDesc,
    FillValueSequenceDesc,
    GatherDesc,
    GatherElementsDesc,
    GatherNDDesc,
    IdentityDesc,
    JoinDesc,
    MaxUnpoolingDesc,
    PaddingDesc,
    NonzeroCoordinatesDesc,
    OneHotDesc,
    ReverseSubsequencesDesc,
    ScatterDesc,
    ScatterElementsDesc,
    ScatterNDDesc,
    Slice1Desc,
    SliceDesc,
    SliceGradDesc,
    SpaceToDepthDesc,
    SplitDesc,
    TileDesc,
    UnfoldDesc,
)
from ._types import install_enum_helpers as _install_enum_helpers
from ._functional import cast, copy, depth_to_space, join, pad, slice, space_to_depth, split, tile
from ._conveniences import argwhere, broadcast_to, center_crop_pad, compress, concat, flip, permute_dims
from ._generate import arange, diagonal_fill, eye, eye_like, fill_sequence, full, tril, trilu, triu
from ._grad import one_hot, reverse_subsequences, slice_grad
from ._index import gather, gather_elements, gather_nd, scatter, scatter_nd
from ._pooling import max_unpool, unfold
from . import xla
from ._layout import attach as _attach_layout, plot_layout

_install_enum_helpers()
_attach_layout()  # TensorDesc.describe and xla.Shape.describe

__version__: str = _core.version()


def cmake_dir() -> str:
    """Folder of the C++ package (strided-config.cmake) shipped in this installation."""
    from ._cmake import cmake_dir as _cmake_dir

    return _cmake_dir()


__all__ = [
    "CastDesc",
    "CompiledOperator",
    "DataType",
    "DepthSpaceOrder",
    "DepthToSpaceDesc",
    "DiagonalMatrixDesc",
    "FeatureLevel",
    "FillValueConstantDesc",
    "FillValueSequenceDesc",
    "GatherDesc",
    "GatherElementsDesc",
    "GatherNDDesc",
    "IdentityDesc",
    "JoinDesc",
    "MaxUnpoolingDesc",
    "PaddingDesc",
    "PaddingMode",
    "NonzeroCoordinatesDesc",
    "OneHotDesc",
    "ReverseSubsequencesDesc",
    "ScatterDesc",
    "ScatterElementsDesc",
    "ScatterNDDesc",
    "Scalar",
    "Slice1Desc",
    "SliceDesc",
    "SliceGradDesc",
    "SpaceToDepthDesc",
    "SplitDesc",
    "TensorDesc",
    "TileDesc",
    "UnfoldDesc",
    "ValidationError",
    "argwhere",
    "broadcast_to",
    "arange",
    "build_info",
    "calc_buffer_tensor_size",
    "cast",
    "center_crop_pad",
    "cmake_dir",
    "compile",
    "compress",
    "concat",
    "copy",
    "depth_to_space",
    "flip",
    "diagonal_fill",
    "eye",
    "eye_like",
    "fill_sequence",
    "full",
    "gather",
    "gather_elements",
    "gather_nd",
    "get_num_threads",
    "join",
    "max_unpool",
    "pad",
    "one_hot",
    "packed_strides",
    "permute_dims",
    "plot_layout",
    "reverse_subsequences",
    "scatter",
    "scatter_nd",
    "set_num_threads",
    "slice",
    "slice_grad",
    "space_to_depth",
    "split",
    "tile",
    "unfold",
    "tril",
    "trilu",
    "triu",
    "xla",
    "__version__",
]
