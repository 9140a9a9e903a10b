"""strided in one page: functions on numpy arrays, then a description compiled once and run."""

import numpy as np

import strided as sd

x = np.arange(1, 17, dtype=np.float32).reshape(1, 1, 4, 4)

# Slice1 with a negative stride walks the window backwards (SPEC.md 3.3).
y = sd.slice(x, offsets=[0, 0, 0, 1], sizes=[1, 1, 4, 3], strides=[1, 1, -2, 2])
print("slice:\n", y[0, 0])
assert y[0, 0].tolist() == [[14, 16], [6, 8]]

# Split takes part SIZES (as DirectML, ONNX and torch do); join undoes it.
parts = sd.split(np.arange(1, 13).reshape(1, 1, 6, 2), [2, 1, 3], axis=2)
print("split sizes:", [p.shape for p in parts])
assert np.array_equal(sd.join(parts, axis=2), np.arange(1, 13).reshape(1, 1, 6, 2))

# A description: validated once (with DirectML's rules and feature levels), compiled, executed many times.
op = sd.Slice1Desc(
    sd.TensorDesc("float32", [1, 1, 4, 4]),
    sd.TensorDesc("float32", [1, 1, 2, 2]),
    offsets=[0, 0, 0, 1],
    sizes=[1, 1, 4, 3],
    strides=[1, 1, -2, 2],
)
op.validate()
print("lowest DirectML feature level:", op.min_feature_level.name)  # FL_2_1
compiled = sd.compile(op)
out = np.zeros((1, 1, 2, 2), np.float32)
compiled.execute([x], [out])  # any buffer-protocol objects
assert np.array_equal(out, y)

# Errors name the description, the field and the rule.
bad = sd.Slice1Desc(op.input, op.output, [0, 0, 0, 1], [1, 1, 4, 3], [1, 1, 0, 2])
try:
    bad.validate()
except sd.ValidationError as e:
    print("rejected:", e)

# What a layout looks like in memory: a padded row pitch (DirectML's "A B C x x D E F x x").
print(sd.TensorDesc("float32", [2, 3], strides=[5, 1], total_bytes=40).describe(values=[list("ABC"), list("DEF")]))
print(sd.build_info())
