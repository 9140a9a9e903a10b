"""Writes the description classes of python/strided/_core/__init__.pyi from the compiled module's
operator list (_core._op_codes, _core._desc_fields), between the `generated` markers. Run after
adding an operator; tests/test_registry.py fails while the stub file is not current.

    PYTHONPATH=build/dev/python python scripts/gen_stubs.py [--check]
"""

from __future__ import annotations

import enum
import pathlib
import sys

from strided import _core

STUB = pathlib.Path(__file__).resolve().parents[1] / "python/strided/_core/__init__.pyi"
BEGIN = "# ---- generated from the operator list by scripts/gen_stubs.py: do not edit by hand ----\n"
END = "# ---- end of the generated descriptions ----\n"
PARAM = {
    "tensor": "TensorDesc",
    "tensors": "Sequence[TensorDesc]",
    "int": "SupportsIndex",
    "ints": "_Ints",
    "str": "str",
    "scalar": "Scalar | float",
    "order": "_OrderLike",
    "mode": "_ModeLike",
    "tensor?": "Optional[TensorDesc]",
}
PROP = {
    "tensor": "TensorDesc",
    "tensors": "Tuple[TensorDesc, ...]",
    "int": "int",
    "ints": "Tuple[int, ...]",
    "str": "str",
    "scalar": "Scalar",
    "order": "DepthSpaceOrder",
    "mode": "PaddingMode",
    "tensor?": "Optional[TensorDesc]",
}


def cls(name: str) -> str:
    params, props, kw = ["self"], [], False
    for field, kind, use, default in _core._desc_fields[name]:
        if use == "keyword" and not kw:
            params.append("*")
            kw = True
        p = f"{field}: {PARAM[kind]}"
        if isinstance(default, enum.Enum):  # a member, by its name: DepthSpaceOrder.DEPTH_COLUMN_ROW
            p += f" = {type(default).__name__}.{default.name}"
        elif use != "required":
            p += f" = {default!r}".replace("'", '"')
        params.append(p)
        props.append(f"    @property\n    def {field}(self) -> {PROP[kind]}: ...\n")
    one = f"    def __init__({', '.join(params)}) -> None: ..."
    if len(one) <= 120:
        init = one + "\n"
    else:  # ruff's layout: one parameter per line, trailing comma
        init = "    def __init__(\n" + "".join(f"        {p},\n" for p in params) + "    ) -> None: ...\n"
    text = f"class {name}(_Desc):\n{init}{''.join(props)}"
    alias = getattr(getattr(_core, name), "_alias", None)
    if alias:
        text += f"\n{alias} = {name}\n"
    return text


def generated() -> str:
    names = sorted(_core._op_codes, key=_core._op_codes.get)
    body = "\n".join(cls(n) for n in names)
    union = "".join(f"    {n},\n" for n in names)
    return f"{BEGIN}\n{body}\n_AnyDesc: TypeAlias = Union[\n{union}]\n\n{END}"


def main() -> None:
    text = STUB.read_text()
    a, b = text.index(BEGIN), text.index(END) + len(END)
    new = text[:a] + generated() + text[b:]
    if "--check" in sys.argv:
        sys.exit(0 if new == text else "python/strided/_core/__init__.pyi is not current: run scripts/gen_stubs.py")
    STUB.write_text(new)


if __name__ == "__main__":
    main()
