"""spacing and frexp against NumPy bit for bit, on every finite and special value class:
zeros of both signs, subnormals (XLA on CPU flushes subnormal arithmetic, so spacing(0) was
0), the largest finite value (spacing: inf), inf and NaN, and random bit patterns past 4096
elements."""

import numpy as np
import pytest

import laxarray as la

INT_OF = {"float16": np.uint16, "float32": np.uint32, "float64": np.uint64}


def _values(dtype):
    info = np.finfo(dtype)
    edges = np.array([0.0, -0.0, 1.0, -1.0, 2.0, 0.75, info.tiny, -info.tiny,
                      info.smallest_subnormal, -info.smallest_subnormal * 3, info.max,
                      -info.max, np.inf, -np.inf, np.nan], dtype)
    rng = np.random.default_rng(0)
    bits = rng.integers(0, np.iinfo(INT_OF[dtype]).max, 6000, dtype=INT_OF[dtype],
                        endpoint=True)
    return np.concatenate([edges, bits.view(dtype)])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_spacing_matches_numpy(dtype):
    x = _values(dtype)
    with np.errstate(all="ignore"):
        want = np.spacing(x)
    got = np.asarray(la.spacing(la.asarray(x)))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    keep = ~np.isnan(want)                    # a NaN's sign bit means nothing
    np.testing.assert_array_equal(np.signbit(got[keep]), np.signbit(want[keep]))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_frexp_matches_numpy(dtype):
    x = _values(dtype)
    m_want, e_want = np.frexp(x)
    m_got, e_got = la.frexp(la.asarray(x))
    np.testing.assert_array_equal(np.asarray(m_got), m_want)
    np.testing.assert_array_equal(np.signbit(np.asarray(m_got)), np.signbit(m_want))
    finite = np.isfinite(x)
    np.testing.assert_array_equal(np.asarray(e_got)[finite], e_want[finite])
