"""Index keys that are results of kernels (held padded to their bucket): masks and integer
arrays read on the host from the padded value (``Array._padded_host``) must select, write
and fail as NumPy's keys of the same values do."""

import numpy as np
import pytest

import laxarray as xp


def _same(got, want):
    got = np.asarray(got)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("n", [5, 20, 37])
def test_mask_and_index_results_as_keys(n):
    rng = np.random.default_rng(n)
    a = rng.standard_normal((n, 3))
    v = rng.standard_normal(n)
    x, y = xp.asarray(a), xp.asarray(v)
    mask, nmask = y > 0, v > 0                 # kernel results: padded where n is bucketed
    _same(x[mask], a[nmask])
    _same(y[mask], v[nmask])
    _same(x[mask, 1], a[nmask, 1])
    idx = xp.arange(n) * 2 % n                 # an integer array result
    nidx = np.arange(n) * 2 % n
    _same(y[idx], v[nidx])
    _same(x[idx, :], a[nidx, :])
    _same(y[-idx - 1], v[-nidx - 1])          # negative indices, wrapped on the host
    y[mask] = 0.0
    v[nmask] = 0.0
    _same(y, v)
    x[idx[:2]] = -1.0
    a[nidx[:2]] = -1.0
    _same(x, a)
    _same(mask, nmask)                          # the key itself is unchanged


def test_errors_of_padded_keys_match_numpy():
    x = xp.asarray(np.arange(6.0))
    with pytest.raises(IndexError):
        x[xp.arange(4) + 5]                     # 5..8 on an axis of 6
    with pytest.raises(IndexError):
        x[(xp.arange(7) > 2)]                   # a mask of the wrong length
    with pytest.raises(IndexError):
        x[xp.arange(3) * 1.5]                   # a float index array
    with pytest.raises(ValueError):
        x[x > 2] = xp.asarray([1.0, 2.0])       # 3 selected, 2 values
