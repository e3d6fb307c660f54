"""Elementwise functions of two floating operands (atan2, hypot, logaddexp) and clip (an
array between its bounds) of the standard.

Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
TPU), as jax.numpy does; bool input raises ``TypeError``.  Under ``jax.jit`` each traces to
bare lax primitives; clip's statics are said in its docstring.
"""

from __future__ import annotations

import builtins
import math

from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.runtime.kernel import kernel
from laxarray.array_api import _complex_math as _cm
from laxarray.array_api import _exact_complex64 as _oc
from laxarray.array_api import _exact_float32 as _om
from laxarray.array_api._array import Array
from laxarray.array_api._broadcast import broadcast_many, broadcast_rule
from laxarray.array_api._calls import call
from laxarray.array_api._convert import as_array, scalar_operand
from laxarray.array_api._ufunc import cast_broadcast, elementwise_binary, to_float
from laxarray._core.numerics import copysign as _copysign


@elementwise_binary("real numeric", compute=to_float, flush_subnormals=True,
                    ufunc=True)
def atan2(x1, x2, /):
    """Return the inverse tangent of ``x1 / x2``, choosing the quadrant from both signs.

    Array API: atan2. NumPy: numpy.arctan2.

    Returns
    -------
    Array
        The angle in radians, in ``[-pi, pi]``, of the promoted floating dtype; it always
        carries the sign of ``x1``.

    Notes
    -----
    XLA on the CPU flushes subnormals in its division but not in its comparisons, so a subnormal
    pair would give NaN: subnormal operands are read as signed zeros (the flush-to-zero answer).
    Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
    TPU); unlike NumPy, bool input raises ``TypeError``, and complex input too (as in NumPy).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.atan2(xp.asarray([1.0, -1.0]), xp.asarray([-1.0, -1.0]))
    Array([ 2.35619449, -2.35619449])
    """
    # XLA on CPU flushes subnormals in its division but not in its comparisons, so a
    # subnormal pair gives NaN: they are read as signed zeros (the flush-to-zero answer).
    # The result always carries the sign of x1 (XLA loses it for subnormal x1).
    if _om.own("divide", x1):   # the chip's division flushes 1 / x2 past 2**126
        return _oc.atan2(x1, x2)
    return _copysign(lax.atan2(x1, x2), x1)


@elementwise_binary("real numeric", compute=to_float,
                    ufunc=True)
def hypot(x1, x2, /):
    """Return ``sqrt(x1**2 + x2**2)`` elementwise, without overflow or underflow.

    Array API: hypot. NumPy: numpy.hypot.

    Returns
    -------
    Array
        The hypotenuse, of the promoted floating dtype; ``inf`` wins over NaN.

    Notes
    -----
    Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
    TPU); unlike NumPy, bool input raises ``TypeError``, and complex input too (as in NumPy).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.hypot(xp.asarray([3.0, 1e300]), 4.0)
    Array([5.e+000, 1.e+300])
    """
    return _cm.hypot(x1, x2)


@elementwise_binary("real numeric", compute=to_float,
                    ufunc=True)
def logaddexp(x1, x2, /):
    """Return ``log(exp(x1) + exp(x2))`` elementwise, without overflow.

    Array API: logaddexp. NumPy: numpy.logaddexp.

    Returns
    -------
    Array
        Of the promoted floating dtype.

    Notes
    -----
    Equal infinities give ``inf`` (and ``-inf`` for two ``-inf``), not NaN; where ``x1 == x2``
    the gradient is 1/2 for each argument. As a ufunc its ``identity`` is ``-inf``. Integer
    input is computed in the default floating dtype (float64 on the CPU, float32 on a TPU);
    unlike NumPy, bool input raises ``TypeError``, and complex input too (as in NumPy).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.logaddexp(xp.asarray([1000.0, 0.0]), xp.asarray([1000.0, 0.0]))
    Array([1.00069315e+03, 6.93147181e-01])
    """
    big = lax.max(x1, x2)
    diff = lax.neg(lax.abs(lax.sub(x1, x2)))
    out = lax.add(big, _om.pick("log1p", lax.log1p)(_om.pick("exp", lax.exp)(diff)))
    # equal infinities: log(e^inf + e^inf) = inf, log(0 + 0) = -inf (diff would be NaN)
    same = lax.eq(x1, x2)
    # x1 + (x2 - x1) / 2 (= x1 there) keeps the gradient 1/2 for each argument
    mid = lax.select(lax.is_finite(x1),
                     lax.add(x1, lax.mul(lax.sub(x2, x1), lax.full_like(x1, 0.5))), x1)
    return lax.select(same, lax.add(mid, lax.full_like(x1, math.log(2.0))), out)


def _clip_kernel_body(x, lo, hi):
    """``x`` clipped to the bounds ``lo``/``hi`` (``None`` or arrays of ``x``'s dtype that
    broadcast to ``x``'s shape, broadcast here)."""
    shape, dt = x.shape, x.dtype

    def bcast(v):
        return cast_broadcast(v, v.dtype, shape)
    if _dt.kind_of(dt) != "f":
        x = x if lo is None else lax.max(x, bcast(lo))
        return x if hi is None else lax.min(x, bcast(hi))
    # the standard's maximum(minimum(x, max), min) with NumPy's minimum/maximum: a tie
    # (signed zeros) gives the bound, a NaN anywhere gives NaN; for min > max the result is
    # max (or a NaN x), as NumPy's clip gives (the standard leaves it unspecified).  One
    # compare and one select per bound (``b <= a``: false for a NaN ``a``), which XLA
    # vectorizes (an or/and of two compares per element runs 2-3x slower); what that misses
    # (a NaN bound, min > max) is decided on the bounds themselves: once for scalar bounds,
    # folded away for constant ones.
    if lo is not None and hi is not None:  # min > max: x goes to max, as for min = max
        both = lax.broadcast_shapes(lo.shape, hi.shape)
        lo, hi = cast_broadcast(lo, dt, both), cast_broadcast(hi, dt, both)
        lo = lax.select(lax.gt(lo, hi), hi, lo)
    out = x
    if hi is not None:
        b = bcast(hi)
        out = lax.select(lax.le(b, out), b, out)
    if lo is not None:
        b = bcast(lo)
        out = lax.select(lax.ge(b, out), b, out)
    for v in (hi, lo):
        if v is not None:
            out = lax.select(bcast(lax.ne(v, v)), bcast(v), out)
    return out


@kernel(static=("dtype", "has_lo", "has_hi"), shape=broadcast_rule)
def _clip_kernel(x, *bounds, dtype, has_lo, has_hi):
    x = cast_broadcast(x, dtype, lax.broadcast_shapes(x.shape, *(b.shape for b in bounds)))
    bounds = [lax.convert_element_type(b, dtype) for b in bounds]
    lo = bounds.pop(0) if has_lo else None
    hi = bounds.pop(0) if has_hi else None
    return _clip_kernel_body(x, lo, hi)


_REAL_BOUND = (int, float, type(None))


def _clip_fast(x, lo, hi):
    """``clip`` of a concrete real Array between Python scalars of its kind (or None): its
    kernel called at once (bucketed where ``x`` is); ``None`` where the general path must
    run (it validates and promotes everything else)."""
    if x.base is not None or x._is_traced():  # a view, or traced: the general path
        return None
    dt = x.dtype
    kind = dt.kind
    if kind in "iu":
        if type(lo) is float or type(hi) is float:
            return None
        lo = None if lo is None else _in_int_range(lo, dt)
        hi = None if hi is None else _in_int_range(hi, dt)
    elif kind != "f":
        return None
    scalars = [scalar_operand("clip", b, dt, name) for b, name in ((lo, "min"), (hi, "max"))
               if b is not None]
    return call(_clip_kernel, x, *scalars, dtype=dt, has_lo=lo is not None,
                has_hi=hi is not None)


def _in_int_range(bound, dt):
    """An int bound of an integer ``clip`` moved into ``dt``'s range: beyond it, it clips
    nothing there."""
    lowest, highest = _dt.int_range(dt)
    return builtins.min(builtins.max(bound, lowest), highest)


def clip(x, /, min=None, max=None):
    """Clamp each element of ``x`` to the interval ``[min, max]``.

    Array API: clip. NumPy: numpy.clip.

    Parameters
    ----------
    x : array_like
        The input, of a real dtype (bool, integer or real floating; not complex).
    min : scalar or array_like, optional
        The lower bound: a Python scalar or an array of the kind of ``x`` (integer bounds for
        integer ``x``), broadcasting to the shape of ``x``; default ``None``: no lower bound.
    max : scalar or array_like, optional
        The upper bound, likewise; default ``None``: no upper bound.

    Returns
    -------
    Array
        The clipped values, of the dtype of ``x`` and the broadcast shape of ``x``, ``min``
        and ``max``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like or complex, or a bound is of another kind than ``x`` (a
        float or complex bound for integer ``x``).
    ValueError
        If the shapes of ``x``, ``min`` and ``max`` do not broadcast together.

    Notes
    -----
    Static under ``jax.jit``: whether ``min`` and ``max`` are given or left out.

    NaN in any argument gives NaN; a tie (signed zeros) gives the bound; for ``min > max``
    the result is ``max`` (or a NaN ``x``), as NumPy's ``clip`` gives (the standard leaves it
    unspecified).  An integer bound beyond the range of an integer ``x`` clips nothing there.
    Unlike NumPy, ``min`` and ``max`` are the standard's names (NumPy: ``a_min``, ``a_max``)
    and no ``out`` is taken.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.clip(xp.asarray([1, 5, 9]), 2, 6)
    Array([2, 5, 6])
    >>> xp.clip(xp.asarray([-1.5, 0.5, 2.5]), max=1.0)
    Array([-1.5,  0.5,  1. ])
    """
    if type(x) is Array and type(min) in _REAL_BOUND and type(max) in _REAL_BOUND:
        out = _clip_fast(x, min, max)
        if out is not None:
            return out
    v = as_array("clip", x)
    dt = v.dtype
    if dt not in _dt.CATEGORIES["real"]:
        _dt.check_category("clip", "x", dt, "real numeric")
    bounds = []
    shape = v.shape
    for argname, bound in (("min", min), ("max", max)):
        if bound is None:
            bounds.append(None)
            continue
        pytype = _dt.scalar_pytype(bound)
        if pytype is not None:
            if pytype is complex or (pytype is float and _dt.kind_of(dt) in "iub"):
                fail(TypeError, "clip", f"'{argname}' of the same kind as x ({dt})", bound)
            if _dt.kind_of(dt) == "b":
                raw = scalar_operand("clip", builtins.bool(bound), dt, argname)
            else:  # cached device scalars keep the eager path fast
                if _dt.kind_of(dt) in "iu" and pytype is not bool:
                    bound = _in_int_range(bound, dt)
                raw = scalar_operand("clip", bound, dt, argname)
        else:
            raw = as_array("clip", bound, argname)
            rk, xk = _dt.kind_of(raw.dtype), _dt.kind_of(dt)
            if rk != xk and not (rk in "iu" and xk in "iu"):
                fail(TypeError, "clip", f"'{argname}' of the same kind as x ({dt})", bound)
        bounds.append(raw)
    broadcast_many("clip", [shape] + [tuple(b.shape) for b in bounds if b is not None])
    return call(_clip_kernel, v, *(b for b in bounds if b is not None), dtype=dt,
                has_lo=bounds[0] is not None, has_hi=bounds[1] is not None)


__all__ = ["atan2", "hypot", "logaddexp", "clip"]
