"""The complex discrete Fourier transforms: fft, ifft (1-D), fftn, ifftn (n-D) and fft2, ifft2
(NumPy's 2-D ones, :func:`fftn`/:func:`ifftn` with ``axes=(-2, -1)``).

NumPy 2's semantics: ``n``/``s`` pad with zeros or truncate, ``s`` entries of -1 keep the
input length, repeated ``axes`` transform repeatedly, ``norm`` is ``'backward'`` (default, also
``None``), ``'ortho'`` or ``'forward'``.  Each is a plan run by the one kernel of
:mod:`laxarray.fft._kernel`; the shared parts of the docstrings are :mod:`laxarray.fft._docs`.
"""

from __future__ import annotations

from laxarray._core.docstrings import fill
from laxarray._core.jax_regions import in_wide_region
from laxarray.fft import _docs
from laxarray.fft._kernel import complex_nd, one


@in_wide_region
@fill(params=_docs.params("The input array; real input is accepted (the standard asks for\n"
                            "complex) and transformed as complex.",
                            _docs.N, _docs.AXIS, _docs.NORM_FORWARD),
      raises_notes=_docs.raises_notes(_docs.RAISES_1D, _docs.STATIC_1D))
def fft(x, /, n=None, axis=-1, norm="backward"):
    """Compute the one-dimensional discrete Fourier transform.

    Array API: fft.fft. NumPy: numpy.fft.fft.

    {params}

    Returns
    -------
    Array
        The complex transform, of ``x``'s shape with ``n`` along ``axis``.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as la
    >>> la.fft.fft(la.asarray([1.0, 2.0, 0.0, -1.0]))
    Array([2.+0.j, 1.-3.j, 0.+0.j, 1.+3.j])
    >>> la.fft.fft(la.asarray([1.0, 2.0, 0.0, -1.0]), n=2)
    Array([ 3.+0.j, -1.+0.j])
    >>> la.fft.fft(la.asarray([1.0, 2.0, 0.0, -1.0]), norm="ortho")
    Array([1. +0.j , 0.5-1.5j, 0. +0.j , 0.5+1.5j])
    """
    return one("fft", "fft", x, n, axis, norm)


@in_wide_region
@fill(params=_docs.params("The input array (real input is transformed as complex).",
                            _docs.N, _docs.AXIS, _docs.NORM_INVERSE),
      raises_notes=_docs.raises_notes(_docs.RAISES_1D, _docs.STATIC_1D))
def ifft(x, /, n=None, axis=-1, norm="backward"):
    """Compute the one-dimensional inverse discrete Fourier transform.

    Array API: fft.ifft. NumPy: numpy.fft.ifft.

    {params}

    Returns
    -------
    Array
        The complex inverse transform, of ``x``'s shape with ``n`` along ``axis``.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as la
    >>> X = la.fft.fft(la.asarray([1.0, 2.0, 0.0, -1.0]))
    >>> la.fft.ifft(X)
    Array([ 1.+0.j,  2.+0.j,  0.+0.j, -1.+0.j])
    """
    return one("ifft", "ifft", x, n, axis, norm)


@in_wide_region
@fill(params=_docs.params("The input array.", _docs.S, _docs.AXES_ALL, _docs.NORM_FORWARD),
      raises_notes=_docs.raises_notes(_docs.RAISES_ND, _docs.STATIC_ND))
def fftn(x, /, s=None, axes=None, norm="backward"):
    """Compute the N-dimensional discrete Fourier transform.

    Array API: fft.fftn. NumPy: numpy.fft.fftn.

    {params}

    Returns
    -------
    Array
        The complex transform, of ``x``'s shape with ``s`` along ``axes``.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as la
    >>> x = la.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> la.fft.fftn(x)
    Array([[10.+0.j, -2.+0.j],
           [-4.+0.j,  0.+0.j]])
    >>> la.fft.fftn(x, s=(-1, 4), axes=(0, 1)).shape
    (2, 4)
    """
    return complex_nd("fftn", "fft", x, s, axes, norm)


@in_wide_region
@fill(params=_docs.params("The input array.", _docs.S, _docs.AXES_ALL, _docs.NORM_INVERSE),
      raises_notes=_docs.raises_notes(_docs.RAISES_ND, _docs.STATIC_ND))
def ifftn(x, /, s=None, axes=None, norm="backward"):
    """Compute the N-dimensional inverse discrete Fourier transform.

    Array API: fft.ifftn. NumPy: numpy.fft.ifftn.

    {params}

    Returns
    -------
    Array
        The complex inverse transform, of ``x``'s shape with ``s`` along ``axes``.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as la
    >>> x = la.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> la.fft.ifftn(la.fft.fftn(x))
    Array([[1.+0.j, 2.+0.j],
           [3.+0.j, 4.+0.j]])
    """
    return complex_nd("ifftn", "ifft", x, s, axes, norm)


@in_wide_region
@fill(params=_docs.params("The input array.", _docs.S, _docs.AXES_2D, _docs.NORM_FORWARD),
      raises_notes=_docs.raises_notes(_docs.RAISES_ND, _docs.STATIC_ND,
                                      ":func:`fftn` with other default ``axes``."))
def fft2(x, /, s=None, axes=(-2, -1), norm="backward"):
    """Compute the two-dimensional discrete Fourier transform.

    Array API: (not in the standard). NumPy: numpy.fft.fft2.

    {params}

    Returns
    -------
    Array
        The complex transform, of ``x``'s shape with ``s`` along ``axes`` (by default the
        last two).

    {raises_notes}

    Examples
    --------
    >>> import laxarray as la
    >>> x = la.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> la.fft.fft2(x)
    Array([[10.+0.j, -2.+0.j],
           [-4.+0.j,  0.+0.j]])
    """
    return complex_nd("fft2", "fft", x, s, axes, norm)


@in_wide_region
@fill(params=_docs.params("The input array.", _docs.S, _docs.AXES_2D, _docs.NORM_INVERSE),
      raises_notes=_docs.raises_notes(_docs.RAISES_ND, _docs.STATIC_ND,
                                      ":func:`ifftn` with other default ``axes``."))
def ifft2(x, /, s=None, axes=(-2, -1), norm="backward"):
    """Compute the two-dimensional inverse discrete Fourier transform.

    Array API: (not in the standard). NumPy: numpy.fft.ifft2.

    {params}

    Returns
    -------
    Array
        The complex inverse transform, of ``x``'s shape with ``s`` along ``axes`` (by
        default the last two).

    {raises_notes}

    Examples
    --------
    >>> import laxarray as la
    >>> x = la.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> la.fft.ifft2(la.fft.fft2(x))
    Array([[1.+0.j, 2.+0.j],
           [3.+0.j, 4.+0.j]])
    """
    return complex_nd("ifft2", "ifft", x, s, axes, norm)


__all__ = ["fft", "ifft", "fftn", "ifftn", "fft2", "ifft2"]
