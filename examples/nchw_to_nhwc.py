"""NCHW -> NHWC with one Identity copy: the output description carries NHWC strides (SPEC.md 3.1)."""

import time

import numpy as np

import strided as sd

n, c, h, w = 8, 64, 56, 56
x = np.random.default_rng(0).standard_normal((n, c, h, w), dtype=np.float32)

# 1. As a description: same sizes (N, C, H, W), the output's strides say "channels last".
nchw = sd.TensorDesc("float32", [n, c, h, w])
nhwc = sd.TensorDesc("float32", [n, c, h, w], strides=sd.packed_strides([n, c, h, w], "NHWC"))
print("NHWC strides (elements):", nhwc.strides)
op = sd.compile(sd.IdentityDesc(nchw, nhwc))
buf = np.empty(n * h * w * c, np.float32)  # the NHWC buffer, flat
op.execute([x], [buf])
assert np.array_equal(buf.reshape(n, h, w, c), x.transpose(0, 2, 3, 1))

# 2. On arrays: copy into an NHWC array seen through an NCHW-shaped view.
y = np.empty((n, h, w, c), np.float32)
sd.copy(x, y.transpose(0, 3, 1, 2))
assert np.array_equal(y, x.transpose(0, 2, 3, 1))


# The same against numpy (a rough figure; see benchmarks/ for real measurements).
def best(f, reps=5):
    t = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        t.append(time.perf_counter() - t0)
    return min(t)


gb = 2 * x.nbytes / 1e9
t_sd = best(lambda: op.execute([x], [buf]))
t_np = best(lambda: np.copyto(y, x.transpose(0, 2, 3, 1)))
print(f"strided {gb / t_sd:.1f} GB/s, numpy {gb / t_np:.1f} GB/s ({sd.get_num_threads()} threads)")
