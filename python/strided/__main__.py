"""`python -m strided --cmake-dir` prints the folder of the C++ package for CMAKE_PREFIX_PATH."""

from __future__ import annotations

import argparse
import json
import sys

from . import build_info, cmake_dir


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m strided", description=__doc__)
    p.add_argument("--cmake-dir", action="store_true", help="print the folder holding strided-config.cmake")
    p.add_argument("--info", action="store_true", help="print build information (version, SIMD, OpenMP) as JSON")
    args = p.parse_args(argv)
    if args.cmake_dir:
        try:
            print(cmake_dir())
        except FileNotFoundError as e:
            print(e, file=sys.stderr)
            return 1
        return 0
    print(json.dumps(build_info(), indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
