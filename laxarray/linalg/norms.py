"""Norms and condition numbers: vector_norm, matrix_norm, norm (NumPy), cond (NumPy).

Results are real: ``float32`` for float32/complex64 input, ``float64`` for float64,
complex128 and (promoted) integer or bool input.  ``ord``, ``axis`` and ``keepdims`` are
static under ``jax.jit``.  Reductions that NumPy refuses on empty input (a minimum over
nothing, or a maximum without an initial value) raise ``ValueError`` here too.
"""

from __future__ import annotations

import math

from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core.errors import LinAlgError, fail
from laxarray._core.runtime.kernel import kernel, reduce_extreme
from laxarray._core.validate import check_bool, normalize_axes, normalize_axis
from laxarray.array_api._calls import call
from laxarray.linalg import _docs
from laxarray.linalg import _matrix_ops as M
from laxarray.linalg import _status as status
from laxarray.linalg._operands import float_operand, matrix_operand
from laxarray._core.jax_regions import in_wide_region

INF = math.inf
_MATRIX_ORDS = (1, -1, 2, -2, INF, -INF, "fro", "nuc")


def _check_number_ord(fn, ord):
    if isinstance(ord, bool) or not isinstance(ord, (int, float)):
        fail(ValueError if isinstance(ord, str) else TypeError, fn,
             "a real number (or +-inf) for 'ord'", ord)
    return float(ord)


def _vector_norm_raw(x, axes, ord):
    """The vector norm of ``x`` over ``axes`` (no keepdims) in the real dtype."""
    a = lax.abs(x)
    if ord == INF:  # an empty reduction gives 0 (NumPy), not max's identity -inf
        m = reduce_extreme(a, axes, True)
        return lax.max(m, lax.full_like(m, 0))
    if ord == -INF:
        return reduce_extreme(a, axes, False)
    if ord == 0:
        return lax.reduce_sum(lax.convert_element_type(lax.ne(a, lax.full_like(a, 0)),
                                                       a.dtype), axes)
    if ord == 1:
        return lax.reduce_sum(a, axes)
    if ord == 2:
        return lax.sqrt(lax.reduce_sum(lax.mul(a, a), axes))
    p = lax.full((), ord, a.dtype)
    return lax.pow(lax.reduce_sum(lax.pow(a, p), axes), lax.div(lax.full_like(p, 1), p))


def _keep(y, axes, keepdims):
    return lax.expand_dims(y, axes) if keepdims and axes else y


@kernel(static=("dtype", "axes", "ord", "keepdims"))
def _vector_norm_kernel(x, *, dtype, axes, ord, keepdims):
    x = lax.convert_element_type(x, dtype)
    return _keep(_vector_norm_raw(x, axes, ord), axes, keepdims)


@in_wide_region
def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """Compute the vector p-norm of an array over the given axes.

    Array API: linalg.vector_norm. NumPy: numpy.linalg.vector_norm.

    Parameters
    ----------
    x : array_like
        The input array.
    axis : int or tuple of ints, optional
        The axes the vectors lie along (several axes: their elements together); default all.
    keepdims : bool, optional
        Keep the reduced axes with size one; default False.
    ord : int, float or inf, optional
        The order ``p``: any real number or ``+-inf``; default 2.  0 counts the non-zero
        elements, ``inf`` is the largest magnitude, ``-inf`` the smallest, and other values
        ``sum(abs(x)**p)**(1/p)``.

    Returns
    -------
    Array
        The norms, of ``x``'s shape without ``axis`` (or with size-one axes there), in the
        real floating dtype.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``keepdims`` is not a bool.
    ValueError
        If ``ord`` is not a real number (a string such as ``'fro'``), ``axis`` repeats an
        axis, or ``ord=-inf`` reduces an empty axis.
    AxisError
        If an axis is out of range.

    Notes
    -----
    Static under ``jax.jit``: ``axis``, ``keepdims``, ``ord``.

    Bool and integer input is computed in the default floating dtype; the result is real
    (float32 for complex64).  Half precision is accepted (no LAPACK is used).

    Examples
    --------
    >>> import laxarray as la
    >>> la.linalg.vector_norm(la.asarray([3.0, 4.0]))
    Array(5.)
    >>> la.linalg.vector_norm(la.asarray([3.0, -4.0]), ord=1)
    Array(7.)
    >>> la.linalg.vector_norm(la.asarray([3, 4]), ord=la.inf)
    Array(4.)
    """
    v, dt = float_operand("vector_norm", x)
    axes = normalize_axes("vector_norm", axis, v.ndim)
    keepdims = check_bool("vector_norm", keepdims, "keepdims")
    ord = _check_number_ord("vector_norm", ord)
    if ord == -INF and math.prod(v.shape[a] for a in axes) == 0:
        fail(ValueError, "vector_norm", "a non-empty reduction for ord=-inf", x)
    return call(_vector_norm_kernel, v, dtype=dt, axes=axes, ord=ord, keepdims=keepdims)


def _matrix_norm_raw(x, row, col, ord, failed=None):
    """The matrix norm over axes ``(row, col)`` (removed from the result), real dtype.
    For the SVD-based ords, ``failed`` (a list) receives ``_status.svd_failed``."""
    if ord in ("fro", None):
        a = lax.abs(x)
        return lax.sqrt(lax.reduce_sum(lax.mul(a, a), (row, col)))
    if ord in (2, -2, "nuc"):
        rest = tuple(i for i in range(x.ndim) if i not in (row, col))
        s = M.svd(lax.transpose(x, rest + (row, col)), full_matrices=False, compute_uv=False)
        if failed is not None:
            failed.append(status.svd_failed(x, s))
        last = (s.ndim - 1,)
        if ord == "nuc":
            return lax.reduce_sum(s, last)
        if s.shape[-1] == 0:  # only reached for ord=2 (NumPy's initial=0)
            return lax.full(s.shape[:-1], 0, s.dtype)
        return reduce_extreme(s, last, ord == 2)
    a = lax.abs(x)
    if ord in (1, -1):
        sums, axis = lax.reduce_sum(a, (row,)), col - (col > row)
    else:
        sums, axis = lax.reduce_sum(a, (col,)), row - (row > col)
    if ord > 0:
        if sums.shape[axis] == 0:
            return lax.full(tuple(d for i, d in enumerate(sums.shape) if i != axis), 0,
                            sums.dtype)
        return reduce_extreme(sums, (axis,), True)
    return reduce_extreme(sums, (axis,), False)


@kernel(static=("dtype", "row", "col", "ord", "keepdims"))
def _matrix_norm_kernel(x, *, dtype, row, col, ord, keepdims):
    x = lax.convert_element_type(x, dtype)
    failed = []
    out = _keep(_matrix_norm_raw(x, row, col, ord, failed), tuple(sorted((row, col))), keepdims)
    return out, (failed[0] if failed else lax.full((), False, bool))


def _check_matrix_ord(fn, ord, shape, row, col):
    if isinstance(ord, str):
        if ord not in ("fro", "nuc", "f"):
            fail(ValueError, fn, "'ord' to be one of 1, -1, 2, -2, inf, -inf, 'fro', 'nuc'",
                 ord)
        return "fro" if ord == "f" else ord
    if isinstance(ord, bool) or not isinstance(ord, (int, float)) or ord not in _MATRIX_ORDS:
        fail(ValueError, fn, "'ord' to be one of 1, -1, 2, -2, inf, -inf, 'fro', 'nuc'", ord)
    m, n = shape[row], shape[col]
    empty = {-1: n == 0, -INF: m == 0, -2: min(m, n) == 0}.get(ord, False)
    if empty:
        fail(ValueError, fn, f"non-empty matrices for ord={ord}", shape)
    return ord if ord in (INF, -INF) else int(ord)


@in_wide_region
@fill(params=_docs.PARAMS_MATRICES)
def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """Compute a matrix norm of the last two axes.

    Array API: linalg.matrix_norm. NumPy: numpy.linalg.matrix_norm.

    {params}
    keepdims : bool, optional
        Keep the last two axes with size one; default False.
    ord : {'fro', 'nuc', 1, -1, 2, -2, inf, -inf}, optional
        The norm: ``'fro'`` (default, Frobenius), ``'nuc'`` (sum of singular values),
        ``1``/``-1`` (largest/smallest column sum of magnitudes), ``2``/``-2``
        (largest/smallest singular value), ``inf``/``-inf`` (largest/smallest row sum).

    Returns
    -------
    Array
        The norms, of shape ``x.shape[:-2]`` (or with two size-one axes), in the real
        floating dtype.

    Raises
    ------
    TypeError
        If ``x`` is not array_like or of a dtype linalg does not compute in here.  Also if
        ``keepdims`` is not a bool.
    ValueError
        If ``ord`` is not one of the above.
    LinAlgError
        If ``x`` has rank below two; eagerly, for the SVD-based ``ord`` (``2``, ``-2``,
        ``'nuc'``), if the SVD does not converge (input with NaN).

    Notes
    -----
    Static under ``jax.jit``: ``keepdims``, ``ord``.

    Bool and integer input is computed in the default floating dtype; the result is real
    (float32 for complex64).  Half precision raises ``TypeError`` (LAPACK has none, NumPy
    refuses it too), and so does float64/complex128 on a TPU, whose linalg computes in
    float32/complex64 only.

    Examples
    --------
    >>> import laxarray as la
    >>> a = la.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> la.linalg.matrix_norm(a, ord=1)
    Array(6.)
    >>> la.linalg.matrix_norm(a, ord="nuc")
    Array(5.83095189)
    """
    v, dt = matrix_operand("matrix_norm", x)
    keepdims = check_bool("matrix_norm", keepdims, "keepdims")
    ord = _check_matrix_ord("matrix_norm", ord, v.shape, v.ndim - 2, v.ndim - 1)
    return _checked(call(_matrix_norm_kernel, v, dtype=dt, row=v.ndim - 2, col=v.ndim - 1,
                         ord=ord, keepdims=keepdims))


def _checked(pair):
    """The value of a ``(value, svd failed)`` kernel result, raising eagerly as NumPy does."""
    status.raise_if(pair[1], status.SVD_NOT_CONVERGED)
    return pair[0]


@in_wide_region
def norm(x, ord=None, axis=None, keepdims=False):
    """Compute a vector or matrix norm with NumPy's rules.

    Array API: (not in the standard; see vector_norm and matrix_norm). NumPy: numpy.linalg.norm.

    Parameters
    ----------
    x : array_like
        The input array.
    ord : {None, int, float, inf, 'fro', 'nuc'}, optional
        The order: a number for vector norms (as :func:`vector_norm`'s ``ord``), one of
        :func:`matrix_norm`'s for matrix norms; default None, the 2-norm (Frobenius for
        matrices).
    axis : int or pair of ints, optional
        One axis: vector norms along it; two: matrix norms over them.  Default None: the
        2-norm of the flattened array if ``ord`` is None, else ``x`` must be 1-D or 2-D.
    keepdims : bool, optional
        Keep the reduced axes with size one; default False.

    Returns
    -------
    Array
        The norms, in the real floating dtype.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``keepdims`` is not a bool.
    ValueError
        If ``axis`` has more than two axes (or, with ``axis=None`` and an ``ord``, ``x`` is
        neither 1-D nor 2-D), the matrix axes are equal, ``ord`` does not fit the norm, or
        ``ord=-inf`` reduces an empty axis.
    AxisError
        If an axis is out of range.
    LinAlgError
        Eagerly, for the SVD-based matrix norms (``2``, ``-2``, ``'nuc'``), if the SVD does
        not converge (input with NaN).

    Notes
    -----
    Static under ``jax.jit``: ``ord``, ``axis``, ``keepdims``.

    Bool and integer input is computed in the default floating dtype; the result is real
    (float32 for complex64).

    Examples
    --------
    >>> import laxarray as la
    >>> la.linalg.norm(la.asarray([3.0, 4.0]))
    Array(5.)
    >>> a = la.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> la.linalg.norm(a, axis=1)
    Array([2.23606798, 5.        ])
    >>> la.linalg.norm(a, ord=1)
    Array(6.)
    """
    v, dt = float_operand("norm", x)
    keepdims = check_bool("norm", keepdims, "keepdims")
    nd = v.ndim
    if axis is None:
        if ord is None or (ord in ("f", "fro") and nd == 2) or (ord == 2 and nd == 1):
            axes = tuple(range(nd))
            return call(_vector_norm_kernel, v, dtype=dt, axes=axes, ord=2.0,
                        keepdims=keepdims)
        axis = tuple(range(nd))
    elif isinstance(axis, list):
        axis = tuple(axis)
    elif not isinstance(axis, tuple):
        axis = (normalize_axis("norm", axis, nd),)
    if len(axis) == 1:
        ax = (normalize_axis("norm", axis[0], nd),)
        if isinstance(ord, str):
            fail(ValueError, "norm", "a number for 'ord' with vector norms", ord)
        ord = 2.0 if ord is None else _check_number_ord("norm", ord)
        if ord == -INF and v.shape[ax[0]] == 0:
            fail(ValueError, "norm", "a non-empty reduction for ord=-inf", x)
        return call(_vector_norm_kernel, v, dtype=dt, axes=ax, ord=ord, keepdims=keepdims)
    if len(axis) == 2:
        row = normalize_axis("norm", axis[0], nd)
        col = normalize_axis("norm", axis[1], nd)
        if row == col:
            fail(ValueError, "norm", "two different axes for a matrix norm", axis)
        ord = _check_matrix_ord("norm", "fro" if ord is None else ord, v.shape, row, col)
        return _checked(call(_matrix_norm_kernel, v, dtype=dt, row=row, col=col, ord=ord,
                             keepdims=keepdims))
    fail(ValueError, "norm", "an 'axis' of one or two axes (or x of rank 1 or 2)", axis)


@kernel(static=("dtype", "p"))
def _cond_kernel(x, *, dtype, p):
    x = lax.convert_element_type(x, dtype)
    last = (x.ndim - 2, x.ndim - 1)
    failed = lax.full((), False, bool)
    if p in (None, 2, -2):
        s = M.svd(x, full_matrices=False, compute_uv=False)
        failed = status.svd_failed(x, s)
        hi, lo = lax.index_in_dim(s, 0, s.ndim - 1, False), lax.index_in_dim(s, -1, s.ndim - 1,
                                                                              False)
        r = lax.div(lo, hi) if p == -2 else lax.div(hi, lo)
    else:
        # NumPy inverts with its errors off: a singular matrix is NaN here (inf below), not
        # an error.  Zero pivots are replaced by ones for the solve, so that no triangular
        # solve divides by zero (what checkify's linalg_checks report as a singular solve).
        lu, _, perm = M.lu_factor(x)
        singular = status.zero_on_diagonal(lu)
        eye = lax.convert_element_type(M.identity(x.shape[:-2], x.shape[-1], dtype), bool)
        pivot_zero = lax.bitwise_and(eye, lax.eq(lu, lax.full_like(lu, 0)))
        lu = lax.select(pivot_zero, lax.full_like(lu, 1), lu)
        xinv = M.lu_solve(lu, perm, M.identity(x.shape[:-2], x.shape[-1], dtype))
        r = lax.mul(_matrix_norm_raw(x, *last, p), _matrix_norm_raw(xinv, *last, p))
        r = lax.select(singular, lax.full_like(r, math.nan), r)
    # NumPy: a singular matrix has condition number inf (unless x itself holds NaN)
    x_nan = lax.reduce_or(lax.ne(x, x), last)
    inf = lax.full_like(r, math.inf)
    return lax.select(lax.bitwise_and(lax.ne(r, r), lax.bitwise_not(x_nan)), inf, r), failed


@in_wide_region
@fill(raises=_docs.RAISES_TYPE, dtypes=_docs.DTYPES)
def cond(x, p=None):
    """Compute the condition number of matrices.

    Array API: (not in the standard). NumPy: numpy.linalg.cond.

    Parameters
    ----------
    x : array_like
        A stack of non-empty matrices ``(..., M, N)`` (square unless ``p`` is None, 2 or -2).
    p : {None, 1, -1, 2, -2, inf, -inf, 'fro', 'nuc'}, optional
        The norm: None/2/-2 the ratio of the extreme singular values (largest over smallest,
        or its inverse for -2); the others ``norm(x, p) * norm(inv(x), p)``.  Default None.

    Returns
    -------
    Array
        The condition numbers, of shape ``x.shape[:-2]``, real; ``inf`` for a singular matrix.

    {raises}
    ValueError
        If a matrix is empty or ``p`` is not one of the above.
    LinAlgError
        If ``x`` has rank below two, or its matrices are not square for a ``p`` that needs
        it; eagerly, for ``p`` None/2/-2, if the SVD does not converge (input with NaN).

    Notes
    -----
    Static under ``jax.jit``: ``p``.

    {dtypes}

    Examples
    --------
    >>> import laxarray as la
    >>> la.linalg.cond(la.asarray([[1.0, 0.0], [0.0, 2.0]]))
    Array(2.)
    >>> la.linalg.cond(la.asarray([[1.0, 0.0], [0.0, 0.0]]))
    Array(inf)
    """
    v, dt = matrix_operand("cond", x)
    if v.shape[-1] == 0 or v.shape[-2] == 0:
        fail(ValueError, "cond", "non-empty matrices", x)
    if p is not None:
        p = _check_matrix_ord("cond", p, v.shape, v.ndim - 2, v.ndim - 1)
        if p not in (2, -2) and v.shape[-1] != v.shape[-2]:
            fail(LinAlgError, "cond", f"square matrices for p={p!r}", x)
    return _checked(call(_cond_kernel, v, dtype=dt, p=p))


__all__ = ["vector_norm", "matrix_norm", "norm", "cond"]
