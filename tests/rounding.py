"""Exact expectations rounded once: a value known in a wider float (``np.longdouble``) rounded
to a narrower dtype by comparing it with the midpoints between the narrow neighbours.

NumPy converts ``np.longdouble`` (and float64) to float16 through float32, rounding twice:
``np.longdouble('2.1005859155568406553')`` became ``2.1015625`` where the correctly rounded
float16 is ``2.099609375`` (issue 57).  Here the conversion through float64 only proposes a
candidate; the midpoints to its two neighbours are exact in the wide type (the narrow
significand plus one bit), so comparing the wide value with them decides the rounding
exactly, ties to even.  A wide value that is itself only approximate (a libm result, within
``wide_ulps`` of its own ulps) may lie on either side of a midpoint: both neighbours are
then correct answers, and :func:`correctly_rounded` returns both.
"""

import numpy as np


def _even(v):
    """Whether the narrow float ``v`` has an even significand (the last bit clear)."""
    bits = v.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[v.dtype.itemsize])
    return (bits & 1) == 0


def correctly_rounded(wide, dtype, wide_ulps=2):
    """``(want, other)``: ``wide`` (a longdouble array) rounded once to ``dtype``, and the
    other neighbour where ``wide`` is within ``wide_ulps`` of its ulps of a midpoint (else
    ``want`` again).  Non-finite values and values beyond the dtype's range convert as
    NumPy converts them."""
    wide = np.asarray(wide, dtype=np.longdouble)
    dtype = np.dtype(dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        guess = wide.astype(np.float64).astype(dtype)
        down = np.nextafter(guess, dtype.type(-np.inf))
        up = np.nextafter(guess, dtype.type(np.inf))
        mid_down = (guess.astype(np.longdouble) + down.astype(np.longdouble)) / 2
        mid_up = (guess.astype(np.longdouble) + up.astype(np.longdouble)) / 2
        slack = np.abs(wide) * np.finfo(np.longdouble).eps * wide_ulps
    finite = np.isfinite(wide) & np.isfinite(guess)
    want = guess.copy()
    above = finite & ((wide > mid_up) | ((wide == mid_up) & ~_even(guess)))
    below = finite & ((wide < mid_down) | ((wide == mid_down) & ~_even(guess)))
    want[above], want[below] = up[above], down[below]
    # near a midpoint of the (possibly moved) answer, either side is correct
    w_down = np.nextafter(want, dtype.type(-np.inf))
    w_up = np.nextafter(want, dtype.type(np.inf))
    with np.errstate(over="ignore", invalid="ignore"):
        m_down = (want.astype(np.longdouble) + w_down.astype(np.longdouble)) / 2
        m_up = (want.astype(np.longdouble) + w_up.astype(np.longdouble)) / 2
    other = want.copy()
    with np.errstate(invalid="ignore"):
        near_up = finite & np.isfinite(w_up) & (np.abs(wide - m_up) <= slack)
        near_down = finite & np.isfinite(w_down) & (np.abs(wide - m_down) <= slack)
    other[near_up], other[near_down] = w_up[near_up], w_down[near_down]
    return want, other


def assert_correctly_rounded(got, wide, err_msg="", wide_ulps=2):
    """``got`` equals ``wide`` rounded once to ``got.dtype`` (either neighbour where
    ``wide`` is too close to a midpoint to tell); NaN where the rounding is NaN."""
    got = np.asarray(got)
    want, other = correctly_rounded(wide, got.dtype, wide_ulps)
    same = (got == want) | (got == other) | (np.isnan(got) & np.isnan(want))
    same &= np.isnan(got) | (np.signbit(got) == np.signbit(want))
    if not same.all():
        i = np.flatnonzero(~same)[0]
        raise AssertionError(f"{err_msg}: {int((~same).sum())} of {got.size} not correctly "
                             f"rounded; first at [{i}]: got {got.flat[i]!r}, want "
                             f"{want.flat[i]!r} (wide value {wide.flat[i]!r})")
