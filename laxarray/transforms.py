"""jax transformations that take and return laxarray arrays.

``jax.jit``/``jax.vmap`` already accept laxarray arrays (they are pytrees); these adapters
exist for the transformations whose *output* jax checks: ``jax.grad`` insists on a scalar
jax array, so ``laxarray.grad`` unwraps a 0-d ``Array`` result first.  Arguments and
results are laxarray arrays throughout; NumPy/jax inputs are converted.
"""

from __future__ import annotations

import functools

import jax

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

    @functools.wraps(fun)
    def wrapped(*args, **kwargs):
        return _wrap_tree(g(*_unwrap_tree(args), **_unwrap_tree(kwargs)))
    return wrapped


def value_and_grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    """Value and gradient. jax: jax.value_and_grad, for laxarray arrays."""
    g = jax.value_and_grad(_raw_output(fun, has_aux), argnums=argnums, has_aux=has_aux,
                           holomorphic=holomorphic, allow_int=allow_int)

    @functools.wraps(fun)
    def wrapped(*args, **kwargs):
        return _wrap_tree(g(*_unwrap_tree(args), **_unwrap_tree(kwargs)))
    return wrapped


def _adapt(transform, doc):
    def adapter(fun, *targs, **tkwargs):
        t = transform(_raw_output(fun), *targs, **tkwargs)

        @functools.wraps(fun)
        def wrapped(*args, **kwargs):
            return _wrap_tree(t(*_unwrap_tree(args), **_unwrap_tree(kwargs)))
        return wrapped
    adapter.__name__ = transform.__name__
    adapter.__doc__ = doc
    return adapter


jacfwd = _adapt(jax.jacfwd, "Forward-mode Jacobian. jax: jax.jacfwd, for laxarray arrays.")
jacrev = _adapt(jax.jacrev, "Reverse-mode Jacobian. jax: jax.jacrev, for laxarray arrays.")
vmap = _adapt(jax.vmap, "Vectorising map. jax: jax.vmap, for laxarray arrays "
              "(in_axes/out_axes as in jax).")


def jit(fun, **jit_kwargs):
    """Compile with XLA. jax: jax.jit (``static_argnums``/``static_argnames`` as in jax);
    laxarray arrays pass through as pytrees."""
    return jit_function(fun, **jit_kwargs)


__all__ = ["grad", "value_and_grad", "jacfwd", "jacrev", "vmap", "jit"]
