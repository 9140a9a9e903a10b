"""Seeing a layout: the memory map of a tensor description or an XLA shape.

The vendors draw a layout as a row of buffer offsets over a row of what is stored there
(DirectML's "Offset / Value" tables, XLA's ``a d 0 b e 0 c f 0 ...``). ``describe`` and
``describe_shape`` print exactly that, with the logical coordinates (or caller-given values)
stored at each offset; ``plot_layout`` draws the same map with matplotlib.

Marks: padding (offsets inside the buffer that hold no element) is ``x`` for a TensorDesc and the
padding value for an XLA shape (``0``, ``1``, ``lo``, ``hi``, ``?``); a broadcast dimension
(stride 0: every index of it reads the same element) shows as ``*`` in the coordinates; several
coordinates sharing one element (overlapping strides) are joined with ``/``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import _core

__all__ = ["Cell", "MemoryMap", "attach", "describe", "describe_shape", "memory_map", "plot_layout",
           "shape_memory_map"]

#: Cells drawn by default; the rest of a long buffer is summarised in one line.
DEFAULT_MAX_CELLS = 64
# Coordinates visited while looking for what lies in the first cells (guards pathological
# overlapping strides, where many coordinates share few offsets).
_VISIT_BUDGET = 200_000
_PAD_MARKS = {"ZERO_PAD": "0", "ONE_PAD": "1", "LOWEST_PAD": "lo", "HIGHEST_PAD": "hi", "UNKNOWN_PAD": "?"}


@dataclass(frozen=True)
class Cell:
    """One element-sized slot of the buffer.

    ``kind`` is ``"element"`` (one coordinate), ``"broadcast"`` (read by every index of a
    stride-0 dimension), ``"overlap"`` (several coordinates share it) or ``"padding"``.
    """

    offset: int
    label: str
    kind: str
    coords: Tuple[Tuple[Optional[int], ...], ...] = ()


@dataclass(frozen=True)
class MemoryMap:
    """The first cells of a buffer, in offset order, plus what the drawing needs to say."""

    title: str
    cells: List[Cell]
    buffer_elements: int
    pad_mark: str
    pad_meaning: str
    notes: List[str] = field(default_factory=list)

    @property
    def truncated(self) -> int:
        """Cells of the buffer not shown."""
        return self.buffer_elements - len(self.cells)


def _coord_text(c: Sequence[Optional[int]]) -> str:
    return "(" + ",".join("*" if v is None else str(v) for v in c) + ")"


def _values_grid(values: Any, sizes: Sequence[int]) -> Optional[np.ndarray]:
    """``values`` as an array of the logical shape: an array of that shape, or a flat sequence of
    one label per element in row-major order (a string gives one character each: "ABCDEF")."""
    if values is None:
        return None
    shape = tuple(sizes)
    count = int(np.prod(shape)) if shape else 1
    vals = np.asarray(list(values) if isinstance(values, str) else values)
    if vals.shape == shape:
        return vals
    if vals.ndim == 1 and vals.size == count:
        return vals.reshape(shape)
    raise ValueError(f"values: shape {vals.shape} must equal the tensor's sizes {shape}, or be a flat "
                     f"sequence (or string) of {count} labels in row-major order")


def _build_map(
    sizes: Sequence[int],
    strides: Sequence[int],
    buffer_elements: int,
    values: Any,
    max_cells: int,
    pad_mark: str,
) -> Tuple[List[Cell], List[str]]:
    """Offsets 0..min(buffer, max_cells)-1 and the coordinates that live at each."""
    max_cells = _core._to_int(max_cells, "max_cells")
    if max_cells < 1:
        raise ValueError(f"max_cells: must be at least 1, got {max_cells}")
    n = len(sizes)
    vals = _values_grid(values, sizes)
    limit = min(buffer_elements, max_cells)
    # A stride-0 dimension of size > 1 is drawn as '*' rather than enumerated.
    bcast = [sizes[d] > 1 and strides[d] == 0 for d in range(n)]
    found: Dict[int, List[Tuple[Optional[int], ...]]] = {}
    notes: List[str] = []
    coord: List[Optional[int]] = [None if b else 0 for b in bcast]
    visited = 0

    def walk(d: int, off: int) -> bool:
        nonlocal visited
        if d == n:
            found.setdefault(off, []).append(tuple(coord))
            return True
        if bcast[d]:
            return walk(d + 1, off)
        for i in range(sizes[d]):
            o = off + i * strides[d]
            if o >= limit:
                break  # strides are non-negative: later indices lie further on
            visited += 1
            if visited > _VISIT_BUDGET:
                return False
            coord[d] = i
            if not walk(d + 1, o):
                return False
        coord[d] = 0
        return True

    if not walk(0, 0):
        notes.append("(too many overlapping coordinates to list them all)")
    cells: List[Cell] = []
    for off in range(limit):
        cs = found.get(off)
        if not cs:
            cells.append(Cell(off, pad_mark, "padding"))
            continue
        if vals is not None:
            # A broadcast cell is labelled by index 0 of its broadcast dimensions.
            texts = [str(vals[tuple(0 if v is None else v for v in c)]) for c in cs]
        else:
            texts = [_coord_text(c) for c in cs]
        if len(cs) > 1:
            kind = "overlap"
        elif any(v is None for v in cs[0]):
            kind = "broadcast"
        else:
            kind = "element"
        cells.append(Cell(off, "/".join(texts), kind, tuple(cs)))
    return cells, notes


def memory_map(desc: Any, values: Any = None, *, max_cells: int = DEFAULT_MAX_CELLS) -> MemoryMap:
    """The memory map of a ``TensorDesc``: what each of the first ``max_cells`` buffer elements holds.

    The buffer is ``total_bytes // itemsize`` elements long (padding to ``total_bytes``
    included). ``values``: labels for the cells instead of coordinates (as the vendor pages draw
    letters): an array of the tensor's logical shape, or a flat sequence of one label per
    element in row-major order (a string is one label per character, ``values="ABCDEF"``).
    Raises ValueError when ``values`` is neither or ``max_cells`` < 1.
    """
    sizes = [int(s) for s in desc.sizes]
    strides = [int(s) for s in desc.strides]
    itemsize = int(np.dtype(desc.dtype.name.lower()).itemsize)
    total = int(desc.total_bytes) // itemsize
    cells, notes = _build_map(sizes, strides, total, values, max_cells, "x")
    title = (f"{desc.dtype.name} sizes {tuple(sizes)} strides {tuple(strides)}: "
             f"{total} elements ({int(desc.total_bytes)} bytes) hold {int(np.prod(sizes))} logical elements")
    return MemoryMap(title, cells, total, "x", "padding (no element)", notes)


def _shape_layout(shape: Any) -> Tuple[List[int], List[int], List[int], str]:
    """(dimensions, physical strides in elements, padded extents, padding value name)."""
    dims = [int(d) for d in shape.dimensions]
    layout = shape.layout
    m2m = [int(d) for d in layout.minor_to_major]
    padded_raw = getattr(layout, "padded_dimensions", None)
    padded = [int(p) for p in padded_raw] if padded_raw else list(dims)
    if sorted(m2m) != list(range(len(dims))):
        raise ValueError(f"shape: minor_to_major {m2m} is not a permutation of 0..{len(dims) - 1}")
    if len(padded) != len(dims) or any(p < d for p, d in zip(padded, dims)):
        raise ValueError(f"shape: padded_dimensions {padded} must be one per dimension, each >= {dims}")
    strides = [0] * len(dims)
    step = 1
    for d in m2m:  # stride of d = product of padded extents of the dimensions more minor than d
        strides[d] = step
        step *= padded[d]
    pv = getattr(layout, "padding_value", "ZERO_PAD")
    pad_name = str(getattr(pv, "name", pv)).upper()
    return dims, strides, padded, pad_name


def shape_memory_map(shape: Any, values: Any = None, *, max_cells: int = DEFAULT_MAX_CELLS) -> MemoryMap:
    """The memory map of an ``xla.Shape`` (its layout, padding included); see ``memory_map``.

    Padding cells show the padding value (``0`` for ZERO_PAD, ``1`` ONE_PAD, ``lo`` LOWEST_PAD,
    ``hi`` HIGHEST_PAD, ``?`` UNKNOWN_PAD). Raises ValueError on an invalid layout.
    """
    dims, strides, padded, pad_name = _shape_layout(shape)
    total = int(np.prod(padded)) if padded else 1
    mark = _PAD_MARKS.get(pad_name, "x")
    cells, notes = _build_map(dims, strides, total, values, max_cells, mark)
    title = f"{shape}: {total} elements hold {int(np.prod(dims)) if dims else 1} logical elements"
    if padded != dims:
        title += f" (padded to {padded}, {pad_name})"
    return MemoryMap(title, cells, total, mark, f"padding ({pad_name})", notes)


def _render(m: MemoryMap, width: int) -> str:
    """Offsets over contents, columns aligned, wrapped at ``width`` characters."""
    width = _core._to_int(width, "width")
    lines = [m.title]
    head_o, head_v = "offset", "stores"
    lab = max(len(head_o), len(head_v))
    chunk_o: List[str] = []
    chunk_v: List[str] = []
    used = lab

    def flush() -> None:
        if chunk_o:
            lines.append(head_o.ljust(lab) + "  " + "  ".join(chunk_o))
            lines.append(head_v.ljust(lab) + "  " + "  ".join(chunk_v))

    for c in m.cells:
        w = max(len(str(c.offset)), len(c.label))
        if chunk_o and used + 2 + w > width:
            flush()
            lines.append("")
            chunk_o, chunk_v, used = [], [], lab
        chunk_o.append(str(c.offset).ljust(w))
        chunk_v.append(c.label.ljust(w))
        used += 2 + w
    flush()
    lines = [ln.rstrip() for ln in lines]
    if m.truncated > 0:
        lines.append(f"... {m.truncated} more element(s) not shown")
    kinds = {c.kind for c in m.cells}
    legend = []
    if "padding" in kinds:
        legend.append(f"{m.pad_mark} = {m.pad_meaning}")
    if "broadcast" in kinds or any("*" in c.label for c in m.cells if c.kind == "overlap"):
        legend.append("* = broadcast dimension (stride 0)")
    if "overlap" in kinds:
        legend.append("a/b = coordinates sharing one element")
    if legend:
        lines.append("; ".join(legend))
    lines.extend(m.notes)
    return "\n".join(lines)


def describe(desc: Any, values: Any = None, *, max_cells: int = DEFAULT_MAX_CELLS, width: int = 100) -> str:
    """The memory map of a ``TensorDesc`` as text: a row of buffer offsets (in elements) over
    the logical coordinates stored at each, padding as ``x``, broadcast dimensions as ``*``.

    >>> print(TensorDesc("float32", [2, 3], [5, 1], total_bytes=40).describe(values="ABCDEF"))
    FLOAT32 sizes (2, 3) strides (5, 1): 10 elements (40 bytes) hold 6 logical elements
    offset  0  1  2  3  4  5  6  7  8  9
    stores  A  B  C  x  x  D  E  F  x  x
    x = padding (no element)

    ``values``: one label per logical element, in row-major order (``"ABCDEF"``, a list) or as
    an array of the tensor's shape (``[list("ABC"), list("DEF")]``). Raises ValueError when
    ``values`` is neither.
    """
    return _render(memory_map(desc, values, max_cells=max_cells), width)


def describe_shape(shape: Any, values: Any = None, *, max_cells: int = DEFAULT_MAX_CELLS, width: int = 100) -> str:
    """The memory map of an ``xla.Shape`` as text (for ``xla.Shape.describe``); padding cells
    show the padding value, as XLA's documentation draws ``a d 0 b e 0 c f 0 0 0 0 0 0 0``.

    ``values`` as for ``describe``. Raises ValueError on an invalid layout or when ``values`` has
    neither the shape's dimensions nor one label per element.
    """
    return _render(shape_memory_map(shape, values, max_cells=max_cells), width)


_KIND_COLOURS = {"element": "#cfe2f3", "broadcast": "#f9cb9c", "overlap": "#ea9999", "padding": "#eeeeee"}


def plot_layout(desc: Any, values: Any = None, *, max_cells: int = DEFAULT_MAX_CELLS, ax: Any = None) -> Any:
    """Draw the memory map of a ``TensorDesc`` or an ``xla.Shape`` with matplotlib.

    One box per buffer element, its offset above it, what it stores inside; padding grey and
    hatched, broadcast cells orange, shared cells red. Draws into ``ax`` when given, else into a
    new ``matplotlib.figure.Figure``; returns the figure. Raises ImportError when matplotlib is
    not installed (``pip install matplotlib`` or ``strided[plot]``).
    """
    try:
        from matplotlib.figure import Figure
        from matplotlib.patches import Rectangle
    except ImportError as e:
        raise ImportError("strided.plot_layout needs matplotlib: pip install matplotlib (or 'strided[plot]')") from e
    is_shape = hasattr(desc, "layout") and hasattr(desc, "dimensions")
    m = shape_memory_map(desc, values, max_cells=max_cells) if is_shape else memory_map(desc, values, max_cells=max_cells)
    n = len(m.cells)
    box_w = max(1.0, max((len(c.label) for c in m.cells), default=1) * 0.14 + 0.3)
    if ax is None:
        fig = Figure(figsize=(min(0.25 + n * box_w * 0.55, 40.0), 1.8))
        ax = fig.add_subplot(1, 1, 1)
    else:
        fig = ax.figure
    for i, c in enumerate(m.cells):
        x = i * box_w
        # Hatching in light grey (a hatch takes the edge colour), then a black border on top.
        ax.add_patch(Rectangle((x, 0), box_w, 1, facecolor=_KIND_COLOURS[c.kind], edgecolor="#bbbbbb",
                               hatch="//" if c.kind == "padding" else None, linewidth=0))
        ax.add_patch(Rectangle((x, 0), box_w, 1, fill=False, edgecolor="black", linewidth=0.8))
        ax.text(x + box_w / 2, 0.5, c.label, ha="center", va="center", fontsize=8, family="monospace")
        ax.text(x + box_w / 2, 1.12, str(c.offset), ha="center", va="bottom", fontsize=7, color="dimgray")
    if m.truncated > 0:
        ax.text(n * box_w + 0.1, 0.5, f"... +{m.truncated}", ha="left", va="center", fontsize=8)
    ax.set_xlim(-0.1, n * box_w + (1.5 if m.truncated > 0 else 0.1))
    ax.set_ylim(-0.1, 1.5)
    ax.set_aspect("auto")
    ax.axis("off")
    ax.set_title(m.title, fontsize=9)
    return fig


def attach() -> None:
    """Make ``describe`` a method of ``TensorDesc`` and ``describe_shape`` one of ``xla.Shape``
    (called once by ``strided/__init__.py``)."""
    from . import _core

    def _tensor_describe(self: Any, values: Any = None, *, max_cells: int = DEFAULT_MAX_CELLS, width: int = 100) -> str:
        return describe(self, values, max_cells=max_cells, width=width)

    def _shape_describe(self: Any, values: Any = None, *, max_cells: int = DEFAULT_MAX_CELLS, width: int = 100) -> str:
        return describe_shape(self, values, max_cells=max_cells, width=width)

    _tensor_describe.__doc__ = describe.__doc__
    _shape_describe.__doc__ = describe_shape.__doc__
    # setattr: the stubs already declare describe() on both classes.
    setattr(_core.TensorDesc, "describe", _tensor_describe)
    setattr(_core.xla.Shape, "describe", _shape_describe)
