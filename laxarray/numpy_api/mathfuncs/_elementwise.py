"""NumPy's extra elementwise arithmetic: fmax/fmin/fmod, float_power, exp2, logaddexp2, cbrt,
fabs, rint, degrees/radians, divmod, spacing, heaviside, angle and unwrap, i0, sinc.  The is*
predicates, frexp/ldexp/modf, nan_to_num, real_if_close and around/round are in
``_floatparts``; bitwise_count, gcd and lcm in ``_integer``.

Promotion is NumPy 2's (NEP 50) through the elementwise decorators.  Where NumPy turns an
integer input into a float, the float is float64 (laxarray has no float16: NumPy gives
float16/float32 for 8/16-bit integers).  Nothing is static under ``jax.jit`` but dtypes and
keyword values.
"""

from __future__ import annotations

import builtins

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.runtime.kernel import kernel
from laxarray._core.numerics import FLOAT_LAYOUT, cumulative, float_rem, scale_pow2
from laxarray._core.validate import normalize_axis
from laxarray.array_api._calls import call
from laxarray.array_api._complex_math import cexp
from laxarray.array_api._exact_float32 import pick
from laxarray.array_api._ufunc import elementwise_binary, elementwise_unary, to_float
from laxarray.array_api.elementwise import (_copysign, complex_pow, floor_divide, real_pow,
                                            remainder)
from laxarray.array_api.elementwise_compare import complex_ge_le, complex_nan
from laxarray.linalg._operands import raw


def _is_complex(x):
    return _dt.kind_of(x.dtype) == "c"


def _is_int(x):
    return _dt.kind_of(x.dtype) in "iub"


def _full(x, value):
    return lax.full_like(x, value)


def _isnan(x):
    return lax.ne(x, x)


def _to_double(dt):
    """float_power's compute dtype: float64, or complex128 for complex inputs (the widest
    the backend has: float32/complex64 on a TPU)."""
    return _dt.on_device(_dt.complex128 if _dt.kind_of(dt) == "c" else _dt.float64)


# ---- binary ---------------------------------------------------------------------------
def _nan_ignoring_extreme(x1, x2, *, find_max):
    """fmax's (``find_max``) or fmin's body: ``x1`` where it wins or ties, or where ``x2`` is
    NaN; else ``x2`` (complex: lexicographic order, a NaN part losing; bool: or/and)."""
    if _is_int(x1):
        if x1.dtype == np.bool_:
            return (lax.bitwise_or if find_max else lax.bitwise_and)(x1, x2)
        return (lax.max if find_max else lax.min)(x1, x2)
    if _dt.kind_of(x1.dtype) == "c":
        wins = complex_ge_le(x1, x2, lax.gt if find_max else lax.lt)
        return lax.select(lax.bitwise_or(wins, complex_nan(x2)), x1, x2)
    wins = lax.ge(x1, x2) if find_max else lax.le(x1, x2)
    return lax.select(lax.bitwise_or(wins, _isnan(x2)), x1, x2)


@elementwise_binary("any")
def fmax(x1, x2, /):
    """Elementwise maximum ignoring NaN (NaN only if both are NaN). NumPy: numpy.fmax.

    Complex input as NumPy: lexicographic order (real part first); a value with a NaN part
    loses to one without, ``x1`` wins a tie.

    Examples
    --------
    >>> import laxarray as la
    >>> la.fmax(la.asarray([1.0, la.nan, la.nan]), la.asarray([2.0, 0.0, la.nan]))
    Array([ 2.,  0., nan])
    """
    return _nan_ignoring_extreme(x1, x2, find_max=True)


@elementwise_binary("any")
def fmin(x1, x2, /):
    """Elementwise minimum ignoring NaN (NaN only if both are NaN). NumPy: numpy.fmin.

    Complex input as for :func:`fmax`.

    Examples
    --------
    >>> import laxarray as la
    >>> la.fmin(la.asarray([1.0, la.nan, la.nan]), la.asarray([2.0, 0.0, la.nan]))
    Array([ 1.,  0., nan])
    """
    return _nan_ignoring_extreme(x1, x2, find_max=False)


@elementwise_binary("real numeric")
def fmod(x1, x2, /):
    """Remainder with the sign of the dividend (C's fmod; integer ``x % 0`` gives 0).
    NumPy: numpy.fmod.

    Examples
    --------
    >>> import laxarray as la
    >>> la.fmod(la.asarray([-3, -2, 2, 3]), 2)
    Array([-1,  0,  0,  1])
    """
    if _is_int(x1):
        zero = _full(x2, 0)
        is_zero = lax.eq(x2, zero)
        r = lax.rem(x1, lax.select(is_zero, _full(x2, 1), x2))
        return lax.select(is_zero, zero, r)
    return float_rem(x1, x2)


@elementwise_binary("numeric", compute=_to_double)
def float_power(x1, x2, /):
    """Power computed in float64 (complex128 for complex inputs). NumPy: numpy.float_power.

    Examples
    --------
    >>> import laxarray as la
    >>> la.float_power(la.asarray([2, 3]), 2)
    Array([4., 9.])
    """
    return complex_pow(x1, x2) if _is_complex(x1) else real_pow(x1, x2)


@elementwise_binary("real numeric", compute=to_float)
def logaddexp2(x1, x2, /):
    """``log2(2**x1 + 2**x2)`` without overflow. NumPy: numpy.logaddexp2.

    Examples
    --------
    >>> import laxarray as la
    >>> la.logaddexp2(la.asarray([1.0, 3.0]), la.asarray([1.0, 3.0]))
    Array([2., 4.])
    """
    one = _full(x1, 1)
    d = lax.sub(x1, x2)
    ln2 = _full(x1, np.log(2.0))
    up = lax.div(pick("log1p", lax.log1p)(pick("exp2", lax.exp2)(lax.neg(lax.abs(d)))), ln2)
    big = lax.max(x1, x2)
    out = lax.add(big, up)
    out = lax.select(lax.eq(x1, x2), lax.add(x1, one), out)
    return lax.select(lax.bitwise_or(_isnan(x1), _isnan(x2)), _full(x1, np.nan), out)


@elementwise_binary("real numeric", compute=to_float)
def heaviside(x1, x2, /):
    """Heaviside step: 0 for ``x1 < 0``, ``x2`` at 0, 1 for ``x1 > 0``, NaN for NaN.
    NumPy: numpy.heaviside.

    Examples
    --------
    >>> import laxarray as la
    >>> la.heaviside(la.asarray([-1.5, 0.0, 2.0]), 0.5)
    Array([0. , 0.5, 1. ])
    """
    zero = _full(x1, 0)
    out = lax.select(lax.lt(x1, zero), zero, _full(x1, 1))
    out = lax.select(lax.eq(x1, zero), x2, out)
    return lax.select(_isnan(x1), x1, out)


def divmod(x1, x2, /):
    """Return the floor quotient and the remainder, elementwise.

    Array API: (not in the standard). NumPy: numpy.divmod.

    Parameters
    ----------
    x1, x2 : array_like
        The dividend and divisor; they broadcast together.

    Returns
    -------
    tuple of Array
        ``(floor_divide(x1, x2), remainder(x1, x2))``.

    Raises
    ------
    TypeError
        If an operand is not array_like or of a dtype the two functions refuse.
    ValueError
        If the shapes do not broadcast.

    Notes
    -----
    Static under ``jax.jit``: none.

    Examples
    --------
    >>> import laxarray as la
    >>> la.divmod(la.asarray([7, -7]), 3)
    (Array([ 2, -3]), Array([1, 2]))
    """
    return floor_divide(x1, x2), remainder(x1, x2)


# ---- unary ----------------------------------------------------------------------------
@elementwise_unary("numeric", compute=to_float)
def exp2(x, /):
    """``2 ** x``. NumPy: numpy.exp2.

    Examples
    --------
    >>> import laxarray as la
    >>> la.exp2(la.asarray([0.0, 1.0, 3.0]))
    Array([1., 2., 8.])
    """
    if _is_complex(x):
        ln2 = lax.full((), np.log(2.0), lax.real(x).dtype)
        return cexp(lax.complex(lax.mul(lax.real(x), ln2), lax.mul(lax.imag(x), ln2)))
    # 2**round(x) exactly from bits, times 2**(x - round(x)): XLA's exp2 alone is off by
    # tens of ulps for large float32 arguments (and inexact at integers)
    _, frac, bias = FLOAT_LAYOUT[np.dtype(x.dtype)]
    limit = float(2 * (bias + frac + 2))
    n = lax.round(lax.clamp(_full(x, -limit), x, _full(x, limit)),
                  lax.RoundingMethod.TO_NEAREST_EVEN)
    f = lax.sub(x, n)
    y = scale_pow2(pick("exp2", lax.exp2)(f),
                    lax.convert_element_type(n, _dt.default_index()))
    return lax.select(lax.is_finite(x), y, lax.exp2(x))


@elementwise_unary("real numeric", compute=to_float)
def cbrt(x, /):
    """Real cube root. NumPy: numpy.cbrt.

    Examples
    --------
    >>> import laxarray as la
    >>> la.cbrt(la.asarray([-8.0, 27.0]))
    Array([-2.,  3.])
    """
    # XLA's cbrt gives one wrong constant for every subnormal (XLA:CPU reads the operand as
    # a zero it mishandles): a subnormal is its fraction field times 2**-u, so its root is
    # cbrt(field * 2**-(u % 3)) * 2**-(u // 3), all normal
    info = np.finfo(x.dtype)
    itype = {2: np.int16, 4: np.int32, 8: np.int64}[np.dtype(x.dtype).itemsize]
    frac = info.nmant
    u = info.maxexp - 2 + frac                     # smallest subnormal: 2**-u
    bits = lax.bitcast_convert_type(x, itype)
    field = lax.bitwise_and(bits, lax.full(x.shape, (1 << frac) - 1, itype))
    wide = lax.mul(lax.convert_element_type(field, x.dtype), _full(x, 2.0 ** -(u % 3)))
    sub = lax.mul(lax.cbrt(wide), _full(x, 2.0 ** -(u // 3)))
    # told from the bits (a zero exponent field, a nonzero fraction): XLA:CPU compares
    # half-precision subnormals as zeros
    exponent = lax.bitwise_and(bits, lax.full(x.shape, ((1 << (info.bits - 1)) - 1)
                                              & ~((1 << frac) - 1), itype))
    tiny = lax.bitwise_and(lax.eq(exponent, lax.full(x.shape, 0, itype)),
                           lax.ne(field, lax.full(x.shape, 0, itype)))
    return lax.select(tiny, _copysign(sub, x), lax.cbrt(x))


@elementwise_unary("real", compute=to_float)
def fabs(x, /):
    """Absolute value as a float (complex input is rejected). NumPy: numpy.fabs.

    Examples
    --------
    >>> import laxarray as la
    >>> la.fabs(la.asarray([-1, 2]))
    Array([1., 2.])
    """
    return lax.abs(x)


@elementwise_unary("numeric", compute=to_float)
def rint(x, /):
    """Round to the nearest integer, half to even (float result). NumPy: numpy.rint.

    Examples
    --------
    >>> import laxarray as la
    >>> la.rint(la.asarray([-1.5, -0.5, 0.5, 1.5, 2.7]))
    Array([-2., -0.,  0.,  2.,  3.])
    """
    even = lax.RoundingMethod.TO_NEAREST_EVEN
    if _is_complex(x):
        return lax.complex(lax.round(lax.real(x), even), lax.round(lax.imag(x), even))
    return lax.round(x, even)


@elementwise_unary("real", compute=to_float)
def deg2rad(x, /):
    """Degrees to radians. NumPy: numpy.deg2rad.

    Examples
    --------
    >>> import laxarray as la
    >>> la.deg2rad(la.asarray([0.0, 90.0, 180.0]))
    Array([0.        , 1.57079633, 3.14159265])
    >>> la.radians(la.asarray([180.0]))
    Array([3.14159265])
    """
    return lax.mul(x, _full(x, np.pi / 180.0))


@elementwise_unary("real", compute=to_float)
def rad2deg(x, /):
    """Radians to degrees. NumPy: numpy.rad2deg.

    Examples
    --------
    >>> import laxarray as la
    >>> la.rad2deg(la.asarray([0.0, la.pi / 2]))
    Array([ 0., 90.])
    >>> la.degrees(la.asarray([la.pi]))
    Array([180.])
    """
    return lax.mul(x, _full(x, 180.0 / np.pi))


#: NumPy's other names of the same two functions (one kernel each)
radians, degrees = deg2rad, rad2deg


@elementwise_unary("real", compute=to_float)
def spacing(x, /):
    """Distance to the next representable value away from zero (NaN for inf/NaN, inf at
    the largest finite value; ``spacing(±0)`` is the smallest subnormal). NumPy:
    numpy.spacing.  Built from the bits (XLA on CPU flushes subnormal differences); float16
    follows the float32/float64 rule (NumPy's float16 gives negative values the positive
    distance toward zero).

    Examples
    --------
    >>> import laxarray as la
    >>> la.spacing(la.asarray([1.0, 1e10]))
    Array([2.22044605e-16, 1.90734863e-06])
    >>> la.spacing(la.asarray([1.0], dtype=la.float32))
    Array([1.1920929e-07], dtype=float32)
    """
    itype, frac, bias = FLOAT_LAYOUT[np.dtype(x.dtype)]
    bits = lax.bitcast_convert_type(x, itype)
    sign = lax.bitwise_and(bits, _full(bits, np.iinfo(itype).min))
    mag = lax.bitwise_and(bits, _full(bits, np.iinfo(itype).max))
    field = lax.shift_right_logical(mag, _full(mag, frac))
    one = _full(field, 1)
    normal_ulp = lax.shift_left(lax.sub(field, _full(field, frac)), _full(field, frac))
    tiny_ulp = lax.shift_left(one, lax.max(lax.sub(field, one), _full(field, 0)))
    ulp = lax.select(lax.gt(field, _full(field, frac)), normal_ulp, tiny_ulp)
    ulp = lax.select(lax.eq(field, _full(field, 0)), one, ulp)
    # from the sign bit (a comparison may read a subnormal as zero); -0.0 counts as positive
    negative = lax.bitwise_and(lax.ne(sign, _full(sign, 0)), lax.ne(mag, _full(mag, 0)))
    out = lax.bitcast_convert_type(
        lax.select(negative, lax.bitwise_or(ulp, sign), ulp), x.dtype)
    largest = int(np.array(np.finfo(x.dtype).max, x.dtype).view(itype))
    top = lax.eq(mag, _full(mag, largest))
    out = lax.select(top, lax.select(negative, _full(x, -np.inf), _full(x, np.inf)), out)
    return lax.select(lax.is_finite(x), out, _full(x, np.nan))


@elementwise_unary("numeric", compute=to_float)
def sinc(x, /):
    """Normalised sinc, ``sin(pi x) / (pi x)`` with 1 at 0. NumPy: numpy.sinc.

    Examples
    --------
    >>> import laxarray as la
    >>> la.sinc(la.asarray([0.0, 0.5]))
    Array([1.        , 0.63661977])
    """
    y = lax.mul(x, _full(x, np.pi))
    zero = lax.eq(x, _full(x, 0))
    safe = lax.select(zero, _full(y, 1), y)
    return lax.select(zero, _full(x, 1), lax.div(lax.sin(safe), safe))


_I0A = (-4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
        1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
        -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
        9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
        -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
        1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
        -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
        1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
        -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
        1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1)
_I0B = (-7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
        3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
        1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
        -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
        7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
        -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
        3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
        2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
        8.04490411014108831608E-1)


def _chbevl(x, coeffs):
    """Cephes' Chebyshev series evaluation (a ``fori_loop``: small programs, fast compiles)."""
    table = np.asarray(coeffs, dtype=x.dtype)

    def step(i, carry):
        b0, b1, _ = carry
        c = lax.dynamic_index_in_dim(table, i, keepdims=False)
        return lax.add(lax.sub(lax.mul(x, b0), b1), lax.broadcast(c, x.shape)), b0, b1
    b0, _, b2 = lax.fori_loop(1, len(coeffs), step,
                              (_full(x, coeffs[0]), _full(x, 0), _full(x, 0)))
    return lax.mul(_full(x, 0.5), lax.sub(b0, b2))


@elementwise_unary("real", compute=to_float)
def i0(x, /):
    """Modified Bessel function of the first kind, order 0 (Cephes, as NumPy).
    NumPy: numpy.i0.

    Examples
    --------
    >>> import laxarray as la
    >>> la.i0(la.asarray([0.0, 1.0]))
    Array([1.        , 1.26606588])
    """
    ax = lax.abs(x)
    small = lax.le(ax, _full(ax, 8.0))
    xs = lax.select(small, ax, _full(ax, 8.0))
    xl = lax.select(small, _full(ax, 16.0), ax)
    a = lax.mul(lax.exp(xs), _chbevl(lax.sub(lax.div(xs, _full(ax, 2.0)), _full(ax, 2.0)),
                                    _I0A))
    b = lax.div(lax.mul(lax.exp(xl), _chbevl(lax.sub(lax.div(_full(ax, 32.0), xl),
                                                      _full(ax, 2.0)), _I0B)), lax.sqrt(xl))
    return lax.select(small, a, b)


def _make_angle(scale):
    def angle(z, /):
        """Return the angle (argument) of complex values.

        Array API: (not in the standard). NumPy: numpy.angle.

        Parameters
        ----------
        z : array_like
            The input.
        deg : bool, optional
            Return degrees instead of radians; default False.

        Returns
        -------
        Array
            ``atan2(imag(z), real(z))``: real input gives 0 or pi; integers give float64.

        Raises
        ------
        TypeError
            If ``z`` is not array_like.

        Notes
        -----
        Static under ``jax.jit``: ``deg``.

        Examples
        --------
        >>> import laxarray as la
        >>> la.angle(la.asarray([1.0, 1j, -1.0]))
        Array([0.        , 1.57079633, 3.14159265])
        >>> la.angle(la.asarray([1j]), deg=True)
        Array([90.])
        """
        if _is_complex(z):
            r = lax.atan2(lax.imag(z), lax.real(z))
        else:
            r = lax.atan2(_full(z, 0), z)
        return r if scale == 1.0 else lax.mul(r, _full(r, scale))
    return elementwise_unary("any", compute=to_float)(angle)


_angle_rad, _angle_deg = _make_angle(1.0), _make_angle(180.0 / np.pi)


def angle(z, deg=False):
    """Argument of complex values (``atan2(imag, real)``), in degrees if ``deg``.
    NumPy: numpy.angle. Real input gives 0 or pi; integers give float64."""
    if not isinstance(deg, (bool, np.bool_)):
        fail(TypeError, "angle", "a bool for 'deg'", deg)
    return _angle_deg(z) if deg else _angle_rad(z)


@kernel(static=("axis", "dtype", "period", "discont", "high", "ambiguous"))
def _unwrap_kernel(p, *, axis, dtype, period, discont, high, ambiguous):
    x = lax.convert_element_type(p, dtype)
    n = x.shape[axis]
    if n < 2:
        return x
    head = lax.slice_in_dim(x, 0, 1, axis=axis)
    rest = lax.slice_in_dim(x, 1, n, axis=axis)
    dd = lax.sub(rest, lax.slice_in_dim(x, 0, n - 1, axis=axis))
    per, low = _full(dd, period), _full(dd, -high)
    shifted = lax.sub(dd, low)
    mod = lax.rem(shifted, per)  # floor modulo (period > 0): add the period to negatives
    mod = lax.select(lax.lt(mod, _full(mod, 0)), lax.add(mod, per), mod)
    ddmod = lax.add(mod, low)
    if ambiguous:
        fix = lax.bitwise_and(lax.eq(ddmod, low), lax.gt(dd, _full(dd, 0)))
        ddmod = lax.select(fix, _full(dd, high), ddmod)
    correct = lax.sub(ddmod, dd)
    mag = dd if _dt.kind_of(dtype) == "u" else lax.abs(dd)
    wide = _dt.on_device(_dt.float64)
    small = lax.lt(lax.convert_element_type(mag, wide), lax.full((), discont, wide))
    correct = lax.select(small, _full(correct, 0), correct)
    return lax.concatenate([head, lax.add(rest, cumulative("sum", correct, axis))], axis)


def unwrap(p, discont=None, axis=-1, *, period=2 * np.pi):
    """Unwrap by changing jumps larger than ``discont`` (default ``period / 2``) to their
    ``period``-complement along ``axis``. NumPy: numpy.unwrap.

    ``discont``, ``axis`` and ``period`` are static Python numbers under ``jax.jit``;
    integer input with an integer ``period`` stays integer, as in NumPy.
    """
    fn = "unwrap"
    v = raw(fn, p, "p")
    if _dt.kind_of(v.dtype) in "bc":
        _dt.check_category(fn, "p", v.dtype, "real numeric")
    if v.ndim == 0:
        fail(ValueError, fn, "an array of rank >= 1 for 'p'", v)
    ax = normalize_axis(fn, axis, v.ndim)
    for name, val in (("period", period), ("discont", discont)):
        if val is not None and (isinstance(val, (bool, np.bool_)) or
                                not isinstance(val, (int, float, np.integer, np.floating))):
            fail(TypeError, fn, f"a real Python number for '{name}'", val)
    int_period = isinstance(period, (int, np.integer))
    dtype = _dt.weak_promote(v.dtype, int if int_period else float)
    if discont is None:
        discont = period / 2
    if _dt.kind_of(dtype) in "iu":
        high, rem = builtins.divmod(int(period), 2)
        ambiguous = rem == 0
    else:
        high, ambiguous = period / 2, True
    return call(_unwrap_kernel, v, axis=ax, dtype=dtype, period=period, discont=discont,
                high=high, ambiguous=ambiguous)


__all__ = ["fmax", "fmin", "fmod", "float_power", "logaddexp2", "heaviside", "divmod", "exp2",
           "cbrt", "fabs", "rint", "deg2rad", "rad2deg", "radians", "degrees", "spacing", "sinc",
           "i0", "angle", "unwrap"]
