"""NumPy's products: dot, inner, vdot, outer, kron, cross, trace, matvec, vecmat, and the
1-D convolve/correlate.

Contractions are one ``lax.dot_general`` each (HIGHEST precision for floating types);
convolution is one ``lax.conv_general_dilated``.  Promotion is NumPy's for two arrays;
booleans give booleans ("any of all", as NumPy).  Shapes and axes are static under
``jax.jit``.
"""

from __future__ import annotations

from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_choice, check_int, normalize_axis
from laxarray._core.numerics import dot_general
from laxarray.array_api._calls import call
from laxarray.array_api._ufunc import cast_broadcast
from laxarray.array_api._broadcast import broadcast_shapes2
from laxarray.array_api.statistical import accumulation_dtype
from laxarray.linalg import _matrix_ops as M
from laxarray.linalg._operands import raw
from laxarray._core.jax_regions import in_wide_region
from laxarray.numpy_api import _docs


def _pair(fn, a, b, names=("a", "b")):
    va, vb = raw(fn, a, names[0]), raw(fn, b, names[1])
    return va, vb, _dt.promote_types(va.dtype, vb.dtype)


def _compute(dtype):
    return _dt.int32 if _dt.kind_of(dtype) == "b" else dtype


def _finish(x, dtype):
    if _dt.kind_of(dtype) == "b":
        return lax.ne(x, lax.full_like(x, 0))
    return lax.convert_element_type(x, dtype)


def _dot(a, b, dims, dtype):
    c = _compute(dtype)
    prec = None  # the kernel helper's matmul precision (numerics)
    out = dot_general(lax.convert_element_type(a, c), lax.convert_element_type(b, c),
                          dims, precision=prec)
    return _finish(out, dtype)


def _mul(a, b, dtype):
    if _dt.kind_of(dtype) == "b":
        return lax.bitwise_and(lax.convert_element_type(a, dtype),
                               lax.convert_element_type(b, dtype))
    return lax.mul(lax.convert_element_type(a, dtype), lax.convert_element_type(b, dtype))


# ---- dot, inner, vdot, outer, kron -------------------------------------------------------
@kernel(static=("dtype",))
def _dot_kernel(a, b, *, dtype):
    if a.ndim == 0 or b.ndim == 0:
        shape = b.shape if a.ndim == 0 else a.shape
        return _mul(cast_broadcast(a, a.dtype, shape), cast_broadcast(b, b.dtype, shape),
                    dtype)
    cb = 0 if b.ndim == 1 else b.ndim - 2
    return _dot(a, b, (((a.ndim - 1,), (cb,)), ((), ())), dtype)


@in_wide_region
@fill(out_none=_docs.OUT_NONE)
def dot(a, b, out=None):
    """Return the dot product of two arrays, with NumPy's N-d rule.

    Array API: (not in the standard). NumPy: numpy.dot.

    Parameters
    ----------
    a, b : array_like
        The operands.  0-d operands multiply; otherwise the last axis of ``a`` is contracted
        with the only axis of a 1-D ``b`` or the second-to-last axis of ``b``.
    {out_none}

    Returns
    -------
    Array
        The product, of the promoted dtype: of shape ``a.shape[:-1]`` for a 1-D ``b``, else
        ``a.shape[:-1] + b.shape[:-2] + b.shape[-1:]``.

    Raises
    ------
    TypeError
        If an operand is not array_like, or ``out`` is given.
    ValueError
        If the contracted axes differ in size.

    Notes
    -----
    Static under ``jax.jit``: none.

    One ``dot_general``; prefer :func:`matmul` for stacks of matrices (it broadcasts them).

    Examples
    --------
    >>> import laxarray as la
    >>> a = la.asarray([[1, 2], [3, 4]])
    >>> la.dot(a, la.asarray([1, 1]))
    Array([3, 7])
    >>> la.dot(2, a)
    Array([[2, 4],
           [6, 8]])
    >>> la.dot(la.ones((2, 3, 4)), la.ones((5, 4, 6))).shape
    (2, 3, 5, 6)
    """
    if out is not None:
        fail(TypeError, "dot", "out=None (laxarray arrays are immutable)", out)
    va, vb, dt = _pair("dot", a, b)
    if va.ndim and vb.ndim:
        cb = 0 if vb.ndim == 1 else vb.ndim - 2
        if va.shape[-1] != vb.shape[cb]:
            fail(ValueError, "dot", "aligned shapes (last axis of 'a' and the contracted axis "
                 "of 'b')", (tuple(va.shape), tuple(vb.shape)))
    return call(_dot_kernel, va, vb, dtype=dt)


@kernel(static=("dtype",))
def _inner_kernel(a, b, *, dtype):
    if a.ndim == 0 or b.ndim == 0:
        return _dot_kernel.fn(a, b, dtype=dtype)
    return _dot(a, b, (((a.ndim - 1,), (b.ndim - 1,)), ((), ())), dtype)


@in_wide_region
@fill(type_error_operand=_docs.TYPE_ERROR_OPERAND)
def inner(a, b, /):
    """Return the inner product of two arrays over their last axes.

    Array API: (not in the standard). NumPy: numpy.inner.

    Parameters
    ----------
    a, b : array_like
        The operands; their last axes have one size (0-d operands multiply).

    Returns
    -------
    Array
        Of shape ``a.shape[:-1] + b.shape[:-1]`` and the promoted dtype.

    Raises
    ------
    {type_error_operand}
    ValueError
        If the last axes differ in size.

    Notes
    -----
    Static under ``jax.jit``: none.

    Examples
    --------
    >>> import laxarray as la
    >>> la.inner(la.asarray([1, 2]), la.asarray([3, 4]))
    Array(11)
    >>> a = la.asarray([[1, 2], [3, 4]])
    >>> la.inner(a, a)
    Array([[ 5, 11],
           [11, 25]])
    """
    va, vb, dt = _pair("inner", a, b)
    if va.ndim and vb.ndim and va.shape[-1] != vb.shape[-1]:
        fail(ValueError, "inner", "equal last dimensions", (tuple(va.shape), tuple(vb.shape)))
    return call(_inner_kernel, va, vb, dtype=dt)


@kernel(static=("dtype",))
def _vdot_kernel(a, b, *, dtype):
    a = lax.reshape(a, (a.size,))
    b = lax.reshape(b, (b.size,))
    if _dt.kind_of(a.dtype) == "c":
        a = lax.conj(a)
    return _dot(a, b, (((0,), (0,)), ((), ())), dtype)


@in_wide_region
@fill(type_error_operand=_docs.TYPE_ERROR_OPERAND)
def vdot(a, b, /):
    """Return the dot product of two flattened arrays, conjugating the first.

    Array API: (not in the standard). NumPy: numpy.vdot.

    Parameters
    ----------
    a, b : array_like
        The operands, of one size; flattened.

    Returns
    -------
    Array
        ``sum(conj(ravel(a)) * ravel(b))``, 0-d.

    Raises
    ------
    {type_error_operand}
    ValueError
        If the sizes differ.

    Notes
    -----
    Static under ``jax.jit``: none.

    Examples
    --------
    >>> import laxarray as la
    >>> la.vdot(la.asarray([1 + 2j, 3 + 4j]), la.asarray([5 + 6j, 7 + 8j]))
    Array(70.-8.j)
    >>> la.vdot(la.asarray([[1, 2], [3, 4]]), la.asarray([[1, 2], [3, 4]]))
    Array(30)
    """
    va, vb, dt = _pair("vdot", a, b)
    if va.size != vb.size:
        fail(ValueError, "vdot", "arrays of the same size", (va.size, vb.size))
    return call(_vdot_kernel, va, vb, dtype=dt)


@kernel(static=("dtype",))
def _outer_kernel(a, b, *, dtype):
    a = lax.reshape(a, (a.size, 1))
    b = lax.reshape(b, (1, b.size))
    shape = (a.shape[0], b.shape[1])
    return _mul(cast_broadcast(a, a.dtype, shape), cast_broadcast(b, b.dtype, shape), dtype)


@in_wide_region
@fill(out_none=_docs.OUT_NONE)
def outer(a, b, out=None):
    """Compute the outer product of two arrays, flattened first.

    Array API: (not in the standard). NumPy: numpy.outer.

    Parameters
    ----------
    a, b : array_like
        The operands; flattened.
    {out_none}

    Returns
    -------
    Array
        ``ravel(a)[:, None] * ravel(b)[None, :]``, of the promoted dtype.

    Raises
    ------
    TypeError
        If an operand is not array_like, or ``out`` is given.

    Notes
    -----
    Static under ``jax.jit``: none.

    :func:`laxarray.linalg.outer` (the standard's) takes only 1-D operands.

    Examples
    --------
    >>> import laxarray as la
    >>> la.outer(la.asarray([1, 2]), la.asarray([1, 10, 100]))
    Array([[  1,  10, 100],
           [  2,  20, 200]])
    """
    if out is not None:
        fail(TypeError, "outer", "out=None (laxarray arrays are immutable)", out)
    va, vb, dt = _pair("outer", a, b)
    return call(_outer_kernel, va, vb, dtype=dt)


@kernel(static=("dtype",))
def _kron_kernel(a, b, *, dtype):
    nd = max(a.ndim, b.ndim)
    a = lax.reshape(a, (1,) * (nd - a.ndim) + a.shape)
    b = lax.reshape(b, (1,) * (nd - b.ndim) + b.shape)
    shape = tuple(d for pair in zip(a.shape, b.shape) for d in pair)
    ea = lax.broadcast_in_dim(a, shape, tuple(range(0, 2 * nd, 2)))
    eb = lax.broadcast_in_dim(b, shape, tuple(range(1, 2 * nd, 2)))
    out = _mul(ea, eb, dtype)
    return lax.reshape(out, tuple(x * y for x, y in zip(a.shape, b.shape)))


@in_wide_region
@fill(type_error_operand=_docs.TYPE_ERROR_OPERAND)
def kron(a, b, /):
    """Compute the Kronecker product of two arrays.

    Array API: (not in the standard). NumPy: numpy.kron.

    Parameters
    ----------
    a, b : array_like
        The operands (the smaller rank is padded with leading size-one axes).

    Returns
    -------
    Array
        The blocks ``a[i] * b``, of the promoted dtype; each dimension the product of the
        operands' dimensions.

    Raises
    ------
    {type_error_operand}

    Notes
    -----
    Static under ``jax.jit``: none.

    Examples
    --------
    >>> import laxarray as la
    >>> la.kron(la.asarray([1, 10]), la.asarray([1, 2, 3]))
    Array([ 1,  2,  3, 10, 20, 30])
    """
    va, vb, dt = _pair("kron", a, b)
    return call(_kron_kernel, va, vb, dtype=dt)


# ---- cross, trace, matvec, vecmat -----------------------------------------------------------
@kernel(static=("dtype", "shape", "na", "nb", "axisc"))
def _cross_kernel(a, b, *, dtype, shape, na, nb, axisc):
    a = cast_broadcast(a, dtype, shape + (na,))
    b = cast_broadcast(b, dtype, shape + (nb,))
    nd = len(shape)
    ac = [lax.index_in_dim(a, i, nd, keepdims=False) for i in range(na)]
    bc = [lax.index_in_dim(b, i, nd, keepdims=False) for i in range(nb)]
    zero = lax.full(shape, 0, dtype)
    a0, a1, a2 = ac + [zero] * (3 - na)
    b0, b1, b2 = bc + [zero] * (3 - nb)
    z = lax.sub(lax.mul(a0, b1), lax.mul(a1, b0))
    if na == 2 and nb == 2:
        return z
    x = lax.sub(lax.mul(a1, b2), lax.mul(a2, b1))
    y = lax.sub(lax.mul(a2, b0), lax.mul(a0, b2))
    out = lax.concatenate([lax.expand_dims(c, (nd,)) for c in (x, y, z)], nd)
    if axisc != nd:
        perm = list(range(nd))
        perm.insert(axisc, nd)
        out = lax.transpose(out, tuple(perm))
    return out


@in_wide_region
@fill(type_error_operand=_docs.TYPE_ERROR_OPERAND, axis_error=_docs.AXIS_ERROR)
def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """Return the cross product of 2- or 3-element vectors.

    Array API: (not in the standard). NumPy: numpy.cross.

    Parameters
    ----------
    a, b : array_like
        The vectors, of 2 or 3 elements along ``axisa`` and ``axisb``; the other axes broadcast.
    axisa, axisb : int, optional
        The vector axis of ``a`` and of ``b``; default -1.
    axisc : int, optional
        The vector axis of the result; default -1.
    axis : int, optional
        If given, all three.

    Returns
    -------
    Array
        The cross products (two 2-element vectors give the z component, without a vector axis).

    Raises
    ------
    {type_error_operand}
    ValueError
        If a vector has neither 2 nor 3 elements, or the other axes do not broadcast.
    {axis_error}

    Notes
    -----
    Static under ``jax.jit``: ``axisa``, ``axisb``, ``axisc``, ``axis``.

    :func:`laxarray.linalg.cross` is the standard's (3-element vectors only).

    Examples
    --------
    >>> import laxarray as la
    >>> la.cross(la.asarray([1, 0, 0]), la.asarray([0, 1, 0]))
    Array([0, 0, 1])
    >>> la.cross(la.asarray([1, 2]), la.asarray([3, 4]))
    Array(-2)
    """
    fn = "cross"
    va, vb, dt = _pair(fn, a, b)
    if _dt.kind_of(dt) == "b":
        _dt.check_category(fn, "a, b", dt, "numeric")
    if axis is not None:
        axisa = axisb = axisc = axis
    if va.ndim == 0 or vb.ndim == 0:
        fail(ValueError, fn, "arrays of rank >= 1", (va, vb))
    axa = normalize_axis(fn, axisa, va.ndim, "axisa")
    axb = normalize_axis(fn, axisb, vb.ndim, "axisb")
    na, nb = va.shape[axa], vb.shape[axb]
    if na not in (2, 3) or nb not in (2, 3):
        fail(ValueError, fn, "vectors of dimension 2 or 3 along 'axisa' and 'axisb'",
             (na, nb))
    va = lax.transpose(va, tuple(i for i in range(va.ndim) if i != axa) + (axa,)) \
        if axa != va.ndim - 1 else va
    vb = lax.transpose(vb, tuple(i for i in range(vb.ndim) if i != axb) + (axb,)) \
        if axb != vb.ndim - 1 else vb
    shape = broadcast_shapes2(fn, tuple(va.shape[:-1]), tuple(vb.shape[:-1]))
    axc = len(shape)
    if not (na == 2 and nb == 2):
        axc = normalize_axis(fn, axisc, len(shape) + 1, "axisc")
    return call(_cross_kernel, va, vb, dtype=dt, shape=shape, na=na, nb=nb, axisc=axc)


@kernel(static=("offset", "axes", "dtype"))
def _trace_kernel(x, *, offset, axes, dtype):
    rest = tuple(i for i in range(x.ndim) if i not in axes)
    x = lax.transpose(x, rest + axes)
    d = lax.convert_element_type(M.diagonal(x, offset), dtype)
    return lax.reduce_sum(d, (d.ndim - 1,))


@in_wide_region
@fill(out_none=_docs.OUT_NONE, type_error_a_out=_docs.TYPE_ERROR_A_OUT, axis_error=_docs.AXIS_ERROR)
def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """Return the sum along a diagonal of an array.

    Array API: (not in the standard). NumPy: numpy.trace.

    Parameters
    ----------
    a : array_like
        The input array, of rank at least two.
    offset : int, optional
        The diagonal: 0 (default) the main one, positive above it, negative below.
    axis1, axis2 : int, optional
        The two axes of the matrices; default 0 and 1 (``linalg.trace`` uses the last two).
    dtype : dtype, optional
        The dtype to sum in; default: booleans and smaller integers in the default integer
        dtype of their signedness.
    {out_none}

    Returns
    -------
    Array
        The sums, of ``a``'s shape without ``axis1`` and ``axis2``.

    Raises
    ------
    {type_error_a_out}
    ValueError
        If ``a`` has rank below two, or ``axis1 == axis2``.
    {axis_error}

    Notes
    -----
    Static under ``jax.jit``: ``offset``, ``axis1``, ``axis2``, ``dtype``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.trace(la.asarray([[1, 2], [3, 4]]))
    Array(5)
    >>> la.trace(la.ones((2, 3, 3)), axis1=1, axis2=2)
    Array([3., 3.])
    """
    fn = "trace"
    if out is not None:
        fail(TypeError, fn, "out=None (laxarray arrays are immutable)", out)
    v = raw(fn, a, "a")
    if v.ndim < 2:
        fail(ValueError, fn, "an array of rank >= 2 for 'a'", v)
    ax1 = normalize_axis(fn, axis1, v.ndim, "axis1")
    ax2 = normalize_axis(fn, axis2, v.ndim, "axis2")
    if ax1 == ax2:
        fail(ValueError, fn, "different 'axis1' and 'axis2'", (axis1, axis2))
    offset = check_int(fn, offset, "offset")
    if _dt.kind_of(v.dtype) == "b":
        dt = _dt.default_int() if dtype is None else _dt.canonicalize_dtype(fn, dtype)
    else:
        dt = accumulation_dtype(fn, v.dtype, dtype)
    return call(_trace_kernel, v, offset=offset, axes=(ax1, ax2), dtype=dt)


@kernel(static=("dtype", "batch", "conj", "vec_first"))
def _matvec_kernel(a, b, *, dtype, batch, conj, vec_first):
    # vec_first: a is (..., n) and b is (..., n, m); otherwise a is (..., m, n), b (..., n)
    nb = len(batch)
    a = cast_broadcast(a, a.dtype, batch + a.shape[a.ndim - (1 if vec_first else 2):])
    b = cast_broadcast(b, b.dtype, batch + b.shape[b.ndim - (2 if vec_first else 1):])
    if conj and _dt.kind_of(a.dtype) == "c":
        a = lax.conj(a)
    bdims = tuple(range(nb))
    if vec_first:
        return _dot(a, b, (((nb,), (nb,)), (bdims, bdims)), dtype)
    return _dot(a, b, (((nb + 1,), (nb,)), (bdims, bdims)), dtype)


_VEC_RAISES = _docs.closing([_docs.TYPE_ERROR_OPERAND, """
    ValueError
        If the core dimensions differ or the batches do not broadcast."""], "none")


@in_wide_region
@fill(vec_raises=_VEC_RAISES)
def matvec(x1, x2, /):
    """Return the matrix-vector product over the last axes, batches broadcast.

    Array API: (not in the standard). NumPy: numpy.matvec.

    Parameters
    ----------
    x1 : array_like
        The matrices ``(..., M, N)``.
    x2 : array_like
        The vectors ``(..., N)``.

    Returns
    -------
    Array
        The products ``(..., M)``, of the promoted dtype.

    {vec_raises}
    >>> la.matvec(la.asarray([[1, 2], [3, 4]]), la.asarray([1, 1]))
    Array([3, 7])
    """
    fn = "matvec"
    v1, v2, dt = _pair(fn, x1, x2, ("x1", "x2"))
    if v1.ndim < 2 or v2.ndim < 1:
        fail(ValueError, fn, "'x1' of rank >= 2 and 'x2' of rank >= 1",
             (tuple(v1.shape), tuple(v2.shape)))
    if v1.shape[-1] != v2.shape[-1]:
        fail(ValueError, fn, "matching core dimensions", (tuple(v1.shape), tuple(v2.shape)))
    batch = broadcast_shapes2(fn, tuple(v1.shape[:-2]), tuple(v2.shape[:-1]))
    return call(_matvec_kernel, v1, v2, dtype=dt, batch=batch, conj=False, vec_first=False)


@in_wide_region
@fill(vec_raises=_VEC_RAISES)
def vecmat(x1, x2, /):
    """Return the vector-matrix product ``conj(x1) @ x2`` over the last axes, batches broadcast.

    Array API: (not in the standard). NumPy: numpy.vecmat.

    Parameters
    ----------
    x1 : array_like
        The vectors ``(..., M)`` (conjugated).
    x2 : array_like
        The matrices ``(..., M, N)``.

    Returns
    -------
    Array
        The products ``(..., N)``, of the promoted dtype.

    {vec_raises}
    >>> la.vecmat(la.asarray([1, 1]), la.asarray([[1, 2], [3, 4]]))
    Array([4, 6])
    """
    fn = "vecmat"
    v1, v2, dt = _pair(fn, x1, x2, ("x1", "x2"))
    if v1.ndim < 1 or v2.ndim < 2:
        fail(ValueError, fn, "'x1' of rank >= 1 and 'x2' of rank >= 2",
             (tuple(v1.shape), tuple(v2.shape)))
    if v1.shape[-1] != v2.shape[-2]:
        fail(ValueError, fn, "matching core dimensions", (tuple(v1.shape), tuple(v2.shape)))
    batch = broadcast_shapes2(fn, tuple(v1.shape[:-1]), tuple(v2.shape[:-2]))
    return call(_matvec_kernel, v1, v2, dtype=dt, batch=batch, conj=True, vec_first=True)


# ---- convolve, correlate ----------------------------------------------------------------
@kernel(static=("dtype", "mode", "conj", "flip"))
def _correlate_kernel(a, v, *, dtype, mode, conj, flip):
    c = _compute(dtype)
    a = lax.convert_element_type(a, c)
    v = lax.convert_element_type(v, c)
    if conj and _dt.kind_of(c) == "c":
        v = lax.conj(v)
    if flip:
        v = lax.rev(v, (0,))
    n, m = a.shape[0], v.shape[0]
    prec = None  # the kernel helper's matmul precision (numerics)
    full = lax.conv_general_dilated(lax.reshape(a, (1, 1, n)), lax.reshape(v, (1, 1, m)),
                                    (1,), [(m - 1, m - 1)], precision=prec)
    full = lax.reshape(full, (n + m - 1,))
    lo, hi = min(n, m), max(n, m)
    if mode == "valid":
        start, length = lo - 1, hi - lo + 1
    elif mode == "same":
        start, length = _same_start(n, m), hi
    else:
        start, length = 0, n + m - 1
    return _finish(lax.slice_in_dim(full, start, start + length), dtype)


def _same_start(n, m):
    """Offset of NumPy's ``mode='same'`` window in the full correlation of lengths n, m."""
    return (m - 1) // 2 if n >= m else n // 2


def _conv_operands(fn, a, v):
    va, vv, dt = _pair(fn, a, v, ("a", "v"))
    for name, x in (("a", va), ("v", vv)):
        if x.ndim > 1:
            fail(ValueError, fn, f"a 1-D array (or scalar) for '{name}'", x)
        if x.size == 0:
            fail(ValueError, fn, f"a non-empty array for '{name}'", x)
    return lax.reshape(va, (va.size,)), lax.reshape(vv, (vv.size,)), dt


_CONVOLUTION_RAISES = _docs.closing([_docs.TYPE_ERROR_OPERAND, """
    ValueError
        If an operand is empty or not 1-D, or ``mode`` is unknown."""], "``mode``")


_CONVOLUTION_PARAMETERS = _docs.compose("""
Parameters
----------
a : array_like
    The first sequence: 1-D (or a scalar), non-empty.
v : array_like""")


@in_wide_region
@fill(convolution_parameters=_CONVOLUTION_PARAMETERS,
      convolution_raises=_CONVOLUTION_RAISES)
def correlate(a, v, mode="valid"):
    """Return the cross-correlation of two 1-D sequences.

    Array API: (not in the standard). NumPy: numpy.correlate.

    {convolution_parameters}
        The second sequence, likewise; conjugated.
    mode : {'valid', 'same', 'full'}, optional
        As :func:`convolve`'s; default ``'valid'``.

    Returns
    -------
    Array
        ``sum(a[n + k] * conj(v[k]))`` for each lag, of the promoted dtype.

    {convolution_raises}
    >>> la.correlate(la.asarray([1, 2, 3]), la.asarray([0, 1, 0.5]))
    Array([3.5])
    >>> la.correlate(la.asarray([1, 2, 3]), la.asarray([0, 1, 0.5]), mode="full")
    Array([0.5, 2. , 3.5, 3. , 0. ])
    """
    mode = check_choice("correlate", mode, "mode", ("valid", "same", "full"))
    va, vv, dt = _conv_operands("correlate", a, v)
    return call(_correlate_kernel, va, vv, dtype=dt, mode=mode, conj=True, flip=False)


@in_wide_region
@fill(convolution_parameters=_CONVOLUTION_PARAMETERS,
      convolution_raises=_CONVOLUTION_RAISES)
def convolve(a, v, mode="full"):
    """Return the discrete linear convolution of two 1-D sequences.

    Array API: (not in the standard). NumPy: numpy.convolve.

    {convolution_parameters}
        The second sequence, likewise.
    mode : {'full', 'same', 'valid'}, optional
        ``'full'`` (default): every overlap, ``len(a) + len(v) - 1`` values; ``'same'``: the
        length of the longer input, centred; ``'valid'``: only complete overlaps.

    Returns
    -------
    Array
        The convolution, of the promoted dtype.

    {convolution_raises}
    >>> la.convolve(la.asarray([1, 2, 3]), la.asarray([0, 1, 0.5]))
    Array([0. , 1. , 2.5, 4. , 1.5])
    >>> la.convolve(la.asarray([1, 2, 3]), la.asarray([0, 1, 0.5]), mode="same")
    Array([1. , 2.5, 4. ])
    >>> la.convolve(la.asarray([1, 2]), la.asarray([1, 1]))
    Array([1, 3, 2])
    """
    mode = check_choice("convolve", mode, "mode", ("valid", "same", "full"))
    va, vv, dt = _conv_operands("convolve", a, v)
    if vv.shape[0] > va.shape[0]:
        va, vv = vv, va
    return call(_correlate_kernel, va, vv, dtype=dt, mode=mode, conj=False, flip=True)


__all__ = ["dot", "inner", "vdot", "outer", "kron", "cross", "trace", "matvec", "vecmat",
           "convolve", "correlate"]
