"""The bodies of NumPy's ufunc methods -- ``reduce``, ``accumulate``, ``outer``, ``at`` --
and ``frompyfunc``.

The ufunc itself (``laxarray.ufunc``) is built where each function is defined, by its
elementwise decorator (``array_api._ufunc``: ``add``, ``maximum``, ``hypot`` ...), with its
facts (``UfuncFacts``: identity, the reduction and accumulation that are its ``reduce`` and
``accumulate``, its ``x.at[...]`` update) declared in ``array_api._ufunc_facts``; its methods'
bodies are here, a layer above the reductions and shape functions they use, registered in
``_method_bodies.UFUNC_METHODS``.
Reductions of ``add``/``multiply``/``maximum``/... use the matching reduction; others fold
in order with ``lax.scan`` (as NumPy's loop does).
"""

from __future__ import annotations

import functools
import math

import jax

import laxarray.array_api as _api
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail, fail_text
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_bool, check_int, normalize_axes, normalize_axis
from laxarray.array_api._calls import call
from laxarray.array_api._array import wrap
from laxarray.array_api._method_bodies import UFUNC_METHODS
from laxarray.array_api._indexing_at import IndexUpdateRef
from laxarray.array_api._ufunc import UfuncFacts, ufunc
from laxarray.array_api import _ufunc_facts  # noqa: F401  (laxarray's ufuncs' facts)
from laxarray.array_api.creation import asarray
from laxarray.numpy_api.editing._put import _check_inplace, finish_in_place
from laxarray._core.jaxapi import eval_shape, in_wide_mode


@functools.lru_cache(maxsize=None)
def _fold_dtype(func, dtype):
    """The dtype ``func`` gives for two operands of ``dtype`` (``divide``: int -> float64),
    read from its trace: nothing is compiled or run."""
    one = jax.ShapeDtypeStruct((), dtype)
    return eval_shape(lambda a, b: func(wrap(a), wrap(b))._value, one, one).dtype


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


#: reductions that take a ``dtype`` (the others keep the input's)
_TYPED = (_api.sum, _api.prod)


#: the facts of a user's ufunc (frompyfunc): no reduction, accumulation or ``at`` of its own
_USERS = UfuncFacts()


def _facts(u):
    """``u``'s :class:`UfuncFacts` (laxarray's ufuncs': ``array_api._ufunc_facts``)."""
    return _USERS if u._facts is None else u._facts


def _check_binary(u, method):
    if u.nin != 2 or u.nout != 1:
        fail_text(ValueError, f"{u.__name__}.{method}",
                  "only binary single-output ufuncs have this method")


def _operand(u, fn, a, dtype, folds):
    """``(array, dtype or None)``: ``a`` cast to ``dtype`` (if given) and, where ``folds``
    (the method folds with the function itself), to the dtype a laxarray ufunc gives for
    two operands of that dtype (``divide`` of integers folds in float64, the logical
    ufuncs in bool)."""
    x = asarray(a)
    dt = None if dtype is None else _dt.canonicalize_dtype(fn, dtype)
    if dt is not None:
        x = _api.astype(x, dt, copy=False)
    if folds and u._facts is not None:
        x = _api.astype(x, _fold_dtype(u.__call__, x.dtype), copy=False)
    return x, dt


def reduce(self, a, axis=0, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """Fold ``a`` along ``axis`` with the binary function. NumPy: numpy.ufunc.reduce.

    ``axis`` may be ``None`` (all axes) or a tuple only for reorderable ufuncs (``add``,
    ``multiply``, ``maximum``, ``logical_and``, ``bitwise_or``, ...), as in NumPy;
    ``initial`` is the first operand of the fold.  ``axis``, ``dtype`` and ``keepdims`` are
    static under ``jax.jit``.
    """
    fn = f"{self.__name__}.reduce"
    _check_binary(self, "reduce")
    if out is not None or where is not None:
        fail_text(TypeError, fn, "'out' and 'where' are not supported")
    keepdims = check_bool(fn, keepdims, "keepdims")
    facts = _facts(self)
    reducer = facts.reduce
    x = asarray(a)
    fast = reducer is not None and (x.size or self.identity is not None)
    x, dt = _operand(self, fn, x, dtype, not fast)
    axes = normalize_axes(fn, axis, x.ndim)
    if len(axes) > 1 and not facts.reorderable:
        fail_text(ValueError, fn, f"reduction operation '{self.__name__}' is not "
                                  "reorderable, so at most one axis may be specified")
    if initial is None and reducer is None and self.identity is not None:
        initial = self.identity  # NumPy folds from the identity: hypot.reduce([-1.]) == 1
    if not axes and reducer is None:
        return x if initial is None else self(_initial(initial, x.dtype), x)
    kept = tuple(1 if i in axes else n for i, n in enumerate(x.shape))
    out_shape = kept if keepdims else tuple(n for i, n in enumerate(x.shape) if i not in axes)
    if fast:
        kwargs = {"dtype": dt} if dt is not None and reducer in _TYPED else {}
        res = reducer(x, axis=axes, keepdims=keepdims, **kwargs)
        return res if initial is None else self(res, _initial(initial, res.dtype))
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
    if self is _api.subtract:
        res = _api.subtract(xs[0], _api.sum(xs[1:], axis=0, dtype=x.dtype))
    else:
        res = call(_fold_kernel, xs, func=self.__call__, accumulate=False)
    return _api.reshape(res, out_shape)


def accumulate(self, a, axis=0, dtype=None, out=None):
    """Running fold of ``a`` along ``axis`` (same shape as ``a``).
    NumPy: numpy.ufunc.accumulate. ``axis`` and ``dtype`` are static under ``jax.jit``."""
    fn = f"{self.__name__}.accumulate"
    _check_binary(self, "accumulate")
    if out is not None:
        fail_text(TypeError, fn, "'out' is not supported")
    accumulator = _facts(self).accumulate
    x, dt = _operand(self, fn, a, dtype, accumulator is None)
    axis = normalize_axis(fn, axis, x.ndim)
    if accumulator is not None:
        return accumulator(x, axis=axis, dtype=dt)
    if x.shape[axis] == 0:
        return x
    xs = _api.moveaxis(x, axis, 0)
    out = call(_fold_kernel, xs, func=self.__call__, accumulate=True)
    return _api.moveaxis(out, 0, axis)


def outer(self, A, B, /):
    """``f(A[i, j, ...], B[k, l, ...])`` over all pairs: shape ``A.shape + B.shape``.
    NumPy: numpy.ufunc.outer."""
    _check_binary(self, "outer")
    a, b = asarray(A), asarray(B)
    return self(_api.reshape(a, tuple(a.shape) + (1,) * b.ndim), b)


def at(self, a, indices, b=None, /, *, inplace=True):
    """Apply ``f(a[indices], b)`` at ``indices`` in place, repeated indices applied
    repeatedly (unbuffered, as NumPy); returns None. NumPy: numpy.ufunc.at.

    ``inplace=False`` (jax.numpy's keyword) returns the new array and leaves ``a``.  As
    NumPy's, the result is computed in the promoted dtype and cast back to ``a``'s unsafely
    (``int32`` with ``1.5`` added: truncated)."""
    fn = f"{self.__name__}.at"
    _check_inplace(fn, inplace, a, "a")
    update = _facts(self).at   # an IndexUpdateRef method: ``op`` of its ``_update`` is its name
    if update is None or b is None:
        fail_text(NotImplementedError, fn, "only add, subtract, multiply, maximum and "
                                           "minimum have 'at'")
    x = asarray(a)
    ref = x.at[indices]
    value = b
    if update is IndexUpdateRef.subtract:  # a Python scalar b takes x's dtype first (NEP 50)
        if x.dtype == _dt.bool_:  # NumPy's boolean subtract raises
            _api.subtract(x, x)
        weak = _dt.scalar_pytype(b) is not None
        vb = asarray(b, dtype=_dt.result_type(x.dtype, b)) if weak else asarray(b)
        update, value = IndexUpdateRef.add, _api.negative(vb)
    # the update method's own body, with NumPy's unsafe cast back (``ufunc.at``'s)
    return finish_in_place(inplace, a, ref._update(update.__name__, value, False, False,
                                                   None, casting="unsafe"))


@in_wide_mode
def frompyfunc(func, /, nin, nout, *, identity=None):
    """A :class:`ufunc` from a Python function of laxarray arrays (it must broadcast and be
    traceable for ``reduce``/``accumulate``, which run it in ``lax.scan``).
    NumPy: numpy.frompyfunc."""
    if not callable(func):
        fail(TypeError, "frompyfunc", "a callable 'func'", func)
    nin = check_int("frompyfunc", nin, "nin", minimum=1)
    nout = check_int("frompyfunc", nout, "nout", minimum=1)
    return ufunc(func, nin, nout, identity=identity)


# ``laxarray.ufunc`` declares these methods in its class body and looks them up here
UFUNC_METHODS.update(reduce=reduce, accumulate=accumulate, outer=outer, at=at)

__all__ = ["ufunc", "frompyfunc"]
