"""Discrete Fourier transforms on ``jax.lax.fft``: fft, ifft, fftn, ifftn, fft2, ifft2,
rfft, irfft, rfftn, irfftn, rfft2, irfft2, hfft, ihfft.

NumPy 2's semantics: ``n``/``s`` pad with zeros or truncate, ``s`` entries of -1 keep the
input length, repeated ``axes`` transform repeatedly (as NumPy's axis-by-axis loop does),
``norm`` is ``'backward'`` (default, also ``None``), ``'ortho'`` or ``'forward'``.  Precision
is preserved: float32/complex64 -> complex64 (or float32 for the real outputs), integers
and bool -> complex128/float64.  ``n``, ``s``, ``axis``, ``axes`` and ``norm`` are static
under ``jax.jit``; every transform is differentiable (``laxarray.grad``) and traces to
``fft`` primitives (at most three axes each), transposes, pads and slices.
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

from laxarray._core import backend as _backend
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.runtime.kernel import kernel
from laxarray.array_api._calls import call
from laxarray.array_api._array import Array
from laxarray.array_api._convert import to_raw
from laxarray.fft._plan import check_norm, nd_axes, one_axis, swap_norm
from laxarray._core.jaxapi.regions import in_wide_region

_FFT_TYPE = {"fft": lax.FftType.FFT, "ifft": lax.FftType.IFFT, "rfft": lax.FftType.RFFT,
             "irfft": lax.FftType.IRFFT}


def _resize(x, axis, size):
    """Zero-pad or truncate ``x`` along ``axis`` to ``size``."""
    m = x.shape[axis]
    if m > size:
        return lax.slice_in_dim(x, 0, size, axis=axis)
    if m < size:
        pad = [(0, 0, 0)] * x.ndim
        pad[axis] = (0, size - m, 0)
        return lax.pad(x, lax.full((), 0, x.dtype), pad)
    return x


def _transform(x, kind, axes, lengths):
    """One ``lax.fft`` over ``axes`` (distinct, at most 3) with logical ``lengths``."""
    for a, n in zip(axes, lengths):
        x = _resize(x, a, n // 2 + 1 if (kind == "irfft" and a == axes[-1]) else n)
    rest = tuple(i for i in range(x.ndim) if i not in axes)
    perm = rest + tuple(axes)
    moved = perm != tuple(range(x.ndim))
    if moved:
        x = lax.transpose(x, perm)
    y = lax.fft(x, _FFT_TYPE[kind], tuple(lengths))
    if moved:
        y = lax.transpose(y, tuple(int(i) for i in np.argsort(perm)))
    return y


def _groups(steps):
    """Fuse consecutive steps of one kind on distinct axes into single ``lax.fft`` calls
    (complex steps only; a real step is always alone, three axes at most per call)."""
    out = []
    for kind, axis, n in steps:
        if (out and kind in ("fft", "ifft") and out[-1][0] == kind
                and axis not in out[-1][1] and len(out[-1][1]) < 3):
            out[-1] = (kind, (axis,) + out[-1][1], (n,) + out[-1][2])
        else:
            out.append((kind, (axis,), (n,)))
    return out


def _scale(kind, n, norm):
    """The factor applied after a step (``lax``'s inverse already divides by ``n``)."""
    if norm == "backward":
        return 1.0
    forward = kind in ("fft", "rfft")
    if norm == "ortho":
        return 1.0 / math.sqrt(n) if forward else math.sqrt(n)
    return 1.0 / n if forward else float(n)


@kernel(static=("dtype", "steps", "norm", "conj_in", "conj_out"))
def _fft_kernel(x, *, dtype, steps, norm, conj_in, conj_out):
    x = lax.convert_element_type(x, dtype)
    if conj_in:
        x = lax.conj(x)
    factor = 1.0
    for kind, axes, lengths in _groups(steps):
        x = _transform(x, kind, axes, lengths)
        factor *= _scale(kind, math.prod(lengths), norm)
    if factor != 1.0:
        x = lax.mul(x, lax.full((), factor, x.dtype))
    if conj_out:
        x = lax.conj(x)
    return x


def _operand(fn, x, real_input):
    """``(raw, input dtype)``: complex of the input's precision, or real for r2c inputs."""
    v = x._value if type(x) is Array else to_raw(fn, x, "x")
    dt = v.dtype
    if real_input:
        if _dt.kind_of(dt) == "c":
            fail(TypeError, fn, "a real-valued array for 'x'", dt)
        dt = dt if dt in _dt.CATEGORIES["real floating"] else _dt.default_float()
    else:
        dt = _dt.complex_dtype(dt if _dt.kind_of(dt) in "fc" else _dt.default_float())
    # the transform's precision must be one the backend's FFT has (float32/complex64 on a
    # TPU); half precision computes in complex64
    _backend.current().check_family(fn, "fft", _dt.complex_dtype(dt))
    return v, dt


def _run(fn, x, steps, norm, real_input=False, conj_in=False, conj_out=False, v=None):
    v, dt = _operand(fn, x, real_input) if v is None else v
    return call(_fft_kernel, v, dtype=dt, steps=tuple(steps), norm=check_norm(fn, norm),
                conj_in=conj_in, conj_out=conj_out)


def _one(fn, kind, x, n, axis, norm, **kw):
    real_input = kind == "rfft"
    v = _operand(fn, x, real_input)
    ax, n = one_axis(fn, v[0].shape, n, axis, half=kind == "irfft")
    return _run(fn, x, [(kind, ax, n)], norm, real_input=real_input, v=v, **kw)


@in_wide_region
def fft(x, /, n=None, axis=-1, norm="backward"):
    """Compute the one-dimensional discrete Fourier transform.

    Array API: fft.fft. NumPy: numpy.fft.fft.

    Parameters
    ----------
    x : array_like
        The input array; real input is accepted (the standard asks for complex) and
        transformed as complex.
    n : int, optional
        The length of the transform: ``x`` is zero-padded or truncated to it along ``axis``;
        default the input's length along ``axis``.
    axis : int, optional
        The axis to transform; default -1, the last.
    norm : {'backward', 'ortho', 'forward'} or None, optional
        The normalization: ``'backward'`` (the default, also ``None``) scales the inverse
        transform by ``1/n``, ``'forward'`` this one, ``'ortho'`` both by ``1/sqrt(n)``.

    Returns
    -------
    Array
        The complex transform, of ``x``'s shape with ``n`` along ``axis``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like or of no supported dtype, or ``n`` is not an integer.
    ValueError
        If ``n`` is below 1, or ``norm`` is not one of the three names.
    AxisError
        If ``axis`` is out of range for ``x`` (a 0-d ``x`` has none).

    Notes
    -----
    Static under ``jax.jit``: ``n``, ``axis``, ``norm``.

    Integer and bool input is transformed in the default floating dtype's complex type, half
    precision in complex64; float32/complex64 input stays in complex64.  On a TPU, whose FFT
    computes in float32/complex64 only, float64 or complex128 input raises ``TypeError``.
    Traces to ``fft`` primitives (at most three axes each), transposes, pads and slices;
    differentiable with ``laxarray.grad``.  Unlike NumPy, no ``out``.

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
    return _one("fft", "fft", x, n, axis, norm)


@in_wide_region
def ifft(x, /, n=None, axis=-1, norm="backward"):
    """Compute the one-dimensional inverse discrete Fourier transform.

    Array API: fft.ifft. NumPy: numpy.fft.ifft.

    Parameters
    ----------
    x : array_like
        The input array (real input is transformed as complex).
    n : int, optional
        The length of the transform: ``x`` is zero-padded or truncated to it along ``axis``;
        default the input's length along ``axis``.
    axis : int, optional
        The axis to transform; default -1, the last.
    norm : {'backward', 'ortho', 'forward'} or None, optional
        The normalization: ``'backward'`` (the default, also ``None``) scales this transform
        by ``1/n``, ``'forward'`` the forward one instead, ``'ortho'`` both by
        ``1/sqrt(n)``.

    Returns
    -------
    Array
        The complex inverse transform, of ``x``'s shape with ``n`` along ``axis``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like or of no supported dtype, or ``n`` is not an integer.
    ValueError
        If ``n`` is below 1, or ``norm`` is not one of the three names.
    AxisError
        If ``axis`` is out of range for ``x`` (a 0-d ``x`` has none).

    Notes
    -----
    Static under ``jax.jit``: ``n``, ``axis``, ``norm``.

    Integer and bool input is transformed in the default floating dtype's complex type, half
    precision in complex64; float32/complex64 input stays in complex64.  On a TPU, whose FFT
    computes in float32/complex64 only, float64 or complex128 input raises ``TypeError``.
    Traces to ``fft`` primitives (at most three axes each), transposes, pads and slices;
    differentiable with ``laxarray.grad``.  Unlike NumPy, no ``out``.

    Examples
    --------
    >>> import laxarray as la
    >>> X = la.fft.fft(la.asarray([1.0, 2.0, 0.0, -1.0]))
    >>> la.fft.ifft(X)
    Array([ 1.+0.j,  2.+0.j,  0.+0.j, -1.+0.j])
    """
    return _one("ifft", "ifft", x, n, axis, norm)


@in_wide_region
def rfft(x, /, n=None, axis=-1, norm="backward"):
    """Compute the one-dimensional discrete Fourier transform of real input.

    Array API: fft.rfft. NumPy: numpy.fft.rfft.

    Parameters
    ----------
    x : array_like
        The input array, real-valued (integer and bool input is accepted).
    n : int, optional
        The length of the transform: ``x`` is zero-padded or truncated to it along ``axis``;
        default the input's length along ``axis``.
    axis : int, optional
        The axis to transform; default -1, the last.
    norm : {'backward', 'ortho', 'forward'} or None, optional
        The normalization: ``'backward'`` (the default, also ``None``) scales the inverse
        transform by ``1/n``, ``'forward'`` this one, ``'ortho'`` both by ``1/sqrt(n)``.

    Returns
    -------
    Array
        The non-negative frequency terms: ``n // 2 + 1`` complex values along ``axis``.

    Raises
    ------
    TypeError
        If ``x`` is complex, not array_like or of no supported dtype, or ``n`` is not an
        integer.
    ValueError
        If ``n`` is below 1, or ``norm`` is not one of the three names.
    AxisError
        If ``axis`` is out of range for ``x`` (a 0-d ``x`` has none).

    Notes
    -----
    Static under ``jax.jit``: ``n``, ``axis``, ``norm``.

    Integer and bool input is transformed in the default floating dtype's complex type, half
    precision in complex64; float32/complex64 input stays in complex64.  On a TPU, whose FFT
    computes in float32/complex64 only, float64 or complex128 input raises ``TypeError``.
    Traces to ``fft`` primitives (at most three axes each), transposes, pads and slices;
    differentiable with ``laxarray.grad``.  Unlike NumPy, no ``out``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.fft.rfft(la.asarray([1.0, 2.0, 0.0, -1.0]))
    Array([2.+0.j, 1.-3.j, 0.+0.j])
    """
    return _one("rfft", "rfft", x, n, axis, norm)


@in_wide_region
def irfft(x, /, n=None, axis=-1, norm="backward"):
    """Compute the inverse of :func:`rfft`: real output from a half spectrum.

    Array API: fft.irfft. NumPy: numpy.fft.irfft.

    Parameters
    ----------
    x : array_like
        The non-negative frequency terms of a Hermitian-symmetric signal (real input is
        taken as complex).
    n : int, optional
        The length of the output along ``axis`` (the input holds ``n // 2 + 1`` terms,
        padded or truncated to that); default ``2 * (m - 1)`` for an input length ``m``.
    axis : int, optional
        The axis to transform; default -1, the last.
    norm : {'backward', 'ortho', 'forward'} or None, optional
        The normalization: ``'backward'`` (the default, also ``None``) scales this transform
        by ``1/n``, ``'forward'`` the forward one instead, ``'ortho'`` both by
        ``1/sqrt(n)``.

    Returns
    -------
    Array
        The real signal, of ``x``'s shape with ``n`` along ``axis``, in the real dtype of
        the transform's precision.

    Raises
    ------
    TypeError
        If ``x`` is not array_like or of no supported dtype, or ``n`` is not an integer.
    ValueError
        If ``n`` is below 1 (or, with no ``n``, ``x`` has fewer than two terms along
        ``axis``), or ``norm`` is not one of the three names.
    AxisError
        If ``axis`` is out of range for ``x`` (a 0-d ``x`` has none).

    Notes
    -----
    Static under ``jax.jit``: ``n``, ``axis``, ``norm``.

    Integer and bool input is transformed in the default floating dtype's complex type, half
    precision in complex64; float32/complex64 input stays in complex64.  On a TPU, whose FFT
    computes in float32/complex64 only, float64 or complex128 input raises ``TypeError``.
    Traces to ``fft`` primitives (at most three axes each), transposes, pads and slices;
    differentiable with ``laxarray.grad``.  Unlike NumPy, no ``out``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.fft.irfft(la.fft.rfft(la.asarray([1.0, 2.0, 0.0, -1.0])))
    Array([ 1.,  2.,  0., -1.])
    """
    return _one("irfft", "irfft", x, n, axis, norm)


@in_wide_region
def hfft(x, /, n=None, axis=-1, norm="backward"):
    """Compute the transform of a Hermitian-symmetric signal given by its first half.

    Array API: fft.hfft. NumPy: numpy.fft.hfft.

    Parameters
    ----------
    x : array_like
        The first half of a Hermitian-symmetric signal (its non-negative terms).
    n : int, optional
        The length of the real output along ``axis`` (the input holds ``n // 2 + 1`` terms,
        padded or truncated to that); default ``2 * (m - 1)`` for an input length ``m``.
    axis : int, optional
        The axis to transform; default -1, the last.
    norm : {'backward', 'ortho', 'forward'} or None, optional
        The normalization: ``'backward'`` (the default, also ``None``) scales the inverse
        transform by ``1/n``, ``'forward'`` this one, ``'ortho'`` both by ``1/sqrt(n)``.

    Returns
    -------
    Array
        The real spectrum, of ``x``'s shape with ``n`` along ``axis``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like or of no supported dtype, or ``n`` is not an integer.
    ValueError
        If ``n`` is below 1 (or, with no ``n``, ``x`` has fewer than two terms along
        ``axis``), or ``norm`` is not one of the three names.
    AxisError
        If ``axis`` is out of range for ``x`` (a 0-d ``x`` has none).

    Notes
    -----
    Static under ``jax.jit``: ``n``, ``axis``, ``norm``.

    Computed as :func:`irfft` of the conjugate with the opposite normalization.  Integer and
    bool input is transformed in the default floating dtype's complex type, half precision
    in complex64; float32/complex64 input stays in complex64.  On a TPU, whose FFT computes
    in float32/complex64 only, float64 or complex128 input raises ``TypeError``.  Traces to
    ``fft`` primitives (at most three axes each), transposes, pads and slices;
    differentiable with ``laxarray.grad``.  Unlike NumPy, no ``out``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.fft.hfft(la.asarray([1.0, 2.0, 3.0]))
    Array([ 8., -2.,  0., -2.])
    """
    v = _operand("hfft", x, False)
    ax, n = one_axis("hfft", v[0].shape, n, axis, half=True)
    return _run("hfft", x, [("irfft", ax, n)], swap_norm(check_norm("hfft", norm)),
                conj_in=True, v=v)


@in_wide_region
def ihfft(x, /, n=None, axis=-1, norm="backward"):
    """Compute the inverse of :func:`hfft` for real input: ``n // 2 + 1`` complex terms.

    Array API: fft.ihfft. NumPy: numpy.fft.ihfft.

    Parameters
    ----------
    x : array_like
        The input array, real-valued (integer and bool input is accepted).
    n : int, optional
        The length of the transform: ``x`` is zero-padded or truncated to it along ``axis``;
        default the input's length along ``axis``.
    axis : int, optional
        The axis to transform; default -1, the last.
    norm : {'backward', 'ortho', 'forward'} or None, optional
        The normalization: ``'backward'`` (the default, also ``None``) scales this transform
        by ``1/n``, ``'forward'`` the forward one instead, ``'ortho'`` both by
        ``1/sqrt(n)``.

    Returns
    -------
    Array
        The first half of the Hermitian-symmetric inverse transform: ``n // 2 + 1`` complex
        values along ``axis``.

    Raises
    ------
    TypeError
        If ``x`` is complex, not array_like or of no supported dtype, or ``n`` is not an
        integer.
    ValueError
        If ``n`` is below 1, or ``norm`` is not one of the three names.
    AxisError
        If ``axis`` is out of range for ``x`` (a 0-d ``x`` has none).

    Notes
    -----
    Static under ``jax.jit``: ``n``, ``axis``, ``norm``.

    Computed as the conjugate of :func:`rfft` with the opposite normalization.  Integer and
    bool input is transformed in the default floating dtype's complex type, half precision
    in complex64; float32/complex64 input stays in complex64.  On a TPU, whose FFT computes
    in float32/complex64 only, float64 or complex128 input raises ``TypeError``.  Traces to
    ``fft`` primitives (at most three axes each), transposes, pads and slices;
    differentiable with ``laxarray.grad``.  Unlike NumPy, no ``out``.

    Examples
    --------
    >>> import laxarray as la
    >>> h = la.fft.ihfft(la.asarray([1.0, 2.0, 0.0, -1.0]))
    >>> h
    Array([0.5 -0.j  , 0.25+0.75j, 0.  -0.j  ])
    >>> la.fft.hfft(h, n=4)
    Array([ 1.,  2.,  0., -1.])
    """
    v = _operand("ihfft", x, True)
    ax, n = one_axis("ihfft", v[0].shape, n, axis)
    return _run("ihfft", x, [("rfft", ax, n)], swap_norm(check_norm("ihfft", norm)),
                real_input=True, conj_out=True, v=v)


def _complex_nd(fn, kind, x, s, axes, norm):
    v = _operand(fn, x, False)
    axes, s = nd_axes(fn, v[0].shape, s, axes)
    steps = [(kind, a, n) for a, n in zip(axes, s)][::-1]
    return _run(fn, x, steps, norm, v=v)


@in_wide_region
def fftn(x, /, s=None, axes=None, norm="backward"):
    """Compute the N-dimensional discrete Fourier transform.

    Array API: fft.fftn. NumPy: numpy.fft.fftn.

    Parameters
    ----------
    x : array_like
        The input array.
    s : sequence of ints, optional
        The length of the transform along each axis of ``axes``: the input is zero-padded or
        truncated to it; -1 keeps the input's length.  Default: the input's lengths.
        Requires ``axes``.
    axes : sequence of ints, optional
        The axes to transform, in order; default all of ``x``'s axes.  A repeated axis is
        transformed again, as NumPy's axis-by-axis loop does.
    norm : {'backward', 'ortho', 'forward'} or None, optional
        The normalization: ``'backward'`` (the default, also ``None``) scales the inverse
        transform by ``1/n``, ``'forward'`` the forward one, ``'ortho'`` both by
        ``1/sqrt(n)``.

    Returns
    -------
    Array
        The complex transform, of ``x``'s shape with ``s`` along ``axes``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like or of no supported dtype, ``axes`` is not a sequence, or
        an entry of ``s`` is not an integer.
    ValueError
        If ``s`` is given without ``axes`` (deprecated in NumPy 2.0, an error here), has
        ``None`` entries, differs from ``axes`` in length or has an entry below 1 (other
        than -1), or ``norm`` is not one of the three names.
    AxisError
        If an axis is out of range for ``x``.

    Notes
    -----
    Static under ``jax.jit``: ``s``, ``axes``, ``norm``.

    Integer and bool input is transformed in the default floating dtype's complex type, half
    precision in complex64; float32/complex64 input stays in complex64.  On a TPU, whose FFT
    computes in float32/complex64 only, float64 or complex128 input raises ``TypeError``.
    Traces to ``fft`` primitives (at most three axes each), transposes, pads and slices;
    differentiable with ``laxarray.grad``.  Unlike NumPy, no ``out``.

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
    return _complex_nd("fftn", "fft", x, s, axes, norm)


@in_wide_region
def ifftn(x, /, s=None, axes=None, norm="backward"):
    """Compute the N-dimensional inverse discrete Fourier transform.

    Array API: fft.ifftn. NumPy: numpy.fft.ifftn.

    Parameters
    ----------
    x : array_like
        The input array.
    s : sequence of ints, optional
        The length of the transform along each axis of ``axes``: the input is zero-padded or
        truncated to it; -1 keeps the input's length.  Default: the input's lengths.
        Requires ``axes``.
    axes : sequence of ints, optional
        The axes to transform, in order; default all of ``x``'s axes.  A repeated axis is
        transformed again, as NumPy's axis-by-axis loop does.
    norm : {'backward', 'ortho', 'forward'} or None, optional
        The normalization: ``'backward'`` (the default, also ``None``) scales this transform
        by ``1/n``, ``'forward'`` the forward one instead, ``'ortho'`` both by
        ``1/sqrt(n)``.

    Returns
    -------
    Array
        The complex inverse transform, of ``x``'s shape with ``s`` along ``axes``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like or of no supported dtype, ``axes`` is not a sequence, or
        an entry of ``s`` is not an integer.
    ValueError
        If ``s`` is given without ``axes`` (deprecated in NumPy 2.0, an error here), has
        ``None`` entries, differs from ``axes`` in length or has an entry below 1 (other
        than -1), or ``norm`` is not one of the three names.
    AxisError
        If an axis is out of range for ``x``.

    Notes
    -----
    Static under ``jax.jit``: ``s``, ``axes``, ``norm``.

    Integer and bool input is transformed in the default floating dtype's complex type, half
    precision in complex64; float32/complex64 input stays in complex64.  On a TPU, whose FFT
    computes in float32/complex64 only, float64 or complex128 input raises ``TypeError``.
    Traces to ``fft`` primitives (at most three axes each), transposes, pads and slices;
    differentiable with ``laxarray.grad``.  Unlike NumPy, no ``out``.

    Examples
    --------
    >>> import laxarray as la
    >>> x = la.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> la.fft.ifftn(la.fft.fftn(x))
    Array([[1.+0.j, 2.+0.j],
           [3.+0.j, 4.+0.j]])
    """
    return _complex_nd("ifftn", "ifft", x, s, axes, norm)


@in_wide_region
def fft2(x, /, s=None, axes=(-2, -1), norm="backward"):
    """Compute the two-dimensional discrete Fourier transform.

    Array API: (not in the standard). NumPy: numpy.fft.fft2.

    Parameters
    ----------
    x : array_like
        The input array.
    s : sequence of ints, optional
        The length of the transform along each axis of ``axes``: the input is zero-padded or
        truncated to it; -1 keeps the input's length.  Default: the input's lengths.
        Requires ``axes``.
    axes : sequence of ints, optional
        The axes to transform, in order; default ``(-2, -1)``.  A repeated axis is
        transformed again, as NumPy's axis-by-axis loop does.
    norm : {'backward', 'ortho', 'forward'} or None, optional
        The normalization: ``'backward'`` (the default, also ``None``) scales the inverse
        transform by ``1/n``, ``'forward'`` the forward one, ``'ortho'`` both by
        ``1/sqrt(n)``.

    Returns
    -------
    Array
        The complex transform, of ``x``'s shape with ``s`` along ``axes``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like or of no supported dtype, ``axes`` is not a sequence, or
        an entry of ``s`` is not an integer.
    ValueError
        If ``s`` is given without ``axes`` (deprecated in NumPy 2.0, an error here), has
        ``None`` entries, differs from ``axes`` in length or has an entry below 1 (other
        than -1), or ``norm`` is not one of the three names.
    AxisError
        If an axis is out of range for ``x``.

    Notes
    -----
    Static under ``jax.jit``: ``s``, ``axes``, ``norm``.

    :func:`fftn` with other default ``axes``.  Integer and bool input is transformed in the
    default floating dtype's complex type, half precision in complex64; float32/complex64
    input stays in complex64.  On a TPU, whose FFT computes in float32/complex64 only,
    float64 or complex128 input raises ``TypeError``.  Traces to ``fft`` primitives (at most
    three axes each), transposes, pads and slices; differentiable with ``laxarray.grad``.
    Unlike NumPy, no ``out``.

    Examples
    --------
    >>> import laxarray as la
    >>> x = la.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> la.fft.fft2(x)
    Array([[10.+0.j, -2.+0.j],
           [-4.+0.j,  0.+0.j]])
    """
    return _complex_nd("fft2", "fft", x, s, axes, norm)


@in_wide_region
def ifft2(x, /, s=None, axes=(-2, -1), norm="backward"):
    """Compute the two-dimensional inverse discrete Fourier transform.

    Array API: (not in the standard). NumPy: numpy.fft.ifft2.

    Parameters
    ----------
    x : array_like
        The input array.
    s : sequence of ints, optional
        The length of the transform along each axis of ``axes``: the input is zero-padded or
        truncated to it; -1 keeps the input's length.  Default: the input's lengths.
        Requires ``axes``.
    axes : sequence of ints, optional
        The axes to transform, in order; default ``(-2, -1)``.  A repeated axis is
        transformed again, as NumPy's axis-by-axis loop does.
    norm : {'backward', 'ortho', 'forward'} or None, optional
        The normalization: ``'backward'`` (the default, also ``None``) scales this transform
        by ``1/n``, ``'forward'`` the forward one instead, ``'ortho'`` both by
        ``1/sqrt(n)``.

    Returns
    -------
    Array
        The complex inverse transform, of ``x``'s shape with ``s`` along ``axes``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like or of no supported dtype, ``axes`` is not a sequence, or
        an entry of ``s`` is not an integer.
    ValueError
        If ``s`` is given without ``axes`` (deprecated in NumPy 2.0, an error here), has
        ``None`` entries, differs from ``axes`` in length or has an entry below 1 (other
        than -1), or ``norm`` is not one of the three names.
    AxisError
        If an axis is out of range for ``x``.

    Notes
    -----
    Static under ``jax.jit``: ``s``, ``axes``, ``norm``.

    :func:`ifftn` with other default ``axes``.  Integer and bool input is transformed in the
    default floating dtype's complex type, half precision in complex64; float32/complex64
    input stays in complex64.  On a TPU, whose FFT computes in float32/complex64 only,
    float64 or complex128 input raises ``TypeError``.  Traces to ``fft`` primitives (at most
    three axes each), transposes, pads and slices; differentiable with ``laxarray.grad``.
    Unlike NumPy, no ``out``.

    Examples
    --------
    >>> import laxarray as la
    >>> x = la.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> la.fft.ifft2(la.fft.fft2(x))
    Array([[1.+0.j, 2.+0.j],
           [3.+0.j, 4.+0.j]])
    """
    return _complex_nd("ifft2", "ifft", x, s, axes, norm)


def _rfftn(fn, x, s, axes, norm):
    v = _operand(fn, x, True)
    axes, s = nd_axes(fn, v[0].shape, s, axes)
    if not axes:
        fail(ValueError, fn, "at least one axis to transform", axes)
    steps = [("rfft", axes[-1], s[-1])] + [("fft", a, n) for a, n in
                                           zip(axes[:-1], s[:-1])][::-1]
    return _run(fn, x, steps, norm, real_input=True, v=v)


def _irfftn(fn, x, s, axes, norm):
    v = _operand(fn, x, False)
    axes, s = nd_axes(fn, v[0].shape, s, axes, half=True)
    if not axes:
        fail(ValueError, fn, "at least one axis to transform", axes)
    steps = [("ifft", a, n) for a, n in zip(axes[:-1], s[:-1])] + [("irfft", axes[-1], s[-1])]
    return _run(fn, x, steps, norm, v=v)


@in_wide_region
def rfftn(x, /, s=None, axes=None, norm="backward"):
    """Compute the N-dimensional discrete Fourier transform of real input.

    Array API: fft.rfftn. NumPy: numpy.fft.rfftn.

    Parameters
    ----------
    x : array_like
        The input array, real-valued.
    s : sequence of ints, optional
        The length of the transform along each axis of ``axes``: the input is zero-padded or
        truncated to it; -1 keeps the input's length.  Default: the input's lengths.
        Requires ``axes``.
    axes : sequence of ints, optional
        The axes to transform, in order; default all of ``x``'s axes.  A repeated axis is
        transformed again, as NumPy's axis-by-axis loop does.
    norm : {'backward', 'ortho', 'forward'} or None, optional
        The normalization: ``'backward'`` (the default, also ``None``) scales the inverse
        transform by ``1/n``, ``'forward'`` the forward one, ``'ortho'`` both by
        ``1/sqrt(n)``.

    Returns
    -------
    Array
        The complex transform, of ``x``'s shape with ``s`` along ``axes`` except the last
        axis of ``axes``, which holds ``s[-1] // 2 + 1`` terms.

    Raises
    ------
    TypeError
        If ``x`` is complex, not array_like or of no supported dtype, ``axes`` is not a
        sequence, or an entry of ``s`` is not an integer.
    ValueError
        If ``s`` is given without ``axes`` (deprecated in NumPy 2.0, an error here), has
        ``None`` entries, differs from ``axes`` in length or has an entry below 1 (other
        than -1), ``axes`` is empty, or ``norm`` is not one of the three names.
    AxisError
        If an axis is out of range for ``x``.

    Notes
    -----
    Static under ``jax.jit``: ``s``, ``axes``, ``norm``.

    The real transform runs on the last axis of ``axes``, then complex ones on the others.
    Integer and bool input is transformed in the default floating dtype's complex type, half
    precision in complex64; float32/complex64 input stays in complex64.  On a TPU, whose FFT
    computes in float32/complex64 only, float64 or complex128 input raises ``TypeError``.
    Traces to ``fft`` primitives (at most three axes each), transposes, pads and slices;
    differentiable with ``laxarray.grad``.  Unlike NumPy, no ``out``.

    Examples
    --------
    >>> import laxarray as la
    >>> x = la.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> la.fft.rfftn(la.asarray([[1.0, 2.0, 0.0, -1.0]]))
    Array([[2.+0.j, 1.-3.j, 0.+0.j]])
    """
    return _rfftn("rfftn", x, s, axes, norm)


@in_wide_region
def irfftn(x, /, s=None, axes=None, norm="backward"):
    """Compute the inverse of :func:`rfftn`: real output from a half spectrum.

    Array API: fft.irfftn. NumPy: numpy.fft.irfftn.

    Parameters
    ----------
    x : array_like
        The input array.
    s : sequence of ints, optional
        The length of the output along each axis of ``axes`` (the last one's input holds
        ``s[-1] // 2 + 1`` of them); -1 keeps the input's length.  Default: the input's
        lengths, and ``2 * (m - 1)`` along the last axis of ``axes`` for an input length
        ``m``.  Requires ``axes``.
    axes : sequence of ints, optional
        The axes to transform, in order; default all of ``x``'s axes.  A repeated axis is
        transformed again, as NumPy's axis-by-axis loop does.
    norm : {'backward', 'ortho', 'forward'} or None, optional
        The normalization: ``'backward'`` (the default, also ``None``) scales this transform
        by ``1/n``, ``'forward'`` the forward one instead, ``'ortho'`` both by
        ``1/sqrt(n)``.

    Returns
    -------
    Array
        The real signal, of ``x``'s shape with ``s`` along ``axes``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like or of no supported dtype, ``axes`` is not a sequence, or
        an entry of ``s`` is not an integer.
    ValueError
        If ``s`` is given without ``axes`` (deprecated in NumPy 2.0, an error here), has
        ``None`` entries, differs from ``axes`` in length or has an entry below 1 (other
        than -1), ``axes`` is empty, or ``norm`` is not one of the three names.
    AxisError
        If an axis is out of range for ``x``.

    Notes
    -----
    Static under ``jax.jit``: ``s``, ``axes``, ``norm``.

    Integer and bool input is transformed in the default floating dtype's complex type, half
    precision in complex64; float32/complex64 input stays in complex64.  On a TPU, whose FFT
    computes in float32/complex64 only, float64 or complex128 input raises ``TypeError``.
    Traces to ``fft`` primitives (at most three axes each), transposes, pads and slices;
    differentiable with ``laxarray.grad``.  Unlike NumPy, no ``out``.

    Examples
    --------
    >>> import laxarray as la
    >>> x = la.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> la.fft.irfftn(la.fft.rfftn(x))
    Array([[1., 2.],
           [3., 4.]])
    """
    return _irfftn("irfftn", x, s, axes, norm)


@in_wide_region
def rfft2(x, /, s=None, axes=(-2, -1), norm="backward"):
    """Compute the two-dimensional discrete Fourier transform of real input.

    Array API: (not in the standard). NumPy: numpy.fft.rfft2.

    Parameters
    ----------
    x : array_like
        The input array, real-valued.
    s : sequence of ints, optional
        The length of the transform along each axis of ``axes``: the input is zero-padded or
        truncated to it; -1 keeps the input's length.  Default: the input's lengths.
        Requires ``axes``.
    axes : sequence of ints, optional
        The axes to transform, in order; default ``(-2, -1)``.  A repeated axis is
        transformed again, as NumPy's axis-by-axis loop does.
    norm : {'backward', 'ortho', 'forward'} or None, optional
        The normalization: ``'backward'`` (the default, also ``None``) scales the inverse
        transform by ``1/n``, ``'forward'`` the forward one, ``'ortho'`` both by
        ``1/sqrt(n)``.

    Returns
    -------
    Array
        The complex transform, of ``x``'s shape with ``s`` along ``axes`` except the last
        axis of ``axes``, which holds ``s[-1] // 2 + 1`` terms.

    Raises
    ------
    TypeError
        If ``x`` is complex, not array_like or of no supported dtype, ``axes`` is not a
        sequence, or an entry of ``s`` is not an integer.
    ValueError
        If ``s`` is given without ``axes`` (deprecated in NumPy 2.0, an error here), has
        ``None`` entries, differs from ``axes`` in length or has an entry below 1 (other
        than -1), ``axes`` is empty, or ``norm`` is not one of the three names.
    AxisError
        If an axis is out of range for ``x``.

    Notes
    -----
    Static under ``jax.jit``: ``s``, ``axes``, ``norm``.

    :func:`rfftn` with other default ``axes``.  Integer and bool input is transformed in the
    default floating dtype's complex type, half precision in complex64; float32/complex64
    input stays in complex64.  On a TPU, whose FFT computes in float32/complex64 only,
    float64 or complex128 input raises ``TypeError``.  Traces to ``fft`` primitives (at most
    three axes each), transposes, pads and slices; differentiable with ``laxarray.grad``.
    Unlike NumPy, no ``out``.

    Examples
    --------
    >>> import laxarray as la
    >>> x = la.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> la.fft.rfft2(x)
    Array([[10.+0.j, -2.+0.j],
           [-4.+0.j,  0.+0.j]])
    """
    return _rfftn("rfft2", x, s, axes, norm)


@in_wide_region
def irfft2(x, /, s=None, axes=(-2, -1), norm="backward"):
    """Compute the inverse of :func:`rfft2`: real output from a half spectrum.

    Array API: (not in the standard). NumPy: numpy.fft.irfft2.

    Parameters
    ----------
    x : array_like
        The input array.
    s : sequence of ints, optional
        The length of the output along each axis of ``axes`` (the last one's input holds
        ``s[-1] // 2 + 1`` of them); -1 keeps the input's length.  Default: the input's
        lengths, and ``2 * (m - 1)`` along the last axis of ``axes`` for an input length
        ``m``.  Requires ``axes``.
    axes : sequence of ints, optional
        The axes to transform, in order; default ``(-2, -1)``.  A repeated axis is
        transformed again, as NumPy's axis-by-axis loop does.
    norm : {'backward', 'ortho', 'forward'} or None, optional
        The normalization: ``'backward'`` (the default, also ``None``) scales this transform
        by ``1/n``, ``'forward'`` the forward one instead, ``'ortho'`` both by
        ``1/sqrt(n)``.

    Returns
    -------
    Array
        The real signal, of ``x``'s shape with ``s`` along ``axes``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like or of no supported dtype, ``axes`` is not a sequence, or
        an entry of ``s`` is not an integer.
    ValueError
        If ``s`` is given without ``axes`` (deprecated in NumPy 2.0, an error here), has
        ``None`` entries, differs from ``axes`` in length or has an entry below 1 (other
        than -1), ``axes`` is empty, or ``norm`` is not one of the three names.
    AxisError
        If an axis is out of range for ``x``.

    Notes
    -----
    Static under ``jax.jit``: ``s``, ``axes``, ``norm``.

    :func:`irfftn` with other default ``axes``.  Integer and bool input is transformed in
    the default floating dtype's complex type, half precision in complex64;
    float32/complex64 input stays in complex64.  On a TPU, whose FFT computes in
    float32/complex64 only, float64 or complex128 input raises ``TypeError``.  Traces to
    ``fft`` primitives (at most three axes each), transposes, pads and slices;
    differentiable with ``laxarray.grad``.  Unlike NumPy, no ``out``.

    Examples
    --------
    >>> import laxarray as la
    >>> x = la.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> la.fft.irfft2(la.fft.rfft2(x))
    Array([[1., 2.],
           [3., 4.]])
    """
    return _irfftn("irfft2", x, s, axes, norm)


__all__ = ["fft", "ifft", "fftn", "ifftn", "fft2", "ifft2", "rfft", "irfft", "rfftn", "irfftn",
           "rfft2", "irfft2", "hfft", "ihfft"]
