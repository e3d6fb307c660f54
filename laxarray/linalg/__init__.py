"""laxarray.linalg: the Array API linalg extension (2025.12) and numpy.linalg's extras.

Built on ``jax.lax.linalg`` (LU, Cholesky, QR, SVD, eigh, eig) and plain lax products.
Every function takes stacks of matrices ``(..., M, N)``, real and complex, float32 and
float64; bool/integer input to a function that needs floating point becomes float64.
Shape and argument errors raise ``TypeError``/``ValueError`` naming the function (a matrix
of the wrong shape: ``LinAlgError``, NumPy's class).  Called eagerly, the functions also raise
``LinAlgError`` with NumPy's message where NumPy does, after computing: a singular matrix
(``solve``, ``inv``, ``tensorsolve``, ``tensorinv``, ``matrix_power`` with ``n < 0``), one
that is not positive definite (``cholesky``), a decomposition that does not converge
(``svd``, ``pinv``, ``lstsq``, ``eig`` ...; see ``_status``).  Under ``jax.jit`` and ``vmap``
nothing can be raised: the result holds inf/NaN, and ``laxarray.checkify.linalg_checks``
reports the failure.
"""

from laxarray._core.errors import LinAlgError
from laxarray.linalg._operands import (EigResult, EighResult, LstsqResult, QRResult,
                                       SlogdetResult, SVDResult)
from laxarray.linalg.decompositions import (cholesky, eig, eigh, eigvals, eigvalsh, qr, svd,
                                            svdvals)
from laxarray.linalg.norms import cond, matrix_norm, norm, vector_norm
from laxarray.linalg.products import (cross, diagonal, matmul, matrix_transpose, multi_dot,
                                      outer, tensordot, trace, vecdot)
from laxarray.linalg.solvers import (det, inv, matrix_power, slogdet, solve, tensorinv,
                                     tensorsolve)
from laxarray.linalg.svd_solvers import lstsq, matrix_rank, pinv

__all__ = ["cholesky", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv",
           "matmul", "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer",
           "pinv", "qr", "slogdet", "solve", "svd", "svdvals", "tensordot", "trace", "vecdot",
           "vector_norm", "norm", "cond", "lstsq", "multi_dot", "tensorinv", "tensorsolve",
           "EigResult", "EighResult", "LstsqResult", "QRResult", "SlogdetResult", "SVDResult",
           "LinAlgError"]
