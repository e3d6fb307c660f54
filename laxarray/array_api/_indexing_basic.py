"""Basic index keys on Arrays: ``x[key]`` as a view (NumPy's rule) and ``x[key] <op>= v``
as a new Array, padded arrays staying padded.

The plans and kernels are ``_index_plan``'s; here a get chooses the bucketed kernel where
the array and the result fit a bucket, the exact one otherwise, and makes the result a
view of ``x`` (``_views``); an update checks the value by ``__setitem__``'s rule
(``_convert.value_operand``) and NumPy's broadcasting, then runs one kernel.  Results of
updates are new Arrays: the caller rebinds.
"""

from __future__ import annotations

import math

import numpy as np

from laxarray._core.errors import broadcast_error, shape_text
from laxarray._core.jaxapi import put_like
from laxarray._core.buckets import bucket_shape
from laxarray.array_api import _views
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._broadcast import broadcastable
from laxarray.array_api._calls import call, call_padded
from laxarray.array_api._convert import value_operand
from laxarray.array_api._index_plan import (_getitem_kernel, _getitem_padded_kernel,
                                            _setitem_kernel, _setitem_padded_kernel,
                                            basic_plan, dynamic_plan, padded_plan)

_NAME_GET = "Array.__getitem__"


def getitem_basic(x, key, fn=_NAME_GET, view=True):
    """``x[key]`` for a basic key: a view of ``x`` (NumPy's rule), except where every index
    is an integer (NumPy returns a scalar, a copy, then) or ``view`` is false; padded arrays
    stay padded."""
    axes, out_shape = basic_plan(fn, x.shape, key)
    plan, starts = dynamic_plan(axes, x.shape)
    out = None
    p = x._padded()
    if p is not False and bucket_shape(out_shape) is not None:
        padded, params, bucket = padded_plan(axes, out_shape)
        out = call_padded(_getitem_padded_kernel, [x, params], out_shape, plan=padded,
                          bucket=bucket)
    if out is None:
        out = call(_getitem_kernel, x._value, starts, plan=plan, out_shape=out_shape)
    if not view or (not out_shape and _only_integers(key)):
        return out
    return _views.make_view(x, ("index", plan, out_shape), starts, out,
                            _views.index_layout(x, _views.key_sources(key, x.ndim), axes))


def _only_integers(key):
    """Whether a basic key indexes with integers alone (NumPy returns a scalar: a copy)."""
    return all(type(k) is int for k in key) if type(key) is tuple else type(key) is int


def update_basic(x, key, value, op, fn):
    """``x`` after ``x[key] <op>= value`` for a basic key, as a new Array (padded arrays
    stay padded); ``value`` is checked by ``__setitem__``'s rule first."""
    axes, out_shape = basic_plan(fn, x.shape, key)
    v = value_operand(fn, value, x.dtype)
    if not broadcastable(tuple(v.shape), out_shape):
        # NumPy's sentence for the same failure
        text = ("setting an array element with a sequence." if not out_shape else
                f"could not broadcast input array from shape {shape_text(v.shape)} into "
                f"shape {shape_text(out_shape)}")
        raise broadcast_error(fn, f"a value broadcastable to shape {out_shape}", value, text)
    if math.prod(out_shape) and math.prod(x.shape):
        p = x._padded()
        if p is not False and bucket_shape(out_shape) is not None:
            if type(v) is np.ndarray and v.ndim:
                v = wrap(put_like(v, p))  # a small sequence value: pad it like an array
            plan, params, bucket = padded_plan(axes, out_shape)
            out = call_padded(_setitem_padded_kernel, [x, v, params], x.shape,
                              plan=plan, bucket=bucket, dtype=x.dtype, op=op)
            if out is not None:
                return out
    plan, starts = dynamic_plan(axes, x.shape)
    return call(_setitem_kernel, x._value, _raw(v), starts, plan=plan, out_shape=out_shape,
                dtype=x.dtype, op=op)


def _raw(v):
    return v._value if type(v) is Array else v


__all__ = ["getitem_basic", "update_basic"]
