"""The one kernel behind every transform of :mod:`laxarray.fft`, and the plans each family
hands it.

A transform is a static plan of steps ``(kind, axis, n)`` (see :mod:`laxarray.fft._plan`),
run by :func:`_fft_kernel`: consecutive complex steps on distinct axes fuse into one
``lax.fft`` call (three axes at most), a real step stands alone, and the normalization is one
factor applied at the end.  :func:`one`, :func:`complex_nd`, :func:`real_nd` and
:func:`inverse_real_nd` turn the public arguments of the 1-D, complex n-D, real n-D and
inverse real n-D transforms into such a plan.
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
from laxarray.fft._plan import check_norm, nd_axes, one_axis

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


def operand(fn, x, real_input):
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


def run(fn, x, steps, norm, real_input=False, conj_in=False, conj_out=False, v=None):
    """Run the plan ``steps`` on ``x`` (``v``: its :func:`operand`, where already taken)."""
    v, dt = operand(fn, x, real_input) if v is None else v
    return call(_fft_kernel, v, dtype=dt, steps=tuple(steps), norm=check_norm(fn, norm),
                conj_in=conj_in, conj_out=conj_out)


def one(fn, kind, x, n, axis, norm, **kw):
    """A 1-D transform of ``kind`` (``'fft'``, ``'ifft'``, ``'rfft'``, ``'irfft'``)."""
    real_input = kind == "rfft"
    v = operand(fn, x, real_input)
    ax, n = one_axis(fn, v[0].shape, n, axis, half=kind == "irfft")
    return run(fn, x, [(kind, ax, n)], norm, real_input=real_input, v=v, **kw)


def complex_nd(fn, kind, x, s, axes, norm):
    """An n-D complex transform of ``kind``, last axis first as NumPy runs it."""
    v = operand(fn, x, False)
    axes, s = nd_axes(fn, v[0].shape, s, axes)
    steps = [(kind, a, n) for a, n in zip(axes, s)][::-1]
    return run(fn, x, steps, norm, v=v)


def real_nd(fn, x, s, axes, norm):
    """An n-D transform of real input: ``rfft`` on the last axis, then ``fft`` on the rest."""
    v = operand(fn, x, True)
    axes, s = nd_axes(fn, v[0].shape, s, axes)
    if not axes:
        fail(ValueError, fn, "at least one axis to transform", axes)
    steps = [("rfft", axes[-1], s[-1])] + [("fft", a, n) for a, n in
                                           zip(axes[:-1], s[:-1])][::-1]
    return run(fn, x, steps, norm, real_input=True, v=v)


def inverse_real_nd(fn, x, s, axes, norm):
    """The inverse of :func:`real_nd`: ``ifft`` on all axes but the last, then ``irfft``."""
    v = operand(fn, x, False)
    axes, s = nd_axes(fn, v[0].shape, s, axes, half=True)
    if not axes:
        fail(ValueError, fn, "at least one axis to transform", axes)
    steps = [("ifft", a, n) for a, n in zip(axes[:-1], s[:-1])] + [("irfft", axes[-1], s[-1])]
    return run(fn, x, steps, norm, v=v)
