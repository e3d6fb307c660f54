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

from laxarray._core.docstrings import fill
from laxarray._core.jaxapi import in_wide_mode
from laxarray._core.runtime.kernel import jit_function
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

def _on_laxarrays(transformed, fun):
    """``transformed`` (``fun`` transformed by jax, on jax arrays) as a function that takes
    and returns laxarray arrays and runs in jax's 64-bit mode, named and documented as
    ``fun``."""
    @in_wide_mode
    @functools.wraps(fun)
    def wrapped(*args, **kwargs):
        return _wrap_tree(transformed(*_unwrap_tree(args), **_unwrap_tree(kwargs)))
    return wrapped


# The numpydoc parts grad and value_and_grad share, and the note on 64-bit mode of every
# adapter written out here (filled in by ``fill``).
_GRAD_PARAMS = """
Parameters
----------
fun : callable
    A function of laxarray (or jax/NumPy) arrays returning a scalar: a 0-d ``Array``
    (or, with ``has_aux``, a pair ``(scalar, aux)``).
argnums : int or sequence of ints, optional
    The positional arguments to differentiate with respect to; default 0.
has_aux : bool, optional
    Whether ``fun`` returns ``(value, aux)``; ``aux`` is passed through.
holomorphic : bool, optional
    Whether ``fun`` is holomorphic (complex inputs and outputs).
allow_int : bool, optional
    Allow integer inputs (their gradient is float0), as jax's."""

_GRAD_RAISES_NOTES = """
Raises
------
TypeError
    When called, if ``fun``'s result is not a real scalar, or a differentiated input is
    an integer without ``allow_int`` (jax's errors).

Notes
-----
Static under ``jax.jit``: ``argnums``, ``has_aux``, ``holomorphic``, ``allow_int``."""

_WIDE = """
The transformed function runs in jax's 64-bit mode from its call to its return (in the
calling thread only), so NumPy float64/int64 arguments keep their dtypes; jax's own
setting is left as it was."""



@fill(params=_GRAD_PARAMS, raises_notes=_GRAD_RAISES_NOTES, wide=_WIDE)
def grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    """Return a function that computes the gradient of a scalar-valued function.

    jax: jax.grad, for laxarray arrays.

    {params}

    Returns
    -------
    callable
        A function of ``fun``'s arguments returning the gradient as laxarray arrays, shaped
        as the ``argnums`` arguments (a tuple for a tuple of ``argnums``; ``(grad, aux)``
        with ``has_aux``).

    {raises_notes}

    ``jax.grad`` needs a jax scalar; this adapter unwraps a 0-d ``Array`` result first.
    {wide}

    Examples
    --------
    >>> import laxarray as la
    >>> f = lambda x: la.sum(x ** 2)
    >>> la.grad(f)(la.asarray([1.0, 2.0]))
    Array([2., 4.])
    >>> g = la.grad(lambda x, y: la.sum(x * y), argnums=1)
    >>> g(la.asarray([1.0, 2.0]), la.asarray([3.0, 4.0]))
    Array([1., 2.])
    """
    return _on_laxarrays(jax.grad(_raw_output(fun, has_aux), argnums=argnums, has_aux=has_aux,
                                  holomorphic=holomorphic, allow_int=allow_int), fun)


@fill(params=_GRAD_PARAMS, raises_notes=_GRAD_RAISES_NOTES, wide=_WIDE)
def value_and_grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    """Return a function that computes a scalar-valued function's value and gradient.

    jax: jax.value_and_grad, for laxarray arrays.

    {params}

    Returns
    -------
    callable
        A function of ``fun``'s arguments returning ``(value, gradient)`` (``((value, aux),
        gradient)`` with ``has_aux``), as laxarray arrays.

    {raises_notes}

    {wide}

    Examples
    --------
    >>> import laxarray as la
    >>> la.value_and_grad(lambda x: la.sum(x ** 2))(la.asarray([1.0, 2.0]))
    (Array(5.), Array([2., 4.]))
    """
    return _on_laxarrays(jax.value_and_grad(_raw_output(fun, has_aux), argnums=argnums,
                                            has_aux=has_aux, holomorphic=holomorphic,
                                            allow_int=allow_int), fun)


def _doc(summary, jax_name, extra_params, returns, example):
    return f"""{summary}

jax: jax.{jax_name}, for laxarray arrays.

Parameters
----------
fun : callable
    A function of laxarray (or jax/NumPy) arrays.
{extra_params}

Returns
-------
callable
    {returns}

Notes
-----
Static under ``jax.jit``: __STATIC__.

These are ``jax.{jax_name}``'s own options, Python values given when transforming; none of the
returned function's arguments is static.

The transformed function takes and returns laxarray arrays and runs in jax's 64-bit mode from
its call to its return.

Examples
--------
>>> import laxarray as la
{example}
"""


def _adapt(transform, doc):
    def adapter(fun, *targs, **tkwargs):
        return _on_laxarrays(transform(_raw_output(fun), *targs, **tkwargs), fun)
    adapter.__name__ = transform.__name__
    # jax's own parameters: help() and the documentation show them, not (*targs, **tkwargs)
    adapter.__signature__ = inspect.signature(transform)
    options = [p for p in adapter.__signature__.parameters if p != "fun"]
    adapter.__doc__ = doc.replace("__STATIC__", ", ".join(f"``{p}``" for p in options))
    return adapter


jacfwd = _adapt(jax.jacfwd, _doc(
    "Return a function that computes the Jacobian by forward-mode differentiation.", "jacfwd",
    "*args, **kwargs\n    ``jax.jacfwd``'s ``argnums``, ``has_aux``, ``holomorphic``.",
    "The Jacobian, of shape ``out.shape + in.shape``.",
    ">>> la.jacfwd(lambda x: x ** 2)(la.asarray([1.0, 2.0]))\n"
    "Array([[2., 0.],\n       [0., 4.]])"))
jacrev = _adapt(jax.jacrev, _doc(
    "Return a function that computes the Jacobian by reverse-mode differentiation.", "jacrev",
    "*args, **kwargs\n    ``jax.jacrev``'s ``argnums``, ``has_aux``, ``holomorphic``,"
    " ``allow_int``.",
    "The Jacobian, of shape ``out.shape + in.shape``.",
    ">>> la.jacrev(lambda x: x ** 2)(la.asarray([1.0, 2.0]))\n"
    "Array([[2., 0.],\n       [0., 4.]])"))
hessian = _adapt(jax.hessian, _doc(
    "Return a function that computes the Hessian (forward over reverse mode).", "hessian",
    "*args, **kwargs\n    ``jax.hessian``'s ``argnums``, ``has_aux``, ``holomorphic``.",
    "The Hessian of a scalar-valued ``fun``.",
    ">>> la.hessian(lambda x: la.sum(x ** 2))(la.asarray([1.0, 2.0]))\n"
    "Array([[2., 0.],\n       [0., 2.]])"))


@in_wide_mode
@fill(wide=_WIDE)
def vjp(fun, *primals, has_aux=False):
    """Compute a function's value and its vector-Jacobian product function (reverse mode).

    jax: jax.vjp, for laxarray arrays.

    Parameters
    ----------
    fun : callable
        A function of laxarray (or jax/NumPy) arrays.
    *primals : array_like
        The point to linearize at.
    has_aux : bool, optional
        Whether ``fun`` returns ``(value, aux)``.

    Returns
    -------
    tuple
        ``(fun(*primals), pullback)`` (and ``aux`` with ``has_aux``):
        ``pullback(cotangent)`` returns a tuple of cotangents, one per primal.

    Raises
    ------
    TypeError
        If a primal is not an array of a differentiable dtype (jax's errors).

    Notes
    -----
    Static under ``jax.jit``: none (the primals are traced).

    The pullback runs in 64-bit mode too: float64 cotangents stay float64.
    {wide}

    Examples
    --------
    >>> import laxarray as la
    >>> y, pullback = la.vjp(lambda x: x ** 2, la.asarray(3.0))
    >>> y, pullback(la.asarray(1.0))
    (Array(9.), (Array(6.),))
    """
    out = jax.vjp(_raw_output(fun, has_aux), *_unwrap_tree(primals), has_aux=has_aux)
    pullback = in_wide_mode(lambda ct: _wrap_tree(out[1](_unwrap_tree(ct))))
    if has_aux:
        return _wrap_tree(out[0]), pullback, out[2]
    return _wrap_tree(out[0]), pullback


@in_wide_mode
@fill(wide=_WIDE)
def jvp(fun, primals, tangents, has_aux=False):
    """Compute a function's value and its Jacobian-vector product (forward mode).

    jax: jax.jvp, for laxarray arrays.

    Parameters
    ----------
    fun : callable
        A function of laxarray (or jax/NumPy) arrays.
    primals : sequence of array_like
        The point, one entry per argument.
    tangents : sequence of array_like
        The tangent vectors, of the primals' shapes and dtypes.
    has_aux : bool, optional
        Whether ``fun`` returns ``(value, aux)``.

    Returns
    -------
    tuple
        ``(fun(*primals), tangent out)`` (and ``aux`` with ``has_aux``).

    Raises
    ------
    TypeError
        If the tangents do not match the primals (jax's errors).

    Notes
    -----
    Static under ``jax.jit``: none.

    {wide}

    Examples
    --------
    >>> import laxarray as la
    >>> la.jvp(lambda x: x ** 2, (la.asarray(3.0),), (la.asarray(1.0),))
    (Array(9.), Array(6.))
    """
    out = jax.jvp(_raw_output(fun, has_aux), _unwrap_tree(tuple(primals)),
                  _unwrap_tree(tuple(tangents)), has_aux=has_aux)
    return _wrap_tree(out)


vmap = _adapt(jax.vmap, _doc(
    "Return a function that maps ``fun`` over an axis of its arguments (vectorizing map).",
    "vmap",
    "*args, **kwargs\n    ``jax.vmap``'s ``in_axes``, ``out_axes``, ``axis_name``,"
    " ``axis_size`` ...",
    "The batched function.",
    ">>> la.vmap(lambda x: la.sum(x))(la.ones((3, 2)))\n"
    "Array([2., 2., 2.])\n"
    ">>> la.vmap(lambda x, y: x @ y, in_axes=(0, None))(la.ones((3, 2)), la.ones(2))\n"
    "Array([2., 2., 2.])"))


def jit(fun, **jit_kwargs):
    """Return a function compiled with XLA.

    jax: jax.jit.

    Parameters
    ----------
    fun : callable
        A function of laxarray (or jax/NumPy) arrays.
    **jit_kwargs
        jax.jit's options: ``static_argnums``, ``static_argnames``, ``donate_argnums`` ...

    Returns
    -------
    callable
        The compiled function; laxarray arrays pass through as pytrees.

    Raises
    ------
    TypeError
        When called, if a traced value is used where a static one is needed (jax's errors).

    Notes
    -----
    Static under ``jax.jit``: the arguments that jax.jit's static_argnums and static_argnames
    options (in ``jit_kwargs``) name.

    laxarray's own static arguments (axes, shapes, dtypes ...) must be Python values: pass
    them through ``static_argnums``/``static_argnames`` or close over them.

    Examples
    --------
    >>> import laxarray as la
    >>> la.jit(lambda x: la.sum(x ** 2))(la.asarray([1.0, 2.0]))
    Array(5.)
    >>> la.jit(lambda x, n: x * n, static_argnums=1)(la.asarray([1.0]), 3)
    Array([3.])
    """
    return jit_function(fun, **jit_kwargs)


__all__ = ["grad", "value_and_grad", "jacfwd", "jacrev", "hessian", "vjp", "jvp", "vmap", "jit"]
