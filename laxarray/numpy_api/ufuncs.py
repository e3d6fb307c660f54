"""NumPy's ufunc protocol: ``reduce``, ``accumulate``, ``outer`` and ``at`` on binary functions.

The standard's binary functions stay plain functions (their call path is the fast eager
dispatch); the arithmetic, comparison-free ones get the ufunc methods attached, and
``isinstance(laxarray.add, laxarray.ufunc)`` holds.  ``frompyfunc`` wraps any Python
function of laxarray arrays.  Reductions of ``add``/``multiply``/``maximum``/... use the
matching reduction; others fold in order with ``lax.scan`` (as NumPy's loop does).
"""

from __future__ import annotations

import jax

import laxarray.array_api as _api
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail, fail_text
from laxarray._core.validate import check_int, normalize_axis
from laxarray.array_api.creation import asarray


class _UfuncMeta(type):
    def __instancecheck__(cls, obj):
        if type.__instancecheck__(cls, obj):
            return True
        attached = getattr(obj, "_ufunc", None)
        return attached is not None and type.__instancecheck__(cls, attached)


def _subtract_reduce(x, axis, keepdims):
    first = _api.take(x, asarray([0]), axis=axis)
    rest = _api.sum(_api.take(x, _api.arange(1, x.shape[axis]), axis=axis), axis=axis,
                    keepdims=True)
    out = _api.subtract(first, rest)
    return out if keepdims else _api.squeeze(out, axis=axis)


#: standard function name -> (identity, reduction, accumulation, x.at[...] method)
_KNOWN = {
    "add": (0, _api.sum, _api.cumulative_sum, "add"),
    "multiply": (1, _api.prod, _api.cumulative_prod, "multiply"),
    "maximum": (None, _api.max, None, "max"),
    "minimum": (None, _api.min, None, "min"),
    "logical_and": (True, _api.all, None, None),
    "logical_or": (False, _api.any, None, None),
    "subtract": (None, None, None, "subtract"),
    "divide": (None, None, None, None),
    "pow": (None, None, None, None),
    "bitwise_and": (-1, None, None, None),
    "bitwise_or": (0, None, None, None),
    "bitwise_xor": (0, None, None, None),
    "logical_xor": (False, None, None, None),
    "hypot": (0, None, None, None),
    "logaddexp": (None, None, None, None),
    "copysign": (None, None, None, None),
    "atan2": (None, None, None, None),
    "remainder": (None, None, None, None),
    "floor_divide": (None, None, None, None),
}


class ufunc(metaclass=_UfuncMeta):
    """A binary function with NumPy's ufunc methods (``reduce``, ``accumulate``, ``outer``,
    ``at``); build one with :func:`frompyfunc`.  Under ``jax.jit`` ``axis`` is static."""

    def __init__(self, func, nin=2, nout=1, *, name=None, identity=None):
        self._func = func
        self.nin, self.nout = nin, nout
        self.identity = identity
        self.__name__ = name or getattr(func, "__name__", "ufunc")
        self.__doc__ = getattr(func, "__doc__", None)
        known = _KNOWN.get(self.__name__) if func is getattr(_api, self.__name__, None) \
            else None
        self._reducer, self._accumulator, self._at = (known or (None,) * 4)[1:]

    def __call__(self, *args, **kwargs):
        return self._func(*args, **kwargs)

    def __repr__(self):
        return f"<laxarray.ufunc '{self.__name__}'>"

    def _binary(self, method):
        if self.nin != 2 or self.nout != 1:
            fail_text(ValueError, f"{self.__name__}.{method}",
                      "only binary single-output ufuncs have this method")

    def reduce(self, a, axis=0, dtype=None, out=None, keepdims=False, initial=None,
               where=None):
        """Fold ``a`` along ``axis`` (``None``: all axes) with the binary function."""
        fn = f"{self.__name__}.reduce"
        self._binary("reduce")
        if out is not None or where is not None:
            fail_text(TypeError, fn, "'out' and 'where' are not supported")
        x = asarray(a)
        if dtype is not None:
            x = _api.astype(x, _dt.canonicalize_dtype(fn, dtype))
        if axis is None:
            x, axis = _api.reshape(x, (-1,)), 0
            if keepdims:
                fail_text(ValueError, fn, "keepdims=True needs an integer 'axis'")
        axis = normalize_axis(fn, axis, x.ndim)
        if initial is not None:
            shape = list(x.shape)
            shape[axis] = 1
            x = _api.concat([_api.full(tuple(shape), initial, dtype=x.dtype), x], axis=axis)
        if x.shape[axis] == 0:
            if self.identity is None:
                fail_text(ValueError, fn, "an empty reduction of a ufunc without identity "
                                          "needs 'initial'")
            shape = list(x.shape)
            shape[axis] = 1
            x = _api.full(tuple(shape), self.identity, dtype=x.dtype)
        if self._reducer is not None:
            return self._reducer(x, axis=axis, keepdims=keepdims)
        if self.__name__ == "subtract":
            return _subtract_reduce(x, axis, keepdims)
        xs = _api.moveaxis(x, axis, 0)
        res, _ = jax.lax.scan(lambda c, v: (self._func(c, v), None), xs[0], xs[1:])
        return _api.expand_dims(res, axis=axis) if keepdims else res

    def accumulate(self, a, axis=0, dtype=None, out=None):
        """Running fold of ``a`` along ``axis`` (same shape as ``a``)."""
        fn = f"{self.__name__}.accumulate"
        self._binary("accumulate")
        if out is not None:
            fail_text(TypeError, fn, "'out' is not supported")
        x = asarray(a)
        if dtype is not None:
            x = _api.astype(x, _dt.canonicalize_dtype(fn, dtype))
        axis = normalize_axis(fn, axis, x.ndim)
        if self._accumulator is not None:
            return self._accumulator(x, axis=axis, dtype=x.dtype)
        if x.shape[axis] == 0:
            return x
        xs = _api.moveaxis(x, axis, 0)

        def step(c, v):
            n = self._func(c, v)
            return n, n
        _, rest = jax.lax.scan(step, xs[0], xs[1:])
        return _api.moveaxis(_api.concat([xs[:1], rest], axis=0), 0, axis)

    def outer(self, A, B, /):
        """``f(A[i, j, ...], B[k, l, ...])`` over all pairs: shape ``A.shape + B.shape``."""
        self._binary("outer")
        a, b = asarray(A), asarray(B)
        return self._func(_api.reshape(a, tuple(a.shape) + (1,) * b.ndim), b)

    def at(self, a, indices, b=None, /, *, inplace=False):
        """``a`` with ``f(a[indices], b)`` applied at ``indices``, repeated indices applied
        repeatedly (unbuffered, as NumPy); returns a new array (``inplace`` must be False)."""
        fn = f"{self.__name__}.at"
        if inplace:
            fail_text(ValueError, fn, "inplace=True is impossible: laxarray arrays are "
                                      "immutable; use the returned array")
        if self._at is None or b is None:
            fail_text(NotImplementedError, fn, "only add, subtract, multiply, maximum and "
                                               "minimum have 'at'")
        x = asarray(a)
        ref = x.at[indices]
        if self._at == "subtract":
            return ref.add(_api.negative(asarray(b)))
        return getattr(ref, self._at)(b)


def frompyfunc(func, /, nin, nout, *, identity=None):
    """A :class:`ufunc` from a Python function of laxarray arrays (it must broadcast and be
    traceable for ``reduce``/``accumulate``, which run it in ``lax.scan``)."""
    if not callable(func):
        fail(TypeError, "frompyfunc", "a callable 'func'", func)
    nin = check_int("frompyfunc", nin, "nin", minimum=1)
    nout = check_int("frompyfunc", nout, "nout", minimum=1)
    return ufunc(func, nin, nout, identity=identity)


def _attach():
    for name, (identity, *_) in _KNOWN.items():
        fn = getattr(_api, name)
        u = ufunc(fn, 2, 1, name=name, identity=identity)
        fn._ufunc = u
        fn.nin, fn.nout, fn.identity = 2, 1, identity
        fn.reduce, fn.accumulate, fn.outer, fn.at = u.reduce, u.accumulate, u.outer, u.at


_attach()

__all__ = ["ufunc", "frompyfunc"]
