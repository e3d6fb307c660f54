"""Zero-preserving unary functions of the stored values: ``sp.sin(A)`` keeps ``A``'s pattern.

Each is laxarray's function of the same name applied to ``A.data`` (duplicates summed
first, unless the function is linear or the indices are known unique); implicit zeros stay
zeros, which is right because each function maps 0 to 0.  NumPy's names (``arcsin``,
``conjugate`` ...) are the same functions.
"""

from __future__ import annotations

import laxarray.array_api as _la
from laxarray._core.errors import fail
from laxarray.array_api._array import wrap
from laxarray.sparse._base import is_sparse
from laxarray.sparse.ops.elementwise import unique, with_data

#: linear in the values: duplicates need not be summed first
_LINEAR = frozenset({"negative", "positive", "conj", "real", "imag"})


def _unary(dense_fn):
    """The sparse function of laxarray's zero-preserving ``dense_fn``, of the same name."""
    name = dense_fn.__name__

    def f(x, /):
        if not is_sparse(x):
            fail(TypeError, name, "a BCOO or BCSR for 'x'", x)
        if name not in _LINEAR:
            x = unique(x)
        return with_data(x, dense_fn(wrap(x.data))._value)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = _DOC.format(name=name, dup=(
        "linear in the values, so duplicates are kept as stored" if name in _LINEAR else
        "not linear, so duplicate coordinates are summed first (unless the array's\n"
        "``unique_indices`` promises there are none)"))
    return f


_DOC = """Apply ``{name}`` to the stored values of a sparse array, keeping its pattern.

Array API: {name} (of the dense equivalent). jax: jax.experimental.sparse's ``{name}``.

Parameters
----------
x : BCOO or BCSR
    The sparse array.

Returns
-------
BCOO or BCSR
    An array of ``x``'s format, shape and pattern whose stored values are
    ``laxarray.{name}`` of ``x``'s (so of the dtype that function gives); implicit zeros
    stay zero, which is right because ``{name}(0) == 0``.

Raises
------
TypeError
    If ``x`` is not a BCOO or BCSR, or ``laxarray.{name}`` refuses its dtype.

Notes
-----
Static under ``jax.jit``: none.

The function is {dup}.  It works under ``jax.jit``, ``jax.vmap`` and ``jax.grad``, and
is the rule :func:`sparsify` uses for the primitive of the same function.

Examples
--------
>>> import laxarray as la, laxarray.sparse as sp
>>> a = sp.fromdense([[0.0, 0.5], [0.25, 0.0]])
>>> b = sp.{name}(a)
>>> b.nse
2
>>> bool(la.all(b.todense() == la.{name}(a.todense())))
True
"""


abs = _unary(_la.abs)
negative = _unary(_la.negative)
positive = _unary(_la.positive)
conj = _unary(_la.conj)
real = _unary(_la.real)
imag = _unary(_la.imag)
sin = _unary(_la.sin)
tan = _unary(_la.tan)
tanh = _unary(_la.tanh)
sinh = _unary(_la.sinh)
asin = _unary(_la.asin)
asinh = _unary(_la.asinh)
atan = _unary(_la.atan)
atanh = _unary(_la.atanh)
sqrt = _unary(_la.sqrt)
square = _unary(_la.square)
expm1 = _unary(_la.expm1)
log1p = _unary(_la.log1p)
sign = _unary(_la.sign)
floor = _unary(_la.floor)
ceil = _unary(_la.ceil)
round = _unary(_la.round)
trunc = _unary(_la.trunc)

#: NumPy's names of the same functions
neg, conjugate = negative, conj
arcsin, arcsinh, arctan, arctanh = asin, asinh, atan, atanh

#: name -> function, NumPy's names included (the formats' methods: ``A.conj()``, ``-A``)
UNARY = {f.__name__: f for f in (abs, negative, positive, conj, real, imag, sin, tan, tanh,
                                 sinh, asin, asinh, atan, atanh, sqrt, square, expm1, log1p,
                                 sign, floor, ceil, round, trunc)}
UNARY.update(neg=neg, conjugate=conjugate, arcsin=arcsin, arcsinh=arcsinh, arctan=arctan,
             arctanh=arctanh)

__all__ = ["UNARY", *UNARY]
