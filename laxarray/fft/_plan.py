"""Turning NumPy 2's ``n``/``s``/``axes``/``norm`` arguments into a static transform plan.

A plan is a tuple of steps ``(kind, axis, n)`` applied in order, where ``kind`` is
``"fft"``/``"ifft"`` (complex to complex), ``"rfft"`` (real to half-spectrum) or ``"irfft"``
(half-spectrum to real) and ``n`` the logical transform length.  NumPy applies the 1-D
transforms of an n-d call one axis at a time, last axis first; plans keep that order, so
repeated axes behave as in NumPy (the kernel fuses consecutive steps on distinct axes).
"""

from __future__ import annotations

from laxarray._core.errors import fail
from laxarray._core.validate import normalize_axis

NORMS = ("backward", "ortho", "forward")


def check_norm(fn, norm):
    """``None`` (= ``'backward'``) or one of :data:`NORMS`."""
    if norm is None:
        return "backward"
    if not isinstance(norm, str) or norm not in NORMS:
        fail(ValueError, fn, "'norm' to be one of 'backward', 'ortho', 'forward'", norm)
    return norm


def swap_norm(norm):
    """The normalization of the opposite direction (``hfft`` is ``irfft`` with it)."""
    return {"backward": "forward", "forward": "backward", "ortho": "ortho"}[norm]


def check_n(fn, n, argname="n"):
    """A transform length: a Python int >= 1."""
    if isinstance(n, bool):
        fail(TypeError, fn, f"an integer for '{argname}'", n)
    try:
        n = int(n.__index__())
    except (AttributeError, TypeError):
        fail(TypeError, fn, f"an integer for '{argname}'", n)
    if n < 1:
        fail(ValueError, fn, f"a positive number of FFT data points for '{argname}'", n)
    return n


def one_axis(fn, shape, n, axis, half=False):
    """``(axis, n)`` of a 1-D transform; ``half``: ``n`` defaults to ``2 * (M - 1)``."""
    ax = normalize_axis(fn, axis, len(shape))
    if n is None:
        n = 2 * (shape[ax] - 1) if half else shape[ax]
        if n < 1:
            fail(ValueError, fn, f"an input of length >= {2 if half else 1} along 'axis' "
                 "(or an explicit 'n')", tuple(shape))
    return ax, check_n(fn, n)


def nd_axes(fn, shape, s, axes, half=False):
    """``(axes, s)`` of an n-d transform with NumPy 2's rules.

    ``s`` without ``axes`` and ``None`` entries in ``s`` (deprecated in NumPy 2.0) raise
    ``ValueError``; an entry ``-1`` means the input's length along that axis.
    """
    nd = len(shape)
    if s is not None and axes is None:
        fail(ValueError, fn, "'axes' whenever 's' is given (s without axes is deprecated "
             "in NumPy 2.0; pass axes=range(-len(s), 0) for the old behaviour)", s)
    if axes is None:
        axes = tuple(range(nd))
    elif isinstance(axes, (tuple, list, range)):
        axes = tuple(normalize_axis(fn, a, nd, "axes") for a in axes)
    else:
        fail(TypeError, fn, "a sequence of ints for 'axes'", axes)
    if s is None:
        s = [shape[a] for a in axes]
        if half and axes:
            s[-1] = 2 * (shape[axes[-1]] - 1)
    else:
        if not isinstance(s, (tuple, list)):
            fail(TypeError, fn, "a sequence of ints for 's'", s)
        if any(v is None for v in s):
            fail(ValueError, fn, "integers in 's' (None entries are deprecated in NumPy 2.0; "
                 "use -1 for the input's length)", s)
        if len(s) != len(axes):
            fail(ValueError, fn, "'s' and 'axes' of the same length", (tuple(s), axes))
        s = [shape[a] if (not isinstance(v, bool) and v == -1) else v for v, a in zip(s, axes)]
    s = tuple(check_n(fn, v, "s") for v in s)
    return axes, s
