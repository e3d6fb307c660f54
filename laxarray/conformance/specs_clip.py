"""Conformance spec of ``clip``: bounds that are arrays, Python scalars or ``None``, each
array of any rank against ``x``'s: a bound broadcast against ``x``, or ``x`` against a
larger bound (the standard broadcasts ``x`` too: the result has the shape of the three
broadcast together).

Oracle: ``maximum(minimum(x, max), min)`` in NumPy (the standard's definition), so NaN in
``x``, ``min`` or ``max`` gives NaN.  Unspecified inputs are never drawn or are filtered:
bounds of another dtype than ``x``, integer bounds outside ``x``'s dtype, ``min > max``.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from . import strategies as S
from .compare import assert_dtype, assert_shape, assert_values, to_numpy
from .spec import Spec, as_xp, register, resolve


def _oracle(x, lo, hi):
    out = x
    with np.errstate(all="ignore"):
        if hi is not None:
            out = np.minimum(out, hi)
        if lo is not None:
            out = np.maximum(out, lo)
    return np.asarray(out, dtype=x.dtype)


def _zero_sign_free(x, lo, hi, shape):
    """Where the sign of a zero result (of ``shape``) is unspecified: ``x`` and a bound, or
    the two bounds, are zeros of opposite signs (``clip`` is ``minimum``/``maximum``, which
    leave the sign of a zero result to the implementation when zeros of both signs
    meet)."""
    zeros = [np.broadcast_to(v, shape) for v in (x, lo, hi) if v is not None]
    if x.dtype.kind != "f" or len(zeros) < 2:
        return np.zeros(shape, bool)
    pos = np.logical_or.reduce([(v == 0) & ~np.signbit(v) for v in zeros])
    neg = np.logical_or.reduce([(v == 0) & np.signbit(v) for v in zeros])
    return pos & neg


def _draw_bound(data, dtype, shape, label):
    how = data.draw(st.sampled_from(("none", "array", "scalar")), label=f"{label} kind")
    if how == "none":
        return None, None
    if how == "scalar":
        value = np.asarray(data.draw(S.scalars(dtype), label=label), dtype=dtype).item()
        return value, np.asarray(value, dtype=dtype)
    bshape = data.draw(S.broadcastable_shapes(shape), label=f"{label} shape")
    arr = data.draw(S.arrays(dtype, bshape), label=label)
    return arr, arr


def clip_spec():
    """Register the spec of ``clip(x, /, min=None, max=None)``."""
    def check(xp, data):
        dtype = data.draw(S.dtypes("real numeric"), label="dtype")
        shape = data.draw(S.shapes(), label="shape")  # what every operand broadcasts to
        xshape = shape
        if data.draw(st.booleans(), label="x smaller"):  # x broadcast against a bound
            xshape = data.draw(S.broadcastable_shapes(shape), label="x shape")
        x = data.draw(S.arrays(dtype, xshape), label="x")
        lo_arg, lo = _draw_bound(data, dtype, shape, "min")
        hi_arg, hi = _draw_bound(data, dtype, shape, "max")
        shape = np.broadcast_shapes(*(np.shape(v) for v in (x, lo, hi) if v is not None))
        kwargs = {}
        if lo_arg is not None or data.draw(st.booleans(), label="pass min=None"):
            kwargs["min"] = lo_arg if not isinstance(lo_arg, np.ndarray) else as_xp(xp, lo_arg)
        if hi_arg is not None or data.draw(st.booleans(), label="pass max=None"):
            kwargs["max"] = hi_arg if not isinstance(hi_arg, np.ndarray) else as_xp(xp, hi_arg)
        expected = _oracle(x, lo, hi)
        with np.errstate(invalid="ignore"):
            crossed = lo is not None and hi is not None and bool(np.any(lo > hi))
        try:
            out = resolve(xp, "clip")(as_xp(xp, x), **kwargs)
        except Exception:  # noqa: BLE001
            if crossed:  # the standard: min > max is unspecified, raising included
                return
            raise
        assert_dtype("clip", out, dtype)
        assert_shape("clip", out, shape)
        got = to_numpy(out)
        free = _zero_sign_free(x, lo, hi, shape)
        if lo is not None and hi is not None:
            with np.errstate(invalid="ignore"):
                keep = ~np.broadcast_to(lo > hi, shape)
            got, expected, free = got[keep], expected[keep], free[keep]
        # the sign of a zero result is compared only where no zeros of opposite signs met
        unsigned = free & (got == 0) & (expected == 0)
        got, expected = got[~unsigned], expected[~unsigned]
        assert_values("clip", got, expected)
    return register(Spec("clip", check, S.DTYPE_GROUPS["real numeric"], kind="elementwise",
                         tags=("broadcasting",)))
