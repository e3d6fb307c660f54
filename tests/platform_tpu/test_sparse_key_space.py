"""Sparse keys on the TPU's record are int32: an operation that linearizes 2**31 or more
positions raises a ValueError instead of wrapping its keys (which merged unrelated entries
silently: sum_duplicates of a 10**6 x 10**5 matrix kept 15693 of its 19951 entries, at
wrong rows); products with dense vectors, which need no keys, still work there."""

import numpy as np
import pytest
import scipy.sparse as sp

import laxarray as xp
from laxarray import sparse

ROWS, COLS = 10**6, 10**5


@pytest.fixture(scope="module")
def big():
    rng = np.random.default_rng(0)
    r, c = rng.integers(0, ROWS, 2000), rng.integers(0, COLS, 2000)
    return sp.coo_matrix((np.arange(1, 2001, dtype=np.float32), (r, c)), shape=(ROWS, COLS))


def test_keys_past_int32_raise_rather_than_wrap(big):
    b = sparse.BCOO.from_scipy_sparse(big)
    for op in (lambda: b.sum_duplicates(), lambda: b @ b.T):
        with pytest.raises(ValueError, match=r"laxarray\.sparse: .*int32 keys of the tpu"):
            op()


def test_products_with_dense_need_no_keys(big):
    v = np.linspace(0, 1, COLS, dtype=np.float32)
    want = big.tocsr() @ v
    for a in (sparse.BCOO.from_scipy_sparse(big), sparse.BCSR.from_scipy_sparse(big.tocsr())):
        np.testing.assert_allclose(np.asarray(a @ xp.asarray(v)), want, rtol=1e-5, atol=1e-3)
