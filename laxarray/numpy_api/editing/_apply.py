"""Functions applied over arrays: apply_along_axis, apply_over_axes, vectorize (on
``jax.vmap``), and value choices: piecewise, select, choose.

The user function sees laxarray arrays and may return laxarray arrays, jax/NumPy arrays
or Python scalars; under ``jax.vmap`` it is traced once for all slices, so it must be
traceable (no Python ``if`` on values: use ``laxarray.where``).
"""

from __future__ import annotations

import functools
import re

import jax
import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.jaxapi import is_tracer
from laxarray._core.jax_regions import in_wide_region
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_choice, normalize_axis
from laxarray.array_api._calls import call
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._convert import to_raw, scalar_operand
from laxarray.array_api._ufunc import cast_broadcast
from laxarray.array_api.manipulation import expand_dims
from laxarray.numpy_api import _docs



def _as_raw_tree(fn, out):
    """A user function's result as raw jax values (tuples kept)."""
    if isinstance(out, tuple):
        return tuple(_as_raw_tree(fn, o) for o in out)
    return to_raw(fn, out, "the function's result")


def _wrap_tree(out):
    if isinstance(out, tuple):
        return tuple(_wrap_tree(o) for o in out)
    return wrap(out)


@in_wide_region
@fill(axis_error_axis=_docs.AXIS_ERROR_AXIS)
def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """Apply a function to every 1-d slice of an array along an axis.

    Array API: (not in the standard). NumPy: numpy.apply_along_axis.

    Parameters
    ----------
    func1d : callable
        Takes a laxarray vector (and ``*args, **kwargs``); must be traceable (it is traced
        once, under ``jax.vmap``).
    axis : int
        The axis of the slices.
    arr : array_like
        The input array.
    *args, **kwargs
        More arguments of ``func1d``.

    Returns
    -------
    Array
        The results; their dimensions replace ``axis``.

    Raises
    ------
    TypeError
        If ``func1d`` is not callable or ``arr`` is not array_like.
    {axis_error_axis}

    Notes
    -----
    Static under ``jax.jit``: ``axis`` (``func1d`` is traced).

    Examples
    --------
    >>> import laxarray as la
    >>> a = la.asarray([[1, 2], [3, 4]])
    >>> la.apply_along_axis(la.sum, 1, a)
    Array([3, 7])
    """
    fn = "apply_along_axis"
    if not callable(func1d):
        fail(TypeError, fn, "a callable for 'func1d'", func1d)
    raw = to_raw(fn, arr, "arr")
    ax = normalize_axis(fn, axis, raw.ndim)
    moved = lax.transpose(raw, tuple(d for d in range(raw.ndim) if d != ax) + (ax,))

    def one(v):
        return _as_raw_tree(fn, func1d(wrap(v), *args, **kwargs))
    f = one
    for _ in range(raw.ndim - 1):
        f = jax.vmap(f)
    out = f(moved)
    # the result's dims sit after the batch dims: move them to where ``axis`` was
    nb = raw.ndim - 1
    res_nd = out.ndim - nb
    perm = tuple(range(ax)) + tuple(range(nb, nb + res_nd)) + tuple(range(ax, nb))
    return wrap(lax.transpose(out, perm))


@in_wide_region
def apply_over_axes(func, a, axes):
    """Apply ``func(a, axis)`` repeatedly over ``axes``, keeping the rank.
    NumPy: numpy.apply_over_axes.

    ``func`` must return an array of the same rank or one less (then the axis is
    re-inserted).

    >>> import laxarray as lx
    >>> lx.apply_over_axes(lambda v, ax: lx.sum(v, axis=ax), lx.ones((2, 3)), [0, 1])
    Array([[6.]])
    """
    fn = "apply_over_axes"
    val = wrap(to_raw(fn, a, "a"))
    n = val.ndim
    for axis in (axes if isinstance(axes, (tuple, list)) else (axes,)):
        ax = normalize_axis(fn, axis, n, "axes")
        res = func(val, ax)
        res = res if isinstance(res, Array) else wrap(to_raw(fn, res, "func's result"))
        if res.ndim == val.ndim:
            val = res
        elif res.ndim == val.ndim - 1:
            val = expand_dims(res, axis=ax)
        else:
            fail(ValueError, fn, "'func' to keep the rank or drop one axis", res)
    return val


_DIM = r"\w+"
_CORE = rf"\((?:{_DIM}(?:,{_DIM})*)?\)"
_ARGS = rf"{_CORE}(?:,{_CORE})*"
_SIGNATURE = re.compile(rf"^{_ARGS}->{_ARGS}$")


def _parse_signature(fn, signature):
    if not isinstance(signature, str) or not _SIGNATURE.match(signature.replace(" ", "")):
        fail(ValueError, fn, "a gufunc signature like '(m,n),(n)->(m)' for 'signature'",
             signature)
    ins, outs = signature.replace(" ", "").split("->")

    def dims(part):
        return [tuple(d for d in g.split(",") if d) for g in re.findall(r"\(([^)]*)\)", part)]
    return dims(ins), dims(outs)


@in_wide_region
def vectorize(pyfunc, otypes=None, doc=None, excluded=None, cache=False, signature=None):
    """Return a function that maps ``pyfunc`` over its broadcast array arguments.

    Array API: (not in the standard). NumPy: numpy.vectorize.

    Parameters
    ----------
    pyfunc : callable
        The scalar (or core-dimension) function; traced once under ``jax.vmap``, so it must
        be traceable, as for ``jax.numpy.vectorize``.
    otypes : sequence of dtypes, optional
        Casts of the outputs.
    doc : str, optional
        The docstring of the result.
    excluded : set of int or str, optional
        Positions or keyword names passed through unchanged.
    cache : bool, optional
        Accepted and ignored.
    signature : str, optional
        Generalized-ufunc core dimensions, e.g. ``'(n),(n)->()'``.

    Returns
    -------
    callable
        The vectorized function.

    Raises
    ------
    TypeError
        If ``pyfunc`` is not callable.

    Notes
    -----
    Static under ``jax.jit``: ``excluded``, ``signature``, ``otypes``.

    Examples
    --------
    >>> import laxarray as la
    >>> f = la.vectorize(lambda a, b: a * 2 + b)
    >>> f(la.asarray([1, 2]), 10)
    Array([12, 14])
    >>> dot = la.vectorize(lambda a, b: la.sum(a * b), signature="(n),(n)->()")
    >>> dot(la.ones((3, 2)), la.ones(2))
    Array([2., 2., 2.])
    """
    fn = "vectorize"
    if not callable(pyfunc):
        fail(TypeError, fn, "a callable for 'pyfunc'", pyfunc)
    excluded = frozenset(excluded or ())
    core = _parse_signature(fn, signature) if signature is not None else None
    if otypes is not None:
        if isinstance(otypes, str):
            otypes = list(otypes)
        otypes = [_dt.canonicalize_dtype(fn, t, "otypes") for t in otypes]

    @in_wide_region
    @functools.wraps(pyfunc)
    def wrapped(*args, **kwargs):
        fixed_pos = {i: a for i, a in enumerate(args) if i in excluded}
        fixed_kw = {k: v for k, v in kwargs.items() if k in excluded}
        names = [k for k in kwargs if k not in excluded]
        mapped = [a for i, a in enumerate(args) if i not in excluded]
        mapped += [kwargs[k] for k in names]
        raws = [to_raw(fn, a, "args") for a in mapped]
        in_core = core[0] if core is not None else [()] * len(raws)
        if len(in_core) != len(raws):
            fail(TypeError, fn, f"{len(in_core)} array arguments for signature "
                 f"{signature!r}", len(raws))
        sizes = {}
        loop_shapes = []
        for r, dims in zip(raws, in_core):
            if r.ndim < len(dims):
                fail(ValueError, fn, f"an argument with core dimensions {dims}", r)
            for name, size in zip(dims, r.shape[r.ndim - len(dims):]):
                if sizes.setdefault(name, size) != size:
                    fail(ValueError, fn, f"one size for core dimension {name!r}", size)
            loop_shapes.append(tuple(r.shape[:r.ndim - len(dims)]))
        loop = np.broadcast_shapes(*loop_shapes) if loop_shapes else ()
        raws = [lax.broadcast_in_dim(r, loop + tuple(r.shape[r.ndim - len(d):]),
                                     tuple(range(len(loop) - (r.ndim - len(d)), len(loop)))
                                     + tuple(range(len(loop), len(loop) + len(d))))
                for r, d in zip(raws, in_core)]

        def body(*vals):
            pos, it = [], iter(vals[:len(vals) - len(names)])
            for i in range(len(args)):
                pos.append(fixed_pos[i] if i in fixed_pos else wrap(next(it)))
            kw = dict(fixed_kw)
            kw.update({k: wrap(v) for k, v in zip(names, vals[len(vals) - len(names):])})
            out = _as_raw_tree(fn, pyfunc(*pos, **kw))
            if otypes is not None:
                outs = out if isinstance(out, tuple) else (out,)
                outs = tuple(lax.convert_element_type(o, t) for o, t in zip(outs, otypes))
                out = outs if isinstance(out, tuple) else outs[0]
            return out
        f = body
        for _ in loop:
            f = jax.vmap(f)
        return _wrap_tree(f(*raws))
    if doc is not None:
        wrapped.__doc__ = doc
    return wrapped


@kernel(static=("dtype", "shape"))
def _select_kernel(conds, choices, default, *, dtype, shape):
    out = cast_broadcast(default, dtype, shape)
    for c, v in zip(reversed(conds), reversed(choices)):
        out = lax.select(cast_broadcast(c, np.bool_, shape), cast_broadcast(v, dtype, shape),
                         out)
    return out


def _operand(fn, v, argname):
    if type(v) is Array:
        return v._value, v.dtype
    if _dt.scalar_pytype(v) is not None:
        return v, v
    raw = to_raw(fn, v, argname)
    return raw, raw.dtype


@in_wide_region
def select(condlist, choicelist, default=0):
    """Return, per element, the choice of the first true condition, else a default.

    Array API: (not in the standard). NumPy: numpy.select.

    Parameters
    ----------
    condlist : sequence of array_like of bool
        The conditions, boolean arrays that broadcast together.
    choicelist : sequence of array_like
        One choice per condition.
    default : scalar or array_like, optional
        The value where no condition holds; default 0.

    Returns
    -------
    Array
        The broadcast result, of the promotion of the choices and ``default`` (Python
        scalars are weak).

    Raises
    ------
    TypeError
        If a condition is not boolean.
    ValueError
        If the lists differ in length or the shapes do not broadcast.

    Notes
    -----
    Static under ``jax.jit``: none.

    Examples
    --------
    >>> import laxarray as la
    >>> x = la.asarray([1, 5, 9])
    >>> la.select([x < 3, x > 7], [x, -x], 0)
    Array([ 1,  0, -9])
    """
    fn = "select"
    if not isinstance(condlist, (list, tuple)) or not isinstance(choicelist, (list, tuple)):
        fail(TypeError, fn, "lists for 'condlist' and 'choicelist'", condlist)
    if len(condlist) != len(choicelist):
        fail(ValueError, fn, "'condlist' and 'choicelist' of the same length",
             (len(condlist), len(choicelist)))
    if not condlist:
        fail(ValueError, fn, "a non-empty 'condlist'", condlist)
    conds = []
    for i, c in enumerate(condlist):
        raw = to_raw(fn, c, "condlist")
        if raw.dtype != np.bool_:
            fail(TypeError, fn, f"a boolean array for entry {i} of 'condlist'", c)
        conds.append(raw)
    choices = [_operand(fn, c, "choicelist") for c in choicelist]
    dflt = _operand(fn, default, "default")
    dtype = _dt.result_type(*[d for _, d in choices], dflt[1])
    shapes = [tuple(c.shape) for c in conds] + [tuple(np.shape(v)) for v, _ in choices] + \
        [tuple(np.shape(dflt[0]))]
    try:
        shape = np.broadcast_shapes(*shapes)
    except ValueError:
        fail(ValueError, fn, "conditions, choices and default of broadcastable shapes", shapes)
    return call(_select_kernel, conds, [_scalar_raw(fn, v, dtype) for v, _ in choices],
                _scalar_raw(fn, dflt[0], dtype), dtype=dtype, shape=shape)


def _scalar_raw(fn, v, dtype):
    if _dt.scalar_pytype(v) is not None:
        return scalar_operand(fn, v, dtype, "choicelist")
    return v


@kernel(static=("mode", "dtype", "shape"))
def _choose_kernel(a, choices, *, mode, dtype, shape):
    n = len(choices)
    idx = cast_broadcast(a, _dt.default_index(), shape)
    if mode == "wrap":
        nn = lax.full_like(idx, n)
        idx = lax.rem(lax.add(lax.rem(idx, nn), nn), nn)
    else:  # clip, and raise (checked eagerly; clamped when traced)
        idx = lax.clamp(lax.full_like(idx, 0), idx, lax.full_like(idx, n - 1))
    stacked = lax.concatenate([lax.expand_dims(cast_broadcast(c, dtype, shape), (0,))
                               for c in choices], 0)
    dnums = lax.GatherDimensionNumbers(
        offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,),
        operand_batching_dims=tuple(range(1, len(shape) + 1)),
        start_indices_batching_dims=tuple(range(len(shape))))
    return lax.gather(stacked, lax.expand_dims(idx, (len(shape),)), dnums,
                      (1,) * (len(shape) + 1), mode=lax.GatherScatterMode.CLIP)


@in_wide_region
def choose(a, choices, mode="raise"):
    """Construct an array by choosing, per element, from a list of arrays.

    Array API: (not in the standard). NumPy: numpy.choose.

    Parameters
    ----------
    a : array_like
        Integer indices into ``choices``.
    choices : sequence of array_like
        The arrays to choose from; all broadcast with ``a``.
    mode : {'raise', 'wrap', 'clip'}, optional
        Out-of-range indices: ``'raise'`` (default; eagerly a ``ValueError``, under
        ``jax.jit`` clamped as ``'clip'``), ``'wrap'`` (modulo) or ``'clip'``.

    Returns
    -------
    Array
        ``choices[a[i]][i]`` for every ``i``.

    Raises
    ------
    ValueError
        If ``mode`` is unknown, or eagerly with ``'raise'`` an index is out of range.

    Notes
    -----
    Static under ``jax.jit``: ``mode``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.choose(la.asarray([0, 1, 0]), [la.asarray([1, 2, 3]), la.asarray([7, 8, 9])])
    Array([1, 8, 3])
    """
    fn = "choose"
    check_choice(fn, mode, "mode", ("raise", "wrap", "clip"))
    idx = to_raw(fn, a, "a")
    if _dt.kind_of(idx.dtype) not in "iu":
        fail(TypeError, fn, "an integer array for 'a'", a)
    if isinstance(choices, (Array, np.ndarray)) or is_tracer(choices):
        raw = to_raw(fn, choices, "choices")
        if raw.ndim == 0:
            fail(ValueError, fn, "a sequence of choices (rank >= 1)", choices)
        choices = [lax.index_in_dim(raw, i, keepdims=False) for i in range(raw.shape[0])]
    if not isinstance(choices, (list, tuple)) or not choices:
        fail(ValueError, fn, "a non-empty sequence for 'choices'", choices)
    raws = [to_raw(fn, c, "choices") for c in choices]
    dtype = _dt.result_type(*[r.dtype for r in raws])
    try:
        shape = np.broadcast_shapes(tuple(idx.shape), *[tuple(r.shape) for r in raws])
    except ValueError:
        fail(ValueError, fn, "'a' and 'choices' of broadcastable shapes", choices)
    if mode == "raise" and not is_tracer(idx):
        v = np.asarray(idx)
        if v.size and (v.min() < 0 or v.max() >= len(raws)):
            fail(ValueError, fn, f"entries of 'a' in [0, {len(raws)})", int(
                v[(v < 0) | (v >= len(raws))].flat[0]))
    return call(_choose_kernel, idx, raws, mode=mode, dtype=dtype, shape=shape)


@in_wide_region
def piecewise(x, condlist, funclist, *args, **kw):
    """Evaluate a piecewise-defined function.

    Array API: (not in the standard). NumPy: numpy.piecewise.

    Parameters
    ----------
    x : array_like
        The input.
    condlist : sequence of array_like of bool
        The conditions, of ``x``'s shape (later conditions win where several hold).
    funclist : sequence of callables or scalars
        One per condition (a callable is evaluated on the whole of ``x``), plus optionally
        one for where no condition holds (default 0).
    *args, **kw
        More arguments of the callables.

    Returns
    -------
    Array
        The values, of ``x``'s dtype.

    Raises
    ------
    ValueError
        If ``funclist`` has neither as many entries as ``condlist`` nor one more.

    Notes
    -----
    Static under ``jax.jit``: none (the callables are traced).

    Examples
    --------
    >>> import laxarray as la
    >>> x = la.asarray([-1.0, 2.0])
    >>> la.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v * 10])
    Array([ 1., 20.])
    """
    fn = "piecewise"
    raw = to_raw(fn, x, "x")
    if not isinstance(funclist, (list, tuple)):
        fail(TypeError, fn, "a list for 'funclist'", funclist)
    if isinstance(condlist, (list, tuple)) and condlist and (
            raw.ndim == 0 or isinstance(condlist[0], (list, tuple, Array, np.ndarray))
            or is_tracer(condlist[0])):
        conds = list(condlist)
    else:
        conds = [condlist]
    conds = [cast_broadcast(_cond(fn, c), np.bool_, tuple(raw.shape)) for c in conds]
    if len(funclist) == len(conds) + 1:
        anyc = conds[0] if len(conds) == 1 else functools.reduce(lax.bitwise_or, conds)
        conds.append(lax.bitwise_not(anyc) if conds else lax.full(raw.shape, True, np.bool_))
    elif len(funclist) != len(conds):
        fail(ValueError, fn, f"{len(conds)} or {len(conds) + 1} functions for "
             f"{len(conds)} conditions", len(funclist))
    out = lax.full(raw.shape, 0, raw.dtype)
    for c, f in zip(conds, funclist):
        if callable(f):
            val = to_raw(fn, f(wrap(raw), *args, **kw), "funclist")
        else:
            val = to_raw(fn, f, "funclist")
        val = cast_broadcast(val, raw.dtype, tuple(raw.shape))
        out = lax.select(c, val, out)
    return wrap(out)


def _cond(fn, c):
    raw = to_raw(fn, c, "condlist")
    if raw.dtype != np.bool_:
        raw = lax.ne(raw, lax.full_like(raw, 0))
    return raw
