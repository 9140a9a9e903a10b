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

    # Operators added later: a first byte of 200 + (op - 10) (fuzz_ops.cpp's read_desc).
    def scalar(v):  # Reader reads the 64 bits most significant byte first; then "same dtype"
        return list((v & (2**64 - 1)).to_bytes(8, "big")) + [1]

    for name, mode, dt, sizes, start, end in [
        ("padding_constant", 0, "f32", [2, 3], [1, 2], [2, 0]),
        ("padding_edge", 1, "u8", [2, 3], [2, 1], [1, 3]),
        ("padding_reflection_wide", 2, "i16", [3], [5], [6]),
        ("padding_symmetric_wide", 3, "f64", [2, 2], [3, 0], [1, 5]),
        ("padding_wrap_wide", 4, "i32", [1, 3], [2, 4], [3, 1]),
        ("padding_reflection_size1", 2, "f16", [1, 2], [2, 1], [3, 2]),
    ]:
        out[name] = (
            [205]
            + free(dt, sizes)
            + [mode]
            + params(start, 0)
            + params(end, 0)
            + scalar(0x41100000)
            + like()
            + [1, 1]
            + [0, 0]
        )
    # OneHot: output f32 {3,4}, axis 1, INT64 indices {3,1}, values {1,2}
    out["one_hot"] = [206] + free("f32", [3, 4]) + small(1, 0) + like() + [1, 1, 1] + [1] + small(2, 1) + [1] + [0, 0]
    out["one_hot_axis0_u8"] = (
        [206] + free("u8", [2, 3]) + small(0, 0) + like() + [1, 0, 1] + [1] + small(3, 1) + [1] + [0, 0]
    )
    # ReverseSubsequences: f32 {3,4}, axis 1, UINT32 lengths {3,1}
    out["reverse_subsequences"] = [207] + free("f32", [3, 4]) + small(1, 0) + like() + [1, 2, 1] + like() + [0, 0]
    out["reverse_subsequences_i64"] = (
        [207] + free("i8", [2, 3, 2]) + small(1, 0) + like() + [1, 1, 1] + like(strides_mode=2) + [0, 1, 0] + [0, 0]
    )
    # SliceGrad: output gradient f32 {4,4}, window offsets {0,0}, sizes {3,3}, strides {2,2}
    out["slice_grad"] = (
        [208] + free("f32", [4, 4]) + params([0, 0], 0) + params([3, 3], 1) + params([2, 2], -3) + like() + [1, 1, 0, 0]
    )
    out["slice_grad_negative"] = (
        [208]
        + free("u16", [1, 1, 4, 4])
        + params([0, 0, 0, 1], 0)
        + params([1, 1, 4, 3], 1)
        + params([1, 1, -2, 2], -3)
        + like()
        + [1, 1, 0, 0]
    )
    # DiagonalMatrix: f32 {3,4}, value 1.0, begin 0, end 1; then with an input, begin -1, end 2
    out["diagonal_matrix"] = [209] + free("f32", [3, 4]) + scalar(0x3F800000) + [0, 4, 0, 5, 0] + [0, 0]
    out["diagonal_matrix_input"] = [209] + free("i32", [2, 3, 5]) + scalar(7) + [0, 3, 0, 6, 1] + like() + [0, 0]
    out["diagonal_matrix_triu"] = [209] + free("u8", [4, 5]) + scalar(0) + [250, 0, 5, 1] + like() + [0, 0]
    # FillValueSequence: i8 {2,3}, start 120, delta 5; f32 {5}, start 0, delta 0.1f
    out["fill_value_sequence"] = [210] + free("i8", [2, 3]) + scalar(120) + scalar(5) + [0, 0]
    out["fill_value_sequence_f32"] = [210] + free("f32", [5]) + scalar(0) + scalar(0x3DCCCCCD) + [0, 0]
    # the harness's zero-heavy fill reads per byte: b % 3 != 0 gives 0, else the next byte
    one = [1, 1, 0, 0x80, 0, 0x3F]  # 1.0f little-endian
    fill = one + [1] * 8 + one + [1] * 4 + one
    # NonzeroCoordinates: f32 {2,4}, count {1,1}, coordinates {8,2}; an input with zero elements
    out["nonzero_coordinates"] = (
        [211] + free("f32", [2, 4]) + [1, 1] + free("u32", [1, 1]) + [0, 1, 1, 1] + [0, 2] + fill
    )
    # MaxUnpooling: f32 {1,1,2,2}, UINT32 indices, output {1,1,4,4}; indices 1, 3, 2, 0
    out["max_unpooling"] = (
        [212] + free("f32", [1, 1, 2, 2]) + [1, 2, 1] + like() + [1, 0, 0, 1, 1, 1] + [0, 0, 1, 3, 2, 0]
    )
    # Unfold: f32 {1,1,4,4}, window {3,3}, strides 1, dilations 1, start {1,0}, end {1,0}, 2 leading 1s
    out["unfold"] = (
        [213]
        + free("f32", [1, 1, 4, 4])
        + params([3, 3], 1)
        + params([1, 1], 1)
        + params([1, 1], 1)
        + params([1, 0], 0)
        + params([1, 0], 0)
        + like()
        + [1, 2, 1]
        + [0, 0]
    )
    out["unfold_1d_dilated"] = (
        [213]
        + free("u16", [1, 2, 4])
        + params([2], 1)
        + params([2], 1)
        + params([2], 1)
        + params([1], 0)
        + params([0], 0)
        + like()
        + [1, 1, 1]
        + [0, 0]
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
    # MaxUnpooling's lowering multiplied an output size by a valid stride near 2^62 (UBSan: signed
    # overflow at compile time; the buffers are too large to execute).
    out["repro_max_unpooling_merge_overflow"] = list(
        bytes.fromhex(
            "d400fafd04fe0000000000020122222222222222222222222222000000024d030101062eff06010010008e2300000000003b"
        )
    )
    # The harness's own Tile decoding multiplied a size near 2^62 by the repeats (UBSan).
    out["repro_harness_tile_size_overflow"] = list(
        bytes.fromhex("c9030104cecece018a7e0000000000004507000099ff5dfdbfff00000087878700000000004500006a006a")
    )
    # ... and its SpaceToDepth / DepthToSpace decoding squared a block size near 2^60 (UBSan).
    out["repro_harness_depth_space_block_overflow"] = list(
        bytes.fromhex(
            "ccf70104040000020201010306f8faa2fa14f930df766173206e6f7420646566696e656f769b8e6c6170023276323a652000002afd4344"
        )
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
