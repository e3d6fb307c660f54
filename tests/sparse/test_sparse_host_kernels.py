"""2-D sparse @ sparse and sparse +/- sparse are kernels whose CPU host path (SciPy) is
declared on them: with the host path on and off, eagerly and under jax.jit, the results
are SciPy's, and the choice is the kernel helper's gate alone."""

import operator

import jax
import numpy as np
import pytest
import scipy.sparse as sps

import laxarray as la
import laxarray.sparse as sp
from laxarray._core.runtime import host_path as _host
from laxarray.sparse.ops import dot as _dot
from laxarray.sparse.ops import union as _union

FORMATS = [sp.BCOO, sp.BCSR]
OPS = {"add": operator.add, "sub": operator.sub}


def _random(shape, seed, dtype="float64", density=0.2):
    rng = np.random.default_rng(seed)
    return sps.random_array(shape, density=density, rng=rng, format="csr").astype(dtype)


def _products(a, b):
    return int(np.diff(b.indptr)[a.indices].sum())


def _coords(mat):
    """``(rows, cols)`` of the stored entries of an exact 2-D BCOO/BCSR."""
    if isinstance(mat, sp.BCSR):
        indptr = np.asarray(mat.indptr)
        return np.repeat(np.arange(mat.shape[0]), np.diff(indptr)), np.asarray(mat.indices)
    idx = np.asarray(mat.indices)
    return idx[:, 0], idx[:, 1]


def _uses_callback(f, *args):
    return "host_callback" in str(jax.make_jaxpr(f)(*args))


@pytest.mark.parametrize("on", [True, False], ids=["host", "lax"])
@pytest.mark.parametrize("fa", FORMATS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("fb", FORMATS, ids=lambda f: f.__name__)
def test_product_is_scipys_eager_and_jitted(on, fa, fb):
    a, b = _random((14, 9), 1), _random((9, 11), 2)
    A, B = fa.from_scipy_sparse(a), fb.from_scipy_sparse(b)
    expected = (a @ b).toarray()
    need = _products(a, b)
    with la.host_sort(on):
        c = A @ B
        padded = sp.matmul(A, B, nse=need + 3)
        jitted = jax.jit(lambda p, q: sp.matmul(p, q, nse=need).todense())(A, B)
        assert _uses_callback(lambda p, q: sp.matmul(p, q, nse=need).data, A, B) == on
        with pytest.raises(ValueError, match="nse"):
            sp.matmul(A, B, nse=need - 1)
    assert isinstance(c, sp.BCSR if fa is fb is sp.BCSR else sp.BCOO)
    assert c.unique_indices and padded.nse == need + 3
    np.testing.assert_allclose(np.asarray(c.todense()), expected, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(np.asarray(padded.todense()), expected, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(np.asarray(jitted), expected, rtol=1e-13, atol=1e-15)
    # eagerly exactly the distinct entries are stored: SciPy's (exact zeros left out) on
    # the host, the structural ones by lax
    assert c.nse == ((a @ b).nnz if on else np.count_nonzero(
        (abs(a).astype(bool).astype(int) @ abs(b).astype(bool).astype(int)).toarray()))
    # the flags hold: unique entries, and sorted where said (the lax body's always are)
    assert c.indices_sorted or on
    rows, cols = _coords(c)
    keys = rows.astype(np.int64) * c.shape[1] + cols
    assert np.unique(keys).size == keys.size
    if c.indices_sorted:
        assert np.all(np.diff(keys) > 0)


@pytest.mark.parametrize("on", [True, False], ids=["host", "lax"])
@pytest.mark.parametrize("fa", FORMATS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("fb", FORMATS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("op", list(OPS))
def test_sum_is_scipys_eager_and_jitted(on, fa, fb, op):
    a, b = _random((12, 10), 3), _random((12, 10), 4)
    A, B = fa.from_scipy_sparse(a), fb.from_scipy_sparse(b)
    expected = OPS[op](a, b).toarray()
    with la.host_sort(on):
        c = OPS[op](A, B)
        jitted = jax.jit(OPS[op])(A, B)
        assert _uses_callback(lambda p, q: OPS[op](p, q).data, A, B) == on
    assert isinstance(c, sp.BCSR if fa is fb is sp.BCSR else sp.BCOO)
    assert c.indices_sorted and c.unique_indices
    assert jitted.indices_sorted and jitted.unique_indices
    assert jitted.nse == A.nse + B.nse
    np.testing.assert_array_equal(np.asarray(c.todense()), expected)
    np.testing.assert_array_equal(np.asarray(jitted.todense()), expected)
    assert c.nse == np.count_nonzero(expected)


def test_the_gates_follow_the_switch_the_dtype_and_the_placement(monkeypatch):
    a = sp.BCOO.from_scipy_sparse(_random((6, 5), 5))
    b = sp.BCSR.from_scipy_sparse(_random((5, 4), 6))
    leaves = a._leaves() + b._leaves()
    for kern in (_dot._spsp_2d_kernel, _union._union_2d_kernel):
        path = kern.host
        assert path.takes(leaves, {"dtype": np.dtype(np.float64)})
        assert path.takes(leaves, {"dtype": np.dtype(np.complex64)})
        for dtype in (np.bool_, np.float16):
            assert not path.takes(leaves, {"dtype": np.dtype(dtype)})
        with la.host_sort(False):
            assert not path.takes(leaves, {"dtype": np.dtype(np.float64)})
    monkeypatch.setattr(_host, "platform", lambda raw: "gpu")
    assert not _dot._spsp_2d_kernel.host.takes(leaves, {"dtype": np.dtype(np.float64)})


def test_a_float16_product_takes_the_lax_body():
    dense_a = np.array([[0, 1.5, 0], [1, 0, 1]], dtype=np.float16)
    dense_b = np.array([[1, 0], [0, 2], [0.5, 0]], dtype=np.float16)
    a, b = sp.BCSR.fromdense(la.asarray(dense_a)), sp.BCOO.fromdense(la.asarray(dense_b))
    assert not _uses_callback(lambda p, q: sp.matmul(p, q, nse=6).data, a, b)
    c = a @ b
    assert c.dtype == np.float16 and c.indices_sorted
    np.testing.assert_array_equal(np.asarray(c.todense()), dense_a @ dense_b)
