"""strided.xla: XLA shapes and layouts (SPEC.md section 5), over the C++ library.

A ``Shape`` is an element type, dimensions and a ``Layout`` (``minor_to_major``, optional
``padded_dimensions``, ``padding_value``). The index functions are padding-aware: a linear index
is an element offset in the physical buffer. ``to_physical`` / ``from_physical`` / ``relayout``
move data through strided's copy engine (releasing the GIL), filling padding with the padding
value (ZERO 0, ONE 1, LOWEST -inf or the minimum, HIGHEST +inf or the maximum; PRED 0/1).
Tiled layouts (SPEC 5.1: ``Layout(..., tiles=[(8, 128)])``, text ``f32[3,5]{1,0:T(2,2)}``) hold
the padding value in partial tiles; ``from_physical`` of a tiled buffer returns a copy, and a
linear index in a partial tile's padding is an ``IndexError``.

>>> from strided import xla
>>> s = xla.Shape("f32", [10, 20], xla.Layout([0, 1]))
>>> xla.multidimensional_index_to_linear_index(s, (3, 5))
53
"""

from __future__ import annotations

from . import _core

_x = _core.xla

PrimitiveType = _x.PrimitiveType
PaddingValue = _x.PaddingValue
Layout = _x.Layout
Shape = _x.Shape
make_shape = _x.make_shape
make_shape_with_layout = _x.make_shape_with_layout
default_layout = _x.default_layout
make_layout_from_major_to_minor = _x.make_layout_from_major_to_minor
multidimensional_index_to_linear_index = _x.multidimensional_index_to_linear_index
linear_index_to_multidimensional_index = _x.linear_index_to_multidimensional_index
bump_indices = _x.bump_indices
dimension_stride = _x.dimension_stride
to_physical = _x.to_physical
from_physical = _x.from_physical
relayout = _x.relayout
numpy_dtype = _x.numpy_dtype

for _obj in (Layout, Shape):
    _obj.__module__ = __name__


# setattr: the stub (_core/xla.pyi) declares parse() on both enums already.
setattr(PrimitiveType, "parse", classmethod(lambda cls, v: _x._to_primitive_type(v)))
setattr(PaddingValue, "parse", classmethod(lambda cls, v: _x._to_padding_value(v)))

__all__ = [
    "Layout",
    "PaddingValue",
    "PrimitiveType",
    "Shape",
    "bump_indices",
    "default_layout",
    "dimension_stride",
    "from_physical",
    "linear_index_to_multidimensional_index",
    "make_layout_from_major_to_minor",
    "make_shape",
    "make_shape_with_layout",
    "multidimensional_index_to_linear_index",
    "numpy_dtype",
    "relayout",
    "to_physical",
]
