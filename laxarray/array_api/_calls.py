"""Calling kernels on laxarray Arrays: bucketed inputs, wrapping results.

A kernel (``laxarray._core.runtime.kernel``) runs on raw jax values; :func:`call` is the one way a
kernel runs on the buckets: where the kernel's declaration lets it (its ``shape``,
``bucket``, ``fills``, ``unpadded`` and ``extents``, ``kernel.Kernel``) it takes the padded
values of its arguments and the binding of the buckets' static arguments, else the exact
values and the caller's; it wraps the result(s) as Arrays of their logical shape.  An
elementwise kernel (``Kernel.pointwise``) runs there first, on the padded values of
bucketed Arrays as they are (its body needs no masking), operands of different dtypes cast
first where it declares so: the hot path of every elementwise function.  It sits above the
Array, which it builds.
"""

from __future__ import annotations

import numpy as np

from laxarray._core.runtime.host_path import DECLINED
from laxarray._core.jaxapi import Tracer
from laxarray._core import buckets as _buckets
from laxarray._core.buckets import bucket_shape, extents, pad_host
from laxarray._core.runtime.kernel import Kernel
from laxarray.array_api._array import Array, wrap, wrap_padded, wrap_padded_like
from laxarray.array_api._broadcast import broadcast_shapes2_cached


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
    value (a Python scalar, a 0-d NumPy/jax value) and the argument at a position in
    ``unpadded`` (an index parameter vector, NumPy or device) as they are; a larger array,
    another jax array or a tracer runs exact."""
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
        elif i in unpadded:     # an index parameter vector (NumPy or device), as it is
            out.append(a)
            shapes.append(a.shape)
        elif t is np.ndarray:
            p = pad_host(a)
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
    its results are padded Arrays of the logical shape.  An elementwise kernel
    (``Kernel.pointwise``: one or two operands, Arrays or raw values, no statics) runs on
    the padded values of its bucketed Arrays with a 0-d value beside them
    (:func:`call_pointwise2`)."""
    pw = kern.pointwise
    if pw is not None:
        if len(arrays) == 1:
            x = arrays[0]     # an Array (the decorator wraps its operand first)
            p = x._padded()
            if p is not False:  # the hot path: the padded result
                return wrap_padded_like(pw.bound.run_eager((p,)), x)
            return wrap(pw.bound(x._value))
        return call_pointwise2(pw, *arrays)
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


def run_padded(kern, padded, **static):
    """The raw result of ``kern`` (statics ``static``) run on ``padded``: bucket-shaped
    values whose padding needs no masking, placed by the caller (a piece of a bucketed
    concat, an operand cast to its promoted dtype first).  For results that are not yet an
    Array's; :func:`call` is the way otherwise."""
    return kern.bind(tuple(static.items())).run_eager(tuple(padded))


def call_pointwise2(pw, a, b):
    """A binary elementwise kernel (``pw``: its ``Kernel.pointwise``) on ``a`` and ``b``:
    Arrays, or raw values (a Python scalar made a 0-d value of the dtype it promotes to).
    Two bucketed Arrays run padded (cast first to one dtype where ``pw.cast_first`` says),
    as does a bucketed Array beside a 0-d value; anything else runs exact.  :func:`call` of
    such a kernel, without its argument packing: the binary functions' hot path."""
    bound = pw.bound
    if type(a) is Array:
        pa = a._padded()
        if type(b) is Array:
            pb = b._padded()
            if pa is not False and pb is not False:
                sa, sb = a.shape, b.shape
                shape = sa if sa == sb else broadcast_shapes2_cached(pw.name, sa, sb)
                if pa.dtype != pb.dtype and pw.cast_first is not None:
                    pa, pb = pw.cast_first(pa, pb)
                return wrap_padded(bound.run_eager((pa, pb)), shape)
            return wrap(bound(a._value, b._value))
        if pa is not False and b.shape == ():
            return wrap_padded(bound.run_eager((pa, b)), a.shape)
        return wrap(bound(a._value, b))
    if type(b) is Array:
        pb = b._padded()
        if pb is not False and a.shape == ():
            return wrap_padded(bound.run_eager((a, pb)), b.shape)
        return wrap(bound(a, b._value))
    return wrap(bound(a, b))


__all__ = ["call", "call_pointwise2", "padded_inputs", "run_padded", "wrap_bucketed"]
