"""linspace bit for bit against NumPy for every dtype NumPy takes.

NumPy computes ``i * step + start`` in float64 (complex128), the product rounded before the
sum, and casts; integer dtypes floor first.  XLA turned ``delta / div`` into a product with
the reciprocal and fused the multiply into the add (one fma), so float64 values were an ulp
off and integer ones, floored, one less (``linspace(-100, 100, 999)[499]``).
"""

import jax
import numpy as np
import pytest

import laxarray as la

DTYPES = ["bool", "int8", "uint8", "int16", "uint32", "int64", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]
CASES = [(0, 10, 7, True), (-3, 2, 7, True), (0, 3, 4, True), (1, 2, 2, True),
         (-7.5, 7.5, 11, False), (0, 1, 0, True), (5, 5, 3, True), (0, 1, 1, True),
         (0.1, 0.7, 50, True), (-100, 100, 999, True), (1e-3, 7e5, 5001, False),
         (-1e6, 3e5, 9999, True)]


@pytest.mark.parametrize("dtype", DTYPES)
def test_linspace_matches_numpy_bit_for_bit(dtype):
    rng = np.random.default_rng(len(dtype))
    cases = CASES + [(float(a), float(b), int(n), bool(e)) for a, b, n, e in zip(
        rng.uniform(-1e3, 1e3, 6), rng.uniform(-1e3, 1e3, 6), rng.integers(2, 6000, 6),
        rng.integers(0, 2, 6))]
    for start, stop, num, endpoint in cases:
        with np.errstate(all="ignore"):
            want = np.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)
        got = np.asarray(la.linspace(start, stop, num, endpoint=endpoint,
                                     dtype=getattr(la, dtype)))
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want, err_msg=str((start, stop, num, endpoint)))


def test_linspace_integer_dtype_under_jit():
    got = jax.jit(lambda: la.linspace(-100, 100, 999, dtype=la.int16))()
    np.testing.assert_array_equal(np.asarray(got), np.linspace(-100, 100, 999, dtype=np.int16))
