"""The optional peers of the benchmarks (torch, ONNX Runtime with onnx), imported before strided.

torch first, as the README advises users: strided's wheel then shares torch's OpenMP runtime;
imported after strided, two runtimes' spinning threads share the cores and slow both sides' rows.
"""

from __future__ import annotations

try:
    import torch
except ImportError:  # pragma: no cover - torch is optional
    torch = None

try:
    import onnxruntime as ort
    from onnx import TensorProto, helper
except ImportError:  # pragma: no cover - onnxruntime is optional
    ort = TensorProto = helper = None

__all__ = ["torch", "ort", "TensorProto", "helper"]
