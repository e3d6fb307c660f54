"""The transforms of real input and their inverses: rfft, irfft (1-D), rfftn, irfftn (n-D) and
rfft2, irfft2 (NumPy's 2-D ones, with ``axes=(-2, -1)``).

A real transform keeps the ``n // 2 + 1`` non-negative frequency terms of the last axis
transformed; its inverse takes them back to a real signal of length ``n``.  Each is a plan run
by the one kernel of :mod:`laxarray.fft._kernel`; the shared parts of the docstrings are
:mod:`laxarray.fft._docs`.
"""

from __future__ import annotations

from laxarray._core.docstrings import fill
from laxarray._core.jax_regions import in_wide_region
from laxarray.fft import _docs
from laxarray.fft._kernel import inverse_real_nd, one, real_nd


@in_wide_region
@fill(params=_docs.params("The input array, real-valued (integer and bool input is accepted).",
                            _docs.N, _docs.AXIS, _docs.NORM_FORWARD),
      raises_notes=_docs.raises_notes(_docs.RAISES_1D_REAL, _docs.STATIC_1D))
def rfft(x, /, n=None, axis=-1, norm="backward"):
    """Compute the one-dimensional discrete Fourier transform of real input.

    Array API: fft.rfft. NumPy: numpy.fft.rfft.

    {params}

    Returns
    -------
    Array
        The non-negative frequency terms: ``n // 2 + 1`` complex values along ``axis``.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as la
    >>> la.fft.rfft(la.asarray([1.0, 2.0, 0.0, -1.0]))
    Array([2.+0.j, 1.-3.j, 0.+0.j])
    """
    return one("rfft", "rfft", x, n, axis, norm)


@in_wide_region
@fill(params=_docs.params("The non-negative frequency terms of a Hermitian-symmetric signal\n"
                            "(real input is taken as complex).",
                            _docs.N_HALF, _docs.AXIS, _docs.NORM_INVERSE),
      raises_notes=_docs.raises_notes(_docs.RAISES_1D_HALF, _docs.STATIC_1D))
def irfft(x, /, n=None, axis=-1, norm="backward"):
    """Compute the inverse of :func:`rfft`: real output from a half spectrum.

    Array API: fft.irfft. NumPy: numpy.fft.irfft.

    {params}

    Returns
    -------
    Array
        The real signal, of ``x``'s shape with ``n`` along ``axis``, in the real dtype of
        the transform's precision.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as la
    >>> la.fft.irfft(la.fft.rfft(la.asarray([1.0, 2.0, 0.0, -1.0])))
    Array([ 1.,  2.,  0., -1.])
    """
    return one("irfft", "irfft", x, n, axis, norm)


@in_wide_region
@fill(params=_docs.params("The input array, real-valued.",
                            _docs.S, _docs.AXES_ALL, _docs.NORM_FORWARD),
      raises_notes=_docs.raises_notes(_docs.RAISES_ND_REAL, _docs.STATIC_ND,
                                      "The real transform runs on the last axis of ``axes``, then\n"
                                      "complex ones on the others."))
def rfftn(x, /, s=None, axes=None, norm="backward"):
    """Compute the N-dimensional discrete Fourier transform of real input.

    Array API: fft.rfftn. NumPy: numpy.fft.rfftn.

    {params}

    Returns
    -------
    Array
        The complex transform, of ``x``'s shape with ``s`` along ``axes`` except the last
        axis of ``axes``, which holds ``s[-1] // 2 + 1`` terms.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as la
    >>> x = la.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> la.fft.rfftn(la.asarray([[1.0, 2.0, 0.0, -1.0]]))
    Array([[2.+0.j, 1.-3.j, 0.+0.j]])
    """
    return real_nd("rfftn", x, s, axes, norm)


@in_wide_region
@fill(params=_docs.params("The input array.", _docs.S_HALF, _docs.AXES_ALL, _docs.NORM_INVERSE),
      raises_notes=_docs.raises_notes(_docs.RAISES_ND_HALF, _docs.STATIC_ND))
def irfftn(x, /, s=None, axes=None, norm="backward"):
    """Compute the inverse of :func:`rfftn`: real output from a half spectrum.

    Array API: fft.irfftn. NumPy: numpy.fft.irfftn.

    {params}

    Returns
    -------
    Array
        The real signal, of ``x``'s shape with ``s`` along ``axes``.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as la
    >>> x = la.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> la.fft.irfftn(la.fft.rfftn(x))
    Array([[1., 2.],
           [3., 4.]])
    """
    return inverse_real_nd("irfftn", x, s, axes, norm)


@in_wide_region
@fill(params=_docs.params("The input array, real-valued.",
                            _docs.S, _docs.AXES_2D, _docs.NORM_FORWARD),
      raises_notes=_docs.raises_notes(_docs.RAISES_ND_REAL, _docs.STATIC_ND,
                                      ":func:`rfftn` with other default ``axes``."))
def rfft2(x, /, s=None, axes=(-2, -1), norm="backward"):
    """Compute the two-dimensional discrete Fourier transform of real input.

    Array API: (not in the standard). NumPy: numpy.fft.rfft2.

    {params}

    Returns
    -------
    Array
        The complex transform, of ``x``'s shape with ``s`` along ``axes`` (by default the
        last two) except the last axis of ``axes``, which holds ``s[-1] // 2 + 1`` terms.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as la
    >>> x = la.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> la.fft.rfft2(x)
    Array([[10.+0.j, -2.+0.j],
           [-4.+0.j,  0.+0.j]])
    """
    return real_nd("rfft2", x, s, axes, norm)


@in_wide_region
@fill(params=_docs.params("The input array.", _docs.S_HALF, _docs.AXES_2D, _docs.NORM_INVERSE),
      raises_notes=_docs.raises_notes(_docs.RAISES_ND_HALF, _docs.STATIC_ND,
                                      ":func:`irfftn` with other default ``axes``."))
def irfft2(x, /, s=None, axes=(-2, -1), norm="backward"):
    """Compute the inverse of :func:`rfft2`: real output from a half spectrum.

    Array API: (not in the standard). NumPy: numpy.fft.irfft2.

    {params}

    Returns
    -------
    Array
        The real signal, of ``x``'s shape with ``s`` along ``axes`` (by default the last
        two).

    {raises_notes}

    Examples
    --------
    >>> import laxarray as la
    >>> x = la.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> la.fft.irfft2(la.fft.rfft2(x))
    Array([[1., 2.],
           [3., 4.]])
    """
    return inverse_real_nd("irfft2", x, s, axes, norm)


__all__ = ["rfft", "irfft", "rfftn", "irfftn", "rfft2", "irfft2"]
