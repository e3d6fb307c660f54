"""Iterative solvers on BCOO/BCSR matrices, dense arrays or linear-operator callables.

``cg``, ``bicgstab``, ``gmres`` (square systems), ``lsqr`` (least squares) and
``lobpcg_standard`` (largest eigenpairs of a symmetric operator); every solver is one
jitted ``lax.while_loop`` and runs eagerly or under ``jax.jit``.
"""

from laxarray.sparse.linalg.krylov import bicgstab, cg, gmres  # noqa: F401
from laxarray.sparse.linalg.lobpcg import lobpcg_standard  # noqa: F401
from laxarray.sparse.linalg.lsqr import LsqrResult, lsqr  # noqa: F401

__all__ = ["cg", "bicgstab", "gmres", "lsqr", "LsqrResult", "lobpcg_standard"]
