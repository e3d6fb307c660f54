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


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_mean_and_var_divide_their_sums_correctly_rounded(dtype):
    # mean = sum / n and var = sum of squares / (n - correction), each one correctly
    # rounded division (the sums themselves may differ from NumPy's by summation order)
    rng = np.random.default_rng(8)
    a = rng.standard_normal((2000, 7)).astype(dtype)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(a.shape)
    x = xp.asarray(a)
    total = np.asarray(xp.sum(x, axis=1))
    n = np.asarray(7, total.real.dtype)
    want = total / n if np.dtype(dtype).kind != "c" else (
        total.real / n + 1j * (total.imag / n)).astype(dtype)
    np.testing.assert_array_equal(np.asarray(xp.mean(x, axis=1)), want)
    mean = np.asarray(xp.mean(x, axis=1, keepdims=True))
    centred = np.asarray(x - xp.asarray(mean))
    sq = np.asarray(xp.sum(xp.asarray((centred * centred.conj()).real), axis=1))
    np.testing.assert_array_equal(np.asarray(xp.var(x, axis=1, correction=1)), sq / n.dtype.type(6))
