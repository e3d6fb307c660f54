"""Calling kernels on laxarray Arrays: bucketed inputs, wrapping results.

A kernel (``laxarray._runtime.kernel``) runs on raw jax values; :func:`call` is the one way a
kernel runs on the buckets: where the kernel's declaration lets it (its ``shape``,
``bucket``, ``fills``, ``unpadded`` and ``extents``, ``kernel.Kernel``) it takes the padded
values of its arguments and the binding of the buckets' static arguments, else the exact
values and the caller's; it wraps the result(s) as Arrays of their logical shape.  It sits
above the Array, which it builds.
"""

from __future__ import annotations

import numpy as np

from laxarray._runtime.host_path import DECLINED
from laxarray._core.jaxapi import Tracer
from laxarray._core import buckets as _buckets
from laxarray._core.buckets import bucket_shape, extents, pad_host
from laxarray._runtime.kernel import Kernel
from laxarray.array_api._array import Array, wrap, wrap_padded


def wrap_bucketed(padded, shape):
    """The Array of logical ``shape`` held as the bucket-shaped result ``padded`` (under
    ``LAXARRAY_BUCKET_POISON`` the bucket invariant is checked: a kernel's padded result
    must have exactly the bucket shape of its logical shape)."""
    if _buckets.POISON and tuple(padded.shape) != bucket_shape(tuple(shape)):
        raise RuntimeError(f"bucketed result of shape {padded.shape} for logical {shape}")
    return wrap_padded(padded, shape)


def _wrap_out(out):
    if type(out) in (tuple, list):
        return tuple(wrap(o) for o in out)
    return wrap(out)


_SCALARS = (bool, int, float, complex)


def padded_inputs(arrays, unpadded=()):
    """``(values on their buckets, logical shapes)`` of ``arrays`` if every one runs there,
    else ``None``: a bucketed Array's padded value, a NumPy array padded on the host, a 0-d
    value (a Python scalar, a 0-d NumPy/jax value) and the NumPy argument at a position in
    ``unpadded`` (an index parameter vector) as they are; a larger array, a jax array or a
    tracer runs exact."""
    out, shapes = [], []
    for i, a in enumerate(arrays):
        t = type(a)
        if t is Array:
            p = a._padded()
            if p is False:
                return None
            out.append(p)
            shapes.append(a.shape)
        elif t in _SCALARS or (getattr(a, "shape", None) == () and
                               not isinstance(a, Tracer)):
            out.append(a)
            shapes.append(())
        elif t is np.ndarray:
            p = a if i in unpadded else pad_host(a)
            if p is None:
                return None
            out.append(p)
            shapes.append(a.shape)
        else:
            return None
    return out, shapes


def call(kern: Kernel, *arrays, **static):
    """Run ``kern`` on ``arrays`` (laxarray arrays or raw values) and wrap the result(s).

    A kernel with a ``shape`` rule runs bucketed when every input runs on its bucket
    (:func:`padded_inputs`) and the rule gives a logical result shape; it is bound to the
    static arguments its ``bucket`` rule gives for the buckets (``Kernel.on_buckets``), and
    its results are padded Arrays of the logical shape."""
    items = tuple(static.items())
    if kern.shape is not None:
        if kern.host is not None:   # a declared host path takes exact values, unbucketed
            out = kern.host.run(kern.bind(items), [a._value if type(a) is Array else a
                                                   for a in arrays])
            if out is not DECLINED:
                return _wrap_out(out)
        found = padded_inputs(arrays, kern.unpadded)
        if found is not None:
            padded, shapes = found
            out_shape, bound = kern.on_buckets(static, items, shapes)
        if found is not None and out_shape is not None:
            if kern.extents or (kern.fills and any(f is not None for f in kern.fills)):
                out = bound.run_masked(padded, [extents(s) for s in shapes])
            else:
                out = bound.run_eager(padded)
            if type(out) in (tuple, list):
                return tuple(wrap_bucketed(o, s) for o, s in zip(out, out_shape))
            return wrap_bucketed(out, out_shape)
    raw = [a._value if type(a) is Array else a for a in arrays]
    if kern.extents:
        raw.append(None)
    return _wrap_out(kern.bind(items)(*raw))


__all__ = ["call", "padded_inputs", "wrap_bucketed"]
