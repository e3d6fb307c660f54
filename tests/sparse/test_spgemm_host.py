"""Sparse @ sparse on the CPU host path (SciPy's SpGEMM) against NumPy's dense product,
eager and under jax.jit, with the lax kernel (host path off) as the second opinion."""

import jax
import numpy as np
import pytest
import scipy.sparse as sps

import laxarray as la
import laxarray.sparse as sp
from laxarray import checkify as ck
from laxarray._core import modes

# this module's own jax code (jax.jit/grad/vmap on NumPy float64 values, jax.numpy oracles)
# is a 64-bit jax program: see the jax_x64 fixture (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("jax_x64")

FORMATS = [sp.BCOO, sp.BCSR]


def _operands(fa, fb, dtype, seed=0):
    a = sps.random(30, 20, 0.2, random_state=seed, format="csr", dtype=np.float64)
    b = sps.random(20, 25, 0.2, random_state=seed + 1, format="csr", dtype=np.float64)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * sps.random(30, 20, 0.2, random_state=seed + 2, format="csr")
        b = b - 1j * b
    if np.dtype(dtype).kind == "i":
        a.data, b.data = np.ceil(a.data * 5), np.ceil(b.data * 5)
    a, b = a.astype(dtype), b.astype(dtype)
    return a, b, fa.from_scipy_sparse(a), fb.from_scipy_sparse(b)


def _products(a, b):
    return int(np.diff(b.indptr)[a.indices].sum())


def _uses_callback(f, *args):
    return "host_callback" in str(jax.make_jaxpr(f)(*args))


@pytest.mark.parametrize("fa", FORMATS)
@pytest.mark.parametrize("fb", FORMATS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int32"])
def test_eager_product_matches_dense(fa, fb, dtype):
    a, b, la_a, la_b = _operands(fa, fb, dtype)
    c = la_a @ la_b
    expected = a.toarray() @ b.toarray()
    assert c.dtype == expected.dtype
    assert isinstance(c, sp.BCSR if fa is fb is sp.BCSR else sp.BCOO)
    np.testing.assert_allclose(np.asarray(c.todense()), expected, rtol=1e-5)
    # exactly the entries of the product are stored, each once
    assert c.nse == (a @ b).nnz
    with modes.host_sort(False):
        lax_c = la_a @ la_b
    np.testing.assert_allclose(np.asarray(lax_c.todense()), expected, rtol=1e-5)


@pytest.mark.parametrize("fmt", FORMATS)
def test_transposed_contraction_and_duplicates(fmt):
    # duplicates and padding in a BCOO operand, and A.T @ B through dot_general
    rows = np.array([0, 1, 1, 3, 0, 4])
    cols = np.array([2, 0, 0, 1, 2, 3])
    vals = np.array([1.0, 2.0, 3.0, -1.0, 4.0, 0.5])
    a = sp.BCOO((la.asarray(np.append(vals, 9.0)),
                 la.asarray(np.append(np.stack([rows, cols], 1), [[5, 0]], 0))), shape=(5, 4))
    dense_a = np.zeros((5, 4))
    np.add.at(dense_a, (rows, cols), vals)
    b = fmt.fromdense(la.asarray(np.arange(15.0).reshape(5, 3) - 7))
    c = sp.dot_general(a, b, (((0,), (0,)), ((), ())))
    np.testing.assert_allclose(np.asarray(c.todense()), dense_a.T @ (np.arange(15.0).reshape(5, 3) - 7))


def test_cancelled_entries_are_left_out_eagerly():
    # (1, -1) @ (1, 1)^T sums to exactly 0: SciPy's rule leaves the entry out
    a = sp.BCSR.fromdense(la.asarray([[1.0, -1.0], [2.0, 0.0]]))
    b = sp.BCSR.fromdense(la.asarray([[1.0, 0.0], [1.0, 3.0]]))
    c = a @ b
    np.testing.assert_array_equal(np.asarray(c.todense()), [[0.0, -3.0], [2.0, 0.0]])
    assert c.nse == 2


@pytest.mark.parametrize("fa", FORMATS)
@pytest.mark.parametrize("fb", FORMATS)
def test_jit_argument_matches_dense_and_uses_the_host(fa, fb):
    a, b, la_a, la_b = _operands(fa, fb, "float64")
    need = _products(a, b)
    f = lambda p, q: sp.matmul(p, q, nse=need)  # noqa: E731
    out = jax.jit(lambda p, q: f(p, q).todense())(la_a, la_b)
    np.testing.assert_allclose(np.asarray(out), a.toarray() @ b.toarray(), rtol=1e-12)
    assert _uses_callback(lambda p, q: f(p, q).data, la_a, la_b)
    with modes.host_sort(False):
        assert not _uses_callback(lambda p, q: f(p, q).data, la_a, la_b)


@pytest.mark.parametrize("fmt", FORMATS)
def test_jit_overflow_is_reported_and_values_are_nan(fmt):
    a, b, la_a, la_b = _operands(fmt, fmt, "float64")
    need = _products(a, b)
    checked = jax.jit(ck.checkify(lambda p, q: sp.matmul(p, q, nse=need - 1).todense()))
    err, out = checked(la_a, la_b)
    assert err.get() is not None and "products" in err.get()
    assert np.isnan(np.asarray(out)).any()
    err, out = jax.jit(ck.checkify(lambda p, q: sp.matmul(p, q, nse=need).todense()))(
        la_a, la_b)
    assert err.get() is None
    with pytest.raises(ValueError, match="nse"):
        sp.matmul(la_a, la_b, nse=need - 1)


@pytest.mark.parametrize("fa", FORMATS)
def test_grad_through_the_host_product(fa):
    # d/dA.data of sum(W * (A @ B)) is (W @ B.T) at A's entries
    a, b, la_a, la_b = _operands(fa, sp.BCSR, "float64")
    need = _products(a, b)
    W = np.random.default_rng(0).standard_normal((30, 25))

    def loss(d):
        return (sp.matmul(la_a._with_data(d), la_b, nse=need).todense()._value * W).sum()

    g = np.asarray(jax.jit(jax.grad(loss))(la_a.data))
    coo = a.tocoo()
    order = np.lexsort((coo.col, coo.row))
    G = W @ b.toarray().T
    expected = G[coo.row[order], coo.col[order]]
    np.testing.assert_allclose(g[:expected.size], expected, rtol=1e-12)


def test_vmap_over_data_is_one_product_per_element():
    a, b, la_a, la_b = _operands(sp.BCSR, sp.BCSR, "float64")
    need = _products(a, b)
    stack = np.stack([a.data, 2 * a.data, -a.data])
    out = jax.vmap(lambda d: sp.matmul(la_a._with_data(d), la_b, nse=need).todense()._value)(
        stack)
    for k, s in enumerate((1.0, 2.0, -1.0)):
        np.testing.assert_allclose(np.asarray(out[k]), s * (a.toarray() @ b.toarray()),
                                   rtol=1e-12)
