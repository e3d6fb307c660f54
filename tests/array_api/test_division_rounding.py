"""True division by a broadcast divisor is correctly rounded, as NumPy's (and IEEE 754's).

XLA rewrites ``a / broadcast(b)`` as ``a * broadcast(1 / b)``, which is one ulp off for a
third of the quotients; the conformance runner found it with a random seed.
"""

import jax
import numpy as np
import pytest

import laxarray as xp


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_division_by_scalar_and_broadcast_is_correctly_rounded(dtype):
    rng = np.random.default_rng(5)
    a = rng.standard_normal((64, 300)).astype(dtype)
    row = rng.standard_normal((1, 300)).astype(dtype)
    for divisor in (7.0, 3.0, 0.1, 1e-3):
        want = a / dtype(divisor)
        np.testing.assert_array_equal(np.asarray(xp.divide(xp.asarray(a), divisor)), want)
        np.testing.assert_array_equal(np.asarray(xp.asarray(a) / divisor), want)
        jitted = jax.jit(lambda v: v / divisor)
        np.testing.assert_array_equal(np.asarray(jitted(xp.asarray(a))), want)
        scalar = xp.asarray(np.asarray(divisor, dtype))
        np.testing.assert_array_equal(np.asarray(xp.divide(xp.asarray(a), scalar)), want)
    np.testing.assert_array_equal(np.asarray(xp.asarray(a) / xp.asarray(row)), a / row)
