"""laxarray's numerics policy: the workarounds a kernel body applies for XLA:CPU's numerics,
named once and applied where the platform XLA compiles for has the quirk (``Backend.quirks``:
a TPU program carries none of them), scans within the platform's ``Backend.scan_block``,
and the matrix-product precision every kernel body is traced under (on GPU XLA's default
for float32 products is TF32; laxarray's is NumPy's grade: ``modes.get_matmul_precision``).

``kernel`` re-exports these for the kernels that use them; :func:`reduce_extreme` marks
its NaN test (the name scope :data:`NAN_TEST`), which the kernel helper's compile step reads.
"""

from __future__ import annotations

import functools
import math

import jax
import numpy as np
from jax import lax

from laxarray._core import backend as _backend
from laxarray._core import modes as _modes
from laxarray._core import dtypes as _dt


def flush_subnormals(x):
    """Subnormal values of a real float ``x`` as zeros of their sign (others unchanged).

    XLA on CPU reads subnormals as zeros in arithmetic (flush-to-zero) but not in every
    kernel: its ``pow`` reads a subnormal base as ``2**-1075``, its comparisons and
    ``atan2`` see them exactly.  A body that mixes both readings flushes its operands first
    (``flush_subnormals=True`` on the elementwise decorators does it for every float input),
    so one result never mixes the two.  The rule for users: see README ("subnormals")."""
    if _dt.kind_of(x.dtype) != "f":
        return x
    tiny = lax.full_like(x, _dt.machine_limits(x.dtype).tiny)
    magnitude = lax.abs(x)
    zero = lax.full_like(x, 0)
    signed_zero = lax.select(sign_bit(x), lax.neg(zero), zero)
    return lax.select(lax.lt(magnitude, tiny), signed_zero, x)


def sign_bit(x):
    """Whether the sign bit of real floating ``x`` is set (-0.0 and negative NaN too)."""
    bits = lax.bitcast_convert_type(x, {2: np.int16, 4: np.int32, 8: np.int64}[x.dtype.itemsize])
    return lax.lt(bits, lax.full_like(bits, 0))


def copysign(mag, sign_src):
    """The magnitude of ``mag`` with the sign bit of ``sign_src`` (real floating)."""
    a = lax.abs(mag)
    return lax.select(sign_bit(sign_src), lax.neg(a), a)


def quirk(name: str) -> bool:
    """Whether XLA on the platform it compiles laxarray's kernels for has the numerics quirk
    ``name`` (``Backend.quirks``: ``"fma"``, ``"reciprocal"``, ``"nan_extremes"``), which a
    kernel body then works around; read when a body is traced."""
    return name in _backend.compiling().quirks


_SCANS = {"sum": (lax.cumsum, lax.add), "prod": (lax.cumprod, lax.mul),
          "max": (lax.cummax, lax.max), "min": (lax.cummin, lax.min)}


def cumulative(op: str, x, axis: int = 0, reverse: bool = False):
    """``lax.cum<op>`` (``op``: ``"sum"``, ``"prod"``, ``"max"``, ``"min"``) of ``x`` along
    ``axis``, in blocks of the compiling platform's ``Backend.scan_block`` where the axis is
    longer: each block scanned, the blocks' totals scanned (the same way), and each block
    combined with the total before it; where there is no such limit, a long integer sum
    along axis 0 by small matrix products (:func:`_sum_by_products`); read when a body is
    traced."""
    scan, combine = _SCANS[op]
    block = _backend.compiling().scan_block
    n = x.shape[axis]
    if (block is None and op == "sum" and axis == 0 and not reverse
            and n > 4 * _PRODUCT_BLOCK and np.dtype(x.dtype).kind in "iu"):
        return _sum_by_products(x)
    if block is None or n <= block:
        return scan(x, axis=axis, reverse=reverse)
    if reverse:
        return lax.rev(cumulative(op, lax.rev(x, (axis,)), axis), (axis,))
    m = -(-n // block)
    pads = [(0, 0, 0)] * x.ndim
    pads[axis] = (0, m * block - n, 0)          # at the end: no earlier value sees it
    shape = x.shape[:axis] + (m, block) + x.shape[axis + 1:]
    within = scan(lax.reshape(lax.pad(x, lax.full((), 0, x.dtype), pads), shape), axis=axis + 1)
    totals = cumulative(op, lax.index_in_dim(within, block - 1, axis + 1, keepdims=False), axis)
    before = lax.slice_in_dim(totals, 0, m - 1, axis=axis)
    rest = lax.slice_in_dim(within, 1, m, axis=axis)
    rest = combine(lax.broadcast_in_dim(before, rest.shape,
                                        tuple(d for d in range(rest.ndim) if d != axis + 1)),
                   rest)
    out = lax.concatenate([lax.slice_in_dim(within, 0, 1, axis=axis), rest], axis)
    out = lax.reshape(out, x.shape[:axis] + (m * block,) + x.shape[axis + 1:])
    return lax.slice_in_dim(out, 0, n, axis=axis)


def rank_of_true(flags, dtype):
    """For each position of the 1-D boolean ``flags``, how many are true up to and including
    it, less one (``dtype``): where ``flags`` marks the first element of each group of a
    sorted array, the number of each element's group; at a true flag, its rank among them."""
    return lax.sub(cumulative("sum", lax.convert_element_type(flags, dtype)),
                   lax.full(flags.shape, 1, dtype))


_PRODUCT_BLOCK = 16


def _sum_by_products(x):
    """Inclusive cumulative sum along axis 0 of an integer array (exact), where the platform
    scans in one piece: ``lax.cumsum`` lowers to an associative scan that XLA on CPU runs at
    ~10-25 ns per element, so rows of 16 are summed by one small matrix product with an
    upper-triangular matrix of ones (exact in integers), then the same over the block
    totals.  Measured on 2e6 int32: 4-5 ms against 17 ms for ``lax.cumsum`` and 6 ms for
    NumPy, compiled in 0.17 s (an unrolled chain of 16 adds per block, as fast, took 1.9 s).
    Not where the platform blocks its scans: on a TPU this form compiled in 5.3 s at
    2**20, its blocks in 0.4 s."""
    n, b = x.shape[0], _PRODUCT_BLOCK
    m = -(-n // b)
    tail = tuple(x.shape[1:])
    xp = lax.pad(x, lax.full((), 0, x.dtype), [(0, m * b - n, 0)] + [(0, 0, 0)] * len(tail))
    xp = lax.reshape(xp, (m, b) + tail)
    upper = np.triu(np.ones((b, b), x.dtype))
    # (m, b, *tail) . (b, b) over the block axis -> (m, *tail, b), then the block axis back
    within = dot_general(xp, upper, (((1,), (0,)), ((), ())))
    if tail:
        within = lax.transpose(within, (0, within.ndim - 1) + tuple(range(1, within.ndim - 1)))
    totals = within[:, b - 1]
    offsets = lax.sub(cumulative("sum", totals), totals)
    out = lax.add(within, lax.broadcast_in_dim(offsets, within.shape,
                                               (0,) + tuple(range(2, within.ndim))))
    return lax.slice_in_dim(lax.reshape(out, (m * b,) + tail), 0, n, axis=0)


def rounded(p):
    """The float ``p`` (a product) rounded on its own before it is added to anything: XLA:CPU
    lets LLVM fuse a multiply that feeds an add into one fma, rounded once (openxla/xla#41579),
    where NumPy rounds the product and then the sum.  The select (``p == p``: only NaN fails,
    and then ``p`` is NaN anyway) stands between the two, so no fma forms.  ``p`` itself
    where XLA forms no fma (the ``"fma"`` quirk: not on a TPU)."""
    if not quirk("fma"):
        return p
    return lax.select(lax.eq(p, p), p, lax.full_like(p, np.nan))


def keep_divisor(d):
    """``d`` behind an optimization barrier (floats), so XLA keeps ``x / d`` a division
    (where it would rewrite it into a reciprocal's product: the ``"reciprocal"`` quirk)."""
    if _dt.kind_of(d.dtype) in "fc" and quirk("reciprocal"):
        d = lax.optimization_barrier(d)
    return d


def exact_div(x, d):
    """``x / d``, correctly rounded also where ``d`` is a constant or a broadcast: XLA
    rewrites ``a / broadcast(b)`` into ``a * broadcast(1 / b)``, off by one ulp for about a
    third of the quotients; an optimization barrier on the divisor keeps the division
    (``exact_divisor=True`` on the binary decorator does it for a broadcast ``x2``)."""
    return lax.div(x, keep_divisor(d))


#: The name scope of :func:`reduce_extreme`'s NaN test: the kernel helper's compile step
#: finds it in a traced program, compiles that program with
#: ``compile_options.EXACT_EXTREMES`` and
#: drops the test (XLA's own max/min then keep NaN).
NAN_TEST = "laxarray_nan_test"


def reduce_extreme(x, axes, find_max):
    """``lax.reduce_max`` (``find_max``) or ``lax.reduce_min`` of ``x`` over ``axes``, NaN
    wherever a reduced NaN is, at every size.

    XLA:CPU's YNNPACK reduction drops NaN from 4096 elements on
    (``compile_options.EXACT_EXTREMES``; the ``"nan_extremes"`` quirk, not a TPU's).
    A float reduction of two elements or more is followed by a NaN test (a second reduction
    that finds the NaN and puts it back) under the name scope :data:`NAN_TEST`: inlined
    into a user's ``jax.jit`` (whose options laxarray cannot set) it stays; laxarray's own
    eager executables drop it and compile without that fusion."""
    reduce = lax.reduce_max if find_max else lax.reduce_min
    y = reduce(x, axes)
    if (_dt.kind_of(x.dtype) != "f" or not axes or math.prod(x.shape[a] for a in axes) < 2
            or not quirk("nan_extremes")):
        return y
    with jax.named_scope(NAN_TEST):
        nan = lax.reduce_or(lax.ne(x, x), axes)
        return lax.select(nan, lax.full_like(y, np.nan), y)


# ---- the matrix-product precision (laxarray._core.modes.MATMUL_PRECISION) ----------------

def jax_matmul_precision(precision=None) -> str:
    """jax's ``jax_default_matmul_precision`` value for laxarray's setting ``precision``
    (``'highest'``, ``'tf32'``, ``'default'``; ``None``: the current setting)."""
    return _modes.MATMUL_PRECISIONS[_modes.get_matmul_precision() if precision is None
                                      else precision]


def with_matmul_precision(fn, precision=None):
    """``fn`` run (traced) under laxarray's matrix-product precision: every
    ``dot_general``/``conv_general_dilated`` it binds without a ``precision`` of its own
    takes ``precision`` -- fixed now, by default the current setting
    (:func:`laxarray.set_matmul_precision`).  The kernel helper wraps each binding's body
    with it, the setting being part of the binding's key, so each setting has its own
    executables; a body that names a precision keeps it."""
    name = jax_matmul_precision(precision)

    @functools.wraps(fn)
    def under_precision(*args, **kwargs):
        with jax.default_matmul_precision(name):
            return fn(*args, **kwargs)
    return under_precision


# ---- what the backend's record asks of a program -------------------------------------------

_INT64 = frozenset((np.dtype(np.int64), np.dtype(np.uint64)))


def dot_general(lhs, rhs, dimension_numbers, **kwargs):
    """``lax.dot_general``, also for 64-bit integers where XLA has no such product
    (``Backend.int64_dot`` off: the TPU): there the product is formed elementwise and summed
    over the contracted axes, a slice of them at a time (the same wrapping integer result)."""
    if _backend.current().int64_dot or not (np.dtype(lhs.dtype) in _INT64
                                            or np.dtype(rhs.dtype) in _INT64):
        return lax.dot_general(lhs, rhs, dimension_numbers, **kwargs)
    return _int64_dot(lhs, rhs, dimension_numbers, kwargs.get("preferred_element_type"))


def _int64_dot(lhs, rhs, dimension_numbers, out_dtype):
    """``dot_general`` of integers as broadcast products summed: both operands are laid out
    ``(batch, free, contracted)`` and ``(batch, contracted, free)``, multiplied in chunks
    of the contracted axis that keep the product under 2**24 elements."""
    (lc, rc), (lb, rb) = dimension_numbers
    out_dtype = np.dtype(out_dtype) if out_dtype is not None else _dt.promote_types(
        lhs.dtype, rhs.dtype)
    lhs, rhs = lax.convert_element_type(lhs, out_dtype), lax.convert_element_type(rhs, out_dtype)
    lf = [d for d in range(lhs.ndim) if d not in lc and d not in lb]
    rf = [d for d in range(rhs.ndim) if d not in rc and d not in rb]
    batch = [lhs.shape[d] for d in lb]
    m, n = [lhs.shape[d] for d in lf], [rhs.shape[d] for d in rf]
    k = int(np.prod([lhs.shape[d] for d in lc], dtype=np.int64))
    b, mm, nn = (int(np.prod(v, dtype=np.int64)) for v in (batch, m, n))
    a = lax.reshape(lax.transpose(lhs, (*lb, *lf, *lc)), (b, mm, 1, k))
    c = lax.reshape(lax.transpose(rhs, (*rb, *rf, *rc)), (b, 1, nn, k))
    if k == 0 or b * mm * nn == 0:   # an empty sum, or an empty result
        return lax.full((*batch, *m, *n), 0, out_dtype)
    step = max(1, min(k, (1 << 24) // max(1, b * mm * nn)))
    chunks = -(-k // step)
    if chunks > 1:   # zero-padded to whole chunks (zeros add nothing)
        a = lax.pad(a, np.zeros((), out_dtype), ((0, 0, 0),) * 3 + ((0, chunks * step - k, 0),))
        c = lax.pad(c, np.zeros((), out_dtype), ((0, 0, 0),) * 3 + ((0, chunks * step - k, 0),))

    def add_chunk(i, total):
        start = i * step
        part = lax.mul(lax.dynamic_slice_in_dim(a, start, step, axis=3),
                       lax.dynamic_slice_in_dim(c, start, step, axis=3))
        return lax.add(total, lax.reduce_sum(part, (3,)))
    total = lax.fori_loop(0, chunks, add_chunk, lax.full((b, mm, nn), 0, out_dtype))
    return lax.reshape(total, (*batch, *m, *n))


# ---- the bit layout of the IEEE floats ---------------------------------------------------

#: real floating dtype -> (same-width signed integer type, fraction bits, exponent bias), for
#: kernels that read or build a float from its bits (frexp, ldexp, spacing, log10/log2)
FLOAT_LAYOUT = {
    np.dtype(np.float16): (np.int16, 10, 15),
    np.dtype(np.float32): (np.int32, 23, 127),
    np.dtype(np.float64): (np.int64, 52, 1023),
}


def pow2(n, dtype):
    """``2.0 ** n`` of the real float ``dtype`` for integer ``n`` in its normal exponent
    range, built from the bits."""
    itype, frac, bias = FLOAT_LAYOUT[np.dtype(dtype)]
    n = lax.convert_element_type(n, itype)
    return lax.bitcast_convert_type(lax.shift_left(lax.add(n, lax.full_like(n, bias)),
                                                   lax.full_like(n, frac)), dtype)


def scale_pow2(x, n):
    """``x * 2**n`` for integer ``|n| <= 2 (bias + fraction bits + 2)``, in three exact steps
    (each power of two stays in the normal range; one rounding, where the result is
    subnormal).  ``n`` has ``x``'s shape or is a scalar; a complex ``x`` scales both parts."""
    if _dt.kind_of(x.dtype) == "c":
        return lax.complex(scale_pow2(lax.real(x), n), scale_pow2(lax.imag(x), n))
    if n.shape != x.shape:
        n = lax.broadcast_in_dim(n, x.shape, ())
    third = lax.div(n, lax.full_like(n, 3))
    last = lax.sub(n, lax.mul(third, lax.full_like(n, 2)))
    y = lax.mul(x, pow2(third, x.dtype))
    y = lax.mul(y, pow2(third, x.dtype))
    return lax.mul(y, pow2(last, x.dtype))


def exponent(x):
    """The binary exponent ``e`` of a positive normal real float ``x`` (``2**e <= x <
    2**(e+1)``), as its same-width integer, read from the bits."""
    itype, frac, bias = FLOAT_LAYOUT[np.dtype(x.dtype)]
    bits = lax.bitcast_convert_type(x, itype)
    field = lax.shift_right_logical(bits, lax.full_like(bits, frac))
    return lax.sub(field, lax.full_like(field, bias))


def is_normal(x):
    """``x`` is a normal real float (not zero, subnormal, infinite or NaN)."""
    a = lax.abs(x)
    return lax.bitwise_and(lax.ge(a, lax.full_like(a, np.finfo(a.dtype).tiny)),
                           lax.lt(a, lax.full_like(a, np.inf)))


def significand(x):
    """``(m, e)``: ``x = m 2**e`` with ``m`` in ``[1, 2)`` (``x``'s dtype) and ``e`` its
    same-width integer, for positive normal ``x`` of a dtype of :data:`FLOAT_LAYOUT`."""
    itype, frac, bias = FLOAT_LAYOUT[np.dtype(x.dtype)]
    bits = lax.bitcast_convert_type(x, itype)
    m = lax.bitwise_or(lax.bitwise_and(bits, lax.full_like(bits, (1 << frac) - 1)),
                       lax.full_like(bits, bias << frac))
    return lax.bitcast_convert_type(m, x.dtype), exponent(x)


# ---- a platform's quirks: one rule each ---------------------------------------------------

def float_rem(x, y):
    """``lax.rem`` of real floats (C's ``fmod``) with a finite ``x`` kept at an infinite
    ``y``.  XLA's TPU lowering computes ``x - trunc(x / y) * y``, which is NaN there
    (the official suite's ``remainder(5.0, inf)`` on the chip); XLA:CPU already gives
    ``x``, so the select changes no CPU result.  ``fmod`` is exact in IEEE arithmetic, and
    with the chip's inexact division that formula is not (8 ulps off, the conformance runner
    on the chip): where the record lists ``fmod`` in ``own_math``, float32 is computed on
    the significands as integers (:func:`_fmod_exact`)."""
    keep = lax.bitwise_and(lax.is_finite(x), lax.eq(lax.abs(y), lax.full_like(y, np.inf)))
    out = lax.select(keep, x, lax.rem(x, y))
    if np.dtype(x.dtype) == np.float32 and "fmod" in _backend.current().own_math:
        out = _fmod_exact(x, y, out)
    return out


#: bits a step of :func:`_fmod_exact` shifts the running remainder (< 2**24) by: it stays
#: below 2**31
_FMOD_STEP = 7


def _fmod_exact(x, y, other):
    """``fmod(x, y)`` of float32, exact, where both are normal (``other`` elsewhere): with
    ``|x| = mx 2**(ex - 23)``, ``|y| = my 2**(ey - 23)`` (24-bit integers ``mx``, ``my``),
    the remainder is ``(mx 2**(ex - ey) mod my) 2**(ey - 23)``, the power of two brought in a few bits at a time
    (``(r 2**s) mod my``, int32) -- a loop that ends when every element has its exponents'
    difference worked off (at most 36 steps), the sign of ``x``."""
    def full(v, like):
        return lax.full_like(like, v)
    ok = lax.bitwise_and(is_normal(x), is_normal(y))
    one = full(1.0, x)

    def integer_significand(v):      # |v| = m 2**(e - 23), m a 24-bit integer
        m, e = significand(lax.select(ok, lax.abs(v), one))
        return lax.convert_element_type(lax.mul(m, full(2.0 ** 23, m)), np.int32), e
    mx, ex = integer_significand(x)
    my, ey = integer_significand(y)
    left = lax.max(lax.sub(ex, ey), full(0, ex))
    r = lax.rem(mx, my)

    def more(state):
        return lax.reduce_or(lax.gt(state[1], full(0, state[1])), tuple(range(x.ndim)))

    def step(state):
        r, left = state
        s = lax.min(left, full(_FMOD_STEP, left))
        return lax.rem(lax.shift_left(r, s), my), lax.sub(left, s)
    r, _ = lax.while_loop(more, step, (r, left))
    # |x| < |y|: x itself (the loop saw no difference to work off, but r is mx mod my)
    r = lax.select(lax.lt(ex, ey), mx, r)
    exp = lax.select(lax.lt(ex, ey), ex, ey)
    out = scale_pow2(lax.convert_element_type(r, np.float32), lax.sub(exp, full(23, exp)))
    out = copysign(out, x)
    # the derivative lax.rem has (1 for x, -trunc(x / y) for y), carried by a term that is
    # zero in value: the integers above have none (a subtraction keeps a -0.0 result)
    t = lax.div(x, y)
    q = lax.select(lax.is_finite(t), lax.mul(lax.sign(t), lax.floor(lax.abs(t))), full(0.0, t))
    carrier = lax.sub(x, lax.mul(lax.stop_gradient(q), y))
    out = lax.sub(out, lax.sub(lax.stop_gradient(carrier), carrier))
    return lax.select(ok, out, other)


# ---- NumPy's casts inside a kernel -------------------------------------------------------

_UINT_OF_WIDTH = {2: np.dtype("uint16"), 4: np.dtype("uint32"), 8: np.dtype("uint64")}


def _nonzero(x):
    """``x != 0`` for a real array, exact for subnormal floats (which XLA on CPU compares
    as zero): a float is non-zero when any bit other than the sign bit is set."""
    if _dt.kind_of(x.dtype) != "f":
        return lax.ne(x, lax.full_like(x, 0))
    utype = _UINT_OF_WIDTH[x.dtype.itemsize]
    bits = lax.bitcast_convert_type(x, utype)
    magnitude = np.array(np.iinfo(utype).max >> 1, utype)
    return lax.ne(lax.bitwise_and(bits, lax.full_like(bits, magnitude)), lax.full_like(bits, 0))


def nonzero_mask(x):
    """``x != 0`` inside a kernel for any dtype, exact for subnormals (see ``_nonzero``)."""
    if x.dtype == np.bool_:
        return x
    if _dt.kind_of(x.dtype) == "c":
        return lax.bitwise_or(_nonzero(lax.real(x)), _nonzero(lax.imag(x)))
    return _nonzero(x)


_NARROW_VIA_F32 = frozenset((_dt.float16, _dt.bfloat16))


def _f32_round_to_odd(x):
    """float64 ``x`` as float32 rounded to odd (truncated, lowest bit set when inexact), so
    a second rounding to a narrower float is the correctly rounded one (XLA converts float64
    to float16/bfloat16 through float32, rounding twice: 1 + 2**-11 + 2**-40 became 1.0)."""
    y = lax.convert_element_type(x, np.float32)
    back = lax.convert_element_type(y, np.float64)
    bits = lax.bitcast_convert_type(y, np.uint32)
    one = lax.full_like(bits, 1)
    away = lax.gt(lax.abs(back), lax.abs(x))  # rounded away from zero: one step back
    bits = lax.select(away, lax.sub(bits, one), bits)
    bits = lax.select(lax.ne(back, x), lax.bitwise_or(bits, one), bits)
    return lax.bitcast_convert_type(bits, np.float32)


def cast_value(x, dtype):
    """``x`` converted to ``dtype`` inside a kernel as NumPy casts (``astype``, in-place
    results cast back, stored values): integers wrap around, floats round to nearest once
    (float64 to float16/bfloat16 too, which XLA rounds twice), complex to real keeps the
    real part, anything to bool is ``x != 0`` (exact for subnormals)."""
    kind, to = _dt.kind_of(x.dtype), _dt.kind_of(dtype)
    if x.dtype == dtype:
        return x
    if to == "b":
        return nonzero_mask(x)
    if kind == "c" and to != "c":
        x = lax.real(x)
    if x.dtype == np.float64 and dtype in _NARROW_VIA_F32:
        x = _f32_round_to_odd(x)
    return lax.convert_element_type(x, dtype)
