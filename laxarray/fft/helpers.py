"""Frequency helpers: fftfreq, rfftfreq, fftshift, ifftshift.

``n``, ``d``, ``dtype``, ``device`` and ``axes`` are static; the frequencies are computed
as NumPy does (integer bins times ``1 / (n * d)`` in float64), then cast to ``dtype``.
"""

from __future__ import annotations

from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.devices import check_device, place
from laxarray._core.errors import fail
from laxarray._core.runtime.kernel import kernel
from laxarray._core.numerics import cast_value
from laxarray._core.validate import normalize_axis
from laxarray.array_api._calls import call
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._convert import to_raw
from laxarray.fft._plan import check_n
from laxarray._core.docstrings import fill
from laxarray._core.jax_regions import in_wide_region

_FREQ_PARAMS = """
Parameters
----------
n : int
    The window length (the transform's number of points), at least 1.
d : float, optional
    The sample spacing (the inverse of the sampling rate), a non-zero Python real
    number; default 1.0.  The frequencies are in cycles per unit of ``d``.
dtype : dtype, optional
    A real floating-point dtype for the result; default the default floating dtype.
device : Device or jax.sharding.Sharding, optional
    Where to place the result; default the default device."""

_FREQ_RAISES_STATIC = """
Raises
------
TypeError
    If ``n`` is not an integer, ``d`` is not a Python real number, or ``dtype`` is not a
    real floating-point dtype.
ValueError
    If ``n`` is below 1, ``d`` is zero, or ``device`` is not a device of this backend.

Notes
-----
Static under ``jax.jit``: ``n``, ``d``, ``dtype``, ``device``."""

_SHIFT_PARAMS = """
Parameters
----------
x : array_like
    The input array, of any dtype.
axes : int or sequence of ints, optional
    The axes to shift; default all.  A repeated axis is shifted again, as ``numpy.roll``
    does."""

_SHIFT_RAISES_NOTES = """
Raises
------
TypeError
    If ``x`` is not array_like.
AxisError
    If an axis is out of range for ``x``.

Notes
-----
Static under ``jax.jit``: ``axes``.

Traces to slices and one concatenation per shifted axis."""



@kernel(static=("n", "scale", "dtype", "half"))
def _freq_kernel(*, n, scale, dtype, half):
    size = n // 2 + 1 if half else n
    k = lax.iota(_dt.default_index(), size)
    if not half:
        k = lax.select(lax.le(k, lax.full_like(k, (n - 1) // 2)), k,
                       lax.sub(k, lax.full_like(k, n)))
    f = lax.mul(lax.convert_element_type(k, _dt.on_device(_dt.float64)), lax.full((), scale, _dt.on_device(_dt.float64)))
    return cast_value(f, dtype)  # float16: rounded once


def _freq(fn, n, d, dtype, device, half):
    n = check_n(fn, n)
    if isinstance(d, bool) or not isinstance(d, (int, float)):
        fail(TypeError, fn, "a Python real number for 'd'", d)
    if d == 0:
        fail(ValueError, fn, "a non-zero sample spacing 'd'", d)
    dt = _dt.default_float() if dtype is None else _dt.canonicalize_dtype(fn, dtype)
    if dt not in _dt.CATEGORIES["real floating"]:
        fail(TypeError, fn, "a real floating-point 'dtype'", dt)
    dev = check_device(fn, device)
    out = call(_freq_kernel, n=n, scale=1.0 / (n * float(d)), dtype=dt, half=half)
    return out if dev is None else wrap(place(out._value, dev))


@in_wide_region
@fill(params=_FREQ_PARAMS, raises_static=_FREQ_RAISES_STATIC)
def fftfreq(n, /, d=1.0, *, dtype=None, device=None):
    """Return the sample frequencies of an ``n``-point discrete Fourier transform.

    Array API: fft.fftfreq. NumPy: numpy.fft.fftfreq (which has no ``dtype``).

    {params}

    Returns
    -------
    Array
        The ``n`` frequencies, zero first, then the positive ones, then the negative ones
        (the order of :func:`fft`'s output).

    {raises_static}

    Computed as NumPy does: the integer bins ``[0, 1, ..., (n - 1) // 2, -(n // 2), ...,
    -1]`` times ``1 / (n * d)`` in float64 (where
    the backend has it), then rounded once to ``dtype``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.fft.fftfreq(4)
    Array([ 0.  ,  0.25, -0.5 , -0.25])
    >>> la.fft.fftfreq(5, d=0.1)
    Array([ 0.,  2.,  4., -4., -2.])
    >>> la.fft.fftfreq(4, dtype=la.float32)
    Array([ 0.  ,  0.25, -0.5 , -0.25], dtype=float32)
    """
    return _freq("fftfreq", n, d, dtype, device, half=False)


@in_wide_region
@fill(params=_FREQ_PARAMS, raises_static=_FREQ_RAISES_STATIC)
def rfftfreq(n, /, d=1.0, *, dtype=None, device=None):
    """Return the sample frequencies of :func:`rfft`'s output for an ``n``-point transform.

    Array API: fft.rfftfreq. NumPy: numpy.fft.rfftfreq (which has no ``dtype``).

    {params}

    Returns
    -------
    Array
        The ``n // 2 + 1`` non-negative frequencies, in increasing order.

    {raises_static}

    Computed as NumPy does: the integer bins ``[0, 1, ..., n // 2]`` times ``1 / (n * d)``
    in float64 (where
    the backend has it), then rounded once to ``dtype``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.fft.rfftfreq(4)
    Array([0.  , 0.25, 0.5 ])
    >>> la.fft.rfftfreq(5, d=0.1)
    Array([0., 2., 4.])
    """
    return _freq("rfftfreq", n, d, dtype, device, half=True)


@kernel(static=("shifts",))
def _shift_kernel(x, *, shifts):
    for axis, k in shifts:
        n = x.shape[axis]
        x = lax.concatenate([lax.slice_in_dim(x, n - k, n, axis=axis),
                             lax.slice_in_dim(x, 0, n - k, axis=axis)], axis)
    return x


def _shift(fn, x, axes, inverse):
    v = x._value if type(x) is Array else to_raw(fn, x, "x")
    if axes is None:
        axes = tuple(range(v.ndim))
    elif isinstance(axes, (tuple, list)):
        axes = tuple(normalize_axis(fn, a, v.ndim, "axes") for a in axes)
    else:
        axes = (normalize_axis(fn, axes, v.ndim, "axes"),)
    total = {}
    for a in axes:  # repeated axes shift repeatedly, as numpy.roll does
        n = v.shape[a]
        total[a] = total.get(a, 0) + (-(n // 2) if inverse else n // 2)
    shifts = tuple((a, s % v.shape[a]) for a, s in sorted(total.items())
                   if v.shape[a] and s % v.shape[a])
    return call(_shift_kernel, v, shifts=shifts)


@in_wide_region
@fill(params=_SHIFT_PARAMS, raises_notes=_SHIFT_RAISES_NOTES)
def fftshift(x, /, axes=None):
    """Move the zero-frequency term to the centre of the spectrum.

    Array API: fft.fftshift. NumPy: numpy.fft.fftshift.

    {params}

    Returns
    -------
    Array
        ``x`` rolled by ``n // 2`` along each axis of ``axes`` (``n`` its length there), of
        ``x``'s dtype and shape.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as la
    >>> la.fft.fftshift(la.fft.fftfreq(5))
    Array([-0.4, -0.2,  0. ,  0.2,  0.4])
    >>> la.fft.fftshift(la.reshape(la.arange(6), (2, 3)), axes=1)
    Array([[2, 0, 1],
           [5, 3, 4]])
    """
    return _shift("fftshift", x, axes, inverse=False)


@in_wide_region
@fill(params=_SHIFT_PARAMS, raises_notes=_SHIFT_RAISES_NOTES)
def ifftshift(x, /, axes=None):
    """Undo :func:`fftshift`: move the centre of the spectrum back to index 0.

    Array API: fft.ifftshift. NumPy: numpy.fft.ifftshift.

    {params}

    Returns
    -------
    Array
        ``x`` rolled by ``-(n // 2)`` along each axis of ``axes`` (``n`` its length there),
        of ``x``'s dtype and shape.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as la
    >>> la.fft.ifftshift(la.fft.fftshift(la.arange(5)))
    Array([0, 1, 2, 3, 4])
    >>> la.fft.ifftshift(la.asarray([-2, -1, 0, 1, 2]))
    Array([ 0,  1,  2, -2, -1])
    """
    return _shift("ifftshift", x, axes, inverse=True)


__all__ = ["fftfreq", "rfftfreq", "fftshift", "ifftshift"]
