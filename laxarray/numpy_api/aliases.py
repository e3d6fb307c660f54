"""NumPy's names for functions the standard already has, NumPy's type objects and utilities.

One table, ``ALIASES``, maps each NumPy spelling to the laxarray function it names
(``arccos`` -> ``acos``, ``power`` -> ``pow`` ...); the functions whose NumPy signature
differs from the standard's (``amax(a, axis, out, keepdims, initial, where)``,
``concatenate(arrays, axis, dtype)``, ``transpose(a, axes=None)`` ...) are thin wrappers.
The scalar types and abstract dtype classes are NumPy's own, so ``issubdtype`` and
``dtype`` behave as in NumPy.  I/O and printing go through NumPy (eager only).
"""

from __future__ import annotations

import math

import numpy as np

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail, fail_text
from laxarray._core.validate import check_int, normalize_axis
import laxarray.array_api as _api
from laxarray.array_api import elementwise_compare as _ew
from laxarray.array_api import manipulation as _mp
from laxarray.array_api import manipulation_join as _join
from laxarray.array_api import statistical as _st
from laxarray.array_api._array import Array
from laxarray.array_api.creation import asarray
from laxarray.array_api._operators import check_out, finish_out
from laxarray.array_api.searching import where
from laxarray.numpy_api import _docs

#: NumPy name -> the standard's name of the same function in laxarray.
ALIASES = {
    "absolute": "abs", "arccos": "acos", "arccosh": "acosh", "arcsin": "asin",
    "arcsinh": "asinh", "arctan": "atan", "arctan2": "atan2", "arctanh": "atanh",
    "bitwise_not": "bitwise_invert", "invert": "bitwise_invert", "conjugate": "conj",
    "left_shift": "bitwise_left_shift", "right_shift": "bitwise_right_shift",
    "mod": "remainder", "power": "pow", "true_divide": "divide",
}
absolute, arccos, arccosh, arcsin = _api.abs, _api.acos, _api.acosh, _api.asin
arcsinh, arctan, arctan2, arctanh = _api.asinh, _api.atan, _api.atan2, _api.atanh
bitwise_not = invert = _api.bitwise_invert
conjugate = _api.conj
left_shift, right_shift = _api.bitwise_left_shift, _api.bitwise_right_shift
mod, power, true_divide = _api.remainder, _api.pow, _api.divide

# NumPy's scalar types and abstract type hierarchy (laxarray dtypes are NumPy dtypes).
bool_ = np.bool_
int_, uint = np.int_, np.uint
single, double, csingle, cdouble = np.single, np.double, np.csingle, np.cdouble
generic, number, integer, signedinteger = np.generic, np.number, np.integer, np.signedinteger
unsignedinteger, inexact, floating = np.unsignedinteger, np.inexact, np.floating
complexfloating, character, flexible, object_ = (np.complexfloating, np.character,
                                                  np.flexible, np.object_)
dtype = np.dtype
ndarray = Array
euler_gamma = np.euler_gamma
iterable = np.iterable
get_printoptions, set_printoptions, printoptions = (np.get_printoptions, np.set_printoptions,
                                                     np.printoptions)


def _reduce_extreme(fn, reduce, combine, a, axis, out, keepdims, initial, where):
    check_out(fn, out)
    x = asarray(a)
    if where is not None:
        if initial is None:
            fail_text(ValueError, fn, "'where' needs 'initial' (the value of masked-out "
                                      "elements)")
        x = _st_where(where, x, initial)
    axis = tuple(axis) if isinstance(axis, list) else axis
    if initial is not None and math.prod(x.shape) == 0:
        # NumPy: an empty reduction with ``initial`` gives ``initial`` (cast to a's dtype):
        # reduce a stand-in whose reduced axes hold it once instead
        shape = list(x.shape)
        for ax in range(x.ndim) if axis is None else (
                axis if isinstance(axis, tuple) else (axis,)):
            shape[normalize_axis(fn, ax, x.ndim)] = 1
        x = _mp.broadcast_to(_api.astype(asarray(initial), x.dtype), tuple(shape))
        return finish_out(fn, out, reduce(x, axis=axis, keepdims=keepdims))
    res = reduce(x, axis=axis, keepdims=keepdims)
    return finish_out(fn, out, res if initial is None else combine(res, initial))


def _st_where(mask, x, fill):
    return where(asarray(mask, dtype=_dt.bool_), x, fill)


_EXTREMUM_RAISES_NOTES_EXAMPLES = _docs.compose("""
Raises
------
TypeError
    If ``a`` is not array_like, or ``out`` is not an array.
ValueError
    If a reduced axis is empty and no ``initial`` is given, or ``where`` is given
    without ``initial``.
{axis_error}

Notes
-----
Static under ``jax.jit``: ``axis``, ``keepdims`` (``initial`` and ``where`` may be traced).

An empty reduction gives ``initial`` (cast to ``a``'s dtype), as NumPy's, and raises
without it.  Complex input is ordered
lexicographically (real part, then imaginary), as NumPy orders it.

Examples
--------
>>> import laxarray as la""", axis_error=_docs.AXIS_ERROR)


_EXTREMUM_PARAMETERS_RETURNS = _docs.compose("""
Parameters
----------
{array}
{axes_all}
out : Array or numpy.ndarray, optional
    NumPy's ``out``: the result is written into it (same shape, a dtype the result casts
    to by ``same_kind``) and it is returned.
{keepdims}
initial : scalar, optional
    The value masked-out elements take (required with ``where``).
where : array_like of bool, optional
    Which elements take part; broadcasts against ``a``.

Returns
-------
Array""", array=_docs.ARRAY, axes_all=_docs.AXES_ALL, keepdims=_docs.KEEPDIMS)


@fill(extremum_parameters_returns=_EXTREMUM_PARAMETERS_RETURNS,
      extremum_raises_notes_examples=_EXTREMUM_RAISES_NOTES_EXAMPLES)
def amax(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    """Return the maximum of an array, or maxima along the given axes.

    Array API: max (this is NumPy's signature). NumPy: numpy.amax.

    {extremum_parameters_returns}
        The maxima, of ``a``'s dtype; NaN propagates.

    {extremum_raises_notes_examples}
    >>> a = la.asarray([[1, 2], [3, 4]])
    >>> la.amax(a)
    Array(4)
    >>> la.amax(a, axis=0)
    Array([3, 4])
    >>> la.amax(a, where=la.asarray([[True, False], [True, False]]), initial=0)
    Array(3)
    """
    return _reduce_extreme("amax", _st.max, _ew.maximum, a, axis, out, keepdims, initial, where)


@fill(extremum_parameters_returns=_EXTREMUM_PARAMETERS_RETURNS,
      extremum_raises_notes_examples=_EXTREMUM_RAISES_NOTES_EXAMPLES)
def amin(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    """Return the minimum of an array, or minima along the given axes.

    Array API: min (this is NumPy's signature). NumPy: numpy.amin.

    {extremum_parameters_returns}
        The minima, of ``a``'s dtype; NaN propagates.

    {extremum_raises_notes_examples}
    >>> a = la.asarray([[1, 2], [3, 4]])
    >>> la.amin(a)
    Array(1)
    >>> la.amin(a, axis=1)
    Array([1, 3])
    >>> la.amin(a, where=la.asarray([[False, True], [False, True]]), initial=9)
    Array(2)
    """
    return _reduce_extreme("amin", _st.min, _ew.minimum, a, axis, out, keepdims, initial, where)


@fill(dtype_promoted=_docs.DTYPE_PROMOTED, axis_error_axis=_docs.AXIS_ERROR_AXIS)
def concatenate(arrays, axis=0, out=None, *, dtype=None):
    """Join a sequence of arrays along an existing axis.

    Array API: concat. NumPy: numpy.concatenate.

    Parameters
    ----------
    arrays : sequence of array_like
        The arrays, of one rank and equal shapes except along ``axis``.
    axis : int or None, optional
        The axis to join along; default 0; None flattens every array first.
    out : Array or numpy.ndarray, optional
        NumPy's ``out``: the result is written into it (same shape, a dtype the result casts
        to by ``same_kind``) and it is returned.
    {dtype_promoted}

    Returns
    -------
    Array
        The joined array.

    Raises
    ------
    TypeError
        If an element is not array_like, or ``out`` is not an array.
    ValueError
        If ``arrays`` is empty, or the ranks or the other axes' sizes differ.
    {axis_error_axis}

    Notes
    -----
    Static under ``jax.jit``: ``axis``, ``dtype``.

    Errors name :func:`concat`, the standard's function it calls.

    Examples
    --------
    >>> import laxarray as la
    >>> a = la.asarray([[1, 2], [3, 4]])
    >>> la.concatenate([a, a], axis=1)
    Array([[1, 2, 1, 2],
           [3, 4, 3, 4]])
    >>> la.concatenate([a, a], axis=None)
    Array([1, 2, 3, 4, 1, 2, 3, 4])
    """
    check_out("concatenate", out)
    res = _join.concat([asarray(a) for a in arrays], axis=axis)
    if dtype is not None:
        res = _api.astype(res, _dt.canonicalize_dtype("concatenate", dtype))
    return finish_out("concatenate", out, res)


@fill(array=_docs.ARRAY, type_error_a=_docs.TYPE_ERROR_A)
def transpose(a, axes=None):
    """Permute the axes of an array.

    Array API: permute_dims. NumPy: numpy.transpose.

    Parameters
    ----------
    {array}
    axes : sequence of ints, optional
        A permutation of ``range(a.ndim)``; default the reverse order.

    Returns
    -------
    Array
        ``a`` with its axes permuted.

    Raises
    ------
    {type_error_a}
    ValueError
        If ``axes`` is not a permutation.

    Notes
    -----
    Static under ``jax.jit``: ``axes``.

    Errors name :func:`permute_dims`, the standard's function it calls.

    Examples
    --------
    >>> import laxarray as la
    >>> la.transpose(la.ones((2, 3, 4))).shape
    (4, 3, 2)
    >>> la.transpose(la.ones((2, 3, 4)), (1, 0, 2)).shape
    (3, 2, 4)
    """
    x = asarray(a)
    return _mp.permute_dims(x, tuple(range(x.ndim))[::-1] if axes is None else tuple(axes))


@fill(array=_docs.ARRAY, type_error_a=_docs.TYPE_ERROR_A, axis_error=_docs.AXIS_ERROR)
def swapaxes(a, axis1, axis2):
    """Interchange two axes of an array.

    Array API: (not in the standard). NumPy: numpy.swapaxes.

    Parameters
    ----------
    {array}
    axis1, axis2 : int
        The axes to interchange.

    Returns
    -------
    Array
        ``a`` with the two axes swapped.

    Raises
    ------
    {type_error_a}
    {axis_error}

    Notes
    -----
    Static under ``jax.jit``: ``axis1``, ``axis2``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.swapaxes(la.ones((2, 3, 4)), 0, 2).shape
    (4, 3, 2)
    """
    x = asarray(a)
    i = normalize_axis("swapaxes", axis1, x.ndim, "axis1")
    j = normalize_axis("swapaxes", axis2, x.ndim, "axis2")
    perm = list(range(x.ndim))
    perm[i], perm[j] = j, i
    return _mp.permute_dims(x, tuple(perm))


@fill(array=_docs.ARRAY, type_error_a=_docs.TYPE_ERROR_A, axis_error_axis=_docs.AXIS_ERROR_AXIS)
def rollaxis(a, axis, start=0):
    """Roll an axis backwards until it lies before a position.

    Array API: (not in the standard). NumPy: numpy.rollaxis.

    Parameters
    ----------
    {array}
    axis : int
        The axis to move.
    start : int, optional
        The axis goes before the one now at ``start``; default 0 (in ``[-ndim, ndim]``).

    Returns
    -------
    Array
        ``a`` with the axes reordered (prefer :func:`moveaxis`, the standard's).

    Raises
    ------
    {type_error_a}
    ValueError
        If ``start`` is out of range.
    {axis_error_axis}

    Notes
    -----
    Static under ``jax.jit``: ``axis``, ``start``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.rollaxis(la.ones((2, 3, 4)), 2).shape
    (4, 2, 3)
    >>> la.rollaxis(la.ones((2, 3, 4)), 0, 2).shape
    (3, 2, 4)
    """
    x = asarray(a)
    ax = normalize_axis("rollaxis", axis, x.ndim)
    start = check_int("rollaxis", start, "start")
    if not -x.ndim <= start <= x.ndim:
        fail(ValueError, "rollaxis", f"'start' in [{-x.ndim}, {x.ndim}]", start)
    start = start + x.ndim if start < 0 else start
    if ax < start:
        start -= 1
    return _mp.moveaxis(x, ax, start)


@fill(array=_docs.ARRAY, type_error_a=_docs.TYPE_ERROR_A)
def ravel(a, order="C"):
    """Return the flattened array.

    Array API: (not in the standard). NumPy: numpy.ravel.

    Parameters
    ----------
    {array}
    order : {'C', 'F', 'A', 'K'}, optional
        Read the elements in row-major (``'C'``, default) or column-major (``'F'``) order;
        ``'A'`` and ``'K'`` read as ``'C'`` (laxarray has no memory layouts).

    Returns
    -------
    Array
        A 1-D array of ``a.size`` elements.

    Raises
    ------
    {type_error_a}
    ValueError
        If ``order`` is not one of the four.

    Notes
    -----
    Static under ``jax.jit``: ``order``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.ravel(la.asarray([[1, 2], [3, 4]]))
    Array([1, 2, 3, 4])
    >>> la.ravel(la.asarray([[1, 2], [3, 4]]), order="F")
    Array([1, 3, 2, 4])
    """
    x = asarray(a)
    if order not in ("C", "F", "A", "K"):
        fail(ValueError, "ravel", "'order' one of 'C', 'F', 'A', 'K'", order)
    if order == "F":
        x = transpose(x)
    return _mp.reshape(x, (math.prod(x.shape),))


_COUNT_RETURNS_NOTES_EXAMPLES = _docs.compose("""
Returns
-------
int

Notes
-----
Static under ``jax.jit``: not applicable (a Python int).

Examples
--------
>>> import laxarray as la""")


@fill(count_returns_notes_examples=_COUNT_RETURNS_NOTES_EXAMPLES)
def ndim(a):
    """Return the number of dimensions of an array-like.

    Array API: (not in the standard). NumPy: numpy.ndim.

    Parameters
    ----------
    a : array_like
        Any array-like.

    {count_returns_notes_examples}
    >>> la.ndim([[1, 2]])
    2
    """
    return a.ndim if isinstance(a, Array) else np.ndim(a)


def shape(a):
    """Return the shape of an array-like.

    Array API: (not in the standard). NumPy: numpy.shape.

    Parameters
    ----------
    a : array_like
        Any array-like.

    Returns
    -------
    tuple of ints

    Notes
    -----
    Static under ``jax.jit``: not applicable (a Python tuple).

    Examples
    --------
    >>> import laxarray as la
    >>> la.shape([[1, 2]])
    (1, 2)
    """
    return tuple(a.shape) if isinstance(a, Array) else np.shape(a)


@fill(count_returns_notes_examples=_COUNT_RETURNS_NOTES_EXAMPLES)
def size(a, axis=None):
    """Return the number of elements of an array-like, or along an axis.

    Array API: (not in the standard). NumPy: numpy.size.

    Parameters
    ----------
    a : array_like
        Any array-like.
    axis : int, optional
        The axis; default all.

    {count_returns_notes_examples}
    >>> la.size([[1, 2], [3, 4]])
    4
    >>> la.size([[1, 2], [3, 4]], axis=0)
    2
    """
    s = shape(a)
    if axis is None:
        return math.prod(s)
    return s[normalize_axis("size", axis, len(s))]


def isscalar(element):
    """Whether ``element`` is a scalar: a Python/NumPy scalar or a 0-d laxarray array (as
    ``jax.numpy.isscalar``)."""
    if isinstance(element, Array):
        return element.ndim == 0
    return bool(np.isscalar(element))


def issubdtype(arg1, arg2):
    """NumPy's ``issubdtype`` (laxarray dtypes are NumPy dtypes); bfloat16 is a ``floating``.

    NumPy: numpy.issubdtype.
    """
    if isinstance(arg2, type) and arg2 in (np.floating, np.inexact, np.number):
        try:
            if _dt.kind_of(arg1) == "f":
                return True
        except TypeError:  # not a dtype (e.g. a Python scalar type NumPy knows): NumPy decides
            pass
    return bool(np.issubdtype(arg1, arg2))


def promote_types(a, b):
    """The dtype both promote to (NumPy 2's rules, as laxarray's operators use)."""
    a, b = np.dtype(a), np.dtype(b)
    if (a, b) not in _dt.PROMOTION_TABLE:   # dtypes laxarray has no arrays of: NumPy's rule
        return _dt.on_device(np.promote_types(a, b))
    return _dt.promote_types(a, b)


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    """NumPy's ``array_repr`` of the array's values (eager only)."""
    return np.array_repr(np.asarray(arr), max_line_width, precision, suppress_small)


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    """NumPy's ``array_str`` of the array's values (eager only)."""
    return np.array_str(np.asarray(a), max_line_width, precision, suppress_small)


def save(file, arr, allow_pickle=True):
    """Save an array to a file in NumPy's ``.npy`` format.

    Array API: (not in the standard). NumPy: numpy.save.

    Parameters
    ----------
    file : str, os.PathLike or file
        The destination (NumPy appends ``.npy`` to a name without it).
    arr : array_like
        The array; copied to the host.
    allow_pickle : bool, optional
        NumPy's; default True.

    Returns
    -------
    None

    Notes
    -----
    Static under ``jax.jit``: not applicable: eager only.

    The file is NumPy's: ``numpy.load`` reads it.

    Examples
    --------
    >>> import laxarray as la
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     la.save(os.path.join(d, "a.npy"), la.asarray([[1, 2], [3, 4]]))
    ...     la.load(os.path.join(d, "a.npy"))
    Array([[1, 2],
           [3, 4]])
    """
    np.save(file, np.asarray(arr), allow_pickle=allow_pickle)


def savez(file, *args, allow_pickle=True, **kwds):
    """Save several arrays in NumPy's ``.npz`` format (eager only)."""
    np.savez(file, *(np.asarray(a) for a in args), allow_pickle=allow_pickle,
             **{k: np.asarray(v) for k, v in kwds.items()})


def load(file, *args, **kwargs):
    """Load an array from a NumPy ``.npy`` file (or the arrays of a ``.npz`` file).

    Array API: (not in the standard). NumPy: numpy.load.

    Parameters
    ----------
    file : str, os.PathLike or file
        The source.
    *args, **kwargs
        ``numpy.load``'s other arguments (``mmap_mode``, ``allow_pickle`` ...).

    Returns
    -------
    Array or NpzFile
        A laxarray array for ``.npy``; NumPy's lazy file of arrays for ``.npz``.

    Raises
    ------
    OSError
        If the file cannot be read (``FileNotFoundError`` if it does not exist).

    Notes
    -----
    Static under ``jax.jit``: not applicable: eager only.

    Examples
    --------
    >>> import laxarray as la
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     la.save(os.path.join(d, "a.npy"), la.arange(3))
    ...     la.load(os.path.join(d, "a.npy"))
    Array([0, 1, 2])
    """
    out = np.load(file, *args, **kwargs)
    return asarray(out) if isinstance(out, np.ndarray) else out


def frombuffer(buffer, dtype=float, count=-1, offset=0):
    """A 1-D array from a bytes-like buffer (a copy; eager only)."""
    return asarray(np.frombuffer(buffer, dtype=dtype, count=count, offset=offset))


def fromstring(string, dtype=float, count=-1, *, sep):
    """A 1-D array from text data separated by ``sep`` (eager only)."""
    return asarray(np.fromstring(string, dtype=dtype, count=count, sep=sep))


def fromfile(file, dtype=float, count=-1, sep="", offset=0):
    """A 1-D array from a binary or text file (eager only: it reads a file)."""
    return asarray(np.fromfile(file, dtype=dtype, count=count, sep=sep, offset=offset))


def fromiter(iter, dtype, count=-1):
    """A 1-D array from an iterable (eager only: it consumes a Python iterator)."""
    return asarray(np.fromiter(iter, dtype=dtype, count=count))


# The ALIASES keys spelled out (a literal list is what type checkers read for ``import *``;
# test_np_coverage checks the two agree), then the rest.
__all__ = ["absolute", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh",
           "bitwise_not", "invert", "conjugate", "left_shift", "right_shift", "mod", "power",
           "true_divide"]
__all__ += ["bool_", "int_", "uint", "single", "double", "csingle", "cdouble",
            "generic", "number", "integer", "signedinteger",
            "unsignedinteger", "inexact", "floating", "complexfloating", "character",
            "flexible", "object_", "dtype", "ndarray", "euler_gamma", "iterable",
            "get_printoptions", "set_printoptions", "printoptions", "amax", "amin",
            "concatenate", "transpose", "swapaxes", "rollaxis", "ravel", "ndim",
            "shape", "size", "isscalar", "issubdtype", "promote_types", "array_repr",
            "array_str", "save", "savez", "load", "frombuffer", "fromstring",
            "fromfile", "fromiter"]
