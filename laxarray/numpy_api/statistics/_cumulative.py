"""NumPy's cumulative sums and products (cumsum, cumprod and the NaN-ignoring nancumsum,
nancumprod) and its range reduction ptp.

``cumsum``/``cumprod`` are the standard's cumulative_sum/cumulative_prod in NumPy's form: the
flattened array for ``axis=None`` and no ``include_initial``.  The ``nan*`` forms take NaNs
as the identity (0 for sums, 1 for products).  ``ptp`` is ``max - min`` in one kernel.
``axis``, ``dtype`` and ``keepdims`` are static under ``jax.jit``.
"""

from __future__ import annotations

import math

from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.docstrings import fill
from laxarray._core.errors import fail
from laxarray._core.runtime.kernel import kernel, reduce_extreme
from laxarray._core.validate import check_bool, normalize_axes, normalize_axis
from laxarray.array_api._calls import call
from laxarray.array_api import statistical_cumulative as _cum
from laxarray.array_api._array import wrap
from laxarray.numpy_api.statistics._base import no_out, raw
from laxarray._core.jax_regions import in_wide_region
from laxarray.numpy_api import _docs
from laxarray.numpy_api.statistics._nan import _finish, _nan_to
from laxarray.numpy_api.statistics import _docs as _sdocs

__all__ = ["cumsum", "cumprod", "nancumsum", "nancumprod", "ptp"]


def _cumulative(fn, a, axis, dtype, nan_value, out=None):
    no_out(fn, out)
    x = raw(fn, a, "a")
    if nan_value is not None:
        x = _nan_to(x, nan_value)
    if axis is not None:
        axis = normalize_axis(fn, axis, max(x.ndim, 1))
    if axis is None or x.ndim == 0:
        x = lax.reshape(x, (math.prod(x.shape),))
        axis = 0
    op = _cum.cumulative_sum if fn in ("cumsum", "nancumsum") else _cum.cumulative_prod
    return op(wrap(x), axis=axis, dtype=dtype)


_CUMULATIVE_RAISES = _docs.closing([_docs.TYPE_ERROR_A_OUT, _docs.AXIS_ERROR],
    "``axis``, ``dtype``")


_CUMULATIVE_PARAMETERS = _docs.compose("""
Parameters
----------
{array}
{cumulative_axis}
dtype : dtype, optional""", array=_docs.ARRAY, cumulative_axis=_sdocs.CUMULATIVE_AXIS)


_CUMULATIVE_RETURNS = _docs.compose("""
{out_none}

Returns
-------
Array""", out_none=_docs.OUT_NONE)


@in_wide_region
@fill(cumulative_parameters=_CUMULATIVE_PARAMETERS, cumulative_returns=_CUMULATIVE_RETURNS,
      cumulative_raises=_CUMULATIVE_RAISES)
def cumsum(a, axis=None, dtype=None, out=None):
    """Return the cumulative sum of the elements along an axis.

    Array API: cumulative_sum (which keeps the axis and has ``include_initial``). NumPy:
    numpy.cumsum.

    {cumulative_parameters}
        The dtype to accumulate in and return.  Default as :func:`laxarray.sum`'s.
    {cumulative_returns}
        The running sums, of ``a``'s shape (1-D for ``axis=None``); booleans and smaller
        integers accumulate in the default integer dtype.

    {cumulative_raises}
    >>> a = la.asarray([[1, 2], [3, 4]])
    >>> la.cumsum(a)
    Array([ 1,  3,  6, 10])
    >>> la.cumsum(a, axis=0)
    Array([[1, 2],
           [4, 6]])
    """
    return _cumulative("cumsum", a, axis, dtype, None, out)


@in_wide_region
@fill(cumulative_parameters=_CUMULATIVE_PARAMETERS, cumulative_returns=_CUMULATIVE_RETURNS,
      cumulative_raises=_CUMULATIVE_RAISES)
def cumprod(a, axis=None, dtype=None, out=None):
    """Return the cumulative product of the elements along an axis.

    Array API: cumulative_prod. NumPy: numpy.cumprod.

    {cumulative_parameters}
        The dtype to accumulate in and return.  Default as :func:`laxarray.prod`'s.
    {cumulative_returns}
        The running products, of ``a``'s shape (1-D for ``axis=None``).

    {cumulative_raises}
    >>> la.cumprod(la.asarray([1, 2, 3]))
    Array([1, 2, 6])
    """
    return _cumulative("cumprod", a, axis, dtype, None, out)


_NAN_CUMULATIVE_SECTIONS = _docs.compose("""
Parameters
----------
{array}
{axis_flat}
{accumulate_in}
{out_none}

Returns
-------
{running}

{closing}""",
    array=_docs.ARRAY, axis_flat=_docs.AXIS_FLAT, accumulate_in=_sdocs.ACCUMULATE_IN,
    out_none=_docs.OUT_NONE, running=_sdocs.RUNNING, closing=_docs.closing([_docs.TYPE_ERROR_A_OUT,
    _docs.AXIS_ERROR_AXIS], "``axis``, ``dtype``"))


@in_wide_region
@fill(nan_cumulative_sections=_NAN_CUMULATIVE_SECTIONS)
def nancumsum(a, axis=None, dtype=None, out=None):
    """Return the cumulative sum, treating NaNs as zero.

    Array API: (not in the standard). NumPy: numpy.nancumsum.

    {nan_cumulative_sections}
    >>> la.nancumsum(la.asarray([1.0, la.nan, 3.0]))
    Array([1., 1., 4.])
    """
    return _cumulative("nancumsum", a, axis, dtype, 0, out)


@in_wide_region
@fill(nan_cumulative_sections=_NAN_CUMULATIVE_SECTIONS)
def nancumprod(a, axis=None, dtype=None, out=None):
    """Return the cumulative product, treating NaNs as one.

    Array API: (not in the standard). NumPy: numpy.nancumprod.

    {nan_cumulative_sections}
    >>> la.nancumprod(la.asarray([2.0, la.nan, 3.0]))
    Array([2., 2., 6.])
    """
    return _cumulative("nancumprod", a, axis, dtype, 1, out)


@kernel(static=("axes", "keepdims"))
def _ptp_kernel(x, *, axes, keepdims):
    top, bottom = reduce_extreme(x, axes, True), reduce_extreme(x, axes, False)
    return _finish(lax.sub(top, bottom), axes, keepdims)


@in_wide_region
@fill(axes_all=_docs.AXES_ALL, out_keepdims=_docs.OUT_KEEPDIMS, axis_error=_docs.AXIS_ERROR)
def ptp(a, axis=None, out=None, keepdims=False):
    """Return the range of values (maximum - minimum) along the given axes.

    Array API: (not in the standard). NumPy: numpy.ptp.

    Parameters
    ----------
    a : array_like
        The input array, of a real numeric dtype (not bool).
    {axes_all}
    {out_keepdims}

    Returns
    -------
    Array
        ``max - min``, of ``a``'s dtype (integers wrap around, as NumPy's).

    Raises
    ------
    TypeError
        If ``a`` is not array_like, bool or complex, or ``out`` is given.
    {axis_error}

    Notes
    -----
    Static under ``jax.jit``: ``axis``, ``keepdims``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.ptp(la.asarray([[4, 9, 2], [3, 1, 8]]), axis=1)
    Array([7, 7])
    """
    no_out("ptp", out)
    x = raw("ptp", a, "a")
    if _dt.kind_of(x.dtype) in "bc":
        fail(TypeError, "ptp", "a real numeric (not boolean or complex) array for 'a'", a)
    axes = normalize_axes("ptp", axis, x.ndim)
    check_bool("ptp", keepdims, "keepdims")
    if any(x.shape[d] == 0 for d in axes):
        fail(ValueError, "ptp", "non-empty reduction axes", a)
    return call(_ptp_kernel, x, axes=axes, keepdims=keepdims)
