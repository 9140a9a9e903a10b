"""A tour of strided's data-movement family on a small image-model pipeline.

Every step is one strided call checked against the numpy spelling of the same thing:
uint8 NHWC images -> float16 NCHW (permute_dims + cast), reflection padding (pad), im2col for a
3x3 convolution (unfold), a pixel-shuffle upsampling (depth_to_space), one-hot labels (one_hot),
a causal attention mask (triu over full), position ids (arange), and the coordinates of the
pixels above a threshold (argwhere). Run: python examples/image_pipeline.py
"""

import numpy as np

import strided as sd

rng = np.random.default_rng(0)
N, H, W, C = 2, 8, 8, 3
images = rng.integers(0, 256, size=(N, H, W, C), dtype=np.uint8)  # as decoded: NHWC, uint8

# 1. NHWC uint8 -> NCHW float16: a relayout, then a conversion (SPEC 3.5's Cast rules).
nchw = sd.permute_dims(images, (0, 3, 1, 2))
x = sd.cast(nchw, np.float16)
assert x.dtype == np.float16 and x.shape == (N, C, H, W)
assert np.array_equal(x, images.transpose(0, 3, 1, 2).astype(np.float16))

# 2. Reflection padding by 1 on H and W (DirectML Padding1, numpy's "reflect").
padded = sd.pad(x, [0, 0, 1, 1], [0, 0, 1, 1], mode="reflect")
assert np.array_equal(padded, np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), mode="reflect"))

# 3. im2col for a 3x3 convolution (DirectML Unfold = torch.nn.functional.unfold): [N, C*9, H*W].
cols = sd.unfold(padded, (3, 3))
windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(2, 3))  # N, C, H, W, 3, 3
assert np.array_equal(cols, windows.transpose(0, 1, 4, 5, 2, 3).reshape(N, C * 9, H * W))
# A 3x3 convolution with 4 output channels is then one matrix product.
weights = rng.standard_normal((4, C * 9)).astype(np.float32)
conv = (weights @ cols.astype(np.float32)).reshape(N, 4, H, W)

# 4. Pixel shuffle: 4 channels of 8x8 -> 1 channel of 16x16 (DepthToSpace, CRD = torch's order).
up = sd.depth_to_space(conv, 2, mode="CRD")
ref = conv.reshape(N, 1, 2, 2, H, W).transpose(0, 1, 4, 2, 5, 3).reshape(N, 1, 2 * H, 2 * W)
assert np.array_equal(up, ref)

# 5. One-hot labels (ONNX OneHot): 10 classes, float32 rows.
labels = np.array([3, 0, 9, 7])
onehot = sd.one_hot(labels, 10, values=np.array([0, 1], np.float32))
assert np.array_equal(onehot, np.eye(10, dtype=np.float32)[labels])

# 6. A causal attention mask: -inf above the diagonal (FillValueConstant, then DiagonalMatrix1's triu).
T = 6
mask = sd.triu(sd.full((T, T), -np.inf, np.float32), k=1)
assert np.array_equal(mask, np.triu(np.full((T, T), -np.inf, np.float32), k=1))

# 7. Position ids (FillValueSequence) and a tiled batch of them (Tile).
pos = sd.arange(0, T, dtype=np.int64)
batch_pos = sd.tile(pos.reshape(1, T), (N, 1))
assert np.array_equal(batch_pos, np.tile(np.arange(T), (N, 1)))

# 8. Coordinates of the bright pixels (NonzeroCoordinates = numpy argwhere).
bright = sd.argwhere(images[..., 0] > 250)
assert np.array_equal(bright, np.argwhere(images[..., 0] > 250))

print(f"image_pipeline: OK ({len(bright)} bright pixels, im2col {cols.shape}, upsampled {up.shape})")
