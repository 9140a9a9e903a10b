"""Where the C++ package shipped inside this installation lives."""

from __future__ import annotations

from pathlib import Path


def cmake_dir() -> str:
    """Folder holding strided-config.cmake, for CMAKE_PREFIX_PATH or -Dstrided_DIR.

    Raises FileNotFoundError when this installation carries no C++ package (a developer build).
    """
    root = Path(__file__).resolve().parent / "cpp"
    for libdir in ("lib", "lib64"):
        d = root / libdir / "cmake" / "strided"
        if (d / "strided-config.cmake").is_file():
            return str(d)
    raise FileNotFoundError(f"strided: no C++ package under {root} (install strided from a wheel or sdist)")
