"""laxarray.checkify: functionalized runtime checks (jax.experimental.checkify's surface).

``checkify(f, errors=...)`` returns a function that computes ``(Error, f(*args))``: user
``check`` calls and the automatic checks of the chosen categories (NaN production, division by
zero, out-of-bounds indices, infinities, and with ``linalg_checks`` the failures NumPy's
linalg raises ``LinAlgError`` for) become part of the computed value, so the checked
function still runs under ``jax.jit``, ``jax.vmap`` and ``jax.grad``.  Every message names the
primitive (or the user's check) and the user's source file and line.
"""

from laxarray.checkify.checks import check, check_error, debug_check
from laxarray.checkify.error import (
    DivisionByZeroError, Error, FailedCheckError, FloatDivisionByZeroError, FloatError,
    JaxRuntimeError, LinAlgCheckError, NaNError, OOBError, all_checks, automatic_checks,
    div_checks, float_checks, float_div_checks, index_checks, linalg_checks, nan_checks,
    user_checks)
from laxarray.checkify.interpreter import checkify
from laxarray._core import data_checks as _data_checks

_data_checks.register(debug_check)  # kernels' run-time checks are reported as ours

__all__ = [
    "checkify", "check", "debug_check", "check_error", "Error", "JaxRuntimeError",
    "FailedCheckError", "NaNError", "DivisionByZeroError", "FloatDivisionByZeroError",
    "OOBError", "FloatError", "LinAlgCheckError", "user_checks", "nan_checks", "div_checks",
    "index_checks", "float_checks", "float_div_checks", "linalg_checks", "automatic_checks",
    "all_checks",
]
