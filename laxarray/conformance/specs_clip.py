"""Conformance spec of ``clip``: bounds that are arrays, Python scalars or ``None``.

Oracle: ``maximum(minimum(x, max), min)`` in NumPy (the standard's definition), so NaN in
``x``, ``min`` or ``max`` gives NaN.  Unspecified inputs are never drawn or are filtered:
bounds of another dtype than ``x``, integer bounds outside ``x``'s dtype, ``min > max``.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from laxarray.conformance import strategies as S
from laxarray.conformance.compare import assert_dtype, assert_shape, assert_values, to_numpy
from laxarray.conformance.spec import Spec, as_xp, register, resolve


def _oracle(x, lo, hi):
    out = x
    with np.errstate(all="ignore"):
        if hi is not None:
            out = np.minimum(out, hi)
        if lo is not None:
            out = np.maximum(out, lo)
    return np.asarray(out, dtype=x.dtype)


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
        shape = data.draw(S.shapes(), label="shape")
        x = data.draw(S.arrays(dtype, shape), label="x")
        lo_arg, lo = _draw_bound(data, dtype, shape, "min")
        hi_arg, hi = _draw_bound(data, dtype, shape, "max")
        kwargs = {}
        if lo_arg is not None or data.draw(st.booleans(), label="pass min=None"):
            kwargs["min"] = lo_arg if not isinstance(lo_arg, np.ndarray) else as_xp(xp, lo_arg)
        if hi_arg is not None or data.draw(st.booleans(), label="pass max=None"):
            kwargs["max"] = hi_arg if not isinstance(hi_arg, np.ndarray) else as_xp(xp, hi_arg)
        expected = _oracle(x, lo, hi)
        out = resolve(xp, "clip")(as_xp(xp, x), **kwargs)
        assert_dtype("clip", out, dtype)
        assert_shape("clip", out, shape)
        got = to_numpy(out)
        if lo is not None and hi is not None:
            with np.errstate(invalid="ignore"):
                keep = ~np.broadcast_to(lo > hi, shape)
            got, expected = got[keep], expected[keep]
        assert_values("clip", got, expected)
    return register(Spec("clip", check, S.DTYPE_GROUPS["real numeric"], kind="elementwise"))
