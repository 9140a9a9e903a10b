"""Arrays beside PROT_NONE guard regions (mmap + mprotect; POSIX): a kernel that reads or writes
one byte past its operand dies with SIGSEGV, with or without ASan."""

from __future__ import annotations

import ctypes
import mmap

import numpy as np

PAGE = mmap.PAGESIZE
GUARD = 16 * PAGE
_libc = ctypes.CDLL(None, use_errno=True)
_libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_keep: list[object] = []


def guarded(shape: tuple[int, ...], dtype: type, at_end: bool) -> np.ndarray:
    """A zeroed array whose first byte (at_end=False) or last byte (at_end=True) touches a
    PROT_NONE guard region of GUARD bytes; the other side is guarded too."""
    nbytes = int(np.prod(shape)) * np.dtype(dtype).itemsize
    body = (nbytes + PAGE - 1) // PAGE * PAGE
    mm = mmap.mmap(-1, GUARD + body + GUARD, prot=mmap.PROT_READ | mmap.PROT_WRITE)
    base = ctypes.addressof(ctypes.c_char.from_buffer(mm))
    for start in (base, base + GUARD + body):
        if _libc.mprotect(start, GUARD, 0) != 0:
            raise OSError(ctypes.get_errno(), "mprotect failed")
    offset = GUARD + (body - nbytes if at_end else 0)
    a = np.frombuffer(mm, dtype=np.uint8, count=nbytes, offset=offset).view(dtype).reshape(shape)
    _keep.append(mm)
    return a
