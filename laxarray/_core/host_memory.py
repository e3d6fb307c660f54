"""NumPy results handed to jax without a copy: 64-byte aligned host memory, which
``jax.device_put`` on the CPU shares instead of copying (the host paths' eager results,
the host sort's and SciPy's outputs)."""

from __future__ import annotations

import numpy as np

from laxarray._core.jaxapi import device_put, put_like

#: the host alignment at which ``jax.device_put`` on the CPU shares memory instead of copying
_ALIGN = 64


def aligned(shape, dtype):
    """An empty NumPy array on 64-byte aligned memory: ``jax.device_put`` on the CPU then
    takes it without a copy (it copies anything less aligned into a new buffer)."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape)) * dtype.itemsize
    raw = np.empty((nbytes + _ALIGN,), np.uint8)
    start = -raw.ctypes.data % _ALIGN
    return raw[start:start + nbytes].view(dtype).reshape(shape)


def aligned_copy(v):
    """``v`` itself where it is aligned and contiguous, else an aligned copy."""
    if v.ctypes.data % _ALIGN or not v.flags.c_contiguous:
        out = aligned(v.shape, v.dtype)
        out[...] = v
        return out
    return v


def to_like(v, like):
    """NumPy ``v`` (never written again) as a jax array placed and committed like the
    concrete raw ``like``, through aligned host memory (one host copy at most)."""
    return put_like(aligned_copy(np.asarray(v)), like)


def to_device(v, device=None):
    """NumPy ``v`` as a jax array on ``device``, through aligned host memory (one host copy
    at most)."""
    return device_put(aligned_copy(np.asarray(v)), device)


# ---- the table of declarations ---------------------------------------------------------------
