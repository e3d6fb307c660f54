"""jax transformations that take and return laxarray arrays.

``jax.jit``/``jax.vmap`` already accept laxarray arrays (they are pytrees); these adapters
exist for the transformations whose *output* jax checks: ``jax.grad`` insists on a scalar
jax array, so ``laxarray.grad`` unwraps a 0-d ``Array`` result first.  Arguments and
results are laxarray arrays throughout; NumPy/jax inputs are converted.

Each transformed function runs in jax's 64-bit mode from its call to its return
(``jaxapi.wide``, in the calling thread only): NumPy float64/int64 arguments keep their
dtypes, and the backward pass of reverse mode -- which jax runs after laxarray's own calls
have returned -- builds its float64 cotangents as float64.  The user's jax code inside
the function runs in that mode too.
"""

from __future__ import annotations

import functools
import inspect

import jax

from laxarray._core.jaxapi import in_wide_mode
from laxarray._core.kernel import jit_function
from laxarray.array_api._array import Array, wrap


def _is_array(x):
    return isinstance(x, Array)


def _unwrap_tree(tree):
    return jax.tree_util.tree_map(lambda a: a._value if isinstance(a, Array) else a, tree,
                                  is_leaf=_is_array)


def _wrap_tree(tree):
    return jax.tree_util.tree_map(lambda a: wrap(a) if isinstance(a, jax.Array) else a, tree,
                                  is_leaf=_is_array)


def _raw_output(fun, has_aux=False):
    @functools.wraps(fun)
    def inner(*args, **kwargs):
        out = fun(*_wrap_tree(args), **_wrap_tree(kwargs))
        if has_aux:
            value, aux = out
            return _unwrap_tree(value), aux
        return _unwrap_tree(out)
    return inner


def grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    """Gradient of a scalar-valued function. jax: jax.grad, for laxarray arrays."""
    g = jax.grad(_raw_output(fun, has_aux), argnums=argnums, has_aux=has_aux,
                 holomorphic=holomorphic, allow_int=allow_int)

    @in_wide_mode
    @functools.wraps(fun)
    def wrapped(*args, **kwargs):
        return _wrap_tree(g(*_unwrap_tree(args), **_unwrap_tree(kwargs)))
    return wrapped


def value_and_grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    """Value and gradient. jax: jax.value_and_grad, for laxarray arrays."""
    g = jax.value_and_grad(_raw_output(fun, has_aux), argnums=argnums, has_aux=has_aux,
                           holomorphic=holomorphic, allow_int=allow_int)

    @in_wide_mode
    @functools.wraps(fun)
    def wrapped(*args, **kwargs):
        return _wrap_tree(g(*_unwrap_tree(args), **_unwrap_tree(kwargs)))
    return wrapped


def _adapt(transform, doc):
    def adapter(fun, *targs, **tkwargs):
        t = transform(_raw_output(fun), *targs, **tkwargs)

        @in_wide_mode
        @functools.wraps(fun)
        def wrapped(*args, **kwargs):
            return _wrap_tree(t(*_unwrap_tree(args), **_unwrap_tree(kwargs)))
        return wrapped
    adapter.__name__ = transform.__name__
    adapter.__doc__ = doc
    # jax's own parameters: help() and the documentation show them, not (*targs, **tkwargs)
    adapter.__signature__ = inspect.signature(transform)
    return adapter


jacfwd = _adapt(jax.jacfwd, "Forward-mode Jacobian. jax: jax.jacfwd, for laxarray arrays.")
jacrev = _adapt(jax.jacrev, "Reverse-mode Jacobian. jax: jax.jacrev, for laxarray arrays.")
hessian = _adapt(jax.hessian, "Hessian (forward over reverse). jax: jax.hessian, for laxarray "
                 "arrays.")


@in_wide_mode
def vjp(fun, *primals, has_aux=False):
    """``(fun(*primals), pullback)``: reverse mode. jax: jax.vjp, for laxarray arrays.

    The pullback runs in 64-bit mode too: float64 cotangents stay float64."""
    out = jax.vjp(_raw_output(fun, has_aux), *_unwrap_tree(primals), has_aux=has_aux)
    pullback = in_wide_mode(lambda ct: _wrap_tree(out[1](_unwrap_tree(ct))))
    if has_aux:
        return _wrap_tree(out[0]), pullback, out[2]
    return _wrap_tree(out[0]), pullback


@in_wide_mode
def jvp(fun, primals, tangents, has_aux=False):
    """``(fun(*primals), tangent out)``: forward mode. jax: jax.jvp, for laxarray arrays."""
    out = jax.jvp(_raw_output(fun, has_aux), _unwrap_tree(tuple(primals)),
                  _unwrap_tree(tuple(tangents)), has_aux=has_aux)
    return _wrap_tree(out)
vmap = _adapt(jax.vmap, "Vectorising map. jax: jax.vmap, for laxarray arrays "
              "(in_axes/out_axes as in jax).")


def jit(fun, **jit_kwargs):
    """Compile with XLA. jax: jax.jit (``static_argnums``/``static_argnames`` as in jax);
    laxarray arrays pass through as pytrees."""
    return jit_function(fun, **jit_kwargs)


__all__ = ["grad", "value_and_grad", "jacfwd", "jacrev", "hessian", "vjp", "jvp", "vmap", "jit"]
