"""NumPy's window functions: bartlett, blackman, hamming, hanning, kaiser.

Each is a 1-D float64 array (float32 on a device without it) of ``M`` points, computed by
NumPy's formula in one kernel; ``M`` is static under ``jax.jit`` (it is the shape), while
kaiser's ``beta`` may be traced.  ``M`` of zero or less gives an empty array and ``M == 1``
the single point 1, as NumPy.
"""

from __future__ import annotations

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.docstrings import fill
from laxarray._core.errors import fail
from laxarray._core.jax_regions import in_wide_region
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_int
from laxarray.array_api._calls import call
from laxarray.array_api._array import wrap
from laxarray.linalg._operands import raw
from laxarray.numpy_api.mathfuncs._elementwise import i0

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]

# The Parameters through Notes sections the cosine windows share (filled in by ``fill``), and
# the ``M`` entry kaiser shares with them.
_M = """
M : int
    The number of points; zero or less gives an empty array."""

_COSINE_WINDOW = """
Parameters
----------
M : int
    The number of points; zero or less gives an empty array.

Returns
-------
Array
    The window, 1-D of length ``max(M, 0)``, float64 (float32 on a device without it),
    its largest value 1 at the middle.

Raises
------
TypeError
    If ``M`` is not an integer.

Notes
-----
Static under ``jax.jit``: ``M``."""


def _window_len(fn, M):
    return check_int(fn, M, "M")


@kernel(static=("M", "kind"))
def _cosine_window_kernel(*, M, kind):
    n = lax.convert_element_type(lax.iota(_dt.default_index(), M), _dt.on_device(_dt.float64))
    # 1-M, ..., M-1 (constants of n's dtype: float32 where the device has no float64)
    n = lax.sub(lax.mul(n, lax.full_like(n, 2.0)), lax.full_like(n, M - 1))
    t = lax.div(n, lax.full_like(n, M - 1))
    if kind == "bartlett":
        return lax.select(lax.le(n, lax.full_like(n, 0)), lax.add(lax.full_like(t, 1), t),
                          lax.sub(lax.full_like(t, 1), t))
    c1 = lax.cos(lax.mul(lax.full_like(t, np.pi), t))
    if kind == "hanning":
        return lax.add(lax.full_like(t, 0.5), lax.mul(lax.full_like(t, 0.5), c1))
    if kind == "hamming":
        return lax.add(lax.full_like(t, 0.54), lax.mul(lax.full_like(t, 0.46), c1))
    c2 = lax.cos(lax.mul(lax.full_like(t, 2.0 * np.pi), t))
    return lax.add(lax.add(lax.full_like(t, 0.42), lax.mul(lax.full_like(t, 0.5), c1)),
                   lax.mul(lax.full_like(t, 0.08), c2))


def _short_window(M):
    """The window of ``M < 2`` points (empty, or the single point 1), as NumPy; else None."""
    if M >= 2:
        return None
    return wrap(lax.full((max(M, 0),), 1.0, _dt.on_device(_dt.float64)))


def _cosine_window(fn, M, kind):
    M = _window_len(fn, M)
    short = _short_window(M)
    return short if short is not None else call(_cosine_window_kernel, M=M, kind=kind)


@in_wide_region
@fill(cosine_window=_COSINE_WINDOW)
def bartlett(M):
    """Bartlett (triangular) window of ``M`` points. NumPy: numpy.bartlett.

    {cosine_window}

    ``1 - |2n/(M-1) - 1|`` for ``n = 0 .. M-1``, as NumPy.

    Examples
    --------
    >>> import laxarray as la
    >>> la.bartlett(5)
    Array([0. , 0.5, 1. , 0.5, 0. ])
    """
    return _cosine_window("bartlett", M, "bartlett")


@in_wide_region
@fill(cosine_window=_COSINE_WINDOW)
def blackman(M):
    """Blackman window of ``M`` points. NumPy: numpy.blackman.

    {cosine_window}

    ``0.42 - 0.5 cos(2 pi n/(M-1)) + 0.08 cos(4 pi n/(M-1))``, as NumPy (the ends round to
    about ``-1.4e-17``, not 0, in both).

    Examples
    --------
    >>> import laxarray as la
    >>> la.blackman(5)
    Array([-1.38777878e-17,  3.40000000e-01,  1.00000000e+00,  3.40000000e-01,
           -1.38777878e-17])
    """
    return _cosine_window("blackman", M, "blackman")


@in_wide_region
@fill(cosine_window=_COSINE_WINDOW)
def hamming(M):
    """Hamming window of ``M`` points. NumPy: numpy.hamming.

    {cosine_window}

    ``0.54 - 0.46 cos(2 pi n/(M-1))``, as NumPy.

    Examples
    --------
    >>> import laxarray as la
    >>> la.hamming(5)
    Array([0.08, 0.54, 1.  , 0.54, 0.08])
    """
    return _cosine_window("hamming", M, "hamming")


@in_wide_region
@fill(cosine_window=_COSINE_WINDOW)
def hanning(M):
    """Hann window of ``M`` points. NumPy: numpy.hanning.

    {cosine_window}

    ``0.5 - 0.5 cos(2 pi n/(M-1))``, as NumPy.

    Examples
    --------
    >>> import laxarray as la
    >>> la.hanning(5)
    Array([0. , 0.5, 1. , 0.5, 0. ])
    """
    return _cosine_window("hanning", M, "hanning")


@kernel(static=("M",))
def _kaiser_arg_kernel(beta, *, M):
    beta = lax.convert_element_type(beta, _dt.on_device(_dt.float64))
    n = lax.convert_element_type(lax.iota(_dt.default_index(), M), _dt.on_device(_dt.float64))
    alpha = (M - 1) / 2.0
    r = lax.div(lax.sub(n, lax.full_like(n, alpha)), lax.full_like(n, alpha))
    return lax.mul(beta, lax.sqrt(lax.sub(lax.full_like(r, 1), lax.mul(r, r)))), beta


@in_wide_region
@fill(m=_M)
def kaiser(M, beta):
    """Kaiser window of ``M`` points with shape parameter ``beta``. NumPy: numpy.kaiser.

    Parameters
    ----------
    {m}
    beta : float or 0-d array
        The shape parameter (0: a rectangular window; larger: narrower).

    Returns
    -------
    Array
        The window ``I0(beta sqrt(1 - (2n/(M-1) - 1)**2)) / I0(beta)``, 1-D of length
        ``max(M, 0)``, float64 (float32 on a device without it).

    Raises
    ------
    TypeError
        If ``M`` is not an integer, or ``beta`` is not a real scalar.

    Notes
    -----
    Static under ``jax.jit``: ``M``.

    ``beta`` may be traced.

    Examples
    --------
    >>> import laxarray as la
    >>> la.kaiser(4, 5.0)
    Array([0.03671089, 0.7753221 , 0.7753221 , 0.03671089])
    """
    fn = "kaiser"
    M = _window_len(fn, M)
    vb = raw(fn, beta, "beta")
    if vb.ndim != 0 or _dt.kind_of(vb.dtype) == "c":
        fail(TypeError, fn, "a real scalar for 'beta'", vb)
    short = _short_window(M)
    if short is not None:
        return short
    arg, b = call(_kaiser_arg_kernel, vb, M=M)
    return i0(arg) / i0(b)
