"""Direct sparse solves (``spsolve``, ``splu``, ``factorized``) against SciPy and NumPy:
SPD, nonsymmetric and singular matrices, float32/float64/complex128, one and several
right-hand sides, eagerly, under ``jax.jit`` with the matrix as an argument, ``vmap``, and
gradients against the adjoint formulas computed densely."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.sparse as sps
import scipy.sparse.linalg as spla

import laxarray as xp
import laxarray.sparse as sp
from laxarray.sparse import linalg as L

# this module's own jax code (jax.jit/grad/vmap on NumPy float64 values, jax.numpy oracles)
# is a 64-bit jax program: see the jax_x64 fixture (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("jax_x64")

FORMATS = ["bcoo", "bcsr"]
DTYPES = [np.float32, np.float64, np.complex128]


def _ours(fmt, a):
    return sp.BCOO.from_scipy_sparse(a) if fmt == "bcoo" else sp.BCSR.from_scipy_sparse(a)


def _poisson(k):
    t = sps.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(k, k))
    return sps.csr_array(sps.kron(sps.eye(k), t) + sps.kron(t, sps.eye(k)))


def _nonsymmetric(n, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = sps.random_array((n, n), density=0.08, rng=rng, data_sampler=rng.standard_normal)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * sps.random_array((n, n), density=0.08, rng=rng,
                                      data_sampler=rng.standard_normal)
    return sps.csr_array((a + 4 * sps.eye(n)).astype(dtype))


def _tol(dtype):
    return dict(rtol=2e-4, atol=2e-4) if np.dtype(dtype) == np.float32 else dict(
        rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_spsolve_matches_scipy(fmt, dtype):
    rng = np.random.default_rng(1)
    for a in (_poisson(6).astype(dtype), _nonsymmetric(40, dtype)):
        n = a.shape[0]
        m = _ours(fmt, a)
        for b in (rng.standard_normal(n), rng.standard_normal((n, 3))):
            b = b.astype(dtype)
            want = spla.spsolve(sps.csc_array(a), b)
            np.testing.assert_allclose(np.linalg.solve(a.toarray(), b), want, **_tol(dtype))
            got = L.spsolve(m, b)
            assert got.dtype == np.dtype(dtype) and got.shape == b.shape
            np.testing.assert_allclose(np.asarray(got), want, **_tol(dtype))
            jitted = jax.jit(lambda mat, v: L.spsolve(mat, v)._value)(m, b)
            np.testing.assert_allclose(np.asarray(jitted), want, **_tol(dtype))


@pytest.mark.parametrize("fmt", FORMATS)
def test_spsolve_gradients_are_the_adjoint_solve(fmt):
    a = _nonsymmetric(30, np.float64, seed=2)
    m = _ours(fmt, a)
    rng = np.random.default_rng(3)
    b, w = rng.standard_normal(30), rng.standard_normal(30)
    dense = a.toarray()
    x = np.linalg.solve(dense, b)
    y = np.linalg.solve(dense.T, w)                # A^T y = w
    rows, cols = a.nonzero()                       # storage order of the canonical CSR

    def loss(data, v):
        mat = (sp.BCOO((data, m.indices), shape=m.shape) if fmt == "bcoo" else
               sp.BCSR((data, m.indices, m.indptr), shape=m.shape))
        return jnp.sum(L.spsolve(mat, v)._value * w)
    g_data, g_b = jax.jit(jax.grad(loss, argnums=(0, 1)))(m.data, b)
    np.testing.assert_allclose(np.asarray(g_b), y, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(np.asarray(g_data), -y[rows] * x[cols], rtol=1e-10,
                               atol=1e-12)
    # several right-hand sides: the data cotangent sums over them
    B, W = rng.standard_normal((30, 2)), rng.standard_normal((30, 2))
    X, Y = np.linalg.solve(dense, B), np.linalg.solve(dense.T, W)
    g = jax.grad(lambda d: jnp.sum(L.spsolve(sp.BCOO((d, m._as_bcoo().indices),
                                                     shape=m.shape), B)._value * W))(m.data)
    np.testing.assert_allclose(np.asarray(g), -(Y[rows] * X[cols]).sum(1), rtol=1e-10,
                               atol=1e-12)


def test_spsolve_vmaps_over_right_hand_sides():
    a = _poisson(5)
    m = sp.BCSR.from_scipy_sparse(a)
    bs = np.random.default_rng(4).standard_normal((4, 25))
    got = jax.vmap(lambda v: L.spsolve(m, v)._value)(bs)
    np.testing.assert_allclose(np.asarray(got), np.linalg.solve(a.toarray(), bs.T).T,
                               rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("fmt", FORMATS)
def test_singular_matrix(fmt):
    a = sps.csr_array(np.array([[1.0, 2.0, 0.0], [2.0, 4.0, 0.0], [0.0, 0.0, 1.0]]))
    m = _ours(fmt, a)
    with pytest.raises(np.linalg.LinAlgError, match="spsolve.*singular"):
        L.spsolve(m, np.ones(3))
    with pytest.raises(np.linalg.LinAlgError, match="splu.*singular"):
        L.splu(m)
    traced = jax.jit(lambda mat, v: L.spsolve(mat, v)._value)(m, np.ones(3))
    assert np.all(np.isnan(np.asarray(traced)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_splu_reuses_one_factorisation(dtype):
    a = _nonsymmetric(35, dtype, seed=5)
    lu = L.splu(sp.BCSR.from_scipy_sparse(a))
    ref = spla.splu(sps.csc_array(a))
    assert lu.shape == (35, 35) and lu.dtype == np.dtype(dtype)
    assert lu.nnz == ref.L.nnz + ref.U.nnz
    rng = np.random.default_rng(6)
    solve = L.factorized(sp.BCOO.from_scipy_sparse(a))
    jitted = jax.jit(lambda v: lu.solve(v)._value)
    for b in (rng.standard_normal(35), rng.standard_normal((35, 4))):
        b = b.astype(dtype)
        for trans in ("N", "T", "H"):
            np.testing.assert_allclose(np.asarray(lu.solve(b, trans)), ref.solve(b, trans),
                                       **_tol(dtype))
        np.testing.assert_allclose(np.asarray(jitted(b)), ref.solve(b), **_tol(dtype))
        np.testing.assert_allclose(np.asarray(solve(b)), ref.solve(b), **_tol(dtype))
    t_jit = jax.jit(lambda v: lu.solve(v, "H")._value)(b)
    np.testing.assert_allclose(np.asarray(t_jit), ref.solve(b, "H"), **_tol(dtype))


def test_splu_solve_gradient_and_vmap():
    a = _nonsymmetric(25, np.float64, seed=7)
    lu = L.splu(sp.BCSR.from_scipy_sparse(a))
    rng = np.random.default_rng(8)
    b, w = rng.standard_normal(25), rng.standard_normal(25)
    g = jax.grad(lambda v: jnp.sum(lu.solve(v)._value * w))(b)
    np.testing.assert_allclose(np.asarray(g), np.linalg.solve(a.toarray().T, w), rtol=1e-10)
    gt = jax.grad(lambda v: jnp.sum(lu.solve(v, "T")._value * w))(b)
    np.testing.assert_allclose(np.asarray(gt), np.linalg.solve(a.toarray(), w), rtol=1e-10)
    bs = rng.standard_normal((3, 25))
    out = jax.vmap(lambda v: lu.solve(v)._value)(bs)
    np.testing.assert_allclose(np.asarray(out), np.linalg.solve(a.toarray(), bs.T).T,
                               rtol=1e-10)


def test_bad_input_is_refused_before_solving():
    m = sp.BCSR.from_scipy_sparse(_poisson(3))
    with pytest.raises(TypeError, match="spsolve.*'A'"):
        L.spsolve(np.eye(3), np.ones(3))
    with pytest.raises(ValueError, match="spsolve.*square"):
        L.spsolve(sp.BCOO.fromdense(np.ones((2, 3))), np.ones(2))
    with pytest.raises(ValueError, match="spsolve.*'b' of shape"):
        L.spsolve(m, np.ones(4))
    with pytest.raises(ValueError, match="spsolve.*'b' of shape"):
        L.spsolve(m, np.ones((9, 2, 2)))
    with pytest.raises(TypeError, match="splu.*traced"):
        jax.jit(lambda mat: L.splu(mat).nnz)(m)
    with pytest.raises(ValueError, match="SparseLU.solve.*trans"):
        L.splu(m).solve(np.ones(9), "C")
    # integer matrices and right-hand sides solve in float64, as scipy does
    got = L.spsolve(sp.BCOO.from_scipy_sparse(sps.csr_array(np.array([[2, 0], [0, 4]]))),
                    xp.asarray([2, 2]))
    assert got.dtype == xp.float64 and got.tolist() == [1.0, 0.5]
