"""Typical user code, type-checked by mypy against laxarray's public annotations (make test).

Not collected by pytest: ``make test`` runs mypy on it, and runs it, so it is also working
code. ``assert_type`` lines fail the check when an annotation is lost or wrong.
"""

from __future__ import annotations

from typing import assert_type

import numpy as np

import laxarray as lx
from laxarray import checkify, sparse


def standardize(x: lx.Array) -> lx.Array:
    mean = lx.mean(x, axis=0)
    std = lx.std(x, axis=0)
    return (x - mean) / std


def dense() -> float:
    x = lx.asarray(np.arange(12.0).reshape(3, 4))
    assert_type(x, lx.Array)
    assert_type(x.shape, tuple[int, ...])
    assert_type(x.ndim, int)
    assert_type(x[0], lx.Array)
    assert_type(x + 1, lx.Array)
    assert_type(1.5 * x, lx.Array)
    assert_type(x < 2, lx.Array)
    assert_type(-x, lx.Array)
    assert_type(x.T @ x, lx.Array)
    y = lx.reshape(x, (4, 3))
    y[0, :] = 1.0
    y += 1
    z: lx.Array = lx.matmul(x, y) + 2 * x[:, :3].T @ x[:, :3]
    s = standardize(z)
    n = lx.linalg.vector_norm(s)
    return float(n)


def sparse_ops() -> lx.Array:
    a = sparse.BCOO.fromdense(lx.eye(4))
    b = sparse.BCSR.fromdense(lx.eye(4))
    v = lx.ones(4)
    return a @ v + b @ v


def checked(x: lx.Array) -> lx.Array:
    checkify.check(lx.all(x > 0), "x must be positive, got {}", x)
    return lx.log(x)


err, out = checkify.checkify(checked)(lx.ones(3))
err.throw()
