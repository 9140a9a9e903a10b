"""describe() / describe_shape() / plot_layout against the memory maps the vendor pages draw
(seed 003: DirectML sizes and strides; seed 004: XLA layouts), written out by hand here."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any, List

import numpy as np
import pytest

import strided as sd
from strided import _layout

ABC_DEF = [list("ABC"), list("DEF")]


def rows(text: str) -> List[List[str]]:
    """The 'offset' and 'stores' rows of a rendering, as token lists (wrapped chunks joined)."""
    off: List[str] = []
    val: List[str] = []
    for line in text.splitlines():
        if line.startswith("offset "):
            off += line.split()[1:]
        elif line.startswith("stores "):
            val += line.split()[1:]
    return [off, val]


def test_row_major_2x3() -> None:
    # seed 003: Offset 0..5 holds A B C D E F.
    d = sd.TensorDesc("float32", [2, 3])
    assert rows(_layout.describe(d, ABC_DEF)) == [list("012345"), list("ABCDEF")]
    assert rows(_layout.describe(d))[1] == ["(0,0)", "(0,1)", "(0,2)", "(1,0)", "(1,1)", "(1,2)"]


def test_column_major_2x3() -> None:
    # seed 003: "height stride 1, width stride 2" -> A D B E C F.
    d = sd.TensorDesc("float32", [2, 3], [1, 2])
    assert rows(_layout.describe(d, ABC_DEF))[1] == list("ADBECF")


def test_dhw_2x2x3() -> None:
    # seed 003: DHW {2,2,3} strides {6,3,1} stores A..L in order; H = (1,0,1) lies at offset 7.
    d = sd.TensorDesc("float32", [2, 2, 3], [6, 3, 1])
    vals = [[list("ABC"), list("DEF")], [list("GHI"), list("JKL")]]
    assert rows(_layout.describe(d, vals))[1] == list("ABCDEFGHIJKL")
    m = _layout.memory_map(d)
    assert m.cells[7].coords == ((1, 0, 1),) and m.cells[7].label == "(1,0,1)"


def test_broadcast_rows() -> None:
    # seed 003: a 2x3 tensor whose second row repeats the first is 3 elements with height stride 0.
    d = sd.TensorDesc("float32", [2, 3], [0, 1])
    text = _layout.describe(d)
    assert rows(text) == [["0", "1", "2"], ["(*,0)", "(*,1)", "(*,2)"]]
    assert "* = broadcast" in text
    assert [c.kind for c in _layout.memory_map(d).cells] == ["broadcast"] * 3
    assert rows(_layout.describe(d, [list("ABC"), list("ABC")]))[1] == list("ABC")


def test_padded_rows() -> None:
    # seed 003: | A | B | C | x | x | D | E | F | x | x | -- height stride 5 over a 10-element buffer.
    d = sd.TensorDesc("float32", [2, 3], [5, 1], total_bytes=40)
    text = _layout.describe(d, ABC_DEF)
    assert rows(text) == [[str(i) for i in range(10)], list("ABCxxDEFxx")]
    assert "x = padding" in text
    # Without total_bytes the buffer ends at the last element (8 elements, 32 bytes).
    assert rows(_layout.describe(sd.TensorDesc("float32", [2, 3], [5, 1])))[1][-1] == "(1,2)"


def test_nhwc_strides() -> None:
    # Packed NHWC of N=1, C=2, H=2, W=2: strides {8,1,4,2}; channels interleave per pixel.
    d = sd.TensorDesc("float32", [1, 2, 2, 2], [8, 1, 4, 2])
    expected = ["(0,0,0,0)", "(0,1,0,0)", "(0,0,0,1)", "(0,1,0,1)", "(0,0,1,0)", "(0,1,1,0)", "(0,0,1,1)", "(0,1,1,1)"]
    assert rows(_layout.describe(d))[1] == expected


def test_overlap_and_rounding() -> None:
    # Overlapping strides share elements; a FLOAT16 {3} buffer is rounded up to 8 bytes = 4 elements.
    d = sd.TensorDesc("float32", [2, 2], [1, 1])
    assert rows(_layout.describe(d))[1] == ["(0,0)", "(0,1)/(1,0)", "(1,1)"]
    assert rows(_layout.describe(sd.TensorDesc("float16", [3])))[1] == ["(0)", "(1)", "(2)", "x"]


def test_long_buffer_is_truncated_and_wrapped() -> None:
    d = sd.TensorDesc("uint8", [1000, 1000])
    text = _layout.describe(d, max_cells=40, width=60)
    off, val = rows(text)
    assert off == [str(i) for i in range(40)]
    assert val[:2] == ["(0,0)", "(0,1)"] and val[-1] == "(0,39)"
    assert "999960 more element(s) not shown" in text
    assert all(len(line) <= 60 for line in text.splitlines() if line.startswith(("offset", "stores")))


def test_values_as_a_flat_sequence() -> None:
    # describe(values="ABCDEF"): one label per logical element in row-major order, as a string,
    # a list or a 1-d array, labels the same cells as the array of the tensor's shape.
    d = sd.TensorDesc("float32", [2, 3], [5, 1], total_bytes=40)
    want = _layout.describe(d, ABC_DEF)
    assert rows(want)[1] == list("ABCxxDEFxx")
    assert d.describe(values="ABCDEF") == want
    assert _layout.describe(d, list("ABCDEF")) == want
    assert _layout.describe(d, np.array(list("ABCDEF"))) == want
    assert rows(_layout.describe(d, range(6)))[1] == ["0", "1", "2", "x", "x", "3", "4", "5", "x", "x"]
    s = sd.xla.Shape("f32", [2, 3], sd.xla.Layout([0, 1], [3, 5]))
    assert s.describe(values="abcdef") == s.describe(values=[list("abc"), list("def")])
    assert rows(s.describe(values="abcdef"))[1] == list("ad0be0cf0000000")
    with pytest.raises(ValueError, match="6 labels"):
        d.describe(values="ABCDE")
    with pytest.raises(ValueError, match="values"):
        _layout.describe(d, np.zeros((3, 2)))  # the right count in the wrong shape stays an error


def test_describe_errors() -> None:
    d = sd.TensorDesc("float32", [2, 3])
    with pytest.raises(ValueError, match="values"):
        _layout.describe(d, [1, 2, 3])
    with pytest.raises(ValueError, match="values"):
        _layout.describe(d, "ABCDEFG")
    with pytest.raises(ValueError, match="max_cells"):
        _layout.describe(d, max_cells=0)


# ---------------------------------------------------------------- XLA (seed 004)


def test_xla_column_and_row_major() -> None:
    # seed 004: [2 x 3] with minor_to_major [0, 1] is "a d b e c f", with [1, 0] "a b c d e f".
    abc = [list("abc"), list("def")]
    col = sd.xla.Shape("f32", [2, 3], sd.xla.Layout([0, 1]))
    row = sd.xla.Shape("f32", [2, 3])
    assert rows(_layout.describe_shape(col, abc))[1] == list("adbecf")
    assert rows(_layout.describe_shape(row, abc))[1] == list("abcdef")
    assert rows(_layout.describe_shape(col))[1][:2] == ["(0,0)", "(1,0)"]


def test_xla_padded_column_major() -> None:
    # seed 004 / SPEC 5: f32[2,3] padded [3,5], minor_to_major {0,1}: "a d 0 b e 0 c f 0 0 0 0 0 0 0".
    s = sd.xla.Shape("f32", [2, 3], sd.xla.Layout([0, 1], [3, 5]))
    text = _layout.describe_shape(s, [list("abc"), list("def")])
    assert rows(text)[1] == "a d 0 b e 0 c f 0 0 0 0 0 0 0".split()
    assert "0 = padding (ZERO_PAD)" in text
    one = sd.xla.Shape("s32", [2, 3], sd.xla.Layout([1, 0], [2, 4], "ONE_PAD"))
    assert rows(_layout.describe_shape(one))[1] == ["(0,0)", "(0,1)", "(0,2)", "1", "(1,0)", "(1,1)", "(1,2)", "1"]


def test_xla_stride_example() -> None:
    # SPEC 5: F32[5,8,10,4]{3,2,1,0}: the stride of dimension 1 is 40, so (0,1,0,0) lies at 40.
    s = sd.xla.Shape("f32", [5, 8, 10, 4])
    m = _layout.shape_memory_map(s, max_cells=41)
    assert m.cells[40].coords == ((0, 1, 0, 0),)
    assert m.truncated == 5 * 8 * 10 * 4 - 41


def test_xla_scalar() -> None:
    s = sd.xla.Shape("f32", [])
    assert rows(_layout.describe_shape(s)) == [["0"], ["()"]]


# ---------------------------------------------------------------- plot_layout


def _texts(fig: Any, gid: str) -> List[Any]:
    return [t for t in fig.axes[0].texts if t.get_gid() == gid]


def test_plot_layout_draws_every_cell() -> None:
    pytest.importorskip("matplotlib", reason="plot_layout is optional: needs matplotlib (strided[plot])")
    d = sd.TensorDesc("float32", [2, 3], [5, 1], total_bytes=40)
    fig = _layout.plot_layout(d, ABC_DEF)
    ax = fig.axes[0]
    assert [t.get_text() for t in _texts(fig, "label")] == list("ABCxxDEFxx")  # box labels, in offset order
    assert [t.get_text() for t in _texts(fig, "offset")] == [str(i) for i in range(10)]  # each box's offset
    # Rows of the layout's pitch (5): offsets are row start + column.
    assert [t.get_text() for t in ax.get_xticklabels()] == ["+0", "+1", "+2", "+3", "+4"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["0", "5"]
    assert [len(c.get_paths()) for c in ax.collections] == [6, 4, 10]  # elements, padding, borders
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert len(legend) == 2 and legend[0].startswith("element") and legend[1].startswith("padding")
    s = sd.xla.Shape("f32", [2, 3], sd.xla.Layout([0, 1], [3, 5]))
    fig = _layout.plot_layout(s, "abcdef")
    assert [t.get_text() for t in _texts(fig, "label")] == list("ad0be0cf0000000")
    assert len(fig.axes[0].get_xticklabels()) == 3  # column-major, padded to 3: rows of 3
    assert "ZERO_PAD" in fig.axes[0].get_legend().get_texts()[1].get_text()


@pytest.mark.parametrize(
    "sizes, strides, n, want",
    [
        ([16, 16], [16, 1], 256, 16),  # row-major: one tensor row per grid row
        ([16, 16], [1, 16], 256, 16),  # column-major: one column per grid row
        ([64, 64], [64, 1], 4096, 64),
        ([2, 3], [5, 1], 10, 5),  # rows padded to 5: the padding lines up
        ([2, 3], [1, 2], 6, 2),  # no pitch gives a landscape grid: the widest
        ([2, 2, 3], [6, 3, 1], 12, 6),  # the narrowest pitch with rows <= columns
        ([1, 4, 4, 3], [48, 12, 3, 1], 48, 12),
        ([2, 3], [0, 1], 3, 3),  # broadcast: one short row
        ([100], [1], 100, 10),  # no pitch: near square
        ([1000, 1000], [1000, 1], 8192, 64),  # a pitch wider than 128: near square, at most 64
    ],
)
def test_plot_grid_columns(sizes: List[int], strides: List[int], n: int, want: int) -> None:
    assert _layout._grid_columns(sizes, strides, n) == want


def test_plot_layout_is_readable_up_to_64x64() -> None:
    pytest.importorskip("matplotlib", reason="plot_layout needs matplotlib")
    fig = _layout.plot_layout(sd.TensorDesc("float32", [16, 16]))
    labels = _texts(fig, "label")
    assert len(labels) == 256 and labels[17].get_text() == "(1,1)"
    assert min(t.get_fontsize() for t in labels) >= 6  # "(15,15)" fits its box at a readable size
    assert all(w <= 13 for w in fig.get_size_inches())
    assert len(fig.axes[0].get_xticklabels()) == 16
    # 64x64: every cell drawn (none cut off by a default max_cells), labels left out with a note.
    fig = _layout.plot_layout(sd.TensorDesc("float32", [64, 64]))
    ax = fig.axes[0]
    assert len(ax.collections[-1].get_paths()) == 4096
    assert not _texts(fig, "label") and "labels left out" in ax.get_title()
    assert fig.get_size_inches()[0] <= 13.5
    assert 1 <= len(ax.get_xticklabels()) <= 16 and 1 <= len(ax.get_yticklabels()) <= 32
    # Short labels still fit at 64 columns.
    fig = _layout.plot_layout(sd.TensorDesc("uint8", [64, 64]), values=[chr(65 + i % 26) for i in range(4096)])
    assert len(_texts(fig, "label")) == 4096
    # More than max_cells: the rest is named, not drawn.
    fig = _layout.plot_layout(sd.TensorDesc("float32", [16, 16]), max_cells=20, columns=8)
    assert len(fig.axes[0].collections[-1].get_paths()) == 20 and "236 more element(s)" in fig.axes[0].get_title()


def test_plot_layout_saves_png_and_svg(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="plot_layout needs matplotlib")
    d = sd.TensorDesc("float32", [4, 4], [5, 1], total_bytes=80)
    png, svg = tmp_path / "layout.png", tmp_path / "layout.svg"
    fig = _layout.plot_layout(d, path=png)  # a Path
    assert fig is not None and png.stat().st_size > 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    sd.plot_layout(d, values="ABCDEFGHIJKLMNOP", path=str(svg))  # a str
    text = svg.read_text(encoding="utf-8")
    assert svg.stat().st_size > 0 and "<svg" in text


def test_plot_layout_arguments() -> None:
    pytest.importorskip("matplotlib", reason="plot_layout needs matplotlib")
    from matplotlib.figure import Figure

    d = sd.TensorDesc("float32", [4, 4])
    fig = _layout.plot_layout(d, columns=8)
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["0", "8"]
    with pytest.raises(ValueError, match="columns"):
        _layout.plot_layout(d, columns=0)
    with pytest.raises(TypeError, match="columns"):
        _layout.plot_layout(d, columns=2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_cells"):
        _layout.plot_layout(d, max_cells=0)
    # Into the caller's axes: that figure comes back, nothing else is made.
    own = Figure()
    ax = own.add_subplot(1, 2, 2)
    assert _layout.plot_layout(d, [list("abcd")] * 4, ax=ax) is own
    assert [t.get_text() for t in ax.texts if t.get_gid() == "label"][:5] == list("abcda")


def test_matplotlib_only_imported_when_plotting() -> None:
    pytest.importorskip("matplotlib", reason="plot_layout needs matplotlib")
    code = (
        "import sys, strided as sd\n"
        "d = sd.TensorDesc('float32', [2, 3])\n"
        "d.describe(); sd.xla.Shape.parse('f32[2,3]{0,1}').describe()\n"
        "assert not [m for m in sys.modules if m.startswith('matplotlib')], 'imported too early'\n"
        "sd.plot_layout(d)\n"
        "assert 'matplotlib' in sys.modules\n"
        "assert 'matplotlib.pyplot' not in sys.modules  # a Figure, no GUI backend\n"
    )
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(
            p for p in [os.path.dirname(os.path.dirname(sd.__file__)), os.environ.get("PYTHONPATH", "")] if p
        ),
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=env, timeout=300)


def test_plot_layout_without_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def fake_import(name: str, *args: object, **kwargs: object) -> object:
        if name.startswith("matplotlib"):
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", fake_import)
    with pytest.raises(ImportError, match="needs matplotlib"):
        _layout.plot_layout(sd.TensorDesc("float32", [2]))


def test_public_names() -> None:
    # strided/__init__.py calls _layout.attach() and exports plot_layout.
    d = sd.TensorDesc("float32", [2, 3], [0, 1])
    assert d.describe() == _layout.describe(d)
    assert d.describe(ABC_DEF, max_cells=2) == _layout.describe(d, ABC_DEF, max_cells=2)
    s = sd.xla.Shape.parse("f32[2,3]{0,1}")
    assert s.describe() == _layout.describe_shape(s)
    assert sd.plot_layout is _layout.plot_layout
    assert "plot_layout" in sd.__all__
