"""User checks: ``check``, ``debug_check``, ``check_error`` and the primitives they bind.

Outside any trace, ``check`` raises at once and ``debug_check`` does nothing.  Under a trace they
bind ``check_p`` (one scalar predicate plus the format arguments); ``checkify`` turns that into an
update of its ``Error`` value.  A ``check_p`` that reaches compilation without ``checkify`` (plain
``jax.jit``) raises an error saying to wrap the function in ``checkify``; a ``debug_check``
compiles to nothing.  ``make_jaxpr`` shows the check, and jax's dead-code elimination (inside
``jax.checkpoint``, say) never drops it, although it has no outputs.
"""

from __future__ import annotations

import contextlib
import threading

import jax
import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core.errors import fail
from laxarray._core.jaxapi import Primitive, is_tracer
from laxarray._core.jax_tracing import (define_batching_rule, define_jvp_rule, define_lowering,
                                           keep_when_unused)
from laxarray.checkify.error import (
    Error, FailedCheckError, caller_frames, new_site, site, user_location)
from laxarray._core import dtypes as _dt

_LOCAL = threading.local()


def _counter(name: str) -> int:
    return getattr(_LOCAL, name, 0)


@contextlib.contextmanager
def _bump(name: str):
    setattr(_LOCAL, name, _counter(name) + 1)
    try:
        yield
    finally:
        setattr(_LOCAL, name, _counter(name) - 1)


@contextlib.contextmanager
def tracing_checkify():
    """Context: ``checkify`` is tracing the user's function (checks bind even on constants;
    the primal functions of ``jax.custom_vjp`` bind theirs even where jax runs only the
    forward rule, see :func:`_vjp_call_with_primal_checks`)."""
    with _bump("depth"), _primal_checks():
        yield


# --- checks in the primal of a jax.custom_vjp ---------------------------------------------
#
# Under differentiation jax runs a custom_vjp's forward rule, never its primal function, so
# a check written in the primal is not traced at all (jax's own checkify drops it too: jax
# PR 35871).  While checkify traces, jax.custom_vjp calls are routed through the wrapper
# below, which also traces the primal on the same (gradient-stopped) arguments for its
# checks only: its outputs are unused (XLA removes the duplicate work), and outside
# checkify's trace -- other threads included -- the call is jax's unchanged.  jax exposes no
# hook for this, so the wrapper is installed on the class for the duration of the trace.

_VJP_CALL = jax.custom_vjp.__call__
_PATCH_LOCK = threading.Lock()
_PATCH_USERS = [0]


def _stop(x):
    return lax.stop_gradient(x) if isinstance(x, (jax.Array, np.ndarray)) or is_tracer(x) \
        else x


def _vjp_call_with_primal_checks(self, *args, **kwargs):
    out = _VJP_CALL(self, *args, **kwargs)
    if _counter("depth") and not _counter("primal") and not _counter("suppress"):
        with _bump("primal"):  # the primal's own custom_vjp calls run as jax's
            self.fun(*jax.tree_util.tree_map(_stop, args),
                     **jax.tree_util.tree_map(_stop, kwargs))
    return out


@contextlib.contextmanager
def _primal_checks():
    with _PATCH_LOCK:
        _PATCH_USERS[0] += 1
        jax.custom_vjp.__call__ = _vjp_call_with_primal_checks
    try:
        yield
    finally:
        with _PATCH_LOCK:
            _PATCH_USERS[0] -= 1
            if not _PATCH_USERS[0]:
                jax.custom_vjp.__call__ = _VJP_CALL


def suppress_checks():
    """Context: drop every check bound inside (used where ``checkify`` already ran them)."""
    return _bump("suppress")


class _CheckPrimitive(Primitive):
    """A primitive whose binds are dropped inside :func:`suppress_checks`."""

    def bind(self, *args, **params):
        """Bind unless checks are suppressed."""
        if _counter("suppress"):
            return []
        return super().bind(*args, **params)


check_p = _CheckPrimitive("check")
check_p.multiple_results = True
check_error_p = _CheckPrimitive("check_error")
check_error_p.multiple_results = True


# --- public functions -----------------------------------------------------------------------

# The numpydoc parts check and debug_check share (filled in by ``fill``).
_PARAMS = """
Parameters
----------
pred : bool or array_like
    A boolean scalar: a Python bool or a 0-d laxarray, jax or NumPy array (traced inside
    ``checkify``).
msg : str
    The message, a ``str.format`` template.
*fmt_args, **fmt_kwargs
    Its arguments: laxarray, jax or NumPy arrays or Python numbers, formatted with their
    runtime values."""

_RAISES = """
Raises
------
TypeError
    If ``pred`` is not a boolean scalar, ``msg`` is not a str, or a format argument is
    not an array or a number."""


@fill(params=_PARAMS, raises=_RAISES)
def check(pred, msg, *fmt_args, **fmt_kwargs):
    """Check that a condition holds; otherwise fail with a formatted message.

    jax: jax.experimental.checkify.check.

    {params}

    Returns
    -------
    None

    {raises}
    FailedCheckError
        Outside any transformation, at once, if ``pred`` is false.
    ValueError
        When traced by ``jax.jit`` (or another staging transformation) without ``checkify``:
        the check could not raise, so the message says to wrap the function in
        :func:`checkify`.

    Notes
    -----
    Static under ``jax.jit``: none.

    ``pred`` and the format arguments are traced values inside ``checkify``.

    Inside :func:`checkify` a false ``pred`` sets the returned ``Error`` (the first failure
    wins) and the computation goes on.  Every message ends with the file, line and function
    of the ``check`` call.

    Examples
    --------

    >>> import laxarray as la
    >>> from laxarray.checkify import checkify, check
    >>> def safe_log(x):
    ...     check(x > 0, "x must be positive, got {}", x)
    ...     return la.log(x)
    >>> err, y = checkify(safe_log)(la.asarray(-1.0))
    >>> err.get()
    'x must be positive, got -1.0 (check failed at ...)'
    >>> check(True, "never raised")
    """
    _check("check", pred, msg, fmt_args, fmt_kwargs, debug=False)


@fill(params=_PARAMS, raises=_RAISES)
def debug_check(pred, msg, *fmt_args, **fmt_kwargs):
    """Check a condition inside :func:`checkify`; do nothing everywhere else.

    jax: jax.experimental.checkify.debug_check.

    {params}

    Returns
    -------
    None

    {raises}

    Notes
    -----
    Static under ``jax.jit``: none.

    Unlike :func:`check`, a false ``pred`` outside ``checkify`` (eagerly or under
    ``jax.jit``) is ignored, so it can stay in production code.

    Examples
    --------

    >>> import laxarray as la
    >>> from laxarray.checkify import checkify, debug_check
    >>> debug_check(False, "ignored outside checkify")
    >>> def f(x):
    ...     debug_check(x > 0, "x is {}", x)
    ...     return x
    >>> checkify(f)(la.asarray(-1.0))[0].get()
    'x is -1.0 (check failed at ...)'
    """
    _check("debug_check", pred, msg, fmt_args, fmt_kwargs, debug=True)


def check_error(error):
    """Raise a returned ``Error``, or merge it into the enclosing :func:`checkify`.

    jax: jax.experimental.checkify.check_error.

    Parameters
    ----------
    error : Error
        An ``Error`` returned by a checkified function.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        If ``error`` is not a :class:`Error`.
    JaxRuntimeError
        Outside any transformation, the error's own exception class (``FailedCheckError``,
        ``NaNError`` ...) if a check failed.

    Notes
    -----
    Static under ``jax.jit``: none.

    Use it to re-raise, inside a checkified function, an ``Error`` returned by an inner
    ``checkify``, or to raise a returned error.

    Examples
    --------

    >>> import laxarray as la
    >>> from laxarray.checkify import checkify, check
    >>> from laxarray.checkify import check_error
    >>> def f(x):
    ...     check(x > 0, "x must be positive")
    ...     return x
    >>> err, _ = checkify(f)(la.asarray(1.0))
    >>> check_error(err)
    >>> err, _ = checkify(f)(la.asarray(-1.0))
    >>> check_error(err)
    Traceback (most recent call last):
        ...
    laxarray.checkify.error.FailedCheckError: x must be positive (check failed at ...)
    """
    if not isinstance(error, Error):
        fail(TypeError, "check_error", "a laxarray.checkify.Error for 'error'", error)
    leaves, (keys, lens) = error.tree_flatten()
    if _counter("depth") == 0 and not any(is_tracer(x) for x in leaves):
        error.throw()
        return
    check_error_p.bind(*leaves, keys=keys, lens=lens, n_batch=0)


# --- implementation -------------------------------------------------------------------------

def _as_leaf(fn, x):
    if isinstance(x, jax.Array) or is_tracer(x):
        return x
    arr = np.asarray(x)
    if arr.dtype.kind not in "biufc":
        fail(TypeError, fn, "arrays or numbers as format arguments", x)
    return arr


def _check(fn, pred, msg, fmt_args, fmt_kwargs, debug):
    if not isinstance(msg, str):
        fail(TypeError, fn, "a str for 'msg'", msg)
    pred_leaves = jax.tree_util.tree_leaves(pred)
    if len(pred_leaves) != 1:
        fail(TypeError, fn, "a boolean scalar for 'pred'", pred)
    pred = _as_leaf(fn, pred_leaves[0])
    if np.dtype(pred.dtype) != np.bool_ or pred.shape != ():
        fail(TypeError, fn, "a boolean scalar for 'pred'", pred)
    leaves, tree = jax.tree_util.tree_flatten((fmt_args, fmt_kwargs))
    leaves = [_as_leaf(fn, x) for x in leaves]
    concrete = not is_tracer(pred) and not any(is_tracer(x) for x in leaves)
    if concrete and _counter("depth") == 0:
        if not debug and not bool(pred):
            s = new_site(FailedCheckError, fn, user_location(caller_frames(2)), msg, tree)
            raise FailedCheckError(s.describe(leaves, None))
        return
    s = new_site(FailedCheckError, fn, user_location(caller_frames(2)), msg, tree)
    check_p.bind(pred, *leaves, code=s.code, n_batch=0, debug=debug)


def first_failing(pred_batch):
    """Flat position of the first ``False`` in a boolean array (0 when all are true)."""
    flat = lax.reshape(pred_batch, (pred_batch.size,))
    return lax.argmin(lax.convert_element_type(flat, np.int32), 0, _dt.default_index())


def _check_impl(pred, *fmt, code, n_batch, debug):
    pred = np.asarray(pred)
    if debug or pred.all():
        return []
    pos = int(np.argmin(pred.ravel()))
    idx = np.unravel_index(pos, pred.shape)
    payload = [np.asarray(x)[idx] for x in fmt]
    text = site(code).describe(payload, None)
    if n_batch:
        text = f"at mapped index {idx[0] if len(idx) == 1 else idx}: {text}"
    raise FailedCheckError(text)


def _check_error_impl(*leaves, keys, lens, n_batch):
    Error.tree_unflatten((keys, lens), list(leaves)).throw()
    return []


def _batch_front(args, dims):
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    out = []
    for a, d in zip(args, dims):
        if d is None:
            a = lax.broadcast(a, (size,))
        elif d != 0:
            perm = (d,) + tuple(i for i in range(a.ndim) if i != d)
            a = lax.transpose(a, perm)
        out.append(a)
    return out


def _check_batch(args, dims, *, n_batch, **params):
    check_p.bind(*_batch_front(args, dims), n_batch=n_batch + 1, **params)
    return [], []


def _check_error_batch(args, dims, *, n_batch, **params):
    check_error_p.bind(*_batch_front(args, dims), n_batch=n_batch + 1, **params)
    return [], []


def _jvp_of(prim):
    def jvp(primals, tangents, **params):
        prim.bind(*primals, **params)
        return [], []
    return jvp


def _staged_without_checkify(prim, params):
    if prim is check_p:
        raise ValueError(
            f"check: a check (at {site(params['code']).where}) is traced by jax.jit (or "
            "another staging transformation) without checkify, so it cannot raise; wrap the "
            "function in laxarray.checkify.checkify(...) and inspect or throw the returned Error")
    raise ValueError(
        "check_error: an Error is traced by jax.jit (or another staging transformation) "
        "without checkify; wrap the function in laxarray.checkify.checkify(...), or return "
        "the Error from the jitted function and call error.throw() outside")


def _check_lowering(ctx, *args, debug, **params):
    if debug:
        return []
    _staged_without_checkify(check_p, params)


def _check_error_lowering(ctx, *args, **params):
    _staged_without_checkify(check_error_p, params)


check_p.def_impl(_check_impl)
check_p.def_abstract_eval(lambda *args, **params: [])
check_error_p.def_impl(_check_error_impl)
check_error_p.def_abstract_eval(lambda *args, **params: [])
define_batching_rule(check_p, _check_batch)
define_batching_rule(check_error_p, _check_error_batch)
define_jvp_rule(check_p, _jvp_of(check_p))
define_jvp_rule(check_error_p, _jvp_of(check_error_p))
define_lowering(check_p, _check_lowering)
define_lowering(check_error_p, _check_error_lowering)
keep_when_unused(check_p)
keep_when_unused(check_error_p)
