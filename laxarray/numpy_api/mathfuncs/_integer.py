"""NumPy's integer functions: bitwise_count, gcd, lcm.

Promotion is NumPy 2's (NEP 50) through the elementwise decorators; they accept integers
(and bitwise_count booleans) only.  gcd runs Euclid's algorithm in a ``lax.while_loop``, so
all three trace under ``jax.jit``; nothing of them is static but dtypes.
"""

from __future__ import annotations

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray.array_api._ufunc import elementwise_binary, elementwise_unary
from laxarray.numpy_api.mathfuncs._elementwise import _full

__all__ = ["bitwise_count", "gcd", "lcm"]

_UINT_OF = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


@elementwise_unary("integer or boolean")
def bitwise_count(x, /):
    """Number of 1-bits in ``|x|``, as uint8. NumPy: numpy.bitwise_count.

    Examples
    --------
    >>> import laxarray as la
    >>> la.bitwise_count(la.asarray([0, 7, 255, -1]))
    Array([0, 3, 8, 1], dtype=uint8)
    """
    if x.dtype == np.bool_:
        return lax.convert_element_type(x, np.uint8)
    if _dt.kind_of(x.dtype) == "i":
        x = lax.abs(x)
    bits = lax.bitcast_convert_type(x, _UINT_OF[np.dtype(x.dtype).itemsize])
    return lax.convert_element_type(lax.population_count(bits), np.uint8)


def _gcd_loop(a, b):
    zero = _full(a, 0)

    def cond(state):
        return lax.reduce_or(lax.ne(state[1], zero), tuple(range(a.ndim)))

    def body(state):
        x, y = state
        nz = lax.ne(y, zero)
        safe = lax.select(nz, y, _full(y, 1))
        return lax.select(nz, y, x), lax.select(nz, lax.rem(x, safe), y)
    return lax.while_loop(cond, body, (a, b))[0]


def _abs_int(x):
    """``|x|`` as the unsigned type of the same width (``|-128|`` fits in uint8)."""
    if _dt.kind_of(x.dtype) == "u":
        return x
    return lax.convert_element_type(lax.abs(x), _UINT_OF[np.dtype(x.dtype).itemsize])


@elementwise_binary("integral")
def gcd(x1, x2, /):
    """Greatest common divisor of ``|x1|`` and ``|x2|`` (integers only). NumPy: numpy.gcd.

    Euclid's algorithm in a ``lax.while_loop`` (traceable).

    Examples
    --------
    >>> import laxarray as la
    >>> la.gcd(la.asarray([12, 20]), 8)
    Array([4, 4])
    """
    return lax.convert_element_type(_gcd_loop(_abs_int(x1), _abs_int(x2)), x1.dtype)


@elementwise_binary("integral")
def lcm(x1, x2, /):
    """Least common multiple of ``|x1|`` and ``|x2|`` (integers only; 0 if either is 0).
    NumPy: numpy.lcm.

    Examples
    --------
    >>> import laxarray as la
    >>> la.lcm(la.asarray([12, 20]), 8)
    Array([24, 40])
    """
    a, b = _abs_int(x1), _abs_int(x2)
    g = _gcd_loop(a, b)
    zero = _full(g, 0)
    safe = lax.select(lax.eq(g, zero), _full(g, 1), g)
    out = lax.select(lax.eq(g, zero), zero, lax.mul(lax.div(a, safe), b))
    return lax.convert_element_type(out, x1.dtype)
