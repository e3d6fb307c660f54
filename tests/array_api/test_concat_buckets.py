"""Bucketed concat places each piece in the result's bucket (a kernel per result bucket and
piece bucket): equal to NumPy for any number, order and lengths of pieces (padding poisoned
with NaN, so a piece's padding that leaked into the result shows), and no new executable
for other piece lengths in the same buckets -- the scikit-learn workflow's concatenation
of two class halves compiled again on every new row count."""

import numpy as np
import pytest

import laxarray as xp
from laxarray._core import buckets as B
from laxarray._core.runtime import kernel as K

CASES = [
    ([(5, 3), (3, 3)], 0),                 # ends exactly at the bucket's end (8)
    ([(200, 20), (200, 20)], 0),
    ([(300, 20), (200, 20)], 0),
    ([(1, 4), (2, 4), (3, 4), (7, 4)], 0),
    ([(4, 5), (4, 3)], 1),
    ([(2, 3, 4), (2, 1, 4), (2, 6, 4)], 1),
    ([(3,)] * 40, 0),                      # more pieces than one kernel used to take (32)
    ([(8,), (1,)], 0),
    ([(1,), (1,)], 0),
    ([(2, 1), (2, 1)], -1),
]


@pytest.fixture
def poisoned():
    previous, B.POISON = B.POISON, True
    try:
        yield
    finally:
        B.POISON = previous


@pytest.mark.parametrize("shapes,axis", CASES, ids=str)
def test_bucketed_concat_equals_numpy(shapes, axis, poisoned):
    rng = np.random.default_rng(len(shapes))
    arrs = [rng.standard_normal(s) for s in shapes]
    arrs[0] = (arrs[0] * 10).astype(np.int32)    # promotion: int32 with float64
    xs = [xp.asarray(a) for a in arrs]
    assert all(x._padded() is not False for x in xs)
    got = xp.concat(xs, axis=axis)
    want = np.concatenate(arrs, axis=axis)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(got), want)
    # the result's padding stays out of what a consumer reads (sums: another order)
    np.testing.assert_allclose(np.asarray(xp.sum(got, axis=axis)), want.sum(axis=axis),
                               rtol=1e-12, atol=1e-9)


def test_other_lengths_in_the_same_buckets_compile_nothing(poisoned):
    rng = np.random.default_rng(7)
    first = [rng.standard_normal((300, 20)), rng.standard_normal((200, 20))]
    xp.concat([xp.asarray(a) for a in first])
    xp.concat([xp.asarray(a) for a in first[::-1]])
    before = K.compile_count()
    for n1, n2 in [(200, 200), (250, 240), (210, 300), (129, 383)]:
        arrs = [rng.standard_normal((n1, 20)), rng.standard_normal((n2, 20))]
        got = xp.concat([xp.asarray(a) for a in arrs])
        np.testing.assert_array_equal(np.asarray(got), np.concatenate(arrs))
    assert K.compile_count() == before
