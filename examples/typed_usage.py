"""strided with static types: `mypy --strict` checks this file against the package's stubs."""

from __future__ import annotations

from typing import List, Tuple

import numpy as np
import numpy.typing as npt

import strided as sd
from strided import xla


def to_nhwc(x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    n, c, h, w = x.shape
    out: npt.NDArray[np.float32] = np.empty((n, h, w, c), np.float32)
    sd.copy(x, out.transpose(0, 3, 1, 2))
    return out


def tiles(x: npt.NDArray[np.float32], parts: int) -> List[npt.NDArray[np.float32]]:
    return [p.astype(np.float32, copy=False) for p in sd.split(x, parts, axis=-1)]


def level_of(desc: sd.Slice1Desc) -> Tuple[str, bool]:
    lvl: sd.FeatureLevel = desc.min_feature_level
    return lvl.name, desc.is_valid_at("2_0")


def physical(shape_text: str, x: npt.ArrayLike) -> npt.NDArray[np.generic]:
    s: xla.Shape = xla.Shape.parse(shape_text)
    return xla.to_physical(x, s)


def main() -> None:
    x = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
    assert np.array_equal(to_nhwc(x), x.transpose(0, 2, 3, 1))
    assert len(tiles(x, 5)) == 5
    d_in = sd.TensorDesc(sd.DataType.FLOAT32, [1, 1, 4, 4])
    d_out = sd.TensorDesc("float32", (1, 1, 2, 2))
    name, ok = level_of(sd.Slice1Desc(d_in, d_out, [0, 0, 0, 1], [1, 1, 4, 3], [1, 1, -2, 2]))
    assert (name, ok) == ("FL_2_1", False)
    itemsize: int = d_in.dtype.itemsize
    strides: Tuple[int, ...] = sd.packed_strides([1, 3, 4, 5], "NHWC")
    info: dict[str, str] = sd.build_info()
    print(itemsize, strides, info["version"], physical("f32[2,3]{0,1}", [[1, 2, 3], [4, 5, 6]]).tolist())


if __name__ == "__main__":
    main()
