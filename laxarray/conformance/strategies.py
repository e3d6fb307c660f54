"""Hypothesis strategies for conformance: dtypes, shapes, arrays with special values, axes.

Strategies build **NumPy** arrays (the oracle's inputs); a spec converts them to the
namespace under test with ``xp.asarray``.  Shapes are kept small (rank <= 3, sides <= 4)
so that jit-compiling namespaces reuse compiled kernels across examples.
"""

from __future__ import annotations

from builtins import max as builtins_max, min as builtins_min

import numpy as np
from hypothesis import strategies as st

BOOL = ("bool",)
SIGNED = ("int8", "int16", "int32", "int64")
UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
INTEGRAL = SIGNED + UNSIGNED
REAL_FLOATING = ("float32", "float64")
COMPLEX_FLOATING = ("complex64", "complex128")
FLOATING = REAL_FLOATING + COMPLEX_FLOATING
NUMERIC = INTEGRAL + FLOATING
ALL = BOOL + NUMERIC
REAL_NUMERIC = INTEGRAL + REAL_FLOATING

#: dtype-name groups by category name (as used in specs).
DTYPE_GROUPS = {
    "bool": BOOL, "integral": INTEGRAL, "signed integer": SIGNED,
    "unsigned integer": UNSIGNED, "real floating": REAL_FLOATING,
    "complex floating": COMPLEX_FLOATING, "floating-point": FLOATING, "numeric": NUMERIC,
    "real numeric": REAL_NUMERIC, "integer or boolean": BOOL + INTEGRAL, "any": ALL,
    "real": BOOL + REAL_NUMERIC,
}


def shapes(min_dims=0, max_dims=3, min_side=0, max_side=4):
    """Array shapes, 0-d and empty included."""
    return st.lists(st.integers(min_side, max_side), min_size=min_dims,
                    max_size=max_dims).map(tuple)


def broadcastable_shapes(shape):
    """Shapes that broadcast with ``shape`` (dims dropped from the left or set to 1)."""
    def make(draw_dims):
        drop, ones = draw_dims
        out = list(shape[drop:])
        for i in ones:
            if i < len(out):
                out[i] = 1
        return tuple(out)
    return st.tuples(st.integers(0, len(shape)),
                     st.lists(st.integers(0, max(len(shape) - 1, 0)), max_size=2)).map(make)


def _special_floats(dtype):
    info = np.finfo(dtype)
    return [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0,
            float(info.max), float(-info.max), float(info.tiny), float(info.smallest_subnormal),
            float(-info.smallest_subnormal), np.pi, -np.pi / 2, 1e-8, -3.0]


def scalars(dtype, *, finite=False, min_value=None, max_value=None):
    """Scalars of ``dtype`` biased towards special values (NaN, +-inf, +-0, subnormals,
    extremes) unless ``finite``."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return st.booleans()
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo = info.min if min_value is None else max(info.min, min_value)
        hi = info.max if max_value is None else min(info.max, max_value)
        edges = [v for v in (lo, hi, 0, 1, -1, 2) if lo <= v <= hi]
        return st.one_of(st.sampled_from(edges), st.integers(lo, hi))
    real_dt = np.dtype(f"float{dt.itemsize * 4}") if dt.kind == "c" else dt
    width = real_dt.itemsize * 8
    specials = _special_floats(real_dt)
    if finite:
        specials = [v for v in specials if np.isfinite(v)]
    if min_value is not None or max_value is not None:
        lo = -np.inf if min_value is None else min_value
        hi = np.inf if max_value is None else max_value
        specials = [v for v in specials if lo <= v <= hi]
    real = st.one_of(
        st.sampled_from(specials) if specials else st.nothing(),
        st.floats(min_value=min_value, max_value=max_value, width=width,
                  allow_nan=not finite and min_value is None and max_value is None,
                  allow_infinity=not finite and (min_value is None or max_value is None),
                  allow_subnormal=True),
        st.floats(-10.0 if min_value is None else builtins_max(-10.0, min_value),
                  10.0 if max_value is None else builtins_min(10.0, max_value), width=width),
    )
    if dt.kind == "c":
        return st.builds(complex, real, real)
    return real


def arrays(dtype, shape, *, finite=False, min_value=None, max_value=None):
    """NumPy arrays of ``dtype`` and ``shape`` with elements from :func:`scalars`."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape)) if shape else 1
    elems = scalars(dtype, finite=finite, min_value=min_value, max_value=max_value)
    return st.lists(elems, min_size=n, max_size=n).map(
        lambda vals: np.asarray(vals, dtype=dt).reshape(shape))


def dtypes(group):
    """dtype names of a group (``"numeric"``, ``"real floating"`` ...)."""
    return st.sampled_from(DTYPE_GROUPS[group])


def axes(ndim, *, allow_none=True, allow_tuple=True):
    """Axis arguments: None, a (possibly negative) int, or a tuple of unique axes."""
    options = []
    if allow_none:
        options.append(st.none())
    if ndim > 0:
        options.append(st.integers(-ndim, ndim - 1))
        if allow_tuple:
            options.append(st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim)
                           .map(tuple))
    return st.one_of(*options)
