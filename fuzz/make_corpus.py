"""Write the seed corpus for fuzz_ops: one file per case, encoded as fuzz_ops.cpp decodes.

Seeds are valid descriptions of every operator (so the fuzzer starts from executing cases, with
reference checks for the copy operators) plus a few near-misses. Usage: make_corpus.py OUTDIR
"""

import os
import sys

DT = {"f32": 1, "f16": 2, "u32": 3, "u16": 4, "u8": 5, "i32": 6, "i16": 7, "i8": 8, "f64": 9, "u64": 10, "i64": 11}
IDX = {"i32": 0, "i64": 1, "u32": 2, "u64": 3}


def small(v, lo):
    """A value decoded by Reader::small(lo, span) as lo + s % span (s < 232)."""
    s = v - lo
    assert 0 <= s < 232
    return [s]


def tail(strides_mode=0, tb=1):
    # strides mode byte (0 = packed / none), total_bytes byte (1 = minimum), alignment, flags
    return [strides_mode, tb, 0, 0]


def free(dt, sizes, strides_mode=0, tb=1):
    return [3, DT[dt], len(sizes)] + [b for s in sizes for b in small(s, 1)] + tail(strides_mode, tb)


def free_index(it, sizes):
    return [3, IDX[it], 0, len(sizes)] + [b for s in sizes for b in small(s, 1)] + tail()


def like(strides_mode=0, tb=1):
    return [0] + tail(strides_mode, tb)


def params(vals, lo):
    return [0] + [b for v in vals for b in small(v, lo)]


def seeds():
    out = {}
    x = free("f32", [2, 3, 4])
    out["identity_packed"] = [0] + x + like() + [0, 2]
    out["identity_transpose"] = [0] + x + like(strides_mode=2) + [0, 2, 1, 0]
    out["identity_broadcast"] = [0] + free("u8", [4, 3], strides_mode=1) + [0, 1] + like() + [1, 0]
    out["identity_padded"] = [0] + free("f16", [3, 5]) + like(strides_mode=2, tb=5) + [0, 1, 1, 2]
    out["split"] = (
        [1]
        + free("i32", [2, 6])
        + small(1, 0)
        + [2]
        + [2, 0]
        + [b for b in small(4, 1)]
        + tail()
        + [2, 0]
        + small(2, 1)
        + tail()
        + [2, 1]
        + [0, 0]
    )
    out["join"] = (
        [2]
        + free("i64", [3, 2])
        + small(0, 0)
        + [1]
        + [2, 0]
        + small(1, 1)
        + tail()
        + [2, 0]
        + small(4, 1)
        + tail()
        + [1, 0]
    )
    out["slice"] = (
        [3]
        + free("f64", [4, 5])
        + [2, 0]
        + small(2, 1)
        + [1]
        + small(3, 1)
        + tail()
        + params([1, 0], 0)
        + params([2, 3], 1)
        + params([1, 1], 1)
        + [1, 0]
    )
    out["slice1_neg"] = (
        [4]
        + free("f32", [1, 1, 4, 4])
        + [2, 2]
        + small(2, 1)
        + [3]
        + small(2, 1)
        + tail()
        + params([0, 0, 0, 1], 0)
        + params([1, 1, 4, 3], 1)
        + params([1, 1, -2, 2], -3)
        + [0, 0]
    )
    out["gather"] = (
        [5]
        + free("f32", [1, 4])
        + [3, 0, 0, 2]
        + small(1, 1)
        + small(3, 1)
        + tail()
        + [2, 1]
        + small(3, 1)
        + tail()
        + small(1, 0)
        + small(1, 0)
        + [0, 0]
    )
    out["gather_elements"] = [6] + free("u16", [3, 3]) + like() + like() + small(0, 0) + [0, 0]
    out["gather_nd"] = (
        [7]
        + free("f32", [2, 2])
        + free_index("i64", [2, 1])
        + [2, 1]
        + small(2, 1)
        + tail()
        + small(2, 1)
        + small(2, 1)
        + small(0, 0)
        + [0, 0]
    )
    out["scatter"] = [8] + free("i8", [3, 3]) + like() + like() + like() + small(0, 0) + [0, 0, 0]
    out["scatter_add"] = [8] + free("f16", [2, 4]) + like() + like() + like() + small(1, 0) + [1, 0, 0]
    out["scatter_nd"] = (
        [9]
        + free("f32", [8])
        + free_index("i64", [4, 1])
        + free("f32", [4])
        + like()
        + small(1, 1)
        + small(2, 1)
        + [0, 0, 0]
    )
    out["bad_stride_zero"] = [4] + free("f32", [4]) + like() + params([0], 0) + params([4], 1) + params([0], -3) + [0]
    out["huge_size"] = [0] + [3, 1, 2, 236, 237] + tail() + like() + [0]
    # Reproducers of crashes the fuzzer found (UBSan: signed overflow scaling huge strides of
    # size-1 or large dimensions at compile time); kept as regression seeds.
    out["repro_gather_elements_tile_overflow"] = list(bytes.fromhex("062eff0603ff06ff0000000000ff03"))
    out["repro_join_planner_coalesce_overflow"] = list(bytes.fromhex("0200c5cdcdcdcd03030100f6400100f600"))
    out["repro_scatter_walk_coalesce_overflow"] = list(bytes.fromhex("8a7e6a6a6a6a6a6a6a6a6a0603ff066a"))
    # The harness's own buffer-size cap: a plain sum of four ~2^62-byte buffers wrapped past it.
    out["repro_harness_buffer_sum_wrap"] = list(
        bytes.fromhex("8a7e6a6a0800fe080000000000000000000000000000000000000000080302266a")
    )
    return out


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    for name, data in seeds().items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(bytes(b & 0xFF for b in data))


if __name__ == "__main__":
    main()
