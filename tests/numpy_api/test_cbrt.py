"""cbrt of subnormals: XLA's cbrt gives one wrong constant (negative, for positive input) for
every subnormal; laxarray roots the fraction field instead. Oracle: NumPy in long double."""

import ml_dtypes
import numpy as np
import pytest

import laxarray as xp


@pytest.mark.parametrize("dt", [np.float16, ml_dtypes.bfloat16, np.float32, np.float64])
def test_cbrt_of_subnormals_within_two_ulps(dt):
    """Two: XLA's own cbrt of normal numbers is that far off (float64 ``cbrt(27)`` is
    3 + 2 ulps), and a subnormal's root is that cbrt of a normal number, rescaled exactly."""
    f = np.finfo(dt)
    rng = np.random.default_rng(3)
    sub = (rng.integers(1, 2 ** f.nmant, 200) * float(f.smallest_subnormal)).astype(dt)
    x = np.concatenate([sub, -sub, np.array([f.smallest_subnormal, f.tiny, 0.0, -0.0, 8.0,
                                             np.inf, -np.inf, np.nan], dt)])
    got = np.asarray(xp.cbrt(xp.asarray(x)))
    want = np.cbrt(x.astype(np.longdouble))
    finite = np.isfinite(want) & (want != 0)
    err = np.abs(got[finite].astype(np.longdouble) - want[finite])
    assert np.all(err <= 2 * np.spacing(np.abs(want[finite]).astype(dt)).astype(np.longdouble))
    assert np.array_equal(np.signbit(got), np.signbit(want))
    rest = ~finite
    np.testing.assert_array_equal(got[rest].astype(np.float64), want[rest].astype(np.float64))
