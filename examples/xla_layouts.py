"""XLA shapes and layouts (SPEC.md 5): minor_to_major, padding, index arithmetic, relayout."""

import numpy as np

from strided import xla

# seed 004: [2 x 3] "a b c / d e f" with minor_to_major {0, 1} (column-major), padded to [3, 5].
s = xla.Shape("f32", [2, 3], xla.Layout([0, 1], padded_dimensions=[3, 5]))
print(s, "byte_size", s.byte_size)
print(s.describe(values=[list("abc"), list("def")]))  # a d 0 b e 0 c f 0 0 0 0 0 0 0

x = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
phys = xla.to_physical(x, s)  # the buffer as XLA lays it out, padding = 0
print("physical:", phys.tolist())
assert phys.tolist() == [1, 4, 0, 2, 5, 0, 3, 6, 0, 0, 0, 0, 0, 0, 0]
assert np.array_equal(xla.from_physical(phys, s), x)  # a zero-copy logical view

# Index arithmetic (IndexUtil), padding-aware.
print("linear index of (1, 2):", xla.multidimensional_index_to_linear_index(s, [1, 2]))  # 2*3 + 1 = 7
big = xla.Shape.parse("f32[5,8,10,4]{3,2,1,0}")
print("stride of dim 1 in", big, "=", xla.dimension_stride(big, 1))  # 40

# Relayout between two layouts is one strided copy.
row = xla.make_shape("f32", [2, 3])
back = xla.relayout(phys, s, row)
assert np.array_equal(back, x.ravel())
print("relayout to", row, "->", back.tolist())

# Tiled layouts (SPEC 5.1): T(2,2) cuts the two minor dimensions into 2x2 tiles stored one after
# another; partial tiles at the edges hold the padding value.
t = xla.Shape.parse("f32[3,5]{1,0:T(2,2)}")
print(t, "byte_size", t.byte_size)  # 96: 2x3 tiles of 4 elements
print(t.describe(values=np.arange(1, 16).reshape(3, 5)))  # 1 2 6 7 3 4 8 9 5 0 10 0 ...
y = np.arange(15, dtype=np.float32).reshape(3, 5)
tiled = xla.to_physical(y, t)
assert xla.multidimensional_index_to_linear_index(t, (2, 3)) == 17 and tiled[17] == y[2, 3]
assert np.array_equal(xla.from_physical(tiled, t), y)  # a copy: no strided view exists
assert np.array_equal(xla.relayout(tiled, t, xla.make_shape("f32", [3, 5])), y.ravel())
# T(2,4)(2,1): tiles of 2x4, then each tile's pairs of rows interleaved (TPU bf16 style).
sub = xla.Shape.parse("f32[4,8]{1,0:T(2,4)(2,1)}")
print(sub, [xla.multidimensional_index_to_linear_index(sub, (1, c)) for c in range(8)])  # 1 3 5 ... 15
