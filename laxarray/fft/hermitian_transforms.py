"""The transforms of Hermitian-symmetric signals: hfft and its inverse ihfft.

:func:`hfft` is :func:`laxarray.fft.irfft` of the conjugate, :func:`ihfft` the conjugate of
:func:`laxarray.fft.rfft`, each with the opposite normalization; both run on the one kernel of
:mod:`laxarray.fft._kernel`.
"""

from __future__ import annotations

from laxarray._core.docstrings import fill
from laxarray._core.jax_regions import in_wide_region
from laxarray.fft import _docs
from laxarray.fft._kernel import operand, run
from laxarray.fft._plan import check_norm, one_axis, swap_norm


@in_wide_region
@fill(params=_docs.params("The first half of a Hermitian-symmetric signal (its non-negative\n"
                            "terms).",
                            _docs.N_HALF, _docs.AXIS, _docs.NORM_FORWARD),
      raises_notes=_docs.raises_notes(_docs.RAISES_1D_HALF, _docs.STATIC_1D,
                                      "Computed as :func:`irfft` of the conjugate with the\n"
                                      "opposite normalization."))
def hfft(x, /, n=None, axis=-1, norm="backward"):
    """Compute the transform of a Hermitian-symmetric signal given by its first half.

    Array API: fft.hfft. NumPy: numpy.fft.hfft.

    {params}

    Returns
    -------
    Array
        The real spectrum, of ``x``'s shape with ``n`` along ``axis``.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as la
    >>> la.fft.hfft(la.asarray([1.0, 2.0, 3.0]))
    Array([ 8., -2.,  0., -2.])
    """
    v = operand("hfft", x, False)
    ax, n = one_axis("hfft", v[0].shape, n, axis, half=True)
    return run("hfft", x, [("irfft", ax, n)], swap_norm(check_norm("hfft", norm)),
                conj_in=True, v=v)


@in_wide_region
@fill(params=_docs.params("The input array, real-valued (integer and bool input is accepted).",
                            _docs.N, _docs.AXIS, _docs.NORM_INVERSE),
      raises_notes=_docs.raises_notes(_docs.RAISES_1D_REAL, _docs.STATIC_1D,
                                      "Computed as the conjugate of :func:`rfft` with the\n"
                                      "opposite normalization."))
def ihfft(x, /, n=None, axis=-1, norm="backward"):
    """Compute the inverse of :func:`hfft` for real input: ``n // 2 + 1`` complex terms.

    Array API: fft.ihfft. NumPy: numpy.fft.ihfft.

    {params}

    Returns
    -------
    Array
        The first half of the Hermitian-symmetric inverse transform: ``n // 2 + 1`` complex
        values along ``axis``.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as la
    >>> h = la.fft.ihfft(la.asarray([1.0, 2.0, 0.0, -1.0]))
    >>> h
    Array([0.5 -0.j  , 0.25+0.75j, 0.  -0.j  ])
    >>> la.fft.hfft(h, n=4)
    Array([ 1.,  2.,  0., -1.])
    """
    v = operand("ihfft", x, True)
    ax, n = one_axis("ihfft", v[0].shape, n, axis)
    return run("ihfft", x, [("rfft", ax, n)], swap_norm(check_norm("ihfft", norm)),
                real_input=True, conj_out=True, v=v)


__all__ = ["hfft", "ihfft"]
