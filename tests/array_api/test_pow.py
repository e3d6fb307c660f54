"""``pow`` with subnormal operands computes as the flush-to-zero platform it runs on: each
subnormal read as a zero of its sign (XLA's CPU pow alone read a subnormal base as 2**-1075).
The oracle is NumPy on the flushed operands."""

import itertools

import numpy as np
import pytest

import laxarray as xp
from laxarray.conformance.compare import flush_subnormals


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pow_reads_subnormals_as_zeros(dtype):
    tiny = np.finfo(dtype).smallest_subnormal
    values = np.array([tiny, -tiny, 3 * tiny, 0.0, -0.0, 0.5, 2.0], dtype)
    exponents = np.array([-0.5, 0.5, -1.0, 3.0, 0.0, tiny, -tiny], dtype)
    x1, x2 = (np.array(v, dtype) for v in zip(*itertools.product(values, exponents)))
    for fn, oracle in ((xp.pow, np.power), (xp.float_power, np.float_power)):
        with np.errstate(all="ignore"):
            want = oracle(flush_subnormals(x1), flush_subnormals(x2))
        got = np.asarray(fn(xp.asarray(x1), xp.asarray(x2)))
        assert np.array_equal(got, want, equal_nan=True), (fn.__name__, x1[got != want],
                                                            x2[got != want])
        assert np.array_equal(np.signbit(got), np.signbit(want))
