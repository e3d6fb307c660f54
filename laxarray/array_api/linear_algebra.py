"""Linear algebra in the main namespace: matmul (more in the linear-algebra issue)."""

from __future__ import annotations

from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.errors import AxisError, OperandValueError, fail
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import normalize_axis
from laxarray._core.numerics import dot_general
from laxarray.array_api._docs import AXIS_STATIC
from laxarray.array_api._array import Array
from laxarray.array_api._broadcast import broadcast_shapes2
from laxarray.array_api._calls import call
from laxarray.array_api._convert import as_array
from laxarray.array_api._method_bodies import provide
from laxarray.array_api._ufunc import binary_operands, cast_broadcast
from laxarray.array_api.manipulation import permute_dims
from laxarray._core.jaxapi import in_wide_mode
from laxarray._core.jax_regions import in_wide_region


def _zero_fill(dtype, static):
    return 0


def _matmul_shape(s1, s2):
    """matmul's result shape, with its shape checks (bucketed calls run these first)."""
    if len(s1) == 0 or len(s2) == 0:
        fail(ValueError, "matmul", "arrays of rank >= 1", s1 if len(s1) == 0 else s2)
    k1 = s1[-1]
    k2 = s2[0] if len(s2) == 1 else s2[-2]
    if k1 != k2:
        fail(ValueError, "matmul", f"matching contraction dimensions ({k1} != {k2})",
             (tuple(s1), tuple(s2)))
    if len(s1) == 1:
        return tuple(s2[:-2]) + tuple(s2[-1:]) if len(s2) > 1 else ()
    if len(s2) == 1:
        return tuple(s1[:-1])
    batch = broadcast_shapes2("matmul", tuple(s1[:-2]), tuple(s2[:-2]))
    return batch + (s1[-2], s2[-1])


@kernel(fills=(_zero_fill, _zero_fill), shape=_matmul_shape)
def _matmul_kernel(a, b):
    """Checks (at trace time: shapes and dtypes are static) and one ``dot_general``."""
    dtype = a.dtype if a.dtype == b.dtype else _dt.promote_types(a.dtype, b.dtype)
    if dtype not in _dt.CATEGORIES["numeric"] and dtype != _dt.bool_:
        _dt.check_category("matmul", "x1, x2", dtype, "numeric")
    if a.ndim == 0 or b.ndim == 0:
        fail(ValueError, "matmul", "arrays of rank >= 1", a.shape if a.ndim == 0 else b.shape)
    k1 = a.shape[-1]
    k2 = b.shape[0] if b.ndim == 1 else b.shape[-2]
    if k1 != k2:
        fail(ValueError, "matmul", f"matching contraction dimensions ({k1} != {k2})",
             (tuple(a.shape), tuple(b.shape)))
    batch = broadcast_shapes2("matmul", tuple(a.shape[:-2]), tuple(b.shape[:-2]))
    a = lax.convert_element_type(a, dtype)
    b = lax.convert_element_type(b, dtype)
    prec = dict(preferred_element_type=dtype)
    if a.ndim == 1 or b.ndim == 1:  # a vector operand: contract directly, no batch dims
        ca = (a.ndim - 1,)
        cb = (0,) if b.ndim == 1 else (b.ndim - 2,)
        return dot_general(a, b, ((ca, cb), ((), ())), **prec)
    nb = len(batch)
    if a.shape[:-2] != batch:
        a = lax.broadcast_in_dim(a, batch + a.shape[-2:],
                                 tuple(range(nb - (a.ndim - 2), nb + 2)))
    if b.shape[:-2] != batch:
        b = lax.broadcast_in_dim(b, batch + b.shape[-2:],
                                 tuple(range(nb - (b.ndim - 2), nb + 2)))
    bdims = tuple(range(nb))
    return dot_general(a, b, (((nb + 1,), (nb,)), (bdims, bdims)), **prec)


def matmul(x1, x2, /):
    """Return the matrix product of two arrays, with NumPy's rules for vectors and stacks.

    Array API: matmul. NumPy: numpy.matmul.

    Parameters
    ----------
    x1 : array_like
        The first operand, of rank at least one: a vector (as a row), a matrix, or a stack
        of matrices in its last two axes.
    x2 : array_like
        The second operand, likewise (a vector as a column); its second-to-last axis (its
        only one, for a vector) matches the last axis of ``x1``.  The stacks' leading axes
        broadcast together.

    Returns
    -------
    Array
        The product, of the promoted dtype: for two vectors a 0-d array; a vector operand's
        axis is removed from the result.

    Raises
    ------
    TypeError
        If an operand is a Python scalar (the error is also a ``ValueError``, as NumPy's),
        not array_like, or of no numeric or bool dtype.
    ValueError
        If an operand is 0-d, the contracted dimensions differ, or the stacks' shapes do not
        broadcast together.

    Notes
    -----
    Static under ``jax.jit``: none (the operands' shapes and dtypes choose the program).

    Traces to one ``dot_general``.  Floating-point products take the precision of
    ``get_matmul_precision()``: ``'highest'`` by default, as accurate as NumPy's (a TPU's
    default would be one bfloat16 pass).  On a TPU, which has no 64-bit integer product,
    int64 operands are multiplied elementwise and summed.  The operator ``x1 @ x2`` is this
    function.  Unlike NumPy, no ``out``, ``dtype`` or ``axes``.

    Examples
    --------
    >>> import laxarray as xp
    >>> a = xp.asarray([[1, 2], [3, 4]])
    >>> xp.matmul(a, a)
    Array([[ 7, 10],
           [15, 22]])
    >>> xp.matmul(a, xp.asarray([1, 1]))
    Array([3, 7])
    >>> xp.matmul(xp.ones((2, 1, 2, 3)), xp.ones((5, 3, 4))).shape
    (2, 5, 2, 4)
    """
    if type(x1) is Array and type(x2) is Array:   # (the shapes are checked in the kernel)
        return call(_matmul_kernel, x1, x2)
    for name, x in (("x1", x1), ("x2", x2)):
        if _dt.scalar_pytype(x) is not None:
            fail(OperandValueError, "matmul", f"an array for '{name}' (not a scalar)", x)
    v1, v2, _ = binary_operands("matmul", x1, x2, keep_arrays=True)
    return call(_matmul_kernel, v1, v2)


__all__ = ["matmul"]


@in_wide_mode
def matrix_transpose(x, /):
    """Transpose a matrix (or a stack of matrices): swap the last two axes.

    Array API: matrix_transpose. NumPy: numpy.matrix_transpose.

    Parameters
    ----------
    x : array_like
        The input array, of rank at least two.

    Returns
    -------
    Array
        A view of ``x`` with its last two axes swapped (as ``x.mT``).

    Raises
    ------
    TypeError
        If ``x`` is not array_like.
    ValueError
        If ``x`` has rank below two.

    Notes
    -----
    Static under ``jax.jit``: none.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.matrix_transpose(xp.asarray([[0, 1, 2], [3, 4, 5]]))
    Array([[0, 3],
           [1, 4],
           [2, 5]])
    """
    raw = as_array("matrix_transpose", x)
    if raw.ndim < 2:
        fail(ValueError, "matrix_transpose", "an array of rank >= 2", x)
    return permute_dims(raw, tuple(range(raw.ndim - 2)) + (raw.ndim - 1, raw.ndim - 2))


@kernel(static=("dtype", "axes1", "axes2"))
def _tensordot_kernel(a, b, *, dtype, axes1, axes2):
    a = lax.convert_element_type(a, dtype)
    b = lax.convert_element_type(b, dtype)
    return dot_general(a, b, ((axes1, axes2), ((), ())), preferred_element_type=dtype)


@in_wide_region
def tensordot(x1, x2, /, *, axes=2):
    """Return the tensor contraction of two arrays over the given axes.

    Array API: tensordot. NumPy: numpy.tensordot.

    Parameters
    ----------
    x1, x2 : array_like
        The operands: arrays or Python scalars (weak, NEP 50).
    axes : int or pair of sequences of ints, optional
        An int ``n``: the last ``n`` axes of ``x1`` against the first ``n`` of ``x2``; a
        pair ``(axes1, axes2)``: those axes of ``x1`` against those of ``x2`` (equally many,
        of equal sizes); default 2.

    Returns
    -------
    Array
        The contraction, of the promoted dtype: the free axes of ``x1``, then those of
        ``x2``.

    Raises
    ------
    TypeError
        If an operand is not array_like, or ``axes`` is neither an int nor a pair.
    AxisError
        If an int ``axes`` is negative or above the smaller rank, or an axis of a pair is
        out of range.
    ValueError
        If the pair's sequences differ in length, or contracted axes differ in size.

    Notes
    -----
    Static under ``jax.jit``: ``axes``.

    One ``dot_general``, at the precision of ``get_matmul_precision()`` for floats.

    Examples
    --------
    >>> import laxarray as xp
    >>> a = xp.asarray([[1, 2], [3, 4]])
    >>> xp.tensordot(a, a)
    Array(30)
    >>> xp.tensordot(a, a, axes=1)
    Array([[ 7, 10],
           [15, 22]])
    >>> xp.tensordot(a, a, axes=([0], [1]))
    Array([[ 7, 15],
           [10, 22]])
    """
    v1, v2, dt = binary_operands("tensordot", x1, x2)
    if isinstance(axes, int) and not isinstance(axes, bool):
        if axes < 0 or axes > min(v1.ndim, v2.ndim):
            fail(AxisError, "tensordot", "0 <= axes <= the smaller rank", axes)
        a1 = tuple(range(v1.ndim - axes, v1.ndim))
        a2 = tuple(range(axes))
    elif isinstance(axes, (tuple, list)) and len(axes) == 2:
        s1 = axes[0] if isinstance(axes[0], (tuple, list)) else (axes[0],)
        s2 = axes[1] if isinstance(axes[1], (tuple, list)) else (axes[1],)
        a1 = tuple(normalize_axis("tensordot", a, v1.ndim, "axes") for a in s1)
        a2 = tuple(normalize_axis("tensordot", a, v2.ndim, "axes") for a in s2)
        if len(a1) != len(a2):
            fail(ValueError, "tensordot", "equally many axes for x1 and x2", axes)
    else:
        fail(TypeError, "tensordot", "an int or a pair of axis sequences for 'axes'", axes)
    for i, j in zip(a1, a2):
        if v1.shape[i] != v2.shape[j]:
            fail(ValueError, "tensordot", "contracted axes of equal size",
                 (tuple(v1.shape), tuple(v2.shape)))
    return call(_tensordot_kernel, v1, v2, dtype=dt, axes1=a1, axes2=a2)


@kernel(static=("dtype", "axis", "shape"))
def _vecdot_kernel(a, b, *, dtype, axis, shape):
    a, b = cast_broadcast(a, dtype, shape), cast_broadcast(b, dtype, shape)
    if _dt.kind_of(dtype) == "c":
        a = lax.conj(a)
    return lax.reduce_sum(lax.mul(a, b), (axis,))


@in_wide_region
@fill(axis_static=AXIS_STATIC)
def vecdot(x1, x2, /, *, axis=-1):
    """Return the dot product of vectors along an axis, conjugating the first.

    Array API: vecdot. NumPy: numpy.vecdot.

    Parameters
    ----------
    x1, x2 : array_like
        The operands: arrays or Python scalars (weak, NEP 50); their shapes broadcast
        together.
    axis : int, optional
        The axis of the vectors, counted from the end of the broadcast shape and present in
        both operands with one size; default -1.

    Returns
    -------
    Array
        ``sum(conj(x1) * x2)`` along ``axis``, of the promoted dtype and the broadcast shape
        without ``axis``.

    Raises
    ------
    TypeError
        If an operand is not array_like.
    ValueError
        If the shapes do not broadcast together, both are 0-d, or ``axis`` is missing from an
        operand or has two sizes.
    AxisError
        If ``axis`` is out of range for the broadcast shape.

    {axis_static}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.vecdot(xp.asarray([[1, 2], [3, 4]]), xp.asarray([1, 1]))
    Array([3, 7])
    >>> xp.vecdot(xp.asarray([1j, 2]), xp.asarray([1j, 1]))
    Array(3.+0.j)
    """
    v1, v2, dt = binary_operands("vecdot", x1, x2)
    shape = broadcast_shapes2("vecdot", tuple(v1.shape), tuple(v2.shape))
    if not shape:
        fail(ValueError, "vecdot", "arrays of rank >= 1", x1)
    ax = normalize_axis("vecdot", axis, len(shape))
    # the standard: axis counts from the end and must exist in both inputs
    for v in (v1, v2):
        if ax - len(shape) < -v.ndim or v.shape[v.ndim + ax - len(shape)] != shape[ax]:
            fail(ValueError, "vecdot", "x1 and x2 of equal size along 'axis'",
                 (tuple(v1.shape), tuple(v2.shape)))
    return call(_vecdot_kernel, v1, v2, dtype=dt, axis=ax, shape=shape)


__all__ += ["matrix_transpose", "tensordot", "vecdot"]

provide(matmul)  # the body of ``x @ y``
