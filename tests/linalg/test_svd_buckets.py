"""The thin svd of a bucketed matrix runs on its bucket (zero rows for a tall matrix, zero
columns for a wide one: one executable for every row count of a bucket). Checked against
the same function on the exact matrix (bucketing off) and against NumPy: equal singular
values and factors up to the sign of each singular pair, orthonormal factors also where
the matrix is rank-deficient (the case where padding could leak into U or V), NaN where
NumPy gives NaN; the padding is poisoned (NaN) so an unmasked pad shows."""

import numpy as np
import pytest

import laxarray as xp
from laxarray._core import buckets as B
from laxarray._core.runtime import kernel as K
from laxarray.array_api._calls import call

SHAPES = [(400, 20), (500, 20), (20, 400), (7, 3), (3, 7), (1, 5), (5, 1), (6, 6), (33, 33),
          (129, 2)]
DTYPES = [np.float64, np.float32, np.complex128]


def _input(shape, dtype, rank=None, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    if rank is not None:         # a product of thin factors: rank-deficient
        m, n = shape
        a = rng.standard_normal((m, rank)) @ rng.standard_normal((rank, n))
    return a.astype(dtype)


def _run(fn, a, bucketed):
    previous = B.set_bucket_limit(B.BUCKET_LIMIT if bucketed else 0)
    poison, B.POISON = B.POISON, bucketed
    try:
        x = xp.asarray(a)
        assert (x._padded() is not False) == bucketed
        out = fn(x)
        return [np.asarray(o) for o in (out if isinstance(out, tuple) else (out,))]
    finally:
        B.POISON = poison
        B.set_bucket_limit(previous)


def _thin(x):
    return tuple(xp.linalg.svd(x, full_matrices=False))


def _tol(dtype):
    return 2e-4 if np.dtype(dtype) == np.float32 else 1e-11


def _check_factors(a, u, s, vh, dtype):
    tol = _tol(dtype)
    k = min(a.shape)
    assert u.shape == (a.shape[0], k) and s.shape == (k,) and vh.shape == (k, a.shape[1])
    scale = max(np.abs(a).max(), 1.0)
    np.testing.assert_allclose((u * s) @ vh, a, atol=tol * scale * k, rtol=0)
    np.testing.assert_allclose(u.conj().T @ u, np.eye(k), atol=tol * 10, rtol=0)
    np.testing.assert_allclose(vh @ vh.conj().T, np.eye(k), atol=tol * 10, rtol=0)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_bucketed_svd_equals_exact_and_numpy(shape, dtype):
    a = _input(shape, dtype)
    u, s, vh = _run(_thin, a, True)
    eu, es, evh = _run(_thin, a, False)
    tol = _tol(dtype)
    np.testing.assert_allclose(s, np.linalg.svd(a, compute_uv=False), rtol=tol, atol=tol)
    np.testing.assert_allclose(s, es, rtol=tol, atol=tol)
    # factors: equal to the exact run's up to the phase of each singular pair
    phase = np.sum(u.conj() * eu, axis=0)
    phase = phase / np.where(np.abs(phase) == 0, 1, np.abs(phase))
    np.testing.assert_allclose(u * phase, eu, atol=tol * 10, rtol=0)
    np.testing.assert_allclose(vh * phase.conj()[:, None], evh, atol=tol * 10, rtol=0)
    _check_factors(a, u, s, vh, dtype)


@pytest.mark.parametrize("shape,rank", [((40, 6), 2), ((6, 40), 3), ((300, 10), 1),
                                        ((9, 9), 4)], ids=str)
def test_rank_deficient_factors_stay_orthonormal(shape, rank):
    a = _input(shape, np.float64, rank=rank, seed=rank)
    u, s, vh = _run(_thin, a, True)
    _check_factors(a, u, s, vh, np.float64)
    np.testing.assert_allclose(s, np.linalg.svd(a, compute_uv=False), atol=1e-12, rtol=1e-12)
    assert np.all(s[rank:] < 1e-12 * s[0])


@pytest.mark.parametrize("shape", [(40, 6), (6, 40)], ids=str)
def test_svdvals_and_compute_uv_false_on_the_bucket(shape):
    a = _input(shape, np.float64, seed=4)
    want = np.linalg.svd(a, compute_uv=False)
    (s,) = _run(lambda x: xp.linalg.svdvals(x), a, True)
    (s2,) = _run(lambda x: xp.linalg.svd(x, compute_uv=False), a, True)
    np.testing.assert_allclose(s, want, rtol=1e-12)
    np.testing.assert_allclose(s2, want, rtol=1e-12)


def _svdvals_and_status(x):
    from laxarray.linalg import decompositions as D
    # on the bucket where x is padded; bucketing off: the exact shape
    return call(D._svd_kernel, x, dtype=x.dtype, full_matrices=False, compute_uv=False,
                cut=None)


def test_nan_input_gives_nan_and_raises_like_the_exact_path():
    a = _input((30, 5), np.float64, seed=2)
    a[3, 1] = np.nan
    s, failed = _run(_svdvals_and_status, a, True)
    es, efailed = _run(_svdvals_and_status, a, False)
    assert np.isnan(s).all() == np.isnan(es).all() and np.isnan(s).any()
    assert bool(failed) and bool(efailed)
    with pytest.raises(np.linalg.LinAlgError, match="^SVD did not converge$"):
        np.linalg.svd(a, compute_uv=False)
    for bucketed in (True, False):
        for fn in (xp.linalg.svdvals, lambda x: xp.linalg.svd(x, full_matrices=False)):
            with pytest.raises(np.linalg.LinAlgError, match="^SVD did not converge$"):
                _run(fn, a, bucketed)


def test_one_executable_serves_the_row_counts_of_a_bucket():
    x = xp.asarray(_input((300, 20), np.float64))
    xp.linalg.svd(x, full_matrices=False)
    before = K.compile_count()
    for m in (257, 290, 400, 512):           # the bucket 512x32
        a = _input((m, 20), np.float64, seed=m)
        u, s, vh = xp.linalg.svd(xp.asarray(a), full_matrices=False)
        np.testing.assert_allclose(np.asarray(s), np.linalg.svd(a, compute_uv=False),
                                   rtol=1e-12)
    assert K.compile_count() == before


def test_full_matrices_keeps_the_exact_path():
    a = _input((40, 6), np.float64, seed=1)
    u, s, vh = xp.linalg.svd(xp.asarray(a), full_matrices=True)
    assert u.shape == (40, 40) and vh.shape == (6, 6)
    np.testing.assert_allclose(np.asarray(u).T @ np.asarray(u), np.eye(40), atol=1e-12)
