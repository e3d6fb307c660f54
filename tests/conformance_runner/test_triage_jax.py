"""Runner defects found triaging jax.numpy (docs/conformance.md, "Runner defects, fixed"):
where the runner demanded more than the standard says.  Each test builds a namespace that
behaves as jax.numpy does at that point -- array_api_compat.numpy with one function
replaced -- and checks that the spec passes it now (the old runner failed it), and that
the same function broken where the standard does fix the value still fails."""

import math
import types

import numpy as np
import pytest

from laxarray.conformance import SPECS, device_dtypes, runner
from laxarray.conformance import strategies as S
from laxarray.conformance import special_cases as SC
from laxarray.conformance import special_cases_check as check
from laxarray.conformance.special_cases_check import functions_only
from laxarray.conformance.spec import Pinned

cnp = pytest.importorskip("array_api_compat.numpy")

from test_runner_cli import _with_linalg, broken  # noqa: E402  (this folder is on sys.path)


def _verdict(ns, name, **draws):
    """``"pass"`` or the failure message of spec ``name`` on ``ns`` at the given draws."""
    try:
        with functions_only():
            SPECS[name].check(ns, Pinned(draws))
    except AssertionError as exc:
        return str(exc)
    return "pass"


def _unary(ns, name, x):
    x = np.asarray(x)
    return _verdict(ns, name, dtype=x.dtype.name, shape=x.shape, x=x)


def _run(ns, name, seed=1, examples=25):
    with functions_only():
        return runner.run_spec(ns, SPECS[name], max_examples=examples, seed=seed,
                               shrink=False)


def _fft_with(**overrides):
    """array_api_compat.numpy with the functions in ``overrides`` of its ``fft`` replaced."""
    fft = types.SimpleNamespace(**{k: getattr(cnp.fft, k) for k in dir(cnp.fft)
                                   if not k.startswith("_")})
    for name, fn in overrides.items():
        setattr(fft, name, fn)
    return broken(fft=fft)


def _complex(re, im, dtype):
    out = np.empty(np.shape(re), dtype)
    out.real, out.imag = re, im
    return out


# ---- astype: "If device is None, the output array device must be inferred from x" ----------
class _UnpredictableDevice:
    """array_api_compat.numpy's inspection object whose default_device() is None ("a
    conforming array library may return None if the default device is not predictable")."""

    def __init__(self):
        self._info = cnp.__array_namespace_info__()

    def __getattr__(self, name):
        return getattr(self._info, name)

    def default_device(self):
        return None


def test_astype_with_device_none_keeps_the_device_of_x():
    ns = broken(__array_namespace_info__=_UnpredictableDevice)
    assert _run(ns, "astype", seed=0, examples=10).status == "pass"


# ---- arange: no sign of a zero element ---------------------------------------------------------
def _arange_by_steps(start, /, stop=None, step=1, *, dtype=None, device=None):
    """``start + i * step`` (jax.numpy's): a start of -0.0 gives +0.0 (-0 + 0 is +0)."""
    if stop is None:
        start, stop = 0, start
    n = max(0, math.ceil((stop - start) / step))
    dtype = dtype or (cnp.float64 if any(isinstance(v, float) for v in (start, stop, step))
                      else cnp.int64)
    return cnp.asarray(start + np.arange(n) * step).astype(dtype)


def _arange_draws(start):
    return {"float arguments": True, "start": start, "stop": 2.0, "step": 1.0,
            "dtype given": True, "dtype": "float32", "pass device": False}


def test_arange_may_start_with_either_zero():
    assert np.signbit(_arange_by_steps(-0.0, 2.0, 1.0)[0]) == 0
    assert _verdict(broken(arange=_arange_by_steps), "arange", **_arange_draws(-0.0)) == "pass"
    # ... but its values still count: one step short fails
    short = broken(arange=lambda start, stop, step, **kw: _arange_by_steps(start, stop - step,
                                                                           step, **kw))
    assert _verdict(short, "arange", **_arange_draws(-0.0)) != "pass"


# ---- fft.fftfreq, fft.rfftfreq: no rounding requirement ----------------------------------------
def _freq_by_reciprocal(name):
    """jax.numpy's: ``k * (1 / (d * n))`` in the result dtype, not k / (d * n)."""
    def freq(n, /, *, d=1.0, dtype=None, device=None):
        dtype = dtype or cnp.float64
        k = getattr(np.fft, name)(n, 1.0 / n)  # the integers k, exactly
        return (k.astype(dtype) * np.asarray(1.0 / (d * n), dtype)).astype(dtype)
    return freq


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
def test_fftfreq_within_a_few_roundings(name):
    freq = _freq_by_reciprocal(name)
    got, exact = freq(10, d=2.5, dtype=np.float32), getattr(np.fft, name)(10, 2.5)
    assert not np.array_equal(got, exact.astype(np.float32))  # (not correctly rounded)
    draws = {"n": 10, "d": 2.5, "dtype": "float32", "pass device": False}
    assert _verdict(_fft_with(**{name: freq}), f"fft.{name}", **draws) == "pass"
    off = _fft_with(**{name: lambda n, /, *, d=1.0, dtype=None: freq(n + 1, d=d,
                                                                     dtype=dtype)[:n]})
    assert _verdict(off, f"fft.{name}", **draws) != "pass"


# ---- fft2 & co (NumPy's, beyond the standard): no s entries of -1 ------------------------------
def _without_minus_one(fn):
    """``fn`` that raises, as jax.numpy's does, for an entry -1 of ``s`` (NumPy 2 and the
    standard's n-d transforms: the whole axis)."""
    def wrapped(x, /, *, s=None, **kw):
        if s is not None and -1 in s:
            raise ValueError("Shape should be positive.")
        return fn(x, s=s, **kw)
    return wrapped


@pytest.mark.parametrize("name", ["fft2", "irfft2"])
def test_numpys_2d_transforms_get_sizes_only(name):
    ns = _fft_with(**{name: _without_minus_one(getattr(np.fft, name))})
    assert _run(ns, f"fft.{name}").status == "pass"


def test_the_standards_nd_transforms_still_get_minus_one():
    # "If s[i] equals M[i] or -1, all elements along axis i must be used"
    ns = _fft_with(irfftn=_without_minus_one(cnp.fft.irfftn))
    assert _run(ns, "fft.irfftn").status in ("fail", "error")


# ---- linalg.lstsq (NumPy's, beyond the standard): residuals where NumPy's are empty -------------
def _lstsq_full_residuals(x1, x2, /, *, rcond=None):
    """jax.numpy's: ``||b - a x||**2`` per column always (NumPy: empty if rank < n or m <= n)."""
    x, _, rank, s = np.linalg.lstsq(x1, x2, rcond=rcond)
    resid = np.atleast_1d(np.sum(np.abs(x2 - x1 @ x) ** 2, axis=0)).astype(x.dtype)
    return x, resid, rank, s


def _lstsq_wrong_residuals(x1, x2, /, *, rcond=None):
    x, resid, rank, s = _lstsq_full_residuals(x1, x2, rcond=rcond)
    return x, 2 * resid + 1, rank, s


def test_lstsq_may_return_the_residuals_numpy_leaves_empty():
    assert _run(broken(linalg=_with_linalg(lstsq=_lstsq_full_residuals)),
                "linalg.lstsq").status == "pass"
    wrong = broken(linalg=_with_linalg(lstsq=_lstsq_wrong_residuals))
    assert _run(wrong, "linalg.lstsq").status == "fail"


# ---- sign: "0 + 0j" is either zero, as the real row's "0" -------------------------------------
def _sign_keeps_zeros(x, /):
    """jax.numpy's: the zero input itself (sign(0 - 0j) is 0 - 0j)."""
    x = np.asarray(x)
    out = np.asarray(cnp.sign(x))
    return np.where(x == 0, x, out) if x.dtype.kind == "c" else out


def test_complex_sign_of_a_zero_may_keep_its_signs():
    row = next(r for r in SC.ROWS if r[0] == "sign" and r[4].endswith("``0 + 0j``."))
    assert row[3] == ("complex", "+0", "+0", "im,re")  # both parts free of sign
    assert check.failures(broken(sign=_sign_keeps_zeros), "sign") == []
    # the zeros must still be zeros
    ones = broken(sign=lambda x, /: np.where(np.asarray(x) == 0, np.asarray(1 + 0j, x.dtype),
                                              _sign_keeps_zeros(x)))
    assert check.failures(ones, "sign")


# ---- reciprocal, square: zero parts of a complex quotient or product ---------------------------
def _reciprocal_textbook(x, /):
    """``conj(x) / |x|**2`` part by part (the standard's "should"): 1 / (-0 + 1j) is +0 - 1j."""
    x = np.asarray(x)
    if x.dtype.kind != "c":
        return np.asarray(cnp.reciprocal(x))
    d = x.real * x.real + x.imag * x.imag
    return _complex((1 * x.real + 0 * x.imag) / d, (0 * x.real - 1 * x.imag) / d, x.dtype)


def _square_factored(x, /):
    """``(a - b)(a + b) + 2ab j``: (0 + tiny j)**2 has the real part -tiny**2, -0."""
    x = np.asarray(x)
    if x.dtype.kind != "c":
        return np.asarray(cnp.square(x))
    a, b = x.real, x.imag
    return _complex((a - b) * (a + b), 2 * a * b, x.dtype)


@pytest.mark.parametrize("name,fn,z", [
    ("reciprocal", _reciprocal_textbook, complex(-0.0, 1.0)),
    ("square", _square_factored, complex(0.0, np.finfo(np.float32).tiny)),
])
def test_zero_parts_of_complex_arithmetic_may_have_either_sign(name, fn, z):
    x = np.array([z, 2 + 3j], np.complex64)
    e = getattr(np, name)(x)
    got = fn(x)
    assert (np.signbit(got.real) != np.signbit(e.real)).any() or \
        (np.signbit(got.imag) != np.signbit(e.imag)).any()  # (NumPy's zero has the other sign)
    assert _unary(broken(**{name: fn}), name, x) == "pass"
    swapped = broken(**{name: lambda v, /: np.conj(fn(v))})  # ... but values still count
    assert _unary(swapped, name, x) != "pass"


# ---- sinh, cosh: accuracy the standard does not define ----------------------------------------
def _sinh_by_shifted_exp(x, /):
    """``copysign(exp(|x| - ln 2), x)`` in the dtype, as XLA for a large ``|x|``: the rounded
    argument costs up to ``|x| / 2`` ulps."""
    x = np.asarray(x)
    if x.dtype.kind != "f":
        return np.asarray(cnp.sinh(x))
    return np.copysign(np.exp(np.abs(x) - x.dtype.type(math.log(2))), x)


@pytest.mark.parametrize("x", [np.float32(34.692436), np.float64(514.3471673583679)])
def test_sinh_of_a_large_argument_within_its_condition_number(x):
    x = np.asarray([x])
    got, e = _sinh_by_shifted_exp(x), np.sinh(x.astype(np.longdouble))
    ulps = float((np.abs(got - e) / (np.finfo(x.dtype).eps * np.abs(e)))[0])
    assert 4 < ulps < abs(float(x[0]))  # beyond the old 4 ulps, within |x| more
    assert _unary(broken(sinh=_sinh_by_shifted_exp), "sinh", x) == "pass"
    off = broken(sinh=lambda v, /: _sinh_by_shifted_exp(v) * (1 + 4 * abs(float(x[0]))
                                                                 * np.finfo(x.dtype).eps))
    assert _unary(off, "sinh", x) != "pass"


# ---- complex sin, cos: an exp(|b|) that overflows ---------------------------------------------
def _sin_unscaled(x, /):
    """``sin(a) cosh(b) + cos(a) sinh(b) j`` with ``cosh``/``sinh`` as ``exp(|b|) / 2`` in
    the dtype (XLA's): ``sin(0.5 + 88.8j)`` in complex64 is ``inf + inf j``."""
    x = np.asarray(x)
    if x.dtype.kind != "c":
        return np.asarray(cnp.sin(x))
    a, b = x.real, x.imag
    with np.errstate(over="ignore"):
        e = np.exp(np.abs(b)) / 2
    return _complex(np.sin(a) * e, np.cos(a) * np.copysign(e, b), x.dtype)


def test_complex_sin_may_overflow_with_exp_of_the_imaginary_part():
    x = np.array([complex(0.5, 88.8)], np.complex64)
    assert np.isinf(_sin_unscaled(x).real) and np.isfinite(np.sin(x).real)
    assert _unary(broken(sin=_sin_unscaled), "sin", x) == "pass"
    y = np.array([complex(0.5, 8.0)], np.complex64)  # where exp(|b|) is finite, values count
    assert _unary(broken(sin=lambda v, /: np.conj(_sin_unscaled(v))), "sin", y) != "pass"


# ---- log: a complex input with a subnormal part -----------------------------------------------
def _log_partly_flushed(x, /):
    """XLA's complex log: ``log|z|`` with the subnormal parts read as zeros, ``arg z``
    without: ``log(1e-45j)`` in complex64 is ``-inf + pi/2 j``."""
    x = np.asarray(x)
    if x.dtype.kind != "c":
        return np.asarray(cnp.log(x))
    tiny = np.finfo(x.real.dtype).tiny
    re, im = (np.where(np.abs(p) < tiny, 0 * p, p) for p in (x.real, x.imag))
    with np.errstate(divide="ignore"):
        return _complex(np.log(np.hypot(re, im)), np.arctan2(x.imag, x.real), x.dtype)


def test_log_of_a_subnormal_part_may_read_it_as_zero_in_either_part():
    x = np.array([1e-45j, complex(1e-45, 1.0), 2 + 3j], np.complex64)
    assert np.isneginf(_log_partly_flushed(x)[0].real)
    assert _unary(broken(log=_log_partly_flushed), "log", x) == "pass"
    # a part that neither reading gives still fails
    nan = broken(log=lambda v, /: np.where(np.asarray(v) == x[0], np.complex64(complex(
        -np.inf, np.nan)), _log_partly_flushed(v)))
    assert _unary(nan, "log", x) != "pass"


# ---- a NaN part no special case reaches --------------------------------------------------------
def _acosh_nan_part(x, /):
    """acosh with ``NaN + NaN j`` wherever ``x`` has a NaN part (jax.numpy's)."""
    x = np.asarray(x)
    out = np.asarray(cnp.acosh(x))
    if x.dtype.kind != "c":
        return out
    return np.where(np.isnan(x.real) | np.isnan(x.imag), np.asarray(np.nan + 0j, x.dtype) *
                    (1 + 1j), out)


def test_acosh_of_minus_zero_and_nan_is_unspecified():
    # its rows take +0 + NaN j ("NaN ± πj/2") and a nonzero finite a ("NaN + NaN j"): -0 is
    # neither
    x = np.array([complex(-0.0, np.nan)], np.complex64)
    assert SC.unstated_nan_parts("acosh", x).all()
    assert _unary(broken(acosh=_acosh_nan_part), "acosh", x) == "pass"
    y = np.array([complex(0.0, np.nan)], np.complex64)
    assert not SC.unstated_nan_parts("acosh", y).any()
    assert _unary(broken(acosh=_acosh_nan_part), "acosh", y) != "pass"


@pytest.mark.parametrize("name,z", [
    ("cosh", complex(-np.inf, np.nan)),   # by cosh(x) == cosh(-x): +inf + NaN j
    ("tanh", complex(-0.0, np.nan)),      # by tanh(-x) == -tanh(x): -0 + NaN j
    ("cos", complex(np.nan, np.inf)),     # as cosh(x*1j) = cosh(-inf + NaN j)
    ("asin", complex(0.0, np.nan)),       # as -1j * asinh(x*1j) = -1j * asinh(NaN + 0j)
    ("log2", complex(np.nan, np.inf)),    # as log(x) / log(2)
])
def test_nan_parts_the_standard_reaches_through_its_notes_are_checked(name, z):
    x = np.array([z], np.complex64)
    assert not SC.unstated_nan_parts(name, x).any()
    nan = broken(**{name: lambda v, /: np.full(np.shape(v), complex(np.nan, np.nan),
                                               np.asarray(v).dtype)})
    assert _unary(nan, name, x) != "pass"


# ---- a promotion narrower than the table's: the values it cannot hold -------------------------
def test_values_a_narrower_promotion_cannot_hold_are_left_to_the_namespace():
    # jax.numpy without x64: uint32 with int8 promotes to int32 (the device's widest integer,
    # which its result_type says, device_dtypes.result_type); uint32 4294967295 is no int32,
    # and what it becomes is the namespace's: the shift of its int32 -1 by 38 is -1.  The
    # runner demanded the value of the table's int64 (0); it compares the other elements
    profile = device_dtypes.Profile(
        frozenset(S.ALL) - {"int64", "uint64", "float64", "complex128"},
        dict(device_dtypes.FULL.defaults, integral="int32", indexing="int32",
             **{"real floating": "float32", "complex floating": "complex64"}),
        {("uint32", "int8"): "int32", ("int8", "uint32"): "int32"})

    def shift_in_int32(x1, x2, /):
        return np.right_shift(np.asarray(x1).astype(np.int32), np.asarray(x2).astype(np.int32))

    def shift_off_by_one(x1, x2, /):  # wrong where the value fits
        return shift_in_int32(x1, x2) + np.int32(1)
    draws = {"dtypes": ("uint32", "int8"), "shape1": (2,), "shape2": (2,), "swap": False,
             "scalar x2": False, "scalar side": "x2", "call form": "as written",
             "x": np.array([4294967295, 64], np.uint32), "x2": np.array([38, 2], np.int8)}
    with device_dtypes.using(profile):
        assert _verdict(broken(bitwise_right_shift=shift_in_int32), "bitwise_right_shift",
                        **draws) == "pass"
        assert _verdict(broken(bitwise_right_shift=shift_off_by_one), "bitwise_right_shift",
                        **draws) != "pass"
    assert _verdict(broken(bitwise_right_shift=shift_in_int32), "bitwise_right_shift",
                    **draws) != "pass"  # (every dtype on the device: the table's int64)
    # isin of int8 -4 in uint32 4294967292 (-4 cast): True in int32, False in int64
    def isin_in_int32(x1, x2, /, *, invert=False):
        return np.isin(np.asarray(x1).astype(np.int32), np.asarray(x2).astype(np.int32),
                       invert=invert)
    pool = np.array([-8, -4, 8, 7], np.int8)
    draws = {"dtypes": ("int8", "uint32"), "pool": pool, "pool placed": pool, "shape1": (2,),
             "p1": np.array([1, 2]), "m": 2, "p2": np.array([1, 0]), "invert": False,
             "int operand": "none", "call form": "as written"}
    with device_dtypes.using(profile):
        assert _verdict(broken(isin=isin_in_int32), "isin", **draws) == "pass"
    assert _verdict(broken(isin=isin_in_int32), "isin", **draws) != "pass"
