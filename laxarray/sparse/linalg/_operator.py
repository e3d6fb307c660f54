"""Linear operators for the solvers: a BCOO/BCSR matrix, a row-sharded matrix
(:class:`~laxarray.sparse.sharded.RowSharded`), a dense matrix, or a callable.

:func:`as_operator` validates an operator argument with static facts only and splits it into
a hashable static part (the kind, the callable) and a pytree of arrays (the matrix), so one
jitted solve serves every matrix of the same structure.  Inside the solve,
:func:`matvec` / :func:`rmatvec` apply ``A`` and ``A^T`` to raw jax values (``A^T`` of a
callable comes from ``jax.linear_transpose``).
"""

from __future__ import annotations

from typing import NamedTuple

import jax
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail, fail_text
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._convert import to_raw
from laxarray.sparse.ops.dot import matmul
from laxarray.sparse.sharded import RowSharded, apply_raw


class Operator(NamedTuple):
    """Static description of an operator: ``kind`` ('sparse', 'sharded', 'dense',
    'callable', 'none'), the callable (or None), the shape when known, and whether a
    callable takes ``Array``."""

    kind: str
    fn: object
    shape: object
    wrap_arrays: bool


def _is_sparse(x):
    return hasattr(x, "_as_bcoo")


def as_operator(fn, A, argname, *, wrap_arrays, allow_none=False):
    """``(Operator, payload)`` for ``A``; payload is the matrix pytree (None for a callable)."""
    if A is None:
        if allow_none:
            return Operator("none", None, None, wrap_arrays), None
        fail(TypeError, fn, f"a matrix or linear operator for '{argname}'", A)
    if isinstance(A, RowSharded):
        _check_dtype(fn, A.dtype, A, argname)
        return Operator("sharded", None, tuple(A.shape), wrap_arrays), A
    if _is_sparse(A):
        if A.ndim != 2 or A.n_batch or A.n_dense:
            fail(ValueError, fn, f"a 2-D unbatched sparse matrix for '{argname}'", A)
        _check_dtype(fn, A.dtype, A, argname)
        return Operator("sparse", None, tuple(A.shape), wrap_arrays), A
    if callable(A) and not isinstance(A, (Array, jax.Array)):
        return Operator("callable", A, None, wrap_arrays), None
    raw = to_raw(fn, A, argname)
    if raw.ndim != 2:
        fail(ValueError, fn, f"a 2-D matrix for '{argname}'", A)
    _check_dtype(fn, raw.dtype, A, argname)
    return Operator("dense", None, tuple(raw.shape), wrap_arrays), raw


def _check_dtype(fn, dtype, obj, argname):
    if dtype.kind not in "iufc":
        fail(TypeError, fn, f"a numeric (not boolean) '{argname}'", obj)


def matvec(op, payload, v):
    """``A @ v`` for a raw vector or matrix ``v`` (raw result, ``v``'s dtype promoted)."""
    if op.kind == "none":
        return v
    if op.kind == "dense":
        return lax.dot(payload.astype(_common(payload.dtype, v.dtype)),
                       v.astype(_common(payload.dtype, v.dtype)))
    if op.kind == "sparse":
        return to_raw("matvec", matmul(payload, v)).astype(_common(payload.dtype, v.dtype))
    if op.kind == "sharded":
        return apply_raw(payload, v).astype(_common(payload.dtype, v.dtype))
    out = op.fn(wrap(v) if op.wrap_arrays else v)
    raw = to_raw("linear operator", out, "A(x)")
    if raw.shape != v.shape:
        fail_text(ValueError, "linear operator", f"expected A(x) of shape {tuple(v.shape)} "
                  f"(A must be square and map an array of x's shape to one of the same "
                  f"shape); got shape {tuple(raw.shape)}")
    return raw.astype(_common(raw.dtype, v.dtype))


def rmatvec(op, payload, u, n):
    """``A^T @ u`` (no conjugation) for a raw vector ``u``; ``n`` is the length of the result."""
    if op.kind == "none":
        return u
    if op.kind == "dense":
        dt = _common(payload.dtype, u.dtype)
        return lax.dot(u.astype(dt), payload.astype(dt))
    if op.kind == "sparse":
        return to_raw("rmatvec", matmul(u, payload)).astype(_common(payload.dtype, u.dtype))
    if op.kind == "sharded":
        return apply_raw(payload, u, left=True).astype(_common(payload.dtype, u.dtype))
    probe = jax.ShapeDtypeStruct((n,), u.dtype)
    transpose = jax.linear_transpose(lambda x: matvec_rect(op, payload, x), probe)
    return transpose(u)[0]


def matvec_rect(op, payload, v):
    """``A @ v`` allowing a rectangular callable (used by ``lsqr``)."""
    if op.kind != "callable":
        return matvec(op, payload, v)
    raw = to_raw("linear operator", op.fn(wrap(v) if op.wrap_arrays else v), "A(x)")
    return raw.astype(_common(raw.dtype, v.dtype))


def _common(a, b):
    return _dt.result_type(a, b)


def check_square(fn, op, n, argname):
    """A known operator shape must be ``(n, n)``."""
    if op.shape is not None and tuple(op.shape) != (n, n):
        fail(ValueError, fn, f"'{argname}' of shape ({n}, {n}) to match b", op.shape)
