"""pad(mode='median') bit for bit against NumPy: NumPy's median is ``mean`` of the middle one
or two sorted values, a sum started at +0.0 (so the median of -0.0 is 0.0), in float32 for
float16 data.  Oracle: NumPy."""

import numpy as np
import pytest

import laxarray as xp


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("values", [[-0.0], [-0.0, -0.0], [-0.0, -0.0, -0.0], [-0.0, 0.0],
                                    [60000.0, 65000.0], [1.0, 1.0009765625], [np.nan, 1.0],
                                    [3.0, -3.0]])
@pytest.mark.parametrize("stat_length", [None, (1, 2), (2, 2)])
def test_median_matches_numpy(dt, values, stat_length):
    x = np.array(values, dt)
    kw = {} if stat_length is None else {"stat_length": stat_length}
    with np.errstate(all="ignore"):
        want = np.pad(x, 2, mode="median", **kw)
    got = np.asarray(xp.pad(xp.asarray(x), 2, mode="median", **kw))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8),
                                  err_msg=f"got {got!r}, want {want!r}")
