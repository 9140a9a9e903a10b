"""The copy operators on arrays: copy, split, join, slice.

They live in the C++ core (csrc/python/register_functional.cpp) so that a call on a tiny array
costs about what numpy's own copy does: argument checks, output allocation and the cached plan
(keyed by operator, shapes, strides and dtype) never go back to Python, and the copy itself runs
without the GIL.
"""

from __future__ import annotations

from ._core import copy, join, slice, split

__all__ = ["copy", "join", "slice", "split"]
