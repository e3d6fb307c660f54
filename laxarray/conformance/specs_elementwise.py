"""Conformance specs of the standard's elementwise functions (oracle: NumPy).

One row per function: the NumPy oracle, the dtype group the standard defines it for, the
expected result dtype rule and the input domain; each function's error bound is its row in
:data:`laxarray.conformance.tolerances.BOUNDS` (everything without one compares exactly).

Inputs where the standard leaves the result unspecified are excluded with ``domain`` /
``postfilter`` (never with a tolerance):

- integer overflow cases the standard calls implementation-dependent: ``abs`` and
  ``negative`` of the minimum signed integer, integer ``floor_divide``/``remainder`` by 0,
  integer ``pow`` with negative exponents, negative shift amounts;
- complex ``multiply``/``divide``/``reciprocal``/``square``/``sign``/``pow`` where a
  component is infinite or NaN (the standard: "implementation dependent", except the
  all-NaN case, which is kept), and complex division by a complex zero;
- ``maximum``/``minimum``: the sign of a zero result;
- ``clip``: ``min > max``, integer bounds outside the dtype;
- complex ``sin``/``cos``/``sinh``/``cosh`` where ``exp(|t|)`` of a finite part overflows;
- complex inputs with a NaN part that none of the standard's rows reaches
  (:func:`~laxarray.conformance.special_cases.unstated_nan_parts`, for every unary spec).

Where NumPy deviates from the standard's special cases, the oracle is patched to the
standard; each patch says why:

- ``sign`` of complex with a NaN part: the standard gives ``NaN + NaN j``; NumPy does not
  for an infinite other part (see ``_sign_oracle``).
- ``log1p`` of complex64: NumPy overflows near the top of the range; the oracle evaluates
  in complex128 (see ``_log1p_oracle``).
- ``expm1`` of complex ``a ± 0j``: the standard gives ``expm1(a) ± 0j``; NumPy returns a
  NaN imaginary part for infinite/NaN ``a``; and of ``±inf`` with an infinite or NaN
  imaginary part, where NumPy gives ``NaN + NaN j`` (see ``_expm1_oracle``).

Complex result parts whose sign the standard leaves unspecified compare by magnitude
(``SIGN_FREE``; the zero parts of complex ``square`` and ``reciprocal``, whose textbook
formula is a "should").
"""

from __future__ import annotations

import numpy as np

from .compare import flush_subnormals
from .spec import binary, bool_result, real_of, unary
from .specs_clip import clip_spec

# ---- postfilters: elements where the standard leaves the result unspecified ----------------
def _not_int_min(x, expected):
    if x.dtype.kind != "i":
        return np.ones(x.shape, bool)
    return x != np.iinfo(x.dtype).min


def _complex_special(*xs):
    """Elements whose complex operands have an infinite or NaN component but are not all-NaN."""
    out = np.zeros(np.broadcast_shapes(*(x.shape for x in xs)), bool)
    if not any(x.dtype.kind == "c" for x in xs):
        return out
    parts = []
    for x in xs:
        x = x.astype(np.complex128)
        parts += [x.real, x.imag]
    finite = np.logical_and.reduce([np.isfinite(p) for p in parts])
    all_nan = np.logical_and.reduce([np.isnan(p) for p in parts])
    return ~finite & ~all_nan


def _complex_zero(x):
    return (x.dtype.kind == "c") & (x == 0)


def _complex_arith_1(x, expected):
    return ~_complex_special(x)


def _complex_square(x, expected):
    """Also drop complex inputs whose square overflows in a finite input: the standard
    leaves overflow in complex multiplication unspecified (textbook and C99 differ)."""
    keep = ~_complex_special(x)
    if np.asarray(x).dtype.kind == "c":
        big = np.finfo(np.asarray(x).real.dtype).max
        with np.errstate(all="ignore"):
            mag2 = np.abs(np.asarray(x, np.complex128)) ** 2
        keep &= ~(np.isfinite(x) & (mag2 > big))
    return keep


def _complex_arith_2(x1, x2, expected):
    return ~_complex_special(x1, x2)


def complex_pow_oracle(fn):
    """``fn`` (``np.power`` or ``np.float_power``) with complex results computed in extended
    precision, then rounded: C's ``cpow``, ``exp(x2 * log(x1))`` in working precision, is
    off by about ``|x2 log x1|`` ulps, as far as the implementations it would judge."""
    def oracle(x1, x2):
        out = fn(x1, x2)
        if out.dtype.kind != "c":
            return out
        wide = fn(np.asarray(x1).astype(np.clongdouble), np.asarray(x2).astype(np.clongdouble))
        return np.asarray(wide).astype(out.dtype)
    return oracle


def _pow_cases(x1, x2, expected):
    """``pow``: drop ``(-0) ** 0.5``: the standard says +0; NumPy's power of a 0-d
    exponent 0.5 takes a ``sqrt`` shortcut, which gives -0."""
    keep = complex_pow_cases(x1, x2, expected)
    if x1.dtype.kind != "f":
        return keep
    return keep & ~(np.signbit(x1) & (x1 == 0) & (x2 == 0.5))


def complex_pow_cases(x1, x2, expected):
    """Complex ``pow`` (and ``float_power``, the same kernel): also drop the elements where the standard's ``exp(x2*log(x1))`` meets
    its special cases: a zero base unless the exponent is a positive real (``log(0)`` is
    infinite: ``0j ** -1`` is ``inf + nanj`` by them, NumPy gives ``nan + nanj``), and
    results that overflow or underflow (``|Re x2*log(x1)|`` beyond the dtype's range; the
    signs of their infinite or zero parts follow the rounding of the phase, and
    ``exp(-inf + inf j)`` has zero parts of unspecified sign)."""
    keep = _complex_arith_2(x1, x2, expected)
    dtype = np.result_type(x1, x2)
    if dtype.kind != "c":
        return keep
    x1, x2 = np.asarray(x1, dtype), np.asarray(x2, dtype)
    with np.errstate(all="ignore"):
        w = np.asarray(x2, np.complex128) * np.log(np.asarray(x1, np.complex128))
    in_range = np.abs(w.real) < np.log(np.finfo(dtype).max)
    zero_base = (x1 == 0) & ~((x2.real > 0) & (x2.imag == 0))
    return keep & ~zero_base & (zero_base | (in_range & np.isfinite(w.imag)))


def _complex_division(x1, x2, expected):
    """Complex division: also drop division by a complex zero (the standard has no case:
    textbook gives NaN, C99 a complex infinity), subnormal divisors included (a zero once
    flushed on a flush-to-zero platform)."""
    kind_c = np.result_type(x1, x2).kind == "c"
    return ~_complex_special(x1, x2) & ~(kind_c & (flush_subnormals(x2) == 0))


def _complex_reciprocal(x, expected):
    return _complex_division(np.ones_like(x), x, expected)


def _int_nonzero_divisor(x1, x2, expected):
    if np.result_type(x1, x2).kind not in "iu":
        return np.ones(expected.shape, bool)
    return x2 != 0


def _sign_filter(x, expected):
    """The elements the standard fixes: complex ``sign`` is "as if implemented as ``x /
    abs(x)``", so where a part is infinite, or ``|x|`` overflows though ``x`` is finite
    (``1e308 + 1e308j``), the result is the implementation's division (NaN parts, or
    NumPy's ``1 + 0j``); a NaN part gives ``NaN + NaN j`` whatever the rest."""
    if x.dtype.kind != "c":
        return np.ones(x.shape, bool)
    nan = np.isnan(x.real) | np.isnan(x.imag)
    with np.errstate(all="ignore"):
        inf = np.isinf(x.real) | np.isinf(x.imag) | np.isinf(np.abs(x))
    return nan | ~inf


def _nonneg_int(dtype):
    return {"min_value": 0} if np.dtype(dtype).kind in "iu" else {}


def _zero_parts_of(fn):
    """``sign_free`` of complex ``fn`` (``np.square``, ``np.reciprocal``: "as if" ``x * x``,
    ``1.0 / x``): the parts of ``fn(x)`` that are zero, exactly or by underflow.  The
    standard's complex product and quotient of finite operands "should" follow the textbook
    formula, which fixes those zeros' signs; other formulas (Smith's division, ``(a - b)(a
    + b)``) give other signs: ``1 / (-0 + 1j)`` is ``+0 - 1j`` by the textbook formula,
    ``-0 - 1j`` by NumPy's."""
    def free(x):
        with np.errstate(all="ignore"):
            out = fn(x)
        return out.real == 0, out.imag == 0
    return free


# ---- arithmetic ----------------------------------------------------------------------------
unary("abs", np.abs, "numeric", result=real_of, postfilter=_not_int_min)
unary("negative", np.negative, "numeric", postfilter=_not_int_min)
unary("positive", np.positive, "numeric")
unary("square", np.square, "numeric", postfilter=_complex_square,
      sign_free=_zero_parts_of(np.square))
unary("reciprocal", np.reciprocal, "floating-point", postfilter=_complex_reciprocal,
      sign_free=_zero_parts_of(np.reciprocal))
def _sign_oracle(x):
    """np.sign, patched: the standard gives ``NaN + NaN j`` when either part of a complex
    ``x`` is NaN; NumPy returns e.g. ``1 + 0j`` for ``inf + NaN j``."""
    out = np.asarray(np.sign(x))
    if x.dtype.kind == "c":
        out = np.where(np.isnan(x.real) | np.isnan(x.imag), np.nan + 1j * np.nan, out)
        out = out.astype(x.dtype)
    return out


def _sign_zero_parts(x):
    """The standard defines complex ``sign(x)`` as ``x / |x|`` by the rules of complex
    division, which leave the sign of a zero result part to the implementation (dividing
    by ``|x|`` as a real or as ``|x| + 0j`` differs there: ``(-1 - 0j) / (1 + 0j)`` is
    ``-1 + 0j``): parts of ``x`` that are zero give parts whose sign is free."""
    with np.errstate(invalid="ignore"):
        return x.real == 0, x.imag == 0


unary("sign", _sign_oracle, "numeric", postfilter=_sign_filter, sign_free=_sign_zero_parts)
binary("add", np.add, "numeric")
binary("subtract", np.subtract, "numeric")
binary("multiply", np.multiply, "numeric", postfilter=_complex_arith_2)
binary("divide", np.divide, "floating-point", postfilter=_complex_division)
binary("floor_divide", np.floor_divide, "real numeric", postfilter=_int_nonzero_divisor)
binary("remainder", np.remainder, "real numeric", postfilter=_int_nonzero_divisor)
binary("pow", complex_pow_oracle(np.power), "numeric", domain2=_nonneg_int,
       postfilter=_pow_cases)

# ---- rounding ------------------------------------------------------------------------------
unary("ceil", np.ceil, "real numeric")
unary("floor", np.floor, "real numeric")
unary("trunc", np.trunc, "real numeric")
unary("round", np.round, "numeric")

# ---- comparisons ---------------------------------------------------------------------------
binary("equal", np.equal, "any", result=bool_result)
binary("not_equal", np.not_equal, "any", result=bool_result)
binary("greater", np.greater, "real numeric", result=bool_result)
binary("greater_equal", np.greater_equal, "real numeric", result=bool_result)
binary("less", np.less, "real numeric", result=bool_result)
binary("less_equal", np.less_equal, "real numeric", result=bool_result)
binary("maximum", np.maximum, "real numeric", signed_zeros=False)
binary("minimum", np.minimum, "real numeric", signed_zeros=False)

# ---- bitwise and logical -------------------------------------------------------------------
binary("bitwise_and", np.bitwise_and, "integer or boolean")
binary("bitwise_or", np.bitwise_or, "integer or boolean")
binary("bitwise_xor", np.bitwise_xor, "integer or boolean")
unary("bitwise_invert", np.invert, "integer or boolean")
binary("bitwise_left_shift", np.left_shift, "integral", domain2=_nonneg_int)
binary("bitwise_right_shift", np.right_shift, "integral", domain2=_nonneg_int)
binary("logical_and", np.logical_and, "bool", result=bool_result)
binary("logical_or", np.logical_or, "bool", result=bool_result)
binary("logical_xor", np.logical_xor, "bool", result=bool_result)
unary("logical_not", np.logical_not, "bool", result=bool_result)

# ---- classification and sign bits ----------------------------------------------------------
unary("isnan", np.isnan, "numeric", result=bool_result)
unary("isinf", np.isinf, "numeric", result=bool_result)
unary("isfinite", np.isfinite, "numeric", result=bool_result)
unary("signbit", np.signbit, "real floating", result=bool_result)
binary("copysign", np.copysign, "real floating")
# the standard requires x2 to have x1's dtype: mixed float32/float64 pairs are unspecified
binary("nextafter", np.nextafter, "real floating",
       pairs=tuple((d, d) for d in ("float32", "float64")))

# ---- complex parts -------------------------------------------------------------------------
unary("real", np.real, "numeric", result=real_of)
unary("imag", np.imag, "complex floating", result=real_of)
unary("conj", np.conj, "numeric")

# ---- transcendental ------------------------------------------------------------------------
def _sign_free(re=None, im=None):
    """``sign_free`` from predicates on ``(a, b) = (real(x), imag(x))`` (None: none free)."""
    def free(x):
        a, b = x.real, x.imag
        with np.errstate(invalid="ignore"):
            return (np.zeros(x.shape, bool) if re is None else re(a, b),
                    np.zeros(x.shape, bool) if im is None else im(a, b))
    return free


def _fin(v):
    return np.isfinite(v)


#: complex result parts whose sign the standard leaves unspecified ("sign of the ...
#: component is unspecified"), per function; trigonometric rows follow from the hyperbolic
#: ones through the standard's identities (sin(z) = -1j * sinh(1j * z) ...).
SIGN_FREE = {
    "exp": _sign_free(re=lambda a, b: np.isinf(a) & ~_fin(b),
                      im=lambda a, b: (a == -np.inf) & ~_fin(b)),
    "expm1": _sign_free(re=lambda a, b: (a == np.inf) & ~_fin(b),
                        im=lambda a, b: (a == -np.inf) & ~_fin(b)),
    "sinh": _sign_free(re=lambda a, b: ((a == 0) | np.isinf(a)) & ~_fin(b)),
    "cosh": _sign_free(re=lambda a, b: np.isinf(a) & np.isinf(b),
                       im=lambda a, b: ((a == 0) & ~_fin(b)) | (np.isnan(a) & (b == 0))),
    "tanh": _sign_free(im=lambda a, b: np.isinf(a) & ~_fin(b)),
    "sin": _sign_free(im=lambda a, b: ((b == 0) | np.isinf(b)) & ~_fin(a)),
    "cos": _sign_free(re=lambda a, b: np.isinf(a) & np.isinf(b),
                      im=lambda a, b: ((b == 0) & ~_fin(a)) | (np.isnan(b) & (a == 0))),
    "tan": _sign_free(re=lambda a, b: np.isinf(b) & ~_fin(a)),
    "acos": _sign_free(im=lambda a, b: np.isinf(a) & np.isnan(b)),
    "acosh": _sign_free(im=lambda a, b: (a == 0) & np.isnan(b)),
    "asinh": _sign_free(re=lambda a, b: np.isnan(a) & np.isinf(b)),
    "asin": _sign_free(im=lambda a, b: np.isnan(b) & np.isinf(a)),
    "atanh": _sign_free(re=lambda a, b: np.isnan(a) & np.isinf(b)),
    "atan": _sign_free(im=lambda a, b: np.isnan(b) & np.isinf(a)),
    "sqrt": _sign_free(im=lambda a, b: (a == -np.inf) & np.isnan(b)),
}


def _expm1_oracle(x):
    """np.expm1, patched: for complex ``x`` with ``imag(x) == ±0`` the standard gives
    ``expm1(real(x)) ± 0j`` (e.g. ``+inf + 0j``, ``NaN + 0j``); NumPy computes the imaginary
    part as ``exp(a) * sin(b)`` and returns NaN for infinite or NaN ``a``.  For an infinite
    ``a`` with ``b`` infinite or NaN the standard gives ``inf + NaN j`` (``a = +inf``) and
    ``-1 + 0j`` (``a = -inf``); NumPy gives ``NaN + NaN j``."""
    out = np.asarray(np.expm1(x))
    if x.dtype.kind == "c":
        a, b = x.real, x.imag
        zero = b == 0
        out = out.copy()
        out.real = np.where(zero, np.expm1(a), out.real)
        out.imag = np.where(zero, b, out.imag)
        bad_b = ~np.isfinite(b)
        pinf, ninf = (a == np.inf) & bad_b, (a == -np.inf) & bad_b
        out.real = np.where(pinf, np.inf, np.where(ninf, -1.0, out.real))
        out.imag = np.where(pinf, np.nan, np.where(ninf, 0.0, out.imag))
    return out


def _log1p_oracle(x):
    """np.log1p, patched: for complex64 NumPy forms ``1 + x`` and its modulus in single
    precision and overflows near the top of the range (``log1p(3.4e38 + 3.4e38j)`` gives
    ``inf``; the true real part is ~89.07); evaluate in complex128 and round instead."""
    if x.dtype == np.complex64:
        return np.log1p(x.astype(np.complex128)).astype(np.complex64)
    return np.log1p(x)


def _tan_oracle(x):
    """np.tan, patched where the standard's ``tan(x) = -1j * tanh(1j * x)`` (its rule for
    complex special cases) fixes what C99 leaves to ``sin(2a)``: for a finite ``a`` and an
    infinite ``b``, ``1j * x = -b + aj`` and the standard's ``tanh(±inf + aj)`` is
    ``±1 + 0j`` with the sign of ``a`` on the zero, so ``tan(a ± inf j)`` is
    ``copysign(0, a) ± 1j`` (NumPy: ``tan(2 + inf j)`` is ``-0 + 1j``)."""
    out = np.asarray(np.tan(x))
    if x.dtype.kind == "c":
        a, b = x.real, x.imag
        pole = np.isfinite(a) & np.isinf(b)
        if pole.any():
            out = out.copy()
            out.real = np.where(pole, np.copysign(np.zeros_like(a), a), out.real)
            out.imag = np.where(pole, np.sign(b), out.imag)
    return out


def _exp_overflow(part):
    """Postfilter of complex ``sin``/``cos`` (``part="imag"``) and ``sinh``/``cosh``
    (``"real"``), whose parts are ``cosh(t)`` or ``sinh(t)`` times a sine or cosine, ``t``
    that part of ``x``: drop the elements where ``exp(|t|)`` overflows though ``t`` is
    finite.  A finite result there needs a scaled ``exp(|t|) / 2``, an accuracy the standard
    does not ask of complex operands (as for the overflow of a complex product, see
    ``_complex_square``): XLA's ``sin(0.5 + 88.8j)`` in complex64 is ``inf + inf j``."""
    def keep(x, expected):
        if x.dtype.kind != "c":
            return np.ones(x.shape, bool)
        t = np.abs(getattr(x, part))
        with np.errstate(invalid="ignore"):
            return ~(np.isfinite(t) & (t > np.log(np.finfo(t.dtype).max)))
    return keep


_EXP_OVERFLOW = {"sin": _exp_overflow("imag"), "cos": _exp_overflow("imag"),
                 "sinh": _exp_overflow("real"), "cosh": _exp_overflow("real")}

for _name, _oracle in (("exp", np.exp), ("expm1", _expm1_oracle), ("log", np.log),
                       ("log1p", _log1p_oracle), ("sin", np.sin), ("cos", np.cos),
                       ("tan", _tan_oracle), ("asin", np.arcsin), ("acos", np.arccos),
                       ("atan", np.arctan), ("sinh", np.sinh), ("cosh", np.cosh),
                       ("tanh", np.tanh), ("asinh", np.arcsinh), ("acosh", np.arccosh),
                       ("atanh", np.arctanh)):
    unary(_name, _oracle, "floating-point", sign_free=SIGN_FREE.get(_name),
          postfilter=_EXP_OVERFLOW.get(_name))
unary("log2", np.log2, "floating-point")
unary("log10", np.log10, "floating-point")
unary("sqrt", np.sqrt, "floating-point", sign_free=SIGN_FREE["sqrt"])
binary("atan2", np.arctan2, "real floating")
binary("hypot", np.hypot, "real floating")
binary("logaddexp", np.logaddexp, "real floating")

clip_spec()
