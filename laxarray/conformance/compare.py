"""Comparing a namespace's result with the oracle's: dtype, shape and dtype-aware values.

Integers and booleans compare exactly.  Floating values compare with a tolerance of
``rtol_ulps * eps`` relative plus ``atol_ulps * eps`` absolute (``eps`` of the result's
real dtype), NaN must match NaN, infinities must match in sign, and -- where the spec asks
for it -- the sign of a zero result must match.  Complex values compare part by part, but
normwise: the relative tolerance of each part scales with the larger finite part of the
expected value (the usual measure of complex accuracy; a part that cancels to nearly zero
is not held to a relative bound of its own).
"""

from __future__ import annotations

import contextlib
import contextvars

import numpy as np


class ConformanceError(AssertionError):
    """A namespace result differs from the oracle.

    Besides the message, the failing check leaves what it compared, for the runner's
    self-contained reproduction (:mod:`laxarray.conformance.snippets`): ``check`` names
    the rule (``"values"``, ``"sum_bound"``, ``"dtype"``, ``"shape"``; None for the checks
    a spec writes itself), ``actual`` the value compared (NumPy for value checks, the
    namespace's array for dtype and shape checks), ``expected`` the oracle's value (an
    array, a dtype name, a shape), ``details`` the rule's parameters (absolute ``rtol`` and
    ``atol``, ``signed_zeros``; ``tol`` of a summation bound) and ``where`` the boolean
    selection of the result the spec compared, when it compared a selection.
    """

    def __init__(self, message="", *, check=None, actual=None, expected=None, details=None,
                 where=None):
        super().__init__(message)
        self.check = check
        self.actual = actual
        self.expected = expected
        self.details = dict(details or {})
        self.where = where


def to_numpy(x):
    """A NumPy array from any namespace's array (``__array__``, then DLPack)."""
    if isinstance(x, np.ndarray):
        return x
    try:
        return np.asarray(x)
    except Exception:
        return np.from_dlpack(x)


def dtype_name(x):
    """The name of an array's (or dtype's) data type in any namespace."""
    dt = getattr(x, "dtype", x)
    name = getattr(dt, "name", None)
    if name is None:
        name = str(dt).split(".")[-1]
    return str(name)


def assert_dtype(fn, actual, expected_name):
    """The dtype of ``actual`` (any namespace's array) must be named ``expected_name``."""
    got = dtype_name(actual)
    if got != expected_name:
        raise ConformanceError(f"{fn}: result dtype {got}, expected {expected_name}",
                               check="dtype", actual=actual, expected=str(expected_name))


def assert_shape(fn, actual, expected_shape):
    """The shape of ``actual`` (any namespace's array) must be ``expected_shape``."""
    got = tuple(actual.shape)
    if got != tuple(expected_shape):
        raise ConformanceError(f"{fn}: result shape {got}, expected {tuple(expected_shape)}",
                               check="shape", actual=actual,
                               expected=tuple(int(n) for n in expected_shape))


def flush_subnormals(x):
    """``x`` with subnormal values replaced by zeros of the same sign (what a flush-to-zero
    platform such as XLA on CPU computes with)."""
    x = np.asarray(x)
    if x.dtype.kind == "c":  # part by part (``re + 1j * im`` would lose signed zeros)
        out = np.empty(x.shape, x.dtype)
        out.real, out.imag = flush_subnormals(x.real), flush_subnormals(x.imag)
        return out
    if x.dtype.kind != "f":
        return x
    tiny = np.finfo(x.dtype).tiny
    with np.errstate(invalid="ignore"):
        sub = (x != 0) & (np.abs(x) < tiny)
    return np.where(sub, np.copysign(np.zeros_like(x), x), x)


_FLUSHED = contextvars.ContextVar("laxarray_conformance_flushed", default=False)


@contextlib.contextmanager
def flushed_results():
    """Within this block :func:`assert_values` also accepts each expectation with its
    subnormal values flushed to zeros (results of a flush-to-zero platform)."""
    token = _FLUSHED.set(True)
    try:
        yield
    finally:
        _FLUSHED.reset(token)


_VALUE_CHECKS = [0]


def value_checks_passed():
    """How many value checks (:func:`assert_values`, :func:`assert_sum_bound`) have passed
    in this process: the flush rule takes a namespace call that a passing value check
    followed as verified on its own draws."""
    return _VALUE_CHECKS[0]


def accepted(expected):
    """The expectations a result may match: ``expected``, and inside
    :func:`flushed_results` also ``expected`` with its subnormals flushed."""
    expected = np.asarray(expected)
    return [expected, flush_subnormals(expected)] if _FLUSHED.get() else [expected]


# snippets.HELPERS["values_bad"] pastes this rule into reproductions: keep the two alike
# (tests/conformance_runner/test_snippets.py checks that they agree)
def _real_bad(a, e, rtol, atol, signed_zeros, mag=None):
    a = a.astype(np.float64, copy=False) if a.dtype != np.float64 else a
    e = e.astype(np.float64, copy=False) if e.dtype != np.float64 else e
    if mag is None:
        mag = np.abs(e)
    nan_a, nan_e = np.isnan(a), np.isnan(e)
    bad = nan_a != nan_e
    inf_e = np.isinf(e)
    bad |= inf_e & (a != e)
    finite = ~nan_e & ~inf_e
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(a - e)
        bad |= finite & ~(diff <= atol + rtol * mag)
    if signed_zeros:
        zero = finite & (e == 0) & (a == 0)
        bad |= zero & (np.signbit(a) != np.signbit(e))
    return bad


def _values_bad(a, e, rtol, atol, signed_zeros):
    if e.dtype.kind == "c" or a.dtype.kind == "c":
        er, ei = np.real(e).astype(np.float64), np.imag(e).astype(np.float64)
        with np.errstate(invalid="ignore"):
            mag = np.maximum(np.where(np.isfinite(er), np.abs(er), 0.0),
                             np.where(np.isfinite(ei), np.abs(ei), 0.0))
        return (_real_bad(np.real(a), er, rtol, atol, signed_zeros, mag)
                | _real_bad(np.imag(a), ei, rtol, atol, signed_zeros, mag))
    return _real_bad(a, e, rtol, atol, signed_zeros)


def far(actual, expected, atol, rtol=0.0):
    """Where ``actual`` is not within the absolute tolerance ``atol + rtol * |expected|``
    (arrays broadcast) of ``expected``, real and imaginary parts separately: NaN must meet
    NaN and an infinity itself; signs of zero are free.  For hand-derived error bounds
    (summation orders, fits); :func:`assert_values` takes tolerances in ulps."""
    a, e = np.asarray(actual), np.asarray(expected)
    if a.dtype.kind == "c" or e.dtype.kind == "c":
        return far(np.real(a), np.real(e), atol, rtol) | far(np.imag(a), np.imag(e), atol, rtol)
    return _real_bad(a, e, rtol, atol, signed_zeros=False)


def sum_bad(a, e, tol):
    """Where ``a`` is outside the absolute tolerance ``tol`` of ``e`` (complex: by the
    modulus of the error); NaN meets NaN, equal values (infinities) pass."""
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(a.astype(np.complex128) - e.astype(np.complex128))
        return ~(diff <= tol) & ~(np.isnan(a) & np.isnan(e)) & ~(a == e)


def assert_sum_bound(fn, actual, expected, n, scale):
    """Inexact values within the summation-order bound ``2 n eps scale + 4 tiny`` of
    ``expected`` (``scale``: the same computation on magnitudes; complex values by the
    modulus of the error); NaN where ``expected`` is NaN, equal values (infinities) pass.
    Inside :func:`flushed_results` the flushed expectation is accepted too."""
    a, e = np.asarray(actual), np.asarray(expected)
    eps = float(np.finfo(a.real.dtype).eps)
    tol = 2 * max(n, 1) * eps * np.abs(np.asarray(scale)).astype(np.float64) + \
        4 * float(np.finfo(a.real.dtype).tiny)

    bad = np.logical_and.reduce([sum_bad(a, option, tol) for option in accepted(e)])
    if bad.any():
        raise ConformanceError(f"{fn}: {a[bad][:3]!r}, expected {e[bad][:3]!r} "
                               f"(tolerance {np.broadcast_to(tol, bad.shape)[bad][:3]!r})",
                               check="sum_bound", actual=a, expected=e,
                               details={"tol": np.asarray(tol, np.float64)})
    _VALUE_CHECKS[0] += 1


def assert_values(fn, actual, expected, *, rtol_ulps=0.0, atol_ulps=0.0, signed_zeros=True):
    """Values of ``actual`` (NumPy) against ``expected`` (NumPy) with dtype-aware tolerance.

    Inside :func:`flushed_results` the expectation with subnormals flushed is accepted too,
    element by element.
    """
    a, e = np.asarray(actual), np.asarray(expected)
    exact = e.dtype.kind in "biu" and a.dtype.kind in "biu"
    if exact:
        rtol = atol = 0.0
    else:
        real_dt = a.real.dtype if a.dtype.kind in "fc" else np.dtype(np.float64)
        eps = float(np.finfo(real_dt).eps)
        rtol, atol = rtol_ulps * eps, atol_ulps * eps
    record = {"check": "values", "actual": a, "expected": e,
              "details": {"rtol": rtol, "atol": atol, "signed_zeros": bool(signed_zeros),
                          "exact": exact}}
    if a.shape != e.shape:
        raise ConformanceError(f"{fn}: result shape {a.shape}, expected {e.shape}", **record)
    options = accepted(e)
    if exact:
        bad = np.logical_and.reduce([a != option for option in options])
        if np.any(bad):
            idx = tuple(np.argwhere(bad)[0]) if a.ndim else ()
            raise ConformanceError(f"{fn}: value {a[idx]!r} at index {idx}, expected {e[idx]!r}",
                                   **record)
        _VALUE_CHECKS[0] += 1
        return
    bad = np.logical_and.reduce([_values_bad(a, option, rtol, atol, signed_zeros)
                                 for option in options])
    if bad.any():
        idx = tuple(np.argwhere(bad)[0]) if bad.ndim else ()
        raise ConformanceError(
            f"{fn}: value {a[idx]!r} at index {idx}, expected {e[idx]!r} "
            f"(rtol={np.max(rtol):.3g}, atol={np.max(atol):.3g}); "
            f"{int(bad.sum())} of {bad.size} differ", **record)
    _VALUE_CHECKS[0] += 1
