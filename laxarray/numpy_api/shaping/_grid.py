"""Index helper objects and grids: ``r_``, ``c_``, ``s_``, ``index_exp``, ``mgrid``, ``ogrid``,
``ix_`` and ``indices`` (NumPy's index_tricks), on lax.

Slices inside ``r_[...]``/``mgrid[...]`` are static (Python numbers): they decide result
shapes.  A complex step ``5j`` means "5 points, end included" (linspace).  Arrays given
to ``r_``/``c_``/``ix_`` may be traced.
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.jaxapi import in_wide_mode, is_tracer
from laxarray._core.jax_regions import in_wide_region
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_bool, normalize_shape
from laxarray.array_api._calls import call
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._convert import scalar_operand, to_raw
from laxarray.array_api.creation_ranges import arange, linspace
from laxarray.array_api.manipulation import permute_dims_kernel, reshape_kernel
from laxarray.array_api.searching import nonzero
from laxarray.numpy_api.shaping._split import _atleast, join, raw_of


def _number(fn, value, argname):
    """A static Python number from a slice field (NumPy scalars and concrete 0-d arrays too)."""
    if isinstance(value, (Array, np.ndarray, np.generic)) and np.ndim(value) == 0:
        if isinstance(value, Array) and is_tracer(value._value):
            fail(TypeError, fn, f"a static number for the slice '{argname}' under jax.jit",
                 value)
        value = np.asarray(value)[()].item()
    if _dt.scalar_pytype(value) is None:
        fail(TypeError, fn, f"a Python number for the slice '{argname}'", value)
    return value


def _slice_fields(fn, item):
    start = 0 if item.start is None else _number(fn, item.start, "start")
    step = 1 if item.step is None else _number(fn, item.step, "step")
    if item.stop is None:
        fail(TypeError, fn, "a slice with a 'stop'", item)
    stop = _number(fn, item.stop, "stop")
    return start, stop, step


def _is_scalar_item(item):
    return _dt.scalar_pytype(item) is not None or isinstance(item, np.generic)


class AxisConcatenator:
    """Concatenate slices, scalars and arrays along an axis with ``obj[...]`` (``r_``, ``c_``).

    The first item may be a directive string: ``'r'``/``'c'`` (a 2-D row/column result;
    NumPy returns ``numpy.matrix`` there), ``'axis'`` or ``'axis,ndmin[,trans1d]'``.
    """

    __slots__ = ("name", "axis", "ndmin", "trans1d")

    def __init__(self, name, axis=0, ndmin=1, trans1d=-1):
        self.name, self.axis, self.ndmin, self.trans1d = name, axis, ndmin, trans1d

    def _directive(self, item, state):
        fn = self.name
        if item in ("r", "c"):
            state["matrix"], state["col"] = True, item == "c"
            return
        try:
            vec = [int(v) for v in item.split(",")]
        except ValueError:
            vec = []
        if len(vec) == 1:
            state["axis"] = vec[0]
        elif len(vec) in (2, 3):
            state["axis"], state["ndmin"] = vec[:2]
            if len(vec) == 3:
                state["trans1d"] = vec[2]
        else:
            fail(ValueError, fn, "a special directive 'r', 'c', 'axis' or "
                 "'axis,ndmin[,trans1d]'", item)

    def _from_slice(self, item, ndmin, trans1d):
        fn = self.name
        start, stop, step = _slice_fields(fn, item)
        if isinstance(step, complex):
            obj = linspace(start, stop, int(abs(step)))._value
        else:
            if step == 0:
                fail(ValueError, fn, "a non-zero slice step", item)
            obj = arange(start, stop, step)._value
        if ndmin > 1:
            obj = _atleast(obj, ndmin)
            if trans1d != -1:
                perm = list(range(ndmin))
                t = trans1d % ndmin
                perm[-1], perm[t] = perm[t], perm[-1]
                obj = permute_dims_kernel(obj, axes=tuple(perm))
        return obj

    @in_wide_mode
    def __getitem__(self, key):
        fn = self.name
        if isinstance(key, str):
            fail(TypeError, fn, "items to concatenate (NumPy's matrix-string syntax is not "
                 "supported)", key)
        if not isinstance(key, tuple):
            key = (key,)
        state = {"axis": self.axis, "ndmin": self.ndmin, "trans1d": self.trans1d,
                 "matrix": False, "col": False}
        objs, types = [], []
        for k, item in enumerate(key):
            ndmin, trans1d = state["ndmin"], state["trans1d"]
            if isinstance(item, str):
                if k != 0:
                    fail(ValueError, fn, "a special directive only as the first item", item)
                self._directive(item, state)
                continue
            if isinstance(item, slice):
                obj = self._from_slice(item, ndmin, trans1d)
                types.append(obj.dtype)
            elif _is_scalar_item(item):
                obj = item
                types.append(item)
            else:
                obj = raw_of(fn, item, "key")
                item_ndim = obj.ndim
                obj = _atleast(obj, ndmin)
                if trans1d != -1 and item_ndim < ndmin:
                    k2 = ndmin - item_ndim
                    k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
                    axes = list(range(ndmin))
                    perm = axes[:k1] + axes[k2:] + axes[k1:k2]
                    obj = permute_dims_kernel(obj, axes=tuple(perm))
                types.append(obj.dtype)
            objs.append(obj)
        if not objs:
            fail(ValueError, fn, "at least one item to concatenate", key)
        dt = _dt.result_type(*types)  # n-ary promotion as NumPy; Python scalars are weak
        raws = []
        for obj in objs:
            if _dt.scalar_pytype(obj) is not None:
                obj = scalar_operand(fn, obj, dt, "key")
            elif isinstance(obj, np.generic):
                obj = to_raw(fn, obj, "key")
            raws.append(lax.convert_element_type(_atleast(obj, state["ndmin"]), dt))
        res = join(fn, raws, state["axis"])
        if state["matrix"]:
            if res.ndim > 2:
                fail(ValueError, fn, "a result of rank <= 2 with the 'r'/'c' directive", res)
            if res.ndim == 1:
                n = res.shape[0]
                res = wrap(reshape_kernel(res._value, shape=(n, 1) if state["col"] else
                                           (1, n)))
        return res

    def __len__(self):
        return 0

    def __repr__(self):
        return f"laxarray.{self.name}"


r_ = AxisConcatenator("r_", 0)
c_ = AxisConcatenator("c_", -1, ndmin=2, trans1d=0)


class IndexExpression:
    """Build index tuples with ``obj[...]``: ``s_[1:3, ::2]`` is ``(slice(1, 3), slice(None,
    None, 2))``; ``index_exp`` always returns a tuple. NumPy: numpy.s_ / numpy.index_exp."""

    __slots__ = ("maketuple",)

    def __init__(self, maketuple):
        self.maketuple = maketuple

    def __getitem__(self, item):
        if self.maketuple and not isinstance(item, tuple):
            return (item,)
        return item


s_ = IndexExpression(maketuple=False)
index_exp = IndexExpression(maketuple=True)


# ---- grids ----------------------------------------------------------------------------------
@kernel(static=("dims", "dtype", "form"))
def _indices_kernel(*, dims, dtype, form):
    """``form``: "dense" (one stacked array), "sparse" (open grids), "grids" (a tuple)."""
    n = len(dims)
    outs = []
    for i, d in enumerate(dims):
        shape = tuple(d if j == i else 1 for j in range(n)) if form == "sparse" else dims
        outs.append(lax.convert_element_type(lax.broadcasted_iota(_dt.default_index(), shape, i), dtype))
    if form != "dense":
        return tuple(outs)
    if not outs:
        return lax.full((0,), 0, dtype)
    return lax.concatenate([lax.expand_dims(o, (0,)) for o in outs], 0)


@in_wide_region
def indices(dimensions, dtype=int, sparse=False):
    """Return the index grid of an array of a shape.

    Array API: (not in the standard). NumPy: numpy.indices.

    Parameters
    ----------
    dimensions : sequence of ints
        The shape.
    dtype : dtype, optional
        The dtype; default the default integer dtype.
    sparse : bool, optional
        Return broadcastable arrays instead of one dense grid; default False.

    Returns
    -------
    Array or tuple of Array
        Dense: one array of shape ``(len(dimensions), *dimensions)``; sparse: a tuple of
        broadcastable arrays.

    Raises
    ------
    TypeError
        If ``dimensions`` is not a sequence of ints.

    Notes
    -----
    Static under ``jax.jit``: ``dimensions``, ``dtype``, ``sparse``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.indices((2, 3))[1]
    Array([[0, 1, 2],
           [0, 1, 2]])
    >>> la.indices((2, 3), sparse=True)
    (Array([[0],
           [1]]), Array([[0, 1, 2]]))
    """
    dims = normalize_shape("indices", dimensions, "dimensions")
    dt = _dt.canonicalize_dtype("indices", dtype)
    check_bool("indices", sparse, "sparse")
    return call(_indices_kernel, dims=dims, dtype=dt, form="sparse" if sparse else "dense")


@kernel(static=("sizes", "dtype", "sparse"))
def _grid_kernel(starts, steps, *, sizes, dtype, sparse):
    """``iota * step + start`` per axis, in ``dtype`` (NumPy's mgrid arithmetic)."""
    n = len(sizes)
    outs = []
    for i, d in enumerate(sizes):
        shape = tuple(d if j == i else 1 for j in range(n)) if sparse else sizes
        g = lax.convert_element_type(lax.broadcasted_iota(_dt.default_index(), shape, i), dtype)
        step = lax.broadcast(lax.index_in_dim(steps, i, keepdims=False), shape)
        start = lax.broadcast(lax.index_in_dim(starts, i, keepdims=False), shape)
        outs.append(lax.add(lax.mul(g, step), start))
    if sparse:
        return tuple(outs)
    if not outs:
        return lax.full((0,), 0, dtype)
    return lax.concatenate([lax.expand_dims(o, (0,)) for o in outs], 0)


def _grid(sizes, fields, typ, sparse):
    starts = np.asarray([f[0] for f in fields], dtype=typ)
    steps = np.asarray([f[1] for f in fields], dtype=typ)
    return call(_grid_kernel, starts, steps, sizes=tuple(sizes), dtype=typ, sparse=sparse)


class GridClass:
    """Dense (``mgrid``) or open (``ogrid``) mesh grids built with ``obj[slices]``.

    Each slice ``start:stop:step`` gives ``arange`` values; a complex step ``Nj`` gives
    ``N`` points from ``start`` to ``stop`` inclusive.  NumPy: numpy.mgrid / numpy.ogrid.
    """

    __slots__ = ("sparse", "name")

    def __init__(self, name, sparse):
        self.name, self.sparse = name, sparse

    @in_wide_mode
    def __getitem__(self, key):
        fn = self.name
        if isinstance(key, slice):
            start, stop, step = _slice_fields(fn, key)
            if isinstance(step, complex):
                length = int(abs(step))
                typ = _dt.result_type(start, stop, abs(step))
                step = (stop - start) / float(length - 1) if length != 1 else 1
                return _grid((length,), [(start, step)], typ, True)[0]
            if step == 0:
                fail(ValueError, fn, "a non-zero slice step", key)
            return arange(start, stop, step)
        if not isinstance(key, tuple) or not all(isinstance(k, slice) for k in key):
            fail(TypeError, fn, "a slice or a tuple of slices", key)
        sizes, fields, nums = [], [], [0]
        for item in key:
            start, stop, step = _slice_fields(fn, item)
            if isinstance(step, complex):
                length = int(abs(step))
                nums += [start, stop, abs(step)]
                step = (stop - start) / float(length - 1) if length != 1 else 1
            else:
                if step == 0:
                    fail(ValueError, fn, "a non-zero slice step", item)
                length = math.ceil((stop - start) / step)
                nums += [start, stop, step]
            if length < 0:
                if not self.sparse:
                    fail(ValueError, fn, "slices of non-negative length", item)
                length = 0
            sizes.append(length)
            fields.append((start, step))
        return _grid(sizes, fields, _dt.result_type(*nums), self.sparse)

    def __len__(self):
        return 0

    def __repr__(self):
        return f"laxarray.{self.name}"


mgrid = GridClass("mgrid", sparse=False)
ogrid = GridClass("ogrid", sparse=True)


@in_wide_region
def ix_(*args):
    """Return open-mesh index arrays from 1-D sequences.

    Array API: (not in the standard). NumPy: numpy.ix_.

    Parameters
    ----------
    *args : array_like
        1-D integer or boolean sequences (a boolean one stands for its non-zero positions
        and must be concrete).

    Returns
    -------
    tuple of Array
        One array per input, of shape ``(1, ..., n_i, ..., 1)``: together they index the
        cross product.

    Raises
    ------
    TypeError
        If a boolean input is traced.
    ValueError
        If an input is not 1-D.

    Notes
    -----
    Static under ``jax.jit``: none (integer arrays may be traced).

    Examples
    --------
    >>> import laxarray as la
    >>> la.ix_(la.asarray([0, 1]), la.asarray([2, 3, 4]))
    (Array([[0],
           [1]]), Array([[2, 3, 4]]))
    """
    nd = len(args)
    out = []
    for k, new in enumerate(args):
        raw = raw_of("ix_", new, "args")
        if raw.ndim != 1:
            fail(ValueError, "ix_", "1-D sequences for 'args'", new)
        if raw.shape[0] == 0 and not hasattr(new, "dtype"):
            raw = lax.convert_element_type(raw, _dt.default_index())
        elif raw.dtype == _dt.bool_:
            if is_tracer(raw):
                fail(TypeError, "ix_", "concrete boolean arrays in 'args' (the result length "
                     "depends on their values)", new)
            raw = nonzero(wrap(raw))[0]._value
        shape = (1,) * k + (raw.shape[0],) + (1,) * (nd - k - 1)
        out.append(wrap(reshape_kernel(raw, shape=shape)))
    return tuple(out)


__all__ = ["c_", "index_exp", "indices", "ix_", "mgrid", "ogrid", "r_", "s_"]
