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
from laxarray._core.kernel import kernel
from laxarray.array_api._calls import call
from laxarray.array_api._array import Array
from laxarray.array_api._convert import to_raw
from laxarray.fft._plan import check_norm, nd_axes, one_axis, swap_norm
from laxarray._core.jaxapi import in_wide_region

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
    """1-D discrete Fourier transform. Array API: fft.fft. NumPy: numpy.fft.fft.

    Real input is accepted and gives the complex result of its precision (the standard
    asks for complex input).  NumPy's ``out`` is not accepted.

    >>> import laxarray as xp
    >>> xp.fft.fft(xp.asarray([1.0, 0.0, 0.0, 0.0])).tolist()  # doctest: +SKIP
    [(1+0j), (1+0j), (1+0j), (1+0j)]
    """
    return _one("fft", "fft", x, n, axis, norm)


@in_wide_region
def ifft(x, /, n=None, axis=-1, norm="backward"):
    """1-D inverse discrete Fourier transform. Array API: fft.ifft. NumPy: numpy.fft.ifft."""
    return _one("ifft", "ifft", x, n, axis, norm)


@in_wide_region
def rfft(x, /, n=None, axis=-1, norm="backward"):
    """1-D transform of real input, ``n // 2 + 1`` outputs. Array API: fft.rfft.
    NumPy: numpy.fft.rfft. Complex input raises ``TypeError``."""
    return _one("rfft", "rfft", x, n, axis, norm)


@in_wide_region
def irfft(x, /, n=None, axis=-1, norm="backward"):
    """Inverse of :func:`rfft`: real output of length ``n`` (default ``2 * (M - 1)``).

    Array API: fft.irfft. NumPy: numpy.fft.irfft.
    """
    return _one("irfft", "irfft", x, n, axis, norm)


@in_wide_region
def hfft(x, /, n=None, axis=-1, norm="backward"):
    """Transform of a Hermitian-symmetric signal given by its first half: real output of
    length ``n`` (default ``2 * (M - 1)``). Array API: fft.hfft. NumPy: numpy.fft.hfft."""
    v = _operand("hfft", x, False)
    ax, n = one_axis("hfft", v[0].shape, n, axis, half=True)
    return _run("hfft", x, [("irfft", ax, n)], swap_norm(check_norm("hfft", norm)),
                conj_in=True, v=v)


@in_wide_region
def ihfft(x, /, n=None, axis=-1, norm="backward"):
    """Inverse of :func:`hfft` for real input: ``n // 2 + 1`` complex outputs.

    Array API: fft.ihfft. NumPy: numpy.fft.ihfft.
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
    """N-d discrete Fourier transform over ``axes`` (default all). Array API: fft.fftn.
    NumPy: numpy.fft.fftn. ``s`` requires ``axes`` (NumPy 2's deprecation made an error)."""
    return _complex_nd("fftn", "fft", x, s, axes, norm)


@in_wide_region
def ifftn(x, /, s=None, axes=None, norm="backward"):
    """N-d inverse discrete Fourier transform. Array API: fft.ifftn. NumPy: numpy.fft.ifftn."""
    return _complex_nd("ifftn", "ifft", x, s, axes, norm)


@in_wide_region
def fft2(x, /, s=None, axes=(-2, -1), norm="backward"):
    """2-d discrete Fourier transform over ``axes``. Array API: (not in the standard).
    NumPy: numpy.fft.fft2."""
    return _complex_nd("fft2", "fft", x, s, axes, norm)


@in_wide_region
def ifft2(x, /, s=None, axes=(-2, -1), norm="backward"):
    """2-d inverse discrete Fourier transform. Array API: (not in the standard).
    NumPy: numpy.fft.ifft2."""
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
    """N-d transform of real input (half spectrum on the last axis). Array API: fft.rfftn.
    NumPy: numpy.fft.rfftn."""
    return _rfftn("rfftn", x, s, axes, norm)


@in_wide_region
def irfftn(x, /, s=None, axes=None, norm="backward"):
    """Inverse of :func:`rfftn`; the last axis' output length defaults to ``2 * (M - 1)``.

    Array API: fft.irfftn. NumPy: numpy.fft.irfftn.
    """
    return _irfftn("irfftn", x, s, axes, norm)


@in_wide_region
def rfft2(x, /, s=None, axes=(-2, -1), norm="backward"):
    """2-d transform of real input. Array API: (not in the standard). NumPy: numpy.fft.rfft2."""
    return _rfftn("rfft2", x, s, axes, norm)


@in_wide_region
def irfft2(x, /, s=None, axes=(-2, -1), norm="backward"):
    """Inverse of :func:`rfft2`. Array API: (not in the standard). NumPy: numpy.fft.irfft2."""
    return _irfftn("irfft2", x, s, axes, norm)


__all__ = ["fft", "ifft", "fftn", "ifftn", "fft2", "ifft2", "rfft", "irfft", "rfftn", "irfftn",
           "rfft2", "irfft2", "hfft", "ihfft"]
