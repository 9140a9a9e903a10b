"""What an installation carries: version, build_info, the C++ package of a wheel, typing markers."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import strided as sd

PKG = Path(sd.__file__).resolve().parent
ROOT = Path(__file__).resolve().parent.parent


def project_version() -> str:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    m = re.search(r'^version\s*=\s*"([^"]+)"', text, re.M)
    assert m, "pyproject.toml has no version"
    return m.group(1)


def test_version_matches_pyproject() -> None:
    assert sd.__version__ == project_version()
    assert re.fullmatch(r"\d+\.\d+\.\d+", sd.__version__)


def test_build_info_keys() -> None:
    info = sd.build_info()
    assert {"version", "compiler", "openmp", "max_threads", "num_threads", "simd_compiled", "simd"} <= set(info)
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in info.items())
    assert info["version"] == sd.__version__
    compiled = info["simd_compiled"].split(",")
    assert "scalar" in compiled and info["simd"] in compiled
    assert int(info["num_threads"]) == sd.get_num_threads() >= 1
    assert info["openmp"] == "no" or info["openmp"].isdigit()


def test_python_m_strided_info() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "strided", "--info"],
        check=True,
        capture_output=True,
        text=True,
        cwd=os.path.dirname(PKG),
    )
    assert json.loads(out.stdout)["version"] == sd.__version__


def test_typing_markers_ship() -> None:
    assert (PKG / "py.typed").is_file()
    assert (PKG / "_core" / "__init__.pyi").is_file()
    assert (PKG / "_core" / "xla.pyi").is_file()


def _is_installed_wheel() -> bool:
    # A wheel or sdist install carries strided/cpp; a developer build (PYTHONPATH=build/<x>/python) does not.
    return (PKG / "cpp").is_dir()


def test_cmake_dir_of_this_installation() -> None:
    if not _is_installed_wheel():
        # Developer build: no C++ package inside; the error says so and how to get one.
        with pytest.raises(FileNotFoundError, match="no C\\+\\+ package"):
            sd.cmake_dir()
        r = subprocess.run(
            [sys.executable, "-m", "strided", "--cmake-dir"], capture_output=True, text=True, cwd=os.path.dirname(PKG)
        )
        assert r.returncode == 1 and "no C++ package" in r.stderr
        return
    d = Path(sd.cmake_dir())
    assert (d / "strided-config.cmake").is_file()
    assert (d / "strided-config-version.cmake").is_file()
    assert (d / "strided-targets.cmake").is_file()
    assert PKG / "cpp" in d.parents
    cpp = PKG / "cpp"
    headers = {p.name for p in (cpp / "include" / "strided").glob("*.hpp")}
    assert {
        "strided.hpp",
        "dtype.hpp",
        "error.hpp",
        "feature_level.hpp",
        "tensor_desc.hpp",
        "ops.hpp",
        "compiled.hpp",
        "runtime.hpp",
        "xla.hpp",
    } <= headers
    libs = [p.name for p in cpp.rglob("*") if p.is_file() and re.match(r"(lib)?strided\.(a|lib)$", p.name)]
    assert libs, f"no static library under {cpp}"
    version_file = (d / "strided-config-version.cmake").read_text(encoding="utf-8")
    assert f'"{sd.__version__}"' in version_file
    out = subprocess.run(
        [sys.executable, "-m", "strided", "--cmake-dir"],
        check=True,
        capture_output=True,
        text=True,
        cwd=os.path.dirname(PKG),
    )
    assert out.stdout.strip() == str(d)


def _elf_exports(path: Path) -> dict:
    """{name: binding} of the symbols an ELF64 little-endian shared object defines in .dynsym
    (binding 1 global, 2 weak, 10 GNU unique): what the dynamic loader can bind other objects to."""
    import struct

    data = path.read_bytes()
    assert data[:4] == b"\x7fELF", f"{path} is not ELF"
    if data[4] != 2 or data[5] != 1:  # 32-bit or big-endian Linux: other layouts, not read here
        pytest.skip("reads ELF64 little-endian objects only (x86-64, AArch64)")
    shoff, shentsize, shnum = struct.unpack_from("<Q", data, 0x28)[0], *struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    out = {}
    for _, sh_type, _, _, offset, size, link, _, _, entsize in sections:
        if sh_type != 11:  # SHT_DYNSYM
            continue
        stroff = sections[link][4]
        for k in range(size // entsize):
            st_name, st_info, _, st_shndx = struct.unpack_from("<IBBH", data, offset + k * entsize)
            if st_shndx != 0 and st_info >> 4 != 0:  # defined, not local
                end = data.index(b"\0", stroff + st_name)
                out[data[stroff + st_name : end].decode()] = st_info >> 4
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the ELF dynamic symbol table")
def test_core_module_exports_only_its_init_function() -> None:
    # A toolchain that links the C++ runtime statically (no libstdc++.so beside the compiler, or
    # -static-libstdc++ in LDFLAGS: seen on an Ubuntu 24.04 image) put libstdc++'s locale facet ids
    # into _core as GNU unique symbols; those bind process-wide even from a module loaded
    # RTLD_LOCAL, and `import strided; import torch` then crashed inside torch's import.
    # cmake/strided_py.map keeps the export list to PyInit__core in every build.
    core = Path(sd._core.__file__)
    assert _elf_exports(core) == {"PyInit__core": 1}
