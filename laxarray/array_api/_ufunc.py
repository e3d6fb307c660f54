"""Decorators that turn a lax body into a public elementwise function.

The decorator validates (dtype category), promotes (the standard's table for arrays, NEP 50
for Python scalars), checks broadcasting, unwraps, calls one cached jitted kernel per
compute dtype, and wraps.  The decorated body sees raw jax values already converted to the
compute dtype and broadcast to the result shape; the public name is the body's
``__name__``.
"""

from __future__ import annotations

import functools

import jax
from jax import lax

from laxarray._core import config as _cfg
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._convert import scalar_operand, to_raw

_PYTYPES = (bool, int, float, complex)


def broadcast_shapes2(fn, s1, s2):
    """Broadcast two shapes (NumPy rules) or raise ``ValueError`` naming ``fn``; warns or
    raises on implicit rank promotion when the rank-promotion guard is on."""
    if _cfg.ACTIVE and len(s1) != len(s2):
        _cfg.check_ranks(fn, s1, s2)
    return _broadcast_shapes2(fn, s1, s2)


@functools.lru_cache(maxsize=4096)
def _broadcast_shapes2(fn, s1, s2):
    if len(s1) < len(s2):
        s1, s2 = s2, s1
    s2 = (1,) * (len(s1) - len(s2)) + s2
    out = []
    for a, b in zip(s1, s2):
        if a == b or b == 1:
            out.append(a)
        elif a == 1:
            out.append(b)
        else:
            fail(ValueError, fn, "shapes that broadcast together", (s1, s2) if len(s1) else s2)
    return tuple(out)


def _bcast(v, shape):
    if v.shape == shape:
        return v
    nd = len(shape)
    return lax.broadcast_in_dim(v, shape, tuple(range(nd - v.ndim, nd)))


def cast_broadcast(v, dtype, shape):
    """``v`` converted to ``dtype`` and broadcast (NumPy rules) to ``shape``, inside a kernel."""
    return _bcast(lax.convert_element_type(v, dtype), shape)


def _identity(dt):
    return dt


def to_float(dt):
    """Compute dtype of a floating-only function: integers and bool become float64."""
    return dt if _dt.kind_of(dt) in "fc" else _dt.DEFAULT_FLOAT


class _JitCache(dict):
    """input dtype -> jitted kernel, validated and built on first use, so the eager path
    is one dict lookup (the category check happens once per dtype)."""

    def __init__(self, build, validate):
        super().__init__()
        self._build = build
        self._validate = validate

    def __missing__(self, dtype):
        self._validate(dtype)  # raises for a dtype outside the function's category
        fn = self[dtype] = self._build(dtype)
        return fn


def elementwise_unary(category="numeric", compute=_identity):
    """Decorator for ``f(x) -> array``: ``category`` of accepted input dtypes and ``compute``
    mapping the input dtype to the dtype the body sees (e.g. :func:`to_float`).

    One jitted kernel serves every dtype: jax's own (C++) cache keys it by the input's
    dtype, and the category check runs when a dtype is traced for the first time, so the
    eager path is one attribute read, the jitted call and the wrap.
    """
    allowed = _dt.CATEGORIES[category]

    def deco(body):
        name = body.__name__

        def kern(x):
            dtype = x.dtype
            if dtype not in allowed:
                _dt.check_category(name, "x", dtype, category)
            return body(lax.convert_element_type(x, compute(dtype)))
        kern.__name__ = f"_{name}_kernel"
        jitted = jax.jit(kern, inline=True)

        @functools.wraps(body)
        def public(x, /):
            if type(x) is Array:
                return wrap(jitted(x._value))
            return wrap(jitted(to_raw(name, x, "x")))

        return public
    return deco


def binary_operands(fn, x1, x2):
    """Raw values of two operands and their common dtype (weak Python scalars join by kind)."""
    if type(x1) is Array:
        v1 = x1._value
    elif type(x1) in _PYTYPES:
        v1 = None
    else:
        v1 = None if _dt.scalar_pytype(x1) else to_raw(fn, x1, "x1")
    if type(x2) is Array:
        v2 = x2._value
    elif type(x2) in _PYTYPES:
        v2 = None
    else:
        v2 = None if _dt.scalar_pytype(x2) else to_raw(fn, x2, "x2")
    if v1 is not None and v2 is not None:
        d1, d2 = v1.dtype, v2.dtype
        return v1, v2, (d1 if d1 is d2 or d1 == d2 else _dt.promote_types(d1, d2))
    if v1 is not None:
        dt = _dt.weak_promote(v1.dtype, _dt.scalar_pytype(x2))
        return v1, scalar_operand(fn, x2, dt, "x2"), dt
    if v2 is not None:
        dt = _dt.weak_promote(v2.dtype, _dt.scalar_pytype(x1))
        return scalar_operand(fn, x1, dt, "x1"), v2, dt
    dt = _dt.result_type(x1, x2)
    return scalar_operand(fn, x1, dt, "x1"), scalar_operand(fn, x2, dt, "x2"), dt


def _exact_divisor(v, dtype, shape):
    """``cast_broadcast`` for a divisor that stays a divisor (see :func:`exact_div`)."""
    out = cast_broadcast(v, dtype, shape)
    if tuple(v.shape) != tuple(shape):
        out = _keep_divisor(out)
    return out


def _keep_divisor(d):
    if _dt.kind_of(d.dtype) in "fc":
        d = lax.optimization_barrier(d)
    return d


def exact_div(x, d):
    """``x / d``, correctly rounded also where ``d`` is a constant or a broadcast: XLA
    rewrites ``a / broadcast(b)`` into ``a * broadcast(1 / b)``, off by one ulp for about a
    third of the quotients; an optimization barrier on the divisor keeps the division."""
    return lax.div(x, _keep_divisor(d))


def elementwise_binary(category="numeric", compute=_identity, divisor=False):
    """Decorator for ``f(x1, x2) -> array`` with promotion and broadcasting.

    Two arrays go straight to one jitted kernel (jax's C++ cache keys it by the input
    dtypes and shapes); promotion, the category check and the broadcast check run when a
    combination is traced for the first time.  Python scalars and other operands take the
    general path (weak scalars join by kind, NEP 50) through a per-dtype kernel.
    ``divisor``: ``x2`` divides (a broadcast ``x2`` must not become a reciprocal).
    """
    allowed = _dt.CATEGORIES[category]
    second = _exact_divisor if divisor else cast_broadcast

    def deco(body):
        name = body.__name__

        def validate(dtype):
            if dtype not in allowed:
                _dt.check_category(name, "x1, x2", dtype, category)

        def build(dtype):
            target = compute(dtype)

            def kern(a, b):
                shape = a.shape if a.shape == b.shape else jax.lax.broadcast_shapes(
                    a.shape, b.shape)
                return body(cast_broadcast(a, target, shape), second(b, target, shape))
            kern.__name__ = f"_{name}_kernel"
            return jax.jit(kern, inline=True)

        jitted = _JitCache(build, validate)

        def arrays_kern(a, b):
            d1, d2 = a.dtype, b.dtype
            dtype = d1 if d1 == d2 else _dt.promote_types(d1, d2)
            validate(dtype)
            shape = a.shape if a.shape == b.shape else _broadcast_shapes2(name, a.shape,
                                                                          b.shape)
            target = compute(dtype)
            return body(cast_broadcast(a, target, shape), second(b, target, shape))
        arrays_kern.__name__ = f"_{name}_kernel"
        arrays_jitted = jax.jit(arrays_kern, inline=True)

        @functools.wraps(body)
        def public(x1, x2, /):
            if type(x1) is Array and type(x2) is Array:  # the common case: all in the kernel
                if _cfg.ACTIVE:
                    _cfg.check_ranks(name, x1._value.shape, x2._value.shape)
                return wrap(arrays_jitted(x1._value, x2._value))
            v1, v2, dt = binary_operands(name, x1, x2)
            fn = jitted[dt]
            s1, s2 = v1.shape, v2.shape
            if s1 != s2:
                broadcast_shapes2(name, s1, s2)
            return wrap(fn(v1, v2))

        return public
    return deco
