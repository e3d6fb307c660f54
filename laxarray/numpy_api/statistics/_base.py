"""Shared pieces of the statistics family: input conversion, dtype rules, small lax helpers.

Everything here is private to ``laxarray.numpy_api.statistics`` and its ``_stats_*``
modules.  dtype decisions use NumPy's own promotion (``numpy.promote_types``), because the
NumPy surface follows NumPy 2 (NEP 50) where the standard's table is silent.
"""

from __future__ import annotations

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.jaxapi import is_tracer
from laxarray.array_api._convert import to_raw

__all__ = ["raw", "concrete", "count_dtype", "rounded_mul", "no_out"]

#: dtype of counts and indices (NumPy's intp; the backend's indexing dtype)
count_dtype = _dt.default_index


#: the raw jax value of an array-like argument (``TypeError`` naming ``fn`` if unusable)
raw = to_raw


def concrete(value):
    """The NumPy value of a raw jax array, or ``None`` while tracing."""
    if is_tracer(value):
        return None
    return np.asarray(value)


def rounded_mul(a, b):
    """``a * b`` rounded as NumPy rounds it: the select keeps XLA from contracting the
    product with a following add into a fused multiply-add (which moves ties by an ulp)."""
    p = lax.mul(a, b)
    if _dt.kind_of(p.dtype) not in "fc":
        return p
    return lax.select(lax.ne(p, p), lax.full_like(p, np.nan), p)


def no_out(fn, out):
    """NumPy's ``out=`` is accepted for signature compatibility but must be ``None``."""
    if out is not None:
        fail(TypeError, fn, "out=None (laxarray arrays are immutable values; use the result)",
             out)


def pyscalar(v):
    """Whether ``v`` is a Python int, float or bool (NumPy's weak scalars), not an array."""
    return type(v) in (int, float, bool)
