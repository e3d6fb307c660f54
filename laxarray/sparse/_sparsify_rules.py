"""The per-primitive rules of ``sparsify`` (first-order primitives).

A rule ``rule(eqn, invals, facts)`` receives the equation, its inputs (raw dense jax values,
Python scalars from literals, or BCOO/BCSR values; at least one is sparse) and a ``Fact`` per
input (what the interpreter knows statically about a dense input), and returns the list of
outputs (dense raw values or sparse arrays).  A rule that cannot handle its inputs raises
``NoSparseRule`` with the reason; the interpreter then densifies (``densify=True``) or raises
``NotImplementedError``.  Rules call the operations of :mod:`laxarray.sparse.ops`; the
structural primitives (``jit``, ``cond``, ``while``, ``scan`` ...) are evaluated by the
shared interpreter (``laxarray._core.interpret``, with sparsify's hooks in ``transform.py``).
"""

from __future__ import annotations

import math

import jax
import numpy as np
from jax import lax

from laxarray._core.jaxapi import is_tracer
from laxarray._core.jax_tracing import add_any_p
from laxarray.array_api._array import Array
from laxarray.sparse import _keys as K
from laxarray.sparse._base import _restore, is_sparse
from laxarray.sparse.bcoo import BCOO
from laxarray.sparse.bcoo_canonical import bcoo_update_layout
from laxarray.sparse.bcoo_convert import todense_raw
from laxarray.sparse.bcsr import BCSR
from laxarray.sparse.ops import dot as _dot
from laxarray.sparse.ops import elementwise as _ew
from laxarray.sparse.ops import union as _union
from laxarray.sparse.ops import reduce as _red
from laxarray.sparse.ops import reshape as _rs
from laxarray.sparse.ops import slicing as _sl
from laxarray.sparse import sharded as _sh
from laxarray._core import dtypes as _dt
from laxarray._core import primitives as _primitives


class NoSparseRule(Exception):
    """Raised by a rule that has no sparse implementation for its inputs (with the reason)."""


class Fact:
    """Static knowledge about a dense value: all zeros, and/or ``source = (operand, dims,
    shape)`` when it is ``broadcast_in_dim(operand, shape, dims)`` (gathered from instead)."""

    __slots__ = ("zero", "source")

    def __init__(self, zero=False, source=None):
        self.zero, self.source = zero, source


RULES = {}


def sparse_rule(*prims):
    """Register the decorated function as the sparse rule of ``prims``."""
    def register(fn):
        for p in prims:
            RULES[p] = fn
        return fn
    return register


# ---- helpers ----------------------------------------------------------------------------------
def raw(x):
    """A dense laxarray ``Array`` unwrapped; anything else unchanged."""
    return x._value if isinstance(x, Array) else x


def todense(x):
    """The raw dense value of a sparse ``x`` (booleans: duplicates combined with ``or``); of
    a row-sharded matrix, computed block by block."""
    if _sh.is_sharded(x):
        return _sh.todense_raw(x)
    a = x._as_bcoo()
    if a.data.dtype == np.bool_:
        a = a._with_data(lax.convert_element_type(a.data, np.int32))
        return lax.ne(todense_raw(a), lax.full((), 0, np.int32))
    return todense_raw(a)


def is_zero(x, fact):
    """Whether the dense input ``x`` is statically known to be all zeros."""
    if fact is not None and fact.zero:
        return True
    if is_tracer(x) or (isinstance(x, jax.Array) and x.size != 1):
        return False
    try:
        return np.size(x) <= 1 and not np.any(x)
    except TypeError:
        return False


MEMO = []    # one dict per active evaluation of a jaxpr (see transform._own_memo)


def unique(x):
    """``x`` with duplicates summed (needed before non-linear functions of the values);
    memoised per jaxpr evaluation, so results computed from it share one pattern."""
    if x.unique_indices:
        return x
    memo = MEMO[-1] if MEMO else None
    hit = memo.get(id(x)) if memo is not None else None
    if hit is not None and hit[0] is x:
        return hit[1]
    out = _ew.unique(x)
    if memo is not None:
        memo[id(x)] = (x, out)
    return out


def shares_pattern(a, b):
    """Whether two sparse arrays are known to store the same coordinates in the same order."""
    if type(a) is not type(b) or a.shape != b.shape or a.data.shape != b.data.shape:
        return False
    if a.indices is not b.indices:
        return False
    return not isinstance(a, BCSR) or a.indptr is b.indptr


def _small(x, fact):
    """``x``, or the smaller operand it was broadcast from, shaped to broadcast against ``x``."""
    if fact is None or fact.source is None:
        return x
    src, dims, shape = fact.source
    if np.ndim(src) == 0:
        return src
    new = [1] * len(shape)
    for i, d in enumerate(dims):
        new[d] = np.shape(src)[i]
    return lax.reshape(src, tuple(new))


def _at_pattern(op, s, d, swap=False):
    """``op(s, d)`` evaluated at the stored entries of sparse ``s`` only (dense ``d``)."""
    if np.ndim(d) == 0:
        return s._with_data(op(d, s.data) if swap else op(s.data, d))
    a = s._as_bcoo()
    vals = _ew.dense_at_pattern(a, d)
    data = a.data
    if tuple(vals.shape) != tuple(data.shape):
        data = lax.broadcast_in_dim(data, vals.shape, tuple(range(data.ndim)))
    out = op(vals, data) if swap else op(data, vals)
    if tuple(out.shape) == tuple(s.data.shape):
        return s._with_data(out)
    return BCOO._new(out, a.indices, a.shape, a.indices_sorted, a.unique_indices)


def _flat_nse(m):
    return m.nse * math.prod(m.shape[:m.n_batch])


# ---- elementwise unary ----------------------------------------------------------------------
#: the primitives with ``f(0) == 0`` (those of them that are linear need no summing of
#: duplicates first) and those with ``f(0) != 0``: :mod:`laxarray._core.primitives`' rows
ZERO_PRESERVING_UNARY = _primitives.primitives("keeps-zero")
_LINEAR_UNARY = frozenset(_primitives.primitives("linear"))
ZERO_DESTROYING_UNARY = frozenset(_primitives.primitives("moves-zero"))


def _linear(eqn, x):
    p = eqn.primitive
    if p in _LINEAR_UNARY:
        return True
    if p is lax.convert_element_type_p:
        new = np.dtype(eqn.params["new_dtype"])
        return new.kind in "fc" and np.dtype(x.dtype).kind in "fc"
    return False


def _unary_sparse_rule(eqn, invals, facts):
    (x,) = invals
    if eqn.primitive is lax.integer_pow_p and eqn.params["y"] <= 0:
        raise NoSparseRule(f"x ** {eqn.params['y']} maps 0 to a non-zero value")
    if not _linear(eqn, x):
        x = unique(x)
    return [x._with_data(eqn.primitive.bind(x.data, **eqn.params))]


for _p in ZERO_PRESERVING_UNARY:
    sparse_rule(_p)(_unary_sparse_rule)


@sparse_rule(lax.pow_p)
def _pow_sparse_rule(eqn, invals, facts):
    x, y = invals
    if is_sparse(x) and not is_sparse(y) and np.ndim(y) == 0 and not is_tracer(y) \
            and np.real(y) > 0:
        x = unique(x)
        return [x._with_data(lax.pow(x.data, lax.convert_element_type(y, x.data.dtype)))]
    raise NoSparseRule("pow keeps zeros only for a sparse base and a constant exponent > 0")


# ---- elementwise binary -----------------------------------------------------------------------
@sparse_rule(lax.mul_p)
def _mul_sparse_rule(eqn, invals, facts):
    x, y = invals
    if is_sparse(x) and is_sparse(y):
        if shares_pattern(x, y) and x.unique_indices:
            return [x._with_data(lax.mul(x.data, y.data))]
        return [_union.sparse_sparse("mul", x, y, lax.mul)]
    if is_sparse(x):
        return [_at_pattern(lax.mul, x, _small(y, facts[1]))]
    return [_at_pattern(lax.mul, y, _small(x, facts[0]), swap=True)]


def _additive_sparse_rule(op, name):
    def rule(eqn, invals, facts):
        x, y = invals
        if is_sparse(x) and is_sparse(y):
            if shares_pattern(x, y):
                return [x._with_data(op(x.data, y.data))]
            return [_union.sparse_sparse(name, x, y, op)]
        if is_sparse(x):
            return [x if is_zero(y, facts[1]) else op(todense(x), y)]
        if is_zero(x, facts[0]):
            return [y if op is lax.add else y._with_data(lax.neg(y.data))]
        return [op(x, todense(y))]
    rule.__name__ = f"_{name}_sparse_rule"
    return rule


sparse_rule(lax.add_p, add_any_p)(_additive_sparse_rule(lax.add, "add"))
sparse_rule(lax.sub_p)(_additive_sparse_rule(lax.sub, "sub"))


@sparse_rule(lax.div_p)
def _div_sparse_rule(eqn, invals, facts):
    x, y = invals
    if is_sparse(y):
        raise NoSparseRule("the divisor is sparse (its implicit zeros would divide by zero)")
    return [_at_pattern(lax.div, x, _small(y, facts[1]))]


def _extremum_sparse_rule(op, name):
    def rule(eqn, invals, facts):
        x, y = invals
        if is_sparse(x) and is_sparse(y):
            return [_union.sparse_sparse(name, x, y, op)]
        s, d, f = (x, y, facts[1]) if is_sparse(x) else (y, x, facts[0])
        if not is_zero(d, f):
            raise NoSparseRule(f"{name} with a non-zero dense operand gives a dense result")
        s = unique(s)
        return [s._with_data(op(s.data, lax.full((), 0, s.data.dtype)))]
    rule.__name__ = f"_{name}_sparse_rule"
    return rule


sparse_rule(lax.max_p)(_extremum_sparse_rule(lax.max, "max"))
sparse_rule(lax.min_p)(_extremum_sparse_rule(lax.min, "min"))

_COMPARE = {lax.gt_p: (np.greater, lax.gt, lax.lt), lax.lt_p: (np.less, lax.lt, lax.gt),
            lax.ge_p: (np.greater_equal, lax.ge, lax.le),
            lax.le_p: (np.less_equal, lax.le, lax.ge),
            lax.eq_p: (np.equal, lax.eq, lax.eq), lax.ne_p: (np.not_equal, lax.ne, lax.ne)}


def _compare_sparse_rule(eqn, invals, facts):
    x, y = invals
    np_op, op, flipped = _COMPARE[eqn.primitive]
    if is_sparse(x) and is_sparse(y):
        raise NoSparseRule("comparison of two sparse arrays")
    s, d, f, swap = (x, y, facts[1], False) if is_sparse(x) else (y, x, facts[0], True)
    c = 0 if is_zero(d, f) else d
    if is_tracer(c) or np.ndim(c) != 0:
        raise NoSparseRule("comparison with a non-constant operand")
    c = np.asarray(c)
    if bool(np_op(c, 0) if swap else np_op(0, c)):
        raise NoSparseRule(f"the comparison is true at the implicit zeros (0 vs {c})")
    s = unique(s)
    c = lax.full((), c, s.data.dtype)
    return [s._with_data(flipped(s.data, c) if swap else op(s.data, c))]


for _p in _COMPARE:
    sparse_rule(_p)(_compare_sparse_rule)


@sparse_rule(lax.select_n_p)
def _select_n_sparse_rule(eqn, invals, facts):
    pred, *cases = invals
    pattern = next((c for c in cases if is_sparse(c)), None)
    if pattern is None:
        raise NoSparseRule("a sparse predicate with dense cases")
    if is_sparse(pred) and not pattern.unique_indices and shares_pattern(pred, unique(pattern)):
        pattern = unique(pattern)
    datas = []
    for c, f in zip(cases, facts[1:]):
        if is_sparse(c):
            if not shares_pattern(c, pattern):
                c = unique(c)
            if not shares_pattern(c, pattern):
                raise NoSparseRule("sparse cases with different sparsity patterns")
            datas.append(c.data)
        elif is_zero(c, f):
            datas.append(lax.full_like(pattern.data, 0))
        else:
            raise NoSparseRule("a case that is dense and not zero")
    if is_sparse(pred):
        if not shares_pattern(pred, pattern):
            pred = unique(pred)
        if not shares_pattern(pred, pattern):
            raise NoSparseRule("a sparse predicate with another sparsity pattern")
        p = pred.data
    elif np.ndim(pred) == 0:
        p = pred
    else:
        p = _at_pattern(lambda a, b: b, pattern, _small(pred, facts[0])).data
    if np.ndim(p) and p.shape != pattern.data.shape:
        p = lax.broadcast_in_dim(p, pattern.data.shape, tuple(range(p.ndim)))
    return [pattern._with_data(lax.select_n(p, *datas))]


# ---- row-sharded matrices ------------------------------------------------------------------------
_SHARDED_ONLY = ("a row-sharded matrix (shard_rows) has sparse rules for products "
                 "(dot_general with a dense operand of rank 1 or 2) and its transpose only")


def sharded_rule(eqn, invals, facts):
    """The rule of any equation with a :class:`~laxarray.sparse.sharded.RowSharded` input:
    ``dot_general`` with one dense operand of rank 1 or 2 (one contracted dimension, no batch
    dimensions) runs the ``shard_map`` products, ``transpose`` gives ``A.T``; anything else
    raises ``NoSparseRule``."""
    prim = eqn.primitive
    if prim is lax.transpose_p and tuple(eqn.params["permutation"]) == (1, 0):
        return [invals[0].T]
    if prim is not lax.dot_general_p:
        raise NoSparseRule(_SHARDED_ONLY)
    lhs, rhs = invals
    left = _sh.is_sharded(lhs)
    m, other = (lhs, rhs) if left else (rhs, lhs)
    (lc, rc), (lb, rb) = eqn.params["dimension_numbers"]
    if is_sparse(other) or _sh.is_sharded(other) or lb or rb or len(lc) != 1:
        raise NoSparseRule(_SHARDED_ONLY)
    o = lax.convert_element_type(raw(other), np.dtype(other.dtype))
    sc, dc = (lc[0], rc[0]) if left else (rc[0], lc[0])
    if o.ndim not in (1, 2):
        raise NoSparseRule(_SHARDED_ONLY)
    if dc == 1:
        o = lax.transpose(o, (1, 0))
    out = _sh.apply_raw(m if sc == 1 else m.T, o)        # (m free, other free)
    return [out if left or out.ndim == 1 else lax.transpose(out, (1, 0))]


# ---- contractions and reductions --------------------------------------------------------------
@sparse_rule(lax.dot_general_p)
def _dot_general_sparse_rule(eqn, invals, facts):
    lhs, rhs = invals
    nse = None
    if is_sparse(lhs) and is_sparse(rhs) and any(
            is_tracer(leaf) for m in (lhs, rhs) for leaf in m._leaves()):
        nse = max(1, _flat_nse(lhs) * _flat_nse(rhs))   # a static bound on the products
    dims = eqn.params["dimension_numbers"]
    if not (is_sparse(lhs) and is_sparse(rhs)):
        lhs, rhs, dims = _batch_dims_leading(lhs, rhs, dims)
    try:
        return [raw(_dot.dot_general(lhs, rhs, dims, nse=nse))]
    except NotImplementedError as e:
        raise NoSparseRule(str(e)) from None


def _batch_dims_leading(lhs, rhs, dims):
    """Make the dot batch dimensions of the sparse operand its leading batch dimensions."""
    (lc, rc), (lb, rb) = dims
    left = is_sparse(lhs)
    s, sc, sb = (lhs, lc, lb) if left else (rhs, rc, rb)
    if not sb or tuple(sb) == tuple(range(len(sb))) and s.n_batch >= len(sb):
        return lhs, rhs, dims
    perm = tuple(sb) + tuple(d for d in range(len(s.shape)) if d not in sb)
    s = _rs.transpose(s, perm)
    if s.n_batch < len(sb):
        s = bcoo_update_layout(s._as_bcoo(), n_batch=len(sb))
    sc = tuple(perm.index(d) for d in sc)
    sb = tuple(range(len(sb)))
    if left:
        return s, rhs, ((sc, rc), (sb, rb))
    return lhs, s, ((lc, sc), (lb, sb))


@sparse_rule(lax.reduce_sum_p)
def _reduce_sum_sparse_rule(eqn, invals, facts):
    return [raw(_red.sum(invals[0], axis=tuple(eqn.params["axes"])))]


@sparse_rule(lax.reduce_max_p)
def _reduce_max_sparse_rule(eqn, invals, facts):
    return [raw(_red.max(invals[0], axis=tuple(eqn.params["axes"])))]


@sparse_rule(lax.reduce_min_p)
def _reduce_min_sparse_rule(eqn, invals, facts):
    return [raw(_red.min(invals[0], axis=tuple(eqn.params["axes"])))]


# ---- layout ----------------------------------------------------------------------------------
@sparse_rule(lax.transpose_p)
def _transpose_sparse_rule(eqn, invals, facts):
    return [_rs.transpose(invals[0], tuple(eqn.params["permutation"]))]


@sparse_rule(lax.reshape_p)
def _reshape_sparse_rule(eqn, invals, facts):
    x = invals[0]
    if eqn.params.get("dimensions") is not None:
        x = _rs.transpose(x, tuple(eqn.params["dimensions"]))
    return [_rs.reshape(x, tuple(eqn.params["new_sizes"]))]


@sparse_rule(lax.squeeze_p)
def _squeeze_sparse_rule(eqn, invals, facts):
    return [_rs.squeeze(invals[0], tuple(eqn.params["dimensions"]))]


@sparse_rule(lax.broadcast_in_dim_p)
def _broadcast_in_dim_sparse_rule(eqn, invals, facts):
    if len(invals) != 1:
        raise NoSparseRule("dynamic shapes")
    return [_rs.broadcast_in_dim(invals[0], tuple(eqn.params["shape"]),
                                 tuple(eqn.params["broadcast_dimensions"]))]


def _empty_like_dense(shape, dtype):
    return BCOO._new(lax.full((0,), 0, dtype), lax.full((0, len(shape)), 0, np.int32), shape,
                     indices_sorted=True, unique_indices=True)


@sparse_rule(lax.concatenate_p)
def _concatenate_sparse_rule(eqn, invals, facts):
    return [_rs.concatenate(_concat_operands(invals, facts), eqn.params["dimension"])]


def _concat_operands(invals, facts):
    ops = []
    for x, f in zip(invals, facts):
        if is_sparse(x):
            ops.append(x)
        elif is_zero(x, f):
            ops.append(_empty_like_dense(tuple(np.shape(x)), x.dtype))
        else:
            raise NoSparseRule("joining sparse and non-zero dense operands")
    return ops


@sparse_rule(lax.stack_p)
def _stack_sparse_rule(eqn, invals, facts):
    axis = eqn.params["axis"]
    ops = []
    for x in _concat_operands(invals, facts):
        shape = tuple(x.shape)
        new = shape[:axis] + (1,) + shape[axis:]
        ops.append(_rs.broadcast_in_dim(x, new, tuple(i for i in range(len(new)) if i != axis)))
    return [_rs.concatenate(ops, axis)]


def _pieces(x, axis, sizes):
    out, start = [], 0
    for n in sizes:
        lo, hi = [0] * len(x.shape), list(x.shape)
        lo[axis], hi[axis] = start, start + int(n)
        out.append(_sl.slice(x, lo, hi))
        start += int(n)
    return out


@sparse_rule(lax.split_p)
def _split_sparse_rule(eqn, invals, facts):
    return _pieces(invals[0], eqn.params["axis"], eqn.params["sizes"])


@sparse_rule(lax.unstack_p)
def _unstack_sparse_rule(eqn, invals, facts):
    x, axis = invals[0], eqn.params["axis"]
    return [_rs.squeeze(p, (axis,)) for p in _pieces(x, axis, (1,) * x.shape[axis])]


@sparse_rule(lax.tile_p)
def _tile_sparse_rule(eqn, invals, facts):
    x = invals[0]
    reps = tuple(eqn.params["reps"])
    if len(reps) > len(x.shape):
        extra = len(reps) - len(x.shape)
        x = _rs.broadcast_in_dim(x, (1,) * extra + tuple(x.shape),
                                 tuple(range(extra, len(reps))))
    for axis, r in enumerate(reps):
        if r != 1:
            x = _rs.concatenate([x] * r, axis)
    return [x]


@sparse_rule(lax.slice_p)
def _slice_sparse_rule(eqn, invals, facts):
    p = eqn.params
    return [_sl.slice(invals[0], p["start_indices"], p["limit_indices"], p["strides"])]


@sparse_rule(lax.dynamic_slice_p)
def _dynamic_slice_sparse_rule(eqn, invals, facts):
    x, *starts = invals
    if any(is_sparse(s) for s in starts) or len(starts) != len(x.shape):
        raise NoSparseRule("sparse or dynamic-shape start indices")
    return [_sl.dynamic_slice(x, starts, eqn.params["slice_sizes"])]


@sparse_rule(lax.gather_p)
def _gather_sparse_rule(eqn, invals, facts):
    x, idx = invals
    p = eqn.params
    dn = p["dimension_numbers"]
    if is_sparse(idx) or dn.operand_batching_dims:
        raise NoSparseRule("sparse indices or gather batching dimensions")
    sizes = tuple(p["slice_sizes"])
    batch_shape = tuple(idx.shape[:-1])
    m = math.prod(batch_shape)
    idx2 = lax.reshape(idx, (m, idx.shape[-1]))
    smap = tuple(dn.start_index_map)

    def one(row):
        starts = [row[smap.index(d)] if d in smap else 0 for d in range(len(x.shape))]
        return _sl.dynamic_slice(x, starts, sizes)

    out = jax.vmap(one)(idx2)                          # (m, *slice_sizes), one batch per index
    collapsed = tuple(1 + c for c in dn.collapsed_slice_dims)
    if collapsed:
        out = _rs.squeeze(out, collapsed)
    offset = tuple(out.shape[1:])
    if len(batch_shape) != 1:
        out = _rs.reshape(out, batch_shape + offset)
    nb = len(batch_shape)
    perm, bi, oi = [], 0, 0
    for pos in range(nb + len(offset)):
        if pos in dn.offset_dims:
            perm.append(nb + oi)
            oi += 1
        else:
            perm.append(bi)
            bi += 1
    return [_rs.transpose(out, tuple(perm))]


@sparse_rule(lax.rev_p)
def _rev_sparse_rule(eqn, invals, facts):
    x = invals[0]
    a = x._as_bcoo()
    nb, ns = a.n_batch, a.n_sparse
    dims = tuple(eqn.params["dimensions"])
    data, indices = a.data, a.indices
    bdims = tuple(d for d in dims if d < nb)
    if bdims:
        batch = tuple(a.shape[:nb])
        data = lax.rev(K.broadcast_batch(data, batch), bdims)
        indices = lax.rev(K.broadcast_batch(indices, batch), bdims)
    ddims = tuple(nb + 1 + d - nb - ns for d in dims if d >= nb + ns)
    if ddims:
        data = lax.rev(data, ddims)
    sdims = [d - nb for d in dims if nb <= d < nb + ns]
    if sdims:
        cols = []
        for j in range(ns):
            c = indices[..., j:j + 1]
            if j in sdims:
                size = lax.full((), a.shape[nb + j], c.dtype)
                c = lax.select(lax.lt(c, lax.full_like(c, size)),
                               lax.sub(lax.full_like(c, size - 1), c), c)
            cols.append(c)
        indices = lax.concatenate(cols, indices.ndim - 1)
    out = BCOO._new(data, indices, a.shape, a.indices_sorted and not sdims and not bdims,
                    a.unique_indices)
    return [_restore(out, x)]


# ---- 1-D convolution -------------------------------------------------------------------------
@sparse_rule(lax.conv_general_dilated_p)
def _conv_general_dilated_sparse_rule(eqn, invals, facts):
    lhs, rhs = invals
    p = eqn.params
    out_aval = eqn.outvars[0].aval
    if (len(lhs.shape) != 3 or p["feature_group_count"] != 1 or p["batch_group_count"] != 1
            or tuple(p["lhs_dilation"]) != (1,) or (is_sparse(lhs) and is_sparse(rhs))
            or math.prod(lhs.shape) != max(lhs.shape) or math.prod(rhs.shape) != max(rhs.shape)):
        raise NoSparseRule("only 1-D convolutions of one sparse and one dense vector "
                           "(batch, feature and group sizes 1, no lhs dilation)")
    dn = p["dimension_numbers"]
    n, k = lhs.shape[dn.lhs_spec[2]], rhs.shape[dn.rhs_spec[2]]
    o = out_aval.shape[dn.out_spec[2]]
    (s,), (rd,), ((lo, _),) = p["window_strides"], p["rhs_dilation"], p["padding"]
    dtype = out_aval.dtype
    if is_sparse(lhs):
        v = _rs.reshape(lhs, (n,))._as_bcoo()
        w = lax.convert_element_type(lax.reshape(rhs, (k,)), dtype)
        pos = lax.convert_element_type(v.indices[:, 0], _dt.default_index())
        t = lax.sub(lax.add(pos[:, None], _dt.default_index().type(lo)),
                    lax.mul(lax.broadcasted_iota(_dt.default_index(), (1, k), 1), _dt.default_index().type(rd)))
        ok = lax.bitwise_and(lax.ge(t, _dt.default_index().type(0)), lax.eq(lax.rem(t, _dt.default_index().type(s)),
                                                           _dt.default_index().type(0)))
        ok = lax.bitwise_and(ok, lax.lt(pos, _dt.default_index().type(n))[:, None])
        target = lax.select(ok, lax.div(t, _dt.default_index().type(s)), lax.full_like(t, o))
        vals = lax.mul(lax.convert_element_type(v.data, dtype)[:, None], w[None, :])
        out = K.scatter_add_1d(o, lax.reshape(target, (t.size,)), lax.reshape(vals, (t.size,)))
    else:
        v = _rs.reshape(rhs, (k,))._as_bcoo()
        x = lax.convert_element_type(lax.reshape(lhs, (n,)), dtype)
        j = lax.convert_element_type(v.indices[:, 0], _dt.default_index())
        pos = lax.add(lax.mul(lax.broadcasted_iota(_dt.default_index(), (1, o), 1), _dt.default_index().type(s)),
                      lax.sub(lax.mul(j[:, None], _dt.default_index().type(rd)), _dt.default_index().type(lo)))
        ok = lax.bitwise_and(lax.ge(pos, _dt.default_index().type(0)), lax.lt(pos, _dt.default_index().type(n)))
        g = K.gather_1d(x, lax.reshape(lax.select(ok, pos, lax.full_like(pos, n)), (pos.size,)))
        g = lax.reshape(g, pos.shape)
        wv = lax.select(lax.lt(j, _dt.default_index().type(k)), lax.convert_element_type(v.data, dtype),
                        lax.full(j.shape, 0, dtype))
        out = lax.reduce_sum(lax.mul(wv[:, None], g), (0,))
    return [lax.reshape(lax.convert_element_type(out, dtype), tuple(out_aval.shape))]


# ---- helpers for the structural rules -------------------------------------------------------
def scan_ready(x):
    """A sparse ``xs`` of ``scan`` with a full leading batch dimension (sliced per step)."""
    if isinstance(x, BCSR) and x.n_batch >= 1:
        return x
    a = x._as_bcoo()
    if a.n_batch == 0:
        return bcoo_update_layout(a, n_batch=1)
    batch = tuple(a.shape[:a.n_batch])
    return BCOO._new(K.broadcast_batch(a.data, batch), K.broadcast_batch(a.indices, batch),
                     a.shape, a.indices_sorted, a.unique_indices)


def pad_nse(x, nse):
    """``x`` with padding entries appended up to ``nse`` stored entries per batch."""
    extra = nse - x.nse
    if extra <= 0:
        return x
    nb = x.n_batch
    if isinstance(x, BCSR):
        data = _pad_axis(x.data, nb, extra, lax.full((), 0, x.data.dtype))
        idx = _pad_axis(x.indices, nb, extra, lax.full((), x.shape[nb + 1], x.indices.dtype))
        return BCSR._new(data, idx, x.indptr, x.shape, x.indices_sorted, x.unique_indices)
    batch = tuple(x.shape[:nb])
    data = _pad_axis(K.broadcast_batch(x.data, batch), nb, extra,
                     lax.full((), 0, x.data.dtype))
    ind = K.broadcast_batch(x.indices, batch)
    sizes = np.asarray(x.shape[nb:nb + x.n_sparse], ind.dtype)
    pad = lax.broadcast_in_dim(sizes, batch + (extra, x.n_sparse), (nb + 1,))
    ind = lax.concatenate([ind, pad], nb)
    return BCOO._new(data, ind, x.shape, x.indices_sorted, x.unique_indices)


def _pad_axis(v, axis, extra, value):
    config = [(0, 0, 0)] * v.ndim
    config[axis] = (0, extra, 0)
    return lax.pad(v, value, config)


def relabel(x, sorted_, unique):
    """``x`` with its static flags replaced (only ever weakened)."""
    if isinstance(x, BCSR):
        return BCSR._new(x.data, x.indices, x.indptr, x.shape, sorted_, unique)
    return BCOO._new(x.data, x.indices, x.shape, sorted_, unique)


__all__ = ["RULES", "Fact", "NoSparseRule", "ZERO_DESTROYING_UNARY", "is_sparse", "raw",
           "todense", "scan_ready", "pad_nse", "relabel"]


@sparse_rule(lax.optimization_barrier_p)
def _optimization_barrier_sparse_rule(eqn, invals, facts):
    """The barrier over every array of the operands (a sparse one: its data and indices)."""
    leaves, tree = jax.tree_util.tree_flatten(list(invals))
    return jax.tree_util.tree_unflatten(tree, list(lax.optimization_barrier(leaves)))
