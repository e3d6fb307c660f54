"""Closeness and equality tests (isclose, allclose, array_equal, array_equiv) and bit
packing (packbits, unpackbits).

``allclose``, ``array_equal`` and ``array_equiv`` return a 0-d boolean array (NumPy returns a
Python bool) so that they work under ``jax.jit``; ``bool(...)`` of the result is NumPy's
answer eagerly.  Shape mismatches are static facts and give ``False`` without computing.
"""

from __future__ import annotations

import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_choice, check_int, normalize_axis
from laxarray.array_api._calls import call
from laxarray.array_api._convert import scalar_operand
from laxarray.array_api._ufunc import cast_broadcast
from laxarray.array_api._broadcast import broadcast_shapes2
from laxarray.linalg._operands import raw
from laxarray._core.jax_regions import in_wide_region
from laxarray.numpy_api import _docs


def _tol(fn, value, name):
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, float, np.integer, np.floating)):
        fail(TypeError, fn, f"a real Python number for '{name}'", value)
    return float(value)


def _isclose_operands(fn, a, b):
    """Raw operands and the compute dtype of NumPy's ``isclose`` (``b`` made inexact first)."""
    ta, tb = _dt.scalar_pytype(a), _dt.scalar_pytype(b)
    tb_inexact = None if tb is None else (complex if tb is complex else float)
    va = None if ta is not None else raw(fn, a, "a")
    vb = None if tb is not None else raw(fn, b, "b")
    ydt = None if vb is None else _dt.weak_promote(vb.dtype, float)
    if va is not None and vb is not None:
        dt = _dt.promote_types(va.dtype, ydt)
    elif va is not None:
        dt = _dt.weak_promote(va.dtype, tb_inexact)
    elif vb is not None:
        dt = _dt.weak_promote(ydt, ta)
    else:
        dt = _dt.result_type(a, tb_inexact(b))
    va = scalar_operand(fn, a, dt, "a") if va is None else va
    vb = scalar_operand(fn, tb_inexact(b), dt, "b") if vb is None else vb
    # NumPy computes ``atol + rtol * |b|`` in b's inexact dtype (x's for a Python scalar b)
    return va, vb, dt, (dt if ydt is None else ydt)


def _close(x, y, yb, rtol, atol, equal_nan):
    """NumPy's test; ``yb`` is ``y`` in the dtype NumPy computes ``atol + rtol * |y|`` in."""
    ax = lax.abs(lax.sub(x, y))
    ay = lax.abs(yb)
    bound = lax.add(lax.full_like(ay, atol), lax.mul(lax.full_like(ay, rtol), ay))
    common = _dt.promote_types(np.dtype(ax.dtype), np.dtype(bound.dtype))
    within = lax.le(lax.convert_element_type(ax, common),
                    lax.convert_element_type(bound, common))
    if _dt.kind_of(yb.dtype) == "c":
        finite = lax.bitwise_and(lax.is_finite(lax.real(yb)), lax.is_finite(lax.imag(yb)))
    else:
        finite = lax.is_finite(yb)
    out = lax.bitwise_or(lax.bitwise_and(within, finite), lax.eq(x, y))
    if equal_nan:
        out = lax.bitwise_or(out, lax.bitwise_and(lax.ne(x, x), lax.ne(y, y)))
    return out


@kernel(static=("dtype", "ydtype", "shape", "rtol", "atol", "equal_nan", "reduce"))
def _isclose_kernel(a, b, *, dtype, ydtype, shape, rtol, atol, equal_nan, reduce):
    out = _close(cast_broadcast(a, dtype, shape), cast_broadcast(b, dtype, shape),
                 cast_broadcast(b, ydtype, shape), rtol, atol, equal_nan)
    return lax.reduce_and(out, tuple(range(out.ndim))) if reduce else out


def _closeness(fn, a, b, rtol, atol, equal_nan, reduce):
    rtol, atol = _tol(fn, rtol, "rtol"), _tol(fn, atol, "atol")
    if not isinstance(equal_nan, (bool, np.bool_)):
        fail(TypeError, fn, "a bool for 'equal_nan'", equal_nan)
    va, vb, dt, ydt = _isclose_operands(fn, a, b)
    shape = broadcast_shapes2(fn, tuple(va.shape), tuple(vb.shape))
    return call(_isclose_kernel, va, vb, dtype=dt, ydtype=ydt, shape=shape, rtol=rtol,
                atol=atol,
                equal_nan=bool(equal_nan), reduce=reduce)


_CLOSE_PARAMETERS_RETURNS = _docs.compose("""
Parameters
----------
a, b : array_like
    The arrays to compare; they broadcast together.
rtol : float, optional
    The relative tolerance, a Python number; default 1e-5.
atol : float, optional
    The absolute tolerance, a Python number; default 1e-8.
equal_nan : bool, optional
    Whether NaNs compare equal to each other; default False.

Returns
-------
Array""")


_CLOSE_RAISES_NOTES = _docs.compose("""
Raises
------
TypeError
    If an operand is not array_like, or a tolerance is not a real Python number.
{broadcast_error}

Notes
-----
Static under ``jax.jit``: ``rtol``, ``atol``, ``equal_nan``.""",
    broadcast_error=_docs.BROADCAST_ERROR)


@in_wide_region
@fill(close_parameters_returns=_CLOSE_PARAMETERS_RETURNS, close_raises_notes=_CLOSE_RAISES_NOTES)
def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Return whether two arrays are equal elementwise within a tolerance.

    Array API: (not in the standard). NumPy: numpy.isclose.

    {close_parameters_returns}
        A bool array of the broadcast shape: ``|a - b| <= atol + rtol * |b|`` (not symmetric
        in ``a`` and ``b``); equal infinities are close.

    {close_raises_notes}

    Examples
    --------
    >>> import laxarray as la
    >>> la.isclose(la.asarray([1.0, 1e10]), la.asarray([1.00001, 1.00001e10]))
    Array([ True,  True])
    >>> la.isclose(la.asarray([1.0, la.nan]), la.asarray([1.0, la.nan]), equal_nan=True)
    Array([ True,  True])
    """
    return _closeness("isclose", a, b, rtol, atol, equal_nan, False)


@in_wide_region
@fill(close_parameters_returns=_CLOSE_PARAMETERS_RETURNS, close_raises_notes=_CLOSE_RAISES_NOTES)
def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Return whether two arrays are equal elementwise within a tolerance, everywhere.

    Array API: (not in the standard). NumPy: numpy.allclose.

    {close_parameters_returns}
        A 0-d bool array (NumPy returns a Python bool): ``all(isclose(a, b, ...))``.

    {close_raises_notes}

    Use ``bool(...)`` for a Python bool; under ``jax.jit`` the result stays an array.

    Examples
    --------
    >>> import laxarray as la
    >>> la.allclose(la.asarray([1.0, 2.0]), la.asarray([1.0, 2.0000001]))
    Array(True)
    >>> bool(la.allclose(la.asarray([1.0]), la.asarray([1.1])))
    False
    """
    return _closeness("allclose", a, b, rtol, atol, equal_nan, True)


@kernel(static=("dtype", "shape", "equal_nan"))
def _equal_kernel(a, b, *, dtype, shape, equal_nan):
    a, b = cast_broadcast(a, dtype, shape), cast_broadcast(b, dtype, shape)
    eq = lax.eq(a, b)
    if equal_nan and _dt.kind_of(dtype) in "fc":
        eq = lax.bitwise_or(eq, lax.bitwise_and(lax.ne(a, a), lax.ne(b, b)))
    return lax.reduce_and(eq, tuple(range(eq.ndim)))


@kernel()
def _false_kernel():
    return lax.full((), False)


def _equal(fn, a1, a2, equal_nan, broadcast):
    if not isinstance(equal_nan, (bool, np.bool_)):
        fail(TypeError, fn, "a bool for 'equal_nan'", equal_nan)
    v1, v2 = raw(fn, a1, "a1"), raw(fn, a2, "a2")
    s1, s2 = tuple(v1.shape), tuple(v2.shape)
    if broadcast:
        try:
            shape = broadcast_shapes2(fn, s1, s2)
        except ValueError:
            return call(_false_kernel)
    elif s1 != s2:
        return call(_false_kernel)
    else:
        shape = s1
    dt = _dt.promote_types(v1.dtype, v2.dtype)
    return call(_equal_kernel, v1, v2, dtype=dt, shape=shape, equal_nan=bool(equal_nan))


_EQUAL_RAISES_NOTES = _docs.compose("""
Raises
------
{type_error_operand}

Notes
-----""", type_error_operand=_docs.TYPE_ERROR_OPERAND)


_EQUAL_PARAMETERS = _docs.compose("""
Parameters
----------
a1, a2 : array_like
    The arrays.""")


@in_wide_region
@fill(equal_parameters=_EQUAL_PARAMETERS, equal_raises_notes=_EQUAL_RAISES_NOTES)
def array_equal(a1, a2, equal_nan=False):
    """Return whether two arrays have the same shape and elements.

    Array API: (not in the standard). NumPy: numpy.array_equal.

    {equal_parameters}
    equal_nan : bool, optional
        Whether NaNs compare equal (complex: a NaN in either part); default False.

    Returns
    -------
    Array
        A 0-d bool array (NumPy returns a Python bool); False for different shapes.

    {equal_raises_notes}
    Static under ``jax.jit``: ``equal_nan``.

    Examples
    --------
    >>> import laxarray as la
    >>> a = la.asarray([[1, 2], [3, 4]])
    >>> la.array_equal(a, a)
    Array(True)
    >>> la.array_equal(a, la.ones(2))
    Array(False)
    >>> la.array_equal(la.asarray([la.nan]), la.asarray([la.nan]), equal_nan=True)
    Array(True)
    """
    return _equal("array_equal", a1, a2, equal_nan, False)


@in_wide_region
@fill(equal_parameters=_EQUAL_PARAMETERS, equal_raises_notes=_EQUAL_RAISES_NOTES)
def array_equiv(a1, a2):
    """Return whether two arrays broadcast together and are equal elementwise.

    Array API: (not in the standard). NumPy: numpy.array_equiv.

    {equal_parameters}

    Returns
    -------
    Array
        A 0-d bool array (NumPy returns a Python bool); False if the shapes do not broadcast.

    {equal_raises_notes}
    Static under ``jax.jit``: none.

    Examples
    --------
    >>> import laxarray as la
    >>> la.array_equiv(la.asarray([1, 2]), la.asarray([[1, 2], [1, 2]]))
    Array(True)
    >>> la.array_equiv(la.asarray([1, 2]), la.asarray([1, 2, 3]))
    Array(False)
    """
    return _equal("array_equiv", a1, a2, False, True)


# ---- bits --------------------------------------------------------------------------------
_WEIGHTS = {"big": (128, 64, 32, 16, 8, 4, 2, 1), "little": (1, 2, 4, 8, 16, 32, 64, 128)}


@kernel(static=("axis", "bitorder"))
def _packbits_kernel(x, *, axis, bitorder):
    if axis is None:
        x, axis = lax.reshape(x, (x.size,)), 0
    bits = lax.convert_element_type(lax.ne(x, lax.full_like(x, 0)), np.uint8)
    n = bits.shape[axis]
    pad = (-n) % 8
    if pad:
        cfg = [(0, 0, 0)] * bits.ndim
        cfg[axis] = (0, pad, 0)
        bits = lax.pad(bits, np.uint8(0), cfg)
    shape = bits.shape[:axis] + ((n + pad) // 8, 8) + bits.shape[axis + 1:]
    bits = lax.reshape(bits, shape)
    w = lax.broadcast_in_dim(np.asarray(_WEIGHTS[bitorder], np.uint8), shape, (axis + 1,))
    return lax.reduce_sum(lax.mul(bits, w), (axis + 1,))


def _bits_axis(fn, axis, v):
    """``packbits``'s and ``unpackbits``' axis: ``None`` (the flattened array) or normalized
    (an axis of a 0-d array is an error)."""
    if axis is None:
        return None
    if v.ndim == 0:
        fail(ValueError, fn, "an array of rank >= 1 when 'axis' is given", v)
    return normalize_axis(fn, axis, v.ndim)


@in_wide_region
def packbits(a, /, axis=None, bitorder="big"):
    """Pack the truth values of an integer or boolean array into uint8 bytes.
    NumPy: numpy.packbits. ``axis=None`` packs the flattened array; the axis is zero-padded
    to a multiple of 8.  ``axis`` and ``bitorder`` are static under ``jax.jit``."""
    fn = "packbits"
    v = raw(fn, a, "a")
    _dt.check_category(fn, "a", v.dtype, "integer or boolean")
    bitorder = check_choice(fn, bitorder, "bitorder", ("big", "little"))
    ax = _bits_axis(fn, axis, v)
    return call(_packbits_kernel, v, axis=ax, bitorder=bitorder)


@kernel(static=("axis", "count", "bitorder"))
def _unpackbits_kernel(x, *, axis, count, bitorder):
    if axis is None:
        x, axis = lax.reshape(x, (x.size,)), 0
    shape = x.shape[:axis] + (x.shape[axis], 8) + x.shape[axis + 1:]
    xb = lax.broadcast_in_dim(x, shape, tuple(i for i in range(len(shape)) if i != axis + 1))
    shifts = np.arange(8, dtype=np.uint8)
    if bitorder == "big":
        shifts = shifts[::-1].copy()
    sh = lax.broadcast_in_dim(shifts, shape, (axis + 1,))
    bits = lax.bitwise_and(lax.shift_right_logical(xb, sh), lax.full(shape, 1, np.uint8))
    flat = x.shape[axis] * 8
    bits = lax.reshape(bits, x.shape[:axis] + (flat,) + x.shape[axis + 1:])
    if count < flat:
        bits = lax.slice_in_dim(bits, 0, count, axis=axis)
    elif count > flat:
        cfg = [(0, 0, 0)] * bits.ndim
        cfg[axis] = (0, count - flat, 0)
        bits = lax.pad(bits, np.uint8(0), cfg)
    return bits


@in_wide_region
def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """Unpack uint8 bytes into bits (uint8 0/1). NumPy: numpy.unpackbits.

    ``count`` keeps that many bits (negative: drop from the end; more than available pads
    with zeros).  ``axis``, ``count`` and ``bitorder`` are static under ``jax.jit``."""
    fn = "unpackbits"
    v = raw(fn, a, "a")
    if v.dtype != _dt.uint8:
        fail(TypeError, fn, "a uint8 array for 'a'", v.dtype)
    bitorder = check_choice(fn, bitorder, "bitorder", ("big", "little"))
    ax = _bits_axis(fn, axis, v)
    flat = (v.size if ax is None else v.shape[ax]) * 8
    if count is None:
        n = flat
    else:
        count = check_int(fn, count, "count")
        n = count if count >= 0 else flat + count
        if n < 0:
            fail(ValueError, fn, f"'count' >= {-flat}", count)
    return call(_unpackbits_kernel, v, axis=ax, count=n, bitorder=bitorder)


__all__ = ["isclose", "allclose", "array_equal", "array_equiv", "packbits", "unpackbits"]
