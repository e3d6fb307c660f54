"""Slicing: static ``slice``, ``dynamic_slice`` and integer/slice ``__getitem__``.

All keep the layout and ``nse``: batch and dense dimensions are sliced in the leaves, and
entries of a sparse dimension that fall outside the window become padding.  Nothing looks
at the data, so slicing works under ``jax.jit`` (``dynamic_slice`` starts may be traced and
are clamped as in ``lax.dynamic_slice``).
"""

from __future__ import annotations

import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core.errors import fail
from laxarray._core.runtime.kernel import kernel
from laxarray.array_api._convert import to_raw
from laxarray.sparse import _docs
from laxarray.sparse._base import _restore
from laxarray.sparse.bcoo import BCOO
from laxarray.sparse.ops.reshape import _as, squeeze
from laxarray._core.jaxapi import in_wide_mode


@in_wide_mode
def slice(mat, start_indices, limit_indices, strides=None):  # noqa: A001 (lax name)
    """Slice a sparse array with static starts, limits and strides (``lax.slice``).

    jax: jax.experimental.sparse.bcoo_slice.

    Parameters
    ----------
    mat : BCOO or BCSR
        The sparse array.
    start_indices, limit_indices : sequence of ints
        One per dimension, ``0 <= start <= limit <= size``.
    strides : sequence of ints, optional
        Positive; default all 1.

    Returns
    -------
    BCOO or BCSR
        The slice.

    Raises
    ------
    TypeError
        If ``mat`` is not a BCOO or BCSR.
    ValueError
        If the bounds or strides are out of range.

    Notes
    -----
    Static under ``jax.jit``: ``start_indices``, ``limit_indices``, ``strides``.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> sp.slice(a, (0, 1), (2, 3)).todense()
    Array([[1., 0.],
           [0., 3.]])
    """
    fn = "slice"
    a = _as(fn, mat)
    nd = a.ndim
    start = tuple(int(s) for s in start_indices)
    limit = tuple(int(s) for s in limit_indices)
    strides = (1,) * nd if strides is None else tuple(int(s) for s in strides)
    if not len(start) == len(limit) == len(strides) == nd:
        fail(ValueError, fn, f"{nd} starts, limits and strides", (start, limit, strides))
    for s, l_, st, n in zip(start, limit, strides, a.shape):
        if not (0 <= s <= l_ <= n) or st < 1:
            fail(ValueError, fn, f"0 <= start <= limit <= size and stride >= 1 for shape "
                 f"{a.shape}", (start, limit, strides))
    new_shape = tuple(max(0, -(-(l_ - s) // st)) for s, l_, st in zip(start, limit, strides))
    if new_shape == tuple(a.shape):
        return mat
    data, indices = _slice_kernel(a.data, a.indices, shape=a.shape, start=start, limit=limit,
                                  strides=strides, new_shape=new_shape)
    return _restore(BCOO._new(data, indices, new_shape, unique_indices=a.unique_indices), mat)


def _batch_slice(x, nb, start, limit, strides, full):
    # batch dims of a leaf may be 1 (broadcast): keep those as they are
    s, l_, st = list(start[:nb]), list(limit[:nb]), list(strides[:nb])
    for d in range(nb):
        if x.shape[d] == 1 and full[d] != 1:
            s[d], l_[d], st[d] = 0, 1, 1
    rest = x.ndim - nb
    return lax.slice(x, tuple(s) + (0,) * rest, tuple(l_) + tuple(x.shape[nb:]),
                     tuple(st) + (1,) * rest)


@kernel(static=("shape", "start", "limit", "strides", "new_shape"))
def _slice_kernel(data, indices, *, shape, start, limit, strides, new_shape):
    nb = indices.ndim - 2
    ns = indices.shape[-1]
    data = _batch_slice(data, nb, start, limit, strides, shape)
    indices = _batch_slice(indices, nb, start, limit, strides, shape)
    d0 = nb + ns
    if len(shape) > d0:
        lead = data.ndim - (len(shape) - d0)
        data = lax.slice(data, (0,) * lead + start[d0:], tuple(data.shape[:lead]) + limit[d0:],
                         (1,) * lead + strides[d0:])
    cols, ok = [], lax.full(indices.shape[:-1], True)
    for j in range(ns):
        c = indices[..., j]
        s, l_, st = start[nb + j], limit[nb + j], strides[nb + j]
        off = lax.sub(c, lax.full((), s, c.dtype))
        inside = lax.bitwise_and(lax.ge(c, lax.full((), s, c.dtype)),
                                 lax.lt(c, lax.full((), l_, c.dtype)))
        if st != 1:
            inside = lax.bitwise_and(inside, lax.eq(lax.rem(off, lax.full((), st, c.dtype)),
                                                    lax.full((), 0, c.dtype)))
            off = lax.div(off, lax.full((), st, c.dtype))
        ok = lax.bitwise_and(ok, inside)
        cols.append(off)
    return data, _recompose(indices, cols, ok, new_shape[nb:nb + ns])


def _recompose(indices, cols, ok, sparse_shape):
    if not cols:
        return indices
    out = []
    for c, size in zip(cols, sparse_shape):
        out.append(lax.select(ok, c, lax.full(c.shape, size, c.dtype))[..., None])
    return lax.concatenate(out, indices.ndim - 1)


@in_wide_mode
@fill(params=_docs.MAT, raises=_docs.MAT_RAISES)
def dynamic_slice(mat, start_indices, slice_sizes):
    """Slice a sparse array at possibly traced starts (``lax.dynamic_slice``).

    jax: jax.experimental.sparse.bcoo_dynamic_slice.

    {params}
    start_indices : sequence of ints or scalar arrays
        One per dimension; may be traced; clamped into range as ``lax.dynamic_slice`` does.
    slice_sizes : sequence of ints
        The static size of the slice in each dimension.

    Returns
    -------
    BCOO or BCSR
        The slice.

    {raises}
    ValueError
        If a size exceeds the dimension.

    Notes
    -----
    Static under ``jax.jit``: ``slice_sizes``.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> sp.dynamic_slice(a, (1, 1), (1, 2)).todense()
    Array([[0., 3.]])
    >>> sp.dynamic_slice(a, (1, 5), (1, 2)).todense()
    Array([[0., 3.]])
    """
    fn = "dynamic_slice"
    a = _as(fn, mat)
    nd = a.ndim
    sizes = tuple(int(s) for s in slice_sizes)
    if len(sizes) != nd or len(start_indices) != nd:
        fail(ValueError, fn, f"{nd} start indices and slice sizes", (start_indices, sizes))
    for s, n in zip(sizes, a.shape):
        if not 0 <= s <= n:
            fail(ValueError, fn, f"slice sizes within the shape {a.shape}", sizes)
    starts = tuple(to_raw(fn, s, "start_indices") for s in start_indices)
    data, indices = _dynamic_slice_kernel(a.data, a.indices, starts, shape=a.shape,
                                          sizes=sizes)
    return _restore(BCOO._new(data, indices, sizes, unique_indices=a.unique_indices), mat)


@kernel(static=("shape", "sizes"))
def _dynamic_slice_kernel(data, indices, starts, *, shape, sizes):
    nb = indices.ndim - 2
    ns = indices.shape[-1]
    starts = [lax.clamp(lax.full((), 0, s.dtype), s, lax.full((), n - z, s.dtype))
              for s, n, z in zip(starts, shape, sizes)]
    zero = lax.full((), 0, starts[0].dtype) if starts else None

    def leaf_slice(x, extra):
        st, sz = [], []
        for d in range(nb):
            if x.shape[d] == 1 and shape[d] != 1:
                st.append(zero)
                sz.append(1)
            else:
                st.append(starts[d])
                sz.append(sizes[d])
        st += [zero] * (x.ndim - nb - len(extra)) + [s for s, _ in extra]
        sz += list(x.shape[nb:x.ndim - len(extra)]) + [z for _, z in extra]
        return lax.dynamic_slice(x, st, sz) if st else x

    dense = [(starts[d], sizes[d]) for d in range(nb + ns, len(shape))]
    data = leaf_slice(data, dense)
    indices = leaf_slice(indices, [])
    cols, ok = [], lax.full(indices.shape[:-1], True)
    for j in range(ns):
        c = indices[..., j]
        s = lax.convert_element_type(starts[nb + j], c.dtype)
        off = lax.sub(c, s)
        inside = lax.bitwise_and(lax.ge(off, lax.full((), 0, c.dtype)),
                                 lax.lt(off, lax.full((), sizes[nb + j], c.dtype)))
        inside = lax.bitwise_and(inside, lax.lt(c, lax.full((), shape[nb + j], c.dtype)))
        ok = lax.bitwise_and(ok, inside)
        cols.append(off)
    return data, _recompose(indices, cols, ok, sizes[nb:nb + ns])


@in_wide_mode
@fill(params=_docs.MAT, raises=_docs.MAT_RAISES)
def getitem(mat, key):
    """Index a sparse array with integers, slices and ``...`` (NumPy's basic indexing).

    Array API: __getitem__ (of the dense equivalent). jax: BCOO.__getitem__.

    {params}
    key : int, slice, Ellipsis or tuple of them
        A static key; slices need a positive step; integers drop their dimension.

    Returns
    -------
    BCOO or BCSR
        The indexed array (0-d for a full integer key).

    {raises}
    IndexError
        If the key holds anything else (``None``, arrays, lists), a non-positive step, or an
        integer out of range.

    Notes
    -----
    Static under ``jax.jit``: ``key``.

    ``mat[key]`` is this function.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> sp.getitem(a, 1).todense()
    Array([2., 0., 3.])
    >>> a[:, 0].todense()
    Array([0., 2.])
    """
    fn = "__getitem__"
    a = _as(fn, mat)
    if not isinstance(key, tuple):
        key = (key,)
    n_ell = sum(k is Ellipsis for k in key)
    if n_ell > 1:
        fail(IndexError, fn, "at most one Ellipsis", key)
    if n_ell:
        i = key.index(Ellipsis)
        key = key[:i] + (np.s_[:],) * (a.ndim - len(key) + 1) + key[i + 1:]
    if len(key) > a.ndim:
        raise IndexError(f"{fn}: expected at most {a.ndim} indices; got {len(key)}")
    key = key + (np.s_[:],) * (a.ndim - len(key))
    start, limit, strides, drop = [], [], [], []
    for d, (k, n) in enumerate(zip(key, a.shape)):
        if isinstance(k, (int, np.integer)) and not isinstance(k, bool):
            k = int(k)
            if not -n <= k < n:
                raise IndexError(f"{fn}: expected index in [-{n}, {n}) for dimension {d}; "
                                 f"got {k}")
            k %= n
            start.append(k), limit.append(k + 1), strides.append(1), drop.append(d)
        elif isinstance(k, type(np.s_[:])):
            s, l_, st = k.indices(n)
            if st < 1:
                fail(IndexError, fn, "slices with a positive step", k)
            start.append(s), limit.append(max(s, l_)), strides.append(st)
        else:
            fail(IndexError, fn, "integers, slices or ... (static basic indexing)", k)
    out = slice(mat, start, limit, strides)
    return squeeze(out, tuple(drop)) if drop else out


__all__ = ["slice", "dynamic_slice", "getitem"]
