"""Conformance specs of the standard's elementwise functions (oracle: NumPy).

One row per function: the NumPy oracle, the dtype group the standard defines it for, the
expected result dtype rule, the input domain and the tolerance (in ulps of the result's
dtype; see TOLERANCES).
"""

from __future__ import annotations

import numpy as np

from laxarray.conformance.spec import binary, bool_result, real_of, unary

#: rtol/atol in ulps for functions that are not correctly rounded (one table, documented).
TOLERANCES = {
    "transcendental": (8.0, 8.0),
}
_T = TOLERANCES["transcendental"]

unary("abs", np.abs, "numeric", result=real_of)
unary("negative", np.negative, "numeric")
unary("sin", np.sin, "floating-point", rtol=_T[0], atol=_T[1])
binary("add", np.add, "numeric")
binary("multiply", np.multiply, "numeric")
binary("equal", np.equal, "any", result=bool_result)
