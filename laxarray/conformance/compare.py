"""Comparing a namespace's result with the oracle's: dtype, shape and values.

One comparator, :func:`assert_values`, compares every value a spec checks, with the error
bound of its row in :data:`laxarray.conformance.tolerances.BOUNDS` (the one error model:
see :mod:`laxarray.conformance.tolerances`).  Integers and booleans compare exactly; for
floating values NaN must match NaN, infinities must match in sign, and -- where the spec
asks for it -- the sign of a zero result must match.
"""

from __future__ import annotations

import contextlib
import contextvars

import numpy as np

from . import tolerances


class ConformanceError(AssertionError):
    """A namespace result differs from the oracle.

    Besides the message, the failing check leaves what it compared, for the runner's
    self-contained reproduction (:mod:`laxarray.conformance.snippets`): ``check`` names
    the rule (``"values"``, ``"dtype"``, ``"shape"``; None for the checks a spec writes
    itself), ``actual`` the value compared (NumPy for value checks, the namespace's array
    for dtype and shape checks), ``expected`` the oracle's value (an array, a dtype name, a
    shape), ``details`` the rule's parameters (absolute ``rtol`` and ``atol``,
    ``signed_zeros``, the complex ``measure``, the ``bound`` row) and ``where`` the boolean
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
    """How many value checks (:func:`assert_values`) have passed in this process: the flush
    rule takes a namespace call that a passing value check followed as verified on its own
    draws."""
    return _VALUE_CHECKS[0]


def accepted(expected):
    """The expectations a result may match: ``expected``, and inside
    :func:`flushed_results` also ``expected`` with its subnormals flushed."""
    expected = np.asarray(expected)
    return [expected, flush_subnormals(expected)] if _FLUSHED.get() else [expected]


# snippets.HELPERS["values_bad"] pastes these two functions into reproductions (their own
# source): the reproduction's check is this one (tests/conformance_runner/test_snippets.py)
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


def _values_bad(a, e, rtol, atol, signed_zeros, measure="normwise"):
    if e.dtype.kind != "c" and a.dtype.kind != "c":
        return _real_bad(a, e, rtol, atol, signed_zeros)
    er, ei = np.real(e).astype(np.float64), np.imag(e).astype(np.float64)
    ar, ai = np.real(a), np.imag(a)
    if measure == "componentwise":
        return (_real_bad(ar, er, rtol, atol, signed_zeros)
                | _real_bad(ai, ei, rtol, atol, signed_zeros))
    if measure == "modulus":  # NaN and infinities part by part, finite values by |a - e|
        bad = (_real_bad(ar, er, 0.0, np.inf, signed_zeros)
               | _real_bad(ai, ei, 0.0, np.inf, signed_zeros))
        ec = er + 1j * ei
        with np.errstate(invalid="ignore", over="ignore"):
            diff = np.abs(a.astype(np.complex128) - ec)
            finite = np.isfinite(er) & np.isfinite(ei)
            return bad | finite & ~(diff <= atol + rtol * np.abs(ec))
    with np.errstate(invalid="ignore"):
        mag = np.maximum(np.where(np.isfinite(er), np.abs(er), 0.0),
                         np.where(np.isfinite(ei), np.abs(ei), 0.0))
    return (_real_bad(ar, er, rtol, atol, signed_zeros, mag)
            | _real_bad(ai, ei, rtol, atol, signed_zeros, mag))


def _eps_dtype(a, dtype):
    """The dtype whose ``eps`` a bound is stated in: ``dtype``, else ``a``'s (float64 for
    integer and boolean values)."""
    if dtype is not None:
        dt = np.dtype(dtype)
        return dt if dt.kind in "fc" else np.dtype(np.float64)
    return a.dtype if a.dtype.kind in "fc" else np.dtype(np.float64)


def assert_values(fn, actual, expected, *, bound=None, scale=None, n=None, inputs=(),
                  dtype=None, signed_zeros=True, alternatives=()):
    """Values of ``actual`` (NumPy) against ``expected`` (NumPy): THE comparator.

    ``bound``: the row of :data:`~laxarray.conformance.tolerances.BOUNDS` the comparison
    uses, by key (default: ``fn``; a name without a row compares exactly) or as a
    :class:`~laxarray.conformance.tolerances.Bound`; ``scale``, ``n`` and ``inputs`` are
    what the row asks for (its scale, the number of terms, the inputs of its ``cond``);
    ``dtype``: the dtype the bound is stated in (default ``actual``'s; pass the namespace's
    dtype where ``actual`` was computed or upcast to a wider one).  ``alternatives``: other
    expectations any of which the result may match instead (elementwise).  Integers and
    booleans compare exactly.  Inside :func:`flushed_results` the expectation with
    subnormals flushed is accepted too, element by element.
    """
    a, e = np.asarray(actual), np.asarray(expected)
    key = fn if bound is None else bound
    exact = e.dtype.kind in "biu" and a.dtype.kind in "biu"
    complex_kind = np.complex128 if "c" in (a.dtype.kind, e.dtype.kind) else None
    row = tolerances.lookup(key, complex_kind)
    if exact or row.exact:
        rtol = atol = 0.0
    else:
        rtol, atol = row.tolerance(_eps_dtype(a, dtype), scale=scale, n=n, inputs=inputs)
    record = {"check": "values", "actual": a, "expected": e,
              "details": {"rtol": rtol, "atol": atol, "signed_zeros": bool(signed_zeros),
                          "measure": row.measure, "exact": exact,
                          "bound": key if isinstance(key, str) else row.why or "given"}}
    if a.shape != e.shape:
        raise ConformanceError(f"{fn}: result shape {a.shape}, expected {e.shape}", **record)
    options = accepted(e) + [np.asarray(alt) for alt in alternatives]
    if exact:
        bad = np.logical_and.reduce([a != option for option in options])
        if np.any(bad):
            idx = tuple(np.argwhere(bad)[0]) if a.ndim else ()
            raise ConformanceError(f"{fn}: value {a[idx]!r} at index {idx}, expected {e[idx]!r}",
                                   **record)
        _VALUE_CHECKS[0] += 1
        return
    bad = np.logical_and.reduce([_values_bad(a, option, rtol, atol, signed_zeros, row.measure)
                                 for option in options])
    if bad.any():
        idx = tuple(np.argwhere(bad)[0]) if bad.ndim else ()
        raise ConformanceError(
            f"{fn}: value {a[idx]!r} at index {idx}, expected {e[idx]!r} "
            f"(bound {record['details']['bound']!s}: rtol={np.max(rtol):.3g}, "
            f"atol={np.max(atol):.3g}); {int(bad.sum())} of {bad.size} differ", **record)
    _VALUE_CHECKS[0] += 1
