"""Property-based fuzzing of the description path (issue 6): hypothesis draws random descriptions,
valid and invalid, and pushes each through validate -> compile -> execute on buffers sized from
the description (total_bytes), each between canary guard zones. Properties:

* only typed errors escape; compile() rejects exactly what validate() rejects;
* execute never writes outside [0, total_bytes) of an output, never writes an input, and a
  failed execute (IndexError) leaves every output byte as it was;
* valid Identity/Slice/Slice1/Split/Join/GatherElements/Scatter results equal a numpy reference
  built from the descriptions independently of strided (as_strided views of the raw bytes).

Example counts: STRIDED_FUZZ_EXAMPLES (default 120 per test), or STRIDED_HYPOTHESIS_PROFILE=
sanitize (a short run for the ASan build). scripts/run_fuzz.sh covers the C++ path at length.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

import strided as sd

VE = sd.ValidationError
if os.environ.get("STRIDED_HYPOTHESIS_PROFILE") == "sanitize":
    EXAMPLES = 25
else:
    EXAMPLES = int(os.environ.get("STRIDED_FUZZ_EXAMPLES", "120"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)

DTYPES = [sd.DataType(v) for v in range(1, 12)]
INDEX_DTYPES = [sd.DataType.INT32, sd.DataType.INT64, sd.DataType.UINT32, sd.DataType.UINT64]
GUARD = 32
CANARY = 0xA5


# ---------------------------------------------------------------- strategies
@st.composite
def strides_for(draw, sizes):
    """None (packed), random small strides (0 broadcasts), or a padded permutation."""
    kind = draw(st.sampled_from(["packed", "random", "perm"]))
    if kind == "packed":
        return None
    if kind == "random":
        return [draw(st.integers(0, 6)) for _ in sizes]
    order = draw(st.permutations(range(len(sizes))))
    s = draw(st.integers(1, 2))
    out = [0] * len(sizes)
    for d in reversed(order):
        out[d] = s
        s *= sizes[d] + draw(st.integers(0, 1))
    return out


@st.composite
def tensor(draw, dtype=None, sizes=None, ndim=None):
    dtype = dtype if dtype is not None else draw(st.sampled_from(DTYPES))
    if sizes is None:
        n = ndim if ndim is not None else draw(st.integers(1, 4))
        sizes = [draw(st.integers(1, 4)) for _ in range(n)]
    strides = draw(strides_for(sizes))
    minimum = sd.calc_buffer_tensor_size(dtype, sizes, strides)
    total = draw(st.one_of(st.none(), st.integers(0, 3).map(lambda k: minimum + 4 * k)))
    return sd.TensorDesc(dtype, sizes, strides, total_bytes=total)


def like(draw, t, mutate):
    """A tensor with t's dtype and sizes (new strides); when `mutate`, maybe one thing differs."""
    dtype, sizes = t.dtype, list(t.sizes)
    if mutate:
        what = draw(st.sampled_from(["dtype", "size", "ndim", "none"]))
        if what == "dtype":
            dtype = draw(st.sampled_from(DTYPES))
        elif what == "size":
            k = draw(st.integers(0, len(sizes) - 1))
            sizes[k] = draw(st.integers(1, 5))
        elif what == "ndim":
            sizes = sizes + [1] if len(sizes) < 8 else sizes[:-1]
    return draw(tensor(dtype=dtype, sizes=sizes))


@st.composite
def identity_desc(draw):
    x = draw(tensor())
    return sd.IdentityDesc(x, like(draw, x, draw(st.booleans())))


@st.composite
def slice_descs(draw):
    x = draw(tensor())
    n = x.ndim
    bad = draw(st.integers(0, 4)) == 0  # one draw in five may step outside the rules
    v1 = draw(st.booleans())
    offsets, sizes, strides, out_sizes = [], [], [], []
    for d in range(n):
        size = x.sizes[d]
        if v1:
            stride = draw(st.integers(1, 3))
            cnt = draw(st.integers(1, size))
            off_max = size - 1 - (cnt - 1) * stride
            if off_max < 0:
                cnt, off_max = 1, size - 1
            off = draw(st.integers(0, off_max))
            offsets.append(off), sizes.append(cnt), strides.append(stride), out_sizes.append(cnt)
        else:
            win = draw(st.integers(1, size))
            off = draw(st.integers(0, size - win))
            stride = draw(st.sampled_from([-3, -2, -1, 1, 2, 3]))
            maxc = 1 + (win - 1) // abs(stride)
            offsets.append(off), sizes.append(win), strides.append(stride)
            out_sizes.append(draw(st.integers(1, maxc)))
    if bad:
        k = draw(st.integers(0, n - 1))
        field = draw(st.sampled_from(["offsets", "sizes", "strides", "out"]))
        delta = draw(st.sampled_from([-(2**63), -5, -1, 1, 3, 2**62, 2**63 - 1]))
        target = {"offsets": offsets, "sizes": sizes, "strides": strides, "out": out_sizes}[field]
        if field == "out":
            target[k] = max(1, target[k] + min(abs(delta), 5))
        else:
            target[k] = max(-(2**63), min(2**63 - 1, target[k] + delta))
    if v1 and not bad:
        sizes = list(out_sizes)
    out = draw(tensor(dtype=x.dtype, sizes=out_sizes))
    cls = sd.SliceDesc if v1 else sd.Slice1Desc
    return cls(x, out, offsets, sizes, strides)


def composition(draw, total, parts):
    cuts = sorted(draw(st.lists(st.integers(1, total - 1), min_size=parts - 1, max_size=parts - 1, unique=True)))
    edges = [0] + cuts + [total]
    return [b - a for a, b in zip(edges, edges[1:])]


@st.composite
def split_join_desc(draw):
    x = draw(tensor())
    axis = draw(st.integers(0, x.ndim - 1))
    total = x.sizes[axis]
    parts = draw(st.integers(1, min(total, 4)))
    pieces = composition(draw, total, parts) if total > 1 else [1]
    mutate = draw(st.integers(0, 4)) == 0
    if mutate:
        pieces[draw(st.integers(0, len(pieces) - 1))] += 1
    axis_arg = axis if not (mutate and draw(st.booleans())) else draw(st.sampled_from([-1, x.ndim, 2**63 - 1]))
    ts = []
    for p in pieces:
        sizes = list(x.sizes)
        sizes[axis] = p
        ts.append(draw(tensor(dtype=x.dtype, sizes=sizes)))
    if draw(st.booleans()):
        return sd.SplitDesc(x, ts, axis_arg)
    return sd.JoinDesc(ts, x, axis_arg)


@st.composite
def index_desc(draw):
    """GatherElements or Scatter with in-range (or sometimes out-of-range) indices."""
    x = draw(tensor())
    n = x.ndim
    axis = draw(st.integers(0, n - 1))
    isizes = [draw(st.integers(1, s)) for s in x.sizes]
    isizes[axis] = draw(st.integers(1, 4))
    idt = draw(st.sampled_from(INDEX_DTYPES))
    idx = draw(tensor(dtype=idt, sizes=isizes))
    if draw(st.booleans()):
        return sd.GatherElementsDesc(x, idx, draw(tensor(dtype=x.dtype, sizes=isizes)), axis)
    upd = draw(tensor(dtype=x.dtype, sizes=isizes))
    return sd.ScatterDesc(x, idx, upd, draw(tensor(dtype=x.dtype, sizes=list(x.sizes))), axis)


# ---------------------------------------------------------------- buffers and reference
def logical(buf: np.ndarray, t: sd.TensorDesc) -> np.ndarray:
    """The tensor `t` describes, as a numpy view of the raw bytes (independent of strided)."""
    dt = np.dtype(t.dtype.numpy)
    strides = tuple(s * dt.itemsize for s in t.strides)
    return np.lib.stride_tricks.as_strided(
        buf.view(dt) if buf.size % dt.itemsize == 0 else buf[: buf.size - buf.size % dt.itemsize].view(dt),
        shape=tuple(t.sizes),
        strides=strides,
        writeable=False,
    )


class Guarded:
    """`nbytes` usable bytes between two canary zones."""

    def __init__(self, nbytes: int, rng: np.random.Generator, fill=None):
        self.mem = np.full(nbytes + 2 * GUARD, CANARY, np.uint8)
        self.n = nbytes
        if fill == "random":
            self.data[:] = rng.integers(0, 256, nbytes, dtype=np.uint8)

    @property
    def data(self) -> np.ndarray:
        return self.mem[GUARD : GUARD + self.n]

    def guards_ok(self) -> bool:
        return bool((self.mem[:GUARD] == CANARY).all() and (self.mem[GUARD + self.n :] == CANARY).all())


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    u = np.dtype(f"u{a.dtype.itemsize}")
    return a.shape == b.shape and bool(np.array_equal(np.ascontiguousarray(a).view(u), np.ascontiguousarray(b).view(u)))


def expected_outputs(desc, ins: list[np.ndarray]):
    """numpy reference: a list of logical output arrays, or None when there is none here."""
    if isinstance(desc, sd.IdentityDesc):
        return [logical(ins[0], desc.input)]
    if isinstance(desc, (sd.SliceDesc, sd.Slice1Desc)):
        x = logical(ins[0], desc.input)
        axes = []
        for d, n in enumerate(desc.output.sizes):
            st_, off = desc.strides[d], desc.offsets[d]
            start = off + (desc.sizes[d] - 1 if isinstance(desc, sd.Slice1Desc) and st_ < 0 else 0)
            axes.append(start + st_ * np.arange(n))
        return [x[np.ix_(*axes)]]
    if isinstance(desc, sd.SplitDesc):
        x = logical(ins[0], desc.input)
        cuts = np.cumsum([o.sizes[desc.axis] for o in desc.outputs])[:-1]
        return np.split(x, cuts, axis=desc.axis)
    if isinstance(desc, sd.JoinDesc):
        return [np.concatenate([logical(b, t) for b, t in zip(ins, desc.inputs)], axis=desc.axis)]
    if isinstance(desc, sd.GatherElementsDesc):
        x = logical(ins[0], desc.input)
        idx = logical(ins[1], desc.indices).astype(np.int64)
        idx = np.where(idx < 0, idx + x.shape[desc.axis], idx)
        # Not take_along_axis: indices smaller than x off the axis select, never broadcast (SPEC 3.4).
        at = [np.arange(s).reshape([-1 if d == k else 1 for d in range(idx.ndim)]) for k, s in enumerate(idx.shape)]
        at[desc.axis] = idx
        return [x[tuple(at)]]
    if isinstance(desc, sd.ScatterDesc):
        out = logical(ins[0], desc.input).copy()
        idx = logical(ins[1], desc.indices).astype(np.int64)
        upd = logical(ins[2], desc.updates)
        for c in np.ndindex(*idx.shape):  # row-major order: the last write wins
            i = int(idx[c])
            tgt = list(c)
            tgt[desc.axis] = i + out.shape[desc.axis] if i < 0 else i
            out[tuple(tgt)] = upd[c]
        return [out]
    return None


def outputs_of(desc):
    return list(desc.outputs) if isinstance(desc, sd.SplitDesc) else [desc.output]


def inputs_of(desc):
    if isinstance(desc, sd.JoinDesc):
        return list(desc.inputs)
    if isinstance(desc, sd.ScatterDesc):
        return [desc.input, desc.indices, desc.updates]
    if isinstance(desc, sd.GatherElementsDesc):
        return [desc.input, desc.indices]
    return [desc.input]


def fill_indices(g: Guarded, desc, rng, in_range: bool):
    """Index bytes: in [-size, size) of the axis, or (rarely) one value outside it."""
    t = desc.indices
    size = desc.input.sizes[desc.axis]
    lo = -size if t.dtype in (sd.DataType.INT32, sd.DataType.INT64) else 0
    dt = np.dtype(t.dtype.numpy)
    vals = rng.integers(lo, size, g.n // dt.itemsize).astype(dt)
    g.data[: vals.size * dt.itemsize] = vals.view(np.uint8)
    if not in_range:  # one addressed element (not padding) out of range
        view = np.lib.stride_tricks.as_strided(
            g.data[: vals.size * dt.itemsize].view(dt),
            shape=tuple(t.sizes),
            strides=tuple(s * dt.itemsize for s in t.strides),
        )
        view[tuple(int(rng.integers(0, n)) for n in t.sizes)] = dt.type(size + 3)


# ---------------------------------------------------------------- the property
def run_property(desc, seed: int, bad_indices: bool = False):
    try:
        desc.validate()
        valid = True
    except VE:
        valid = False
    try:
        op = sd.compile(desc)
    except VE:
        assert not valid, "compile() rejected a description validate() accepts"
        return "rejected"
    assert valid, "compile() accepted a description validate() rejects"
    assume(sum(op.input_bytes) + sum(op.output_bytes) < 1 << 20)
    rng = np.random.default_rng(seed)
    ins = [Guarded(n, rng, "random") for n in op.input_bytes]
    has_indices = isinstance(desc, (sd.GatherElementsDesc, sd.ScatterDesc))
    if has_indices:
        fill_indices(ins[1], desc, rng, in_range=not bad_indices)
    before = [g.data.copy() for g in ins]
    outs = [Guarded(n, rng) for n in op.output_bytes]
    failed = False
    try:
        op.execute([g.data for g in ins], [g.data for g in outs])
    except IndexError:
        assert has_indices and bad_indices, "IndexError with every index in range"
        failed = True
    assert all(g.guards_ok() for g in ins + outs), "a write outside a buffer's total_bytes"
    assert all((g.data == b).all() for g, b in zip(ins, before)), "an input was written"
    if failed:
        assert all((g.mem == CANARY).all() for g in outs), "a failed execute wrote to an output"
        return "index-error"
    assert not (has_indices and bad_indices), "an out-of-range index was accepted"
    want = expected_outputs(desc, [b for b in before])
    if want is not None:
        for g, t, w in zip(outs, outputs_of(desc), want):
            assert same_bits(logical(g.data, t), w), f"{type(desc).__name__}: result differs from numpy"
    return "ok"


SEEDS = st.integers(0, 2**32 - 1)


@FUZZ
@given(identity_desc(), SEEDS)
def test_fuzz_identity(desc, seed):
    event(run_property(desc, seed))


@FUZZ
@given(slice_descs(), SEEDS)
def test_fuzz_slice_and_slice1(desc, seed):
    event(run_property(desc, seed))


@FUZZ
@given(split_join_desc(), SEEDS)
def test_fuzz_split_join(desc, seed):
    event(run_property(desc, seed))


@FUZZ
@given(index_desc(), SEEDS, st.integers(0, 5))
def test_fuzz_gather_elements_scatter(desc, seed, bad):
    event(run_property(desc, seed, bad_indices=bad == 0))


# ---------------------------------------------------------------- raw garbage into the constructors
ints = st.one_of(st.integers(-3, 10), st.sampled_from([2**31, 2**32, 2**62, 2**63 - 1, -(2**63), 2**64, -(2**64)]))


@FUZZ
@given(
    st.integers(-2, 14),
    st.lists(ints, max_size=10),
    st.one_of(st.none(), st.lists(ints, max_size=10)),
    st.one_of(st.none(), ints),
    st.one_of(st.just(0), ints),
    st.one_of(st.just(0), ints),
)
def test_fuzz_tensor_desc_garbage(dtype, sizes, strides, total, alignment, flags):
    """Any integers: a TensorDesc whose invariants hold, or a typed error."""
    try:
        t = sd.TensorDesc(dtype, sizes, strides, total_bytes=total, alignment=alignment, flags=flags)
    except (VE, OverflowError, TypeError):
        return
    assert 1 <= t.ndim <= 8 and all(s >= 1 for s in t.sizes) and all(s >= 0 for s in t.strides)
    assert t.total_bytes >= sd.calc_buffer_tensor_size(t.dtype, list(t.sizes), list(t.strides))
    assert t.total_bytes < 2**64


@FUZZ
@given(
    st.sampled_from(["slice", "split", "join", "copy"]),
    st.lists(ints, min_size=1, max_size=9),
    st.lists(ints, max_size=9),
    st.lists(ints, max_size=9),
    st.integers(-10, 10),
)
def test_fuzz_functional_garbage(fn, a, b, c, axis):
    """The functional API with arbitrary integers as parameters: a result or a typed error, and
    the `out=` canary array is untouched on error."""
    x = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    try:
        if fn == "slice":
            out = np.full((1, 1, 1), -7, np.int16)
            try:
                sd.slice(x, a[:3], b[:3], c[:3] or None, out=out)
            except (VE, OverflowError, TypeError, IndexError):
                assert (out == -7).all()
        elif fn == "split":
            sd.split(x, [v for v in a if -5 < v < 50][:5] or 1, axis=axis)
        elif fn == "join":
            sd.join([x, x[:, :1]], axis=axis)
        else:
            out = np.full([max(1, min(v, 3)) for v in a[:4]], -7, np.int16)
            try:
                sd.copy(x[: abs(axis) % 3], out)
            except (VE, TypeError):
                assert (out == -7).all()
    except (VE, OverflowError, TypeError, IndexError):
        pass


@FUZZ
@given(
    st.lists(st.integers(1, 4), min_size=1, max_size=4),
    st.data(),
    st.sampled_from(["int32", "int64", "uint32", "int8", "uint64"]),
)
def test_fuzz_functional_gather_vs_numpy(shape, data, idt):
    """sd.gather / sd.gather_elements on random shapes, axes and (signed) indices equal numpy's
    take / take_along_axis; one out-of-range index raises IndexError and leaves out= untouched."""
    x = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    n = shape[axis]
    lo = 0 if idt.startswith("u") else -n
    ishape = data.draw(st.lists(st.integers(1, 3), min_size=1, max_size=2))
    idx = np.array(
        data.draw(st.lists(st.integers(lo, n - 1), min_size=int(np.prod(ishape)), max_size=int(np.prod(ishape)))),
        dtype=idt,
    ).reshape(ishape)
    assert same_bits(sd.gather(x, idx, axis=axis), np.take(x, idx.astype(np.int64), axis=axis))
    eshape = list(shape)
    eshape[axis] = data.draw(st.integers(1, 3))
    eidx = np.array(
        data.draw(st.lists(st.integers(lo, n - 1), min_size=int(np.prod(eshape)), max_size=int(np.prod(eshape)))),
        dtype=idt,
    ).reshape(eshape)
    want = np.take_along_axis(
        x, np.where(eidx.astype(np.int64) < 0, eidx.astype(np.int64) + n, eidx.astype(np.int64)), axis=axis
    )
    assert same_bits(sd.gather_elements(x, eidx, axis=axis), want)
    bad = eidx.copy()
    bad.flat[data.draw(st.integers(0, bad.size - 1))] = n if n < 127 else 0
    if n < 127:
        out = np.full(eshape, -7.0)
        with pytest.raises(IndexError):
            sd.gather_elements(x, bad, axis=axis, out=out)
        assert (out == -7.0).all()
