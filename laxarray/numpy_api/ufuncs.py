"""NumPy's ufunc protocol: ``reduce``, ``accumulate``, ``outer`` and ``at`` on binary functions.

The standard's binary functions stay plain functions (their call path is the fast eager
dispatch); the arithmetic, comparison-free ones get the ufunc methods attached, and
``isinstance(laxarray.add, laxarray.ufunc)`` holds.  ``frompyfunc`` wraps any Python
function of laxarray arrays.  Reductions of ``add``/``multiply``/``maximum``/... use the
matching reduction; others fold in order with ``lax.scan`` (as NumPy's loop does).
"""

from __future__ import annotations

import functools
import math

import jax

import laxarray.array_api as _api
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail, fail_text
from laxarray._core.kernel import kernel
from laxarray._core.validate import check_bool, check_int, normalize_axes, normalize_axis
from laxarray.array_api._calls import call
from laxarray.array_api._array import wrap
from laxarray.array_api.creation import asarray
from laxarray.numpy_api._edit_put import _check_inplace, finish_in_place


class _UfuncMeta(type):
    def __instancecheck__(cls, obj):
        if type.__instancecheck__(cls, obj):
            return True
        attached = getattr(obj, "_ufunc", None)
        return attached is not None and type.__instancecheck__(cls, attached)


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
    "logaddexp": (-math.inf, None, None, None),
    "copysign": (None, None, None, None),
    "atan2": (None, None, None, None),
    "remainder": (None, None, None, None),
    "floor_divide": (None, None, None, None),
}


@functools.lru_cache(maxsize=None)
def _fold_dtype(func, dtype):
    """The dtype ``func`` gives for two operands of ``dtype`` (``divide``: int -> float64)."""
    one = _api.ones((), dtype=dtype)
    return func(one, one).dtype


@kernel(static=("func", "accumulate"))
def _fold_kernel(xs, *, func, accumulate):
    """Fold the leading axis of ``xs`` in order with the binary ``func`` of laxarray arrays
    (``lax.scan``, as NumPy's loop); ``accumulate``: every partial result, else the last."""
    def step(carry, v):
        new = func(wrap(carry), wrap(v))._value
        return new, (new if accumulate else None)
    last, every = jax.lax.scan(step, xs[0], xs[1:])
    return jax.lax.concatenate([xs[:1], every], 0) if accumulate else last


def _initial(value, dtype):
    """``initial`` (or an identity) as a 0-d array of ``dtype``, cast as NumPy casts it."""
    return _api.astype(asarray(value), dtype)


#: ufuncs whose reductions may run over several axes at once (NumPy's "reorderable").
_REORDERABLE = frozenset({"add", "multiply", "maximum", "minimum", "logical_and", "logical_or",
                          "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "hypot",
                          "logaddexp"})
#: reductions that take a ``dtype`` (the others keep the input's)
_TYPED = (_api.sum, _api.prod)


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
        self._known = known is not None

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
        """Fold ``a`` along ``axis`` with the binary function. NumPy: numpy.ufunc.reduce.

        ``axis`` may be ``None`` (all axes) or a tuple only for reorderable ufuncs (``add``,
        ``multiply``, ``maximum``, ``logical_and``, ``bitwise_or``, ...), as in NumPy;
        ``initial`` is the first operand of the fold.  ``axis``, ``dtype`` and ``keepdims`` are
        static under ``jax.jit``.
        """
        fn = f"{self.__name__}.reduce"
        self._binary("reduce")
        if out is not None or where is not None:
            fail_text(TypeError, fn, "'out' and 'where' are not supported")
        keepdims = check_bool(fn, keepdims, "keepdims")
        x, dt = self._operand(fn, a, dtype)
        axes = normalize_axes(fn, axis, x.ndim)
        if len(axes) > 1 and self.__name__ not in _REORDERABLE:
            fail_text(ValueError, fn, f"reduction operation '{self.__name__}' is not "
                                      "reorderable, so at most one axis may be specified")
        if initial is None and self._reducer is None and self.identity is not None:
            initial = self.identity  # NumPy folds from the identity: hypot.reduce([-1.]) == 1
        if not axes and self._reducer is None:
            return x if initial is None else self._func(_initial(initial, x.dtype), x)
        kept = tuple(1 if i in axes else n for i, n in enumerate(x.shape))
        out_shape = kept if keepdims else tuple(n for i, n in enumerate(x.shape)
                                                if i not in axes)
        if self._reducer is not None and (x.size or self.identity is not None):
            kwargs = {"dtype": dt} if dt is not None and self._reducer in _TYPED else {}
            res = self._reducer(x, axis=axes, keepdims=keepdims, **kwargs)
            return res if initial is None else self._func(res, _initial(initial, res.dtype))
        if math.prod(x.shape[i] for i in axes) == 0:
            fill = self.identity if initial is None else initial
            if fill is None:
                fail_text(ValueError, fn, "an empty reduction of a ufunc without identity "
                                          "needs 'initial'")
            return _api.broadcast_to(_initial(fill, x.dtype), out_shape)
        # one folded axis in front: the reduced axes, in order (reorderable ufuncs only if > 1)
        rest = tuple(i for i in range(x.ndim) if i not in axes)
        folded = (math.prod(x.shape[i] for i in axes),) + tuple(x.shape[i] for i in rest)
        xs = _api.reshape(_api.permute_dims(x, axes + rest), folded)
        if initial is not None:
            first = _api.broadcast_to(_initial(initial, x.dtype), (1,) + tuple(xs.shape[1:]))
            xs = _api.concat([first, xs])
        if self.__name__ == "subtract":
            res = _api.subtract(xs[0], _api.sum(xs[1:], axis=0, dtype=x.dtype))
        else:
            res = call(_fold_kernel, xs, func=self._func, accumulate=False)
        return _api.reshape(res, out_shape)

    def _operand(self, fn, a, dtype):
        """``(array, dtype or None)``: ``a`` cast to ``dtype`` (if given) and to the dtype the
        function computes in (``divide`` of integers folds in float64, logical ufuncs in bool)."""
        x = asarray(a)
        dt = None if dtype is None else _dt.canonicalize_dtype(fn, dtype)
        if dt is not None:
            x = _api.astype(x, dt, copy=False)
        if self.__name__.startswith("logical_"):
            return _api.astype(x, _dt.bool_, copy=False), dt
        if self._reducer is None and self._known:  # a fold carries the function's result dtype
            x = _api.astype(x, _fold_dtype(self._func, x.dtype), copy=False)
        return x, dt

    def accumulate(self, a, axis=0, dtype=None, out=None):
        """Running fold of ``a`` along ``axis`` (same shape as ``a``).
        NumPy: numpy.ufunc.accumulate. ``axis`` and ``dtype`` are static under ``jax.jit``."""
        fn = f"{self.__name__}.accumulate"
        self._binary("accumulate")
        if out is not None:
            fail_text(TypeError, fn, "'out' is not supported")
        x, dt = self._operand(fn, a, dtype)
        axis = normalize_axis(fn, axis, x.ndim)
        if self._accumulator is not None:
            return self._accumulator(x, axis=axis, dtype=dt)
        if x.shape[axis] == 0:
            return x
        xs = _api.moveaxis(x, axis, 0)
        out = call(_fold_kernel, xs, func=self._func, accumulate=True)
        return _api.moveaxis(out, 0, axis)

    def outer(self, A, B, /):
        """``f(A[i, j, ...], B[k, l, ...])`` over all pairs: shape ``A.shape + B.shape``."""
        self._binary("outer")
        a, b = asarray(A), asarray(B)
        return self._func(_api.reshape(a, tuple(a.shape) + (1,) * b.ndim), b)

    def at(self, a, indices, b=None, /, *, inplace=True):
        """Apply ``f(a[indices], b)`` at ``indices`` in place, repeated indices applied
        repeatedly (unbuffered, as NumPy); returns None.  ``inplace=False`` (jax.numpy's
        keyword) returns the new array and leaves ``a``.  As NumPy's, the result is
        computed in the promoted dtype and cast back to ``a``'s unsafely (``int32`` with
        ``1.5`` added: truncated)."""
        fn = f"{self.__name__}.at"
        _check_inplace(fn, inplace, a, "a")
        if self._at is None or b is None:
            fail_text(NotImplementedError, fn, "only add, subtract, multiply, maximum and "
                                               "minimum have 'at'")
        x = asarray(a)
        ref = x.at[indices]
        op, value = self._at, b
        if op == "subtract":  # a Python scalar b takes x's dtype first (NEP 50)
            if x.dtype == _dt.bool_:  # NumPy's boolean subtract raises
                _api.subtract(x, x)
            weak = _dt.scalar_pytype(b) is not None
            vb = asarray(b, dtype=_dt.result_type(x.dtype, b)) if weak else asarray(b)
            op, value = "add", _api.negative(vb)
        return finish_in_place(inplace, a, ref._update(op, value, False, False, None,
                                                       casting="unsafe"))


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
