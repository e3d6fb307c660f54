"""Iterative solvers on BCOO/BCSR matrices, dense arrays or linear-operator callables.

``cg``, ``bicgstab``, ``gmres`` (square systems), ``lsqr`` (least squares) and
``lobpcg_standard`` (largest eigenpairs of a symmetric operator); every solver is one
jitted ``lax.while_loop`` and runs eagerly or under ``jax.jit``.  Direct solves:
``spsolve`` and the reusable factorisation ``splu``/``factorized`` (SciPy's SuperLU on the
host, reached by a host callback under ``jax.jit``).
"""

from laxarray.sparse.linalg.direct import SparseLU, factorized, splu, spsolve  # noqa: F401
from laxarray.sparse.linalg.krylov import bicgstab, cg, gmres  # noqa: F401
from laxarray.sparse.linalg.lobpcg import lobpcg_standard  # noqa: F401
from laxarray.sparse.linalg.lsqr import LsqrResult, lsqr  # noqa: F401

__all__ = ["cg", "bicgstab", "gmres", "lsqr", "LsqrResult", "lobpcg_standard", "spsolve",
           "splu", "factorized", "SparseLU"]
