"""Every public callable of `strided` has a signature that inspect.signature and help() show
plainly (issue 15, item 4): no pybind11 type noise ("arg0", "object", "pybind11")."""

from __future__ import annotations

import enum
import inspect
import pydoc

import pytest

import strided as sd

PUBLIC = [
    n
    for n in sd.__all__
    if callable(getattr(sd, n))
    and not isinstance(getattr(sd, n), enum.EnumMeta)
    and not (isinstance(getattr(sd, n), type) and issubclass(getattr(sd, n), Exception))
    and n != "CompiledOperator"  # made by compile(), no constructor
]


@pytest.mark.parametrize("name", PUBLIC)
def test_signature_and_help_are_plain(name: str) -> None:
    obj = getattr(sd, name)
    sig = inspect.signature(obj)  # raises ValueError for a builtin without a text signature
    assert "arg0" not in str(sig)
    # A class's help lists every method; its constructor's is the part a caller reads.
    text = pydoc.render_doc(obj.__init__ if isinstance(obj, type) else obj, renderer=pydoc.plaintext)
    assert "arg0" not in text and "pybind11" not in text and "-> object" not in text, text[:400]


def test_description_signatures_follow_the_fields() -> None:
    assert str(inspect.signature(sd.ScatterDesc)) == "(input, indices, updates, output, axis, *, reduction='none')"
    assert str(inspect.signature(sd.FillValueConstantDesc)) == "(output, value)"
    assert (
        str(inspect.signature(sd.TensorDesc))
        == "(dtype, sizes, strides=None, *, total_bytes=None, alignment=0, flags=0)"
    )
    assert str(inspect.signature(sd.CompiledOperator.execute)) == "(self, inputs, outputs)"
    assert str(inspect.signature(sd.join)) == "(arrays, axis=0, out=None)"
