"""Cumulative functions of the standard: cumulative_sum, cumulative_prod and diff.

``axis``, ``dtype``, ``include_initial`` and ``n`` are static under ``jax.jit``.
"""

from __future__ import annotations

import builtins
import functools

import jax
import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.runtime.host_path import HostPath
from laxarray._core.runtime.kernel import kernel
from laxarray._core.numerics import cumulative
from laxarray._core.validate import check_bool, check_int, normalize_axis
from laxarray.array_api import _host_order
from laxarray.array_api._array import wrap
from laxarray.array_api._calls import call
from laxarray.array_api._convert import as_array, to_raw
from laxarray.array_api.manipulation import broadcast_to
from laxarray._core.jax_regions import in_wide_region
from laxarray.array_api.statistical import ACC_DTYPE, accumulation_dtype


#: numpydoc parts of the cumulative functions (``fill``)
_X_AXIS_DTYPE = """
x : array_like
    The input array, of rank at least one.
axis : int, optional
    The axis to accumulate along; default ``None``, allowed only for a 1-D ``x``.
""" + ACC_DTYPE.lstrip("\n")
#: their Raises and the first paragraph of their Notes
_RAISES_STATICS = """
Raises
------
TypeError
    If ``x`` is not array_like, ``include_initial`` is not a bool, ``dtype`` is not a
    supported dtype, or ``dtype`` is real for complex ``x``.
ValueError
    If ``x`` is 0-d, or ``axis`` is ``None`` for ``x`` of rank above one.
AxisError
    If ``axis`` is out of range for ``x``.

Notes
-----
Static under ``jax.jit``: ``axis``, ``dtype`` and ``include_initial``.
"""


def _cumulative_shape(shape, *, include_initial, **_):
    # padding follows the data along the axis, so prefixes never see it; an initial element
    # would shift the result off its bucket
    return None if include_initial else shape


def _np_cumulative(a, *, axis, dtype, include_initial, op):
    """NumPy's ``cumulative_sum``/``cumulative_prod`` of ``a`` in ``dtype``: its summation
    order, so its bits (XLA:CPU's scan adds in another order)."""
    out = (np.cumsum if op == "sum" else np.cumprod)(a, axis=axis, dtype=dtype)
    if include_initial:     # (numpy.cumulative_sum's argument: NumPy >= 2.1 only)
        shape = list(out.shape)
        shape[axis] = 1
        out = np.concatenate([np.full(shape, 0 if op == "sum" else 1, dtype), out], axis)
    return out


def _cumulative_host(x, *, axis, dtype, include_initial, op):
    """The traced host path: NumPy's scan in a host call; derivatives from lax's."""
    lax_fn = functools.partial(_lax_cumulative, axis=axis, dtype=dtype,
                               include_initial=include_initial, op=op)
    if x.size == 0:
        return lax_fn(x)
    shape = list(x.shape)
    shape[axis] += include_initial
    return _host_order.numpy_rows(
        functools.partial(_np_cumulative, axis=axis, dtype=dtype,
                          include_initial=include_initial, op=op),
        lax_fn, jax.ShapeDtypeStruct(tuple(shape), dtype), x, vmap_method="sequential")


_CUMULATIVE_HOST = HostPath(
    functions=("cumulative_sum", "cumulative_prod"), eager=_np_cumulative,
    traced=_cumulative_host, dtype_of="dtype",
    grad="`lax.cumsum`/`lax.cumprod` (the value stays NumPy's)",
    reason="XLA:CPU's scan of 10**7 values took 2-6x NumPy's time and compiled in about "
           "115 ms (the host call: 13 ms); NumPy's summation order gives NumPy's bits")


@kernel(static=("axis", "dtype", "include_initial", "op"), shape=_cumulative_shape,
        host=_CUMULATIVE_HOST)
def _cumulative_kernel(x, *, axis, dtype, include_initial, op):
    return _lax_cumulative(x, axis=axis, dtype=dtype, include_initial=include_initial, op=op)


def _lax_cumulative(x, *, axis, dtype, include_initial, op):
    x = lax.convert_element_type(x, dtype)
    if x.shape[axis] > 0:
        y = cumulative(op, x, axis)
    else:
        y = x
    if include_initial:
        shape = list(x.shape)
        shape[axis] = 1
        init = lax.full(tuple(shape), 0 if op == "sum" else 1, dtype)
        y = lax.concatenate([init, y], axis)
    return y


def _cumulative(fn, op, x, axis, dtype, include_initial):
    raw = as_array(fn, x)
    if raw.ndim == 0:
        fail(ValueError, fn, "an array of rank >= 1", x)
    if axis is None:
        if raw.ndim > 1:
            fail(ValueError, fn, "an 'axis' for arrays of rank > 1", axis)
        axis = 0
    ax = normalize_axis(fn, axis, raw.ndim)
    check_bool(fn, include_initial, "include_initial")
    dt = accumulation_dtype(fn, raw.dtype, dtype, bool_ok=True)
    return call(_cumulative_kernel, raw, axis=ax, dtype=dt, include_initial=include_initial,
                op=op)


@in_wide_region
@fill(x_axis_dtype=_X_AXIS_DTYPE, raises_statics=_RAISES_STATICS)
def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """Return the cumulative sum of the elements along an axis.

    Array API: cumulative_sum. NumPy: numpy.cumulative_sum.

    Parameters
    ----------
    {x_axis_dtype}
    include_initial : bool, optional
        Whether the result starts with the sum of no elements (0), one longer along
        ``axis``; default ``False``.

    Returns
    -------
    Array
        The running sums, of the shape of ``x`` (one longer along ``axis`` with
        ``include_initial``).

    {raises_statics}

    On the CPU host path (integers, float32/float64) it is NumPy's own scan, eagerly and in a
    host call under ``jax.jit``: NumPy's summation order, so NumPy's bits; derivatives come
    from ``lax.cumsum``.  ``laxarray.cumsum`` is NumPy's older name
    (flattening by default).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.cumulative_sum(xp.asarray([1, 2, 3]))
    Array([1, 3, 6])
    >>> xp.cumulative_sum(xp.asarray([1, 2, 3]), include_initial=True)
    Array([0, 1, 3, 6])
    >>> xp.cumulative_sum(xp.asarray([[1, 2], [3, 4]]), axis=0)
    Array([[1, 2],
           [4, 6]])
    """
    return _cumulative("cumulative_sum", "sum", x, axis, dtype, include_initial)


@in_wide_region
@fill(x_axis_dtype=_X_AXIS_DTYPE, raises_statics=_RAISES_STATICS)
def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """Return the cumulative product of the elements along an axis.

    Array API: cumulative_prod. NumPy: numpy.cumulative_prod.

    Parameters
    ----------
    {x_axis_dtype}
    include_initial : bool, optional
        Whether the result starts with the product of no elements (1), one longer along
        ``axis``; default ``False``.

    Returns
    -------
    Array
        The running products, of the shape of ``x`` (one longer along ``axis`` with
        ``include_initial``).

    {raises_statics}

    On the CPU host path (integers, float32/float64) it is NumPy's own scan, eagerly and in a
    host call under ``jax.jit``: NumPy's order of multiplication, so NumPy's bits; derivatives
    come from ``lax.cumprod``.  ``laxarray.cumprod`` is NumPy's older name
    (flattening by default).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.cumulative_prod(xp.asarray([1, 2, 3, 4]))
    Array([ 1,  2,  6, 24])
    """
    return _cumulative("cumulative_prod", "prod", x, axis, dtype, include_initial)


@kernel(static=("axis", "n", "dtype"))
def _diff_kernel(*parts, axis, n, dtype):
    parts = [lax.convert_element_type(p, dtype) for p in parts]
    x = lax.concatenate(parts, axis) if len(parts) > 1 else parts[0]
    for _ in range(n):
        m = x.shape[axis]
        hi = lax.slice_in_dim(x, 1, m, axis=axis)
        lo = lax.slice_in_dim(x, 0, m - 1, axis=axis)
        x = lax.ne(hi, lo) if x.dtype == np.bool_ else lax.sub(hi, lo)
    return x


@in_wide_region
def diff(x, /, n=1, axis=-1, prepend=None, append=None):
    """Return the ``n``-th discrete difference along an axis.

    Array API: diff. NumPy: numpy.diff.

    Parameters
    ----------
    x : array_like
        The input array, of rank at least one.
    n : int, optional
        How many times to take the difference (non-negative); default 1.  May be passed by
        position, in NumPy's order.
    axis : int, optional
        The axis along which to take it; default -1 (the last).
    prepend, append : array_like, optional
        Values joined to ``x`` along ``axis`` before (after) the differences are taken: a
        scalar (broadcast to length one along ``axis``) or an array matching ``x`` off
        ``axis``; default ``None``: nothing.

    Returns
    -------
    Array
        The differences, ``n`` shorter along ``axis`` (than ``x`` with ``prepend`` and
        ``append``), of the promoted dtype; bool input gives ``!=``.

    Raises
    ------
    TypeError
        If ``x``, ``prepend`` or ``append`` is not array_like, or ``n`` is not an int.
    ValueError
        If ``x`` is 0-d, ``n`` is negative, or ``prepend``/``append`` does not match ``x``
        off ``axis``.
    AxisError
        If ``axis`` is out of range for ``x``.

    Notes
    -----
    Static under ``jax.jit``: ``n`` and ``axis``.

    Examples
    --------
    >>> import laxarray as xp
    >>> x = xp.asarray([1, 4, 9, 16])
    >>> xp.diff(x)
    Array([3, 5, 7])
    >>> xp.diff(x, n=2)
    Array([2, 2])
    >>> xp.diff(x, prepend=0)
    Array([1, 3, 5, 7])
    """
    raw = to_raw("diff", x)
    if raw.ndim == 0:
        fail(ValueError, "diff", "an array of rank >= 1", x)
    ax = normalize_axis("diff", axis, raw.ndim)
    n = check_int("diff", n, "n", minimum=0)
    parts = [raw]
    for name, extra in (("prepend", prepend), ("append", append)):
        if extra is None:
            continue
        e = to_raw("diff", extra, name)
        if e.ndim == 0:
            shape = list(raw.shape)
            shape[ax] = 1
            e = broadcast_to(wrap(e), tuple(shape))._value
        parts.insert(0 if name == "prepend" else len(parts), e)
    dt = _dt.result_type(*[p.dtype for p in parts])
    for p in parts:
        if p.ndim != raw.ndim or builtins.any(p.shape[d] != raw.shape[d] for d in range(raw.ndim)
                                     if d != ax):
            fail(ValueError, "diff", "'prepend'/'append' matching x off 'axis'", p)
    return call(_diff_kernel, *parts, axis=ax, n=n, dtype=dt)


__all__ = ["cumulative_sum", "cumulative_prod", "diff"]
