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

import math
import os
import textwrap
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import _core

__all__ = ["Cell", "MemoryMap", "attach", "describe", "describe_shape", "memory_map", "plot_layout", "shape_memory_map"]

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
    raise ValueError(
        f"values: shape {vals.shape} must equal the tensor's sizes {shape}, or be a flat "
        f"sequence (or string) of {count} labels in row-major order"
    )


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
    title = (
        f"{desc.dtype.name} sizes {tuple(sizes)} strides {tuple(strides)}: "
        f"{total} elements ({int(desc.total_bytes)} bytes) hold {int(np.prod(sizes))} logical elements"
    )
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
    if getattr(shape.layout, "tiles", ()):
        return _tiled_memory_map(shape, values, max_cells)
    dims, strides, padded, pad_name = _shape_layout(shape)
    total = int(np.prod(padded)) if padded else 1
    mark = _PAD_MARKS.get(pad_name, "x")
    cells, notes = _build_map(dims, strides, total, values, max_cells, mark)
    title = f"{shape}: {total} elements hold {int(np.prod(dims)) if dims else 1} logical elements"
    if padded != dims:
        title += f" (padded to {padded}, {pad_name})"
    return MemoryMap(title, cells, total, mark, f"padding ({pad_name})", notes)


def _tiled_memory_map(shape: Any, values: Any, max_cells: int) -> MemoryMap:
    """A tiled layout has no strides: each cell asks the library which element lies there."""
    max_cells = _core._to_int(max_cells, "max_cells")
    if max_cells < 1:
        raise ValueError(f"max_cells: must be at least 1, got {max_cells}")
    dims = [int(d) for d in shape.dimensions]
    vals = _values_grid(values, dims)
    total = int(shape.physical_element_count)
    pad_name = str(shape.layout.padding_value.name)
    mark = _PAD_MARKS.get(pad_name, "x")
    cells: List[Cell] = []
    for off in range(min(total, max_cells)):
        try:
            c = _core.xla.linear_index_to_multidimensional_index(shape, off)
        except IndexError:
            cells.append(Cell(off, mark, "padding"))
            continue
        label = str(vals[tuple(c)]) if vals is not None else _coord_text(c)
        cells.append(Cell(off, label, "element", (tuple(c),)))
    n = int(np.prod(dims)) if dims else 1
    title = f"{shape}: {total} elements hold {n} logical elements (tiled, partial tiles {pad_name})"
    return MemoryMap(title, cells, total, mark, f"padding ({pad_name})", [])


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


#: Cells plot_layout draws by default: a 64x64 tensor, with room for padding.
DEFAULT_PLOT_CELLS = 8192
# The widest grid plot_layout picks by itself (``columns=`` may ask for more).
_PLOT_MAX_COLUMNS = 128
_KIND_COLOURS = {"element": "#cfe2f3", "broadcast": "#f9cb9c", "overlap": "#ea9999", "padding": "#eeeeee"}
# Element cells shade from light to dark along the logical (row-major) order, so a layout's walk
# through the tensor shows even where the cells are too small for labels.
_ELEMENT_LIGHT = (0.89, 0.94, 0.98)
_ELEMENT_DARK = (0.42, 0.65, 0.86)


def _grid_columns(sizes: Sequence[int], strides: Sequence[int], n: int) -> int:
    """How many buffer elements one row of the plot shows: a stride of the layout (the row pitch,
    so padding lines up in columns), the narrowest one that gives at most as many rows as columns,
    else the widest one; without a usable stride a near-square grid."""
    cands = sorted({int(st) for sz, st in zip(sizes, strides) if sz > 1 and 1 < st <= _PLOT_MAX_COLUMNS})
    for w in cands:
        if -(-n // w) <= w:
            return w
    if cands:
        return cands[-1]
    return n if n <= 32 else min(64, math.isqrt(n - 1) + 1)


def _logical_index(cell: Cell, sizes: Sequence[int]) -> int:
    """Row-major position of an element cell's coordinate (broadcast dimensions as 0)."""
    index = 0
    for v, s in zip(cell.coords[0], sizes):
        index = index * s + int(v or 0)
    return index


def _shade(t: float) -> Tuple[float, float, float]:
    """An element's colour at ``t`` in [0, 1] along the logical order shown."""
    r, g, b = (a + (z - a) * t for a, z in zip(_ELEMENT_LIGHT, _ELEMENT_DARK))
    return (r, g, b)


def _tick_step(n: int, most: int) -> int:
    step = 1
    while -(-n // step) > most:
        step *= 2
    return step


def plot_layout(
    desc: Any,
    values: Any = None,
    *,
    max_cells: int = DEFAULT_PLOT_CELLS,
    ax: Any = None,
    columns: Optional[int] = None,
    path: Any = None,
    dpi: int = 150,
) -> Any:
    """Draw the memory map of a ``TensorDesc`` or an ``xla.Shape`` with matplotlib.

    The buffer's first ``max_cells`` elements (default 8192: a 64x64 tensor with room for
    padding) as a grid of boxes, ``columns`` per row (default: the layout's row pitch, e.g. 16
    for a 16x16 row-major tensor, 5 for rows of 3 padded to 5); offsets are ``row start +
    column`` (the axis labels; maps of up to 128 boxes also show each box's). Each box shows what it stores
    (coordinates, or ``values`` as for ``describe``) when the label fits; a legend explains the
    colours: elements shade from light to dark in logical (row-major) order, broadcast cells
    orange, shared cells red, padding grey and hatched.

    Draws into ``ax`` when given, else into a new ``matplotlib.figure.Figure`` (no pyplot, no
    window); returns the figure. ``path``: also save it there, the format from the suffix
    (``.png``, ``.svg``, ``.pdf``) at ``dpi`` for raster formats. matplotlib is imported only
    here; raises ImportError when it is not installed (``pip install matplotlib`` or
    the ``plot`` extra), ValueError for ``columns`` < 1 or a ``max_cells`` < 1.
    """
    try:
        from matplotlib.collections import PatchCollection
        from matplotlib.figure import Figure
        from matplotlib.patches import Patch, Rectangle
    except ImportError as e:
        raise ImportError(
            "strided.plot_layout needs matplotlib: pip install matplotlib (or the 'plot' extra: pip install '.[plot]')"
        ) from e
    is_shape = hasattr(desc, "layout") and hasattr(desc, "dimensions")
    if is_shape:
        m = shape_memory_map(desc, values, max_cells=max_cells)
        if getattr(desc.layout, "tiles", ()):  # the row pitch of the tiled physical array
            sizes = [int(d) for d in desc.physical_dimensions]
            strides = [math.prod(sizes[i + 1 :]) for i in range(len(sizes))]
        else:
            sizes, strides, _, _ = _shape_layout(desc)
    else:
        m = memory_map(desc, values, max_cells=max_cells)
        sizes, strides = [int(s) for s in desc.sizes], [int(s) for s in desc.strides]
    n = len(m.cells)
    if columns is None:
        cols = _grid_columns(sizes, strides, n)
    else:
        cols = _core._to_int(columns, "columns")
        if cols < 1:
            raise ValueError(f"columns: must be at least 1, got {cols}")
    cols = max(1, min(cols, n))
    rows = -(-n // cols)

    kinds = [k for k in ("element", "broadcast", "overlap", "padding") if any(c.kind == k for c in m.cells)]
    handles = []
    for k in kinds:
        if k == "element":
            handles.append(
                Patch(
                    facecolor=_shade(0.5), edgecolor="black", label="element (light to dark: logical row-major order)"
                )
            )
        elif k == "broadcast":
            handles.append(
                Patch(facecolor=_KIND_COLOURS[k], edgecolor="black", label="broadcast, stride-0 dimension (*)")
            )
        elif k == "overlap":
            handles.append(Patch(facecolor=_KIND_COLOURS[k], edgecolor="black", label="shared by several coordinates"))
        else:
            handles.append(
                Patch(
                    facecolor=_KIND_COLOURS[k], edgecolor="#999999", hatch="///", label=f"{m.pad_meaning}: {m.pad_mark}"
                )
            )

    # Box size in inches: at most 0.6, the grid at most 12 wide and 36 tall (a caller's axes:
    # what fits in them).
    own_axes = ax is None
    if own_axes:
        cell_in = min(0.6, 12.0 / cols, max(36.0 / rows, 0.04))
    else:
        pos = ax.get_position()
        fw, fh = ax.figure.get_size_inches()
        cell_in = min(pos.width * fw / cols, pos.height * fh / rows)
    cell_pt = cell_in * 72.0
    # Labels: as large as fits the box (both ways), up to 10 pt; none below 4.5 pt. A shared
    # cell's coordinates go one per line.
    texts = [c.label.replace("/", "\n") if c.kind == "overlap" else c.label for c in m.cells]
    longest = max((len(part) for t in texts for part in t.split("\n")), default=1)
    most_lines = max((t.count("\n") + 1 for t in texts), default=1)
    label_pt = min(10.0, cell_pt * 0.42, cell_pt * 0.86 / (0.62 * max(longest, 1)), cell_pt * 0.8 / (1.25 * most_lines))
    notes = list(m.notes)
    if label_pt < 4.5:
        notes.append("(labels left out: boxes too small; shades show the order, axes the offsets)")
    if m.truncated > 0:
        notes.append(f"... {m.truncated} more element(s) not shown (max_cells={n})")

    if own_axes:
        fig_w = max(0.75 + cols * cell_in + 0.25, 4.0)
    else:
        fig_w = float(ax.figure.get_size_inches()[0])
    title_lines = textwrap.wrap(m.title, max(30, int(fig_w * 72 / (9 * 0.62))))
    for t in notes:
        title_lines += textwrap.wrap(t, max(30, int(fig_w * 72 / (9 * 0.62))))
    if own_axes:
        legend_cols = max(1, min(len(kinds), int(fig_w // 3.4)))
        legend_rows = -(-len(kinds) // legend_cols)
        left, top, bottom = 0.75, 0.5 + 0.17 * len(title_lines), 0.3 + 0.22 * legend_rows
        fig_h = top + rows * cell_in + bottom
        fig = Figure(figsize=(fig_w, fig_h))
        ax = fig.add_axes((left / fig_w, bottom / fig_h, cols * cell_in / fig_w, rows * cell_in / fig_h))
    else:
        fig = ax.figure
        legend_cols = 1

    boxes = [Rectangle((i % cols, i // cols), 1, 1) for i in range(n)]
    # Elements shade along the logical order of those shown (a truncated map spans its own range).
    order = {i: _logical_index(c, sizes) for i, c in enumerate(m.cells) if c.kind == "element"}
    lo, hi = (min(order.values()), max(order.values())) if order else (0, 0)
    faces = [
        _shade((order[i] - lo) / max(hi - lo, 1)) if i in order else _KIND_COLOURS[c.kind]
        for i, c in enumerate(m.cells)
    ]
    pads = [b for b, c in zip(boxes, m.cells) if c.kind == "padding"]
    fills = [(b, f) for b, f, c in zip(boxes, faces, m.cells) if c.kind != "padding"]
    if fills:
        ax.add_collection(PatchCollection([b for b, _ in fills], facecolors=[f for _, f in fills], linewidths=0))
    if pads:
        ax.add_collection(
            PatchCollection(
                pads,
                facecolors=_KIND_COLOURS["padding"],
                edgecolors="#b0b0b0",
                hatch="///" if cell_pt >= 9 else None,
                linewidths=0,
            )
        )
    ax.add_collection(
        PatchCollection(
            boxes,
            facecolors="none",
            edgecolors="#404040" if cell_pt >= 12 else "white",
            linewidths=min(0.8, max(0.2, cell_pt / 40)),
        )
    )
    if label_pt >= 4.5:
        for i, t in enumerate(texts):
            ax.text(
                i % cols + 0.5,
                i // cols + 0.55,
                t,
                ha="center",
                va="center",
                fontsize=label_pt,
                family="monospace",
                gid="label",
                linespacing=1.1,
            )
    if cell_pt >= 30 and n <= 128:  # each box's own offset; bigger maps have the axes only
        offset_pt = min(6.5, cell_pt * 0.17)
        for i, c in enumerate(m.cells):
            ax.text(
                i % cols + 0.06,
                i // cols + 0.06,
                str(c.offset),
                ha="left",
                va="top",
                fontsize=offset_pt,
                color="dimgray",
                gid="offset",
            )

    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)  # offset 0 top left, rows downwards
    ax.set_aspect("equal" if own_axes else "auto")  # a caller's axes keep their own shape
    for side in ("left", "right", "top", "bottom"):
        ax.spines[side].set_visible(False)
    xs = _tick_step(cols, 16)
    ys = _tick_step(rows, 32)
    ax.xaxis.tick_top()
    ax.set_xticks([x + 0.5 for x in range(0, cols, xs)])
    ax.set_xticklabels([f"+{x}" for x in range(0, cols, xs)], fontsize=7)
    ax.set_yticks([y + 0.5 for y in range(0, rows, ys)])
    ax.set_yticklabels([str(y * cols) for y in range(0, rows, ys)], fontsize=7)
    ax.tick_params(length=0, pad=2)
    ax.set_ylabel("offset of row start", fontsize=7)
    ax.set_title("\n".join(title_lines), fontsize=9, pad=14)
    ax.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, 0.0),
        ncol=legend_cols,
        fontsize=7.5,
        frameon=False,
        borderaxespad=0.3,
        handlelength=1.6,
    )
    if path is not None:
        # The figure's margins already hold the title and the legend: no "tight" pass (a second
        # full draw). A caller's figure is saved as the caller laid it out.
        fig.savefig(os.fspath(path), dpi=_core._to_int(dpi, "dpi"))
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
