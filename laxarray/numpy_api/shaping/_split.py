"""Splitting, stacking, ``block`` and ``atleast_*d`` (NumPy's shape_base), on lax.

Split points and section counts are static (Python ints, or concrete arrays): they decide
the number and the shapes of the results.  The arrays themselves may be traced.
"""

from __future__ import annotations

import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail, fail_text
from laxarray._core.jaxapi import in_wide_mode, is_tracer
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_choice, check_int, normalize_axis
from laxarray.array_api._calls import call
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._convert import to_raw
from laxarray.array_api.manipulation_join import concat_kernel
from laxarray.array_api.manipulation import reshape_kernel
from laxarray.numpy_api import _docs

_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


def raw_of(fn, x, argname="x"):
    """The raw jax value of an array-like argument of ``fn``."""
    return x._value if type(x) is Array else to_raw(fn, x, argname)


# ---- splitting ------------------------------------------------------------------------------
@kernel(static=("axis", "bounds"))
def _split_kernel(x, *, axis, bounds):
    return tuple(lax.slice_in_dim(x, a, b, axis=axis) for a, b in bounds)


def _split_points(fn, indices_or_sections, n, equal):
    """``((start, stop), ...)`` of the pieces, following NumPy's array_split rules."""
    ios = indices_or_sections
    if isinstance(ios, Array) and is_tracer(ios._value) or is_tracer(ios):
        fail(TypeError, fn, "concrete 'indices_or_sections' (they decide the result shapes)",
             ios)
    if isinstance(ios, (list, tuple)) or np.ndim(ios) > 0:
        values = ios if isinstance(ios, (list, tuple)) else np.asarray(ios).tolist()
        points = [check_int(fn, p, "indices_or_sections") for p in values]
        edges = [0, *points, n]
        out = []
        for a, b in zip(edges[:-1], edges[1:]):
            start, stop, _ = slice(a, b).indices(n)
            out.append((start, max(start, stop)))
        return tuple(out)
    sections = check_int(fn, ios, "indices_or_sections")
    if sections <= 0:
        fail(ValueError, fn, "a number of sections larger than 0", ios)
    if equal and n % sections:
        fail(ValueError, fn, f"a number of sections that divides the axis length {n} "
             "(array split does not result in an equal division)", ios)
    each, extra = divmod(n, sections)
    sizes = [each + 1] * extra + [each] * (sections - extra)
    bounds, start = [], 0
    for s in sizes:
        bounds.append((start, start + s))
        start += s
    return tuple(bounds)


def _split(fn, ary, indices_or_sections, axis, equal):
    raw = raw_of(fn, ary, "ary")
    if raw.ndim == 0:
        fail(ValueError, fn, "an array of rank >= 1 for 'ary'", ary)
    ax = normalize_axis(fn, axis, raw.ndim)
    bounds = _split_points(fn, indices_or_sections, raw.shape[ax], equal)
    return list(call(_split_kernel, raw, axis=ax, bounds=bounds))


_SPLIT_RETURNS_RAISES = _docs.compose("""
Returns
-------
list of Array
    The sections.

Raises
------
TypeError""")


_SPLIT_AXIS_NOTES_EXAMPLES = _docs.compose("""
{axis_error_axis}

Notes
-----
Static under ``jax.jit``: ``indices_or_sections``, ``axis``.

Examples
--------
>>> import laxarray as la""", axis_error_axis=_docs.AXIS_ERROR_AXIS)


_SPLIT_AXIS_ENTRIES = _docs.compose("""
axis : int, optional
    The axis to split along; default 0.

{split_returns_raises}
    If ``ary`` is not array_like, or ``indices_or_sections`` is not an int or a sequence
    of ints.
ValueError""", split_returns_raises=_SPLIT_RETURNS_RAISES)


_SPLIT_AXIS_PARAMETERS = _docs.compose("""
Parameters
----------
ary : array_like
    The array to split.
indices_or_sections : int or sequence of ints""")


@in_wide_mode
@fill(split_axis_parameters=_SPLIT_AXIS_PARAMETERS, split_axis_entries=_SPLIT_AXIS_ENTRIES,
      split_axis_notes_examples=_SPLIT_AXIS_NOTES_EXAMPLES)
def split(ary, indices_or_sections, axis=0):
    """Split an array into equal sections, or at the given indices.

    Array API: (not in the standard). NumPy: numpy.split.

    {split_axis_parameters}
        An int ``N``: ``N`` equal sections (``N`` must divide the axis length); a sequence
        (or concrete array) of increasing split points.
    {split_axis_entries}
        If ``N`` is not positive or does not divide the axis length.
    {split_axis_notes_examples}
    >>> la.split(la.arange(6), 3)
    [Array([0, 1]), Array([2, 3]), Array([4, 5])]
    >>> la.split(la.arange(6), [1, 4])
    [Array([0]), Array([1, 2, 3]), Array([4, 5])]
    """
    return _split("split", ary, indices_or_sections, axis, True)


@in_wide_mode
@fill(split_axis_parameters=_SPLIT_AXIS_PARAMETERS, split_axis_entries=_SPLIT_AXIS_ENTRIES,
      split_axis_notes_examples=_SPLIT_AXIS_NOTES_EXAMPLES)
def array_split(ary, indices_or_sections, axis=0):
    """Split an array into sections of nearly equal size, or at the given indices.

    Array API: (not in the standard). NumPy: numpy.array_split.

    {split_axis_parameters}
        An int ``N``: ``N`` sections, the first ``length % N`` one element longer; a
        sequence of split points, as :func:`split`'s.
    {split_axis_entries}
        If ``N`` is not positive.
    {split_axis_notes_examples}
    >>> la.array_split(la.arange(5), 2)
    [Array([0, 1, 2]), Array([3, 4])]
    """
    return _split("array_split", ary, indices_or_sections, axis, False)


def _split_along(fn, ary, indices_or_sections, min_ndim, axis_for):
    raw = raw_of(fn, ary, "ary")
    if raw.ndim < min_ndim:
        fail(ValueError, fn, f"an array of rank >= {min_ndim} for 'ary'", ary)
    return _split(fn, raw, indices_or_sections, axis_for(raw.ndim), True)


_HVSPLIT_PARAMETERS = _docs.compose("""
Parameters
----------
ary : array_like
    The array.
indices_or_sections : int or sequence of ints
    As :func:`split`'s: a number of equal sections, or split points.

{split_returns_raises}
    If ``ary`` is not array_like.
ValueError""", split_returns_raises=_SPLIT_RETURNS_RAISES)


_HVSPLIT_NOTES_EXAMPLES = _docs.compose("""
Notes
-----
Static under ``jax.jit``: ``indices_or_sections``.

Examples
--------
>>> import laxarray as la""")


@in_wide_mode
@fill(hvsplit_parameters=_HVSPLIT_PARAMETERS, hvsplit_notes_examples=_HVSPLIT_NOTES_EXAMPLES)
def hsplit(ary, indices_or_sections):
    """Split an array horizontally: along axis 1 (axis 0 of a 1-D array).

    Array API: (not in the standard). NumPy: numpy.hsplit.

    {hvsplit_parameters}
        If ``ary`` is 0-d, or the sections are not equal.

    {hvsplit_notes_examples}
    >>> [a.shape for a in la.hsplit(la.ones((2, 4)), 2)]
    [(2, 2), (2, 2)]
    """
    return _split_along("hsplit", ary, indices_or_sections, 1, lambda nd: 1 if nd > 1 else 0)


@in_wide_mode
@fill(hvsplit_parameters=_HVSPLIT_PARAMETERS, hvsplit_notes_examples=_HVSPLIT_NOTES_EXAMPLES)
def vsplit(ary, indices_or_sections):
    """Split an array vertically: along axis 0 of an array of rank at least two.

    Array API: (not in the standard). NumPy: numpy.vsplit.

    {hvsplit_parameters}
        If ``ary`` has rank below two, or the sections are not equal.

    {hvsplit_notes_examples}
    >>> [a.shape for a in la.vsplit(la.ones((4, 2)), [1])]
    [(1, 2), (3, 2)]
    """
    return _split_along("vsplit", ary, indices_or_sections, 2, lambda nd: 0)


@in_wide_mode
def dsplit(ary, indices_or_sections):
    """Split along the third axis an array of rank >= 3. NumPy: numpy.dsplit.

    ``indices_or_sections`` is static under ``jax.jit``.

    >>> from laxarray import arange, eye, ones, zeros
    >>> [a.shape for a in dsplit(ones((1, 1, 4)), 2)]
    [(1, 1, 2), (1, 1, 2)]
    """
    return _split_along("dsplit", ary, indices_or_sections, 3, lambda nd: 2)


# ---- atleast_nd ----------------------------------------------------------------------------
def _atleast(raw, ndim, where="front"):
    """``raw`` reshaped to rank >= ``ndim`` (NumPy's placement of the new axes)."""
    if raw.ndim >= ndim:
        return raw
    shape = tuple(raw.shape)
    if where == "front":
        new = (1,) * (ndim - raw.ndim) + shape
    elif raw.ndim == 0:
        new = (1,) * ndim
    elif raw.ndim == 1:  # atleast_2d: (1, N); atleast_3d: (1, N, 1)
        new = (1,) + shape + (1,) * (ndim - 2)
    else:  # atleast_3d of (M, N): (M, N, 1)
        new = shape + (1,)
    return reshape_kernel(raw, shape=new)


def _atleast_public(fn, arys, ndim, where):
    outs = tuple(wrap(_atleast(raw_of(fn, a, "arys"), ndim, where)) for a in arys)
    return outs[0] if len(outs) == 1 else outs


_ATLEAST_RAISES = _docs.closing([_docs.TYPE_ERROR_INPUT], "none")


_ATLEAST_PARAMETERS_RETURNS = _docs.compose("""
Parameters
----------
*arys : array_like
    One or more inputs.

Returns
-------
Array or tuple of Array""")


@in_wide_mode
@fill(atleast_parameters_returns=_ATLEAST_PARAMETERS_RETURNS,
      atleast_raises=_ATLEAST_RAISES)
def atleast_1d(*arys):
    """View inputs as arrays of rank at least one.

    Array API: (not in the standard). NumPy: numpy.atleast_1d.

    {atleast_parameters_returns}
        Each input as an array, 0-d ones reshaped to ``(1,)``; a tuple for several inputs.

    {atleast_raises}
    >>> la.atleast_1d(1.0)
    Array([1.])
    >>> la.atleast_1d(1.0, [2, 3])
    (Array([1.]), Array([2, 3]))
    """
    return _atleast_public("atleast_1d", arys, 1, "front")


@in_wide_mode
@fill(atleast_parameters_returns=_ATLEAST_PARAMETERS_RETURNS,
      atleast_raises=_ATLEAST_RAISES)
def atleast_2d(*arys):
    """View inputs as arrays of rank at least two.

    Array API: (not in the standard). NumPy: numpy.atleast_2d.

    {atleast_parameters_returns}
        Each input as an array: ``(N,)`` becomes ``(1, N)``, 0-d ``(1, 1)``; a tuple for
        several inputs.

    {atleast_raises}
    >>> la.atleast_2d([1, 2])
    Array([[1, 2]])
    """
    return _atleast_public("atleast_2d", arys, 2, "front")


@in_wide_mode
@fill(atleast_parameters_returns=_ATLEAST_PARAMETERS_RETURNS,
      atleast_raises=_ATLEAST_RAISES)
def atleast_3d(*arys):
    """View inputs as arrays of rank at least three.

    Array API: (not in the standard). NumPy: numpy.atleast_3d.

    {atleast_parameters_returns}
        ``(N,)`` becomes ``(1, N, 1)``, ``(M, N)`` becomes ``(M, N, 1)``; a tuple for
        several inputs.

    {atleast_raises}
    >>> la.atleast_3d(la.asarray([1, 2])).shape
    (1, 2, 1)
    """
    return _atleast_public("atleast_3d", arys, 3, "middle")


# ---- stacking -------------------------------------------------------------------------------
def join(fn, raws, axis, dtype=None, casting="same_kind"):
    """Concatenate raw values along ``axis`` with NumPy's checks, errors naming ``fn``."""
    nd = raws[0].ndim
    if any(r.ndim != nd for r in raws):
        fail(ValueError, fn, "arrays of equal rank after promotion",
             [tuple(r.shape) for r in raws])
    ax = normalize_axis(fn, axis, nd)
    ref = tuple(d for i, d in enumerate(raws[0].shape) if i != ax)
    for r in raws:
        if tuple(d for i, d in enumerate(r.shape) if i != ax) != ref:
            fail(ValueError, fn, f"shapes that match except along axis {ax}",
                 [tuple(r.shape) for r in raws])
    check_choice(fn, casting, "casting", _CASTINGS)
    if dtype is None:  # NumPy's n-ary promotion (int8, uint16, float32 -> float32)
        dt = _dt.result_type(*[r.dtype for r in raws])
    else:
        dt = _dt.canonicalize_dtype(fn, dtype)
        for r in raws:
            if not np.can_cast(r.dtype, dt, casting=casting):
                fail(TypeError, fn, f"arrays castable to {dt} under casting={casting!r}",
                     r.dtype)
    return call(concat_kernel, *raws, axis=ax, dtype=dt)


def sequence_of_raws(fn, tup, argname="tup"):
    """Raw values of a non-empty list/tuple of array-likes."""
    if isinstance(tup, (Array, np.ndarray)) and np.ndim(tup) > 0:
        tup = list(tup)
    if not isinstance(tup, (list, tuple)):
        fail(TypeError, fn, f"a sequence of arrays for '{argname}'", tup)
    if not tup:
        fail(ValueError, fn, f"at least one array in '{argname}'", tup)
    return [raw_of(fn, a, argname) for a in tup]


_HVSTACK_RAISES = _docs.closing(["""
    TypeError
        If an element is not array_like, or does not cast to ``dtype``.""", """
    ValueError
        If ``tup`` is empty or the shapes do not match."""], "``dtype``, ``casting``")


_HVSTACK_PARAMETERS_RETURNS = _docs.compose("""
Parameters
----------
tup : sequence of array_like
    The arrays.
{dtype_promoted}
casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
    The rule for ``dtype``; default ``'same_kind'``.

Returns
-------
Array""", dtype_promoted=_docs.DTYPE_PROMOTED)


@in_wide_mode
@fill(hvstack_parameters_returns=_HVSTACK_PARAMETERS_RETURNS,
      hvstack_raises=_HVSTACK_RAISES)
def hstack(tup, *, dtype=None, casting="same_kind"):
    """Stack arrays horizontally: along axis 1, or axis 0 for 1-D inputs.

    Array API: (not in the standard). NumPy: numpy.hstack.

    {hvstack_parameters_returns}
        The stacked array.

    {hvstack_raises}
    >>> la.hstack([la.asarray([1, 2]), la.asarray([3])])
    Array([1, 2, 3])
    >>> a = la.asarray([[1, 2], [3, 4]])
    >>> la.hstack([a, a])
    Array([[1, 2, 1, 2],
           [3, 4, 3, 4]])
    """
    raws = [_atleast(r, 1) for r in sequence_of_raws("hstack", tup)]
    return join("hstack", raws, 0 if raws[0].ndim == 1 else 1, dtype, casting)


@in_wide_mode
@fill(hvstack_parameters_returns=_HVSTACK_PARAMETERS_RETURNS,
      hvstack_raises=_HVSTACK_RAISES)
def vstack(tup, *, dtype=None, casting="same_kind"):
    """Stack arrays vertically: along axis 0 of the inputs made at least 2-D.

    Array API: (not in the standard). NumPy: numpy.vstack.

    {hvstack_parameters_returns}
        The stacked array, at least 2-D.

    {hvstack_raises}
    >>> la.vstack([la.asarray([1, 2]), la.asarray([3, 4])])
    Array([[1, 2],
           [3, 4]])
    """
    raws = [_atleast(r, 2) for r in sequence_of_raws("vstack", tup)]
    return join("vstack", raws, 0, dtype, casting)


_DCSTACK_NOTES_EXAMPLES = _docs.compose("""
Notes
-----
Static under ``jax.jit``: none.

Examples
--------
>>> import laxarray as la""")


_DCSTACK_RAISES = _docs.compose("""
Raises
------
TypeError
    If an element is not array_like.
ValueError""")


@in_wide_mode
@fill(dcstack_raises=_DCSTACK_RAISES, dcstack_notes_examples=_DCSTACK_NOTES_EXAMPLES)
def dstack(tup):
    """Stack arrays along the third axis (the inputs made at least 3-D).

    Array API: (not in the standard). NumPy: numpy.dstack.

    Parameters
    ----------
    tup : sequence of array_like
        The arrays.

    Returns
    -------
    Array
        The stack, at least 3-D.

    {dcstack_raises}
        If the shapes do not match.

    {dcstack_notes_examples}
    >>> la.dstack([la.asarray([1, 2]), la.asarray([3, 4])])
    Array([[[1, 3],
            [2, 4]]])
    """
    raws = [_atleast(r, 3, "middle") for r in sequence_of_raws("dstack", tup)]
    return join("dstack", raws, 2)


@in_wide_mode
@fill(dcstack_raises=_DCSTACK_RAISES, dcstack_notes_examples=_DCSTACK_NOTES_EXAMPLES)
def column_stack(tup):
    """Stack 1-D arrays as columns of a 2-D array (2-D arrays as they are).

    Array API: (not in the standard). NumPy: numpy.column_stack.

    Parameters
    ----------
    tup : sequence of array_like
        The arrays: 1-D ones become columns.

    Returns
    -------
    Array
        The 2-D stack.

    {dcstack_raises}
        If the lengths differ.

    {dcstack_notes_examples}
    >>> la.column_stack([la.asarray([1, 2]), la.asarray([3, 4])])
    Array([[1, 3],
           [2, 4]])
    """
    raws = []
    for r in sequence_of_raws("column_stack", tup):
        if r.ndim == 1:
            r = reshape_kernel(r, shape=(r.shape[0], 1))
        raws.append(_atleast(r, 2))
    return join("column_stack", raws, 1)


# ---- block ----------------------------------------------------------------------------------
def _block_depth(arrays, index="arrays"):
    """(list depth, leaves with their location) of a nested-list block layout."""
    if isinstance(arrays, tuple):
        fail_text(TypeError, "block", f"{index} is a tuple; only lists arrange blocks")
    if not isinstance(arrays, list):
        return 0, [arrays]
    if not arrays:
        fail_text(ValueError, "block", f"expected a non-empty list at {index}; got []")
    depths, leaves = set(), []
    for i, item in enumerate(arrays):
        d, lv = _block_depth(item, f"{index}[{i}]")
        depths.add(d)
        leaves += lv
    if len(depths) != 1:
        fail_text(ValueError, "block", f"expected lists of equal depth at {index}; got "
                  f"depths {sorted(depths)}")
    return depths.pop() + 1, leaves


def _block_build(arrays, depth, list_ndim, ndim):
    if depth == list_ndim:
        return _atleast(raw_of("block", arrays, "arrays"), ndim)
    parts = [_block_build(a, depth + 1, list_ndim, ndim) for a in arrays]
    return join("block", parts, -(list_ndim - depth))._value


@in_wide_mode
def block(arrays):
    """Assemble an array from nested lists of blocks.

    Array API: (not in the standard). NumPy: numpy.block.

    Parameters
    ----------
    arrays : nested list of array_like
        The blocks: the innermost lists join along the last axis, the next ones along the
        second last, and so on.

    Returns
    -------
    Array
        The assembled array; dtypes promote level by level, as NumPy's concatenations do.

    Raises
    ------
    TypeError
        If a block is not array_like.
    ValueError
        If the blocks' shapes do not fit.

    Notes
    -----
    Static under ``jax.jit``: none.

    Examples
    --------
    >>> import laxarray as la
    >>> la.block([[la.ones((2, 2)), la.zeros((2, 1))]])
    Array([[1., 1., 0.],
           [1., 1., 0.]])
    """
    list_ndim, leaves = _block_depth(arrays)
    raws = [raw_of("block", a, "arrays") for a in leaves]
    ndim = max([list_ndim] + [r.ndim for r in raws])
    if list_ndim == 0:
        return wrap(raws[0])
    return wrap(_block_build(arrays, 0, list_ndim, ndim))


__all__ = ["array_split", "atleast_1d", "atleast_2d", "atleast_3d", "block", "column_stack",
           "dsplit", "dstack", "hsplit", "hstack", "split", "vsplit", "vstack"]
