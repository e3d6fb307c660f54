"""laxarray.sparse.linalg solvers against scipy.sparse.linalg / NumPy on random problems."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.sparse as sps
import scipy.sparse.linalg as sla
from hypothesis import given, settings
from hypothesis import strategies as st

import laxarray as xp
import laxarray.sparse as lsp
from laxarray.sparse import linalg as L

N = 40


def spd_matrix(rng, n=N):
    b = sps.random_array((n, n), density=0.08, rng=rng, data_sampler=rng.standard_normal)
    return (b @ b.T + sps.eye_array(n)).tocsr()


def nonsym_matrix(rng, n=N):
    b = sps.random_array((n, n), density=0.1, rng=rng, data_sampler=rng.standard_normal)
    return (b + 4.0 * sps.eye_array(n)).tocsr()


def as_format(a, fmt):
    """The operator ``a`` (scipy csr) as BCOO, BCSR, dense Array or a callable."""
    if fmt == "bcoo":
        return lsp.BCOO.from_scipy_sparse(a)
    if fmt == "bcsr":
        return lsp.BCSR.from_scipy_sparse(a)
    dense = xp.asarray(a.toarray())
    if fmt == "dense":
        return dense
    return _Matvec(dense)


class _Matvec:
    """A hashable linear-operator callable (one compiled solve per instance)."""

    def __init__(self, m):
        self.m = m

    def __call__(self, v):
        return self.m @ v


SOLVERS = [("cg", spd_matrix), ("bicgstab", nonsym_matrix), ("gmres", nonsym_matrix)]
# every operator kind for cg; the kinds share one code path, so two each for the others
CASES = ([("cg", spd_matrix, f) for f in ("bcoo", "bcsr", "dense", "callable")]
         + [("bicgstab", nonsym_matrix, f) for f in ("bcoo", "dense")]
         + [("gmres", nonsym_matrix, f) for f in ("bcsr", "callable")])


@pytest.mark.parametrize("name, make, fmt", CASES)
def test_solution_matches_scipy(name, make, fmt):
    rng = np.random.default_rng(abs(hash((name, fmt))) % 2**32)
    a, b = make(rng), rng.standard_normal(N)
    ref, ref_info = getattr(sla, name)(a, b, rtol=1e-11)
    x, info = getattr(L, name)(as_format(a, fmt), xp.asarray(b), tol=1e-11)
    assert ref_info == 0 and int(info) == 0
    np.testing.assert_allclose(np.asarray(x), ref, rtol=1e-8, atol=1e-9)
    assert np.linalg.norm(a @ np.asarray(x) - b) <= 1e-11 * np.linalg.norm(b)


@pytest.mark.parametrize("name, make", SOLVERS)
@settings(max_examples=5)
@given(seed=st.integers(0, 2**32 - 1))
def test_preconditioner_and_x0_on_random_systems(name, make, seed):
    rng = np.random.default_rng(seed)
    a, b = make(rng), rng.standard_normal(N)
    x0 = rng.standard_normal(N)
    jacobi = lsp.BCOO.from_scipy_sparse(sps.diags_array(1.0 / a.diagonal()).tocsr())
    A = lsp.BCSR.fromdense(a.toarray(), nse=N * N // 2)   # fixed nse: one compiled solve
    x, info = getattr(L, name)(A, b, x0, tol=1e-10, M=jacobi)
    assert int(info) == 0
    np.testing.assert_allclose(np.asarray(x), np.linalg.solve(a.toarray(), b), atol=1e-8)


@pytest.mark.parametrize("name, make", SOLVERS)
def test_under_jit_with_traced_matrix(name, make):
    rng = np.random.default_rng(11)
    a, b = make(rng), rng.standard_normal(N)
    solve = jax.jit(lambda A, b: getattr(L, name)(A, b, tol=1e-10))
    x, info = solve(lsp.BCOO.from_scipy_sparse(a), jnp.asarray(b))
    assert int(info) == 0
    np.testing.assert_allclose(np.asarray(x), np.linalg.solve(a.toarray(), b), atol=1e-8)


@pytest.mark.parametrize("name, make", SOLVERS)
def test_stopping_rules(name, make):
    rng = np.random.default_rng(5)
    a, b = lsp.BCOO.from_scipy_sparse(make(rng)), rng.standard_normal(N)
    x0 = rng.standard_normal(N)
    # atol above the initial residual: nothing to do, x0 comes back
    x, info = getattr(L, name)(a, b, x0, atol=1e6)
    assert int(info) == 0 and np.array_equal(np.asarray(x), x0)
    # one iteration (one cycle for gmres, restart 2) is not enough for 1e-14
    kw = {"restart": 2} if name == "gmres" else {}
    x, info = getattr(L, name)(a, b, tol=1e-14, maxiter=1, **kw)
    assert int(info) == 1
    assert np.linalg.norm(a.todense() @ x - b) > 1e-14 * np.linalg.norm(b)


def test_gmres_restart_cycles_converge_like_scipy():
    rng = np.random.default_rng(5)               # the matrix of test_stopping_rules
    a, b = nonsym_matrix(rng), rng.standard_normal(N)
    ref, _ = sla.gmres(a, b, rtol=1e-10, restart=2, maxiter=500)
    x, info = L.gmres(lsp.BCOO.from_scipy_sparse(a), b, tol=1e-10, restart=2, maxiter=500)
    assert int(info) == 0
    np.testing.assert_allclose(np.asarray(x), ref, atol=1e-8)


def test_cg_complex_hermitian():
    rng = np.random.default_rng(4)
    m = rng.standard_normal((12, 12)) + 1j * rng.standard_normal((12, 12))
    a = m @ m.conj().T + 12 * np.eye(12)
    b = rng.standard_normal(12) + 1j * rng.standard_normal(12)
    x, info = L.cg(lsp.BCOO.fromdense(a), b, tol=1e-12)
    assert int(info) == 0
    np.testing.assert_allclose(np.asarray(x), np.linalg.solve(a, b), atol=1e-10)


@pytest.fixture(scope="module")
def lsq_problem():
    rng = np.random.default_rng(9)
    a = sps.random_array((80, 30), density=0.15, rng=rng, format="csr",
                         data_sampler=rng.standard_normal)
    return a, rng.standard_normal(80)


@pytest.mark.parametrize("fmt", ["bcoo", "dense"])
def test_lsqr_matches_scipy_and_lstsq(lsq_problem, fmt):
    a, b = lsq_problem
    ref = sla.lsqr(a, b, atol=1e-12, btol=1e-12)
    r = L.lsqr(as_format(a, fmt), xp.asarray(b), atol=1e-12, btol=1e-12)
    np.testing.assert_allclose(np.asarray(r.x), np.linalg.lstsq(a.toarray(), b)[0], atol=1e-9)
    assert int(r.istop) == ref[1] and abs(int(r.itn) - ref[2]) <= 1
    for got, want in ((r.r1norm, ref[3]), (r.xnorm, ref[8])):
        np.testing.assert_allclose(float(got), want, rtol=1e-8)
    # norm and condition estimates grow with the iteration count (which may differ by one
    # near the stopping threshold): compare with scipy's after the same number of steps
    same = sla.lsqr(a, b, atol=0.0, btol=0.0, conlim=0.0, iter_lim=int(r.itn))
    assert same[2] == int(r.itn)
    np.testing.assert_allclose(float(r.anorm), same[5], rtol=1e-2)
    np.testing.assert_allclose(float(r.acond), same[6], rtol=1e-2)


def test_lsqr_damp_x0_callable_and_underdetermined(lsq_problem):
    a, b = lsq_problem
    ref = sla.lsqr(a, b, damp=0.7, atol=1e-12, btol=1e-12)
    r = L.lsqr(lsp.BCSR.from_scipy_sparse(a), b, damp=0.7, atol=1e-12, btol=1e-12)
    np.testing.assert_allclose(np.asarray(r.x), ref[0], atol=1e-9)
    np.testing.assert_allclose(float(r.r1norm), ref[3], rtol=1e-8)
    dense = xp.asarray(a.toarray())
    x0 = np.ones(30)
    rc = L.lsqr(_Matvec(dense), xp.asarray(b), xp.asarray(x0), atol=1e-12, btol=1e-12)
    np.testing.assert_allclose(np.asarray(rc.x), np.linalg.lstsq(a.toarray(), b)[0],
                               atol=1e-9)
    wide = a.T.tocsr()                       # 30 x 80: the minimum-norm solution
    bw = b[:30]
    ru = L.lsqr(lsp.BCOO.from_scipy_sparse(wide), bw, atol=1e-12, btol=1e-12)
    np.testing.assert_allclose(np.asarray(ru.x), np.linalg.pinv(wide.toarray()) @ bw,
                               atol=1e-9)


@pytest.mark.usefixtures("jax_x64")  # NumPy float64 given to jax's own transformations
def test_lsqr_right_preconditioner_and_jit(lsq_problem):
    a, b = lsq_problem
    scale = 1.0 / np.sqrt(np.asarray(a.multiply(a).sum(axis=0)) + 1e-3)
    M = xp.asarray(np.diag(scale))
    run = jax.jit(lambda A, b, M: L.lsqr(A, b, M=M, atol=1e-12, btol=1e-12).x)
    x = run(lsp.BCOO.from_scipy_sparse(a), jnp.asarray(b), M)
    np.testing.assert_allclose(np.asarray(x), np.linalg.lstsq(a.toarray(), b)[0], atol=1e-9)


@pytest.mark.parametrize("fmt", ["bcsr", "callable"])
def test_lobpcg_largest_eigenpairs(fmt):
    rng = np.random.default_rng(3)
    n = 60
    a = spd_matrix(rng, n)
    X = rng.standard_normal((n, 3))
    theta, U, it = L.lobpcg_standard(as_format(a, fmt), X, m=200, tol=1e-9)
    want = np.linalg.eigvalsh(a.toarray())[::-1][:3]
    np.testing.assert_allclose(np.asarray(theta), want, rtol=1e-9)
    U = np.asarray(U)
    np.testing.assert_allclose(U.T @ U, np.eye(3), atol=1e-9)
    np.testing.assert_allclose(a @ U, U * np.asarray(theta)[None, :], atol=1e-6)
    assert 0 < int(it) < 200


def test_lobpcg_under_jit():
    rng = np.random.default_rng(8)
    a = spd_matrix(rng, 50)
    run = jax.jit(lambda A, X: L.lobpcg_standard(A, X, m=200, tol=1e-9)[0])
    theta = run(lsp.BCOO.from_scipy_sparse(a), jnp.asarray(rng.standard_normal((50, 2))))
    np.testing.assert_allclose(np.asarray(theta), np.linalg.eigvalsh(a.toarray())[::-1][:2],
                               rtol=1e-9)


@pytest.mark.parametrize("call, exc, match", [
    (lambda: L.cg(np.eye(3), np.ones(4)), ValueError, "cg.*shape"),
    (lambda: L.cg(np.eye(3), np.ones((3, 1))), ValueError, "cg.*1-D"),
    (lambda: L.cg(np.ones((2, 2, 2)), np.ones(2)), ValueError, "cg.*2-D"),
    (lambda: L.cg(np.eye(3), np.ones(3), tol=-1.0), ValueError, "cg.*tol"),
    (lambda: L.bicgstab(np.eye(3), np.ones(3), atol="x"), TypeError, "bicgstab.*atol"),
    (lambda: L.gmres(np.eye(3), np.ones(3), restart=0), ValueError, "gmres.*restart"),
    (lambda: L.cg(np.eye(3), np.ones(3), maxiter=-2), ValueError, "cg.*maxiter"),
    (lambda: L.cg(np.eye(3), np.ones(3), x0=np.ones(2)), ValueError, "cg.*x0"),
    (lambda: L.cg(np.eye(3), np.ones(3), M=np.eye(2)), ValueError, "cg.*M"),
    (lambda: L.cg(np.eye(3, dtype=bool), np.ones(3)), TypeError, "cg.*A"),
    (lambda: L.cg(None, np.ones(3)), TypeError, "cg.*A"),
    (lambda: L.lsqr(lambda v: v, np.ones(3)), ValueError, "lsqr.*x0"),
    (lambda: L.lsqr(np.ones((4, 3)), np.ones(3)), ValueError, "lsqr.*rows"),
    (lambda: L.lobpcg_standard(np.eye(5), np.ones(5)), ValueError, "lobpcg_standard.*X"),
    (lambda: L.lobpcg_standard(np.eye(5), np.ones((5, 5))), ValueError, "lobpcg_standard"),
    (lambda: L.lobpcg_standard(np.eye(4), np.ones((5, 2))), ValueError, "lobpcg_standard"),
])
def test_bad_arguments_raise_naming_the_solver(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
